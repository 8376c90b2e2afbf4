//! 16-byte blocks: which bytes of a block are one of a few needles, as a bitmask (bit `i` for
//! byte `i`).
//!
//! For the short, frequent searches of a reader (the gap between two references in
//! entity-escaped HTML, the name of a reference) a whole-block compare is cheaper than
//! starting a vector search: no call, no setup, and one block usually holds the answer.
//!
//! SSE2 on x86_64 ([`super::v128`]), where it is part of the baseline; a portable loop
//! elsewhere. The tests check that both give the same masks.
//!
//! The escaping copy built on them ([`copy_escaped`], [`copy_marked`]): a value copied block
//! by block, the bytes a mask marks replaced; [`copy_marked`] steps 32 bytes at a time with
//! AVX2 in long values (checked at run time; the tests compare every path with a
//! byte-by-byte copy).

/// Bytes per block.
pub(crate) const BLOCK: usize = 16;

/// The block of `bytes` at `from`, when 16 bytes are left there.
#[inline(always)]
pub(crate) fn at(bytes: &[u8], from: usize) -> Option<&[u8; BLOCK]> {
    bytes.get(from..from.checked_add(BLOCK)?)?.try_into().ok()
}

/// Bit `i` set where `block[i]` equals one of `needles`.
#[inline(always)]
pub(crate) fn eq_mask<const N: usize>(block: &[u8; BLOCK], needles: [u8; N]) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        sse2::eq_mask(block, needles)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        portable_eq_mask(block, needles)
    }
}

/// The bytes a copy marks ([`copy_marked`]): those below `limit` (as unsigned bytes; 0 for
/// none), and those with `b | bits == needle` for one of `folded`'s `(bits, needle)`: a pair
/// with `bits` 0 is one needle; one with a bit set (in `needle` too) is the two needles that
/// differ in just that bit, for one compare (`"` and `&` are `0x22 | 4` and `0x26`).
///
/// Data rather than a closure, so that the same marks are compiled at 16 bytes ([`Marks::mask`])
/// and at 32 (the AVX2 loop of [`copy_marked`], which takes them as a [`MarkSet`]'s constant).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Marks<const N: usize> {
    /// Bytes below it are marked (0: none).
    pub(crate) limit: u8,
    /// `(bits, needle)`: bytes `b` with `b | bits == needle` are marked.
    pub(crate) folded: [(u8, u8); N],
}

/// [`Marks`] known at compile time, for [`copy_marked`]: its loops are compiled with the
/// needles as constants (given as a value, the out-of-line AVX2 loop would load and test
/// them on every call).
pub(crate) trait MarkSet<const N: usize> {
    /// The marks.
    const MARKS: Marks<N>;
}

impl<const N: usize> Marks<N> {
    /// Bit `i` set where `block[i]` is marked.
    #[inline(always)]
    pub(crate) fn mask(&self, block: &[u8; BLOCK]) -> u32 {
        #[cfg(target_arch = "x86_64")]
        {
            sse2::marks_mask(block, *self)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            portable_marks_mask(block, *self)
        }
    }

    /// Whether the byte `b` is marked: the definition the masks are tested against.
    #[inline(always)]
    fn marks(&self, b: u8) -> bool {
        b < self.limit || self.folded.iter().any(|&(bits, n)| b | bits == n)
    }
}

/// Bit `i` set where `block[i] < limit` (as unsigned bytes; `limit` > 0).
#[inline(always)]
pub(crate) fn lt_mask(block: &[u8; BLOCK], limit: u8) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        sse2::lt_mask(block, limit)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        portable_lt_mask(block, limit)
    }
}

/// Length of the longest prefix of `bytes` made of whole 128-byte chunks free of C0 control
/// characters other than TAB, LF and CR: where a search for the first forbidden control
/// can start. For the one scan of the whole input the reader makes; 0 where AVX2 is not
/// available (the caller's own loop then does all the work).
pub(crate) fn control_free_prefix(bytes: &[u8]) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: AVX2 was detected on this CPU just above.
            return unsafe { avx2::control_free_prefix(bytes) };
        }
    }
    let _ = bytes;
    0
}

/// Blocks [`find_in_blocks`] compares before it gives up: 64 bytes. Most gaps a reader
/// searches across (a title, a URL in an attribute, the text between two references) end
/// within them, and four inline block compares cost less than the call and set-up of a
/// vector search (`memchr` spends ~50 instructions on a short haystack before its first
/// compare).
pub(crate) const NEAR_BLOCKS: usize = 4;

