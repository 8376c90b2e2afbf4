//! Encoding determination and decoding of an XML feed body.
//!
//! Order (first that yields an encoding wins):
//! 1. a byte order mark (UTF-8, UTF-16LE, UTF-16BE) — stripped from the text;
//! 2. the transport label (the `charset` parameter of `Content-Type`);
//! 3. the XML declaration's `encoding` pseudo-attribute, read from the start of the bytes (also
//!    from an ASCII-incompatible UTF-16 document without BOM, recognised by `<\0?\0` / `\0<\0?`);
//! 4. UTF-8.
//!
//! Labels are resolved as the WHATWG Encoding Standard does ([`Encoding::for_label`]:
//! `iso-8859-1`, `latin1`, `us-ascii` → windows-1252, `utf-16` → UTF-16LE, …). A label that
//! resolves to nothing is ignored with a note and the next source is tried.
//!
//! Recovery ([`decode_with`] with `recover`; off with `Options::spec_exact`): UTF-32 (byte
//! order mark, or `00 00 00 3C` / `3C 00 00 00` per XML 1.0 Appendix F) is decoded; and when
//! the encoding chosen above gives invalid byte sequences (no label at all and bytes that
//! are not UTF-8, a `utf-8` declaration over windows-1252 bytes, a wrong transport label),
//! the encoding is detected from the bytes with chardetng (Firefox's detector) and used if it
//! decodes them cleanly; and a windows-1252 label (`iso-8859-1`, `latin1`, …) over bytes
//! that are UTF-8 with non-ASCII characters (all valid, or mostly) is read as UTF-8. Each is
//! reported in [`Decoded::guessed`].
//!
//! Invariants: the text never starts with U+FEFF; valid UTF-8 input (and ASCII-only input in any
//! ASCII-compatible encoding) is borrowed, not copied; malformed input never fails — each invalid
//! sequence becomes U+FFFD and [`Decoded::malformed`] gives the byte offset (in the input, BOM
//! included) of the first one.

use std::borrow::Cow;

use encoding_rs::{DecoderResult, Encoding, UTF_16BE, UTF_16LE, UTF_8};

/// Where the encoding used came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EncodingSource {
    /// A byte order mark at the start of the body.
    ByteOrderMark,
    /// The transport's label (the `charset` parameter of `Content-Type`).
    Transport,
    /// The XML declaration: its `encoding` pseudo-attribute, or (for UTF-16 without a BOM) the
    /// byte pattern of the declaration's first characters.
    XmlDeclaration,
    /// Nothing said anything usable: UTF-8.
    Default,
}

/// A decoded body.
#[derive(Clone, Debug)]
pub struct Decoded<'i> {
    /// The document text, without a leading BOM. Borrowed from the input when it was valid UTF-8
    /// (or ASCII in an ASCII-compatible encoding).
    pub text: Cow<'i, str>,
    /// The encoding used to decode (the document's character encoding).
    pub encoding: &'static Encoding,
    /// Where `encoding` came from.
    pub source: EncodingSource,
    /// Byte offset in the input (BOM included) of the first invalid byte sequence, if any.
    pub malformed: Option<usize>,
    /// How many invalid byte sequences were replaced by U+FFFD.
    pub malformed_count: usize,
    /// Human-readable notes on labels ignored or overridden (empty for the usual document; no
    /// allocation then).
    pub notes: Vec<String>,
    /// Set when the `c1_control` recovery rule mapped C1 controls in the text (of a UTF-8 or
    /// windows-1252 document) to windows-1252 characters: the offset of the first in the
    /// text, and how many.
    pub c1_mapped: Option<(usize, usize)>,
    /// Set when a recovery rule chose the encoding (detected from the bytes, or UTF-32, which
    /// has no WHATWG [`Encoding`]: `encoding` is then UTF-8, the text's own): what was done.
    pub guessed: Option<String>,
}

/// How far into the body the XML declaration is looked for (bytes; UTF-16 documents get half
/// as many characters). Generous: leading whitespace before `<?xml` is tolerated.
const XML_DECL_SCAN: usize = 1024;

fn is_utf16(enc: &'static Encoding) -> bool {
    enc == UTF_16LE || enc == UTF_16BE
}

/// UTF-16 without BOM, recognised by the first two characters of an XML declaration (`<?`),
/// as in XML 1.0 Appendix F.
fn utf16_decl_pattern(body: &[u8]) -> Option<&'static Encoding> {
    if body.starts_with(b"<\0?\0") {
        Some(UTF_16LE)
    } else if body.starts_with(b"\0<\0?") {
        Some(UTF_16BE)
    } else {
        None
    }
}

/// Whether the first code unit looks like UTF-16 (exactly one of the first two bytes is zero).
/// Returns the byte order it suggests.
fn looks_utf16(body: &[u8]) -> Option<&'static Encoding> {
    match body {
        [a, 0, ..] if *a != 0 => Some(UTF_16LE),
        [0, b, ..] if *b != 0 => Some(UTF_16BE),
        _ => None,
    }
}

