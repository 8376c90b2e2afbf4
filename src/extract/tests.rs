//! Differential tests of the fast text paths against the straightforward reference versions
//! they replaced (kept here verbatim), on the real corpus and on generated strings.

use super::canonical::*;
use super::*;
use crate::html::text::*;
use crate::html::{Html, NodeKind, HTML_NS};
use crate::model::url::is_canonical_http_url;
use crate::model::Text;
use std::borrow::Cow;

// ---------------------------------------------------------------------------------------------
// Reference implementations (the code before the fast paths).

fn is_hidden(local: &str) -> bool {
    matches!(local, "script" | "style" | "template" | "noscript" | "head" | "title")
}

fn is_break(local: &str) -> bool {
    matches!(
        local,
        "p" | "br"
            | "div"
            | "li"
            | "ul"
            | "ol"
            | "dl"
            | "dt"
            | "dd"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "tr"
            | "td"
            | "th"
            | "table"
            | "thead"
            | "tbody"
            | "tfoot"
            | "caption"
            | "blockquote"
            | "pre"
            | "hr"
            | "section"
            | "article"
            | "aside"
            | "header"
            | "footer"
            | "nav"
            | "figure"
            | "figcaption"
            | "address"
            | "main"
            | "details"
            | "summary"
            | "img"
            | "iframe"
            | "video"
            | "audio"
            | "option"
    )
}

fn ref_text_content(html: &Html<'_>) -> String {
    let nodes = html.nodes();
    let mut out = String::new();
    let mut pending_space = false;
    let mut i = 0usize;
    let mut break_ends: Vec<usize> = Vec::new();
    while i < nodes.len() {
        while break_ends.last().is_some_and(|&e| e <= i) {
            break_ends.pop();
            pending_space = true;
        }
        let node = &nodes[i];
        match node.kind {
            NodeKind::Element(el) => {
                let html_el = el.namespace == HTML_NS || el.namespace.is_empty();
                if html_el && is_hidden(el.local) {
                    i = node.end as usize;
                    pending_space = true;
                    continue;
                }
                if html_el && is_break(el.local) {
                    pending_space = true;
                    break_ends.push(node.end as usize);
                }
            }
            NodeKind::Text(t) => ref_push_collapsed(&mut out, t, &mut pending_space),
            _ => {}
        }
        i += 1;
    }
    out
}

fn ref_push_collapsed(out: &mut String, t: &str, pending_space: &mut bool) {
    let b = t.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let ws_start = i;
        while i < b.len() {
            match ws_len_at(t, i) {
                Some(len) => i += len,
                None => break,
            }
        }
        if i > ws_start {
            *pending_space = true;
        }
        let w0 = i;
        while i < b.len() && ws_len_at(t, i).is_none() {
            i += 1;
        }
        if i > w0 {
            if *pending_space && !out.is_empty() {
                out.push(' ');
            }
            *pending_space = false;
            out.push_str(&t[w0..i]);
        }
    }
}

fn ref_collapse(s: &str) -> String {
    let mut out = String::new();
    ref_push_collapsed(&mut out, s, &mut false);
    out
}

fn ref_word_count(text: &str) -> u32 {
    let mut n = 0u32;
    let mut in_word = false;
    let mut word_has_alnum = false;
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let byte = b[i];
        let (is_ws, is_alnum, unspaced, len) = if byte < 0x80 {
            (
                matches!(byte, b' ' | b'\t' | b'\n' | b'\r' | 0x0B | 0x0C),
                byte.is_ascii_alphanumeric(),
                false,
                1,
            )
        } else {
            let c = text[i..].chars().next().unwrap_or(' ');
            (c.is_whitespace(), c.is_alphanumeric(), is_unspaced_script(c), c.len_utf8())
        };
        i += len;
        if is_ws || unspaced {
            if in_word && word_has_alnum {
                n += 1;
            }
            in_word = false;
            word_has_alnum = false;
            if unspaced {
                n += 1;
            }
        } else {
            in_word = true;
            word_has_alnum |= is_alnum;
        }
    }
    if in_word && word_has_alnum {
        n += 1;
    }
    n
}

