//! Strict sanitizing: a table of known XSS vectors (obfuscated schemes,
//! entity-encoded attributes, nested and malformed tags), URL resolution, video-embed
//! allowlist, and idempotence over every input.

use feedmill::sanitize::{safe_srcset, safe_url, sanitize_html, SanitizeOptions};
use url::Url;

fn opts() -> SanitizeOptions {
    SanitizeOptions {
        base_url: Some(Url::parse("https://blog.example/posts/1").unwrap()),
        allow_video_embeds: false,
        ..SanitizeOptions::default()
    }
}

/// Known vectors (OWASP XSS filter evasion cheat sheet, html5sec.org, mXSS papers).
const VECTORS: &[&str] = &[
    r#"<script>alert(1)</script>"#,
    r#"<SCRIPT SRC=http://xss.example/xss.js></SCRIPT>"#,
    r#"<scr<script>ipt>alert(1)</script>"#,
    r#"<<script>alert(1);//<</script>"#,
    r#"<script/xss src="http://xss.example/xss.js"></script>"#,
    r#"<img src=x onerror=alert(1)>"#,
    r#"<IMG SRC="javascript:alert('XSS');">"#,
    r#"<IMG SRC=JaVaScRiPt:alert('XSS')>"#,
    r#"<IMG SRC=`javascript:alert("RSnake says, 'XSS'")`>"#,
    r#"<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>"#,
    r#"<a href="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058alert(1)">x</a>"#,
    r#"<a href="&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A;alert(1)">x</a>"#,
    r#"<a href="jav	ascript:alert(1)">tab</a>"#,
    r#"<a href="jav&#x09;ascript:alert(1)">encoded tab</a>"#,
    r#"<a href="jav&#x0A;ascript:alert(1)">encoded newline</a>"#,
    r#"<a href="jav&#x0D;ascript:alert(1)">encoded cr</a>"#,
    r#"<a href=" &#14;  javascript:alert(1)">leading control</a>"#,
    r#"<a href="javascript&colon;alert(1)">named colon</a>"#,
    r#"<a href="&Tab;javascript:alert(1)">named tab</a>"#,
    r#"<a href="java&NewLine;script:alert(1)">named newline</a>"#,
    r#"<a href="java&#8203;script:alert(1)">zero width</a>"#,
    r#"<a href="vbscript:msgbox(1)">vb</a>"#,
    r#"<a href="VBSCRIPT:msgbox(1)">vb upper</a>"#,
    r#"<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data</a>"#,
    r#"<a href="DaTa:text/html,<script>alert(1)</script>">data mixed case</a>"#,
    r#"<img src="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=">"#,
    r#"<img srcset="javascript:alert(1) 1x, /ok.png 2x">"#,
    r#"<video poster="javascript:alert(1)"><source src="vbscript:x"></video>"#,
    r#"<iframe src="javascript:alert(1)"></iframe>"#,
    r#"<iframe src="https://evil.example/"></iframe>"#,
    r#"<iframe srcdoc="<script>alert(1)</script>"></iframe>"#,
    r#"<object data="javascript:alert(1)"></object>"#,
    r#"<embed src="javascript:alert(1)">"#,
    r#"<applet code="x"></applet>"#,
    r#"<svg onload=alert(1)>"#,
    r#"<svg><script>alert(1)</script></svg>"#,
    r#"<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>"#,
    r#"<svg><animate attributeName="href" values="javascript:alert(1)"/></svg>"#,
    r#"<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>"#,
    r#"<noscript><p title="</noscript><img src=x onerror=alert(1)>">"#,
    r#"<style>@import 'http://xss.example/xss.css';</style>"#,
    r#"<div style="background-image: url(javascript:alert(1))">x</div>"#,
    r#"<div style="width: expression(alert(1))">x</div>"#,
    r#"<body onload=alert(1)>"#,
    r#"<b onmouseover=alert(1)>hover</b>"#,
    r#"<b ONMOUSEOVER=alert(1)>hover</b>"#,
    r#"<input onfocus=alert(1) autofocus>"#,
    r#"<details open ontoggle=alert(1)>"#,
    r#"<form action="javascript:alert(1)"><button formaction="javascript:alert(1)">x</button></form>"#,
    r#"<meta http-equiv="refresh" content="0;url=javascript:alert(1)">"#,
    r#"<base href="javascript:alert(1)//">"#,
    r#"<link rel="stylesheet" href="javascript:alert(1)">"#,
    r#"<table background="javascript:alert(1)"><tr><td>x</td></tr></table>"#,
    r#"<blockquote cite="javascript:alert(1)">q</blockquote>"#,
    r#"<!--[if gte IE 4]><script>alert(1)</script><![endif]-->"#,
    r#"<p>unclosed <b>bold <i>italic <a href="javascript:alert(1)">link"#,
    r#"<a href="javascript:alert(1)"<b>malformed</b>"#,
    r#"<a """ href="javascript:alert(1)">quotes</a>"#,
    r#"<img """><script>alert(1)</script>">"#,
    r#"<template><script>alert(1)</script></template>"#,
    r#"<xmp><img src=x onerror=alert(1)></xmp>"#,
    r#"<plaintext><script>alert(1)</script>"#,
    r#"<a href="  https://ok.example/?a=1&amp;b=2 ">fine</a>"#,
    r#"<a href="/relative/path">rel</a><img src="img.png" srcset="a.png 1x, b.png 2x">"#,
];

