//! WARC reading: records from WARC and WARC.gz streams, and the HTTP response inside a
//! `response` record (status line, headers, chunked transfer coding, gzip/deflate content
//! coding).
//!
//! NOTE: why not the `warc` crate (0.4): it decompresses a `.warc.gz` as one multi-member
//! stream, so a record's offset in the file is unknown, and one corrupt member ends the
//! whole file. This reader parses records out of one decoded stream ([`gz::GzStream`] or
//! [`gz::PlainStream`]), so any gzip member layout reads the same: one member per record,
//! several records per member, one member for the whole file (`gzip crawl.warc`), or
//! members cut at fixed sizes regardless of records (block-gzip writers).
//!
//! ```text
//!  raw bytes ─► Raw (1 MiB look-behind) ─► GzStream: member by member, Breaks ─► records
//!  record: `WARC/x.y` line, named fields up to the empty line, Content-Length bytes, CRLF CRLF
//!  block of a `response` ─► status line + headers ─► de-chunk ─► gunzip/inflate ─► body
//! ```
//!
//! Recovery, always forward, never from inside a record that was read whole:
//! - a corrupt or truncated gzip member: one error record; decoding resumes at the next
//!   member header after the failed member's start that is not inside the raw bytes of a
//!   stored deflate block (see `gz.rs`); the record in progress is reported broken, not
//!   searched;
//! - bytes that are not a record (junk between records): one error record, then the next
//!   `WARC/<digit>` (where a line starts or not);
//! - a record whose header cannot be read (bad, negative, missing Content-Length), or whose
//!   Content-Length does not end at `CRLF CRLF` (or the end, or the next version line), or
//!   runs past the end of the stream: one error record, then the next `WARC/<digit>` after
//!   its header (the records a wrong Content-Length covered are read).
//!
//! Memory: one record's header (≤ [`MAX_HEADER`]) and block (≤ `max_record`, larger blocks are
//! skipped while streaming) in the decoded buffer, one copy of the block for the emitted
//! record (none when the block is a range of a shared inflated buffer, see [`block`]), and
//! the raw buffer (≤ 3 MiB + [`gz::CHUNK`], of which at least [`gz::RETAIN`] behind the read
//! position).

pub mod ahead;
pub mod block;
pub mod gz;

use std::borrow::Cow;
use std::fmt;
use std::io::{self, Read};
use std::sync::Arc;

use flate2::bufread::{DeflateDecoder, GzDecoder, ZlibDecoder};

use crate::bulk::input::BufPool;
use ahead::Offload;
use block::{Block, SharedBuf};
use gz::{Break, GzStream, PlainStream, Raw, Source, Step, CHUNK};

/// Longest WARC record header read.
pub const MAX_HEADER: usize = 1 << 20;

/// Where a record starts: the raw offset of its gzip member (or of the record in a plain
/// WARC) and, when the record does not start its member, the decoded bytes before it in the
/// member. Printed `offset` or `offset+within`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Loc {
    /// Raw byte offset of the record (plain WARC) or of its gzip member (WARC.gz).
    pub offset: u64,
    /// Decoded bytes before the record in its member (0 when the record starts it).
    pub within: u64,
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.within == 0 {
            write!(f, "{}", self.offset)
        } else {
            write!(f, "{}+{}", self.offset, self.within)
        }
    }
}

/// A WARC record read from an archive.
#[derive(Debug)]
pub enum WarcItem {
    /// A `response` record with an HTTP message.
    Response {
        /// Where the record is.
        at: Loc,
        /// Its `WARC-Target-URI`.
        target_uri: String,
        /// The record block: the HTTP message.
        block: Block,
    },
    /// Any other record type (`request`, `metadata`, `warcinfo`, ...), skipped.
    Skipped {
        /// Where the record is.
        at: Loc,
        /// Its `WARC-Type`.
        warc_type: String,
    },
    /// A record (or a region) that could not be read; reading goes on after it.
    Broken {
        /// Where the unreadable record or region starts.
        at: Loc,
        /// Its `WARC-Target-URI`, when the header was read.
        target_uri: Option<String>,
        /// The error kind (`bad_warc`, `truncated`, `bad_gzip`, `too_large`, ...).
        kind: &'static str,
        /// What went wrong.
        message: String,
    },
}

/// Reads every record of a WARC stream, calling `emit` for each (stops when it returns
/// false). `gzip`: the stream is gzip (any member layout). `max_record`: largest record
/// block accepted (larger ones are skipped, as `too_large`). `new_buf` supplies the buffer
/// each record's block is copied into (a recycled one, when the caller has a pool) when it
/// is not a range of a shared buffer.
pub fn read_warc<R: Read>(
    input: R,
    gzip: bool,
    max_record: usize,
    new_buf: &mut dyn FnMut() -> Vec<u8>,
    emit: &mut dyn FnMut(WarcItem) -> bool,
) -> io::Result<usize> {
    read_warc_with(input, gzip, max_record, None, new_buf, emit)
}

/// [`read_warc`], with the gzip members inflated ahead by `offload`'s threads (see
/// [`ahead`]): the same items, with the inflating off the calling thread.
pub fn read_warc_with<R: Read>(
    input: R,
    gzip: bool,
    max_record: usize,
    offload: Option<Arc<dyn Offload>>,
    new_buf: &mut dyn FnMut() -> Vec<u8>,
    emit: &mut dyn FnMut(WarcItem) -> bool,
) -> io::Result<usize> {
    let raw = Raw::new(input);
    if gzip {
        let mut src = GzStream::new(raw);
        if let Some(o) = offload {
            src.offload(o);
        }
        read_records(&mut src, Vec::new(), None, max_record, new_buf, emit)
    } else {
        read_records(&mut PlainStream::new(raw), Vec::new(), None, max_record, new_buf, emit)
    }
}

/// Most decoded bytes [`read_records`] buffers at once for records of at most `max_record`
/// bytes: a header, a block and its 8-byte look-ahead, plus up to two reads.
pub const fn buffer_bound(max_record: usize) -> usize {
    max_record + MAX_HEADER + 3 * CHUNK + 16
}