/// Reads the XML declaration's `encoding` value from ASCII bytes (already converted from UTF-16
/// if needed). Leading XML whitespace before `<?xml` is tolerated (common in served feeds).
fn xml_decl_encoding(ascii: &[u8]) -> Option<&[u8]> {
    let is_ws = |b: u8| matches!(b, b' ' | b'\t' | b'\r' | b'\n');
    let start = ascii.iter().position(|&b| !is_ws(b))?;
    let rest = ascii[start..].strip_prefix(b"<?xml")?;
    if !rest.first().is_some_and(|&b| is_ws(b)) {
        return None;
    }
    let end = memchr::memchr(b'>', rest).unwrap_or(rest.len());
    let decl = &rest[..end];
    let mut i = 0;
    while let Some(off) = memchr::memmem::find(&decl[i..], b"encoding") {
        let at = i + off;
        i = at + 8;
        if !is_ws(decl[at - 1]) {
            continue; // `xencoding`: not the pseudo-attribute
        }
        let mut j = i;
        while j < decl.len() && is_ws(decl[j]) {
            j += 1;
        }
        if decl.get(j) != Some(&b'=') {
            continue;
        }
        j += 1;
        while j < decl.len() && is_ws(decl[j]) {
            j += 1;
        }
        let quote = *decl.get(j)?;
        if quote != b'"' && quote != b'\'' {
            return None;
        }
        let value = &decl[j + 1..];
        let close = memchr::memchr(quote, value)?;
        return Some(&value[..close]);
    }
    None
}

/// The encoding label in the XML declaration at the start of `body`, if any (raw bytes, ASCII).
/// `utf16` gives the byte order when the body is UTF-16 (BOM already stripped).
fn declared_label<'b>(
    body: &[u8],
    utf16: Option<&'static Encoding>,
    buf: &'b mut [u8; XML_DECL_SCAN / 2],
) -> Option<&'b [u8]> {
    let Some(enc) = utf16 else {
        let head = &body[..body.len().min(XML_DECL_SCAN)];
        let label = xml_decl_encoding(head)?;
        let n = label.len().min(buf.len());
        buf[..n].copy_from_slice(&label[..n]);
        return Some(&buf[..n]);
    };
    // Narrow UTF-16 code units to ASCII until the first non-ASCII one.
    let mut n = 0;
    for unit in body.chunks_exact(2).take(buf.len()) {
        let (lo, hi) = if enc == UTF_16LE { (unit[0], unit[1]) } else { (unit[1], unit[0]) };
        if hi != 0 || lo >= 0x80 {
            break;
        }
        buf[n] = lo;
        n += 1;
    }
    let buf: &'b [u8; XML_DECL_SCAN / 2] = buf;
    xml_decl_encoding(&buf[..n])
}

/// [`decode`], with the encoding recovery rules when `recover` (see the module docs).
pub fn decode_with<'i>(
    body: &'i [u8],
    transport_label: Option<&str>,
    recover: bool,
) -> Decoded<'i> {
    if !recover {
        return decode(body, transport_label);
    }
    let mut d = choose_and_decode(body, transport_label);
    if d.encoding == UTF_8 || d.encoding == encoding_rs::WINDOWS_1252 {
        if let Some((text, first, count)) = map_c1(&d.text) {
            d.text = Cow::Owned(text);
            d.c1_mapped = Some((first, count));
        }
    }
    d
}

/// The `c1_control` rule: a C1 control (U+0080–U+009F) in a windows-1252-compatible
/// document is what converting windows-1252 as if it were ISO-8859-1 left behind (`\u{92}`
/// for `’`); it is read as the windows-1252 character (the HTML Standard's table; the five
/// code points windows-1252 leaves undefined stay). Returns the mapped text, the offset of
/// the first mapped control and how many were mapped; `None` (no copy) when there is none.
/// One `memchr` pass over the text.
pub fn map_c1(text: &str) -> Option<(String, usize, usize)> {
    let bytes = text.as_bytes();
    // In UTF-8, U+0080–U+009F are C2 80–C2 9F.
    let mapped = |i: usize| {
        bytes
            .get(i + 1)
            .filter(|b| (0x80..0xA0).contains(*b))
            .and_then(|&b| crate::xml::entities::c1_to_windows_1252(char::from(b)))
    };
    let first = memchr::memchr_iter(0xC2, bytes).find(|&i| mapped(i).is_some())?;
    let mut out = String::with_capacity(text.len() + 16);
    let mut count = 0;
    let mut copied = 0;
    for i in memchr::memchr_iter(0xC2, &bytes[first..]).map(|i| i + first) {
        if let Some(m) = mapped(i) {
            out.push_str(&text[copied..i]);
            out.push(m);
            copied = i + 2;
            count += 1;
        }
    }
    out.push_str(&text[copied..]);
    Some((out, first, count))
}

