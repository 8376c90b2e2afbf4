//! WARC reading: records from WARC and WARC.gz streams, and the HTTP response inside a
//! `response` record (status line, headers, chunked transfer coding, gzip/deflate content
//! coding).
//!
//! NOTE: why not the `warc` crate (0.4): it decompresses a `.warc.gz` as one multi-member
//! stream, so a record's offset in the file is unknown, and one corrupt member ends the
//! whole file. Crawl archives store one gzip member per record; this reader decodes member
//! by member with [`flate2::bufread::GzDecoder`] over a byte-counting reader, so each record
//! has its file offset, memory is bounded by one record, and after a corrupt member it
//! resynchronizes on the next gzip header instead of losing the rest of the file.
//!
//! ```text
//!  raw bytes ─► Counting (offset) ─► [gzip member ─► GzDecoder] ─► WARC header ─► block
//!  block of a `response` ─► status line + headers ─► de-chunk ─► gunzip/inflate ─► body
//! ```

use std::borrow::Cow;
use std::io::{self, BufRead, Read};

use flate2::bufread::{DeflateDecoder, GzDecoder, ZlibDecoder};

/// A WARC record read from an archive.
#[derive(Debug)]
pub enum WarcItem {
    /// A `response` record with an HTTP message.
    Response { offset: u64, target_uri: String, block: Vec<u8> },
    /// Any other record type (`request`, `metadata`, `warcinfo`, ...), skipped.
    Skipped { offset: u64, warc_type: String },
    /// A record that could not be read; the reader goes on with the next one when it can.
    Broken { offset: u64, target_uri: Option<String>, kind: &'static str, message: String },
}

/// A buffered reader that counts consumed bytes (the offset of the next unread byte) and
/// can look ahead a few bytes across refills (for gzip header search).
pub struct Counting<R> {
    inner: R,
    buf: Vec<u8>,
    start: usize,
    end: usize,
    pos: u64,
}

impl<R: Read> Counting<R> {
    pub fn new(inner: R) -> Self {
        Counting { inner, buf: vec![0; 256 * 1024], start: 0, end: 0, pos: 0 }
    }

    pub fn position(&self) -> u64 {
        self.pos
    }

