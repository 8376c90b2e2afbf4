//! The writer's side: processed batches reach it in any order ([`Done`]) and are consumed
//! in input order ([`write_in_order`]).

use std::collections::BTreeMap;
use std::io;
use std::ops::ControlFlow;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::time::Duration;

use super::batch::{Batch, Consumer};
use super::flow::{Budget, Pool, POOLED_BATCH_MAX};
use crate::bulk::archive::Counters;
use crate::bulk::config::Config;
use crate::bulk::summary::{this_thread_name, Panicked, Progress, Summary};

/// What reaches the writer.
// A `Done` is moved through a channel once per batch; boxing the batch would add an
// allocation per batch for nothing.
#[allow(clippy::large_enum_variant)]
pub(super) enum Done<B> {
    /// A processed batch.
    Batch(Processed<B>),
    /// Chunk `chunk` had `batches` batches.
    End { chunk: u64, batches: u64 },
    /// The named thread panicked outside the processing of a record: the run cannot finish.
    Panicked(String),
}

/// A processed batch on its way to the writer (its records went back to their pools on the
/// worker, as soon as they were processed).
pub(super) struct Processed<B> {
    pub(super) chunk: u64,
    pub(super) seq: u64,
    pub(super) batch: B,
    /// Input and output bytes to release once consumed.
    pub(super) bytes: usize,
    pub(super) stats: Summary,
}

/// Lives on a reader, walk or worker thread: if the thread unwinds from a panic (a bug
/// outside any record's processing), the writer is told, and the run stops with an error
/// instead of waiting for batches that will never come.
pub(super) struct PanicSignal<B>(pub(super) Sender<Done<B>>);

impl<B> Drop for PanicSignal<B> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let _ = self.0.send(Done::Panicked(this_thread_name()));
        }
    }
}

/// How often the writer looks at [`Config::stop`] while it waits for a batch.
const STOP_POLL: Duration = Duration::from_millis(50);

/// What the writer shares with the readers and workers of a run: its settings, the budget
/// of bytes in flight, the pool of emptied batches and the counters of bytes read.
pub(super) struct Shared<'s, B> {
    pub(super) cfg: &'s Config,
    pub(super) budget: &'s Budget,
    pub(super) batches: &'s Pool<B>,
    pub(super) counters: &'s Counters,
}

/// The writer: consumes batches in (chunk, sequence) order, holding early ones until their
/// predecessors are consumed; a chunk is done once its reader said how many batches it had.
/// Returns after the batch being consumed once the run's stop flag is set.
pub(super) fn write_in_order<B: Batch, C: Consumer<B> + ?Sized>(
    shared: &Shared<'_, B>,
    done: &Receiver<Done<B>>,
    consumer: &mut C,
    progress: &mut dyn FnMut(Progress),
) -> io::Result<Summary> {
    let Shared { cfg, budget, batches, counters } = *shared;
    let mut stats = Summary::default();
    let (mut chunk, mut next) = (0u64, 0u64);
    // Batches done before their turn, and the batch counts of chunks their readers finished.
    let mut waiting: BTreeMap<(u64, u64), Processed<B>> = BTreeMap::new();
    let mut ends: BTreeMap<u64, u64> = BTreeMap::new();
    loop {
        if cfg.stopped() {
            return Ok(stats);
        }
        let msg = match done.recv_timeout(STOP_POLL) {
            Ok(msg) => msg,
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => break,
        };
        match msg {
            Done::Batch(d) => {
                waiting.insert((d.chunk, d.seq), d);
            }
            Done::End { chunk, batches } => {
                ends.insert(chunk, batches);
            }
            Done::Panicked(thread) => return Err(io::Error::other(Panicked { thread })),
        }
        loop {
            if let Some(mut d) = waiting.remove(&(chunk, next)) {
                next += 1;
                let flow = consumer.batch(&mut d.batch);
                stats.add(&d.stats);
                d.batch.clear();
                if d.batch.held_bytes() <= POOLED_BATCH_MAX {
                    batches.put(d.batch);
                }
                budget.release(d.bytes);
                progress(Progress {
                    records: stats.records,
                    input_bytes: counters.bytes_read.load(Ordering::Relaxed),
                });
                if let ControlFlow::Break(()) = flow? {
                    return Ok(stats);
                }
                if cfg.stopped() {
                    return Ok(stats);
                }
            } else if ends.get(&chunk) == Some(&next) {
                ends.remove(&chunk);
                chunk += 1;
                next = 0;
                budget.advance(chunk);
            } else {
                break;
            }
        }
    }
    Ok(stats)
}
