//! MIME types for feed responses: parsing a `Content-Type` value (WHATWG MIME Sniffing,
//! "parse a MIME type"), the HTML Standard's "XML MIME type", and the *computed MIME type* of
//! a response body (MIME Sniffing §7) in a feed context.
//!
//! Nothing here allocates: a parsed [`MimeType`] borrows the header value and compares
//! ASCII-case-insensitively instead of lowercasing; sniffed types are `&'static str` essences.
//! The only exception is [`MimeType::charset`] for a quoted value containing `\` escapes.

use std::borrow::Cow;
use std::fmt;

/// Essence returned when the body starts with an XML declaration (MIME Sniffing §7.1).
pub const TEXT_XML: &str = "text/xml";
/// Essence of the HTML MIME type.
pub const TEXT_HTML: &str = "text/html";
/// Essence of plain text (sniffed text without a recognised signature).
pub const TEXT_PLAIN: &str = "text/plain";
/// Essence of unidentified binary data.
pub const APPLICATION_OCTET_STREAM: &str = "application/octet-stream";
/// Essence given to RSS (2.0 `<rss` or 1.0 `<rdf:RDF`) by the feed-or-HTML rules.
pub const APPLICATION_RSS_XML: &str = "application/rss+xml";
/// Essence given to Atom (`<feed`) by the feed-or-HTML rules.
pub const APPLICATION_ATOM_XML: &str = "application/atom+xml";

/// How many bytes of the body sniffing looks at (MIME Sniffing's "resource header").
pub const RESOURCE_HEADER_LEN: usize = 1445;

/// A parsed MIME type, borrowing the header value it came from.
///
/// Type and subtype keep their original case; every comparison is ASCII-case-insensitive, and
/// [`Display`](fmt::Display) prints the lowercased essence, as the standard's serialization does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MimeType<'a> {
    /// `type/subtype`, trimmed, original case.
    essence: &'a str,
    /// Index of `/` in `essence`.
    slash: usize,
    /// Everything after the first `;` (unparsed; see [`MimeType::params`]).
    params: &'a str,
}

/// HTTP whitespace (Fetch): TAB, LF, CR, SPACE.
fn is_http_ws(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\r' | b' ')
}

fn trim_http_ws(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_ascii() && is_http_ws(c as u8))
}

fn trim_http_ws_end(s: &str) -> &str {
    s.trim_end_matches(|c: char| c.is_ascii() && is_http_ws(c as u8))
}

/// HTTP token code points.
fn is_token(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// HTTP quoted-string token code points: TAB, U+0020–U+007E, U+0080–U+00FF.
fn is_quoted_string_token(s: &str) -> bool {
    s.chars().all(|c| c == '\t' || (' '..='~').contains(&c) || ('\u{80}'..='\u{ff}').contains(&c))
}

impl<'a> MimeType<'a> {
    /// WHATWG MIME Sniffing "parse a MIME type". `None` is the standard's failure.
    pub fn parse(input: &'a str) -> Option<MimeType<'a>> {
        let input = trim_http_ws(input);
        let slash = input.find('/')?;
        if !is_token(&input[..slash]) {
            return None;
        }
        let (rest, params) = match input[slash + 1..].find(';') {
            Some(i) => (&input[slash + 1..slash + 1 + i], &input[slash + 1 + i + 1..]),
            None => (&input[slash + 1..], ""),
        };
        let subtype = trim_http_ws_end(rest);
        if !is_token(subtype) {
            return None;
        }
        Some(MimeType { essence: &input[..slash + 1 + subtype.len()], slash, params })
    }

    /// The type, original case (compare with `eq_ignore_ascii_case`).
    #[cfg(any(test, feature = "internals"))]
    pub fn type_(&self) -> &'a str {
        &self.essence[..self.slash]
    }

    /// The subtype, original case.
    #[cfg(any(test, feature = "internals"))]
    pub fn subtype(&self) -> &'a str {
        &self.essence[self.slash + 1..]
    }

    /// The parameters, in order, with the standard's validity checks applied: invalid or
    /// duplicate names are skipped (the first occurrence wins). Names keep their original case.
    #[cfg(any(test, feature = "internals"))]
    pub fn params(&self) -> Params<'a> {
        Params { rest: self.params, seen: Vec::new(), dedupe: true }
    }

    /// `type/subtype` as written (original case).
    pub fn essence_raw(&self) -> &'a str {
        self.essence
    }

    /// Whether the essence equals `essence` (which must be lowercase), ignoring ASCII case.
    pub fn essence_is(&self, essence: &str) -> bool {
        self.essence.eq_ignore_ascii_case(essence)
    }

    /// The value of the parameter `name` (lowercase), or `None`.
    pub fn param(&self, name: &str) -> Option<Cow<'a, str>> {
        // The first valid occurrence wins, so the first match is the answer and no duplicate
        // tracking (no allocation) is needed.
        Params { rest: self.params, seen: Vec::new(), dedupe: false }
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v)
    }

    /// The `charset` parameter: the transport encoding label.
    pub fn charset(&self) -> Option<Cow<'a, str>> {
        self.param("charset")
    }

    /// HTML Standard "XML MIME type": essence `text/xml` or `application/xml`, or any subtype
    /// ending in `+xml`.
    pub fn is_xml(&self) -> bool {
        is_xml_mime_type(self.essence)
    }

    /// HTML Standard "HTML MIME type": essence `text/html`.
    pub fn is_html(&self) -> bool {
        self.essence_is(TEXT_HTML)
    }
}

