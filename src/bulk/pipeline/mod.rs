//! The ordered streaming pipeline: one reader thread, `threads` worker threads, and the
//! calling thread as the in-order writer.
//!
//! ```text
//!  reader thread          workers (Config::threads)               calling thread
//!  archive reader   ─►    (seq, records) ─► Step::record per     reorder by seq ─► Consumer
//!  groups records into    record, into a pooled batch B; the ─►  ::batch, in input order;
//!  batches, numbered,     record buffers go back (per-worker      then B and the budget go
//!  waits on the budget    state: parser, arena, scratch, step)    back
//!        │  ▲
//!        ▼  │ WARC.gz members inflated ahead (gzip::ahead), taken before any batch
//! ```
//!
//! No barrier: a worker takes the next batch as soon as it is done with one; the writer holds
//! batches that finished early in a reorder buffer until their predecessors are written. The
//! output is therefore identical for any number of threads.
//!
//! With one worker and one reader there are no threads at all (`run_on_this_thread`): the
//! calling thread reads each record, processes it and consumes each batch in turn, the same
//! records in the same order, without handing every batch between threads and every byte
//! between cores' caches.
//!
//! The workers also inflate a WARC.gz's gzip members for the reader (the job queue implements
//! [`Offload`]): the reader waits on them, so they go before parse batches. The reader thread
//! itself then only reads, finds member starts and cuts records, so `threads` workers are the
//! run's CPU work (inflating included) and inflating is no single-thread ceiling.
//!
//! # Memory bound
//!
//! Two limits hold what is in flight (read, not yet consumed):
//! - **bytes**: the reader admits a batch only while the bytes in flight (record bodies and
//!   sources, plus the [`Batch::held_bytes`] of every produced, not yet consumed batch) stay
//!   within [`Config::max_bytes_in_flight`]; a batch larger than the whole budget is admitted
//!   alone, when nothing else is in flight;
//! - **batches**: at most `2 × threads + 2` batches, so output produced after admission is
//!   bounded too.
//!
//! Bodies in flight ≤ max(budget, largest record) and output ≤ (2 × threads + 2) batches'
//! output; a record is at most `Limits::max_input_bytes`. Fixed buffers on top: per worker a
//! parser arena and scratch (sized by the largest document seen), for Parquet its Arrow
//! builder's column buffers, kept from one row group to the next (at most
//! `ParquetOptions::row_group_held_bytes`), and the pools below.
//!
//! # Panics
//!
//! A panic while a worker processes one record (a bug) is caught there (`process_record`):
//! the record becomes an `internal` error record and the run goes on. A thread that panics
//! outside a record's processing tells the writer (`PanicSignal`), and the run stops with
//! [`Panicked`]; whatever ends the run, the other threads are stopped before the scope joins
//! them, so no panic leaves the run waiting.
//!
//! # Reuse
//!
//! Record bodies come from a [`BufPool`] and go back to it once their batch is processed (a
//! batch waiting for its turn holds only its output); batches of records, output batches
//! `B` and each worker's parser, arena and scratch are reused, so the steady state allocates
//! nothing per record beyond what the readers and the parser need for that record's content.

mod batch;
mod flow;
mod jobs;
mod order;
mod panic;

use std::io;
use std::ops::ControlFlow;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{channel, sync_channel, Receiver, Sender, SyncSender};
use std::sync::{Arc, Mutex};
use std::time::Instant;

pub use batch::{Batch, Consumer, Step};

use crate::bulk::archive::reader::Reader;
use crate::bulk::archive::walk::{walk, Input, Item};
use crate::bulk::archive::{Counters, RawRecord, ReadConfig};
use crate::bulk::buf::BufPool;
use crate::bulk::config::Config;
use crate::bulk::gzip::ahead::{Inflater, InlineOffload, Offload};
use crate::bulk::summary::{this_thread_name, Panicked, Progress, Summary};
use crate::bulk::worker::Worker;
pub(crate) use flow::Cuts;
use flow::{recycle, recycle_record, BatchCut, Budget, Pool};
use jobs::{Job, Jobs, Work};
use order::{write_in_order, Done, PanicSignal, Processed, Shared};
use panic::process_record;

