//! Names of records: how a path or a tar member name (any bytes) is written in a record's
//! `source`, so that two different names never give the same source.
//!
//! A name is written as its bytes read as UTF-8, with two escapes: a byte that is not part of
//! valid UTF-8 is `\xNN` (two lowercase hex digits), and a backslash is `\\`. A `\` in a
//! source therefore always starts an escape, and the bytes are recovered by reading `\\` as
//! `\` and `\xNN` as the byte: a file named with the four characters `\xff` is `\\xff`, one
//! whose name holds the byte 0xFF is `\xff`. (On Windows, whose paths the standard library
//! holds as WTF-8, a separator `\` is `\\` too.)

use std::path::Path;

/// The name of `b` for a record's source (see the module docs).
pub fn escape_name(b: &[u8]) -> String {
    let mut out = String::with_capacity(b.len());
    for chunk in b.utf8_chunks() {
        let valid = chunk.valid();
        let mut rest = valid;
        while let Some(i) = rest.find('\\') {
            out.push_str(&rest[..i]);
            out.push_str("\\\\");
            rest = &rest[i + 1..];
        }
        out.push_str(rest);
        for x in chunk.invalid() {
            out.push_str(&format!("\\x{x:02x}"));
        }
    }
    out
}

/// The name of path `p` for a record's source (see [`escape_name`]).
pub fn path_name(p: &Path) -> String {
    escape_name(p.as_os_str().as_encoded_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bytes of a name written by [`escape_name`].
    fn unescape(s: &str) -> Vec<u8> {
        let (b, mut out, mut i) = (s.as_bytes(), Vec::new(), 0);
        while i < b.len() {
            match (b[i], b.get(i + 1)) {
                (b'\\', Some(b'\\')) => {
                    out.push(b'\\');
                    i += 2;
                }
                (b'\\', Some(b'x')) => {
                    out.push(u8::from_str_radix(&s[i + 2..i + 4], 16).unwrap());
                    i += 4;
                }
                (b'\\', _) => panic!("a lone backslash in {s:?}"),
                (c, _) => {
                    out.push(c);
                    i += 1;
                }
            }
        }
        out
    }

    #[test]
    fn names_that_differ_stay_apart_and_read_back() {
        let names: [&[u8]; 9] = [
            b"a\xff.xml",
            b"a\\xff.xml",
            b"a\\\\xff.xml",
            b"caf\xe9.xml",
            b"caf\xc3\xa9.xml",
            b"dir\\file",
            b"\\",
            b"\xff\xfe\\x",
            b"",
        ];
        let written: Vec<String> = names.iter().map(|n| escape_name(n)).collect();
        assert_eq!(
            written,
            [
                "a\\xff.xml",
                "a\\\\xff.xml",
                "a\\\\\\\\xff.xml",
                "caf\\xe9.xml",
                "café.xml",
                "dir\\\\file",
                "\\\\",
                "\\xff\\xfe\\\\x",
                "",
            ]
        );
        for (n, w) in names.iter().zip(&written) {
            assert_eq!(unescape(w), *n, "{w}");
        }
        // Every byte, alone and after a backslash.
        for x in 0..=255u8 {
            for n in [vec![x], vec![b'\\', x], vec![x, b'x', b'4', b'1']] {
                assert_eq!(unescape(&escape_name(&n)), n);
            }
        }
    }
}
