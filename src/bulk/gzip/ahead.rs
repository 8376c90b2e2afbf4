//! Gzip members inflated ahead of the read position, on other threads: how the bulk pipeline
//! keeps inflating a WARC.gz from being one thread's work.
//!
//! A member's end is known only once it is inflated, so the next member's start is too. But
//! every member starts with the gzip magic (`1f 8b 08`), so the magic's positions ahead of
//! the read position are the member starts, plus a few false ones: the bytes of a gzip body
//! that the archive's deflate stored as they are, or chance. The reader thread (`Ahead`,
//! inside [`super::stream::GzStream`]) cuts the raw bytes ahead into *ranges* at such candidates
//! (about [`RANGE_BYTES`] each) and hands each range, copied, to an [`Offload`] (the
//! pipeline's workers; the one-thread pipeline's [`InlineOffload`] inflates it at once from
//! the raw bytes where they are, [`Offload::here`]). A worker ([`RangeJob::run`]) inflates
//! the range's members one after the other, following the members' own chain: it starts at
//! the first candidate whose member inflates whole, checks out (CRC and length) and begins
//! with `WARC/` (a gzip body stored in a record does not), then takes each member where the
//! previous one ended, until a member starts past the range.
//!
//! ```text
//!  raw ─► reader: candidates ─► ranges [a0,a1) [a1,a2) …  ─► workers: members of each range
//!                 ▲                                                        │
//!                 └─ read position p: the member starting exactly at p ◄───┘ (else: inflate it here)
//! ```
//!
//! Correctness does not depend on the guesses: the stream uses a worker's member only when it
//! starts exactly at the read position, which is where the previous member (however it was
//! decoded) ended; any other position (a range that synchronized on a stored body, a corrupt
//! or truncated member, junk, a member larger than a range may produce) is decoded by the
//! stream itself, through the same one-shot and streaming paths as without helpers. The bytes,
//! member marks, breaks and offsets are therefore those of the sequential reader.
//!
//! Memory: at most [`Offload::ranges_ahead`] ranges per stream, each a copy of at most its
//! compressed bytes plus [`OVERHANG`] and less than [`RANGE_OUT`] + [`BIG`] inflated bytes
//! (about four times its compressed bytes on a crawl of feeds); candidates are looked for at
//! most [`LOOKAHEAD`] raw bytes ahead of the read position.

use std::collections::VecDeque;
use std::io::{self, Read};
use std::sync::{Arc, Condvar, Mutex};

use miniz_oxide::inflate::core::{decompress, inflate_flags, DecompressorOxide};

use super::deflate::{Miss, OneShot};
use super::member::{header_len, BIG, MAGIC};
use super::raw::Raw;
use crate::bulk::buf::BufPool;

/// Compressed bytes per range, about: the unit of inflate work handed to another thread
/// (~0.5 ms of inflating; a range ends at the first candidate past this size).
pub const RANGE_BYTES: usize = 128 << 10;
/// Compressed bytes after a range's end copied with it, for a member that starts in the range
/// and ends after it (the range's end was a false candidate inside that member).
pub const OVERHANG: usize = 16 << 10;
/// Inflated bytes after which a range takes no further member (so a range produces less than
/// this plus one member of at most [`BIG`]); the members after that are the stream's own.
pub const RANGE_OUT: usize = 2 << 20;
/// Raw bytes ahead of the read position searched for candidates, at most.
pub const LOOKAHEAD: usize = 4 << 20;
/// Output buffers kept for reuse, at most: the ranges ahead, and those whose records are in
/// flight (their blocks share them) when they come back. Each holds up to `2 * (RANGE_OUT +
/// BIG)`, so a large pool is held memory: 64 kept the Parquet job (48 MiB of input in flight
/// at `-j2`) at 157–165 MiB peak RSS, 8 keeps it at 140–146 MiB, with the JSON Lines job's
/// CPU and peak unchanged (`perf/runs/2026-11-29-parquet-goal/`). A Parquet job at `-j2`
/// (24 MiB in flight, about 50 ranges of ~450 KiB) swings by about 20 buffers between the
/// reader filling a batch and waiting for the budget: 8 freed the rest of each swing and
/// mapped it afresh a moment later (libdeflate's page faults); 16 take ~6 K fewer faults of
/// ~46 K at the same peak, 24 raised the peak by 7 MiB (`perf/runs/2026-11-30-parquet-time2/`).
pub(crate) const SPARE_OUTPUTS: usize = 16;

