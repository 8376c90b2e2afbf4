//! Exact fast tree builder for the common, well-nested subset of HTML (spec step [178]).
//!
//! A hand-written tokenizer + tree builder that produces the same flat pre-order node list as
//! html5ever's fragment parser followed by `tree::flatten` (context `div`, no-quirks,
//! scripting disabled), or gives up: [`build`] returns `false` the moment the input needs a
//! tree-construction or tokenizer rule that is not implemented here exactly, and the caller
//! then runs html5ever. Correctness is established by differential tests against html5ever
//! (`html::tests`: the real corpus, a table of tricky inputs, random tag soups).
//!
//! Invariants:
//! - The list of active formatting elements is always a subset of the stack of open
//!   elements, so "reconstruct the active formatting elements" is a no-op and the list is not
//!   represented: a formatting element is only ever popped by its own end tag while it is
//!   the current node (the adoption agency's trivial case), by closing a table cell (whose
//!   "clear to the last marker" drops exactly those entries), or at EOF. Anything that would
//!   pop one otherwise (misnested `</b>`, `</p>` over an open `<b>`, …) bails, as do `a`
//!   inside `a`, `nobr`, and foster parenting.
//! - Scopes are computed exactly where used (`pop_until_in_scope`, `ruby_in_scope`):
//!   "generate implied end tags, then pop until X" is done when X is in scope and only
//!   non-formatting elements lie above it; "any other end tag" pops to the nearest element
//!   of that name unless a special element comes first (ignored).
//! - Supported beyond plain insertion: implied ends for `p`, `li`, `dd`/`dt`, headings,
//!   block end tags; `</p>` without `p` (empty `p`); `</br>` (a `br`); void elements;
//!   `pre`/`listing`/`textarea` leading newline; raw-text elements (`script` without `<!--`,
//!   `style`, `iframe`, `noembed`, `noframes`, `xmp`; RCDATA `title`, `textarea`); `ruby`
//!   children; `object`/`applet`/`marquee`; tables of the strict shape table > tbody/thead/
//!   tfoot > tr > td/th (implied `tbody`/`tr`, cells closed by `td`/`th`/`tr`/`</table>`…,
//!   whitespace-only text and comments directly in table parts). The insertion mode is
//!   derived from the stack (per-frame nearest table part).
//! - Bails on: `svg`, `math`, `template`, `form`, `button`, `select`/`option`/`optgroup`,
//!   `caption`, `col`/`colgroup`, `table` parts outside that shape, `html`/`head`/`body`/
//!   `frameset`/`frame`, `base`/`basefont`/`bgsound`/`link`/`meta`, `plaintext`, `image`,
//!   `isindex`, `nobr`; `</body>`, `</html>`, `</form>`, `</template>`; end tags with
//!   attributes or `/`; `<!DOCTYPE`, `<![CDATA[`, `<?`, `</` + non-letter, comments that
//!   are abrupt (`<!-->`, `<!--->`), unterminated or contain `--!` or `<!-`; EOF inside a
//!   tag; NUL anywhere; character references that are not `;`-terminated names (when a
//!   legacy prefix would match), `&#`/`&#x` without digits, numeric references to 0,
//!   surrogates, > U+10FFFF or 0x80–0x9F.
//! - Tokenizer: CR/CRLF are normalized to LF first (as html5ever's input preprocessing);
//!   tag and attribute names ASCII-lowercased; duplicate attributes dropped (first wins);
//!   quoted, unquoted and missing values; a self-closing flag is ignored (as for HTML
//!   elements); `<` not followed by an ASCII letter, `!`, `/` or `?` is text.
//! - Linear time: every token costs O(1) amortized (per-frame barrier indices for the
//!   `li`/`dd`/`dt` walk, open counts, scans of at most [`SCOPE_SCAN`]/[`END_TAG_SCAN`]
//!   frames that either pop what they scanned or bail).
//! - Strings borrow from the input when no decoding or lowercasing is needed, else live in
//!   the arena.

use bumpalo::Bump;
use markup5ever::data::NAMED_ENTITIES;

use super::tags::{
    self, Cat, RawKind, Tag, BLOCK_END, FORMATTING, HEADING, IMPLIED_END, SCOPE, SPECIAL, TAGS,
    T_CELL, T_NONE, T_SECTION, T_TABLE,
};
use super::{Attribute, Element, Node, NodeKind, HTML_NS};

/// How many open elements an unmatched end tag is looked for in before giving up.
const END_TAG_SCAN: usize = 64;
/// How many open elements a "pop until … in scope" looks at before giving up (keeps every
/// token O(1): a successful scan pops what it looked at).
const SCOPE_SCAN: usize = 256;

#[inline]
fn is_ws_or_cr(b: u8) -> bool {
    is_ws(b) || b == b'\r'
}

#[inline]
fn is_ws(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0C' | b' ')
}

struct Frame<'a> {
    /// Output index of the element.
    idx: u32,
    tag: Tag,
    /// The lowercased name (what `tag` stands for, unless it is [`Tag::Other`]).
    name: &'a str,
    /// Stack index of the nearest frame at or below this one that is extra-special (see
    /// [`Tag::is_extra_special`]; `u32::MAX` = none): where the `li`/`dd`/`dt` start-tag walk
    /// stops (`li`, `dd`, `dt` are extra-special themselves).
    bar: u32,
    /// Kind of the nearest table-structure frame at or below this one (`T_*`) and its stack
    /// index: the insertion mode follows from it (see [`Builder::mode`]).
    tkind: u8,
    tidx: u32,
}

