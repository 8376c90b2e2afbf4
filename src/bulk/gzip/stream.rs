//! Decoded streams for the archive readers: a gzip stream decoded member after member into
//! one byte stream ([`GzStream`]), a plain stream ([`PlainStream`]), both reporting where each
//! decoded byte came from and any corrupt region as a [`Break`] in the stream.
//!
//! NOTE: why not `flate2::GzDecoder`: after a corrupt member the reader must find the next
//! good member *without* taking a gzip member stored verbatim inside the corrupt one (a
//! crawled body that is itself gzip is stored by the crawler's deflate as a "stored" block:
//! its bytes appear as is in the archive). This decoder drives `miniz_oxide`'s inflater
//! block by block (`block-boundary`), notes the raw byte range of every stored block of the
//! member being decoded, and on failure resynchronizes forward from the failed member's
//! start, skipping every candidate header inside those ranges — unless the members from
//! that header on decode one after another past the range's end and past where the failed
//! member failed: then the stored block was cut short and those are the members written
//! after the cut.
//!
//! Fast path: a member whose deflate data and trailer are buffered is first inflated whole
//! by libdeflate ([`super::deflate`]), 2–3× the streaming speed; when that fails for
//! any reason the member goes through the streaming path above, from its start, so every
//! failure and recovery is the streaming path's.
//!
//! Memory: the raw buffer keeps at least [`RETAIN`](super::raw::RETAIN) bytes behind the read
//! position (to go back to a failed member's start) and drops older ones once 3 MiB are
//! buffered, so it holds at most 3 MiB plus one [`CHUNK`] beyond what a caller needs ahead;
//! the inflater its 32 KiB window; stored ranges are kept only for the retained bytes; a
//! member decoded whole that is larger than one pull waits in a buffer of at most [`BIG`]
//! bytes.

use std::io::{self, Read};
use std::sync::Arc;

use miniz_oxide::inflate::core::{decompress_with_limit, inflate_flags, DecompressorOxide};
use miniz_oxide::inflate::TINFLStatus;

use super::ahead::{self, Ahead, Offload};
use super::deflate::{Miss, OneShot};
use super::member::{BIG, MAGIC};
use super::raw::{Raw, CHUNK};
use crate::bulk::buf::BufPool;

const WINDOW: usize = 32 * 1024;

/// A corrupt region of the stream: `offset` is its first raw byte (a failed gzip member's
/// start, or the first byte that is not a gzip member).
#[derive(Debug, Clone)]
pub struct Break {
    /// Raw offset of the corrupt region's first byte.
    pub offset: u64,
    /// Decoded position where the bytes of the failed member begin (what was decoded from it
    /// is not trustworthy); the break's own position for bytes that are not a member.
    pub decoded_from: u64,
    /// `truncated` (the stream ends inside a member) or `bad_gzip` (`bad_zstd`).
    pub kind: &'static str,
    /// What a member of the stream is, for messages: `gzip member` or `zstd frame`.
    pub unit: &'static str,
    /// What was wrong, for the error record.
    pub message: String,
}

/// What a pull produced.
#[derive(Debug)]
pub enum Step {
    /// Decoded bytes were appended.
    Data,
    /// A corrupt region; decoding goes on after it.
    Break(Break),
    /// The end of the stream.
    End,
}

/// Where each member (gzip) or frame (zstd) of a compressed stream starts: (decoded
/// position, raw offset) pairs, oldest first, which [`Source::locate`],
/// [`Source::member_starts`] and [`Source::forget_before`] answer from.
#[derive(Debug, Default)]
pub struct Marks(std::collections::VecDeque<(u64, u64)>);

impl Marks {
    /// Notes that the member at raw offset `raw` starts at decoded position `decoded`.
    pub fn push(&mut self, decoded: u64, raw: u64) {
        self.0.push_back((decoded, raw));
    }

    /// [`Source::locate`]: the raw offset of the member holding decoded byte `pos`, and
    /// the decoded bytes since its start.
    pub fn locate(&self, pos: u64) -> (u64, u64) {
        match self.0.iter().rev().find(|m| m.0 <= pos) {
            Some(&(d, raw)) => (raw, pos - d),
            None => (0, pos),
        }
    }

