//! `feedmill discover`: the feeds HTML pages advertise, one JSON line per page. Reads the
//! same inputs as the main command (files, directories, tar, WARC); fetches nothing.
//!
//! A plain document is taken as an HTML page whose URL is `--base-url` (without it, only
//! absolute links — or links under an absolute `<base href>` — can be reported, and there
//! are no candidates). A WARC `response` record is a page when its status is 200 and its
//! computed MIME type (Content-Type, then the spec's feed-or-HTML sniffing) is HTML; its
//! URL is the target URI. Other WARC records are skipped; unreadable records give a line
//! with `error`.
//!
//! Pages are decoded by the HTML Standard's encoding sniffing
//! ([`feedmill::discover::response_page`]: byte order mark, the WARC response's `Content-Type`
//! charset, `<meta charset>` / `<meta http-equiv>` in the first 1,024 bytes, then detection).
//! A line has `skipped_links` (only when not 0): links not reported because their URL would
//! be longer than `feedmill::discover::MAX_URL_BYTES` (32 KiB) or the page's resolution budget
//! was spent (see `feedmill::discover`).
//!
//! Records come from [`feedmill::bulk::read`], which reads them ahead of the pages being
//! processed within a byte budget, as the main pipeline bounds its bytes in flight: memory is
//! at most the larger of `max_bytes_in_flight` and the largest record, whatever their number.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use feedmill::bulk::{self, Config, Input};
use feedmill::discover::{candidate_urls, discover_page, page_text, response_page};
use url::Url;

/// Counts of what a discover run did.
#[derive(Default)]
pub struct DiscoverSummary {
    pub pages: u64,
    pub feeds: u64,
    pub skipped: u64,
    pub errors: u64,
    /// Lines written.
    pub lines: u64,
    /// The most bytes records held at once between reading and writing (at most the larger
    /// of the budget and the largest record).
    pub peak_in_flight: usize,
}

/// Writes one line per record of `inputs` to `out`. `max_bytes` bounds a record body,
/// `max_bytes_in_flight` the records read ahead (see the module docs). Once `stop` is set,
/// returns after the line being written.
pub fn run(
    inputs: Vec<Input>,
    base_url: Option<&str>,
    max_bytes: usize,
    max_bytes_in_flight: usize,
    stop: &AtomicBool,
    out: &mut dyn Write,
) -> io::Result<DiscoverSummary> {
    let base = base_url.and_then(|u| Url::parse(u).ok());
    let mut cfg = Config { max_bytes_in_flight, ..Config::default() };
    cfg.options.limits.max_input_bytes = max_bytes;
    let mut records = bulk::read(inputs, &cfg);
    let mut sum = DiscoverSummary::default();
    let mut line = Vec::with_capacity(4096);
    for rec in records.by_ref() {
        let rec = rec?;
        line.clear();
        match (&rec.body, rec.status) {
            (Err(e), _) => {
                sum.errors += 1;
                error_line(&mut line, &rec.source, e.kind, &e.message);
            }
            (Ok(bytes), None) => {
                let text = page_text(bytes);
                page_line(&mut line, &rec.source, &text, base.as_ref(), &mut sum);
            }
            (Ok(body), Some(status)) => {
                let response = feedmill::Response {
                    status,
                    content_type: rec.content_type.as_deref(),
                    url: rec.url.as_deref(),
                    body,
                };
                let Some(text) = response_page(&response) else {
                    sum.skipped += 1;
                    continue;
                };
                let page = rec.url.as_deref().and_then(|u| Url::parse(u).ok());
                page_line(&mut line, &rec.source, &text, page.as_ref(), &mut sum);
            }
        }
        line.push(b'\n');
        out.write_all(&line)?;
        sum.lines += 1;
        if stop.load(Ordering::Relaxed) {
            break;
        }
    }
    sum.peak_in_flight = records.peak_bytes_in_flight();
    out.flush()?;
    Ok(sum)
}

fn page_line(
    line: &mut Vec<u8>,
    source: &str,
    html: &str,
    page: Option<&Url>,
    sum: &mut DiscoverSummary,
) {
    // Without a page URL, links resolve against a URL no feed can have (only http(s) links
    // are reported), so only absolute ones are found.
    let fallback;
    let resolve_against = match page {
        Some(u) => u,
        None => {
            fallback = Url::parse("feedmill-no-page-url:/").expect("valid URL");
            &fallback
        }
    };
    let found = discover_page(html, resolve_against);
    let feeds = found.feeds;
    let candidates = page.map(candidate_urls).unwrap_or_default();
    sum.pages += 1;
    sum.feeds += feeds.len() as u64;
    // Keys in the documented order (serde_json's Map would sort them).
    line.extend_from_slice(b"{\"source\":");
    json_str(line, source);
    if let Some(p) = page {
        line.extend_from_slice(b",\"page_url\":");
        json_str(line, p.as_str());
    }
    line.extend_from_slice(b",\"feeds\":[");
    for (i, f) in feeds.iter().enumerate() {
        if i > 0 {
            line.push(b',');
        }
        line.extend_from_slice(b"{\"url\":");
        json_str(line, &f.url);
        if let Some(t) = &f.mime_type {
            line.extend_from_slice(b",\"type\":");
            json_str(line, t);
        }
        if let Some(t) = &f.title {
            line.extend_from_slice(b",\"title\":");
            json_str(line, t);
        }
        line.extend_from_slice(b",\"found_by\":");
        json_str(line, f.source.as_str());
        line.push(b'}');
    }
    line.extend_from_slice(b"],\"candidates\":[");
    for (i, c) in candidates.iter().enumerate() {
        if i > 0 {
            line.push(b',');
        }
        json_str(line, c);
    }
    line.push(b']');
    if found.skipped > 0 {
        line.extend_from_slice(b",\"skipped_links\":");
        line.extend_from_slice(found.skipped.to_string().as_bytes());
    }
    line.push(b'}');
}

fn json_str(out: &mut Vec<u8>, s: &str) {
    let _ = serde_json::to_writer(&mut *out, s);
}

fn error_line(line: &mut Vec<u8>, source: &str, kind: &str, message: &str) {
    line.extend_from_slice(b"{\"source\":");
    json_str(line, source);
    line.extend_from_slice(b",\"error\":{\"kind\":");
    json_str(line, kind);
    line.extend_from_slice(b",\"message\":");
    json_str(line, message);
    line.extend_from_slice(b"}}");
}
