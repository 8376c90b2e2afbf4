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

use std::cell::Cell;

use bumpalo::Bump;
use url::Url;

/// How many bytes resolving a document's relative URLs may still add to its values (the
/// document's length plus [`crate::Limits::max_url_growth`]): a relative URL resolved
/// against a long base URL (a long WARC target URI, a long `--base-url`) copies the base, so
/// without a budget thousands of short links would multiply the output.
pub(crate) struct UrlBudget {
    left: Cell<usize>,
    spent: Cell<bool>,
}

impl UrlBudget {
    /// A budget of `bytes`.
    pub(crate) fn new(bytes: usize) -> Self {
        UrlBudget { left: Cell::new(bytes), spent: Cell::new(false) }
    }

    /// Whether a resolution was refused for want of budget.
    pub(crate) fn spent(&self) -> bool {
        self.spent.get()
    }
}

/// [`resolve`] within `budget`: a resolution that would add more bytes than are left keeps
/// `input` as written (and marks the budget spent, for the caller's diagnostic).
pub(crate) fn resolve_within<'a>(
    arena: &'a Bump,
    base: &Url,
    input: &'a str,
    budget: &UrlBudget,
) -> Option<&'a str> {
    if is_canonical_http_url(input) {
        return Some(input);
    }
    let url = base.join(input).ok()?;
    let s = url.as_str();
    if s == input {
        return Some(input);
    }
    let growth = s.len().saturating_sub(input.len());
    match budget.left.get().checked_sub(growth) {
        Some(left) => budget.left.set(left),
        None => {
            budget.spent.set(true);
            return Some(input);
        }
    }
    Some(arena.alloc_str(s))
}

/// Resolves `input` against `base` and returns the serialization, in the arena (with no
/// budget: tests and benches; the parsers use [`resolve_within`]).
#[cfg(any(test, feature = "internals"))]
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

/// Flags of each byte for [`is_canonical_http_url`]. Plain bytes stand for themselves in a
/// path, query or fragment of a serialized special URL (a subset of what the URL Standard
/// leaves unencoded; `'` is excluded because special queries encode it, `\\` because special
/// URLs read it as `/`).
/// [`URL_BYTE`] flag: a plain byte.
const PLAIN: u8 = 1;
/// Plain, or `?` (allowed in queries and fragments).
const PLAIN_OR_QMARK: u8 = 2;
/// Lowercase ASCII letter or digit (host label bytes, with `-`).
const LABEL_ALNUM: u8 = 4;
/// A byte the path scan stops at: anything but an ASCII letter, digit, `-`, `_` or `/`, the
/// bytes most paths are made of. This takes in the bytes that need a look (`?` and `#` ending
/// the path, `.` of dot segments, `%` of encoded dots, bytes that are not plain) and, rarely,
/// plain ones that are just passed over; the set is cheap to test 16 bytes at a time.
const PATH_STOP: u8 = 8;
/// A byte the query/fragment scan stops at: neither plain nor `?` (this includes `#`).
const QUERY_STOP: u8 = 16;

static URL_BYTE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        let plain = c.is_ascii_alphanumeric()
            || matches!(
                c,
                b'-' | b'.'
                    | b'_'
                    | b'~'
                    | b'!'
                    | b'$'
                    | b'&'
                    | b'('
                    | b')'
                    | b'*'
                    | b'+'
                    | b','
                    | b';'
                    | b'='
                    | b':'
                    | b'@'
                    | b'/'
                    | b'%'
            );
        if plain {
            t[b] |= PLAIN | PLAIN_OR_QMARK;
        }
        if c == b'?' {
            t[b] |= PLAIN_OR_QMARK;
        }
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            t[b] |= LABEL_ALNUM;
        }
        if !(c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'/')) {
            t[b] |= PATH_STOP;
        }
        if !plain && c != b'?' {
            t[b] |= QUERY_STOP;
        }
        b += 1;
    }
    t
};

