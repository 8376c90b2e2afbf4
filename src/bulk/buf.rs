//! Buffers, the lowest stage of bulk reading: the pool record buffers are recycled through
//! ([`BufPool`], `reserve`), and [`Block`], the bytes of a record as the readers hand them
//! on: a buffer of its own, or a range of a buffer shared with the other records read from it.
//!
//! A worker inflates a range of gzip members into one buffer, which the WARC reader takes
//! whole as its read buffer (`Source::swap_in` in the gzip stage). The blocks of the records
//! read from it are then ranges of that buffer, shared, instead of copies: the reader thread,
//! the serial part of the job, copies no byte of them. The buffer goes back to the pool it
//! came from (a [`BufPool`] of the stream's, keeping at most 64 buffers of at most 12 MiB)
//! once the last block read from it is dropped.
//!
//! Memory: the first block read from a shared buffer accounts for the buffer's whole length
//! ([`Block::held_bytes`]), the others for nothing more, so bounding the held bytes of the
//! records in flight bounds the shared buffers too; records are written (and dropped) in
//! order, so at most one buffer outlives the block that accounted for it. The bulk
//! pipeline also cuts a batch once it holds a quarter of its budget (or, where batches must
//! not depend on memory, a Parquet file's, copies its records out of their shared buffers,
//! `Block::compact`), so a few small records sharing large buffers cannot pile up
//! unaccounted in the batch being filled.

use std::fmt;
use std::ops::{Deref, Range};
use std::sync::Arc;

/// Room for `additional` more bytes in `buf`. An empty buffer too small for them (a pooled
/// one) is replaced rather than grown: growing reallocates, and a reallocation copies the
/// whole old allocation even when the buffer holds nothing.
pub(crate) fn reserve(buf: &mut Vec<u8>, additional: usize) {
    if buf.is_empty() && buf.capacity() < additional {
        *buf = Vec::with_capacity(additional);
    } else {
        buf.reserve(additional);
    }
}

/// Frees the spare capacity of `buf` when it is more than its length and 4 KiB (a recycled
/// buffer keeps the capacity of the largest body it held).
pub(crate) fn shrink(buf: &mut Vec<u8>) {
    if buf.capacity() > 2 * buf.len() + (4 << 10) {
        buf.shrink_to_fit();
    }
}

/// Recycled buffers: record buffers (the reader decodes into them, the runner gives them back
/// once they are written), and a WARC.gz stream's inflated ranges (see [`Block`]).
/// NOTE: without recycling, every record's buffer is allocated by the reader thread and
/// freed by another one, and the allocator hands back freshly zeroed pages: page faults
/// were a third of the reader's time.
#[derive(Debug)]
pub struct BufPool {
    bufs: std::sync::Mutex<Vec<Vec<u8>>>,
    /// Buffers kept at most.
    keep: usize,
    /// Larger buffers are freed rather than kept.
    max_capacity: usize,
}

impl Default for BufPool {
    /// The record buffers' pool: at most 4096 buffers (a bit more than the records in flight)
    /// of at most 4 MiB.
    fn default() -> Self {
        BufPool::with_limits(4096, 4 << 20)
    }
}

impl BufPool {
    /// A pool keeping at most `keep` buffers of at most `max_capacity` bytes.
    pub fn with_limits(keep: usize, max_capacity: usize) -> Self {
        BufPool { bufs: std::sync::Mutex::new(Vec::new()), keep, max_capacity }
    }

    /// An empty buffer, recycled when one is available.
    pub fn get(&self) -> Vec<u8> {
        self.bufs.lock().ok().and_then(|mut b| b.pop()).unwrap_or_default()
    }

    /// Buffers kept now.
    #[cfg(test)]
    pub(crate) fn kept(&self) -> usize {
        self.bufs.lock().map_or(0, |b| b.len())
    }

    /// Gives a buffer back (kept unless enough are, or it is too large).
    pub fn put(&self, mut buf: Vec<u8>) {
        if buf.capacity() == 0 || buf.capacity() > self.max_capacity {
            return;
        }
        buf.clear();
        if let Ok(mut b) = self.bufs.lock() {
            if b.len() < self.keep {
                b.push(buf);
            }
        }
    }
}

/// The bytes of a WARC record block (the HTTP message of a `response`): a buffer of its own,
/// or a range of an inflated buffer shared with the other records read from it. Derefs to
/// `[u8]`; `From<Vec<u8>>` makes one from bytes.
pub struct Block(Repr);

enum Repr {
    Own(Vec<u8>),
    Shared { buf: Arc<SharedBuf>, range: Range<usize>, held: usize },
}

/// A buffer blocks are read from, shared by them; it goes back to its pool once the last of
/// them is dropped.
pub(crate) struct SharedBuf {
    bytes: Vec<u8>,
    home: Arc<BufPool>,
}

impl SharedBuf {
    pub(crate) fn new(bytes: Vec<u8>, home: Arc<BufPool>) -> Arc<Self> {
        Arc::new(SharedBuf { bytes, home })
    }

    pub(crate) fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

impl Drop for SharedBuf {
    fn drop(&mut self) {
        self.home.put(std::mem::take(&mut self.bytes));
    }
}

impl Block {
    /// `buf[range]`, shared; accounts for `held` bytes of memory (see [`Block::held_bytes`]).
    pub(crate) fn shared(buf: Arc<SharedBuf>, range: Range<usize>, held: usize) -> Self {
        debug_assert!(range.end <= buf.bytes.len());
        Block(Repr::Shared { buf, range, held })
    }

