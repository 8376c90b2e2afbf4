//! `feedmill`: bulk feed re-processing from the command line. Glue only: arguments,
//! output, progress bar and summary; the work is in `feedmill::bulk` and `feedmill::sink`.

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser as _;
use feedmill::bulk::{self, input, Config, Input, Summary};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The sample processed when no input is given: the real-feed corpus shipped in the
/// repository, found through the crate directory at build time.
const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/real");

#[derive(clap::Parser, Debug)]
#[command(
    name = "feedmill",
    version,
    about = "Re-process feed archives (RSS/Atom) into JSON Lines: one record per input record",
    after_help = "\
INPUTS:
  Files and directories (walked recursively, in name order), `-` for standard input,
  gzip files, tar and tar.gz archives, WARC and WARC.gz files (one gzip member per record).
  Formats are recognized by their first bytes, not by file name. WARC `response` records
  are processed as HTTP responses (status, Content-Type charset, target URI as base URL,
  chunked and gzip/deflate decoded); other WARC record types are skipped and counted.
  With no input, the sample corpus shipped with the source is processed:
  <crate>/corpus/real (the main-job command is `cargo run --release -- corpus/real`).

OUTPUT:
  One JSON object per line per input record, in input order whatever --threads is:
  source, status (ok | not_a_feed | error), error {kind, message}, format, encoding,
  diagnostics [{kind, offset, message}], feed {...}. Null and empty values are omitted.

EXIT STATUS:
  0 the run completed (even if some records are errors), 1 fatal I/O error (output),
  2 usage error. A closed output pipe (e.g. `| head`) ends the run quietly with 0.

EXAMPLES:
  feedmill corpus/real > feeds.jsonl
  feedmill --summary -o out.jsonl crawl-00001.warc.gz crawl-00002.warc.gz
  feedmill --threads 1 feeds.tar.gz | jq -c 'select(.status == \"ok\") | .feed.title'
  curl -s https://example.org/feed.xml | feedmill --base-url https://example.org/feed.xml -
  feedmill dir/ | head -n 5"
)]
struct Cli {
    /// Files, directories, archives, or `-` for standard input.
    #[arg(value_name = "INPUT")]
    inputs: Vec<String>,

    /// Write the records to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,

    /// Worker threads [default: number of CPUs].
    #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,

    /// Base URL for plain documents (WARC records use their target URI).
    #[arg(long, value_name = "URL")]
    base_url: Option<String>,

    /// No progress bar.
    #[arg(short, long)]
    quiet: bool,

    /// Print a summary on standard error at the end (always printed with the progress bar).
    #[arg(long)]
    summary: bool,

    /// Records processed per parallel window (memory bound).
    #[arg(long, value_name = "N", default_value_t = 1024, hide = true)]
    window: usize,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let inputs: Vec<Input> = if cli.inputs.is_empty() {
        vec![Input::Path(PathBuf::from(SAMPLE))]
    } else {
        cli.inputs.iter().map(|a| Input::parse(a)).collect()
    };
    let mut cfg = Config {
        base_url: cli.base_url.clone(),
        window_records: cli.window.max(1),
        ..Config::default()
    };
    if let Some(t) = cli.threads {
        cfg.threads = t.into();
    }

    let out: Box<dyn Write + Send> = match &cli.output {
        Some(path) => match File::create(path) {
            Ok(f) => Box::new(BufWriter::with_capacity(1 << 20, f)),
            Err(e) => {
                eprintln!("feedmill: cannot create {}: {e}", path.display());
                return ExitCode::from(1);
            }
        },
        None => Box::new(BufWriter::with_capacity(1 << 20, io::stdout())),
    };

    let interactive = io::stderr().is_terminal() && !cli.quiet;
    let bar = interactive.then(|| progress_bar(input::total_size(&inputs)));
    let mut on_progress = |p: bulk::Progress| {
        if let Some(bar) = &bar {
            bar.set_position(p.input_bytes);
            bar.set_message(format!("{} records", p.records));
        }
    };

    let result = bulk::run(inputs, &cfg, out, &mut on_progress);
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    match result {
        Ok(summary) => {
            if cli.summary || interactive {
                print_summary(&summary);
            }
            ExitCode::SUCCESS
        }
        // `| head` closed the pipe: the reader wanted no more, which is not a failure.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("feedmill: error writing output: {e}");
            ExitCode::from(1)
        }
    }
}

fn progress_bar(total: Option<u64>) -> indicatif::ProgressBar {
    let bar = match total {
        Some(t) => indicatif::ProgressBar::new(t),
        None => indicatif::ProgressBar::new_spinner(),
    };
    let template = if total.is_some() {
        "{bar:30} {bytes}/{total_bytes} {binary_bytes_per_sec} {msg} ETA {eta}"
    } else {
        "{spinner} {bytes} {binary_bytes_per_sec} {msg}"
    };
    if let Ok(style) = indicatif::ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar
}

fn print_summary(s: &Summary) {
    let secs = s.elapsed.as_secs_f64().max(1e-9);
    let mb = s.input_bytes as f64 / 1e6;
    let st = &s.stats;
    eprintln!(
        "feedmill: {} records (ok {}, not_a_feed {}, error {}), {} entries, {} WARC records skipped; \
         {:.1} MB read ({:.1} MB of bodies) in {:.2} s = {:.1} MB/s, {:.0} records/s",
        st.records,
        st.ok,
        st.not_a_feed,
        st.error,
        st.entries,
        s.skipped_records,
        mb,
        st.body_bytes as f64 / 1e6,
        secs,
        mb / secs,
        st.records as f64 / secs
    );
}
