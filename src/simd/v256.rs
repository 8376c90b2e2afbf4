//! AVX2 lane operations on 32 bytes, for code compiled with AVX2 enabled.
//!
//! # Safety
//! Every function is `unsafe`: it may be called only where the CPU has AVX2 — in practice
//! from a `#[target_feature(enable = "avx2")]` function reached after a runtime check
//! (`is_x86_feature_detected!("avx2")`), into which these `#[inline(always)]` helpers are
//! inlined. Only [`load`] touches memory.
//!
//! Comparisons are signed, as in [`super::v128`]'s `*_signed` ones: bytes `>= 0x80` are
//! negative, below every ASCII bound.

pub(crate) use core::arch::x86_64::__m256i as V256;
use core::arch::x86_64::{
    _mm256_and_si256, _mm256_cmpeq_epi8, _mm256_cmpgt_epi8, _mm256_loadu_si256,
    _mm256_movemask_epi8, _mm256_or_si256, _mm256_set1_epi8,
};

/// The 32 bytes at `bytes[at..at + 32]` (unaligned load).
///
/// # Safety
/// AVX2 (module docs); `at + 32 <= bytes.len()`.
#[inline(always)]
pub(crate) unsafe fn load(bytes: &[u8], at: usize) -> V256 {
    debug_assert!(at + 32 <= bytes.len());
    // SAFETY: the caller guarantees AVX2 and that the 32 bytes at `at` are in bounds;
    // `loadu` has no alignment requirement.
    unsafe { _mm256_loadu_si256(bytes.as_ptr().add(at).cast()) }
}

/// Every byte `c`.
///
/// # Safety
/// AVX2 (module docs).
#[inline(always)]
pub(crate) unsafe fn splat(c: u8) -> V256 {
    // SAFETY: the caller guarantees AVX2.
    unsafe { _mm256_set1_epi8(c as i8) }
}

/// Bytes of `x` equal to `c`.
///
/// # Safety
/// AVX2 (module docs).
#[inline(always)]
pub(crate) unsafe fn eq(x: V256, c: u8) -> V256 {
    // SAFETY: the caller guarantees AVX2.
    unsafe { _mm256_cmpeq_epi8(x, splat(c)) }
}

/// Bytes selected in `a` or in `b`.
///
/// # Safety
/// AVX2 (module docs).
#[inline(always)]
pub(crate) unsafe fn or(a: V256, b: V256) -> V256 {
    // SAFETY: the caller guarantees AVX2.
    unsafe { _mm256_or_si256(a, b) }
}

/// Bytes of `x` below `c`, compared as signed bytes.
///
/// # Safety
/// AVX2 (module docs).
#[inline(always)]
pub(crate) unsafe fn lt_signed(x: V256, c: u8) -> V256 {
    // SAFETY: the caller guarantees AVX2.
    unsafe { _mm256_cmpgt_epi8(splat(c), x) }
}

/// Bytes `v` of `x` with `lo < v < hi`, compared as signed bytes.
///
/// # Safety
/// AVX2 (module docs).
#[inline(always)]
pub(crate) unsafe fn between_signed(x: V256, lo: u8, hi: u8) -> V256 {
    // SAFETY: the caller guarantees AVX2.
    unsafe { _mm256_and_si256(_mm256_cmpgt_epi8(x, splat(lo)), _mm256_cmpgt_epi8(splat(hi), x)) }
}

/// The selection as a bitmask: bit `i` for byte `i`.
///
/// # Safety
/// AVX2 (module docs).
#[inline(always)]
pub(crate) unsafe fn bits(m: V256) -> u32 {
    // SAFETY: the caller guarantees AVX2.
    unsafe { _mm256_movemask_epi8(m) as u32 }
}
