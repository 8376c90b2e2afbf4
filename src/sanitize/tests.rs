//! The sanitizer's fast paths against their definitions: the tree computation of the
//! lol_html pass against lol_html itself, and the one-scan scheme check against the
//! definition by copy (decode, remove invisible characters, split at the first `:`).

use bumpalo::Bump;
use url::Url;

use super::{
    decode_entities, is_invisible, rewrite, safe_url, tree, SanitizeOptions, SAFE_SCHEMES,
};
use crate::model::Text;

/// Deterministic random picks from `pieces` ([`crate::test_rng`]); `.1` is the last number
/// drawn.
struct Gen<R>(R, u64);

impl<R: FnMut() -> u64> Gen<R> {
    /// The next random number, kept in `self.1` (a generator's later choices may read it).
    fn next(&mut self) -> u64 {
        self.1 = (self.0)();
        self.1
    }

    fn pick<'p>(&mut self, pieces: &[&'p str]) -> &'p str {
        pieces[(self.next() % pieces.len() as u64) as usize]
    }
}

/// `safe_url` as first written: the scheme is looked up in a copy with every invisible
/// character removed.
fn safe_url_reference(raw: &str, base: Option<&Url>) -> Option<String> {
    let decoded = decode_entities(raw);
    let compact: String = decoded.chars().filter(|&c| !is_invisible(c)).collect();
    let end = compact.find(['/', '?', '#']).unwrap_or(compact.len());
    if let Some(colon) = compact[..end].find(':') {
        let scheme = compact[..colon].to_ascii_lowercase();
        if !SAFE_SCHEMES.contains(&scheme.as_str()) {
            return None;
        }
    }
    let value = decoded.trim_matches(|c: char| c.is_whitespace() || c.is_control());
    match base {
        Some(b) => {
            let u = b.join(value).ok()?;
            SAFE_SCHEMES.contains(&u.scheme()).then(|| u.as_str().to_owned())
        }
        None => Some(value.to_owned()),
    }
}

#[test]
fn safe_url_matches_its_definition() {
    let pieces = [
        "http",
        "HTTPS",
        "mailto",
        "MailTo",
        "tel",
        "ftp",
        "javascript",
        "java",
        "script",
        "data",
        "https1",
        "mailtox",
        ":",
        ":",
        "/",
        "?",
        "#",
        " ",
        "\t",
        "\u{0}",
        "\u{AD}",
        "\u{200B}",
        "\u{FEFF}",
        "&#58;",
        "&colon;",
        "&#x3A;",
        "&Tab;",
        "&amp;",
        "&nbsp;",
        "&colon",
        "&copy",
        "=",
        "&#x80;",
        "&DoubleRightArrow;",
        "é",
        "x",
        "a.b",
        "//host",
        "%3A",
        "\u{130}",
        // Absolute http(s) URLs, canonical or nearly (the fast path's edges).
        "https://a.example/",
        "http://b.example/p",
        "http://c.example",
        "HTTP://D.example/",
        ".",
        "..",
        "%2e",
        "?q=1",
        "#f",
        ":80",
        "\\",
        "xn--",
        "1",
    ];
    let base = Url::parse("https://base.example/dir/page").unwrap();
    let mut g = Gen(crate::test_rng(0x2545_F491_4F6C_DD1D), 0);
    for len in 0..8 {
        for _ in 0..3000 {
            let s: String = (0..len).map(|_| g.pick(&pieces)).collect();
            assert_eq!(safe_url(&s, None), safe_url_reference(&s, None), "{s:?}");
            assert_eq!(safe_url(&s, Some(&base)), safe_url_reference(&s, Some(&base)), "{s:?}");
        }
    }
    assert_eq!(safe_url("mailto:a@b.example", None).as_deref(), Some("mailto:a@b.example"));
    assert_eq!(safe_url("java\u{200B}script:x", None), None);
    assert_eq!(safe_url("ftps:x", None), None);
}

