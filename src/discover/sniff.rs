//! The character encoding of an HTML page: the HTML Standard's encoding sniffing algorithm
//! (§13.2.3.2, "Determining the character encoding"), as a parser that has every byte runs it:
//!
//! 1. a byte order mark (UTF-8, UTF-16BE, UTF-16LE), which is then skipped;
//! 2. the transport layer's label (the `charset` of the response's `Content-Type`);
//! 3. "prescan a byte stream to determine its encoding" over the first 1,024 bytes:
//!    `<meta charset>`, `<meta http-equiv=Content-Type content="…; charset=…">`, then an XML
//!    declaration's `encoding` ("get an XML encoding"), UTF-16 labels read as UTF-8 and
//!    `x-user-defined` as windows-1252, as the prescan says;
//! 4. autodetection from the bytes (the step the standard leaves to the user agent, before its
//!    default, windows-1252): chardetng, Firefox's detector, as the feed decoder uses it
//!    ([`crate::input::decode::detect`]).
//!
//! Labels are resolved by the Encoding Standard's "get an encoding" ([`Encoding::for_label`]).
//!
//! The prescan is written here, step for step, from the standard's text: crates.io has no
//! well-kept crate implementing it (encoding_rs resolves labels and decodes; html5ever takes
//! text already decoded; lol_html's `<meta>` handling switches encodings while rewriting a
//! stream, not the prescan of the first bytes with its attribute and `content` rules).

use std::borrow::Cow;

use encoding_rs::{Encoding, UTF_16BE, UTF_16LE, UTF_8, WINDOWS_1252, X_USER_DEFINED};

/// How many bytes the prescan reads (the standard's advice).
pub(crate) const PRESCAN_BYTES: usize = 1024;

/// Where the encoding of a page came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub(crate) enum PageEncodingSource {
    /// A byte order mark.
    ByteOrderMark,
    /// The transport's label (`Content-Type` charset).
    Transport,
    /// A `<meta>` or an XML declaration in the first [`PRESCAN_BYTES`] bytes.
    Prescan,
    /// Nothing said anything usable: detected from the bytes.
    Detected,
}

/// A decoded page.
#[derive(Clone, Debug)]
pub(crate) struct DecodedPage<'i> {
    /// The page's text, without a byte order mark (borrowed when the bytes were valid UTF-8).
    pub text: Cow<'i, str>,
    /// The encoding used (read by the tests: what the sniffing decided).
    #[cfg_attr(not(test), allow(dead_code))]
    pub encoding: &'static Encoding,
    /// Where it came from (read by the tests).
    #[cfg_attr(not(test), allow(dead_code))]
    pub source: PageEncodingSource,
}

/// Decodes `bytes`, an HTML page, by the encoding sniffing algorithm (see the module docs);
/// `transport_charset` is the `charset` parameter of the response's `Content-Type`, if any.
/// Invalid sequences become U+FFFD.
pub(crate) fn decode_page<'i>(bytes: &'i [u8], transport_charset: Option<&str>) -> DecodedPage<'i> {
    let (encoding, source, body) = if let Some((enc, bom)) = Encoding::for_bom(bytes) {
        (enc, PageEncodingSource::ByteOrderMark, &bytes[bom..])
    } else if let Some(enc) = transport_charset.and_then(|l| Encoding::for_label(l.as_bytes())) {
        (enc, PageEncodingSource::Transport, bytes)
    } else if let Some(enc) = prescan(&bytes[..bytes.len().min(PRESCAN_BYTES)]) {
        (enc, PageEncodingSource::Prescan, bytes)
    } else {
        (crate::input::decode::detect(bytes), PageEncodingSource::Detected, bytes)
    };
    let (text, _) = encoding.decode_without_bom_handling(body);
    DecodedPage { text, encoding, source }
}

/// "Prescan a byte stream to determine its encoding" over `b` (the caller passes the first
/// 1,024 bytes): the encoding a `<meta>` declares, else an XML declaration's; running out of
/// bytes ends the scan.
pub(crate) fn prescan(b: &[u8]) -> Option<&'static Encoding> {
    // Prescan for UTF-16 XML declarations.
    if b.starts_with(&[0x3C, 0, 0x3F, 0, 0x78, 0]) {
        return Some(UTF_16LE);
    }
    if b.starts_with(&[0, 0x3C, 0, 0x3F, 0, 0x78]) {
        return Some(UTF_16BE);
    }
    scan_metas(b).or_else(|| xml_encoding(b))
}