    /// Bytes of memory the block accounts for: its buffer's capacity when it has one of its
    /// own; for a range of a shared buffer, the buffer's length when it is the first block
    /// read from it (it accounts for the whole buffer), else 0.
    pub fn held_bytes(&self) -> usize {
        match &self.0 {
            Repr::Own(v) => v.capacity(),
            Repr::Shared { held, .. } => *held,
        }
    }

    /// Makes the block hold about its length: a range of a shared buffer becomes a copy of
    /// its own (the shared buffer goes home once its other blocks are dropped), a buffer of
    /// its own much larger than its bytes (a recycled one) is shrunk. The bytes are the same.
    pub(crate) fn compact(&mut self) {
        match &mut self.0 {
            Repr::Own(v) => shrink(v),
            Repr::Shared { buf, range, .. } => {
                self.0 = Repr::Own(buf.bytes[range.clone()].to_vec());
            }
        }
    }

    /// Whether the block is a range of a shared buffer.
    #[cfg(any(test, feature = "internals"))]
    pub fn is_shared(&self) -> bool {
        matches!(self.0, Repr::Shared { .. })
    }

    /// The bytes in a vector of their own (copied only when shared).
    #[cfg(any(test, feature = "internals"))]
    pub fn into_vec(self) -> Vec<u8> {
        match self.0 {
            Repr::Own(v) => v,
            Repr::Shared { buf, range, .. } => buf.bytes[range].to_vec(),
        }
    }

    /// Its own buffer, for reuse (none when shared: the shared buffer goes home by itself).
    pub(crate) fn into_own(self) -> Option<Vec<u8>> {
        match self.0 {
            Repr::Own(v) => Some(v),
            Repr::Shared { .. } => None,
        }
    }
}

impl From<Vec<u8>> for Block {
    fn from(v: Vec<u8>) -> Self {
        Block(Repr::Own(v))
    }
}

impl Deref for Block {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match &self.0 {
            Repr::Own(v) => v,
            Repr::Shared { buf, range, .. } => &buf.bytes[range.clone()],
        }
    }
}

impl AsRef<[u8]> for Block {
    fn as_ref(&self) -> &[u8] {
        self
    }
}

impl fmt::Debug for Block {
    /// As the bytes' (`Vec<u8>`'s) debug form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl PartialEq for Block {
    fn eq(&self, other: &Block) -> bool {
        **self == **other
    }
}

impl Eq for Block {}

impl PartialEq<[u8]> for Block {
    fn eq(&self, other: &[u8]) -> bool {
        **self == *other
    }
}

impl PartialEq<Vec<u8>> for Block {
    fn eq(&self, other: &Vec<u8>) -> bool {
        **self == **other
    }
}

impl PartialEq<&[u8]> for Block {
    fn eq(&self, other: &&[u8]) -> bool {
        **self == **other
    }
}

impl<const N: usize> PartialEq<[u8; N]> for Block {
    fn eq(&self, other: &[u8; N]) -> bool {
        **self == other[..]
    }
}

impl<const N: usize> PartialEq<&[u8; N]> for Block {
    fn eq(&self, other: &&[u8; N]) -> bool {
        **self == other[..]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_compacted_block_holds_about_its_bytes() {
        let home = Arc::new(BufPool::with_limits(4, 1 << 20));
        let buf = SharedBuf::new(b"headerBLOCK1headerBLOCK2".to_vec(), home.clone());
        let mut a = Block::shared(buf.clone(), 6..12, 1 << 20);
        drop(buf);
        a.compact();
        assert!(!a.is_shared() && a == b"BLOCK1" && a.held_bytes() == 6);
        assert_eq!(home.get().capacity(), 24, "the shared buffer went home");
        let mut own = Vec::with_capacity(64 << 10);
        own.extend_from_slice(b"small");
        let mut b = Block::from(own);
        b.compact();
        assert!(b == b"small" && b.held_bytes() < 64, "shrunk: {}", b.held_bytes());
    }

    #[test]
    fn a_shared_buffer_goes_home_after_its_last_block() {
        let home = Arc::new(BufPool::with_limits(4, 1 << 20));
        let mut bytes = Vec::with_capacity(64);
        bytes.extend_from_slice(b"headerBLOCK1headerBLOCK2");
        let cap = bytes.capacity();
        let buf = SharedBuf::new(bytes, home.clone());
        let a = Block::shared(buf.clone(), 6..12, cap);
        let b = Block::shared(buf.clone(), 18..24, 6);
        drop(buf);
        assert_eq!(a, b"BLOCK1");
        assert_eq!(a, *b"BLOCK1");
        assert_eq!(a, &b"BLOCK1"[..]);
        assert_eq!(b, b"BLOCK2".to_vec());
        assert_eq!((a.held_bytes(), b.held_bytes()), (cap, 6));
        assert!(a.is_shared() && a.to_vec() == b"BLOCK1");
        drop(a);
        assert_eq!(home.get().capacity(), 0, "still shared by b: nothing back yet");
        drop(b);
        let back = home.get();
        assert!(back.is_empty() && back.capacity() == cap, "the buffer is back, emptied");
    }

    #[test]
    fn an_own_block_is_its_vector() {
        let v = b"message".to_vec();
        let cap = v.capacity();
        let b = Block::from(v);
        assert!(!b.is_shared());
        assert_eq!(b.held_bytes(), cap);
        assert_eq!(format!("{b:?}"), format!("{:?}", b"message".to_vec()));
        assert_eq!(b.into_vec(), b"message");
    }
}
