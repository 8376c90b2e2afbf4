//! JSON Lines output of a run, the CLI's job: each record's line encoded on the worker that
//! processed it ([`crate::sink::json`]), the lines written in input order, to one writer
//! ([`run`]) or to a sequence of files ([`write_jsonl_files`]).

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

/// [`run`] into a sequence of files: `open(i)` gives file `i` (from 0), `close(i, w)`
/// receives it complete (flushed), once it holds at least `max_file_bytes` (at the end of a
/// pipeline batch: a file is at most that plus one batch of lines) or at the end of the run.
/// File 0 is opened first, so a run without records still makes one (empty); a later file is
/// opened only when there are lines for it. Lines are in input order across the files, and
/// a file always ends with a whole line.
///
/// On an `Err` (an output failure, a bug) the file being written is dropped as it is; the
/// files closed before are complete. When [`Config::stop`] is set, the file being written
/// is closed after the batch being written.
pub fn write_jsonl_files<W: Write>(
    inputs: Vec<Input>,
    cfg: &Config,
    max_file_bytes: u64,
    open: &mut dyn FnMut(usize) -> io::Result<W>,
    close: &mut dyn FnMut(usize, W) -> io::Result<()>,
    progress: &mut dyn FnMut(Progress),
) -> io::Result<Summary> {
    let make_step = || {
        let lint_only = cfg.lint_only;
        move |rec: &RecordView<'_, '_>, lines: &mut Vec<u8>| encode_line(lines, rec, lint_only)
    };
    let mut file = Some((open(0)?, 0u64));
    let mut index = 0;
    let mut write = |lines: &mut Vec<u8>| {
        if lines.is_empty() {
            return Ok(ControlFlow::Continue(()));
        }
        let (out, written) = match &mut file {
            Some(f) => f,
            None => {
                index += 1;
                file.insert((open(index)?, 0))
            }
        };
        out.write_all(lines)?;
        *written += lines.len() as u64;
        if *written >= max_file_bytes {
            if let Some((mut out, _)) = file.take() {
                out.flush()?;
                close(index, out)?;
            }
        }
        Ok(ControlFlow::Continue(()))
    };
    let summary = run_with(inputs, cfg, make_step, &mut write, progress)?;
    if let Some((mut out, _)) = file {
        out.flush()?;
        close(index, out)?;
    }
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