// ---------------------------------------------------------------------------------------------
// Inputs

/// Every text construct of every feed and entry of the real corpus, with its parser's arena
/// alive for the callback.
fn for_each_corpus_text(mut f: impl FnMut(&Text<'_>)) -> usize {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/real");
    let mut n = 0;
    for dir in ["atom", "atom03", "rss1", "rss2"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let bytes = std::fs::read(entry.unwrap().path()).unwrap();
            let mut parser = crate::Parser::new(crate::Options::default());
            let Ok(parsed) = parser.parse_bytes(&bytes, Some("https://example.org/feed")) else {
                continue;
            };
            let Some(feed) = &parsed.feed else { continue };
            for t in [&feed.title, &feed.subtitle, &feed.description].into_iter().flatten() {
                f(t);
                n += 1;
            }
            for e in &feed.entries {
                for t in [&e.title, &e.subtitle, &e.summary, &e.content].into_iter().flatten() {
                    f(t);
                    n += 1;
                }
            }
        }
    }
    n
}

/// Deterministic random numbers and picks ([`crate::test_rng`]).
struct Rng<R>(R);

impl<R: FnMut() -> u64> Rng<R> {
    fn next(&mut self) -> u64 {
        (self.0)()
    }
    fn pick<'s>(&mut self, from: &[&'s str]) -> &'s str {
        from[(self.next() % from.len() as u64) as usize]
    }
}

/// Pieces that exercise every class of the scans: ASCII letters, digits, punctuation, every
/// ASCII whitespace byte, other controls, non-ASCII whitespace (U+0085, U+00A0, U+1680,
/// U+2003, U+2028, U+202F, U+205F, U+3000), lead bytes of those blocks that are not
/// whitespace (U+00E9, U+1E9E, U+2019, U+3042), unspaced scripts (Han, Kana, Thai, Ext. B),
/// other letters, digits and emoji; repeated to cross the 8-byte blocks at every offset.
const PIECES: &[&str] = &[
    "a",
    "Z",
    "q",
    "0",
    "9",
    "word",
    "Hello",
    "x1",
    " ",
    " ",
    " ",
    "  ",
    "\t",
    "\n",
    "\r",
    "\u{b}",
    "\u{c}",
    "\u{1}",
    "\u{1f}",
    "\u{7f}",
    ".",
    ",",
    "'",
    "-",
    "—",
    "!",
    "(",
    "@",
    "[",
    "`",
    "{",
    "~",
    "/",
    ":",
    "\u{85}",
    "\u{a0}",
    "\u{1680}",
    "\u{2003}",
    "\u{2028}",
    "\u{202f}",
    "\u{205f}",
    "\u{3000}",
    "é",
    "\u{1e9e}",
    "\u{2019}",
    "\u{2026}",
    "あ",
    "日本",
    "ไทย",
    "\u{20000}",
    "Ω",
    "٣",
    "😀",
    "abcdefgh",
    "ABCDEFGHIJ",
    "12345678",
    "a b c d e f",
];

/// Short texts (up to 24 pieces), and one in four long (up to 200 pieces) so that the
/// 64-byte blocks of the scans are crossed at every offset, by every kind of character.
fn random_text(rng: &mut Rng<impl FnMut() -> u64>) -> String {
    let mut s = String::new();
    let n = if rng.next().is_multiple_of(4) { rng.next() % 200 } else { rng.next() % 24 };
    for _ in 0..n {
        s.push_str(rng.pick(PIECES));
    }
    s
}

// ---------------------------------------------------------------------------------------------
// Tests

