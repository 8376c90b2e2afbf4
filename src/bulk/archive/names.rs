//! Names of records: how a path or a tar member name (any bytes) is written in a record's
//! `source`, so that two different names never give the same source, and how a WARC or ARC
//! record's target URI is added to it, at most [`SOURCE_URI_MAX`] bytes of it.
//!
//! A name is written as its bytes read as UTF-8, with two escapes: a byte that is not part of
//! valid UTF-8 is `\xNN` (two lowercase hex digits), and a backslash is `\\`. A `\` in a
//! source therefore always starts an escape, and the bytes are recovered by reading `\\` as
//! `\` and `\xNN` as the byte: a file named with the four characters `\xff` is `\\xff`, one
//! whose name holds the byte 0xFF is `\xff`. (On Windows, whose paths the standard library
//! holds as WTF-8, a separator `\` is `\\` too.)

use std::fmt::Display;
use std::path::Path;

use crate::xml::floor_char_boundary;

/// Most bytes of a WARC or ARC record's target URI written in its `source`; a longer one is
/// cut at a character boundary at most this far in and marked `…`. The source locates the
/// record by its file and offset; the URI is there to be read, and is whole in the record's
/// `url` and `capture.target_uri`. A source is repeated in every revisit of its record
/// (`capture.refers_to.source`) and every lint finding on it, so a long URI (a WARC header
/// may be up to 1 MiB) must not be.
pub const SOURCE_URI_MAX: usize = 1024;

/// The source of the WARC or ARC record at `at` in the file or member `name`: `name@at`, then
/// a space and its target URI (at most [`SOURCE_URI_MAX`] bytes of it) when it has one.
pub fn record_source(name: &str, at: impl Display, target_uri: Option<&str>) -> String {
    let Some(uri) = target_uri else { return format!("{name}@{at}") };
    if uri.len() <= SOURCE_URI_MAX {
        return format!("{name}@{at} {uri}");
    }
    let cut = floor_char_boundary(uri, SOURCE_URI_MAX);
    format!("{name}@{at} {}…", &uri[..cut])
}

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
    fn a_record_source_holds_at_most_its_share_of_the_target_uri() {
        assert_eq!(record_source("a.warc", 12, None), "a.warc@12");
        assert_eq!(record_source("a.warc", "3+4", Some("http://x/")), "a.warc@3+4 http://x/");
        let whole = format!("http://x/{}", "p".repeat(SOURCE_URI_MAX - 9));
        assert_eq!(record_source("a", 0, Some(&whole)), format!("a@0 {whole}"));
        // Cut at a character boundary: `é` is two bytes, the last one past the limit.
        let long = format!("http://x/{}é{}", "p".repeat(SOURCE_URI_MAX - 10), "q".repeat(5000));
        let source = record_source("a", 0, Some(&long));
        assert_eq!(source, format!("a@0 {}…", &long[..SOURCE_URI_MAX - 1]));
        assert!(long.starts_with(source["a@0 ".len()..].trim_end_matches('…')));
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
