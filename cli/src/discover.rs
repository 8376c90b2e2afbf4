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
//! ([`feedmill::discover::decode_page`]: byte order mark, the WARC response's `Content-Type`
//! charset, `<meta charset>` / `<meta http-equiv>` in the first 1,024 bytes, then detection).
//! A line has `skipped_links` (only when not 0): links not reported because their URL would
//! be longer than `feedmill::discover::MAX_URL_BYTES` (32 KiB) or the page's resolution budget
//! was spent (see `feedmill::discover`).
//!
//! Records are read ahead of the pages being processed within a byte budget (as the main
//! pipeline bounds its bytes in flight): a record is admitted when the records read and not
//! yet written out hold less than `max_bytes_in_flight` with it, or when there are none (so
//! memory is at most the larger of the budget and the largest record, not 64 records
//! whatever their size).

use std::io::{self, Write};
use std::sync::mpsc::channel;
use std::sync::{Arc, Condvar, Mutex};

use feedmill::bulk::archive::http::parse_http_response;
use feedmill::bulk::archive::reader::enumerate;
use feedmill::bulk::archive::{Counters, Input, Payload, RawRecord, ReadConfig};
use feedmill::bulk::buf::BufPool;
use feedmill::discover::{candidate_urls, decode_page, discover_page};
use feedmill::input::{computed_mime_type, MimeType};
use url::Url;

/// Counts of what a discover run did.
#[derive(Default)]
pub struct DiscoverSummary {
    pub pages: u64,
    pub feeds: u64,
    pub skipped: u64,
    pub errors: u64,
    /// The most bytes records held at once between reading and writing, and the largest
    /// record's (the read-ahead bound is the larger of the budget and the latter).
    pub peak_in_flight: usize,
    pub largest_record: usize,
}

/// Bytes of memory held by the records read and not yet written out, and a wait for room.
struct InFlight {
    state: Mutex<Flight>,
    room: Condvar,
    max: usize,
}

#[derive(Default)]
struct Flight {
    bytes: usize,
    stopped: bool,
    peak: usize,
    largest: usize,
}

impl InFlight {
    /// Waits until a record holding `n` bytes fits (or none is in flight); false when the
    /// consumer has stopped.
    fn admit(&self, n: usize) -> bool {
        let mut s = self.state.lock().unwrap_or_else(|p| p.into_inner());
        while !s.stopped && s.bytes > 0 && s.bytes + n > self.max {
            s = self.room.wait(s).unwrap_or_else(|p| p.into_inner());
        }
        s.bytes += n;
        s.peak = s.peak.max(s.bytes);
        s.largest = s.largest.max(n);
        !s.stopped
    }

    fn release(&self, n: usize) {
        let mut s = self.state.lock().unwrap_or_else(|p| p.into_inner());
        s.bytes = s.bytes.saturating_sub(n);
        drop(s);
        self.room.notify_all();
    }

    fn stop(&self) {
        self.state.lock().unwrap_or_else(|p| p.into_inner()).stopped = true;
        self.room.notify_all();
    }
}

/// Heap bytes a record holds (capacities: memory is what the budget bounds).
fn held(rec: &RawRecord) -> usize {
    rec.source.capacity()
        + match &rec.payload {
            Payload::Document(b) => b.capacity(),
            Payload::Response { message, target_uri } => {
                message.held_bytes() + target_uri.capacity()
            }
            Payload::Broken { message, .. } => message.capacity(),
        }
}

/// Writes one line per record of `inputs` to `out`. `max_bytes` bounds a record body,
/// `max_bytes_in_flight` the records read ahead (see the module docs).
pub fn run(
    inputs: Vec<Input>,
    base_url: Option<&str>,
    max_bytes: usize,
    max_bytes_in_flight: usize,
    out: &mut dyn Write,
) -> io::Result<DiscoverSummary> {
    let base = base_url.and_then(|u| Url::parse(u).ok());
    let flight = Arc::new(InFlight {
        state: Mutex::new(Flight::default()),
        room: Condvar::new(),
        max: max_bytes_in_flight.max(1),
    });
    let (tx, records) = channel::<(RawRecord, usize)>();
    let reader = {
        let flight = Arc::clone(&flight);
        std::thread::Builder::new().name("feedmill-reader".into()).spawn(move || {
            let cfg = ReadConfig { max_record_bytes: max_bytes };
            let (counters, pool) = (Counters::default(), BufPool::default());
            enumerate(&inputs, &cfg, &counters, &pool, &mut |rec| {
                let n = held(&rec);
                flight.admit(n) && tx.send((rec, n)).is_ok()
            });
        })?
    };
    let mut sum = DiscoverSummary::default();
    let mut line = Vec::with_capacity(4096);
    let mut result = Ok(());
    for (rec, held) in records.iter() {
        // Released when this record's line is written (or the record skipped).
        struct Release<'f>(&'f InFlight, usize);
        impl Drop for Release<'_> {
            fn drop(&mut self) {
                self.0.release(self.1);
            }
        }
        let _release = Release(&flight, held);
        line.clear();
        match &rec.payload {
            Payload::Broken { kind, message } => {
                sum.errors += 1;
                error_line(&mut line, &rec.source, kind, message);
            }
            Payload::Document(bytes) => {
                let text = decode_page(bytes, None).text;
                page_line(&mut line, &rec.source, &text, base.as_ref(), &mut sum);
            }
            Payload::Response { target_uri, message } => {
                match parse_http_response(message, max_bytes) {
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
                        let text = decode_page(&resp.body, charset.as_deref()).text;
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
    flight.stop();
    drop(records);
    let _ = reader.join();
    let s = flight.state.lock().unwrap_or_else(|p| p.into_inner());
    (sum.peak_in_flight, sum.largest_record) = (s.peak, s.largest);
    drop(s);
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
