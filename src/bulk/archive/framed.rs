//! Framed archive records, the part the WARC and ARC readers share: records parsed out of
//! one decoded stream ([`Source`]: gzip members, zstd frames or plain bytes), each a header
//! (its format's: a [`Framing`]) giving the length of the block that follows, with the
//! stream's recovery rules. [`super::warc`] and [`super::arc`] are the two framings.
//!
//! ```text
//!  decoded stream ─► candidate at the read position? ─► header ─► block (length bytes) ─► trailer
//!                    no: junk up to the next candidate (one error record)
//! ```
//!
//! Recovery, always forward, never from inside a record that was read whole:
//! - a corrupt or truncated gzip member or zstd frame (a [`Break`] of the stream): one error
//!   record; decoding resumes at the next member after the failed one's start (see
//!   [`crate::bulk::gzip::stream`]); the record in progress is reported broken, not searched;
//! - bytes that are not a record (junk between records): one error record, then the next
//!   candidate ([`Framing::next_candidate`]);
//! - a record whose header cannot be read, or whose length does not end at its trailer (or
//!   the end, or the next candidate), or runs past the end of the stream: one error record,
//!   then the next candidate after its header (the records a wrong length covered are read);
//!   except that a record which starts a gzip member or zstd frame holding only it (one member
//!   per record, how crawlers write) is read to the member's end, with a note (see
//!   `RecordReader::member_record`).
//!
//! Memory: one record's header (≤ [`Framing::MAX_HEADER`]) and block (≤ `max_record`, larger
//! blocks are skipped while streaming) in the decoded buffer, one copy of the block for the
//! emitted record (none when the block is a range of a shared inflated buffer, see
//! [`Block`]), and the source's own buffers.

use std::fmt;
use std::io;
use std::sync::Arc;

use crate::bulk::buf::{Block, BufPool, SharedBuf};
use crate::bulk::gzip::raw::CHUNK;
use crate::bulk::gzip::stream::{Break, Source, Step};

/// Where a record starts: the raw offset of its gzip member or zstd frame (or of the record
/// in a plain file) and, when the record does not start its member, the decoded bytes
/// before it in the member. Printed `offset` or `offset+within`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Loc {
    /// Raw byte offset of the record (plain file) or of its gzip member or zstd frame.
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

/// A record format: how a record starts, where its header ends, what the header says, and
/// what follows its block.
pub trait Framing {
    /// What a header says (besides the block's length).
    type Header;
    /// The format's name in messages (`WARC`, `ARC`).
    const NAME: &'static str;
    /// `a WARC record`, `an ARC record`: in messages.
    const A_RECORD: &'static str;
    /// The error kind of a record that cannot be read (`bad_warc`, `bad_arc`).
    const BAD: &'static str;
    /// The name of the header's block length in messages (`Content-Length`, `length`).
    const LENGTH: &'static str;
    /// What is missing when the length does not end the record, in messages.
    const TRAILER: &'static str;
    /// Longest header read.
    const MAX_HEADER: usize;
    /// Bytes at the end of the buffer kept when no candidate is found in it (a candidate may
    /// begin there).
    const KEEP: usize;
    /// Whether a record may start at `b[0]` (a candidate: its header is read, and reported
    /// when it cannot be); `None` when more bytes are needed to tell. `complete`: no more
    /// bytes will come (then the answer is given).
    fn candidate(b: &[u8], complete: bool) -> Option<bool>;
    /// The position after `b[0]` where the next candidate may start (a candidate, or a
    /// prefix of one at the end of `b`); `None` when none in `b`.
    fn next_candidate(b: &[u8]) -> Option<usize>;
    /// The end of the header at `b[0]` (after its last line end), searching from `from`.
    fn header_end(b: &[u8], from: usize) -> Option<usize>;
    /// The header (up to [`Framing::header_end`]) and the length of the block after it.
    fn parse_header(b: &[u8]) -> Result<(Self::Header, usize), String>;
    /// The header's target URI, for the error record of its record.
    fn target_uri(h: &Self::Header) -> Option<&str>;
    /// Whether the record's block is handed on (else it is skipped: only counted).
    fn keeps_block(h: &Self::Header) -> bool;
    /// Whether the bytes after a block end the record (`at_end`: nothing follows them).
    fn trailer_ok(rest: &[u8], at_end: bool) -> bool;
    /// The length of the trailer `b` ends with (the bytes a record ends with after its
    /// block), `None` when it ends with none.
    fn trailer_len(b: &[u8]) -> Option<usize>;
}

