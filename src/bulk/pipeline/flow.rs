//! What the pipeline holds in flight and how it bounds it: the byte and batch budget
//! ([`Budget`]), where records are cut into batches ([`BatchCut`]), and the free lists
//! records, record buffers and batches go back to.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};

use crate::bulk::archive::{Payload, RawRecord};
use crate::bulk::buf::BufPool;
use crate::bulk::config::Config;

/// Bytes in flight and batches in flight, with a wait for room.
///
/// With several readers, the chunk the writer is on (the *current* chunk) always gets room:
/// readers of later chunks admit batches only within half the budget, and the current
/// chunk's reader may exceed the budget with one batch when none of its own is in flight
/// (its batches are the ones the writer drains). So the writer never waits on a reader that
/// waits on batches the writer cannot consume yet.
pub(super) struct Budget {
    state: Mutex<Flight>,
    room: Condvar,
    max_bytes: usize,
    max_batches: usize,
    stop: AtomicBool,
}

#[derive(Default)]
pub(super) struct Flight {
    bytes: usize,
    batches: usize,
    /// The chunk the writer consumes now, and its batches in flight.
    current: u64,
    current_batches: usize,
    /// Batches in flight of later chunks.
    ahead: BTreeMap<u64, usize>,
}

impl Budget {
    /// A budget of `max_bytes` bytes and `max_batches` batches in flight.
    pub(super) fn new(max_bytes: usize, max_batches: usize) -> Self {
        Budget {
            state: Mutex::default(),
            room: Condvar::new(),
            max_bytes,
            max_batches,
            stop: AtomicBool::new(false),
        }
    }

    /// Whether the run is stopping.
    pub(super) fn stopping(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Flight> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Waits until a batch of `n` bytes of `chunk` fits; false when the run is stopping.
    pub(super) fn admit(&self, n: usize, chunk: u64) -> bool {
        let mut s = self.lock();
        loop {
            if self.stop.load(Ordering::Relaxed) {
                return false;
            }
            let fits = if chunk == s.current {
                s.current_batches == 0
                    || (s.bytes + n <= self.max_bytes && s.batches < self.max_batches)
            } else {
                s.bytes + n <= self.max_bytes / 2 && s.batches < self.max_batches / 2
            };
            if fits {
                s.bytes += n;
                s.batches += 1;
                if chunk == s.current {
                    s.current_batches += 1;
                } else {
                    *s.ahead.entry(chunk).or_default() += 1;
                }
                return true;
            }
            s = self.room.wait(s).unwrap_or_else(|p| p.into_inner());
        }
    }

    /// Counts output bytes produced for an admitted batch (never waits).
    pub(super) fn charge(&self, n: usize) {
        self.lock().bytes += n;
    }

    /// A batch of the current chunk, of `n` bytes (input and output), is consumed.
    pub(super) fn release(&self, n: usize) {
        let mut s = self.lock();
        s.bytes = s.bytes.saturating_sub(n);
        s.batches = s.batches.saturating_sub(1);
        s.current_batches = s.current_batches.saturating_sub(1);
        drop(s);
        self.room.notify_all();
    }

    /// The writer moves on to `chunk`.
    pub(super) fn advance(&self, chunk: u64) {
        let mut s = self.lock();
        s.current = chunk;
        s.current_batches = s.ahead.remove(&chunk).unwrap_or(0);
        drop(s);
        self.room.notify_all();
    }

    pub(super) fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
        let _s = self.lock();
        self.room.notify_all();
    }
}

/// A small lock-protected free list.
#[derive(Default)]
pub(super) struct Pool<T>(Mutex<Vec<T>>);

impl<T: Default> Pool<T> {
    pub(super) fn get(&self) -> T {
        self.0.lock().ok().and_then(|mut v| v.pop()).unwrap_or_default()
    }
    pub(super) fn put(&self, t: T) {
        if let Ok(mut v) = self.0.lock() {
            v.push(t);
        }
    }
}

/// Where the records read are cut into batches: once a batch has [`Config::batch_records`]
/// records, [`Config::batch_bytes`] bytes of records, or (when the pending batch holds its
/// records' buffers) records holding a quarter of [`Config::max_bytes_in_flight`], whichever
/// comes first.
pub(super) struct BatchCut {
    max_records: usize,
    max_len: usize,
    max_held: usize,
    records: usize,
    /// Bytes of the batch's records: what the batch size bounds (a Parquet row group's
    /// input bytes).
    len: usize,
    /// Memory the batch's records hold (buffer capacities, which the byte budget admits). A
    /// recycled buffer keeps the capacity of the largest body it held, so cutting on
    /// capacity alone made batches of a few dozen small records; it is a backstop: a few
    /// records may hold much more than their bytes (a WARC.gz block accounts for the
    /// inflated range it shares, see `bulk::Block`), and a pending batch is memory the
    /// budget has not admitted yet.
    held: usize,
}

impl BatchCut {
    /// The cut of `cfg`'s batches; `holding` when the pending batch keeps its records (the
    /// threaded pipeline's reader, which sends them on together).
    pub(super) fn new(cfg: &Config, holding: bool) -> Self {
        let max_len = cfg.batch_bytes.max(1);
        BatchCut {
            max_records: cfg.batch_records.max(1),
            max_len,
            max_held: if holding { (cfg.max_bytes_in_flight / 4).max(max_len) } else { usize::MAX },
            records: 0,
            len: 0,
            held: 0,
        }
    }

    /// Counts `rec` into the pending batch; true when the batch is full with it.
    pub(super) fn add(&mut self, rec: &RawRecord) -> bool {
        self.records += 1;
        self.len += rec.size();
        self.held += rec.held_bytes();
        self.records >= self.max_records || self.len >= self.max_len || self.held >= self.max_held
    }

    /// Whether the pending batch has records.
    pub(super) fn has_records(&self) -> bool {
        self.records > 0
    }

    /// Ends the pending batch; returns the memory its records hold.
    pub(super) fn end(&mut self) -> usize {
        (self.records, self.len) = (0, 0);
        std::mem::take(&mut self.held)
    }
}

/// Record body buffers larger than this are freed rather than pooled. NOTE: a pooled buffer
/// keeps the capacity of the largest body it ever held, so without a cap every pooled buffer
/// drifts to the size of the largest document of the run and the pool, not the budget,
/// decides the memory used. Larger bodies are rare; their allocation is cheap next to
/// parsing them.
const POOLED_BODY_MAX: usize = 512 << 10;

/// Cleared output batches holding more than this are freed rather than pooled (see
/// [`POOLED_BODY_MAX`]).
pub(super) const POOLED_BATCH_MAX: usize = 1 << 20;

pub(super) fn recycle(
    bufs: &BufPool,
    record_vecs: &Pool<Vec<RawRecord>>,
    mut records: Vec<RawRecord>,
) {
    for rec in records.drain(..) {
        recycle_record(bufs, rec);
    }
    record_vecs.put(records);
}

/// Gives `rec`'s buffers back to `bufs`, unless they are too large to keep.
pub(super) fn recycle_record(bufs: &BufPool, rec: RawRecord) {
    let small = match &rec.payload {
        Payload::Document(b) => b.capacity() <= POOLED_BODY_MAX,
        Payload::Response { message, .. } => message.held_bytes() <= POOLED_BODY_MAX,
        Payload::Broken { .. } => true,
    };
    if small {
        rec.recycle(bufs);
    }
}