/// The URL check decodes an attribute value exactly as the HTML parser does: for generated
/// raw values, `decode_entities` equals the value html5ever gives the attribute.
#[test]
fn decode_entities_matches_the_html_parser() {
    let pieces = [
        "x",
        "=",
        ";",
        "#",
        "&",
        "&amp",
        "&amp;",
        "&ampx",
        "&amp=",
        "&colon",
        "&colon;",
        "&copy",
        "&not",
        "&notin;",
        "&noti",
        "&#",
        "&#x",
        "&#58",
        "&#x3a;",
        "&#0;",
        "&#x80;",
        "&#x81;",
        "&#xD800;",
        "&#1114112;",
        "&#00000000065;",
        "&DoubleRightArrow;",
        "&bogus;",
        "&Tab;",
        "é",
        "&#128512;",
        " ",
        "1",
    ];
    let mut g = Gen(crate::test_rng(0x9E37_79B9_7F4A_7C15), 0);
    for len in 1..7 {
        for _ in 0..2000 {
            let raw: String = (0..len).map(|_| g.pick(&pieces)).collect();
            let arena = Bump::new();
            let html = format!("<a title=\"{raw}\">t</a>");
            let Some(Text::Html(h)) = crate::html::parse_escaped_html_reference(&arena, &html)
            else {
                panic!("{html:?} did not parse to HTML");
            };
            let parsed = h.nodes().iter().find_map(|n| match n.kind {
                crate::html::NodeKind::Element(e) => e.attrs.first().map(|a| a.value),
                _ => None,
            });
            assert_eq!(Some(decode_entities(&raw).as_str()), parsed, "{raw:?}");
        }
    }
}

/// One pass both ways over `html`: (lol_html, tree) when the tree computation covers it.
fn both(html: &str, opts: &SanitizeOptions) -> Option<(String, String)> {
    let arena = Bump::new();
    let Some(Text::Html(h)) = crate::html::parse_escaped_html(&arena, html) else { return None };
    let mut out = String::new();
    tree::rewrite_tree(
        h.nodes(),
        opts,
        &mut tree::Buffers::default(),
        &mut out,
        &mut tree::Settle::new(""),
    )
    .then(|| (rewrite(&h.to_html_string(), opts), out))
}

/// The default options, and the same with a base URL (relative URLs resolved).
pub(crate) fn without_and_with_base() -> [SanitizeOptions; 2] {
    [
        SanitizeOptions::default(),
        SanitizeOptions {
            base_url: Some(Url::parse("https://base.example/dir/page.html").unwrap()),
            allow_video_embeds: false,
            ..SanitizeOptions::default()
        },
    ]
}

/// `count` random tag soups over the names, attributes, values and texts the sanitizer's
/// decisions turn on (deterministic).
pub(crate) fn soups(count: usize) -> Vec<String> {
    let tags = [
        "a",
        "b",
        "p",
        "div",
        "span",
        "pre",
        "listing",
        "table",
        "tr",
        "td",
        "img",
        "br",
        "li",
        "ul",
        "blockquote",
        "code",
        "video",
        "source",
        "picture",
        "wbr",
        "mi",
        "g",
        "text",
        "custom-el",
        "o:p",
        "label",
        "area",
        "param",
        "basefont",
        "nobr",
        "script",
        "style",
        // Removed: with raw text content (iframe unless embeds are kept), void, with content.
        "iframe",
        "embed",
        "input",
        "meta",
        "link",
        "object",
        "button",
        "applet",
    ];
    // Elements the tree computation declines, picked less often.
    let declined =
        ["form", "svg", "math", "textarea", "noscript", "select", "template", "xmp", "title"];
    let attrs = [
        "href",
        "src",
        "srcset",
        "onclick",
        "style",
        "poster",
        "cite",
        "xlink:href",
        "width",
        "height",
        "title",
        "class",
        "fill",
        "hidden",
        "controls",
        "data",
        "ping",
        "lang",
    ];
    let values = [
        "javascript:alert(1)",
        "JaVa&#x53;cript:x",
        "java\tscript:1",
        "http://ok.example/a?b=1&amp;c=2",
        // Already in their serialization (written as serialized), or with a CSS `url(`.
        "https://ok.example/p/q?x=1&amp;y=2#f",
        "https://ok.example/url(x)",
        "/rel/path",
        "//www.youtube.com/embed/abc",
        "data:text/html,x",
        "url(#x)",
        "URL( x )",
        "1",
        "  mailto:a@b ",
        "a.jpg 1x, javascript:x 2x, b.png 2w",
        "&quot;q&quot;",
        "&lt;&gt;",
        "x&nbsp;y",
        "tel:+1",
        "rel?a=&amp;amp;",
        "javascript&colon;x",
        "javascript&colon",
        "&DoubleRightArrow;x",
        "?a=1&copy=2&copy",
        "&#x80;x&#0000000058;",
        "\u{feff}x.gif",
        "\u{feff}\u{feff}java\u{feff}script:x",
        "",
    ];
    let texts = [
        "hello",
        "\n",
        "\nfoo",
        "  ",
        "x&amp;y",
        "&lt;script&gt;",
        "a<b",
        "\u{A0}",
        "<!-- c -->",
        "<!-- a > b -->",
        "&",
        "</p>",
        "<br/>",
        "text with spaces",
        "<?pi x?>",
        "</object>",
    ];
    let mut g = Gen(crate::test_rng(0x9E37_79B9_7F4A_7C15), 0);
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        let mut s = String::new();
        let mut open = Vec::new();
        for _ in 0..12 {
            match g.pick(&["open", "open", "close", "text", "text"]) {
                "open" => {
                    let t = if g.1.is_multiple_of(16) { g.pick(&declined) } else { g.pick(&tags) };
                    s += &format!("<{t}");
                    for _ in 0..(g.1 % 3) {
                        s += &format!(" {}=\"{}\"", g.pick(&attrs), g.pick(&values));
                    }
                    s.push('>');
                    open.push(t);
                }
                "close" => {
                    if let Some(t) = open.pop() {
                        s += &format!("</{t}>");
                    }
                }
                _ => s += g.pick(&texts),
            }
        }
        out.push(s);
    }
    out
}