impl Frame<'_> {
    /// Whether this is the element named by an end tag (`tag`, `name`).
    #[inline]
    fn is(&self, tag: Tag, name: &str) -> bool {
        self.tag == tag && (tag != Tag::Other || self.name == name)
    }
}

/// Insertion mode, derived from the stack: only the strict structure table > tbody/thead/
/// tfoot > tr > td/th is ever built, and nothing but whitespace text and comments is put
/// directly in a table, section or row (anything else would be foster-parented: bail).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Body,
    Table,
    Section,
    Row,
    Cell,
}

/// The Text node being accumulated (adjacent character tokens share one node).
struct TextAcc<'a> {
    open: bool,
    /// Input byte range while the node is one contiguous raw slice of the input.
    start: usize,
    end: usize,
    multi: bool,
    /// The joined text once it is no longer one raw slice (arena scratch, reused).
    buf: bumpalo::collections::String<'a>,
}

impl TextAcc<'_> {
    #[inline]
    fn raw(&mut self, text: &str, s: usize, e: usize) {
        if s == e {
            return;
        }
        if !self.open {
            self.open = true;
            self.multi = false;
            self.start = s;
            self.end = e;
        } else if !self.multi && self.end == s {
            self.end = e;
        } else {
            self.to_multi(text);
            self.buf.push_str(&text[s..e]);
        }
    }

    fn to_multi(&mut self, text: &str) {
        if !self.open {
            self.open = true;
            self.multi = true;
            self.buf.clear();
        } else if !self.multi {
            self.multi = true;
            self.buf.clear();
            self.buf.push_str(&text[self.start..self.end]);
        }
    }

    #[inline]
    fn push_char(&mut self, text: &str, c: char) {
        self.to_multi(text);
        self.buf.push(c);
    }

    /// Appends the character reference at `text[j] == '&'`, read within `text[..end]`
    /// (see [`char_ref`]; a literal `&` stays a slice of the input). Returns the index after it.
    fn char_ref(&mut self, text: &str, j: usize, end: usize) -> Option<usize> {
        let mut push = |s: &str, c: Option<char>| {
            if !s.is_empty() {
                // The literal '&' is the input byte at j.
                self.raw(text, j, j + 1);
            }
            if let Some(c) = c {
                self.push_char(text, c);
            }
        };
        char_ref(&text[..end], j, &mut push)
    }
}

/// Scratch vectors live in the per-parse arena: no global-heap allocation per value.
type AVec<'a, T> = bumpalo::collections::Vec<'a, T>;

struct Builder<'a, 'o> {
    arena: &'a Bump,
    text: &'a str,
    out: &'o mut AVec<'a, Node<'a>>,
    stack: AVec<'a, Frame<'a>>,
    acc: TextAcc<'a>,
    /// How many elements of each tag are on the stack (by `Tag as usize`).
    open: [u32; TAGS.len()],
    /// Start of the token being processed (where a bail-out happened; for statistics).
    tok: usize,
    /// Non-whitespace text directly in a table, section or row (foster parenting): bail.
    bad: bool,
}

/// The most frequent `;`-terminated named references of feed content, decoded without the
/// (hashing) lookup in the full table; the same values as the table (see the tests).
#[inline]
fn common_entity(name: &str) -> Option<char> {
    Some(match name {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" => '\u{A0}',
        "copy" => '\u{A9}',
        "ndash" => '\u{2013}',
        "mdash" => '\u{2014}',
        "lsquo" => '\u{2018}',
        "rsquo" => '\u{2019}',
        "ldquo" => '\u{201C}',
        "rdquo" => '\u{201D}',
        "hellip" => '\u{2026}',
        _ => return None,
    })
}

