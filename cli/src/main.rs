//! `feedmill`: bulk feed re-processing from the command line. Glue only: arguments,
//! output, progress bar and summary; the work is in `feedmill::bulk` and `feedmill::sink`.

use std::ffi::OsString;
use std::io::{self, IsTerminal};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory as _, Parser as _};
use feedmill::bulk::{self, Config, Input, Summary};
use feedmill::extract::ExtractOptions;
use feedmill::sanitize::SanitizeOptions;
use limits::LimitArgs;
use output::{Out, Signals, Target};

mod discover;
mod limits;
mod lint;
mod output;
mod parquet;

/// The sample processed when no input is given and the binary runs from a source checkout:
/// the real-feed corpus shipped in the repository, found through the workspace directory at
/// build time. An installed binary has no such directory and asks for an input instead.
const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/real");

#[derive(clap::Parser, Debug)]
#[command(
    name = "feedmill",
    version,
    args_conflicts_with_subcommands = true,
    disable_help_subcommand = true,
    about = "Re-process feed archives (RSS/Atom) into JSON Lines: one record per input record",
    after_help = "\
INPUTS:
  Files and directories (walked recursively, in name order), `-` for standard input,
  gzip and zstd files, tar and tar.gz archives, WARC, WARC.gz and WARC.zst files (a gzip
  member or zstd frame per record; a zstd dictionary in a skippable frame is used), ARC and
  ARC.gz files. Formats are recognized by their first bytes, not by file name, wherever they
  are: an archive stored in a tar (a WARC, WARC.gz, tar or tar.gz member) is read as one, its
  records named under the member; a zip file is one `unsupported_archive` error record (not
  read), never a document. WARC `response` and ARC records are processed as HTTP responses
  (status, Content-Type charset, target URI as base URL, chunked and gzip/deflate/br/zstd
  decoded), `resource` records as responses without HTTP; a `revisit` record is one record of
  status `revisit` with its original's feed when that was read earlier in the run and is
  still remembered and within the expansion limit (see --revisit-memory and
  --revisit-expansion); other record types are skipped and counted, by type, in the
  summary. Records of archives carry a `capture` object (record_type, date,
  target_uri, record_id, payload_digest, http_status, content_type, truncated, refers_to).
  With no input, a binary built from a source checkout processes the sample corpus shipped
  with it (corpus/real; the main-job command is `cargo run --release -- corpus/real`); an
  installed binary reports a usage error.
  An input that cannot be read (missing, not openable) is an error record naming it and
  the run goes on with the others.

NAMES:
  A record's source is the input as named (`path`), `archive!member` for a tar member,
  `path@offset target-uri` for a WARC record (offset: of its gzip member, `offset+n` for a
  record n bytes into a member; a target URI over 1 KiB is cut there, marked `…`), nested
  as read (`outer.tar!inner.warc.gz@1234 uri`). File and member names are written as UTF-8,
  except that a byte that is not UTF-8 is written \\xNN (two hex digits) and a backslash
  \\\\, so two different names never give the same source.

OUTPUT:
  One JSON object per line per input record, in input order whatever --threads is:
  source, status (ok | not_a_feed | error), error {kind, message}, format, encoding,
  diagnostics [{kind, offset, message}], feed {...}. Null and empty values are omitted.
  Fields beyond the spec's model (id, language, itunes, podcast, ...) are always written;
  --extract adds *_text, title_source, body_*, word_count, canonical_url, dedup_*, image_*,
  categories_normalized and date_flags keys.
  Text values are strings with a parallel <name>_type key (text | html).
  --format parquet (or -o FILE.parquet): the same records as one Parquet file with a fixed
  Arrow schema (README: Arrow / Parquet schema); --layout entries: one row per entry.
  -o DIR/ (a trailing slash, or an existing directory): part files part-00000.parquet, …
  (part-00000.jsonl, … with --format jsonl), each closed at --max-file-bytes (default
  128 MiB) and valid on its own, records in input order across them.
  A file is written under a temporary name in its directory (.NAME.XXXXXX.tmp) and renamed
  when complete: a failed run leaves no partial file. An output that is one of the inputs
  (the same file, by device and inode), or inside an input directory (also by a symbolic
  link the walk follows), is a usage error.

THREADS:
  --threads N worker threads do the CPU work: inflating WARC.gz members, decoding, parsing,
  writing records. Reader threads (--readers, default one per 8 workers) only read inputs
  and cut them into records; with several, input files are read at once (the output order
  is unchanged). --threads 1 with one reader runs on one thread alone: it reads, processes
  and writes in turn (the least CPU per record; no reading or writing beside the work).