/// The encoding rules of [`decode_with`] (everything but the C1 mapping).
fn choose_and_decode<'i>(body: &'i [u8], transport_label: Option<&str>) -> Decoded<'i> {
    if let Some(d) = decode_utf32(body) {
        return d;
    }
    let d = decode(body, transport_label);
    if d.encoding == encoding_rs::WINDOWS_1252 {
        if let Some((text, message)) = utf8_labelled_windows_1252(body, &d) {
            return guessed(text, UTF_8, d, message);
        }
    }
    if d.malformed.is_none() || d.source == EncodingSource::ByteOrderMark {
        return d;
    }
    if d.encoding == UTF_8 {
        if let Some((mixed, invalid)) = utf8_with_windows_1252_bytes(body) {
            let message = format!(
                "{invalid} invalid UTF-8 byte sequence(s) in a document that is otherwise UTF-8 read as windows-1252",
            );
            return guessed(Cow::Owned(mixed), UTF_8, d, message);
        }
    }
    let guess = detect(body);
    if guess == d.encoding {
        return d;
    }
    let (text, malformed, _) = decode_bytes(body, guess);
    if malformed.is_some() {
        return d;
    }
    let why = match d.source {
        EncodingSource::Default => "no encoding was named and the bytes are not UTF-8".to_owned(),
        EncodingSource::Transport => format!("the transport label ({}) gave", d.encoding.name()),
        _ => format!("the XML declaration ({}) gave", d.encoding.name()),
    };
    let why = if d.source == EncodingSource::Default {
        why
    } else {
        format!("{why} {} invalid byte sequence(s)", d.malformed_count)
    };
    let message = format!("{why}; detected {}, which decodes them cleanly", guess.name());
    guessed(text, guess, d, message)
}

/// The decoding a recovery rule chose instead of `label`'s (the spec's): `text` in
/// `encoding`, with `label`'s source and notes, and what was done.
fn guessed<'i>(
    text: Cow<'i, str>,
    encoding: &'static Encoding,
    label: Decoded<'_>,
    message: String,
) -> Decoded<'i> {
    let mut notes = label.notes;
    let text = strip_leading_bom(text, &mut notes);
    Decoded {
        text,
        encoding,
        source: label.source,
        malformed: None,
        malformed_count: 0,
        notes,
        c1_mapped: None,
        guessed: Some(message),
    }
}

/// The encoding chardetng (Firefox's detector) guesses for `body`, reading its first 64 KiB
/// (they say as much as the whole body, and bound the cost).
///
/// Only the whitespace-separated words holding a non-ASCII byte are fed to the detector, each
/// with the whitespace byte before and after it: chardetng gives no score to a pair of ASCII
/// bytes, counts word lengths in non-ASCII letters only, and is in the same state after an
/// ASCII whitespace byte whether or not ASCII-only words came before it, so leaving those
/// out gives the same guess (the `decode` fuzz target asserts it against feeding every byte)
/// at a fraction of the cost on a feed, which is mostly ASCII markup.
pub fn detect(body: &[u8]) -> &'static Encoding {
    const DETECT: usize = 64 << 10;
    let head = &body[..body.len().min(DETECT)];
    let is_ws = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0C');
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    // Everything before `fed` was fed or skipped; a skipped run always starts after a
    // whitespace byte (or at the start) and ends before one.
    let mut fed = 0;
    loop {
        let ascii = Encoding::ascii_valid_up_to(&head[fed..]);
        if fed + ascii == head.len() {
            break;
        }
        let at = fed + ascii;
        // The word holding `at`: from the whitespace byte before it (unless nothing was
        // skipped), through the whitespace byte after it.
        let from = head[fed..at].iter().rposition(is_ws).map_or(fed, |i| fed + i);
        let end = head[at..].iter().position(is_ws).map_or(head.len(), |i| at + i + 1);
        detector.feed(&head[from..end], false);
        fed = end;
    }
    detector.feed(&[], body.len() <= DETECT);
    detector.guess(None, chardetng::Utf8Detection::Allow)
}

/// A document that is mostly UTF-8 (more valid non-ASCII characters than invalid sequences)
/// with some windows-1252 bytes pasted in: each invalid sequence's bytes read as
/// windows-1252, the valid UTF-8 kept. Decoding the whole document in a detected legacy
/// encoding would garble the valid part. Returns the text and the number of invalid
/// sequences; `None` when the document is not mostly UTF-8 (decided in a first pass that
/// only counts, so a legacy document costs no copy).
fn utf8_with_windows_1252_bytes(body: &[u8]) -> Option<(String, usize)> {
    let (mut valid_non_ascii, mut invalid) = (0, 0);
    utf8_runs(body, |run| match run {
        Ok(s) => valid_non_ascii += non_ascii_chars(s),
        Err(_) => invalid += 1,
    });
    if valid_non_ascii <= invalid {
        return None;
    }
    let mut out = String::with_capacity(body.len() + invalid * 2);
    utf8_runs(body, |run| match run {
        Ok(s) => out.push_str(s),
        Err(bad) => out.push_str(&encoding_rs::WINDOWS_1252.decode_without_bom_handling(bad).0),
    });
    Some((out, invalid))
}

