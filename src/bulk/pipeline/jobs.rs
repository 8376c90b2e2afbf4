//! The workers' queue: ranges of gzip members to inflate for a reader (first: the reader
//! waits on them) and batches of records to process.

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex};

use crate::bulk::archive::RawRecord;
use crate::bulk::gzip::ahead::{Offload, RangeJob};

/// The workers' queue: ranges of gzip members to inflate (first: a reader waits on them) and
/// batches of records to process.
pub(super) struct Jobs {
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

pub(super) enum Job {
    Inflate(RangeJob),
    Parse(Work),
}

impl Jobs {
    /// The queue of `threads` workers, with `readers` readers to come.
    pub(super) fn new(readers: usize, threads: usize) -> Self {
        Jobs {
            state: Mutex::new(Queued { readers, ..Queued::default() }),
            ready: Condvar::new(),
            threads,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Queued> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub(super) fn push(&self, work: Work) {
        self.lock().parse.push_back(work);
        self.ready.notify_one();
    }

    /// The next job, inflating first; `None` once every reader is done and nothing is queued.
    pub(super) fn next(&self) -> Option<Job> {
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
    pub(super) fn reader_done(&self) {
        let mut q = self.lock();
        q.readers = q.readers.saturating_sub(1);
        drop(q);
        self.ready.notify_all();
    }

    /// Hands back every queued inflate job (and any submitted later): a reader waiting on
    /// one must not wait for workers that have stopped.
    pub(super) fn stop(&self) {
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
pub(super) struct Work {
    pub(super) chunk: u64,
    pub(super) seq: u64,
    pub(super) records: Vec<RawRecord>,
    pub(super) bytes: usize,
}
