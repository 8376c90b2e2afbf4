//! Strict HTML sanitizing, opt-in. The spec's own note \[115\] says its
//! HTML values are not safe to insert into a page; this makes them so.
//!
//! Pipeline: the input is first parsed as an HTML fragment by the same html5ever path the
//! spec values use (`crate::html::parse_escaped_html`) and re-serialized, so malformed,
//! unclosed and mis-nested markup is resolved exactly as a browser would resolve it; the
//! well-formed serialization is then rewritten by lol_html:
//! - elements removed with their content: `script`, `style`, `iframe` (unless an allowlisted
//!   video embed), `object`, `embed`, `applet`, `frame`, `frameset`, `noscript`, `noembed`,
//!   `noframes`, `template`, `base`, `meta`, `link`, `title`, `xmp`,
//!   `plaintext`, `input`, `button`, `select`, `textarea`, `keygen`, and every comment;
//!   inside MathML and SVG, what can execute, fetch or re-parse differently: `foreignObject`,
//!   `annotation-xml`, `mglyph`, `malignmark`, `maction`, `use`, `image`, `feImage`,
//!   `animate*`, `set`, `handler`, `listener`;
//! - presentation MathML (`math`, `mi`, `mo`, `mn`, `mfrac`, `msup`, `mtable`, …) and a safe
//!   SVG subset (`svg`, `g`, shapes, `text`/`tspan`, gradients, `desc`) are kept with their
//!   text, so inline formulas and drawings are not lost;
//!   `form` is removed but its content kept, and so is every element not on the allowlist
//!   of formatting/media elements (`is_allowed`: unknown and custom elements, odd
//!   names such as `scr<script` that malformed input produces);
//! - attributes removed: every `on*` event handler, `style`, `srcdoc`, `formaction`,
//!   `action`, `ping`, `http-equiv`;
//! - URL attributes (`href`, `src`, `srcset`, `poster`, `cite`, `background`, `longdesc`,
//!   `lowsrc`, `dynsrc`, `usemap`, `data`, `codebase`, `xlink:href`): the value is
//!   entity-decoded, then every whitespace, control and invisible format character is
//!   removed before the scheme is checked; a scheme other than `http`, `https`, `mailto`,
//!   `tel` or `ftp` (so `javascript:`, `vbscript:`, `data:`, …) drops the attribute (in
//!   `srcset`, the candidate); relative URLs are resolved against the base URL.
//!
//! Invariants: the output never contains the removed elements/attributes or a URL with a
//! non-allowlisted scheme; sanitizing is idempotent (`sanitize(sanitize(x)) == sanitize(x)`):
//! the pass is repeated until its output is a fixed point (at most 4 passes; 1 when the
//! pass changes nothing, else normally 2, the second confirming the first).
//!
//! Speed, without changing a byte: lol_html runs with one `*` element handler (the decisions
//! made by `match`-compiled name predicates in the order above) and one comment handler, and
//! for most fragments it does not run at all: `tree` computes the same pass from the parsed
//! tree — the serialization with kept elements' attributes cleaned, unwrapped elements'
//! tags and comments dropped, removed elements skipped — where the bytes lol_html would write
//! are known exactly (its docs give the argument), and declines the rest (foreign content,
//! frames, forms, odd names…), which lol_html then rewrites. The tests (`tests.rs`) and the
//! strict fuzz check compare the two on every fragment the tree path covers; the golden test
//! pins the strict output of the corpus and the fixtures. The passes' arena and strings are
//! per-thread buffers reused from value to value. A pass whose output the tree path knows to
//! be its own fixed point (`tree::Settle`: only attributes changed, each to a value the next
//! pass reads back as itself) is the last; and a model value whose tree the HTML parser builds
//! back from its serialization (`tree::reparses_as_itself`) has its first pass computed from
//! that tree, without serializing and re-parsing it; when that first pass only unwrapped or
//! removed elements and comments (besides settled attribute changes), it is the last if the
//! HTML parser builds the output's own tree back from the output
//! (`tree::output_reparses_as_itself`). Tests and the fuzz check compare the shortcuts with
//! every pass run as first defined (`sanitize_html_every_pass`).

use bumpalo::Bump;
use lol_html::html_content::Element;
use lol_html::{doc_comments, element, rewrite_str, RewriteStrSettings};
use url::Url;

use crate::model::fragment::serialize::HtmlOut;
use crate::model::fragment::Html;
use crate::model::Text;

/// Options for [`sanitize_html`].
#[derive(Clone, Debug)]
pub struct SanitizeOptions {
    /// Relative URLs are resolved against this; `None` leaves them relative.
    pub base_url: Option<Url>,
    /// Keep `iframe`s embedding YouTube (`/embed/…` on youtube.com, youtube-nocookie.com)
    /// and Vimeo (`player.vimeo.com/video/…`) players, over https, with only `src`, `width`,
    /// `height`, `title`, `allowfullscreen`, `frameborder`, and a fixed `sandbox` and `allow`.
    pub allow_video_embeds: bool,
    /// Most bytes resolving relative URLs may add to all the HTML values of one record
    /// together, while the record is encoded (a JSON line, or its Arrow rows): a record of
    /// 10,000 entries with one relative `<img src>` each under a 20 KB base URL would
    /// otherwise gain 200 MB. Each value's relative URLs also add at most the value's length
    /// plus 64 KiB. Past either, relative URLs are kept relative. Default:
    /// [`crate::Limits::max_url_growth`]'s (the CLI sets both from `--max-url-growth`).
    pub max_url_growth: usize,
}