    /// [`Source::member_starts`]: the decoded positions in `from..to` where a member starts.
    pub fn starts(&self, from: u64, to: u64) -> Vec<u64> {
        self.0.iter().map(|m| m.0).filter(|d| (from..to).contains(d)).collect()
    }

    /// [`Source::forget_before`]: drops the marks no position from `pos` on needs (the
    /// member holding `pos` stays).
    pub fn forget_before(&mut self, pos: u64) {
        while self.0.len() > 1 && self.0[1].0 <= pos {
            self.0.pop_front();
        }
    }
}

/// A stream of decoded bytes.
pub trait Source {
    /// Appends up to `max` decoded bytes to `out`.
    fn pull(&mut self, out: &mut Vec<u8>, max: usize) -> io::Result<Step>;
    /// Where decoded byte number `pos` came from: (raw offset of its gzip member, decoded
    /// bytes since that member's start); for a plain stream (raw offset, 0).
    fn locate(&self, pos: u64) -> (u64, u64);
    /// Decoded bytes before `pos` will not be located again.
    fn forget_before(&mut self, pos: u64);
    /// Decoded positions in `from..to` where a gzip member starts.
    fn member_starts(&self, _from: u64, _to: u64) -> Vec<u64> {
        Vec::new()
    }
    /// Decoded bytes before this position come from gzip members decoded to their end:
    /// checked (CRC and length), or part of a failure already reported as a break. A plain
    /// stream has nothing to check: all of them.
    fn checked_upto(&self) -> u64 {
        u64::MAX
    }
    /// When `out` is empty: replaces it with more decoded bytes at once (at most `max`) if
    /// the source has them in a buffer of their own, so they need not be copied; the old
    /// buffer is the source's to reuse. False (nothing changed) otherwise: then [`pull`].
    ///
    /// [`pull`]: Source::pull
    fn swap_in(&mut self, _out: &mut Vec<u8>, _max: usize) -> io::Result<bool> {
        Ok(false)
    }
    /// Where the buffer [`Source::swap_in`] just gave goes back to once the blocks read from it as
    /// shared ranges are dropped (see [`crate::bulk::buf::Block`]); asked after each swap, and none
    /// means the blocks read from that buffer are copied out.
    fn buffer_home(&self) -> Option<Arc<BufPool>> {
        None
    }
    /// From now on, the source may decode ahead of the read position on `offload`'s threads
    /// (a gzip stream does; others ignore it).
    fn use_offload(&mut self, _offload: Arc<dyn Offload>) {}
}

/// A plain (uncompressed) stream.
pub struct PlainStream<R> {
    raw: Raw<R>,
}

impl<R: Read> PlainStream<R> {
    /// The stream of `raw`'s bytes as they are.
    pub fn new(raw: Raw<R>) -> Self {
        PlainStream { raw }
    }
}

impl<R: Read> Source for PlainStream<R> {
    fn pull(&mut self, out: &mut Vec<u8>, max: usize) -> io::Result<Step> {
        let avail = self.raw.fill(1)?;
        if avail.is_empty() {
            return Ok(Step::End);
        }
        let n = avail.len().min(max.max(1));
        out.extend_from_slice(&avail[..n]);
        self.raw.consume(n);
        // NOTE: nothing is ever re-read: keep the raw buffer from growing.
        if self.raw.pos() - self.raw.oldest() >= CHUNK as u64 {
            self.raw.drop_behind(0);
        }
        Ok(Step::Data)
    }
    fn locate(&self, pos: u64) -> (u64, u64) {
        (pos, 0)
    }
    fn forget_before(&mut self, _pos: u64) {}
}

struct Member {
    /// Raw offset of the member's first byte.
    start: u64,
    /// Decoded position of its first byte.
    dec_start: u64,
    /// CRC-32 of what was inflated of it so far.
    crc: u32,
    size: u32,
    /// Nothing of the member has been inflated yet (the one-shot path may take it).
    fresh: bool,
}