/// Items per reader chunk at most (see [`chunks`]).
const CHUNK_ITEMS: usize = 64;
/// Bytes (file sizes) per reader chunk at most; a larger file is a chunk of its own.
const CHUNK_BYTES: u64 = 1 << 20;

/// The walk of `inputs` cut into chunks (runs of consecutive items, numbered from 0), sent
/// to `tx` for the readers; stops when nobody receives any more.
fn chunks(inputs: &[Input], tx: &SyncSender<(u64, Vec<Item>)>) {
    let mut index = 0;
    let mut chunk = Vec::new();
    let mut bytes = 0;
    let mut send = |chunk: Vec<Item>| {
        let ok = tx.send((index, chunk)).is_ok();
        index += 1;
        ok
    };
    let mut ok = true;
    walk(inputs, &mut |item, size| {
        let size = size.unwrap_or(0);
        // Standard input (size unknown) and large files are chunks of their own.
        let alone = matches!(item, Item::Stdin) || size >= CHUNK_BYTES;
        if !chunk.is_empty() && (alone || chunk.len() >= CHUNK_ITEMS || bytes + size > CHUNK_BYTES)
        {
            ok = send(std::mem::take(&mut chunk));
            bytes = 0;
        }
        chunk.push(item);
        bytes += size;
        ok
    });
    if ok && !chunk.is_empty() {
        send(chunk);
    }
}

/// Runs the pipeline over `inputs`: every record is parsed (and extracted, sanitized, as
/// `cfg` says) on a worker, handed to that worker's `Step` (made by `make_step`, once per
/// worker thread), and the batches the steps fill reach `consumer` in input order.
///
/// Every input record reaches a step exactly once as a [`RecordView`](crate::record::RecordView)
/// (unreadable records and non-feeds included). `progress` is called on this thread after each
/// consumed batch. The errors are the consumer's, a failure to start threads, and [`Panicked`] (a
/// bug). A panic while processing one record does not stop the run: that record becomes an `error`
/// record of kind `internal`.
pub fn run_with<B, S, M, C>(
    inputs: Vec<Input>,
    cfg: &Config,
    make_step: M,
    consumer: &mut C,
    progress: &mut dyn FnMut(Progress),
) -> io::Result<Summary>
where
    B: Batch,
    S: Step<B>,
    M: Fn() -> S + Sync,
    C: Consumer<B> + ?Sized,
{
    run_cut(inputs, cfg, Cuts::Flow, make_step, consumer, progress)
}

