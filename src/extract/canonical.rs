//! Canonical URLs by the seven rules of docs/spec/feed-formats-and-extraction.md (URL Canonicalization) ([`canonicalize_url`]), for `canonical_url`
//! and dedup keys.
//!
//! Invariants: only absolute http(s) URLs have a canonical form; the result is idempotent
//! (`canonicalize_url(canonicalize_url(u)) == canonicalize_url(u)` for every input,
//! property-tested and fuzzed): no rule makes text a later pass reads differently (a `%` that
//! starts no escape is written `%25`, so that decoding the escape after it cannot make one);
//! credentials (`user:pass@`) are removed — they name no part of the resource, and a canonical
//! URL is written into records and dedup keys; a URL already in the WHATWG serialization is
//! read off the string without the `url` crate and borrowed when no rule changes it
//! (differential-tested against the slow path).

use std::borrow::Cow;

use bumpalo::Bump;

use crate::model::url::canonical_http_url_parts;

/// Query parameters removed by [`canonicalize_url`] (rule 5), compared ASCII
/// case-insensitively; every other `utm_*` parameter is removed too.
pub const TRACKING_PARAMS: &[&str] = &[
    "utm_source",
    "utm_medium",
    "utm_campaign",
    "utm_content",
    "utm_term",
    "ref",
    "source",
    "fbclid",
    "gclid",
    "mc_cid",
    "mc_eid",
];

pub(super) fn is_tracking(key: &str) -> bool {
    (key.len() > 4 && key.as_bytes()[..4].eq_ignore_ascii_case(b"utm_"))
        || TRACKING_PARAMS.iter().any(|t| t.eq_ignore_ascii_case(key))
}

/// The canonical form of an absolute http(s) URL by the seven rules of docs/spec/feed-formats-and-extraction.md (URL Canonicalization) (non-http(s) or
/// unparsable input → `None`):
/// 1. scheme and host lowercased (and IDNA/percent-normalized by the WHATWG parser);
/// 2. default ports removed (`:80` for http, `:443` for https);
/// 3. trailing slashes removed from the path, unless the path is `/`;
/// 4. query parameters sorted by name (stable: repeated names keep their order);
/// 5. tracking parameters ([`TRACKING_PARAMS`], any `utm_*`) removed; an empty query is
///    dropped with its `?`;
/// 6. percent-encoded unreserved characters (`A-Z a-z 0-9 - . _ ~`) decoded in path and
///    query; the hex digits of the remaining escapes uppercased; a `%` that starts no escape
///    written as the escape of `%`, `%25` (so `%%41` is `%25A`, never `%A` that a second pass
///    would read as an escape);
/// 7. the fragment dropped, unless it is a single-page-app route (`#!…` or `#/…`).
///
/// Credentials (`user:pass@`) are removed as well: they are not part of what the URL names,
/// and the canonical URL is written into records.
///
/// The result is idempotent: `canonicalize_url(canonicalize_url(u)) == canonicalize_url(u)`.
pub fn canonicalize_url(input: &str) -> Option<String> {
    canonicalize_url_cow(input).map(Cow::into_owned)
}

/// [`canonicalize_url`], borrowing `input` when it is already canonical.
///
/// Most feed URLs are absolute `http(s)` URLs in the URL parser's own serialization
/// (`canonical_http_url_parts`): for those the components are read off the string itself (no
/// parsing), the input is returned as it is when none of the rules changes it, and otherwise
/// the rules are applied to those components exactly as to the parser's.
pub fn canonicalize_url_cow(input: &str) -> Option<Cow<'_, str>> {
    if let Some(parts) = serialized_parts(input) {
        if rules_keep(&parts) {
            return Some(Cow::Borrowed(input));
        }
        let mut out = String::with_capacity(input.len());
        write_canonical(&parts, &mut out);
        return Some(Cow::Owned(out));
    }
    let c = canonicalize_url_slow(input)?;
    Some(if c == input { Cow::Borrowed(input) } else { Cow::Owned(c) })
}

