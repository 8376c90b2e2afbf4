//! Unit tests: every HTML-related expectation of the conformance suite, plus edge cases.

use bumpalo::Bump;

use super::*;

const X: &str = HTML_NS;

#[derive(Debug)]
enum Exp {
    None,
    Plain(&'static str),
    Xml(&'static str),
}

fn xml(s: &str) -> String {
    s.replace("XHTML", &format!("xmlns=\"{X}\""))
}

fn check(input: &str, exp: &Exp) {
    let arena = Bump::new();
    let input = arena.alloc_str(input);
    let got = parse_escaped_html(&arena, input);
    match (exp, &got) {
        (Exp::None, None) => {}
        (Exp::Plain(p), Some(Text::Plain(g))) if p == g => {}
        (Exp::Xml(x), Some(Text::Html(h))) if xml(x) == h.to_xml_string() => {}
        _ => panic!(
            "input {input:?}: expected {exp:?}, got {got:?} (xml {:?})",
            match &got {
                Some(Text::Html(h)) => h.to_xml_string(),
                _ => String::new(),
            }
        ),
    }
}

/// (escaped text as the caller passes it, i.e. XML-unescaped; expected result)
/// Each row is taken from tests-web/*.dat (file:line of the `#data` element).
const DAT_CASES: &[(&str, Exp)] = &[
    ("abc", Exp::Plain("abc")),                             // atom.dat:29
    ("ab&copy;c", Exp::Plain("ab\u{A9}c")),                 // atom.dat:36
    ("abc<p>aa", Exp::Xml("abc<p XHTML>aa</p>")),           // atom.dat:43
    ("abc<img src width=1 height=1>aa", Exp::Xml("abcaa")), // atom.dat:50 (2 text nodes)
    ("a<p>bc<img src width=1 height=1>aa", Exp::Xml("a<p XHTML>bcaa</p>")), // atom.dat:57
    ("<p hidden>abc", Exp::None),                           // atom.dat:64,71
    ("def", Exp::Plain("def")),                             // atom.dat:72
    ("<script>abc</script>", Exp::None),                    // atom.dat:79
    ("<br>", Exp::None),                                    // atom.dat:86
    ("aa&copy;a", Exp::Plain("aa\u{A9}a")),                 // atom.dat:184
    ("hoge<br> fuga", Exp::Xml("hoge<br XHTML></br> fuga")), // atom.dat:558,576,594
    ("aa <p><rt x=y>d", Exp::Xml("aa <p XHTML><rt x=\"y\">d</rt></p>")), // atom.dat:770
    ("a&copy;c", Exp::Plain("a\u{A9}c")),                   // atom03.dat:100
    ("Ho<p>ge", Exp::Xml("Ho<p XHTML>ge</p>")),             // rss1.dat:198,209
    ("hoge", Exp::Plain("hoge")),                           // rss1.dat:73
    ("\n    ", Exp::None),                                  // rss1.dat:82
    ("", Exp::None),                                        // rss2.dat:137
    ("\naa", Exp::Plain("\naa")),                           // rss2.dat:142
    ("aa <i>b", Exp::Xml("aa <i XHTML>b</i>")),             // rss2.dat:358,367
    ("Hello", Exp::Plain("Hello")),                         // rss2.dat:493
    ("aa b", Exp::Plain("aa b")),                           // rss2.dat:553
    ("aa c", Exp::Plain("aa c")),                           // rss2.dat:575
    ("aa <p><rt x=y>c", Exp::Xml("aa <p XHTML><rt x=\"y\">c</rt></p>")), // rss2.dat:585
    ("aa &lt;p>&lt;rt x=y>c", Exp::Plain("aa <p><rt x=y>c")), // rss2.dat:606
];

#[test]
fn conformance_html_expectations() {
    for (input, exp) in DAT_CASES {
        check(input, exp);
    }
}

#[test]
fn notes_examples() {
    let cases: &[(&str, Exp)] = &[
        ("<p><img src=\"\"/></p>", Exp::Xml("<p XHTML><img src=\"\"></img></p>")),
        ("&#xA0;", Exp::Plain("\u{A0}")),
        ("&copy;", Exp::Plain("\u{A9}")),
        ("<!-- c -->x", Exp::Xml("<!-- c -->x")),
        ("a&amp;amp;b<img width=1 height=1>c", Exp::Xml("a&amp;amp;bc")),
        ("a&amp;b<img width=1 height=1>c", Exp::Xml("a&amp;bc")),
        ("a&amp;b<img width=1 height=1>", Exp::Plain("a&b")),
        ("<img width=1 height=1>", Exp::None),
        ("<img width=1 height=2>", Exp::Xml("<img XHTML width=\"1\" height=\"2\"></img>")),
        ("<img width=01 height=1>", Exp::Xml("<img XHTML width=\"01\" height=\"1\"></img>")),
        ("<img src>", Exp::Xml("<img XHTML src=\"\"></img>")),
        ("<p>x<img hidden width=1 height=1>", Exp::Xml("<p XHTML>x</p>")),
        ("<style>p{}</style>", Exp::None),
        ("<svg><style>x</style></svg>", Exp::Xml("<svg xmlns=\"http://www.w3.org/2000/svg\"><style>x</style></svg>")),
        ("<svg hidden></svg>", Exp::None),
        ("<math></math>", Exp::Xml("<math xmlns=\"http://www.w3.org/1998/Math/MathML\"></math>")),
        ("<audio></audio>", Exp::None),
        ("<audio controls></audio>", Exp::Xml("<audio XHTML controls=\"\"></audio>")),
        ("<input type=HiDDen>", Exp::None),
        ("<input type=text>", Exp::Xml("<input XHTML type=\"text\"></input>")),
        ("<iframe></iframe>", Exp::Xml("<iframe XHTML></iframe>")),
        ("<canvas></canvas>", Exp::Xml("<canvas XHTML></canvas>")),
        ("<span> </span>\t", Exp::None),
        ("<noscript><p>x</p></noscript>", Exp::Xml("<noscript XHTML><p>x</p></noscript>")),
        ("<template>abc</template>", Exp::None),
        ("<template><img width=1 height=1></template>x", Exp::Xml("<template XHTML><img width=\"1\" height=\"1\"></img></template>x")),
        ("<script><img width=1 height=1></script>x", Exp::Xml("<script XHTML>&lt;img width=1 height=1&gt;</script>x")),
        ("a\r\nb", Exp::Plain("a\nb")),
        ("a\rb", Exp::Plain("a\nb")),
        ("a\0b", Exp::Plain("ab")),
        ("\u{FEFF}<b>x</b>", Exp::Xml("\u{FEFF}<b XHTML>x</b>")),
        ("\0", Exp::None),
        ("\"q\" <b>'</b>", Exp::Xml("&quot;q&quot; <b XHTML>'</b>")),
        ("<a title='a&quot;<>&amp;'>x</a>", Exp::Xml("<a XHTML title=\"a&quot;&lt;&gt;&amp;\">x</a>")),
        ("<p>a</p><p>b</p>", Exp::Xml("<p XHTML>a</p><p XHTML>b</p>")),
        ("x<?pi data?>", Exp::Xml("x<!--?pi data?-->")),
        ("&foo; &amp", Exp::Plain("&foo; &")),
        ("</p>", Exp::None),
        ("<p></p>", Exp::None),
        ("<table><tr><td>x", Exp::Xml("<table XHTML><tbody><tr><td>x</td></tr></tbody></table>")),
        ("<table>x<tr><td>y", Exp::Xml("x<table XHTML><tbody><tr><td>y</td></tr></tbody></table>")),
        ("<b>a<p>b</b>c", Exp::Xml("<b XHTML>a</b><p XHTML><b>b</b>c</p>")),
        (
            "<svg><a xlink:href=u>t</a></svg>",
            Exp::Xml("<svg xmlns=\"http://www.w3.org/2000/svg\"><a xlink:href=\"u\" xmlns:xlink=\"http://www.w3.org/1999/xlink\">t</a></svg>"),
        ),
        (
            "<svg><a xlink:href=u xlink:title=v>t</a><a xlink:href=w></a></svg>",
            Exp::Xml("<svg xmlns=\"http://www.w3.org/2000/svg\"><a xlink:href=\"u\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" xlink:title=\"v\">t</a><a xlink:href=\"w\" xmlns:xlink=\"http://www.w3.org/1999/xlink\"></a></svg>"),
        ),
        (
            "<svg><foreignObject><p>x</p></foreignObject></svg>",
            Exp::Xml("<svg xmlns=\"http://www.w3.org/2000/svg\"><foreignObject><p XHTML>x</p></foreignObject></svg>"),
        ),
    ];
    for (input, exp) in cases {
        check(input, exp);
    }
}

#[test]
fn fast_path_borrows() {
    let arena = Bump::new();
    let text: &str = arena.alloc_str("plain text, no markup");
    match parse_escaped_html(&arena, text) {
        Some(Text::Plain(p)) => assert!(std::ptr::eq(p, text)),
        other => panic!("{other:?}"),
    }
    let before = arena.allocated_bytes();
    assert!(parse_escaped_html(&arena, text).is_some());
    assert!(parse_escaped_html(&arena, " \t\n\x0C ").is_none());
    assert_eq!(arena.allocated_bytes(), before);
    // U+00A0 and other Unicode spaces are not HTML space characters.
    assert_eq!(parse_escaped_html(&arena, "\u{A0}"), Some(Text::Plain("\u{A0}")));
    assert_eq!(parse_escaped_html(&arena, "\u{3000}"), Some(Text::Plain("\u{3000}")));
    // A literal '<' that cannot open a tag keeps the zero-copy path.
    let lt: &str = arena.alloc_str("a < b <3 <");
    match parse_escaped_html(&arena, lt) {
        Some(Text::Plain(p)) => assert!(std::ptr::eq(p, lt)),
        other => panic!("{other:?}"),
    }
}

fn parse<'a>(arena: &'a Bump, s: &str) -> Html<'a> {
    match parse_escaped_html(arena, arena.alloc_str(s)) {
        Some(Text::Html(h)) => h,
        other => panic!("{s:?}: {other:?}"),
    }
}