#[test]
fn tree_rewrite_matches_lol_html() {
    let opts = [
        SanitizeOptions::default(),
        SanitizeOptions {
            base_url: Some(Url::parse("https://base.example/dir/page.html").unwrap()),
            allow_video_embeds: true,
            ..SanitizeOptions::default()
        },
    ];
    let (mut covered, mut total) = (0, 0);
    for s in soups(6000) {
        for o in &opts {
            total += 1;
            if let Some((lol, tree)) = both(&s, o) {
                covered += 1;
                assert_eq!(tree, lol, "{s:?}");
            }
        }
    }
    // The comparison is only meaningful if the tree computation covers a good share.
    assert!(covered * 4 > total, "covered {covered} of {total}");
}

/// A pass that knows its output is its own fixed point (`tree::Settle`) is the last: the
/// result is the one of running passes until the output repeats, on tag soups against no
/// base, a plain base, and a base whose path holds `,` and `url(` (which a resolved URL then
/// carries).
#[test]
fn settled_pass_is_the_last() {
    let opts = [
        SanitizeOptions::default(),
        SanitizeOptions {
            base_url: Some(Url::parse("https://base.example/dir/page.html").unwrap()),
            allow_video_embeds: false,
            ..SanitizeOptions::default()
        },
        SanitizeOptions {
            base_url: Some(Url::parse("http://b.example/url(x/a,b/p").unwrap()),
            allow_video_embeds: true,
            ..SanitizeOptions::default()
        },
    ];
    let extra = [
        "<p title=\"a&#13;b\" href=\"x&#13;y\">t</p>",
        "<a href=\"&#xFEFF;&#xFEFF;x\">t</a>",
        "<a href=\" /a \" style=x>t</a>",
        "<img src=\"a,b.png\" srcset=\"c.png 1x\">",
        "<a href=\"url(x)\" onclick=x>t</a>",
        "<audio controls=\"url(x)\"></audio>",
        "<div hidden=\"url(x)\">t</div>",
        "<pre style=x>\nfoo</pre>",
        "<h1><x-el><h2>t</h2></x-el></h1>",
        "<pre><!--c-->\nfoo</pre>",
        "<b style=x><p>a</b>b</p>",
        "<table><tr><td style=x>a</td></tr></table>",
    ];
    let (mut settled, mut changed) = (0, 0);
    // Each soup as written and as serialized (a model value's serialization is what the
    // sanitizer is handed, and only a serialization can be known to be settled).
    let mut inputs = Vec::new();
    for soup in soups(3000).into_iter().chain(extra.map(str::to_owned)) {
        let arena = Bump::new();
        if let Some(Text::Html(h)) = crate::html::parse_escaped_html(&arena, &soup) {
            inputs.push(h.to_html_string());
        }
        inputs.push(soup);
    }
    for html in inputs.iter().map(String::as_str) {
        for o in &opts {
            assert_eq!(
                super::sanitize_html(html, o),
                super::sanitize_html_every_pass(html, o),
                "{html:?} against {:?}",
                o.base_url
            );
            let (mut arena, mut buffers, mut out) =
                (Bump::new(), tree::Buffers::default(), String::new());
            let known = super::sanitize_once(html, o, &mut arena, &mut buffers, &mut out);
            if out != html {
                changed += 1;
                settled += usize::from(known);
            }
        }
    }
    // Meaningful only if the shortcut is taken (most soups hold something removed or
    // unwrapped, which the shortcut leaves to the next pass).
    assert!(settled >= 50, "settled {settled} of {changed} changed");
}