/// Decodes a character reference starting at `b[i] == b'&'`. Appends the decoded text via
/// `push` and returns the index after the reference; `Some(i + 1)` with a literal `&` pushed
/// when it is not a reference; None when html5ever's result is not certain (bail).
/// The rules are identical in text and attribute values for the cases accepted here.
#[inline]
fn char_ref(text: &str, i: usize, push: &mut impl FnMut(&str, Option<char>)) -> Option<usize> {
    let b = text.as_bytes();
    let n = b.len();
    let j = i + 1;
    match b.get(j) {
        Some(c) if c.is_ascii_alphanumeric() => {
            let mut k = j;
            while k < n && b[k].is_ascii_alphanumeric() {
                k += 1;
            }
            let name = &text[j..k];
            if k < n && b[k] == b';' {
                if let Some(c) = common_entity(name) {
                    push("", Some(c));
                    return Some(k + 1);
                }
                // The table's keys of `;`-terminated names include the `;`.
                if let Some(&(c1, c2)) = NAMED_ENTITIES.get(&text[j..=k]) {
                    if c1 != 0 {
                        push("", char::from_u32(c1));
                        if c2 != 0 {
                            push("", char::from_u32(c2));
                        }
                        return Some(k + 1);
                    }
                }
            }
            // Not a `;`-terminated name: html5ever matches the longest prefix that is a
            // (legacy, semicolon-less) name, with context-dependent results. Bail if any
            // prefix matches; otherwise the `&` is literal.
            for l in 1..=name.len() {
                match NAMED_ENTITIES.get(&name[..l]) {
                    None => break,
                    Some(&(c1, _)) if c1 != 0 => return None,
                    Some(_) => {}
                }
            }
            push("&", None);
            Some(j)
        }
        Some(b'#') => {
            let mut k = j + 1;
            let hex = matches!(b.get(k), Some(b'x' | b'X'));
            if hex {
                k += 1;
            }
            let ds = k;
            let mut v: u32 = 0;
            while k < n {
                let d = match (b[k] as char).to_digit(if hex { 16 } else { 10 }) {
                    Some(d) => d,
                    None => break,
                };
                v = v
                    .saturating_mul(if hex { 16 } else { 10 })
                    .saturating_add(d);
                k += 1;
            }
            if k == ds {
                return None; // "&#" / "&#x" without digits
            }
            if v == 0
                || (0x80..=0x9F).contains(&v)
                || (0xD800..=0xDFFF).contains(&v)
                || v > 0x10FFFF
            {
                return None;
            }
            push("", Some(char::from_u32(v)?));
            if k < n && b[k] == b';' {
                k += 1;
            }
            Some(k)
        }
        _ => {
            push("&", None);
            Some(j)
        }
    }
}

/// The attribute value `text[s..e]` with character references decoded, given the index of
/// its first `&` (`e` when there is none: the value is then borrowed).
fn attr_value<'a>(
    arena: &'a Bump,
    text: &'a str,
    s: usize,
    e: usize,
    first: usize,
) -> Option<&'a str> {
    if first >= e {
        return Some(&text[s..e]);
    }
    let b = text.as_bytes();
    let mut out = bumpalo::collections::String::with_capacity_in(e - s, arena);
    out.push_str(&text[s..first]);
    let mut i = first;
    // A reference never extends past the value's end: decode within the value only.
    let sub = &text[..e];
    while i < e {
        if b[i] == b'&' {
            let mut push = |s: &str, c: Option<char>| {
                out.push_str(s);
                if let Some(c) = c {
                    out.push(c);
                }
            };
            i = char_ref(sub, i, &mut push)?;
        } else {
            let next = memchr::memchr(b'&', &b[i..e]).map_or(e, |p| i + p);
            out.push_str(&text[i..next]);
            i = next;
        }
    }
    Some(out.into_bump_str())
}

/// `s` ASCII-lowercased: borrowed when it already is.
#[inline]
fn lower<'a>(arena: &'a Bump, s: &'a str) -> &'a str {
    if s.bytes().any(|b| b.is_ascii_uppercase()) {
        let mut t = bumpalo::collections::String::from_str_in(s, arena);
        t.make_ascii_lowercase();
        t.into_bump_str()
    } else {
        s
    }
}

impl<'a, 'o> Builder<'a, 'o> {
    fn flush_text(&mut self) {
        if !self.acc.open {
            return;
        }
        self.acc.open = false;
        let t = if self.acc.multi {
            self.arena.alloc_str(&self.acc.buf) as &str
        } else {
            &self.text[self.acc.start..self.acc.end]
        };
        if matches!(self.mode(), Mode::Table | Mode::Section | Mode::Row)
            && !t.bytes().all(is_ws_or_cr)
        {
            self.bad = true;
        }
        let idx = self.out.len() as u32;
        self.out.push(Node {
            kind: NodeKind::Text(t),
            end: idx + 1,
        });
    }

    #[inline]
    fn mode(&self) -> Mode {
        match self.stack.last() {
            None => Mode::Body,
            Some(f) => match f.tkind {
                T_NONE => Mode::Body,
                T_CELL => Mode::Cell,
                T_TABLE => Mode::Table,
                T_SECTION => Mode::Section,
                _ => Mode::Row,
            },
        }
    }

    /// Tag of the element `k` frames below the current node.
    fn below(&self, k: usize) -> Option<Tag> {
        let n = self.stack.len();
        if n > k {
            Some(self.stack[n - 1 - k].tag)
        } else {
            None
        }
    }

    #[inline]
    fn current(&self) -> Option<Tag> {
        self.stack.last().map(|f| f.tag)
    }

    #[inline]
    fn is_open(&self, tag: Tag) -> bool {
        self.open[tag as usize] > 0
    }

    fn heading_open(&self) -> bool {
        [Tag::H1, Tag::H2, Tag::H3, Tag::H4, Tag::H5, Tag::H6]
            .iter()
            .any(|&t| self.is_open(t))
    }

    /// "Close the cell": pop up to and including the cell (generate implied end tags, pop
    /// until `td`/`th`). Formatting elements popped with it are exactly the ones the "clear
    /// the list of active formatting elements up to the last marker" step removes, so the
    /// list stays a subset of the stack.
    fn close_cell(&mut self) -> Option<()> {
        let cell = self.stack.last()?.tidx as usize;
        while self.stack.len() > cell {
            self.pop();
        }
        Some(())
    }