/// Somewhere to inflate ranges: the bulk pipeline's workers. [`RangeJob::run`] (or
/// [`RangeJob::cancel`]) must eventually be called for every submitted job, on any thread:
/// the stream that submitted it waits for it when it reaches the range.
pub trait Offload: Send + Sync {
    /// Queues `job` for another thread.
    fn submit(&self, job: RangeJob);
    /// Ranges one stream keeps submitted ahead of its read position, at most.
    fn ranges_ahead(&self) -> usize;
    /// The inflater of an offload that would run each job on the submitting thread at once
    /// ([`InlineOffload`]): the stream then inflates the range from its own raw bytes
    /// instead of copying them into a job. `None` for offloads that hand jobs to other
    /// threads.
    fn here(&self) -> Option<&Mutex<Inflater>> {
        None
    }
}

/// A range of raw bytes to inflate: `input` is a copy of the stream's bytes from raw offset
/// `base`; members starting before raw offset `end` are the range's.
pub struct RangeJob {
    input: Vec<u8>,
    out: Vec<u8>,
    base: u64,
    end: u64,
    slot: Arc<Slot>,
}

/// One inflated member of a range.
#[derive(Clone, Copy, Debug)]
pub(super) struct Member {
    /// Raw offset of its gzip header.
    pub(super) start: u64,
    /// Raw bytes: header, deflate data, trailer.
    pub(super) raw_len: usize,
    /// Its bytes in the range's output.
    out_at: usize,
    pub(super) out_len: usize,
}

/// What a range became.
struct Inflated {
    /// In raw order, each starting where the one before ended unless the worker had to
    /// synchronize again after a failure.
    members: Vec<Member>,
    out: Vec<u8>,
    /// The job's input buffer, back for reuse.
    input: Vec<u8>,
}

#[cfg(test)]
thread_local! {
    /// Test hook: range jobs run on this thread panic.
    pub(crate) static PANIC_IN_RANGES: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Where a worker leaves a range's result for the stream.
#[derive(Default)]
struct Slot {
    done: Mutex<Option<Inflated>>,
    ready: Condvar,
}

impl Slot {
    fn put(&self, inflated: Inflated) {
        *self.done.lock().unwrap_or_else(|p| p.into_inner()) = Some(inflated);
        self.ready.notify_all();
    }

    fn wait(&self) -> Inflated {
        let mut done = self.done.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            if let Some(inflated) = done.take() {
                return inflated;
            }
            done = self.ready.wait(done).unwrap_or_else(|p| p.into_inner());
        }
    }
}

/// A worker's inflate state: libdeflate for whole members, a small streaming inflater to
/// look at a member's first bytes.
pub struct Inflater {
    one: Option<OneShot>,
    peek: Box<DecompressorOxide>,
}

impl Default for Inflater {
    fn default() -> Self {
        Inflater { one: OneShot::new(), peek: Box::default() }
    }
}

impl RangeJob {
    /// Inflates the range's members and hands them to the stream (which may be waiting).
    ///
    /// A panic while inflating (a bug) must not leave the stream waiting for this range
    /// forever: the range is then handed back uninflated, as [`RangeJob::cancel`] does (the
    /// stream decodes its members itself), and the inflater starts afresh.
    pub fn run(self, inflater: &mut Inflater) {
        let RangeJob { input, mut out, base, end, slot } = self;
        let members = inflater.range(&input, base, end, &mut out);
        slot.put(Inflated { members, out, input });
    }

