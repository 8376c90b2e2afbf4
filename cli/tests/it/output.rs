//! The binary's own file handling: an output that is an input is refused (by file identity:
//! other spellings, symbolic and hard links); files are written under a temporary name and
//! renamed when complete; SIGINT/SIGTERM close the output validly and exit 130/143; a
//! closed pipe is a quiet 0 for every format and subcommand; `lint -o x.parquet`; part
//! files in `-o DIR/`; the column limit's error record; dates in Parquet keep their zone.

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

use arrow_array::cast::AsArray;
use arrow_array::types::TimestampMicrosecondType;
use arrow_array::{Array, RecordBatch};
use arrow_schema::{DataType, TimeUnit};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use serde_json::Value;

use super::cli::{check_binary, feedmill, http, records_of, scratch, warc_record, BIN, ROOT};

fn spawn(args: &[&str], stdin: Stdio) -> Child {
    check_binary();
    Command::new(BIN)
        .args(args)
        .current_dir(ROOT)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run feedmill")
}

/// Sends `signal` (`INT`, `TERM`) to the child, with the system's `kill`.
fn kill(child: &Child, signal: &str) {
    let ok = Command::new("kill")
        .args([format!("-{signal}"), child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(ok.success(), "kill -{signal} failed");
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The record batches of a Parquet file (panics unless the file is valid: footer and all).
fn parquet_batches(bytes: Vec<u8>) -> Vec<RecordBatch> {
    let reader = ParquetRecordBatchReaderBuilder::try_new(bytes::Bytes::from(bytes))
        .expect("a valid Parquet file");
    reader.build().unwrap().map(|b| b.expect("a readable row group")).collect()
}

/// The values of string column `name` of `batches`, in order.
fn strings(batches: &[RecordBatch], name: &str) -> Vec<Option<String>> {
    let mut out = Vec::new();
    for b in batches {
        let c = b.column_by_name(name).unwrap().as_string::<i32>();
        out.extend((0..c.len()).map(|i| (!c.is_null(i)).then(|| c.value(i).to_owned())));
    }
    out
}

/// The `error.kind` of each row of `batches`.
fn error_kinds(batches: &[RecordBatch]) -> Vec<Option<String>> {
    let mut out = Vec::new();
    for b in batches {
        let e = b.column_by_name("error").unwrap().as_struct();
        let k = e.column_by_name("kind").unwrap().as_string::<i32>();
        out.extend((0..b.num_rows()).map(|i| (!e.is_null(i)).then(|| k.value(i).to_owned())));
    }
    out
}

/// Whole JSON lines, each parsed.
fn whole_lines(bytes: &[u8]) -> Vec<Value> {
    assert!(bytes.is_empty() || bytes.ends_with(b"\n"), "the output ends inside a line");
    std::str::from_utf8(bytes)
        .expect("UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad line {l}: {e}")))
        .collect()
}

/// The temporary files (`.NAME.XXXXXX.tmp`) left in `dir`.
fn temp_files(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

const FEED: &str = "<rss version=\"2.0\"><channel><title>T</title><link>https://a.example/</link>\
    <item><title>one</title><link>https://a.example/1</link></item></channel></rss>";

fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn an_output_that_is_an_input_is_refused_and_the_input_untouched() {
    let dir = scratch("same-file");
    let f = dir.join("f.xml");
    fs::write(&f, FEED).unwrap();
    fs::create_dir(dir.join("sub")).unwrap();
    std::os::unix::fs::symlink(&f, dir.join("ln.xml")).unwrap();
    fs::hard_link(&f, dir.join("hard.xml")).unwrap();
    let (fs_, sub) = (path_str(&f).to_owned(), dir.join("sub/../f.xml"));
    let (ln, hard) = (dir.join("ln.xml"), dir.join("hard.xml"));
    let cases: Vec<Vec<&str>> = vec![
        vec!["-o", &fs_, &fs_],
        vec!["-o", path_str(&sub), &fs_],
        vec!["-o", path_str(&ln), &fs_],
        vec!["-o", &fs_, path_str(&ln)],
        vec!["-o", path_str(&hard), &fs_],
        vec!["--format", "parquet", "-o", &fs_, &fs_],
        vec!["lint", "-o", &fs_, &fs_],
        vec!["lint", "-o", path_str(&ln), &fs_],
        vec!["discover", "-o", &fs_, &fs_],
        vec!["discover", "-o", path_str(&hard), &fs_],
    ];
    for args in cases {
        let out = feedmill(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("is the input"), "{args:?}: {}", stderr(&out));
        assert_eq!(fs::read_to_string(&f).unwrap(), FEED, "{args:?} changed the input");
        assert!(fs::symlink_metadata(&ln).unwrap().file_type().is_symlink());
    }
    // An output inside an input directory would be read as an input while it is written.
    let out = feedmill(&["-o", path_str(&dir.join("sub/out.jsonl")), path_str(&dir)]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("inside the input directory"), "{}", stderr(&out));
    assert!(!dir.join("sub/out.jsonl").exists());
    // Also where the walk would reach the output through a symbolic link: every subcommand,
    // a file, a directory of part files and standard output redirected there.
    let (input, outdir) = (dir.join("in"), dir.join("outdir"));
    fs::create_dir_all(input.join("deep")).unwrap();
    fs::create_dir(&outdir).unwrap();
    fs::write(input.join("a.xml"), FEED).unwrap();
    std::os::unix::fs::symlink("../../outdir", input.join("deep/link")).unwrap();
    let (o, parts) = (outdir.join("o.jsonl"), format!("{}/", path_str(&outdir.join("p"))));
    let cases: Vec<Vec<&str>> = vec![
        vec!["-o", path_str(&o), path_str(&input)],
        vec!["-o", &parts, path_str(&input)],
        vec!["lint", "-o", path_str(&o), path_str(&input)],
        vec!["discover", "-o", path_str(&o), path_str(&input)],
    ];
    for args in cases {
        let out = feedmill(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("through the symbolic link"), "{args:?}: {}", stderr(&out));
        assert_eq!(fs::read_dir(&outdir).unwrap().count(), 0, "{args:?} wrote");
    }
    check_binary();
    let redirected = fs::File::create(&o).unwrap();
    let out = Command::new(BIN).arg(&input).stdout(redirected).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(fs::read(&o).unwrap(), b"");
    // Without the link, the same run writes there.
    fs::remove_file(input.join("deep/link")).unwrap();
    let out = feedmill(&["-o", path_str(&o), path_str(&input)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // Standard output appending to the input.
    let append = fs::OpenOptions::new().append(true).open(&f).unwrap();
    check_binary();
    let out = Command::new(BIN).arg(&f).stdout(append).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(fs::read_to_string(&f).unwrap(), FEED);
    let _ = fs::remove_dir_all(&dir);
}

/// `-o` naming a symbolic link writes the file it points to, so that file is what is
/// checked: a link out of the input directory to one of its files, a file the walk reaches
/// through a link of the input directory, and `/dev/stdout` redirected into the input
/// directory are all refused, the inputs untouched.
#[test]
fn an_output_reaching_an_input_through_a_link_is_refused() {
    let dir = scratch("through-link");
    let input = dir.join("in");
    fs::create_dir(&input).unwrap();
    fs::write(input.join("a.xml"), FEED).unwrap();
    fs::write(input.join("b.xml"), FEED).unwrap();
    fs::write(dir.join("real.xml"), FEED).unwrap();
    std::os::unix::fs::symlink("../real.xml", input.join("c.xml")).unwrap();
    std::os::unix::fs::symlink("in/b.xml", dir.join("out.jsonl")).unwrap();
    let (out_link, real) = (dir.join("out.jsonl"), dir.join("real.xml"));
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["-o", path_str(&out_link), path_str(&input)], "inside the input directory"),
        (vec!["lint", "-o", path_str(&out_link), path_str(&input)], "inside the input directory"),
        (
            vec!["discover", "-o", path_str(&out_link), path_str(&input)],
            "inside the input directory",
        ),
        (vec!["-o", path_str(&real), path_str(&input)], "c.xml of the input directory"),
        (
            vec!["--format", "parquet", "-o", path_str(&real), path_str(&input)],
            "c.xml of the input directory",
        ),
    ];
    for (args, says) in cases {
        let out = feedmill(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
        for f in [input.join("a.xml"), input.join("b.xml"), real.clone()] {
            assert_eq!(fs::read_to_string(&f).unwrap(), FEED, "{args:?} changed {f:?}");
        }
        assert!(temp_files(&input).is_empty() && temp_files(&dir).is_empty(), "{args:?}");
    }
    check_binary();
    let append = fs::OpenOptions::new().append(true).open(input.join("a.xml")).unwrap();
    let out = Command::new(BIN)
        .args(["-o", "/dev/stdout", path_str(&input)])
        .stdout(append)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(fs::read_to_string(input.join("a.xml")).unwrap(), FEED);
    let _ = fs::remove_dir_all(&dir);
}

/// `-o /dev/stdout` (any name of a descriptor: `/dev/fd/N`, `/proc/self/fd/N`, `//dev/stdout`,
/// `/dev/stderr`) writes where the descriptor does, at its position, as `-o -` does: a file
/// opened for appending is appended to, one shared with the caller is written after what the
/// caller wrote, never replaced. A FIFO named as input and output is refused.
#[test]
fn an_output_naming_a_descriptor_writes_through_it() {
    let dir = scratch("descriptor");
    let f = dir.join("f.xml");
    fs::write(&f, FEED).unwrap();
    let log = dir.join("log.jsonl");
    fs::write(&log, "{\"old\":1}\n").unwrap();
    for name in ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1", "//dev/stdout", "/dev/./stdout"] {
        check_binary();
        let append = fs::OpenOptions::new().append(true).open(&log).unwrap();
        let out =
            Command::new(BIN).args(["-o", name, path_str(&f)]).stdout(append).output().unwrap();
        assert!(out.status.success(), "{name}: {}", stderr(&out));
    }
    let lines = whole_lines(&fs::read(&log).unwrap());
    assert_eq!(lines.len(), 6, "{lines:?}");
    assert_eq!(lines[0]["old"], 1);
    assert!(lines[1..].iter().all(|r| r["status"] == "ok"), "{lines:?}");
    // A file the caller writes before and after the run, through the same open file.
    for (name, fd) in [("/dev/stdout", 1), ("/dev/stderr", 2), ("/dev/fd/2", 2)] {
        let shared = dir.join(format!("shared-{fd}.txt"));
        let mut file = fs::File::create(&shared).unwrap();
        file.write_all(b"HEADER\n").unwrap();
        check_binary();
        let mut cmd = Command::new(BIN);
        cmd.args(["-q", "-o", name, path_str(&f)]);
        if fd == 1 {
            cmd.stdout(file.try_clone().unwrap());
        } else {
            cmd.stderr(file.try_clone().unwrap()).stdout(Stdio::null());
        }
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        file.write_all(b"TRAILER\n").unwrap();
        let text = fs::read_to_string(&shared).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{name}: {text}");
        assert_eq!((lines[0], lines[2]), ("HEADER", "TRAILER"), "{name}: {text}");
        assert!(lines[1].contains("\"status\":\"ok\""), "{name}: {text}");
    }
    assert!(temp_files(&dir).is_empty(), "{:?}", temp_files(&dir));
    // A FIFO that is the input and the output: refused before either is opened.
    let fifo = dir.join("fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    check_binary();
    let mut child = Command::new(BIN)
        .args(["-o", path_str(&fifo), path_str(&fifo)])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut status = None;
    for _ in 0..200 {
        status = child.try_wait().unwrap();
        if status.is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    if status.is_none() {
        let _ = child.kill();
    }
    assert_eq!(status.and_then(|s| s.code()), Some(2), "the FIFO run did not refuse");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_file_is_replaced_only_when_complete_and_a_symlink_is_written_through() {
    let dir = scratch("replace");
    let input = dir.join("in");
    fs::create_dir(&input).unwrap();
    fs::write(input.join("f.xml"), FEED).unwrap();
    let target = dir.join("target.jsonl");
    fs::write(&target, "old\n").unwrap();
    std::os::unix::fs::symlink(&target, dir.join("link.jsonl")).unwrap();
    let out = feedmill(&["-o", path_str(&dir.join("link.jsonl")), path_str(&input)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let recs = whole_lines(&fs::read(&target).unwrap());
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0]["status"], "ok");
    assert!(fs::symlink_metadata(dir.join("link.jsonl")).unwrap().file_type().is_symlink());
    assert!(temp_files(&dir).is_empty(), "{:?}", temp_files(&dir));
    // A file that cannot be created is an error, and leaves nothing behind.
    let out = feedmill(&["-o", path_str(&dir.join("missing/out.jsonl")), path_str(&input)]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("cannot create"), "{}", stderr(&out));
    let _ = fs::remove_dir_all(&dir);
}

/// A WARC of `n` responses, each a small feed padded to about 1 KiB.
fn warc(n: usize) -> Vec<u8> {
    let mut data = Vec::new();
    for i in 0..n {
        let pad = "x".repeat(900);
        let body = format!(
            "<rss version=\"2.0\"><channel><title>F{i}</title><description>{pad}</description>\
             <item><title>e</title></item></channel></rss>"
        );
        let h = http("200 OK", &[("Content-Type", "application/rss+xml")], body.as_bytes());
        data.extend(warc_record("response", &format!("https://a.example/{i}"), &h));
    }
    data
}

/// A run writing to a file from standard input, signalled while it waits for more input:
/// until then the file keeps its old content (the new one is under a temporary name); after
/// the signal the run exits with the signal's status and the file holds a valid output of
/// the records written, under its final name, no temporary file left.
fn signalled_file_run(format: &str, signal: &str, status: i32) -> Vec<u8> {
    let dir = scratch(&format!("signal-file-{format}"));
    let out_path = dir.join(format!("out.{format}"));
    fs::write(&out_path, "old").unwrap();
    let mut child = spawn(&["--threads", "2", "-o", path_str(&out_path), "-"], Stdio::piped());
    let mut stdin = child.stdin.take().unwrap();
    // More than a pipe holds: written only once the run is reading (its handlers set).
    stdin.write_all(&warc(2000)).unwrap();
    assert_eq!(fs::read(&out_path).unwrap(), b"old", "the file was replaced before the end");
    kill(&child, signal);
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(status), "{}", stderr(&out));
    assert!(stderr(&out).contains(&format!("stopped by SIG{signal}")), "{}", stderr(&out));
    assert!(temp_files(&dir).is_empty(), "{:?}", temp_files(&dir));
    let bytes = fs::read(&out_path).unwrap();
    let _ = fs::remove_dir_all(&dir);
    bytes
}

#[test]
fn a_signal_closes_an_output_file_validly_under_its_name() {
    let lines = whole_lines(&signalled_file_run("jsonl", "INT", 130));
    assert!(lines.len() <= 2000);
    let batches = parquet_batches(signalled_file_run("parquet", "TERM", 143));
    assert!(batches.iter().map(RecordBatch::num_rows).sum::<usize>() <= 2000);
}

/// `args` writing a lot to standard output, signalled once it has written (the rest of
/// its output waits in the pipe): the output read to its end, and the run's status.
fn signalled_stdout_run(args: &[&str], signal: &str) -> (Vec<u8>, Output) {
    let mut child = spawn(args, Stdio::null());
    let mut stdout = child.stdout.take().unwrap();
    let mut all = vec![0u8; 100];
    stdout.read_exact(&mut all).unwrap();
    kill(&child, signal);
    stdout.read_to_end(&mut all).unwrap();
    (all, child.wait_with_output().unwrap())
}

fn corpus_args<'a>(first: &[&'a str], times: usize) -> Vec<&'a str> {
    let mut args = first.to_vec();
    args.extend(std::iter::repeat_n("corpus/real", times));
    args
}

#[test]
fn a_signal_ends_standard_output_at_a_whole_line_or_a_valid_parquet_file() {
    let (out, run) = signalled_stdout_run(&corpus_args(&["--threads", "2"], 40), "INT");
    assert_eq!(run.status.code(), Some(130), "{}", stderr(&run));
    let lines = whole_lines(&out);
    assert!(!lines.is_empty() && lines.len() < 40 * 287, "{} lines", lines.len());
    let args = corpus_args(&["--threads", "2", "--format", "parquet"], 40);
    let (out, run) = signalled_stdout_run(&args, "TERM");
    assert_eq!(run.status.code(), Some(143), "{}", stderr(&run));
    let rows: usize = parquet_batches(out).iter().map(RecordBatch::num_rows).sum();
    assert!(rows > 0 && rows < 40 * 287, "{rows} rows");
    let (out, run) = signalled_stdout_run(&corpus_args(&["lint"], 40), "INT");
    assert_eq!(run.status.code(), Some(130), "{}", stderr(&run));
    whole_lines(&out);
    // A SARIF log is closed, and says the run did not finish.
    let (out, run) = signalled_stdout_run(&corpus_args(&["lint", "--format", "sarif"], 40), "INT");
    assert_eq!(run.status.code(), Some(130), "{}", stderr(&run));
    let log: Value = serde_json::from_slice(&out).expect("a whole SARIF log");
    assert_eq!(log["runs"][0]["invocations"][0]["executionSuccessful"], false);
}

/// `| head -c 100`: every format and subcommand ends quietly with 0.
#[test]
fn a_closed_pipe_is_quiet_for_every_format_and_subcommand() {
    let cases: [&[&str]; 5] = [
        &["--format", "parquet"],
        &["--layout", "entries", "--format", "parquet"],
        &["lint"],
        &["lint", "--format", "parquet"],
        &["discover"],
    ];
    for first in cases {
        let mut child = spawn(&corpus_args(first, 40), Stdio::null());
        let mut stdout = child.stdout.take().unwrap();
        let mut head = [0u8; 100];
        stdout.read_exact(&mut head).unwrap();
        drop(stdout);
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{first:?}: {}", stderr(&out));
        assert!(out.stderr.is_empty(), "{first:?}: {}", stderr(&out));
    }
}

#[test]
fn lint_writes_parquet_with_the_findings() {
    let dir = scratch("lint-parquet");
    let file = dir.join("lint.parquet");
    let jsonl = feedmill(&["lint", "corpus/fixtures/lint"]);
    let lint_lines = records_of(&jsonl);
    let out = feedmill(&["lint", "-o", path_str(&file), "corpus/fixtures/lint"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let bytes = fs::read(&file).unwrap();
    assert!(bytes.starts_with(b"PAR1"), "not Parquet");
    let batches = parquet_batches(bytes);
    let sources: Vec<String> = strings(&batches, "source").into_iter().flatten().collect();
    let want: Vec<String> =
        lint_lines.iter().map(|l| l["source"].as_str().unwrap().to_owned()).collect();
    assert_eq!(sources, want);
    let findings = batches[0].column_by_name("findings").expect("a findings column");
    assert!(batches.iter().any(|b| {
        let f = b.column_by_name("findings").unwrap();
        f.null_count() < f.len()
    }));
    assert!(findings.data_type().is_nested());
    let _ = fs::remove_dir_all(&dir);
}

/// The sorted names of the files in `dir`.
fn names(dir: &Path) -> Vec<String> {
    let mut n: Vec<String> =
        fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    n.sort();
    n
}

#[test]
fn a_directory_output_rolls_part_files_each_valid() {
    let dir = scratch("parts");
    let whole = feedmill(&["--threads", "2", "corpus/real"]);
    assert!(whole.status.success());
    // JSON Lines: the parts together are the one output, each ending with a whole line.
    let jsonl = dir.join("jsonl");
    let j = format!("{}/", jsonl.display());
    let out =
        feedmill(&["--format", "jsonl", "--max-file-bytes", "256KiB", "-o", &j, "corpus/real"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let parts = names(&jsonl);
    assert!(parts.len() > 3, "{parts:?}");
    let mut all = Vec::new();
    for (i, name) in parts.iter().enumerate() {
        assert_eq!(name, &format!("part-{i:05}.jsonl"));
        let bytes = fs::read(jsonl.join(name)).unwrap();
        whole_lines(&bytes);
        all.extend(bytes);
    }
    assert!(all == whole.stdout, "the parts differ from the one output");
    // Parquet (a directory's default format): each part a valid file, the records in order.
    let pq = dir.join("pq");
    fs::create_dir(&pq).unwrap();
    let out = feedmill(&["--max-file-bytes", "1MiB", "-o", path_str(&pq), "corpus/real"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let parts = names(&pq);
    assert!(parts.len() > 1, "{parts:?}");
    let mut sources = Vec::new();
    for (i, name) in parts.iter().enumerate() {
        assert_eq!(name, &format!("part-{i:05}.parquet"));
        sources.extend(strings(&parquet_batches(fs::read(pq.join(name)).unwrap()), "source"));
    }
    let want: Vec<Option<String>> =
        records_of(&whole).iter().map(|r| Some(r["source"].as_str().unwrap().into())).collect();
    assert_eq!(sources, want);
    // A directory holding part files already is refused, and keeps them.
    let out = feedmill(&["-o", path_str(&pq), "corpus/real"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("already holds part files"), "{}", stderr(&out));
    assert_eq!(names(&pq), parts);
    // --max-file-bytes without a directory output.
    let file = dir.join("one.jsonl");
    let out = feedmill(&["--max-file-bytes", "1MiB", "-o", path_str(&file), "corpus/real"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let _ = fs::remove_dir_all(&dir);
}

/// A record whose rows pass the column limit is its `output_too_large` error record, in its
/// place; the run completes (the hidden `--parquet-column-limit` lowers the 2 GiB limit).
#[test]
fn a_record_too_large_for_a_column_is_an_error_record_in_the_parquet_file() {
    let dir = scratch("too-large");
    let input = dir.join("in");
    fs::create_dir(&input).unwrap();
    for (name, title) in [("a.xml", 10), ("b.xml", 5000), ("c.xml", 10)] {
        let xml = format!("<rss><channel><title>{}</title></channel></rss>", "t".repeat(title));
        fs::write(input.join(name), xml).unwrap();
    }
    let file = dir.join("out.parquet");
    let out =
        feedmill(&["--parquet-column-limit", "1000", "-o", path_str(&file), path_str(&input)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let batches = parquet_batches(fs::read(&file).unwrap());
    assert_eq!(error_kinds(&batches), [None, Some("output_too_large".into()), None]);
    let sources = strings(&batches, "source");
    assert!(sources[1].as_deref().is_some_and(|s| s.ends_with("b.xml")), "{sources:?}");
    let _ = fs::remove_dir_all(&dir);
}

/// A date with a zone offset is stored as its UTC instant, in a column typed with the UTC
/// zone; pyarrow (when installed) reads it back as that aware datetime
/// (cli/tests/parquet_dates.py).
#[test]
fn a_date_round_trips_through_parquet_with_its_utc_zone() {
    let dir = scratch("dates");
    let feed = dir.join("d.xml");
    fs::write(
        &feed,
        "<rss version=\"2.0\"><channel><title>T</title>\
         <pubDate>Tue, 10 Jun 2003 06:00:00 +0200</pubDate></channel></rss>",
    )
    .unwrap();
    let file = dir.join("d.parquet");
    let out = feedmill(&["-o", path_str(&file), path_str(&feed)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let batches = parquet_batches(fs::read(&file).unwrap());
    let feed_col = batches[0].column_by_name("feed").unwrap().as_struct();
    let updated = feed_col.column_by_name("updated").unwrap();
    assert_eq!(
        updated.data_type(),
        &DataType::Timestamp(TimeUnit::Microsecond, Some("UTC".into()))
    );
    let micros = updated.as_primitive::<TimestampMicrosecondType>().value(0);
    assert_eq!(micros, 1_055_217_600_000_000, "2003-06-10T04:00:00Z");
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/parquet_dates.py");
    // FEEDMILL_TEST_PYTHON names an interpreter with pyarrow (default: python3).
    let python = std::env::var("FEEDMILL_TEST_PYTHON").unwrap_or_else(|_| "python3".into());
    let has_pyarrow = Command::new(&python)
        .args(["-c", "import pyarrow"])
        .output()
        .is_ok_and(|o| o.status.success());
    if has_pyarrow {
        let py = Command::new(&python).arg(&script).arg(&file).output().unwrap();
        assert!(py.status.success(), "{}{}", String::from_utf8_lossy(&py.stdout), stderr(&py));
    } else {
        eprintln!("skipped {}: pyarrow is not installed", script.display());
    }
    let _ = fs::remove_dir_all(&dir);
}