/// [`run_with`], with the records cut into batches as `cuts` says.
pub(crate) fn run_cut<B, S, M, C>(
    inputs: Vec<Input>,
    cfg: &Config,
    cuts: Cuts,
    make_step: M,
    consumer: &mut C,
    progress: &mut dyn FnMut(Progress),
) -> io::Result<Summary>
where
    B: Batch,
    S: Step<B>,
    M: Fn() -> S + Sync,
    C: Consumer<B> + ?Sized,
{
    let start = Instant::now();
    let threads = cfg.threads.max(1);
    let readers = cfg.readers_for(threads);
    if threads == 1 && readers == 1 {
        return run_on_this_thread(&inputs, cfg, cuts, make_step(), consumer, progress, start);
    }
    let budget = Budget::new(cfg.max_bytes_in_flight.max(1), 2 * threads + 2);
    let counters = Counters::default();
    let bufs = BufPool::default();
    let record_vecs: Pool<Vec<RawRecord>> = Pool::default();
    let batches: Pool<B> = Pool::default();
    let read_cfg = cfg.read_config();
    let jobs = Arc::new(Jobs::new(readers, threads));
    let (done_tx, done_rx) = channel::<Done<B>>();
    // With several readers, the walk of the inputs is cut into chunks they take in turn.
    let (chunk_tx, chunk_rx) = sync_channel::<(u64, Vec<Item>)>(readers);
    // Dropped when the run stops, so that a walk waiting to hand over a chunk ends too.
    let chunk_rx = Mutex::new(Some(chunk_rx));

    let reader = ChunkReader {
        cfg,
        cuts,
        budget: &budget,
        counters: &counters,
        bufs: &bufs,
        record_vecs: &record_vecs,
        read_cfg: &read_cfg,
        jobs: &jobs,
    };
    std::thread::scope(|scope| {
        // However this closure ends (the writer done, an error, a panic on this thread), the
        // other threads are told to stop first, so the scope never waits on them.
        let stop_all = StopAll { budget: &budget, jobs: &jobs, chunk_rx: &chunk_rx };
        let mut handles = Vec::new();
        if readers > 1 {
            let inputs = &inputs;
            let signal = PanicSignal(done_tx.clone());
            handles.push(std::thread::Builder::new().name("feedmill-walk".into()).spawn_scoped(
                scope,
                move || {
                    let _signal = signal;
                    chunks(inputs, &chunk_tx)
                },
            )?);
        } else {
            drop(chunk_tx);
        }
        for i in 0..readers {
            let (reader, done_tx, chunk_rx, inputs) =
                (&reader, done_tx.clone(), &chunk_rx, &inputs);
            let handle = std::thread::Builder::new()
                .name(format!("feedmill-reader-{i}"))
                .spawn_scoped(scope, move || {
                    let _signal = PanicSignal(done_tx.clone());
                    if readers == 1 {
                        // One reader: the whole walk is chunk 0.
                        reader.read(0, |r| r.walk(inputs), &done_tx);
                    } else {
                        loop {
                            let next = chunk_rx.lock().ok().and_then(|rx| rx.as_ref()?.recv().ok());
                            let Some((chunk, items)) = next else { break };
                            let go_on = reader.read(chunk, |r| r.items(items), &done_tx);
                            if !go_on {
                                break;
                            }
                        }
                    }
                    reader.jobs.reader_done();
                })?;
            handles.push(handle);
        }
        for i in 0..threads {
            let done_tx = done_tx.clone();
            let (budget, bufs, batches, record_vecs, jobs) =
                (&budget, &bufs, &batches, &record_vecs, &*jobs);
            let make_step = &make_step;
            let handle = std::thread::Builder::new()
                .name(format!("feedmill-worker-{i}"))
                .spawn_scoped(scope, move || {
                    let _signal = PanicSignal(done_tx.clone());
                    let mut worker = Worker::new(cfg);
                    let mut step = make_step();
                    let mut inflater = None;
                    while let Some(job) = jobs.next() {
                        let Work { chunk, seq, mut records, bytes } = match job {
                            Job::Inflate(range) => {
                                range.run(inflater.get_or_insert_with(Inflater::default));
                                continue;
                            }
                            Job::Parse(work) => work,
                        };
                        if budget.stopping() {
                            recycle(bufs, record_vecs, records);
                            continue;
                        }
                        let mut batch = batches.get();
                        let mut stats = Summary::default();
                        // NOTE: each record goes back as soon as it is processed, not once
                        // the batch is consumed (a batch waiting for its turn, or being
                        // written, holds only its output; the budget still counts the
                        // records' bytes until then) nor once the batch is processed: the
                        // WARC.gz ranges its records share (about 16 in a Parquet batch of
                        // 8 MiB) go home one by one as the worker moves on, for the reader's
                        // next ranges, instead of all together at the batch's end, more than
                        // the stream's pool keeps.
                        for rec in records.drain(..) {
                            process_record(
                                &mut worker,
                                cfg,
                                &mut step,
                                &mut batch,
                                &mut stats,
                                &rec,
                            );
                            recycle_record(bufs, rec);
                        }
                        step.end_batch(&mut batch);
                        record_vecs.put(records);
                        let out = batch.held_bytes();
                        budget.charge(out);
                        let done = Processed { chunk, seq, batch, bytes: bytes + out, stats };
                        if done_tx.send(Done::Batch(done)).is_err() {
                            break;
                        }
                    }
                })?;
            handles.push(handle);
        }
        drop(done_tx);
        let shared = Shared { cfg, budget: &budget, batches: &batches, counters: &counters };
        let result = write_in_order(&shared, &done_rx, consumer, progress);
        // Stop the readers, the walk and the workers (a no-op after a complete run), then
        // join them: a thread that panicked is joined here (its panic was reported to the
        // writer), so the scope does not panic again.
        drop(stop_all);
        drop(done_rx);
        for handle in handles {
            let _ = handle.join();
        }
        Ok(summary(result?, &counters, start))
    })
}