    /// Makes at least `n` bytes available when the stream has them; returns what is buffered.
    fn fill_at_least(&mut self, n: usize) -> io::Result<&[u8]> {
        if self.end - self.start < n {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
            while self.end < n {
                let got = match self.inner.read(&mut self.buf[self.end..]) {
                    Ok(g) => g,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(e),
                };
                if got == 0 {
                    break;
                }
                self.end += got;
            }
        }
        Ok(&self.buf[self.start..self.end])
    }
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let avail = self.fill_buf()?;
        let n = avail.len().min(out.len());
        out[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: Read> BufRead for Counting<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.fill_at_least(1)
    }
    fn consume(&mut self, amt: usize) {
        let amt = amt.min(self.end - self.start);
        self.start += amt;
        self.pos += amt as u64;
    }
}

/// Reads every record of a WARC stream, calling `emit` for each (stops when it returns
/// false). `gzip`: the stream is a sequence of gzip members, one record each.
/// `max_record`: largest record block accepted (bigger ones become `Broken`).
/// `new_buf` supplies the buffer each record is decoded into (a recycled one, when the
/// caller has a pool).
pub fn read_warc<R: Read>(
    input: R,
    gzip: bool,
    max_record: usize,
    new_buf: &mut dyn FnMut() -> Vec<u8>,
    emit: &mut dyn FnMut(WarcItem) -> bool,
) -> io::Result<()> {
    let mut input = Counting::new(input);
    let mut member = Vec::new();
    if gzip {
        loop {
            if input.fill_buf()?.is_empty() {
                return Ok(());
            }
            let offset = input.position();
            if !input.fill_at_least(2)?.starts_with(&[0x1f, 0x8b]) {
                let skipped = resync(&mut input)?;
                let item = WarcItem::Broken {
                    offset,
                    target_uri: None,
                    kind: "bad_gzip",
                    message: format!("{skipped} bytes that are not a gzip member"),
                };
                if !emit(item) {
                    return Ok(());
                }
                continue;
            }
            // NOTE: the member is decoded into a recycled buffer that becomes the record's
            // block in place (no copy, and no fresh pages to fault in per record).
            let mut member = new_buf();
            let res = GzDecoder::new(&mut input)
                .take(max_record as u64 + 64 * 1024 + 1)
                .read_to_end(&mut member);
            let item = match res {
                Err(e) => {
                    // The member is corrupt or truncated: report it, then find the next one.
                    let uri = parse_warc_header(&member).ok().and_then(|h| h.target_uri);
                    resync(&mut input)?;
                    let kind = if e.kind() == io::ErrorKind::UnexpectedEof {
                        "truncated"
                    } else {
                        "bad_gzip"
                    };
                    WarcItem::Broken {
                        offset,
                        target_uri: uri,
                        kind,
                        message: format!("gzip member: {e}"),
                    }
                }
                Ok(_) if member.len() > max_record + 64 * 1024 => {
                    // NOTE: only max_record bytes were decoded (memory stays bounded); the rest
                    // of the member is skipped by searching for the next member header.
                    resync(&mut input)?;
                    WarcItem::Broken {
                        offset,
                        target_uri: None,
                        kind: "too_large",
                        message: format!("record larger than {max_record} bytes"),
                    }
                }
                Ok(_) => {
                    // Normally one record per member; a member holding several (some writers
                    // do this) yields them all, each with the member's offset.
                    let mut start = 0;
                    loop {
                        let (header, block_start, block_end) =
                            match split_record(offset, &member[start..]) {
                                Ok((h, b, e)) => (h, start + b, start + e),
                                Err(broken) => break broken,
                            };
                        let mut next = block_end;
                        while next < member.len()
                            && (member[next] == b'\r' || member[next] == b'\n')
                        {
                            next += 1;
                        }
                        if next >= member.len() {
                            member.truncate(block_end);
                            member.drain(..block_start);
                            break item_from(offset, header, member);
                        }
                        let item =
                            item_from(offset, header, member[block_start..block_end].to_vec());
                        if !emit(item) {
                            return Ok(());
                        }
                        start = next;
                    }
                }
            };
            if !emit(item) {
                return Ok(());
            }
        }
    } else {
        loop {
            // Skip blank lines between records.
            loop {
                let buf = input.fill_buf()?;
                if buf.is_empty() {
                    return Ok(());
                }
                let n = buf.iter().take_while(|b| **b == b'\r' || **b == b'\n').count();
                if n == 0 {
                    break;
                }
                input.consume(n);
            }
            let offset = input.position();
            member.clear();
            // Header: lines up to an empty line.
            loop {
                let n = input.read_until(b'\n', &mut member)?;
                if n == 0 || member.ends_with(b"\r\n\r\n") || member.ends_with(b"\n\n") {
                    break;
                }
                if member.len() > 1 << 20 {
                    break;
                }
            }
            let header = match parse_warc_header(&member) {
                Ok(h) => h,
                Err(msg) => {
                    // NOTE: an uncompressed WARC has no framing to resynchronize on safely;
                    // the rest of the file is reported in this one record.
                    let _ = emit(WarcItem::Broken {
                        offset,
                        target_uri: None,
                        kind: "bad_warc",
                        message: format!("{msg}; rest of file skipped"),
                    });
                    return Ok(());
                }
            };
            let len = header.content_length;
            if len > max_record {
                let skipped = io::copy(&mut (&mut input).take(len as u64), &mut io::sink())?;
                let item = if skipped < len as u64 {
                    WarcItem::Broken {
                        offset,
                        target_uri: header.target_uri,
                        kind: "truncated",
                        message: format!("record block has {skipped} of {len} bytes"),
                    }
                } else {
                    WarcItem::Broken {
                        offset,
                        target_uri: header.target_uri,
                        kind: "too_large",
                        message: format!("record larger than {max_record} bytes"),
                    }
                };
                if !emit(item) {
                    return Ok(());
                }
                continue;
            }
            let mut block = new_buf();
            block.reserve(len);
            (&mut input).take(len as u64).read_to_end(&mut block)?;
            let item = if block.len() < len {
                WarcItem::Broken {
                    offset,
                    target_uri: header.target_uri,
                    kind: "truncated",
                    message: format!("record block has {} of {len} bytes", block.len()),
                }
            } else {
                item_from(offset, header, block)
            };
            if !emit(item) {
                return Ok(());
            }
        }
    }
}

/// Skips to the next gzip member header (`1f 8b 08`) after the current byte, or to the
/// end; returns the bytes skipped.
fn resync<R: Read>(input: &mut Counting<R>) -> io::Result<u64> {
    const MAGIC: &[u8] = &[0x1f, 0x8b, 0x08];
    let mut skipped = 0u64;
    // Never stop at the byte where the bad member started.
    let mut from = 1;
    loop {
        let buf = input.fill_at_least(MAGIC.len() + from)?;
        if buf.len() <= from {
            let n = buf.len();
            input.consume(n);
            return Ok(skipped + n as u64);
        }
        if let Some(i) = memchr::memmem::find(&buf[from..], MAGIC) {
            input.consume(from + i);
            return Ok(skipped + (from + i) as u64);
        }
        if buf.len() < MAGIC.len() + from {
            // End of stream: nothing more to find.
            let n = buf.len();
            input.consume(n);
            return Ok(skipped + n as u64);
        }
        // Keep the last two bytes: a header may straddle the refill.
        let n = buf.len().saturating_sub(MAGIC.len() - 1).max(from);
        input.consume(n);
        skipped += n as u64;
        from = 0;
    }
}

struct WarcHeader {
    warc_type: String,
    target_uri: Option<String>,
    content_length: usize,
    header_len: usize,
}

/// Parses `WARC/1.x` + named fields up to the empty line.
fn parse_warc_header(buf: &[u8]) -> Result<WarcHeader, String> {
    if !buf.starts_with(b"WARC/") {
        return Err("record does not start with a WARC/ version line".into());
    }
    let end = memchr::memmem::find(buf, b"\r\n\r\n")
        .map(|i| i + 4)
        .or_else(|| memchr::memmem::find(buf, b"\n\n").map(|i| i + 2))
        .ok_or("WARC header has no end")?;
    let text = String::from_utf8_lossy(&buf[..end]);
    let mut h = WarcHeader {
        warc_type: String::new(),
        target_uri: None,
        content_length: usize::MAX,
        header_len: end,
    };
    for line in text.lines().skip(1) {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim();
        if name.eq_ignore_ascii_case("WARC-Type") {
            h.warc_type = value.to_ascii_lowercase();
        } else if name.eq_ignore_ascii_case("WARC-Target-URI") {
            // Some writers wrap the URI in <>.
            h.target_uri = Some(value.trim_start_matches('<').trim_end_matches('>').to_owned());
        } else if name.eq_ignore_ascii_case("Content-Length") {
            h.content_length =
                value.parse().map_err(|_| format!("bad Content-Length {value:?}"))?;
        }
    }
    if h.content_length == usize::MAX {
        return Err("WARC header has no Content-Length".into());
    }
    Ok(h)
}

/// Finds the record at the start of `member`: its header and the block's start and end.
fn split_record(offset: u64, member: &[u8]) -> Result<(WarcHeader, usize, usize), WarcItem> {
    let header = parse_warc_header(member).map_err(|message| WarcItem::Broken {
        offset,
        target_uri: None,
        kind: "bad_warc",
        message,
    })?;
    let have = member.len() - header.header_len;
    if have < header.content_length {
        return Err(WarcItem::Broken {
            offset,
            message: format!("record block has {have} of {} bytes", header.content_length),
            target_uri: header.target_uri,
            kind: "truncated",
        });
    }
    let (b, e) = (header.header_len, header.header_len + header.content_length);
    Ok((header, b, e))
}

fn item_from(offset: u64, header: WarcHeader, block: Vec<u8>) -> WarcItem {
    if header.warc_type == "response" {
        WarcItem::Response { offset, target_uri: header.target_uri.unwrap_or_default(), block }
    } else {
        WarcItem::Skipped { offset, warc_type: header.warc_type }
    }
}

/// An HTTP response taken apart.
#[derive(Debug)]
pub struct HttpResponse<'b> {
    pub status: u16,
    pub content_type: Option<String>,
    /// Borrowed from the record when no transfer or content coding was applied.
    pub body: Cow<'b, [u8]>,
}

