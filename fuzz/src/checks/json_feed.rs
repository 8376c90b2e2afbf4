//! The `json_feed` and `json_feed_heavy` targets: JSON Feed documents through the parser.

use super::*;

/// JSON Feed reader: arbitrary bytes, as a whole document or (after a leading `!`) as the
/// members of `items` in a valid JSON Feed envelope. Invariants: no panic; diagnostics point
/// inside the text; the entry cap holds; every kept plain string is non-empty and within
/// `max_text_bytes`; the JSON record of the result is valid JSON (`json_feed_heavy` only).
pub fn check_json_feed(data: &[u8]) {
    json_feed(data, false)
}

/// `json_feed_heavy` target: [`check_json_feed`] plus the JSON records of the result.
pub fn check_json_feed_heavy(data: &[u8]) {
    json_feed(data, true)
}

fn json_feed(data: &[u8], heavy: bool) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (wrap, body) = match text.strip_prefix('!') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let doc = if wrap {
        format!(r#"{{"version":"https://jsonfeed.org/version/1.1","items":[{body}]}}"#)
    } else {
        body.to_owned()
    };
    let mut options = Options::default();
    options.limits.max_entries = 64;
    options.limits.max_text_bytes = 4096;
    let mut parser = Parser::new(options);
    let parsed = parser.parse_str(&doc, Some("https://example.org/feed.json")).unwrap();
    // Offsets are into the text the parser read: for text given to `parse_str`, after the
    // `c1_control` recovery rule (U+0080-U+009F read as windows-1252), which can be longer
    // than the caller's text (found by this target: `\u{8b}\u{8b}<`; see fuzz/README.md).
    let read_len = input::decode::map_c1(&doc).map_or(doc.len(), |(t, _, _)| t.len());
    for d in &parsed.diagnostics {
        assert!(d.offset <= read_len, "{d}");
    }
    if let Some(feed) = &parsed.feed {
        assert!(feed.entries.len() <= 64);
        for e in &feed.entries {
            for t in [&e.title, &e.summary, &e.content].into_iter().flatten() {
                if let Text::Plain(s) = t {
                    assert!(!s.trim().is_empty() && s.len() <= 4096);
                }
            }
            assert!(e.categories.iter().all(|c| !c.is_empty()));
        }
    }
    if heavy {
        check_json(&parsed, doc.len());
    }
}
