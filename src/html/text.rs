//! Plain text for indexing: the visible text of an HTML fragment ([`text_content`]), any
//! text value with its whitespace collapsed ([`plain_text`], [`collapse`]), and word counts
//! ([`word_count`]).
//!
//! Invariants: results borrow from the value when they can and are otherwise one string in
//! the caller's arena; whitespace is Unicode `White_Space`, so collapsing never changes a word
//! count; scans are linear and classify text 64 bytes at a time ([`masks`]); nothing
//! here recurses over the fragment or panics on any input.

use bumpalo::Bump;

use crate::model::fragment::{Html, NodeKind, HTML_NS};
use crate::model::{Entry, Feed, Person, Text};
use crate::simd::text_masks as masks;

/// What [`text_content`] does with an HTML element.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Content that is not text a reader sees (`script`, `style`, …): skipped.
    Hidden,
    /// Block-level elements and line breaks: they separate words.
    Break,
    /// Everything else: its text runs on.
    Inline,
}

/// The element's [`Role`]. Matched on bytes, so the compiler decides by length first.
fn role(local: &str) -> Role {
    match local.as_bytes() {
        b"script" | b"style" | b"template" | b"noscript" | b"head" | b"title" => Role::Hidden,
        b"p" | b"br" | b"div" | b"li" | b"ul" | b"ol" | b"dl" | b"dt" | b"dd" | b"h1" | b"h2"
        | b"h3" | b"h4" | b"h5" | b"h6" | b"tr" | b"td" | b"th" | b"table" | b"thead"
        | b"tbody" | b"tfoot" | b"caption" | b"blockquote" | b"pre" | b"hr" | b"section"
        | b"article" | b"aside" | b"header" | b"footer" | b"nav" | b"figure" | b"figcaption"
        | b"address" | b"main" | b"details" | b"summary" | b"img" | b"iframe" | b"video"
        | b"audio" | b"option" => Role::Break,
        _ => Role::Inline,
    }
}

/// Plain text of an HTML fragment for indexing: the text nodes in document order, script /
/// style / template content left out, a space between block-level elements, and every run of
/// whitespace collapsed to one space; trimmed.
///
/// The visible text is gathered first (`Gathered`: the text nodes joined, with a newline
/// where a block-level element begins or ends), then collapsed in one pass (`collapse`).
/// Both steps borrow when they can: a fragment with one text node is collapsed from the
/// fragment itself, and text that collapsing leaves as it is is not copied again, so the
/// result is either a slice of the fragment (e.g. `<p>\n  Some title\n</p>`) or one string
/// in `arena` (at most two when the joined text needs collapsing).
pub fn text_content<'a>(arena: &'a Bump, html: &Html<'a>) -> &'a str {
    let nodes = html.nodes();
    let mut text = Gathered::new(arena);
    let mut i = 0usize;
    // Ends of open "break" elements, to add a separator after them.
    let mut break_ends = EndStack::new();
    while i < nodes.len() {
        while break_ends.last().is_some_and(|e| e <= i) {
            break_ends.pop();
            text.separate();
        }
        let node = &nodes[i];
        match node.kind {
            NodeKind::Element(el) => {
                let role = role(el.local);
                if role != Role::Inline && (el.namespace == HTML_NS || el.namespace.is_empty()) {
                    text.separate();
                    if role == Role::Hidden {
                        i = node.end as usize;
                        continue;
                    }
                    break_ends.push(node.end as usize);
                }
            }
            NodeKind::Text(t) => {
                // Upper bound of what is left to gather, should the text need its own string.
                let rest = || {
                    nodes[i..]
                        .iter()
                        .map(|n| if let NodeKind::Text(t) = n.kind { t.len() + 1 } else { 0 })
                        .sum()
                };
                text.push(t, rest)
            }
            _ => {}
        }
        i += 1;
    }
    collapse(arena, text.finish())
}

