//! Reading helpers the archive readers share: exact and whole-block reads, counting of the
//! raw bytes read, and the error kinds of I/O failures.

use std::io::{self, Read};
use std::sync::atomic::{AtomicU64, Ordering};

/// Counts the raw bytes read through it.
pub(crate) struct CountRead<'c, R> {
    pub(crate) inner: R,
    pub(crate) counter: &'c AtomicU64,
}

impl<R: Read> Read for CountRead<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.counter.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// A reader that fails with `UnexpectedEof` (its message `ends`) when its input ends before
/// `left` bytes.
pub(crate) struct Exact<R> {
    pub(crate) inner: R,
    pub(crate) left: u64,
    /// What the early end means, for the error record.
    pub(crate) ends: &'static str,
}

impl<R: Read> Read for Exact<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.left == 0 || buf.is_empty() {
            return Ok(0);
        }
        let n = buf.len().min(self.left.min(usize::MAX as u64) as usize);
        let got = self.inner.read(&mut buf[..n])?;
        if got == 0 {
            return Err(io::Error::new(io::ErrorKind::UnexpectedEof, self.ends));
        }
        self.left -= got as u64;
        Ok(got)
    }
}

/// A decoding failure of a compressed stream read through `io::Read`, with the kind of its
/// error record (`truncated`, `bad_gzip`, `bad_zstd`), which [`io_kind`] keeps.
#[derive(Debug)]
pub(crate) struct StreamBreak {
    pub(crate) kind: &'static str,
    pub(crate) message: String,
}

impl std::fmt::Display for StreamBreak {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for StreamBreak {}

/// Reads a whole block; `Ok(n < buf.len())` only at the end of the stream.
pub(crate) fn read_full<R: Read + ?Sized>(r: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// The error record of an I/O failure: (`kind`, message). A compressed stream's failure
/// keeps its kind ([`StreamBreak`]); else `truncated` when the input ended early, `bad_gzip`
/// when decoding failed, `io` for anything else.
pub(crate) fn io_kind(e: io::Error) -> (&'static str, String) {
    if let Some(b) = e.get_ref().and_then(|r| r.downcast_ref::<StreamBreak>()) {
        return (b.kind, b.message.clone());
    }
    let kind = match e.kind() {
        io::ErrorKind::UnexpectedEof => "truncated",
        io::ErrorKind::InvalidData | io::ErrorKind::InvalidInput => "bad_gzip",
        _ => "io",
    };
    (kind, e.to_string())
}

/// `s` cut to its first `n` characters, for messages quoting input.
pub(crate) fn truncate(s: &str, n: usize) -> &str {
    match s.char_indices().nth(n) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}