fn is_space(c: u8) -> bool {
    c.is_ascii_whitespace()
}

/// The prescan's loop; `None` when the bytes run out before a `<meta>` gives an encoding.
fn scan_metas(b: &[u8]) -> Option<&'static Encoding> {
    let mut pos = 0;
    while pos < b.len() {
        let rest = &b[pos..];
        if rest.starts_with(b"<!--") {
            // To the `>` of the first `-->` (its dashes may be those of `<!--`).
            let end = find_seq(&b[pos + 2..], b"-->")?;
            pos += 2 + end + 2;
        } else if rest.len() >= 6
            && rest[..5].eq_ignore_ascii_case(b"<meta")
            && (is_space(rest[5]) || rest[5] == b'/')
        {
            pos += 5;
            if let Some(enc) = meta(b, &mut pos)? {
                return Some(enc);
            }
        } else if rest.len() >= 2
            && (rest[1].is_ascii_alphabetic()
                || (rest[1] == b'/' && rest.get(2).is_some_and(u8::is_ascii_alphabetic)))
            && rest[0] == b'<'
        {
            // A start or end tag: to the first space or `>`, then its attributes.
            pos += rest.iter().position(|&c| is_space(c) || c == b'>')?;
            while attribute(b, &mut pos)?.is_some() {}
        } else if rest.starts_with(b"<!") || rest.starts_with(b"</") || rest.starts_with(b"<?") {
            pos += rest.iter().position(|&c| c == b'>')?;
        }
        pos += 1;
    }
    None
}

/// The attributes of a `<meta` (at `*pos`, the space or `/` after its name) up to its `>`:
/// `Some(Some(encoding))` when they declare one, `Some(None)` to go on scanning, `None` when
/// the bytes run out.
fn meta(b: &[u8], pos: &mut usize) -> Option<Option<&'static Encoding>> {
    let mut seen: Vec<Vec<u8>> = Vec::new();
    // `charset`: `None` is the standard's null, `Some(None)` its failure.
    let (mut got_pragma, mut need_pragma, mut charset) = (false, None, None);
    while let Some((name, value)) = attribute(b, pos)? {
        if seen.contains(&name) {
            continue;
        }
        match name.as_slice() {
            b"http-equiv" => got_pragma |= value == b"content-type",
            b"content" if charset.is_none() => {
                if let Some(enc) = charset_from_content(&value) {
                    charset = Some(Some(enc));
                    need_pragma = Some(true);
                }
            }
            b"charset" => {
                charset = Some(Encoding::for_label(&value));
                need_pragma = Some(false);
            }
            _ => {}
        }
        seen.push(name);
    }
    let Some(need_pragma) = need_pragma else { return Some(None) };
    if need_pragma && !got_pragma {
        return Some(None);
    }
    Some(charset.flatten().map(|enc| match enc {
        e if e == UTF_16BE || e == UTF_16LE => UTF_8,
        e if e == X_USER_DEFINED => WINDOWS_1252,
        e => e,
    }))
}

/// "Get an attribute" at `*pos`: `Some(Some((name, value)))` (lowercased), `Some(None)` at the
/// tag's `>` (left at it), `None` when the bytes run out.
#[allow(clippy::type_complexity)]
fn attribute(b: &[u8], pos: &mut usize) -> Option<Option<(Vec<u8>, Vec<u8>)>> {
    let at = |p: usize| b.get(p).copied();
    while matches!(at(*pos)?, c if is_space(c) || c == b'/') {
        *pos += 1;
    }
    if at(*pos)? == b'>' {
        return Some(None);
    }
    let (mut name, mut value) = (Vec::new(), Vec::new());
    // The name: to `=` (not first), a space, `/` or `>`.
    loop {
        match at(*pos)? {
            b'=' if !name.is_empty() => {
                *pos += 1;
                break;
            }
            c if is_space(c) => {
                while is_space(at(*pos)?) {
                    *pos += 1;
                }
                if at(*pos)? != b'=' {
                    return Some(Some((name, value)));
                }
                *pos += 1;
                break;
            }
            b'/' | b'>' => return Some(Some((name, value))),
            c => name.push(c.to_ascii_lowercase()),
        }
        *pos += 1;
    }
    // The value.
    while is_space(at(*pos)?) {
        *pos += 1;
    }
    match at(*pos)? {
        quote @ (b'"' | b'\'') => loop {
            *pos += 1;
            match at(*pos)? {
                c if c == quote => {
                    *pos += 1;
                    return Some(Some((name, value)));
                }
                c => value.push(c.to_ascii_lowercase()),
            }
        },
        b'>' => return Some(Some((name, value))),
        c => {
            value.push(c.to_ascii_lowercase());
            *pos += 1;
        }
    }
    loop {
        match at(*pos)? {
            c if is_space(c) || c == b'>' => return Some(Some((name, value))),
            c => value.push(c.to_ascii_lowercase()),
        }
        *pos += 1;
    }
}