    /// Start tags in the "in table", "in table body" and "in row" modes.
    fn table_start(&mut self, mode: Mode, tag: Tag, attrs: &'a [Attribute<'a>]) -> Option<()> {
        match (mode, tag) {
            (Mode::Table, Tag::Tbody | Tag::Thead | Tag::Tfoot) => self.insert(tag, attrs),
            (Mode::Table, Tag::Tr | Tag::Td | Tag::Th) => {
                self.insert(Tag::Tbody, &[]);
                return self.table_start(Mode::Section, tag, attrs);
            }
            (Mode::Section, Tag::Tr) => self.insert(tag, attrs),
            (Mode::Section, Tag::Td | Tag::Th) => {
                self.insert(Tag::Tr, &[]);
                self.insert(tag, attrs);
            }
            (Mode::Row, Tag::Td | Tag::Th) => self.insert(tag, attrs),
            (Mode::Row, Tag::Tr) => {
                self.pop();
                self.insert(tag, attrs);
            }
            _ => return None,
        }
        Some(())
    }

    /// End tags in the "in table", "in table body" and "in row" modes.
    fn table_end(&mut self, mode: Mode, tag: Tag) -> Option<()> {
        use Tag::*;
        match (mode, tag) {
            (_, Body | Caption | Col | Colgroup | Html | Td | Th) => {}
            (Mode::Table, Tbody | Tfoot | Thead | Tr) => {}
            (Mode::Table, Table) => self.pop(),
            (Mode::Section, Tr) => {}
            (Mode::Section, Tbody | Tfoot | Thead) => {
                if self.current() == Some(tag) {
                    self.pop();
                }
            }
            (Mode::Section, Table) => {
                self.pop();
                self.pop();
            }
            (Mode::Row, Tr) => self.pop(),
            (Mode::Row, Table) => {
                self.pop();
                self.pop();
                self.pop();
            }
            (Mode::Row, Tbody | Tfoot | Thead) => {
                if self.below(1) == Some(tag) {
                    self.pop();
                    self.pop();
                }
            }
            _ => return None,
        }
        Some(())
    }

    fn pop(&mut self) {
        self.flush_text();
        if let Some(f) = self.stack.pop() {
            self.out[f.idx as usize].end = self.out.len() as u32;
            self.open[f.tag as usize] -= 1;
        }
    }

    /// Inserts an HTML element (a known tag: its name is the table's) and pushes it.
    #[inline]
    fn insert(&mut self, tag: Tag, attrs: &'a [Attribute<'a>]) {
        self.insert_named(tag, tag.info().name, attrs, true);
    }

    /// Inserts an HTML element named `name` (`tag` interned), pushing it unless `void`.
    fn insert_named(&mut self, tag: Tag, name: &'a str, attrs: &'a [Attribute<'a>], push: bool) {
        self.flush_text();
        let idx = self.out.len() as u32;
        self.out.push(Node {
            kind: NodeKind::Element(Element {
                namespace: HTML_NS,
                prefix: None,
                local: name,
                attrs,
            }),
            end: idx + 1,
        });
        if !push {
            return;
        }
        let si = self.stack.len() as u32;
        let info = tag.info();
        let (bar, tkind, tidx) = match self.stack.last() {
            Some(f) => (f.bar, f.tkind, f.tidx),
            None => (u32::MAX, T_NONE, u32::MAX),
        };
        let bar = if tag.is_extra_special() { si } else { bar };
        let (tkind, tidx) = if info.table != T_NONE {
            (info.table, si)
        } else {
            (tkind, tidx)
        };
        self.stack.push(Frame {
            idx,
            tag,
            name,
            bar,
            tkind,
            tidx,
        });
        self.open[tag as usize] += 1;
    }

    /// Whether a `ruby` is in (default) scope; None (bail) beyond [`SCOPE_SCAN`] frames.
    fn ruby_in_scope(&self) -> Option<bool> {
        if !self.is_open(Tag::Ruby) {
            return Some(false);
        }
        let n = self.stack.len();
        for f in self.stack[n.saturating_sub(SCOPE_SCAN)..].iter().rev() {
            if f.tag == Tag::Ruby {
                return Some(true);
            }
            if f.tag.has(SCOPE) {
                return Some(false);
            }
        }
        if n > SCOPE_SCAN {
            None
        } else {
            Some(false)
        }
    }

    /// "Close a p element" if one is in button scope.
    #[inline]
    fn close_p(&mut self) -> Option<()> {
        if self.is_open(Tag::P) {
            self.pop_until_in_scope(|t| t == Tag::P, &[Tag::Button])?;
        }
        Some(())
    }

    /// If an element satisfying `is_target` is in scope (default scope plus the `extra`
    /// boundaries), pops everything down to and including it and returns true ("generate
    /// implied end tags, then pop until"); returns false when it is not in scope. Bails if a
    /// formatting element would be popped (it would stay in the list of active formatting
    /// elements) or the element is more than [`SCOPE_SCAN`] frames down.
    fn pop_until_in_scope(
        &mut self,
        is_target: impl Fn(Tag) -> bool,
        extra: &[Tag],
    ) -> Option<bool> {
        let n = self.stack.len();
        for k in (n.saturating_sub(SCOPE_SCAN)..n).rev() {
            let tag = self.stack[k].tag;
            if is_target(tag) {
                while self.stack.len() > k {
                    self.pop();
                }
                return Some(true);
            }
            if tag.has(FORMATTING) {
                return None;
            }
            if tag.has(SCOPE) || extra.contains(&tag) {
                return Some(false);
            }
        }
        if n > SCOPE_SCAN {
            return None;
        }
        Some(false)
    }

    fn start_tag(&mut self, tag: Tag, name: &'a str, attrs: &'a [Attribute<'a>]) -> Option<()> {
        match self.mode() {
            Mode::Body => {}
            Mode::Cell => {
                if matches!(
                    tag,
                    Tag::Caption
                        | Tag::Col
                        | Tag::Colgroup
                        | Tag::Tbody
                        | Tag::Td
                        | Tag::Tfoot
                        | Tag::Th
                        | Tag::Thead
                        | Tag::Tr
                ) {
                    self.close_cell()?;
                    return self.table_start(Mode::Row, tag, attrs);
                }
            }
            m => return self.table_start(m, tag, attrs),
        }
        match tag.info().cat {
            Cat::Ordinary | Cat::Formatting | Cat::Marker => {
                self.insert_named(tag, name, attrs, true)
            }
            Cat::PClose | Cat::Pre | Cat::Table => {
                self.close_p()?;
                self.insert(tag, attrs);
            }
            Cat::Raw(k) => {
                if k == RawKind::Xmp {
                    self.close_p()?;
                }
                self.insert(tag, attrs);
            }
            Cat::Heading => {
                self.close_p()?;
                if self.current().is_some_and(|t| t.has(HEADING)) {
                    self.pop();
                }
                self.insert(tag, attrs);
            }
            Cat::Li | Cat::DdDt => {
                if let Some(f) = self.stack.last() {
                    let bar = f.bar as usize;
                    let closes = match self.stack.get(bar).map(|f| f.tag) {
                        Some(Tag::Li) => tag == Tag::Li,
                        Some(Tag::Dd | Tag::Dt) => tag != Tag::Li,
                        _ => false,
                    };
                    if closes {
                        // Generate implied end tags except this one, pop until it.
                        if self.stack[bar + 1..].iter().any(|f| f.tag.has(FORMATTING)) {
                            return None;
                        }
                        while self.stack.len() > bar {
                            self.pop();
                        }
                    }
                }
                self.close_p()?;
                self.insert(tag, attrs);
            }
            Cat::Void | Cat::VoidPlain => self.insert_named(tag, name, attrs, false),
            Cat::Hr => {
                self.close_p()?;
                self.insert_named(tag, name, attrs, false);
            }
            Cat::A => {
                if self.is_open(Tag::A) {
                    return None;
                }
                self.insert(tag, attrs);
            }
            Cat::RubyChild => {
                // If a `ruby` is in scope: generate implied end tags (except `rtc` for
                // `rp`/`rt`). Those only pop cursory-set elements, never formatting ones.
                if self.ruby_in_scope()? {
                    let except = if matches!(tag, Tag::Rp | Tag::Rt) {
                        Tag::Rtc
                    } else {
                        Tag::Other
                    };
                    while let Some(cur) = self.current() {
                        if cur != except && cur.has(IMPLIED_END) {
                            self.pop();
                        } else {
                            break;
                        }
                    }
                }
                self.insert(tag, attrs);
            }
            Cat::Bail => return None,
        }
        Some(())
    }

    fn end_tag(&mut self, tag: Tag, name: &'a str) -> Option<()> {
        match self.mode() {
            Mode::Body => {}
            Mode::Cell => match tag {
                Tag::Td | Tag::Th => {
                    let f = self.stack.last()?;
                    if self.stack[f.tidx as usize].tag == tag {
                        self.close_cell()?;
                    }
                    return Some(());
                }
                Tag::Body | Tag::Caption | Tag::Col | Tag::Colgroup | Tag::Html => return Some(()),
                Tag::Table | Tag::Tbody | Tag::Tfoot | Tag::Thead | Tag::Tr => {
                    let f = self.stack.last()?;
                    let cell = f.tidx as usize;
                    // The structure above the cell is table > section > tr > cell.
                    let in_scope = match tag {
                        Tag::Table | Tag::Tr => true,
                        _ => cell >= 2 && self.stack[cell - 2].tag == tag,
                    };
                    if in_scope {
                        self.close_cell()?;
                        return self.table_end(Mode::Row, tag);
                    }
                    return Some(());
                }
                _ => {}
            },
            m => return self.table_end(m, tag),
        }
        match tag {
            Tag::Br => {
                // `</br>` is processed as a `<br>` start tag without attributes.
                self.insert_named(Tag::Br, "br", &[], false);
                return Some(());
            }
            Tag::Body | Tag::Html | Tag::Template | Tag::Form => return None,
            _ => {}
        }
        let heading = tag.has(HEADING);
        if let Some(cur) = self.stack.last() {
            if cur.is(tag, name) || (heading && cur.tag.has(HEADING)) {
                self.pop();
                return Some(());
            }
        }
        // End tags that "generate implied end tags" (cursory set; `except` = not that one)
        // once their element is in scope, then pop up to it.
        if tag.has(BLOCK_END) {
            let in_scope = match tag {
                Tag::P if !self.is_open(Tag::P) => false,
                Tag::P => self.pop_until_in_scope(|t| t == Tag::P, &[Tag::Button])?,
                Tag::Li => self.pop_until_in_scope(|t| t == Tag::Li, &[Tag::Ol, Tag::Ul])?,
                _ if heading => {
                    self.heading_open() && self.pop_until_in_scope(|t| t.has(HEADING), &[])?
                }
                _ => self.is_open(tag) && self.pop_until_in_scope(|t| t == tag, &[])?,
            };
            if !in_scope && tag == Tag::P {
                // `</p>` without a `p` in button scope: an empty `p` is inserted and closed.
                self.insert_named(Tag::P, "p", &[], false);
            }
            return Some(()); // done, or ignored
        }
        if tag.has(FORMATTING) {
            // Adoption agency: only the trivial cases (current node, handled above; no such
            // element open: ignored).
            return if self.is_open(tag) { None } else { Some(()) };
        }
        // "Any other end tag": the nearest open element of that name, unless a special
        // element comes first (then the token is ignored); generate implied end tags except
        // it and pop up to it.
        if tag != Tag::Other && !self.is_open(tag) {
            return Some(()); // reaches a special element or the root `html`: ignored
        }
        let n = self.stack.len();
        for k in (n.saturating_sub(END_TAG_SCAN)..n).rev() {
            let f = &self.stack[k];
            if f.is(tag, name) {
                if self.stack[k + 1..].iter().any(|f| f.tag.has(FORMATTING)) {
                    return None;
                }
                while self.stack.len() > k {
                    self.pop();
                }
                return Some(());
            }
            if f.tag.has(SPECIAL) {
                return Some(());
            }
        }
        if n > END_TAG_SCAN {
            return None;
        }
        Some(()) // reached the root `html` (special): ignored
    }
}

/// The data of the single Text node that `text` parses to when no `<` in it can open a tag
/// (the caller guarantees that), or None if the fast tokenizer gives up. Borrows `text`
/// when nothing is decoded.
pub(crate) fn decode_text<'a>(arena: &'a Bump, text: &'a str) -> Option<&'a str> {
    let mut out = AVec::new_in(arena);
    if !build(arena, text, &mut out) {
        return None;
    }
    match out.as_slice() {
        [] => Some(""),
        [Node {
            kind: NodeKind::Text(t),
            ..
        }] => Some(t),
        _ => None,
    }
}

/// Builds the flat pre-order fragment for `text` into `out` (cleared first), exactly as
/// html5ever's fragment parser + flattening would. Returns false (with `out` in an
/// unspecified state) when the input is outside the supported subset.
pub(crate) fn build<'a>(arena: &'a Bump, text: &'a str, out: &mut AVec<'a, Node<'a>>) -> bool {
    build_at(arena, text, out, &mut 0)
}