/// Reads the records of a decoded stream; `head`: bytes already pulled from it (from
/// decoded position 0), and `brk`, the break that came after them if any. Returns the most
/// bytes it buffered at once (≤ [`buffer_bound`]).
pub fn read_records<S: Source>(
    src: &mut S,
    head: Vec<u8>,
    brk: Option<Break>,
    max_record: usize,
    new_buf: &mut dyn FnMut() -> Vec<u8>,
    emit: &mut dyn FnMut(WarcItem) -> bool,
) -> io::Result<usize> {
    let peak = head.len();
    let swap_max = max_record.saturating_add(MAX_HEADER);
    let mut r = Records {
        src,
        buf: head,
        start: 0,
        base: 0,
        brk,
        end: false,
        peak,
        dropped: 0,
        swap_max,
        shared: None,
        home: None,
    };
    r.run(max_record, new_buf, emit)?;
    Ok(r.peak)
}

struct Records<'s, S> {
    src: &'s mut S,
    /// Decoded bytes; `buf[start..]` unread.
    buf: Vec<u8>,
    start: usize,
    /// Decoded position of `buf[0]`.
    base: u64,
    /// A break after the buffered bytes.
    brk: Option<Break>,
    end: bool,
    /// Most bytes buffered at once.
    peak: usize,
    /// Decoded bytes dropped before the pending break (from its failed member): the
    /// positions after the break are that much further.
    dropped: u64,
    /// Most bytes the source may swap in at once (keeps [`buffer_bound`]).
    swap_max: usize,
    /// The read buffer once blocks are read from it as ranges (`buf` is then empty): it is
    /// shared with them until it changes ([`Records::thaw`]).
    shared: Option<Arc<SharedBuf>>,
    /// Where `buf` goes back once shared and done with: set once the source swaps a buffer
    /// in (`buf` is then one of the source's buffers until it is shared), taken when it is.
    home: Option<Arc<BufPool>>,
}

fn is_version(b: &[u8]) -> bool {
    b.len() > 5 && b.starts_with(b"WARC/") && b[5].is_ascii_digit()
}

/// End of a header (after its empty line), searching from `from`.
fn header_end(b: &[u8], from: usize) -> Option<usize> {
    for i in memchr::memchr_iter(b'\n', &b[from..]).map(|i| i + from) {
        match b.get(i + 1) {
            Some(b'\n') => return Some(i + 2),
            Some(b'\r') if b.get(i + 2) == Some(&b'\n') => return Some(i + 3),
            _ => {}
        }
    }
    None
}

/// Whether the bytes after a block end the record: `CRLF CRLF` (or LF LF), or only line
/// ends before the end of the stream or a version line.
fn trailer_ok(rest: &[u8], at_end: bool) -> bool {
    let run = rest.iter().take(4).take_while(|b| **b == b'\r' || **b == b'\n').count();
    let lfs = rest[..run].iter().filter(|b| **b == b'\n').count();
    lfs >= 2 || (run == rest.len() && at_end) || is_version(&rest[run..])
}

