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
    (
        "a<p>bc<img src width=1 height=1>aa",
        Exp::Xml("a<p XHTML>bcaa</p>"),
    ), // atom.dat:57
    ("<p hidden>abc", Exp::None),                           // atom.dat:64,71
    ("def", Exp::Plain("def")),                             // atom.dat:72
    ("<script>abc</script>", Exp::None),                    // atom.dat:79
    ("<br>", Exp::None),                                    // atom.dat:86
    ("aa&copy;a", Exp::Plain("aa\u{A9}a")),                 // atom.dat:184
    ("hoge<br> fuga", Exp::Xml("hoge<br XHTML></br> fuga")), // atom.dat:558,576,594
    (
        "aa <p><rt x=y>d",
        Exp::Xml("aa <p XHTML><rt x=\"y\">d</rt></p>"),
    ), // atom.dat:770
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
    (
        "aa <p><rt x=y>c",
        Exp::Xml("aa <p XHTML><rt x=\"y\">c</rt></p>"),
    ), // rss2.dat:585
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
    assert_eq!(
        parse_escaped_html(&arena, "\u{A0}"),
        Some(Text::Plain("\u{A0}"))
    );
    assert_eq!(
        parse_escaped_html(&arena, "\u{3000}"),
        Some(Text::Plain("\u{3000}"))
    );
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
        assert!(
            h.is_equal_node(&h2),
            "{s:?} -> {html:?} -> {:?}",
            h2.to_html_string()
        );
        assert_eq!(html, h2.to_html_string());
    }
    assert_eq!(
        parse(&arena, "hoge<br> fuga").to_html_string(),
        "hoge<br> fuga"
    );
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
    let el = Element {
        namespace: X,
        prefix: None,
        local: "span",
        attrs: &[],
    };
    let mut nodes: Vec<Node<'_>> = (0..n)
        .map(|_| Node {
            kind: NodeKind::Element(el),
            end: n + 1,
        })
        .collect();
    nodes.push(Node {
        kind: NodeKind::Text("x"),
        end: n + 1,
    });
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
    Node {
        kind: NodeKind::Element(Element {
            namespace: ns,
            prefix,
            local,
            attrs,
        }),
        end,
    }
}
fn text(t: &str, end: u32) -> Node<'_> {
    Node {
        kind: NodeKind::Text(t),
        end,
    }
}
fn at<'a>(local: &'a str, value: &'a str) -> Attribute<'a> {
    Attribute {
        namespace: "",
        prefix: None,
        local,
        value,
    }
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
    assert_eq!(
        ser(&[el(X, None, "p", &[], 2), text("abc", 2)]),
        Some(xml("<p XHTML>abc</p>"))
    );
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
        &[
            text("a", 1),
            text("b", 2),
            el(X, None, "i", &[], 5),
            text("c", 4),
            text("d", 5),
        ],
    )
    .unwrap();
    assert_eq!(f.nodes().len(), 3);
    assert_eq!(f.nodes()[0].kind, NodeKind::Text("ab"));
    assert_eq!(f.nodes()[2].kind, NodeKind::Text("cd"));
    assert_eq!(f.to_xml_string(), xml("ab<i XHTML>cd</i>"));
    let f = finish_fragment(
        &arena,
        &[el(X, None, "i", &[], 2), text("c", 2), text("d", 3)],
    )
    .unwrap();
    assert_eq!(f.nodes().len(), 3);
    let f = finish_fragment(
        &arena,
        &[text("a", 1), el(X, None, "img", &one, 2), text("b", 3)],
    )
    .unwrap();
    assert_eq!(f.nodes().len(), 2);
    assert_eq!(f.to_xml_string(), "ab");
    // A 1x1 img with children (possible in XML) is removed with its subtree.
    assert_eq!(
        ser(&[el(X, None, "img", &one, 2), text("a", 2), text("b", 3)]),
        Some("b".into())
    );
}