/// Index of the first byte equal to one of `needles` in the whole blocks at `from`, looking
/// at most [`NEAR_BLOCKS`] of them: `Err(i)` when none holds one, `i` being the first index
/// not looked at (`from` itself when fewer than 16 bytes are left there).
#[inline(always)]
pub(crate) fn find_in_blocks<const N: usize>(
    bytes: &[u8],
    from: usize,
    needles: [u8; N],
) -> Result<usize, usize> {
    let mut i = from;
    for _ in 0..NEAR_BLOCKS {
        let Some(b) = at(bytes, i) else { break };
        let mask = eq_mask(b, needles);
        if mask != 0 {
            return Ok(i + mask.trailing_zeros() as usize);
        }
        i += BLOCK;
    }
    Err(i)
}

/// Index of the first byte of `bytes` equal to `needle`. Most searches of a reader end close
/// by: block compares first ([`find_in_blocks`]), a vector search beyond them, a plain loop
/// for what is shorter than a block.
#[inline(always)]
pub(crate) fn find_byte(bytes: &[u8], needle: u8) -> Option<usize> {
    find_any(bytes, [needle])
}

/// Index of the first byte of `bytes` equal to one of `needles` (one to three), searched as
/// [`find_byte`] does.
#[inline(always)]
pub(crate) fn find_any<const N: usize>(bytes: &[u8], needles: [u8; N]) -> Option<usize> {
    let from = match find_in_blocks(bytes, 0, needles) {
        Ok(i) => return Some(i),
        Err(from) => from,
    };
    let rest = &bytes[from..];
    if rest.len() < BLOCK {
        // Fewer than 16 bytes left (the end of a tag's last attribute value, of a short text):
        // one padded block, the padding masked out (so any pad will do, even a needle), where
        // a byte loop cost ~5 instructions a byte.
        let m = eq_mask(&tail_block(rest, 0), needles) & ((1u32 << rest.len()) - 1);
        return (m != 0).then(|| from + m.trailing_zeros() as usize);
    }
    let found = match *needles.as_slice() {
        [a] => memchr::memchr(a, rest),
        [a, b] => memchr::memchr2(a, b, rest),
        [a, b, c] => memchr::memchr3(a, b, c, rest),
        _ => rest.iter().position(|b| needles.contains(b)),
    };
    found.map(|i| from + i)
}

/// Most bytes an escaped byte becomes in [`copy_escaped`], per input byte it replaces
/// (`\u00XX` for one byte; `&nbsp;` for two).
pub(crate) const MAX_ESCAPE: usize = 6;

/// Input bytes [`copy_escaped`] reserves output room for at once: the output grows with the
/// input, never by six times a long value in one step.
const ESCAPE_ROUND: usize = 4096;

/// The bytes of `bytes` (fewer than 16) as a block, padded with `pad`; no call to `memcpy`.
#[inline(always)]
pub(crate) fn tail_block(bytes: &[u8], pad: u8) -> [u8; BLOCK] {
    let mut b = [pad; BLOCK];
    let n = bytes.len();
    if n >= 8 {
        b[..8].copy_from_slice(&bytes[..8]);
        b[n - 8..n].copy_from_slice(&bytes[n - 8..]);
    } else if n >= 4 {
        b[..4].copy_from_slice(&bytes[..4]);
        b[n - 4..n].copy_from_slice(&bytes[n - 4..]);
    } else if n > 0 {
        // One to three bytes: first, middle and last (they overlap for one and two); a
        // variable-length copy here would be a `memcpy` call.
        b[0] = bytes[0];
        b[n / 2] = bytes[n / 2];
        b[n - 1] = bytes[n - 1];
    }
    b
}

/// Appends `src` to `out`; one padded-block store (no `memcpy` call) when it is shorter than
/// a block. For the short strings a writer appends between values (JSON keys).
#[inline(always)]
#[cfg(feature = "json")]
pub(crate) fn push_short(out: &mut Vec<u8>, src: &[u8]) {
    let n = src.len();
    if n >= BLOCK {
        out.extend_from_slice(src);
        return;
    }
    let blk = tail_block(src, 0);
    out.reserve(BLOCK);
    let o = out.len();
    // SAFETY: `BLOCK` bytes of room were reserved at `o`; only the `n` bytes of `src` are
    // counted as written.
    unsafe {
        std::ptr::write_unaligned(out.as_mut_ptr().add(o).cast::<[u8; BLOCK]>(), blk);
        out.set_len(o + n);
    }
}

