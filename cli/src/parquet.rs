//! `--format parquet`: the Parquet settings of the flags. The run itself is
//! `feedmill::bulk::write_parquet_files`: row groups built and encoded on the workers that
//! parsed their records, one writer on the ordered side appending them in input order.
//! Also the allocator settings of a Parquet run ([`fix_malloc_thresholds`]).

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

/// Bytes from which glibc's malloc serves an allocation with its own mapping, for a Parquet
/// run ([`fix_malloc_thresholds`]).
const MMAP_THRESHOLD: i32 = 1 << 20;

/// Free bytes at the top of a malloc heap that glibc keeps instead of returning them to the
/// system, for a Parquet run ([`fix_malloc_thresholds`]). Fixing the mmap threshold also fixes
/// this one at its default, 128 KiB: a worker's page and compression buffers, freed and
/// grown again between row groups, were handed back and faulted in again. At 8 MiB the
/// corpus ×10 `-j2` job takes ~63,000 minor faults instead of ~69,000, at the same peak
/// (perf/runs/2026-11-30T0104Z-e2e).
const TRIM_THRESHOLD: i32 = 8 << 20;

/// Fixes glibc malloc's mmap threshold at [`MMAP_THRESHOLD`] and its trim threshold at
/// [`TRIM_THRESHOLD`] for the rest of the process.
/// Call it before a Parquet run starts its workers; a JSON Lines run keeps the default.
///
/// By default glibc raises the threshold to the largest mapped block freed so far (up to
/// 32 MiB): once the first multi-MiB buffer of a Parquet run is freed (an inflated gzip
/// range, an Arrow column, an encoded page), the next ones come from the threads' arenas,
/// which then keep the freed memory, fragmented. The peak RSS of `-j2` over the corpus ×10
/// WARC.gz scattered between 164 and 380 MiB from run to run; with the threshold fixed it is
/// 144–160 MiB, for about 0.1 s more system time (page faults of fresh mappings) in a 1.4 s
/// job (perf/runs/2026-11-29-parquet-goal). A JSON Lines run keeps glibc's default: it holds
/// a third of the buffers in flight, peaks at 57–60 MiB with the default, and the fixed
/// threshold would save 9 MiB of that for 4 % more CPU. Elsewhere than glibc this does nothing.
pub fn fix_malloc_thresholds() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only sets a malloc parameter; it takes malloc's own lock, so it is
    // sound whatever other threads allocate. A refusal (0) leaves glibc's default: the run is
    // the same, only its peak memory differs.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
        libc::mallopt(libc::M_TRIM_THRESHOLD, TRIM_THRESHOLD);
    }
}