/// A gzip stream decoded member by member into one byte stream.
pub struct GzStream<R> {
    raw: Raw<R>,
    inflater: Box<DecompressorOxide>,
    window: Box<[u8]>,
    wpos: usize,
    member: Option<Member>,
    /// Raw ranges of stored-block data of the member being decoded and of the failed members
    /// since the last good one: a resynchronization starts inside one only where the
    /// members from there run on past its end and past `failed_upto`
    /// ([`GzStream::chain_leaves`]).
    stored: Vec<(u64, u64)>,
    /// The furthest raw offset where a member failed since the last good one.
    failed_upto: u64,
    /// Set after a failure until a member decodes completely: further failures extend it
    /// unless bytes were decoded since.
    failing: Option<Break>,
    /// Bytes decoded when the last failure was noted.
    failed_at: u64,
    /// Where each member starts.
    marks: Marks,
    decoded: u64,
    /// The one-shot inflater (see [`GzStream::whole_member`]); `None` when unavailable.
    oneshot: Option<OneShot>,
    /// Members in a row the one-shot path could not take (too large for one pull, or not
    /// wholly buffered); past [`ONESHOT_MISSES`] it is tried on every 64th member only.
    misses: u32,
    /// A member decoded whole that is larger than the pull that decoded it: `big[big_at..]`
    /// is handed out by the next pulls, before anything else is read.
    big: Vec<u8>,
    big_at: usize,
    /// Members inflated ahead on other threads ([`GzStream::offload`]).
    ahead: Option<Ahead>,
    /// Members taken from `ahead`.
    taken_ahead: u64,
    /// Of those, members of a range whose whole buffer became the reader's.
    swapped_in: u64,
    /// Whether the range swapped in last is mostly `response` records (see
    /// [`Source::buffer_home`]).
    swapped_dense: bool,
}

/// Whether at least half of the bytes of `members` (decoded one after the other in `bytes`)
/// are in members whose WARC header says `WARC-Type: response` (in its first 2 KiB, as
/// written; another spelling only means the blocks are copied).
fn mostly_responses(bytes: &[u8], members: &[ahead::Member]) -> bool {
    let mut at = 0;
    let mut responses = 0;
    for m in members {
        let member = &bytes[at..at + m.out_len];
        let head = &member[..member.len().min(2048)];
        if memchr::memmem::find(head, b"\nWARC-Type: response").is_some() {
            responses += m.out_len;
        }
        at += m.out_len;
    }
    2 * responses >= at
}

/// See [`GzStream::misses`].
const ONESHOT_MISSES: u32 = 4;

/// What one failure's checks of candidate members inside stored data
/// ([`GzStream::chain_leaves`]) may read ahead and inflate, in all.
struct ChainBudget {
    raw: usize,
    inflated: usize,
}

const CHAIN_RAW: usize = 4 << 20;
const CHAIN_INFLATED: usize = 16 << 20;

impl<R: Read> GzStream<R> {
    /// The decoded stream of the gzip members in `raw`.
    pub fn new(raw: Raw<R>) -> Self {
        GzStream {
            raw,
            inflater: Box::default(),
            window: vec![0; WINDOW].into_boxed_slice(),
            wpos: 0,
            member: None,
            stored: Vec::new(),
            failing: None,
            failed_at: 0,
            failed_upto: 0,
            marks: Default::default(),
            decoded: 0,
            oneshot: OneShot::new(),
            misses: 0,
            big: Vec::new(),
            big_at: 0,
            ahead: None,
            taken_ahead: 0,
            swapped_in: 0,
            swapped_dense: false,
        }
    }

    /// Members so far whose bytes came from the [`GzStream::offload`] threads.
    #[cfg(any(test, feature = "internals"))]
    pub fn members_inflated_ahead(&self) -> u64 {
        self.taken_ahead
    }

    /// Of those, the members whose range's buffer the reader took whole (not copied).
    #[cfg(any(test, feature = "internals"))]
    pub fn members_swapped_in(&self) -> u64 {
        self.swapped_in
    }