    /// Hands the range back without inflating it (a stopping run): the stream decodes its
    /// members itself, if it still reads.
    pub fn cancel(self) {
        let RangeJob { input, out, slot, .. } = self;
        slot.put(Inflated { members: Vec::new(), out, input });
    }
}

impl Inflater {
    /// The members of a range, `input` its raw bytes from raw offset `base` (its members
    /// start before raw offset `end`), inflated into `out` (cleared first). A panic while
    /// inflating (a bug) leaves no member, `out` empty and the inflater afresh.
    fn range(&mut self, input: &[u8], base: u64, end: u64, out: &mut Vec<u8>) -> Vec<Member> {
        out.clear();
        let inflated = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            #[cfg(test)]
            if PANIC_IN_RANGES.get() {
                panic!("test: a range job panics");
            }
            self.members(input, (end - base) as usize, base, out)
        }));
        inflated.unwrap_or_else(|_| {
            *self = Inflater::default();
            out.clear();
            Vec::new()
        })
    }

    /// The members of `input[..limit]` (raw offset `base`), decoded into `out`.
    fn members(&mut self, input: &[u8], limit: usize, base: u64, out: &mut Vec<u8>) -> Vec<Member> {
        let mut members = Vec::new();
        let mut pos = 0;
        // Whether `pos` is where the previous member ended (else: look for a candidate).
        let mut chained = false;
        while pos < limit {
            if !chained {
                // A candidate starting before `limit` (its magic may end after it).
                let window = &input[pos..(limit + MAGIC.len() - 1).min(input.len())];
                match memchr::memmem::find(window, &MAGIC) {
                    Some(i) => pos += i,
                    None => break,
                }
            }
            // The range's output is full: the stream decodes the rest itself.
            let at = out.len();
            if at >= RANGE_OUT {
                break;
            }
            match self.member(&input[pos..], out, !chained) {
                Ok(raw_len) => {
                    let start = base + pos as u64;
                    members.push(Member { start, raw_len, out_at: at, out_len: out.len() - at });
                    pos += raw_len;
                    chained = true;
                }
                // Not a member, or one larger than the stream's one-shot limit (the stream
                // decodes it): go on from the next candidate.
                Err(_) => {
                    pos += 1;
                    chained = false;
                }
            }
        }
        members
    }

    /// Decodes the gzip member at the start of `b` whole into `out`, at most [`BIG`] bytes
    /// (CRC and length checked); returns its raw length. `first`: the member must begin with `WARC/` (a synchronization
    /// point, not a gzip body stored inside a record), checked before inflating it whole.
    fn member(&mut self, b: &[u8], out: &mut Vec<u8>, first: bool) -> Result<usize, Miss> {
        let hl = header_len(b).ok_or(Miss::Data)?;
        let data = &b[hl..];
        if first && !self.starts_with_version(data) {
            return Err(Miss::Data);
        }
        let one = self.one.as_mut().ok_or(Miss::Data)?;
        let at = out.len();
        // Deflate expands at most 1032 to 1 (RFC 1951): no need to reserve more room than the
        // input left could fill (short inputs, small ranges).
        let room = BIG.min(data.len().saturating_mul(1032));
        let used = one.deflate(data, out, room)?;
        let good = data.get(used..used + 8).is_some_and(|t| {
            let crc = u32::from_le_bytes([t[0], t[1], t[2], t[3]]);
            let size = u32::from_le_bytes([t[4], t[5], t[6], t[7]]);
            super::deflate::crc32(&out[at..]) == crc && size == (out.len() - at) as u32
        });
        if !good {
            out.truncate(at);
            return Err(Miss::Data);
        }
        Ok(hl + used + 8)
    }

    /// Whether the deflate stream `data` begins with `WARC/` (its first bytes only).
    fn starts_with_version(&mut self, data: &[u8]) -> bool {
        let mut head = [0u8; 5];
        self.peek.init();
        let flags = inflate_flags::TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF;
        let (_, _, written) = decompress(&mut self.peek, data, &mut head, 0, flags);
        written == head.len() && &head == b"WARC/"
    }
}