#[test]
fn html_serialization_and_idempotence() {
    let arena = Bump::new();
    let inputs = [
        "hoge<br> fuga",
        "<p>a&nbsp;b &amp; <img src=\"x&quot;y\" alt=a<b></p><script>if (a<b) x()</script>x",
        "<table><tr><td>x",
        "<svg><a xlink:href=u>t</a><path d=M0/></svg><math><mi>x</mi></math>",
        "<pre>\n\nx</pre><textarea>\nfoo</textarea>",
        "<!-- c -->x<ul><li>a<li>b</ul>",
        "<noscript><p>a&lt;b</p></noscript>",
        "<div><b><i>x</b>y</i></div>",
    ];
    for s in inputs {
        let h = parse(&arena, s);
        let html = h.to_html_string();
        let h2 = parse(&arena, &html);
        assert!(h.is_equal_node(&h2), "{s:?} -> {html:?} -> {:?}", h2.to_html_string());
        assert_eq!(html, h2.to_html_string());
    }
    assert_eq!(parse(&arena, "hoge<br> fuga").to_html_string(), "hoge<br> fuga");
    assert_eq!(
        parse(&arena, "<p a='&quot;\u{A0}'>\u{A0}<img src=x></p>").to_html_string(),
        "<p a=\"&quot;&nbsp;\">&nbsp;<img src=\"x\"></p>"
    );
    assert_eq!(
        parse(&arena, "<svg><a xlink:href=u>t</a></svg>").to_html_string(),
        "<svg><a xlink:href=\"u\">t</a></svg>"
    );
}

#[test]
fn equality() {
    let arena = Bump::new();
    let a = parse(&arena, "<p a=1 b=2>x</p>");
    let b = parse(&arena, "<p b=2 a=1>x</p>");
    let c = parse(&arena, "<p b=2 a=1>y</p>");
    let d = parse(&arena, "<p b=2 a=3>x</p>");
    let e = parse(&arena, "<p a=1 b=2>x</p><i>");
    assert!(a.is_equal_node(&b));
    assert_ne!(a.to_xml_string(), b.to_xml_string());
    assert!(!a.is_equal_node(&c));
    assert!(!a.is_equal_node(&d));
    assert!(!a.is_equal_node(&e));
    // Same serialization, different structure: un-merged text vs one text node.
    let f = parse(&arena, "ab<img width=1 height=1>c<i>");
    let g = parse(&arena, "abc<i>");
    assert_eq!(f.to_xml_string(), g.to_xml_string());
    assert!(!f.is_equal_node(&g));
    // Same nodes, different nesting.
    let h = parse(&arena, "<b><i></i>x</b>");
    let i = parse(&arena, "<b><i>x</i></b>");
    assert!(!h.is_equal_node(&i));
    // Via Text::same_text_content
    assert!(Text::Html(a).same_text_content(&Text::Html(b)));
    assert!(!Text::Html(a).same_text_content(&Text::Plain("x")));
}

#[test]
fn deep_nesting() {
    let arena = Bump::new();
    let s = "<b>".repeat(100_000) + "x";
    let h = parse(&arena, &s);
    let xml = h.to_xml_string();
    assert!(xml.ends_with("</b></b>"));
    let html = h.to_html_string();
    assert!(html.starts_with("<b><b>"));
    assert!(h.is_equal_node(&h));
    // Deep xhtml-like input through finish_fragment.
    let n = 200_000u32;
    let el = Element { namespace: X, prefix: None, local: "span", attrs: &[] };
    let mut nodes: Vec<Node<'_>> =
        (0..n).map(|_| Node { kind: NodeKind::Element(el), end: n + 1 }).collect();
    nodes.push(Node { kind: NodeKind::Text("x"), end: n + 1 });
    let f = finish_fragment(&arena, &nodes).unwrap();
    assert_eq!(f.nodes().len(), n as usize + 1);
    assert!(f.to_xml_string().len() > n as usize * 10);
}

fn el<'a>(
    ns: &'a str,
    prefix: Option<&'a str>,
    local: &'a str,
    attrs: &'a [Attribute<'a>],
    end: u32,
) -> Node<'a> {
    Node { kind: NodeKind::Element(Element { namespace: ns, prefix, local, attrs }), end }
}
fn text(t: &str, end: u32) -> Node<'_> {
    Node { kind: NodeKind::Text(t), end }
}
fn at<'a>(local: &'a str, value: &'a str) -> Attribute<'a> {
    Attribute { namespace: "", prefix: None, local, value }
}

