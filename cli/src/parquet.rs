//! `--format parquet`: the bulk run with an Arrow batch per chunk of records (built on the
//! worker that parsed them) and one Parquet writer on the writer thread, in input order.

use std::io::{self, Write};
use std::sync::mpsc::Receiver;

use feedmill::bulk::{self, Config, Input, Progress, Record, Summary, Worker};
use feedmill::columnar::arrow_array::RecordBatch;
use feedmill::columnar::parquet::{ParquetOptions, ParquetSink};
use feedmill::columnar::{Layout, RecordBatchBuilder};
use feedmill::sink::stats::Stats;

use crate::LayoutArg;

/// Records per Arrow batch (one worker task). Large enough that the ~100 column builders
/// of a batch are amortized; small enough to balance threads within a window.
const BATCH: usize = 256;

pub fn run(
    inputs: Vec<Input>,
    cfg: &Config,
    out: Box<dyn Write + Send>,
    layout: LayoutArg,
    progress: &mut dyn FnMut(Progress),
) -> io::Result<Summary> {
    let layout = match layout {
        LayoutArg::Records => Layout::Records,
        LayoutArg::Entries => Layout::Entries,
    };
    let make = move |w: &mut Worker, chunk: &[Record]| {
        let mut b = RecordBatchBuilder::new(layout);
        let mut stats = Stats::default();
        for r in chunk {
            w.process_with(r, &mut |v| b.append(v), &mut stats);
        }
        (b.finish(), stats)
    };
    let consume = move |batches: Receiver<Vec<RecordBatch>>| {
        let mut sink = ParquetSink::new(out, ParquetOptions { layout, ..Default::default() })?;
        for window in batches {
            for b in window {
                sink.write_batch(&b)?;
            }
        }
        sink.close()?.flush()
    };
    bulk::run_with(inputs, cfg, BATCH, &make, consume, progress)
}