/// Appends `src` to `out` when it is shorter than a block and `flag` marks none of its bytes
/// (one padded block: a compare and a 16-byte store, no `memcpy` call), and returns true;
/// else appends nothing and returns false. The fast path of [`copy_escaped`] for short
/// values (names), where its set-up costs more than the copy. `pad` as in [`copy_escaped`].
/// It is [`copy_short_clean_between`] with nothing before or after `src`.
#[inline(always)]
#[cfg(feature = "json")]
pub(crate) fn copy_short_clean(
    out: &mut Vec<u8>,
    src: &[u8],
    pad: u8,
    flag: impl Fn(&[u8; BLOCK]) -> u32,
) -> bool {
    copy_short_clean_between(out, [], src, [], pad, flag)
}

/// [`copy_short_clean`] between fixed bytes: appends `pre`, `src` and `post` under one
/// reservation when `src` is shorter than a block and `flag` marks none of its bytes (three
/// stores), and returns true; else appends nothing and returns false. For a name and the
/// markup around it (`</p>`), where three appends cost three reservations.
#[inline(always)]
#[cfg(feature = "json")]
pub(crate) fn copy_short_clean_between<const P: usize, const Q: usize>(
    out: &mut Vec<u8>,
    pre: [u8; P],
    src: &[u8],
    post: [u8; Q],
    pad: u8,
    flag: impl Fn(&[u8; BLOCK]) -> u32,
) -> bool {
    let n = src.len();
    if n >= BLOCK {
        return false;
    }
    let blk = tail_block(src, pad);
    if flag(&blk) & ((1u32 << n) - 1) != 0 {
        return false;
    }
    out.reserve(P + BLOCK + Q);
    let o = out.len();
    // SAFETY: `P + BLOCK + Q` bytes of room were reserved at `o`: `pre` ends at `o + P`, the
    // block at `o + P + BLOCK`, `post` at `o + P + n + Q` (`n < BLOCK`); `post` overwrites
    // the block's padding, and only the `P + n + Q` bytes of the three are counted.
    unsafe {
        let dst = out.as_mut_ptr().add(o);
        std::ptr::write_unaligned(dst.cast::<[u8; P]>(), pre);
        std::ptr::write_unaligned(dst.add(P).cast::<[u8; BLOCK]>(), blk);
        std::ptr::write_unaligned(dst.add(P + n).cast::<[u8; Q]>(), post);
        out.set_len(o + P + n + Q);
    }
    true
}

/// Appends `src` to `out`, every byte `flag` marks (bit `i` for byte `i` of a block) replaced:
/// `escape(src, i)` gives the replacement of the marked byte `src[i]` (its first `len` bytes,
/// at most [`MAX_ESCAPE`] per input byte replaced) and how many input bytes it replaces: at
/// least 1, and at most the rest of `src` (a whole UTF-8 sequence; all of the rest to end
/// the copy early), possibly past the current round; a marked byte that needs nothing
/// returns itself. `pad` is a byte `flag` never marks.
///
/// Each block of `src` is stored to the output whole before it is looked at (room for it is
/// reserved), then the write position moves past its clean bytes only: a run of clean bytes
/// costs one load, one store and one mask per 16 bytes, and no `memcpy` call.
#[inline(always)]
pub(crate) fn copy_escaped(
    out: &mut Vec<u8>,
    src: &[u8],
    pad: u8,
    flag: impl Fn(&[u8; BLOCK]) -> u32,
    escape: impl Fn(&[u8], usize) -> ([u8; 8], usize, usize),
) {
    copy_escaped_by::<BLOCK>(out, src, pad, &flag, &flag, escape);
}

/// Bytes from which [`copy_marked`] copies 32 bytes a step with AVX2. Below, the call to the
/// AVX2 loop and its feature check cost more than the 16-byte steps they save (most text
/// nodes and attribute values are shorter).
pub(crate) const WIDE_FROM: usize = 64;

/// [`copy_escaped`] of the bytes `M` marks: 32 bytes a step where the CPU has AVX2 and `src`
/// is at least [`WIDE_FROM`] bytes long, else 16 (the same output either way).
#[inline(always)]
pub(crate) fn copy_marked<M: MarkSet<N>, const N: usize>(
    out: &mut Vec<u8>,
    src: &[u8],
    pad: u8,
    marks: M,
    escape: impl Fn(&[u8], usize) -> ([u8; 8], usize, usize),
) {
    #[cfg(target_arch = "x86_64")]
    if src.len() >= WIDE_FROM && std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: AVX2 was detected on this CPU just above.
        unsafe { avx2::copy_marked(out, src, pad, marks, escape) };
        return;
    }
    let _ = marks;
    copy_escaped(out, src, pad, |b| M::MARKS.mask(b), escape);
}

