use super::*;

#[test]
fn rfc822_dates() {
    assert_eq!(check_rfc822("Sat, 07 Sep 2002 00:00:01 GMT"), DateCheck::Ok(1_031_356_801));
    assert_eq!(check_rfc822("7 Sep 2002 09:00 +0900"), DateCheck::Ok(1_031_356_800));
    assert_eq!(
        check_rfc822("Sat, 07 Sep 02 00:00:01 GMT"),
        DateCheck::Problematic("two-digit year", 1_031_356_801)
    );
    assert!(matches!(
        check_rfc822("Sat,  07 Sep 2002 00:00:01 GMT"),
        DateCheck::Problematic("whitespace", _)
    ));
    assert!(matches!(
        check_rfc822("Sat, 07 Sep 2002 00:00:01 GMT (UTC)"),
        DateCheck::Problematic("comment", _)
    ));
    assert!(matches!(
        check_rfc822("Sat, 07 Sep 2002 00:00:01 A"),
        DateCheck::Problematic("time zone", _)
    ));
    assert!(matches!(check_rfc822("Sat, 07 Sep 2002 00:00:01 Z"), DateCheck::Ok(_)));
    assert!(matches!(
        check_rfc822("sat, 07 sep 2002 00:00:01 gmt"),
        DateCheck::Problematic("capitalization", _)
    ));
    assert_eq!(check_rfc822("Sun, 07 Sep 2002 00:00:01 GMT"), DateCheck::IncorrectDow);
    assert_eq!(check_rfc822("2002-09-07T00:00:01Z"), DateCheck::Invalid);
    assert_eq!(check_rfc822("Sat, 31 Sep 2002 00:00:01 GMT"), DateCheck::Invalid);
    assert_eq!(check_rfc822("Sat, 07 Sep 2002 24:00:01 GMT"), DateCheck::Invalid);
    assert_eq!(check_rfc822(""), DateCheck::Invalid);
}

#[test]
fn emails() {
    assert_eq!(check_email("a@b.example (A B)"), EmailCheck::Recommended);
    assert_eq!(check_email("a@b.example"), EmailCheck::MissingRealName);
    assert_eq!(check_email("A B <a@b.example>"), EmailCheck::OtherFormat);
    assert_eq!(check_email("mailto:a@b.example"), EmailCheck::OtherFormat);
    assert_eq!(check_email("A B"), EmailCheck::Invalid);
}

#[test]
fn urls() {
    assert_eq!(check_url(" https://a.example/x?y=1 "), UrlCheck::Ok);
    assert_eq!(check_url("mailto:a@b.example"), UrlCheck::Ok);
    assert_eq!(check_url("/x"), UrlCheck::NotFull);
    assert_eq!(check_url("www.example.com"), UrlCheck::NotFull);
    assert_eq!(check_url("bogus://a.example/"), UrlCheck::Unregistered);
    assert_eq!(check_url("fax:+1-555-0100"), UrlCheck::Ok);
    assert_eq!(check_url("www.example.com:80/x"), UrlCheck::NotFull);
    assert_eq!(check_url("bogus://a b"), UrlCheck::NotFull);
    assert_eq!(check_url("http://"), UrlCheck::NotFull);
    assert_eq!(check_url("https://a.example/é"), UrlCheck::Iri);
    assert_eq!(check_url("  "), UrlCheck::Blank);
}