/// [`build`], also reporting the byte offset of the token at which it gave up.
pub(crate) fn build_at<'a>(
    arena: &'a Bump,
    text: &'a str,
    out: &mut AVec<'a, Node<'a>>,
    bail_at: &mut usize,
) -> bool {
    out.clear();
    if text.len() >= u32::MAX as usize || memchr::memchr(0, text.as_bytes()).is_some() {
        *bail_at = usize::MAX;
        return false;
    }
    // The tokenizer's input preprocessing: CRLF and lone CR become LF.
    let text = crate::xml::normalize_newlines(arena, text);
    // Every node but the first starts at a `<` (an element or comment, or the text after
    // one), so twice the number of `<` bounds the node count: reserve it once instead of
    // growing (and copying) the list node by node.
    out.reserve(2 * memchr::memchr_iter(b'<', text.as_bytes()).count() + 1);
    let mut b = Builder {
        arena,
        text,
        out,
        stack: AVec::new_in(arena),
        acc: TextAcc {
            open: false,
            start: 0,
            end: 0,
            multi: false,
            buf: bumpalo::collections::String::new_in(arena),
        },
        open: [0; TAGS.len()],
        tok: 0,
        bad: false,
    };
    if run(&mut b).is_none() || b.bad {
        *bail_at = b.tok;
        return false;
    }
    b.flush_text();
    if b.bad {
        *bail_at = text.len();
        return false;
    }
    let len = b.out.len() as u32;
    for f in &b.stack {
        b.out[f.idx as usize].end = len;
    }
    true
}