    /// From now on, members ahead of the read position are inflated by `offload`'s threads
    /// (see [`super::ahead`]); the decoded stream is the same byte for byte.
    pub fn offload(&mut self, offload: Arc<dyn Offload>) {
        self.ahead = Some(Ahead::new(offload));
    }

    /// At a member boundary: the member at the read position, when a helper inflated it.
    /// Its bytes go to `out` (to `big` when more than `max`, handed out by the next pulls)
    /// and the stream moves past it, in the state a member decoded here would leave
    /// ([`GzStream::whole_member`]). Returns whether it did.
    fn ahead_member(&mut self, out: &mut Vec<u8>, max: usize) -> io::Result<bool> {
        let Some(ahead) = &mut self.ahead else { return Ok(false) };
        ahead.top_up(&mut self.raw)?;
        let p = self.raw.pos();
        let Some((bytes, raw_len)) = ahead.member_at(p) else { return Ok(false) };
        let dec_start = self.decoded;
        if bytes.len() <= max {
            out.extend_from_slice(bytes);
            self.decoded += bytes.len() as u64;
        } else {
            self.big.clear();
            self.big.extend_from_slice(bytes);
            self.big_at = 0;
        }
        self.past_member_ahead(dec_start, p, raw_len);
        Ok(true)
    }

    /// Moves past the member at raw offset `start` (`raw_len` bytes), which a helper
    /// inflated and whose bytes begin at decoded position `dec_start`, in the state decoding
    /// it here would leave.
    fn past_member_ahead(&mut self, dec_start: u64, start: u64, raw_len: usize) {
        self.marks.push(dec_start, start);
        self.raw.consume(raw_len);
        self.member = None;
        self.failures_over();
        self.misses = 0;
        self.taken_ahead += 1;
    }

    /// The fast path for a member nothing of which is inflated yet: when its whole deflate
    /// stream and trailer are buffered, it inflates to at most `max` bytes and its CRC and
    /// length match, its bytes are appended to `out` and the member is done (`true`).
    /// Otherwise nothing changes (`false`) and the streaming inflater takes the member, so
    /// a member that fails (and every recovery after it) is handled by one code path only.
    /// NOTE: a good member needs none of the stored-block ranges the streaming path notes:
    /// they only keep a resynchronization after a *failed* member out of its stored data,
    /// and a good member clears them.
    fn whole_member(&mut self, out: &mut Vec<u8>, max: usize) -> io::Result<bool> {
        if self.misses >= ONESHOT_MISSES && !self.misses.is_multiple_of(64) {
            self.misses += 1;
            return Ok(false);
        }
        let Some(one) = &mut self.oneshot else { return Ok(false) };
        self.raw.fill(CHUNK)?;
        let input = self.raw.avail();
        // Straight into `out` when the member fits in this pull, else into `big` (served by
        // the next pulls).
        let mut big = std::mem::take(&mut self.big);
        big.clear();
        let len = out.len();
        let (dest, at, res) = match one.deflate(input, out, max) {
            Err(Miss::Room) if max < BIG => {
                let r = one.deflate(input, &mut big, BIG);
                (&mut big, 0, r)
            }
            r => (&mut *out, len, r),
        };
        let good = match res {
            Ok(used) if input.len() >= used + 8 => {
                let t = &input[used..used + 8];
                let crc = u32::from_le_bytes([t[0], t[1], t[2], t[3]]);
                let size = u32::from_le_bytes([t[4], t[5], t[6], t[7]]);
                let data = &dest[at..];
                (super::deflate::crc32(data) == crc && size == data.len() as u32).then_some(used)
            }
            _ => None,
        };
        let Some(used) = good else {
            out.truncate(len);
            big.clear();
            self.big = big;
            self.misses += 1;
            return Ok(false);
        };
        self.misses = 0;
        self.raw.consume(used + 8);
        self.member = None;
        self.failures_over();
        self.decoded += (out.len() - len) as u64;
        self.big = big;
        self.big_at = 0;
        Ok(true)
    }