impl Default for SanitizeOptions {
    fn default() -> Self {
        SanitizeOptions {
            base_url: None,
            allow_video_embeds: false,
            max_url_growth: crate::Limits::default().max_url_growth,
        }
    }
}

/// `fn $name(s: &str) -> bool`: whether `s` is one of the listed strings (a `match`, compiled
/// to length and byte compares rather than a scan of the list).
macro_rules! name_set {
    ($(#[$m:meta])* $name:ident: [$($s:literal),* $(,)?]) => {
        $(#[$m])*
        fn $name(s: &str) -> bool {
            matches!(s, $($s)|*)
        }
    };
}

#[cfg(test)]
pub(crate) mod tests;
mod tree;

name_set! {
    /// Elements removed with their content (ASCII lowercase: lol_html's element names are).
    is_removed: [
        "script", "style", "object", "embed", "applet", "frame", "frameset", "noscript", "noembed",
        "noframes", "template", "base", "meta", "link", "title", "xmp", "plaintext", "input", "button",
        "select", "textarea", "keygen", "foreignobject", "annotation-xml", "mglyph", "malignmark",
        "maction", "use", "image", "feimage", "animate", "animatemotion", "animatetransform",
        "animatecolor", "set", "handler", "listener"
    ]
}

name_set! {
    /// Presentation MathML and the safe SVG subset, kept (with cleaned attributes).
    is_math_svg: [
        "math", "mi", "mn", "mo", "ms", "mtext", "mspace", "mrow", "mfrac", "msqrt", "mroot", "mstyle",
        "merror", "mpadded", "mphantom", "mfenced", "menclose", "msub", "msup", "msubsup", "munder",
        "mover", "munderover", "mmultiscripts", "mprescripts", "none", "mtable", "mtr", "mtd",
        "mlabeledtr", "semantics", "annotation", "svg", "g", "path", "circle", "ellipse", "line",
        "polyline", "polygon", "rect", "text", "tspan", "defs", "lineargradient", "radialgradient",
        "stop", "desc"
    ]
}

name_set! {
    /// Elements kept (with cleaned attributes); any other element not removed with its content
    /// is unwrapped (its content kept).
    is_allowed: [
        "a", "abbr", "acronym", "address", "article", "aside", "audio", "b", "bdi", "bdo", "big",
        "blockquote", "br", "caption", "center", "cite", "code", "col", "colgroup", "dd", "del",
        "details", "dfn", "div", "dl", "dt", "em", "figcaption", "figure", "font", "footer", "h1",
        "h2", "h3", "h4", "h5", "h6", "header", "hr", "i", "img", "ins", "kbd", "li", "main", "mark",
        "nav", "ol", "p", "picture", "pre", "q", "rp", "rt", "ruby", "s", "samp", "section", "small",
        "source", "span", "strike", "strong", "sub", "summary", "sup", "table", "tbody", "td", "tfoot",
        "th", "thead", "time", "tr", "track", "tt", "u", "ul", "var", "video", "wbr"
    ]
}

name_set! {
    /// Attributes whose value is checked as a URL (safe scheme) on any kept element. Wider
    /// on purpose than the relative-URL table of `html::urls` (each attribute on the elements
    /// the HTML Standard gives it): a sanitizer checks a URL wherever some browser may load
    /// one (`lowsrc`, `dynsrc`, `xlink:href`, `background` on a table cell).
    is_url_attr: [
        "href", "src", "poster", "cite", "background", "longdesc", "lowsrc", "dynsrc", "usemap",
        "data", "codebase", "xlink:href"
    ]
}

name_set! {
    is_drop_attr: [
        "style", "srcdoc", "formaction", "action", "ping", "http-equiv"
    ]
}

const SAFE_SCHEMES: &[&str] = &["http", "https", "mailto", "tel", "ftp"];

/// The `allow` attribute of a kept video embed: what a player uses, nothing that reaches the
/// reader's devices or data.
const EMBED_ALLOW: &str = "autoplay; encrypted-media; fullscreen; picture-in-picture";

const EMBED_SANDBOX: &str = "allow-scripts allow-same-origin allow-presentation allow-popups";

/// Sanitizes an HTML fragment string (see the module docs). Never fails: anything lol_html
/// cannot rewrite yields the empty string.
pub fn sanitize_html(html: &str, opts: &SanitizeOptions) -> String {
    with_scratch(|scratch| scratch.sanitize(html, opts).to_owned())
}

/// Upper bound on [`sanitize_html`]'s passes.
const MAX_PASSES: usize = 4;

/// Buffers a sanitizing pass needs, kept per thread and reused from value to value (a
/// corpus job sanitizes tens of thousands of values; fresh arenas and growing strings for
/// each cost more allocator work than the tree rewrite itself). A buffer that grew past
/// [`Scratch::KEEP`] is dropped after use, so one huge value does not pin its memory.
#[derive(Default)]
struct Scratch {
    /// The parsed fragment of the current pass (reset at each pass).
    arena: Bump,
    /// The serialization of a model HTML value ([`sanitize_text`]'s input).
    input: String,
    /// Pass outputs: each pass reads one and writes the other.
    passes: [String; 2],
    /// `tree::rewrite_tree`'s working buffers.
    tree: tree::Buffers,
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

/// Runs `f` with this thread's sanitizing scratch (a fresh one if it is in use: sanitizing
/// never re-enters itself, but a panic-free fallback costs nothing).
fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut scratch) => {
            let r = f(&mut scratch);
            scratch.trim();
            r
        }
        Err(_) => f(&mut Scratch::default()),
    })
}

