//! Character and entity references in XML text and attribute values.
//!
//! Owns the decision of what a reference means: the five XML entities, numeric character
//! references, and — recovery for real-world feeds — HTML named character references, which
//! XML does not define. Anything else is kept literally.
//!
//! Recovery (off with `Options::spec_exact`): [`InternalEntities`] expands the general
//! entities declared in the document's own internal DTD subset — never external ones, never
//! parameter entities — under an expansion budget (all expansions of a document together
//! produce at most as many bytes as the document has, nested at most
//! [`MAX_ENTITY_NESTING`] deep), so an entity bomb costs no more than reading its text
//! twice; [`c1_to_windows_1252`] maps C1-control references to the characters they mean.

use markup5ever::data::NAMED_ENTITIES;

/// What a reference resolved to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resolved {
    /// One of `lt gt amp quot apos` or a valid numeric reference.
    Xml(char),
    /// A numeric reference to a character XML forbids (NUL, surrogate, out of range): U+FFFD.
    InvalidChar,
    /// An HTML named character reference (one or two code points).
    Html(char, Option<char>),
    /// Nobody defines it; the caller keeps `&name;` literally.
    Unknown,
}

/// Resolves the reference whose name (text between `&` and `;`) is `name`.
pub fn resolve(name: &str) -> Resolved {
    match name {
        "lt" => return Resolved::Xml('<'),
        "gt" => return Resolved::Xml('>'),
        "amp" => return Resolved::Xml('&'),
        "quot" => return Resolved::Xml('"'),
        "apos" => return Resolved::Xml('\''),
        _ => {}
    }
    if let Some(num) = name.strip_prefix('#') {
        let parsed = if let Some(hex) = num.strip_prefix('x').or_else(|| num.strip_prefix('X')) {
            parse_radix(hex, 16)
        } else {
            parse_radix(num, 10)
        };
        return match parsed {
            None => Resolved::Unknown,
            Some(cp) => match char::from_u32(cp) {
                Some(c) if is_xml_char(c) => Resolved::Xml(c),
                _ => Resolved::InvalidChar,
            },
        };
    }
    html_named(name)
}

fn parse_radix(digits: &str, radix: u32) -> Option<u32> {
    if digits.is_empty() || digits.len() > 8 {
        // Longer runs are out of range anyway (leading zeros aside, which no one writes).
        return if digits.is_empty() { None } else { Some(u32::MAX) };
    }
    u32::from_str_radix(digits, radix).ok()
}

/// XML 1.0 `Char` production.
pub fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

fn html_named(name: &str) -> Resolved {
    // The table's keys carry the trailing ';'. Names are short; build the key on the stack.
    let mut buf = [0u8; 40];
    let n = name.len();
    if n == 0 || n + 1 > buf.len() || !name.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Resolved::Unknown;
    }
    buf[..n].copy_from_slice(name.as_bytes());
    buf[n] = b';';
    let key = match std::str::from_utf8(&buf[..=n]) {
        Ok(k) => k,
        Err(_) => return Resolved::Unknown,
    };
    match NAMED_ENTITIES.get(key) {
        Some(&(a, b)) => match char::from_u32(a) {
            Some(c) => Resolved::Html(c, if b == 0 { None } else { char::from_u32(b) }),
            None => Resolved::Unknown,
        },
        None => Resolved::Unknown,
    }
}

/// windows-1252's bytes 0x80..=0x9F: the character each stands for (WHATWG's index), 0 for
/// the five the index leaves out (0x81, 0x8D, 0x8F, 0x90, 0x9D). Both directions read it:
/// [`c1_to_windows_1252`] and the `double_utf8` repair's encoder (`windows_1252_byte`).
const WINDOWS_1252_80_9F: [u16; 32] = [
    0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039,
    0x0152, 0, 0x017D, 0, 0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC,
    0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
];