    /// Hands out up to `max` bytes of a member decoded into `big`.
    fn serve_big(&mut self, out: &mut Vec<u8>, max: usize) -> bool {
        let rest = &self.big[self.big_at..];
        if rest.is_empty() {
            return false;
        }
        let n = rest.len().min(max.max(1));
        out.extend_from_slice(&rest[..n]);
        self.big_at += n;
        self.decoded += n as u64;
        if self.big_at == self.big.len() {
            self.big.clear();
            self.big_at = 0;
            if self.big.capacity() > BIG {
                self.big = Vec::new();
            }
        }
        true
    }

    /// Reads a gzip member header at the read position (RFC 1952 §2.3). `Ok(false)`: not one.
    fn header(&mut self) -> io::Result<bool> {
        let h = self.raw.fill(10)?;
        if h.len() < 10 || h[..3] != MAGIC || h[3] & 0xe0 != 0 {
            return Ok(false);
        }
        let flags = h[3];
        self.raw.consume(10);
        if flags & 0x04 != 0 {
            let x = self.raw.fill(2)?;
            if x.len() < 2 {
                return Ok(false);
            }
            let xlen = u16::from_le_bytes([x[0], x[1]]) as usize;
            self.raw.consume(2);
            if !self.skip(xlen)? {
                return Ok(false);
            }
        }
        // FNAME, FCOMMENT: zero-terminated, any length (skipped, never buffered whole).
        for bit in [0x08, 0x10] {
            if flags & bit != 0 {
                loop {
                    let b = self.raw.fill(1)?;
                    if b.is_empty() {
                        return Ok(false);
                    }
                    match memchr::memchr(0, b) {
                        Some(i) => {
                            self.raw.consume(i + 1);
                            break;
                        }
                        None => {
                            let n = b.len();
                            self.raw.consume(n);
                        }
                    }
                }
            }
        }
        if flags & 0x02 != 0 && !self.skip(2)? {
            return Ok(false);
        }
        Ok(true)
    }

    fn skip(&mut self, mut n: usize) -> io::Result<bool> {
        while n > 0 {
            let b = self.raw.fill(1)?;
            if b.is_empty() {
                return Ok(false);
            }
            let k = b.len().min(n);
            self.raw.consume(k);
            n -= k;
        }
        Ok(true)
    }

    /// At a deflate block boundary (`bits` unread bits of the last consumed byte): notes the
    /// next block's data range when it is a stored block (RFC 1951 §3.2.4).
    fn note_block(&mut self, num_bits: u8, bit_buf: u8) -> io::Result<()> {
        let at = self.raw.pos();
        let b = self.raw.fill(6)?;
        let (btype, len_at) = if num_bits >= 3 {
            ((bit_buf >> 1) & 3, 0)
        } else {
            let Some(&next) = b.first() else { return Ok(()) };
            let bits = (bit_buf as u16) | ((next as u16) << num_bits);
            (((bits >> 1) & 3) as u8, 1)
        };
        if btype != 0 || b.len() < len_at + 4 {
            return Ok(());
        }
        let len = u16::from_le_bytes([b[len_at], b[len_at + 1]]);
        let nlen = u16::from_le_bytes([b[len_at + 2], b[len_at + 3]]);
        if len != !nlen {
            return Ok(());
        }
        let from = at + len_at as u64;
        self.add_stored(from, from + 4 + len as u64);
        Ok(())
    }

    /// Adds a range to the sorted, disjoint list (ranges a few bytes apart are merged), and
    /// drops the ranges behind the retained bytes.
    fn add_stored(&mut self, from: u64, to: u64) {
        let oldest = self.raw.oldest();
        let gone = self.stored.partition_point(|r| r.1 <= oldest);
        self.stored.drain(..gone);
        let i = self.stored.partition_point(|r| r.1 + 8 < from);
        let mut j = i;
        let (mut a, mut b) = (from, to);
        while j < self.stored.len() && self.stored[j].0 <= b + 8 {
            a = a.min(self.stored[j].0);
            b = b.max(self.stored[j].1);
            j += 1;
        }
        self.stored.splice(i..j, [(a, b)]);
    }