#[test]
fn small_values() {
    assert!(is_language("en-us") && is_language("EN") && is_language("x-klingon"));
    assert!(!is_language("english") && !is_language("qq") && !is_language("en_US"));
    assert!(is_mime_type("audio/mpeg") && is_mime_type("text/html; charset=utf-8"));
    assert!(!is_mime_type("mp3"));
    assert!(is_form_component_name("q:x-y.z_1") && !is_form_component_name("1q"));
    assert_eq!(html_tag("a <b>bold</b>"), Some("<b>"));
    assert_eq!(html_tag("1 < 2 > 0"), None);
    assert_eq!(raw_relative_ref(r#"<a href="/x">"#).as_deref(), Some("/x"));
    let absolute_and_fragment = r#"<img src='https://a.example/i.png'> <a href=#top>"#;
    assert_eq!(raw_relative_ref(absolute_and_fragment), None);
    let h = scan_html_raw("x &lt;a href=&quot;/y?a&amp;b&quot;&gt;");
    assert_eq!((h.child, h.relative.as_deref(), h.non_html), (None, Some("/y?a&b"), None));
    let h = scan_html_raw("<![CDATA[<p><img src='i.png'></p>]]> <b>x</b>");
    assert_eq!((h.child, h.relative.as_deref(), h.non_html), (Some("b"), Some("i.png"), None));
    let h = scan_html_raw("&lt;a href=&#34;https://a.example/&#34;&gt;");
    assert_eq!(h.relative, None);
    let h = scan_html_raw("&lt;p&gt;a&lt;o:p&gt;&lt;/o:p&gt; &lt;blah&gt;&lt;/p&gt;");
    assert_eq!(h.non_html, Some("o:p"));
    let h = scan_html_raw("<![CDATA[<figure><my-widget x=1></my-widget><svg><path/></svg><foo>]]>");
    assert_eq!(h.non_html, None);
    let h = scan_html_raw("<![CDATA[<section><foo>]]>");
    assert_eq!(h.non_html, Some("foo"));
    let h = scan_html_raw("1 &lt; 2 &amp;&amp; a&lt;b &#x3C;Video controls&gt;");
    assert_eq!(h.non_html, None);
    assert!(HTML_ELEMENTS.iter().all(|n| is_html_element(n)));
    assert!(is_html_element("BLOCKQUOTE") && !is_html_element("blockquotes"));
    assert!(is_html_element("figcaption") && is_html_element("H1") && !is_html_element("h7"));
    assert!(!is_html_element("o:p") && is_html_element("x-y") && !is_html_element(""));
}

#[test]
fn profile_notes() {
    assert!(is_pics_label(r#"(PICS-1.1 "http://www.classify.org/safesurf/" l r (SS~~000 1))"#));
    assert!(is_pics_label(
        r#" (PICS-1.1 "http://www.rsac.org/ratingsv01.html" l gen true comment "RSACi (x)" r (n 0 s 0 v 0 l 0)) "#
    ));
    assert!(!is_pics_label("PG-13") && !is_pics_label("(PICS-1.1 \"u\" r (n 0)"));
    assert!(!is_pics_label("(PICS-1.1 \"u\" r (n 0))) x") && !is_pics_label("(PICS \"u\")"));
    assert!(has_empty_category_level("News//Tech") && has_empty_category_level("/News"));
    assert!(has_empty_category_level("News/ /Tech") && has_empty_category_level("News/"));
    assert!(!has_empty_category_level("Business/Industries/Publishing"));
    assert!(!has_empty_category_level("AC/DC") && !has_empty_category_level("Grateful Dead"));
    assert!(!has_empty_category_level("https://www.example.com/tags/x"));
    assert!(is_noncanonical_rssboard_docs("http://www.rssboard.org/rss-specification/"));
    assert!(is_noncanonical_rssboard_docs("https://rssboard.org/rss-specification"));
    assert!(is_noncanonical_rssboard_docs("http://www.rssboard.org/rss-profile"));
    assert!(!is_noncanonical_rssboard_docs(RSSBOARD_SPEC));
    assert!(!is_noncanonical_rssboard_docs("https://www.rssboard.org/rss-specification"));
    assert!(!is_noncanonical_rssboard_docs("http://blogs.law.harvard.edu/tech/rss"));
}

#[test]
fn raw_content() {
    let r = read_raw("a &amp; b");
    assert_eq!((&*r.text, r.non_hex), ("a & b", Some("&amp;")));
    let r = read_raw("a &#x26; b &#X3c; c");
    assert_eq!((&*r.text, r.non_hex), ("a & b < c", None));
    let r = read_raw("<![CDATA[x < y]]>");
    assert_eq!((&*r.text, r.non_hex), ("x < y", Some("<![CDATA[")));
    let r = read_raw("x <b>y</b> &eacute;");
    assert_eq!((&*r.text, r.child), ("x y &eacute;", Some("b")));
}

/// Script-running elements and event-handler attributes, escaped or in CDATA; an attribute
/// name inside a quoted value is not an attribute.
#[test]
fn security_risks_in_html() {
    let h = scan_html_raw("a &lt;p&gt;b&lt;SCRIPT src=x&gt;&lt;/script&gt;");
    assert_eq!((h.risk_tag, h.risk_attr), (Some("SCRIPT"), None));
    let h = scan_html_raw("<![CDATA[<img src=x.png onerror='go()'><embed>]]>");
    assert_eq!((h.risk_tag, h.risk_attr), (Some("embed"), Some("onerror")));
    let h =
        scan_html_raw("&lt;a title=&quot;x onclick=y&quot; href=&#39;on=1&#39;&gt;on&lt;/a&gt;");
    assert_eq!((h.risk_tag, h.risk_attr), (None, None));
    let h = scan_html_raw("&lt;form action=y onsubmit=go()&gt;");
    assert_eq!(h.risk_attr, Some("onsubmit"));
    assert_eq!(event_attr("a=\"b\" on=1 one two=3"), None);
    assert_eq!(event_attr("/ onload"), Some("onload"));
}

/// The pre-check before the attribute parse never hides an event handler: over every string
/// of up to four tokens (names, quotes escaped or not, `=`, separators), whenever
/// `event_attr` finds one, `may_hold_event_attr` holds.
#[test]
fn event_attr_precheck_is_necessary() {
    const TOKENS: [&str; 15] = [
        "onload", "ONCLICK", "on", "oNfoo1", " ", "\t", "\"", "'", "&quot;", "&#39;", "=", "/",
        "x", ";", "a-b",
    ];
    let (mut found, mut skipped) = (0, 0);
    let n = TOKENS.len();
    for k in 0..n.pow(4) {
        let mut s = String::new();
        let mut k2 = k;
        for _ in 0..4 {
            s.push_str(TOKENS[k2 % n]);
            k2 /= n;
        }
        let hit = event_attr(&s).is_some();
        assert!(!hit || may_hold_event_attr(&s), "{s:?}");
        found += hit as usize;
        skipped += !may_hold_event_attr(&s) as usize;
    }
    // Both sides occur: the property is not vacuous, and the check does skip parses.
    assert!(found > 1000 && skipped > 1000, "{found} {skipped}");
}

#[test]
fn image_url_types() {
    for ok in [
        "https://a.example/logo.png",
        "https://a.example/l.JPEG?x=1.svg",
        "https://a.example/logo",
        "https://a.example/img.php/",
        "https://a.example",
        "https://a.example/v1.2/logo.gif#a.b",
    ] {
        assert!(!image_url_not_gif_jpeg_png(ok), "{ok}");
    }
    for bad in ["https://a.example/logo.svg", "https://a.example/i/logo.webp?s=2", "http://x/a.ico"]
    {
        assert!(image_url_not_gif_jpeg_png(bad), "{bad}");
    }
}

#[test]
fn atom_values() {
    for ok in ["2003-12-13T18:30:02Z", "2003-12-13T18:30:02.25Z", " 2003-12-13T18:30:02+01:00 "] {
        assert!(is_rfc3339(ok), "{ok}");
    }
    for bad in [
        "2003-12-13t18:30:02Z",
        "2003-12-13T18:30:02z",
        "2003-12-13T18:30:02+0100",
        "2003-12-13T18:30Z",
        "2003-02-30T18:30:02Z",
        "Sat, 13 Dec 2003 18:30:02 GMT",
        "2003-12-13",
        "",
    ] {
        assert!(!is_rfc3339(bad), "{bad}");
    }
    for ok in ["/logo.png", "logo.png", "https://a.example/x%20y", "#top", "é.png"] {
        assert!(is_iri_reference(ok), "{ok}");
    }
    for bad in ["", " ", "a b.png", "a%2.png", "a<b", "a\u{1}b"] {
        assert!(!is_iri_reference(bad), "{bad:?}");
    }
    for ok in ["tag:example.com,2003:3.2397", "urn:uuid:60a76c80-d399-11d9-b93C-0003939e0af6"] {
        assert!(is_absolute_iri(ok), "{ok}");
    }
    for ok in ["https://example.com/1", "http://exämple.com/ü"] {
        assert!(is_absolute_iri(ok), "{ok}");
    }
    for bad in ["/1", "1", "http:1", "example.com/1", "https://example.com/a b", ""] {
        assert!(!is_absolute_iri(bad), "{bad}");
    }
    assert_eq!(first_child_element("a &lt;b&gt; <!-- <c> --> <![CDATA[<d>]]>"), None);
    assert_eq!(first_child_element("a <?pi x?><b:c x='1'>"), Some("b:c"));
    assert!(starts_with_div("  <!-- x --> <xhtml:div xmlns:xhtml='x'>"));
    assert!(!starts_with_div("text <div>"));
    assert!(!starts_with_div("<divx>"));
    assert!(starts_with_div("<div/>"));
}

#[test]
fn markup_risks_and_itunes_image_types() {
    let s =
        scan_markup_risks(r#"<div xmlns="x"><p>a &lt;script&gt; b</p><h:embed src="a"/></div>"#);
    assert_eq!((s.risk_tag, s.risk_attr), (Some("embed"), None));
    let s = scan_markup_risks(r#"<div><!-- <script> --><span onclick="x()">a</span></div>"#);
    assert_eq!(s.risk_attr, Some("onclick"));
    assert_eq!(scan_markup_risks("<div>x<b>y</b></div>"), HtmlScan::default());
    for ok in [
        "https://e.com/a.jpg",
        "https://e.com/a.PNG?x=1",
        "https://e.com/a",
        "https://e.com/a.jpeg",
    ] {
        assert!(!image_url_not_jpeg_png(ok), "{ok}");
    }
    for bad in ["https://e.com/a.gif", "https://e.com/a.webp#f"] {
        assert!(image_url_not_jpeg_png(bad), "{bad}");
    }
}

#[test]
fn risk_scan_finds_the_full_scans_risks() {
    for raw in [
        "Hello &lt;script&gt;x&lt;/script&gt;",
        "<![CDATA[<a href=\"/x\" onclick=\"go()\">a</a><embed>]]>",
        "&lt;p onmouseover=\"x\"&gt;&lt;iframe src=x&gt;",
        "&lt;b&gt;script&lt;/b&gt; on click",
    ] {
        let (full, risks) = (scan_html_raw(raw), scan_html_risks(raw));
        assert_eq!((full.risk_tag, full.risk_attr), (risks.risk_tag, risks.risk_attr), "{raw}");
    }
}
