//! The crate's vector code: every `core::arch` intrinsic is called in this module and
//! nowhere else, each with its safety argument stated once.
//!
//! Owns:
//! - [`block`]: 16-byte blocks as bitmasks (bytes equal to one of a few needles, bytes
//!   below a bound) and the short searches built on them (`find_byte`, `find_any`), plus
//!   the AVX2 scan for forbidden control characters the XML reader runs once per input;
//!   with a portable loop on other targets;
//! - [`v128`] (SSE2, the x86_64 baseline) and [`v256`] (AVX2, where the CPU has it): the lane
//!   operations — load, splat, compare, combine, movemask — from which the byte classes of
//!   other modules are written (URL stop bytes in `model::url`, extraction's word and
//!   whitespace classes in `extract::masks`). Those classes stay with their owners, next to
//!   their byte-by-byte definitions and the tests that check the vector form against them;
//! - [`Lanes`]: both widths behind one trait (the design of `memchr`'s `Vector`), so that a
//!   class used at both widths is written once, generically.
//!
//! Byte searches with no fixed block size use the `memchr` crate (its own SIMD) directly.

pub(crate) mod block;
pub(crate) mod text_masks;
#[cfg(target_arch = "x86_64")]
pub(crate) mod v128;
#[cfg(target_arch = "x86_64")]
pub(crate) mod v256;

/// A vector of byte lanes ([`v128::V128`] or [`v256::V256`]), for byte classes written once
/// and compiled at each width. Comparisons are signed, as the `*_signed` functions of the
/// width modules.
///
/// # Safety
/// A method may need a CPU feature: none for `V128` (SSE2 is the x86_64 baseline), AVX2 for
/// `V256`. Callers guarantee it, as for the width module's function each method calls
/// (generic code is inlined into a function with the feature enabled).
#[cfg(target_arch = "x86_64")]
pub(crate) trait Lanes: Copy {
    /// Bytes per vector.
    const BYTES: usize;
    /// The `Self::BYTES` bytes at `bytes[at..]` (`at + Self::BYTES <= bytes.len()`).
    unsafe fn load(bytes: &[u8], at: usize) -> Self;
    /// Every byte `c`.
    unsafe fn splat(c: u8) -> Self;
    /// Bytes equal to `c`.
    unsafe fn eq(self, c: u8) -> Self;
    /// Bytes selected in `self` or in `other`.
    unsafe fn or(self, other: Self) -> Self;
    /// Bytes below `c`, signed.
    unsafe fn lt_signed(self, c: u8) -> Self;
    /// Bytes `v` with `lo < v < hi`, signed.
    unsafe fn between_signed(self, lo: u8, hi: u8) -> Self;
    /// The selection as a bitmask: bit `i` for byte `i`.
    unsafe fn bits(self) -> u32;
}

#[cfg(target_arch = "x86_64")]
impl Lanes for v128::V128 {
    const BYTES: usize = 16;
    #[inline(always)]
    unsafe fn load(bytes: &[u8], at: usize) -> Self {
        v128::load(bytes[at..at + 16].try_into().expect("16 bytes"))
    }
    #[inline(always)]
    unsafe fn splat(c: u8) -> Self {
        v128::splat(c)
    }
    #[inline(always)]
    unsafe fn eq(self, c: u8) -> Self {
        v128::eq(self, c)
    }
    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        v128::or(self, other)
    }
    #[inline(always)]
    unsafe fn lt_signed(self, c: u8) -> Self {
        v128::lt_signed(self, c)
    }
    #[inline(always)]
    unsafe fn between_signed(self, lo: u8, hi: u8) -> Self {
        v128::between_signed(self, lo, hi)
    }
    #[inline(always)]
    unsafe fn bits(self) -> u32 {
        v128::bits(self)
    }
}

// SAFETY (every `unsafe` block below): the caller guarantees AVX2 (the trait's contract),
// which is `v256`'s contract; `load`'s bounds are the caller's too.
#[cfg(target_arch = "x86_64")]
impl Lanes for v256::V256 {
    const BYTES: usize = 32;
    #[inline(always)]
    unsafe fn load(bytes: &[u8], at: usize) -> Self {
        unsafe { v256::load(bytes, at) }
    }
    #[inline(always)]
    unsafe fn splat(c: u8) -> Self {
        unsafe { v256::splat(c) }
    }
    #[inline(always)]
    unsafe fn eq(self, c: u8) -> Self {
        unsafe { v256::eq(self, c) }
    }
    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        unsafe { v256::or(self, other) }
    }
    #[inline(always)]
    unsafe fn lt_signed(self, c: u8) -> Self {
        unsafe { v256::lt_signed(self, c) }
    }
    #[inline(always)]
    unsafe fn between_signed(self, lo: u8, hi: u8) -> Self {
        unsafe { v256::between_signed(self, lo, hi) }
    }
    #[inline(always)]
    unsafe fn bits(self) -> u32 {
        unsafe { v256::bits(self) }
    }
}