/// A problem with an HTTP message: (`kind`, message).
pub type HttpError = (&'static str, String);

/// Parses the HTTP message of a `response` record block: status line, headers, then the
/// body with transfer and content codings removed. The decoded body is limited to
/// `max_body` bytes.
pub fn parse_http_response(block: &[u8], max_body: usize) -> Result<HttpResponse<'_>, HttpError> {
    let head_end = memchr::memmem::find(block, b"\r\n\r\n")
        .map(|i| (i, i + 4))
        .or_else(|| memchr::memmem::find(block, b"\n\n").map(|i| (i, i + 2)))
        .ok_or(("bad_http", "HTTP header has no end".to_owned()))?;
    let head = String::from_utf8_lossy(&block[..head_end.0]);
    let mut lines = head.lines();
    let status_line = lines.next().unwrap_or("");
    let mut parts = status_line.split_whitespace();
    let version = parts.next().unwrap_or("");
    if !version.starts_with("HTTP/") {
        return Err(("bad_http", format!("bad status line {:?}", truncate(status_line, 80))));
    }
    let status: u16 = parts
        .next()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| ("bad_http", format!("bad status line {:?}", truncate(status_line, 80))))?;
    let mut content_type = None;
    let mut chunked = false;
    let mut encodings: Vec<String> = Vec::new();
    for line in lines {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        let name = name.trim();
        let value = value.trim();
        if name.eq_ignore_ascii_case("Content-Type") {
            content_type.get_or_insert_with(|| value.to_owned());
        } else if name.eq_ignore_ascii_case("Transfer-Encoding") {
            chunked |= value.to_ascii_lowercase().contains("chunked");
        } else if name.eq_ignore_ascii_case("Content-Encoding") {
            encodings.extend(
                value
                    .split(',')
                    .map(|e| e.trim().to_ascii_lowercase())
                    .filter(|e| !e.is_empty() && e != "identity"),
            );
        }
    }
    let raw = &block[head_end.1..];
    // NOTE: an identity body is borrowed from the record, not copied.
    let mut body: Cow<'_, [u8]> =
        if chunked { Cow::Owned(dechunk(raw, max_body)?) } else { Cow::Borrowed(raw) };
    // Content codings apply in the order listed; undo them in reverse.
    for enc in encodings.iter().rev() {
        body = Cow::Owned(match enc.as_str() {
            "gzip" | "x-gzip" => inflate(GzDecoder::new(&body[..]), max_body, "gzip")?,
            "deflate" => {
                // Servers send both zlib-wrapped (the RFC) and raw deflate.
                match inflate(ZlibDecoder::new(&body[..]), max_body, "deflate") {
                    Ok(b) => b,
                    Err(_) => inflate(DeflateDecoder::new(&body[..]), max_body, "deflate")?,
                }
            }
            other => {
                return Err(("content_encoding", format!("unsupported Content-Encoding {other:?}")))
            }
        });
    }
    if body.len() > max_body {
        return Err(("too_large", format!("body larger than {max_body} bytes")));
    }
    Ok(HttpResponse { status, content_type, body })
}