/// One step of [`copy_escaped_by`], `V` bytes wide: the `V` bytes of `src` at `i` stored at
/// `o` in `dst`, then both positions moved past the clean bytes, or up to the first byte
/// `mask` marks, which `replace` replaces.
///
/// # Safety
///
/// `i + V <= src.len()`, `dst` is valid for writes of `room` bytes with `o + V <= room`, and
/// `mask` sets no bit at or above `V` (a marked byte is one of the `V` stored: the positions
/// move past written bytes only).
#[inline(always)]
unsafe fn step<const V: usize>(
    src: &[u8],
    dst: *mut u8,
    room: usize,
    i: &mut usize,
    o: &mut usize,
    mask: &impl Fn(&[u8; V]) -> u32,
    replace: &impl Fn(&mut usize, &mut usize),
) {
    debug_assert!(*i + V <= src.len());
    // SAFETY: `i + V <= src.len()` (the caller's contract): the step's bytes are in `src`.
    let blk = unsafe { std::ptr::read_unaligned(src.as_ptr().add(*i).cast::<[u8; V]>()) };
    debug_assert!(*o + V <= room);
    // SAFETY: `o + V <= room` (the caller's contract).
    unsafe { std::ptr::write_unaligned(dst.add(*o).cast::<[u8; V]>(), blk) };
    let m = mask(&blk);
    if m == 0 {
        *i += V;
        *o += V;
        return;
    }
    let k = m.trailing_zeros() as usize;
    debug_assert!(k < V);
    *i += k;
    *o += k;
    replace(i, o);
}

/// The loop of [`copy_escaped`], `W` bytes a step (16, or 32 in the AVX2 copy, whose steps
/// `wide` masks): the steps of a round while `W` bytes are left in it, then 16-byte blocks,
/// then a padded block for the last bytes.
#[inline(always)]
fn copy_escaped_by<const W: usize>(
    out: &mut Vec<u8>,
    src: &[u8],
    pad: u8,
    wide: &impl Fn(&[u8; W]) -> u32,
    flag: &impl Fn(&[u8; BLOCK]) -> u32,
    escape: impl Fn(&[u8], usize) -> ([u8; 8], usize, usize),
) {
    debug_assert!(W == BLOCK || W == 2 * BLOCK);
    let n = src.len();
    let mut i = 0;
    while i < n {
        let end = n.min(i + ESCAPE_ROUND);
        // Room: every input byte of the round becomes at most MAX_ESCAPE output bytes, and a
        // store writes at most `W` bytes from the write position. Invariant below: the bytes
        // written this round are at most MAX_ESCAPE times the input bytes consumed, and every
        // store happens with an input byte of the round still unconsumed, so each store ends
        // within `len + (end - round start) * MAX_ESCAPE + W`.
        out.reserve((end - i) * MAX_ESCAPE + 2 * W);
        let room = out.capacity();
        let mut o = out.len();
        let dst = out.as_mut_ptr();
        let replace = |i: &mut usize, o: &mut usize| {
            let (rep, len, used) = escape(src, *i);
            debug_assert!(used >= 1 && *i + used <= src.len());
            debug_assert!(len <= 8 && len <= used * MAX_ESCAPE);
            debug_assert!(*o + 8 <= room);
            // SAFETY: within the reserved room (invariant above).
            unsafe { std::ptr::write_unaligned(dst.add(*o).cast::<[u8; 8]>(), rep) };
            *o += len;
            *i += used;
        };
        while i + W <= end {
            // SAFETY: `i + W <= end <= n`, and within the reserved room (invariant above).
            unsafe { step::<W>(src, dst, room, &mut i, &mut o, wide, &replace) };
        }
        // The last 16 to 31 bytes of a round of 32-byte steps, 16 at a time (no loop at all
        // for 16-byte steps).
        while W > BLOCK && i + BLOCK <= end {
            // SAFETY: `i + 16 <= end <= n`, and within the reserved room (invariant above).
            unsafe { step::<BLOCK>(src, dst, room, &mut i, &mut o, flag, &replace) };
        }
        if end == n {
            // The last bytes, fewer than a block. NOTE: written apart from the loop above on
            // purpose: one loop choosing between a whole and a padded block per iteration
            // measured 2.5 % more instructions on the whole corpus job (518.4 M -> 531.5 M).
            while i < n {
                let rest = n - i;
                let blk = tail_block(&src[i..], pad);
                debug_assert!(o + BLOCK <= room);
                // SAFETY: within the reserved room (invariant above).
                unsafe { std::ptr::write_unaligned(dst.add(o).cast::<[u8; BLOCK]>(), blk) };
                let m = flag(&blk) & ((1u32 << rest) - 1);
                if m == 0 {
                    o += rest;
                    break;
                }
                let k = m.trailing_zeros() as usize;
                i += k;
                o += k;
                replace(&mut i, &mut o);
            }
            i = n;
        }
        // SAFETY: every byte up to `o` was written above (blocks and replacements, each
        // counted only for the bytes that belong to the output).
        unsafe { out.set_len(o) };
    }
}