/// "Extracting a character encoding from a meta element" whose `content` is `s` (lowercased).
fn charset_from_content(s: &[u8]) -> Option<&'static Encoding> {
    let mut pos = 0;
    loop {
        pos += find_seq(&s[pos..], b"charset")? + 7;
        while s.get(pos).is_some_and(|&c| is_space(c)) {
            pos += 1;
        }
        if s.get(pos) != Some(&b'=') {
            continue;
        }
        pos += 1;
        while s.get(pos).is_some_and(|&c| is_space(c)) {
            pos += 1;
        }
        return match *s.get(pos)? {
            q @ (b'"' | b'\'') => {
                let len = s[pos + 1..].iter().position(|&c| c == q)?;
                Encoding::for_label(&s[pos + 1..pos + 1 + len])
            }
            _ => {
                let len = s[pos..].iter().position(|&c| is_space(c) || c == b';');
                Encoding::for_label(&s[pos..pos + len.unwrap_or(s.len() - pos)])
            }
        };
    }
}

/// "Get an XML encoding": the `encoding` of an XML declaration at the start of `b`.
fn xml_encoding(b: &[u8]) -> Option<&'static Encoding> {
    if !b.starts_with(b"<?xml") {
        return None;
    }
    let decl = &b[..b.iter().position(|&c| c == b'>')?];
    let mut pos = (0..decl.len().saturating_sub(7))
        .find(|&i| decl[i..i + 8].eq_ignore_ascii_case(b"encoding"))?
        + 8;
    let skip = |pos: &mut usize| {
        while decl.get(*pos).is_some_and(|&c| c <= 0x20) {
            *pos += 1;
        }
    };
    skip(&mut pos);
    (decl.get(pos)? == &b'=').then_some(())?;
    pos += 1;
    skip(&mut pos);
    let quote = *decl.get(pos).filter(|&&c| c == b'"' || c == b'\'')?;
    let len = decl[pos + 1..].iter().position(|&c| c == quote)?;
    let label = &decl[pos + 1..pos + 1 + len];
    if label.iter().any(|&c| c <= 0x20) {
        return None;
    }
    Encoding::for_label(label).map(|e| if e == UTF_16BE || e == UTF_16LE { UTF_8 } else { e })
}