/// Removed elements the tree computation covers, where lol_html's removal must end exactly at
/// the element's end in the serialization (and the fragments around them it must decline).
#[test]
fn tree_removal_matches_lol_html() {
    let covered = [
        "a<object data=x><p>in</p><object>nested</object><b>b</b></object>after",
        "<p>x<embed src=javascript:1>y<input value=1>z</p>",
        "<meta charset=utf-8><link rel=x href=y>text",
        "a<iframe src=//evil.example>fallback text</iframe>b",
        "<button>click <b>me</b><script>1</script></button>rest<i>i</i>",
        "<div><applet code=x><param name=a>t</applet></div>",
        "<object><!-- c --><br>x</object><p>after</p>",
    ];
    let declined = [
        // Tokenizer switches inside removed content.
        "<object><plaintext>x</object>y",
        "<object><script>a<b</script></object>after",
        "<object><svg><style>x</style></svg></object>z",
        "<button><textarea>t</textarea></button>",
        "<iframe>a<b</iframe>c",
        "<object><!-- a > b --></object>",
    ];
    let opts = SanitizeOptions::default();
    for html in covered {
        let (lol, tree) = both(html, &opts).unwrap_or_else(|| panic!("declined {html:?}"));
        assert_eq!(tree, lol, "{html:?}");
    }
    for html in declined {
        if let Some((lol, tree)) = both(html, &opts) {
            panic!("covered {html:?}: tree {tree:?}, lol_html {lol:?}");
        }
    }
    // With embeds allowed, which iframe is kept is lol_html's decision: declined.
    let embeds = SanitizeOptions { allow_video_embeds: true, ..SanitizeOptions::default() };
    assert!(both("a<iframe src=//evil.example>t</iframe>b", &embeds).is_none());
}

/// A model value whose tree the HTML parser builds back from its serialization
/// (`tree::reparses_as_itself`) is sanitized from the tree: the same bytes as its
/// serialization sanitized with every pass run; and the trees the check accepts do come back
/// from their serialization.
#[test]
fn model_values_sanitized_from_their_tree() {
    let opts = without_and_with_base();
    let extra = [
        "<p>a<b>b<i>c</i></b> <a href=/x style=c>d</a></p><ul><li>e<li>f</ul>",
        "<div><p>x</p><h1>t</h1><pre>\n\ny</pre><dl><dt>a<dd>b</dl></div>",
        "<p>a<img src=a.png width=2>b<br>c<!-- note --></p>",
        "<b><b><b><b>x</b></b></b></b>y",
        "<blockquote cite=q><p>q</p></blockquote><hr><span>&amp;&lt;&nbsp;</span>",
    ];
    let (mut accepted, mut total) = (0, 0);
    for soup in soups(3000).iter().map(String::as_str).chain(extra) {
        let arena = Bump::new();
        let Some(t @ Text::Html(h)) = crate::html::parse_escaped_html(&arena, soup) else {
            continue;
        };
        total += 1;
        if tree::reparses_as_itself(h.nodes()) {
            accepted += 1;
            let html = h.to_html_string();
            let again = crate::html::parse_escaped_html(&arena, &html);
            let again = match again {
                Some(Text::Html(g)) => g.to_html_string(),
                Some(Text::Plain(p)) => super::escape_text(p),
                None => String::new(),
            };
            assert_eq!(again, html, "{soup:?} does not re-parse as itself");
        }
        for o in &opts {
            assert_eq!(
                super::sanitize_text(&t, o),
                super::sanitize_text_every_pass(&t, o),
                "{soup:?} against {:?}",
                o.base_url
            );
        }
    }
    assert!(accepted * 10 > total, "accepted {accepted} of {total}");
}

