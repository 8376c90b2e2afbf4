//! Byte-class bit masks over 64-byte blocks of text, for the scans of plain-text extraction
//! (`html::text`'s collapsing and word counts).
//!
//! A block is the 64 bytes at `text[i..i + 64]`, or, for the last bytes of a text, those bytes
//! followed by padding (see [`block`]); bit `j` of a mask describes byte `j` of the
//! block. On x86_64 the masks come from AVX2 when the CPU has it (two 32-byte vectors) and
//! from SSE2 otherwise (four 16-byte vectors; SSE2 is part of the x86_64 baseline): a few
//! compares and a `movemask` per vector and class, written once over `crate::simd::Lanes`.
//! Elsewhere a portable loop computes the same bits.
//! Tests check every implementation against the byte-by-byte definitions.
//!
//! Invariants: the classes are exact for every byte value (bytes `>= 0x80` never fall into
//! an ASCII class); nothing here reads outside the block it was given.

/// The block at `b[i..]`: the 64 bytes there, or, when fewer are left, those bytes followed
/// by `pad` bytes (written into `scratch`). Also returns how many bytes of `b` it holds.
#[inline]
pub(crate) fn block<'b>(
    b: &'b [u8],
    i: usize,
    pad: u8,
    scratch: &'b mut [u8; 64],
) -> (&'b [u8; 64], usize) {
    if let Some(chunk) = b.get(i..i + 64) {
        if let Ok(full) = chunk.try_into() {
            return (full, 64);
        }
    }
    let rest = &b[i.min(b.len())..];
    *scratch = [pad; 64];
    scratch[..rest.len()].copy_from_slice(rest);
    (scratch, rest.len())
}

/// The byte after the block at `b[i..]` (`pad` past the end of `b`).
#[inline]
pub(crate) fn byte_after(b: &[u8], i: usize, pad: u8) -> u8 {
    b.get(i + 64).copied().unwrap_or(pad)
}

/// An implementation of the masks. The scans are generic over it and instantiated once per
/// implementation; the AVX2 instance is called from a function compiled with AVX2 enabled
/// (see [`Avx2`]), so that the mask code inlines into the scan loop and the masks stay in
/// registers: no call and no feature check per block.
pub(crate) trait Classify: Copy {
    fn word(self, block: &[u8; 64]) -> WordMasks;
    fn collapse(self, block: &[u8; 64]) -> CollapseMasks;
}

/// The masks every CPU of the target computes: SSE2 on x86_64, the portable loop elsewhere.
#[derive(Clone, Copy)]
pub(crate) struct Baseline;

impl Classify for Baseline {
    #[inline(always)]
    fn word(self, block: &[u8; 64]) -> WordMasks {
        baseline::word_masks(block)
    }

    #[inline(always)]
    fn collapse(self, block: &[u8; 64]) -> CollapseMasks {
        baseline::collapse_masks(block)
    }
}

#[cfg(target_arch = "x86_64")]
use imp::sse2 as baseline;
#[cfg(not(target_arch = "x86_64"))]
use portable as baseline;

/// The AVX2 masks; a value exists only where the CPU has AVX2, and POPCNT and BMI1 (which
/// every AVX2 CPU has; [`Avx2::detect`] checks all three). Callers pass it to a generic scan
/// from inside a `#[target_feature(enable = "avx2,popcnt,bmi1")]` function, so that bit
/// counts in the scan are single instructions too.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub(crate) struct Avx2(());

#[cfg(target_arch = "x86_64")]
impl Avx2 {
    /// `Some` when the CPU has AVX2, POPCNT and BMI1 (the answers are cached by `std`).
    #[inline]
    pub(crate) fn detect() -> Option<Avx2> {
        use std::arch::is_x86_feature_detected as has;
        (has!("avx2") && has!("popcnt") && has!("bmi1")).then_some(Avx2(()))
    }
}

#[cfg(target_arch = "x86_64")]
impl Classify for Avx2 {
    #[inline(always)]
    fn word(self, block: &[u8; 64]) -> WordMasks {
        // SAFETY: an `Avx2` exists only when the CPU has AVX2.
        unsafe { imp::avx2::word_masks(block) }
    }

