//! `--format parquet`: the Parquet settings of the flags. The run itself is
//! `feedmill::bulk::write_parquet_files`: row groups built and encoded on the workers that
//! parsed their records, one writer on the ordered side appending them in input order.

use feedmill::columnar::parquet::{Codec, ParquetOptions};
use feedmill::columnar::Layout;

use crate::{CompressionArg, LayoutArg};

/// The Parquet options of `--layout`, `--compression` and the hidden column limit.
pub fn options(
    layout: LayoutArg,
    compression: CompressionArg,
    column_limit: Option<usize>,
) -> ParquetOptions {
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
    let mut opts = ParquetOptions { layout, codec, ..Default::default() };
    if let Some(limit) = column_limit {
        opts.column_limit = limit;
    }
    opts
}
