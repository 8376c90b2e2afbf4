//! The lol_html pass computed from the parsed tree, for the fragments where its output is
//! known exactly: [`rewrite_tree`]`(nodes)` writes the same bytes as
//! `rewrite(write_html(nodes))` (the HTML serialization rewritten by lol_html with the
//! sanitizer's handlers, [`super::rewrite`]) or declines, and the caller runs lol_html.
//!
//! Why the bytes are the same. The serialization `S` of a fragment is well-formed: every
//! attribute is written `name="value"` with `"` escaped, text is escaped (`&`, `<`, `>`),
//! every non-void element has its end tag, void elements have none (the serializer's and
//! lol_html's void lists agree on every name accepted here), and no start tag ends in `/>`.
//! lol_html copies the bytes of every token no handler changes, so over `S`:
//! - text and end tags of kept elements come out as serialized;
//! - a kept element's start tag comes out as serialized when no attribute is removed or
//!   set; otherwise lol_html writes `<`, the name, then ` ` + each remaining attribute —
//!   its serialized bytes when untouched, `name="` + the new value with `"` escaped + `"`
//!   when set — then `>` ([`write_start_tag`]);
//! - an unwrapped element (not on the allowlists, `remove_and_keep_content`) loses its start
//!   and end tag, its content stays;
//! - a comment is one comment token when its data has no `>` (only the last `>` of
//!   `<!--data-->` can close it), and is removed;
//! - `script` and `style` (and `iframe`, unless video embeds may be kept) are removed with
//!   their content, which is one raw text token when it has no `<` (so nothing in it can end
//!   the element early or start an escape);
//! - a removed void element (`embed`, `input`, `meta`, `link`, …) is one start tag, removed;
//! - another removed element (`object`, `button`, `applet`, …) is removed up to its end tag,
//!   which lol_html finds by popping its open-element stack to the same name: in a
//!   well-formed serialization, the end of the subtree, provided nothing inside switches the
//!   tokenizer (every descendant must be an element this module accepts, a text, or a
//!   comment without `>`).
//!
//! Anything else — elements outside the HTML namespace, names or attribute names with
//! characters other than `[a-z0-9:._-]`, `iframe` when embeds may be kept (lol_html's
//! `keep_embed` decides), `frame` (void to the serializer, not to lol_html), `form`,
//! `select`, `template`, `textarea`, `title`, `noscript` and the other elements whose name
//! changes lol_html's tokenizer state (raw text, RCDATA, foreign content: `svg`, `math`),
//! comments with `>` and processing instructions — declines. Only those
//! fragments need lol_html; what lol_html would do with the accepted ones does not depend
//! on the tree builder simulator (no foreign content, no `select`/`frameset`, so no
//! ambiguity errors) and the handlers' decisions are made here by the same functions
//! ([`super::safe_url`], [`super::safe_srcset`]) on the same attribute text (the serialized,
//! still escaped value).

use crate::html::{html_escape, is_void, Element, Node, NodeKind};
use crate::model::fragment::HTML_NS;

use super::{
    is_allowed, is_drop_attr, is_math_svg, is_removed, is_url_attr, safe_srcset, safe_url,
    url_growth_fits, within_url_budget, SanitizeOptions, SanitizedOut,
};
use crate::simd::block;

/// What the rewrite does with an element of the HTML namespace.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Action {
    Keep,
    Unwrap,
    /// `script`, `style` (and `iframe` when no embed is kept): removed with their raw text
    /// content, which must be one text node without `<`.
    RemoveRaw,
    /// A void element removed (`embed`, `input`, `meta`, `link`, `base`, `keygen`): its start
    /// tag is all lol_html sees of it.
    RemoveVoid,
    /// Another element removed with its content (`object`, `button`, `applet`, …): lol_html
    /// drops everything up to the matching end tag, which in a well-formed serialization is
    /// the end of the subtree as long as nothing inside switches its tokenizer or tree
    /// builder simulator ([`removable_content`]).
    RemoveSubtree,
}

name_set! {
    /// Names whose start tag switches lol_html's tokenizer (raw text, RCDATA, plaintext, foreign
    /// content) or its ambiguity guard; all of them are removed or declined anyway.
    is_declined: [
        "textarea", "title", "plaintext", "iframe", "xmp", "noembed", "noframes", "noscript", "svg",
        "math", "select", "template", "frameset", "form"
    ]
}

/// The bytes of a plain name: `[a-z0-9:._-]`, one table load each.
const SIMPLE_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] =
            c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, b':' | b'.' | b'_' | b'-');
        b += 1;
    }
    t
};

fn is_simple_name(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| SIMPLE_BYTE[usize::from(b)])
}

/// An element of the HTML namespace without a prefix. The builders use the constant itself:
/// an address compare settles most calls.
fn is_plain_html(e: &Element<'_>) -> bool {
    (std::ptr::eq(e.namespace, HTML_NS) || e.namespace == HTML_NS) && e.prefix.is_none()
}