#[test]
fn word_count_matches_reference_on_corpus_and_generated_text() {
    let arena = Bump::new();
    let mut checked = 0;
    for_each_corpus_text(|t| {
        let s: String = match t {
            Text::Plain(s) => s.to_string(),
            Text::Html(h) => ref_text_content(h),
        };
        assert_eq!(word_count(&s), ref_word_count(&s), "{s:?}");
        if let Some(p) = plain_text(&arena, t) {
            assert_eq!(word_count(p), ref_word_count(p), "{p:?}");
        }
        checked += 1;
    });
    assert!(checked > 5_000, "{checked}");
    let mut rng = Rng(crate::test_rng(0x9E37_79B9_7F4A_7C15));
    for _ in 0..300_000 {
        let s = random_text(&mut rng);
        assert_eq!(word_count(&s), ref_word_count(&s), "{s:?}");
    }
}

#[test]
fn collapse_matches_reference_on_corpus_and_generated_text() {
    let arena = Bump::new();
    for_each_corpus_text(|t| {
        if let Text::Plain(s) = t {
            assert_eq!(collapse(&arena, s), ref_collapse(s), "{s:?}");
        }
    });
    let mut rng = Rng(crate::test_rng(0x2545_F491_4F6C_DD1D));
    for _ in 0..300_000 {
        let s = random_text(&mut rng);
        assert_eq!(collapse(&arena, &s), ref_collapse(&s), "{s:?}");
    }
}

#[test]
fn text_content_matches_reference_on_corpus_values() {
    let arena = Bump::new();
    let mut html = 0;
    for_each_corpus_text(|t| {
        if let Text::Html(h) = t {
            assert_eq!(text_content(&arena, h), ref_text_content(h));
            html += 1;
        }
    });
    assert!(html > 1_000, "{html}");
}

#[test]
fn text_content_matches_reference_on_generated_fragments() {
    // Tag soup over block, inline and hidden elements, with the text pieces above; also
    // deep nesting of block elements (past the inline stack of 32 break ends).
    let tags = [
        "<p>",
        "</p>",
        "<div>",
        "</div>",
        "<br>",
        "<b>",
        "</b>",
        "<i>",
        "</i>",
        "<span>",
        "</span>",
        "<li>",
        "<ul>",
        "</ul>",
        "<script>x y</script>",
        "<style>p{}</style>",
        "<img src=x>",
        "<table><tr><td>",
        "</td></tr></table>",
        "<!-- c -->",
        "<svg><title>t</title></svg>",
        "<h1>",
        "</h1>",
        "<pre>",
        "</pre>",
        "&nbsp;",
        "&amp;",
    ];
    let arena = Bump::new();
    let mut rng = Rng(crate::test_rng(0xD1B5_4A32_D192_ED03));
    let mut fragments = 0;
    for round in 0..60_000 {
        let mut s = String::new();
        if round % 100 == 0 {
            for _ in 0..(30 + rng.next() % 40) {
                s.push_str(rng.pick(&["<div>", "<p>", "<blockquote>", "<li>"]));
                s.push_str(rng.pick(PIECES));
            }
        }
        for _ in 0..rng.next() % 16 {
            if rng.next().is_multiple_of(2) {
                s.push_str(rng.pick(&tags));
            } else {
                s.push_str(rng.pick(PIECES));
            }
        }
        if let Some(Text::Html(h)) = crate::html::parse_escaped_html(&arena, arena.alloc_str(&s)) {
            assert_eq!(text_content(&arena, &h), ref_text_content(&h), "{s:?}");
            fragments += 1;
        }
    }
    assert!(fragments > 20_000, "{fragments}");
}

#[test]
fn text_content_deep_block_nesting() {
    // More open block elements than the inline stack holds (32): every close still separates.
    let arena = Bump::new();
    for depth in [31, 32, 33, 40, 100] {
        let mut s = "<div>".repeat(depth);
        s.push('x');
        for i in 0..depth {
            s.push_str("</div>");
            s.push(char::from(b'a' + (i % 26) as u8));
        }
        let Some(Text::Html(h)) = crate::html::parse_escaped_html(&arena, arena.alloc_str(&s))
        else {
            panic!()
        };
        let want = ref_text_content(&h);
        assert_eq!(want.len(), 2 * depth + 1, "{want:?}");
        assert_eq!(text_content(&arena, &h), want);
    }
}