    /// The member (or non-member bytes) that started at `start` failed at the read
    /// position: record it, then move forward to the next candidate member header after
    /// `start`, outside stored data — or inside it when the members from that candidate
    /// decode one after another past both the stored data's end and the furthest failure
    /// since the last good member ([`GzStream::chain_leaves`]).
    fn fail(
        &mut self,
        start: u64,
        kind: &'static str,
        message: String,
    ) -> io::Result<Option<Break>> {
        // The furthest failure of this run of failures: a member that fails after a
        // resynchronization (non-member bytes in the failed member's own deflate data) does
        // not bring the bar back.
        self.failed_upto = self.failed_upto.max(self.raw.pos());
        let decoded_from = self.member.take().map_or(self.decoded, |m| m.dec_start);
        // A failure right after another (nothing decoded since) is part of it; one after
        // bytes were handed out (a member that inflated, then failed its check) is a break of
        // its own, so those bytes are not taken as checked.
        let first = self.failing.is_none() || self.decoded > self.failed_at;
        self.failed_at = self.decoded;
        if first {
            self.failing =
                Some(Break { offset: start, decoded_from, kind, unit: "gzip member", message });
        }
        // Forward from the failed member's start when those bytes are still buffered.
        let mut budget = ChainBudget { raw: CHAIN_RAW, inflated: CHAIN_INFLATED };
        let from = (start + 1).max(self.raw.oldest());
        if !self.raw.seek_buffered(from) {
            // NOTE: unreachable in practice (the read position is past `start`).
            self.raw.seek_buffered(self.raw.pos());
        }
        loop {
            let pos = self.raw.pos();
            let b = self.raw.fill(MAGIC.len())?;
            let blen = b.len();
            if blen < MAGIC.len() {
                self.raw.consume(blen);
                break;
            }
            let hit = memchr::memmem::find(b, &MAGIC);
            match hit {
                Some(i) => {
                    self.raw.consume(i);
                    let at = pos + i as u64;
                    match self.stored_range_at(at) {
                        None => break,
                        Some(end) if self.chain_leaves(end, &mut budget)? => break,
                        Some(_) => self.raw.consume(1),
                    }
                }
                None => self.raw.consume(blen - (MAGIC.len() - 1)),
            }
        }
        Ok(if first { self.failing.clone() } else { None })
    }

    /// A member decoded and checked: the failures before it are over.
    fn failures_over(&mut self) {
        self.failing = None;
        self.stored.clear();
        self.failed_upto = 0;
    }

    /// The end of the stored range holding raw offset `p`, if one does.
    fn stored_range_at(&self, p: u64) -> Option<u64> {
        let i = self.stored.partition_point(|r| r.1 <= p);
        self.stored.get(i).filter(|r| r.0 <= p).map(|r| r.1)
    }

    /// Whether the gzip members starting at the read position (a candidate header inside
    /// stored data ending at raw offset `end`) are real members rather than bytes of a body
    /// stored verbatim: members that decode completely (CRC and length checked) one after
    /// the other until one ends past `end` and past [`GzStream::failed_upto`]. A gzip body
    /// stored inside a member ends within that member's stored data, where the enclosing
    /// member's own deflate data follows, never a member; a stored block whose member was
    /// cut short (a writer that crashed, then appended) declares bytes that are really the
    /// members written after the cut, and those run on past it and past the garbage the
    /// enclosing member failed on. Requiring the failure to be passed too means a stored
    /// member crafted to decode past its stored run (its CRC computed over the writer's
    /// predicted bytes after the run) is not taken when the enclosing member fails further
    /// on: the chain would have to cover the enclosing member's bytes up to the failure.
    /// The read position does not move. Each failure's checks share `budget` (raw bytes
    /// read ahead and bytes inflated), so that bytes crafted to hold many candidates cost
    /// bounded work; past it, a candidate in stored data is skipped. A chain is first given
    /// the raw bytes to `end` (a stored body's members end before it, cheaply), and only
    /// one that passes it those to the failure.
    fn chain_leaves(&mut self, end: u64, budget: &mut ChainBudget) -> io::Result<bool> {
        let start = self.raw.pos();
        let Some(one) = &mut self.oneshot else { return Ok(false) };
        let mut scratch = Vec::new();
        let (mut window, mut at) = (0usize, 0usize);
        for past in [end, end.max(self.failed_upto)] {
            let want = past.saturating_sub(start).saturating_add(CHUNK as u64);
            let more = (want.saturating_sub(window as u64) as usize).min(budget.raw);
            budget.raw -= more;
            window += more;
            if window <= MAGIC.len() {
                return Ok(false);
            }
            let input = self.raw.fill(window)?;
            let input = &input[..input.len().min(window)];
            while start + at as u64 <= past {
                scratch.clear();
                let Ok(used) = one.gzip(&input[at..], &mut scratch, budget.inflated) else {
                    return Ok(false);
                };
                budget.inflated -= scratch.len();
                at += used;
            }
        }
        Ok(true)
    }