/// The offset of the first `needle` in `hay` (ASCII case-insensitive).
fn find_seq(hay: &[u8], needle: &[u8]) -> Option<usize> {
    (0..(hay.len() + 1).saturating_sub(needle.len()))
        .find(|&i| hay[i..i + needle.len()].eq_ignore_ascii_case(needle))
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{EUC_JP, ISO_8859_2, REPLACEMENT, SHIFT_JIS, WINDOWS_1251};

    #[test]
    fn meta_charset_and_http_equiv() {
        let cases: &[(&[u8], Option<&'static Encoding>)] = &[
            (b"<meta charset=windows-1251>", Some(WINDOWS_1251)),
            (b"<META CHARSET=\"Shift_JIS\">", Some(SHIFT_JIS)),
            (b"<meta charset='latin2'/>", Some(ISO_8859_2)),
            (b"<meta/charset=euc-jp>", Some(EUC_JP)),
            (
                b"<meta http-equiv=Content-Type content='text/html; charset=windows-1251'>",
                Some(WINDOWS_1251),
            ),
            (
                b"<meta content=\"text/html;charset = 'shift_jis'\" http-equiv=\"content-type\">",
                Some(SHIFT_JIS),
            ),
            // `content` without the pragma, or the pragma without `content`: nothing.
            (b"<meta content='text/html; charset=windows-1251'>", None),
            (b"<meta http-equiv=content-type>", None),
            // The first of a repeated attribute counts.
            (b"<meta charset=shift_jis charset=windows-1251>", Some(SHIFT_JIS)),
            // UTF-16 labels are read as UTF-8, x-user-defined as windows-1252.
            (b"<meta charset=utf-16le>", Some(UTF_8)),
            (b"<meta charset=x-user-defined>", Some(WINDOWS_1252)),
            (b"<meta charset=iso-2022-kr>", Some(REPLACEMENT)),
            // An unknown label goes on to the next `<meta>`.
            (b"<meta charset=nonsense><meta charset=windows-1251>", Some(WINDOWS_1251)),
            // Comments, other tags and their attributes are skipped.
            (b"<!-- <meta charset=shift_jis> --><meta charset=windows-1251>", Some(WINDOWS_1251)),
            (b"<!--><meta charset=windows-1251>", Some(WINDOWS_1251)),
            (
                b"<div title='<meta charset=shift_jis>'><meta charset=windows-1251>",
                Some(WINDOWS_1251),
            ),
            (b"<!doctype html><?x <meta charset=shift_jis>?><meta charset=euc-jp>", Some(EUC_JP)),
            (b"<metadata charset=shift_jis>", None),
            (b"<meta charset=shift_jis", None),
            (b"<!-- <meta charset=shift_jis>", None),
            // An XML declaration when no `<meta>` says anything.
            (b"<?xml version='1.0' encoding='windows-1251'?><p>", Some(WINDOWS_1251)),
            (b"<?xml version='1.0' encoding=\"utf-16\"?>", Some(UTF_8)),
            (b"<\0?\0x\0m\0l\0", Some(UTF_16LE)),
            (b"\0<\0?\0x\0m\0l", Some(UTF_16BE)),
            (b"<p>plain", None),
        ];
        for &(bytes, want) in cases {
            assert_eq!(prescan(bytes), want, "{}", String::from_utf8_lossy(bytes));
        }
    }

    #[test]
    fn order_bom_transport_prescan_detection() {
        let (cp1251, _, _) = WINDOWS_1251.encode("<a href='/лента'>Лента</a>");
        let page = [b"<meta charset=windows-1251>".as_slice(), &cp1251].concat();
        let d = decode_page(&page, None);
        assert_eq!((d.encoding, d.source), (WINDOWS_1251, PageEncodingSource::Prescan));
        assert!(d.text.contains("Лента"));
        // The transport label wins over the `<meta>`, a byte order mark over both.
        let d = decode_page(&page, Some("koi8-r"));
        assert_eq!(d.source, PageEncodingSource::Transport);
        let bom = [b"\xEF\xBB\xBF".as_slice(), &page].concat();
        let d = decode_page(&bom, Some("koi8-r"));
        assert_eq!((d.encoding, d.source), (UTF_8, PageEncodingSource::ByteOrderMark));
        assert!(d.text.starts_with("<meta"));
        // An unknown transport label is ignored.
        assert_eq!(decode_page(&page, Some("nonsense")).source, PageEncodingSource::Prescan);
        // A `<meta>` past the first 1,024 bytes is not read: the bytes decide.
        let late = [vec![b' '; PRESCAN_BYTES], page.clone()].concat();
        assert_eq!(decode_page(&late, None).source, PageEncodingSource::Detected);
        let d = decode_page("<p>déjà</p>".as_bytes(), None);
        assert_eq!((d.encoding, d.text.as_ref()), (UTF_8, "<p>déjà</p>"));
        // ASCII reads the same whatever the detector answers.
        assert_eq!(decode_page(b"<p>plain</p>", None).text, "<p>plain</p>");
        let (cp1252, _, _) = WINDOWS_1252.encode("<p>café “quoted” naïve déjà vu</p>");
        assert_eq!(decode_page(&cp1252, None).encoding, WINDOWS_1252);
    }

    /// The prescan reads each byte a bounded number of times and never panics, whatever the
    /// bytes: every prefix of a tricky page.
    #[test]
    fn every_prefix_is_scanned_without_panicking() {
        let page = b"<!-- x --><div a=1 b='2' c=\"3\" d e = f/><meta http-equiv='Content-Type' \
                     content=\"text/html; charset='shift_jis'\"><meta charset=x>";
        for n in 0..=page.len() {
            let _ = prescan(&page[..n]);
        }
        assert_eq!(prescan(page), Some(SHIFT_JIS));
    }
}