/// [`canonicalize_url`] into the arena, borrowing `input` when it is already canonical.
pub fn canonical_url_in<'a: 'b, 'b>(arena: &'b Bump, input: &'a str) -> Option<&'b str> {
    if let Some(parts) = serialized_parts(input) {
        if rules_keep(&parts) {
            return Some(input);
        }
        let mut out = bumpalo::collections::String::with_capacity_in(input.len(), arena);
        write_canonical(&parts, &mut out);
        return Some(out.into_bump_str());
    }
    let c = canonicalize_url_slow(input)?;
    Some(if c == input { input } else { arena.alloc_str(&c) })
}

/// What the rules read of a parsed URL (the `url` crate's accessors).
#[derive(Debug, PartialEq, Eq)]
pub(super) struct UrlParts<'u> {
    pub(super) scheme: &'u str,
    pub(super) username: &'u str,
    pub(super) password: Option<&'u str>,
    pub(super) host: &'u str,
    pub(super) port: Option<u16>,
    pub(super) path: &'u str,
    pub(super) query: Option<&'u str>,
    pub(super) fragment: Option<&'u str>,
}

/// The parts of `s` when it is its own serialization by [`canonical_http_url_parts`] (http(s), no
/// userinfo, no port, a path, then `?query`, then `#fragment`): what `Url::parse(s)` would
/// give, without parsing.
pub(super) fn serialized_parts(s: &str) -> Option<UrlParts<'_>> {
    let p = canonical_http_url_parts(s)?;
    Some(UrlParts {
        scheme: p.scheme,
        username: "",
        password: None,
        host: p.host,
        port: None,
        path: p.path,
        query: p.query,
        fragment: p.fragment,
    })
}

/// True when [`write_canonical`] would write the serialization `parts` came from: rules 1
/// and 2 hold already (lowercase scheme and host, no port), and rules 3–7 change nothing.
pub(super) fn rules_keep(parts: &UrlParts<'_>) -> bool {
    // Rule 7: only a single-page-app route is kept.
    if parts.fragment.is_some_and(|f| !(f.starts_with('!') || f.starts_with('/'))) {
        return false;
    }
    // Rules 3 and 6 on the path.
    let path = parts.path;
    if (path.len() > 1 && path.ends_with('/')) || !escapes_kept(path) {
        return false;
    }
    let Some(query) = parts.query else { return true };
    // Rules 4–6 on the query: no empty parameter (dropped), none tracking, escapes kept,
    // names already in order (the sort is stable).
    let mut prev: Option<&str> = None;
    for pair in query.split('&') {
        let name = param_name(pair);
        if pair.is_empty()
            || is_tracking(name)
            || !escapes_kept(pair)
            || prev.is_some_and(|p| p > name)
        {
            return false;
        }
        prev = Some(name);
    }
    true
}

/// The name of a query parameter: up to its first `=`.
fn param_name(pair: &str) -> &str {
    pair.split('=').next().unwrap_or("")
}

/// True when [`normalize_escapes`] leaves `s` as it is: every `%` starts an escape, of a
/// character that is not unreserved, with uppercase hex digits.
fn escapes_kept(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while let Some(p) = memchr::memchr(b'%', &b[i..]) {
        i += p;
        match escape_at(b, i) {
            Some(v) if !is_unreserved(v) && !b[i + 1..i + 3].iter().any(u8::is_ascii_lowercase) => {
                i += 3
            }
            _ => return false,
        }
    }
    true
}

/// The byte of the escape `%XX` at `b[i]` (a `%`), if two hex digits follow it.
fn escape_at(b: &[u8], i: usize) -> Option<u8> {
    let (h, l) = (hex_val(*b.get(i + 1)?)?, hex_val(*b.get(i + 2)?)?);
    Some(h * 16 + l)
}

/// The seven rules through the `url` crate (any input).
pub(super) fn canonicalize_url_slow(input: &str) -> Option<String> {
    let url = url::Url::parse(input.trim()).ok()?;
    if !matches!(url.scheme(), "http" | "https") {
        return None;
    }
    let parts = UrlParts {
        scheme: url.scheme(),
        username: url.username(),
        password: url.password(),
        host: url.host_str()?,
        port: url.port(),
        path: url.path(),
        query: url.query(),
        fragment: url.fragment(),
    };
    let mut out = String::with_capacity(input.len());
    write_canonical(&parts, &mut out);
    Some(out)
}