/// True when `s` is an absolute `http`/`https` URL that the URL parser would serialize to
/// exactly `s`: lowercase scheme, a lowercase ASCII domain (no port, no userinfo, no IDNA
/// `xn--` label, no empty label, last label not a number), a path starting with `/` without
/// dot segments or encoded dots, and query/fragment bytes that need no encoding.
///
/// One pass over the bytes: the host byte by byte, table-driven; the path, query and fragment
/// by skipping runs of bytes that need no look 16 at a time (`find_stop`). Differential-tested
/// against the straightforward version it replaced, kept in the tests.
pub fn is_canonical_http_url(s: &str) -> bool {
    scan_canonical_http_url(s).is_some()
}

/// The components of a URL that [`is_canonical_http_url`] accepts, as found by that check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CanonicalHttpUrl<'u> {
    /// `http` or `https`.
    pub scheme: &'u str,
    /// The host: dot-separated labels of `[a-z0-9-]` (the check accepts no port, no IP
    /// address and no `xn--` label).
    pub host: &'u str,
    /// Starts with `/`.
    pub path: &'u str,
    /// After the `?`, without it.
    pub query: Option<&'u str>,
    /// After the `#`, without it.
    pub fragment: Option<&'u str>,
}

/// [`is_canonical_http_url`], returning the URL's components when it holds.
pub fn canonical_http_url_parts(s: &str) -> Option<CanonicalHttpUrl<'_>> {
    let ends = scan_canonical_http_url(s)?;
    let rest = &s[ends.host_start..];
    let (before_fragment, fragment) = match ends.hash {
        Some(h) => (&rest[..h], Some(&rest[h + 1..])),
        None => (rest, None),
    };
    let query = (rest.as_bytes().get(ends.path_end) == Some(&b'?'))
        .then(|| &before_fragment[ends.path_end + 1..]);
    Some(CanonicalHttpUrl {
        scheme: &s[..ends.host_start - 3],
        host: &rest[..ends.host_end],
        path: &rest[ends.host_end..ends.path_end],
        query,
        fragment,
    })
}

/// Where the components of a canonical http(s) URL end (offsets after `host_start`).
struct CanonicalEnds {
    host_start: usize,
    host_end: usize,
    path_end: usize,
    hash: Option<usize>,
}

