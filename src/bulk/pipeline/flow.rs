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

/// What decides where the records read are cut into batches ([`BatchCut`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cuts {
    /// Records, bytes, and (in the threaded pipeline) the memory the pending batch's records
    /// hold: where a batch ends then also depends on the budget and on the capacities of
    /// recycled buffers, so on timing. For outputs that do not depend on where batches end
    /// (JSON Lines).
    Flow,
    /// Records and bytes only: where a batch ends is a function of the records read (and of
    /// the readers' chunks of the inputs, with more than one reader), whatever the threads
    /// and the budget. A pending batch whose records hold more memory than its share of the
    /// budget has its records compacted instead ([`RawRecord::compact`]). For outputs made
    /// of batches (a Parquet file's row groups).
    #[cfg_attr(not(feature = "parquet"), allow(dead_code))]
    Fixed,
}

/// Where the records read are cut into batches: once a batch has [`Config::batch_records`]
/// records, [`Config::batch_bytes`] bytes of records, or (with [`Cuts::Flow`], when the
/// pending batch holds its records' buffers) records holding a quarter of
/// [`Config::max_bytes_in_flight`], whichever comes first.
pub(super) struct BatchCut {
    max_records: usize,
    max_len: usize,
    max_held: usize,
    cuts: Cuts,
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
    /// Records of the pending batch compacted already ([`Cuts::Fixed`]).
    compacted: usize,
}

impl BatchCut {
    /// The cut of `cfg`'s batches; `holding` when the pending batch keeps its records (the
    /// threaded pipeline's reader, which sends them on together).
    pub(super) fn new(cfg: &Config, holding: bool, cuts: Cuts) -> Self {
        let max_len = cfg.batch_bytes.max(1);
        let share = (cfg.max_bytes_in_flight / 4).max(match cuts {
            Cuts::Flow => max_len,
            // NOTE: the batch's bytes and a quarter, so that records compacted to about
            // their bytes (plus their source names and capture headers) mostly stay below
            // it and the records after them are not copied too, and a WARC.gz batch's shared
            // ranges (up to ~1.2x its bytes on the corpus) stay below it; and so that two
            // batches fit the Parquet budget of `-j2` (three batches' bytes) with their
            // output. At twice the bytes, a directory's batches were admitted at ~1.5x their
            // bytes (recycled read buffers keep the capacity of the largest file they held)
            // and the reader waited for the writer with one worker idle: `-j2` wall 1.8 s
            // against 1.1-1.2 s at 1.25x on the corpus x10 (perf/runs/2026-12-02-pqdir/).
            Cuts::Fixed => max_len.saturating_add(max_len / 4),
        });
        BatchCut {
            max_records: cfg.batch_records.max(1),
            max_len,
            max_held: if holding { share } else { usize::MAX },
            cuts,
            records: 0,
            len: 0,
            held: 0,
            compacted: 0,
        }
    }

    /// Counts `rec` into the pending batch; true when the batch is full with it.
    pub(super) fn add(&mut self, rec: &RawRecord) -> bool {
        self.records += 1;
        self.len += rec.size();
        self.held += rec.held_bytes();
        let held_full = self.cuts == Cuts::Flow && self.held >= self.max_held;
        self.records >= self.max_records || self.len >= self.max_len || held_full
    }

    /// With [`Cuts::Fixed`], once the pending batch (`pending`, whose records were counted by
    /// [`BatchCut::add`]) holds more than its share of the budget: compacts the records not
    /// compacted yet, so that they hold about their bytes. The shared buffer the last of
    /// them were read from stays alive for the records read from it next (as it would
    /// anyway, being read), unaccounted: one inflated range at most.
    pub(super) fn compact(&mut self, pending: &mut [RawRecord]) {
        if self.cuts != Cuts::Fixed || self.held < self.max_held {
            return;
        }
        for rec in pending.iter_mut().skip(self.compacted) {
            let before = rec.held_bytes();
            rec.compact();
            self.held = self.held.saturating_sub(before) + rec.held_bytes();
        }
        self.compacted = pending.len();
    }

    /// Whether the pending batch has records.
    pub(super) fn has_records(&self) -> bool {
        self.records > 0
    }

    /// Ends the pending batch; returns the memory its records hold.
    pub(super) fn end(&mut self) -> usize {
        (self.records, self.len, self.compacted) = (0, 0, 0);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A record of `len` bytes in a recycled buffer of 1 MiB.
    fn in_big_buffer(len: usize) -> RawRecord {
        let mut body = Vec::with_capacity(1 << 20);
        body.resize(len, b'x');
        RawRecord { source: "s".into(), payload: Payload::Document(body) }
    }

    #[test]
    fn two_parquet_batches_of_recycled_buffers_fit_the_budget_of_two_threads() {
        // A directory's files read into recycled buffers that kept the capacity of larger
        // files; the Parquet budget of `-j2` is three batches' bytes (`parquet_budget`).
        let batch = 8 << 20;
        let cfg = Config {
            batch_records: usize::MAX,
            batch_bytes: batch,
            max_bytes_in_flight: 3 * batch,
            ..Config::default()
        };
        let mut cut = BatchCut::new(&cfg, true, Cuts::Fixed);
        let mut pending = Vec::new();
        let mut most = 0;
        loop {
            let rec = in_big_buffer(60 << 10);
            let full = cut.add(&rec);
            pending.push(rec);
            cut.compact(&mut pending);
            most = most.max(cut.held);
            if full {
                break;
            }
        }
        assert!(2 * most < 3 * batch, "a batch held {most} bytes at most, for {batch}");
        assert!(pending.iter().all(|r| r.size() == (60 << 10) + 1), "the bytes are the same");
    }

    #[test]
    fn fixed_cuts_end_batches_by_records_and_bytes_only_and_compact_what_holds_more() {
        let cfg = Config {
            batch_records: 100,
            batch_bytes: 10_000,
            max_bytes_in_flight: 1 << 20,
            ..Config::default()
        };
        let mut flow = BatchCut::new(&cfg, true, Cuts::Flow);
        assert!(flow.add(&in_big_buffer(10)), "flow: a batch holding its budget share ends");
        let mut fixed = BatchCut::new(&cfg, true, Cuts::Fixed);
        let mut pending = Vec::new();
        for i in 0..99 {
            let rec = in_big_buffer(100);
            assert!(!fixed.add(&rec), "record {i}: the batch is not full");
            pending.push(rec);
            fixed.compact(&mut pending);
            assert!(fixed.held < 2 << 20, "record {i}: {} bytes held", fixed.held);
        }
        let held: usize = pending.iter().map(RawRecord::held_bytes).sum();
        assert_eq!(fixed.held, held, "the count follows the records");
        assert!(pending.iter().all(|r| r.size() == 101), "the bytes are the same");
        assert!(fixed.add(&in_big_buffer(100)), "the 100th record ends the batch");
        // Not holding (one thread): never compacted, the same cuts.
        let mut alone = BatchCut::new(&cfg, false, Cuts::Fixed);
        let mut pending = vec![in_big_buffer(9_000)];
        assert!(!alone.add(&pending[0]));
        alone.compact(&mut pending);
        assert!(pending[0].held_bytes() > 1 << 20);
        assert!(alone.add(&in_big_buffer(1_000)), "10,000 bytes end the batch");
    }
}