impl fmt::Display for MimeType<'_> {
    /// The lowercased essence (parameters are not serialized).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.essence.chars() {
            fmt::Write::write_char(f, c.to_ascii_lowercase())?;
        }
        Ok(())
    }
}

/// Iterator over a MIME type's valid parameters (see `MimeType::params`).
#[derive(Clone, Debug)]
pub struct Params<'a> {
    rest: &'a str,
    /// Names already yielded (duplicates are skipped). Stays empty (no allocation) for the
    /// usual header with one or two parameters until the first one is yielded.
    seen: Vec<&'a str>,
    dedupe: bool,
}

impl<'a> Iterator for Params<'a> {
    type Item = (&'a str, Cow<'a, str>);

    fn next(&mut self) -> Option<Self::Item> {
        // The loop body is the standard's parameter loop; `rest` starts after a `;`.
        loop {
            if self.rest.is_empty() {
                return None;
            }
            let s = self.rest.trim_start_matches(|c: char| c.is_ascii() && is_http_ws(c as u8));
            let name_end = s.find([';', '=']).unwrap_or(s.len());
            let name = &s[..name_end];
            let after_name = &s[name_end..];
            if after_name.is_empty() {
                self.rest = "";
                return None;
            }
            if after_name.as_bytes()[0] == b';' {
                self.rest = &after_name[1..];
                continue;
            }
            let v = &after_name[1..]; // past '='
            if v.is_empty() {
                self.rest = "";
                return None;
            }
            let value: Cow<'a, str>;
            if v.as_bytes()[0] == b'"' {
                let (val, consumed) = collect_quoted_string(v);
                value = val;
                let after = &v[consumed..];
                self.rest = match after.find(';') {
                    Some(i) => &after[i + 1..],
                    None => "",
                };
            } else {
                let end = v.find(';').unwrap_or(v.len());
                value = Cow::Borrowed(trim_http_ws_end(&v[..end]));
                self.rest = if end < v.len() { &v[end + 1..] } else { "" };
                if value.is_empty() {
                    continue;
                }
            }
            if is_token(name)
                && is_quoted_string_token(&value)
                && !(self.dedupe && self.seen.iter().any(|n| n.eq_ignore_ascii_case(name)))
            {
                if self.dedupe {
                    self.seen.push(name);
                }
                return Some((name, value));
            }
        }
    }
}