/// A string being written: `std` or arena.
trait Out {
    fn push_str(&mut self, s: &str);
    fn push(&mut self, c: char);
    fn as_str(&self) -> &str;
    fn truncate(&mut self, len: usize);
}

impl Out for String {
    fn push_str(&mut self, s: &str) {
        String::push_str(self, s)
    }
    fn push(&mut self, c: char) {
        String::push(self, c)
    }
    fn as_str(&self) -> &str {
        self
    }
    fn truncate(&mut self, len: usize) {
        String::truncate(self, len)
    }
}

impl Out for bumpalo::collections::String<'_> {
    fn push_str(&mut self, s: &str) {
        bumpalo::collections::String::push_str(self, s)
    }
    fn push(&mut self, c: char) {
        bumpalo::collections::String::push(self, c)
    }
    fn as_str(&self) -> &str {
        self
    }
    fn truncate(&mut self, len: usize) {
        bumpalo::collections::String::truncate(self, len)
    }
}

/// The canonical form of the URL with these parts (rules 1 and 2 are the parser's: its scheme
/// and host are lowercase, its port is `None` when it is the default one). The credentials
/// are left out.
fn write_canonical(p: &UrlParts<'_>, out: &mut impl Out) {
    out.push_str(p.scheme);
    out.push_str("://");
    out.push_str(p.host);
    if let Some(port) = p.port {
        out.push(':');
        out.push_str(itoa_u16(port, &mut [0; 5]));
    }
    // Rules 6 and 3.
    let path_start = out.as_str().len();
    normalize_escapes(p.path, out);
    let path_len = out.as_str()[path_start..].trim_end_matches('/').len();
    out.truncate(path_start + path_len);
    if path_len == 0 {
        out.push('/');
    }
    // Rules 6, 5 and 4. Escapes never span a `&` and decode to no `&` or `=`, so normalizing
    // the whole query and then splitting it equals splitting it and normalizing each pair.
    if let Some(q) = p.query {
        let mut norm = String::with_capacity(q.len());
        normalize_escapes(q, &mut norm);
        let mut params: Vec<&str> =
            norm.split('&').filter(|p| !p.is_empty() && !is_tracking(param_name(p))).collect();
        params.sort_by(|a, b| param_name(a).cmp(param_name(b)));
        for (i, param) in params.iter().enumerate() {
            out.push(if i == 0 { '?' } else { '&' });
            out.push_str(param);
        }
    }
    // Rule 7.
    if let Some(f) = p.fragment {
        if f.starts_with('!') || f.starts_with('/') {
            out.push('#');
            out.push_str(f);
        }
    }
}

/// Decimal digits of `n`, in `buf`.
fn itoa_u16(mut n: u16, buf: &mut [u8; 5]) -> &str {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    std::str::from_utf8(&buf[i..]).unwrap_or("")
}

pub(super) fn hex_val(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// RFC 3986 unreserved: `A-Z a-z 0-9 - . _ ~`.
fn is_unreserved(v: u8) -> bool {
    v.is_ascii_alphanumeric() || matches!(v, b'-' | b'.' | b'_' | b'~')
}

/// Rule 6 over one component (ASCII in, ASCII out: the WHATWG serializer percent-encodes
/// everything else). Nothing written can start an escape but an escape: an unreserved
/// character is never `%`, and a `%` that starts no escape is written `%25`.
fn normalize_escapes(s: &str, out: &mut impl Out) {
    let b = s.as_bytes();
    let mut i = 0;
    // Runs without `%` are copied as they are.
    while let Some(p) = memchr::memchr(b'%', &b[i..]) {
        out.push_str(&s[i..i + p]);
        i += p;
        match escape_at(b, i) {
            Some(v) if is_unreserved(v) => out.push(v as char),
            Some(_) => {
                out.push('%');
                out.push(b[i + 1].to_ascii_uppercase() as char);
                out.push(b[i + 2].to_ascii_uppercase() as char);
            }
            None => {
                out.push_str("%25");
                i += 1;
                continue;
            }
        }
        i += 3;
    }
    out.push_str(&s[i..]);
}