/// What must never appear in sanitized output (lowercased).
const FORBIDDEN: &[&str] = &[
    "<script",
    "javascript:",
    "vbscript:",
    "data:",
    "onerror",
    "onload",
    "onmouseover",
    "onfocus",
    "ontoggle",
    "<iframe",
    "<object",
    "<embed",
    "<applet",
    "<foreignobject",
    "<animate",
    "<mglyph",
    "<style",
    "style=",
    "expression(",
    "<meta",
    "<base",
    "<link",
    "<form",
    "formaction",
    "srcdoc",
    "<noscript",
    "<template",
    "<xmp",
    "<plaintext",
    "<!--",
    "xlink:href",
];

#[test]
fn xss_vectors_are_neutralized() {
    for v in VECTORS {
        let out = sanitize_html(v, &opts());
        let lower = out.to_ascii_lowercase();
        for f in FORBIDDEN {
            assert!(!lower.contains(f), "vector {v:?} left {f:?} in {out:?}");
        }
        // Also without a base URL (relative references stay relative).
        let out2 = sanitize_html(v, &SanitizeOptions::default()).to_ascii_lowercase();
        for f in FORBIDDEN {
            assert!(!out2.contains(f), "vector {v:?} (no base) left {f:?} in {out2:?}");
        }
    }
}

#[test]
fn mathml_and_svg_keep_their_content() {
    let formula = "<p>E = <math><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup></math></p>";
    assert_eq!(
        sanitize_html(formula, &opts()),
        "<p>E = <math><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup></math></p>"
    );
    let drawing = r#"<svg width="10" height="10" onload="alert(1)"><circle cx="5" cy="5" r="4" fill="red"></circle><text x="1" y="9">hi</text><foreignObject><img src="x" onerror="alert(1)"></foreignObject><rect width="1" height="1" fill="url(https://evil.example/#p)"></rect></svg>"#;
    let out = sanitize_html(drawing, &opts());
    assert_eq!(
        out,
        r#"<svg width="10" height="10"><circle cx="5" cy="5" r="4" fill="red"></circle><text x="1" y="9">hi</text><rect width="1" height="1"></rect></svg>"#
    );
}

#[test]
fn sanitizing_is_idempotent() {
    for o in
        [opts(), SanitizeOptions::default(), SanitizeOptions { allow_video_embeds: true, ..opts() }]
    {
        for v in VECTORS.iter().chain(EMBEDS) {
            let once = sanitize_html(v, &o);
            let twice = sanitize_html(&once, &o);
            assert_eq!(once, twice, "not idempotent on {v:?}");
        }
    }
}