/// The first line of an HTML fragment's visible text, as [`text_content`] sees it: the text
/// nodes up to the first block boundary (a block-level element or `br` beginning or ending)
/// that follows some non-whitespace text, collapsed and trimmed. Gathers at most about
/// `max_bytes` bytes (cut at a character boundary), so the work is bounded by the first line,
/// not by the fragment.
pub(crate) fn first_line<'a>(arena: &'a Bump, html: &Html<'a>, max_bytes: usize) -> &'a str {
    let nodes = html.nodes();
    let mut line = bumpalo::collections::String::new_in(arena);
    let mut has_text = false;
    let mut break_ends = EndStack::new();
    let mut i = 0usize;
    while i < nodes.len() && line.len() < max_bytes {
        let mut boundary = false;
        while break_ends.last().is_some_and(|e| e <= i) {
            break_ends.pop();
            boundary = true;
        }
        let node = &nodes[i];
        if let NodeKind::Element(el) = node.kind {
            let role = role(el.local);
            if role != Role::Inline && (el.namespace == HTML_NS || el.namespace.is_empty()) {
                boundary = true;
                if role == Role::Hidden {
                    if has_text {
                        break;
                    }
                    i = node.end as usize;
                    continue;
                }
                break_ends.push(node.end as usize);
            }
        }
        if boundary && has_text {
            break;
        }
        if let NodeKind::Text(t) = node.kind {
            let mut take = t.len().min(max_bytes - line.len());
            while !t.is_char_boundary(take) {
                take -= 1;
            }
            line.push_str(&t[..take]);
            has_text |= t.chars().any(|c| !c.is_whitespace());
        }
        i += 1;
    }
    collapse(arena, line.into_bump_str())
}

/// A stack of node indices that lives on the stack up to a depth of 32 (deeper nesting of
/// block elements is rare; it spills to the heap).
struct EndStack {
    inline: [u32; 32],
    len: usize,
    spill: Vec<usize>,
}

impl EndStack {
    fn new() -> Self {
        EndStack { inline: [0; 32], len: 0, spill: Vec::new() }
    }

    #[inline]
    fn last(&self) -> Option<usize> {
        if let Some(&e) = self.spill.last() {
            Some(e)
        } else if self.len > 0 {
            Some(self.inline[self.len - 1] as usize)
        } else {
            None
        }
    }

    #[inline]
    fn push(&mut self, e: usize) {
        if self.len < self.inline.len() && self.spill.is_empty() {
            self.inline[self.len] = e as u32;
            self.len += 1;
        } else {
            self.spill.push(e);
        }
    }

    #[inline]
    fn pop(&mut self) {
        if self.spill.pop().is_none() {
            self.len -= 1;
        }
    }
}

/// The visible text of a fragment, gathered node by node: the first text node borrowed, the
/// joined text from the second on in one arena string, sized once from the caller's bound.
/// A separator owed (a block boundary) is written as a newline before the next text, so that
/// collapsing turns it into a space between words and drops it at either end.
struct Gathered<'a> {
    arena: &'a Bump,
    first: Option<&'a str>,
    joined: Option<bumpalo::collections::String<'a>>,
    separator_owed: bool,
}

impl<'a> Gathered<'a> {
    fn new(arena: &'a Bump) -> Self {
        Gathered { arena, first: None, joined: None, separator_owed: false }
    }

    /// A block boundary: words on either side of it are separate.
    #[inline]
    fn separate(&mut self) {
        self.separator_owed = true;
    }

    /// Appends a text node. `rest` bounds the bytes of this and the later text nodes (asked
    /// at most once, when the joined string is created).
    #[inline]
    fn push(&mut self, t: &'a str, rest: impl FnOnce() -> usize) {
        // A node of ASCII whitespace only (the line breaks and indentation between block
        // elements) collapses to what a separator does: owe one instead of copying it, so
        // that e.g. `<p>One title</p>\n` stays a borrowed slice.
        if t.bytes().all(|b| matches!(b, b'\t'..=b'\r' | b' ')) {
            self.separator_owed |= !t.is_empty();
            return;
        }
        let sep = std::mem::take(&mut self.separator_owed);
        if let Some(s) = &mut self.joined {
            if sep {
                s.push('\n');
            }
            s.push_str(t);
            return;
        }
        let Some(first) = self.first else {
            self.first = Some(t);
            return;
        };
        let mut s =
            bumpalo::collections::String::with_capacity_in(first.len() + 1 + rest(), self.arena);
        s.push_str(first);
        if sep {
            s.push('\n');
        }
        s.push_str(t);
        self.joined = Some(s);
    }

    fn finish(self) -> &'a str {
        match (self.joined, self.first) {
            (Some(s), _) => s.into_bump_str(),
            (None, Some(t)) => t,
            (None, None) => "",
        }
    }
}