fn action(e: &Element<'_>, opts: &SanitizeOptions) -> Option<Action> {
    if !is_plain_html(e) {
        return None;
    }
    let name = e.local;
    // The allowlist's names are plain lowercase names, none of them removed or declined.
    if is_allowed(name) {
        return Some(Action::Keep);
    }
    if !is_simple_name(name) || !name.as_bytes()[0].is_ascii_lowercase() {
        return None;
    }
    // `rewrite` removes every iframe but an allowlisted embed; which embeds are kept is
    // lol_html's decision alone.
    if matches!(name, "script" | "style") || (name == "iframe" && !opts.allow_video_embeds) {
        return Some(Action::RemoveRaw);
    }
    if is_declined(name) {
        return None;
    }
    if is_removed(name) {
        // `frame` is void to the serializer but not to lol_html, which would then remove up
        // to the parent's end tag.
        return match (is_void(e), name) {
            (true, "frame") => None,
            (true, _) => Some(Action::RemoveVoid),
            (false, _) => Some(Action::RemoveSubtree),
        };
    }
    if is_math_svg(name) {
        Some(Action::Keep)
    } else {
        Some(Action::Unwrap)
    }
}

/// `url(` anywhere, ASCII case-insensitive (an SVG presentation attribute that can fetch):
/// each `(` found by memchr, then the three bytes before it.
fn has_css_url(raw: &str) -> bool {
    let b = raw.as_bytes();
    memchr::memchr_iter(b'(', b).any(|i| i >= 3 && b[i - 3..i].eq_ignore_ascii_case(b"url"))
}

/// Results of [`safe_url`] against a base URL, per thread: resolving is most of its cost
/// (the `url` crate's parse), and a record's values repeat their links — between summary
/// and content, and in the pass that confirms the first. `safe_url` is a function of the raw
/// value and the base alone, so a remembered result is the result. Each is kept with
/// whether it is stable ([`is_stable_url`] against a base), and handed out borrowed.
/// Emptied when the base changes or it holds [`MEMO_MAX`] values.
struct UrlMemo {
    base: String,
    /// foldhash, seeded per process: SipHash cost as much as the lookups' hits saved.
    map: std::collections::HashMap<String, Option<(String, bool)>, foldhash::fast::RandomState>,
}

const MEMO_MAX: usize = 4096;

thread_local! {
    static URL_MEMO: std::cell::RefCell<UrlMemo> = std::cell::RefCell::new(UrlMemo {
        base: String::new(),
        map: std::collections::HashMap::with_hasher(foldhash::fast::RandomState::default()),
    });
}

/// `f` of [`safe_url`]`(raw, Some(base))` and whether that is stable ([`is_stable_url`]),
/// remembered per thread. `f` must not itself resolve against the memo.
fn with_safe_url_memo<R>(
    raw: &str,
    base: &url::Url,
    f: impl FnOnce(Option<(&str, bool)>) -> R,
) -> R {
    URL_MEMO.with(|m| {
        let mut m = m.borrow_mut();
        if m.base != base.as_str() || m.map.len() >= MEMO_MAX {
            m.map.clear();
            m.base.clear();
            m.base.push_str(base.as_str());
        }
        if let Some(v) = m.map.get(raw) {
            return f(v.as_ref().map(|(v, stable)| (v.as_str(), *stable)));
        }
        let v = safe_url(raw, Some(base)).map(|v| {
            let stable = is_stable_url(&v, true);
            (v, stable)
        });
        let r = f(v.as_ref().map(|(v, stable)| (v.as_str(), *stable)));
        m.map.insert(raw.to_owned(), v);
        r
    })
}

/// Every attribute has a plain name in no namespace (what the start tag's serialization and
/// lol_html's attribute list agree on).
fn simple_attrs(e: &Element<'_>) -> bool {
    e.attrs.iter().all(simple_attr)
}

/// [`simple_attrs`] of one attribute.
fn simple_attr(a: &crate::html::Attribute<'_>) -> bool {
    a.namespace.is_empty() && a.prefix.is_none() && is_simple_name(a.local)
}

