//! The ordered streaming pipeline: one reader thread, `threads` worker threads, and the
//! calling thread as the in-order writer.
//!
//! ```text
//!  reader thread          workers (Config::threads)               calling thread
//!  input::enumerate ─►    (seq, records) ─► Step::record per     reorder by seq ─► Consumer
//!  groups records into    record, into a pooled batch B     ─►   ::batch, in input order;
//!  batches, numbered,     (per-worker state: parser, arena,       then B, the record buffers
//!  waits on the budget    scratch, the step)                      and the budget go back
//!        │  ▲
//!        ▼  │ WARC.gz members inflated ahead (warc::ahead), taken before any batch
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
//! parser arena and scratch (sized by the largest document seen), the pools below.
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
//! Record bodies come from and go back to a [`BufPool`]; batches of records, output batches
//! `B` and each worker's parser, arena and scratch are reused, so the steady state allocates
//! nothing per record beyond what the readers and the parser need for that record's content.

use std::collections::{BTreeMap, VecDeque};
use std::io;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, sync_channel, Receiver, Sender, SyncSender};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

use super::input::{self, BufPool, Counters, Item, Payload, ReadConfig, Record};
use super::warc::ahead::{Inflater, InlineOffload, Offload, RangeJob};
use super::{count, Config, Progress, Summary, Worker};
use crate::sink::stats::Stats;
use crate::sink::RecordView;

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
    /// [`Config::max_bytes_in_flight`] until it is consumed. A cleared batch still holding
    /// more than 1 MiB is freed rather than reused. An estimate is fine.
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

/// The per-record work, run on the worker threads. Each worker thread has its own `Step`
/// (made by the factory given to [`run_with`]), so a step may keep mutable state (scratch
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

/// The ordered side, run on the thread that called [`run_with`]: receives every batch
/// exactly once, in input order. `ControlFlow::Break` stops the run early (the reader and
/// workers stop; the batches still in flight are dropped); an `Err` stops it and is returned
/// by [`run_with`].
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

/// Records per batch at most, by default ([`Config::batch_records`]). NOTE: small enough that
/// two workers balance on records of mixed sizes and the reorder buffer stays short; large
/// enough to amortize channel traffic.
pub(crate) const BATCH_RECORDS: usize = 16;
/// Bytes of records per batch at most, by default ([`Config::batch_bytes`]; one larger record
/// is a batch of its own).
pub(crate) const BATCH_BYTES: usize = 256 << 10;

/// Bytes in flight and batches in flight, with a wait for room.
///
/// With several readers, the chunk the writer is on (the *current* chunk) always gets room:
/// readers of later chunks admit batches only within half the budget, and the current
/// chunk's reader may exceed the budget with one batch when none of its own is in flight
/// (its batches are the ones the writer drains). So the writer never waits on a reader that
/// waits on batches the writer cannot consume yet.
struct Budget {
    state: Mutex<Flight>,
    room: Condvar,
    max_bytes: usize,
    max_batches: usize,
    stop: AtomicBool,
}

#[derive(Default)]
struct Flight {
    bytes: usize,
    batches: usize,
    /// The chunk the writer consumes now, and its batches in flight.
    current: u64,
    current_batches: usize,
    /// Batches in flight of later chunks.
    ahead: BTreeMap<u64, usize>,
}

impl Budget {
    fn lock(&self) -> std::sync::MutexGuard<'_, Flight> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Waits until a batch of `n` bytes of `chunk` fits; false when the run is stopping.
    fn admit(&self, n: usize, chunk: u64) -> bool {
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
    fn charge(&self, n: usize) {
        self.lock().bytes += n;
    }

    /// A batch of the current chunk, of `n` bytes (input and output), is consumed.
    fn release(&self, n: usize) {
        let mut s = self.lock();
        s.bytes = s.bytes.saturating_sub(n);
        s.batches = s.batches.saturating_sub(1);
        s.current_batches = s.current_batches.saturating_sub(1);
        drop(s);
        self.room.notify_all();
    }

    /// The writer moves on to `chunk`.
    fn advance(&self, chunk: u64) {
        let mut s = self.lock();
        s.current = chunk;
        s.current_batches = s.ahead.remove(&chunk).unwrap_or(0);
        drop(s);
        self.room.notify_all();
    }

    fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
        let _s = self.lock();
        self.room.notify_all();
    }
}