/// Fetch "collect an HTTP quoted string" with the extract-value flag set. `s` starts with `"`.
/// Returns the value and the number of bytes consumed.
fn collect_quoted_string(s: &str) -> (Cow<'_, str>, usize) {
    let bytes = s.as_bytes();
    let mut pos = 1;
    let mut owned: Option<String> = None;
    let mut start = 1;
    loop {
        let Some(off) = s[pos..].find(['"', '\\']) else {
            // Unterminated: the value runs to the end.
            let tail = &s[start..];
            return match owned {
                Some(mut o) => {
                    o.push_str(tail);
                    (Cow::Owned(o), s.len())
                }
                None => (Cow::Borrowed(tail), s.len()),
            };
        };
        pos += off;
        if bytes[pos] == b'"' {
            let chunk = &s[start..pos];
            return match owned {
                Some(mut o) => {
                    o.push_str(chunk);
                    (Cow::Owned(o), pos + 1)
                }
                None => (Cow::Borrowed(chunk), pos + 1),
            };
        }
        // Backslash: append the next code point literally (or a lone `\` at the end).
        let o = owned.get_or_insert_with(String::new);
        o.push_str(&s[start..pos]);
        pos += 1;
        match s[pos..].chars().next() {
            None => {
                o.push('\\');
                return (Cow::Owned(owned.unwrap()), s.len());
            }
            Some(c) => {
                o.push(c);
                pos += c.len_utf8();
                start = pos;
            }
        }
    }
}

/// A JSON MIME type (JSON Feed's `application/feed+json`, `application/json`, `text/json`,
/// any `+json` subtype), by lowercase essence.
pub fn is_json_mime_type(essence: &str) -> bool {
    matches!(essence, "application/json" | "text/json") || essence.ends_with("+json")
}

/// HTML Standard "XML MIME type", on an essence (`type/subtype`, any case, no parameters).
pub fn is_xml_mime_type(essence: &str) -> bool {
    let Some(slash) = essence.find('/') else { return false };
    let subtype = &essence[slash + 1..];
    essence.eq_ignore_ascii_case("text/xml")
        || essence.eq_ignore_ascii_case("application/xml")
        || (subtype.len() > 4 && subtype[subtype.len() - 4..].eq_ignore_ascii_case("+xml"))
}

/// Where a computed MIME type came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComputedMime<'a> {
    /// The response's own `Content-Type`, used as supplied.
    Supplied(MimeType<'a>),
    /// Determined from the body; the `&'static str` is a lowercase essence such as
    /// [`APPLICATION_RSS_XML`] or [`TEXT_XML`].
    Sniffed(&'static str),
}

impl<'a> ComputedMime<'a> {
    /// Whether this is an XML MIME type (the spec's test for parsing the body).
    pub fn is_xml(&self) -> bool {
        match self {
            ComputedMime::Supplied(m) => m.is_xml(),
            ComputedMime::Sniffed(e) => is_xml_mime_type(e),
        }
    }

    /// Whether the type was determined by sniffing the body rather than taken from the header.
    #[cfg(any(test, feature = "internals"))]
    pub fn is_sniffed(&self) -> bool {
        matches!(self, ComputedMime::Sniffed(_))
    }

    /// Whether the essence equals `essence` (lowercase), ignoring ASCII case.
    #[cfg(any(test, feature = "internals", feature = "discover"))]
    pub fn essence_is(&self, essence: &str) -> bool {
        match self {
            ComputedMime::Supplied(m) => m.essence_is(essence),
            ComputedMime::Sniffed(e) => *e == essence,
        }
    }

    /// The essence as written: original case for supplied types, lowercase for sniffed ones.
    /// Use [`Display`](fmt::Display) for the normalized (lowercase) form.
    pub fn essence_raw(&self) -> &'a str {
        match self {
            ComputedMime::Supplied(m) => m.essence_raw(),
            ComputedMime::Sniffed(e) => e,
        }
    }
}

impl fmt::Display for ComputedMime<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ComputedMime::Supplied(m) => m.fmt(f),
            ComputedMime::Sniffed(e) => f.write_str(e),
        }
    }
}