/// A range submitted ahead of the read position.
struct Range {
    /// Raw offset of its first candidate; members starting in `start..end` are its.
    start: u64,
    end: u64,
    slot: Arc<Slot>,
    /// Its result, once waited for.
    got: Option<Inflated>,
}

/// The reader thread's side: candidates ahead of the read position, the ranges submitted,
/// their results. Owned by a [`super::stream::GzStream`].
pub(super) struct Ahead {
    offload: Arc<dyn Offload>,
    ranges: VecDeque<Range>,
    /// Candidates found after the last range's start, in order (the first is the next
    /// range's start).
    cands: VecDeque<u64>,
    /// Raw offset up to which candidates were looked for.
    scanned: u64,
    /// Input buffers back from finished ranges.
    spare_in: Vec<Vec<u8>>,
    /// Output buffers: back from finished ranges, from the stream, and from the blocks that
    /// shared them (see [`crate::bulk::buf::Block`]).
    spares: Arc<BufPool>,
}

impl Ahead {
    pub(super) fn new(offload: Arc<dyn Offload>) -> Self {
        Ahead {
            offload,
            ranges: VecDeque::new(),
            cands: VecDeque::new(),
            scanned: 0,
            spare_in: Vec::new(),
            spares: Arc::new(BufPool::with_limits(SPARE_OUTPUTS, 2 * (RANGE_OUT + BIG))),
        }
    }

    /// Submits ranges ahead of `raw`'s read position until [`Offload::ranges_ahead`] are out,
    /// reading raw bytes ahead as needed (at most [`LOOKAHEAD`]).
    pub(super) fn top_up<R: Read>(&mut self, raw: &mut Raw<R>) -> io::Result<()> {
        let p = raw.pos();
        while self.ranges.front().is_some_and(|r| r.end <= p) {
            let r = self.ranges.pop_front().expect("front");
            self.recycle(r);
        }
        // The stream decoded past what was scanned (a member too large for a range, or
        // bytes decoded by the stream itself): look again from the read position.
        if self.ranges.is_empty() && self.scanned < p {
            self.cands.clear();
            self.scanned = p;
        }
        while self.cands.front().is_some_and(|&c| c < p) {
            self.cands.pop_front();
        }
        let most = self.offload.ranges_ahead().max(1);
        while self.ranges.len() < most {
            let Some(&start) = self.cands.front() else {
                if self.scan(raw)? {
                    continue;
                }
                break;
            };
            let want = start + RANGE_BYTES as u64;
            let end = match self.cands.iter().position(|&c| c >= want) {
                Some(i) => {
                    let end = self.cands[i];
                    self.cands.drain(..i);
                    end
                }
                None if self.scan(raw)? => continue,
                // The whole stream is scanned: the last range runs to its end.
                None if raw.at_end() => {
                    self.cands.clear();
                    raw.pos() + raw.avail().len() as u64
                }
                None => break,
            };
            self.submit(raw, start, end);
        }
        Ok(())
    }