/// Calls `f` on the runs of `body` in order: `Ok` for a run of valid UTF-8, `Err` for the
/// bytes of one invalid sequence.
fn utf8_runs<'b>(body: &'b [u8], mut f: impl FnMut(Result<&'b str, &'b [u8]>)) {
    let mut rest = body;
    loop {
        match std::str::from_utf8(rest) {
            Ok(s) => return f(Ok(s)),
            Err(e) => {
                let (good, bad) = rest.split_at(e.valid_up_to());
                f(Ok(std::str::from_utf8(good).unwrap_or_default()));
                let n = e.error_len().unwrap_or(bad.len());
                f(Err(&bad[..n]));
                rest = &bad[n..];
            }
        }
    }
}

/// A windows-1252 label (`iso-8859-1`, `latin1`, `windows-1252`, … from the transport or the
/// XML declaration) over bytes that are UTF-8 with non-ASCII characters — all valid, or
/// mostly (more valid non-ASCII characters than invalid sequences, which are then read as
/// windows-1252, as [`utf8_with_windows_1252_bytes`] does): the bytes are UTF-8 (a server's
/// default `charset=ISO-8859-1`, a template's stale declaration). Read as windows-1252 they
/// would give two or three characters per non-ASCII one (`Ã¤` for `ä`); real windows-1252
/// text has almost no valid multi-byte UTF-8 sequence, since an accented letter (`E9`)
/// followed by an ASCII byte is an invalid one. Returns the text and what was done; `None`
/// otherwise (an ASCII-only body costs one UTF-8 validation).
fn utf8_labelled_windows_1252<'i>(
    body: &'i [u8],
    d: &Decoded<'_>,
) -> Option<(Cow<'i, str>, String)> {
    let (text, invalid) = match std::str::from_utf8(body) {
        Ok(s) if !s.is_ascii() => (Cow::Borrowed(s), 0),
        Ok(_) => return None,
        Err(_) => {
            let (mixed, invalid) = utf8_with_windows_1252_bytes(body)?;
            (Cow::Owned(mixed), invalid)
        }
    };
    let label = match d.source {
        EncodingSource::Transport => "the transport label",
        _ => "the XML declaration",
    };
    let mixed = match invalid {
        0 => String::new(),
        n => format!(", its {n} invalid sequence(s) as windows-1252"),
    };
    let message = format!("{label} ({}) over UTF-8 bytes: read as UTF-8{mixed}", d.encoding.name());
    Some((text, message))
}

/// The number of non-ASCII characters in `s`: the lead bytes of its multi-byte sequences
/// (`C2`–`F4`; continuation bytes are `80`–`BF`). A byte count, which vectorizes.
fn non_ascii_chars(s: &str) -> usize {
    s.bytes().filter(|&b| b >= 0xC0).count()
}

/// UTF-32 by its byte order mark or, without one, by the first character `<` (XML 1.0
/// Appendix F). Invalid code units become U+FFFD (counted in `malformed`).
fn decode_utf32(body: &[u8]) -> Option<Decoded<'_>> {
    let (big_endian, skip, how) = match body {
        [0, 0, 0xFE, 0xFF, ..] => (true, 4, "byte order mark"),
        [0xFF, 0xFE, 0, 0, ..] => (false, 4, "byte order mark"),
        [0, 0, 0, b'<', ..] => (true, 0, "00 00 00 3C"),
        [b'<', 0, 0, 0, ..] => (false, 0, "3C 00 00 00"),
        _ => return None,
    };
    let mut text = String::with_capacity(body.len() / 4);
    let mut malformed = None;
    let mut count = 0;
    for (i, unit) in body[skip..].chunks(4).enumerate() {
        let c = <[u8; 4]>::try_from(unit)
            .ok()
            .map(|u| if big_endian { u32::from_be_bytes(u) } else { u32::from_le_bytes(u) })
            .and_then(char::from_u32);
        match c {
            Some(c) => text.push(c),
            None => {
                malformed.get_or_insert(skip + 4 * i);
                count += 1;
                text.push('\u{FFFD}');
            }
        }
    }
    let mut notes = Vec::new();
    let text = strip_leading_bom(Cow::Owned(text), &mut notes);
    let name = if big_endian { "UTF-32BE" } else { "UTF-32LE" };
    Some(Decoded {
        text,
        encoding: UTF_8,
        source: if skip > 0 {
            EncodingSource::ByteOrderMark
        } else {
            EncodingSource::XmlDeclaration
        },
        malformed,
        malformed_count: count,
        notes,
        c1_mapped: None,
        guessed: Some(format!(
            "{name} recognized by its {how}; decoded (UTF-32 is no WHATWG encoding: the encoding reported is the text's, UTF-8)"
        )),
    })
}

