//! Panics in a run: one while a worker processes a record becomes that record's `internal`
//! error record ([`process_record`]); one anywhere else stops the run with
//! [`Panicked`](crate::bulk::Panicked).

use super::batch::{Batch, Step};
use crate::bulk::archive::RawRecord;
use crate::bulk::config::Config;
use crate::bulk::summary::{internal_error_message, Summary};
use crate::bulk::worker::Worker;

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
