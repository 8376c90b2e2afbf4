//! Differential tests of the fast text paths against the straightforward reference versions
//! they replaced (kept here verbatim), on the real corpus and on generated strings.

use super::*;
use crate::model::Text;

// ---------------------------------------------------------------------------------------------
// Reference implementations (the code before the fast paths).

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
            (matches!(byte, b' ' | b'\t' | b'\n' | b'\r' | 0x0B | 0x0C), byte.is_ascii_alphanumeric(), false, 1)
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
            let Ok(parsed) = parser.parse_bytes(&bytes, None, Some("https://example.org/feed")) else { continue };
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

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
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
    "a", "Z", "q", "0", "9", "word", "Hello", "x1", " ", " ", " ", "  ", "\t", "\n", "\r", "\u{b}", "\u{c}", "\u{1}",
    "\u{1f}", "\u{7f}", ".", ",", "'", "-", "—", "!", "(", "@", "[", "`", "{", "~", "/", ":", "\u{85}", "\u{a0}",
    "\u{1680}", "\u{2003}", "\u{2028}", "\u{202f}", "\u{205f}", "\u{3000}", "é", "\u{1e9e}", "\u{2019}", "\u{2026}",
    "あ", "日本", "ไทย", "\u{20000}", "Ω", "٣", "😀", "abcdefgh", "ABCDEFGHIJ", "12345678", "a b c d e f",
];

fn random_text(rng: &mut Rng) -> String {
    let mut s = String::new();
    let n = rng.next() % 24;
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
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
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
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
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
        "<p>", "</p>", "<div>", "</div>", "<br>", "<b>", "</b>", "<i>", "</i>", "<span>", "</span>", "<li>", "<ul>",
        "</ul>", "<script>x y</script>", "<style>p{}</style>", "<img src=x>", "<table><tr><td>", "</td></tr></table>",
        "<!-- c -->", "<svg><title>t</title></svg>", "<h1>", "</h1>", "<pre>", "</pre>", "&nbsp;", "&amp;",
    ];
    let arena = Bump::new();
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
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
            if rng.next() % 2 == 0 {
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
        let Some(Text::Html(h)) = crate::html::parse_escaped_html(&arena, arena.alloc_str(&s)) else { panic!() };
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
}