SUBCOMMANDS:
  feedmill discover [INPUT...]   feeds advertised by HTML pages (one JSON line per page).
  A first positional `discover` is the subcommand; to process a file or directory named
  `discover`, write it as `./discover`.

EXIT STATUS:
  0 the run completed (even if some records are errors), 1 an input does not exist (it
  still gets its error record) or a fatal output error, 2 usage error. A closed output
  pipe (e.g. `| head`) ends the run quietly with 0, whatever the format. SIGINT or SIGTERM
  ends the run after the batch being written: the output is closed validly (whole lines, a
  Parquet file with its footer) and holds the records before; exit 130 (SIGINT) or 143
  (SIGTERM). A second signal ends the process at once.

EXAMPLES:
  feedmill corpus/real > feeds.jsonl
  feedmill --summary -o out.jsonl crawl-00001.warc.gz crawl-00002.warc.gz
  feedmill --threads 1 feeds.tar.gz | jq -c 'select(.status == \"ok\") | .feed.title'
  curl -s https://example.org/feed.xml | feedmill --base-url https://example.org/feed.xml -
  feedmill dir/ | head -n 5
  feedmill --extract --sanitize strict crawl.warc.gz > records.jsonl
  feedmill --extract -o records.parquet crawl-*.warc.gz
  feedmill --layout entries -o entries.parquet crawl.warc.gz
  feedmill --max-file-bytes 256MiB -o records/ crawl-*.warc.gz
  feedmill discover --base-url https://blog.example/ page.html"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,

    /// Files, directories, archives, or `-` for standard input.
    #[arg(value_name = "INPUT")]
    inputs: Vec<OsString>,

    /// Write the records to FILE instead of standard output (`-`: standard output), or to
    /// part files in DIR/ (a trailing slash, or an existing directory). Never an input.
    #[arg(short, long, value_name = "FILE|DIR/")]
    output: Option<PathBuf>,

    /// With -o DIR/: close a part file once it holds this many bytes (at the end of the
    /// batch that reached it) and start the next; a number of bytes, or with a KiB, MiB or
    /// GiB suffix [default: 128MiB].
    #[arg(long, value_name = "BYTES", value_parser = parse_bytes)]
    max_file_bytes: Option<u64>,

    /// Worker threads: all the CPU work (inflating, parsing, writing records)
    /// [default: number of CPUs]. At most 1024. With 1 (and one reader), one thread does
    /// everything.
    #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,

    /// Reader threads: read several input files at once (output still in input order)
    /// [default: one per 8 worker threads]. At most 256.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    readers: Option<u16>,

    /// Bytes each reader spends remembering WARC response and resource records, so that a
    /// `revisit` record read after its original is processed with the original's content
    /// (the oldest forgotten first): peak memory grows by up to this much. A record of an
    /// input file costs its name and ids (about 200 bytes; its content is read again from the
    /// file when a revisit names it); one read from standard input or a tar member also costs
    /// its content, copied. A number of bytes, or with a KiB, MiB or GiB suffix; 0 remembers
    /// none [default: 16MiB].
    #[arg(long, value_name = "BYTES", value_parser = parse_size_or_zero)]
    revisit_memory: Option<u64>,

    /// Revisits are given their originals' content while the bytes so given stay within N
    /// times the bytes of the response, resource and revisit records read (originals and
    /// revisits included); a revisit past that is a record with the error
    /// `revisit_limit_reached`, without its feed. Bounds the output of one large original
    /// and many small revisits of it. 0 gives no revisit its original [default: 64].
    #[arg(long, value_name = "N")]
    revisit_expansion: Option<u32>,

    /// Base URL for plain documents (WARC records use their target URI).
    #[arg(long, value_name = "URL")]
    base_url: Option<String>,

    /// No progress bar.
    #[arg(short, long)]
    quiet: bool,

    /// Print a summary on standard error at the end (always printed with the progress bar).
    #[arg(long)]
    summary: bool,

    /// Add extraction keys to each feed and entry: plain text of every text value
    /// (*_text; an entry without a title gets one from its body, title_source), the best
    /// body (body_source, body_text, word_count), canonical_url, dedup_key and
    /// dedup_source, one image (image_url, image_source, image_width, image_height),
    /// categories_normalized and date_flags.
    #[arg(long)]
    extract: bool,

    /// With --extract: the instant entry dates are `future` after (by more than a day) for
    /// records without a capture date: RFC 3339 (`2026-11-28T12:00:00Z`) or a W3C-DTF date
    /// (`2026-11-28`, midnight UTC). Default: the time the run starts.
    #[arg(long, value_name = "DATE", value_parser = parse_as_of)]
    as_of: Option<feedmill::Timestamp>,

    /// HTML sanitizing of {"html": ...} values: `spec` (the spec's own sanitizing only) or
    /// `strict` (also remove scripts, styles, frames, event handlers and unsafe URLs;
    /// resolve relative URLs against the record's URL).
    #[arg(long, value_enum, value_name = "MODE", default_value_t = SanitizeMode::Spec)]
    sanitize: SanitizeMode,

    /// With --sanitize strict: keep YouTube and Vimeo player iframes.
    #[arg(long)]
    allow_video_embeds: bool,

    /// Turn every web recovery rule off: exactly the spec's values (no `recovered` or
    /// `encoding_guessed` diagnostics).
    #[arg(long)]
    spec_exact: bool,

    /// `all` (default): keep every element no table reads, with its content, on its feed or
    /// entry (`extensions`, within the `--max-extension-*` limits; --spec-exact keeps them
    /// too); `none`: skip them.
    #[arg(long, value_enum, value_name = "WHICH", default_value_t = ExtensionsArg::All)]
    extensions: ExtensionsArg,

    /// One flag per limit (`--max-depth`, …; `feedmill::Limits::ALL`).
    #[command(flatten)]
    limits: LimitArgs,

    /// Lint RSS 2.0 documents against the RSS Best Practices Profile, Atom 1.0 documents
    /// against RFC 4287 (iTunes and Media RSS elements too) and JSON Feed documents against
    /// JSON Feed 1.1 in the same pass: a record with findings gets a `findings` key (after its
    /// other keys).
    #[arg(long)]
    lint: bool,

    /// Output format [default: parquet when -o ends in .parquet or is a directory, else
    /// jsonl].
    #[arg(long, value_enum, value_name = "FORMAT")]
    format: Option<OutputFormat>,

    /// Parquet rows: `records` (one per input record, entries nested in feed.entries) or
    /// `entries` (one per entry, with its feed's key columns).
    #[arg(long, value_enum, value_name = "LAYOUT", default_value_t = LayoutArg::Records)]
    layout: LayoutArg,

    /// Parquet page compression: `snappy`, `lz4` (LZ4_RAW), `zstd` (level 1) or `none`.
    #[arg(long, value_enum, value_name = "CODEC", default_value_t = CompressionArg::Snappy)]
    compression: CompressionArg,

    /// Test knob: bytes of one string column's values in one Parquet row group at most
    /// (default and most 2147483647, Arrow's 32-bit offsets). A smaller value makes the row
    /// group cut and the `output_too_large` error record testable on small inputs.
    #[arg(long, value_name = "BYTES", hide = true)]
    parquet_column_limit: Option<usize>,
}