/// The computed MIME type of a response body in a feed context.
///
/// `content_type` is the `Content-Type` header value, if any. Follows MIME Sniffing §7
/// "determining the computed MIME type of a resource" with the no-sniff flag unset and no
/// supported image/audio/video types (a feed reader renders none, so those steps never apply):
///
/// 1. Missing or unparsable `Content-Type`, or essence `unknown/unknown`, `application/unknown`,
///    `*/*` → rules for identifying an unknown MIME type (§7.1), sniff-scriptable.
/// 2. An XML MIME type → as supplied.
/// 3. `text/html` → rules for distinguishing if a resource is a feed or HTML (§7.3).
/// 4. Otherwise as supplied.
///
/// **Feed-context extensions** (beyond the standard, so feeds served badly still parse; each
/// only ever turns a non-XML answer into an XML one):
/// - `text/plain` and `application/octet-stream` (with any parameters — this subsumes the
///   standard's check-for-apache-bug flag) are sniffed as in step 1; an XML result is used,
///   anything else keeps the supplied type.
/// - When step 1 sniffs `text/html` or `text/plain`, the feed-or-HTML rules (§7.3) are applied
///   too, so `<rss …>` with no `Content-Type` is `application/rss+xml`.
/// - An XML declaration is recognised after a byte order mark (UTF-8, or UTF-16 as `<?xml` in
///   UTF-16 code units) and in UTF-16 without a BOM; the standard's table would call those
///   `text/plain` or `application/octet-stream`.
#[cfg(any(test, feature = "internals", feature = "discover"))]
pub fn computed_mime_type<'a>(content_type: Option<&'a str>, body: &[u8]) -> ComputedMime<'a> {
    computed_mime_type_of(content_type.and_then(MimeType::parse), body)
}

/// [`computed_mime_type`] for an already parsed `Content-Type` (`None`: missing or unparsable).
pub fn computed_mime_type_of<'a>(supplied: Option<MimeType<'a>>, body: &[u8]) -> ComputedMime<'a> {
    let header = &body[..body.len().min(RESOURCE_HEADER_LEN)];
    let Some(mime) = supplied else {
        return ComputedMime::Sniffed(sniff_unknown_for_feed(header));
    };
    if mime.essence_is("unknown/unknown")
        || mime.essence_is("application/unknown")
        || mime.essence_is("*/*")
    {
        return ComputedMime::Sniffed(sniff_unknown_for_feed(header));
    }
    if mime.is_xml() {
        return ComputedMime::Supplied(mime);
    }
    if mime.is_html() {
        return match feed_or_html(header) {
            Some(feed) => ComputedMime::Sniffed(feed),
            None => ComputedMime::Supplied(mime),
        };
    }
    if mime.essence_is(TEXT_PLAIN) || mime.essence_is(APPLICATION_OCTET_STREAM) {
        let sniffed = sniff_unknown_for_feed(header);
        if is_xml_mime_type(sniffed) {
            return ComputedMime::Sniffed(sniffed);
        }
    }
    ComputedMime::Supplied(mime)
}

/// §7.1 plus the feed-context extensions described on [`computed_mime_type`].
fn sniff_unknown_for_feed(header: &[u8]) -> &'static str {
    if starts_with_xml_declaration_any_encoding(header) {
        return TEXT_XML;
    }
    let sniffed = sniff_unknown(header);
    if sniffed == TEXT_HTML || sniffed == TEXT_PLAIN {
        if let Some(feed) = feed_or_html(header) {
            return feed;
        }
    }
    sniffed
}

/// Whether the body starts with `<?xml` after optional leading whitespace, in UTF-8 (optionally
/// after a BOM) or in UTF-16 (with or without BOM).
fn starts_with_xml_declaration_any_encoding(b: &[u8]) -> bool {
    let ascii = |b: &[u8]| {
        let i = b.iter().position(|&c| !is_sniff_ws(c)).unwrap_or(b.len());
        b[i..].starts_with(b"<?xml")
    };
    let utf16 = |b: &[u8], le: bool| {
        // Pairs of (ASCII byte, 0) (LE) or (0, ASCII byte) (BE).
        let mut units = b.chunks_exact(2).map(|p| if le { (p[0], p[1]) } else { (p[1], p[0]) });
        let mut first = None;
        for (lo, hi) in units.by_ref() {
            if hi != 0 || !is_sniff_ws(lo) {
                first = Some((lo, hi));
                break;
            }
        }
        let mut want = b"<?xml".iter();
        let Some(w0) = want.next() else { return false };
        if first != Some((*w0, 0)) {
            return false;
        }
        want.all(|&w| units.next() == Some((w, 0)))
    };
    if let Some(rest) = b.strip_prefix(b"\xEF\xBB\xBF") {
        return ascii(rest);
    }
    if let Some(rest) = b.strip_prefix(b"\xFF\xFE") {
        return utf16(rest, true);
    }
    if let Some(rest) = b.strip_prefix(b"\xFE\xFF") {
        return utf16(rest, false);
    }
    ascii(b)
        || (b.starts_with(b"<\0?\0") && utf16(b, true))
        || (b.starts_with(b"\0<\0?") && utf16(b, false))
}