    fn start_member(&mut self) -> io::Result<Option<Break>> {
        let start = self.raw.pos();
        if self.header()? {
            self.inflater.init();
            self.wpos = 0;
            self.member =
                Some(Member { start, dec_start: self.decoded, crc: 0, size: 0, fresh: true });
            // The first block header follows the gzip header at a byte boundary.
            self.note_block(0, 0)?;
            self.marks.push(self.decoded, start);
            return Ok(None);
        }
        self.raw.seek_buffered(start);
        // Zero bytes to the end of the stream are padding (a tape block, a fixed-size
        // buffer), which gzip ignores too: the stream's end, not a failure.
        loop {
            let avail = self.raw.fill(1)?;
            if avail.is_empty() {
                return Ok(None);
            }
            match avail.iter().position(|&b| b != 0) {
                None => {
                    let n = avail.len();
                    self.raw.consume(n);
                }
                Some(_) => break,
            }
        }
        let msg = "bytes that are not a gzip member".to_owned();
        self.fail(start, "bad_gzip", msg)
    }
}

impl<R: Read> Source for GzStream<R> {
    fn pull(&mut self, out: &mut Vec<u8>, max: usize) -> io::Result<Step> {
        if self.serve_big(out, max) {
            return Ok(Step::Data);
        }
        loop {
            let Some(member) = &self.member else {
                if self.raw.fill(1)?.is_empty() {
                    return Ok(Step::End);
                }
                let before = out.len();
                if self.ahead_member(out, max.max(1))? {
                    if self.serve_big(out, max) || out.len() > before {
                        return Ok(Step::Data);
                    }
                    continue;
                }
                if let Some(b) = self.start_member()? {
                    return Ok(Step::Break(b));
                }
                continue;
            };
            let start = member.start;
            if member.fresh {
                if let Some(m) = &mut self.member {
                    m.fresh = false;
                }
                let before = out.len();
                if self.whole_member(out, max.max(1))? {
                    if self.serve_big(out, max) || out.len() > before {
                        return Ok(Step::Data);
                    }
                    continue;
                }
            }
            self.raw.fill(1)?;
            let at_eof = self.raw.at_end();
            let input = self.raw.avail();
            let mut flags = inflate_flags::TINFL_FLAG_STOP_ON_BLOCK_BOUNDARY;
            if !at_eof {
                flags |= inflate_flags::TINFL_FLAG_HAS_MORE_INPUT;
            }
            let limit = max.max(1);
            let (status, used, written) = decompress_with_limit(
                &mut self.inflater,
                input,
                &mut self.window,
                self.wpos,
                limit,
                flags,
            );
            self.raw.consume(used);
            if written > 0 {
                let data = &self.window[self.wpos..self.wpos + written];
                out.extend_from_slice(data);
                if let Some(m) = &mut self.member {
                    m.crc = super::deflate::crc32_update(m.crc, data);
                    m.size = m.size.wrapping_add(written as u32);
                }
                self.decoded += written as u64;
                self.wpos = (self.wpos + written) & (WINDOW - 1);
            }
            match status {
                TINFLStatus::BlockBoundary => {
                    if let Some(st) = self.inflater.block_boundary_state() {
                        self.note_block(st.num_bits, st.bit_buf)?;
                    }
                }
                TINFLStatus::Done => {
                    let t = self.raw.fill(8)?;
                    if t.len() < 8 {
                        let msg = "gzip member ends before its trailer".to_owned();
                        if let Some(b) = self.fail(start, "truncated", msg)? {
                            return Ok(Step::Break(b));
                        }
                        continue;
                    }
                    let crc = u32::from_le_bytes([t[0], t[1], t[2], t[3]]);
                    let size = u32::from_le_bytes([t[4], t[5], t[6], t[7]]);
                    let m = self.member.as_ref().expect("member");
                    if crc != m.crc || size != m.size {
                        let msg = "gzip member fails its CRC or length check".to_owned();
                        if let Some(b) = self.fail(start, "bad_gzip", msg)? {
                            return Ok(Step::Break(b));
                        }
                        continue;
                    }
                    self.raw.consume(8);
                    self.member = None;
                    self.failures_over();
                }
                TINFLStatus::FailedCannotMakeProgress | TINFLStatus::NeedsMoreInput
                    if at_eof
                        && (status == TINFLStatus::FailedCannotMakeProgress
                            || used == 0 && written == 0) =>
                {
                    let msg = "the stream ends inside a gzip member".to_owned();
                    if let Some(b) = self.fail(start, "truncated", msg)? {
                        return Ok(Step::Break(b));
                    }
                    continue;
                }
                TINFLStatus::NeedsMoreInput | TINFLStatus::HasMoreOutput => {}
                _ => {
                    let msg = format!("corrupt gzip member ({status:?})");
                    if let Some(b) = self.fail(start, "bad_gzip", msg)? {
                        return Ok(Step::Break(b));
                    }
                    continue;
                }
            }
            if written > 0 {
                return Ok(Step::Data);
            }
        }
    }

