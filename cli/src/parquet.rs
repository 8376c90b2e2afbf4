//! `--format parquet`: the bulk pipeline with one Parquet row group per pipeline batch, built
//! and encoded on the worker that parsed its records (`bulk::write_parquet`), and
//! one writer on the ordered side appending the row groups in input order.

use std::io::{self, Write};

use feedmill::bulk::{write_parquet, Config, Input, Progress, Summary};
use feedmill::columnar::parquet::{Codec, ParquetOptions};
use feedmill::columnar::Layout;

use crate::{CompressionArg, LayoutArg};

pub fn run(
    inputs: Vec<Input>,
    cfg: &Config,
    out: Box<dyn Write + Send>,
    layout: LayoutArg,
    compression: CompressionArg,
    progress: &mut dyn FnMut(Progress),
) -> io::Result<Summary> {
    let layout = match layout {
        LayoutArg::Records => Layout::Records,
        LayoutArg::Entries => Layout::Entries,
    };
    let codec = match compression {
        CompressionArg::Snappy => Codec::Snappy,
        CompressionArg::Lz4 => Codec::Lz4,
        CompressionArg::Zstd => Codec::Zstd,
        CompressionArg::None => Codec::None,
    };
    let opts = ParquetOptions { layout, codec, ..Default::default() };
    let (summary, mut out) = write_parquet(inputs, cfg, out, opts, progress)?;
    out.flush()?;
    Ok(summary)
}
