//! Columnar outputs of a run, the glue between the pipeline and [`crate::columnar`]: a
//! Parquet file whose row groups are built and encoded on the workers ([`write_parquet`]).

#[cfg(feature = "parquet")]
pub use parquet::write_parquet;

/// The Parquet file of a run.
#[cfg(feature = "parquet")]
mod parquet {
    use std::io::{self, Write};

    use crate::bulk::archive::Input;
    use crate::bulk::config::Config;
    use crate::bulk::pipeline::{run_with, Batch, Step};
    use crate::bulk::summary::{Progress, Summary};
    use crate::columnar::parquet::{ParquetOptions, ParquetSink, RowGroup, RowGroupEncoder};
    use crate::columnar::{Layout, RecordBatchBuilder};
    use crate::record::RecordView;

    /// The bulk pipeline's batch for Parquet output: the row group its records became, encoded
    /// on the worker ([`ParquetStep`]).
    #[derive(Default)]
    pub(crate) struct ParquetBatch {
        group: Option<io::Result<RowGroup>>,
    }

    impl Batch for ParquetBatch {
        fn clear(&mut self) {
            self.group = None;
        }
        fn held_bytes(&self) -> usize {
            match &self.group {
                Some(Ok(g)) => g.held_bytes(),
                _ => 0,
            }
        }
    }

    /// The per-worker step of [`write_parquet`]: appends each record to the worker's own Arrow
    /// builder and, at the end of the pipeline batch, encodes the batch into a row group.
    pub(crate) struct ParquetStep {
        builder: RecordBatchBuilder,
        encoder: RowGroupEncoder,
    }

    impl ParquetStep {
        /// A worker's step building `layout`'s rows and encoding them with `encoder`.
        pub(crate) fn new(layout: Layout, encoder: RowGroupEncoder) -> Self {
            ParquetStep { builder: RecordBatchBuilder::new(layout), encoder }
        }
    }

    impl Step<ParquetBatch> for ParquetStep {
        fn record(&mut self, rec: &RecordView<'_, '_>, _batch: &mut ParquetBatch) {
            self.builder.append(rec);
        }
        fn end_batch(&mut self, batch: &mut ParquetBatch) {
            if self.builder.records() > 0 {
                batch.group = Some(self.encoder.encode(&self.builder.finish()));
            }
        }
    }

    /// Runs the bulk pipeline over `inputs` into one Parquet file on `out`, in input order: each
    /// pipeline batch (at most [`ParquetOptions::row_group_records`] records and
    /// [`ParquetOptions::row_group_bytes`] of bodies) is parsed, built and encoded into one row
    /// group on a worker; this thread appends the row groups in order. `cfg`'s batch sizes are
    /// replaced by those bounds, and its byte budget is raised to hold two batches per worker
    /// plus two, so the workers never wait on each other.
    pub fn write_parquet<W: Write + Send>(
        inputs: Vec<Input>,
        cfg: &Config,
        out: W,
        opts: ParquetOptions,
        progress: &mut dyn FnMut(Progress),
    ) -> io::Result<(Summary, W)> {
        use std::ops::ControlFlow;
        let layout = opts.layout;
        let mut cfg = cfg.clone();
        cfg.batch_records = opts.row_group_records.max(1);
        cfg.batch_bytes = opts.row_group_bytes.max(1);
        let batches = 2 * cfg.threads.max(1) + 2;
        cfg.max_bytes_in_flight =
            cfg.max_bytes_in_flight.max(batches.saturating_mul(cfg.batch_bytes));
        let mut sink = ParquetSink::new(out, opts)?;
        let encoder = sink.encoder();
        let mut consume = |batch: &mut ParquetBatch| -> io::Result<ControlFlow<()>> {
            if let Some(group) = batch.group.take() {
                sink.write_row_group(group?)?;
            }
            Ok(ControlFlow::Continue(()))
        };
        let make_step = || ParquetStep::new(layout, encoder.clone());
        let summary = run_with(inputs, &cfg, make_step, &mut consume, progress)?;
        Ok((summary, sink.close()?))
    }
}
