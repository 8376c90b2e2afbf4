//! Panics in a run: one while a worker processes a record becomes that record's `internal`
//! error record ([`process_record`]); one anywhere else stops the run with [`Panicked`].

use super::batch::{Batch, Step};
use crate::bulk::archive::RawRecord;
use crate::bulk::config::Config;
use crate::bulk::summary::Summary;
use crate::bulk::worker::Worker;

/// The current thread's name, for [`Panicked`].
pub(super) fn this_thread_name() -> String {
    std::thread::current().name().unwrap_or("unnamed").to_owned()
}

/// Processes one record into `batch` (its view handed to `step`, its counts to `stats`).
///
/// A panic while processing it (a bug) is caught: the worker starts afresh, the record's
/// partial output is undone ([`Batch::rollback`]) and the record becomes an `error` record of
/// kind `internal` carrying the panic's message; the run goes on. A panic inside
/// [`Step::record`] that the batch cannot undo ([`Batch::mark`] is `None`) is resumed: the
/// worker thread ends and the run stops with an error.
pub(super) fn process_record<B: Batch, S: Step<B>>(
    worker: &mut Worker,
    cfg: &Config,
    step: &mut S,
    batch: &mut B,
    stats: &mut Summary,
    rec: &RawRecord,
) {
    let mark = batch.mark();
    let (mut entered, mut written) = (false, false);
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        worker.view(rec, &mut |view, body| {
            entered = true;
            step.record(view, batch);
            written = true;
            stats.count(view, body);
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
        stats.count(view, body);
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

/// The error of a run stopped by a panic outside any record's processing (a bug: in a reader,
/// in [`Step::end_batch`], or in a [`Step::record`] whose batch cannot undo a record). The
/// panic's own message went to standard error; the output is incomplete. It is the inner error
/// of the `io::Error` [`crate::bulk::run_with`] returns (`err.get_ref()`, downcast).
#[derive(Debug)]
pub struct Panicked {
    /// The name of the thread that panicked (`feedmill-worker-N`, `feedmill-reader-N`, …; with
    /// one worker and one reader, the thread that called [`crate::bulk::run_with`], or
    /// `unnamed`).
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