/// The character a C1 control (U+0080–U+009F) stands for when a document written in
/// windows-1252 was converted as if it were ISO-8859-1 (the HTML Standard's table for
/// numeric character references); `None` for other characters and the five C1 code points
/// windows-1252 leaves undefined.
pub fn c1_to_windows_1252(c: char) -> Option<char> {
    if !is_c1(c) {
        return None;
    }
    let i = c as u32 - 0x80;
    match WINDOWS_1252_80_9F[i as usize] {
        0 => None,
        m => char::from_u32(m as u32),
    }
}

/// Whether `c` is a C1 control (U+0080..=U+009F).
#[inline]
pub(crate) fn is_c1(c: char) -> bool {
    matches!(c, '\u{80}'..='\u{9F}')
}

/// Deepest nesting of entity references inside entity values that is expanded.
pub const MAX_ENTITY_NESTING: usize = 16;

/// Most entity declarations read from one internal subset.
const MAX_DECLARATIONS: usize = 1024;

/// The general entities declared in a document's internal DTD subset, with the document's
/// expansion budget.
#[derive(Default)]
pub struct InternalEntities<'a> {
    arena: Option<&'a bumpalo::Bump>,
    /// (name, literal value, expanded text once computed), first declaration first.
    decls: Vec<(&'a str, &'a str, Option<&'a str>)>,
    /// Bytes expansions may still produce.
    budget: usize,
}

impl<'a> InternalEntities<'a> {
    /// Reads `<!ENTITY name "value">` / `'value'` declarations from the DOCTYPE text
    /// `doctype`. Parameter entities (`<!ENTITY % …>`) and external ones (`SYSTEM`,
    /// `PUBLIC`) are ignored; the first declaration of a name wins (XML 1.0 §4.2).
    /// `budget` is how many bytes all expansions together may produce.
    pub fn parse(arena: &'a bumpalo::Bump, doctype: &'a str, budget: usize) -> Self {
        let mut decls: Vec<(&'a str, &'a str, Option<&'a str>)> = Vec::new();
        let ws = |c: char| matches!(c, ' ' | '\t' | '\n' | '\r');
        let mut rest = doctype;
        while let Some(i) = rest.find("<!ENTITY") {
            rest = &rest[i + 8..];
            if decls.len() >= MAX_DECLARATIONS {
                break;
            }
            let after = rest.trim_start_matches(ws);
            if after.len() == rest.len() || after.starts_with('%') {
                continue;
            }
            let name_end = after.find(|c: char| ws(c) || c == '"' || c == '\'' || c == '>');
            let Some(name_end) = name_end else { break };
            let name = &after[..name_end];
            let value_part = after[name_end..].trim_start_matches(ws);
            let Some(quote) = value_part.chars().next().filter(|&q| q == '"' || q == '\'') else {
                continue; // SYSTEM / PUBLIC: external, never read
            };
            let Some(close) = value_part[1..].find(quote) else { break };
            let value = &value_part[1..1 + close];
            rest = &value_part[1 + close..];
            if !name.is_empty() && !decls.iter().any(|d| d.0 == name) {
                decls.push((name, value, None));
            }
        }
        InternalEntities { arena: Some(arena), decls, budget }
    }

    /// Whether the internal subset declared no general entity.
    pub fn is_empty(&self) -> bool {
        self.decls.is_empty()
    }

    /// The replacement text of the declared entity `name` as character data (references in
    /// it resolved, nested ones expanded; markup in it is kept as text), charged to the
    /// budget. `Ok(None)` when `name` is not declared; `Err` when the budget or the nesting
    /// limit is exceeded.
    pub fn expand(&mut self, name: &str) -> Result<Option<&'a str>, &'static str> {
        let Some(i) = self.decls.iter().position(|d| d.0 == name) else {
            return Ok(None);
        };
        let text = self.expanded(i, 0)?;
        self.budget =
            self.budget.checked_sub(text.len()).ok_or("the entity expansion budget is spent")?;
        Ok(Some(text))
    }

    fn expanded(&mut self, i: usize, depth: usize) -> Result<&'a str, &'static str> {
        if let Some(done) = self.decls[i].2 {
            return Ok(done);
        }
        if depth >= MAX_ENTITY_NESTING {
            return Err("entity references nested too deep (or recursive)");
        }
        let Some(arena) = self.arena else { return Err("no arena") };
        let value = self.decls[i].1;
        let mut out = bumpalo::collections::String::new_in(arena);
        let mut rest = value;
        while let Some(amp) = rest.find('&') {
            out.push_str(&rest[..amp]);
            let after = &rest[amp + 1..];
            let Some(semi) = after.find(';').filter(|&k| !after[..k].contains('&')) else {
                out.push('&');
                rest = after;
                continue;
            };
            let r = &after[..semi];
            match resolve(r) {
                Resolved::Xml(c) => out.push(c),
                Resolved::InvalidChar => out.push('\u{FFFD}'),
                Resolved::Html(a, b) => {
                    out.push(a);
                    out.extend(b);
                }
                Resolved::Unknown => match self.decls.iter().position(|d| d.0 == r) {
                    Some(j) => {
                        let inner = self.expanded(j, depth + 1)?;
                        out.push_str(inner);
                    }
                    None => {
                        out.push('&');
                        out.push_str(r);
                        out.push(';');
                    }
                },
            }
            if out.len() > self.budget {
                return Err("the entity expansion budget is spent");
            }
            rest = &after[semi + 1..];
        }
        out.push_str(rest);
        let done = out.into_bump_str();
        self.decls[i].2 = Some(done);
        Ok(done)
    }
}

/// The `double_utf8` rule: a value whose characters are all windows-1252 characters and
/// whose windows-1252 bytes are UTF-8 with a multi-byte sequence is UTF-8 text that was
/// decoded as windows-1252 (or ISO-8859-1) before being encoded as UTF-8 again (`Ã©` for
/// `é`, `â€™` for `’`): returns the text decoded once, copied into `arena`. `None`, leaving
/// the value as it is, unless the *whole* value is such text: a character that is not
/// windows-1252, or bytes that are not UTF-8 (`café`: a lone `é` is no UTF-8 sequence;
/// `Café Ã©`), or ASCII.
pub(crate) fn undo_double_utf8_in<'a>(arena: &'a bumpalo::Bump, text: &str) -> Option<&'a str> {
    with_undone(text, |once| &*arena.alloc_str(once))
}