/// Whitespace bytes for MIME sniffing pattern matching.
fn is_sniff_ws(b: u8) -> bool {
    b.is_ascii_whitespace()
}

/// HTML signatures of §7.1's table (after leading whitespace, ASCII-case-insensitive, followed by
/// a tag-terminating byte: SPACE or `>`).
const HTML_SIGNATURES: &[&[u8]] = &[
    b"<!DOCTYPE HTML",
    b"<HTML",
    b"<HEAD",
    b"<SCRIPT",
    b"<IFRAME",
    b"<H1",
    b"<DIV",
    b"<FONT",
    b"<TABLE",
    b"<A",
    b"<STYLE",
    b"<TITLE",
    b"<B",
    b"<BODY",
    b"<BR",
    b"<P",
    b"<!--",
];

/// MIME Sniffing §7.1 "rules for identifying an unknown MIME type", sniff-scriptable flag set,
/// limited to the rows that can matter to a feed reader: scriptable (HTML, XML, PDF),
/// PostScript, BOMs, archives, and text vs. binary. Image/audio/video signatures are not
/// matched (they would only rename one non-XML type to another: the result is the same null).
pub fn sniff_unknown(header: &[u8]) -> &'static str {
    let start = header.iter().position(|&c| !is_sniff_ws(c)).unwrap_or(header.len());
    let s = &header[start..];
    for sig in HTML_SIGNATURES {
        if s.len() > sig.len()
            && s[..sig.len()].eq_ignore_ascii_case(sig)
            && matches!(s[sig.len()], b' ' | b'>')
        {
            return TEXT_HTML;
        }
    }
    if s.starts_with(b"<?xml") {
        return TEXT_XML;
    }
    if header.starts_with(b"%PDF-") {
        return "application/pdf";
    }
    if header.starts_with(b"%!PS-Adobe-") {
        return "application/postscript";
    }
    if header.starts_with(b"\xFE\xFF")
        || header.starts_with(b"\xFF\xFE")
        || header.starts_with(b"\xEF\xBB\xBF")
    {
        return TEXT_PLAIN;
    }
    if header.starts_with(b"\x1F\x8B\x08") {
        return "application/x-gzip";
    }
    if header.starts_with(b"PK\x03\x04") {
        return "application/zip";
    }
    if header.starts_with(b"Rar!\x1A\x07\x00") {
        return "application/x-rar-compressed";
    }
    let binary =
        header.iter().any(|&b| matches!(b, 0x00..=0x08 | 0x0B | 0x0E..=0x1A | 0x1C..=0x1F));
    if binary {
        APPLICATION_OCTET_STREAM
    } else {
        TEXT_PLAIN
    }
}