fn run(bd: &mut Builder<'_, '_>) -> Option<()> {
    let text = bd.text;
    let arena = bd.arena;
    let b = text.as_bytes();
    let n = b.len();
    let mut i = 0;
    let mut attrs: AVec<'_, Attribute<'_>> = AVec::new_in(arena);
    while i < n {
        let j = crate::xml::find_near(b, i, [b'<', b'&'])
            .unwrap_or_else(|k| memchr::memchr2(b'<', b'&', &b[k..]).map_or(n, |p| k + p));
        bd.acc.raw(text, i, j);
        if j == n {
            break;
        }
        bd.tok = j;
        if b[j] == b'&' {
            i = bd.acc.char_ref(text, j, n)?;
            continue;
        }
        // b[j] == '<'
        match b.get(j + 1).copied() {
            Some(c) if c.is_ascii_alphabetic() => {
                let (k, tag, name, self_closing) = start_tag(bd.arena, text, j + 1, &mut attrs)?;
                let _ = self_closing; // Ignored for HTML elements (void ones are popped anyway).
                let attrs_slice: &[Attribute<'_>] = if attrs.is_empty() {
                    &[]
                } else {
                    bd.arena.alloc_slice_copy(&attrs)
                };
                bd.start_tag(tag, name, attrs_slice)?;
                i = k;
                match tag.info().cat {
                    Cat::Raw(kind) => {
                        if kind == RawKind::Textarea {
                            i = skip_leading_newline(text, i)?;
                        }
                        i = raw_text(bd, i, name, kind)?;
                    }
                    // The tree builder drops a newline at the start of the next token if it
                    // is character data.
                    Cat::Pre => i = skip_leading_newline(text, i)?,
                    _ => {}
                }
            }
            Some(b'/') => {
                if !b.get(j + 2).is_some_and(|c| c.is_ascii_alphabetic()) {
                    return None;
                }
                let (mut k, tag, name) = tag_name(bd.arena, text, j + 2);
                while k < n && is_ws(b[k]) {
                    k += 1;
                }
                if k == n || b[k] != b'>' {
                    return None;
                }
                bd.end_tag(tag, name)?;
                i = k + 1;
            }
            Some(b'!') => {
                if !text[j..].starts_with("<!--") {
                    return None;
                }
                let s = j + 4;
                let e = s + crate::xml::find_terminator(&b[s..], b"-->")?;
                let data = &text[s..e];
                if data.starts_with('>')
                    || data.starts_with("->")
                    || data.contains("--!")
                    || data.contains("<!-")
                {
                    return None;
                }
                bd.flush_text();
                let idx = bd.out.len() as u32;
                bd.out.push(Node {
                    kind: NodeKind::Comment(data),
                    end: idx + 1,
                });
                i = e + 3;
            }
            Some(b'?') => return None,
            _ => {
                // Literal '<' (also at EOF).
                bd.acc.raw(text, j, j + 1);
                i = j + 1;
            }
        }
    }
    Some(())
}

