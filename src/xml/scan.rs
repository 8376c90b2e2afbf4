//! The tokenizer under [`super::reader`]: cuts the decoded input into raw tokens, every slice
//! borrowed from the input.
//!
//! Owns: finding where each construct ends — text run, start/empty/end tag, CDATA section,
//! comment — in a `&str` that is already valid UTF-8. It searches bytes with memchr and cuts
//! only next to ASCII delimiters, so every slice is valid UTF-8 without re-validation (the
//! per-event `from_utf8` of quick-xml 0.42's slice reader was ~11 % of a whole parse). It
//! decodes and judges nothing: references, line ends, control characters, a `<` that starts
//! no tag, attribute syntax and nesting are the reader's.
//!
//! The rare constructs — processing instructions and the XML declaration, DOCTYPE, any other
//! `<!…>` — and every construct the end of input cuts off are handed to quick-xml's
//! tokenizer for that one construct ([`delegate`]), so their extent and their errors are
//! quick-xml's. The fast paths follow quick-xml 0.42's rules for what they cover (quote-aware
//! `>` search in tags, `-->` after at least `<!--`, `]]>`, no text trimming); the
//! `scan_matches_quick_xml` tests check the token streams against quick-xml's on tricky and
//! random inputs.
//!
//! Invariants: `pos` is always a char boundary of `src`; every token but `Eof` advances `pos`
//! by at least one byte; an error leaves `pos` where quick-xml stopped (the reader then
//! resumes strictly after the failed construct).

use bumpalo::Bump;
use quick_xml::events::Event as QEvent;