/// Whether `text` holds a 0xC3 byte, without which [`undo_double_utf8_in`] gives `None` (its
/// pair test needs one): the test before it for every child text. Block compares
/// ([`crate::simd::block::find_byte`]): a short text is one padded block, where
/// `str::is_ascii` (the test before) went byte by byte over texts shorter than a word and
/// did not tell `é` (`C3 A9`, then ASCII) from the rest.
#[inline(always)]
pub(crate) fn may_be_double_utf8(text: &str) -> bool {
    crate::simd::block::find_byte(text.as_bytes(), 0xC3).is_some()
}

/// The `double_utf8` rule's cheap test: twice-decoded text has a UTF-8 lead byte read as
/// windows-1252 (U+00C2..=U+00F4, UTF-8 `C3 82`..`C3 B4`) before a continuation byte read so
/// (U+0080..=U+00BF or a windows-1252 letter of 0x80..0x9F, whose UTF-8 starts with C2, C5,
/// C6, CB or E2). Correct accented text rarely has such a pair (`é` is mostly followed by
/// ASCII).
fn has_double_utf8_pair(b: &[u8]) -> bool {
    memchr::memchr_iter(0xC3, b).any(|i| {
        b.get(i + 1).is_some_and(|c| (0x82..=0xB4).contains(c))
            && b.get(i + 2).is_some_and(|c| matches!(c, 0xC2 | 0xC5 | 0xC6 | 0xCB | 0xE2))
    })
}