/// The workers' queue: ranges of gzip members to inflate (first: a reader waits on them) and
/// batches of records to process.
struct Jobs {
    state: Mutex<Queued>,
    ready: Condvar,
    threads: usize,
}

#[derive(Default)]
struct Queued {
    inflate: VecDeque<RangeJob>,
    parse: VecDeque<Work>,
    /// Readers still running; at 0 no more jobs come.
    readers: usize,
    /// The run is stopping: inflate jobs are handed back uninflated.
    stopped: bool,
}

enum Job {
    Inflate(RangeJob),
    Parse(Work),
}

impl Jobs {
    fn lock(&self) -> std::sync::MutexGuard<'_, Queued> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn push(&self, work: Work) {
        self.lock().parse.push_back(work);
        self.ready.notify_one();
    }

    /// The next job, inflating first; `None` once every reader is done and nothing is queued.
    fn next(&self) -> Option<Job> {
        let mut q = self.lock();
        loop {
            if let Some(j) = q.inflate.pop_front() {
                return Some(Job::Inflate(j));
            }
            if let Some(w) = q.parse.pop_front() {
                return Some(Job::Parse(w));
            }
            if q.readers == 0 {
                return None;
            }
            q = self.ready.wait(q).unwrap_or_else(|p| p.into_inner());
        }
    }

    /// A reader is done.
    fn reader_done(&self) {
        let mut q = self.lock();
        q.readers = q.readers.saturating_sub(1);
        drop(q);
        self.ready.notify_all();
    }

    /// Hands back every queued inflate job (and any submitted later): a reader waiting on
    /// one must not wait for workers that have stopped.
    fn stop(&self) {
        let queued = {
            let mut q = self.lock();
            q.stopped = true;
            std::mem::take(&mut q.inflate)
        };
        queued.into_iter().for_each(RangeJob::cancel);
    }
}

impl Offload for Jobs {
    fn submit(&self, job: RangeJob) {
        let mut q = self.lock();
        if q.stopped {
            drop(q);
            return job.cancel();
        }
        q.inflate.push_back(job);
        drop(q);
        self.ready.notify_one();
    }

    fn ranges_ahead(&self) -> usize {
        2 * self.threads + 2
    }
}

/// A batch of records on its way to a worker: batch `seq` of chunk `chunk`.
struct Work {
    chunk: u64,
    seq: u64,
    records: Vec<Record>,
    bytes: usize,
}

/// What reaches the writer.
// A `Done` is moved through a channel once per batch; boxing the batch would add an
// allocation per batch for nothing.
#[allow(clippy::large_enum_variant)]
enum Done<B> {
    /// A processed batch.
    Batch(Processed<B>),
    /// Chunk `chunk` had `batches` batches.
    End { chunk: u64, batches: u64 },
    /// The named thread panicked outside the processing of a record: the run cannot finish.
    Panicked(String),
}

/// A processed batch on its way to the writer.
struct Processed<B> {
    chunk: u64,
    seq: u64,
    records: Vec<Record>,
    batch: B,
    /// Input and output bytes to release once consumed.
    bytes: usize,
    stats: Stats,
}

/// A small lock-protected free list.
struct Pool<T>(Mutex<Vec<T>>);

impl<T: Default> Pool<T> {
    fn get(&self) -> T {
        self.0.lock().ok().and_then(|mut v| v.pop()).unwrap_or_default()
    }
    fn put(&self, t: T) {
        if let Ok(mut v) = self.0.lock() {
            v.push(t);
        }
    }
}

/// Items per reader chunk at most (see [`chunks`]).
const CHUNK_ITEMS: usize = 64;
/// Bytes (file sizes) per reader chunk at most; a larger file is a chunk of its own.
const CHUNK_BYTES: u64 = 1 << 20;