    #[inline(always)]
    fn collapse(self, block: &[u8; 64]) -> CollapseMasks {
        // SAFETY: as above.
        unsafe { imp::avx2::collapse_masks(block) }
    }
}

/// Byte classes for counting words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct WordMasks {
    /// ASCII whitespace: `\t \n \x0B \x0C \r` and space.
    pub ws: u64,
    /// ASCII letters and digits.
    pub alnum: u64,
    /// Bytes `>= 0x80`.
    pub high: u64,
    /// UTF-8 continuation bytes (`0x80..=0xBF`).
    pub cont: u64,
}

/// Byte classes for collapsing whitespace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CollapseMasks {
    /// ASCII whitespace other than the space: `\t \n \x0B \x0C \r`.
    pub ws_ctl: u64,
    /// The space, `0x20`.
    pub space: u64,
    /// Lead bytes of the non-ASCII `White_Space` characters: `0xC2` (U+0085, U+00A0), `0xE1`
    /// (U+1680), `0xE2` (U+2000–U+205F), `0xE3` (U+3000). Most such bytes start characters
    /// that are not whitespace (`’` is `E2 80 99`): the caller decodes them.
    pub ws_lead: u64,
}

/// Byte-by-byte definitions of the classes (the portable implementation, and the reference
/// the SIMD one is tested against).
#[cfg(any(test, not(target_arch = "x86_64")))]
mod portable {
    use super::{CollapseMasks, WordMasks};

    fn mask(bytes: &[u8; 64], class: impl Fn(u8) -> bool) -> u64 {
        bytes.iter().enumerate().fold(0, |m, (j, &b)| m | ((class(b) as u64) << j))
    }

    pub(crate) fn word_masks(bytes: &[u8; 64]) -> WordMasks {
        WordMasks {
            ws: mask(bytes, |b| matches!(b, b'\t'..=b'\r' | b' ')),
            alnum: mask(bytes, |b| b.is_ascii_alphanumeric()),
            high: mask(bytes, |b| b >= 0x80),
            cont: mask(bytes, |b| (0x80..0xC0).contains(&b)),
        }
    }