/// A record read from a framed stream.
#[derive(Debug)]
pub enum Framed<H> {
    /// A record: its header and, when [`Framing::keeps_block`], its block.
    Record {
        /// Where the record is.
        at: Loc,
        /// What its header says.
        header: H,
        /// Its block (none for a record whose block is not handed on).
        block: Option<Block>,
        /// How it was read when its header was wrong (its length, when its gzip member or
        /// zstd frame ends it elsewhere): a diagnostic for its record.
        note: Option<String>,
    },
    /// A record (or a region) that could not be read; reading goes on after it.
    Broken {
        /// Where the unreadable record or region starts.
        at: Loc,
        /// The record's target URI, when its header was read.
        target_uri: Option<String>,
        /// The error kind (`bad_warc`, `bad_arc`, `truncated`, `bad_gzip`, `bad_zstd`,
        /// `too_large`, ...).
        kind: &'static str,
        /// What went wrong.
        message: String,
    },
}

/// Most decoded bytes [`read_framed`] buffers at once for records of at most `max_record`
/// bytes with headers of at most `max_header`: a header, a block and its 8-byte look-ahead,
/// plus up to two reads.
#[cfg(any(test, feature = "internals"))]
pub const fn buffer_bound(max_record: usize, max_header: usize) -> usize {
    max_record + max_header + 3 * CHUNK + 16
}

/// Reads the records of a decoded stream framed by `F`; `head`: bytes already pulled from it
/// (from decoded position 0), and `brk`, the break that came after them if any. `new_buf`
/// supplies the buffer each kept block is copied into when it is not a range of a shared
/// buffer. Returns the most bytes it buffered at once (≤ [`buffer_bound`]).
pub fn read_framed<S: Source, F: Framing>(
    src: &mut S,
    head: Vec<u8>,
    brk: Option<Break>,
    max_record: usize,
    new_buf: &mut dyn FnMut() -> Vec<u8>,
    emit: &mut dyn FnMut(Framed<F::Header>) -> bool,
) -> io::Result<usize> {
    let peak = head.len();
    let swap_max = max_record.saturating_add(F::MAX_HEADER);
    let mut r = RecordReader::<S, F> {
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
        framing: std::marker::PhantomData,
    };
    r.run(max_record, new_buf, emit)?;
    Ok(r.peak)
}

struct RecordReader<'s, S, F> {
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
    framing: std::marker::PhantomData<F>,
}

