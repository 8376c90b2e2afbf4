//! `--format parquet`: the bulk pipeline with an Arrow batch per group of records, built and
//! finished on the worker that parsed them (`columnar::ArrowStep`), and one Parquet writer on
//! the ordered side, in input order.

use std::io::{self, Write};
use std::ops::ControlFlow;

use feedmill::bulk::{self, Config, Input, Progress, Summary};
use feedmill::columnar::parquet::{ParquetOptions, ParquetSink};
use feedmill::columnar::{ArrowBatch, ArrowStep, Layout};

use crate::LayoutArg;

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
    let mut sink = ParquetSink::new(out, ParquetOptions { layout, ..Default::default() })?;
    let mut consume = |batch: &mut ArrowBatch| -> io::Result<ControlFlow<()>> {
        if let Some(b) = batch.take() {
            sink.write_batch(&b)?;
        }
        Ok(ControlFlow::Continue(()))
    };
    let summary = bulk::run_with(inputs, cfg, || ArrowStep { layout }, &mut consume, progress)?;
    sink.close()?.flush()?;
    Ok(summary)
}
