//! URL resolution: the spec's "parse a URL" (WHATWG URL Standard, via the `url` crate)
//! against the document base URL, returning the serialized URL.
//!
//! Invariant: a returned string is exactly `Url::join(base, input).as_str()`; equality of URLs
//! in the cleanup steps is string equality of these serializations.
//!
//! Fast path: most feed URLs are absolute `http(s)` URLs already in their WHATWG
//! serialization. [`is_canonical_http_url`] recognizes a conservative subset of those by a
//! byte scan (no allocation, no `url` crate); for it, the result *is* the input. Anything
//! outside the subset takes the `url` crate. The subset is differential-tested against the
//! `url` crate (every URL-like value of the real corpus, plus generated strings).

use bumpalo::Bump;
use url::Url;

/// Resolves `input` against `base` and returns the serialization, in the arena.
/// Unchanged serializations (input already canonical) are borrowed from the input.
pub fn resolve<'a>(arena: &'a Bump, base: &Url, input: &'a str) -> Option<&'a str> {
    if is_canonical_http_url(input) {
        return Some(input);
    }
    let url = base.join(input).ok()?;
    let s = url.as_str();
    if s == input {
        Some(input)
    } else {
        Some(arena.alloc_str(s))
    }
}

/// Bytes that stand for themselves in a path, query or fragment of a serialized special URL
/// (a subset of what the URL Standard leaves unencoded; `'` is excluded because special
/// queries encode it, `\\` because special URLs read it as `/`).
const fn plain_url_bytes() -> [bool; 256] {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric()
            || matches!(c, b'-' | b'.' | b'_' | b'~' | b'!' | b'$' | b'&' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'=' | b':' | b'@' | b'/' | b'%');
        b += 1;
    }
    t
}

static PLAIN_URL_BYTE: [bool; 256] = plain_url_bytes();