/// After `pre`/`listing`/`textarea`, html5ever drops a newline at the start of the next
/// token: returns the index after it. A reference that may decode to a newline (numeric,
/// `&NewLine;`) is not handled (a parse-error token before it would consume the flag): None.
/// Any other `&` yields something other than a newline first, as the input itself does.
fn skip_leading_newline(text: &str, i: usize) -> Option<usize> {
    let rest = &text[i..];
    if rest.starts_with('\n') {
        Some(i + 1)
    } else if rest.starts_with("&#") || rest.starts_with("&NewLine") {
        None
    } else {
        Some(i)
    }
}

/// Reads the content of a raw-text element from `i` up to its end tag (`</name` followed by
/// whitespace, `/` or `>`, ASCII case-insensitively) or EOF into the text accumulator;
/// returns the end tag's offset (the main loop then processes it).
fn raw_text(bd: &mut Builder<'_, '_>, i: usize, name: &str, kind: RawKind) -> Option<usize> {
    let text = bd.text;
    let b = text.as_bytes();
    let n = b.len();
    let mut end = n;
    let mut from = i;
    while let Some(p) = memchr::memchr_iter(b'<', &b[from..])
        .map(|p| from + p)
        .find(|&p| b.get(p + 1) == Some(&b'/'))
    {
        let q = p + 2 + name.len();
        if q < n
            && b[p + 2..q].eq_ignore_ascii_case(name.as_bytes())
            && (is_ws(b[q]) || b[q] == b'/' || b[q] == b'>')
        {
            end = p;
            break;
        }
        from = p + 2;
    }
    if kind == RawKind::Script && memchr::memmem::find(&b[i..end], b"<!--").is_some() {
        return None;
    }
    if matches!(kind, RawKind::Rcdata | RawKind::Textarea) {
        let mut k = i;
        while k < end {
            let j = memchr::memchr(b'&', &b[k..end]).map_or(end, |p| k + p);
            bd.acc.raw(text, k, j);
            if j == end {
                break;
            }
            k = bd.acc.char_ref(text, j, end)?;
        }
    } else {
        bd.acc.raw(text, i, end);
    }
    Some(end)
}

/// Byte classes of the tag tokenizer states (the input has no CR or NUL by then).
const C_WS: u8 = 1;
const C_SLASH: u8 = 2;
const C_GT: u8 = 4;
const C_EQ: u8 = 8;
/// Ends a tag name.
const END_TAG_NAME: u8 = C_WS | C_SLASH | C_GT;
/// Ends an attribute name.
const END_ATTR_NAME: u8 = C_WS | C_SLASH | C_GT | C_EQ;
/// Ends an unquoted attribute value.
const END_UNQUOTED: u8 = C_WS | C_GT;

static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b'\t' as usize] = C_WS;
    t[b'\n' as usize] = C_WS;
    t[0x0C] = C_WS;
    t[b' ' as usize] = C_WS;
    t[b'/' as usize] = C_SLASH;
    t[b'>' as usize] = C_GT;
    t[b'=' as usize] = C_EQ;
    t
};