    /// Looks for candidates in more raw bytes; false when there are none to look at (the
    /// end of the stream, or [`LOOKAHEAD`] bytes ahead of the read position).
    fn scan<R: Read>(&mut self, raw: &mut Raw<R>) -> io::Result<bool> {
        let p = raw.pos();
        let ahead = (self.scanned - p) as usize;
        if ahead >= LOOKAHEAD {
            return Ok(false);
        }
        let have = raw.avail().len();
        if have < ahead + RANGE_BYTES + MAGIC.len() && !raw.at_end() {
            raw.fill((ahead + 4 * RANGE_BYTES).min(LOOKAHEAD))?;
        }
        let avail = raw.avail();
        // A candidate needs its flag byte (RFC 1952: reserved bits zero) before it counts,
        // except at the end of the stream.
        let upto = if raw.at_end() { avail.len() } else { avail.len().saturating_sub(3) };
        if upto <= ahead {
            return Ok(false);
        }
        for i in memchr::memmem::find_iter(&avail[ahead..upto], &MAGIC) {
            let at = ahead + i;
            if avail.get(at + 3).is_none_or(|f| f & 0xe0 == 0) {
                self.cands.push_back(p + at as u64);
            }
        }
        self.scanned = p + upto as u64;
        Ok(true)
    }

    fn submit<R: Read>(&mut self, raw: &Raw<R>, start: u64, end: u64) {
        let p = raw.pos();
        let avail = raw.avail();
        let from = (start - p) as usize;
        let to = ((end - p) as usize + OVERHANG).min(avail.len());
        let mut out = self.spares.get();
        let slot = Arc::new(Slot::default());
        if let Some(inflater) = self.offload.here() {
            // The job would run here and now: it reads the raw bytes where they are.
            let mut inflater = inflater.lock().unwrap_or_else(|p| p.into_inner());
            let members = inflater.range(&avail[from..to], start, end, &mut out);
            self.ranges.push_back(Range {
                start,
                end,
                slot,
                got: Some(Inflated { members, out, input: Vec::new() }),
            });
            return;
        }
        let mut input = self.spare_in.pop().unwrap_or_default();
        input.clear();
        input.extend_from_slice(&avail[from..to]);
        let job = RangeJob { input, out, base: start, end, slot: slot.clone() };
        self.offload.submit(job);
        self.ranges.push_back(Range { start, end, slot, got: None });
    }

    fn recycle(&mut self, r: Range) {
        let Some(got) = r.got.or_else(|| r.slot.done.lock().ok().and_then(|mut d| d.take())) else {
            return;
        };
        // As many as can be out at once; an input that grew past a range's usual size (a
        // large member) is not kept.
        let most = self.offload.ranges_ahead().max(1);
        let size = got.input.capacity();
        if self.spare_in.len() < most && 0 < size && size <= 4 * (RANGE_BYTES + OVERHANG) {
            self.spare_in.push(got.input);
        }
        self.spares.put(got.out);
    }

    /// The output of the range whose first member starts exactly at raw offset `p`: its
    /// buffer, moved out of the range, and the members it holds, in order. The stream takes
    /// the buffer as its own instead of copying the members out one by one. Only the members
    /// that follow each other in the raw stream from `p` on are in it; any after a gap (where
    /// the worker synchronized again) stay in the range, copied, for [`Ahead::member_at`].
    /// None when they are more than `max` bytes. Waits for the range when it is not done.
    pub(super) fn take_range_at(&mut self, p: u64, max: usize) -> Option<(Vec<u8>, Vec<Member>)> {
        let r = self.ranges.iter_mut().find(|r| r.start <= p && p < r.end)?;
        let got = r.got.get_or_insert_with(|| r.slot.wait());
        let first = got.members.first()?;
        if first.start != p || first.out_at != 0 {
            return None;
        }
        let chained = 1 + got
            .members
            .windows(2)
            .take_while(|w| w[0].start + w[0].raw_len as u64 == w[1].start)
            .count();
        let last = got.members[chained - 1];
        let len = last.out_at + last.out_len;
        if len > max {
            return None;
        }
        let mut members = std::mem::take(&mut got.members);
        let mut rest = members.split_off(chained);
        let mut out = std::mem::take(&mut got.out);
        let gap = !rest.is_empty();
        if gap {
            // The members after the gap stay for `member_at`, in a buffer of their own.
            got.out = out[len..].to_vec();
            for m in &mut rest {
                m.out_at -= len;
            }
            got.members = rest;
        }
        out.truncate(len);
        if gap {
            // The taken buffer gives their room back: the blocks that will share it account
            // for its length only.
            out.shrink_to_fit();
        }
        Some((out, members))
    }