impl Scratch {
    /// Capacity (bytes) above which a buffer is dropped after use rather than kept.
    const KEEP: usize = 1 << 20;

    fn trim(&mut self) {
        if self.arena.allocated_bytes() > Self::KEEP {
            self.arena = Bump::new();
        }
        for s in std::iter::once(&mut self.input).chain(self.passes.iter_mut()) {
            if s.capacity() > Self::KEEP {
                *s = String::new();
            }
        }
        self.tree.trim(Self::KEEP);
    }

    /// [`sanitize_html`] of the caller's `html` into the scratch's buffers.
    fn sanitize<'s>(&'s mut self, html: &str, opts: &SanitizeOptions) -> &'s str {
        let Scratch { arena, passes: [a, b], tree, .. } = self;
        Self::passes(html, opts, arena, a, b, tree, true)
    }

    /// [`sanitize_text`] of an HTML value, appended to `out`. When the HTML parser builds
    /// the value's tree back from its serialization (the rules of `tree::reparses_as_itself`,
    /// checked while the pass is computed), the first pass is computed from the tree itself
    /// ([`Scratch::tree_pass`]), straight into `out`; when that pass is known to be the last,
    /// nothing else is written. Otherwise it is taken back from `out` into the scratch's
    /// strings (when it covered the tree) where the passes run. Ends with `finish(out, v)`:
    /// `v` the passes' result, or `None` when the value is in `out`.
    fn sanitize_model_html<O: SanitizedOut, R>(
        &mut self,
        h: &Html<'_>,
        opts: &SanitizeOptions,
        out: &mut O,
        finish: impl FnOnce(&mut O, Option<&str>) -> R,
    ) -> R {
        let Scratch { arena, input, passes: [a, b], tree, .. } = self;
        input.clear();
        let at = out.end();
        let record = RECORD_URL_BUDGET.with(|b| b.get());
        let first = Self::tree_pass(h.nodes(), opts, tree, out);
        if first.is_some_and(|(_, last)| last) {
            return finish(out, None);
        }
        if let Some((left, _)) = first {
            // The pass's output, taken back to be compared and passed on (the record's URL
            // budget stays used: the pass's output is kept).
            a.clear();
            out.html_into(at, a);
            out.truncate(at);
            h.write_html(input);
            if *a == *input {
                return finish(out, Some(a));
            }
            let used = URL_GROWTH - left;
            URL_BUDGET.with(|b| b.set(Some(input.len().saturating_add(URL_GROWTH) - used)));
            let last = Self::more_passes(opts, arena, a, b, tree);
            URL_BUDGET.with(|b| b.set(None));
            return finish(out, Some(last));
        }
        // As if this pass had not run.
        out.truncate(at);
        RECORD_URL_BUDGET.with(|b| b.set(record));
        h.write_html(input);
        finish(out, Some(Self::passes(input, opts, arena, a, b, tree, true)))
    }

    /// The first pass over a model value computed from its tree `nodes`, when the HTML parser
    /// builds them back from their serialization (checked by `tree::rewrite_tree` over a
    /// trusted input, [`tree::Settle::trusted`]), into `out`, within the value's URL budget
    /// (its serialization's length + URL_GROWTH; URL_GROWTH alone is a lower bound: if nothing
    /// is refused within it, nothing would be within the whole). `None` when the tree is not
    /// covered, does not read back as itself, or a URL was refused (`out` then in an
    /// unspecified state, the URL budgets used); else what is left of URL_GROWTH and whether
    /// the pass is known to be the last:
    /// settled, or only restructured and read back as itself
    /// ([`tree::output_reparses_as_itself`]).
    fn tree_pass(
        nodes: &[crate::html::Node<'_>],
        opts: &SanitizeOptions,
        tree: &mut tree::Buffers,
        out: &mut impl SanitizedOut,
    ) -> Option<(usize, bool)> {
        URL_BUDGET.with(|b| b.set(Some(URL_GROWTH)));
        URL_REFUSED.with(|r| r.set(false));
        let mut settle = tree::Settle::trusted();
        let covered = tree::rewrite_tree(nodes, opts, tree, out, &mut settle);
        let left = URL_BUDGET.with(|b| b.get()).unwrap_or(0);
        URL_BUDGET.with(|b| b.set(None));
        if !covered || URL_REFUSED.with(|r| r.get()) {
            return None;
        }
        let last = settle.settled()
            || (settle.restructured_only() && tree::output_reparses_as_itself(nodes, opts));
        Some((left, last))
    }

    fn passes<'s>(
        html: &str,
        opts: &SanitizeOptions,
        arena: &mut Bump,
        a: &'s mut String,
        b: &'s mut String,
        tree: &mut tree::Buffers,
        trust_settled: bool,
    ) -> &'s str {
        // One pass P(x) = rewrite(serialize(parse(x))), where a parse without significant
        // content gives "". Removing things can change how the rest re-parses (a `<pre>`
        // whose leading newline followed a removed comment loses it; table foster-parenting;
        // emptied fragments), so passes repeat until P(out) == out: normally the second pass
        // confirms the first. Every pass is a full sanitize, so any pass's output is safe.
        URL_BUDGET.with(|b| b.set(Some(html.len().saturating_add(URL_GROWTH))));
        a.clear();
        let settled = sanitize_once(html, opts, arena, tree, a);
        // A pass that changed nothing, or whose output is known to be its own fixed point
        // (`tree::Settle`), is the last.
        let out = if (settled && trust_settled) || *a == *html {
            a
        } else {
            Self::more_passes(opts, arena, a, b, tree)
        };
        URL_BUDGET.with(|b| b.set(None));
        out
    }

    /// The passes after a first one that wrote `a` and changed its input, until the output
    /// repeats (at most [`MAX_PASSES`] in all).
    fn more_passes<'s>(
        opts: &SanitizeOptions,
        arena: &mut Bump,
        a: &'s mut String,
        b: &'s mut String,
        tree: &mut tree::Buffers,
    ) -> &'s str {
        let mut pass = 1;
        loop {
            b.clear();
            sanitize_once(a, opts, arena, tree, b);
            if *b == *a || pass + 1 == MAX_PASSES {
                break b;
            }
            std::mem::swap(a, b);
            pass += 1;
        }
    }
}

