//! Zstandard streams (`.warc.zst`, the IIPC zstd WARC convention; any other `.zst` input):
//! [`ZstdStream`], the zstd frames of a stream decoded one after the other into one byte
//! stream, with the raw offset of every decoded byte and every corrupt region reported as a
//! [`Break`], as [`super::stream::GzStream`] does for gzip members.
//!
//! ```text
//!  [skippable frame 0x184D2A5D: dictionary]? [zstd frame: one record]* ...
//! ```
//!
//! The convention compresses each WARC record as a zstd frame of its own, and may put a
//! dictionary (itself zstd-compressed or not) in a skippable frame at the start of the file;
//! the frames after it are decoded with it. Other skippable frames are skipped.
//!
//! Recovery, forward only, nothing injected: a frame that fails to decode (a corrupt block,
//! a content checksum that does not match, a missing dictionary) is a `bad_zstd` break and
//! a frame cut by the end of the stream a `truncated` one; its decoded bytes are not handed
//! on. Decoding then resumes where the failed frame ends when its block headers (which
//! give every block's size without decoding it) still lead to its last block, else at the
//! next zstd magic after its start that is not inside one of its raw (stored) blocks, whose
//! bytes are the archived content as is (a `.zst` body stored in a record). A frame without a
//! content checksum is trusted as it decodes.
//!
//! Memory: the raw buffer (as for gzip: ≤ 3 MiB + a chunk), the decoder's window (at most
//! 2^[`WINDOW_LOG_MAX`] bytes: a frame asking for more is `bad_zstd`), the dictionary (at
//! most [`MAX_DICTIONARY`] bytes) and one pull's output.

use std::io::{self, Read};

use zstd::stream::raw::{DParameter, Decoder, Operation};

use super::raw::{Raw, CHUNK};
use super::stream::{Break, Marks, Source, Step};

/// The first bytes of a zstd frame (RFC 8878 §3.1.1: 0xFD2FB528, little-endian).
pub const MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];
/// The skippable frame that holds the convention's dictionary (0x184D2A5D, little-endian).
pub(crate) const DICT_MAGIC: [u8; 4] = [0x5d, 0x2a, 0x4d, 0x18];
/// Largest dictionary read (decompressed); a larger one is a `bad_zstd` break.
pub const MAX_DICTIONARY: usize = 16 << 20;
/// Largest window a frame may ask for: 2^25 bytes (32 MiB).
pub const WINDOW_LOG_MAX: u32 = 25;

/// Whether `b` starts with a zstd frame or a skippable frame (magic 0x184D2A50..5F).
pub fn is_zstd(b: &[u8]) -> bool {
    b.starts_with(&MAGIC) || is_skippable(b)
}

fn is_skippable(b: &[u8]) -> bool {
    b.len() >= 4 && b[0] & 0xf0 == 0x50 && b[1..4] == [0x2a, 0x4d, 0x18]
}

/// The frame being decoded.
struct Frame {
    /// Raw offset of its first byte.
    start: u64,
    /// Decoded position of its first byte.
    dec_start: u64,
}

/// A zstd stream decoded frame by frame into one byte stream (see the module docs).
pub struct ZstdStream<R> {
    raw: Raw<R>,
    /// The decoder (with the dictionary, once read); an error when libzstd could not make
    /// one (out of memory): every frame is then a break.
    decoder: Result<Decoder<'static>, String>,
    frame: Option<Frame>,
    /// Bytes decoded when the last failure was noted, until a frame decodes completely: further
    /// failures extend it unless bytes were decoded since.
    failing: Option<u64>,
    /// Where each frame starts.
    marks: Marks,
    decoded: u64,
    /// One pull's output.
    scratch: Vec<u8>,
}

fn new_decoder(dict: &[u8]) -> io::Result<Decoder<'static>> {
    let mut d = if dict.is_empty() { Decoder::new()? } else { Decoder::with_dictionary(dict)? };
    d.set_parameter(DParameter::WindowLogMax(WINDOW_LOG_MAX))?;
    Ok(d)
}

/// The raw byte ranges (start, end) of a zstd frame's raw (stored) blocks.
type RawBlocks = Vec<(u64, u64)>;

