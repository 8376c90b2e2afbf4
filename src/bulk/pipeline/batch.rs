//! The pipeline's contract with its caller: what a worker produces per group of records
//! ([`Batch`]), the per-record work on the workers ([`Step`]) and the ordered side on the
//! calling thread ([`Consumer`]).

use std::io;
use std::ops::ControlFlow;

use crate::record::RecordView;

/// What the workers produce for a group of consecutive records: filled on a worker thread
/// by a [`Step`], handed to the [`Consumer`] in input order, then cleared and reused.
///
/// `Vec<T>` is a `Batch` (the JSON Lines sink uses `Vec<u8>`: the lines of the batch). A
/// columnar sink uses a struct of column builders: the step appends one row per record, the
/// consumer finishes the builders into a record batch and writes it.
pub trait Batch: Default + Send {
    /// Empties the batch for reuse, keeping its allocations.
    fn clear(&mut self);
    /// Heap bytes the batch holds (allocated capacity, not only content), counted against
    /// [`crate::bulk::Config::max_bytes_in_flight`] until it is consumed. A cleared batch still
    /// holding more than 1 MiB is freed rather than reused. An estimate is fine.
    fn held_bytes(&self) -> usize;
    /// Where the batch ends now, for [`Batch::rollback`]: taken before each record, so that
    /// a record whose [`Step::record`] panicked part way can be undone and replaced by its
    /// `internal` error record. Default: `None`, the batch cannot undo a record; such a
    /// panic then stops the run with an error.
    fn mark(&self) -> Option<usize> {
        None
    }
    /// Drops what was added after `mark` (a value [`Batch::mark`] gave).
    fn rollback(&mut self, _mark: usize) {}
}

impl<T: Send> Batch for Vec<T> {
    fn clear(&mut self) {
        Vec::clear(self);
    }
    fn held_bytes(&self) -> usize {
        self.capacity() * std::mem::size_of::<T>()
    }
    fn mark(&self) -> Option<usize> {
        Some(self.len())
    }
    fn rollback(&mut self, mark: usize) {
        self.truncate(mark);
    }
}

/// The per-record work, run on the worker threads. Each worker thread has its own `Step` (made by
/// the factory given to [`crate::bulk::run_with`]), so a step may keep mutable state (scratch
/// buffers, caches, counters) without locks.
///
/// For one batch the calls are `record` for each of its records in input order, then
/// `end_batch`; a batch always comes to a step empty (cleared).
///
/// Any `FnMut(&RecordView, &mut B) + Send` closure is a `Step<B>`.
pub trait Step<B>: Send {
    /// Adds what `rec` becomes to `batch`. `rec` borrows the worker's parser arena: copy out
    /// what must outlive the call.
    fn record(&mut self, rec: &RecordView<'_, '_>, batch: &mut B);
    /// Called after the batch's last record (e.g. to close a chunk). Default: nothing.
    fn end_batch(&mut self, _batch: &mut B) {}
}

impl<B, F: FnMut(&RecordView<'_, '_>, &mut B) + Send> Step<B> for F {
    fn record(&mut self, rec: &RecordView<'_, '_>, batch: &mut B) {
        self(rec, batch)
    }
}

/// The ordered side, run on the thread that called [`crate::bulk::run_with`]: receives every batch
/// exactly once, in input order. `ControlFlow::Break` stops the run early (the reader and
/// workers stop; the batches still in flight are dropped); an `Err` stops it and is returned
/// by [`crate::bulk::run_with`].
///
/// Any `FnMut(&mut B) -> io::Result<ControlFlow<()>>` closure is a `Consumer<B>`.
pub trait Consumer<B> {
    /// Takes one batch. It is cleared ([`Batch::clear`]) and reused afterwards.
    fn batch(&mut self, batch: &mut B) -> io::Result<ControlFlow<()>>;
}

impl<B, F: FnMut(&mut B) -> io::Result<ControlFlow<()>>> Consumer<B> for F {
    fn batch(&mut self, batch: &mut B) -> io::Result<ControlFlow<()>> {
        self(batch)
    }
}