    /// A buffer the stream is done with, for a later range's output.
    pub(super) fn give_back(&mut self, buf: Vec<u8>) {
        self.spares.put(buf);
    }

    /// Where output buffers go back to (see [`Ahead::give_back`]).
    pub(super) fn spares(&self) -> Arc<BufPool> {
        self.spares.clone()
    }

    /// The member starting exactly at raw offset `p`, inflated by a worker: its bytes and
    /// its raw length. Waits for the range holding `p` when it is not done yet.
    pub(super) fn member_at(&mut self, p: u64) -> Option<(&[u8], usize)> {
        let r = self.ranges.iter_mut().find(|r| r.start <= p && p < r.end)?;
        let got = r.got.get_or_insert_with(|| r.slot.wait());
        let i = got.members.binary_search_by_key(&p, |m| m.start).ok()?;
        let m = got.members[i];
        Some((&got.out[m.out_at..m.out_at + m.out_len], m.raw_len))
    }
}

/// An [`Offload`] that inflates each range on the submitting thread, at once: the fast path's
/// logic without threads (the one-thread pipeline, where no other thread could inflate; and
/// deterministic, for tests and fuzz targets). The stream still reads the records of a range
/// from its inflated buffer, without copying them.
pub struct InlineOffload {
    inflater: Mutex<Inflater>,
    ranges: usize,
}

impl InlineOffload {
    /// Keeps `ranges` ranges submitted ahead (as a pipeline of that many would).
    pub fn new(ranges: usize) -> Self {
        InlineOffload { inflater: Mutex::default(), ranges }
    }
}

impl Offload for InlineOffload {
    fn submit(&self, job: RangeJob) {
        job.run(&mut self.inflater.lock().unwrap_or_else(|p| p.into_inner()));
    }
    fn ranges_ahead(&self) -> usize {
        self.ranges
    }
    fn here(&self) -> Option<&Mutex<Inflater>> {
        Some(&self.inflater)
    }
}

/// An [`Offload`] over helper threads that take the newest range first, so ranges finish out
/// of order (tests).
/// Jobs waiting (newest last) and whether the pool is closing.
#[cfg(test)]
type LifoQueue = Arc<(Mutex<(Vec<RangeJob>, bool)>, Condvar)>;

#[cfg(test)]
pub(crate) struct LifoPool {
    queue: LifoQueue,
    threads: Vec<std::thread::JoinHandle<()>>,
    ranges: usize,
}

#[cfg(test)]
impl LifoPool {
    pub(crate) fn new(threads: usize, ranges: usize) -> Arc<Self> {
        let queue: LifoQueue = Arc::default();
        let threads = (0..threads)
            .map(|_| {
                let q = queue.clone();
                std::thread::spawn(move || {
                    let mut inflater = Inflater::default();
                    loop {
                        let mut s = q.0.lock().unwrap();
                        let job = loop {
                            if let Some(j) = s.0.pop() {
                                break j;
                            }
                            if s.1 {
                                return;
                            }
                            s = q.1.wait(s).unwrap();
                        };
                        drop(s);
                        job.run(&mut inflater);
                    }
                })
            })
            .collect();
        Arc::new(LifoPool { queue, threads, ranges })
    }
}

#[cfg(test)]
impl Offload for LifoPool {
    fn submit(&self, job: RangeJob) {
        self.queue.0.lock().unwrap().0.push(job);
        self.queue.1.notify_one();
    }
    fn ranges_ahead(&self) -> usize {
        self.ranges
    }
}

#[cfg(test)]
impl Drop for LifoPool {
    fn drop(&mut self) {
        self.queue.0.lock().unwrap().1 = true;
        self.queue.1.notify_all();
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}