/// The scan behind [`is_canonical_http_url`]: offsets only, so that the boolean check costs
/// no slicing.
#[inline]
fn scan_canonical_http_url(s: &str) -> Option<CanonicalEnds> {
    let scheme_len = if s.starts_with("https://") {
        5
    } else if s.starts_with("http://") {
        4
    } else {
        return None;
    };
    let host_start = scheme_len + 3;
    let b = &s.as_bytes()[host_start..];
    // Host: labels of [a-z0-9-] separated by single dots, up to the first `/`.
    let mut i = 0;
    let mut label_start = 0;
    loop {
        // Letters and digits, the bulk of a label, in a tight loop; then the byte after them.
        while b.get(i).is_some_and(|&c| URL_BYTE[c as usize] & LABEL_ALNUM != 0) {
            i += 1;
        }
        // The end of the input here means no path (the serializer appends "/").
        match b.get(i)? {
            b'-' => {
                if i >= 3 && &b[i - 3..i] == b"xn-" {
                    return None; // "xn--" anywhere in the host
                }
            }
            &c @ (b'.' | b'/') => {
                if i == label_start {
                    return None; // empty host or empty label
                }
                if c == b'/' {
                    break;
                }
                label_start = i + 1;
            }
            _ => return None,
        }
        i += 1;
    }
    // "Ends in a number": an all-digit or 0x-prefixed last label makes the host IPv4.
    let last_label = &b[label_start..i];
    if last_label.iter().all(u8::is_ascii_digit) || last_label.starts_with(b"0x") {
        return None;
    }
    let host_end = i;
    // The rest is scanned on the whole string (`find_stop` may look back at earlier bytes):
    // `j` indexes `s`, offsets are converted back at the end.
    let bytes = s.as_bytes();
    // Path: plain bytes, no "%2e"/"%2E", no "." or ".." segment; up to `?` or `#`. Every byte
    // that needs a look is a `PATH_STOP`; `bytes[host_start + host_end]` is the first '/'.
    let mut j = host_start + host_end + 1;
    let path_end = loop {
        j = find_stop::<PATH_STOP>(bytes, j);
        match bytes.get(j) {
            None | Some(b'?' | b'#') => break j - host_start,
            Some(b'.') => {
                // A segment starting with this dot: "." or ".." if it ends right after them.
                if bytes[j - 1] == b'/' {
                    let after = if bytes.get(j + 1) == Some(&b'.') { j + 2 } else { j + 1 };
                    if matches!(bytes.get(after), None | Some(b'/' | b'?' | b'#')) {
                        return None;
                    }
                }
            }
            Some(b'%') => {
                if bytes.get(j + 1) == Some(&b'2') && matches!(bytes.get(j + 2), Some(b'e' | b'E'))
                {
                    return None;
                }
            }
            Some(&c) => {
                if URL_BYTE[c as usize] & PLAIN == 0 {
                    return None;
                }
            }
        }
        j += 1;
    };
    // Query and fragment: plain bytes or `?` (a second `#` is not allowed). `j` is at the `?`
    // or `#` ending the path, or at the end.
    let mut hash = None;
    if bytes.get(j) == Some(&b'#') {
        hash = Some(path_end);
    }
    loop {
        j = find_stop::<QUERY_STOP>(bytes, j + 1);
        match bytes.get(j) {
            None => break,
            Some(b'#') if hash.is_none() => hash = Some(j - host_start),
            Some(_) => return None, // a second '#', or not plain
        }
    }
    Some(CanonicalEnds { host_start, host_end, path_end, hash })
}