/// `s` with every run of whitespace (Unicode `White_Space`) replaced by one space, and
/// trimmed. Borrowed from `s` when that is all one stretch of words separated by single
/// spaces (collapsing would only trim it); otherwise one arena string, written once.
pub(crate) fn collapse<'b>(arena: &'b Bump, s: &'b str) -> &'b str {
    #[cfg(target_arch = "x86_64")]
    if s.len() >= CollapseScan::<masks::Baseline>::MIN_LEN {
        if let Some(avx2) = masks::Avx2::detect() {
            /// # Safety
            /// The CPU must support AVX2, POPCNT and BMI1.
            #[target_feature(enable = "avx2,popcnt,bmi1")]
            unsafe fn with_avx2<'b>(arena: &'b Bump, s: &'b str, avx2: masks::Avx2) -> &'b str {
                collapse_with(arena, s, avx2)
            }
            // SAFETY: the CPU has AVX2, POPCNT and BMI1 (`detect`).
            return unsafe { with_avx2(arena, s, avx2) };
        }
    }
    collapse_with(arena, s, masks::Baseline)
}

/// [`collapse`] with the masks of `classify`.
#[inline(always)]
fn collapse_with<'b, C: masks::Classify>(arena: &'b Bump, s: &'b str, classify: C) -> &'b str {
    let mut scan = CollapseScan::new(s, classify);
    let mut i = scan.whitespace_end(0);
    if i == s.len() {
        return "";
    }
    let first_end = scan.run_end(i);
    let mut next = scan.whitespace_end(first_end);
    if next == s.len() {
        return &s[i..first_end];
    }
    let mut out = bumpalo::collections::String::with_capacity_in(s.len() - i, arena);
    out.push_str(&s[i..first_end]);
    while next < s.len() {
        i = next;
        let end = scan.run_end(i);
        out.push(' ');
        out.push_str(&s[i..end]);
        next = scan.whitespace_end(end);
    }
    out.into_bump_str()
}

/// The scans of whitespace collapsing over one text. Texts of at least [`Self::MIN_LEN`]
/// bytes are classified a 64-byte block at a time (`masks::Classify::collapse`); the masks of
/// the current block are kept, so a text is classified once however many runs it has.
/// Shorter ones are scanned byte by byte. Only lead bytes that may start non-ASCII
/// whitespace are decoded ([`ws_len_at`]).
struct CollapseScan<'t, C> {
    text: &'t str,
    classify: C,
    /// The current block is `text[base..base + len]` (`len < 64` only for the last block, whose
    /// masks then cover padding: tabs, i.e. whitespace). Unused for short texts.
    base: usize,
    len: usize,
    /// Bytes at which a run of words may end: whitespace other than a space, a space followed
    /// by possible whitespace, and possible non-ASCII whitespace (to be decoded).
    run_stops: u64,
    /// Bytes that are not ASCII whitespace: surely not whitespace, or possibly (`ws_lead`,
    /// to be decoded).
    maybe_word: u64,
}

impl<'t, C: masks::Classify> CollapseScan<'t, C> {
    /// Padding after the last byte of `t`: whitespace, so the end stops a run.
    const PAD: u8 = b'\t';
    /// Shorter texts are scanned byte by byte: one block's masks cost about as much as
    /// looking at this many bytes one at a time.
    const MIN_LEN: usize = 16;

    #[inline(always)]
    fn new(t: &'t str, classify: C) -> Self {
        CollapseScan { text: t, classify, base: usize::MAX, len: 0, run_stops: 0, maybe_word: 0 }
    }

    /// Makes the block hold byte `i` (`i < t.len()`), loading the block at `i` if it does
    /// not; returns the offset of `i` in the block.
    #[inline(always)]
    fn block_at(&mut self, i: usize) -> usize {
        if i.wrapping_sub(self.base) < self.len {
            return i - self.base;
        }
        let b = self.text.as_bytes();
        let mut scratch = [0u8; 64];
        let (block, len) = masks::block(b, i, Self::PAD, &mut scratch);
        let m = self.classify.collapse(block);
        let may_be_ws = m.ws_ctl | m.space | m.ws_lead;
        let after = masks::byte_after(b, i, Self::PAD);
        let after_may_be_ws = matches!(after, b'\t'..=b'\r' | b' ' | 0xC2 | 0xE1..=0xE3) as u64;
        let next_may_be_ws = (may_be_ws >> 1) | (after_may_be_ws << 63);
        self.run_stops = m.ws_ctl | (m.space & next_may_be_ws) | m.ws_lead;
        self.maybe_word = !(m.ws_ctl | m.space);
        (self.base, self.len) = (i, len);
        0
    }