#[test]
fn collapsed_text_is_borrowed_when_it_can_be() {
    let arena = Bump::new();
    // Inner whitespace to collapse: a new string.
    assert_eq!(collapse(&arena, "  \n Some   title"), "Some title");
    // Only trimming: a slice of the input.
    let s = " \n A title \u{3000}";
    let out = collapse(&arena, s);
    assert_eq!(out, "A title");
    assert!(s.as_bytes().as_ptr_range().contains(&out.as_ptr()));
    let h = match crate::html::parse_escaped_html(&arena, "<p>\n  One text node  </p>") {
        Some(Text::Html(h)) => h,
        other => panic!("{other:?}"),
    };
    let NodeKind::Text(node_text) = h.nodes()[1].kind else { panic!("{:?}", h.nodes()) };
    let out = text_content(&arena, &h);
    assert_eq!(out, "One text node");
    assert!(node_text.as_bytes().as_ptr_range().contains(&out.as_ptr()));
    // Whitespace-only text nodes between blocks are separators, not text to join.
    let h = match crate::html::parse_escaped_html(&arena, "\n<p>One title</p>\n  <p></p>\n") {
        Some(Text::Html(h)) => h,
        other => panic!("{other:?}"),
    };
    let NodeKind::Text(node_text) = h.nodes()[2].kind else { panic!("{:?}", h.nodes()) };
    let out = text_content(&arena, &h);
    assert_eq!(out, "One title");
    assert!(node_text.as_bytes().as_ptr_range().contains(&out.as_ptr()));
}

// ---------------------------------------------------------------------------------------------
// Canonical URLs: the fast path (and the reworked slow path) against the previous code.

fn ref_normalize_escapes(s: &str, out: &mut String) {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            if let (Some(h), Some(l)) = (hex_val(b[i + 1]), hex_val(b[i + 2])) {
                let v = h * 16 + l;
                if v.is_ascii_alphanumeric() || matches!(v, b'-' | b'.' | b'_' | b'~') {
                    out.push(v as char);
                } else {
                    out.push('%');
                    out.push(b[i + 1].to_ascii_uppercase() as char);
                    out.push(b[i + 2].to_ascii_uppercase() as char);
                }
                i += 3;
                continue;
            }
        }
        if b[i] == b'%' {
            // A `%` that starts no escape stands for itself.
            out.push_str("%25");
            i += 1;
            continue;
        }
        let ch = s[i..].chars().next().unwrap();
        out.push(ch);
        i += ch.len_utf8();
    }
}

fn ref_canonicalize_url(input: &str) -> Option<String> {
    let url = url::Url::parse(input.trim()).ok()?;
    if !matches!(url.scheme(), "http" | "https") {
        return None;
    }
    let mut out = String::with_capacity(input.len());
    out.push_str(url.scheme());
    out.push_str("://");
    // No credentials.
    out.push_str(url.host_str()?);
    if let Some(port) = url.port() {
        use std::fmt::Write;
        let _ = write!(out, ":{port}");
    }
    let mut path = String::with_capacity(url.path().len());
    ref_normalize_escapes(url.path(), &mut path);
    let trimmed = path.trim_end_matches('/');
    out.push_str(if trimmed.is_empty() { "/" } else { trimmed });
    if let Some(q) = url.query() {
        let mut params: Vec<String> = Vec::new();
        for pair in q.split('&').filter(|p| !p.is_empty()) {
            let mut norm = String::with_capacity(pair.len());
            ref_normalize_escapes(pair, &mut norm);
            let key = norm.split('=').next().unwrap_or("");
            if !is_tracking(key) {
                params.push(norm);
            }
        }
        params.sort_by(|a, b| a.split('=').next().cmp(&b.split('=').next()));
        if !params.is_empty() {
            out.push('?');
            out.push_str(&params.join("&"));
        }
    }
    if let Some(f) = url.fragment() {
        if f.starts_with('!') || f.starts_with('/') {
            out.push('#');
            out.push_str(f);
        }
    }
    Some(out)
}

