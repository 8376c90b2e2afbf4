//! The `discover` target: HTML pages through feed discovery (`feedmill discover`).

use super::*;

/// Input of `discover`: byte 0 selects how the page is read and its URL — bit 0: as an
/// HTTP response (`Content-Type: text/html` with a charset from byte 0's high bits) rather
/// than a stored page; bits 1-2: the page URL (a path, a bare host, a 3,000-byte path, a
/// `file:` URL); the rest is the page's bytes. Invariants: no panic; every feed URL parses
/// as an absolute URL of at most `MAX_URL_BYTES` bytes, each once; links found and skipped
/// are at most the page's tags; what discovery writes (URLs, titles, types) is within
/// `RESOLVE_BUDGET_FACTOR + 4` times the page's text plus `MAX_URL_BYTES`; the same page
/// gives the same result twice.
pub fn check_discover(data: &[u8]) {
    use feedmill::discover::{
        discover_page, page_text, response_page, MAX_URL_BYTES, RESOLVE_BUDGET_FACTOR,
    };
    use feedmill::url::Url;
    let mode = data.first().copied().unwrap_or(0);
    let page = data.get(1..).unwrap_or(&[]);
    let long = format!("https://example.org/{}/page.html", "p".repeat(3000));
    let page_url = match (mode >> 1) & 3 {
        0 => "https://example.org/blog/post.html",
        1 => "http://example.org",
        2 => &long,
        _ => "file:///srv/www/index.html",
    };
    let page_url = Url::parse(page_url).expect("a valid page URL");
    let text = if mode & 1 == 1 {
        const CHARSETS: [&str; 4] = ["utf-8", "windows-1252", "shift_jis", "utf-16le"];
        let content_type = format!("text/html; charset={}", CHARSETS[(mode >> 3) as usize % 4]);
        let response = Response {
            status: 200,
            content_type: Some(&content_type),
            url: Some(page_url.as_str()),
            body: page,
        };
        match response_page(&response) {
            Some(t) => t.into_owned(),
            // Not HTML by its MIME type sniffing: nothing to discover.
            None => return,
        }
    } else {
        page_text(page).into_owned()
    };
    let found = discover_page(&text, &page_url);
    let mut seen = std::collections::HashSet::new();
    let mut written = 0usize;
    for f in &found.feeds {
        assert!(f.url.len() <= MAX_URL_BYTES, "feed URL of {} bytes", f.url.len());
        let parsed = Url::parse(&f.url).unwrap_or_else(|e| panic!("{:?}: {e}", f.url));
        assert_eq!(parsed.as_str(), f.url, "feed URL not serialized as parsed");
        assert!(seen.insert(f.url.as_str()), "feed URL {:?} reported twice", f.url);
        written += f.url.len() + f.title.as_ref().map_or(0, String::len);
        written += f.mime_type.as_ref().map_or(0, String::len);
    }
    let tags = text.bytes().filter(|&b| b == b'<').count();
    assert!(
        found.feeds.len() + found.skipped <= tags,
        "{} feeds and {} skipped from {tags} tags",
        found.feeds.len(),
        found.skipped
    );
    let bound = (RESOLVE_BUDGET_FACTOR + 4) * text.len() + MAX_URL_BYTES;
    assert!(written <= bound, "{written} bytes written for a page of {} bytes", text.len());
    assert_eq!(discover_page(&text, &page_url), found, "not deterministic");
}