impl<S: Source> Records<'_, S> {
    /// The buffered bytes (`[..start]` read).
    fn bytes(&self) -> &[u8] {
        match &self.shared {
            Some(b) => b.bytes(),
            None => &self.buf,
        }
    }

    fn avail(&self) -> &[u8] {
        &self.bytes()[self.start..]
    }

    /// Makes the read buffer this reader's own again before it changes: the unread bytes of a
    /// shared buffer move to one of their own (none, when a record ended the buffer), the read
    /// ones go with the shared buffer.
    fn thaw(&mut self) {
        if let Some(b) = self.shared.take() {
            self.buf.clear();
            self.buf.extend_from_slice(&b.bytes()[self.start..]);
            self.base += self.start as u64;
            self.start = 0;
        }
    }

    /// The block at `avail()[from..to]`: a range of the read buffer when it is a range
    /// swapped in from the source (shared from then on), else a copy in `new_buf()`. The
    /// first block of a shared buffer accounts for the whole buffer, the others for nothing
    /// more (see [`block`]).
    fn block(&mut self, from: usize, to: usize, new_buf: &mut dyn FnMut() -> Vec<u8>) -> Block {
        let range = self.start + from..self.start + to;
        if let Some(b) = &self.shared {
            return Block::shared(b.clone(), range, 0);
        }
        if let Some(home) = self.home.take() {
            let bytes = std::mem::take(&mut self.buf);
            let held = bytes.len();
            let b = SharedBuf::new(bytes, home);
            self.shared = Some(b.clone());
            return Block::shared(b, range, held);
        }
        let mut block = new_buf();
        block.extend_from_slice(&self.avail()[from..to]);
        Block::from(block)
    }

    fn pos(&self) -> u64 {
        self.base + self.start as u64
    }

    fn loc(&self, pos: u64) -> Loc {
        let (offset, within) = self.src.locate(pos);
        Loc { offset, within }
    }

    fn consume(&mut self, n: usize) {
        self.start += n.min(self.bytes().len() - self.start);
    }

    /// Drops the bytes already read from the front of the buffer.
    fn drop_read(&mut self) {
        self.thaw();
        self.buf.drain(..self.start);
        self.base += self.start as u64;
        self.start = 0;
    }

    /// Consumes the line ends at the read position; whether there were any.
    fn skip_line_ends(&mut self) -> bool {
        let n = self.avail().iter().take_while(|b| **b == b'\r' || **b == b'\n').count();
        self.consume(n);
        n > 0
    }

    /// Makes `n` bytes available; false when a break or the end comes first.
    fn fill(&mut self, n: usize) -> io::Result<bool> {
        while self.bytes().len() - self.start < n {
            if self.brk.is_some() || self.end {
                return Ok(false);
            }
            if self.start == self.bytes().len() {
                // All read: the buffer starts over (and may be swapped for the source's).
                self.drop_read();
                if self.src.swap_in(&mut self.buf, self.swap_max)? {
                    self.home = self.src.buffer_home();
                    self.peak = self.peak.max(self.buf.len());
                    continue;
                }
            }
            if self.start >= CHUNK {
                self.drop_read();
            }
            self.thaw();
            let want = (n - (self.buf.len() - self.start)).max(CHUNK);
            let step = self.src.pull(&mut self.buf, want)?;
            self.peak = self.peak.max(self.buf.len());
            match step {
                Step::Data => {}
                Step::Break(b) => self.brk = Some(b),
                Step::End => self.end = true,
            }
        }
        Ok(true)
    }

    /// Drops what is buffered before a pending break and returns the break.
    fn take_break(&mut self) -> Option<Break> {
        let b = self.brk.take()?;
        self.start = self.bytes().len();
        self.base += std::mem::take(&mut self.dropped);
        Some(b)
    }

    fn run(
        &mut self,
        max: usize,
        new_buf: &mut dyn FnMut() -> Vec<u8>,
        emit: &mut dyn FnMut(WarcItem) -> bool,
    ) -> io::Result<()> {
        // Silently skipping to the next version line (after a reported failure).
        let mut resync = false;
        // Start of junk not reported yet.
        let mut junk: Option<u64> = None;
        loop {
            if !resync && junk.is_none() {
                // The line ends after a block go before reading on: a record that ends its
                // gzip member then leaves nothing buffered, and `fill` can swap the next
                // members in rather than copy them.
                self.skip_line_ends();
            }
            let have = self.fill(8)?;
            if self.avail().is_empty() {
                if let Some(j) = junk.take() {
                    if !emit(self.junk(j)) {
                        return Ok(());
                    }
                }
                match self.take_break() {
                    Some(b) => {
                        let item = WarcItem::Broken {
                            at: Loc { offset: b.offset, within: 0 },
                            target_uri: None,
                            kind: b.kind,
                            message: b.message,
                        };
                        if !emit(item) {
                            return Ok(());
                        }
                        // Decoding resumes at a member start, maybe inside a record.
                        resync = true;
                        continue;
                    }
                    None => return Ok(()),
                }
            }
            if !resync && junk.is_none() && self.skip_line_ends() {
                continue;
            }
            if is_version(self.avail()) {
                if let Some(j) = junk.take() {
                    if !emit(self.junk(j)) {
                        return Ok(());
                    }
                }
                let before = self.pos();
                let res = self.record(max, new_buf)?;
                if res.1 && self.pos() == before && !self.avail().is_empty() {
                    // A failed record is searched from its second byte on.
                    self.consume(1);
                }
                match res {
                    (Some(item), failed) => {
                        resync = failed;
                        if !emit(item) {
                            return Ok(());
                        }
                    }
                    (None, failed) => resync = failed,
                }
                continue;
            }
            if !resync && junk.is_none() {
                junk = Some(self.pos());
            }
            // Forward to the next version (`WARC/<digit>`, where a line starts or not: junk
            // may end without a line end).
            let a = self.avail();
            let found = memchr::memmem::find_iter(&a[1..], b"WARC/")
                .map(|i| i + 1)
                .find(|&i| is_version(&a[i..]) || a.len() - i < 6);
            match found {
                Some(i) => self.consume(i),
                None if !have => {
                    let n = a.len();
                    self.consume(n);
                }
                None => {
                    let n = a.len().saturating_sub(6).max(1);
                    self.consume(n);
                }
            }
        }
    }

    fn junk(&self, from: u64) -> WarcItem {
        WarcItem::Broken {
            at: self.loc(from),
            target_uri: None,
            kind: "bad_warc",
            message: format!("{} bytes that are not a WARC record", self.pos() - from),
        }
    }

    /// Reads the record at the read position (a version line). Returns its item (if any)
    /// and whether it failed (then the read position is inside it: resynchronize).
    fn record(
        &mut self,
        max: usize,
        new_buf: &mut dyn FnMut() -> Vec<u8>,
    ) -> io::Result<(Option<WarcItem>, bool)> {
        let pos = self.pos();
        let at = self.loc(pos);
        self.src.forget_before(pos);
        let broken = |uri: Option<String>, kind, message| WarcItem::Broken {
            at,
            target_uri: uri,
            kind,
            message,
        };
        // A header ends (empty line included) within its first MAX_HEADER bytes, however
        // many bytes are buffered (a range swapped in may hold several MiB).
        let mut searched = 0;
        let hl = loop {
            let have = self.avail().len();
            let window = have.min(MAX_HEADER);
            if let Some(e) = header_end(&self.avail()[..window], searched) {
                break e;
            }
            searched = window.saturating_sub(2);
            if have >= MAX_HEADER {
                self.consume(1);
                let msg = format!("WARC header longer than {MAX_HEADER} bytes");
                return Ok((Some(broken(None, "bad_warc", msg)), true));
            }
            if !self.fill(have + 1)? {
                let item = self.interrupted(at, None, "WARC header", pos + 1);
                return Ok((Some(item), true));
            }
        };
        let header = match parse_warc_header(&self.avail()[..hl]) {
            Ok(h) => h,
            Err(msg) => {
                self.consume(hl);
                return Ok((Some(broken(None, "bad_warc", msg)), true));
            }
        };
        let len = header.content_length;
        let uri = header.target_uri.clone();
        let take = len.min(max.saturating_add(1));
        // The block and the first four bytes after it settle most records: when those end
        // the record and every byte so far comes from checked gzip members, nothing more is
        // read (the buffer then ends where the record's member does; see `fill`). Otherwise
        // eight bytes after the block: reading past the end of the member holding them
        // checks it.
        let settled = len <= max
            && self.fill(hl + len + 4)?
            && self.pos() + (hl + len + 4) as u64 <= self.src.checked_upto()
            && trailer_ok(&self.avail()[hl + len..], false);
        let complete = settled || self.fill(hl + take + 8)?;
        if self.avail().len() < hl + take {
            self.consume(hl);
            let item = self.interrupted(at, uri, "record block", self.pos());
            return Ok((Some(item), true));
        }
        // A record is emitted only when the member holding its end decoded and checked.
        if len <= max {
            let last = pos + (hl + len) as u64 - 1;
            let owner = self.src.locate(last).0;
            if self.brk.as_ref().is_some_and(|b| b.offset <= owner) {
                let item = self.interrupted(at, uri, "record", u64::MAX);
                return Ok((Some(item), true));
            }
        }
        if len > max {
            // Skipped while streaming: never more than the buffered bytes in memory.
            self.consume(hl);
            let mut left = len;
            while left > 0 {
                if self.avail().is_empty() && !self.fill(1)? {
                    let item = self.interrupted(at, uri, "record block", u64::MAX);
                    return Ok((Some(item), true));
                }
                let n = self.avail().len().min(left);
                self.consume(n);
                left -= n;
            }
            let at_end = !self.fill(8)?;
            let ok = trailer_ok(&self.avail()[..self.avail().len().min(8)], at_end);
            let msg = format!("record larger than {max} bytes");
            return Ok((Some(broken(uri, "too_large", msg)), !ok));
        }
        let rest = &self.avail()[hl + len..];
        if !trailer_ok(rest, !complete) {
            self.consume(hl);
            let msg = format!(
                "Content-Length {len} does not end the record (no empty line after the block)"
            );
            return Ok((Some(broken(uri, "bad_warc", msg)), true));
        }
        let item = if header.warc_type == "response" {
            let block = self.block(hl, hl + len, new_buf);
            WarcItem::Response { at, target_uri: header.target_uri.unwrap_or_default(), block }
        } else {
            WarcItem::Skipped { at, warc_type: header.warc_type }
        };
        self.consume(hl + len);
        Ok((Some(item), false))
    }

    /// The record at `at` was cut by a break or by the end of the stream. When the break's
    /// failed member began after the record and a gzip member between them starts with a
    /// version line (a wrong Content-Length ran over whole records), reading goes on from
    /// that member; the break stays pending and gets its own item. The record's own bytes
    /// are never searched (they may hold anything).
    fn interrupted(&mut self, at: Loc, uri: Option<String>, what: &str, from: u64) -> WarcItem {
        self.thaw();
        if let Some(b) = &self.brk {
            let restart = self
                .src
                .member_starts(from, b.decoded_from)
                .into_iter()
                .find(|&m| is_version(&self.buf[(m - self.base) as usize..]));
            if let Some(m) = restart {
                let cut = (b.decoded_from - self.base) as usize;
                self.dropped += (self.buf.len().saturating_sub(cut)) as u64;
                self.buf.truncate(cut);
                self.start = (m - self.base) as usize;
                return WarcItem::Broken {
                    at,
                    target_uri: uri,
                    kind: "bad_warc",
                    message: format!(
                        "{what} cut by a corrupt region at {} (Content-Length too large?)",
                        b.offset
                    ),
                };
            }
        }
        match self.take_break() {
            Some(b) => WarcItem::Broken {
                at,
                target_uri: uri,
                kind: b.kind,
                message: format!("{what} cut by a gzip member at {}: {}", b.offset, b.message),
            },
            None => WarcItem::Broken {
                at,
                target_uri: uri,
                kind: "truncated",
                message: format!("the stream ends inside the {what}"),
            },
        }
    }
}