/// A first pass over a model value's tree (`tree::reparses_as_itself`) that only unwrapped or
/// removed elements and removed comments, besides settled attribute changes, is the last when
/// `tree::output_reparses_as_itself` holds: its output is then its own next pass. The check
/// must also be taken often enough to matter.
#[test]
fn restructured_pass_known_last() {
    let opts = without_and_with_base();
    let extra = [
        // A `pre`'s newline after a removed comment or an unwrapped element: the next parse
        // drops it.
        "<pre><!--c-->\nfoo</pre>",
        "<pre><x-el>\nfoo</x-el></pre>",
        "<pre><x-el></x-el>\nfoo</pre>",
        "<pre>\nfoo<!--c--></pre>",
        "<div><listing>\n\nx</listing>y</div>",
        // `hidden` on an unwrapped element no longer hides its text; on a kept one it does.
        "<div><x-el hidden>text</x-el></div>",
        "<div hidden>a<x-el>b</x-el></div>",
        "<a href=x>a<x-el>b</x-el></a><b>c<script>1</script>d</b>",
        "<p>a<!--c-->b<script>x</script>c</p>",
        "<table><tbody><tr><td>a<script>1</script></td></tr></tbody></table>",
        "<ul><li>a<object>o</object></li></ul><x-el><p>p</p></x-el>",
    ];
    let (mut known, mut restructured) = (0, 0);
    for soup in soups(3000).iter().map(String::as_str).chain(extra) {
        let arena = Bump::new();
        let Some(Text::Html(h)) = crate::html::parse_escaped_html(&arena, soup) else {
            continue;
        };
        if !tree::reparses_as_itself(h.nodes()) {
            continue;
        }
        for o in &opts {
            let (mut out, mut settle) = (String::new(), tree::Settle::trusted());
            let mut buffers = tree::Buffers::default();
            if !tree::rewrite_tree(h.nodes(), o, &mut buffers, &mut out, &mut settle)
                || !settle.restructured_only()
            {
                continue;
            }
            restructured += 1;
            if tree::output_reparses_as_itself(h.nodes(), o) {
                known += 1;
                assert_eq!(
                    super::sanitize_html_every_pass(&out, o),
                    out,
                    "{soup:?} against {:?}",
                    o.base_url
                );
            }
        }
    }
    assert!(known >= 100, "known last: {known} of {restructured} restructured");
}

/// Over a trusted input (`tree::Settle::trusted`), `tree::rewrite_tree` checks the re-parse
/// rules as it rewrites: it covers a fragment exactly when the tree reads back as itself
/// (`tree::reparses_as_itself`, their definition) and the rewrite over an input it follows
/// covers it, and then writes the same bytes.
#[test]
fn trusted_rewrite_checks_the_reparse_rules() {
    let extra = [
        // Removed subtrees, whose nodes a walk of their own checks.
        "<object><p>a</p><p>b</p></object>c",
        "<p><object><div>x</div></object></p>",
        "<p><object><span>x</span></object></p>",
        "<a href=x><object><a>y</a></object></a>",
        "<object><a>1</a><a>2</a></object><a>3</a>",
        "<table><tbody><tr><td><applet>x<b>y</b></applet></td></tr></tbody></table>",
        "<object><table><tbody><tr><td>z</td></tr></tbody></table></object>",
        "<object><!--c--><script>1</script>\r</object>",
        "<object><li>x</li></object><ul><li><object>y</object></li></ul>",
        "<div><script></script><style>a</style></div><p><script>a<b</script></p>",
    ];
    let (mut covered, mut total) = (0, 0);
    for soup in soups(4000).iter().map(String::as_str).chain(extra) {
        let arena = Bump::new();
        let Some(Text::Html(h)) = crate::html::parse_escaped_html(&arena, soup) else {
            continue;
        };
        for o in &without_and_with_base() {
            total += 1;
            let mut buffers = tree::Buffers::default();
            let (mut fused, mut followed) = (String::new(), String::new());
            let trusted = tree::rewrite_tree(
                h.nodes(),
                o,
                &mut buffers,
                &mut fused,
                &mut tree::Settle::trusted(),
            );
            let plain = tree::rewrite_tree(
                h.nodes(),
                o,
                &mut buffers,
                &mut followed,
                &mut tree::Settle::new(""),
            );
            assert_eq!(trusted, plain && tree::reparses_as_itself(h.nodes()), "{soup:?}");
            if trusted {
                covered += 1;
                assert_eq!(fused, followed, "{soup:?}");
            }
        }
    }
    assert!(covered * 10 > total, "covered {covered} of {total}");
}

