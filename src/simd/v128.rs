//! SSE2 lane operations on 16 bytes. SSE2 is part of the x86_64 baseline, so every function
//! here is safe: the instructions always exist, and the only memory access is [`load`]'s
//! unaligned read of the 16 bytes a `&[u8; 16]` refers to.
//!
//! Two kinds of comparison: the `*_signed` ones compare bytes as `i8` (bytes `>= 0x80` are
//! negative, so below every ASCII bound: an ASCII range test excludes them for free);
//! [`within`] and [`below`] compare as unsigned bytes.

pub(crate) use core::arch::x86_64::__m128i as V128;
use core::arch::x86_64::{
    _mm_add_epi8, _mm_and_si128, _mm_cmpeq_epi8, _mm_cmpgt_epi8, _mm_cmplt_epi8, _mm_loadu_si128,
    _mm_min_epu8, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8, _mm_setzero_si128,
};

// SAFETY (every `unsafe` block below): SSE2 is part of the x86_64 baseline, so the
// instructions are available on every CPU this code runs on; none but `load` touches memory.

/// The 16 bytes of `block` (unaligned load of exactly the bytes `block` refers to).
#[inline(always)]
pub(crate) fn load(block: &[u8; 16]) -> V128 {
    // SAFETY: see above; `loadu` has no alignment requirement and reads the 16 initialized
    // bytes of `block`.
    unsafe { _mm_loadu_si128(block.as_ptr().cast()) }
}

/// Every byte `c`.
#[inline(always)]
pub(crate) fn splat(c: u8) -> V128 {
    // SAFETY: see above.
    unsafe { _mm_set1_epi8(c as i8) }
}

/// All bytes zero (no byte selected).
#[inline(always)]
fn none() -> V128 {
    // SAFETY: see above.
    unsafe { _mm_setzero_si128() }
}

/// Bytes of `x` equal to `c`.
#[inline(always)]
pub(crate) fn eq(x: V128, c: u8) -> V128 {
    // SAFETY: see above.
    unsafe { _mm_cmpeq_epi8(x, splat(c)) }
}

/// Bytes selected in `a` or in `b`.
#[inline(always)]
pub(crate) fn or(a: V128, b: V128) -> V128 {
    // SAFETY: see above.
    unsafe { _mm_or_si128(a, b) }
}

/// Bytes selected in any of `masks`.
#[inline(always)]
pub(crate) fn any(masks: &[V128]) -> V128 {
    masks.iter().fold(none(), |a, &m| or(a, m))
}

/// Bytes of `x` below `c`, compared as signed bytes (every byte `>= 0x80` is below any
/// ASCII `c`).
#[inline(always)]
pub(crate) fn lt_signed(x: V128, c: u8) -> V128 {
    // SAFETY: see above.
    unsafe { _mm_cmplt_epi8(x, splat(c)) }
}

/// Bytes `v` of `x` with `lo < v < hi`, compared as signed bytes.
#[inline(always)]
pub(crate) fn between_signed(x: V128, lo: u8, hi: u8) -> V128 {
    // SAFETY: see above.
    unsafe { _mm_and_si128(_mm_cmpgt_epi8(x, splat(lo)), _mm_cmplt_epi8(x, splat(hi))) }
}

/// Bytes of `x` in `lo..=hi` as unsigned bytes: the range shifted down to start at
/// `i8::MIN`, then one signed compare.
#[inline(always)]
pub(crate) fn within(x: V128, lo: u8, hi: u8) -> V128 {
    debug_assert!(lo <= hi);
    // SAFETY: see above.
    unsafe {
        _mm_cmplt_epi8(_mm_add_epi8(x, splat(0x80u8.wrapping_sub(lo))), splat(0x81 + (hi - lo)))
    }
}

/// Bytes of `x` below `limit` as unsigned bytes (`limit > 0`): `min(x, limit - 1) == x`.
#[inline(always)]
pub(crate) fn below(x: V128, limit: u8) -> V128 {
    // SAFETY: see above.
    unsafe { _mm_cmpeq_epi8(_mm_min_epu8(x, splat(limit.wrapping_sub(1))), x) }
}

/// The selection as a bitmask: bit `i` for byte `i` (a byte is selected when its high bit
/// is set, which every comparison above sets on all bits of the byte).
#[inline(always)]
pub(crate) fn bits(m: V128) -> u32 {
    // SAFETY: see above.
    unsafe { _mm_movemask_epi8(m) as u32 }
}