struct WarcHeader {
    warc_type: String,
    target_uri: Option<String>,
    content_length: usize,
}

/// Parses `WARC/x.y` + named fields (the header, up to and with its empty line). The
/// Content-Length is a decimal count of bytes no block can exceed (at most `isize::MAX`, the
/// largest allocation); a value past that, even one past `u64`, is reported as too large, a
/// value that is no number as bad, and none at all as missing.
fn parse_warc_header(buf: &[u8]) -> Result<WarcHeader, String> {
    let text = String::from_utf8_lossy(buf);
    let (mut warc_type, mut target_uri, mut content_length) = (String::new(), None, None);
    for line in text.lines().skip(1) {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim();
        if name.eq_ignore_ascii_case("WARC-Type") {
            warc_type = value.to_ascii_lowercase();
        } else if name.eq_ignore_ascii_case("WARC-Target-URI") {
            // Some writers wrap the URI in <>.
            target_uri = Some(value.trim_start_matches('<').trim_end_matches('>').to_owned());
        } else if name.eq_ignore_ascii_case("Content-Length") {
            content_length = Some(parse_content_length(value)?);
        }
    }
    let content_length = content_length.ok_or("WARC header has no Content-Length")?;
    Ok(WarcHeader { warc_type, target_uri, content_length })
}

/// A Content-Length value (see [`parse_warc_header`]).
fn parse_content_length(value: &str) -> Result<usize, String> {
    let too_large = || format!("Content-Length {} is too large", truncate(value, 40));
    match value.parse::<u64>() {
        Ok(n) => {
            usize::try_from(n).ok().filter(|&n| n <= isize::MAX as usize).ok_or_else(too_large)
        }
        Err(_) if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
            Err(too_large())
        }
        Err(_) => Err(format!("bad Content-Length {:?}", truncate(value, 40))),
    }
}

