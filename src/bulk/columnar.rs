//! Columnar outputs of a run, the glue between the pipeline and [`crate::columnar`]: a
//! Parquet file whose row groups are built and encoded on the workers ([`write_parquet`]).

#[cfg(feature = "parquet")]
pub use parquet::{write_parquet, write_parquet_files};

/// The Parquet file of a run.
#[cfg(feature = "parquet")]
mod parquet {
    use std::io::{self, Write};

    use crate::bulk::archive::Input;
    use crate::bulk::config::Config;
    use crate::bulk::pipeline::{run_cut, Batch, Cuts, Step};
    use crate::bulk::summary::{Progress, Summary};
    use crate::columnar::parquet::{ParquetOptions, ParquetSink, RowGroup, RowGroupEncoder};
    use crate::columnar::{Layout, RecordBatchBuilder};
    use crate::record::RecordView;

    /// The bulk pipeline's batch for Parquet output: the row groups its records became,
    /// encoded on the worker ([`ParquetStep`]), and the builder of the rows not encoded yet.
    ///
    /// A batch's records make one row group, or several when their Arrow rows pass
    /// [`ParquetOptions::row_group_held_bytes`] or a record would take a column past
    /// [`ParquetOptions::column_limit`]. The builder lives in the batch so that a record
    /// whose processing panicked part way is undone ([`Batch::rollback`]) and becomes its
    /// `internal` error record, as with JSON Lines.
    #[derive(Default)]
    pub(crate) struct ParquetBatch {
        groups: Vec<RowGroup>,
        builder: Option<RecordBatchBuilder>,
        /// Rows already encoded into `groups`.
        encoded_rows: usize,
        /// An encoding failure not confined to one record (a bug): the run stops with it.
        error: Option<io::Error>,
    }

    impl Batch for ParquetBatch {
        fn clear(&mut self) {
            self.groups.clear();
            self.encoded_rows = 0;
            self.error = None;
            if let Some(b) = &mut self.builder {
                b.truncate(0);
            }
        }
        fn held_bytes(&self) -> usize {
            let groups: usize = self.groups.iter().map(RowGroup::held_bytes).sum();
            groups + self.builder.as_ref().map_or(0, RecordBatchBuilder::held_bytes)
        }
        fn mark(&self) -> Option<usize> {
            Some(self.encoded_rows + self.builder.as_ref().map_or(0, RecordBatchBuilder::rows))
        }
        fn rollback(&mut self, mark: usize) {
            if let Some(b) = &mut self.builder {
                b.truncate(mark.saturating_sub(self.encoded_rows));
            }
        }
    }

    /// The per-worker step of [`write_parquet`]: appends each record to the batch's Arrow
    /// builder, encoding its rows into a row group whenever they take
    /// [`ParquetOptions::row_group_held_bytes`] or the next record does not fit, and at the
    /// end of the pipeline batch.
    pub(crate) struct ParquetStep {
        layout: Layout,
        encoder: RowGroupEncoder,
        column_limit: usize,
        held_max: usize,
        /// The worker's builder between batches: lent to each batch it processes (which
        /// holds it so that a record can be rolled back) and taken back empty at the batch's
        /// end, with the column buffers it keeps ([`RecordBatchBuilder::recycle`]): one
        /// builder per worker, not one per batch in flight.
        spare: Option<RecordBatchBuilder>,
    }

    impl ParquetStep {
        /// A worker's step building the rows `opts` says and encoding them with `encoder`.
        pub(crate) fn new(opts: &ParquetOptions, encoder: RowGroupEncoder) -> Self {
            ParquetStep {
                layout: opts.layout,
                encoder,
                column_limit: opts.column_limit,
                held_max: opts.row_group_held_bytes.max(1),
                spare: None,
            }
        }