/// Determines the encoding of `body` and decodes it, exactly as the spec says (no recovery
/// rule: see [`decode_with`]). `transport_label` is the `charset` parameter of the response's
/// `Content-Type`, if any. Never panics, never fails.
pub fn decode<'i>(body: &'i [u8], transport_label: Option<&str>) -> Decoded<'i> {
    let mut notes = Vec::new();

    // 1. Byte order mark.
    if let Some((enc, bom_len)) = Encoding::for_bom(body) {
        if let Some(label) = transport_label {
            if Encoding::for_label(label.as_bytes()) != Some(enc) {
                notes.push(format!(
                    "transport label {label:?} overridden by the {} byte order mark",
                    enc.name()
                ));
            }
        }
        return finish(body, bom_len, enc, EncodingSource::ByteOrderMark, notes);
    }

    // 2. Transport label.
    if let Some(label) = transport_label {
        match Encoding::for_label(label.as_bytes()) {
            None => notes.push(format!("unknown transport encoding label {label:?} ignored")),
            Some(enc) if is_utf16(enc) => match looks_utf16(body) {
                // The label only says "UTF-16"; the bytes tell the byte order.
                Some(order) => {
                    if order != enc {
                        notes.push(format!(
                            "transport label {label:?} ({}) but the bytes are {}; using {}",
                            enc.name(),
                            order.name(),
                            order.name()
                        ));
                    }
                    return finish(body, 0, order, EncodingSource::Transport, notes);
                }
                // A UTF-16 label on ASCII-compatible bytes (`<?` is not `<\0`) is a server
                // default, not a description of these bytes: decoding them as UTF-16 would turn
                // every pair of ASCII bytes into one CJK character. Fall through to the document.
                None => notes.push(format!(
                    "transport label {label:?} ignored: the body is not UTF-16 (no BOM, ASCII-compatible bytes)"
                )),
            },
            Some(enc) => {
                if utf16_decl_pattern(body).is_some() {
                    notes.push(format!(
                        "transport label {label:?} used although the body looks like UTF-16"
                    ));
                }
                return finish(body, 0, enc, EncodingSource::Transport, notes);
            }
        }
    }

    // 3. XML declaration.
    let pattern = utf16_decl_pattern(body);
    let mut buf = [0u8; XML_DECL_SCAN / 2];
    if let Some(raw) = declared_label(body, pattern, &mut buf) {
        let shown = String::from_utf8_lossy(raw);
        match (Encoding::for_label(raw), pattern) {
            (None, None) => notes
                .push(format!("unknown encoding label {shown:?} in the XML declaration ignored")),
            (None, Some(order)) => {
                notes.push(format!(
                    "unknown encoding label {shown:?} in the XML declaration; the bytes are {}",
                    order.name()
                ));
                return finish(body, 0, order, EncodingSource::XmlDeclaration, notes);
            }
            (Some(enc), Some(order)) => {
                if enc != order {
                    notes.push(format!(
                        "XML declaration says {shown:?} but the declaration itself is written in {}; using {}",
                        order.name(),
                        order.name()
                    ));
                }
                return finish(body, 0, order, EncodingSource::XmlDeclaration, notes);
            }
            (Some(enc), None) if is_utf16(enc) => {
                // The declaration was readable as ASCII, so the document is not UTF-16 (it has
                // no BOM either). This is the usual result of re-encoding a UTF-16 document to
                // UTF-8 without updating the declaration; UTF-8 is the right reading (as the
                // HTML Standard does for a `utf-16` meta charset).
                notes.push(format!(
                    "XML declaration says {shown:?} but the bytes are ASCII-compatible; using UTF-8"
                ));
                return finish(body, 0, UTF_8, EncodingSource::XmlDeclaration, notes);
            }
            (Some(enc), None) => {
                return finish(body, 0, enc, EncodingSource::XmlDeclaration, notes)
            }
        }
    } else if let Some(order) = pattern {
        // `<?` in UTF-16 but no readable encoding pseudo-attribute: the pattern decides.
        return finish(body, 0, order, EncodingSource::XmlDeclaration, notes);
    }

    // 4. Default.
    finish(body, 0, UTF_8, EncodingSource::Default, notes)
}

/// Decodes `body[skip..]` (skip = BOM length) with `encoding`, without BOM handling.
fn finish<'i>(
    body: &'i [u8],
    skip: usize,
    encoding: &'static Encoding,
    source: EncodingSource,
    mut notes: Vec<String>,
) -> Decoded<'i> {
    let bytes = &body[skip..];
    let (text, malformed, malformed_count) = decode_bytes(bytes, encoding);
    let malformed = malformed.map(|m| m + skip);
    let text = strip_leading_bom(text, &mut notes);
    Decoded {
        text,
        encoding,
        source,
        malformed,
        malformed_count,
        notes,
        c1_mapped: None,
        guessed: None,
    }
}

fn strip_leading_bom<'i>(text: Cow<'i, str>, notes: &mut Vec<String>) -> Cow<'i, str> {
    const BOM: char = '\u{FEFF}';
    if !text.starts_with(BOM) {
        return text;
    }
    notes.push("extra byte order mark(s) at the start of the text removed".to_owned());
    match text {
        Cow::Borrowed(s) => Cow::Borrowed(s.trim_start_matches(BOM)),
        Cow::Owned(mut s) => {
            let n = s.len() - s.trim_start_matches(BOM).len();
            s.drain(..n);
            Cow::Owned(s)
        }
    }
}

