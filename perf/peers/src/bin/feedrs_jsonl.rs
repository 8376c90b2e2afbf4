//! `feedrs-jsonl`: the CLI's job done with feed-rs + serde_json, for the end-to-end
//! comparison in `perf/e2e-bench.sh`. Not part of feedmill.
//!
//! Same inputs as `feedmill` (files, directories walked in name order, WARC and WARC.gz with
//! one gzip member per record), same gzip crate (flate2, with the backend features feedmill
//! enables), one JSON line per input record written through a 1 MiB `BufWriter`: `source`,
//! `status`, `error`, and for a feed its title, description, links, dates, authors,
//! categories and entries (title, summary, content, links, dates, authors, categories,
//! enclosures), with `#[derive(Serialize)]` structs that borrow the parsed feed-rs model.
//! WARC `response` records are read as feedmill reads them: status 200 only, chunked
//! transfer coding and gzip/deflate content coding removed; other record types skipped.
//! Single-threaded (feed-rs has no bulk mode).
//!
//! Usage: `feedrs-jsonl [-o FILE] INPUT...`

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use feed_rs::model;
use flate2::bufread::MultiGzDecoder;
use serde::Serialize;

#[derive(Serialize)]
struct Line<'a> {
    source: &'a str,
    status: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    feed: Option<Feed<'a>>,
}

#[derive(Serialize)]
struct Feed<'a> {
    #[serde(skip_serializing_if = "str::is_empty")]
    id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    links: Vec<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    updated: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    authors: Vec<Person<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    categories: Vec<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    language: Option<&'a str>,
    entries: Vec<Entry<'a>>,
}

#[derive(Serialize)]
struct Entry<'a> {
    #[serde(skip_serializing_if = "str::is_empty")]
    id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    summary: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    content: Option<&'a str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    links: Vec<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    published: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    updated: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    authors: Vec<Person<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    categories: Vec<&'a str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    enclosures: Vec<Enclosure<'a>>,
}

#[derive(Serialize)]
struct Person<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    email: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    uri: Option<&'a str>,
}

#[derive(Serialize)]
struct Enclosure<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    url: Option<&'a str>,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    content_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    length: Option<u64>,
}

fn text(t: &Option<model::Text>) -> Option<&str> {
    t.as_ref().map(|t| t.content.as_str())
}

fn persons(p: &[model::Person]) -> Vec<Person<'_>> {
    p.iter()
        .map(|p| Person {
            name: p.name.as_deref(),
            email: p.email.as_deref(),
            uri: p.uri.as_deref(),
        })
        .collect()
}

fn feed(f: &model::Feed) -> Feed<'_> {
    Feed {
        id: &f.id,
        title: text(&f.title),
        description: text(&f.description),
        links: f.links.iter().map(|l| l.href.as_str()).collect(),
        updated: f.updated.map(|d| d.to_rfc3339()),
        authors: persons(&f.authors),
        categories: f.categories.iter().map(|c| c.term.as_str()).collect(),
        language: f.language.as_deref(),
        entries: f
            .entries
            .iter()
            .map(|e| Entry {
                id: &e.id,
                title: text(&e.title),
                summary: text(&e.summary),
                content: e.content.as_ref().and_then(|c| c.body.as_deref()),
                links: e.links.iter().map(|l| l.href.as_str()).collect(),
                published: e.published.map(|d| d.to_rfc3339()),
                updated: e.updated.map(|d| d.to_rfc3339()),
                authors: persons(&e.authors),
                categories: e.categories.iter().map(|c| c.term.as_str()).collect(),
                enclosures: e
                    .media
                    .iter()
                    .flat_map(|m| &m.content)
                    .map(|c| Enclosure {
                        url: c.url.as_ref().map(|u| u.as_str()),
                        content_type: c.content_type.as_ref().map(|m| m.to_string()),
                        length: c.size,
                    })
                    .collect(),
            })
            .collect(),
    }
}

struct Out<W: Write> {
    w: W,
    line: Vec<u8>,
}

impl<W: Write> Out<W> {
    fn line(&mut self, l: &Line<'_>) -> io::Result<()> {
        self.line.clear();
        serde_json::to_writer(&mut self.line, l).map_err(io::Error::other)?;
        self.line.push(b'\n');
        self.w.write_all(&self.line)
    }

    fn error(&mut self, source: &str, status: &str, e: String) -> io::Result<()> {
        self.line(&Line { source, status, error: Some(e), feed: None })
    }

    fn document(&mut self, source: &str, body: &[u8]) -> io::Result<()> {
        match feed_rs::parser::parse(body) {
            Ok(f) => self.line(&Line { source, status: "ok", error: None, feed: Some(feed(&f)) }),
            Err(e) => self.error(source, "error", e.to_string()),
        }
    }
}

