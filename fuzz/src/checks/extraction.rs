//! Extraction (`--extract`) checked against references written from its documented
//! definitions: plain text, word counts, the best body, canonical URLs, dedup keys.

use super::*;

/// Elements whose content plain text leaves out, and elements that separate words (as
/// documented for `feedmill::extract::text_content`).
const HIDDEN: &[&str] = &["script", "style", "template", "noscript", "head", "title"];

const SEPARATING: &[&str] = &[
    "p",
    "br",
    "div",
    "li",
    "ul",
    "ol",
    "dl",
    "dt",
    "dd",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "tr",
    "td",
    "th",
    "table",
    "thead",
    "tbody",
    "tfoot",
    "caption",
    "blockquote",
    "pre",
    "hr",
    "section",
    "article",
    "aside",
    "header",
    "footer",
    "nav",
    "figure",
    "figcaption",
    "address",
    "main",
    "details",
    "summary",
    "img",
    "iframe",
    "video",
    "audio",
    "option",
];

/// Plain text by the definition: the text nodes in order, hidden elements left out, a
/// newline around separating elements, then whitespace (`char::is_whitespace`) collapsed.
fn reference_plain_text(t: &Text<'_>) -> String {
    let gathered = match t {
        Text::Plain(s) => s.to_string(),
        Text::Html(h) => {
            let nodes = h.nodes();
            let (mut out, mut ends, mut i) = (String::new(), Vec::new(), 0);
            while i < nodes.len() {
                while ends.last().is_some_and(|&e| e <= i) {
                    ends.pop();
                    out.push('\n');
                }
                match nodes[i].kind {
                    NodeKind::Element(el) if el.namespace == HTML_NS || el.namespace.is_empty() => {
                        if HIDDEN.contains(&el.local) {
                            out.push('\n');
                            i = nodes[i].end as usize;
                            continue;
                        }
                        if SEPARATING.contains(&el.local) {
                            out.push('\n');
                            ends.push(nodes[i].end as usize);
                        }
                    }
                    NodeKind::Text(t) => out.push_str(t),
                    _ => {}
                }
                i += 1;
            }
            out
        }
    };
    gathered.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Words by the definition: maximal runs of non-whitespace holding a letter or digit; every
/// character of an unspaced script (Han, Kana, Thai) a word of its own.
fn reference_word_count(s: &str) -> u32 {
    let unspaced = |c: char| matches!(c as u32, 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x0E00..=0x0E7F | 0x20000..=0x2FA1F);
    let (mut n, mut in_word, mut has_alnum) = (0, false, false);
    for c in s.chars() {
        if c.is_whitespace() || unspaced(c) {
            n += (in_word && has_alnum) as u32 + unspaced(c) as u32;
            (in_word, has_alnum) = (false, false);
        } else {
            in_word = true;
            has_alnum |= c.is_alphanumeric();
        }
    }
    n + (in_word && has_alnum) as u32
}

/// A canonical URL is an http(s) URL that canonicalizing leaves as it is.
fn check_canonical_url(u: Option<&str>) {
    if let Some(u) = u {
        assert!(
            u.starts_with("http://") || u.starts_with("https://"),
            "canonical URL {u:?} is not http(s)"
        );
        assert_eq!(
            feedmill::extract::canonicalize_url(u).as_deref(),
            Some(u),
            "canonical URL {u:?} is not a fixed point"
        );
    }
}

/// Extraction with every option on: deterministic, plain text and word counts as defined,
/// the best body by the documented priority, canonical URLs fixed points, dedup keys from
/// the documented sources.
pub fn check_extraction(f: &Feed<'_>) {
    use feedmill::extract::{
        extract, ExtractOptions, Source, DATE_FLAGS, TITLE_FROM_BODY_MAX_CHARS,
    };
    // A fixed reference instant, so two runs flag the same dates `future`.
    let opts = ExtractOptions {
        as_of: feedmill::Timestamp::from_unix(1_700_000_000),
        ..ExtractOptions::default()
    };
    let (arena, arena2) = (Bump::new(), Bump::new());
    let x = extract(f, &arena, &opts);
    assert!(x == extract(f, &arena2, &opts), "extraction is not deterministic");
    let plain =
        |t: &Option<Text<'_>>| t.as_ref().map(reference_plain_text).filter(|s| !s.is_empty());
    for (t, got, what) in [
        (&f.title, x.title_text, "feed title_text"),
        (&f.subtitle, x.subtitle_text, "feed subtitle_text"),
        (&f.description, x.description_text, "feed description_text"),
    ] {
        assert_eq!(got.map(str::to_owned), plain(t), "{what}");
    }
    check_canonical_url(x.canonical_url);
    assert_eq!(x.entries.len(), f.entries.len(), "one extraction per entry");
    for (e, xe) in f.entries.iter().zip(&x.entries) {
        // The title's plain text; without one, a headline from the body.
        match xe.title_source {
            Some(Source::Title) | None => {
                assert_eq!(xe.title_text.map(str::to_owned), plain(&e.title), "entry title_text");
                assert_eq!(xe.title_source.is_some(), xe.title_text.is_some(), "title_source");
            }
            Some(Source::Body) => {
                assert!(plain(&e.title).is_none(), "a title from the body beside a title");
                let t = xe.title_text.expect("a title from the body");
                assert!(!t.is_empty() && xe.body_text.is_some(), "title from an empty body");
                assert!(t.chars().count() <= TITLE_FROM_BODY_MAX_CHARS + 1, "long title {t:?}");
            }
            Some(other) => panic!("title_source {other:?}"),
        }
        if let Some(u) = xe.image_url {
            // Absolute, or (with no base URL to resolve it against) a relative reference
            // kept as written, as every URL of the record is.
            let base = feedmill::url::Url::parse("http://base.invalid/").unwrap();
            let parsed = feedmill::url::Url::parse(u).or_else(|_| base.join(u));
            assert!(parsed.is_ok() && xe.image_source.is_some(), "image_url {u:?}");
        }
        let mut seen = std::collections::HashSet::new();
        for c in xe.categories_normalized {
            assert!(!c.is_empty() && seen.insert(c), "categories_normalized {c:?}");
        }
        assert!(
            xe.date_flags.iter().all(|f| DATE_FLAGS.contains(f)),
            "date_flags {:?}",
            xe.date_flags
        );
        for (t, got, what) in [
            (&e.subtitle, xe.subtitle_text, "subtitle_text"),
            (&e.summary, xe.summary_text, "summary_text"),
            (&e.content, xe.content_text, "content_text"),
        ] {
            assert_eq!(got.map(str::to_owned), plain(t), "entry {what}");
        }
        let best = match (xe.content_text, xe.summary_text) {
            (Some(c), _) => Some((Source::Content, c)),
            (None, Some(s)) => Some((Source::Summary, s)),
            (None, None) => None,
        };
        assert_eq!(xe.body_source.zip(xe.body_text), best, "best body");
        assert_eq!(
            xe.word_count,
            xe.body_text.map_or(0, reference_word_count),
            "word count of {:?}",
            xe.body_text
        );
        check_canonical_url(xe.canonical_url);
        match xe.dedup_source {
            Some(Source::Id) => assert_eq!(xe.dedup_key, e.id, "dedup key from the id"),
            Some(Source::Url) => {
                assert!(e.id.is_none(), "a URL dedup key for an entry with an id");
                assert_eq!(xe.dedup_key, xe.canonical_url, "dedup key from the canonical URL");
            }
            Some(Source::Hash) => {
                let k = xe.dedup_key.unwrap_or("");
                assert!(
                    k.len() == 16
                        && k.bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()),
                    "hash key {k:?}"
                );
            }
            Some(other) => panic!("dedup_source {other:?}"),
            None => panic!("an entry without a dedup key"),
        }
    }
}