/// Decodes with replacement, reporting the offset of the first malformed sequence and the count.
fn decode_bytes<'i>(
    bytes: &'i [u8],
    encoding: &'static Encoding,
) -> (Cow<'i, str>, Option<usize>, usize) {
    // Fast paths: no copy.
    if encoding == UTF_8 {
        // The whole input is validated here, its first pass: simdutf8 (SIMD, the CPU's best
        // width chosen at run time) reads it several times faster than `str::from_utf8`.
        // Invalid input takes the decoder below, which reports where.
        if let Ok(s) = simdutf8::basic::from_utf8(bytes) {
            return (Cow::Borrowed(s), None, 0);
        }
    } else if encoding.is_ascii_compatible() && Encoding::ascii_valid_up_to(bytes) == bytes.len() {
        // is_ascii_compatible() is false for ISO-2022-JP (its escapes are ASCII bytes), for
        // UTF-16 and for the replacement encoding, so this is exact.
        // SAFETY-free: ASCII is valid UTF-8.
        return (Cow::Borrowed(std::str::from_utf8(bytes).expect("ASCII is UTF-8")), None, 0);
    }

    let mut decoder = encoding.new_decoder_without_bom_handling();
    let bound =
        decoder.max_utf8_buffer_length_without_replacement(bytes.len()).unwrap_or(bytes.len());
    let mut out = String::with_capacity(bound);
    // The decoder writes into a fixed chunk, appended to `out` after each call: it stops at
    // every malformed sequence, and `decode_to_string_without_replacement` initializes the
    // spare capacity of its `String` on each call, which made input with a malformed byte
    // in every few quadratic in its length.
    let mut chunk = vec![0u8; bound.clamp(16, DECODE_CHUNK)];
    let mut pos = 0;
    let mut first = None;
    let mut count = 0;
    loop {
        let (result, read, written) =
            decoder.decode_to_utf8_without_replacement(&bytes[pos..], &mut chunk, true);
        pos += read;
        // The decoder writes whole characters: every chunk is UTF-8 of its own.
        out.push_str(simdutf8::basic::from_utf8(&chunk[..written]).expect("the decoder's UTF-8"));
        match result {
            DecoderResult::InputEmpty => break,
            DecoderResult::OutputFull => {}
            DecoderResult::Malformed(bad, after) => {
                let at = pos.saturating_sub(after as usize + bad as usize);
                first.get_or_insert(at);
                count += 1;
                out.push('\u{FFFD}');
            }
        }
    }
    (Cow::Owned(out), first, count)
}

