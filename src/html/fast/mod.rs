//! Exact fast tree builder for the common, well-nested subset of HTML (spec step \[178\]).
//!
//! A hand-written tokenizer + tree builder that produces the same flat pre-order node list as
//! html5ever's fragment parser followed by `tree::flatten` (context `div`, no-quirks,
//! scripting disabled), or gives up: [`build`] returns `false` the moment the input needs a
//! tree-construction or tokenizer rule that is not implemented here exactly, and the caller
//! then runs html5ever. Correctness is established by differential tests against html5ever
//! (`html::tests`: the real corpus, a table of tricky inputs, random tag soups).
//!
//! Invariants:
//! - Every node is appended at the end of the output list, into the current node (no foster
//!   parenting), so the stack of open elements is a chain in which each element is the last
//!   child of the one before it, and an open element's subtree is the tail of the list from
//!   its index. Closed nodes get their `end` when popped.
//! - The list of active formatting elements is kept in full (`Builder::afe`: elements with
//!   their tokens, and markers for cells and `applet`/`marquee`/`object`): formatting start
//!   tags push (with the Noah's Ark clause), "reconstruct the active formatting elements"
//!   runs before character data and the start tags that ask for it, cells and marker
//!   elements clear it to the last marker. Popping a formatting element only marks its entry
//!   closed (`Formatting::open`).
//! - Formatting end tags run the adoption agency as html5ever does (`Builder::adoption_agency`,
//!   `Builder::adopt`). With a furthest block, the elements it creates go right before the
//!   furthest block and right after it in the list (the tail from the furthest block moves;
//!   see `adopt`), which keeps the chain invariant. Text after it that lands in a Text node's
//!   parent is merged with it (`Builder::reopen_text`), as the DOM merges adjacent text.
//! - Scopes are computed exactly where used (`pop_until_in_scope`, `in_scope`, the
//!   adoption agency): "generate implied end tags, then pop until X" is done when X is in
//!   scope; "any other end tag" pops to the nearest element of that name unless a special
//!   element comes first (ignored).
//! - Tag names are interned (`tags`): the tree builder's tag sets are bit tests on a small
//!   id, and per-tag open counts answer "is any X open" in O(1).
//! - Supported beyond plain insertion: implied ends for `p`, `li`, `dd`/`dt`, headings,
//!   block end tags; `</p>` without `p` (empty `p`); `</br>` (a `br`); void elements;
//!   `pre`/`listing`/`textarea` leading newline; raw-text elements (`script` with its
//!   escaped and double-escaped states, `style`, `iframe`, `noembed`, `noframes`, `xmp`;
//!   RCDATA `title`, `textarea`); `ruby`
//!   children; `object`/`applet`/`marquee`; tables of the strict shape table > tbody/thead/
//!   tfoot > tr > td/th (implied `tbody`/`tr`, cells closed by `td`/`th`/`tr`/`</table>`…,
//!   whitespace-only text and comments directly in table parts). The insertion mode is
//!   derived from the stack (per-frame nearest table part); inline SVG (foreign content:
//!   tag and attribute names adjusted, self-closing tags, CDATA sections, breakout start
//!   tags, end tags matched across namespaces; `Frame::svg`).
//! - Bails on: `math`, SVG's HTML integration points (`foreignObject`, `desc`, `title`),
//!   `template`, `form`, `select`/`option`/`optgroup`, `caption`/`col`/`colgroup` in a
//!   table, table parts outside that shape, foster parenting (anything else directly in a
//!   table part); an `a` inside an `a` that is not in scope (the adoption agency leaves it
//!   open); more than [`AFE_MAX`] entries in the list of active formatting elements; the
//!   adoption agency moving more than `Builder::move_budget` nodes in all; `</form>`,
//!   `</template>`; `<!DOCTYPE`; comments that are abrupt (`<!-->`, `<!--->`), unterminated
//!   or contain `--!` or `<!-`; EOF inside a tag; NUL anywhere; `&#`/`&NewLine` references
//!   right after `pre`/`listing`/`textarea` (the dropped newline); `&#`/`&#x` without digits
//!   is text.
//! - Ignored as html5ever ignores them in a fragment: `html`, `head`, `body`, `frameset`,
//!   `frame` and table-part start tags in body, `</body>`, `</html>`, `</>`. Implemented
//!   besides: "in head" void elements (`meta`, `link`, `base`, `basefont`, `bgsound`),
//!   `image` (as `img`), `nobr`, `button`, `plaintext`, bogus comments (`<?`, `<!x`, `</3`),
//!   end tags with attributes, legacy references without `;` (longest prefix, attribute
//!   rules) and every numeric reference (C1 replacements, U+FFFD).
//! - Tokenizer: CR/CRLF are normalized to LF first (as html5ever's input preprocessing);
//!   tag and attribute names ASCII-lowercased; duplicate attributes dropped (first wins);
//!   quoted, unquoted and missing values; a self-closing flag is ignored for HTML elements
//!   and acknowledged for SVG ones; `<` not followed by an ASCII letter, `!`, `/` or `?` is
//!   text.
//! - Linear time: every token costs O(1) amortized (per-frame barrier indices for the
//!   `li`/`dd`/`dt` walk, open counts, scans of at most [`SCOPE_SCAN`]/[`END_TAG_SCAN`]
//!   frames that either pop what they scanned or bail; list walks and reconstruction of at
//!   most [`AFE_MAX`] entries; at most 8 × 3 clones per adoption agency run; the nodes it
//!   moves bounded by a constant times the input length).
//! - Strings borrow from the input when no decoding or lowercasing is needed, else live in
//!   the arena.
//!
//! Layout, lowest first (each file uses only the ones before it): `refs` character
//! references and attribute values; `svg` the SVG name adjustments; `tokenizer` the scanners
//! of tags, attributes and raw text; `text_acc` the Text node being accumulated; `builder`
//! the tree builder's state ([`Builder`]) and the stack of open elements; `formatting` the
//! list of active formatting elements and the adoption agency; `modes` the insertion modes;
//! this file the entry points and the main loop [`run`], which hands the tokens to the
//! builder (raw text and bogus comments go straight into its text and comments).
//!
//! [`AFE_MAX`]: builder::AFE_MAX
//! [`SCOPE_SCAN`]: builder::SCOPE_SCAN
//! [`END_TAG_SCAN`]: builder::END_TAG_SCAN