/// A date for `--as-of`: RFC 3339, or W3C-DTF (`2026-11-28`).
fn parse_as_of(s: &str) -> Result<feedmill::Timestamp, String> {
    feedmill::model::date::parse_rfc3339(s)
        .or_else(|| feedmill::model::date::parse_w3cdtf(s))
        .ok_or_else(|| format!("not an RFC 3339 or W3C-DTF date: {s:?}"))
}

/// A size in bytes as [`parse_bytes`] reads it, or 0.
fn parse_size_or_zero(s: &str) -> Result<u64, String> {
    if s.trim() == "0" {
        return Ok(0);
    }
    parse_bytes(s)
}

/// A size in bytes: a number, or one with a `KiB`, `MiB` or `GiB` suffix (`K`, `M`, `G`
/// too). At least 1.
fn parse_bytes(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (n, unit) = t.split_at(split);
    let n: u64 = n.parse().map_err(|_| format!("{s:?} is not a number of bytes"))?;
    let shift = match unit.trim() {
        "" | "B" => 0,
        "k" | "K" | "KiB" => 10,
        "M" | "MiB" => 20,
        "G" | "GiB" => 30,
        _ => return Err(format!("{s:?}: the unit is KiB, MiB or GiB")),
    };
    match n.checked_mul(1 << shift) {
        Some(0) => Err("must be at least 1".into()),
        Some(v) => Ok(v),
        None => Err(format!("{s:?} is too large")),
    }
}