/// Bytes of UTF-8 one call of the decoder writes at most (see [`decode_bytes`]).
const DECODE_CHUNK: usize = 64 << 10;

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{EUC_JP, SHIFT_JIS, WINDOWS_1252};

    #[test]
    fn c1_controls_are_mapped() {
        let (t, first, n) = map_c1("It\u{92}s \u{93}ok\u{94} \u{81}").unwrap();
        assert_eq!((t.as_str(), first, n), ("It\u{2019}s \u{201C}ok\u{201D} \u{81}", 2, 3));
        assert!(map_c1("caf\u{E9} \u{A0} \u{81}").is_none());
    }

    #[test]
    fn utf8_is_borrowed() {
        let body = "<?xml version=\"1.0\"?><rss>é</rss>".as_bytes();
        let d = decode(body, None);
        assert!(matches!(d.text, Cow::Borrowed(_)));
        assert_eq!(d.encoding, UTF_8);
        assert_eq!(d.source, EncodingSource::Default);
        assert_eq!(d.malformed, None);
        assert!(d.notes.is_empty());
    }

    #[test]
    fn bom_stripped_and_wins() {
        let d = decode(b"\xEF\xBB\xBF<rss/>", Some("windows-1252"));
        assert_eq!(d.text, "<rss/>");
        assert_eq!(d.source, EncodingSource::ByteOrderMark);
        assert_eq!(d.notes.len(), 1);
        let d = decode(b"\xEF\xBB\xBF\xEF\xBB\xBF<rss/>", None);
        assert_eq!(d.text, "<rss/>");
        let d = decode(b"\xFF\xFE<\0a\0", None);
        assert_eq!((d.text.as_ref(), d.encoding), ("<a", UTF_16LE));
        let d = decode(b"\xFE\xFF\0<\0a", None);
        assert_eq!((d.text.as_ref(), d.encoding), ("<a", UTF_16BE));
    }

    #[test]
    fn malformed_offsets() {
        let d = decode(b"<a>ok\xFFx\xC3</a>", None);
        assert_eq!(d.text, "<a>ok\u{FFFD}x\u{FFFD}</a>");
        assert_eq!(d.malformed, Some(5));
        assert_eq!(d.malformed_count, 2);
        // Offsets count the BOM.
        let d = decode(b"\xEF\xBB\xBFab\x80", None);
        assert_eq!(d.malformed, Some(5));
        // Truncated UTF-16: the odd byte at the end.
        let d = decode(b"\xFF\xFEa\0b", None);
        assert_eq!(d.text, "a\u{FFFD}");
        assert_eq!(d.malformed, Some(4));
        let d = decode(b"<a>\x82\xA0\x82</a>", Some("shift_jis"));
        assert_eq!(d.encoding, SHIFT_JIS);
        assert_eq!(d.malformed_count, 1);
        assert!(d.text.starts_with("<a>\u{3042}\u{FFFD}"));
    }

    /// Decoding in chunks gives the text one call of encoding_rs gives, and the offset of
    /// the first malformed sequence and their count that one output buffer as large as the
    /// whole text gives, across chunk boundaries and with malformed sequences anywhere (it
    /// was quadratic in them).
    #[test]
    fn chunked_decoding_is_encoding_rs_decoding() {
        fn one_buffer(bytes: &[u8], encoding: &'static Encoding) -> (String, Option<usize>, usize) {
            let mut decoder = encoding.new_decoder_without_bom_handling();
            let bound = decoder.max_utf8_buffer_length_without_replacement(bytes.len()).unwrap();
            let mut out = vec![0u8; bound + 3 * bytes.len()];
            let (mut pos, mut len, mut first, mut count) = (0, 0, None, 0);
            loop {
                let (result, read, written) = decoder.decode_to_utf8_without_replacement(
                    &bytes[pos..],
                    &mut out[len..],
                    true,
                );
                pos += read;
                len += written;
                match result {
                    DecoderResult::InputEmpty => break,
                    DecoderResult::OutputFull => panic!("the buffer holds the whole text"),
                    DecoderResult::Malformed(bad, after) => {
                        first.get_or_insert(pos - after as usize - bad as usize);
                        count += 1;
                        out[len..len + 3].copy_from_slice("\u{FFFD}".as_bytes());
                        len += 3;
                    }
                }
            }
            (String::from_utf8(out[..len].to_vec()).unwrap(), first, count)
        }
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut noise = |n: usize| -> Vec<u8> {
            (0..n)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    state as u8
                })
                .collect()
        };
        let text = "S\u{E4}nger \u{3042}\u{1F600} ".repeat(20_000);
        for encoding in [UTF_8, SHIFT_JIS, EUC_JP, WINDOWS_1252, UTF_16LE] {
            let encoded = match encoding {
                e if e == UTF_16LE => text.encode_utf16().flat_map(u16::to_le_bytes).collect(),
                e => e.encode(&text).0.into_owned(),
            };
            let broken = [&encoded[..], &noise(5), &encoded[..]].concat();
            for body in [encoded.clone(), noise(300_000), broken] {
                let (ours, first, count) = decode_bytes(&body, encoding);
                let (theirs, malformed) = encoding.decode_without_bom_handling(&body);
                assert_eq!(ours, theirs, "{}", encoding.name());
                assert_eq!(malformed, count > 0, "{}", encoding.name());
                let (_, want_first, want_count) = one_buffer(&body, encoding);
                assert_eq!((first, count), (want_first, want_count), "{}", encoding.name());
            }
        }
    }

    /// A windows-1252 label over UTF-8 bytes is read as UTF-8 by the recovery rule only;
    /// real windows-1252 text, and ASCII, keep the label.
    #[test]
    fn windows_1252_label_over_utf8_bytes() {
        let latin1_decl = |body: &str| format!("<?xml version='1.0' encoding='ISO-8859-1'?>{body}");
        let utf8 = latin1_decl("<a>S\u{E4}nger l\u{E4}sst</a>");
        let d = decode_with(utf8.as_bytes(), None, true);
        assert_eq!((d.encoding, d.source), (UTF_8, EncodingSource::XmlDeclaration));
        assert!(d.text.contains("S\u{E4}nger l\u{E4}sst"));
        assert!(matches!(d.text, Cow::Borrowed(_)), "valid UTF-8 is borrowed");
        assert_eq!(
            d.guessed.as_deref(),
            Some("the XML declaration (windows-1252) over UTF-8 bytes: read as UTF-8")
        );
        // Spec-exact: the label's encoding, two characters per non-ASCII one.
        let d = decode_with(utf8.as_bytes(), None, false);
        assert_eq!(d.encoding, WINDOWS_1252);
        assert!(d.text.contains("S\u{C3}\u{A4}nger"));
        // A transport label, over a document that declares nothing.
        let d = decode_with("<a>\u{F8}</a>".as_bytes(), Some("iso-8859-1"), true);
        assert_eq!((d.encoding, d.source), (UTF_8, EncodingSource::Transport));
        assert_eq!(d.text, "<a>\u{F8}</a>");
        // Mostly UTF-8, with two windows-1252 bytes: those read as windows-1252.
        let mut mixed = latin1_decl("<a>Br\u{F8}ndby, K\u{F8}ge, \u{E6}").into_bytes();
        mixed.extend(b" \xE9t\xE9?</a>");
        let d = decode_with(&mixed, None, true);
        assert_eq!(d.encoding, UTF_8);
        assert!(
            d.text.ends_with("Br\u{F8}ndby, K\u{F8}ge, \u{E6} \u{E9}t\u{E9}?</a>"),
            "{}",
            d.text
        );
        assert!(d.guessed.unwrap().ends_with("its 2 invalid sequence(s) as windows-1252"));
        // Real windows-1252 text (an accented letter before ASCII is no UTF-8) and ASCII keep
        // the label, with no guess.
        for body in [
            &b"<?xml version='1.0' encoding='latin1'?><a>caf\xE9 cr\xE8me</a>"[..],
            b"<?xml version='1.0' encoding='latin1'?><a>plain</a>",
        ] {
            let d = decode_with(body, None, true);
            assert_eq!((d.encoding, d.guessed), (WINDOWS_1252, None));
        }
    }

    #[test]
    fn labels() {
        let d = decode(b"<?xml version='1.0' encoding='ISO-8859-1'?><a>\xE9</a>", None);
        assert_eq!(d.encoding, WINDOWS_1252);
        assert_eq!(d.source, EncodingSource::XmlDeclaration);
        assert!(d.text.contains('é'));
        // Transport wins over the declaration.
        let d = decode(b"<?xml version='1.0' encoding='utf-8'?><a>\xA4\xA2</a>", Some(" EUC-JP "));
        assert_eq!((d.encoding, d.source), (EUC_JP, EncodingSource::Transport));
        assert!(d.text.contains('\u{3042}'));
        // Unknown transport label: fall through to the declaration, with a note.
        let d = decode(b"<?xml version='1.0' encoding='latin1'?><a>\xE9</a>", Some("x-bogus"));
        assert_eq!((d.encoding, d.source), (WINDOWS_1252, EncodingSource::XmlDeclaration));
        assert_eq!(d.notes.len(), 1);
        // Unknown declared label: default UTF-8, with a note.
        let d = decode(b"<?xml version='1.0' encoding='klingon'?><a/>", None);
        assert_eq!((d.encoding, d.source), (UTF_8, EncodingSource::Default));
        assert_eq!(d.notes.len(), 1);
        // Declared utf-16 on ASCII bytes: UTF-8.
        let d = decode("<?xml version='1.0' encoding='UTF-16'?><a>é</a>".as_bytes(), None);
        assert_eq!((d.encoding, d.source), (UTF_8, EncodingSource::XmlDeclaration));
        assert!(d.text.contains('é'));
        // Transport utf-16 on ASCII bytes: ignored, the declaration decides.
        let d = decode(b"<?xml version='1.0' encoding='windows-1252'?><a>\xE9</a>", Some("utf-16"));
        assert_eq!((d.encoding, d.source), (WINDOWS_1252, EncodingSource::XmlDeclaration));
        // Whitespace before the declaration and double-quoted, spaced attribute.
        let d = decode(b"\n  <?xml version=\"1.0\" encoding = \"koi8-r\" ?><a/>", None);
        assert_eq!(d.encoding.name(), "KOI8-R");
        // Not a declaration.
        assert_eq!(
            decode(b"<?xml-stylesheet encoding='koi8-r'?>", None).source,
            EncodingSource::Default
        );
        assert_eq!(
            decode(b"<?xml version='1' xencoding='koi8-r'?>", None).source,
            EncodingSource::Default
        );
    }

    #[test]
    fn utf16_without_bom() {
        let le: Vec<u8> = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><a>é</a>"
            .encode_utf16()
            .flat_map(|u| u.to_le_bytes())
            .collect();
        let d = decode(&le, None);
        assert_eq!((d.encoding, d.source), (UTF_16LE, EncodingSource::XmlDeclaration));
        assert!(d.text.ends_with("<a>é</a>"));
        let be: Vec<u8> = "<?xml version=\"1.0\"?><a>é</a>"
            .encode_utf16()
            .flat_map(|u| u.to_be_bytes())
            .collect();
        let d = decode(&be, None);
        assert_eq!((d.encoding, d.source), (UTF_16BE, EncodingSource::XmlDeclaration));
        assert!(d.text.ends_with("<a>é</a>"));
        // Transport says utf-16 (= LE) but the bytes are BE: the bytes decide the order.
        let d = decode(&be, Some("utf-16"));
        assert_eq!((d.encoding, d.source), (UTF_16BE, EncodingSource::Transport));
    }

    #[test]
    fn ascii_in_legacy_encoding_is_borrowed() {
        let d = decode(b"<a>plain</a>", Some("windows-1252"));
        assert!(matches!(d.text, Cow::Borrowed(_)));
        let d = decode(b"<a>\x1b$B</a>", Some("iso-2022-jp"));
        assert!(matches!(d.text, Cow::Owned(_)));
    }
}