/// The first index at or after `k` whose byte is in one of the `stop` classes (or `b.len()`).
#[inline(always)]
fn scan_until(b: &[u8], mut k: usize, stop: u8) -> usize {
    while let Some(&c) = b.get(k) {
        if CLASS[c as usize] & stop != 0 {
            break;
        }
        k += 1;
    }
    k
}

/// The first index at or after `k` whose byte is not whitespace (or `b.len()`).
#[inline(always)]
fn skip_ws(b: &[u8], mut k: usize) -> usize {
    while b.get(k).is_some_and(|&c| CLASS[c as usize] == C_WS) {
        k += 1;
    }
    k
}

/// [`tags::name_key`] of `b[s..e]` ASCII-lowercased (SWAR over the first 8 bytes).
#[inline(always)]
fn lowercase_key(b: &[u8], s: usize, e: usize) -> u64 {
    const LO7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    const HI: u64 = 0x8080_8080_8080_8080;
    let len = (e - s).min(8);
    let x = match b.get(s..s + 8) {
        Some(w) => u64::from_le_bytes(w.try_into().unwrap_or([0; 8])),
        None => tags::name_key(&b[s..s + len]),
    };
    let x = if len < 8 {
        x & ((1u64 << (8 * len)) - 1)
    } else {
        x
    };
    // Bytes in 'A'..='Z' (high bit clear): + 0x3F sets the high bit from 'A' on, + 0x25 from
    // '[' on; neither carries into the next byte.
    let y = x & LO7;
    let upper =
        y.wrapping_add(0x3F3F_3F3F_3F3F_3F3F) & !y.wrapping_add(0x2525_2525_2525_2525) & !x & HI;
    x | (upper >> 2)
}

/// Scans a tag name starting at `s` (an ASCII letter) up to whitespace, `/`, `>` or EOF.
/// Returns the index after it, the interned tag and the lowercased name (the tag's own for
/// known tags, borrowed from the input when already lowercase).
#[inline]
fn tag_name<'a>(arena: &'a Bump, text: &'a str, s: usize) -> (usize, Tag, &'a str) {
    let b = text.as_bytes();
    let k = scan_until(b, s, END_TAG_NAME);
    let tag = tags::lookup(lowercase_key(b, s, k), &b[s..k]);
    let name = if tag != Tag::Other {
        tag.info().name
    } else {
        lower(arena, &text[s..k])
    };
    (k, tag, name)
}

/// Tokenizes a start tag whose name starts at `s` (after `<`). Returns the index after `>`,
/// the tag, its lowercased name and the self-closing flag; attributes (duplicates dropped,
/// first wins) are left in `attrs`.
fn start_tag<'a>(
    arena: &'a Bump,
    text: &'a str,
    s: usize,
    attrs: &mut AVec<'a, Attribute<'a>>,
) -> Option<(usize, Tag, &'a str, bool)> {
    attrs.clear();
    let b = text.as_bytes();
    let (mut k, tag, name) = tag_name(arena, text, s);
    loop {
        k = skip_ws(b, k);
        match *b.get(k)? {
            b'>' => return Some((k + 1, tag, name, false)),
            b'/' => {
                k += 1;
                if *b.get(k)? == b'>' {
                    return Some((k + 1, tag, name, true));
                }
            }
            _ => {
                // The first character is part of the name whatever it is (even `=`).
                let ns = k;
                k = scan_until(b, k + 1, END_ATTR_NAME);
                let aname = lower(arena, &text[ns..k]);
                k = skip_ws(b, k);
                let mut value = "";
                if *b.get(k)? == b'=' {
                    k = skip_ws(b, k + 1);
                    match *b.get(k)? {
                        q @ (b'"' | b'\'') => {
                            // The closing quote, and the first `&` if it comes before.
                            let vs = k + 1;
                            let first = match crate::xml::find_near(b, vs, [q, b'&']) {
                                Ok(p) => p,
                                Err(from) => from + memchr::memchr2(q, b'&', &b[from..])?,
                            };
                            let e = if b[first] == q {
                                first
                            } else {
                                first + memchr::memchr(q, &b[first..])?
                            };
                            value = attr_value(arena, text, vs, e, first)?;
                            k = e + 1;
                        }
                        b'>' => {}
                        _ => {
                            let vs = k;
                            k = scan_until(b, k, END_UNQUOTED);
                            if k == b.len() {
                                return None;
                            }
                            let first = memchr::memchr(b'&', &b[vs..k]).map_or(k, |p| vs + p);
                            value = attr_value(arena, text, vs, k, first)?;
                        }
                    }
                }
                if !attrs.iter().any(|a| a.local == aname) {
                    attrs.push(Attribute {
                        namespace: "",
                        prefix: None,
                        local: aname,
                        value,
                    });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_entities_agree_with_the_table() {
        for name in [
            "amp", "lt", "gt", "quot", "apos", "nbsp", "copy", "ndash", "mdash", "lsquo", "rsquo",
            "ldquo", "rdquo", "hellip",
        ] {
            let c = common_entity(name).unwrap();
            let key = format!("{name};");
            assert_eq!(
                NAMED_ENTITIES.get(key.as_str()),
                Some(&(c as u32, 0)),
                "{name}"
            );
        }
        assert_eq!(common_entity("ampx"), None);
    }
}