/// The walk of `inputs` cut into chunks (runs of consecutive items, numbered from 0), sent
/// to `tx` for the readers; stops when nobody receives any more.
fn chunks(inputs: &[input::Input], tx: &SyncSender<(u64, Vec<Item>)>) {
    let mut index = 0;
    let mut chunk = Vec::new();
    let mut bytes = 0;
    let mut send = |chunk: Vec<Item>| {
        let ok = tx.send((index, chunk)).is_ok();
        index += 1;
        ok
    };
    let mut ok = true;
    input::walk(inputs, &mut |item, size| {
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
/// Every input record reaches a step exactly once as a [`RecordView`] (unreadable records
/// and non-feeds included). `progress` is called on this thread after each consumed batch.
/// The errors are the consumer's, a failure to start threads, and [`Panicked`] (a bug). A
/// panic while processing one record does not stop the run: that record becomes an `error`
/// record of kind `internal`.
pub fn run_with<B, S, M, C>(
    inputs: Vec<input::Input>,
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
    let start = Instant::now();
    let threads = cfg.threads.max(1);
    let readers = cfg.readers_for(threads);
    if threads == 1 && readers == 1 {
        return run_on_this_thread(&inputs, cfg, make_step(), consumer, progress, start);
    }
    let budget = Budget {
        state: Mutex::default(),
        room: Condvar::new(),
        max_bytes: cfg.max_bytes_in_flight.max(1),
        max_batches: 2 * threads + 2,
        stop: AtomicBool::new(false),
    };
    let counters = Counters::default();
    let bufs = BufPool::default();
    let record_vecs: Pool<Vec<Record>> = Pool(Mutex::new(Vec::new()));
    let batches: Pool<B> = Pool(Mutex::new(Vec::new()));
    let read_cfg = ReadConfig { max_record_bytes: cfg.options.limits.max_input_bytes };
    let jobs = Arc::new(Jobs {
        state: Mutex::new(Queued { readers, ..Queued::default() }),
        ready: Condvar::new(),
        threads,
    });
    let (done_tx, done_rx) = channel::<Done<B>>();
    // With several readers, the walk of the inputs is cut into chunks they take in turn.
    let (chunk_tx, chunk_rx) = sync_channel::<(u64, Vec<Item>)>(readers);
    // Dropped when the run stops, so that a walk waiting to hand over a chunk ends too.
    let chunk_rx = Mutex::new(Some(chunk_rx));

    let reader = ChunkReader {
        cfg,
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
                        let Work { chunk, seq, records, bytes } = match job {
                            Job::Inflate(range) => {
                                range.run(inflater.get_or_insert_with(Inflater::default));
                                continue;
                            }
                            Job::Parse(work) => work,
                        };
                        if budget.stop.load(Ordering::Relaxed) {
                            recycle(bufs, record_vecs, records);
                            continue;
                        }
                        let mut batch = batches.get();
                        let mut stats = Stats::default();
                        for rec in &records {
                            process_record(
                                &mut worker,
                                cfg,
                                &mut step,
                                &mut batch,
                                &mut stats,
                                rec,
                            );
                        }
                        step.end_batch(&mut batch);
                        let out = batch.held_bytes();
                        budget.charge(out);
                        let done =
                            Processed { chunk, seq, records, batch, bytes: bytes + out, stats };
                        if done_tx.send(Done::Batch(done)).is_err() {
                            break;
                        }
                    }
                })?;
            handles.push(handle);
        }
        drop(done_tx);
        let result = write_in_order(
            &done_rx,
            consumer,
            progress,
            &budget,
            &bufs,
            &record_vecs,
            &batches,
            &counters,
        );
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
/// their records hold (they hold none here), so a Parquet file's row groups may be larger.
///
/// A panic outside a record's processing stops the run with [`Panicked`], as in the threaded
/// pipeline; one in the consumer reaches the caller.
fn run_on_this_thread<B, S, C>(
    inputs: &[input::Input],
    cfg: &Config,
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
    let read_cfg = ReadConfig { max_record_bytes: cfg.options.limits.max_input_bytes };
    let in_consumer = std::cell::Cell::new(false);
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut worker = Worker::new(cfg);
        let mut cut = BatchCut::new(cfg, false);
        let mut batch = B::default();
        // Every record counted is consumed before the counts are read (progress, summary).
        let mut stats = Stats::default();
        let mut outcome = Ok(());
        // Ends the batch and hands it to the consumer; false when the run stops there.
        let mut consume =
            |step: &mut S, batch: &mut B, stats: &Stats, outcome: &mut io::Result<()>| {
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
        let mut emit = |rec: Record| {
            let full = cut.add(&rec);
            process_record(&mut worker, cfg, &mut step, &mut batch, &mut stats, &rec);
            recycle_record(&bufs, rec);
            if !full {
                return true;
            }
            cut.end();
            consume(&mut step, &mut batch, &stats, &mut outcome)
        };
        let inflate_here: Arc<dyn Offload> = Arc::new(InlineOffload::new(1));
        input::Reader::new(&read_cfg, &counters, &bufs, Some(inflate_here), &mut emit).walk(inputs);
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
fn summary(stats: Stats, counters: &Counters, start: Instant) -> Summary {
    Summary {
        stats,
        skipped_records: counters.skipped_records.load(Ordering::Relaxed),
        input_bytes: counters.bytes_read.load(Ordering::Relaxed),
        elapsed: start.elapsed(),
    }
}

/// The current thread's name, for [`Panicked`].
fn this_thread_name() -> String {
    std::thread::current().name().unwrap_or("unnamed").to_owned()
}

/// Processes one record into `batch` (its view handed to `step`, its counts to `stats`).
///
/// A panic while processing it (a bug) is caught: the worker starts afresh, the record's
/// partial output is undone ([`Batch::rollback`]) and the record becomes an `error` record of
/// kind `internal` carrying the panic's message; the run goes on. A panic inside
/// [`Step::record`] that the batch cannot undo ([`Batch::mark`] is `None`) is resumed: the
/// worker thread ends and the run stops with an error.
fn process_record<B: Batch, S: Step<B>>(
    worker: &mut Worker,
    cfg: &Config,
    step: &mut S,
    batch: &mut B,
    stats: &mut Stats,
    rec: &Record,
) {
    let mark = batch.mark();
    let (mut entered, mut written) = (false, false);
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        worker.view(rec, &mut |view, body| {
            entered = true;
            step.record(view, batch);
            written = true;
            count(stats, view, body);
        });
    }));
    let Err(panic) = result else { return };
    // The parser, its arenas and scratch may be left mid-document.
    *worker = Worker::new(cfg);
    if written {
        // The record was written whole; the panic came after it.
        return;
    }
    if entered {
        match mark {
            Some(mark) => batch.rollback(mark),
            None => std::panic::resume_unwind(panic),
        }
    }
    let message = internal_error_message(&*panic);
    worker.view_failed(rec, "internal", &message, &mut |view, body| {
        step.record(view, batch);
        count(stats, view, body);
    });
}