/// True when `s` is an absolute `http`/`https` URL that the URL parser would serialize to
/// exactly `s`: lowercase scheme, a lowercase ASCII domain (no port, no userinfo, no IDNA
/// `xn--` label, no empty label, last label not a number), a path starting with `/` without
/// dot segments or encoded dots, and query/fragment bytes that need no encoding.
/// One pass over the bytes (this runs on every URL of every feed).
pub fn is_canonical_http_url(s: &str) -> bool {
    let rest = match s.strip_prefix("https://").or_else(|| s.strip_prefix("http://")) {
        Some(r) => r,
        None => return false,
    };
    let b = rest.as_bytes();
    // Host: labels of [a-z0-9-], separated by single dots, up to the first '/'.
    let mut i = 0;
    let mut label_start = 0;
    loop {
        let Some(&c) = b.get(i) else {
            return false; // no path: the serializer would append "/"
        };
        if c == b'.' || c == b'/' {
            let label = &b[label_start..i];
            if label.is_empty() {
                return false;
            }
            if c == b'/' {
                // No IDNA label (kept as strict as "xn--" anywhere in the host).
                if b[..i].windows(4).any(|w| w == b"xn--") {
                    return false;
                }
                // "Ends in a number": an all-digit or 0x-prefixed last label makes the host IPv4.
                if label.iter().all(u8::is_ascii_digit) || label.starts_with(b"0x") {
                    return false;
                }
                break;
            }
            label_start = i + 1;
        } else if !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-') {
            return false;
        }
        i += 1;
    }
    // Path from the '/': plain bytes, no "." or ".." segment, no encoded dot; then query and
    // fragment: plain bytes or '?'.
    let mut seg_start = i + 1;
    i += 1;
    loop {
        let c = b.get(i).copied();
        match c {
            None | Some(b'/' | b'?' | b'#') => {
                let seg = &b[seg_start..i];
                if seg == b"." || seg == b".." {
                    return false;
                }
                match c {
                    Some(b'/') => seg_start = i + 1,
                    None => return true,
                    _ => break,
                }
            }
            Some(b'%') if matches!(b.get(i + 1..i + 3), Some(b"2e" | b"2E")) => return false,
            Some(c) if !PLAIN_URL_BYTE[c as usize] => return false,
            _ => {}
        }
        i += 1;
    }
    // Query and/or fragment: one '#' at most starts the fragment.
    let mut seen_hash = b[i] == b'#';
    for &c in &b[i + 1..] {
        if c == b'#' && !seen_hash {
            seen_hash = true;
        } else if !(PLAIN_URL_BYTE[c as usize] || c == b'?') {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(input: &str) -> Option<String> {
        let arena = Bump::new();
        let base = Url::parse("https://base/").unwrap();
        resolve(&arena, &base, input).map(str::to_owned)
    }

    #[test]
    fn resolves_as_the_tests_expect() {
        assert_eq!(r("httpS://hoge").as_deref(), Some("https://hoge/"));
        assert_eq!(r("HTTPS://FOO").as_deref(), Some("https://foo/"));
        assert_eq!(r("https://Hoge").as_deref(), Some("https://hoge/"));
        assert_eq!(r(" https://FOO:4255 ").as_deref(), Some("https://foo:4255/"));
        assert_eq!(r("/icon").as_deref(), Some("https://base/icon"));
        assert_eq!(r("foo.png").as_deref(), Some("https://base/foo.png"));
        assert_eq!(r("hoge/fuga").as_deref(), Some("https://base/hoge/fuga"));
        assert_eq!(r("").as_deref(), Some("https://base/"));
        assert_eq!(r("   ").as_deref(), Some("https://base/"));
        assert_eq!(r("https://foo:bar"), None);
        assert_eq!(r("HTTPS://FOO:X"), None);
    }

    #[test]
    fn canonical_input_is_borrowed() {
        let arena = Bump::new();
        let base = Url::parse("https://base/").unwrap();
        let input = "https://example.com/a?b=c";
        let out = resolve(&arena, &base, input).unwrap();
        assert!(std::ptr::eq(out, input));
    }

    fn slow(input: &str) -> Option<String> {
        let base = Url::parse("https://base/").unwrap();
        base.join(input).ok().map(|u| u.as_str().to_owned())
    }

    #[test]
    fn fast_path_agrees_with_the_url_crate_on_the_corpus() {
        // Every quoted or element-delimited value that looks like an http(s) URL in the real
        // corpus (hrefs, links, enclosure URLs, image URLs...).
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/real");
        let mut checked = 0;
        let mut fast = 0;
        for dir in ["atom", "atom03", "rss1", "rss2"] {
            for entry in std::fs::read_dir(root.join(dir)).unwrap() {
                let bytes = std::fs::read(entry.unwrap().path()).unwrap();
                let text = String::from_utf8_lossy(&bytes);
                for (i, _) in text.match_indices("http") {
                    let cand = &text[i..];
                    let end = cand.find(|c: char| matches!(c, '"' | '<' | '\'' | ' ' | '\n' | '\r' | '\t' | '>')).unwrap_or(cand.len());
                    let url = &cand[..end];
                    checked += 1;
                    if is_canonical_http_url(url) {
                        fast += 1;
                        assert_eq!(slow(url).as_deref(), Some(url), "fast path accepted a non-canonical URL");
                    }
                }
            }
        }
        assert!(checked > 10_000 && fast > checked / 3, "checked {checked}, fast {fast}");
    }

    #[test]
    fn fast_path_agrees_with_the_url_crate_on_generated_strings() {
        let alphabet: &[&str] = &[
            "http://", "https://", "HTTP://", "a", "Z", "0", "9", ".", "..", "/", "./", "../", "?", "#", "%", "%2e",
            "%41", ":", ":80", "@", "xn--", "-", "0x", "~", "'", "\\", " ", "\t", "é", "[", "]", "{", "`", "^", "|",
        ];
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut accepted = 0;
        for _ in 0..200_000 {
            let mut s = String::from(if next() % 2 == 0 { "http://" } else { "https://" });
            // A plausible host most of the time, then a random tail.
            let hosts = ["example.com", "a.b", "x-y.org", "ex.123", "a..b", "Ex.com", "0x1.a", "1.2.3.4", "xn--a.b", "h"];
            s.push_str(hosts[(next() % hosts.len() as u64) as usize]);
            if next() % 4 != 0 {
                s.push('/');
            }
            let n = next() % 12;
            for _ in 0..n {
                s.push_str(alphabet[(next() % alphabet.len() as u64) as usize]);
            }
            if is_canonical_http_url(&s) {
                accepted += 1;
                assert_eq!(slow(&s).as_deref(), Some(s.as_str()), "fast path accepted {s:?}");
            }
        }
        assert!(accepted > 1_000, "the generator exercises the fast path ({accepted})");
    }
}