/// One raw token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Token<'a> {
    /// Character data up to the next `<` or the end of input (never empty). `special` is the
    /// index of its first `&` or CR, from where it needs decoding; `None` when it needs none.
    Text {
        raw: &'a str,
        special: Option<usize>,
    },
    /// A start or empty-element tag: the text between `<` and `>` (without the `/` of `/>`)
    /// and the length of the name at its start (up to the first whitespace). `lt` is what
    /// [`lt_check`] says of `content`, when the tokenizer knows it already (it does for
    /// every tag it reads itself).
    Start {
        content: &'a str,
        name_len: usize,
        empty: bool,
        lt: Option<LtCheck>,
    },
    /// An end tag: the text between `</` and `>`, trailing whitespace removed.
    End(&'a str),
    /// A CDATA section's content.
    CData(&'a str),
    /// A comment's content (between `<!--` and `-->`).
    Comment(&'a str),
    /// A processing instruction's content (between `<?` and `?>`).
    Pi(&'a str),
    /// The XML declaration.
    Decl,
    /// A `<` that starts no tag (the reader keeps it as text); the position is right after it.
    StrayLt,
    /// A DOCTYPE declaration's content after `<!DOCTYPE` and whitespace.
    DocType(&'a str),
    Eof,
}

/// Where a start tag's text (after the `<`) has a `<`, which decides whether the tag is one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum LtCheck {
    /// No `<`.
    None,
    /// Only inside quoted attribute values: a tag, whose values keep the `<`.
    InValue,
    /// The text does not start like a name, or has a `<` outside quotes: the `<` that
    /// opened it is text (XML5), not a tag.
    Stray,
}

/// [`LtCheck`] of a start tag's text, by a quote-aware scan (what the tokenizer's own tag
/// reading finds as it goes).
pub(super) fn lt_check(tag_text: &str) -> LtCheck {
    let bytes = tag_text.as_bytes();
    if !bytes.first().is_some_and(|&b| is_name_start(b)) {
        return LtCheck::Stray;
    }
    if crate::simd::block::find_byte(bytes, b'<').is_none() {
        return LtCheck::None;
    }
    let mut quote = 0u8;
    for &b in bytes {
        match (quote, b) {
            (0, b'"' | b'\'') => quote = b,
            (0, b'<') => return LtCheck::Stray,
            (q, b) if q == b => quote = 0,
            _ => {}
        }
    }
    LtCheck::InValue
}

/// What [`next`] read.
pub(super) enum Step<'a> {
    Token(Token<'a>),
    /// quick-xml could not read the construct starting at the position [`next`] was called
    /// with; `at` is where quick-xml places the error.
    Error {
        error: quick_xml::Error,
        at: usize,
    },
}

/// The quick-xml reader configuration the fast paths reproduce.
pub(super) fn new_quick_reader(src: &str) -> quick_xml::Reader<&[u8]> {
    let mut reader = quick_xml::Reader::from_str(src);
    let config = reader.config_mut();
    config.check_end_names = false;
    config.allow_unmatched_ends = true;
    config.allow_dangling_amp = true;
    config.check_comments = false;
    config.expand_empty_elements = false;
    config.trim_text(false);
    reader
}

/// Reads the token at `*pos` and advances `*pos` past it. `arena` is only used if quick-xml
/// ever hands back an owned string (its slice reader does not).
pub(super) fn next<'a>(src: &'a str, pos: &mut usize, arena: &'a Bump) -> Step<'a> {
    let bytes = src.as_bytes();
    let start = *pos;
    let Some(&first) = bytes.get(start) else {
        return Step::Token(Token::Eof);
    };
    if first != b'<' {
        return Step::Token(text(src, pos));
    }
    match bytes.get(start + 1) {
        Some(b'/') => {
            if let Some(gt) = tag_end(bytes, start + 2) {
                *pos = gt + 1;
                return Step::Token(Token::End(end_name(&src[start + 2..gt])));
            }
        }
        Some(b'!') => {
            let rest = &bytes[start..];
            if rest.starts_with(b"<![CDATA[") {
                if let Some(i) = super::bytes::find_terminator(&rest[9..], b"]]>") {
                    *pos = start + 9 + i + 3;
                    return Step::Token(Token::CData(&src[start + 9..start + 9 + i]));
                }
            } else if rest.starts_with(b"<!--") {
                if let Some(i) = super::bytes::find_terminator(&rest[4..], b"-->") {
                    *pos = start + 4 + i + 3;
                    return Step::Token(Token::Comment(&src[start + 4..start + 4 + i]));
                }
            }
        }
        Some(b'?') | None => {}
        Some(&c) => {
            // A `<` that cannot start a tag — not followed by a name, or followed by another
            // `<` before the tag would end — is text (XML5). Deciding that here, at the next
            // `<`, keeps the work linear: `a<b` repeated must not scan to a far `>` each time.
            if !is_name_start(c) {
                *pos = start + 1;
                return Step::Token(Token::StrayLt);
            }
            match start_tag_end(bytes, start + 1) {
                TagEnd::Lt => {
                    *pos = start + 1;
                    return Step::Token(Token::StrayLt);
                }
                TagEnd::Eof => {}
                TagEnd::Gt { gt, lt_in_value } => {
                    *pos = gt + 1;
                    let content = &src[start + 1..gt];
                    let (content, empty) = match content.strip_suffix('/') {
                        Some(c) => (c, true),
                        None => (content, false),
                    };
                    let name_len = name_len(bytes, start + 1, content.len());
                    // It starts with a name and has no `<` outside quotes (or it would have
                    // been a stray `<`).
                    let lt = Some(if lt_in_value { LtCheck::InValue } else { LtCheck::None });
                    return Step::Token(Token::Start { content, name_len, empty, lt });
                }
            }
        }
    }
    delegate(src, pos, arena)
}

/// XML's whitespace (`S` of XML 1.0 § 2.3), as the block compares read it.
pub(super) const WS: [u8; 4] = [b' ', b'\t', b'\n', b'\r'];

/// Whether `b` is XML whitespace: one of [`WS`].
///
/// NOTE: the four bytes are written again here on purpose (the test
/// `is_ws_is_the_ws_list` keeps the two the same): `WS.contains(&b)` cost 1.7 M more
/// instructions on the WARC.gz job and a bit test of a constant made from `WS` 1.9 M more,
/// the callers' loops compiling worse than with `matches!`.
pub(super) fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// Length of the name at the start of the `len` bytes of tag text at `from` in `bytes`: up
/// to the first whitespace, or all of them.
///
/// NOTE: names are mostly shorter than a block and the input goes on past them: one block
/// compare then, where a byte loop cost ~5 instructions a byte of every start tag's name.
#[inline(always)]
pub(super) fn name_len(bytes: &[u8], from: usize, len: usize) -> usize {
    if let Some(b) = crate::simd::block::at(bytes, from) {
        let ws = crate::simd::block::eq_mask(b, WS);
        if ws != 0 || len <= crate::simd::block::BLOCK {
            // No whitespace in the block (`trailing_zeros` 32): the text ends in it.
            return (ws.trailing_zeros() as usize).min(len);
        }
    }
    bytes[from..from + len].iter().position(|&b| is_ws(b)).unwrap_or(len)
}

/// An end tag's name: its text without trailing whitespace (all of it when it is only
/// whitespace, as quick-xml does).
fn end_name(content: &str) -> &str {
    match content.trim_end_matches([' ', '\t', '\n', '\r']) {
        "" => content,
        name => name,
    }
}

/// Index of the first `<`, `&` or CR in `hay`.
#[inline(always)]
fn first_lt_amp_cr(hay: &[u8]) -> Option<usize> {
    // Text between tags is mostly short indentation: look near before searching far.
    super::bytes::find_near(hay, 0, [b'<', b'&', b'\r'])
        .map_or_else(|k| memchr::memchr3(b'<', b'&', b'\r', &hay[k..]).map(|j| k + j), Some)
}

/// The text run at `*pos` (which is not `<`).
#[inline]
pub(super) fn text<'a>(src: &'a str, pos: &mut usize) -> Token<'a> {
    let start = *pos;
    let hay = &src.as_bytes()[start..];
    let (len, special) = match first_lt_amp_cr(hay) {
        None => (hay.len(), None),
        Some(i) if hay[i] == b'<' => (i, None),
        Some(i) => (i + memchr::memchr(b'<', &hay[i..]).unwrap_or(hay.len() - i), Some(i)),
    };
    *pos = start + len;
    Token::Text { raw: &src[start..start + len], special }
}

/// [`text`] when the run at `*pos` (which is not `<`) needs no decoding: its raw text, `*pos`
/// moved past it as [`text`] moves it; `None`, `*pos` unchanged, when it has a `&` or CR,
/// which is then found without searching on for the `<` that ends the run (a long run of
/// entity-escaped HTML was searched twice: here, then by [`text`] on the general path).
#[inline]
pub(super) fn plain_text<'a>(src: &'a str, pos: &mut usize) -> Option<&'a str> {
    let start = *pos;
    let hay = &src.as_bytes()[start..];
    let len = match first_lt_amp_cr(hay) {
        None => hay.len(),
        Some(i) if hay[i] == b'<' => i,
        Some(_) => return None,
    };
    *pos = start + len;
    Some(&src[start..start + len])
}