/// The content of the raw text element at `i` (subtree ending at `end`) is one lol_html
/// raw text token: no child, or one text child without `<` (nothing in it can end the
/// element early or start an escape).
fn raw_content_ok(nodes: &[Node<'_>], i: usize, end: usize) -> bool {
    end == i + 1
        || (end == i + 2 && matches!(nodes[i + 1].kind, NodeKind::Text(t) if !t.contains('<')))
}

/// Whether lol_html, removing an element with its content, stops exactly after the nodes
/// `nodes[from..end]` (the element's descendants): every descendant is an element this
/// module would itself accept (HTML namespace, plain names, no tokenizer switch beyond
/// `script`/`style` with `<`-free text), a text, or a comment without `>`.
fn removable_content(nodes: &[Node<'_>], from: usize, end: usize, opts: &SanitizeOptions) -> bool {
    let mut j = from;
    while j < end {
        let sub_end = (nodes[j].end as usize).clamp(j + 1, end);
        match &nodes[j].kind {
            NodeKind::Element(e) => {
                let Some(act) = action(e, opts) else { return false };
                if !simple_attrs(e)
                    || (act == Action::RemoveRaw && !raw_content_ok(nodes, j, sub_end))
                {
                    return false;
                }
                if act == Action::RemoveRaw || is_void(e) {
                    j = sub_end;
                    continue;
                }
            }
            NodeKind::Text(_) => {}
            NodeKind::Comment(c) => {
                if c.contains('>') {
                    return false;
                }
            }
            NodeKind::ProcessingInstruction { .. } => return false,
        }
        j += 1;
    }
    true
}

/// A kept element's start tag as lol_html writes it after `clean_attributes`; `settle` follows
/// the tag's serialization through the pass's input and learns which changes are stable.
fn write_start_tag(
    out: &mut impl SanitizedOut,
    e: &Element<'_>,
    opts: &SanitizeOptions,
    raw: &mut String,
    settle: &mut Settle<'_>,
) {
    out.start_tag(e.local);
    settle.expect("<");
    settle.expect(e.local);
    for a in e.attrs {
        let name = a.local;
        let by_name = name.starts_with("on") || is_drop_attr(name);
        let srcset = !by_name && name == "srcset";
        let url = !by_name && !srcset && is_url_attr(name);
        // An absolute http(s) URL already in its serialization: what the handler is handed
        // decodes to the value itself, which `safe_url` returns as it is against any base (no
        // growth), and which is stable; so the attribute comes out as serialized.
        let canonical = url && crate::model::url::is_canonical_http_url(a.value);
        // The attribute as the serializer writes it (`raw`: its value escaped), where
        // something reads it: the settle follow, or a URL attribute's handler.
        let follow = settle.follows();
        if follow || srcset || (url && !canonical) {
            raw.clear();
            html_escape(raw, a.value, true);
            if follow {
                settle.expect(" ");
                settle.expect(name);
                settle.expect("=\"");
                settle.expect(raw);
                settle.expect("\"");
            }
        }
        if by_name {
            // Dropped by its name: gone from the next pass's tree, which no parse decision
            // reads (not `hidden`, `controls`, `width`, `height`, `type`).
            continue;
        }
        // Escaping neither makes nor breaks a `url(`: it rewrites only `& " < >` and U+00A0,
        // into references ending in `;`.
        if has_css_url(a.value) {
            // Dropped for a CSS `url(`: the attribute may be one that significance reads.
            settle.unsettle();
            continue;
        }
        if !srcset && (!url || canonical) {
            out.attr_start(name);
            out.escaped(a.value, true);
            out.quote();
            continue;
        }
        // lol_html hands a handler the value decoded with BOM sniffing: a value that starts
        // with U+FEFF reaches it without that character.
        let handed = raw.strip_prefix('\u{feff}').unwrap_or(raw);
        if srcset {
            let v = safe_srcset(handed, opts.base_url.as_ref());
            if let Some(v) = within_url_budget(handed, v, || safe_srcset(handed, None)) {
                // Candidates re-split at `,` (a base URL may hold one): not followed.
                settle.unsettle();
                push_set_attr(out, name, &v);
            }
            continue;
        }
        let mut set = |v: &str, stable: bool| {
            if !stable {
                settle.unsettle();
            }
            push_set_attr(out, name, v);
        };
        match opts.base_url.as_ref() {
            Some(base) => with_safe_url_memo(handed, base, |v| match v {
                None => {}
                Some((v, stable)) if url_growth_fits(handed.len(), v.len()) => set(v, stable),
                Some(_) => {
                    if let Some(v) = safe_url(handed, None) {
                        set(&v, is_stable_url(&v, true));
                    }
                }
            }),
            None => {
                let v = safe_url(handed, None);
                if let Some(v) = within_url_budget(handed, v, || safe_url(handed, None)) {
                    set(&v, is_stable_url(&v, false));
                }
            }
        }
    }
    out.markup(">");
    settle.expect(">");
}

/// ` name="value"` for an attribute lol_html sets to `value`: `&` escaped by the sanitizer,
/// then `"` by lol_html.
fn push_set_attr(out: &mut impl SanitizedOut, name: &str, value: &str) {
    out.attr_start(name);
    let mut rest = value;
    while let Some(i) = block::find_any(rest.as_bytes(), [b'&', b'"']) {
        out.verbatim(&rest[..i]);
        out.markup(if rest.as_bytes()[i] == b'&' { "&amp;" } else { "&quot;" });
        rest = &rest[i + 1..];
    }
    out.verbatim(rest);
    out.quote();
}

/// Whether a URL attribute's new value `v` comes out of the next pass as it is: the next
/// parse reads back exactly `v` (written with `&` and `"` escaped; no CR, which input
/// preprocessing would turn into LF, and no NUL), and [`safe_url`] of it is `v` within any
/// budget (it is never longer than its escaped form). Against a base URL: `v` is in the URL
/// parser's serialization ([`is_canonical_http_url`], which `safe_url` returns as it is).
/// Without one: `safe_url` only trims, and `v` is trimmed already; it must not start with
/// U+FEFF, which the next pass would strip as a BOM. Either way no `url(` in its escaped
/// form, which the next pass would drop.
fn is_stable_url(v: &str, has_base: bool) -> bool {
    let stable = if has_base {
        crate::model::url::is_canonical_http_url(v)
    } else {
        !v.starts_with('\u{feff}')
            && !v.contains(['\r', '\0'])
            && v.trim_matches(|c: char| c.is_whitespace() || c.is_control()).len() == v.len()
    };
    // `url(` cannot be spelled differently escaped: escaping only touches `&`, `"`, U+00A0.
    stable && !has_css_url(v)
}

/// Whether the pass's output is its own fixed point, followed along [`rewrite_tree`]: the
/// next pass would parse it into the same tree with only the changed attributes changed,
/// and write the same bytes. That holds when
/// - the pass's input is the serialization of its tree (followed byte for byte: `pos`, the
///   input read so far), so the output is that serialization with start tags' attributes
///   dropped or set, whose values no tree-construction decision of the HTML fragment parser
///   reads in the HTML namespace (foreign content, `form`, `template` and `input` are
///   declined or removed) and which move no limit of the fast tree builder (the caller
///   checks the fast builder built the tree);
/// - every element is kept (nothing unwrapped or removed, no comment: removing a node can
///   change how its neighbours re-parse);
/// - every attribute the pass set reads back as itself ([`is_stable_url`]; `srcset` is not
///   followed), and every attribute it dropped was dropped by its name.
///
/// `ok` false: not known, the caller runs the next pass.
pub(super) struct Settle<'x> {
    input: &'x [u8],
    pos: usize,
    ok: bool,
    /// The input is the tree's serialization by construction ([`Settle::trusted`]).
    trusted: bool,
    /// Trusted only: an element was unwrapped or removed, or a comment removed, so the
    /// output's tree is not the input's ([`output_reparses_as_itself`] may still tell).
    restructured: bool,
}

impl<'x> Settle<'x> {
    pub(super) fn new(input: &'x str) -> Self {
        Settle { input: input.as_bytes(), pos: 0, ok: true, trusted: false, restructured: false }
    }

    /// For a pass over a tree whose serialization is the input by construction, and which
    /// the fast tree builder builds from it ([`reparses_as_itself`]): only the changes are
    /// followed.
    pub(super) fn trusted() -> Self {
        Settle { input: &[], pos: 0, ok: true, trusted: true, restructured: false }
    }

    /// The serialization continues with `s`.
    fn expect(&mut self, s: &str) {
        if self.ok && !self.trusted {
            match self.input.get(self.pos..self.pos + s.len()) {
                Some(next) if next == s.as_bytes() => self.pos += s.len(),
                _ => self.ok = false,
            }
        }
    }

    fn unsettle(&mut self) {
        self.ok = false;
    }

    /// Whether the serialization is still being followed byte for byte ([`Settle::expect`]
    /// compares).
    fn follows(&self) -> bool {
        self.ok && !self.trusted
    }

    /// An element unwrapped or removed, or a comment removed: unsettles, except over a
    /// trusted input, where it is noted ([`Settle::restructured_only`]).
    fn restructure(&mut self) {
        if self.trusted {
            self.restructured = true;
        } else {
            self.ok = false;
        }
    }

    /// Whether the output is known to be a fixed point (the whole input was followed).
    pub(super) fn settled(&self) -> bool {
        self.ok && !self.restructured && (self.trusted || self.pos == self.input.len())
    }

    /// Over a trusted input: whether the output would be settled but for unwrapped or
    /// removed elements and removed comments — it is then a fixed point when the HTML
    /// fragment parser builds the output's own tree back from it
    /// ([`output_reparses_as_itself`]).
    pub(super) fn restructured_only(&self) -> bool {
        self.ok && self.restructured
    }
}

name_set! {
    /// Start tags after which the HTML fragment parser closes an open `p` in button scope
    /// ("in body"); [`reparses_as_itself`] accepts them only outside any `p`.
    closes_p: [
        "address", "article", "aside", "blockquote", "center", "details", "dialog", "dir", "div",
        "dl", "fieldset", "figcaption", "figure", "footer", "header", "hgroup", "main", "menu",
        "nav", "ol", "p", "search", "section", "summary", "ul", "h1", "h2", "h3", "h4", "h5", "h6",
        "pre", "listing", "hr", "li", "dd", "dt", "table"
    ]
}

name_set! {
    /// Start tags whose "in body" rule does more than insert the element into the current
    /// node (or switches the tokenizer, or leaves the HTML namespace or the body insertion
    /// mode), which [`reparses_as_itself`] does not follow.
    not_plain_insertion: [
        "caption", "col", "colgroup", "form", "template", "select", "option", "optgroup",
        "button", "nobr", "math", "svg", "textarea", "title", "xmp", "noembed", "noframes",
        "noscript", "plaintext", "rb", "rp", "rt", "rtc", "html", "head",
        "body", "frameset", "frame", "image", "isindex", "input", "keygen", "base", "basefont",
        "bgsound", "link", "meta"
    ]
}

name_set! {
    /// Formatting elements and the elements that push a marker: each open one is an entry of
    /// the list of active formatting elements.
    is_afe_entry: [
        "a", "b", "big", "code", "em", "font", "i", "s", "small", "strike", "strong", "tt", "u",
        "td", "th", "object", "applet", "marquee"
    ]
}

fn is_table_part(s: &str) -> bool {
    matches!(s, "table" | "tbody" | "thead" | "tfoot" | "tr")
}

/// The open elements the re-parse checks count: `p` and `a` elements (for [`placed`]) and
/// entries of the list of active formatting elements ([`is_afe_entry`]).
#[derive(Default)]
struct OpenCounts {
    p: usize,
    a: usize,
    formatting: usize,
}

/// What [`OpenCounts::open`] found an element to be, kept with the open element so that
/// closing it and reading its kind take no name compare.
#[derive(Clone, Copy, Default)]
struct Open {
    p: bool,
    a: bool,
    formatting: bool,
    /// [`is_table_part`].
    table_part: bool,
}

impl OpenCounts {
    /// Counts `name` opened and returns what it is, for [`OpenCounts::close`]; `None` past 60
    /// formatting entries (the fast builder's list holds 64).
    fn open(&mut self, name: &str) -> Option<Open> {
        let o = Open {
            p: name == "p",
            a: name == "a",
            formatting: is_afe_entry(name),
            table_part: is_table_part(name),
        };
        self.p += usize::from(o.p);
        self.a += usize::from(o.a);
        self.formatting += usize::from(o.formatting);
        (self.formatting <= 60).then_some(o)
    }

    fn close(&mut self, o: Open) {
        self.p -= usize::from(o.p);
        self.a -= usize::from(o.a);
        self.formatting -= usize::from(o.formatting);
    }
}

/// Whether the HTML fragment parser inserts an element `name` (a plain insertion: not
/// [`not_plain_insertion`]) into the current node `parent` ([`reparses_as_itself`]'s
/// placement rules), with `p_open` `p` and `a_open` `a` elements open.
fn placed(name: &str, parent: Option<&str>, p_open: usize, a_open: usize) -> bool {
    let heading = |s: &str| matches!(s, "h1" | "h2" | "h3" | "h4" | "h5" | "h6");
    match name {
        "tbody" | "thead" | "tfoot" => parent == Some("table"),
        "tr" => matches!(parent, Some("tbody" | "thead" | "tfoot")),
        "td" | "th" => parent == Some("tr"),
        // Anything else in a table part is foster-parented.
        _ if parent.is_some_and(is_table_part) => false,
        _ if p_open > 0 && closes_p(name) => false,
        "li" => matches!(parent, Some("ul" | "ol" | "menu")),
        "dd" | "dt" => parent == Some("dl"),
        _ if heading(name) => !parent.is_some_and(heading),
        "a" => a_open == 0,
        _ => true,
    }
}

/// Whether the HTML fragment parser (context `div`) builds `nodes` back from their HTML
/// serialization — so the first pass over a model value can be computed from its tree,
/// without serializing and re-parsing it — and the fast tree builder builds it (so
/// [`Settle::trusted`] holds). Checked conservatively, node by node, against the "in body"
/// rules the serialization's tokens meet, every element being inserted into the current
/// node and closed by its own end tag (the serialization writes every end tag):
/// - every element is in the HTML namespace with a plain lowercase name and plain
///   attributes ([`simple_attrs`]), and none is one whose start tag does more than insert it
///   ([`not_plain_insertion`]: forms, RCDATA, foreign content, …);
/// - tables only of the shape table > tbody/thead/tfoot > tr > td/th, with nothing but
///   ASCII whitespace text and comments directly in a table part (anything else there is
///   foster-parented); `script`, `style`, `iframe` only with a raw text without `<`;
/// - no start tag that closes a `p` ([`closes_p`]) inside a `p`, no heading directly in a
///   heading, `li` only directly in `ul`/`ol`/`menu`, `dd`/`dt` only directly in `dl`, no `a`
///   inside an `a` (each would close or adopt what is open);
/// - at most 60 formatting elements, cells and `object`/`applet`/`marquee` (markers) open at
///   once (the fast builder's list holds 64);
/// - texts not empty (the leading newline of a `pre` must be the first child's) and, like
///   attribute values, without CR (input preprocessing turns it into LF) or NUL;
/// - comments whose data the tokenizer reads back whole (no `-` at either end, no `>` first,
///   no `--`, `<!`), no processing instruction;
/// - significant, without a 1×1 `img` or a `template` ([`significance_if_clean`]), so the
///   parse keeps the fragment as it is.
///
/// Text nodes next to each other come back as one, which writes the same bytes.
///
/// [`significance_if_clean`]: crate::html::significance_if_clean
///
/// The definition, which the tests hold [`rewrite_tree`]'s own checks to (over a trusted
/// input it checks these rules on the nodes it rewrites).
#[cfg(test)]
pub(super) fn reparses_as_itself(nodes: &[Node<'_>]) -> bool {
    crate::html::significance_if_clean(nodes) == Some(true)
        && reparses_within(nodes, 0, nodes.len(), None, &mut OpenCounts::default(), &mut Vec::new())
}

/// No CR (input preprocessing turns it into LF) and no NUL.
fn clean(s: &str) -> bool {
    // Mostly short: one block compare before any vector search.
    block::find_any(s.as_bytes(), [b'\r', 0]).is_none()
}

/// [`reparses_as_itself`]'s rules for an element `e` of the HTML namespace with a plain
/// lowercase name (what [`action`] accepts) under `parent`, with `counts` open.
fn element_reparses(e: &Element<'_>, parent: Option<&str>, counts: &OpenCounts) -> bool {
    e.attrs.iter().all(|a| simple_attr(a) && clean(a.value))
        && !not_plain_insertion(e.local)
        && placed(e.local, parent, counts.p, counts.a)
}

/// [`reparses_as_itself`]'s rule for a raw text element (`script`, `style`, `iframe`) at `i`
/// whose subtree ends at `end`: its raw text is read back whole when it holds no `<`
/// (nothing can end it early or start an escape).
fn raw_text_reparses(nodes: &[Node<'_>], i: usize, end: usize) -> bool {
    end == i + 1
        || (end == i + 2
            && matches!(nodes[i + 1].kind,
                NodeKind::Text(t) if !t.is_empty() && !t.contains('<') && clean(t)))
}

/// [`reparses_as_itself`]'s rule for a text, `in_table_part` when its parent is a table part
/// (where only ASCII whitespace is inserted where it is).
fn text_reparses(t: &str, in_table_part: bool) -> bool {
    !t.is_empty()
        && clean(t)
        && (!in_table_part || t.bytes().all(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\x0c')))
}

/// [`reparses_as_itself`]'s rule for a comment: the tokenizer reads its data back whole.
fn comment_reparses(c: &str) -> bool {
    !(c.starts_with(['-', '>'])
        || c.ends_with('-')
        || c.contains("--")
        || c.contains("<!")
        || !clean(c))
}

/// [`reparses_as_itself`]'s walk over `nodes[from..end]` (the children of `parent`, or the
/// fragment's nodes), with `counts` open around them (restored on success). `stack` holds
/// its open elements, (end index, node index, what it is): the caller's buffer, cleared.
fn reparses_within(
    nodes: &[Node<'_>],
    from: usize,
    end: usize,
    parent: Option<&str>,
    counts: &mut OpenCounts,
    stack: &mut Vec<(usize, usize, Open)>,
) -> bool {
    let n = end;
    stack.clear();
    let mut i = from;
    loop {
        while let Some(&(end, _, open)) = stack.last() {
            if end > i && i < n {
                break;
            }
            counts.close(open);
            stack.pop();
        }
        if i >= n {
            return true;
        }
        let limit = stack.last().map_or(n, |&(e, _, _)| e);
        let end = (nodes[i].end as usize).clamp(i + 1, limit);
        let in_table_part =
            stack.last().map_or(parent.is_some_and(is_table_part), |s| s.2.table_part);
        match &nodes[i].kind {
            NodeKind::Element(e) => {
                let name = e.local;
                let parent = match stack.last().map(|&(_, p, _)| &nodes[p].kind) {
                    Some(NodeKind::Element(p)) => Some(p.local),
                    _ => parent,
                };
                if !is_plain_html(e)
                    || !is_simple_name(name)
                    || !name.as_bytes()[0].is_ascii_lowercase()
                    || !element_reparses(e, parent, counts)
                {
                    return false;
                }
                if is_void(e) {
                    i = end; // children of a void element are not serialized
                    continue;
                }
                if matches!(name, "script" | "style" | "iframe") {
                    if !raw_text_reparses(nodes, i, end) {
                        return false;
                    }
                    i = end;
                    continue;
                }
                let Some(open) = counts.open(name) else { return false };
                stack.push((end, i, open));
            }
            NodeKind::Text(t) => {
                if !text_reparses(t, in_table_part) {
                    return false;
                }
            }
            NodeKind::Comment(c) => {
                if !comment_reparses(c) {
                    return false;
                }
            }
            NodeKind::ProcessingInstruction { .. } => return false,
        }
        i += 1;
    }
}

/// [`rewrite_tree`]'s working buffers, reused from call to call.
#[derive(Default)]
pub(super) struct Buffers {
    /// Open elements: (end index, node index, whether its end tag is written, what it is to
    /// the re-parse checks).
    stack: Vec<(usize, usize, bool, Open)>,
    /// An attribute value being rewritten.
    raw: String,
    /// The open elements of a removed subtree's re-parse check ([`reparses_within`]).
    within: Vec<(usize, usize, Open)>,
}

impl Buffers {
    /// Drops a buffer whose capacity grew past `keep` bytes.
    pub(super) fn trim(&mut self, keep: usize) {
        if self.stack.capacity() * std::mem::size_of::<(usize, usize, bool, Open)>() > keep {
            self.stack = Vec::new();
        }
        if self.raw.capacity() > keep {
            self.raw = String::new();
        }
        if self.within.capacity() * std::mem::size_of::<(usize, usize, Open)>() > keep {
            self.within = Vec::new();
        }
    }
}

/// Writes `rewrite(write_html(nodes))` into `out` and returns true, or returns false (with
/// `out` in an unspecified state) when the fragment is not one this module covers. Over a
/// [`Settle::trusted`] input it also returns false unless [`reparses_as_itself`] holds, its
/// rules checked on the nodes as they are rewritten (a removed subtree's by a walk of its
/// own), and the significance read in the same walk, every node once and in order (the
/// nodes the walk skips as a range): what makes the input trusted is checked as it goes.
pub(super) fn rewrite_tree(
    nodes: &[Node<'_>],
    opts: &SanitizeOptions,
    buffers: &mut Buffers,
    out: &mut impl SanitizedOut,
    settle: &mut Settle<'_>,
) -> bool {
    let n = nodes.len();
    let Buffers { stack, raw, within } = buffers;
    stack.clear();
    // The re-parse checks (trusted input only), the open elements they count, and the
    // fragment's significance (`significance_if_clean`), read as the walk reads the nodes.
    let check = settle.trusted;
    let mut counts = OpenCounts::default();
    let mut significance = crate::html::CleanSignificance::default();
    // Reads the nodes `from..to` the walk skips (a removed element's content, a void
    // element's children) for the significance.
    let skipped = |significance: &mut crate::html::CleanSignificance, from, to| {
        !check || significance.range(nodes, from, to)
    };
    let mut i = 0;
    loop {
        while let Some(&(end, idx, written, open)) = stack.last() {
            if end > i && i < n {
                break;
            }
            if check {
                counts.close(open);
            }
            if written {
                if let NodeKind::Element(e) = &nodes[idx].kind {
                    out.end_tag(e.local);
                    if settle.ok {
                        settle.expect("</");
                        settle.expect(e.local);
                        settle.expect(">");
                    }
                }
            }
            stack.pop();
        }
        if i >= n {
            return !check || significance.significant;
        }
        let node = &nodes[i];
        let limit = stack.last().map_or(n, |&(e, _, _, _)| e);
        let end = (node.end as usize).clamp(i + 1, limit);
        if check && !significance.node(i, node) {
            return false;
        }
        match &node.kind {
            NodeKind::Element(e) => {
                let Some(act) = action(e, opts) else { return false };
                // `action` accepts only plain lowercase names of the HTML namespace.
                let parent = || match stack.last().map(|&(_, idx, _, _)| &nodes[idx].kind) {
                    Some(NodeKind::Element(p)) => Some(p.local),
                    _ => None,
                };
                if !(if check { element_reparses(e, parent(), &counts) } else { simple_attrs(e) }) {
                    return false;
                }
                if act != Action::Keep {
                    settle.restructure();
                }
                match act {
                    Action::RemoveRaw => {
                        if !(if check {
                            raw_text_reparses(nodes, i, end)
                        } else {
                            raw_content_ok(nodes, i, end)
                        }) || !skipped(&mut significance, i + 1, end)
                        {
                            return false;
                        }
                        i = end;
                        continue;
                    }
                    Action::RemoveVoid => {
                        if !skipped(&mut significance, i + 1, end) {
                            return false;
                        }
                        i = end; // children of a void element are not serialized
                        continue;
                    }
                    Action::RemoveSubtree => {
                        if !removable_content(nodes, i + 1, end, opts) {
                            return false;
                        }
                        if check {
                            let Some(open) = counts.open(e.local) else { return false };
                            let parent = Some(e.local);
                            if !reparses_within(nodes, i + 1, end, parent, &mut counts, within)
                                || !skipped(&mut significance, i + 1, end)
                            {
                                return false;
                            }
                            counts.close(open);
                        }
                        i = end;
                        continue;
                    }
                    Action::Keep => write_start_tag(out, e, opts, raw, settle),
                    Action::Unwrap => {}
                }
                if is_void(e) {
                    if !skipped(&mut significance, i + 1, end) {
                        return false;
                    }
                    i = end; // children of a void element are not serialized
                    continue;
                }
                if matches!(e.local, "pre" | "textarea" | "listing") {
                    if let Some(NodeKind::Text(t)) =
                        nodes.get(i + 1).filter(|_| end > i + 1).map(|c| c.kind)
                    {
                        if t.starts_with('\n') {
                            out.verbatim("\n");
                            settle.expect("\n");
                        }
                    }
                }
                let open = if check {
                    let Some(open) = counts.open(e.local) else { return false };
                    open
                } else {
                    Open::default()
                };
                stack.push((end, i, act == Action::Keep, open));
            }
            // The parent is never a raw text element: those are removed or declined.
            NodeKind::Text(t) => {
                if check && !text_reparses(t, stack.last().is_some_and(|s| s.3.table_part)) {
                    return false;
                }
                let from = out.end();
                out.escaped(t, false);
                if settle.follows() {
                    match out.html_since(from) {
                        Some(written) => settle.expect(written),
                        None => settle.unsettle(),
                    }
                }
            }
            NodeKind::Comment(c) => {
                if c.contains('>') || (check && !comment_reparses(c)) {
                    return false;
                }
                settle.restructure();
            }
            NodeKind::ProcessingInstruction { .. } => return false,
        }
        i += 1;
    }
}

/// Whether the output [`rewrite_tree`] wrote for `nodes` — a trusted input
/// ([`reparses_as_itself`]) over which the pass only unwrapped or removed elements and
/// removed comments besides settled attribute changes ([`Settle::restructured_only`]) — is
/// its own fixed point. The output is the serialization of the output's tree (the kept
/// elements, nested as in the input, and the texts; set attribute values written with `&`
/// and `"` escaped, which reads back as the value). The next pass parses it into that tree
/// when the tree meets [`reparses_as_itself`]'s rules, checked here on the output's
/// elements, parents and texts, and is significant (so the parse keeps it); its rewrite then
/// keeps every element and attribute as they are and writes the same bytes (texts that meet
/// come back as one text, written as the two were). Beyond those rules: a `pre` or `listing`
/// whose first output child is a text starting with a newline must have had it as its first
/// child in the input (where the pass wrote the newline the parse drops).
pub(super) fn output_reparses_as_itself(nodes: &[Node<'_>], opts: &SanitizeOptions) -> bool {
    let n = nodes.len();
    // Input elements open: (end index, whether kept in the output).
    let mut stack: Vec<(usize, bool)> = Vec::new();
    // Output elements open: (node index, local name, what it is, whether an output child was
    // seen).
    let mut open: Vec<(usize, &str, Open, bool)> = Vec::new();
    let mut counts = OpenCounts::default();
    // Depth in `open` of the outermost excluding element (`hidden`), if any is open.
    let mut excluded_at: Option<usize> = None;
    let mut significant = false;
    let mut i = 0;
    loop {
        while let Some(&(end, kept)) = stack.last() {
            if end > i && i < n {
                break;
            }
            if kept {
                if let Some((_, _, o, _)) = open.pop() {
                    counts.close(o);
                }
                if excluded_at == Some(open.len()) {
                    excluded_at = None;
                }
            }
            stack.pop();
        }
        if i >= n {
            return significant;
        }
        let limit = stack.last().map_or(n, |&(e, _)| e);
        let end = (nodes[i].end as usize).clamp(i + 1, limit);
        match &nodes[i].kind {
            NodeKind::Element(e) => {
                let Some(act) = action(e, opts) else { return false };
                match act {
                    Action::RemoveRaw | Action::RemoveVoid | Action::RemoveSubtree => {
                        i = end;
                        continue;
                    }
                    Action::Unwrap => {
                        if is_void(e) {
                            i = end;
                            continue;
                        }
                        stack.push((end, false));
                    }
                    Action::Keep => {
                        let name = e.local;
                        let parent = open.last().map(|&(_, p, _, _)| p);
                        if not_plain_insertion(name) || !placed(name, parent, counts.p, counts.a) {
                            return false;
                        }
                        if let Some(top) = open.last_mut() {
                            top.3 = true;
                        }
                        let (excluding, sig) = crate::html::element_significance(e);
                        if excluded_at.is_none() && !excluding && sig {
                            significant = true;
                        }
                        if is_void(e) {
                            i = end;
                            continue;
                        }
                        let Some(o) = counts.open(name) else { return false };
                        if excluding && excluded_at.is_none() {
                            excluded_at = Some(open.len());
                        }
                        open.push((i, name, o, false));
                        stack.push((end, true));
                    }
                }
            }
            NodeKind::Text(t) => {
                if let Some(&mut (at, name, o, ref mut seen)) = open.last_mut() {
                    if o.table_part
                        && !t.bytes().all(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\x0c'))
                    {
                        return false;
                    }
                    if !*seen
                        && matches!(name, "pre" | "listing")
                        && t.starts_with('\n')
                        && i != at + 1
                    {
                        return false;
                    }
                    *seen = true;
                }
                if excluded_at.is_none() && crate::html::has_non_space(t) {
                    significant = true;
                }
            }
            NodeKind::Comment(_) => {}
            NodeKind::ProcessingInstruction { .. } => return false,
        }
        i += 1;
    }
}