impl<R: Read> ZstdStream<R> {
    /// The decoded stream of the zstd frames in `raw`.
    pub fn new(raw: Raw<R>) -> Self {
        ZstdStream {
            raw,
            decoder: new_decoder(&[]).map_err(|e| e.to_string()),
            frame: None,
            failing: None,
            marks: Marks::default(),
            decoded: 0,
            scratch: Vec::new(),
        }
    }

    /// At a frame boundary: a skippable frame (the dictionary, when it is the stream's first
    /// frame) is read, a zstd frame started. `Ok(Some)`: a break; `Ok(None)` with no frame
    /// started: nothing left, or a skippable frame read.
    fn boundary(&mut self) -> io::Result<Option<Break>> {
        let start = self.raw.pos();
        let h = self.raw.fill(8)?;
        if h.starts_with(&MAGIC) {
            self.frame = Some(Frame { start, dec_start: self.decoded });
            self.marks.push(self.decoded, start);
            let reset = match &mut self.decoder {
                Ok(d) => d.reinit().map_err(|e| e.to_string()),
                Err(e) => Err(format!("no zstd decoder: {e}")),
            };
            if let Err(e) = reset {
                return self.fail(start, "bad_zstd", format!("zstd frame: {e}"));
            }
            return Ok(None);
        }
        if is_skippable(h) {
            if h.len() < 8 {
                return self.fail(
                    start,
                    "truncated",
                    "the stream ends inside a skippable frame".into(),
                );
            }
            let dict = start == 0 && h.starts_with(&DICT_MAGIC);
            let size = u32::from_le_bytes([h[4], h[5], h[6], h[7]]) as usize;
            self.raw.consume(8);
            if dict {
                return self.dictionary(start, size);
            }
            if !self.skip(size)? {
                let msg = "the stream ends inside a skippable frame".to_owned();
                return self.fail(start, "truncated", msg);
            }
            return Ok(None);
        }
        if h.is_empty() {
            return Ok(None);
        }
        self.fail(start, "bad_zstd", "bytes that are not a zstd frame".to_owned())
    }

