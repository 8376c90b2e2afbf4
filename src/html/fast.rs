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

use super::{Attribute, Element, Node, NodeKind, HTML_NS};

/// How many open elements an unmatched end tag is looked for in before giving up.
const END_TAG_SCAN: usize = 64;
/// How many open elements a "pop until … in scope" looks at before giving up (keeps every
/// token O(1): a successful scan pops what it looked at).
const SCOPE_SCAN: usize = 256;

/// Formatting elements (entries of the list of active formatting elements).
fn is_formatting(name: &str) -> bool {
    matches!(
        name,
        "a" | "b"
            | "big"
            | "code"
            | "em"
            | "font"
            | "i"
            | "nobr"
            | "s"
            | "small"
            | "strike"
            | "strong"
            | "tt"
            | "u"
    )
}

#[inline]
fn is_ws_or_cr(b: u8) -> bool {
    is_ws(b) || b == b'\r'
}

#[inline]
fn is_ws(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0C' | b' ')
}

/// Tree-construction category of a start tag name ("in body" insertion mode).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cat {
    /// "Any other start tag" and formatting elements other than `a`/`nobr`: insert.
    Ordinary,
    /// Closes a `p` in button scope, then insert.
    PClose,
    Heading,
    Li,
    DdDt,
    /// Inserted and immediately popped.
    Void,
    /// `pre`, `listing`: like `PClose`, and a newline right after the start tag is dropped.
    Pre,
    /// `table` in body: closes a `p`, then insert.
    Table,
    /// Elements whose content the tokenizer reads as raw text up to the matching end tag.
    Raw(RawKind),
    Hr,
    A,
    Ruby,
    /// `rb`, `rtc`, `rp`, `rt`: plain insert when no `ruby` is open.
    RubyChild,
    Bail,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum RawKind {
    /// `script` (script data state; bails on `<!--`, which starts its escaped states).
    Script,
    /// `style`, `noframes`, `iframe`, `noembed` (RAWTEXT).
    Rawtext,
    /// `xmp`: RAWTEXT after closing a `p`.
    Xmp,
    /// `title` (RCDATA: character references decoded).
    Rcdata,
    /// `textarea`: RCDATA, and a newline right after the start tag is dropped.
    Textarea,
}

fn category(name: &str) -> Cat {
    match name {
        "address" | "article" | "aside" | "blockquote" | "center" | "details" | "dialog"
        | "dir" | "div" | "dl" | "fieldset" | "figcaption" | "figure" | "footer" | "header"
        | "hgroup" | "main" | "menu" | "nav" | "ol" | "p" | "search" | "section" | "summary"
        | "ul" => Cat::PClose,
        "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => Cat::Heading,
        "li" => Cat::Li,
        "dd" | "dt" => Cat::DdDt,
        "area" | "br" | "embed" | "img" | "keygen" | "wbr" | "input" | "param" | "source"
        | "track" => Cat::Void,
        "hr" => Cat::Hr,
        "pre" | "listing" => Cat::Pre,
        "table" => Cat::Table,
        "script" => Cat::Raw(RawKind::Script),
        "style" | "noframes" | "iframe" | "noembed" => Cat::Raw(RawKind::Rawtext),
        "xmp" => Cat::Raw(RawKind::Xmp),
        "title" => Cat::Raw(RawKind::Rcdata),
        "textarea" => Cat::Raw(RawKind::Textarea),
        "a" => Cat::A,
        "ruby" => Cat::Ruby,
        "rb" | "rtc" | "rp" | "rt" => Cat::RubyChild,
        "html" | "head" | "body" | "base" | "basefont" | "bgsound" | "link" | "meta"
        | "template" | "frameset" | "frame" | "form" | "plaintext" | "button" | "nobr"
        | "caption" | "col" | "colgroup" | "tbody" | "td" | "tfoot" | "th" | "thead" | "tr"
        | "image" | "select" | "option" | "optgroup" | "math" | "svg" | "isindex" => Cat::Bail,
        _ => Cat::Ordinary,
    }
}