/// One pass, appended to `out`: parse (fast tree builder, else html5ever) → HTML
/// serialization → lol_html rewrite, the last two computed from the tree where `tree` covers
/// the fragment. Returns whether the output is known to be the next pass's output too
/// (`tree::Settle`; `false` when not known).
fn sanitize_once(
    html: &str,
    opts: &SanitizeOptions,
    arena: &mut Bump,
    buffers: &mut tree::Buffers,
    out: &mut String,
) -> bool {
    arena.reset();
    match crate::html::parse_escaped_html_built(arena, html) {
        (None, _) => false,
        (Some(Text::Plain(s)), _) => {
            escape_text_into(out, s);
            false
        }
        (Some(Text::Html(h)), fast) => {
            let start = out.len();
            let mut settle = tree::Settle::new(html);
            if !tree::rewrite_tree(h.nodes(), opts, buffers, out, &mut settle) {
                out.truncate(start);
                out.push_str(&rewrite(&h.to_html_string(), opts));
                return false;
            }
            // Only a tree the fast builder built: html5ever's work limits move with the
            // text's length, which the pass changes.
            fast && settle.settled()
        }
    }
}

/// Test-only (feature `internals`, no semver promise): one pass over `html` computed both
/// ways — lol_html over the HTML serialization of the parsed fragment, and
/// `tree::rewrite_tree` when it covers the fragment (`None` when it declines) — so that tests
/// and fuzz targets can check that the two agree byte for byte. `None` when the parse gives
/// no fragment (nothing for either to rewrite).
#[cfg(feature = "internals")]
#[doc(hidden)]
pub fn pass_both_ways(html: &str, opts: &SanitizeOptions) -> Option<(String, Option<String>)> {
    let arena = Bump::new();
    let Some(Text::Html(h)) = crate::html::parse_escaped_html(&arena, html) else { return None };
    let mut out = String::new();
    let mut settle = tree::Settle::new("");
    let tree =
        tree::rewrite_tree(h.nodes(), opts, &mut tree::Buffers::default(), &mut out, &mut settle)
            .then_some(out);
    Some((rewrite(&h.to_html_string(), opts), tree))
}

/// Test-only (feature `internals`, no semver promise): [`sanitize_html`] with every pass run
/// until the output repeats, without trusting a pass that knows it is the last
/// (`tree::Settle`), so tests and fuzz targets can check that the shortcut changes nothing.
#[cfg(any(test, feature = "internals"))]
#[doc(hidden)]
pub fn sanitize_html_every_pass(html: &str, opts: &SanitizeOptions) -> String {
    let mut s = Scratch::default();
    let Scratch { arena, passes: [a, b], tree, .. } = &mut s;
    Scratch::passes(html, opts, arena, a, b, tree, false).to_owned()
}

/// Test-only (feature `internals`, no semver promise): [`sanitize_text`] of an HTML value the
/// way it was first defined — its serialization sanitized, every pass run until the output
/// repeats — for tests and fuzz targets to compare with the shortcuts.
#[cfg(any(test, feature = "internals"))]
#[doc(hidden)]
pub fn sanitize_text_every_pass(t: &Text<'_>, opts: &SanitizeOptions) -> String {
    match t {
        Text::Plain(s) => escape_text(s),
        Text::Html(h) => sanitize_html_every_pass(&h.to_html_string(), opts),
    }
}

/// Sanitizes a model text value: an HTML value is serialized (HTML5), re-parsed and
/// rewritten (re-parsing matters: an Atom `xhtml` tree may nest elements in ways the HTML
/// parser would not, e.g. `<pre>` in `<p>`, and what must be checked is what a browser builds
/// from the serialization); a plain value is returned HTML-escaped, ready to insert.
pub fn sanitize_text(t: &Text<'_>, opts: &SanitizeOptions) -> String {
    match t {
        Text::Plain(s) => escape_text(s),
        Text::Html(h) => {
            let mut out = String::new();
            write_sanitized_html(h, opts, &mut out);
            out
        }
    }
}

/// [`sanitize_text`] of an HTML value appended to `out`: a `String` (the records' text
/// values, the Arrow columns), or the JSON sink's string, each byte escaped once for HTML
/// and JSON together.
pub(crate) fn write_sanitized_html(
    h: &Html<'_>,
    opts: &SanitizeOptions,
    out: &mut impl SanitizedOut,
) {
    with_scratch(|scratch| {
        scratch.sanitize_model_html(h, opts, out, |out, passed| {
            if let Some(passed) = passed {
                out.sanitized(passed);
            }
        })
    });
}