    pub(crate) fn collapse_masks(bytes: &[u8; 64]) -> CollapseMasks {
        CollapseMasks {
            ws_ctl: mask(bytes, |b| matches!(b, b'\t'..=b'\r')),
            space: mask(bytes, |b| b == b' '),
            ws_lead: mask(bytes, |b| matches!(b, 0xC2 | 0xE1..=0xE3)),
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod imp {
    //! The classes, written once over [`Lanes`] and compiled twice: SSE2 (four 16-byte
    //! vectors per block; part of the x86_64 baseline: [`super::Baseline`]) and AVX2 (two
    //! 32-byte vectors; where [`super::Avx2::detect`] finds it). Byte compares are signed:
    //! bytes `>= 0x80` are negative, so they are below every ASCII bound and each ASCII range
    //! test excludes them without a separate check.
    use super::{CollapseMasks, WordMasks};
    use crate::simd::Lanes;

    /// The block's 64-bit mask of `class`, one vector at a time (the compiler keeps each
    /// vector's load for all the classes of a block).
    ///
    /// # Safety
    /// `V`'s operations are available ([`Lanes`]).
    #[inline(always)]
    unsafe fn gather<V: Lanes>(bytes: &[u8; 64], class: impl Fn(V) -> V) -> u64 {
        let mut mask = 0;
        let mut at = 0;
        while at < 64 {
            // SAFETY: the caller's contract; `at + V::BYTES <= 64`.
            mask |= (unsafe { class(V::load(bytes, at)).bits() } as u64) << at;
            at += V::BYTES;
        }
        mask
    }

    /// # Safety
    /// `V`'s operations are available ([`Lanes`]).
    #[inline(always)]
    unsafe fn word_masks<V: Lanes>(bytes: &[u8; 64]) -> WordMasks {
        // SAFETY (the closures' calls too): the caller's contract.
        unsafe {
            WordMasks {
                ws: gather(bytes, |x: V| x.between_signed(0x08, 0x0E).or(x.eq(b' '))),
                // ASCII letters are the bytes that `| 0x20` turns into `a..=z`.
                alnum: gather(bytes, |x: V| {
                    x.between_signed(0x2F, 0x3A).or(x.or(V::splat(0x20)).between_signed(0x60, 0x7B))
                }),
                high: gather(bytes, |x: V| x),
                // 0x80..=0xBF are the signed bytes below 0xC0 (-64).
                cont: gather(bytes, |x: V| x.lt_signed(0xC0)),
            }
        }
    }

    /// # Safety
    /// `V`'s operations are available ([`Lanes`]).
    #[inline(always)]
    unsafe fn collapse_masks<V: Lanes>(bytes: &[u8; 64]) -> CollapseMasks {
        // SAFETY (the closures' calls too): the caller's contract.
        unsafe {
            CollapseMasks {
                ws_ctl: gather(bytes, |x: V| x.between_signed(0x08, 0x0E)),
                space: gather(bytes, |x: V| x.eq(b' ')),
                // 0xC2, and 0xE1..=0xE3 (signed: strictly between 0xE0 and 0xE4).
                ws_lead: gather(bytes, |x: V| x.eq(0xC2).or(x.between_signed(0xE0, 0xE4))),
            }
        }
    }

    pub(super) mod sse2 {
        use super::super::{CollapseMasks, WordMasks};
        use crate::simd::v128::V128;

        #[inline]
        pub(in super::super) fn word_masks(bytes: &[u8; 64]) -> WordMasks {
            // SAFETY: SSE2 is part of the x86_64 baseline.
            unsafe { super::word_masks::<V128>(bytes) }
        }

        #[inline]
        pub(in super::super) fn collapse_masks(bytes: &[u8; 64]) -> CollapseMasks {
            // SAFETY: as above.
            unsafe { super::collapse_masks::<V128>(bytes) }
        }
    }

    pub(super) mod avx2 {
        use super::super::{CollapseMasks, WordMasks};
        use crate::simd::v256::V256;

        /// Word-counter masks of one 64-byte block.
        ///
        /// # Safety
        /// The CPU must support AVX2 (callers hold an [`Avx2`](super::super::Avx2) token).
        #[inline]
        #[target_feature(enable = "avx2")]
        pub(in super::super) unsafe fn word_masks(bytes: &[u8; 64]) -> WordMasks {
            // SAFETY: AVX2 is enabled here (the caller's contract).
            unsafe { super::word_masks::<V256>(bytes) }
        }

        /// Whitespace-collapsing masks of one 64-byte block.
        ///
        /// # Safety
        /// The CPU must support AVX2 (callers hold an [`Avx2`](super::super::Avx2) token).
        #[inline]
        #[target_feature(enable = "avx2")]
        pub(in super::super) unsafe fn collapse_masks(bytes: &[u8; 64]) -> CollapseMasks {
            // SAFETY: AVX2 is enabled here (the caller's contract).
            unsafe { super::collapse_masks::<V256>(bytes) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every byte value at every position, against the byte-by-byte definitions.
    #[test]
    fn simd_masks_match_the_definitions() {
        for start in 0..=255u8 {
            let mut bytes = [0u8; 64];
            for (j, b) in bytes.iter_mut().enumerate() {
                *b = start.wrapping_add((j as u8).wrapping_mul(7));
            }
            assert_eq!(Baseline.word(&bytes), portable::word_masks(&bytes), "{start}");
            assert_eq!(Baseline.collapse(&bytes), portable::collapse_masks(&bytes), "{start}");
            #[cfg(target_arch = "x86_64")]
            if let Some(avx2) = Avx2::detect() {
                assert_eq!(avx2.word(&bytes), portable::word_masks(&bytes), "{start}");
                assert_eq!(avx2.collapse(&bytes), portable::collapse_masks(&bytes), "{start}");
            }
        }
    }

    #[test]
    fn short_blocks_are_padded() {
        let mut scratch = [0; 64];
        let (bytes, len) = block(b"ab c", 0, b' ', &mut scratch);
        assert_eq!(len, 4);
        assert_eq!(Baseline.word(bytes).ws, !0b1011);
        let (_, len) = block(b"ab c", 4, b' ', &mut scratch);
        assert_eq!(len, 0);
        assert_eq!(byte_after(&[b'x'; 70], 0, b' '), b'x');
        assert_eq!(byte_after(&[b'x'; 64], 0, b' '), b' ');
    }
}