fn walk(p: &Path, files: &mut Vec<PathBuf>) {
    if p.is_dir() {
        let mut entries: Vec<PathBuf> = match std::fs::read_dir(p) {
            Ok(rd) => rd.filter_map(|e| e.ok().map(|e| e.path())).collect(),
            Err(_) => return,
        };
        entries.sort();
        for e in entries {
            walk(&e, files);
        }
    } else {
        files.push(p.to_owned());
    }
}

/// Reads a (decompressed) WARC stream record by record.
fn warc<R: BufRead, W: Write>(name: &str, mut r: R, out: &mut Out<W>) -> io::Result<()> {
    let mut line = String::new();
    let mut block = Vec::new();
    let mut offset = 0u64;
    loop {
        // Version line (skip blank lines between records).
        line.clear();
        if r.read_line(&mut line)? == 0 {
            return Ok(());
        }
        if line.trim().is_empty() {
            offset += line.len() as u64;
            continue;
        }
        let start = offset;
        offset += line.len() as u64;
        let (mut len, mut kind, mut uri) = (0usize, String::new(), String::new());
        loop {
            line.clear();
            if r.read_line(&mut line)? == 0 {
                return Ok(());
            }
            offset += line.len() as u64;
            let l = line.trim_end();
            if l.is_empty() {
                break;
            }
            if let Some((k, v)) = l.split_once(':') {
                let v = v.trim();
                match k.to_ascii_lowercase().as_str() {
                    "content-length" => len = v.parse().unwrap_or(0),
                    "warc-type" => kind = v.to_owned(),
                    "warc-target-uri" => uri = v.trim_matches(|c| c == '<' || c == '>').to_owned(),
                    _ => {}
                }
            }
        }
        block.clear();
        (&mut r).take(len as u64).read_to_end(&mut block)?;
        offset += len as u64;
        if kind == "response" {
            let source = format!("{name}@{start} {uri}");
            response(&source, &block, out)?;
        }
    }
}

fn response<W: Write>(source: &str, block: &[u8], out: &mut Out<W>) -> io::Result<()> {
    let Some(end) = block.windows(4).position(|w| w == b"\r\n\r\n") else {
        return out.error(source, "error", "HTTP header has no end".into());
    };
    let head = String::from_utf8_lossy(&block[..end]);
    let mut lines = head.lines();
    let status: u16 = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    if status != 200 {
        return out.error(source, "not_a_feed", format!("HTTP status {status}"));
    }
    let (mut chunked, mut gzip) = (false, false);
    for l in lines {
        if let Some((k, v)) = l.split_once(':') {
            let (k, v) = (k.trim().to_ascii_lowercase(), v.trim().to_ascii_lowercase());
            chunked |= k == "transfer-encoding" && v.contains("chunked");
            gzip |= k == "content-encoding" && (v.contains("gzip") || v.contains("deflate"));
        }
    }
    let mut body = block[end + 4..].to_vec();
    if chunked {
        body = dechunk(&body);
    }
    if gzip {
        let mut d = Vec::new();
        if let Err(e) = flate2::read::GzDecoder::new(&body[..]).read_to_end(&mut d) {
            return out.error(source, "error", e.to_string());
        }
        body = d;
    }
    out.document(source, &body)
}

fn dechunk(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(nl) = b.iter().position(|&c| c == b'\n') {
        let size = std::str::from_utf8(&b[..nl]).ok().and_then(|s| {
            usize::from_str_radix(s.trim().split(';').next().unwrap_or("").trim(), 16).ok()
        });
        let Some(size) = size.filter(|&n| n > 0) else { break };
        let data = &b[nl + 1..];
        let n = size.min(data.len());
        out.extend_from_slice(&data[..n]);
        b = data.get(n + 2..).unwrap_or(&[]);
    }
    out
}

fn main() -> io::Result<()> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let w: Box<dyn Write> = match args.iter().position(|a| a == "-o") {
        Some(i) => {
            let path = args.remove(i + 1);
            args.remove(i);
            Box::new(File::create(path)?)
        }
        None => Box::new(io::stdout().lock()),
    };
    let mut out = Out { w: BufWriter::with_capacity(1 << 20, w), line: Vec::new() };
    let mut files = Vec::new();
    for a in &args {
        walk(Path::new(a), &mut files);
    }
    let mut body = Vec::new();
    for f in files {
        let name = f.display().to_string();
        let mut r = BufReader::with_capacity(256 << 10, File::open(&f)?);
        let head = r.fill_buf()?;
        if head.starts_with(&[0x1f, 0x8b]) {
            warc(&name, BufReader::with_capacity(256 << 10, MultiGzDecoder::new(r)), &mut out)?;
        } else if head.starts_with(b"WARC/") {
            warc(&name, r, &mut out)?;
        } else {
            body.clear();
            r.read_to_end(&mut body)?;
            out.document(&name, &body)?;
        }
    }
    out.w.flush()
}