/// Checks one input against the reference, by every entry point; returns whether it took
/// the path without the URL parser.
fn check_url(u: &str) -> bool {
    let want = ref_canonicalize_url(u);
    assert_eq!(canonicalize_url_slow(u), want, "slow path on {u:?}");
    let got = canonicalize_url_cow(u);
    assert_eq!(got.as_deref(), want.as_deref(), "{u:?}");
    if let Some(Cow::Borrowed(b)) = &got {
        assert!(std::ptr::eq(*b, u));
    }
    if want.as_deref() == Some(u) {
        assert!(matches!(got, Some(Cow::Borrowed(_))), "canonical input not borrowed: {u:?}");
    }
    assert_eq!(canonicalize_url(u), want, "{u:?}");
    if let Some(w) = &want {
        assert_eq!(canonicalize_url(w).as_ref(), Some(w), "not idempotent on {u:?}");
    }
    let arena = Bump::new();
    let in_arena = canonical_url_in(&arena, u);
    assert_eq!(in_arena, want.as_deref(), "{u:?}");
    if want.as_deref() == Some(u) {
        assert!(std::ptr::eq(in_arena.unwrap(), u), "canonical input not borrowed: {u:?}");
    }
    let Some(parts) = serialized_parts(u) else { return false };
    // The parts read off the string are the URL parser's.
    let url = url::Url::parse(u).unwrap();
    assert_eq!(url.as_str(), u);
    let parsed = UrlParts {
        scheme: url.scheme(),
        username: url.username(),
        password: url.password(),
        host: url.host_str().unwrap(),
        port: url.port(),
        path: url.path(),
        query: url.query(),
        fragment: url.fragment(),
    };
    assert_eq!(parts, parsed, "{u:?}");
    if rules_keep(&parts) {
        assert_eq!(want.as_deref(), Some(u), "fast path accepted {u:?}");
    }
    true
}

#[test]
fn canonical_url_fast_path_agrees_on_the_corpus() {
    // Every quoted or element-delimited value starting with "http" in the real corpus, and
    // every URL-valued field the extraction reads.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/real");
    let (mut checked, mut fast) = (0, 0);
    for dir in ["atom", "atom03", "rss1", "rss2"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let bytes = std::fs::read(entry.unwrap().path()).unwrap();
            let text = String::from_utf8_lossy(&bytes);
            for (i, _) in text.match_indices("http") {
                let cand = &text[i..];
                let end =
                    cand.find(['"', '<', '\'', ' ', '\n', '\r', '\t', '>']).unwrap_or(cand.len());
                checked += 1;
                fast += check_url(&cand[..end]) as usize;
            }
            let mut parser = crate::Parser::new(crate::Options::default());
            let Ok(parsed) = parser.parse_bytes(&bytes, Some("https://example.org/feed")) else {
                continue;
            };
            let Some(feed) = &parsed.feed else { continue };
            for u in [feed.page_url, feed.feed_url].into_iter().flatten() {
                checked += 1;
                fast += check_url(u) as usize;
            }
            for e in &feed.entries {
                for u in [e.page_url, e.id].into_iter().flatten() {
                    checked += 1;
                    fast += check_url(u) as usize;
                }
            }
        }
    }
    eprintln!("{checked} URLs, {fast} without the URL parser");
    assert!(checked > 10_000 && fast > checked / 4, "checked {checked}, fast {fast}");
}