/// [`run_with`] for one worker and one reader, on the calling thread alone: each record is
/// read, processed and recycled in turn, and each batch consumed as soon as it is full; a
/// WARC.gz's ranges of gzip members are inflated here too ([`InlineOffload`], one range
/// ahead), and their records still read from the inflated buffers without a copy. The
/// records and their order are the threaded pipeline's; what goes is the handing over of
/// every batch between three threads (a wake-up each way) and the passing of every byte
/// between cores' caches (a body read on one core and parsed on another, output made on one
/// and written from another). A record body's buffer is reused for the next while still in
/// cache. Memory: one record, one batch's output, and one range of a WARC.gz.
///
/// Batches are cut by records and bytes as in the threaded pipeline, but not by the memory
/// their records hold (they hold none here): with [`Cuts::Fixed`] (a Parquet file's row
/// groups) the batches are the threaded pipeline's.
///
/// A panic outside a record's processing stops the run with [`Panicked`], as in the threaded
/// pipeline; one in the consumer reaches the caller.
fn run_on_this_thread<B, S, C>(
    inputs: &[Input],
    cfg: &Config,
    cuts: Cuts,
    mut step: S,
    consumer: &mut C,
    progress: &mut dyn FnMut(Progress),
    start: Instant,
) -> io::Result<Summary>
where
    B: Batch,
    S: Step<B>,
    C: Consumer<B> + ?Sized,
{
    let counters = Counters::default();
    let bufs = BufPool::default();
    let read_cfg = cfg.read_config();
    let in_consumer = std::cell::Cell::new(false);
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut worker = Worker::new(cfg);
        let mut cut = BatchCut::new(cfg, false, cuts);
        let mut batch = B::default();
        // Every record counted is consumed before the counts are read (progress, summary).
        let mut stats = Summary::default();
        let mut outcome = Ok(());
        // Ends the batch and hands it to the consumer; false when the run stops there.
        let mut consume =
            |step: &mut S, batch: &mut B, stats: &Summary, outcome: &mut io::Result<()>| {
                step.end_batch(batch);
                in_consumer.set(true);
                let flow = consumer.batch(batch);
                in_consumer.set(false);
                batch.clear();
                progress(Progress {
                    records: stats.records,
                    input_bytes: counters.bytes_read.load(Ordering::Relaxed),
                });
                match flow {
                    Ok(ControlFlow::Continue(())) => true,
                    Ok(ControlFlow::Break(())) => false,
                    Err(e) => {
                        *outcome = Err(e);
                        false
                    }
                }
            };
        let mut emit = |rec: RawRecord| {
            if cfg.stopped() {
                // Stop: the records of the batch being filled are consumed, this one is not.
                recycle_record(&bufs, rec);
                if cut.has_records() {
                    cut.end();
                    consume(&mut step, &mut batch, &stats, &mut outcome);
                }
                return false;
            }
            let full = cut.add(&rec);
            process_record(&mut worker, cfg, &mut step, &mut batch, &mut stats, &rec);
            recycle_record(&bufs, rec);
            if !full {
                return true;
            }
            cut.end();
            consume(&mut step, &mut batch, &stats, &mut outcome) && !cfg.stopped()
        };
        let inflate_here: Arc<dyn Offload> = Arc::new(InlineOffload::new(1));
        Reader::new(&read_cfg, &counters, &bufs, Some(inflate_here), &mut emit).walk(inputs);
        if cut.has_records() && outcome.is_ok() {
            consume(&mut step, &mut batch, &stats, &mut outcome);
        }
        outcome.map(|()| stats)
    }));
    match run {
        Ok(result) => Ok(summary(result?, &counters, start)),
        Err(panic) if in_consumer.get() => std::panic::resume_unwind(panic),
        Err(_) => Err(io::Error::other(Panicked { thread: this_thread_name() })),
    }
}

