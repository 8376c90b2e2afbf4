//! The gzip member format (RFC 1952): what a member starts with ([`MAGIC`], its header's
//! length) and the largest member inflated whole in memory ([`BIG`]).

/// The first bytes of every gzip member: ID1, ID2 and CM = 8 (deflate).
pub const MAGIC: [u8; 3] = [0x1f, 0x8b, 0x08];

/// Largest member decoded whole into the stream's reused member buffer, or by a read-ahead
/// worker (larger ones are streamed by the reading thread).
pub const BIG: usize = 4 << 20;

/// The length of the gzip member header (RFC 1952 §2.3) at the start of `b`, as
/// `GzStream` reads it (header CRC not checked).
pub fn header_len(b: &[u8]) -> Option<usize> {
    if b.len() < 10 || b[..3] != MAGIC || b[3] & 0xe0 != 0 {
        return None;
    }
    let flags = b[3];
    let mut at = 10;
    if flags & 0x04 != 0 {
        let x = b.get(at..at + 2)?;
        at += 2 + u16::from_le_bytes([x[0], x[1]]) as usize;
    }
    for bit in [0x08, 0x10] {
        if flags & bit != 0 {
            at += memchr::memchr(0, b.get(at..)?)? + 1;
        }
    }
    if flags & 0x02 != 0 {
        at += 2;
    }
    (at <= b.len()).then_some(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_lengths() {
        let mut h = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255];
        assert_eq!(header_len(&h), Some(10));
        h[3] = 0x04 | 0x08 | 0x10 | 0x02;
        h.extend([3, 0, 1, 2, 3]);
        h.extend(b"name\0comment\0");
        h.extend([0, 0]);
        assert_eq!(header_len(&h), Some(h.len()));
        assert_eq!(header_len(&h[..h.len() - 1]), None);
        assert_eq!(header_len(&h[..20]), None);
        h[3] = 0x20;
        assert_eq!(header_len(&h), None);
    }
}