/// Over a trusted input, `tree::rewrite_tree` reads the fragment's significance in its own
/// walk (the nodes it visits, and the ranges it skips: removed content, a void element's
/// children); it holds to `significance_if_clean`, the separate scan, on random trees built
/// directly as an XML-built value can be — void elements with children, HTML 1×1 images and
/// templates at any depth, `hidden` and `script`/`style` subtrees, texts of spaces only:
/// the trusted rewrite covers exactly when the followed one covers and
/// `tree::reparses_as_itself` holds (with `significance_if_clean(..) == Some(true)`).
#[test]
fn trusted_rewrite_reads_the_significance() {
    use crate::model::fragment::{Attribute, Element, Node, NodeKind, HTML_NS};
    let attr = |local, value| Attribute { namespace: "", prefix: None, local, value };
    let one_by_one = [attr("width", "1"), attr("height", "1")];
    let hidden = [attr("hidden", "")];
    let controls = [attr("controls", "")];
    let attr_lists: [&[Attribute<'_>]; 5] = [&[], &[], &one_by_one, &hidden, &controls];
    let names = [
        "p",
        "b",
        "span",
        "div",
        "img",
        "br",
        "source",
        "embed",
        "input",
        "object",
        "applet",
        "script",
        "style",
        "iframe",
        "template",
        "video",
        "audio",
        "hr",
        "a",
        "custom-el",
    ];
    let texts = ["x", " ", "\n", "y z", "\u{a0}"];
    let mut g = Gen(crate::test_rng(0x51C7_4A11_0F00_D5E1), 0);
    let (mut declined_for_significance, mut covered, mut total) = (0, 0, 0);
    for _ in 0..6000 {
        let mut nodes: Vec<Node<'_>> = Vec::new();
        let mut open: Vec<usize> = Vec::new();
        for _ in 0..1 + g.next() % 9 {
            match g.pick(&["open", "open", "close", "text", "text", "comment"]) {
                "open" => {
                    let local = g.pick(&names);
                    let attrs = attr_lists[(g.1 / 64 % attr_lists.len() as u64) as usize];
                    let e = Element { namespace: HTML_NS, prefix: None, local, attrs };
                    open.push(nodes.len());
                    nodes.push(Node { kind: NodeKind::Element(e), end: 0 });
                }
                "close" => {
                    if let Some(at) = open.pop() {
                        nodes[at].end = nodes.len() as u32;
                    }
                }
                "text" => {
                    let t = g.pick(&texts);
                    let end = nodes.len() as u32 + 1;
                    nodes.push(Node { kind: NodeKind::Text(t), end });
                }
                _ => {
                    let end = nodes.len() as u32 + 1;
                    nodes.push(Node { kind: NodeKind::Comment("c"), end });
                }
            }
        }
        for at in open {
            nodes[at].end = nodes.len() as u32;
        }
        for o in &without_and_with_base() {
            total += 1;
            let mut buffers = tree::Buffers::default();
            let (mut fused, mut followed) = (String::new(), String::new());
            let trusted = tree::rewrite_tree(
                &nodes,
                o,
                &mut buffers,
                &mut fused,
                &mut tree::Settle::trusted(),
            );
            let plain = tree::rewrite_tree(
                &nodes,
                o,
                &mut buffers,
                &mut followed,
                &mut tree::Settle::new(""),
            );
            let significance = crate::html::significance_if_clean(&nodes);
            assert_eq!(trusted, plain && tree::reparses_as_itself(&nodes), "{nodes:?}");
            if plain && significance != Some(true) {
                declined_for_significance += 1;
                assert!(!trusted, "{nodes:?}");
            }
            if trusted {
                covered += 1;
                assert_eq!(significance, Some(true), "{nodes:?}");
                assert_eq!(fused, followed, "{nodes:?}");
            }
        }
    }
    assert!(covered * 10 > total, "covered {covered} of {total}");
    assert!(declined_for_significance * 10 > total, "{declined_for_significance} of {total}");
}

/// The children of an HTML void element are not content: the HTML serialization never
/// writes them, so they can't make a value significant, in the default mode (the tree's
/// significance) as in the strict one (the definition sanitizes the serialization, and an
/// empty fragment gives no value). An Atom `xhtml` tree (parsed as XML) can give `br` or
/// `source` children; the HTML parser never does (escaped HTML keeps such text beside the
/// element).
#[test]
fn void_children_are_not_content() {
    // (content type, content, the default mode's value, the strict mode's value)
    let cases: [(&str, &str, Option<&str>, Option<&str>); 8] = [
        ("xhtml", "<br>x</br><source></source>", None, None),
        ("xhtml", "<source>visible?</source>", None, None),
        ("xhtml", "<p>a</p><br>x</br>", Some("<p>a</p><br>"), Some("<p>a</p><br>")),
        (
            "xhtml",
            "<img src='/i.png'>alt</img>",
            Some("<img src=\"/i.png\">"),
            Some("<img src=\"/i.png\">"),
        ),
        ("xhtml", "<hr><b>y</b></hr>", None, None),
        ("xhtml", "<br/>z", Some("<br>z"), Some("<br>z")),
        (
            "html",
            "&lt;br&gt;x&lt;/br&gt;&lt;source&gt;&lt;/source&gt;",
            Some("<br>x<br><source>"),
            Some("<br>x<br><source>"),
        ),
        (
            "html",
            "&lt;source&gt;visible?&lt;/source&gt;",
            Some("<source>visible?"),
            Some("<source>visible?"),
        ),
    ];
    let strict = SanitizeOptions::default();
    for (ty, content, default_want, strict_want) in cases {
        let body = if ty == "xhtml" {
            format!("<div xmlns='http://www.w3.org/1999/xhtml'>{content}</div>")
        } else {
            content.to_string()
        };
        let doc = format!(
            "<feed xmlns='http://www.w3.org/2005/Atom'><entry><id>i</id>\
             <content type='{ty}'>{body}</content></entry></feed>"
        );
        let mut parser = crate::Parser::new(crate::Options::default());
        let parsed = parser.parse_str(&doc, None).unwrap();
        let value = parsed.feed.as_ref().unwrap().entries[0].content.as_ref();
        let default_value = value.map(|t| match t {
            Text::Plain(p) => p.to_string(),
            Text::Html(h) => h.to_html_string(),
        });
        let strict_value =
            value.map(|t| super::sanitize_text(t, &strict)).filter(|v| !v.is_empty());
        let defined =
            value.map(|t| super::sanitize_text_every_pass(t, &strict)).filter(|v| !v.is_empty());
        assert_eq!(default_value.as_deref(), default_want, "default: {content:?}");
        assert_eq!(strict_value.as_deref(), strict_want, "strict: {content:?}");
        assert_eq!(strict_value, defined, "strict against its definition: {content:?}");
        // The strict JSON line (sanitized straight into the sink) holds the same value.
        let rec = crate::sink::RecordView {
            sanitize: Some(&strict),
            ..crate::sink::RecordView::parsed("s", None, &parsed)
        };
        let mut line = Vec::new();
        crate::sink::json::encode_record(&mut line, &rec);
        let line = String::from_utf8(line).unwrap();
        match strict_want {
            Some(v) => {
                let mut want = b"\"content\":".to_vec();
                crate::sink::json::json_str(&mut want, v);
                assert!(line.contains(std::str::from_utf8(&want).unwrap()), "{line}");
            }
            None => assert!(!line.contains("\"content\""), "{line}"),
        }
    }
}