        /// Encodes the rows built so far into the batch's next row group(s).
        fn flush(&mut self, batch: &mut ParquetBatch) {
            let ParquetBatch { groups, builder: Some(b), encoded_rows, error } = batch else {
                return;
            };
            let rows = b.rows();
            if let Err(e) = self.encoder.encode_builder(b, groups) {
                error.get_or_insert(e);
            }
            *encoded_rows += rows;
        }
    }

    impl Step<ParquetBatch> for ParquetStep {
        fn record(&mut self, rec: &RecordView<'_, '_>, batch: &mut ParquetBatch) {
            let (layout, limit) = (self.layout, self.column_limit);
            let new = || RecordBatchBuilder::new(layout).with_column_limit(limit);
            if batch.builder.is_none() {
                batch.builder = self.spare.take();
            }
            let b = batch.builder.get_or_insert_with(new);
            if let Err(why) = b.append_checked(rec) {
                // Not beside the rows built so far: they become a row group, and the record
                // starts the next; one that does not fit alone is its error record.
                let why = if b.records() > 0 {
                    self.flush(batch);
                    let b = batch.builder.get_or_insert_with(new);
                    b.append_checked(rec).err()
                } else {
                    Some(why)
                };
                if let Some(why) = why {
                    batch.builder.get_or_insert_with(new).append_too_large(rec, why);
                }
            }
            if batch.builder.as_ref().is_some_and(|b| b.rows_bytes() >= self.held_max) {
                self.flush(batch);
            }
        }
        fn end_batch(&mut self, batch: &mut ParquetBatch) {
            self.flush(batch);
            // Every row is encoded: the builder is empty.
            if let Some(b) = batch.builder.take().filter(|b| b.rows() == 0) {
                self.spare = Some(b);
            }
        }
    }

    /// Runs the bulk pipeline over `inputs` into one Parquet file on `out`, in input order: each
    /// pipeline batch (at most [`ParquetOptions::row_group_records`] records and
    /// [`ParquetOptions::row_group_bytes`] of bodies) is parsed, built and encoded into row
    /// groups on a worker (one, or several when its rows pass
    /// [`ParquetOptions::row_group_held_bytes`] or a column would pass
    /// [`ParquetOptions::column_limit`]); this thread appends the row groups in order. `cfg`'s
    /// batch sizes are replaced by those bounds, and its byte budget is raised to hold one
    /// batch per worker plus one (24 MiB at two threads with the default 8 MiB batches).
    ///
    /// Where a row group ends is a function of the records alone (their order, bytes and
    /// rows) and of `opts`: the same file for any [`Config::threads`] and any
    /// [`Config::max_bytes_in_flight`]. Batches are cut by records and bytes only, never by
    /// the memory their records hold (a pending batch holding too much has its records
    /// copied out of shared buffers instead). One exception: with more than one reader
    /// ([`Config::readers`] set above 1; left at 0, a Parquet run uses one), each reader's
    /// chunk of the inputs also ends a row group.
    ///
    /// A record whose rows cannot be written (alone past the column limit, or refused by the
    /// encoder) is its `output_too_large` / `output_error` error record in the file. When
    /// [`Config::stop`] is set, the file is closed after the row groups of the batch being
    /// written: a valid file of the records before. An `Err` is an output failure (or a
    /// bug, [`crate::bulk::Panicked`]); the file is then incomplete.
    pub fn write_parquet<W: Write + Send>(
        inputs: Vec<Input>,
        cfg: &Config,
        out: W,
        opts: ParquetOptions,
        progress: &mut dyn FnMut(Progress),
    ) -> io::Result<(Summary, W)> {
        let mut out = Some(out);
        let mut closed = None;
        let summary = write_parquet_files(
            inputs,
            cfg,
            opts,
            u64::MAX,
            &mut |_| out.take().ok_or_else(|| io::Error::other("one file only")),
            &mut |_, w| {
                closed = Some(w);
                Ok(())
            },
            progress,
        )?;
        let out = closed.ok_or_else(|| io::Error::other("the file was not closed"))?;
        Ok((summary, out))
    }