/// html5ever's "special" category minus `address`, `div`, `p` (the elements at which the
/// `li`/`dd`/`dt` start-tag walk stops), restricted to names that can be open here.
fn is_extra_special(name: &str) -> bool {
    matches!(
        name,
        "applet"
            | "article"
            | "aside"
            | "blockquote"
            | "center"
            | "dd"
            | "details"
            | "dir"
            | "dl"
            | "dt"
            | "fieldset"
            | "figcaption"
            | "figure"
            | "footer"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "header"
            | "hgroup"
            | "li"
            | "listing"
            | "main"
            | "marquee"
            | "menu"
            | "nav"
            | "noscript"
            | "object"
            | "ol"
            | "pre"
            | "section"
            | "summary"
            | "ul"
            | "table"
            | "tbody"
            | "thead"
            | "tfoot"
            | "tr"
            | "td"
            | "th"
            // Never left open (raw text is read to its end tag) but special all the same.
            | "iframe"
            | "noembed"
            | "noframes"
            | "script"
            | "style"
            | "textarea"
            | "title"
            | "xmp"
    )
}

fn is_heading(name: &str) -> bool {
    matches!(name, "h1" | "h2" | "h3" | "h4" | "h5" | "h6")
}

struct Frame<'a> {
    /// Output index of the element.
    idx: u32,
    name: &'a str,
    /// Stack index of the nearest frame at or below this one that is `li` or extra-special
    /// (`u32::MAX` = none).
    li_bar: u32,
    /// Same for `dd`/`dt`.
    dd_bar: u32,
    /// Kind of the nearest table-structure frame at or below this one (`T_*`) and its stack
    /// index: the insertion mode follows from it (see [`Builder::mode`]).
    tkind: u8,
    tidx: u32,
}

const T_NONE: u8 = 0;
const T_TABLE: u8 = 1;
const T_SECTION: u8 = 2;
const T_ROW: u8 = 3;
const T_CELL: u8 = 4;