/// The message of an `internal` error record, from the panic's payload (`catch_unwind`'s
/// `Err`): "internal error while processing this record (a bug): " and the panic's message.
pub fn internal_error_message(panic: &(dyn std::any::Any + Send)) -> String {
    let message = panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("no message");
    format!("internal error while processing this record (a bug): {message}")
}

/// The error of a run stopped by a panic outside any record's processing (a bug: in a
/// reader, in [`Step::end_batch`], or in a [`Step::record`] whose batch cannot undo a
/// record). The panic's own message went to standard error; the output is incomplete. It is
/// the inner error of the `io::Error` [`run_with`] returns (`err.get_ref()`, downcast).
#[derive(Debug)]
pub struct Panicked {
    /// The name of the thread that panicked (`feedmill-worker-N`, `feedmill-reader-N`, …;
    /// with one worker and one reader, the thread that called [`run_with`], or `unnamed`).
    pub thread: String,
}

impl std::fmt::Display for Panicked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "internal error: thread {} panicked (a bug; its message is above); the run stopped \
             and its output is incomplete",
            self.thread
        )
    }
}

impl std::error::Error for Panicked {}

/// Lives on a reader, walk or worker thread: if the thread unwinds from a panic (a bug
/// outside any record's processing), the writer is told, and the run stops with an error
/// instead of waiting for batches that will never come.
struct PanicSignal<B>(Sender<Done<B>>);

impl<B> Drop for PanicSignal<B> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let _ = self.0.send(Done::Panicked(this_thread_name()));
        }
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
    budget: &'r Budget,
    counters: &'r Counters,
    bufs: &'r BufPool,
    record_vecs: &'r Pool<Vec<Record>>,
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
        read_items: impl FnOnce(&mut input::Reader<'_, '_>),
        done: &Sender<Done<T>>,
    ) -> bool {
        let (budget, jobs) = (self.budget, self.jobs);
        let mut cut = BatchCut::new(self.cfg, true);
        let mut seq = 0;
        let mut pending = self.record_vecs.get();
        let mut send = |records: Vec<Record>, bytes: usize| {
            if !budget.admit(bytes, chunk) {
                return false;
            }
            jobs.push(Work { chunk, seq, records, bytes });
            seq += 1;
            true
        };
        let mut go_on = true;
        {
            let mut emit = |r: Record| {
                let full = cut.add(&r);
                pending.push(r);
                if full {
                    let full = std::mem::replace(&mut pending, self.record_vecs.get());
                    go_on = send(full, cut.end());
                    return go_on;
                }
                true
            };
            let offload: Arc<dyn Offload> = jobs.clone();
            let mut reader = input::Reader::new(
                self.read_cfg,
                self.counters,
                self.bufs,
                Some(offload),
                &mut emit,
            );
            read_items(&mut reader);
        }
        if go_on && !pending.is_empty() {
            go_on = send(pending, cut.end());
        }
        go_on && done.send(Done::End { chunk, batches: seq }).is_ok()
    }
}