/// Index of the `>` that closes a tag whose text starts at `from`: the first `>` outside
/// single or double quotes (quick-xml's `ElementParser`). `None` when the input ends first.
///
/// NOTE: the common case (a `>` within the next 64 bytes, no quote before it) inline, the
/// rest out of line: the call cost ~10 instructions of every end tag's ~45.
#[inline(always)]
pub(super) fn tag_end(bytes: &[u8], from: usize) -> Option<usize> {
    // Most tags are a short name: look at the next 64 bytes before a vector search.
    match super::bytes::find_near(bytes, from, [b'>', b'"', b'\'']) {
        Ok(j) if bytes[j] == b'>' => Some(j),
        Ok(j) | Err(j) => tag_end_from(bytes, j),
    }
}

/// [`tag_end`] from `i`, where a quote opens or the near search stopped.
#[inline(never)]
fn tag_end_from(bytes: &[u8], mut i: usize) -> Option<usize> {
    loop {
        let j = i + memchr::memchr3(b'>', b'"', b'\'', &bytes[i..])?;
        let b = bytes[j];
        if b == b'>' {
            return Some(j);
        }
        i = j + 1 + memchr::memchr(b, &bytes[j + 1..])? + 1;
    }
}

/// Whether `b` can start an element name (otherwise `<` is text, as in XML5 and HTML).
pub(super) fn is_name_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b':' || b >= 0x80
}