#[test]
fn finish_fragment_xhtml_cases() {
    let arena = Bump::new();
    let src = [at("src", "")];
    let one = [at("src", ""), at("width", "1"), at("height", "1")];
    let hidden = [at("hidden", "")];
    let ser = |nodes: &[Node<'_>]| finish_fragment(&arena, nodes).map(|h| h.to_xml_string());

    // atom.dat:93 <br/>
    assert_eq!(ser(&[el(X, None, "br", &[], 1)]), None);
    // atom.dat:100 de -> a Node serialized "de"
    let f = finish_fragment(&arena, &[text("de", 1)]).unwrap();
    assert_eq!(f.to_xml_string(), "de");
    // atom.dat:107 <p>abc</p>de
    assert_eq!(
        ser(&[el(X, None, "p", &[], 2), text("abc", 2), text("de", 3)]),
        Some(xml("<p XHTML>abc</p>de"))
    );
    // atom.dat:114
    assert_eq!(ser(&[el(X, None, "p", &[], 2), text("abc", 2)]), Some(xml("<p XHTML>abc</p>")));
    // atom.dat:142 <p hidden="">de</p>
    assert_eq!(ser(&[el(X, None, "p", &hidden, 2), text("de", 2)]), None);
    // atom.dat:149 <p/>
    assert_eq!(ser(&[el(X, None, "p", &[], 1)]), None);
    // atom.dat:156 <p><img src=""/></p>
    assert_eq!(
        ser(&[el(X, None, "p", &[], 2), el(X, None, "img", &src, 2)]),
        Some(xml("<p XHTML><img src=\"\"></img></p>"))
    );
    // atom.dat:163 <p><script><img src=""/></script></p>
    assert_eq!(
        ser(&[
            el(X, None, "p", &[], 3),
            el(X, None, "script", &[], 3),
            el(X, None, "img", &src, 3)
        ]),
        None
    );
    // atom.dat:170 <p><img src=""/><script><img src="" width="1" height="1"/></script></p>
    assert_eq!(
        ser(&[
            el(X, None, "p", &[], 4),
            el(X, None, "img", &src, 2),
            el(X, None, "script", &[], 4),
            el(X, None, "img", &one, 4),
        ]),
        Some(xml("<p XHTML><img src=\"\"></img><script></script></p>"))
    );
    // D11 (seed): deeper 1x1 imgs inside script are removed too.
    assert_eq!(
        ser(&[
            text("x", 1),
            el(X, None, "script", &[], 4),
            el(X, None, "b", &[], 4),
            el(X, None, "img", &one, 4),
        ]),
        Some(xml("x<script XHTML><b></b></script>"))
    );
    // atom.dat:603 hoge<br/> fuga
    assert_eq!(
        ser(&[text("hoge", 1), el(X, None, "br", &[], 2), text(" fuga", 3)]),
        Some(xml("hoge<br XHTML></br> fuga"))
    );
    // Adjacent input text siblings are joined (CDATA split), but not across an element
    // boundary nor across a removed img.
    let f = finish_fragment(
        &arena,
        &[text("a", 1), text("b", 2), el(X, None, "i", &[], 5), text("c", 4), text("d", 5)],
    )
    .unwrap();
    assert_eq!(f.nodes().len(), 3);
    assert_eq!(f.nodes()[0].kind, NodeKind::Text("ab"));
    assert_eq!(f.nodes()[2].kind, NodeKind::Text("cd"));
    assert_eq!(f.to_xml_string(), xml("ab<i XHTML>cd</i>"));
    let f =
        finish_fragment(&arena, &[el(X, None, "i", &[], 2), text("c", 2), text("d", 3)]).unwrap();
    assert_eq!(f.nodes().len(), 3);
    let f = finish_fragment(&arena, &[text("a", 1), el(X, None, "img", &one, 2), text("b", 3)])
        .unwrap();
    assert_eq!(f.nodes().len(), 2);
    assert_eq!(f.to_xml_string(), "ab");
    // A 1x1 img with children (possible in XML) is removed with its subtree.
    assert_eq!(ser(&[el(X, None, "img", &one, 2), text("a", 2), text("b", 3)]), Some("b".into()));
}

#[test]
fn xml_namespaces() {
    let arena = Bump::new();
    let ser = |nodes: &[Node<'_>]| finish_fragment(&arena, nodes).unwrap().to_xml_string();
    let xmlns_x =
        [Attribute { namespace: XMLNS_NS, prefix: Some("xmlns"), local: "x", value: "urn:x" }];
    let xmlns_default = [Attribute { namespace: XMLNS_NS, prefix: None, local: "xmlns", value: X }];
    let xattr = [Attribute { namespace: "urn:y", prefix: Some("y"), local: "a", value: "v" }];
    // Prefixed element declaring its own prefix: declaration emitted once, as written.
    assert_eq!(
        ser(&[
            el("urn:x", Some("x"), "foo", &xmlns_x, 3),
            el("urn:x", Some("x"), "bar", &[], 3),
            text("t", 3)
        ]),
        "<x:foo xmlns:x=\"urn:x\"><x:bar>t</x:bar></x:foo>"
    );
    // Prefixed element without declaration attribute, HTML child gets xmlns again.
    assert_eq!(
        ser(&[el("urn:x", Some("x"), "foo", &[], 3), el(X, None, "b", &[], 3), text("t", 3)]),
        xml("<x:foo xmlns:x=\"urn:x\"><b XHTML>t</b></x:foo>")
    );
    // Existing default declaration equal to the element namespace is not duplicated.
    assert_eq!(ser(&[el(X, None, "p", &xmlns_default, 2), text("t", 2)]), xml("<p XHTML>t</p>"));
    // Null-namespace element under an HTML element gets xmlns="".
    assert_eq!(
        ser(&[el(X, None, "p", &[], 3), el("", None, "q", &[], 3), text("t", 3)]),
        xml("<p XHTML><q xmlns=\"\">t</q></p>")
    );
    // Top-level null-namespace element: no declaration.
    assert_eq!(ser(&[el("", None, "q", &[], 2), text("t", 2)]), "<q>t</q>");
    // Prefixed attribute gets its declaration right after it; children inherit it.
    assert_eq!(
        ser(&[el(X, None, "p", &xattr, 3), el(X, None, "i", &xattr, 3), text("t", 3)]),
        xml("<p XHTML y:a=\"v\" xmlns:y=\"urn:y\"><i y:a=\"v\">t</i></p>")
    );
    // Contradicting own default declaration is replaced by the generated one.
    let bad_default = [
        Attribute { namespace: XMLNS_NS, prefix: None, local: "xmlns", value: "urn:z" },
        at("a", "b"),
    ];
    assert_eq!(
        ser(&[el(X, None, "p", &bad_default, 2), text("t", 2)]),
        xml("<p XHTML a=\"b\">t</p>")
    );
    // Default declaration on a prefixed element is inherited by its unprefixed children.
    let decls = [
        xmlns_x[0],
        Attribute { namespace: XMLNS_NS, prefix: None, local: "xmlns", value: "urn:d" },
    ];
    assert_eq!(
        ser(&[
            el("urn:x", Some("x"), "foo", &decls, 3),
            el("urn:d", None, "bar", &[], 3),
            text("t", 3)
        ]),
        "<x:foo xmlns:x=\"urn:x\" xmlns=\"urn:d\"><bar>t</bar></x:foo>"
    );
    // HTML-parsed svg with its own xmlns / xmlns:xlink attributes: no duplicates.
    let arena2 = Bump::new();
    let h = match parse_escaped_html(&arena2, "<svg xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink'><a xlink:href=u>t</a></svg>") {
        Some(Text::Html(h)) => h,
        other => panic!("{other:?}"),
    };
    assert_eq!(
        h.to_xml_string(),
        "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\"><a xlink:href=\"u\">t</a></svg>"
    );
    // Comments and PIs.
    let pi = Node { kind: NodeKind::ProcessingInstruction { target: "t", data: "d" }, end: 2 };
    assert_eq!(
        ser(&[Node { kind: NodeKind::Comment("c"), end: 1 }, pi, text("x", 3)]),
        "<!--c--><?t d?>x"
    );
}

#[test]
fn malformed_ends_do_not_panic() {
    let arena = Bump::new();
    let nodes = [el(X, None, "p", &[], 0), text("a", 99), el(X, None, "b", &[], 1), text("c", 2)];
    let f = finish_fragment(&arena, &nodes).unwrap();
    assert_eq!(f.to_xml_string(), xml("<p XHTML></p>a<b XHTML></b>c"));
    let f = finish_fragment(&arena, &nodes).unwrap();
    let _ = f.to_xml_string();
    let _ = f.to_html_string();
    // Output is well-formed: every end within its parent's.
    let ns = f.nodes();
    for (i, n) in ns.iter().enumerate() {
        assert!(n.end as usize > i && n.end as usize <= ns.len());
    }
}

#[test]
fn odd_inputs_do_not_panic() {
    let arena = Bump::new();
    for s in [
        "<",
        "&",
        "<!",
        "<!--",
        "<![CDATA[x]]>",
        "<!DOCTYPE html>x",
        "<html><head><title>t</title></head><body>b</body></html>",
        "<frameset><frame></frameset>",
        "<table><caption>c<tr><td><table>",
        "<select><option>a<option>b</select>",
        "<template><template><td>x</template></template>",
        "<a><p><a>x</a></p>",
        "<math><annotation-xml encoding=text/html><p>x</p></annotation-xml></math>",
        "\u{FFFD}\u{0001}&#0;&#x110000;&#128;",
        "<plaintext><b>x",
        "<body a=1><body b=2>x",
        "<form><form>x</form>",
        "<svg><desc><svg><foreignObject><math><mtext><p>x",
    ] {
        let r = parse_escaped_html(&arena, arena.alloc_str(s));
        if let Some(Text::Html(h)) = r {
            let _ = h.to_xml_string();
            let _ = h.to_html_string();
        }
    }
}

/// The fast paths produce exactly what tree construction produces.
#[test]
fn fast_paths_match_full_path() {
    let arena = Bump::new();
    let cases = [
        "",
        " ",
        "\t\n",
        "abc",
        "a\r\nb\rc",
        "\r",
        "\0",
        "a\0b",
        "\0 \0",
        "&",
        "&&",
        "&amp",
        "&amp;",
        "&amp;amp;",
        "&copy",
        "&copyx",
        "&copy;",
        "&notit;",
        "&notin;",
        "&not",
        "&noti",
        "&#",
        "&#;",
        "&#x",
        "&#x;",
        "&#0;",
        "&#x0;",
        "&#128;",
        "&#x80;",
        "&#x9F;",
        "&#x81;",
        "&#xD800;",
        "&#x110000;",
        "&#99999999999999999999;",
        "&#65",
        "&#x41g",
        "&#xFFFE;",
        "&#1;",
        "&#x0D;",
        "&#13;",
        "&#10;",
        "&#32;",
        "&#x20;&#9;",
        "&nbsp;",
        "&NBSP;",
        "&AMP;",
        "&AMP",
        "&lt;p&gt;",
        "&lt",
        "&ltx",
        "a &foo; b",
        "&;",
        "& ;",
        "&=",
        "&a=",
        "&amp=",
        "&xxx",
        "&ThickSpace;",
        "&NewLine;",
        "&Tab;",
        "&#x3000;",
        "\u{A0}",
        "&nbsp",
        "&nbspx",
        "x&\r\n",
        "\u{FEFF}x",
        "\u{1}",
        "&#x1F600;",
        "&acE;",
        "&lang;&rang;",
        "&#0000065;",
        "&#x000041;",
        "a&#x\0;",
        ">",
        ">>",
        "a > b",
        "\"'",
        "<",
        "a <",
        "a < b",
        "<3",
        "<<",
        "< p>",
        "<=",
        "<&amp;",
        "&lt;<",
        "<\0",
        "<\r\n",
        "<#",
        "<-",
        "<.",
        "<é",
        "<1>",
        "<p",
        "</",
        "</>",
        "<!",
        "<?",
        "a<b",
        "a<B>",
        "x</p>",
        "<>",
        "< >",
        "<<b>x",
    ];
    for s in cases {
        let s = arena.alloc_str(s);
        assert_eq!(parse_escaped_html(&arena, s), parse_escaped_html_reference(&arena, s), "{s:?}");
    }
}

/// The escaped-HTML texts of the real corpus (empty when `corpus/real` is absent).
fn corpus_texts() -> Vec<String> {
    let mut texts: Vec<String> = Vec::new();
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/real");
    let mut dirs = vec![std::path::PathBuf::from(root)];
    while let Some(d) = dirs.pop() {
        let Ok(rd) = std::fs::read_dir(d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
                continue;
            }
            if p.extension().is_none_or(|x| x != "xml") {
                continue;
            }
            let Ok(data) = std::fs::read_to_string(&p) else {
                continue;
            };
            extract(&data, &mut texts);
        }
    }
    texts
}

/// Which path `parse_escaped_html` takes: 0 zero-copy, 1 tokenizer-only (fast tokenizer),
/// 2 fast tree builder, 3 html5ever tree builder, 4 tokenizer-only (html5ever's). Also the
/// offset where the fast builder gave up.
fn path_of(arena: &Bump, t: &str) -> (usize, usize) {
    let t = arena.alloc_str(t);
    if !may_open_tag(t) {
        let p = if is_plain_run(t) {
            0
        } else if fast::decode_text(arena, t).is_some() {
            1
        } else {
            4
        };
        return (p, 0);
    }
    let mut flat = bumpalo::collections::Vec::new_in(arena);
    let mut at = 0;
    if fast::build_at(arena, t, &mut flat, usize::MAX, &mut at) {
        (2, 0)
    } else {
        (3, at)
    }
}

fn same_as_reference(arena: &Bump, s: &str) {
    let s = arena.alloc_str(s);
    let (got, hit) = parse_escaped_html_limited(arena, s);
    let want = parse_escaped_html_reference(arena, s);
    let show = |r: &Option<Text<'_>>| match r {
        Some(Text::Html(h)) => format!("Html {}", h.to_xml_string()),
        other => format!("{other:?}"),
    };
    assert!(!hit, "{s:?}: limit hit");
    assert_eq!(show(&got), show(&want), "{s:?}");
    assert_eq!(got, want, "{s:?}");
}