/// Where the records read are cut into batches: once a batch has [`Config::batch_records`]
/// records, [`Config::batch_bytes`] bytes of records, or (when the pending batch holds its
/// records' buffers) records holding a quarter of [`Config::max_bytes_in_flight`], whichever
/// comes first.
struct BatchCut {
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
    fn new(cfg: &Config, holding: bool) -> Self {
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
    fn add(&mut self, rec: &Record) -> bool {
        self.records += 1;
        self.len += record_len(rec);
        self.held += held(rec);
        self.records >= self.max_records || self.len >= self.max_len || self.held >= self.max_held
    }

    /// Whether the pending batch has records.
    fn has_records(&self) -> bool {
        self.records > 0
    }

    /// Ends the pending batch; returns the memory its records hold.
    fn end(&mut self) -> usize {
        (self.records, self.len) = (0, 0);
        std::mem::take(&mut self.held)
    }
}

/// Bytes of a record's source name and payload (what [`Config::batch_bytes`] bounds).
fn record_len(rec: &Record) -> usize {
    rec.source.len()
        + match &rec.payload {
            Payload::Document(b) => b.len(),
            Payload::Response { message, target_uri } => message.len() + target_uri.len(),
            Payload::Broken { message, .. } => message.len(),
        }
}

/// Heap bytes a record holds (capacities: what the budget must bound is memory).
fn held(rec: &Record) -> usize {
    rec.source.capacity()
        + match &rec.payload {
            Payload::Document(b) => b.capacity(),
            Payload::Response { message, target_uri } => {
                message.held_bytes() + target_uri.capacity()
            }
            Payload::Broken { message, .. } => message.capacity(),
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
const POOLED_BATCH_MAX: usize = 1 << 20;

fn recycle(bufs: &BufPool, record_vecs: &Pool<Vec<Record>>, mut records: Vec<Record>) {
    for rec in records.drain(..) {
        recycle_record(bufs, rec);
    }
    record_vecs.put(records);
}

/// Gives `rec`'s buffers back to `bufs`, unless they are too large to keep.
fn recycle_record(bufs: &BufPool, rec: Record) {
    let small = match &rec.payload {
        Payload::Document(b) => b.capacity() <= POOLED_BODY_MAX,
        Payload::Response { message, .. } => message.held_bytes() <= POOLED_BODY_MAX,
        Payload::Broken { .. } => true,
    };
    if small {
        bufs.recycle(rec);
    }
}

/// The writer: consumes batches in (chunk, sequence) order, holding early ones until their
/// predecessors are consumed; a chunk is done once its reader said how many batches it had.
#[allow(clippy::too_many_arguments)]
fn write_in_order<B: Batch, C: Consumer<B> + ?Sized>(
    done: &Receiver<Done<B>>,
    consumer: &mut C,
    progress: &mut dyn FnMut(Progress),
    budget: &Budget,
    bufs: &BufPool,
    record_vecs: &Pool<Vec<Record>>,
    batches: &Pool<B>,
    counters: &Counters,
) -> io::Result<Stats> {
    let mut stats = Stats::default();
    let (mut chunk, mut next) = (0u64, 0u64);
    // Batches done before their turn, and the batch counts of chunks their readers finished.
    let mut waiting: BTreeMap<(u64, u64), Processed<B>> = BTreeMap::new();
    let mut ends: BTreeMap<u64, u64> = BTreeMap::new();
    for msg in done.iter() {
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
                recycle(bufs, record_vecs, d.records);
                budget.release(d.bytes);
                progress(Progress {
                    records: stats.records,
                    input_bytes: counters.bytes_read.load(Ordering::Relaxed),
                });
                if let ControlFlow::Break(()) = flow? {
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