/// Where a sanitized HTML value is written: the pass computed from the tree writes through
/// [`HtmlOut`]; a value sanitized in the scratch's strings is handed over whole.
pub(crate) trait SanitizedOut: HtmlOut {
    /// The position of the end of what is written, for [`SanitizedOut::truncate`].
    fn end(&self) -> usize;
    /// Takes back what was written after `at`.
    fn truncate(&mut self, at: usize);
    /// Appends a sanitized value (HTML, written as this output writes HTML text it is
    /// handed as it is): what [`write_sanitized_html`] does with a value the passes left in
    /// their strings.
    fn sanitized(&mut self, html: &str);
    /// The HTML written after `from`, when this output holds it as HTML (a pass followed
    /// along its input, `tree::Settle`, compares it); `None` otherwise.
    fn html_since(&self, from: usize) -> Option<&str>;
    /// Appends the HTML written after `from` to `into` (as this output holds it: decoded).
    fn html_into(&self, from: usize, into: &mut String);
}

impl SanitizedOut for String {
    fn end(&self) -> usize {
        self.len()
    }
    fn truncate(&mut self, at: usize) {
        String::truncate(self, at);
    }
    fn sanitized(&mut self, html: &str) {
        self.push_str(html);
    }
    fn html_since(&self, from: usize) -> Option<&str> {
        Some(&self[from..])
    }
    fn html_into(&self, from: usize, into: &mut String) {
        into.push_str(&self[from..]);
    }
}

/// Escapes `&`, `<`, `>` (and the non-breaking space, as the HTML serializer does).
pub fn escape_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    escape_text_into(&mut out, s);
    out
}

/// [`escape_text`] appended to `out`: the HTML serializer's text escaping.
fn escape_text_into(out: &mut String, s: &str) {
    crate::html::html_escape(out, s, false);
}

/// The lol_html pass over a well-formed serialization. One handler for every element (one
/// `*` selector: compiling a selector list per value cost more than the matching), making
/// the decisions in this order: removed with content ([`is_removed`]), `form` unwrapped,
/// `iframe` kept only as an allowlisted embed, other names not on the allowlists unwrapped,
/// then the attributes of what is left cleaned.
fn rewrite(html: &str, opts: &SanitizeOptions) -> String {
    let settings = RewriteStrSettings::new()
        .append_element_content_handler(element!("*", |el| {
            let name = el.tag_name();
            let name = name.as_str();
            if is_removed(name) {
                el.remove();
                return Ok(());
            }
            if name == "form" {
                el.remove_and_keep_content();
                return Ok(());
            }
            if name == "iframe" {
                if !(opts.allow_video_embeds && keep_embed(el, opts)) {
                    el.remove();
                    return Ok(());
                }
            } else if !is_allowed(name) && !is_math_svg(name) {
                // Unknown or odd names (`scr<script`, custom elements): unwrap, keep text.
                el.remove_and_keep_content();
            }
            clean_attributes(el, opts);
            Ok(())
        }))
        .append_document_content_handler(doc_comments!(|c| {
            c.remove();
            Ok(())
        }));
    rewrite_str(html, settings).unwrap_or_default()
}

fn clean_attributes(el: &mut Element<'_, '_>, opts: &SanitizeOptions) {
    let attrs: Vec<(String, String)> =
        el.attributes().iter().map(|a| (a.name(), a.value())).collect();
    for (name, raw) in attrs {
        let lname = name.to_ascii_lowercase();
        // `url(…)` in an SVG presentation attribute (`fill`, `filter`, `mask`) can fetch.
        let fetches = raw.to_ascii_lowercase().contains("url(");
        if lname.starts_with("on") || is_drop_attr(&lname) || fetches {
            el.remove_attribute(&name);
        } else if lname == "srcset" {
            let v = safe_srcset(&raw, opts.base_url.as_ref());
            match within_url_budget(&raw, v, || safe_srcset(&raw, None)) {
                Some(v) => set(el, &name, &v),
                None => el.remove_attribute(&name),
            }
        } else if is_url_attr(&lname) {
            let v = safe_url(&raw, opts.base_url.as_ref());
            match within_url_budget(&raw, v, || safe_url(&raw, None)) {
                Some(v) => set(el, &name, &v),
                None => el.remove_attribute(&name),
            }
        }
    }
}

fn set(el: &mut Element<'_, '_>, name: &str, value: &str) {
    // lol_html escapes quotes only; the value must be attribute text.
    let escaped = value.replace('&', "&amp;");
    if el.set_attribute(name, &escaped).is_err() {
        el.remove_attribute(name);
    }
}