fn truncate(s: &str, n: usize) -> &str {
    match s.char_indices().nth(n) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

fn inflate<R: Read>(r: R, max: usize, name: &str) -> Result<Vec<u8>, HttpError> {
    let mut out = Vec::new();
    r.take(max as u64 + 1)
        .read_to_end(&mut out)
        .map_err(|e| ("content_encoding", format!("{name} body: {e}")))?;
    if out.len() > max {
        return Err(("too_large", format!("decoded body larger than {max} bytes")));
    }
    Ok(out)
}

/// Removes the chunked transfer coding (RFC 9112 §7.1).
fn dechunk(mut raw: &[u8], max: usize) -> Result<Vec<u8>, HttpError> {
    let mut out = Vec::new();
    loop {
        let eol = memchr::memchr(b'\n', raw)
            .ok_or(("bad_chunked", "chunk size line has no end".to_owned()))?;
        let line = std::str::from_utf8(&raw[..eol]).unwrap_or("").trim();
        let size_str = line.split(';').next().unwrap_or("").trim();
        let size = usize::from_str_radix(size_str, 16)
            .map_err(|_| ("bad_chunked", format!("bad chunk size {:?}", truncate(size_str, 40))))?;
        raw = &raw[eol + 1..];
        if size == 0 {
            return Ok(out); // trailers ignored
        }
        if raw.len() < size {
            return Err(("truncated", format!("chunk of {size} bytes has only {}", raw.len())));
        }
        if out.len() + size > max {
            return Err(("too_large", format!("body larger than {max} bytes")));
        }
        out.extend_from_slice(&raw[..size]);
        raw = &raw[size..];
        // CRLF after the chunk data.
        if raw.starts_with(b"\r\n") {
            raw = &raw[2..];
        } else if raw.starts_with(b"\n") {
            raw = &raw[1..];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::{write::GzEncoder, Compression};
    use std::io::Write;

    fn gz(data: &[u8]) -> Vec<u8> {
        let mut e = GzEncoder::new(Vec::new(), Compression::fast());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn record(ty: &str, uri: &str, block: &[u8]) -> Vec<u8> {
        let mut r = format!(
            "WARC/1.0\r\nWARC-Type: {ty}\r\nWARC-Target-URI: {uri}\r\nContent-Length: {}\r\n\r\n",
            block.len()
        )
        .into_bytes();
        r.extend_from_slice(block);
        r.extend_from_slice(b"\r\n\r\n");
        r
    }

    fn collect(data: &[u8], gzip: bool) -> Vec<WarcItem> {
        let mut items = Vec::new();
        read_warc(data, gzip, 1 << 20, &mut Vec::new, &mut |i| {
            items.push(i);
            true
        })
        .unwrap();
        items
    }

    #[test]
    fn members_offsets_and_resync() {
        let a = gz(&record("response", "http://a/", b"HTTP/1.1 200 OK\r\n\r\n<rss/>"));
        let b = gz(&record("request", "http://a/", b"GET / HTTP/1.1\r\n\r\n"));
        let c = gz(&record("response", "http://c/", b"HTTP/1.1 404 Not Found\r\n\r\n"));
        let mut data = a.clone();
        data.extend_from_slice(&b);
        data.extend_from_slice(b"garbage!");
        data.extend_from_slice(&c);
        data.extend_from_slice(&c[..c.len() / 2]); // truncated last member
        let items = collect(&data, true);
        assert_eq!(items.len(), 5, "{items:?}");
        assert!(
            matches!(&items[0], WarcItem::Response { offset: 0, target_uri, .. } if target_uri == "http://a/")
        );
        assert!(matches!(&items[1], WarcItem::Skipped { offset, .. } if *offset == a.len() as u64));
        assert!(matches!(&items[2], WarcItem::Broken { kind: "bad_gzip", .. }));
        assert!(
            matches!(&items[3], WarcItem::Response { offset, .. } if *offset == (a.len() + b.len() + 8) as u64)
        );
        assert!(matches!(&items[4], WarcItem::Broken { kind: "truncated", .. }), "{:?}", items[4]);
    }

    #[test]
    fn several_records_in_one_member() {
        let mut both = record("metadata", "http://a/", b"k: v");
        both.extend(record("response", "http://b/", b"HTTP/1.1 200 OK\r\n\r\nx"));
        let items = collect(&gz(&both), true);
        assert_eq!(items.len(), 2, "{items:?}");
        assert!(
            matches!(&items[1], WarcItem::Response { offset: 0, target_uri, .. } if target_uri == "http://b/")
        );
    }

    /// Corrupted archives never panic, and every item has an offset inside the input.
    #[test]
    fn mutated_archives_do_not_panic() {
        let mut base = Vec::new();
        for i in 0..4 {
            let body = format!(
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n<rss>\r\n0\r\n\r\n{i}"
            );
            base.extend(gz(&record("response", "http://a/", body.as_bytes())));
        }
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..300 {
            let mut data = base.clone();
            for _ in 0..1 + next() % 4 {
                let at = (next() % data.len() as u64) as usize;
                match next() % 3 {
                    0 => data[at] ^= 1 << (next() % 8),
                    1 => data.truncate(at),
                    _ => data.insert(at, next() as u8),
                }
            }
            for gzip in [true, false] {
                read_warc(&data[..], gzip, 1 << 20, &mut Vec::new, &mut |item| {
                    let off = match &item {
                        WarcItem::Response { offset, block, .. } => {
                            let _ = parse_http_response(block, 1 << 20);
                            *offset
                        }
                        WarcItem::Skipped { offset, .. } | WarcItem::Broken { offset, .. } => {
                            *offset
                        }
                    };
                    assert!(off <= data.len() as u64);
                    true
                })
                .unwrap();
            }
        }
    }

    #[test]
    fn plain_warc() {
        let mut data = record("warcinfo", "", b"x: y");
        data.extend(record("response", "http://a/", b"HTTP/1.0 200 OK\r\n\r\nbody"));
        let items = collect(&data, false);
        assert_eq!(items.len(), 2);
        assert!(matches!(&items[1], WarcItem::Response { block, .. } if block.ends_with(b"body")));
    }

    #[test]
    fn http_chunked_gzip() {
        let body = gz(b"<feed/>");
        let mut block = b"HTTP/1.1 200 OK\r\nContent-Type: application/atom+xml; charset=utf-8\r\nTransfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n\r\n".to_vec();
        let (x, y) = body.split_at(5);
        for part in [x, y] {
            block.extend(format!("{:x}\r\n", part.len()).bytes());
            block.extend_from_slice(part);
            block.extend_from_slice(b"\r\n");
        }
        block.extend_from_slice(b"0\r\n\r\n");
        let r = parse_http_response(&block, 1 << 20).unwrap();
        assert_eq!(r.status, 200);
        assert_eq!(&r.body[..], b"<feed/>");
        assert_eq!(r.content_type.as_deref(), Some("application/atom+xml; charset=utf-8"));
        let bad = b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\nnot gzip";
        assert_eq!(parse_http_response(bad, 1 << 20).unwrap_err().0, "content_encoding");
        assert_eq!(parse_http_response(b"garbage", 10).unwrap_err().0, "bad_http");
    }
}