/// The `double_utf8` rule's test and repair ([`undo_double_utf8_in`]), the text decoded
/// once handed to `keep` while the buffer holding it is alive.
fn with_undone<R>(text: &str, keep: impl FnOnce(&str) -> R) -> Option<R> {
    // Cheap rejection first (this runs on every non-ASCII text).
    let b = text.as_bytes();
    if !has_double_utf8_pair(b) {
        return None;
    }
    // The text encoded as windows-1252 in one pass: ASCII copied a block at a time, each
    // other character replaced by its windows-1252 byte (`simd::block::copy_escaped`, whose
    // flag is "not ASCII"); a character windows-1252 does not have ends the pass (the rest
    // consumed unread) and the rule with it. NOTE: `encoding_rs`'s `encode` did the same at
    // ~4,900 instructions a text here, its output then copied once more.
    let unmappable = std::cell::Cell::new(false);
    let mut bytes = Vec::new();
    let not_ascii =
        |blk: &[u8; crate::simd::block::BLOCK]| crate::simd::block::lt_mask(blk, 0x80) ^ 0xFFFF;
    let encode = |b: &[u8], i: usize| match windows_1252_byte(b, i) {
        Some((byte, used)) => ([byte, 0, 0, 0, 0, 0, 0, 0], 1, used),
        None => {
            unmappable.set(true);
            ([0; 8], 0, b.len() - i)
        }
    };
    crate::simd::block::copy_escaped(&mut bytes, b, b'a', not_ascii, encode);
    if unmappable.get() {
        return None;
    }
    let once = std::str::from_utf8(&bytes).ok()?;
    // Equal lengths: no character went back to a multi-byte sequence.
    (once.len() != text.len()).then(|| keep(once))
}