#[test]
fn xml_namespaces() {
    let arena = Bump::new();
    let ser = |nodes: &[Node<'_>]| finish_fragment(&arena, nodes).unwrap().to_xml_string();
    let xmlns_x = [Attribute {
        namespace: XMLNS_NS,
        prefix: Some("xmlns"),
        local: "x",
        value: "urn:x",
    }];
    let xmlns_default = [Attribute {
        namespace: XMLNS_NS,
        prefix: None,
        local: "xmlns",
        value: X,
    }];
    let xattr = [Attribute {
        namespace: "urn:y",
        prefix: Some("y"),
        local: "a",
        value: "v",
    }];
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
        ser(&[
            el("urn:x", Some("x"), "foo", &[], 3),
            el(X, None, "b", &[], 3),
            text("t", 3)
        ]),
        xml("<x:foo xmlns:x=\"urn:x\"><b XHTML>t</b></x:foo>")
    );
    // Existing default declaration equal to the element namespace is not duplicated.
    assert_eq!(
        ser(&[el(X, None, "p", &xmlns_default, 2), text("t", 2)]),
        xml("<p XHTML>t</p>")
    );
    // Null-namespace element under an HTML element gets xmlns="".
    assert_eq!(
        ser(&[
            el(X, None, "p", &[], 3),
            el("", None, "q", &[], 3),
            text("t", 3)
        ]),
        xml("<p XHTML><q xmlns=\"\">t</q></p>")
    );
    // Top-level null-namespace element: no declaration.
    assert_eq!(ser(&[el("", None, "q", &[], 2), text("t", 2)]), "<q>t</q>");
    // Prefixed attribute gets its declaration right after it; children inherit it.
    assert_eq!(
        ser(&[
            el(X, None, "p", &xattr, 3),
            el(X, None, "i", &xattr, 3),
            text("t", 3)
        ]),
        xml("<p XHTML y:a=\"v\" xmlns:y=\"urn:y\"><i y:a=\"v\">t</i></p>")
    );
    // Contradicting own default declaration is replaced by the generated one.
    let bad_default = [
        Attribute {
            namespace: XMLNS_NS,
            prefix: None,
            local: "xmlns",
            value: "urn:z",
        },
        at("a", "b"),
    ];
    assert_eq!(
        ser(&[el(X, None, "p", &bad_default, 2), text("t", 2)]),
        xml("<p XHTML a=\"b\">t</p>")
    );
    // Default declaration on a prefixed element is inherited by its unprefixed children.
    let decls = [
        xmlns_x[0],
        Attribute {
            namespace: XMLNS_NS,
            prefix: None,
            local: "xmlns",
            value: "urn:d",
        },
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
    let pi = Node {
        kind: NodeKind::ProcessingInstruction {
            target: "t",
            data: "d",
        },
        end: 2,
    };
    assert_eq!(
        ser(&[
            Node {
                kind: NodeKind::Comment("c"),
                end: 1
            },
            pi,
            text("x", 3)
        ]),
        "<!--c--><?t d?>x"
    );
}

#[test]
fn malformed_ends_do_not_panic() {
    let arena = Bump::new();
    let nodes = [
        el(X, None, "p", &[], 0),
        text("a", 99),
        el(X, None, "b", &[], 1),
        text("c", 2),
    ];
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
        assert_eq!(
            parse_escaped_html(&arena, s),
            parse_full(&arena, s),
            "{s:?}"
        );
    }
}

/// Throughput over the escaped-HTML texts of the real corpus:
/// `cargo test --release --lib html::tests::corpus_throughput -- --ignored --nocapture`
#[test]
#[ignore]
fn corpus_throughput() {
    let mut texts: Vec<String> = Vec::new();
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/real");
    let mut dirs = vec![std::path::PathBuf::from(root)];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(d).unwrap().flatten() {
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
    let total: usize = texts.iter().map(|t| t.len()).sum();
    let fast = texts
        .iter()
        .filter(|t| !may_open_tag(t) && is_plain_run(t))
        .count();
    let amp_only = texts
        .iter()
        .filter(|t| !may_open_tag(t) && !is_plain_run(t))
        .count();
    let mut arena = Bump::new();
    for t in &texts {
        assert_eq!(
            parse_escaped_html(&arena, t),
            parse_full(&arena, t),
            "{t:?}"
        );
    }
    arena.reset();
    let rounds: usize = std::env::var("HTML_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    // CPU time of this thread (clock ticks), robust against a loaded machine.
    fn cpu_ticks() -> u64 {
        let s = std::fs::read_to_string("/proc/thread-self/stat").unwrap_or_default();
        let rest = s.rsplit(')').next().unwrap_or("");
        let f: Vec<&str> = rest.split_whitespace().collect();
        f.get(11).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0)
            + f.get(12).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0)
    }
    let cpu0 = cpu_ticks();
    let start = std::time::Instant::now();
    let mut n = 0usize;
    for _ in 0..rounds {
        for t in &texts {
            if let Some(Text::Html(h)) = parse_escaped_html(&arena, t) {
                n += h.nodes().len();
            }
            arena.reset();
        }
    }
    let el = start.elapsed();
    let cpu = (cpu_ticks() - cpu0) as f64 / 100.0;
    println!(
        "CPU {cpu:.2}s: {:.1} MB/s of CPU time",
        (total * rounds) as f64 / cpu / 1e6
    );
    println!(
        "{} texts, {} bytes, fast path {}, tokenizer-only {}; {:.1} MB/s ({} nodes)",
        texts.len(),
        total,
        fast,
        amp_only,
        (total * rounds) as f64 / el.as_secs_f64() / 1e6,
        n
    );
}

/// Crude extraction of element contents (CDATA or XML-unescaped text) for the benchmark.
#[cfg(test)]
fn extract(data: &str, texts: &mut Vec<String>) {
    for name in [
        "description",
        "content:encoded",
        "summary",
        "content",
        "title",
    ] {
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

#[test]
#[ignore]
fn pathological_nesting_timing() {
    for tag in [
        "<b>", "<div>", "<p>", "<span>", "<li>", "<a>", "<table>", "<i><b>",
    ] {
        for n in [10_000usize, 20_000] {
            let arena = Bump::new();
            let s = tag.repeat(n) + "x";
            let t = std::time::Instant::now();
            let r = parse_escaped_html(&arena, arena.alloc_str(&s));
            println!("{tag} x{n}: {:?} {}", t.elapsed(), r.is_some());
        }
    }
}