/// Differential (a): every escaped-HTML text of the real corpus gives the same result
/// through the fast paths (fast tree builder, chunked/limited html5ever) as html5ever alone.
/// `cargo test --release --lib html::tests::corpus_differential -- --ignored --nocapture`
#[test]
#[ignore]
fn corpus_differential() {
    let texts = corpus_texts();
    let mut arena = Bump::new();
    let mut paths = [0usize; 5];
    let mut path_bytes = [0usize; 5];
    let mut bails: std::collections::HashMap<String, usize> = Default::default();
    for t in &texts {
        same_as_reference(&arena, t);
        let p = path_of(&arena, t).0;
        paths[p] += 1;
        path_bytes[p] += t.len();
        if p == 3 {
            // Offsets are into the CR-normalized text.
            let t = &t.replace("\r\n", "\n").replace('\r', "\n");
            let at = path_of(&arena, t).1;
            let head: String =
                if at == usize::MAX { "NUL".into() } else { t[at..].chars().take(12).collect() };
            let key = head.split(['>', ' ']).next().unwrap_or("").to_ascii_lowercase();
            let c = bails.entry(key.clone()).or_default();
            *c += t.len();
            if std::env::var("HTML_BAIL_EXAMPLES").is_ok_and(|k| k == key) {
                let mut a = at.saturating_sub(150);
                while !t.is_char_boundary(a) {
                    a -= 1;
                }
                let mut z = (at + 60).min(t.len());
                while !t.is_char_boundary(z) {
                    z += 1;
                }
                println!("--- {:?} @@ {:?}", &t[a..at], &t[at..z]);
            }
        }
        arena.reset();
    }
    let n = texts.len().max(1) as f64;
    println!(
        "{} texts: zero-copy {} ({:.1}%), tokenizer-only {} ({:.1}%) + {} ({:.1}%) via html5ever's tokenizer, fast tree {} ({:.1}%), html5ever {} ({:.1}%)",
        texts.len(),
        paths[0],
        paths[0] as f64 * 100.0 / n,
        paths[1],
        paths[1] as f64 * 100.0 / n,
        paths[4],
        paths[4] as f64 * 100.0 / n,
        paths[2],
        paths[2] as f64 * 100.0 / n,
        paths[3],
        paths[3] as f64 * 100.0 / n
    );
    println!("bytes per path: {path_bytes:?}");
    let mut b: Vec<_> = bails.into_iter().collect();
    b.sort_by_key(|x| std::cmp::Reverse(x.1));
    println!("fast builder gives up at (bytes of those texts): {:?}", &b[..b.len().min(40)]);
}

/// `parse_escaped_html` as it was before the fast tree builder: zero-copy, tokenizer-only
/// with html5ever's tokenizer, else html5ever's tree builder.
fn old_parse<'a>(arena: &'a Bump, t: &'a str) -> Option<Text<'a>> {
    if may_open_tag(t) {
        return parse_escaped_html_reference(arena, t);
    }
    let data = if is_plain_run(t) { t } else { tree::decode_text(arena, t) };
    sanitize::has_non_space(data).then_some(Text::Plain(data))
}

/// Throughput over the escaped-HTML texts of the real corpus, before (html5ever for every
/// text that may hold a tag, as before the fast tree builder) and after:
/// `cargo test --release --lib html::tests::corpus_throughput -- --ignored --nocapture`
#[test]
#[ignore]
fn corpus_throughput() {
    let texts = corpus_texts();
    let total: usize = texts.iter().map(|t| t.len()).sum();
    let markup: Vec<&String> = texts.iter().filter(|t| may_open_tag(t)).collect();
    let markup_bytes: usize = markup.iter().map(|t| t.len()).sum();
    let mut arena = Bump::new();
    let rounds: usize =
        std::env::var("HTML_BENCH_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(5);
    // CPU time of this thread (clock ticks), robust against a loaded machine.
    fn cpu_ticks() -> u64 {
        let s = std::fs::read_to_string("/proc/thread-self/stat").unwrap_or_default();
        let rest = s.rsplit(')').next().unwrap_or("");
        let f: Vec<&str> = rest.split_whitespace().collect();
        f.get(11).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0)
            + f.get(12).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0)
    }
    for (label, before) in [("before", true), ("after", false), ("before", true), ("after", false)]
    {
        let run = |arena: &mut Bump, set: &[&String]| {
            let cpu0 = cpu_ticks();
            let mut n = 0usize;
            for _ in 0..rounds {
                for t in set {
                    let r = if before { old_parse(arena, t) } else { parse_escaped_html(arena, t) };
                    if let Some(Text::Html(h)) = r {
                        n += h.nodes().len();
                    }
                    arena.reset();
                }
            }
            ((cpu_ticks() - cpu0) as f64 / 100.0, n)
        };
        let all: Vec<&String> = texts.iter().collect();
        let (cpu, n) = run(&mut arena, &all);
        let (cpu_m, _) = run(&mut arena, &markup);
        println!(
            "{label}: all {} texts {} bytes: CPU {cpu:.2}s, {:.1} MB/s ({n} nodes); \
             {} texts with possible tags ({} bytes): {:.1} MB/s",
            texts.len(),
            total,
            (total * rounds) as f64 / cpu / 1e6,
            markup.len(),
            markup_bytes,
            (markup_bytes * rounds) as f64 / cpu_m / 1e6,
        );
    }
}

/// Crude extraction of element contents (CDATA or XML-unescaped text) for the benchmark.
#[cfg(test)]
fn extract(data: &str, texts: &mut Vec<String>) {
    for name in ["description", "content:encoded", "summary", "content", "title"] {
        let open = format!("<{name}");
        let close = format!("</{name}>");
        let mut pos = 0;
        while let Some(i) = data[pos..].find(&open) {
            let start = pos + i + open.len();
            let Some(gt) = data[start..].find('>') else {
                break;
            };
            let head = &data[start..start + gt];
            if head.ends_with('/') || !(head.is_empty() || head.starts_with(' ')) {
                pos = start;
                continue;
            }
            let body_start = start + gt + 1;
            let Some(j) = data[body_start..].find(&close) else {
                break;
            };
            let body = &data[body_start..body_start + j];
            pos = body_start + j;
            let t = if let Some(c) = body.trim().strip_prefix("<![CDATA[") {
                c.strip_suffix("]]>").unwrap_or(c).to_string()
            } else {
                body.replace("&lt;", "<")
                    .replace("&gt;", ">")
                    .replace("&quot;", "\"")
                    .replace("&apos;", "'")
                    .replace("&amp;", "&")
            };
            texts.push(t);
        }
    }
}

/// Worst cases of the html5ever path under the work limit (CPU time per input):
/// `cargo test --release --lib html::tests::pathological_nesting_timing -- --ignored --nocapture`
#[test]
#[ignore]
fn pathological_nesting_timing() {
    let mut worst = std::time::Duration::ZERO;
    let cases: Vec<(String, String)> = [
        "<b>",
        "<div>",
        "<p>",
        "<span>",
        "<li>",
        "<a>",
        "<table>",
        "<i><b>",
        "<svg>",
        "<table><div>",
        "<b><p>",
        "<p><b id=1><b id=2><b id=3><b id=4>",
    ]
    .iter()
    .flat_map(|t| {
        [10_000usize, 100_000]
            .map(|n| (format!("{t} x{n}"), "<math></math>".to_string() + &t.repeat(n) + "x"))
    })
    .chain([10usize, 100, 900, 5_000].map(|d| {
        (
            format!("{d} spans + 100000 </q>"),
            "<math></math>".to_string() + &"<span>".repeat(d) + &"</q>".repeat(100_000) + "y",
        )
    }))
    .chain([300usize, 1_000, 3_000].map(|d| {
        (
            format!("{d} distinct <b> + <p>x</p> x 10000"),
            "<svg></svg><p>".to_string()
                + &(0..d).map(|i| format!("<b id={i}>")).collect::<String>()
                + "</p>"
                + &"<p>x</p>".repeat(10_000),
        )
    }))
    .collect();
    for (label, s) in &cases {
        let arena = Bump::new();
        let s = arena.alloc_str(s);
        let t = std::time::Instant::now();
        let (r, hit) = parse_escaped_html_limited(&arena, s);
        let el = t.elapsed();
        worst = worst.max(el);
        let nodes = match r {
            Some(Text::Html(h)) => h.nodes().len(),
            _ => 0,
        };
        println!("{label}: {el:?} limit hit {hit}, {nodes} nodes");
    }
    println!("worst {worst:?}");
}

