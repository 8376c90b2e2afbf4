//! The raw side of a decoded stream: [`Raw`], a buffered reader of the archive's bytes that
//! can go back at least [`RETAIN`] bytes (to resume after a failed gzip member from its
//! start) and lets the read-ahead inflation look at the bytes ahead of the read position.

use std::io::{self, Read};

/// Raw bytes kept behind the read position, to resynchronize from a failed member's start.
pub const RETAIN: usize = 1 << 20;
/// One read from the underlying stream.
pub const CHUNK: usize = 256 * 1024;

/// A buffered raw reader that can go back at least [`RETAIN`] bytes.
///
/// The buffer is initialized (zeroed) once as it grows and reads go into its initialized
/// bytes: `read_to_end` into spare capacity would zero every chunk again for any reader
/// without its own `read_buf` (the counting wrapper of the input layer). Bytes behind the
/// retained ones are dropped only once 3 MiB are buffered, so each move of the retained
/// bytes pays for several chunks of reading.
pub struct Raw<R> {
    inner: R,
    /// `buf[..filled]` are the stream's bytes from raw offset `base`; the rest is room for
    /// the next reads.
    buf: Vec<u8>,
    filled: usize,
    start: usize,
    /// Raw offset of `buf[0]`.
    base: u64,
    eof: bool,
}

/// Buffered bytes from which the bytes behind the retained ones are dropped (rather than
/// the buffer grown): the retained bytes plus eight reads.
const COMPACT_AT: usize = RETAIN + 8 * CHUNK;
/// The first read of a stream; each later one reads as much as is buffered, up to [`CHUNK`].
const FIRST_READ: usize = 16 * 1024;

impl<R: Read> Raw<R> {
    /// A reader of `inner` at raw offset 0.
    pub fn new(inner: R) -> Self {
        Raw { inner, buf: Vec::new(), filled: 0, start: 0, base: 0, eof: false }
    }

    /// Raw offset of the next unread byte.
    pub fn pos(&self) -> u64 {
        self.base + self.start as u64
    }

    /// The buffered bytes not yet consumed.
    pub fn avail(&self) -> &[u8] {
        &self.buf[self.start..self.filled]
    }

    /// Marks the first `n` available bytes as read.
    pub fn consume(&mut self, n: usize) {
        self.start = (self.start + n).min(self.filled);
    }

    /// Drops the buffered bytes before `self.start - keep` (moving the rest to the front).
    pub(super) fn drop_behind(&mut self, keep: usize) {
        let drop = self.start - keep.min(self.start);
        if drop > 0 {
            self.buf.copy_within(drop..self.filled, 0);
            self.filled -= drop;
            self.base += drop as u64;
            self.start -= drop;
        }
    }

    /// Makes at least `n` bytes available unless the stream ends first (`n` ≤ [`CHUNK`]).
    pub fn fill(&mut self, n: usize) -> io::Result<&[u8]> {
        while self.filled - self.start < n && !self.eof {
            // Reads grow with the bytes read so far, up to a chunk, so a small input zeroes
            // little.
            let read_so_far = self.base + self.filled as u64;
            let step = read_so_far.clamp(FIRST_READ as u64, CHUNK as u64) as usize;
            // Once COMPACT_AT bytes are buffered, keep only RETAIN behind the read position.
            if self.filled + step > self.buf.len() && self.filled >= COMPACT_AT {
                self.drop_behind(RETAIN);
            }
            if self.filled + step > self.buf.len() {
                self.buf.resize(self.filled + step, 0);
            }
            // One step, in as many reads as it takes; fewer bytes means the stream ended.
            let room = &mut self.buf[self.filled..self.filled + step];
            let mut got = 0;
            while got < step {
                match self.inner.read(&mut room[got..]) {
                    Ok(0) => break,
                    Ok(k) => got += k,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        // What was read before the error stays readable.
                        self.filled += got;
                        return Err(e);
                    }
                }
            }
            self.filled += got;
            self.eof = got < step;
        }
        Ok(&self.buf[self.start..self.filled])
    }

    /// Goes back (or forward, within the buffer) to raw offset `p`; false when that byte is
    /// no longer buffered.
    pub fn seek_buffered(&mut self, p: u64) -> bool {
        if p < self.base || p > self.base + self.filled as u64 {
            return false;
        }
        self.start = (p - self.base) as usize;
        true
    }

    /// Raw offset of the oldest buffered byte.
    pub fn oldest(&self) -> u64 {
        self.base
    }

    /// Whether the underlying stream has ended (every byte of it is buffered or consumed).
    pub fn at_end(&self) -> bool {
        self.eof
    }
}

impl<R: Read> Read for Raw<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let avail = self.fill(1)?;
        let n = avail.len().min(out.len());
        out[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}