/// An allowlisted video embed: its `src` is made https, attributes are reduced to the
/// allowlist and a fixed sandbox is set. False → the caller removes the iframe.
fn keep_embed(el: &mut Element<'_, '_>, opts: &SanitizeOptions) -> bool {
    let Some(raw) = el.get_attribute("src") else { return false };
    let Some(src) = safe_url(&raw, opts.base_url.as_ref()) else { return false };
    let src = if let Some(rest) = src.strip_prefix("//") { format!("https://{rest}") } else { src };
    let Ok(mut url) = Url::parse(&src) else { return false };
    if !matches!(url.scheme(), "http" | "https") {
        return false;
    }
    let host = url.host_str().unwrap_or("").to_owned();
    let path = url.path().to_owned();
    let ok = match host.as_str() {
        "www.youtube.com" | "youtube.com" | "www.youtube-nocookie.com" | "youtube-nocookie.com" => {
            path.starts_with("/embed/")
        }
        "player.vimeo.com" => path.starts_with("/video/"),
        _ => false,
    };
    if !ok || url.set_scheme("https").is_err() {
        return false;
    }
    let keep = ["src", "width", "height", "title", "allowfullscreen", "frameborder"];
    let names: Vec<String> = el.attributes().iter().map(|a| a.name()).collect();
    for n in names {
        if !keep.contains(&n.to_ascii_lowercase().as_str()) {
            el.remove_attribute(&n);
        }
    }
    set(el, "src", url.as_str());
    let _ = el.set_attribute("sandbox", EMBED_SANDBOX);
    // The permissions a player needs, whatever the feed asked for (camera, microphone, …).
    let _ = el.set_attribute("allow", EMBED_ALLOW);
    // An iframe's content is raw text that a browser never shows (and that would be markup
    // wherever the value is inserted other than as HTML): not kept.
    el.set_inner_content("", lol_html::html_content::ContentType::Text);
    true
}

/// Decodes the character references of an attribute value as written in HTML source,
/// exactly as an HTML parser (and so a browser) decodes an attribute value: the full
/// named-reference table; a legacy name without `;` (`&amp`, `&nbsp`, …) unless an `=` or an
/// alphanumeric follows; numeric references (decimal or hex, any number of leading zeros,
/// `;` optional) with the C1 remapping (`&#x80;` is `€`) and U+FFFD for zero, surrogates and
/// values past U+10FFFF. Anything else stays as written. The scheme check decodes what the
/// browser will see, no more and no less.
///
/// ```
/// use feedmill::sanitize::decode_entities;
/// assert_eq!(decode_entities("javascript&#0000000058;x"), "javascript:x");
/// assert_eq!(decode_entities("&#x6A;ava&Tab;script&colon;"), "java\tscript:");
/// assert_eq!(decode_entities("&#99999999999;&#0;&bogus;"), "\u{FFFD}\u{FFFD}&bogus;");
/// // A name without `;` is decoded only if it is one of HTML's legacy names, and in an
/// // attribute not before `=` or an alphanumeric.
/// assert_eq!(decode_entities("javascript&colon"), "javascript&colon");
/// assert_eq!(decode_entities("?a=1&copy=2&copy;"), "?a=1&copy=2\u{A9}");
/// ```
pub fn decode_entities(s: &str) -> String {
    crate::html::decode_attribute_references(s).into_owned()
}

/// Whitespace, control and invisible format characters, removed before the scheme check.
fn is_invisible(c: char) -> bool {
    c.is_whitespace()
        || c.is_control()
        || matches!(c, '\u{AD}' | '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}')
}

/// Bytes resolving relative URLs may add to one HTML value beyond its own length: a relative
/// URL copies the base URL (a long WARC target URI), so without a budget thousands of
/// `href="x"` would multiply the output. Past it, relative URLs are kept relative. Within
/// the record's budget too ([`SanitizeOptions::max_url_growth`]): this only keeps one value
/// from taking all of it.
const URL_GROWTH: usize = 64 << 10;

