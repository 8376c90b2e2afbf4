//! `feedmill discover`: the feeds HTML pages advertise, one JSON line per page. Reads the
//! same inputs as the main command (files, directories, tar, WARC); fetches nothing.
//!
//! A plain document is taken as an HTML page whose URL is `--base-url` (without it, only
//! absolute links — or links under an absolute `<base href>` — can be reported, and there
//! are no candidates). A WARC `response` record is a page when its status is 200 and its
//! computed MIME type (Content-Type, then the spec's feed-or-HTML sniffing) is HTML; its
//! URL is the target URI. Other WARC records are skipped; unreadable records give a line
//! with `error`.

use std::io::{self, Write};
use std::sync::Arc;

use feedmill::bulk::input::{self, BufPool, Counters, Input, Payload, ReadConfig};
use feedmill::bulk::warc;
use feedmill::discover::{candidate_urls, discover};
use feedmill::input::{computed_mime_type, decode, MimeType};
use url::Url;

/// Counts of what a discover run did.
#[derive(Default)]
pub struct DiscoverSummary {
    pub pages: u64,
    pub feeds: u64,
    pub skipped: u64,
    pub errors: u64,
}

pub fn run(
    inputs: Vec<Input>,
    base_url: Option<&str>,
    max_bytes: usize,
    out: &mut dyn Write,
) -> io::Result<DiscoverSummary> {
    let base = base_url.and_then(|u| Url::parse(u).ok());
    let (records, reader) = input::spawn_reader(
        inputs,
        ReadConfig { max_record_bytes: max_bytes },
        Arc::new(Counters::default()),
        Arc::new(BufPool::default()),
        64,
    );
    let mut sum = DiscoverSummary::default();
    let mut line = Vec::with_capacity(4096);
    let mut result = Ok(());
    for rec in records.iter() {
        line.clear();
        match &rec.payload {
            Payload::Broken { kind, message } => {
                sum.errors += 1;
                error_line(&mut line, &rec.source, kind, message);
            }
            Payload::Document(bytes) => {
                let text = decode(bytes, None).text;
                page_line(&mut line, &rec.source, &text, base.as_ref(), &mut sum);
            }
            Payload::Response { target_uri, message } => {
                match warc::parse_http_response(message, max_bytes) {
                    Err((kind, msg)) => {
                        sum.errors += 1;
                        error_line(&mut line, &rec.source, kind, &msg);
                    }
                    Ok(resp) => {
                        let ct = resp.content_type.as_deref();
                        let cm = computed_mime_type(ct, &resp.body);
                        if resp.status != 200
                            || !(cm.essence_is("text/html")
                                || cm.essence_is("application/xhtml+xml"))
                        {
                            sum.skipped += 1;
                            continue;
                        }
                        let charset = ct
                            .and_then(MimeType::parse)
                            .and_then(|m| m.charset().map(|c| c.into_owned()));
                        let text = decode(&resp.body, charset.as_deref()).text;
                        let page = Url::parse(target_uri).ok();
                        page_line(&mut line, &rec.source, &text, page.as_ref(), &mut sum);
                    }
                }
            }
        }
        line.push(b'\n');
        if let Err(e) = out.write_all(&line) {
            result = Err(e);
            break;
        }
    }
    drop(records);
    let _ = reader.join();
    result?;
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
    let feeds = discover(html, resolve_against);
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
    line.extend_from_slice(b"]}");
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