#[test]
fn exact_outputs() {
    let o = opts();
    assert_eq!(
        sanitize_html(r#"<p>Hi <script>x()</script><b onclick="x()">there</b></p>"#, &o),
        "<p>Hi <b>there</b></p>"
    );
    assert_eq!(
        sanitize_html(r#"<a href="/relative/path" onclick="x">rel</a>"#, &o),
        r#"<a href="https://blog.example/relative/path">rel</a>"#
    );
    assert_eq!(
        sanitize_html(
            r#"<img src="img.png" srcset="a.png 1x, javascript:x 2x, //cdn.example/c.png 3x">"#,
            &o
        ),
        r#"<img src="https://blog.example/posts/img.png" srcset="https://blog.example/posts/a.png 1x, https://cdn.example/c.png 3x">"#
    );
    assert_eq!(
        sanitize_html(r#"<video poster="p.jpg"><source src="v.mp4"></video>"#, &o),
        r#"<video poster="https://blog.example/posts/p.jpg"><source src="https://blog.example/posts/v.mp4"></video>"#
    );
    assert_eq!(
        sanitize_html(r#"<a href="https://ok.example/?a=1&amp;b=2">q</a>"#, &o),
        r#"<a href="https://ok.example/?a=1&amp;b=2">q</a>"#
    );
    assert_eq!(sanitize_html(r#"<a href="javascript:alert(1)">x</a>"#, &o), "<a>x</a>");
    assert_eq!(sanitize_html(r#"<form><p>kept</p><input name=a></form>"#, &o), "<p>kept</p>");
    assert_eq!(sanitize_html("<b>unclosed <i>nest", &o), "<b>unclosed <i>nest</i></b>");
    assert_eq!(sanitize_html("a < b & c", &o), "a &lt; b &amp; c");
    assert_eq!(
        sanitize_html(r#"<a href="mailto:me@example.org">m</a>"#, &o),
        r#"<a href="mailto:me@example.org">m</a>"#
    );
}

const EMBEDS: &[&str] = &[
    r#"<iframe width="560" height="315" src="https://www.youtube.com/embed/dQw4w9WgXcQ" onload="x()" style="a" allowfullscreen></iframe>"#,
    r#"<iframe src="//player.vimeo.com/video/76979871"></iframe>"#,
    r#"<iframe src="http://www.youtube-nocookie.com/embed/abc"></iframe>"#,
    r#"<iframe src="https://www.youtube.com/watch?v=abc"></iframe>"#,
    r#"<iframe src="https://youtube.com.evil.example/embed/abc"></iframe>"#,
];

#[test]
fn video_embed_allowlist() {
    let on = SanitizeOptions { allow_video_embeds: true, ..opts() };
    let yt = sanitize_html(EMBEDS[0], &on);
    assert_eq!(
        yt,
        r#"<iframe width="560" height="315" src="https://www.youtube.com/embed/dQw4w9WgXcQ" allowfullscreen="" sandbox="allow-scripts allow-same-origin allow-presentation allow-popups" allow="autoplay; encrypted-media; fullscreen; picture-in-picture"></iframe>"#
    );
    // The feed's own `allow` (devices, data) is not kept: the fixed one replaces it.
    let asks = r#"<iframe src="https://www.youtube.com/embed/x" allow="camera; microphone; geolocation; clipboard-read"></iframe>"#;
    let kept = sanitize_html(asks, &on);
    assert!(
        kept.contains(r#"allow="autoplay; encrypted-media; fullscreen; picture-in-picture""#),
        "{kept}"
    );
    assert!(!kept.contains("camera") && !kept.contains("microphone"), "{kept}");
    assert!(
        sanitize_html(EMBEDS[1], &on).contains(r#"src="https://player.vimeo.com/video/76979871""#)
    );
    assert!(sanitize_html(EMBEDS[2], &on)
        .contains(r#"src="https://www.youtube-nocookie.com/embed/abc""#));
    assert_eq!(sanitize_html(EMBEDS[3], &on), "");
    assert_eq!(sanitize_html(EMBEDS[4], &on), "");
    // Off by default.
    for e in EMBEDS {
        assert!(!sanitize_html(e, &opts()).contains("<iframe"));
    }
}

#[test]
fn url_checks() {
    let base = Url::parse("https://b.example/x/").unwrap();
    assert_eq!(safe_url("java\u{0}script:alert(1)", None), None);
    assert_eq!(safe_url("\u{1}javascript:alert(1)", None), None);
    assert_eq!(safe_url("javascript\u{FEFF}:alert(1)", None), None);
    assert_eq!(safe_url("&#x6a;avascript&#x3a;x", None), None);
    assert_eq!(safe_url("data:image/png;base64,AAAA", Some(&base)), None);
    assert_eq!(safe_url("unknown-scheme:foo", Some(&base)), None);
    assert_eq!(safe_url("y.png", Some(&base)).as_deref(), Some("https://b.example/x/y.png"));
    assert_eq!(safe_url("HTTPS://A.example", Some(&base)).as_deref(), Some("https://a.example/"));
    assert_eq!(safe_url("?q=1", None).as_deref(), Some("?q=1"));
    assert_eq!(
        safe_srcset("a.png 1x, data:x 2x", Some(&base)).as_deref(),
        Some("https://b.example/x/a.png 1x")
    );
    assert_eq!(safe_srcset("javascript:x", Some(&base)), None);
    // Candidates split as the HTML Standard (and so a browser) parses a `srcset`: a comma
    // inside a URL is the URL's; a comma right after a URL ends its candidate.
    assert_eq!(
        safe_srcset("img/w_100,h_100.png 1x,b.png,  c.png (x, y) 2x", Some(&base)).as_deref(),
        Some("https://b.example/x/img/w_100,h_100.png 1x, https://b.example/x/b.png, https://b.example/x/c.png (x, y) 2x")
    );
    // A URL running into a `javascript:` one is one URL, whose scheme is not allowed.
    assert_eq!(safe_srcset("a.png,javascript:alert(1)", Some(&base)), None);
    assert_eq!(
        safe_srcset("a.png 1x,javascript:alert(1) 2x", Some(&base)).as_deref(),
        Some("https://b.example/x/a.png 1x")
    );
}

/// Every HTML value of every real captured feed: sanitized output is free of the forbidden
/// patterns and sanitizing it again changes nothing.
#[test]
fn real_corpus_values_are_clean_and_idempotent() {
    use feedmill::sanitize::sanitize_text;
    use feedmill::{Options, Parser, Text};
    let o = SanitizeOptions {
        base_url: Some(Url::parse("https://example.org/feed").unwrap()),
        allow_video_embeds: true,
        ..SanitizeOptions::default()
    };
    let mut checked = 0;
    // Every third feed, sorted (a debug-build budget of a few seconds; all feeds pass too).
    let files = crate::real_feeds();
    for path in files.iter().step_by(3) {
        {
            let bytes = std::fs::read(path).unwrap();
            let mut parser = Parser::new(Options::default());
            let parsed = parser.parse_bytes(&bytes, Some("https://example.org/feed")).unwrap();
            let Some(feed) = parsed.feed.as_ref() else { continue };
            for e in &feed.entries {
                for t in [&e.title, &e.subtitle, &e.summary, &e.content].into_iter().flatten() {
                    if let Text::Html(_) = t {
                        let once = sanitize_text(t, &o);
                        let lower = once.to_ascii_lowercase();
                        // Prose may mention "JavaScript:"; attribute values may not start with it.
                        for f in [
                            "<script",
                            "=\"javascript:",
                            "=\"vbscript:",
                            "=\"data:",
                            " onerror=",
                            " onload=",
                            "<style",
                            "<object",
                            "<embed",
                        ] {
                            assert!(!lower.contains(f), "{f} in {once}");
                        }
                        let twice = sanitize_html(&once, &o);
                        if twice != once {
                            let at =
                                once.bytes().zip(twice.bytes()).take_while(|(a, b)| a == b).count();
                            let lo = at.saturating_sub(120);
                            panic!(
                                "not idempotent at {at}:\n once: {:?}\ntwice: {:?}",
                                once.get(lo..(at + 120).min(once.len())),
                                twice.get(lo..(at + 120).min(twice.len()))
                            );
                        }
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 300, "{checked}");
}

/// Strict-sanitizing throughput over the HTML values of `corpus/real` (run with `cargo test
/// --release -p feedmill --test it sanitize::sanitize_throughput -- --ignored --nocapture`).
#[test]
#[ignore]
fn sanitize_throughput() {
    use feedmill::sanitize::sanitize_text;
    use feedmill::{Options, Parser, Text};
    let o = SanitizeOptions {
        base_url: Some(Url::parse("https://example.org/feed").unwrap()),
        allow_video_embeds: false,
        ..SanitizeOptions::default()
    };
    let mut html_values: Vec<String> = Vec::new();
    for path in crate::real_feeds() {
        let bytes = std::fs::read(path).unwrap();
        let mut parser = Parser::new(Options::default());
        let parsed = parser.parse_bytes(&bytes, None).unwrap();
        let Some(feed) = parsed.feed.as_ref() else { continue };
        for e in &feed.entries {
            for t in [&e.summary, &e.content].into_iter().flatten() {
                if let Text::Html(h) = t {
                    html_values.push(h.to_html_string());
                }
            }
        }
    }
    let bytes: usize = html_values.iter().map(String::len).sum();
    let start = std::time::Instant::now();
    let mut out = 0usize;
    for v in &html_values {
        out += sanitize_html(v, &o).len();
    }
    let secs = start.elapsed().as_secs_f64();
    let _ = sanitize_text;
    eprintln!(
        "sanitize: {} values, {bytes} bytes in, {out} out, {:.1} MB/s",
        html_values.len(),
        bytes as f64 / secs / 1e6
    );
}