/// MIME Sniffing §7.3 "rules for distinguishing if a resource is a feed or HTML", on the resource
/// header. `Some(feed type)` when it is a feed; `None` means "the supplied MIME type stands".
pub fn feed_or_html(header: &[u8]) -> Option<&'static str> {
    const RSS1_NS: &[u8] = b"http://purl.org/rss/1.0/";
    const RDF_NS: &[u8] = b"http://www.w3.org/1999/02/22-rdf-syntax-ns#";
    let seq = header;
    let at = |s: usize, p: &[u8]| seq.get(s..).is_some_and(|r| r.starts_with(p));
    let mut s = if seq.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
    loop {
        // Find the next `<`, allowing only whitespace before it.
        loop {
            let b = *seq.get(s)?;
            s += 1;
            if b == b'<' {
                break;
            }
            if !matches!(b, b'\t' | b'\n' | b'\r' | b' ') {
                return None;
            }
        }
        seq.get(s)?;
        if at(s, b"!--") {
            s += 3;
            loop {
                seq.get(s)?;
                if at(s, b"-->") {
                    s += 3;
                    break;
                }
                s += 1;
            }
            continue;
        }
        if at(s, b"!") {
            s += 1;
            loop {
                if *seq.get(s)? == b'>' {
                    s += 1;
                    break;
                }
                s += 1;
            }
            continue;
        }
        if at(s, b"?") {
            s += 1;
            loop {
                seq.get(s)?;
                if at(s, b"?>") {
                    s += 2;
                    break;
                }
                s += 1;
            }
            continue;
        }
        if at(s, b"rss") {
            return Some(APPLICATION_RSS_XML);
        }
        if at(s, b"feed") {
            return Some(APPLICATION_ATOM_XML);
        }
        if at(s, b"rdf:RDF") {
            s += 7;
            // Both namespace URIs must appear, in either order, after `<rdf:RDF`.
            loop {
                seq.get(s)?;
                if at(s, RSS1_NS) {
                    s += RSS1_NS.len();
                    return memchr::memmem::find(&seq[s..], RDF_NS).map(|_| APPLICATION_RSS_XML);
                }
                if at(s, RDF_NS) {
                    s += RDF_NS.len();
                    return memchr::memmem::find(&seq[s..], RSS1_NS).map(|_| APPLICATION_RSS_XML);
                }
                s += 1;
            }
        }
        return None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_basic_and_params() {
        let m = MimeType::parse("  Application/RSS+XML ; Charset=\"UTF-8\" ; q=1").unwrap();
        assert_eq!(m.type_(), "Application");
        assert_eq!(m.subtype(), "RSS+XML");
        assert_eq!(m.to_string(), "application/rss+xml");
        assert!(m.is_xml());
        assert_eq!(m.charset().as_deref(), Some("UTF-8"));
        assert_eq!(m.param("q").as_deref(), Some("1"));
        let all: Vec<_> = m.params().map(|(n, v)| (n, v.into_owned())).collect();
        assert_eq!(all, vec![("Charset", "UTF-8".to_owned()), ("q", "1".to_owned())]);
    }

    #[test]
    fn parse_failures() {
        for bad in ["", "text", "/xml", "text/", "te xt/xml", "text/x ml", "text/xml\u{e9}"] {
            assert!(MimeType::parse(bad).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn params_edge_cases() {
        // First occurrence wins; invalid names and empty values are skipped.
        let m = MimeType::parse("text/xml;charset=a;charset=b").unwrap();
        assert_eq!(m.charset().as_deref(), Some("a"));
        let m = MimeType::parse("text/xml;charset=;charset=b").unwrap();
        assert_eq!(m.charset().as_deref(), Some("b"));
        let m = MimeType::parse("text/xml; bad name=x; charset=koi8-r").unwrap();
        assert_eq!(m.charset().as_deref(), Some("koi8-r"));
        let m = MimeType::parse("text/xml;charset").unwrap();
        assert_eq!(m.charset(), None);
        let m = MimeType::parse("text/xml;charset=\"sh\\\"ift\" junk;x=y").unwrap();
        assert_eq!(m.charset().as_deref(), Some("sh\"ift"));
        assert_eq!(m.param("x").as_deref(), Some("y"));
        let m = MimeType::parse("text/xml;charset=\"unterminated").unwrap();
        assert_eq!(m.charset().as_deref(), Some("unterminated"));
        let m = MimeType::parse("text/xml;charset=\"a\\").unwrap();
        assert_eq!(m.charset().as_deref(), Some("a\\"));
        let m = MimeType::parse("text/xml;charset=utf-8   ").unwrap();
        assert_eq!(m.charset().as_deref(), Some("utf-8"));
        assert!(matches!(m.charset(), Some(Cow::Borrowed(_))));
    }

    #[test]
    fn xml_mime_types() {
        for t in ["text/xml", "application/xml", "application/rss+xml", "image/svg+xml", "A/B+XML"]
        {
            assert!(is_xml_mime_type(t), "{t}");
        }
        for t in [
            "text/html",
            "application/xml-dtd",
            "text/+xml2",
            "application/x",
            "+xml",
            "text/plain",
        ] {
            assert!(!is_xml_mime_type(t), "{t}");
        }
    }

    #[test]
    fn feed_or_html_rules() {
        assert_eq!(feed_or_html(b"<rss version=\"2.0\">"), Some(APPLICATION_RSS_XML));
        assert_eq!(
            feed_or_html(b"\xEF\xBB\xBF \n<feed xmlns=\"http://www.w3.org/2005/Atom\">"),
            Some(APPLICATION_ATOM_XML)
        );
        assert_eq!(
            feed_or_html(b"<?xml version=\"1.0\"?><!-- a > b --><!DOCTYPE rss><?pi x?>\n<rss>"),
            Some(APPLICATION_RSS_XML)
        );
        let rdf = b"<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\" xmlns=\"http://purl.org/rss/1.0/\">";
        assert_eq!(feed_or_html(rdf), Some(APPLICATION_RSS_XML));
        let rdf_rev = b"<rdf:RDF xmlns=\"http://purl.org/rss/1.0/\" xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">";
        assert_eq!(feed_or_html(rdf_rev), Some(APPLICATION_RSS_XML));
        assert_eq!(
            feed_or_html(b"<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"),
            None
        );
        assert_eq!(feed_or_html(b"<!DOCTYPE html><html><rss>"), None);
        assert_eq!(feed_or_html(b"x<rss>"), None);
        assert_eq!(feed_or_html(b"<!-- unterminated <rss>"), None);
        assert_eq!(feed_or_html(b""), None);
        assert_eq!(feed_or_html(b"<"), None);
    }

    #[test]
    fn unknown_rules() {
        assert_eq!(sniff_unknown(b" \n<?xml version=\"1.0\"?>"), TEXT_XML);
        assert_eq!(sniff_unknown(b"<!doctype html>"), TEXT_HTML);
        assert_eq!(sniff_unknown(b"<HtMl>"), TEXT_HTML);
        assert_eq!(sniff_unknown(b"<a href=x>"), TEXT_HTML);
        assert_eq!(sniff_unknown(b"<abbr>"), TEXT_PLAIN);
        assert_eq!(sniff_unknown(b"\xEF\xBB\xBF<?xml"), TEXT_PLAIN);
        assert_eq!(sniff_unknown(b"\x00\x01"), APPLICATION_OCTET_STREAM);
        assert_eq!(sniff_unknown(b""), TEXT_PLAIN);
        assert_eq!(sniff_unknown(b"%PDF-1.4"), "application/pdf");
    }

    #[test]
    fn computed_types() {
        let c = |ct: Option<&'static str>, body: &'static [u8]| {
            computed_mime_type(ct, body).to_string()
        };
        assert_eq!(c(None, b"<?xml version='1.0'?><rss/>"), "text/xml");
        assert_eq!(c(None, b"\xEF\xBB\xBF<?xml version='1.0'?><rss/>"), "text/xml");
        assert_eq!(c(None, b"\xFF\xFE<\0?\0x\0m\0l\0 \0"), "text/xml");
        assert_eq!(c(None, b"\xFE\xFF\0<\0?\0x\0m\0l\0 "), "text/xml");
        assert_eq!(c(None, b"<\0?\0x\0m\0l\0 \0"), "text/xml");
        assert_eq!(c(None, b"<rss version='2.0'>"), "application/rss+xml");
        assert_eq!(c(None, b"<!-- x --><feed>"), "application/atom+xml");
        assert_eq!(c(None, b"<html><body>"), "text/html");
        assert_eq!(c(Some("nonsense"), b"<?xml ?>"), "text/xml");
        assert_eq!(c(Some("*/*"), b"<rss>"), "application/rss+xml");
        assert_eq!(c(Some("text/html; charset=utf-8"), b"<rss>"), "application/rss+xml");
        assert_eq!(c(Some("text/html"), b"<html>"), "text/html");
        assert_eq!(c(Some("Text/Plain"), b"<?xml ?>"), "text/xml");
        assert_eq!(c(Some("text/plain"), b"hello"), "text/plain");
        assert_eq!(c(Some("application/octet-stream"), b"<?xml ?>"), "text/xml");
        assert_eq!(c(Some("application/json"), b"<?xml ?>"), "application/json");
        assert_eq!(c(Some("IMAGE/SVG+XML"), b"\x89PNG"), "image/svg+xml");
        assert!(computed_mime_type(Some("text/html"), b"<rss>").is_sniffed());
        assert!(!computed_mime_type(Some("text/xml"), b"<rss>").is_sniffed());
    }
}