    /// Whether the run of words ends at byte `p` (which may start whitespace): at
    /// whitespace other than a space, and at a space followed by whitespace or the end.
    #[inline(always)]
    fn run_stops_at(&self, p: usize) -> bool {
        let b = self.text.as_bytes();
        match b.get(p) {
            None | Some(b'\t'..=b'\r') => true,
            Some(b' ') => p + 1 == b.len() || ws_len_at(self.text, p + 1).is_some(),
            Some(0xC2 | 0xE1..=0xE3) => ws_len_at(self.text, p).is_some(),
            Some(_) => false,
        }
    }

    /// From a non-whitespace character at byte `i`: the end of the longest stretch of words
    /// separated by single ASCII spaces, i.e. of text that collapsing leaves as it is.
    #[inline(always)]
    fn run_end(&mut self, mut i: usize) -> usize {
        let n = self.text.len();
        if n < Self::MIN_LEN {
            while i < n && !self.run_stops_at(i) {
                i += 1;
            }
            return i;
        }
        while i < n {
            let off = self.block_at(i);
            let mut candidates = self.run_stops & (!0u64 << off);
            while candidates != 0 {
                let p = self.base + candidates.trailing_zeros() as usize;
                candidates &= candidates - 1;
                if self.run_stops_at(p) {
                    return p.min(n);
                }
            }
            i = self.base + self.len;
        }
        n
    }

    /// The end of the whitespace starting at byte `i` (`i` itself when none does).
    #[inline(always)]
    fn whitespace_end(&mut self, mut i: usize) -> usize {
        let n = self.text.len();
        let b = self.text.as_bytes();
        // Most whitespace is a few ASCII bytes (a space, a line end, some indentation):
        // looked at directly; longer runs and non-ASCII whitespace through the masks.
        let short_end = (i + 8).min(n);
        while i < short_end && matches!(b[i], b'\t'..=b'\r' | b' ') {
            i += 1;
        }
        if i == n || (i < short_end && b[i] < 0x80) {
            return i;
        }
        if n < Self::MIN_LEN {
            while let Some(len) = (i < n).then(|| ws_len_at(self.text, i)).flatten() {
                i += len;
            }
            return i;
        }
        while i < n {
            let off = self.block_at(i);
            let candidates = self.maybe_word & (!0u64 << off);
            if candidates == 0 {
                i = self.base + self.len;
                continue;
            }
            let p = self.base + candidates.trailing_zeros() as usize;
            match (p < n).then(|| ws_len_at(self.text, p)) {
                None => return n,
                Some(None) => return p,
                // Non-ASCII whitespace (it may reach into the next block).
                Some(Some(len)) => i = p + len,
            }
        }
        n
    }
}

/// The byte length of the whitespace character starting at byte `i`, if it is one. Only the
/// lead bytes of White_Space characters are decoded (`0xC2`: U+0085, U+00A0; `0xE1`: U+1680;
/// `0xE2`: U+2000–U+205F; `0xE3`: U+3000); other bytes, including continuation bytes, are
/// answered from the byte alone, so scanning byte by byte stays on char boundaries at
/// whitespace.
#[inline]
pub(crate) fn ws_len_at(t: &str, i: usize) -> Option<usize> {
    let b = t.as_bytes()[i];
    if b < 0x80 {
        return matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0B | 0x0C).then_some(1);
    }
    if matches!(b, 0xC2 | 0xE1 | 0xE2 | 0xE3) && t.is_char_boundary(i) {
        let c = t[i..].chars().next()?;
        return c.is_whitespace().then(|| c.len_utf8());
    }
    None
}

/// Plain text of a text construct: HTML values by [`text_content`]; plain values with
/// whitespace collapsed (borrowed when already collapsed). `None` when nothing remains.
pub fn plain_text<'a: 'b, 'b>(arena: &'b Bump, t: &Text<'a>) -> Option<&'b str> {
    let s: &'b str = match t {
        Text::Plain(s) => collapse(arena, s),
        Text::Html(h) => text_content(arena, h),
    };
    (!s.is_empty()).then_some(s)
}