/// Part files close at this size by default (`--max-file-bytes`).
const MAX_FILE_BYTES: u64 = 128 << 20;

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum ExtensionsArg {
    All,
    None,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum OutputFormat {
    Jsonl,
    Parquet,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum LayoutArg {
    Records,
    Entries,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum CompressionArg {
    Snappy,
    Lz4,
    Zstd,
    None,
}

/// `lint --format`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum LintFormat {
    Jsonl,
    Parquet,
    Text,
    Sarif,
}

/// One `lint --deny` value: a severity (this one or worse) or a message class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Deny {
    Warnings,
    Errors,
    Code(feedmill::lint::Code),
}

/// `--deny` values: `errors`, `warnings` or message class names, comma-separated.
fn parse_deny(s: &str) -> Result<Vec<Deny>, String> {
    s.split(',')
        .map(|v| match v.trim() {
            "errors" | "error" => Ok(Deny::Errors),
            "warnings" | "warning" => Ok(Deny::Warnings),
            v => feedmill::lint::messages::ALL
                .iter()
                .find(|c| c.name() == v)
                .map(|&c| Deny::Code(c))
                .ok_or_else(|| {
                    format!(
                        "{v:?} is neither `errors`, `warnings` nor a message class the lint \
                         reports (MissingDescription, InvalidRFC2822Date, …: see `feedmill lint \
                         --help` and docs/lint.md)"
                    )
                }),
        })
        .collect()
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum SanitizeMode {
    Spec,
    Strict,
}

#[derive(clap::Subcommand, Debug)]
enum Command {
    /// Lint RSS 2.0 feeds against the RSS Best Practices Profile, Atom 1.0 feeds against RFC
    /// 4287 (iTunes and Media RSS elements too) and JSON Feeds against JSON Feed 1.1: one JSON
    /// line per record, a text report, or SARIF.
    ///
    /// Line: {source, status, error, format, version, findings [{code, severity, message,
    /// element, parent, attr, value, offset, line, column, section}], findings_dropped}
    /// (`error` only for a record not linted); `code` is the W3C Feed
    /// Validator's message class (JSON Feed: feedmill's, in its style). Findings are data: the exit status is the main command's
    /// unless --deny is given.
    #[command(after_help = "\
INPUTS:
  As for the main command (files, directories, tar, WARC, gzip, `-`); none: the sample corpus
  of a source checkout.

OUTPUT:
  One JSON line per record (jsonl), or with --format parquet (or -o FILE.parquet) the
  records as the main command's Parquet file with `--lint`: the records layout, each
  record with its `findings` column. -o DIR/ writes part files, as the main command does.
  --format text (or -o FILE.txt): per finding, `SOURCE:LINE:COLUMN: SEVERITY CODE: message`,
  the offending line (at most 160 bytes of it, control characters escaped) with a caret,
  and the rule's reference (Profile or RFC 4287 section; the Feed Validator's page for the
  code);
  records not linted get a `SOURCE: not linted (STATUS[: KIND]): MESSAGE` line. --format
  sarif (or -o FILE.sarif): one SARIF 2.1.0 log, one run, the message classes as rules, a
  result per finding at the record's source (percent-encoded) as artifact URI; records not
  linted are the invocation's tool execution notifications (the first 1000, then a count).

EXIT STATUS:
  As for the main command: 0; 1 when an input does not exist (it still gets its error
  record) or on an output error; 2 on a usage error (e.g. an invalid --base-url); 130 or 143
  after SIGINT or SIGTERM. With --deny errors, 3 when a record has an error finding; with
  --deny warnings, 3 when a record has a warning or error finding; with --deny CODE (a
  message class, e.g. MissingDescription), 3 when a record has a finding of that class.
  Values combine (--deny errors,MissingGuid or --deny given again): 3 when any applies
  (3 is returned even when an input does not exist).

EXAMPLES:
  feedmill lint --format text feed.xml
  feedmill lint --format sarif -o feedmill.sarif feeds/
  feedmill lint --summary --deny errors,ImplausibleDate crawl-00001.warc.gz > findings.jsonl")]
    Lint {
        /// Files, directories, archives, or `-` for standard input.
        #[arg(value_name = "INPUT")]
        inputs: Vec<OsString>,

        /// Write the lines to FILE instead of standard output (`-`: standard output), or to
        /// part files in DIR/. Never an input.
        #[arg(short, long, value_name = "FILE|DIR/")]
        output: Option<PathBuf>,

        /// Output format [default: by -o's extension (.parquet, .sarif, .txt) or parquet for a
        /// directory, else jsonl].
        #[arg(long, value_enum, value_name = "FORMAT")]
        format: Option<LintFormat>,

        /// With -o DIR/: close a part file once it holds this many bytes [default: 128MiB].
        #[arg(long, value_name = "BYTES", value_parser = parse_bytes)]
        max_file_bytes: Option<u64>,

        /// Worker threads [default: number of CPUs].
        #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
        threads: Option<u16>,

        /// Base URL for plain documents (WARC records use their target URI).
        #[arg(long, value_name = "URL")]
        base_url: Option<String>,

        /// Print a table of codes × findings and feeds affected on standard error at the end.
        #[arg(long)]
        summary: bool,

        /// Exit with status 3 when a record has a finding of this severity or worse
        /// (`errors`, `warnings`) or of this message class (`MissingGuid`); comma-separated,
        /// repeatable.
        #[arg(long, value_name = "SEVERITY|CODE", value_parser = parse_deny, action = clap::ArgAction::Append)]
        deny: Vec<Vec<Deny>>,

        /// One flag per limit, as for the main command.
        #[command(flatten)]
        limits: LimitArgs,
    },

    /// Print the feeds HTML pages advertise, one JSON line per page (fetches nothing).
    ///
    /// Feeds: <link rel="alternate"> RSS/Atom/RDF/JSON Feed links, then feed-looking anchors,
    /// resolved against the page URL (or its <base href>); candidates: the conventional feed
    /// paths of the site. Line: {source, page_url, feeds [{url, type, title, found_by (link |
    /// anchor)}], candidates [url], skipped_links}; skipped_links (only when not 0) counts
    /// links left out because their URL would be over 32 KiB or the page's links would add
    /// more than 8 times the page's length of URL text.
    #[command(after_help = "\
INPUTS:
  As for the main command. A plain file is one HTML page whose URL is --base-url (without it,
  only absolute links are found and there are no candidates). WARC `response` records with
  status 200 and an HTML body are pages at their target URI; other records are skipped.
  Pages are decoded as browsers do: byte order mark, the response's Content-Type charset,
  <meta charset> or <meta http-equiv=Content-Type> in the first 1024 bytes, then detection.

EXAMPLES:
  feedmill discover --base-url https://blog.example/ index.html
  feedmill discover crawl-00001.warc.gz | jq -c 'select(.feeds != []) | .feeds[].url'")]
    Discover {
        /// HTML files, directories, archives, or `-` for standard input.
        #[arg(value_name = "INPUT", required = true)]
        inputs: Vec<OsString>,

        /// The page URL of plain documents (WARC records use their target URI).
        #[arg(long, value_name = "URL")]
        base_url: Option<String>,

        /// Write the lines to FILE instead of standard output (`-`: standard output). Never
        /// an input.
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,

        /// Print counts (pages, feeds, skipped records, errors) and the most bytes of records
        /// read ahead at once (at most the larger of 16 MiB and the largest record) on
        /// standard error at the end.
        #[arg(long)]
        summary: bool,

        /// Largest page read, in bytes, as the main command's flag: a larger one is an
        /// error line (`too_large`) [default: the main command's, 256 MiB].
        #[arg(long, value_name = "BYTES")]
        max_input_bytes: Option<usize>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if cli.allow_video_embeds && cli.sanitize != SanitizeMode::Strict {
        usage_error(
            clap::error::ErrorKind::ArgumentConflict,
            "--allow-video-embeds requires --sanitize strict",
        );
    }
    if let Some(Command::Discover { inputs, base_url, output, summary, max_input_bytes }) =
        &cli.command
    {
        let max = max_input_bytes.unwrap_or(feedmill::Limits::default().max_input_bytes);
        return run_discover(inputs, base_url.as_deref(), output.as_ref(), *summary, max);
    }
    if let Some(Command::Lint {
        inputs,
        output,
        format,
        max_file_bytes,
        threads,
        base_url,
        summary,
        deny,
        limits,
    }) = &cli.command
    {
        let deny: Vec<Deny> = deny.iter().flatten().copied().collect();
        let by_ext =
            |e: &str| output.as_ref().is_some_and(|p| p.extension().is_some_and(|x| x == e));
        let style = match format {
            Some(LintFormat::Text) => Some(lint::Style::Text),
            Some(LintFormat::Sarif) => Some(lint::Style::Sarif),
            Some(_) => None,
            None if by_ext("sarif") => Some(lint::Style::Sarif),
            None if by_ext("txt") => Some(lint::Style::Text),
            None => None,
        };
        let format = match format {
            Some(LintFormat::Parquet) => Some(OutputFormat::Parquet),
            Some(_) => Some(OutputFormat::Jsonl),
            None => None,
        };
        let output = Output::of(output.as_ref(), format, *max_file_bytes);
        if style.is_some() && matches!(output.target, Target::Dir(_)) {
            usage_error(
                clap::error::ErrorKind::ArgumentConflict,
                "--format text and sarif write one file or standard output, not part files (-o DIR/)",
            );
        }
        let mut cfg = Config { base_url: base_url.clone(), lint_only: true, ..Config::default() };
        cfg.options.lint = Some(feedmill::lint::LintOptions::default());
        limits.apply(&mut cfg.options.limits);
        if let Some(t) = threads {
            cfg.threads = (*t).into();
        }
        return run_lint(inputs, &output, style, cfg, *summary, &deny);
    }
    let inputs = inputs_or_sample(&cli.inputs);
    let unreadable = match check_inputs(cli.base_url.as_deref(), &inputs) {
        Ok(unreadable) => unreadable,
        Err(code) => return code,
    };
    let mut cfg = Config { base_url: cli.base_url.clone(), ..Config::default() };
    if let Some(t) = cli.threads {
        cfg.threads = t.into();
    }
    if let Some(r) = cli.readers {
        cfg.readers = r.into();
    }
    if let Some(m) = cli.revisit_memory {
        cfg.revisit_memory = usize::try_from(m).unwrap_or(usize::MAX);
    }
    if let Some(n) = cli.revisit_expansion {
        cfg.revisit_expansion = n as usize;
    }
    cfg.options.spec_exact = cli.spec_exact;
    cfg.options.skip_extensions = cli.extensions == ExtensionsArg::None;
    cli.limits.apply(&mut cfg.options.limits);
    // `--max-url-growth` bounds every stage that resolves relative URLs: the parser's,
    // strict sanitizing's (per record) and extraction's body images (per feed).
    let max_url_growth = cfg.options.limits.max_url_growth;
    if cli.extract {
        // One reference instant for the whole run, so records do not depend on when in
        // the run they were written.
        let as_of = cli
            .as_of
            .or_else(|| feedmill::Timestamp::from_system_time(std::time::SystemTime::now()));
        cfg.extract = Some(ExtractOptions { as_of, max_url_growth, ..ExtractOptions::default() });
    }
    if cli.sanitize == SanitizeMode::Strict {
        cfg.sanitize = Some(SanitizeOptions {
            base_url: None,
            allow_video_embeds: cli.allow_video_embeds,
            max_url_growth,
        });
    }
    if cli.lint {
        cfg.options.lint = Some(feedmill::lint::LintOptions::default());
    }

    let mut output = Output::of(cli.output.as_ref(), cli.format, cli.max_file_bytes);
    output.parquet = parquet::options(cli.layout, cli.compression, cli.parquet_column_limit);
    if let Err(code) = output.check(&inputs) {
        return code;
    }
    let signals = Signals::install();
    cfg.stop = Some(signals.stop_flag());

    let interactive = io::stderr().is_terminal() && !cli.quiet;
    let bar = interactive.then(|| progress_bar(Input::total_size(&inputs)));
    let mut on_progress = |p: bulk::Progress| {
        if let Some(bar) = &bar {
            bar.set_position(p.input_bytes);
            bar.set_message(format!("{} records", p.records));
        }
    };
    let result = output.write(inputs, &cfg, &mut on_progress);
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    ended(result, &signals, |summary| {
        if cli.summary || interactive {
            print_summary(summary);
        }
        if unreadable {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        }
    })
}

/// Exits with a usage error (status 2) saying `message`.
fn usage_error(kind: clap::error::ErrorKind, message: impl std::fmt::Display) -> ! {
    Cli::command().error(kind, message).exit()
}

/// The exit status of a run that ended with `result`: `ok`'s for a completed run; after a
/// signal, the signal's (`ok` still prints its summary); 0 for a closed output pipe; 1 for
/// another error.
fn ended(
    result: io::Result<Summary>,
    signals: &Signals,
    ok: impl FnOnce(&Summary) -> ExitCode,
) -> ExitCode {
    match result {
        Ok(summary) => {
            let code = ok(&summary);
            match signals.received() {
                Some((name, status)) => {
                    eprintln!(
                        "feedmill: stopped by {name}: the output is complete up to the last \
                         batch written ({} records)",
                        summary.records
                    );
                    ExitCode::from(status)
                }
                None => code,
            }
        }
        // `| head` closed the pipe: the reader wanted no more, which is not a failure.
        Err(e) if output::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            report_run_error(&e);
            ExitCode::from(1)
        }
    }
}

/// The output of a run: where (`-o`), in which format, and the Parquet settings.
struct Output {
    target: Target,
    format: OutputFormat,
    /// Part files close at this size (`-o DIR/`).
    max_file_bytes: u64,
    parquet: feedmill::columnar::parquet::ParquetOptions,
}

impl Output {
    /// The output `-o`, `--format` and `--max-file-bytes` say; `--max-file-bytes` without
    /// a directory output is a usage error.
    fn of(path: Option<&PathBuf>, format: Option<OutputFormat>, max: Option<u64>) -> Output {
        let target = Target::of(path.map(PathBuf::as_path));
        if max.is_some() && !matches!(target, Target::Dir(_)) {
            usage_error(
                clap::error::ErrorKind::ArgumentConflict,
                "--max-file-bytes needs a directory output (-o DIR/)",
            );
        }
        let format = format.unwrap_or(match &target {
            Target::Dir(_) => OutputFormat::Parquet,
            Target::File(p) if p.extension().is_some_and(|e| e == "parquet") => {
                OutputFormat::Parquet
            }
            _ => OutputFormat::Jsonl,
        });
        Output {
            target,
            format,
            max_file_bytes: max.unwrap_or(MAX_FILE_BYTES),
            parquet: Default::default(),
        }
    }

    /// Refuses (usage error, exit 2) an output that is one of the inputs or inside an
    /// input directory, or a directory holding part files already; creates the directory.
    fn check(&self, inputs: &[Input]) -> Result<(), ExitCode> {
        let refused =
            output::check_not_an_input(&self.target, inputs).and_then(|()| match &self.target {
                Target::Dir(d) => output::prepare_dir(d),
                _ => Ok(()),
            });
        refused.map_err(|message| {
            eprintln!("feedmill: {message}");
            ExitCode::from(2)
        })
    }

    /// Runs the lint over `inputs` into this output (a file or standard output) as a text
    /// report or SARIF; the file is committed once complete.
    fn write_lint(
        &self,
        inputs: Vec<Input>,
        cfg: &Config,
        style: lint::Style,
    ) -> io::Result<Summary> {
        let mut out = match &self.target {
            Target::File(p) => Out::create(p).map_err(|e| {
                io::Error::new(e.kind(), format!("cannot create {}: {e}", p.display()))
            })?,
            _ => Out::stdout(),
        };
        let summary = lint::run(inputs, cfg, style, &mut out, &mut |_| {})?;
        out.commit()?;
        Ok(summary)
    }

    /// Runs the pipeline over `inputs` into this output. Each file is committed (renamed
    /// from its temporary name) once complete; on an error the one being written is removed.
    fn write(
        &self,
        inputs: Vec<Input>,
        cfg: &Config,
        progress: &mut dyn FnMut(bulk::Progress),
    ) -> io::Result<Summary> {
        let ext = match self.format {
            OutputFormat::Jsonl => "jsonl",
            OutputFormat::Parquet => "parquet",
        };
        let create = |path: &std::path::Path| {
            Out::create(path).map_err(|e| {
                io::Error::new(e.kind(), format!("cannot create {}: {e}", path.display()))
            })
        };
        let mut open = |i: usize| match &self.target {
            Target::Stdout => Ok(Out::stdout()),
            Target::File(p) => create(p),
            Target::Dir(d) => create(&d.join(output::part_name(i, ext))),
        };
        let mut close = |_: usize, out: Out| out.commit();
        let max = match self.target {
            Target::Dir(_) => self.max_file_bytes,
            _ => u64::MAX,
        };
        match self.format {
            OutputFormat::Jsonl => {
                bulk::write_jsonl_files(inputs, cfg, max, &mut open, &mut close, progress)
            }
            OutputFormat::Parquet => {
                parquet::fix_malloc_thresholds();
                bulk::write_parquet_files(
                    inputs,
                    cfg,
                    self.parquet.clone(),
                    max,
                    &mut open,
                    &mut close,
                    progress,
                )
            }
        }
    }
}

/// The inputs as given; none: the sample corpus of a source checkout, else a usage error
/// (exit 2).
fn inputs_or_sample(args: &[OsString]) -> Vec<Input> {
    if !args.is_empty() {
        return args.iter().map(Input::parse).collect();
    }
    if !std::path::Path::new(SAMPLE).is_dir() {
        usage_error(
            clap::error::ErrorKind::MissingRequiredArgument,
            "no INPUT given (files, directories, archives, or `-` for standard input)",
        );
    }
    vec![Input::Path(PathBuf::from(SAMPLE))]
}

/// The checks before a bulk run, shared by the main command and `lint`: an invalid
/// `--base-url` is a usage error (exit 2); an input that does not exist (or cannot be
/// looked up) still gets its error record, is also reported here, and makes the exit status
/// 1 (the returned flag). One that exists but cannot be read only gets its error record.
fn check_inputs(base_url: Option<&str>, inputs: &[Input]) -> Result<bool, ExitCode> {
    if let Some(u) = base_url {
        if let Err(e) = url::Url::parse(u) {
            eprintln!("feedmill: invalid --base-url {u:?}: {e}");
            return Err(ExitCode::from(2));
        }
    }
    let mut unreadable = false;
    for i in inputs {
        if let Input::Path(p) = i {
            if let Err(e) = std::fs::metadata(p) {
                eprintln!("feedmill: {}: {e}", i.name());
                unreadable = true;
            }
        }
    }
    Ok(unreadable)
}

fn run_lint(
    inputs: &[OsString],
    output: &Output,
    style: Option<lint::Style>,
    mut cfg: Config,
    summary: bool,
    deny: &[Deny],
) -> ExitCode {
    let inputs = inputs_or_sample(inputs);
    let unreadable = match check_inputs(cfg.base_url.as_deref(), &inputs) {
        Ok(unreadable) => unreadable,
        Err(code) => return code,
    };
    if let Err(code) = output.check(&inputs) {
        return code;
    }
    let signals = Signals::install();
    cfg.stop = Some(signals.stop_flag());
    let result = match style {
        None => output.write(inputs, &cfg, &mut |_| {}),
        Some(style) => output.write_lint(inputs, &cfg, style),
    };
    ended(result, &signals, |s| {
        let t = &s.lint;
        if summary {
            print_lint_summary(s);
        }
        let denied = deny.iter().any(|d| match d {
            Deny::Errors => t.with_errors > 0,
            Deny::Warnings => t.with_errors + t.with_warnings > 0,
            Deny::Code(c) => t.feeds[*c as usize] > 0,
        });
        if denied {
            ExitCode::from(3)
        } else if unreadable {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        }
    })
}

/// The `lint --summary` table: one row per code that occurred, most feeds first.
fn print_lint_summary(s: &Summary) {
    let t = &s.lint;
    eprintln!(
        "feedmill lint: {} records ({} linted), {} with errors, {} with warnings",
        s.records, t.linted, t.with_errors, t.with_warnings
    );
    eprintln!("{:<36} {:<8} {:>8} {:>7}", "code", "severity", "findings", "feeds");
    for (code, feeds) in t.rows() {
        let findings = t.findings[code as usize];
        eprintln!("{:<36} {:<8} {findings:>8} {feeds:>7}", code.name(), code.severity().as_str());
    }
}

fn run_discover(
    inputs: &[OsString],
    base_url: Option<&str>,
    output: Option<&PathBuf>,
    summary: bool,
    max: usize,
) -> ExitCode {
    let inputs: Vec<Input> = inputs.iter().map(Input::parse).collect();
    let unreadable = match check_inputs(base_url, &inputs) {
        Ok(unreadable) => unreadable,
        Err(code) => return code,
    };
    let target = Target::of(output.map(PathBuf::as_path));
    if let Target::Dir(d) = &target {
        eprintln!("feedmill: discover writes one file, and {} is a directory", d.display());
        return ExitCode::from(2);
    }
    if let Err(message) = output::check_not_an_input(&target, &inputs) {
        eprintln!("feedmill: {message}");
        return ExitCode::from(2);
    }
    let mut out = match &target {
        Target::File(path) => match Out::create(path) {
            Ok(out) => out,
            Err(e) => {
                eprintln!("feedmill: cannot create {}: {e}", path.display());
                return ExitCode::from(1);
            }
        },
        _ => Out::stdout(),
    };
    let signals = Signals::install();
    let in_flight = feedmill::bulk::Config::default().max_bytes_in_flight;
    let run = discover::run(inputs, base_url, max, in_flight, &signals.stop_flag(), &mut out);
    let result = run.and_then(|s| out.commit().map(|()| s)).map(|s| {
        if summary {
            eprintln!(
                "feedmill discover: {} pages, {} feeds found, {} WARC records skipped, {} errors, \
                 {} bytes read ahead at most",
                s.pages, s.feeds, s.skipped, s.errors, s.peak_in_flight
            );
        }
        let mut total = Summary::default();
        total.records = s.lines;
        total
    });
    ended(result, &signals, |_| if unreadable { ExitCode::from(1) } else { ExitCode::SUCCESS })
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
    let st = s;
    let by_type: Vec<String> = s.skipped().map(|(t, n)| format!("{t} {n}")).collect();
    let by_type =
        if by_type.is_empty() { String::new() } else { format!(" ({})", by_type.join(", ")) };
    eprintln!(
        "feedmill: {} records (ok {}, not_a_feed {}, error {}, revisit {}), {} entries, {} archive records skipped{}; \
         {} records cut by a limit ({} limit_reached diagnostics), {} records with recovered values; \
         {:.1} MB read ({:.1} MB of bodies) in {:.2} s = {:.1} MB/s, {:.0} records/s",
        st.records,
        st.ok,
        st.not_a_feed,
        st.error,
        st.revisit,
        st.entries,
        s.skipped_records,
        by_type,
        st.limited,
        st.limit_hits,
        st.recovered,
        mb,
        st.body_bytes as f64 / 1e6,
        secs,
        mb / secs,
        st.records as f64 / secs
    );
}

/// A run's error on standard error: an output failure, or a bug that stopped the run.
fn report_run_error(e: &io::Error) {
    if e.get_ref().is_some_and(|inner| inner.is::<feedmill::bulk::Panicked>()) {
        eprintln!("feedmill: {e}");
    } else {
        eprintln!("feedmill: error writing output: {e}");
    }
}