/// An HTTP response taken apart.
#[derive(Debug)]
pub struct HttpResponse<'b> {
    /// The status line's code.
    pub status: u16,
    /// The `Content-Type` header's value, if any.
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
    // NOTE: many crawlers store the body de-chunked but keep the `Transfer-Encoding: chunked`
    // header; a body whose first line is not a chunk size is read as is.
    let mut body: Cow<'_, [u8]> = if chunked && starts_with_chunk_size(raw) {
        Cow::Owned(dechunk(raw, max_body)?)
    } else {
        Cow::Borrowed(raw)
    };
    // Content codings apply in the order listed; undo them in reverse.
    for enc in encodings.iter().rev() {
        body = Cow::Owned(match enc.as_str() {
            "gzip" | "x-gzip" => match gunzip_whole(&body, max_body) {
                Some(b) => b,
                None => inflate(GzDecoder::new(&body[..]), max_body, "gzip")?,
            },
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

/// A gzip body whose first member decodes whole (CRC and length checked) to at most `max`
/// bytes, in one call: the bytes [`GzDecoder`] reads from it, which stops after the first
/// member too. `None` (then [`GzDecoder`] decodes it and reports why it failed) for
/// anything else, and for a header CRC (FHCRC), which only [`GzDecoder`] checks.
fn gunzip_whole(body: &[u8], max: usize) -> Option<Vec<u8>> {
    thread_local! {
        static ONE: std::cell::RefCell<Option<crate::bulk::deflate::OneShot>> =
            std::cell::RefCell::new(crate::bulk::deflate::OneShot::new());
    }
    if body.len() < 18 || body[3] & 0x02 != 0 {
        return None;
    }
    // ISIZE of a body that is one member: the output size to try (deflate expands at most
    // 1032:1).
    let t = &body[body.len() - 4..];
    let size = u32::from_le_bytes([t[0], t[1], t[2], t[3]]) as usize;
    if size > max || size > body.len().saturating_mul(1032) {
        return None;
    }
    ONE.with_borrow_mut(|one| {
        let mut out = Vec::with_capacity(size);
        one.as_mut()?.gzip(body, &mut out, size).ok()?;
        Some(out)
    })
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

/// Whether the first line of `raw` is a chunk size (hex digits, then optional extensions).
fn starts_with_chunk_size(raw: &[u8]) -> bool {
    let line = &raw[..memchr::memchr(b'\n', raw).unwrap_or(raw.len())];
    let size = line.split(|b| *b == b';').next().unwrap_or(b"").trim_ascii();
    !size.is_empty() && size.len() <= 16 && size.iter().all(u8::is_ascii_hexdigit)
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

    fn gz_level(data: &[u8], level: Compression) -> Vec<u8> {
        let mut e = GzEncoder::new(Vec::new(), level);
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn gz(data: &[u8]) -> Vec<u8> {
        gz_level(data, Compression::fast())
    }

    fn record(ty: &str, uri: &str, block: &[u8]) -> Vec<u8> {
        record_cl(ty, uri, block, &block.len().to_string())
    }

    fn record_cl(ty: &str, uri: &str, block: &[u8], cl: &str) -> Vec<u8> {
        let mut r = format!(
            "WARC/1.0\r\nWARC-Type: {ty}\r\nWARC-Target-URI: {uri}\r\nContent-Length: {cl}\r\n\r\n"
        )
        .into_bytes();
        r.extend_from_slice(block);
        r.extend_from_slice(b"\r\n\r\n");
        r
    }

    fn response(uri: &str, body: &str) -> Vec<u8> {
        record("response", uri, format!("HTTP/1.1 200 OK\r\n\r\n{body}").as_bytes())
    }

    /// Items as short strings: `R at uri`, `S at type`, `B at kind`. For a gzip stream, also
    /// checks that the members inflated ahead give the same items, blocks and messages.
    fn show(data: &[u8], gzip: bool, max: usize) -> Vec<String> {
        let mut items = Vec::new();
        read_warc(data, gzip, max, &mut Vec::new, &mut |i| {
            items.push(match i {
                WarcItem::Response { at, target_uri, .. } => format!("R {at} {target_uri}"),
                WarcItem::Skipped { at, warc_type } => format!("S {at} {warc_type}"),
                WarcItem::Broken { at, kind, .. } => format!("B {at} {kind}"),
            });
            true
        })
        .unwrap();
        if gzip {
            same_ahead(data, max);
        }
        items
    }

    /// Every item in full (blocks as lengths and hashes), read with `offload`.
    fn full(data: &[u8], max: usize, offload: Option<Arc<dyn Offload>>) -> Vec<String> {
        let mut items = Vec::new();
        read_warc_with(data, true, max, offload, &mut Vec::new, &mut |i| {
            items.push(match i {
                WarcItem::Response { at, target_uri, block } => {
                    let mut h = crc32fast::Hasher::new();
                    h.update(&block);
                    format!("R {at} {target_uri} {} {:08x}", block.len(), h.finalize())
                }
                WarcItem::Skipped { at, warc_type } => format!("S {at} {warc_type}"),
                WarcItem::Broken { at, target_uri, kind, message } => {
                    format!("B {at} {target_uri:?} {kind} {message}")
                }
            });
            true
        })
        .unwrap();
        items
    }

    /// The members inflated ahead (inline, and by threads finishing out of order, with one
    /// and several ranges ahead) give exactly the items of the sequential reader.
    fn same_ahead(data: &[u8], max: usize) {
        let want = full(data, max, None);
        for ranges in [1, 3] {
            let inline: Arc<dyn Offload> = Arc::new(ahead::InlineOffload::new(ranges));
            same(&full(data, max, Some(inline)), &want);
            let pool: Arc<dyn Offload> = ahead::LifoPool::new(2, ranges);
            same(&full(data, max, Some(pool)), &want);
        }
    }

    /// Compares long item lists by their first difference.
    fn same(got: &[String], want: &[String]) {
        let i = got.iter().zip(want).position(|(g, w)| g != w).unwrap_or(got.len().min(want.len()));
        assert_eq!(
            (got.len(), got.get(i)),
            (want.len(), want.get(i)),
            "first difference at item {i}"
        );
    }

    /// The decoded length of a multi-member gzip stream.
    fn records_len(gz: &[u8]) -> usize {
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(gz).read_to_end(&mut out).unwrap();
        out.len()
    }

    /// A xorshift64 generator: the tests' reproducible randomness.
    fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    /// Incompressible bytes (a deflate writer stores them verbatim).
    fn noise(n: usize, seed: u64) -> Vec<u8> {
        let mut next = xorshift(seed);
        (0..n).map(|_| next() as u8).collect()
    }

    /// A response whose body carries a complete gzip member of a spoofed record, among
    /// incompressible bytes: a crawler's deflate stores it verbatim in the archive.
    fn carrier(uri: &str) -> Vec<u8> {
        let spoof = gz(&response("https://bank.example/feed.xml", "<rss>SPOOFED bank feed</rss>"));
        let mut body =
            b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n\r\n".to_vec();
        body.extend(noise(3000, 7));
        body.extend(&spoof);
        body.extend(noise(3000, 9));
        record("response", uri, &body)
    }

    /// An archive of many ranges: one member per record, bodies of every kind (text, stored
    /// noise, gzip bodies stored verbatim with a spoofed record inside, members larger than
    /// what one range may produce), so that candidates inside members, ranges starting at
    /// false candidates and members crossing range ends all occur.
    fn big_archive(records: usize, seed: u64) -> Vec<u8> {
        let mut data = Vec::new();
        for i in 0..records {
            let uri = format!("http://h{i}.example/feed");
            let rec = match i % 7 {
                0 => carrier(&uri),
                1 => response(&uri, &"<item><title>t</title></item>".repeat(i * 13 % 500)),
                2 => {
                    let mut body = b"HTTP/1.1 200 OK\r\n\r\n".to_vec();
                    body.extend(noise(1000 + i * 997 % 90_000, seed + i as u64));
                    record("response", &uri, &body)
                }
                3 => record("request", &uri, b"GET / HTTP/1.1\r\n\r\n"),
                4 if i % 3 == 0 => {
                    // Larger than a worker inflates: the stream inflates it itself.
                    let big = "<item>x</item>".repeat((gz::BIG + 4096) / 14);
                    response(&uri, &big)
                }
                _ => response(&uri, "<rss/>"),
            };
            let level = if i % 5 == 0 { Compression::none() } else { Compression::fast() };
            data.extend(gz_level(&rec, level));
        }
        data
    }

    #[test]
    fn a_range_job_that_panics_is_read_by_the_stream_itself() {
        // Every range job panics (a bug in the worker's inflate): each range comes back
        // uninflated, the stream decodes its members itself, and the records are the same.
        let data = big_archive(40, 1);
        let read = |panics: bool| {
            ahead::PANIC_IN_RANGES.set(panics);
            let mut src = GzStream::new(Raw::new(&data[..]));
            src.offload(Arc::new(ahead::InlineOffload::new(4)));
            let mut items = Vec::new();
            read_records(&mut src, Vec::new(), None, 16 << 20, &mut Vec::new, &mut |item| {
                if let WarcItem::Response { block, .. } = item {
                    items.push(block.into_vec());
                }
                true
            })
            .unwrap();
            ahead::PANIC_IN_RANGES.set(false);
            (items, src.members_inflated_ahead())
        };
        let (want, ahead) = read(false);
        let (got, ahead_panicking) = read(true);
        assert!(want.len() > 30, "{} responses", want.len());
        assert!(ahead > 0 && ahead_panicking == 0, "{ahead} / {ahead_panicking} inflated ahead");
        assert!(got == want, "the same records");
    }

    #[test]
    fn members_inflated_ahead_read_the_same() {
        let data = big_archive(120, 1);
        assert!(data.len() > 8 * ahead::RANGE_BYTES);
        same_ahead(&data, 1 << 20);
        same_ahead(&data, 16 << 20);
        // Nearly every member comes from the helpers: here all but the five larger than a
        // worker inflates.
        let mut src = GzStream::new(Raw::new(&data[..]));
        src.offload(Arc::new(ahead::InlineOffload::new(4)));
        let mut records = 0;
        let mut blocks = Vec::new();
        read_records(&mut src, Vec::new(), None, 16 << 20, &mut Vec::new, &mut |item| {
            records += 1;
            if let WarcItem::Response { block, .. } = item {
                blocks.push(block);
            }
            true
        })
        .unwrap();
        let taken = src.members_inflated_ahead();
        assert!(records == 120 && taken >= 110, "{taken} of {records} members inflated ahead");
        // Most of them in whole ranges, their buffers taken rather than copied.
        let swapped = src.members_swapped_in();
        assert!(swapped >= 100, "{swapped} of {taken} members in ranges swapped in");
        // And the blocks of their records are ranges of those buffers, not copies; the
        // buffers are accounted for once each: at least the blocks' bytes, at most what was
        // inflated.
        let shared: Vec<&Block> = blocks.iter().filter(|b| b.is_shared()).collect();
        assert!(
            shared.len() * 10 >= blocks.len() * 8,
            "{} of {} shared",
            shared.len(),
            blocks.len()
        );
        let held: usize = shared.iter().map(|b| b.held_bytes()).sum();
        let len: usize = shared.iter().map(|b| b.len()).sum();
        let inflated: usize = records_len(&data);
        assert!(
            len <= held && held <= inflated,
            "blocks {len} B, held {held} B, inflated {inflated} B"
        );
        let buffers = shared.iter().filter(|b| b.held_bytes() > 0).count();
        assert!(buffers >= 8, "{buffers} shared buffers: one per range");
        // Their buffers go back for reuse once the last block of each is dropped.
        let home = src.buffer_home().expect("a stream with helpers has a home for buffers");
        let kept = home.kept();
        drop(shared);
        drop(blocks);
        let back = (kept + buffers).min(ahead::SPARE_OUTPUTS);
        assert_eq!(home.kept(), back, "{buffers} buffers shared, {kept} kept before");
        // Damage in the middle: a flipped byte, a cut member, junk, a truncated end.
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
        for _ in 0..12 {
            let mut d = data.clone();
            let at = (next() % d.len() as u64) as usize;
            match next() % 4 {
                0 => d[at] ^= 1 << (next() % 8),
                1 => drop(d.drain(at..(at + 1 + next() as usize % 5000).min(d.len()))),
                2 => d.splice(at..at, b"junk\x1f\x8b\x08\x00".iter().copied()).for_each(drop),
                _ => d.truncate(at),
            }
            same_ahead(&d, 1 << 20);
        }
    }

    /// A range mostly made of other records (small responses beside large `metadata`
    /// records) has its blocks copied: shared, each would hold the whole range.
    #[test]
    fn sparse_ranges_copy_their_blocks() {
        let mut data = Vec::new();
        for i in 0..40 {
            let uri = format!("http://h{i}.example/");
            data.extend(gz(&response(&uri, "<rss/>")));
            // Large when inflated, ~20 KB raw: several pairs per range.
            let mut meta = noise(20_000, i);
            meta.resize(300_000, b'x');
            data.extend(gz(&record("metadata", &uri, &meta)));
        }
        same_ahead(&data, 1 << 20);
        let mut src = GzStream::new(Raw::new(&data[..]));
        src.offload(Arc::new(ahead::InlineOffload::new(4)));
        let mut blocks = Vec::new();
        read_records(&mut src, Vec::new(), None, 1 << 20, &mut Vec::new, &mut |item| {
            if let WarcItem::Response { block, .. } = item {
                blocks.push(block);
            }
            true
        })
        .unwrap();
        assert_eq!(blocks.len(), 40);
        let swapped = src.members_swapped_in();
        assert!(swapped >= 40, "{swapped} members swapped in");
        assert!(blocks.iter().all(|b| !b.is_shared()), "a block of a sparse range is shared");
    }

    /// A header over the limit is one however much is buffered: a member holding a 1.5 MiB
    /// header (swapped in whole with its range) reads as the sequential reader reads it,
    /// and one just under the limit is accepted either way.
    #[test]
    fn header_limit_does_not_depend_on_buffering() {
        let a = gz(&response("http://a/", "<rss/>"));
        let c = gz(&response("http://c/", "<feed/>"));
        for pad in [MAX_HEADER + MAX_HEADER / 2, MAX_HEADER - 200] {
            let mut long =
                b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://b/\r\nContent-Length: 6\r\n"
                    .to_vec();
            while long.len() < pad {
                long.extend_from_slice(
                    b"X-Pad: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n",
                );
            }
            long.extend_from_slice(b"\r\n<rss/>\r\n\r\n");
            let data = [a.clone(), gz(&long), c.clone()].concat();
            let want = full(&data, 16 << 20, None);
            let over = pad > MAX_HEADER;
            assert_eq!(want.iter().any(|i| i.contains("header longer")), over, "{want:?}");
            assert_eq!(want.iter().any(|i| i.contains("http://b/")), !over, "{want:?}");
            same_ahead(&data, 16 << 20);
        }
    }

    /// Whole-file and block gzip: few members start with a record; the stream decodes the
    /// rest itself, the same bytes either way.
    #[test]
    fn other_member_layouts_read_the_same_ahead() {
        let mut plain = Vec::new();
        for i in 0..200 {
            plain.extend(response(&format!("http://x/{i}"), &"<item>y</item>".repeat(i % 40)));
        }
        same_ahead(&gz(&plain), 1 << 20);
        let blocks: Vec<u8> = plain.chunks(10_000).flat_map(gz).collect();
        same_ahead(&blocks, 1 << 20);
    }

    #[test]
    fn one_member_per_record_offsets() {
        let a = gz(&response("http://a/", "<rss/>"));
        let b = gz(&record("request", "http://a/", b"GET / HTTP/1.1\r\n\r\n"));
        let c = gz(&response("http://c/", "<feed/>"));
        let data = [a.clone(), b.clone(), c].concat();
        let (ab, abb) = (a.len(), a.len() + b.len());
        assert_eq!(
            show(&data, true, 1 << 20),
            vec![format!("R 0 http://a/"), format!("S {ab} request"), format!("R {abb} http://c/")]
        );
    }

    /// `gzip crawl.warc`: one member, larger than the record limit, every record read.
    #[test]
    fn single_member_larger_than_the_limit() {
        let mut plain = Vec::new();
        let mut want = Vec::new();
        for i in 0..3000 {
            let at = Loc { offset: 0, within: plain.len() as u64 };
            want.push(format!("R {at} http://x/{i}"));
            plain.extend(response(&format!("http://x/{i}"), &"<rss/>".repeat(i % 50)));
        }
        let data = gz(&plain);
        assert!(plain.len() > 64 * 1024);
        same(&show(&data, true, 64 * 1024), &want);
    }

    /// Block-gzip writers: members cut every 1000 bytes, whatever the records.
    #[test]
    fn members_not_aligned_with_records() {
        let mut plain = Vec::new();
        let mut starts = Vec::new();
        for i in 0..200 {
            starts.push((plain.len(), i));
            plain.extend(response(&format!("http://x/{i}"), &"<rss/>".repeat(i % 30)));
        }
        let mut data = Vec::new();
        let mut want = Vec::new();
        let mut next = starts.iter().peekable();
        for (k, piece) in plain.chunks(1000).enumerate() {
            let member_at = data.len();
            while let Some(&&(s, i)) = next.peek() {
                if s >= (k + 1) * 1000 {
                    break;
                }
                let within = s - k * 1000;
                let at = Loc { offset: member_at as u64, within: within as u64 };
                want.push(format!("R {at} http://x/{i}"));
                next.next();
            }
            data.extend(gz(piece));
        }
        same(&show(&data, true, 1 << 20), &want);
    }

    /// A member whose CRC fails, holding a stored gzip member with a spoofed record: one
    /// error record for it, nothing from inside it, the next member read.
    #[test]
    fn corrupt_member_injects_nothing() {
        let a = gz(&response("http://a/", "<rss/>"));
        let mut b = gz_level(&carrier("http://b/"), Compression::none());
        let n = b.len();
        b[n - 6] ^= 0x55; // CRC
        let c = gz(&response("http://c/", "<rss/>"));
        let data = [a.clone(), b.clone(), c].concat();
        let (at_b, at_c) = (a.len(), a.len() + b.len());
        assert_eq!(
            show(&data, true, 1 << 20),
            vec![
                format!("R 0 http://a/"),
                format!("B {at_b} bad_gzip"),
                format!("R {at_c} http://c/")
            ]
        );
        // Bit rot in the stored bytes before the payload.
        let mut b2 = gz_level(&carrier("http://b/"), Compression::none());
        b2[600] ^= 0x10;
        let data = [a.clone(), b2.clone(), gz(&response("http://c/", "<rss/>"))].concat();
        let at_c = a.len() + b2.len();
        assert_eq!(
            show(&data, true, 1 << 20),
            vec![
                format!("R 0 http://a/"),
                format!("B {} bad_gzip", a.len()),
                format!("R {at_c} http://c/")
            ]
        );
    }

    /// A truncated last member holding a stored spoofed member: one `truncated` record.
    #[test]
    fn truncated_member_injects_nothing() {
        let a = gz(&response("http://a/", "<rss/>"));
        let b = gz_level(&carrier("http://b/"), Compression::none());
        let data = [a.clone(), b[..b.len() - 2000].to_vec()].concat();
        assert_eq!(
            show(&data, true, 1 << 20),
            vec![format!("R 0 http://a/"), format!("B {} truncated", a.len())]
        );
    }

    /// An oversized record holding a stored spoofed member: `too_large`, then the next one.
    #[test]
    fn oversized_record_injects_nothing() {
        let a = gz(&response("http://a/", "<rss/>"));
        let b = gz_level(&carrier("http://b/"), Compression::none());
        let c = gz(&response("http://c/", "<rss/>"));
        let data = [a.clone(), b.clone(), c].concat();
        assert_eq!(
            show(&data, true, 4096),
            vec![
                format!("R 0 http://a/"),
                format!("B {} too_large", a.len()),
                format!("R {} http://c/", a.len() + b.len())
            ]
        );
    }

    /// A member cut short and followed by a good one (a crawler restarted): the good one is
    /// found from the cut member's start.
    #[test]
    fn truncated_member_does_not_swallow_the_next() {
        let a = gz(&response("http://a/", "<rss/>"));
        let b = gz(&response("http://b/", &"<item>text</item>".repeat(200)));
        let b = &b[..b.len() / 2];
        let c = gz(&response("http://c/", "<rss/>"));
        let data = [a.clone(), b.to_vec(), c].concat();
        assert_eq!(
            show(&data, true, 1 << 20),
            vec![
                format!("R 0 http://a/"),
                format!("B {} bad_gzip", a.len()),
                format!("R {} http://c/", a.len() + b.len())
            ]
        );
    }

    #[test]
    fn junk_between_members() {
        let a = gz(&response("http://a/", "<rss/>"));
        let c = gz(&response("http://c/", "<rss/>"));
        let data = [a.clone(), b"garbage!".to_vec(), c].concat();
        assert_eq!(
            show(&data, true, 1 << 20),
            vec![
                format!("R 0 http://a/"),
                format!("B {} bad_gzip", a.len()),
                format!("R {} http://c/", a.len() + 8)
            ]
        );
    }

    /// Plain WARC: a bad Content-Length (too small, too large, past the end, negative, not a
    /// number) and junk between records each cost one error record; the rest is read.
    #[test]
    fn plain_warc_resyncs_on_the_next_version_line() {
        let body = b"HTTP/1.1 200 OK\r\n\r\n<rss/>";
        for cl in ["3", "40", "999999", "-5", "abc", "99999999999999999999999"] {
            let a = response("http://a/", "<rss/>");
            let b = record_cl("response", "http://b/", body, cl);
            let c = response("http://c/", "<rss/>");
            let data = [a.clone(), b, c].concat();
            let kind = if cl == "999999" { "truncated" } else { "bad_warc" };
            let want = vec![
                format!("R 0 http://a/"),
                format!("B {} {kind}", a.len()),
                format!("R {} http://c/", data.len() - response("http://c/", "<rss/>").len()),
            ];
            assert_eq!(show(&data, false, 1 << 20), want, "Content-Length {cl}");
        }
        let a = response("http://a/", "<rss/>");
        let c = response("http://c/", "<rss/>");
        let data = [a.clone(), b"junk junk\r\n".to_vec(), c].concat();
        assert_eq!(
            show(&data, false, 1 << 20),
            vec![
                format!("R 0 http://a/"),
                format!("B {} bad_warc", a.len()),
                format!("R {} http://c/", a.len() + 11)
            ]
        );
    }

    /// A version line inside a well-formed record's block is never a record.
    #[test]
    fn records_inside_a_block_stay_inside() {
        let inner = response("https://bank.example/feed.xml", "SPOOFED");
        let mut body = b"HTTP/1.1 200 OK\r\n\r\n".to_vec();
        body.extend(&inner);
        let a = record("response", "http://a/", &body);
        let c = response("http://c/", "<rss/>");
        let data = [a.clone(), c].concat();
        let want = vec![format!("R 0 http://a/"), format!("R {} http://c/", a.len())];
        assert_eq!(show(&data, false, 1 << 20), want);
        assert_eq!(
            show(&gz(&data), true, 1 << 20),
            vec![format!("R 0 http://a/"), format!("R 0+{} http://c/", a.len())]
        );
    }

    #[test]
    fn several_records_in_one_member() {
        let mut both = record("metadata", "http://a/", b"k: v");
        let second = both.len();
        both.extend(response("http://b/", "x"));
        assert_eq!(
            show(&gz(&both), true, 1 << 20),
            vec!["S 0 metadata".to_owned(), format!("R 0+{second} http://b/")]
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
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
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
            same_ahead(&data, 1 << 20);
            for gzip in [true, false] {
                read_warc(&data[..], gzip, 1 << 20, &mut Vec::new, &mut |item| {
                    let at = match &item {
                        WarcItem::Response { at, block, .. } => {
                            let _ = parse_http_response(block, 1 << 20);
                            *at
                        }
                        WarcItem::Skipped { at, .. } | WarcItem::Broken { at, .. } => *at,
                    };
                    assert!(at.offset <= data.len() as u64);
                    true
                })
                .unwrap();
            }
        }
    }

    #[test]
    fn plain_warc() {
        let mut data = record("warcinfo", "", b"x: y");
        let second = data.len();
        data.extend(record("response", "http://a/", b"HTTP/1.0 200 OK\r\n\r\nbody"));
        assert_eq!(
            show(&data, false, 1 << 20),
            vec!["S 0 warcinfo".to_owned(), format!("R {second} http://a/")]
        );
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

    /// Labelled chunked but stored de-chunked (common in real WARCs): read as is.
    #[test]
    fn chunked_label_on_a_dechunked_body() {
        let block =
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n<?xml version=\"1.0\"?><rss/>";
        let r = parse_http_response(block, 1 << 20).unwrap();
        assert_eq!(&r.body[..], b"<?xml version=\"1.0\"?><rss/>");
        let gzipped = [
            &b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n\r\n"[..],
            &gz(b"<feed/>"),
        ]
        .concat();
        assert_eq!(&parse_http_response(&gzipped, 1 << 20).unwrap().body[..], b"<feed/>");
        // A real chunk size line is still de-chunked (and a bad chunk still an error).
        let bad = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nshort";
        assert_eq!(parse_http_response(bad, 1 << 20).unwrap_err().0, "truncated");
    }

    /// Content-Length: a value no block can have (2^64 - 1, past `isize::MAX`, past `u64`) is
    /// reported as too large — 2^64 - 1 was the "absent" sentinel and read as no
    /// Content-Length —, a missing one as missing, a non-number as bad.
    #[test]
    fn content_length_too_large_missing_or_bad_is_reported_as_such() {
        let header = |cl: Option<&str>| {
            let field = cl.map_or(String::new(), |v| format!("Content-Length: {v}\r\n"));
            let h = format!("WARC/1.0\r\nWARC-Type: response\r\n{field}\r\n");
            parse_warc_header(h.as_bytes()).map(|h| h.content_length)
        };
        for v in ["18446744073709551615", "9223372036854775808", "99999999999999999999999"] {
            assert_eq!(header(Some(v)), Err(format!("Content-Length {v} is too large")));
        }
        assert_eq!(header(Some("9223372036854775807")), Ok(isize::MAX as usize));
        assert_eq!(header(Some("0")), Ok(0));
        assert_eq!(header(Some(" 42 ")), Ok(42));
        assert_eq!(header(None), Err("WARC header has no Content-Length".into()));
        assert_eq!(header(Some("-5")), Err("bad Content-Length \"-5\"".into()));
        assert_eq!(header(Some("")), Err("bad Content-Length \"\"".into()));
    }
}