enum TagEnd {
    /// The index of the `>` that ends the tag, and whether a quoted value before it holds a
    /// `<`.
    Gt { gt: usize, lt_in_value: bool },
    /// A `<` outside quotes comes first: the tag's `<` was text.
    Lt,
    /// The input ends first (quick-xml then reports which construct is unclosed).
    Eof,
}

/// [`tag_end`] for a start tag, which also stops at a `<` outside quotes. Outside quotes
/// it never looks past the next `<`, so a run of stray `<` costs linear time.
#[inline]
fn start_tag_end(bytes: &[u8], from: usize) -> TagEnd {
    let mut i = from;
    let mut lt_in_value = false;
    loop {
        let j = match super::bytes::find_near(bytes, i, [b'>', b'"', b'\'', b'<']) {
            Ok(j) => j,
            Err(k) => {
                let limit = memchr::memchr(b'<', &bytes[k..]).map_or(bytes.len(), |l| k + l);
                match memchr::memchr3(b'>', b'"', b'\'', &bytes[k..limit]) {
                    Some(j) => k + j,
                    None if limit < bytes.len() => return TagEnd::Lt,
                    None => return TagEnd::Eof,
                }
            }
        };
        match bytes[j] {
            b'>' => return TagEnd::Gt { gt: j, lt_in_value },
            b'<' => return TagEnd::Lt,
            // A quoted value: a `<` in it is kept (the reader diagnoses it).
            q => {
                let mut k = j + 1;
                loop {
                    match crate::simd::block::find_any(&bytes[k..], [q, b'<']) {
                        Some(e) if bytes[k + e] == q => break i = k + e + 1,
                        Some(e) => {
                            lt_in_value = true;
                            k += e + 1;
                        }
                        None => return TagEnd::Eof,
                    }
                }
            }
        }
    }
}