mod builder;
mod formatting;
mod modes;
mod refs;
mod svg;
#[cfg(test)]
mod tests;
mod text_acc;
mod tokenizer;

#[cfg(feature = "strict-sanitize")]
pub(crate) use refs::decode_attribute_references;

use bumpalo::Bump;

use builder::Builder;
use modes::Next;
use text_acc::TextAcc;
use tokenizer::{
    end_tag_attributes, is_end_tag_of, script_data_end, skip_leading_newline, skip_ws, start_tag,
    tag_name, AVec,
};

use super::tags::{RawKind, TAGS};
use crate::model::fragment::{Attribute, Node, NodeKind};

/// The fast builder gives up on a tag with more attributes than this (or than the caller's
/// cap, if smaller): the duplicate check is a scan of the tag's earlier attributes, so a
/// tag costs at most `FAST_MAX_ATTRS`² / 2 comparisons; html5ever takes such tags, under the
/// caller's cap (`attrs::first_over_cap`).
pub(crate) const FAST_MAX_ATTRS: usize = 64;

/// The data of the single Text node that `text` parses to when no `<` in it can open a tag
/// (the caller guarantees that), or None if the fast tokenizer gives up. Borrows `text`
/// when nothing is decoded.
pub(crate) fn decode_text<'a>(arena: &'a Bump, text: &'a str) -> Option<&'a str> {
    let mut out = AVec::new_in(arena);
    if !build(arena, text, &mut out, FAST_MAX_ATTRS) {
        return None;
    }
    match out.as_slice() {
        [] => Some(""),
        [Node { kind: NodeKind::Text(t), .. }] => Some(t),
        _ => None,
    }
}

/// Builds the flat pre-order fragment for `text` into `out` (cleared first), exactly as
/// html5ever's fragment parser + flattening would. Returns false (with `out` in an
/// unspecified state) when the input is outside the supported subset.
///
/// Gives up as well on a tag with more than `max_attrs` attributes (or [`FAST_MAX_ATTRS`]).
pub(crate) fn build<'a>(
    arena: &'a Bump,
    text: &'a str,
    out: &mut AVec<'a, Node<'a>>,
    max_attrs: usize,
) -> bool {
    build_at(arena, text, out, max_attrs, &mut 0)
}

/// [`build`], also reporting the byte offset of the token at which it gave up.
pub(crate) fn build_at<'a>(
    arena: &'a Bump,
    text: &'a str,
    out: &mut AVec<'a, Node<'a>>,
    max_attrs: usize,
    bail_at: &mut usize,
) -> bool {
    build_checked(arena, text, out, max_attrs, bail_at).is_some()
}