    /// The in-flight budget of a Parquet run with `cfg`'s threads and batch bytes (the row
    /// group's input bytes): `cfg`'s own, raised to `threads + 1` batches so that each
    /// worker has a batch and the reader fills the next. NOTE: 48 MiB at `-j2` (two batches
    /// per worker plus two) peaked at 140–151 MiB RSS on the corpus ×10 WARC.gz; 24 MiB (with
    /// the records' buffers freed as soon as their batch is processed) at 115–125 MiB for
    /// the same CPU; 16 MiB would leave one worker without a batch of 8 MiB
    /// (`perf/runs/2026-11-29-parquet-rowgroups/`). The budget does not move row groups.
    fn parquet_budget(cfg: &Config) -> usize {
        let batches = cfg.threads.max(1) + 1;
        cfg.max_bytes_in_flight.max(batches.saturating_mul(cfg.batch_bytes))
    }

    /// [`write_parquet`] into a sequence of Parquet files, each valid on its own: `open(i)`
    /// gives file `i` (from 0), `close(i, w)` receives it complete (its footer written), once
    /// it holds at least `max_file_bytes` (at the end of a pipeline batch: a file is at most
    /// that plus one batch's row groups) or at the end of the run. File 0 is opened first,
    /// so a run without records still makes one (a file with the schema and no rows); a
    /// later file is opened only when there are rows for it. Records are in input order
    /// across the files.
    ///
    /// On an `Err` (an output failure, a bug) the file being written is dropped unclosed;
    /// the files closed before are complete. When [`Config::stop`] is set, the file being
    /// written is closed after the batch being written.
    pub fn write_parquet_files<W: Write + Send>(
        inputs: Vec<Input>,
        cfg: &Config,
        opts: ParquetOptions,
        max_file_bytes: u64,
        open: &mut dyn FnMut(usize) -> io::Result<W>,
        close: &mut dyn FnMut(usize, W) -> io::Result<()>,
        progress: &mut dyn FnMut(Progress),
    ) -> io::Result<Summary> {
        use std::ops::ControlFlow;
        let mut cfg = cfg.clone();
        cfg.batch_records = opts.row_group_records.max(1);
        cfg.batch_bytes = opts.row_group_bytes.max(1);
        cfg.max_bytes_in_flight = parquet_budget(&cfg);
        // NOTE: one reader, so that the readers' chunks of the inputs do not end row groups
        // (a Parquet record costs about twice a JSON line's work, so one reader feeds about
        // twice the workers it feeds for JSON Lines).
        if cfg.readers == 0 {
            cfg.readers = 1;
        }
        let first = ParquetSink::new(open(0)?, opts.clone())?;
        let encoder = first.encoder();
        let mut sink = Some(first);
        let mut index = 0;
        let mut consume = |batch: &mut ParquetBatch| -> io::Result<ControlFlow<()>> {
            if let Some(e) = batch.error.take() {
                return Err(e);
            }
            if batch.groups.is_empty() {
                return Ok(ControlFlow::Continue(()));
            }
            let file = match &mut sink {
                Some(file) => file,
                None => {
                    index += 1;
                    sink.insert(ParquetSink::new(open(index)?, opts.clone())?)
                }
            };
            for group in batch.groups.drain(..) {
                file.write_row_group(group)?;
            }
            if file.bytes_written() as u64 >= max_file_bytes {
                if let Some(file) = sink.take() {
                    close(index, file.close()?)?;
                }
            }
            Ok(ControlFlow::Continue(()))
        };
        let make_step = || ParquetStep::new(&opts, encoder.clone());
        let summary = run_cut(inputs, &cfg, Cuts::Fixed, make_step, &mut consume, progress)?;
        if let Some(file) = sink {
            close(index, file.close()?)?;
        }
        Ok(summary)
    }
}
