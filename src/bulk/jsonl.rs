//! JSON Lines output of a run, the CLI's job: each record's line encoded on the worker that
//! processed it ([`crate::sink::json`]), the lines written in input order.

use std::io::{self, Write};
use std::ops::ControlFlow;

use super::archive::Input;
#[cfg(any(test, feature = "internals"))]
use super::archive::RawRecord;
use super::config::Config;
use super::pipeline::run_with;
use super::summary::{Progress, Summary};
#[cfg(any(test, feature = "internals"))]
use super::worker::Worker;
use crate::record::RecordView;
use crate::sink::json::{encode_lint_line, encode_record};

/// Processes `inputs`, writing one JSON line per record to `out`, in input order.
/// The only error is an output failure; per-record problems are records.
pub fn run(
    inputs: Vec<Input>,
    cfg: &Config,
    mut out: Box<dyn Write + Send>,
    progress: &mut dyn FnMut(Progress),
) -> io::Result<Summary> {
    let make_step = || {
        let lint_only = cfg.lint_only;
        move |rec: &RecordView<'_, '_>, lines: &mut Vec<u8>| encode_line(lines, rec, lint_only)
    };
    let mut write = |lines: &mut Vec<u8>| out.write_all(lines).map(|()| ControlFlow::Continue(()));
    let summary = run_with(inputs, cfg, make_step, &mut write, progress)?;
    out.flush()?;
    Ok(summary)
}

/// The JSON lines of `records`, processed one after the other by `worker` on this thread,
/// and their counts: the sequential reference the pipeline's output is checked against.
#[cfg(any(test, feature = "internals"))]
pub fn encode_records(worker: &mut Worker, records: &[RawRecord]) -> (Vec<u8>, Summary) {
    let mut out = Vec::with_capacity(records.len() * 2048);
    let mut summary = Summary::default();
    let lint_only = worker.lint_only();
    for r in records {
        worker.view(r, &mut |view, body| {
            encode_line(&mut out, view, lint_only);
            summary.count(view, body);
        });
    }
    (out, summary)
}

/// One output line for `rec`: its JSON record, or its `feedmill lint` line when `lint_only`.
fn encode_line(out: &mut Vec<u8>, rec: &RecordView<'_, '_>, lint_only: bool) {
    if lint_only {
        encode_lint_line(out, rec);
    } else {
        encode_record(out, rec);
    }
    out.push(b'\n');
}