/// What [`build_checked`] learnt of a fragment it built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Built {
    /// Without an element that sanitizing removes (an HTML 1×1 `img`; `template` is never
    /// built), so that `sanitize::significance_of_clean` gives its significance and the list
    /// is kept as is.
    pub clean: bool,
    /// With an element whose URL attribute may hold a relative URL
    /// (`urls::may_need_resolving`): `false` when the recovery rule `html_url` cannot change
    /// the fragment.
    pub relative_urls: bool,
}

/// [`build_at`], returning on success what it learnt of the fragment ([`Built`]).
pub(crate) fn build_checked<'a>(
    arena: &'a Bump,
    text: &'a str,
    out: &mut AVec<'a, Node<'a>>,
    max_attrs: usize,
    bail_at: &mut usize,
) -> Option<Built> {
    out.clear();
    if text.len() >= u32::MAX as usize || memchr::memchr(0, text.as_bytes()).is_some() {
        *bail_at = usize::MAX;
        return None;
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
        // Fragments rarely nest deeper than 16 elements: one allocation instead of the
        // doublings from 4 (a constant 16 frames, whatever the input).
        stack: AVec::with_capacity_in(16, arena),
        acc: TextAcc {
            open: false,
            start: 0,
            end: 0,
            multi: false,
            buf: bumpalo::collections::String::new_in(arena),
        },
        open: [0; TAGS.len()],
        // As the stack: 8 entries, one allocation (at most `AFE_MAX` ever).
        afe: AVec::with_capacity_in(8, arena),
        moved: 0,
        reopen: None,
        tok: 0,
        bad: false,
        max_attrs: max_attrs.min(FAST_MAX_ATTRS),
        unclean: false,
        relative_urls: false,
    };
    if run(&mut b).is_none() || b.bad {
        *bail_at = b.tok;
        return None;
    }
    b.flush_text();
    if b.bad {
        *bail_at = text.len();
        return None;
    }
    let len = b.out.len() as u32;
    for f in &b.stack {
        b.out[f.idx as usize].end = len;
    }
    Some(Built { clean: !b.unclean, relative_urls: b.relative_urls })
}