/// Differential (b): tricky inputs give the same result through the fast tree builder (or
/// its fallback) as through html5ever alone.
const TRICKY: &[&str] = &[
    // End tags with attributes, `</>`, bogus comments.
    "<p>a</p class=x>b",
    "<p>a</p/>b",
    "<p>a</P.</li>b",
    "<p>x</p foo='&notin'>y",
    "a</>b",
    "a</",
    "a</3>b",
    "a</ x>b",
    "a</-",
    "<?xml version?>x",
    "<?",
    "<!x>y",
    "<!>z",
    "<!-x>",
    "<!",
    "<!-",
    "<!DOCTYPE html>x",
    "<![CDATA[x]]>y",
    "<table><!x><tr><td>y",
    "<svg><!x>y</svg>",
    // Start tags ignored in body, "in head" elements, image, nobr, button, plaintext.
    "<head><body class=x><html lang=en><p>x</p></body></html>y",
    "<td>a<tr>b<tbody>c<caption>d<col>e<colgroup>f<frame>g<frameset>h",
    "<p><meta charset=utf-8><link rel=x><base href=y><basefont><bgsound>z",
    "<b><p></b><meta>x",
    "<image src=x alt=y>z",
    "<b><p></b><image>x",
    "<nobr>a<nobr>b</nobr>c",
    "<nobr><p>a<nobr>b",
    "<b><nobr>x</b>y</nobr>",
    "<button>a<button>b</button>c",
    "<p>a<button>b<p>c</button>d",
    "<button><div>x</button>y",
    "<p><plaintext>a<b>c</b>&amp;",
    "<b><p></b><plaintext>x",
    "<isindex>x",
    // Character references: legacy names without `;`, attribute rules, numeric edge cases.
    "x&notit;y",
    "<p>&not",
    "<p>&noti",
    "<p>&ampx &AMP &amp &Aacute &aacutex",
    "<a href='?a=1&copy=2&copy&copy;x&notin&not=1'>x</a>",
    "<a title='&notin' alt='&ltx' id='&lt=' class='&lt;='>y</a>",
    "<a title=&not=1 alt=&notx id=&not>z</a>",
    "<p>&#0151;&#x80;&#x81;&#x9F;&#x8D;",
    "<p>&#0;&#xD800;&#x110000;&#99999999999;&#x1;&#xFFFE;",
    "<p>&#;&#x;&#xZ&#",
    "<textarea>&not &notit;</textarea>",
    "<title>&notin &copy=</title>",
    "<p>&",
    "<p>&;",
    "<p>&a;",
    "<p>&zz;&zzz",
    "<p>&frac12;&frac12&frac1",
    "<p>&nbsp&nbsp;&nbspx",
    // SVG (foreign content): adjusted names, breakouts, CDATA, end tags.
    "<svg viewBox='0 0 1 1' xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink'><radialGradient id=g gradientUnits=userSpaceOnUse><stop offset=0 /></radialGradient><use xlink:href='#g'/><path d='M0 0'/></svg>x",
    "<svg><clipPath><rect/></clipPath><g><text>a<b>b</b>c</text></g></svg>d",
    "<svg><![CDATA[a<b>c]]>d</svg>e",
    "<svg><![CDATA[x",
    "<svg>a<![CDATA[]]>b</svg>",
    "<![CDATA[x]]>",
    "<p><svg><p>x</p></svg>y",
    "<svg><font color=red>x</font></svg>",
    "<svg><font>x</font></svg>y",
    "<b><svg><g></b>x",
    "<svg><g></svg>x",
    "<div><svg><g></div>x",
    "<span><svg><g></span>x",
    "<svg><a><path></a>x</svg>",
    "<svg><script>a<b>c</script></svg>",
    "<svg><style><!--x--></style></svg>",
    "<svg><title>x</title></svg>",
    "<svg><SVG></Svg></SVG>x",
    "<svg><linearGradient/><LINEARGRADIENT></lineargradient>x",
    "<svg></p>x</svg>",
    "<svg></br>x",
    "<table><tr><td><svg><g>x</td></tr></table>y",
    "<ul><li><svg><li>x",
    "<svg><br/>x",
    "<svg><textarea>\nx</textarea></svg>",
    "<svg><pre>\nx</pre>",
    "<a><svg><a>x</a></svg></a>y",
    "<svg x:y=1 XLINK:HREF=2 xml:lang=en xmlns:foo=bar>z</svg>",
    "<svg><!--c--><g/></svg>",
    "<p><b><svg><i>x</i></svg></p>y",
    "<svg/>x",
    "<svg><image href=x></svg>",
    "<svg><math><mi>x</mi></math></svg>",
    // Script data escaped and double-escaped states.
    "<script><!--x</script>y",
    "<script><!--<script>x</script>y</script>z-->w</script>v",
    "<script><!-- x --></script>y",
    "<script><!--->x</script>y",
    "<script><!-->x</script>y",
    "<script><!--<scripts>x</script>y",
    "<script><!--<script/x</script>-->y</script>z",
    "<script><!--</scriptx>--></script>a",
    "<script>a<!--b--!>c</script>d",
    "<script><!--<SCRIPT>x</SCRIPT>--></script>e",
    "<script><!--<script>--></script>-->x</script>y",
    "<script><!--x",
    "<script><!--<script>x",
    "<script><!--<script>x</script",
    "<script><!-- <!-- --></script>f",
    "<script>--><!--x--></script>g",
    "<script><!--<script >-</script >->--></script>h",
    // Active formatting elements: reconstruction, Noah's Ark, adoption agency.
    "<b><i><u><s><em><strong><div>x</b>y",
    "<b><i><u><s><em><strong><div>x</i>y</div>z",
    "<a><b><div>x</a>y",
    "<a href=1><b id=2><span><div>x</a>y",
    "<b><p>x</b>y",
    "<b><p>x</b>y</p>z",
    "<b>x<div>y</b>z</div>w",
    "<b><div><div>x</b>y",
    "<i><b><div><p>x</i>y</p>z",
    "<code><pre>a</code>b</pre>c",
    "<b><pre>a</b>\nb",
    "<b>1<b>2<b>3<b>4</b></b></b></b>x",
    "<p><b class=x><b class=x><b class=x><b class=x>a</p>b",
    "<p><b class=x><b class=y><b class=x><b class=x><b class=x>a</p>b",
    "<p><b><i>x</p>y<p>z",
    "<a>1<div>2<a>3</a>4</div>5",
    "<a>1<a>2",
    "<a><p><a>x",
    "<a><table><tr><td><a>x</a></td></tr></table>y",
    "<table><tr><td><b>x</td></tr></table>y",
    "<b><table><tr><td></b>x</td></tr></table>y",
    "<b><table><tr><td>x</td><td><i>y</table>z",
    "<object><b></object>x",
    "<b><object></b>x</object>y",
    "<b><marquee><i>x</marquee>y",
    "<b>x</p>y",
    "<b><li>x<li>y",
    "<ul><li><b>x<li>y</ul>z",
    "<dl><dt><i>x<dd>y</dl>",
    "<h1><b>x</h1>y",
    "<b><h1>x</b>y</h1>z",
    "<b>x<br></b>y</br>z",
    "<em><xmp>a</em>b</xmp>c",
    "<font color=red><div>x</font>y",
    "<u><div>x</u>y</div>z",
    "<s><p>x</p></s>y",
    "<b>x<!--c-->y</b>z",
    "<b><div>x</b>y</div>",
    "<b><div>x</b>",
    "<b><div>x<i>y</b>z",
    "<div><b><div>x</b>y</div>z</div>w",
    "<b><span><div>x</b>y",
    "<b><span>a<div>x</span>y</b>z",
    "<p><code>\n<pre>x</pre></p>",
    "<strong><p>a</strong></p>b",
    "<p>a</p>",
    "<p>a<p>b",
    "<p><span>a<p>b",
    "<p><span><em>a<p>b",
    "<p><img>a<div>b",
    "<p><table><tr><td><p>a",
    "<p><object><div>a",
    "<p><button><div>a",
    "<h2><span>a</h2>b",
    "<h2><b>a</h2>b",
    "<div><span>a</div>b",
    "<div><em>a</div>b",
    "<ul><li><span>a</ul>b",
    "<ul><li><span>a</li>b",
    "<li><span>a<li>b",
    "<li><ul><span>a</li>b",
    "<li><i>a<li>b",
    "<dd><span>a<dt>b",
    "<p><span>a</p>b",
    "<p><i>a</p>b",
    "<object><p><span>a</object>b",
    "<pre>&lt;x&gt;</pre>",
    "<pre>&#10;x</pre>",
    "<pre>&NewLine;x</pre>",
    "<pre>&amp;\nx</pre>",
    "<textarea>&lt;x</textarea>",
    "<p><p>",
    "<p>a<div>b</div>",
    "<div><p>a</div>b",
    "<p><span>a<div>b",
    "<p><b>a<div>b",
    "<li>a<li>b",
    "<ul><li>a<li>b</ul>c",
    "<ul><li><p>a</ul>",
    "<li><ul><li>a</li></ul><li>b",
    "<li><p>a<li>b",
    "<li><span>a<li>b",
    "<li><div>a<li>b",
    "<li><noscript>a<li>b",
    "<dl><dt>a<dd>b<dt>c</dl>",
    "<dd><dt>",
    "<dd><li>",
    "<li><dd>",
    "<p><li>a",
    "<a href=x>a</a>",
    "<a><a>",
    "<a>x<b>y</a>",
    "<b><p>x</b>",
    "<b>x</b></b>",
    "<b>a<i>b</b>c</i>",
    "<b><b><b><b>x</b></b></b></b></b>",
    "<h1>a<h2>b",
    "<h1>a</h2>b",
    "<h1><p>a</h1>b",
    "<h1><span>a</h1>b",
    "<p><h1>a",
    "</h3>x",
    "</p>",
    "x</p>y",
    "<span></p></span>",
    "<span><span>a</span></span>",
    "<span><i>a</span>b",
    "<span><p>a</span>b",
    "<span><sup>a</span>b",
    "<span><rt>a</span>b",
    "<span><li>a</span>b",
    "<div><span>a</div></span>b",
    "<noscript><span>a</noscript>b",
    "<table><tr><td><span>a</span></td></tr></table>",
    "<span><table><tr><td>a</span>b",
    "<x-a><x-b>a</x-a>b",
    "<p><span></p>",
    "</br>",
    "a</br x=y>b",
    "<br/>",
    "<br />",
    "<span/>x",
    "<div/>x",
    "<img src=x/>",
    "<img src=\"x\"/>",
    "<img src='x'alt=y>",
    "<img/src=x>",
    "<img src = x alt = 'y' >",
    "<img src=>",
    "<img =x>",
    "<img a\"b=c>",
    "<img src=x src=y SRC=z>",
    "<IMG SRC=x Width=1 HEIGHT=1>",
    "<P>A</P>",
    "<Span CLASS=A>x</SPAN>",
    "<a href='?a=1&b=2'>x</a>",
    "<a href='?a=1&amp;b=2'>x</a>",
    "<a href='?a=1&amp=2'>x</a>",
    "<a href='?copy=1&copy=2'>x</a>",
    "<a href='&copy'>x</a>",
    "<a href='&copy;'>x</a>",
    "<a href='&notit;'>x</a>",
    "<a href='&#65;&#x42;&#67'>x</a>",
    "<a href=&amp;>x</a>",
    "<a title=\"&\">x</a>",
    "<a title='a&'>x</a>",
    "&amp",
    "x&amp",
    "&amp;x<b>",
    "a &copy b<b>",
    "a &copyb<b>",
    "a &copy; b<b>",
    "&notit;<b>",
    "&notin;<b>",
    "&foo;<b>",
    "&foo<b>",
    "&#65<b>",
    "&#x41;&#x1F600;<b>",
    "&#128;<b>",
    "&#0;<b>",
    "&#xD800;<b>",
    "&#;<b>",
    "&#x;<b>",
    "&#13;<b>",
    "&#x110000;<b>",
    "&#99999999999;<b>",
    "& <b>",
    "&<b>",
    "<b>&",
    "a<!-- c -->b",
    "<!-->x",
    "<!--->x",
    "<!---->x",
    "<!----->x",
    "<!--a--->x",
    "<!--a---b-->x",
    "<!--a--!>x-->",
    "<!--a<!--b-->x",
    "<!--a",
    "<!-- a -- b -->x",
    "<!doctype html>x",
    "<![CDATA[x]]>",
    "<?php x ?>",
    "</>x",
    "</ x>y",
    "<b",
    "<b x='",
    "<b x=y",
    "a < b",
    "a <3 <b>",
    "a<\u{e9}b<b>",
    "\r\n<b>x</b>",
    "a\r<b>x\r\nb</b>",
    "<b>a\0b</b>",
    "<b a=\0>",
    "<b>x</b \n>",
    "<b>x</b/>",
    "<b>x</b y>",
    "<pre>\nx</pre>",
    "<pre>x\n</pre>\n",
    "<pre>\n\nx</pre>",
    "<pre>\r\nx</pre>",
    "<pre>&#10;x</pre>",
    "<pre><b>\nx</b></pre>",
    "<p>a<pre>\nb</pre>",
    "<pre><p>a</pre>",
    "<listing>\nx</listing>",
    "<li><pre>x<li>y",
    "a\rb\r\nc<b title='x\r\ny'>\r</b><!--\r\n-->",
    "\r",
    "<b>\r",
    "<b\rclass=x>y",
    "<textarea>\nx</textarea>",
    "<script>a<b>c</script>",
    "<script>a</script >b",
    "<script>a</SCRIPT>b",
    "<script>a</scripts>b</script>c",
    "<script>a</script x>b",
    "<script>a</script/>b",
    "<script><!--a</script>b",
    "<script>a",
    "<script>&amp;</script>",
    "<p><script>x</script>y",
    "<style>a&amp;<b></style>x",
    "<iframe src=x></iframe>",
    "<iframe>a<p>b</iframe>c",
    "<noembed>a</noembed>",
    "<noframes>a</noframes>",
    "<p>a<xmp>b</xmp>",
    "<xmp>a<b>&amp;</xmp>",
    "<title>a&amp;b<i>c</title>d",
    "<title>&copy</title>",
    "<textarea>\nx</textarea>",
    "<textarea>\n\nx</textarea>",
    "<textarea>&#10;x</textarea>",
    "<textarea>a</textarea",
    "<object data=x><param name=a value=b><embed src=y></object>z",
    "<object><p>a</object>b",
    "<p><object><p>a",
    "<object></p>",
    "<p><object></p>",
    "<a><object><a>",
    "<li><object><li>x",
    "<b><object></b>",
    "<object><b></object>",
    "<applet>x</applet>",
    "<marquee><div>x</marquee>",
    "<h1><object></h1>",
    "<style>p</style>x",
    "<title>x</title>",
    "<table><tr><td>x</table>",
    "<table><tr><td>a</td><td>b</td></tr></table>",
    "<table>\n<tr>\n<td>a</td>\n</tr>\n</table>",
    "<table><tbody><tr><th>a<td>b<tr><td>c</tbody></table>x",
    "<table><thead><tr><th>h</thead><tbody><tr><td>d</table>",
    "<table><tfoot><tr><td>f</tfoot></table>",
    "<table><td>x</td></table>",
    "<table>x<tr><td>y",
    "<table> &nbsp; <tr><td>y",
    "<table>&#32;<tr><td>y",
    "<table><!--c--><tr><!--d--><td>y",
    "<table><caption>c</caption><tr><td>y",
    "<table><colgroup><col></colgroup><tr><td>y",
    "<table><col width=1><tr><td>y",
    "<table><tr><td><table><tr><td>n</table>after</td></tr></table>",
    "<table><tr><td><p>a<td>b",
    "<table><tr><td><b>a</td><td>b</b>",
    "<table><tr><td><b>a<tr><td>b",
    "<table><tr><td><a>x<td><a>y",
    "<a><table><tr><td><a>y",
    "<p>a<table><tr><td>b</table>c",
    "<p><b>a<table>",
    "<table><tr><td><p>a</p></table>",
    "<p><table><tr><td></p>",
    "<table><tr><td></p>",
    "<table><tr><td><li>a<li>b</table>",
    "<li><table><tr><td><li>a",
    "<table><tr><td>a</th>b</td>",
    "<table><tr><th>a</td>b</th>",
    "<table><tbody><tr><td>a</thead>b</table>",
    "<table><tbody><tr><td>a</tbody>b",
    "<table><tr><td>a</tr><tr><td>b",
    "<table><tr></tbody></table>",
    "<table></tr></td></tbody></table>",
    "<table><tr><td></body></caption></html>x</table>",
    "<table><tr><td><div>x</table>",
    "<div><table><tr><td>x</div>",
    "<table><tr><td>x</span></td></tr></table>",
    "<span><table><tr><td>x</span>",
    "<table><tr><td>x<tbody><tr><td>y</table>",
    "<table><tr><td>x<thead>",
    "<table><tr><td>x<caption>",
    "<table><tr><script>x</script><td>y",
    "<table><tr><td><script>x</script>y</table>",
    "<table><tr><td>x</table></table>z",
    "<table><table>",
    "<h1><table><tr><td></h1>",
    "<table><tr><td><h1>x</h1></td></tr></table>",
    "<svg><p>x</p></svg>",
    "<math><mi>x</mi></math>",
    "<template>x</template>",
    "<noscript><p>x</p></noscript>",
    "<ruby>a<rt>b</rt></ruby>",
    "<rt>a",
    "<ruby>a<rt>b<rt>c<rp>(</rp></ruby>",
    "<ruby>a<rb>b<rt>c<rtc>d<rt>e<rb>f</ruby>",
    "<ruby><p>a<rt>b",
    "<ruby><b>a<rt>b",
    "<ruby><table><tr><td><rt>x",
    "<ruby><ruby>a<rt>b</ruby><rt>c",
    "<ruby><span>a<rt>b",
    "<ruby><rb>a<rt>b</ruby>",
    "<button>x<button>y",
    "<select><option>x",
    "<form><form>",
    "<nobr>a<nobr>b",
    "<font color=red>x</font>",
    "<center>x</center>",
    "<hr>",
    "<p>x<hr>y",
    "<span>x<hr>y",
    "<input type=hidden>",
    "<o:p></o:p>",
    "<my-elem foo=bar>x</my-elem>",
    "<a<b>x",
    "<p>1<p>2<p>3",
    "<ul><li>1<li>2<li>3</ul>",
    "<blockquote><p>q</blockquote>",
    "<figure><img src=x><figcaption>c</figcaption></figure>",
    "<sup>1</sup><sub>2</sub>",
    "<em>a</em> <strong>b</strong> <code>c</code> <u>d</u> <i>e</i>",
    "<div><div><div>x</div></div></div>",
    "<div>x</span></div>",
    "</div>x",
    "<html>x",
    "<body>x",
    "</body>x",
    "</html>x",
    "<frameset>",
    "<image src=x>",
    "<isindex>",
    "<keygen>x",
    "<wbr>x",
    "<p>x</p>\n<p>y</p>\n",
    "<img width=1 height=1>",
    "a<img width=1 height=1>b",
    "<p hidden>x</p>",
    "\u{FEFF}<b>x</b>",
    // A row after a cell's text, then a start tag in it (the fast builder hands this one to
    // html5ever).
    "<table><td>a<tr><pre>\nx",
];