    /// The convention's dictionary: `size` bytes at the read position, zstd-compressed when
    /// they start with the zstd magic.
    fn dictionary(&mut self, start: u64, size: usize) -> io::Result<Option<Break>> {
        if size > MAX_DICTIONARY {
            let msg = format!("zstd dictionary of {size} bytes (more than {MAX_DICTIONARY})");
            let _ = self.skip(size)?;
            return self.fail(start, "bad_zstd", msg);
        }
        let mut data = Vec::with_capacity(size);
        (&mut self.raw).take(size as u64).read_to_end(&mut data)?;
        if data.len() < size {
            return self.fail(start, "truncated", "the stream ends inside its dictionary".into());
        }
        if data.starts_with(&MAGIC) {
            match zstd::bulk::decompress(&data, MAX_DICTIONARY) {
                Ok(d) => data = d,
                Err(e) => {
                    return self.fail(start, "bad_zstd", format!("zstd dictionary: {e}"));
                }
            }
        }
        match new_decoder(&data) {
            Ok(d) => {
                self.decoder = Ok(d);
                Ok(None)
            }
            Err(e) => self.fail(start, "bad_zstd", format!("zstd dictionary: {e}")),
        }
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

    /// The frame (or non-frame bytes) at raw offset `start` failed: report it (the first
    /// failure in a row only), then move to where decoding resumes (see the module docs).
    fn fail(
        &mut self,
        start: u64,
        kind: &'static str,
        message: String,
    ) -> io::Result<Option<Break>> {
        let decoded_from = self.frame.take().map_or(self.decoded, |f| f.dec_start);
        let first = self.failing.is_none_or(|at| self.decoded > at);
        self.failing = Some(self.decoded);
        let brk = Break { offset: start, decoded_from, kind, unit: "zstd frame", message };
        if !self.raw.seek_buffered(start) {
            // NOTE: the frame's start is behind the retained bytes (a frame of more than
            // 1 MiB): search on from here.
            self.raw.seek_buffered(self.raw.pos());
        }
        let (end, stored) = self.walk_blocks()?;
        if let Some(end) = end.filter(|&e| e > self.raw.pos()) {
            let _ = self.skip((end - self.raw.pos()) as usize)?;
        } else {
            if self.raw.pos() == start {
                self.raw.consume(1);
            }
            self.next_magic(&stored)?;
        }
        Ok(first.then_some(brk))
    }

    /// From a frame start at the read position (the position is kept): the raw offset where
    /// the frame ends when its header and block headers lead to its last block within the
    /// buffered bytes, and the raw ranges of its raw blocks met on the way.
    fn walk_blocks(&mut self) -> io::Result<(Option<u64>, RawBlocks)> {
        let at = self.raw.pos();
        let b = self.raw.fill(CHUNK)?;
        let mut stored = Vec::new();
        if !b.starts_with(&MAGIC) || b.len() < 5 {
            return Ok((None, stored));
        }
        let fhd = b[4];
        let single = fhd & 0x20 != 0;
        let checksum = fhd & 0x04 != 0;
        let dict = [0, 1, 2, 4][(fhd & 3) as usize];
        let fcs = match fhd >> 6 {
            0 => usize::from(single),
            1 => 2,
            2 => 4,
            _ => 8,
        };
        let mut i = 5 + usize::from(!single) + dict + fcs;
        loop {
            if i + 3 > b.len() {
                return Ok((None, stored));
            }
            let h = u32::from_le_bytes([b[i], b[i + 1], b[i + 2], 0]);
            let (last, ty, size) = (h & 1 != 0, (h >> 1) & 3, (h >> 3) as usize);
            let content = match ty {
                0 => size,
                1 => 1,
                2 => size,
                _ => return Ok((None, stored)),
            };
            if size > 128 << 10 {
                return Ok((None, stored));
            }
            if ty == 0 {
                stored.push((at + (i + 3) as u64, at + (i + 3 + size) as u64));
            }
            i += 3 + content;
            if last {
                let end = i + if checksum { 4 } else { 0 };
                return Ok(((end <= b.len()).then_some(at + end as u64), stored));
            }
        }
    }

    /// Moves to the next zstd magic at or after the read position that is not inside a raw
    /// range of `stored` (or to the end).
    fn next_magic(&mut self, stored: &[(u64, u64)]) -> io::Result<()> {
        loop {
            let pos = self.raw.pos();
            let b = self.raw.fill(MAGIC.len())?;
            let n = b.len();
            if n < MAGIC.len() {
                self.raw.consume(n);
                return Ok(());
            }
            match memchr::memmem::find(b, &MAGIC) {
                Some(i)
                    if !stored.iter().any(|r| r.0 <= pos + i as u64 && pos + (i as u64) < r.1) =>
                {
                    self.raw.consume(i);
                    return Ok(());
                }
                Some(i) => self.raw.consume(i + 1),
                None => self.raw.consume(n - (MAGIC.len() - 1)),
            }
        }
    }
}

impl<R: Read> Source for ZstdStream<R> {
    fn pull(&mut self, out: &mut Vec<u8>, max: usize) -> io::Result<Step> {
        loop {
            let Some(frame) = &self.frame else {
                if let Some(b) = self.boundary()? {
                    return Ok(Step::Break(b));
                }
                if self.frame.is_none() && self.raw.fill(1)?.is_empty() {
                    return Ok(Step::End);
                }
                continue;
            };
            let start = frame.start;
            self.raw.fill(1)?;
            let at_eof = self.raw.at_end();
            let want = max.clamp(1, CHUNK);
            if self.scratch.len() < want {
                self.scratch.resize(want, 0);
            }
            let input = self.raw.avail();
            let res = match &mut self.decoder {
                Ok(d) => d.run_on_buffers(input, &mut self.scratch[..want]),
                Err(e) => Err(io::Error::other(e.clone())),
            };
            let status = match res {
                Ok(s) => s,
                Err(e) => {
                    if let Some(b) =
                        self.fail(start, "bad_zstd", format!("corrupt zstd frame: {e}"))?
                    {
                        return Ok(Step::Break(b));
                    }
                    continue;
                }
            };
            self.raw.consume(status.bytes_read);
            let written = status.bytes_written;
            if status.remaining == 0 {
                // The frame is whole (and its checksum, if any, checked).
                self.frame = None;
                self.failing = None;
            } else if status.bytes_read == 0 && written == 0 && at_eof {
                let msg = "the stream ends inside a zstd frame".to_owned();
                if let Some(b) = self.fail(start, "truncated", msg)? {
                    return Ok(Step::Break(b));
                }
                continue;
            }
            if written > 0 {
                out.extend_from_slice(&self.scratch[..written]);
                self.decoded += written as u64;
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
        match &self.frame {
            Some(f) => f.dec_start,
            None => self.decoded,
        }
    }
}