/// Words in `text`: maximal runs of non-whitespace characters that contain a letter or a
/// digit; in scripts written without spaces (Han, Hiragana, Katakana, Thai), every such
/// character counts as one word.
///
/// Scanned 64 bytes at a time. In a block, every byte is whitespace (`ws`), a letter or digit
/// (`alnum`), or other (`o`: punctuation, symbols, the continuation bytes of a character); a
/// non-ASCII character is decoded and entered into the masks by its first byte (whitespace:
/// all its bytes `ws`; letter or digit: its first byte `alnum`; an unspaced-script character:
/// `ws`, `alnum`, `ws`…, a word of its own). A word is counted at a letter or digit whose
/// nearest non-other byte before it is whitespace (or the start of the text): those are the
/// `alnum` bits reachable from a position after whitespace by stepping over `o` bytes only —
/// found for all 64 bytes at once by adding the run starts into `o` (the carry runs through
/// each run of `o` and sets the byte after it).
pub fn word_count(text: &str) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if let Some(avx2) = masks::Avx2::detect() {
        /// # Safety
        /// The CPU must support AVX2, POPCNT and BMI1.
        #[target_feature(enable = "avx2,popcnt,bmi1")]
        unsafe fn with_avx2(text: &str, avx2: masks::Avx2) -> u32 {
            word_count_with(text, avx2)
        }
        // SAFETY: the CPU has AVX2, POPCNT and BMI1 (`detect`).
        return unsafe { with_avx2(text, avx2) };
    }
    word_count_with(text, masks::Baseline)
}

/// [`word_count`] with the masks of `classify`.
#[inline(always)]
fn word_count_with<C: masks::Classify>(text: &str, classify: C) -> u32 {
    let b = text.as_bytes();
    let mut n = 0u32;
    // The state before the next byte: no letter or digit since the last whitespace.
    let mut fresh = true;
    let mut scratch = [0u8; 64];
    let mut i = 0;
    while i < b.len() {
        let (block, len) = masks::block(b, i, b' ', &mut scratch);
        let m = classify.word(block);
        let (mut ws, mut alnum) = (m.ws, m.alnum);
        // Bytes of this block counted now; a character that straddles the block's end is
        // left for the next block.
        let mut take = len;
        let mut leads = m.high & !m.cont;
        while leads != 0 {
            let j = leads.trailing_zeros() as usize;
            leads &= leads - 1;
            let (class, c_len) = char_class_at(b, i + j);
            if j + c_len > len && j > 0 {
                take = j;
                break;
            }
            let bytes = ((1u64 << c_len) - 1) << j;
            match class {
                CharClass::Whitespace => ws |= bytes,
                // At least three bytes: whitespace, then a letter, then whitespace.
                CharClass::Unspaced => {
                    ws |= bytes & !(1 << (j + 1));
                    alnum |= 1 << (j + 1);
                }
                CharClass::Alphanumeric => alnum |= 1 << j,
                CharClass::Other => {}
            }
        }
        let kept = if take == 64 { !0 } else { (1u64 << take) - 1 };
        let (ws, alnum) = (ws & kept, alnum & kept);
        let other = !(ws | alnum);
        // Positions whose state before is "fresh": right after whitespace (or at the block's
        // start when fresh), and, through runs of `other`, the byte after such a run.
        let after_ws = (ws << 1) | fresh as u64;
        let reach = after_ws | (other.wrapping_add(after_ws & other) ^ other);
        n += (alnum & reach).count_ones();
        fresh = (ws | (other & reach)) >> 63 != 0;
        i += take;
    }
    n
}

/// How [`word_count`] treats a character (checked in this order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
enum CharClass {
    /// `char::is_whitespace`.
    Whitespace,
    /// [`is_unspaced_script`]: a word of its own.
    Unspaced,
    /// `char::is_alphanumeric`.
    Alphanumeric,
    Other,
}

impl CharClass {
    fn of(c: char) -> CharClass {
        if c.is_whitespace() {
            CharClass::Whitespace
        } else if is_unspaced_script(c) {
            CharClass::Unspaced
        } else if c.is_alphanumeric() {
            CharClass::Alphanumeric
        } else {
            CharClass::Other
        }
    }
}

/// [`CharClass::of`] a character of the Basic Multilingual Plane, from a table computed
/// from the `char` methods themselves (so it cannot disagree with them), one 256-character
/// page at a time on first use (a text touches few pages).
#[inline]
fn bmp_class(cp: u32) -> CharClass {
    use std::sync::OnceLock;
    static PAGES: [OnceLock<[CharClass; 256]>; 256] = [const { OnceLock::new() }; 256];
    let page = PAGES[(cp >> 8) as usize & 0xFF].get_or_init(|| {
        std::array::from_fn(|k| {
            // Surrogate code points are no characters; they never occur in a `str`.
            char::from_u32((cp & 0xFF00) | k as u32).map_or(CharClass::Other, CharClass::of)
        })
    });
    page[cp as usize & 0xFF]
}