impl<S: Source, F: Framing> RecordReader<'_, S, F> {
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
        emit: &mut dyn FnMut(Framed<F::Header>) -> bool,
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
                        let item = Framed::Broken {
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
            if self.at_candidate()? {
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
            // Forward to the next candidate (see `Framing::next_candidate`).
            let a = self.avail();
            match F::next_candidate(a) {
                Some(i) => self.consume(i.max(1)),
                None if !have => {
                    let n = a.len();
                    self.consume(n);
                }
                None => {
                    let n = a.len().saturating_sub(F::KEEP).max(1);
                    self.consume(n);
                }
            }
        }
    }

    fn junk(&self, from: u64) -> Framed<F::Header> {
        Framed::Broken {
            at: self.loc(from),
            target_uri: None,
            kind: F::BAD,
            message: format!("{} bytes that are not {} record", self.pos() - from, F::A_RECORD),
        }
    }

    /// Whether a record may start at the read position ([`Framing::candidate`], with as many
    /// bytes as it needs, up to the header's limit).
    fn at_candidate(&mut self) -> io::Result<bool> {
        loop {
            let n = self.avail().len();
            let window = n.min(F::MAX_HEADER);
            if let Some(c) = F::candidate(&self.avail()[..window], n >= F::MAX_HEADER) {
                return Ok(c);
            }
            if !self.fill(n + 1)? {
                return Ok(F::candidate(self.avail(), true) == Some(true));
            }
        }
    }

    /// Reads the record at the read position (a version line). Returns its item (if any)
    /// and whether it failed (then the read position is inside it: resynchronize).
    fn record(
        &mut self,
        max: usize,
        new_buf: &mut dyn FnMut() -> Vec<u8>,
    ) -> io::Result<(Option<Framed<F::Header>>, bool)> {
        let pos = self.pos();
        let at = self.loc(pos);
        self.src.forget_before(pos);
        let broken = |uri: Option<String>, kind, message| Framed::Broken {
            at,
            target_uri: uri,
            kind,
            message,
        };
        // A header ends within its first MAX_HEADER bytes, however many bytes are buffered
        // (a range swapped in may hold several MiB).
        let mut searched = 0;
        let hl = loop {
            let have = self.avail().len();
            let window = have.min(F::MAX_HEADER);
            if let Some(e) = F::header_end(&self.avail()[..window], searched) {
                break e;
            }
            searched = window.saturating_sub(2);
            if have >= F::MAX_HEADER {
                self.consume(1);
                let msg = format!("{} header longer than {} bytes", F::NAME, F::MAX_HEADER);
                return Ok((Some(broken(None, F::BAD, msg)), true));
            }
            if !self.fill(have + 1)? {
                let what = format!("{} header", F::NAME);
                let item = self.interrupted(at, None, &what, pos + 1);
                return Ok((Some(item), true));
            }
        };
        let (header, len) = match F::parse_header(&self.avail()[..hl]) {
            Ok(h) => h,
            Err(msg) => {
                self.consume(hl);
                return Ok((Some(broken(None, F::BAD, msg)), true));
            }
        };
        let uri = F::target_uri(&header).map(str::to_owned);
        let take = len.min(max.saturating_add(1));
        // The block and the first four bytes after it settle most records: when those end
        // the record and every byte so far comes from checked gzip members, nothing more is
        // read (the buffer then ends where the record's member does; see `fill`). Otherwise
        // eight bytes after the block: reading past the end of the member holding them
        // checks it.
        let settled = len <= max
            && self.fill(hl + len + 4)?
            && self.pos() + (hl + len + 4) as u64 <= self.src.checked_upto()
            && F::trailer_ok(&self.avail()[hl + len..], false);
        let complete = settled || self.fill(hl + take + 8)?;
        // A stated length that does not end the record: its member may (see
        // `member_record`), else the record is reported and the stream resynchronized.
        if self.avail().len() < hl + take {
            if let Ok(item) = self.member_record(header, hl, len, max, new_buf)? {
                return Ok((Some(item), false));
            }
            self.consume(hl);
            let item = self.interrupted(at, uri, "record block", self.pos());
            return Ok((Some(item), true));
        }
        // A record is emitted only when the member holding its end decoded and checked.
        if len <= max {
            let last = pos + (hl + len) as u64 - 1;
            let owner = self.src.locate(last).0;
            if self.brk.as_ref().is_some_and(|b| b.offset <= owner) {
                if let Ok(item) = self.member_record(header, hl, len, max, new_buf)? {
                    return Ok((Some(item), false));
                }
                let item = self.interrupted(at, uri, "record", u64::MAX);
                return Ok((Some(item), true));
            }
        }
        if len > max {
            if let Ok(item) = self.member_record(header, hl, len, max, new_buf)? {
                return Ok((Some(item), false));
            }
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
            let ok = F::trailer_ok(&self.avail()[..self.avail().len().min(8)], at_end);
            let msg = format!("record larger than {max} bytes");
            return Ok((Some(broken(uri, "too_large", msg)), !ok));
        }
        let rest = &self.avail()[hl + len..];
        if !F::trailer_ok(rest, !complete) {
            if let Ok(item) = self.member_record(header, hl, len, max, new_buf)? {
                return Ok((Some(item), false));
            }
            self.consume(hl);
            let msg = format!("{} {len} does not end the record ({})", F::LENGTH, F::TRAILER);
            return Ok((Some(broken(uri, F::BAD, msg)), true));
        }
        let block = F::keeps_block(&header).then(|| self.block(hl, hl + len, new_buf));
        let item = Framed::Record { at, header, block, note: None };
        self.consume(hl + len);
        Ok((Some(item), false))
    }

    /// The record at the read position (header `hl` bytes, stated block length `len`) read
    /// to the end of the gzip member or zstd frame it starts, when its stated length does not
    /// end it and the member holds this one record: it starts the member, the member decoded
    /// and checked whole within `hl + max` bytes (plus its trailer), ends with the record's
    /// trailer, and holds no other record (no trailer followed by a record start). In a file
    /// of one member per record (how crawlers write ARC.gz and WARC.gz) the member's end is
    /// where the record ends; a plain stream has no members, and the other layouts hold
    /// several records in a member (or a member not starting at a record), so they keep the
    /// length's rule. None when it does not apply (then the read position has not moved).
    fn member_record(
        &mut self,
        header: F::Header,
        hl: usize,
        len: usize,
        max: usize,
        new_buf: &mut dyn FnMut() -> Vec<u8>,
    ) -> io::Result<Result<Framed<F::Header>, F::Header>> {
        match self.member_end(hl, max)? {
            Some((end, block_end)) if block_end - hl > max => {
                let at = self.loc(self.pos());
                let target_uri = F::target_uri(&header).map(str::to_owned);
                self.consume(end);
                let message = format!("record larger than {max} bytes");
                Ok(Ok(Framed::Broken { at, target_uri, kind: "too_large", message }))
            }
            Some((end, block_end)) => {
                let actual = block_end - hl;
                let note = format!(
                    "{} {} {len} is not the record's: its gzip member or zstd frame ends it \
                     after a block of {actual} bytes, read as the record",
                    F::NAME,
                    F::LENGTH
                );
                let block = F::keeps_block(&header).then(|| self.block(hl, block_end, new_buf));
                let at = self.loc(self.pos());
                self.consume(end);
                Ok(Ok(Framed::Record { at, header, block, note: Some(note) }))
            }
            None => Ok(Err(header)),
        }
    }

    /// [`RecordReader::member_record`]'s checks: the end of the member the record at the read
    /// position starts and the end of its block, both from the read position, when the
    /// member bounds the record.
    fn member_end(&mut self, hl: usize, max: usize) -> io::Result<Option<(usize, usize)>> {
        let pos = self.pos();
        if !self.src.member_starts(pos, pos + 1).contains(&pos) {
            return Ok(None);
        }
        // The member's decoded end: the next member's start, or the end of the stream.
        let limit = hl.saturating_add(max).saturating_add(5);
        let end = loop {
            let have = self.avail().len();
            let next = self.src.member_starts(pos + 1, pos + have as u64 + 1);
            if let Some(&m) = next.first() {
                break (m - pos) as usize;
            }
            if have > limit {
                return Ok(None);
            }
            if !self.fill(have + 1)? {
                if self.brk.is_some() {
                    return Ok(None);
                }
                break self.avail().len();
            }
        };
        if end > limit || end < hl || pos + end as u64 > self.src.checked_upto() {
            return Ok(None);
        }
        if self.brk.as_ref().is_some_and(|b| b.decoded_from < pos + end as u64) {
            return Ok(None);
        }
        let a = self.avail();
        let Some(t) = F::trailer_len(&a[hl..end]) else { return Ok(None) };
        let block_end = end - t;
        // Another record inside the member: it holds several, so it does not bound this one.
        let body = &a[hl..block_end];
        let mut i = 0;
        while let Some(j) = F::next_candidate(&body[i..]) {
            let k = i + j;
            if F::candidate(&body[k..], true) == Some(true) && F::trailer_len(&body[..k]).is_some()
            {
                return Ok(None);
            }
            i = k;
        }
        // The next member starts a record (when enough of it is here to tell).
        if end < a.len() && F::candidate(&a[end..], false) == Some(false) {
            return Ok(None);
        }
        Ok(Some((end, block_end)))
    }

    /// The record at `at` was cut by a break or by the end of the stream. When the break's
    /// failed member began after the record and a gzip member between them starts with a
    /// version line (a wrong Content-Length ran over whole records), reading goes on from
    /// that member; the break stays pending and gets its own item. The record's own bytes
    /// are never searched (they may hold anything).
    fn interrupted(
        &mut self,
        at: Loc,
        uri: Option<String>,
        what: &str,
        from: u64,
    ) -> Framed<F::Header> {
        self.thaw();
        if let Some(b) = &self.brk {
            let restart =
                self.src.member_starts(from, b.decoded_from).into_iter().find(|&m| {
                    F::candidate(&self.buf[(m - self.base) as usize..], true) == Some(true)
                });
            if let Some(m) = restart {
                let cut = (b.decoded_from - self.base) as usize;
                self.dropped += (self.buf.len().saturating_sub(cut)) as u64;
                self.buf.truncate(cut);
                self.start = (m - self.base) as usize;
                return Framed::Broken {
                    at,
                    target_uri: uri,
                    kind: F::BAD,
                    message: format!(
                        "{what} cut by a corrupt region at {} ({} too large?)",
                        b.offset,
                        F::LENGTH
                    ),
                };
            }
        }
        match self.take_break() {
            Some(b) => Framed::Broken {
                at,
                target_uri: uri,
                kind: b.kind,
                message: format!("{what} cut by a {} at {}: {}", b.unit, b.offset, b.message),
            },
            None => Framed::Broken {
                at,
                target_uri: uri,
                kind: "truncated",
                message: format!("the stream ends inside the {what}"),
            },
        }
    }
}