    fn locate(&self, pos: u64) -> (u64, u64) {
        self.marks.locate(pos)
    }

    fn member_starts(&self, from: u64, to: u64) -> Vec<u64> {
        self.marks.starts(from, to)
    }

    fn forget_before(&mut self, pos: u64) {
        self.marks.forget_before(pos);
    }

    fn checked_upto(&self) -> u64 {
        match &self.member {
            Some(m) => m.dec_start,
            None => self.decoded,
        }
    }

    /// At a member boundary, the range a helper inflated from the read position on (see
    /// `Ahead::take_range_at`): its buffer becomes `out`, and the stream moves past its
    /// members in the state decoding them one by one would leave.
    fn swap_in(&mut self, out: &mut Vec<u8>, max: usize) -> io::Result<bool> {
        if !out.is_empty() || self.member.is_some() || self.big_at < self.big.len() {
            return Ok(false);
        }
        let Some(ahead) = &mut self.ahead else { return Ok(false) };
        ahead.top_up(&mut self.raw)?;
        let p = self.raw.pos();
        let Some((bytes, members)) = ahead.take_range_at(p, max) else { return Ok(false) };
        self.swapped_dense = mostly_responses(&bytes, &members);
        ahead.give_back(std::mem::replace(out, bytes));
        for m in &members {
            self.past_member_ahead(self.decoded, m.start, m.raw_len);
            self.decoded += m.out_len as u64;
        }
        self.swapped_in += members.len() as u64;
        Ok(true)
    }

    /// Only for a range mostly made of `response` members: the blocks read from a range
    /// share all of it, so one whose bytes are mostly other records (a small response beside
    /// a large `metadata` record) has its blocks copied rather than held by the whole range.
    fn buffer_home(&self) -> Option<Arc<BufPool>> {
        self.ahead.as_ref().filter(|_| self.swapped_dense).map(|a| a.spares())
    }

    fn use_offload(&mut self, offload: Arc<dyn Offload>) {
        self.offload(offload);
    }
}