/// What a run that consumed `stats` did.
fn summary(stats: Summary, counters: &Counters, start: Instant) -> Summary {
    Summary {
        skipped_records: counters.skipped_records.load(Ordering::Relaxed),
        skipped_by_type: counters.skipped_by_type.each_ref().map(|n| n.load(Ordering::Relaxed)),
        input_bytes: counters.bytes_read.load(Ordering::Relaxed),
        elapsed: start.elapsed(),
        ..stats
    }
}

/// A numbered chunk of the walk, for the readers (see [`chunks`]).
type Chunk = (u64, Vec<Item>);

/// Stops the readers, the walk and the workers when dropped.
struct StopAll<'s> {
    budget: &'s Budget,
    jobs: &'s Jobs,
    chunk_rx: &'s Mutex<Option<Receiver<Chunk>>>,
}

impl Drop for StopAll<'_> {
    fn drop(&mut self) {
        self.budget.stop();
        self.jobs.stop();
        if let Ok(mut rx) = self.chunk_rx.lock() {
            rx.take();
        }
    }
}

/// What a reader thread shares with the others: it reads chunks into numbered batches.
struct ChunkReader<'r> {
    cfg: &'r Config,
    cuts: Cuts,
    budget: &'r Budget,
    counters: &'r Counters,
    bufs: &'r BufPool,
    record_vecs: &'r Pool<Vec<RawRecord>>,
    read_cfg: &'r ReadConfig,
    jobs: &'r Arc<Jobs>,
}

impl ChunkReader<'_> {
    /// Reads chunk `chunk` (what `read_items` reads with the reader it is given) into
    /// batches for the workers, then tells the writer how many there were. False when the
    /// run is stopping.
    fn read<T: Send>(
        &self,
        chunk: u64,
        read_items: impl FnOnce(&mut Reader<'_, '_>),
        done: &Sender<Done<T>>,
    ) -> bool {
        let (budget, jobs) = (self.budget, self.jobs);
        let mut cut = BatchCut::new(self.cfg, true, self.cuts);
        let mut seq = 0;
        let mut pending = self.record_vecs.get();
        let mut send = |records: Vec<RawRecord>, bytes: usize| {
            if !budget.admit(bytes, chunk) {
                return false;
            }
            jobs.push(Work { chunk, seq, records, bytes });
            seq += 1;
            true
        };
        let mut go_on = true;
        {
            let mut emit = |r: RawRecord| {
                let full = cut.add(&r);
                pending.push(r);
                cut.compact(&mut pending);
                if full {
                    let full = std::mem::replace(&mut pending, self.record_vecs.get());
                    go_on = send(full, cut.end());
                    return go_on;
                }
                true
            };
            let offload: Arc<dyn Offload> = jobs.clone();
            let mut reader =
                Reader::new(self.read_cfg, self.counters, self.bufs, Some(offload), &mut emit);
            read_items(&mut reader);
        }
        if go_on && !pending.is_empty() {
            go_on = send(pending, cut.end());
        }
        go_on && done.send(Done::End { chunk, batches: seq }).is_ok()
    }
}