/// The class and UTF-8 length of the character whose lead byte (`>= 0xC0`) is `b[i]`; `b`
/// is valid UTF-8. Characters of the BMP are looked up ([`bmp_class`]).
#[inline]
fn char_class_at(b: &[u8], i: usize) -> (CharClass, usize) {
    let cont = |k: usize| (b.get(i + k).copied().unwrap_or(0x80) & 0x3F) as u32;
    let lead = b[i] as u32;
    if lead < 0xE0 {
        (bmp_class(((lead & 0x1F) << 6) | cont(1)), 2)
    } else if lead < 0xF0 {
        (bmp_class(((lead & 0x0F) << 12) | (cont(1) << 6) | cont(2)), 3)
    } else {
        let cp = ((lead & 0x07) << 18) | (cont(1) << 12) | (cont(2) << 6) | cont(3);
        (char::from_u32(cp).map_or(CharClass::Other, CharClass::of), 4)
    }
}

pub(crate) fn is_unspaced_script(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF   // Hiragana, Katakana
        | 0x3400..=0x4DBF // CJK Ext A
        | 0x4E00..=0x9FFF // CJK Unified
        | 0xF900..=0xFAFF // CJK Compatibility
        | 0x0E00..=0x0E7F // Thai
        | 0x20000..=0x2FA1F)
}

impl Text<'_> {
    /// The plain text of the value: a string with its whitespace runs collapsed, or an HTML
    /// value's visible text (markup removed, `script`/`style` content left out, block
    /// boundaries as newlines) — the `*_text` values of extraction.
    ///
    /// ```
    /// let mut parser = feedmill::Parser::new(feedmill::Options::default());
    /// let doc = "<rss><channel><item>\
    ///            <description>&lt;p&gt;One &lt;b&gt;two&lt;/b&gt;&lt;/p&gt;</description>\
    ///            </item></channel></rss>";
    /// let parsed = parser.parse_str(doc, None).unwrap();
    /// let summary = parsed.feed.as_ref().unwrap().entries[0].summary.as_ref().unwrap();
    /// assert_eq!(summary.to_plain_text(), "One two");
    /// assert_eq!(summary.to_string(), "<p>One <b>two</b></p>");
    /// ```
    pub fn to_plain_text(&self) -> String {
        let arena = bumpalo::Bump::new();
        plain_text(&arena, self).unwrap_or("").to_owned()
    }
}

/// Plain text of a model value, for people: trimmed, `None` when there is none.
fn plain(t: Option<&Text<'_>>) -> Option<String> {
    t.map(Text::to_plain_text).filter(|s| !s.is_empty())
}

impl Feed<'_> {
    /// The feed's title as plain text (markup removed, whitespace collapsed, trimmed), whether
    /// the feed wrote it as text or HTML; `None` when it has none.
    pub fn title_text(&self) -> Option<String> {
        plain(self.title.as_ref())
    }
}

impl Entry<'_> {
    /// The entry's title as plain text (markup removed, whitespace collapsed, trimmed),
    /// whether the feed wrote it as text or HTML; `None` when it has none.
    ///
    /// ```
    /// let mut parser = feedmill::Parser::new(feedmill::Options::default());
    /// let doc = "<feed xmlns='http://www.w3.org/2005/Atom'><entry>\
    ///            <title type='html'>&lt;b&gt;Big&lt;/b&gt;  news</title></entry></feed>";
    /// let parsed = parser.parse_str(doc, None).unwrap();
    /// let entry = &parsed.feed.as_ref().unwrap().entries[0];
    /// assert_eq!(entry.title.as_ref().unwrap().as_plain(), None); // an HTML value
    /// assert_eq!(entry.title_text().as_deref(), Some("Big news"));
    /// ```
    pub fn title_text(&self) -> Option<String> {
        plain(self.title.as_ref())
    }

    /// The entry's body as plain text: its `content`, else its `summary` (the first with
    /// text), markup removed, whitespace collapsed, trimmed.
    pub fn body_text(&self) -> Option<String> {
        plain(self.content.as_ref()).or_else(|| plain(self.summary.as_ref()))
    }
}

impl Person<'_> {
    /// The person's name, trimmed, else their email address; `None` when neither has text.
    pub fn display_name(&self) -> Option<&str> {
        [self.name, self.email].into_iter().flatten().map(str::trim).find(|s| !s.is_empty())
    }
}