thread_local! {
    /// What resolving relative URLs may still add to the HTML value being sanitized (set for
    /// each value by `Scratch::passes`; `None` outside one).
    static URL_BUDGET: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
    /// What it may still add to the record being encoded (set by [`RecordUrlBudget`]; `None`
    /// outside one).
    static RECORD_URL_BUDGET: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
    /// Set when a URL was kept relative for want of budget (read by
    /// `Scratch::sanitize_model_html`, whose first pass runs within a lower bound of the
    /// value's budget).
    static URL_REFUSED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The URL budget of one record while it is encoded ([`SanitizeOptions::max_url_growth`]):
/// made at the start of a record's encoding (JSON line or Arrow rows), lifted when dropped.
#[cfg(feature = "json")]
pub(crate) struct RecordUrlBudget(());

#[cfg(feature = "json")]
impl RecordUrlBudget {
    /// Starts the budget of a record sanitized with `opts`.
    pub(crate) fn start(opts: &SanitizeOptions) -> Self {
        RECORD_URL_BUDGET.with(|b| b.set(Some(opts.max_url_growth)));
        RecordUrlBudget(())
    }
}

#[cfg(feature = "json")]
impl Drop for RecordUrlBudget {
    fn drop(&mut self) {
        RECORD_URL_BUDGET.with(|b| b.set(None));
    }
}

/// `resolved`, the safe form of the URL attribute value `raw` resolved against a base, when
/// what it adds fits the value's URL budget (which it then uses up); else `unresolved()`, the
/// safe form kept relative.
pub(crate) fn within_url_budget(
    raw: &str,
    resolved: Option<String>,
    unresolved: impl FnOnce() -> Option<String>,
) -> Option<String> {
    let r = resolved?;
    if url_growth_fits(raw.len(), r.len()) {
        Some(r)
    } else {
        unresolved()
    }
}

/// Whether a URL attribute value `raw_len` bytes long may be replaced by its resolved form
/// `len` bytes long within the value's and the record's URL budgets (which it then uses up);
/// when not, the refusal is noted (`URL_REFUSED`) and the caller keeps the URL relative.
pub(crate) fn url_growth_fits(raw_len: usize, len: usize) -> bool {
    let growth = len.saturating_sub(raw_len);
    if growth == 0 {
        return true;
    }
    let value = URL_BUDGET.with(|b| b.get());
    let record = RECORD_URL_BUDGET.with(|b| b.get());
    let fits = |left: Option<usize>| left.is_none_or(|left| left >= growth);
    if !fits(value) || !fits(record) {
        URL_REFUSED.with(|r| r.set(true));
        return false;
    }
    URL_BUDGET.with(|b| b.set(value.map(|left| left - growth)));
    RECORD_URL_BUDGET.with(|b| b.set(record.map(|left| left - growth)));
    true
}

/// The safe form of a URL attribute value (raw, possibly with references), or `None` when it
/// must be dropped: decoded, invisible characters removed for the scheme check, a scheme (a
/// `:` before any `/`, `?`, `#`) must be one of `http`, `https`, `mailto`, `tel`, `ftp`;
/// relative references are resolved against `base`.
pub fn safe_url(raw: &str, base: Option<&Url>) -> Option<String> {
    let decoded = crate::html::decode_attribute_references(raw);
    if !has_safe_scheme(&decoded) {
        return None;
    }
    let value = decoded.trim_matches(|c: char| c.is_whitespace() || c.is_control());
    // An absolute `http(s)` URL already in its serialization resolves to itself against any
    // base (the invariant of `model::url`'s fast path), without the `url` crate's parse.
    if crate::model::url::is_canonical_http_url(value) {
        debug_assert!(base.is_none_or(|b| b.join(value).is_ok_and(|u| u.as_str() == value)));
        return Some(value.to_owned());
    }
    match base {
        Some(b) => {
            let u = b.join(value).ok()?;
            SAFE_SCHEMES.contains(&u.scheme()).then(|| u.as_str().to_owned())
        }
        None => Some(value.to_owned()),
    }
}

/// The scheme check of [`safe_url`] on the decoded value: with invisible characters
/// ([`is_invisible`]) removed, a `:` before any `/`, `?`, `#` makes what precedes it the
/// scheme, which must be on the allowlist (ASCII case-insensitive). One scan, no copy: the
/// scheme is at most as long as the longest allowed one, or it is not allowed.
fn has_safe_scheme(decoded: &str) -> bool {
    // The longest allowed scheme ("mailto").
    const MAX: usize = {
        let mut m = 0;
        let mut i = 0;
        while i < SAFE_SCHEMES.len() {
            if SAFE_SCHEMES[i].len() > m {
                m = SAFE_SCHEMES[i].len();
            }
            i += 1;
        }
        m
    };
    let mut scheme = [0u8; MAX];
    let mut len = 0usize; // characters seen before the ':' (visible ones)
    for c in decoded.chars() {
        match c {
            '/' | '?' | '#' => return true,
            ':' => {
                let s = &scheme[..len.min(MAX)];
                return len <= MAX && SAFE_SCHEMES.iter().any(|k| k.as_bytes() == s);
            }
            c if is_invisible(c) => {}
            c => {
                if len < MAX {
                    // Non-ASCII never matches an allowed scheme: 0 keeps it from matching.
                    scheme[len] = if c.is_ascii() { (c as u8).to_ascii_lowercase() } else { 0 };
                }
                len += 1;
            }
        }
    }
    true
}

/// `srcset`: each candidate's URL checked and resolved like [`safe_url`]; unsafe candidates
/// dropped; `None` when none remains. Candidates are split as the HTML Standard parses a
/// `srcset` (a comma inside a URL is the URL's: `img/w_100,h_100.png 1x` is one candidate)
/// and written `url descriptors`, joined by `, `.
pub fn safe_srcset(raw: &str, base: Option<&Url>) -> Option<String> {
    let decoded = decode_entities(raw);
    let mut out: Vec<String> = Vec::new();
    for (url, descriptors) in crate::html::urls::srcset_candidates(&decoded) {
        let (url, descriptors) = (&decoded[url], &decoded[descriptors]);
        // Already decoded: escape '&' so safe_url's decoding is the identity.
        if let Some(u) = safe_url(&url.replace('&', "&amp;"), base) {
            out.push(if descriptors.is_empty() { u } else { format!("{u} {descriptors}") });
        }
    }
    (!out.is_empty()).then(|| out.join(", "))
}

/// Whether a URL field's value is kept under strict sanitizing: the same decoding,
/// invisible-character removal and scheme allowlist as URL attributes ([`safe_url`]).
pub fn is_safe_url(v: &str) -> bool {
    // `safe_url(v, None)` is `Some` exactly when the scheme check passes; without its copy.
    has_safe_scheme(&crate::html::decode_attribute_references(v))
}

/// Strict sanitizing of a record's URL fields: every URL value of `feed` whose scheme is not
/// on the allowlist ([`is_safe_url`]: `javascript:`, `data:`, …) is removed — an optional
/// field becomes absent; an item whose URL is its point (a Podcast funding link, transcript
/// or chapters file) is removed. Returns whether anything was removed.
///
/// The fields: the feed's `page_url`, `feed_url`, `prev_feed_url`, `next_feed_url`, `icon`,
/// `logo`, RSS `image` `url` and `link`, `generator` `uri`, `itunes:new-feed-url`, `docs`,
/// `textInput` `link`, Podcast funding, other Atom links (removed); every person's
/// `page_url`, icon, Podcast `img` and `href`; every entry's `page_url`, thumbnail,
/// enclosures, `comments`, `wfw:commentRss`, `source` `url`, `thr:in-reply-to` `href` and
/// `source`, Media
/// RSS content `url` and player (removed), other Atom links (removed), Podcast transcripts
/// and chapters; the Podcast namespace's other URLs: remote items' `feedUrl` (channel,
/// podroll, publisher, value time splits), trailer and license `url`, images (removed),
/// alternate enclosure sources (removed: so an `ipfs:` source too), social interact `uri`
/// and `accountUrl`, content link `href`.
pub fn drop_unsafe_urls(feed: &mut crate::Feed<'_>) -> bool {
    // Cleared fields counted in a cell, so the removals below can count as well.
    let dropped = std::cell::Cell::new(false);
    let opt = |v: &mut Option<&str>| {
        if v.is_some_and(|u| !is_safe_url(u)) {
            *v = None;
            dropped.set(true);
        }
    };
    opt(&mut feed.page_url);
    opt(&mut feed.feed_url);
    opt(&mut feed.prev_feed_url);
    opt(&mut feed.next_feed_url);
    for i in [&mut feed.icon, &mut feed.logo].into_iter().flatten() {
        opt(&mut i.url);
    }
    if let Some(i) = &mut feed.image {
        opt(&mut i.url);
        opt(&mut i.link);
    }
    if let Some(g) = &mut feed.generator {
        opt(&mut g.uri);
    }
    opt(&mut feed.itunes.new_feed_url);
    opt(&mut feed.docs);
    if let Some(t) = &mut feed.text_input {
        opt(&mut t.link);
    }
    let links = |ls: &mut Vec<crate::model::ext::Link<'_>>| {
        let before = ls.len();
        ls.retain(|l| is_safe_url(l.url));
        if ls.len() != before {
            dropped.set(true);
        }
    };
    links(&mut feed.links);
    let persons = |ps: &mut [crate::Person<'_>]| {
        for p in ps {
            opt(&mut p.page_url);
            if let Some(i) = &mut p.icon {
                opt(&mut i.url);
            }
        }
    };
    persons(&mut feed.authors);
    persons(&mut feed.contributors);
    for p in &mut feed.podcast.persons {
        opt(&mut p.img);
        opt(&mut p.href);
    }
    let images = |ims: &mut Vec<crate::model::ext::PodcastImage<'_>>| {
        let before = ims.len();
        ims.retain(|i| is_safe_url(i.href));
        if ims.len() != before {
            dropped.set(true);
        }
    };
    // The URLs of the elements the channel and an item share.
    let shared = |licence: &mut Option<crate::model::ext::PodcastLicense<'_>>,
                  values: &mut [crate::model::ext::PodcastValue<'_>],
                  social: &mut [crate::model::ext::PodcastSocialInteract<'_>]| {
        if let Some(l) = licence {
            opt(&mut l.url);
        }
        for split in values.iter_mut().flat_map(|v| &mut v.time_splits) {
            if let Some(r) = &mut split.remote_item {
                opt(&mut r.feed_url);
            }
        }
        for s in social {
            opt(&mut s.uri);
            opt(&mut s.account_url);
        }
    };
    {
        let pc = &mut feed.podcast;
        images(&mut pc.images);
        shared(&mut pc.license, &mut pc.values, &mut pc.social_interacts);
        for t in &mut pc.trailers {
            opt(&mut t.url);
        }
        let remote = pc.remote_items.iter_mut().chain(&mut pc.podroll).chain(&mut pc.publisher);
        for r in remote {
            opt(&mut r.feed_url);
        }
    }
    for e in &mut feed.entries {
        opt(&mut e.page_url);
        if let Some(i) = &mut e.thumbnail {
            opt(&mut i.url);
        }
        for x in &mut e.enclosures {
            opt(&mut x.url);
        }
        opt(&mut e.comments);
        opt(&mut e.comment_feed_url);
        links(&mut e.links);
        for r in &mut e.in_reply_to {
            opt(&mut r.url);
            opt(&mut r.source);
        }
        if let Some(m) = &mut e.media {
            for c in &mut m.contents {
                opt(&mut c.url);
            }
            if m.player.as_ref().is_some_and(|p| !is_safe_url(p.url)) {
                m.player = None;
                dropped.set(true);
            }
        }
        if let Some(s) = &mut e.source {
            opt(&mut s.url);
        }
        persons(&mut e.authors);
        persons(&mut e.contributors);
        if let Some(pc) = &mut e.podcast {
            for p in &mut pc.persons {
                opt(&mut p.img);
                opt(&mut p.href);
            }
            let before = pc.transcripts.len();
            pc.transcripts.retain(|t| is_safe_url(t.url));
            if pc.transcripts.len() != before {
                dropped.set(true);
            }
            if pc.chapters.is_some_and(|c| !is_safe_url(c.url)) {
                pc.chapters = None;
                dropped.set(true);
            }
            images(&mut pc.images);
            shared(&mut pc.license, &mut pc.values, &mut pc.social_interacts);
            for a in &mut pc.alternate_enclosures {
                let before = a.sources.len();
                a.sources.retain(|s| is_safe_url(s.uri));
                if a.sources.len() != before {
                    dropped.set(true);
                }
            }
            for c in &mut pc.content_links {
                opt(&mut c.href);
            }
        }
    }
    let before = feed.podcast.funding.len();
    feed.podcast.funding.retain(|f| is_safe_url(f.url));
    dropped.get() || feed.podcast.funding.len() != before
}