/// Reads one construct at `*pos` (a `<`) with quick-xml.
fn delegate<'a>(src: &'a str, pos: &mut usize, arena: &'a Bump) -> Step<'a> {
    let start = *pos;
    let mut reader = new_quick_reader(&src[start..]);
    let event = reader.read_event();
    let consumed = reader.buffer_position() as usize;
    let end = (start + consumed).min(src.len());
    let keep = |c: std::borrow::Cow<'a, str>| -> &'a str {
        match c {
            std::borrow::Cow::Borrowed(s) => s,
            std::borrow::Cow::Owned(s) => arena.alloc_str(&s),
        }
    };
    let token = match event {
        Err(error) => {
            let at = (start + reader.error_position() as usize).min(src.len());
            *pos = end;
            return Step::Error { error, at };
        }
        Ok(QEvent::Start(_)) | Ok(QEvent::Empty(_)) if src[start..end].ends_with('>') => {
            // Not reached for input the fast path reads; kept so the two never disagree.
            let content = &src[start + 1..end - 1];
            let (content, empty) = match content.strip_suffix('/') {
                Some(c) => (c, true),
                None => (content, false),
            };
            let name_len = content.bytes().position(is_ws).unwrap_or(content.len());
            Token::Start { content, name_len, empty, lt: None }
        }
        Ok(QEvent::End(_))
            if src[start..end].starts_with("</") && src[start..end].ends_with('>') =>
        {
            Token::End(end_name(&src[start + 2..end - 1]))
        }
        Ok(QEvent::Start(_)) | Ok(QEvent::Empty(_)) | Ok(QEvent::End(_)) => Token::Eof,
        Ok(QEvent::CData(t)) => Token::CData(keep(t.into_inner())),
        Ok(QEvent::Comment(t)) => Token::Comment(keep(t.into_inner())),
        Ok(QEvent::PI(p)) => Token::Pi(keep(p.into_inner())),
        Ok(QEvent::Decl(_)) => Token::Decl,
        Ok(QEvent::DocType(t)) => Token::DocType(keep(t.into_inner())),
        Ok(QEvent::Text(_)) | Ok(QEvent::GeneralRef(_)) => {
            // Not reached (called at `<`); read the same span as a text run.
            let raw = &src[start..end];
            let special = memchr::memchr2(b'&', b'\r', raw.as_bytes());
            Token::Text { raw, special }
        }
        Ok(QEvent::Eof) => Token::Eof,
    };
    if end == start && token != Token::Eof {
        // Cannot happen (every quick-xml event consumes input); never loop on it.
        *pos = src.len();
        return Step::Token(Token::Eof);
    }
    *pos = end;
    Step::Token(token)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The token stream of `src` by [`next`], as comparable strings.
    fn ours(src: &str) -> Vec<String> {
        let arena = Bump::new();
        let mut pos = 0;
        let mut out = Vec::new();
        for _ in 0..10_000 {
            let before = pos;
            match next(src, &mut pos, &arena) {
                Step::Token(Token::Eof) => {
                    out.push("eof".to_string());
                    break;
                }
                Step::Token(Token::StrayLt) => {
                    // quick-xml reads a tag here; the streams are compared up to this point.
                    out.push("stray".to_string());
                    break;
                }
                Step::Token(t) => out.push(describe(t)),
                Step::Error { .. } => {
                    out.push(format!("error@{before}"));
                    break;
                }
            }
            out.push(format!("@{pos}"));
        }
        out
    }

    fn describe(t: Token<'_>) -> String {
        match t {
            // quick-xml splits text at references: compare the raw run.
            Token::Text { raw, .. } => format!("text {raw:?}"),
            Token::Start { content, name_len, empty, lt } => {
                // What the tag reading found as it went is what a separate scan finds.
                assert!(lt.is_none_or(|lt| lt == lt_check(content)), "{content:?}: {lt:?}");
                format!("start {:?} {:?} {empty}", &content[..name_len], &content[name_len..])
            }
            Token::End(n) => format!("end {n:?}"),
            Token::CData(s) => format!("cdata {s:?}"),
            Token::Comment(s) => format!("comment {s:?}"),
            Token::Pi(s) => format!("pi {s:?}"),
            Token::Decl => "decl".into(),
            Token::DocType(s) => format!("doctype {s:?}"),
            Token::Eof => "eof".into(),
            Token::StrayLt => "stray".into(),
        }
    }

    /// The same stream by quick-xml (text and references merged into runs).
    fn theirs(src: &str) -> Vec<String> {
        let mut r = new_quick_reader(src);
        let mut out = Vec::new();
        let mut run: Option<(usize, usize)> = None;
        let flush = |run: &mut Option<(usize, usize)>, out: &mut Vec<String>| {
            if let Some((s, e)) = run.take() {
                out.push(format!("text {:?}", &src[s..e]));
                out.push(format!("@{e}"));
            }
        };
        for _ in 0..10_000 {
            let before = r.buffer_position() as usize;
            let ev = r.read_event();
            let after = r.buffer_position() as usize;
            match ev {
                Ok(QEvent::Text(_)) | Ok(QEvent::GeneralRef(_)) => {
                    run = Some((run.map_or(before, |(s, _)| s), after));
                    continue;
                }
                _ => flush(&mut run, &mut out),
            }
            match ev {
                Ok(QEvent::Eof) => {
                    out.push("eof".into());
                    break;
                }
                Err(_) => {
                    out.push(format!("error@{before}"));
                    break;
                }
                Ok(e) => out.push(match e {
                    QEvent::Start(e) | QEvent::Empty(e) => {
                        let empty = src[..after].ends_with("/>");
                        let n = e.name().as_ref().len();
                        format!("start {:?} {:?} {empty}", &e[..n], &e[n..])
                    }
                    QEvent::End(e) => format!("end {:?}", e.name().as_ref()),
                    QEvent::CData(t) => format!("cdata {:?}", &*t),
                    QEvent::Comment(t) => format!("comment {:?}", &*t),
                    QEvent::PI(p) => format!("pi {:?}", &*p),
                    QEvent::Decl(_) => "decl".into(),
                    QEvent::DocType(t) => format!("doctype {:?}", &*t),
                    _ => unreachable!(),
                }),
            }
            out.push(format!("@{after}"));
        }
        out
    }

    fn check(src: &str) {
        let (ours, theirs) = (ours(src), theirs(src));
        match ours.iter().position(|t| t == "stray") {
            // Up to a `<` the scanner reads as text, both agree; there quick-xml reads a tag
            // (or fails), which the reader used to discard as stray afterwards.
            Some(i) => {
                assert_eq!(
                    ours[..i],
                    theirs[..i.min(theirs.len())],
                    "token streams differ for {src:?}"
                );
                let at = theirs.get(i).map_or("", String::as_str);
                assert!(
                    at.starts_with("start") || at.starts_with("error"),
                    "{src:?}: quick-xml read {at:?} at a stray '<'"
                );
            }
            None => assert_eq!(ours, theirs, "token streams differ for {src:?}"),
        }
    }

    /// [`name_len`] against a byte loop: names of every length around the block size, ended
    /// by each whitespace byte, by the end of the tag text or by nothing, with non-ASCII
    /// and control bytes in them, the input ending right after or going on.
    #[test]
    fn name_len_matches_a_byte_loop() {
        let fills = ["a", "é", "\u{1}", ":", "日", "\u{7f}"];
        for len in 0..40 {
            for fill in fills {
                let name: String = fill.chars().cycle().take(len).collect();
                for end in ["", " ", "\t", "\n", "\r", "/", ">", "x y", "\u{b}"] {
                    for after in ["", ">", " a='1'>", "0123456789abcdef0123456789abcdef"] {
                        let text = format!("{name}{end}");
                        let src = format!("<{text}{after}");
                        let want = text.bytes().position(is_ws).unwrap_or(text.len());
                        assert_eq!(name_len(src.as_bytes(), 1, text.len()), want, "{src:?}");
                    }
                }
            }
        }
    }

    /// [`plain_text`] is [`text`] on the runs that need no decoding and `None` on the others,
    /// with the same end position, from every start that is not `<` (random inputs of the
    /// markup pieces, with gaps around the near search's 64 bytes).
    #[test]
    fn plain_text_is_text_without_decoding() {
        let fill =
            "0123456789abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ01234567";
        let mut pieces = PIECES.to_vec();
        pieces.extend([15, 16, 17, 63, 64, 65, 80].map(|n| &fill[..n]));
        let mut rand = crate::test_rng(0x6a09_e667_f3bc_c909);
        for _ in 0..20_000 {
            let n = rand() % 12;
            let src: String =
                (0..n).map(|_| pieces[(rand() % pieces.len() as u64) as usize]).collect();
            for start in (0..src.len()).filter(|&i| src.is_char_boundary(i)) {
                if src.as_bytes()[start] == b'<' {
                    continue;
                }
                let (mut p, mut q) = (start, start);
                let want = match text(&src, &mut p) {
                    Token::Text { raw, special: None } => Some(raw),
                    _ => None,
                };
                assert_eq!(plain_text(&src, &mut q), want, "{src:?} at {start}");
                assert_eq!(q, if want.is_some() { p } else { start }, "{src:?} at {start}");
            }
        }
    }

    #[test]
    fn is_ws_is_the_ws_list() {
        for b in 0..=u8::MAX {
            assert_eq!(is_ws(b), WS.contains(&b), "{b:#04x}");
        }
    }

    #[test]
    fn scan_matches_quick_xml_on_tricky_inputs() {
        for src in [
            "",
            "plain",
            "<a>text</a>",
            "<?xml version=\"1.0\"?><rss version='2.0'><channel/></rss>",
            "<a b='>' c=\">\">x</a >",
            "<a b='x\"y'/>",
            "<a/><b /><c/ >",
            "<>",
            "</>",
            "< a>",
            "a &amp; b &lt;c&gt; &#38; &bogus; & x; &",
            "a\r\nb\rc",
            "<![CDATA[x]]y]]>",
            "<![CDATA[]]>",
            "<![CDATA[unclosed",
            "<!---->",
            "<!-- a -- b --->",
            "<!--->-->",
            "<!-->",
            "<!-- unclosed",
            "<!-x>",
            "<!DOCTYPE rss [<!ENTITY a 'b>c'>]><rss/>",
            "<!doctype html>",
            "<!DOCTYPE>",
            "<!bogus>",
            "<![bogus]>",
            "<?pi data?><?>",
            "<?xml?>",
            "<?xml",
            "<?pi unclosed",
            "<a b='unclosed>",
            "<a b=\"unclosed>",
            "<a",
            "<",
            "x<",
            "</a",
            "<a\n\tb='1'\n/>",
            "</a\n>",
            "é<b>ü</b>\u{10348}",
        ] {
            check(src);
        }
    }

    /// Small alphabet of markup-relevant pieces, so random strings hit every path.
    const PIECES: [&str; 30] = [
        "<",
        ">",
        "/",
        "!",
        "?",
        "-",
        "[",
        "]",
        "CDATA[",
        "DOCTYPE",
        "'",
        "\"",
        "&",
        ";",
        "a",
        "b:c",
        " ",
        "\r\n",
        "\r",
        "=",
        "amp",
        "é",
        "xml",
        "-->",
        "]]>",
        "<!--",
        "<![CDATA[",
        "<?",
        "?>",
        "</",
    ];

    /// `count` random strings of up to `max` pieces of `pieces`, each checked against
    /// quick-xml.
    fn random_checks(seed: u64, count: usize, max: u64, pieces: &[&str]) {
        let mut rand = crate::test_rng(seed);
        for _ in 0..count {
            let n = rand() % max;
            let src: String =
                (0..n).map(|_| pieces[(rand() % pieces.len() as u64) as usize]).collect();
            check(&src);
        }
    }

    #[test]
    fn scan_matches_quick_xml_on_random_inputs() {
        random_checks(0x2545_f491_4f6c_dd1d, 100_000, 24, &PIECES);
    }

    #[test]
    fn scan_matches_quick_xml_across_long_gaps() {
        // Gaps of 15 to 80 bytes without a delimiter (text, names, quoted values, CDATA and
        // comment bodies), so that delimiters fall in every block the searches look at
        // before they hand over to memchr (bytes 16, 32, 48, 64 and beyond).
        let fill =
            "0123456789abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ01234567";
        let gaps: Vec<&str> =
            [15, 16, 17, 31, 33, 47, 49, 63, 64, 65, 80].map(|n| &fill[..n]).into();
        let mut pieces = PIECES.to_vec();
        for _ in 0..3 {
            pieces.extend(&gaps);
        }
        random_checks(0x9e37_79b9_7f4a_7c15, 50_000, 16, &pieces);
    }
}
