//! Byte-level helpers shared by the tokenizer, the reader and the HTML fast builder: short
//! searches for markup delimiters, char boundaries, end-of-line normalization.

use crate::simd::block;

/// End-of-line normalization, as both XML (§2.11) and the HTML tokenizer's input
/// preprocessing define it: CRLF and lone CR become LF. Borrowed when `s` has no CR;
/// otherwise rewritten into the arena.
pub fn normalize_newlines<'a>(arena: &'a bumpalo::Bump, s: &'a str) -> &'a str {
    let Some(first) = memchr::memchr(b'\r', s.as_bytes()) else {
        return s;
    };
    let mut out = bumpalo::collections::String::with_capacity_in(s.len(), arena);
    out.push_str(&s[..first]);
    let mut rest = &s[first..];
    while let Some(p) = memchr::memchr(b'\r', rest.as_bytes()) {
        out.push_str(&rest[..p]);
        out.push('\n');
        rest = &rest[p + 1..];
        if rest.starts_with('\n') {
            rest = &rest[1..];
        }
    }
    out.push_str(rest);
    out.into_bump_str()
}

/// Index of the first byte equal to one of `needles` at or after `from`, looking only at
/// the next 64 bytes (block compares, [`block::find_in_blocks`]), or the next 16 (8 at a
/// time, SWAR) when less than a block is left: `Err(i)` when none is there, `i` being the
/// first index not looked at. For the short gaps of markup (indentation between tags, a
/// title, the text between references, tag names) this is cheaper than starting a vector
/// search, which the caller then runs from `i`.
#[inline(always)]
pub(crate) fn find_near<const N: usize>(
    bytes: &[u8],
    from: usize,
    needles: [u8; N],
) -> Result<usize, usize> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    match block::find_in_blocks(bytes, from, needles) {
        Err(i) if i == from => {}
        found => return found,
    }
    let mut i = from;
    for _ in 0..2 {
        let Some(word) = bytes.get(i..i + 8) else { break };
        let x = u64::from_le_bytes(word.try_into().unwrap_or([0; 8]));
        let mut found = 0;
        for n in needles {
            // A byte of y is zero where x holds n; the lowest flagged byte is always a true
            // match (borrows only flag bytes above a true one).
            let y = x ^ (LO * n as u64);
            found |= y.wrapping_sub(LO) & !y & HI;
        }
        if found != 0 {
            return Ok(i + (found.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    Err(i)
}

/// Index of the first occurrence of the three-byte `terminator` (`]]>`, `-->`) in `hay`.
/// Searches for the first byte and checks the two after it: cheaper than building a memmem
/// searcher per call, which is what these short, frequent searches would otherwise pay. The
/// first byte, not the `>`: CDATA sections mostly hold HTML, full of `>` and nearly free of
/// `]`, so the search rarely stops before the end.
pub(crate) fn find_terminator(hay: &[u8], terminator: &[u8; 3]) -> Option<usize> {
    memchr::memchr_iter(terminator[0], hay)
        .find(|&i| hay.get(i + 1) == Some(&terminator[1]) && hay.get(i + 2) == Some(&terminator[2]))
}

/// The largest char boundary of `s` at or below `i`.
pub(crate) fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    if i >= s.len() {
        return s.len();
    }
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    #[test]
    fn find_terminator_agrees_with_a_plain_search() {
        let mut rand = crate::test_rng(0x6a09_e667_f3bc_c909);
        for _ in 0..100_000 {
            let len = (rand() % 24) as usize;
            let hay: Vec<u8> =
                (0..len).map(|_| [b']', b'>', b'-', b'a'][(rand() % 4) as usize]).collect();
            for t in [b"]]>", b"-->"] {
                let naive = hay.windows(3).position(|w| w == t);
                assert_eq!(super::find_terminator(&hay, t), naive, "{hay:?} {t:?}");
            }
        }
    }

    #[test]
    fn find_near_finds_a_lone_needle_at_every_position() {
        // One needle at every position of haystacks up to 150 bytes, from every start below
        // 40: found within the 64 bytes looked at, never reported beyond what was looked at.
        for len in 0..150usize {
            for at in (0..len).map(Some).chain([None]) {
                let mut bytes = vec![b'a'; len];
                if let Some(at) = at {
                    bytes[at] = b'&';
                }
                for from in 0..len.min(40) {
                    let naive = at.filter(|&a| a >= from);
                    match super::find_near(&bytes, from, [b'<', b'&', b'\r']) {
                        Ok(i) => assert_eq!(Some(i), naive, "{len} {at:?} {from}"),
                        Err(i) => {
                            assert!(i >= from && i <= len, "{len} {at:?} {from}: {i}");
                            assert!(naive.is_none_or(|n| n >= i), "{len} {at:?} {from}");
                            // Looked at 64 bytes, or up to the last whole block or word.
                            assert!(i - from == 64 || len - i < 16, "{len} {at:?} {from}: {i}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn find_near_agrees_with_a_plain_search() {
        let mut rand = crate::test_rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..200_000 {
            let len = (rand() % 40) as usize;
            let bytes: Vec<u8> = (0..len)
                .map(|_| [b'a', b'<', b'&', 0x80, 0xff, b'\r'][(rand() % 6) as usize])
                .collect();
            let from = if len == 0 { 0 } else { rand() as usize % len };
            let naive =
                bytes[from..].iter().position(|&b| b == b'<' || b == b'&').map(|i| from + i);
            match super::find_near(&bytes, from, [b'<', b'&']) {
                Ok(i) => assert_eq!(Some(i), naive, "{bytes:?} from {from}"),
                Err(i) => {
                    assert!(i >= from && i <= bytes.len());
                    assert!(
                        naive.is_none_or(|n| n >= i),
                        "{bytes:?} from {from}: missed {naive:?}, stopped at {i}"
                    );
                }
            }
        }
    }
}