#[test]
fn canonical_url_fast_path_agrees_on_generated_strings() {
    let hosts = [
        "example.com",
        "a.b",
        "x-y.org",
        "Ex.com",
        "ex.123",
        "1.2.3.4",
        "xn--a.b",
        "h",
        "a..b",
        "u@e.com",
        "e.com:80",
        "e.com:443",
        "e.com:8080",
        "",
    ];
    let pieces = [
        "/",
        "/",
        "/",
        "a",
        "Z",
        "0",
        "-",
        ".",
        "..",
        "~",
        "_",
        "%41",
        "%2f",
        "%2F",
        "%7e",
        "%7E",
        "%c3%a9",
        "%C3%A9",
        "%zz",
        "%4",
        "%",
        "%25",
        "%3D",
        "%26",
        "?",
        "?",
        "&",
        "&",
        "=",
        "a=1",
        "b=2",
        "B=0",
        "a=",
        "utm_source=x",
        "utm_=1",
        "utm",
        "UTM_x=2",
        "ref=1",
        "Ref",
        "source",
        "sources=1",
        "fbclid=z",
        "#",
        "#!",
        "#/",
        "#x",
        "#!/p",
        "'",
        " ",
        "\\",
        "é",
        ":",
        "@",
        "!",
        "$",
        "(",
        "*",
        "+",
        ",",
        ";",
    ];
    let mut rng = Rng(crate::test_rng(0x0123_4567_89AB_CDEF));
    let mut fast = 0;
    for i in 0..400_000 {
        let mut s = String::from(match rng.next() % 8 {
            0 => "HTTP://",
            1 => "ftp://",
            2..=4 => "http://",
            _ => "https://",
        });
        s.push_str(rng.pick(&hosts));
        if !rng.next().is_multiple_of(5) {
            s.push('/');
        }
        for _ in 0..rng.next() % (4 + i % 12) as u64 {
            s.push_str(rng.pick(&pieces));
        }
        fast += check_url(&s) as usize;
    }
    eprintln!("{fast} of 400 000 generated strings without the URL parser");
    assert!(fast > 20_000, "the generator exercises the fast path ({fast})");
}

#[test]
fn canonical_url_borrows_canonical_input() {
    let arena = Bump::new();
    for u in
        ["https://example.com/a/b?a=1&b=2#!/x", "http://e.com/", "https://e.com/caf%C3%A9?q=%2F"]
    {
        let out = canonical_url_in(&arena, u).unwrap();
        assert!(std::ptr::eq(out, u), "{u}");
        assert!(matches!(canonicalize_url_cow(u), Some(Cow::Borrowed(_))));
    }
    // Canonical, but outside the fast path's subset (port): still borrowed, via the slow path.
    let u = "https://e.com:8443/a";
    assert!(!is_canonical_http_url(u));
    assert!(std::ptr::eq(canonical_url_in(&arena, u).unwrap(), u));
    for (u, want) in [
        ("https://e.com/a/", "https://e.com/a"),
        ("https://e.com/a?", "https://e.com/a"),
        ("https://e.com/a?b=1&a=2", "https://e.com/a?a=2&b=1"),
        ("https://e.com/a?a=1&&b=2", "https://e.com/a?a=1&b=2"),
        ("https://e.com/a?utm_x=1", "https://e.com/a"),
        ("https://e.com/%7e", "https://e.com/~"),
        ("https://e.com/%2f", "https://e.com/%2F"),
        ("https://e.com/a#top", "https://e.com/a"),
        ("https://e.com/a#", "https://e.com/a"),
    ] {
        assert!(!rules_keep(&serialized_parts(u).unwrap()), "{u}");
        assert_eq!(canonical_url_in(&arena, u), Some(want));
    }
}