/// Cases the fast builder must build itself (not hand to html5ever): the tokenizer state a
/// start tag leaves, and Text nodes sliced from the input unchecked next to multi-byte
/// characters.
const FAST_ONLY: &[&str] = &[
    // The tokenizer state a start tag leaves, in a cell, after a cell closed by a table part,
    // after breaking out of SVG, and for table parts (which leave the data state).
    "<table><tr><td><pre>\nx</pre></td></tr></table>",
    "<table><td><listing>\n\nx</listing><td>y",
    "<table><td><textarea>\na</td></textarea>b",
    "<table><tr><td><script>a</td></script>b</td></tr></table>",
    "<table><td><title>&amp;</td></title></table>",
    "<table><td><plaintext>a</td><b>",
    "<table><tbody>\n<tr>\n<td>\nx",
    "<svg><p>\n<pre>\nx</pre>",
    "<svg><g><style>a</g></style>b",
    "<p><xmp>\n</p></xmp>x",
    "<pre>\r\nx</pre><pre>\rx</pre>",
    // Text nodes sliced from the input next to multi-byte characters at every kind of end
    // (tags, references, raw text, CDATA, a literal `<`, EOF).
    "é<b>ü</b>&amp;ß",
    "日本<p>語</p>&lt;中&notü&#233;é",
    "<svg><![CDATA[ü]]>é</svg>ö",
    "<title>é&amp;ü</title><script>ü</script>é<style>ß</style>",
    "a<é>ü</é>€<3ü<",
    "\u{2028}<!--é-->\u{A0}",
];

/// Each of [`FAST_ONLY`] takes the fast path, and builds what html5ever builds.
#[test]
fn fast_only_differential() {
    let arena = Bump::new();
    for s in FAST_ONLY {
        same_as_reference(&arena, s);
        assert_eq!(path_of(&arena, s).0, 2, "{s:?} left the fast path");
    }
}

#[test]
fn tricky_differential() {
    let arena = Bump::new();
    let mut fast_n = 0;
    for s in TRICKY {
        same_as_reference(&arena, s);
        if path_of(&arena, s).0 == 2 {
            fast_n += 1;
        }
    }
    assert!(fast_n > TRICKY.len() / 3, "{fast_n} of {}", TRICKY.len());
}