/// The index of the first byte at or after `from` that has table flag `STOP` ([`PATH_STOP`] or
/// [`QUERY_STOP`]), or `bytes.len()` if there is none.
///
/// The trick: on x86_64, 16 bytes at a time with SSE2 (baseline there), comparing against the
/// byte ranges that make up the flag ([`sse2::path_stop_mask`], [`sse2::query_stop_mask`]) and
/// jumping to the lowest set bit of the resulting mask; the last (partial) block is the last 16
/// bytes of `bytes`, overlapping bytes already seen, whose bits are shifted out. Byte by byte
/// with the table elsewhere, and for inputs shorter than 16 bytes.
#[inline(always)]
fn find_stop<const STOP: u8>(bytes: &[u8], from: usize) -> usize {
    let from = from.min(bytes.len());
    #[cfg(target_arch = "x86_64")]
    {
        let mut i = from;
        while let Some(block) = bytes[i..].first_chunk::<16>() {
            let mask = sse2::stop_mask::<STOP>(block);
            if mask != 0 {
                return i + mask.trailing_zeros() as usize;
            }
            i += 16;
        }
        if i == bytes.len() {
            return i;
        }
        if let Some(block) = bytes.last_chunk::<16>() {
            // The block starts at `bytes.len() - 16`; the bits of the 1 to 15 bytes before `i`
            // are shifted out.
            let mask = sse2::stop_mask::<STOP>(block) >> (i + 16 - bytes.len());
            return if mask != 0 { i + mask.trailing_zeros() as usize } else { bytes.len() };
        }
    }
    match bytes[from..].iter().position(|&c| URL_BYTE[c as usize] & STOP != 0) {
        Some(k) => from + k,
        None => bytes.len(),
    }
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use crate::simd::v128::{self, any, bits, eq, or, within, V128};

    /// Bit `k` set when `block[k]` has table flag `STOP` (`PATH_STOP` or `QUERY_STOP`).
    #[inline(always)]
    pub(super) fn stop_mask<const STOP: u8>(block: &[u8; 16]) -> u32 {
        let x = v128::load(block);
        if STOP == super::PATH_STOP {
            path_stop_mask(x)
        } else {
            query_stop_mask(x)
        }
    }

    /// `PATH_STOP`: not a letter, digit, `-`, `_` or `/`. `-./` and the digits are one range
    /// (`.` is added back); `x | 0x20` folds uppercase letters onto lowercase ones, and nothing
    /// else onto them.
    #[inline(always)]
    fn path_stop_mask(x: V128) -> u32 {
        let letter = within(or(x, v128::splat(0x20)), b'a', b'z');
        let word = any(&[letter, within(x, b'-', b'9'), eq(x, b'_')]);
        (bits(word) ^ 0xffff) | bits(eq(x, b'.'))
    }

    /// `QUERY_STOP`: not plain and not `?`: controls, space and non-ASCII (signed `x < '!'`),
    /// DEL, `"`, `#`, `'`, `<`, `>`, `[`, `\`, `]`, `^`, `{`, `|`, `}` and the backquote.
    #[inline(always)]
    fn query_stop_mask(x: V128) -> u32 {
        bits(any(&[
            v128::lt_signed(x, b'!'),
            eq(x, 0x7f),
            within(x, b'"', b'#'),
            eq(x, b'\''),
            eq(x, b'<'),
            eq(x, b'>'),
            within(x, b'[', b'^'),
            eq(x, b'`'),
            within(x, b'{', b'}'),
        ]))
    }
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

    /// The straightforward version of [`is_canonical_http_url`] (before the table-driven one).
    fn ref_is_plain_url_byte(b: u8) -> bool {
        b.is_ascii_alphanumeric()
            || matches!(
                b,
                b'-' | b'.'
                    | b'_'
                    | b'~'
                    | b'!'
                    | b'$'
                    | b'&'
                    | b'('
                    | b')'
                    | b'*'
                    | b'+'
                    | b','
                    | b';'
                    | b'='
                    | b':'
                    | b'@'
                    | b'/'
                    | b'%'
            )
    }

    fn ref_is_canonical_http_url(s: &str) -> bool {
        let rest = match s.strip_prefix("https://").or_else(|| s.strip_prefix("http://")) {
            Some(r) => r,
            None => return false,
        };
        let b = rest.as_bytes();
        let host_end = match b.iter().position(|&c| c == b'/') {
            Some(i) => i,
            None => return false,
        };
        let host = &rest[..host_end];
        if host.is_empty() || host.contains("xn--") {
            return false;
        }
        let mut last_label = "";
        for label in host.split('.') {
            if label.is_empty()
                || !label.bytes().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-')
            {
                return false;
            }
            last_label = label;
        }
        if last_label.bytes().all(|c| c.is_ascii_digit()) || last_label.starts_with("0x") {
            return false;
        }
        let tail = &rest[host_end..];
        let (path_query, fragment) = match tail.split_once('#') {
            Some((pq, f)) => (pq, Some(f)),
            None => (tail, None),
        };
        let (path, query) = match path_query.split_once('?') {
            Some((p, q)) => (p, Some(q)),
            None => (path_query, None),
        };
        if !path.bytes().all(ref_is_plain_url_byte) || path.contains("%2e") || path.contains("%2E")
        {
            return false;
        }
        if path.split('/').any(|seg| seg == "." || seg == "..") {
            return false;
        }
        let plain_or_qmark = |t: &str| t.bytes().all(|c| ref_is_plain_url_byte(c) || c == b'?');
        query.is_none_or(plain_or_qmark) && fragment.is_none_or(plain_or_qmark)
    }

    #[test]
    fn table_driven_check_agrees_with_the_straightforward_one() {
        for b in 0..=255u8 {
            assert_eq!(URL_BYTE[b as usize] & PLAIN != 0, ref_is_plain_url_byte(b), "{b:#x}");
        }
        // Every http candidate of the real corpus (as in the test below).
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/real");
        let mut checked = 0;
        for dir in ["atom", "atom03", "rss1", "rss2"] {
            for entry in std::fs::read_dir(root.join(dir)).unwrap() {
                let bytes = std::fs::read(entry.unwrap().path()).unwrap();
                let text = String::from_utf8_lossy(&bytes);
                for (i, _) in text.match_indices("http") {
                    let cand = &text[i..];
                    let end = cand
                        .find(['"', '<', '\'', ' ', '\n', '\r', '\t', '>'])
                        .unwrap_or(cand.len());
                    let url = &cand[..end];
                    assert_eq!(
                        is_canonical_http_url(url),
                        ref_is_canonical_http_url(url),
                        "{url:?}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 10_000);
        // Generated: a scheme, a host-ish part and a tail over the bytes that matter.
        let pieces: &[&str] = &[
            "a", "z", "0", "9", "-", ".", "..", "/", "/", "./", "../", "?", "#", "%", "%2e", "%2E",
            "%2", "2e", "%41", "xn", "xn-", "xn--", "-", "0x", "0X", "x", ":", ":80", "@", "~",
            "_", "'", "\\", " ", "A", "é", "[", "]", "{", "|", "^", "`", "!", "$", "&", "=", "+",
        ];
        let mut next = crate::test_rng(0x2545_F491_4F6C_DD1D);
        let mut accepted = 0;
        for _ in 0..400_000 {
            let mut s = String::from(
                ["http://", "https://", "http:/", "HTTP://", ""][(next() % 5) as usize],
            );
            if !next().is_multiple_of(4) {
                let hosts = [
                    "example.com",
                    "a.b",
                    "x-y.org",
                    "ex.123",
                    "e.0x1",
                    "a..b",
                    "xn--a.b",
                    "axn--b.c",
                    "h",
                    "h.",
                ];
                s.push_str(hosts[(next() % hosts.len() as u64) as usize]);
                s.push('/');
            }
            for _ in 0..next() % 16 {
                s.push_str(pieces[(next() % pieces.len() as u64) as usize]);
            }
            let got = is_canonical_http_url(&s);
            assert_eq!(got, ref_is_canonical_http_url(&s), "{s:?}");
            accepted += got as usize;
        }
        assert!(accepted > 8_000, "{accepted}");
    }

    /// The straightforward version of [`canonical_http_url_parts`]: the components as byte
    /// ranges of the input, split with `str` searches.
    fn ref_parts(s: &str) -> Option<[Option<(usize, usize)>; 5]> {
        if !ref_is_canonical_http_url(s) {
            return None;
        }
        let host_start = s.find("://")? + 3;
        let host_end = host_start + s[host_start..].find('/')?;
        let hash = s.find('#');
        let path_query_end = hash.unwrap_or(s.len());
        let qmark = s[host_end..path_query_end].find('?').map(|q| host_end + q);
        let path_end = qmark.unwrap_or(path_query_end);
        Some([
            Some((0, host_start - 3)),
            Some((host_start, host_end)),
            Some((host_end, path_end)),
            qmark.map(|q| (q + 1, path_query_end)),
            hash.map(|h| (h + 1, s.len())),
        ])
    }

    /// [`canonical_http_url_parts`] as byte ranges of `s` (the parts are slices of it).
    fn parts_as_ranges(s: &str) -> Option<[Option<(usize, usize)>; 5]> {
        let p = canonical_http_url_parts(s)?;
        let range = |part: &str| {
            let start = part.as_ptr() as usize - s.as_ptr() as usize;
            (start, start + part.len())
        };
        Some([
            Some(range(p.scheme)),
            Some(range(p.host)),
            Some(range(p.path)),
            p.query.map(range),
            p.fragment.map(range),
        ])
    }

    #[test]
    fn stop_flags_and_masks_are_exact() {
        for c in 0..=255u8 {
            let plain = ref_is_plain_url_byte(c);
            let word = c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'/');
            assert_eq!(URL_BYTE[c as usize] & PATH_STOP != 0, !word, "{c:#x}");
            // Every byte the path scan needs to look at is a stop.
            if !plain || matches!(c, b'.' | b'%' | b'?' | b'#') {
                assert!(!word, "{c:#x}");
            }
            assert_eq!(URL_BYTE[c as usize] & QUERY_STOP != 0, !plain && c != b'?', "{c:#x}");
        }
        // The SIMD masks agree with the table, for every byte at every position of a block.
        #[cfg(target_arch = "x86_64")]
        for c in 0..=255u8 {
            for k in 0..16 {
                for filler in [b'a', b'/', b'.', c] {
                    let mut block = [filler; 16];
                    block[k] = c;
                    let table = |stop: u8| {
                        (0..16)
                            .filter(|&i| URL_BYTE[block[i] as usize] & stop != 0)
                            .fold(0, |m, i| m | 1 << i)
                    };
                    assert_eq!(sse2::stop_mask::<PATH_STOP>(&block), table(PATH_STOP), "{block:?}");
                    assert_eq!(
                        sse2::stop_mask::<QUERY_STOP>(&block),
                        table(QUERY_STOP),
                        "{block:?}"
                    );
                }
            }
        }
        // `find_stop` from every start, on lengths around the block size.
        for len in 0..40 {
            for c in [b'.', b'%', b'?', b'#', b' ', 0x80, b'a'] {
                for at in 0..len {
                    let mut bytes = vec![b'p'; len];
                    bytes[at] = c;
                    for from in 0..=len + 1 {
                        let want = |stop: u8| {
                            (from..len)
                                .find(|&i| URL_BYTE[bytes[i] as usize] & stop != 0)
                                .unwrap_or(len)
                        };
                        assert_eq!(
                            find_stop::<PATH_STOP>(&bytes, from),
                            want(PATH_STOP),
                            "{bytes:?} from {from}"
                        );
                        assert_eq!(
                            find_stop::<QUERY_STOP>(&bytes, from),
                            want(QUERY_STOP),
                            "{bytes:?} from {from}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn parts_agree_with_the_straightforward_split() {
        // Tails built from the bytes the scan treats specially, long enough (and offset by
        // hosts of different lengths) that every block position and the final partial block
        // of a block-wise scan are exercised.
        let pieces: &[&str] = &[
            "a",
            "Z",
            "0",
            "-",
            "_",
            "~",
            ".",
            "..",
            "...",
            "/",
            "/",
            "//",
            "/.",
            "/..",
            "/./",
            "/../",
            "?",
            "??",
            "#",
            "%",
            "%2",
            "%2e",
            "%2E",
            "%2f",
            "%25",
            "2e",
            "=",
            "&",
            "$",
            "!",
            "'",
            "\"",
            "<",
            ">",
            "\\",
            " ",
            "\t",
            "\u{7f}",
            "[",
            "]",
            "^",
            "`",
            "{",
            "|",
            "}",
            "é",
            "\u{80}",
            "\u{ffff}",
            "abcdefghijklmnop",
            "0123456789/abcdef",
            "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
            "index.html",
            "2024/01/post-title",
            "?utm_source=rss&utm_medium=feed",
        ];
        let hosts = [
            "example.com",
            "a.b",
            "x-y.org",
            "h",
            "www.example.co.uk",
            "ab.cd",
            "abc.de",
            "a1.b2.c3d",
            "ex.123",
            "a..b",
        ];
        let mut next = crate::test_rng(0xD1B5_4A32_D192_ED03);
        let (mut accepted, mut long) = (0, 0);
        for round in 0..300_000 {
            let mut s = String::from(if next().is_multiple_of(2) { "http://" } else { "https://" });
            if next().is_multiple_of(4) {
                // A generated host (labels, dots, dashes, "xn--", numbers).
                let host_pieces = [
                    "a", "z", "ab", "0", "9", "12", "0x", "x", "n", "xn", "-", "--", ".", "A", "_",
                    "é", ":80", "@",
                ];
                for _ in 0..1 + next() % 8 {
                    s.push_str(host_pieces[(next() % host_pieces.len() as u64) as usize]);
                }
            } else {
                s.push_str(hosts[(next() % hosts.len() as u64) as usize]);
            }
            s.push('/');
            // Mostly plain runs (as in real paths), with a special piece now and then.
            let n = next() % [4, 16, 48][round % 3];
            for _ in 0..n {
                match next() % 3 {
                    0 => s.push_str(pieces[(next() % pieces.len() as u64) as usize]),
                    _ => s.push(
                        b"abcdefghijklmnopqrstuvwxyz0123456789-_/"[(next() % 39) as usize] as char,
                    ),
                }
            }
            let want = ref_parts(&s);
            assert_eq!(parts_as_ranges(&s), want, "{s:?}");
            assert_eq!(is_canonical_http_url(&s), want.is_some(), "{s:?}");
            accepted += want.is_some() as usize;
            long += (want.is_some() && s.len() > 64) as usize;
        }
        assert!(
            accepted > 20_000 && long > 1_000,
            "{accepted} accepted, {long} longer than 64 bytes"
        );
        // Every position of a special byte in a long plain path, query and fragment.
        for special in [
            "/.", "/..", "/./", "/../", "%2e", "%2E", "%2", "?", "#", "##", "?#?", " ", "é", "'",
            "\\", ".",
        ] {
            for len in 0..80 {
                for tail in ["", "/", "?", "#", "x"] {
                    for prefix in ["https://ex.com/", "http://a.b/p?", "http://a.b/p#"] {
                        let s = format!("{prefix}{}{special}{tail}", "p".repeat(len));
                        assert_eq!(parts_as_ranges(&s), ref_parts(&s), "{s:?}");
                    }
                }
            }
        }
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
                    let end = cand
                        .find(|c: char| {
                            matches!(c, '"' | '<' | '\'' | ' ' | '\n' | '\r' | '\t' | '>')
                        })
                        .unwrap_or(cand.len());
                    let url = &cand[..end];
                    checked += 1;
                    if is_canonical_http_url(url) {
                        fast += 1;
                        assert_eq!(
                            slow(url).as_deref(),
                            Some(url),
                            "fast path accepted a non-canonical URL"
                        );
                    }
                }
            }
        }
        assert!(checked > 10_000 && fast > checked / 3, "checked {checked}, fast {fast}");
    }

    #[test]
    fn fast_path_agrees_with_the_url_crate_on_generated_strings() {
        let alphabet: &[&str] = &[
            "http://", "https://", "HTTP://", "a", "Z", "0", "9", ".", "..", "/", "./", "../", "?",
            "#", "%", "%2e", "%41", ":", ":80", "@", "xn--", "-", "0x", "~", "'", "\\", " ", "\t",
            "é", "[", "]", "{", "`", "^", "|",
        ];
        let mut next = crate::test_rng(0x9E37_79B9_7F4A_7C15);
        let mut accepted = 0;
        for _ in 0..200_000 {
            let mut s = String::from(if next().is_multiple_of(2) { "http://" } else { "https://" });
            // A plausible host most of the time, then a random tail.
            let hosts = [
                "example.com",
                "a.b",
                "x-y.org",
                "ex.123",
                "a..b",
                "Ex.com",
                "0x1.a",
                "1.2.3.4",
                "xn--a.b",
                "h",
            ];
            s.push_str(hosts[(next() % hosts.len() as u64) as usize]);
            if !next().is_multiple_of(4) {
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