/// `canonicalize_url` is idempotent on generated URLs built from fragments that stress each
/// rule: stray and partial `%` before escapes (`%%41a` gave `%Aa`, which a second pass read as
/// the escape `%AA`), escapes of unreserved, reserved and non-ASCII bytes in either case, dot
/// segments written as escapes, credentials, ports, empty and tracking parameters, and
/// fragments. Every canonical form is also a fixed point of every entry point.
#[test]
fn canonical_url_is_idempotent_on_generated_urls() {
    let prefixes = [
        "http://",
        "https://",
        "HTTP://",
        "https://user:pass@",
        "http://u@",
        "https://:p@",
        "http://%41:%%42@",
    ];
    let hosts = [
        "example.com",
        "EX.com",
        "e.com:80",
        "e.com:443",
        "e.com:8080",
        "1.2.3.4",
        "[::1]",
        "xn--bcher-kva.de",
        "b%C3%BCcher.de",
    ];
    let pieces = [
        "/",
        "/",
        "a",
        "%",
        "%%",
        "%%41",
        "%%41a",
        "%4",
        "%4g",
        "%41",
        "%61",
        "%2e",
        "%2E",
        "%2e%2e",
        ".",
        "..",
        "/./",
        "/../",
        "%2F",
        "%2f",
        "%25",
        "%2541",
        "%252",
        "%7e",
        "%7E",
        "%c3%a9",
        "%C3%A9",
        "%e9",
        "%00",
        "%20",
        "%3D",
        "%26",
        "%23",
        "%3F",
        "%5C",
        "\\",
        " ",
        "é",
        "~",
        "?",
        "?",
        "&",
        "&&",
        "=",
        "a=1",
        "b=%41",
        "%61=2",
        "B=0",
        "utm_source=x",
        "%75tm_medium=y",
        "ref",
        "#",
        "#!",
        "#/",
        "#!%zz",
        "#x",
        "'",
        "\"",
        "<",
        "{",
        "|",
        "@",
        ":",
        "%3A",
        "%40",
    ];
    let mut rng = Rng(crate::test_rng(0x9E37_79B9_7F4A_7C15));
    let (mut cases, mut canonical) = (0, 0);
    for i in 0..20_000 {
        let mut u = String::from(rng.pick(&prefixes));
        u.push_str(rng.pick(&hosts));
        for _ in 0..rng.next() % (2 + i % 10) as u64 {
            u.push_str(rng.pick(&pieces));
        }
        cases += 1;
        let Some(once) = canonicalize_url(&u) else { continue };
        canonical += 1;
        let twice = canonicalize_url(&once);
        assert_eq!(twice.as_deref(), Some(once.as_str()), "not idempotent on {u:?}");
        let parsed = url::Url::parse(&once).unwrap();
        assert_eq!((parsed.username(), parsed.password()), ("", None), "{once}");
        // The canonical form is borrowed as it is by the zero-copy entry points.
        assert!(matches!(canonicalize_url_cow(&once), Some(Cow::Borrowed(_))), "{once}");
        let arena = Bump::new();
        assert!(std::ptr::eq(canonical_url_in(&arena, &once).unwrap(), once.as_str()));
    }
    assert!(canonical > cases / 3, "{canonical} of {cases} generated URLs canonical");
}

#[test]
fn canonical_url_escapes_stray_percent_and_drops_credentials() {
    for (u, want) in [
        ("https://e.com/%%41a", "https://e.com/%25Aa"),
        ("https://e.com/a%", "https://e.com/a%25"),
        ("https://e.com/a%4", "https://e.com/a%254"),
        ("https://e.com/?q=%zz&a=%", "https://e.com/?a=%25&q=%25zz"),
        ("https://e.com/%2541", "https://e.com/%2541"),
        ("https://user:pass@e.com/a", "https://e.com/a"),
        ("http://user@e.com:80/", "http://e.com/"),
        ("https://:secret@e.com/", "https://e.com/"),
    ] {
        assert_eq!(canonicalize_url(u).as_deref(), Some(want), "{u}");
        assert_eq!(canonicalize_url(want).as_deref(), Some(want), "{want}");
    }
}
