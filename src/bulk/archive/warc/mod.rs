//! WARC reading: the records of WARC and WARC.gz streams (the HTTP message inside a
//! `response` record is taken apart by [`super::http`]).
//!
//! NOTE: why not the `warc` crate (0.4): it decompresses a `.warc.gz` as one multi-member
//! stream, so a record's offset in the file is unknown, and one corrupt member ends the
//! whole file. This reader parses records out of one decoded stream ([`GzStream`](crate::bulk::gzip::stream::GzStream) or
//! [`PlainStream`](crate::bulk::gzip::stream::PlainStream)), so any gzip member layout reads the same: one member per record,
//! several records per member, one member for the whole file (`gzip crawl.warc`), or
//! members cut at fixed sizes regardless of records (block-gzip writers).
//!
//! ```text
//!  raw bytes ─► Raw (1 MiB look-behind) ─► GzStream: member by member, Breaks ─► records
//!  record: `WARC/x.y` line, named fields up to the empty line, Content-Length bytes, CRLF CRLF
//!  //! ```
//!
//! Recovery, always forward, never from inside a record that was read whole:
//! - a corrupt or truncated gzip member: one error record; decoding resumes at the next
//!   member header after the failed member's start that is not inside the raw bytes of a
//!   stored deflate block (see [`crate::bulk::gzip::stream`]); the record in progress is
//!   reported broken, not searched;
//! - bytes that are not a record (junk between records): one error record, then the next
//!   `WARC/<digit>` (where a line starts or not);
//! - a record whose header cannot be read (bad, negative, missing Content-Length), or whose
//!   Content-Length does not end at `CRLF CRLF` (or the end, or the next version line), or
//!   runs past the end of the stream: one error record, then the next `WARC/<digit>` after
//!   its header (the records a wrong Content-Length covered are read).
//!
//! Memory: one record's header (≤ [`MAX_HEADER`]) and block (≤ `max_record`, larger blocks are
//! skipped while streaming) in the decoded buffer, one copy of the block for the emitted
//! record (none when the block is a range of a shared inflated buffer, see [`Block`]), and
//! the raw buffer (≤ 3 MiB + [`CHUNK`], of which at least
//! [`crate::bulk::gzip::raw::RETAIN`] behind the read position).

use std::fmt;
use std::io;
use std::sync::Arc;

use super::io::truncate;
use crate::bulk::buf::{Block, BufPool, SharedBuf};
use crate::bulk::gzip::raw::CHUNK;
use crate::bulk::gzip::stream::{Break, Source, Step};

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
    /// Any other record type (`request`, `metadata`, `warcinfo`, ...), skipped. (Its fields
    /// are for the tests and fuzz targets: the reader only counts it.)
    #[cfg_attr(not(any(test, feature = "internals")), allow(dead_code))]
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
#[cfg(any(test, feature = "internals"))]
pub fn read_warc<R: std::io::Read>(
    input: R,
    gzip: bool,
    max_record: usize,
    new_buf: &mut dyn FnMut() -> Vec<u8>,
    emit: &mut dyn FnMut(WarcItem) -> bool,
) -> io::Result<usize> {
    read_warc_with(input, gzip, max_record, None, new_buf, emit)
}

/// [`read_warc`], with the gzip members inflated ahead by `offload`'s threads (see
/// [`crate::bulk::gzip::ahead`]): the same items, with the inflating off the calling thread.
#[cfg(any(test, feature = "internals"))]
pub fn read_warc_with<R: std::io::Read>(
    input: R,
    gzip: bool,
    max_record: usize,
    offload: Option<Arc<dyn crate::bulk::gzip::ahead::Offload>>,
    new_buf: &mut dyn FnMut() -> Vec<u8>,
    emit: &mut dyn FnMut(WarcItem) -> bool,
) -> io::Result<usize> {
    use crate::bulk::gzip::raw::Raw;
    use crate::bulk::gzip::stream::{GzStream, PlainStream};
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
#[cfg(any(test, feature = "internals"))]
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
    let mut r = RecordReader {
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

struct RecordReader<'s, S> {
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
    /// shared with them until it changes ([`RecordReader::thaw`]).
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

impl<S: Source> RecordReader<'_, S> {
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
    /// more (see [`Block`]).
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

#[cfg(test)]
mod tests;