/// A quoted attribute value's end and first `&` found at every offset the tokenizer's three
/// searches cover (the near look, the block compares from byte 64 to 128, `memchr2` past
/// them): values of 0 to 199 bytes, single- and double-quoted, with a reference, the other
/// quote or nothing at a few offsets, closed or left open at the text's end.
#[test]
fn quoted_attribute_values_of_every_length() {
    let arena = Bump::new();
    for len in 0..200 {
        for q in ['"', '\''] {
            let other = if q == '"' { '\'' } else { '"' };
            let mut values = vec!["v".repeat(len)];
            for at in [0, len / 3, len.saturating_sub(1), len] {
                for insert in ["&amp;", "&", "&lt", &other.to_string()] {
                    let mut v = "v".repeat(len);
                    v.insert_str(at.min(len), insert);
                    values.push(v);
                }
            }
            for v in &values {
                same_as_reference(&arena, &format!("<a title={q}{v}{q} href=x>t</a> after"));
                same_as_reference(&arena, &format!("<p>x</p><a title={q}{v}"));
            }
        }
    }
}

/// How many random soups each soup test runs: `HTML_SOUP_CASES`, else `default`.
fn soup_cases(default: usize) -> usize {
    std::env::var("HTML_SOUP_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Runs `cases` random soups through [`same_as_reference`]: each is `prefix` and then 1 to
/// `max_pieces` pieces drawn from `pieces` by a xorshift generator seeded with `seed`.
/// Returns how many of them the fast tree builder took.
fn soup_differential(
    pieces: &[&str],
    seed: u64,
    prefix: &str,
    max_pieces: u64,
    cases: usize,
) -> usize {
    let mut next = crate::test_rng(seed);
    let mut arena = Bump::new();
    let mut fast_n = 0;
    let mut s = String::new();
    for _ in 0..cases {
        s.clear();
        s.push_str(prefix);
        for _ in 0..1 + next() % max_pieces {
            s.push_str(pieces[(next() % pieces.len() as u64) as usize]);
        }
        same_as_reference(&arena, &s);
        if path_of(&arena, &s).0 == 2 {
            fast_n += 1;
        }
        arena.reset();
    }
    fast_n
}

/// Differential (c): random tag soups over a small alphabet (fixed-seed xorshift).
#[test]
fn random_soup_differential() {
    const PIECES: &[&str] = &[
        "<p>",
        "</p>",
        "<p class=x>",
        "<a href='?a=1&b=2'>",
        "<a>",
        "</a>",
        "<b>",
        "</b>",
        "<i>",
        "</i>",
        "<em>",
        "</em>",
        "<strong>",
        "</strong>",
        "<span>",
        "</span>",
        "<span/>",
        "<div>",
        "</div>",
        "<ul>",
        "</ul>",
        "<ol>",
        "</ol>",
        "<li>",
        "</li>",
        "<dl>",
        "<dt>",
        "<dd>",
        "</dd>",
        "<h1>",
        "</h1>",
        "<h2>",
        "</h2>",
        "<br>",
        "<br/>",
        "</br>",
        "<img src=x width=1 height=1>",
        "<img src=x>",
        "<img width=1 height=2 width=3>",
        "<hr>",
        "<blockquote>",
        "</blockquote>",
        "<figure>",
        "</figure>",
        "<figcaption>",
        "<table>",
        "<td>",
        "<tr>",
        "<script>",
        "</script>",
        "<rt>",
        "<ruby>",
        "</ruby>",
        "<noscript>",
        "</noscript>",
        "<pre>",
        "<textarea>",
        "<u>",
        "</u>",
        "<code>",
        "</code>",
        "<sup>",
        "</sup>",
        "<button>",
        "<svg>",
        "</svg>",
        "<template>",
        "<nobr>",
        "<FONT>",
        "</FONT>",
        "<P>",
        "<!--c-->",
        "<!---->",
        "<!-->",
        "<!doctype x>",
        "x",
        "y z",
        " ",
        "\n",
        "\r\n",
        "&amp;",
        "&amp",
        "&copy",
        "&copy;",
        "&#65;",
        "&#x41",
        "&notit;",
        "<",
        "&",
        ">",
        "&lt;",
        "&nbsp;",
        "\u{e9}",
        "<o:p>",
        "</o:p>",
        "<x-y a=b>",
        "</x-y>",
        "<p hidden>",
        "<span title=\"a&quot;b\">",
        "<img alt='&'>",
        "</body>",
        "<section>",
        "</section>",
        "<pre>",
        "</pre>",
        "\r",
        "<listing>",
        "<b\rclass=\"x\r\n\">",
        "<script>x</script>",
        "<style>",
        "</style>",
        "<iframe>",
        "<title>",
        "</title>",
        "<textarea>",
        "<object>",
        "</object>",
        "<xmp>",
        "<!--",
        "<table>",
        "</table>",
        "<rp>",
        "<rb>",
        "<sup>",
        "</sup>",
        "<x-b>",
        "</x-b>",
        "<rtc>",
        "</rt>",
        "<tr>",
        "</tr>",
        "<td>",
        "</td>",
        "<th>",
        "<tbody>",
        "</tbody>",
        "<thead>",
        "<caption>",
        "<b id=1>",
        "<b id=2>",
        "<a href=x>",
        "<object>",
        "</object>",
        "<marquee>",
        "</marquee>",
        "<applet>",
        "</applet>",
        "<font color=red>",
        "</font>",
        "<s>",
        "</s>",
        "<small>",
        "<big>",
        "</big>",
        "<tt>",
        "<strike>",
        "</strike>",
        "<address>",
        "</address>",
        "<center>",
        "<article>",
        "</article>",
        "<h3>",
        "</h3>",
        "</xmp>",
        "</dt>",
        "<li class=y>",
        "<input>",
        "<param>",
        "<wbr>",
        "</td>",
        "</th>",
        "<head>",
        "<body>",
        "</html>",
        "<meta>",
        "<image>",
        "</nobr>",
        "</button>",
        "<plaintext>",
        "&not",
        "&notin",
        "&#x80;",
        "<a title=&not=>",
        "<svg><g>",
        "<![CDATA[x]]>",
        "</p class=x>",
        "</b/>",
        "</>",
        "</3>",
        "<?x>",
        "<!x>",
    ];
    let cases = soup_cases(100_000);
    let fast_n = soup_differential(PIECES, 0x9E37_79B9_7F4A_7C15, "", 16, cases);
    println!("{fast_n} of {cases} random soups took the fast tree builder");
    assert!(fast_n > cases / 10, "{fast_n} of {cases}");
}

/// Differential (d): random soups of formatting elements, misnested end tags and blocks,
/// the inputs that make html5ever reconstruct the active formatting elements and run the
/// adoption agency (clones, furthest blocks, Noah's Ark, markers).
#[test]
fn formatting_soup_differential() {
    const PIECES: &[&str] = &[
        "<b>",
        "</b>",
        "<b class=x>",
        "<i>",
        "</i>",
        "<a>",
        "</a>",
        "<a href=y>",
        "<u>",
        "</u>",
        "<em>",
        "</em>",
        "<code>",
        "</code>",
        "<font size=2>",
        "</font>",
        "<div>",
        "</div>",
        "<p>",
        "</p>",
        "<span>",
        "</span>",
        "<li>",
        "</li>",
        "<ul>",
        "</ul>",
        "<h2>",
        "</h2>",
        "<pre>",
        "</pre>",
        "<blockquote>",
        "</blockquote>",
        "<br>",
        "<img>",
        "<object>",
        "</object>",
        "<table><tr><td>",
        "</td>",
        "<td>",
        "</table>",
        "<!--c-->",
        "x",
        "y",
        " ",
        "\n",
        "&amp;",
    ];
    let cases = soup_cases(100_000);
    let fast_n = soup_differential(PIECES, 0x2545_F491_4F6C_DD1D, "", 20, cases);
    println!("{fast_n} of {cases} formatting soups took the fast tree builder");
    assert!(fast_n > cases / 2, "{fast_n} of {cases}");
}

/// Differential (e): random script contents (the script data, escaped and double-escaped
/// tokenizer states).
#[test]
fn script_soup_differential() {
    const PIECES: &[&str] = &[
        "<script>",
        "</script>",
        "</SCRIPT >",
        "<!--",
        "-->",
        "-",
        "--",
        "<",
        ">",
        "</",
        "<s",
        "<script",
        "</script",
        " ",
        "x",
        "<!",
        "/",
        "<b>",
        "</scripts>",
    ];
    let cases = soup_cases(50_000);
    let fast_n = soup_differential(PIECES, 0x1234_5678_9ABC_DEF1, "<script>", 14, cases);
    assert!(fast_n > cases / 2, "{fast_n} of {cases}");
}

/// Differential (f): random soups around inline SVG (foreign content: adjusted names and
/// attributes, breakout tags, CDATA, end tags across namespaces).
#[test]
fn svg_soup_differential() {
    const PIECES: &[&str] = &[
        "<svg>",
        "</svg>",
        "<g>",
        "</g>",
        "<path d=1/>",
        "<text>",
        "</text>",
        "<b>",
        "</b>",
        "<p>",
        "</p>",
        "<div>",
        "</div>",
        "<span>",
        "</span>",
        "<font color=1>",
        "<font>",
        "</font>",
        "<![CDATA[x]]>",
        "<a>",
        "</a>",
        "<clippath>",
        "</clipPath>",
        "<br>",
        "</br>",
        "<table><tr><td>",
        "</td>",
        "<li>",
        "x",
        " ",
        "<!--c-->",
        "<pre>",
        "\n",
        "<use xlink:href=u viewbox=v/>",
        "<svg/>",
        "<i>",
        "</i>",
        "<style>",
        "</style>",
    ];
    let cases = soup_cases(100_000);
    let fast_n = soup_differential(PIECES, 0x0DDB_1A5E_5BAD_5EED, "", 16, cases);
    assert!(fast_n > cases / 2, "{fast_n} of {cases}");
}

/// Task: html5ever's quadratic worst case is bounded; the flag tells when the limit was hit.
#[test]
fn work_limit() {
    let arena = Bump::new();
    // Deep nesting html5ever has to take (the `math` makes the fast builder give up).
    let deep = arena.alloc_str(&("<math></math>".to_string() + &"<div>".repeat(50_000) + "x"));
    let (r, hit) = parse_escaped_html_limited(&arena, deep);
    assert!(hit);
    let Some(Text::Html(h)) = r else { panic!("{r:?}") };
    // The prefix that was parsed: the math, then nested divs, well under the input's depth.
    let divs = h.nodes().len() - 1;
    assert!(divs > 900 && divs < 2_000, "{divs}");
    assert!(matches!(h.nodes()[0].kind, NodeKind::Element(e) if e.local == "math"));
    // Same through the public entry point.
    assert_eq!(parse_escaped_html(&arena, deep), r);
    // Many steps at moderate depth: each unmatched end tag walks the open spans.
    let wide = arena.alloc_str(
        &("<math></math>".to_string() + &"<span>".repeat(900) + "x" + &"</q>".repeat(20_000) + "y"),
    );
    let (r, hit) = parse_escaped_html_limited(&arena, wide);
    assert!(hit);
    let Some(Text::Html(h)) = r else { panic!("{r:?}") };
    assert!(!h.to_xml_string().contains('y'));
    // Below the limit: the same as html5ever alone, flag false.
    let small = arena.alloc_str(&("<math></math>".to_string() + &"<div>".repeat(500) + "x"));
    let (r, hit) = parse_escaped_html_limited(&arena, small);
    assert!(!hit);
    assert_eq!(r, parse_escaped_html_reference(&arena, small));
    // The fast tree builder itself is linear: deep well-nested input is exact, no limit.
    let fast = arena.alloc_str(&("<div>".repeat(100_000) + "x"));
    let (r, hit) = parse_escaped_html_limited(&arena, fast);
    assert!(!hit);
    let Some(Text::Html(h)) = r else { panic!("{r:?}") };
    assert_eq!(h.nodes().len(), 100_001);
}

/// The attribute cap: escaped HTML is read up to the first tag with more attributes than
/// the cap (duplicates counted), with the flag; tags within it are html5ever's own reading.
#[test]
fn attribute_cap() {
    let arena = Bump::new();
    // 100 attributes: over what the fast builder takes, within the default cap: html5ever's
    // exact result, no flag.
    let within: String = (0..100).map(|i| format!(" a{i}=v{i}")).collect();
    let within = arena.alloc_str(&format!("<p>x</p><b{within}>y</b>"));
    let (r, hit) = parse_escaped_html_limited(&arena, within);
    assert!(!hit);
    assert_eq!(r, parse_escaped_html_reference(&arena, within));
    let Some(Text::Html(h)) = r else { panic!("{r:?}") };
    assert!(matches!(h.nodes()[2].kind, NodeKind::Element(e) if e.attrs.len() == 100));
    // A million attributes (all distinct, then all duplicates): the text before the tag.
    for attr in [|i: usize| format!(" a{i}"), |_: usize| " d=1".to_string()] {
        let many: String = (0..1_000_000).map(attr).collect();
        let text = arena.alloc_str(&format!("<p>kept <i>text</i></p><b{many}>lost</b> lost"));
        let (r, hit) = parse_escaped_html_limited(&arena, text);
        assert!(hit);
        let Some(Text::Html(h)) = r else { panic!("{r:?}") };
        assert_eq!(h.to_html_string(), "<p>kept <i>text</i></p>");
    }
    // A settable cap; end tags count too; the fast builder's own reading of a tag within
    // both its bound and the cap is unchanged.
    let text = arena.alloc_str("<p a b c>one</p><q>two</q x y z w>three");
    assert_eq!(parse_escaped_html_with(&arena, text, 4), parse_escaped_html_limited(&arena, text));
    let (r, hit) = parse_escaped_html_with(&arena, text, 2);
    assert!(hit);
    assert_eq!(r, None);
    let (r, hit) = parse_escaped_html_with(&arena, text, 3);
    assert!(hit);
    let Some(Text::Html(h)) = r else { panic!("{r:?}") };
    assert_eq!(h.to_html_string(), "<p a=\"\" b=\"\" c=\"\">one</p><q>two</q>");
}

/// The fast builder's report that a fragment is clean (no HTML 1×1 `img`) and the early-exit
/// significance of a clean list agree with the full scan (`significance_if_clean`), and
/// `sanitize_built` of an unclean one with `sanitize`, on hand-picked cases (1×1 images as `img` and `image`, in excluded subtrees, after them) and
/// on every escaped-HTML text of the real corpus the fast builder takes.
#[test]
fn clean_report_and_early_significance_match_the_full_scan() {
    let cases = [
        "<img width=1 height=1>",
        "<image width=1 height=1>x",
        "<p>x<img width=\"1\" height=\"1\" src=a></p>",
        "<img width=1 height=2><b>x</b>",
        "<img WIDTH=1 Height=1>",
        "<p hidden><img src=x></p>",
        "<p hidden><img width=1 height=1></p>y",
        "<script>x</script> <style>y</style>",
        "<script>x</script><video></video>",
        "<div hidden>a<p>b</p></div><p> </p>",
        "<div hidden>a</div><p>b</p>",
        "<svg></svg>",
        "<input type=hidden><input type=text>",
        "<audio></audio><audio controls></audio>",
        "<b> </b><i>\n</i><!-- c -->",
        "<svg><img width=1 height=1></svg>",
        "<table><tr><td><img width=1 height=1>",
        "a<img width=1 height=1>b<p>c<img width=1 height=1><img width=1 height=1></p><i>d</i>",
        "<ul><li><img width=1 height=1><li>x<img width=1 height=1></ul>e",
        "<b>1<p>2<img width=1 height=1></b>3</p><img width=1 height=1>",
        "<p hidden><img width=1 height=1></p>",
    ];
    let texts = corpus_texts();
    let (mut built, mut unclean) = (0, 0);
    for s in cases.iter().copied().chain(texts.iter().map(String::as_str)) {
        let arena = Bump::new();
        let s = arena.alloc_str(s);
        let mut flat = bumpalo::collections::Vec::new_in(&arena);
        let Some(fast::Built { clean, .. }) =
            fast::build_checked(&arena, s, &mut flat, usize::MAX, &mut 0)
        else {
            continue;
        };
        built += 1;
        let full = sanitize::significance_if_clean(&flat);
        assert_eq!(clean, full.is_some(), "{s:?}");
        match full {
            Some(significant) => {
                assert_eq!(sanitize::significance_of_clean(&flat), significant, "{s:?}")
            }
            None => {
                unclean += 1;
                let (nodes, significant) = sanitize::sanitize_built(&arena, &flat);
                let want = sanitize::sanitize(&arena, &flat, &[], false);
                assert_eq!((nodes, significant), want, "{s:?}");
            }
        }
    }
    assert!(built >= cases.len() - 2 && unclean >= 4, "{built} built, {unclean} unclean");
}

/// A fragment in which the fast tree builder saw no URL attribute that may hold a relative
/// URL (`EscapedHtml::relative_urls` false, so the recovery rule `html_url` skips it) is one
/// `urls::resolve_urls` hands nothing to resolve and returns as is: over the corpus's escaped
/// HTML texts and cases of each URL attribute kind, absolute, relative and in SVG.
#[test]
fn fragments_without_relative_url_attributes_need_no_resolving() {
    let base = url::Url::parse("http://feed.example/a/").unwrap();
    let cases = [
        r#"<p><a href="x.html">x</a></p>"#,
        r#"<p><a href="http://e.example/">y</a></p>"#,
        r##"<p><a href="#top">t</a> <a href=" HTTPS://e.example/">u</a></p>"##,
        r#"<img srcset="a.png 1x, http://e.example/b.png 2x">"#,
        r#"<img srcset="http://e.example/b.png 2x" src="mailto:x@e.example">"#,
        r#"<q cite=" //e.example/x">q</q><video poster="p.png"></video>"#,
        r#"<div class="x" style="y"><b>b</b></div><form action="/f"></form>"#,
        r#"<svg><a href="rel">s</a></svg><p>after</p>"#,
        r#"<b><p>adopted <a href="rel">a</a></b> text</p>"#,
        // Elements without URL attributes are not asked (their tag table entry says so);
        // names outside the tag table (`audio`, `q`, `x-y`) always are.
        r#"<p class="a" id="b"><span title="c"><i lang="d">e</i></span></p>"#,
        r#"<p class="a"><audio src="a.ogg"></audio></p>"#,
        r#"<ins cite="why.html">w</ins><x-y href="rel">z</x-y>"#,
        r#"<blockquote cite="/src" class="q">q</blockquote>"#,
        r#"<image src="i.png">"#,
    ];
    let flagged = |t: &str| {
        let arena = Bump::new();
        let t = arena.alloc_str(t);
        parse_escaped_html_checked(&arena, t, usize::MAX).relative_urls
    };
    let expected =
        [true, false, false, true, false, true, true, false, true, false, true, true, true, true];
    assert_eq!(cases.map(flagged), expected);
    let texts = corpus_texts();
    let (mut skipped, mut walked) = (0, 0);
    for t in cases.iter().copied().chain(texts.iter().map(String::as_str)) {
        let arena = Bump::new();
        let t = arena.alloc_str(t);
        let p = parse_escaped_html_checked(&arena, t, usize::MAX);
        let Some(Text::Html(h)) = p.value else { continue };
        let mut asked = 0;
        let out = urls::resolve_urls(&arena, h, &base, false, |_, _| {
            asked += 1;
            Some("http://resolved.example/")
        });
        if p.relative_urls {
            walked += 1;
        } else {
            skipped += 1;
            assert_eq!(asked, 0, "{t:?}");
            assert!(out.is_equal_node(&h), "{t:?}");
        }
    }
    assert!(skipped > 100 && walked > 10, "skipped {skipped}, walked {walked}");
}