fn run(bd: &mut Builder<'_, '_>) -> Option<()> {
    let text = bd.text;
    let arena = bd.arena;
    let b = text.as_bytes();
    let n = b.len();
    let mut i = 0;
    // Most tags have at most 8 attributes: one allocation, not the doublings from 4.
    let mut attrs: AVec<'_, Attribute<'_>> = AVec::with_capacity_in(8, arena);
    // Loop invariant, which the unchecked Text slices rely on (`Builder::chars`'s `# Safety`):
    // `i <= n` is a char boundary of `text`. Every position `i` takes is 0, `n`, the offset
    // of an ASCII byte (a raw-text element's end tag `<`), or right after one (a tag's or
    // comment's `>`, a reference's `;` or ASCII name or digit run, a literal `<`, `&` or
    // `\n`, `</>`); each `j` below is the offset of an ASCII byte or `n`.
    while i < n {
        debug_assert!(text.is_char_boundary(i));
        let j = crate::xml::find_near(b, i, [b'<', b'&'])
            .unwrap_or_else(|k| memchr::memchr2(b'<', b'&', &b[k..]).map_or(n, |p| k + p));
        // SAFETY: `i` by the loop invariant; `j` is the offset of `<` or `&`, or `n`.
        unsafe { bd.chars(i, j)? };
        if j == n {
            break;
        }
        bd.tok = j;
        if b[j] == b'&' {
            bd.before_chars()?;
            i = bd.acc.char_ref(text, j, n)?;
            continue;
        }
        // b[j] == '<'
        match b.get(j + 1).copied() {
            Some(c) if c.is_ascii_alphabetic() => {
                let (k, tag, name, self_closing) =
                    start_tag(bd.arena, text, j + 1, &mut attrs, bd.max_attrs)?;
                let attrs_slice: &[Attribute<'_>] =
                    if attrs.is_empty() { &[] } else { bd.arena.alloc_slice_copy(&attrs) };
                // The self-closing flag only matters for foreign elements (HTML void elements
                // are popped anyway).
                i = k;
                match bd.start_tag(tag, name, attrs_slice, self_closing)? {
                    Next::Data => {}
                    Next::Raw(kind) => {
                        if kind == RawKind::Textarea {
                            i = skip_leading_newline(text, i)?;
                        }
                        i = raw_text(bd, i, name, kind)?;
                    }
                    // The tree builder drops a newline at the start of the next token if it
                    // is character data.
                    Next::Pre => i = skip_leading_newline(text, i)?,
                    // The tokenizer's PLAINTEXT state: everything after is character data.
                    Next::Plaintext => {
                        // SAFETY: `i` is right after the start tag's `>` (or `n`).
                        unsafe { bd.chars(i, n)? };
                        i = n;
                    }
                }
            }
            Some(b'/') => match b.get(j + 2) {
                Some(c) if c.is_ascii_alphabetic() => {
                    let (k, tag, name) = tag_name(bd.arena, text, j + 2);
                    let k = skip_ws(b, k);
                    i = if b.get(k) == Some(&b'>') {
                        k + 1
                    } else {
                        // Attributes and a self-closing flag of end tags are read and ignored.
                        end_tag_attributes(bd.arena, text, k, &mut attrs, bd.max_attrs)?.0
                    };
                    bd.end_tag(tag, name)?;
                }
                // `</>` is dropped.
                Some(b'>') => i = j + 3,
                // `</` at EOF is text.
                None => {
                    // SAFETY: `j` is the offset of `<`.
                    unsafe { bd.chars(j, n)? };
                    i = n;
                }
                // `</` + anything else opens a bogus comment.
                Some(_) => i = bogus_comment(bd, j + 2),
            },
            Some(b'!') if bd.in_svg() && text[j..].starts_with("<![CDATA[") => {
                // A CDATA section (foreign content only): its text, up to `]]>` or EOF.
                let s = j + 9;
                let e = crate::xml::find_terminator(&b[s..], b"]]>").map_or(n, |p| s + p);
                // SAFETY: `s` is right after `<![CDATA[`, `e` the offset of `]]>` or `n`.
                unsafe { bd.chars(s, e)? };
                i = (e + 3).min(n);
            }
            Some(b'!') if !text[j..].starts_with("<!--") => {
                let rest = &b[j + 2..];
                if rest.len() >= 7 && rest[..7].eq_ignore_ascii_case(b"doctype") {
                    return None; // a DOCTYPE token
                }
                i = bogus_comment(bd, j + 2);
            }
            Some(b'!') => {
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
                bd.comment(data);
                i = e + 3;
            }
            // `<?` opens a bogus comment (the `?` included).
            Some(b'?') => i = bogus_comment(bd, j + 1),
            _ => {
                // Literal '<' (also at EOF).
                // SAFETY: `text[j]` is the ASCII `<`.
                unsafe { bd.chars(j, j + 1)? };
                i = j + 1;
            }
        }
    }
    Some(())
}

/// Reads the content of a raw-text element from `i` up to its end tag (`</name` followed by
/// whitespace, `/` or `>`, ASCII case-insensitively) or EOF into the text accumulator;
/// returns the end tag's offset (the main loop then processes it).
fn raw_text(bd: &mut Builder<'_, '_>, i: usize, name: &str, kind: RawKind) -> Option<usize> {
    let text = bd.text;
    // The Text slices below start at `i` unchecked: a position inside a character (which the
    // main loop never gives) ends the fast path instead. Raw-text elements are rare.
    if !text.is_char_boundary(i) {
        return None;
    }
    let b = text.as_bytes();
    let end = if kind == RawKind::Script {
        script_data_end(b, i)
    } else {
        let mut end = b.len();
        let mut from = i;
        while let Some(p) = memchr::memchr(b'<', &b[from..]).map(|p| from + p) {
            if is_end_tag_of(b, p, name) {
                end = p;
                break;
            }
            from = p + 1;
        }
        end
    };
    if matches!(kind, RawKind::Rcdata | RawKind::Textarea) {
        let mut k = i;
        while k < end {
            let j = memchr::memchr(b'&', &b[k..end]).map_or(end, |p| k + p);
            // SAFETY: `k` is `i` (a char boundary, checked above) or right after a reference
            // (an ASCII byte); `j` is the offset of `&` or `end` (a `<` or `n`).
            unsafe { bd.acc.raw(text, k, j) };
            if j == end {
                break;
            }
            k = bd.acc.char_ref(text, j, end)?;
        }
    } else {
        // SAFETY: `i` is a char boundary (checked above), `end` the offset of the end tag's
        // `<` or `n`.
        unsafe { bd.acc.raw(text, i, end) };
    }
    Some(end)
}

/// A bogus comment whose data starts at `s`: up to the next `>` (dropped) or EOF. Returns
/// the index after it.
fn bogus_comment(bd: &mut Builder<'_, '_>, s: usize) -> usize {
    let text = bd.text;
    let e = memchr::memchr(b'>', &text.as_bytes()[s..]).map_or(text.len(), |p| s + p);
    bd.comment(&text[s..e]);
    (e + 1).min(text.len())
}