fn table_kind(name: &str) -> u8 {
    match name {
        "table" => T_TABLE,
        "tbody" | "thead" | "tfoot" => T_SECTION,
        "tr" => T_ROW,
        "td" | "th" => T_CELL,
        _ => T_NONE,
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
    p_open: u32,
    a_open: u32,
    ruby_open: u32,
    heading_open: u32,
    /// Start of the token being processed (where a bail-out happened; for statistics).
    tok: usize,
    /// Non-whitespace text directly in a table, section or row (foster parenting): bail.
    bad: bool,
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
            if k < n && b[k] == b';' && name.len() < 40 {
                let mut key = [0u8; 40];
                key[..name.len()].copy_from_slice(name.as_bytes());
                key[name.len()] = b';';
                let key = std::str::from_utf8(&key[..=name.len()]).ok()?;
                if let Some(&(c1, c2)) = NAMED_ENTITIES.get(key) {
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

/// Attribute value with character references decoded (borrowed when there are none).
fn attr_value<'a>(arena: &'a Bump, text: &'a str, s: usize, e: usize) -> Option<&'a str> {
    let raw = &text[s..e];
    let Some(first) = memchr::memchr(b'&', raw.as_bytes()) else {
        return Some(raw);
    };
    let mut out = bumpalo::collections::String::with_capacity_in(raw.len(), arena);
    out.push_str(&raw[..first]);
    let mut i = s + first;
    while i < e {
        let b = text.as_bytes();
        if b[i] == b'&' {
            // A reference never extends past the value's end: decode within the value only.
            let sub = &text[..e];
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
        if !matches!(self.mode(), Mode::Body | Mode::Cell) && !t.bytes().all(is_ws_or_cr) {
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

    /// Name of the element `k` frames below the current node.
    fn below(&self, k: usize) -> Option<&'a str> {
        let n = self.stack.len();
        if n > k {
            Some(self.stack[n - 1 - k].name)
        } else {
            None
        }
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
    fn table_start(&mut self, mode: Mode, name: &'a str, attrs: &'a [Attribute<'a>]) -> Option<()> {
        match (mode, name) {
            (Mode::Table, "tbody" | "thead" | "tfoot") => self.insert(name, attrs, false),
            (Mode::Table, "tr" | "td" | "th") => {
                self.insert("tbody", &[], false);
                return self.table_start(Mode::Section, name, attrs);
            }
            (Mode::Section, "tr") => self.insert(name, attrs, false),
            (Mode::Section, "td" | "th") => {
                self.insert("tr", &[], false);
                self.insert(name, attrs, false);
            }
            (Mode::Row, "td" | "th") => self.insert(name, attrs, false),
            (Mode::Row, "tr") => {
                self.pop();
                self.insert(name, attrs, false);
            }
            _ => return None,
        }
        Some(())
    }

    /// End tags in the "in table", "in table body" and "in row" modes.
    fn table_end(&mut self, mode: Mode, name: &'a str) -> Option<()> {
        match (mode, name) {
            (_, "body" | "caption" | "col" | "colgroup" | "html" | "td" | "th") => {}
            (Mode::Table, "tbody" | "tfoot" | "thead" | "tr") => {}
            (Mode::Table, "table") => self.pop(),
            (Mode::Section, "tr") => {}
            (Mode::Section, "tbody" | "tfoot" | "thead") => {
                if self.current() == Some(name) {
                    self.pop();
                }
            }
            (Mode::Section, "table") => {
                self.pop();
                self.pop();
            }
            (Mode::Row, "tr") => self.pop(),
            (Mode::Row, "table") => {
                self.pop();
                self.pop();
                self.pop();
            }
            (Mode::Row, "tbody" | "tfoot" | "thead") => {
                if self.below(1) == Some(name) {
                    self.pop();
                    self.pop();
                }
            }
            _ => return None,
        }
        Some(())
    }

    #[inline]
    fn current(&self) -> Option<&str> {
        self.stack.last().map(|f| f.name)
    }

    fn pop(&mut self) {
        self.flush_text();
        if let Some(f) = self.stack.pop() {
            self.out[f.idx as usize].end = self.out.len() as u32;
            match f.name {
                "p" => self.p_open -= 1,
                "a" => self.a_open -= 1,
                "ruby" => self.ruby_open -= 1,
                n if is_heading(n) => self.heading_open -= 1,
                _ => {}
            }
        }
    }

    fn insert(&mut self, name: &'a str, attrs: &'a [Attribute<'a>], void: bool) {
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
        if void {
            return;
        }
        let si = self.stack.len() as u32;
        let (pl, pd) = self
            .stack
            .last()
            .map_or((u32::MAX, u32::MAX), |f| (f.li_bar, f.dd_bar));
        let xs = is_extra_special(name);
        let tk = table_kind(name);
        let (tkind, tidx) = if tk != T_NONE {
            (tk, si)
        } else {
            self.stack
                .last()
                .map_or((T_NONE, u32::MAX), |f| (f.tkind, f.tidx))
        };
        let li_bar = if xs || name == "li" { si } else { pl };
        let dd_bar = if xs || name == "dd" || name == "dt" {
            si
        } else {
            pd
        };
        self.stack.push(Frame {
            idx,
            name,
            li_bar,
            dd_bar,
            tkind,
            tidx,
        });
        match name {
            "p" => self.p_open += 1,
            "a" => self.a_open += 1,
            "ruby" => self.ruby_open += 1,
            n if is_heading(n) => self.heading_open += 1,
            _ => {}
        }
    }

    /// Whether a `ruby` is in (default) scope; None (bail) beyond [`SCOPE_SCAN`] frames.
    fn ruby_in_scope(&self) -> Option<bool> {
        let n = self.stack.len();
        for f in self.stack[n.saturating_sub(SCOPE_SCAN)..].iter().rev() {
            match f.name {
                "ruby" => return Some(true),
                "applet" | "caption" | "table" | "td" | "th" | "marquee" | "object" => {
                    return Some(false)
                }
                _ => {}
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
        if self.p_open > 0 {
            self.pop_until_in_scope(|n| n == "p", &["button"])?;
        }
        Some(())
    }

    /// If an element satisfying `is_target` is in scope (default scope plus `extra`
    /// boundaries), pops everything down to and including it and returns true ("generate
    /// implied end tags, then pop until"); returns false when it is not in scope. Bails if a
    /// formatting element would be popped (it would stay in the list of active formatting
    /// elements) or the element is more than [`SCOPE_SCAN`] frames down.
    fn pop_until_in_scope(
        &mut self,
        is_target: impl Fn(&str) -> bool,
        extra: &[&str],
    ) -> Option<bool> {
        let n = self.stack.len();
        for k in (n.saturating_sub(SCOPE_SCAN)..n).rev() {
            let name = self.stack[k].name;
            if is_target(name) {
                while self.stack.len() > k {
                    self.pop();
                }
                return Some(true);
            }
            if is_formatting(name) {
                return None;
            }
            if matches!(
                name,
                "applet" | "caption" | "table" | "td" | "th" | "marquee" | "object"
            ) || extra.contains(&name)
            {
                return Some(false);
            }
        }
        if n > SCOPE_SCAN {
            return None;
        }
        Some(false)
    }

    fn start_tag(&mut self, name: &'a str, attrs: &'a [Attribute<'a>]) -> Option<()> {
        match self.mode() {
            Mode::Body => {}
            Mode::Cell => {
                if matches!(
                    name,
                    "caption"
                        | "col"
                        | "colgroup"
                        | "tbody"
                        | "td"
                        | "tfoot"
                        | "th"
                        | "thead"
                        | "tr"
                ) {
                    self.close_cell()?;
                    return self.table_start(Mode::Row, name, attrs);
                }
            }
            m => return self.table_start(m, name, attrs),
        }
        match category(name) {
            Cat::Table => {
                self.close_p()?;
                self.insert(name, attrs, false);
            }
            Cat::Ordinary => self.insert(name, attrs, false),
            Cat::Raw(k) => {
                if k == RawKind::Xmp {
                    self.close_p()?;
                }
                self.insert(name, attrs, false);
            }
            Cat::PClose | Cat::Pre => {
                self.close_p()?;
                self.insert(name, attrs, false);
            }
            Cat::Heading => {
                self.close_p()?;
                if self.current().is_some_and(is_heading) {
                    self.pop();
                }
                self.insert(name, attrs, false);
            }
            Cat::Li | Cat::DdDt => {
                let li = name == "li";
                if let Some(f) = self.stack.last() {
                    let bar = if li { f.li_bar } else { f.dd_bar };
                    if bar != u32::MAX {
                        let bn = self.stack[bar as usize].name;
                        let closes = if li {
                            bn == "li"
                        } else {
                            bn == "dd" || bn == "dt"
                        };
                        if closes {
                            // Generate implied end tags except this one, pop until it.
                            let bar = bar as usize;
                            if self.stack[bar + 1..].iter().any(|f| is_formatting(f.name)) {
                                return None;
                            }
                            while self.stack.len() > bar {
                                self.pop();
                            }
                        }
                    }
                }
                self.close_p()?;
                self.insert(name, attrs, false);
            }
            Cat::Void => self.insert(name, attrs, true),
            Cat::Hr => {
                self.close_p()?;
                self.insert(name, attrs, true);
            }
            Cat::A => {
                if self.a_open > 0 {
                    return None;
                }
                self.insert(name, attrs, false);
            }
            Cat::Ruby => self.insert(name, attrs, false),
            Cat::RubyChild => {
                // If a `ruby` is in scope: generate implied end tags (except `rtc` for
                // `rp`/`rt`). Those only pop cursory-set elements, never formatting ones.
                if self.ruby_open > 0 && self.ruby_in_scope()? {
                    let except = if matches!(name, "rp" | "rt") {
                        "rtc"
                    } else {
                        ""
                    };
                    while let Some(cur) = self.current() {
                        if cur != except
                            && matches!(cur, "dd" | "dt" | "li" | "p" | "rb" | "rp" | "rt" | "rtc")
                        {
                            self.pop();
                        } else {
                            break;
                        }
                    }
                }
                self.insert(name, attrs, false);
            }
            Cat::Bail => return None,
        }
        Some(())
    }

    fn end_tag(&mut self, name: &'a str) -> Option<()> {
        match self.mode() {
            Mode::Body => {}
            Mode::Cell => match name {
                "td" | "th" => {
                    let f = self.stack.last()?;
                    if self.stack[f.tidx as usize].name == name {
                        self.close_cell()?;
                    }
                    return Some(());
                }
                "body" | "caption" | "col" | "colgroup" | "html" => return Some(()),
                "table" | "tbody" | "tfoot" | "thead" | "tr" => {
                    let f = self.stack.last()?;
                    let cell = f.tidx as usize;
                    // The structure above the cell is table > section > tr > cell.
                    let in_scope = match name {
                        "table" | "tr" => true,
                        _ => cell >= 2 && self.stack[cell - 2].name == name,
                    };
                    if in_scope {
                        self.close_cell()?;
                        return self.table_end(Mode::Row, name);
                    }
                    return Some(());
                }
                _ => {}
            },
            m => return self.table_end(m, name),
        }
        match name {
            "br" => {
                // `</br>` is processed as a `<br>` start tag without attributes.
                self.insert("br", &[], true);
                return Some(());
            }
            "body" | "html" | "template" | "form" => return None,
            _ => {}
        }
        let heading = is_heading(name);
        let matches_current =
            |cur: Option<&str>| cur == Some(name) || (heading && cur.is_some_and(is_heading));
        if matches_current(self.current()) {
            self.pop();
            return Some(());
        }
        // End tags that "generate implied end tags" (cursory set; `except` = not that one)
        // once their element is in scope, then pop up to it.
        let implies = heading
            || matches!(
                name,
                "address"
                    | "applet"
                    | "marquee"
                    | "object"
                    | "article"
                    | "aside"
                    | "blockquote"
                    | "center"
                    | "details"
                    | "dialog"
                    | "dir"
                    | "div"
                    | "dl"
                    | "fieldset"
                    | "figcaption"
                    | "figure"
                    | "footer"
                    | "header"
                    | "hgroup"
                    | "main"
                    | "menu"
                    | "nav"
                    | "ol"
                    | "pre"
                    | "listing"
                    | "search"
                    | "section"
                    | "summary"
                    | "ul"
                    | "li"
                    | "dd"
                    | "dt"
                    | "p"
            );
        if implies {
            let in_scope = match name {
                "p" if self.p_open == 0 => false,
                "p" => self.pop_until_in_scope(|n| n == "p", &["button"])?,
                "li" => self.pop_until_in_scope(|n| n == "li", &["ol", "ul"])?,
                _ if heading => {
                    self.heading_open > 0 && self.pop_until_in_scope(is_heading, &[])?
                }
                _ => self.pop_until_in_scope(|n| n == name, &[])?,
            };
            if !in_scope && name == "p" {
                // `</p>` without a `p` in button scope: an empty `p` is inserted and closed.
                self.insert("p", &[], true);
            }
            return Some(()); // done, or ignored
        }
        if is_formatting(name) {
            // Adoption agency: only the trivial cases (current node, handled above; no such
            // element open: ignored).
            let found = self
                .stack
                .iter()
                .rev()
                .take(END_TAG_SCAN)
                .any(|f| f.name == name);
            if found || self.stack.len() > END_TAG_SCAN {
                return None;
            }
            return Some(());
        }
        // "Any other end tag": the nearest open element of that name, unless a special
        // element comes first (then the token is ignored); generate implied end tags except
        // it and pop up to it.
        let n = self.stack.len();
        for k in (n.saturating_sub(END_TAG_SCAN)..n).rev() {
            let f = self.stack[k].name;
            if f == name {
                if self.stack[k + 1..].iter().any(|f| is_formatting(f.name)) {
                    return None;
                }
                while self.stack.len() > k {
                    self.pop();
                }
                return Some(());
            }
            if is_extra_special(f) || matches!(f, "address" | "div" | "p") {
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
        p_open: 0,
        a_open: 0,
        ruby_open: 0,
        heading_open: 0,
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
                let (k, name, self_closing) = tag(bd.arena, text, j + 1, &mut attrs)?;
                let _ = self_closing; // Ignored for HTML elements (void ones are popped anyway).
                let attrs_slice: &[Attribute<'_>] = if attrs.is_empty() {
                    &[]
                } else {
                    bd.arena.alloc_slice_copy(&attrs)
                };
                bd.start_tag(name, attrs_slice)?;
                i = k;
                if let Cat::Raw(kind) = category(name) {
                    if kind == RawKind::Textarea {
                        match b.get(i) {
                            Some(b'\n') => i += 1,
                            Some(b'&') if newline_ref(&text[i..]) => return None,
                            _ => {}
                        }
                    }
                    i = raw_text(bd, i, name, kind)?;
                } else if matches!(name, "pre" | "listing") {
                    // The tree builder drops a newline at the start of the next token if it
                    // is character data (a reference, which may emit a parse-error token
                    // first, is not handled).
                    match b.get(i) {
                        Some(b'\n') => i += 1,
                        Some(b'&') if newline_ref(&text[i..]) => return None,
                        _ => {}
                    }
                }
            }
            Some(b'/') => {
                if !b.get(j + 2).is_some_and(|c| c.is_ascii_alphabetic()) {
                    return None;
                }
                let s = j + 2;
                let mut k = s;
                while k < n && !is_ws(b[k]) && b[k] != b'/' && b[k] != b'>' {
                    k += 1;
                }
                let name = lower(bd.arena, &text[s..k]);
                while k < n && is_ws(b[k]) {
                    k += 1;
                }
                if k == n || b[k] != b'>' {
                    return None;
                }
                bd.end_tag(name)?;
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
/// token; a reference that may decode to a newline (numeric, `&NewLine;`) is not handled
/// (a parse-error token before it would consume the flag). Any other `&` yields something
/// other than a newline first, as the input itself does.
fn newline_ref(s: &str) -> bool {
    s.starts_with("&#") || s.starts_with("&NewLine")
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
    while let Some(p) = memchr::memchr_iter(b'<', &b[from..]).map(|p| from + p).find(|&p| b.get(p + 1) == Some(&b'/')) {
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

/// Tokenizes a start tag whose name starts at `s` (after `<`). Returns the index after `>`,
/// the lowercased name and the self-closing flag; attributes (duplicates dropped, first
/// wins) are left in `attrs`.
fn tag<'a>(
    arena: &'a Bump,
    text: &'a str,
    s: usize,
    attrs: &mut AVec<'a, Attribute<'a>>,
) -> Option<(usize, &'a str, bool)> {
    attrs.clear();
    let b = text.as_bytes();
    let n = b.len();
    let mut k = s;
    while k < n && !is_ws(b[k]) && b[k] != b'/' && b[k] != b'>' {
        k += 1;
    }
    let name = lower(arena, &text[s..k]);
    loop {
        while k < n && is_ws(b[k]) {
            k += 1;
        }
        if k == n {
            return None;
        }
        match b[k] {
            b'>' => return Some((k + 1, name, false)),
            b'/' => {
                k += 1;
                if k == n {
                    return None;
                }
                if b[k] == b'>' {
                    return Some((k + 1, name, true));
                }
            }
            _ => {
                let ns = k;
                k += 1;
                while k < n && !is_ws(b[k]) && !matches!(b[k], b'/' | b'>' | b'=') {
                    k += 1;
                }
                let aname = lower(arena, &text[ns..k]);
                while k < n && is_ws(b[k]) {
                    k += 1;
                }
                if k == n {
                    return None;
                }
                let mut value = "";
                if b[k] == b'=' {
                    k += 1;
                    while k < n && is_ws(b[k]) {
                        k += 1;
                    }
                    if k == n {
                        return None;
                    }
                    match b[k] {
                        q @ (b'"' | b'\'') => {
                            let e = k + 1 + memchr::memchr(q, &b[k + 1..])?;
                            value = attr_value(arena, text, k + 1, e)?;
                            k = e + 1;
                        }
                        b'>' => {}
                        _ => {
                            let vs = k;
                            while k < n && !is_ws(b[k]) && b[k] != b'>' {
                                k += 1;
                            }
                            if k == n {
                                return None;
                            }
                            value = attr_value(arena, text, vs, k)?;
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