#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
fn portable_lt_mask(block: &[u8; BLOCK], limit: u8) -> u32 {
    let mut mask = 0;
    for (i, &b) in block.iter().enumerate() {
        if b < limit {
            mask |= 1 << i;
        }
    }
    mask
}

#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
fn portable_eq_mask<const N: usize>(block: &[u8; BLOCK], needles: [u8; N]) -> u32 {
    let mut mask = 0;
    for (i, &b) in block.iter().enumerate() {
        if needles.contains(&b) {
            mask |= 1 << i;
        }
    }
    mask
}

#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
fn portable_marks_mask<const N: usize>(block: &[u8; BLOCK], marks: Marks<N>) -> u32 {
    let mut mask = 0;
    for (i, &b) in block.iter().enumerate() {
        if marks.marks(b) {
            mask |= 1 << i;
        }
    }
    mask
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use super::super::v128;

    #[inline(always)]
    pub(super) fn marks_mask<const N: usize>(
        block: &[u8; super::BLOCK],
        marks: super::Marks<N>,
    ) -> u32 {
        let x = v128::load(block);
        let eq = marks.folded.map(|(bits, n)| {
            let y = if bits == 0 { x } else { v128::or(x, v128::splat(bits)) };
            v128::eq(y, n)
        });
        let below = if marks.limit == 0 { v128::any(&[]) } else { v128::below(x, marks.limit) };
        v128::bits(v128::or(below, v128::any(&eq)))
    }

    #[inline(always)]
    pub(super) fn eq_mask<const N: usize>(block: &[u8; super::BLOCK], needles: [u8; N]) -> u32 {
        let x = v128::load(block);
        v128::bits(v128::any(&needles.map(|n| v128::eq(x, n))))
    }

    #[inline(always)]
    pub(super) fn lt_mask(block: &[u8; super::BLOCK], limit: u8) -> u32 {
        v128::bits(v128::below(v128::load(block), limit))
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use core::arch::x86_64::{
        __m256i, _mm256_adds_epu8, _mm256_andnot_si256, _mm256_cmpeq_epi8, _mm256_loadu_si256,
        _mm256_min_epu8, _mm256_movemask_epi8, _mm256_or_si256, _mm256_set1_epi8, _mm256_setr_epi8,
        _mm256_setzero_si256, _mm256_shuffle_epi8,
    };

    /// [`super::copy_marked`] 32 bytes a step.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn copy_marked<M: super::MarkSet<N>, const N: usize>(
        out: &mut Vec<u8>,
        src: &[u8],
        pad: u8,
        _: M,
        escape: impl Fn(&[u8], usize) -> ([u8; 8], usize, usize),
    ) {
        let wide = |blk: &[u8; 32]| marks_mask(blk, M::MARKS);
        super::copy_escaped_by::<32>(out, src, pad, &wide, &|b| M::MARKS.mask(b), escape);
    }

    /// [`super::Marks::mask`] of 32 bytes.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn marks_mask<const N: usize>(blk: &[u8; 32], marks: super::Marks<N>) -> u32 {
        // SAFETY: `loadu` reads the 32 bytes `blk` refers to, with no alignment requirement.
        let x = unsafe { _mm256_loadu_si256(blk.as_ptr().cast()) };
        let mut m = if marks.limit == 0 {
            _mm256_setzero_si256()
        } else {
            // x < limit  <=>  min(x, limit - 1) == x (unsigned).
            _mm256_cmpeq_epi8(_mm256_min_epu8(x, _mm256_set1_epi8((marks.limit - 1) as i8)), x)
        };
        for (bits, n) in marks.folded {
            let y = if bits == 0 { x } else { _mm256_or_si256(x, _mm256_set1_epi8(bits as i8)) };
            m = _mm256_or_si256(m, _mm256_cmpeq_epi8(y, _mm256_set1_epi8(n as i8)));
        }
        _mm256_movemask_epi8(m) as u32
    }

    /// See [`super::control_free_prefix`].
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn control_free_prefix(bytes: &[u8]) -> usize {
        const CHUNK: usize = 128;
        let below_space = _mm256_set1_epi8(0x1f);
        // TAB, LF and CR by one table lookup: `x + 0x70` (saturating) keeps the bytes below
        // 0x10 below 0x80, where the shuffle looks up their low nibble (0xff at 9, 10 and
        // 13), and takes every other byte to 0x80 or above, for which the shuffle gives 0.
        #[rustfmt::skip]
        let ws_by_nibble = {
            let (o, w) = (0, -1);
            _mm256_setr_epi8(
                o, o, o, o, o, o, o, o, o, w, w, o, o, w, o, o,
                o, o, o, o, o, o, o, o, o, w, w, o, o, w, o, o,
            )
        };
        let to_lookup = _mm256_set1_epi8(0x70);
        let mut done = 0;
        for chunk in bytes.chunks_exact(CHUNK) {
            let mut bad = _mm256_set1_epi8(0);
            for i in (0..CHUNK).step_by(32) {
                // SAFETY: `chunk` holds CHUNK initialized bytes, so the 32 bytes at `i` are in
                // bounds; `loadu` has no alignment requirement.
                let x: __m256i = unsafe { _mm256_loadu_si256(chunk.as_ptr().add(i).cast()) };
                // x < 0x20  <=>  min(x, 0x1f) == x (unsigned).
                let control = _mm256_cmpeq_epi8(_mm256_min_epu8(x, below_space), x);
                let allowed = _mm256_shuffle_epi8(ws_by_nibble, _mm256_adds_epu8(x, to_lookup));
                bad = _mm256_or_si256(bad, _mm256_andnot_si256(allowed, control));
            }
            if _mm256_movemask_epi8(bad) != 0 {
                break;
            }
            done += CHUNK;
        }
        done
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_free_prefix_stops_at_the_chunk_of_the_first_control() {
        // Every byte value at every position of a chunk: the prefix ends exactly at the chunk
        // holding the first forbidden control (0 without AVX2, where the caller does it all).
        let avx2 = cfg!(target_arch = "x86_64") && std::arch::is_x86_feature_detected!("avx2");
        for value in 0..=255u8 {
            for at in [0, 1, 31, 32, 100, 127, 128, 200, 383] {
                let mut bytes = vec![b'a'; 384];
                bytes[at] = value;
                let forbidden = value < 0x20 && !matches!(value, b'\t' | b'\n' | b'\r');
                let want = if !avx2 {
                    0
                } else if forbidden {
                    at / 128 * 128
                } else {
                    384
                };
                assert_eq!(control_free_prefix(&bytes), want, "{value:#x} at {at}");
            }
        }
    }

    #[test]
    fn eq_mask_agrees_with_the_portable_loop() {
        let mut rand = crate::test_rng(0x853c_49e6_748f_ea9b);
        let alphabet = [b'&', b';', b'\r', b'\n', b'<', b'a', 0, 0x7f, 0x80, 0xff];
        for _ in 0..100_000 {
            let mut block = [0u8; BLOCK];
            for b in &mut block {
                let r = rand();
                *b = if r.is_multiple_of(3) {
                    r as u8 >> 1
                } else {
                    alphabet[(r >> 8) as usize % alphabet.len()]
                };
            }
            assert_eq!(
                eq_mask(&block, [b'&', b'\r']),
                portable_eq_mask(&block, [b'&', b'\r']),
                "{block:?}"
            );
            assert_eq!(
                eq_mask(&block, [b';', b'&']),
                portable_eq_mask(&block, [b';', b'&']),
                "{block:?}"
            );
            assert_eq!(eq_mask(&block, [0xff]), portable_eq_mask(&block, [0xff]), "{block:?}");
            assert_eq!(
                eq_mask(&block, [b'<', b'&', b'\r']),
                portable_eq_mask(&block, [b'<', b'&', b'\r']),
                "{block:?}"
            );
            for limit in [0x20, 1, 0x80, 0x81, 0xff] {
                assert_eq!(
                    lt_mask(&block, limit),
                    portable_lt_mask(&block, limit),
                    "{block:?} < {limit}"
                );
            }
            for marks in [
                Marks { limit: 0x20, folded: [(4, b'&'), (2, b'>'), (0, 0xC2), (0, b'\\')] },
                Marks { limit: 0, folded: [(0, b'&'), (2, b'>'), (0, 0xC2), (0, 0xC2)] },
                Marks { limit: 0x80, folded: [(0, 0x80); 4] },
            ] {
                assert_eq!(marks.mask(&block), portable_marks_mask(&block, marks), "{block:?}");
            }
        }
        // The JSON writer's folded needles are exactly `" & < > 0xC2 \\` (every byte value,
        // at every position).
        for b in 0..=255u8 {
            for at in 0..BLOCK {
                let mut block = [b'a'; BLOCK];
                block[at] = b;
                let marks =
                    Marks { limit: 0x20, folded: [(4, b'&'), (2, b'>'), (0, 0xC2), (0, b'\\')] };
                assert_eq!(
                    marks.mask(&block),
                    lt_mask(&block, 0x20) | eq_mask(&block, [b'"', b'&', b'<', b'>', 0xC2, b'\\']),
                    "{b:#x} at {at}"
                );
            }
        }
        assert_eq!(at(b"short", 0), None);
        assert_eq!(at(&[1; 20], 4), Some(&[1; 16]));
        assert_eq!(at(&[1; 20], 5), None);
        assert_eq!(at(&[1; 20], usize::MAX), None);
    }

    /// The padded block of a short slice holds its bytes, then the pad (every length below a
    /// block: the one-to-three-byte case stores first, middle and last byte); `push_short`
    /// appends what `extend_from_slice` appends, whatever the length.
    #[test]
    fn tail_block_and_push_short_copy_every_length() {
        let src: Vec<u8> = (1..=40u8).collect();
        for n in 0..BLOCK {
            let b = tail_block(&src[..n], 0xEE);
            assert_eq!(b[..n], src[..n], "len {n}");
            assert!(b[n..].iter().all(|&x| x == 0xEE), "len {n}");
        }
        #[cfg(feature = "json")]
        for n in 0..=src.len() {
            let mut out = b"xy".to_vec();
            push_short(&mut out, &src[..n]);
            let mut want = b"xy".to_vec();
            want.extend_from_slice(&src[..n]);
            assert_eq!(out, want, "len {n}");
        }
        // `copy_short_clean_between`: appends under a block, clean; else nothing.
        #[cfg(feature = "json")]
        for n in 0..=src.len() {
            for dirty in [None, Some(0), Some(n / 2), Some(n.saturating_sub(1))] {
                let mut s = src[..n].to_vec();
                if let Some(d) = dirty.filter(|&d| d < n) {
                    s[d] = b'"';
                }
                let flag = |blk: &[u8; BLOCK]| eq_mask(blk, [b'"']);
                let mut out = b"xy".to_vec();
                let done = copy_short_clean_between(&mut out, *b"</", &s, *b"=\\\"", 0, flag);
                let clean = !s.contains(&b'"');
                assert_eq!(done, n < BLOCK && clean, "len {n} dirty {dirty:?}");
                let mut want = b"xy".to_vec();
                if done {
                    want.extend_from_slice(b"</");
                    want.extend_from_slice(&s);
                    want.extend_from_slice(b"=\\\"");
                }
                assert_eq!(out, want, "len {n} dirty {dirty:?}");
            }
        }
    }

    /// The copy byte by byte: every marked byte replaced by its escape (here: a marked byte
    /// `b` becomes `[b]` repeated up to six times, a marked 0xC2 0xA0 pair one `~`).
    fn escape_for_test(src: &[u8], i: usize) -> ([u8; 8], usize, usize) {
        match src[i] {
            0xC2 if src.get(i + 1) == Some(&0xA0) => ([b'~'; 8], 1, 2),
            b => ([b'[', b, b']', b'[', b, b']', 0, 0], 1 + usize::from(b) % 6, 1),
        }
    }

    fn copy_reference<const N: usize>(out: &mut Vec<u8>, src: &[u8], marks: Marks<N>) {
        let mut i = 0;
        while i < src.len() {
            if marks.marks(src[i]) {
                let (rep, len, used) = escape_for_test(src, i);
                out.extend_from_slice(&rep[..len]);
                i += used;
            } else {
                out.push(src[i]);
                i += 1;
            }
        }
    }

    /// Every copy path (16-byte steps, and 32 with AVX2 where the CPU has it; `copy_marked`,
    /// which chooses by length) writes what the byte-by-byte copy writes: strings of 0 to 200
    /// bytes (every block and step boundary) with each special byte, and non-ASCII, at every
    /// offset, and with pairs of them; after a non-empty output.
    #[test]
    fn copy_paths_agree_with_the_byte_by_byte_copy() {
        struct Html;
        impl MarkSet<4> for Html {
            const MARKS: Marks<4> =
                Marks { limit: 0x20, folded: [(4, b'&'), (2, b'>'), (0, 0xC2), (0, b'\\')] };
        }
        let marks = Html::MARKS;
        let specials =
            [b'&', b'"', b'<', b'>', b'\\', 0, b'\n', 0x1f, 0xC2, 0xA0, 0xE2, 0x7f, b' '];
        let check = |src: &[u8]| {
            let mut want = b"xy".to_vec();
            copy_reference(&mut want, src, marks);
            let mut got = b"xy".to_vec();
            copy_escaped(&mut got, src, b'a', |b| marks.mask(b), escape_for_test);
            assert_eq!(got, want, "16: {src:?}");
            let mut got = b"xy".to_vec();
            copy_marked(&mut got, src, b'a', Html, escape_for_test);
            assert_eq!(got, want, "marked: {src:?}");
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                let mut got = b"xy".to_vec();
                // SAFETY: AVX2 was detected just above.
                unsafe { avx2::copy_marked(&mut got, src, b'a', Html, escape_for_test) };
                assert_eq!(got, want, "32: {src:?}");
            }
        };
        for len in 0..=200usize {
            let base: Vec<u8> = (0..len).map(|k| b'a' + (k % 26) as u8).collect();
            check(&base);
            for at in 0..len {
                for &b in &specials {
                    let mut src = base.clone();
                    src[at] = b;
                    if b == 0xC2 && at + 1 < len {
                        // U+00A0 too (a two-byte escape), maybe across a step boundary.
                        src[at + 1] = 0xA0;
                        check(&src);
                        src[at + 1] = b'a';
                    }
                    check(&src);
                    // A second special 1, 15, 16, 17 and 31 bytes on.
                    for d in [1, 15, 16, 17, 31] {
                        if at + d < len {
                            let mut two = src.clone();
                            two[at + d] = b'"';
                            check(&two);
                        }
                    }
                }
            }
        }
        // Dense escapes, and long values across the 4 KiB rounds.
        let mut next = crate::test_rng(0x9E37_79B9_7F4A_7C15);
        for len in [300, 4095, 4096, 4097, 9000] {
            let src: Vec<u8> = (0..len)
                .map(|_| {
                    let state = next();
                    if state.is_multiple_of(5) {
                        specials[(state >> 8) as usize % specials.len()]
                    } else {
                        b'a' + (state >> 16) as u8 % 26
                    }
                })
                .collect();
            check(&src);
            check(&vec![b'a'; len]);
        }
    }

    #[test]
    fn find_any_and_find_in_blocks_agree_with_a_plain_search_at_every_position() {
        // Sparse needles: one (or two) at every position of haystacks 0..200 bytes long,
        // searched from every start in the first 70 bytes, so that each block boundary
        // (16, 32, 48, 64) and the hand-over to memchr after `NEAR_BLOCKS` are crossed.
        for len in 0..200usize {
            for at in (0..len).map(Some).chain([None]) {
                let mut bytes = vec![b'a'; len];
                if let Some(at) = at {
                    bytes[at] = b'<';
                    if at + 17 < len {
                        bytes[at + 17] = 0x80;
                    }
                }
                for from in 0..len.min(70) {
                    let naive = bytes[from..].iter().position(|&b| b == b'<').map(|i| from + i);
                    let hay = &bytes[from..];
                    assert_eq!(
                        find_byte(hay, b'<').map(|i| from + i),
                        naive,
                        "{len} {at:?} {from}"
                    );
                    assert_eq!(find_any(hay, [b'z', b'<']).map(|i| from + i), naive);
                    assert_eq!(find_any(hay, [b'z', b'y', b'<']).map(|i| from + i), naive);
                    // A needle equal to the padding of a short tail is not found there.
                    assert_eq!(find_any(hay, [0, b'<']).map(|i| from + i), naive);
                    match find_in_blocks(&bytes, from, [b'<']) {
                        Ok(i) => assert_eq!(Some(i), naive, "{len} {at:?} {from}"),
                        Err(i) => {
                            // Stopped after whole blocks only, at most NEAR_BLOCKS of them.
                            assert_eq!((i - from) % BLOCK, 0);
                            assert!(i - from <= NEAR_BLOCKS * BLOCK && i <= len);
                            assert!(len - i < BLOCK || i - from == NEAR_BLOCKS * BLOCK);
                            assert!(naive.is_none_or(|n| n >= i), "{len} {at:?} {from}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn find_byte_agrees_with_a_plain_search() {
        let mut next = crate::test_rng(0x2545_f491_4f6c_dd1d);
        for _ in 0..100_000 {
            let state = next();
            let len = (state % 70) as usize;
            let bytes: Vec<u8> = (0..len)
                .map(|k| [b'a', b'"', b'\'', 0x80, b'<'][((state >> (k % 50)) % 5) as usize])
                .collect();
            for needle in [b'"', b'\'', b'<', b'z'] {
                assert_eq!(
                    find_byte(&bytes, needle),
                    bytes.iter().position(|&b| b == needle),
                    "{bytes:?} {needle}"
                );
                let either = bytes.iter().position(|&b| b == needle || b == b'<');
                assert_eq!(find_any(&bytes, [needle, b'<']), either, "{bytes:?} {needle}");
                let three = bytes.iter().position(|&b| b == needle || b == b'<' || b == 0x80);
                assert_eq!(find_any(&bytes, [needle, b'<', 0x80]), three, "{bytes:?} {needle}");
            }
        }
    }
}