/// The windows-1252 byte (WHATWG's encoder: the index's code points, and the five bytes the
/// index leaves out as the C1 controls of the same value) of the character whose UTF-8 sequence
/// starts at `b[i]`, a non-ASCII lead byte of valid UTF-8, and the sequence's length; `None`
/// when windows-1252 has no such character.
#[inline]
fn windows_1252_byte(b: &[u8], i: usize) -> Option<(u8, usize)> {
    let lead = b[i];
    let c1 = u32::from(*b.get(i + 1)? & 0x3F);
    let (cp, len) = match lead {
        // U+00C0..=U+00FF: the byte is the code point.
        0xC3 => return Some((0xC0 | c1 as u8, 2)),
        0xC0..=0xDF => ((u32::from(lead & 0x1F) << 6) | c1, 2),
        0xE0..=0xEF => {
            let c2 = u32::from(*b.get(i + 2)? & 0x3F);
            ((u32::from(lead & 0x0F) << 12) | (c1 << 6) | c2, 3)
        }
        _ => return None,
    };
    let byte = match cp {
        0xA0..=0xBF => cp as u8,
        // The five bytes the index leaves out encode as the C1 controls of the same value.
        0x80..=0x9F if WINDOWS_1252_80_9F[cp as usize - 0x80] == 0 => cp as u8,
        // Rare here (a text that passed the pair test is mostly `C3 xx`): a walk of 32.
        0x100.. => {
            let at = WINDOWS_1252_80_9F.iter().position(|&m| u32::from(m) == cp)?;
            0x80 + at as u8
        }
        _ => return None,
    };
    Some((byte, len))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references() {
        assert_eq!(resolve("amp"), Resolved::Xml('&'));
        assert_eq!(resolve("#x41"), Resolved::Xml('A'));
        assert_eq!(resolve("#65"), Resolved::Xml('A'));
        assert_eq!(resolve("#0"), Resolved::InvalidChar);
        assert_eq!(resolve("#xD800"), Resolved::InvalidChar);
        assert_eq!(resolve("#99999999999"), Resolved::InvalidChar);
        assert_eq!(resolve("#"), Resolved::Unknown);
        assert_eq!(resolve("#xZZ"), Resolved::Unknown);
        assert_eq!(resolve("nbsp"), Resolved::Html('\u{A0}', None));
        assert_eq!(resolve("eacute"), Resolved::Html('é', None));
        assert_eq!(resolve("foo"), Resolved::Unknown);
        assert_eq!(resolve(""), Resolved::Unknown);
    }

    #[test]
    fn internal_entities_expand_under_a_budget() {
        let arena = bumpalo::Bump::new();
        let dtd = "<!DOCTYPE rss [<!ENTITY % p 'x'><!ENTITY ext SYSTEM 'file:///etc/passwd'>\
                   <!ENTITY co \"ACME &amp; Co\"><!ENTITY full 'by &co;&#33;'><!ENTITY co 'no'>]>";
        let mut e = InternalEntities::parse(&arena, dtd, 1000);
        assert_eq!(e.expand("co"), Ok(Some("ACME & Co")));
        assert_eq!(e.expand("full"), Ok(Some("by ACME & Co!")));
        assert_eq!(e.expand("ext"), Ok(None), "external entities are never read");
        assert_eq!(e.expand("p"), Ok(None), "parameter entities are not general entities");
        // Billion laughs: the budget (here 1000 bytes) stops it.
        let mut bomb = String::from("<!DOCTYPE r [<!ENTITY l0 'lol'>");
        for i in 1..10 {
            let p = i - 1;
            bomb.push_str(&format!(
                "<!ENTITY l{i} '&l{p};&l{p};&l{p};&l{p};&l{p};&l{p};&l{p};&l{p};&l{p};&l{p};'>"
            ));
        }
        bomb.push_str("]>");
        let bomb = arena.alloc_str(&bomb);
        let mut e = InternalEntities::parse(&arena, bomb, 1000);
        assert!(e.expand("l9").is_err());
        assert_eq!(e.expand("l1").map(|t| t.map(str::len)), Ok(Some(30)));
        // Self-reference.
        let mut e = InternalEntities::parse(&arena, "<!ENTITY a '&a;'>", 1000);
        assert!(e.expand("a").is_err());
    }

    #[test]
    fn double_utf8_is_undone_only_for_a_whole_value() {
        let arena = bumpalo::Bump::new();
        let undo_double_utf8 = |t| undo_double_utf8_in(&arena, t);
        assert_eq!(undo_double_utf8("CafÃ© crÃ¨me"), Some("Café crème"));
        assert_eq!(undo_double_utf8("Itâ€™s"), Some("It’s"));
        assert_eq!(undo_double_utf8("æ—¥æœ¬"), Some("日本"));
        // Text that is right as it is: not every byte sequence is UTF-8, or a character
        // is not windows-1252, or nothing would change.
        for ok in ["café", "naïve façade", "Café Ã©", "日本 Ã©", "plain", "Â", "ÃŸ x Ã"]
        {
            assert_eq!(undo_double_utf8(ok), None, "{ok}");
        }
    }

    /// `windows_1252_byte` is `encoding_rs`'s windows-1252 encoder, character by character:
    /// every scalar value of up to three UTF-8 bytes (four-byte ones it rejects by their
    /// lead byte, as the encoder has none of them).
    #[test]
    fn windows_1252_byte_is_the_encoders() {
        for c in (0x80..=0xFFFFu32).filter_map(char::from_u32).chain(['\u{10000}', '\u{1F600}']) {
            let s = c.to_string();
            let (bytes, _, unmappable) = encoding_rs::WINDOWS_1252.encode(&s);
            let want = (!unmappable).then(|| (bytes[0], s.len()));
            assert_eq!(windows_1252_byte(s.as_bytes(), 0), want, "{c:?}");
        }
    }

    /// The one-pass repair against the one it replaced (`encoding_rs`'s `encode`, then
    /// `from_utf8`) over generated texts: pieces of ASCII, windows-1252 letters, their
    /// twice-decoded forms, characters without a windows-1252 byte, joined at every length up
    /// to three pieces and into texts past the 16-byte blocks and the 4,096-byte rounds.
    #[test]
    fn double_utf8_repair_matches_the_encoder() {
        // The pair test is shared; what is compared is the encoding after it.
        fn old(text: &str) -> Option<String> {
            if !has_double_utf8_pair(text.as_bytes()) {
                return None;
            }
            let (bytes, _, unmappable) = encoding_rs::WINDOWS_1252.encode(text);
            if unmappable {
                return None;
            }
            let once = std::str::from_utf8(&bytes).ok()?;
            (once.len() != text.len()).then(|| once.to_owned())
        }
        let pieces = [
            "a",
            " x ",
            "\u{7f}",
            "é",
            "Ã©",
            "â€™",
            "â€œ",
            "Ã¼",
            "Â",
            "Ã",
            "ÃŸ",
            "æ—¥",
            "æœ¬",
            "€",
            "Å¡",
            "Å’",
            "Æ’",
            "Ë†",
            "\u{81}",
            "\u{8d}",
            "\u{80}",
            "\u{9f}",
            "Ā",
            "日",
            "😀",
            "Ãƒ",
            "Ã¢â‚¬â„¢",
            "0123456789abcdef",
        ];
        let mut texts: Vec<String> = vec![String::new()];
        for _ in 0..3 {
            let longer: Vec<String> =
                texts.iter().flat_map(|t| pieces.iter().map(move |p| format!("{t}{p}"))).collect();
            texts.extend(longer);
        }
        texts.sort();
        texts.dedup();
        let long: Vec<String> = texts
            .iter()
            .step_by(97)
            .map(|t| format!("{}{t}{}", "Ã© plain words ".repeat(300), "â€™ ".repeat(7)))
            .collect();
        // A character across the first round's end (4,096 input bytes), mappable or not, and
        // the rounds after it: a repaired prefix puts the pair test's pair first.
        let across: Vec<String> = (0..20)
            .flat_map(|k| ["Ã©â€™", "Ā", "日", "😀", "â€"].map(move |p| (k, p)))
            .map(|(k, p)| format!("Ã©{}{p}{}", "a".repeat(4096 - 2 - k), "Ã¼ tail ".repeat(600)))
            .collect();
        for t in texts.iter().chain(&long).chain(&across) {
            assert_eq!(with_undone(t, str::to_owned), old(t), "{t:?}");
        }
    }

    /// The test before the repair ([`may_be_double_utf8`]) against the one it replaced
    /// (`!is_ascii()`): the same texts repaired, the same way; and it finds a 0xC3 at every
    /// position of texts shorter than a block, within the blocks, and past them.
    #[test]
    fn double_utf8_prefilter_matches_the_non_ascii_test() {
        let arena = bumpalo::Bump::new();
        let pieces = ["a", " ", "é", "Ã©", "â€™", "æ—¥", "Ã", "ÃŸ", "日本", "\u{7f}", "ü"];
        let mut texts = vec![String::new()];
        for len in 0..90 {
            for p in pieces {
                for at in [0, len / 2, len] {
                    let mut t = "x".repeat(len);
                    t.insert_str(at, p);
                    texts.push(t);
                }
            }
        }
        for t in &texts {
            let t = t.as_str();
            assert_eq!(may_be_double_utf8(t), t.as_bytes().contains(&0xC3), "{t:?}");
            let fast = may_be_double_utf8(t).then(|| undo_double_utf8_in(&arena, t)).flatten();
            let general = (!t.is_ascii()).then(|| undo_double_utf8_in(&arena, t)).flatten();
            assert_eq!(fast, general, "{t:?}");
        }
    }

    #[test]
    fn c1_controls() {
        assert_eq!(c1_to_windows_1252('\u{92}'), Some('\u{2019}'));
        assert_eq!(c1_to_windows_1252('\u{80}'), Some('€'));
        assert_eq!(c1_to_windows_1252('\u{81}'), None);
        assert_eq!(c1_to_windows_1252('a'), None);
        assert_eq!(c1_to_windows_1252('\u{A0}'), None);
    }
}
