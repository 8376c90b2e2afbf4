//! The bulk pipeline over `corpus/real`: the same JSON Lines bytes for any number of threads
//! and any in-flight budget (the bytes themselves are pinned by the golden test,
//! `cli/tests/it/golden.rs`); `run_with` sees every record in input order and stops early; a
//! panic in one record becomes that record's `internal` error, and no panic hangs a run.

use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use feedmill::bulk::{self, Config, Input};
use feedmill::extract::ExtractOptions;
use feedmill::sanitize::SanitizeOptions;
use feedmill::sink::{RecordView, Status};
use sha2::{Digest, Sha256};

/// A `Write` the test keeps a handle on (the pipeline takes a boxed writer).
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn corpus() -> Option<PathBuf> {
    // Sources are written as given: run from the package root with the relative path, as
    // the hashes were taken. The tests of `it` share the process: this sets the directory
    // cargo runs the binary in anyway, and every other test uses absolute paths.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::env::set_current_dir(root).ok()?;
    let p = PathBuf::from("corpus/real");
    if p.is_dir() {
        Some(p)
    } else {
        eprintln!("skipped: corpus/real is not in this checkout");
        None
    }
}

fn jsonl(cfg: &Config, corpus: &Path) -> Vec<u8> {
    let out = Shared::default();
    bulk::run(vec![Input::Path(corpus.to_owned())], cfg, Box::new(out.clone()), &mut |_| {})
        .expect("bulk run");
    let bytes = out.0.lock().unwrap().clone();
    bytes
}

fn sha256(b: &[u8]) -> String {
    Sha256::digest(b).iter().map(|x| format!("{x:02x}")).collect()
}

// The output itself is pinned by the golden test (`cli/tests/it/golden.rs`, per-feed hashes of
// the corpus in default, --extract and --sanitize strict modes); here: the pipeline's output
// does not depend on threads or the in-flight budget.

#[test]
fn output_is_the_same_for_any_threads_and_budget() {
    let Some(corpus) = corpus() else { return };
    let base = Config {
        threads: 1,
        extract: Some(ExtractOptions::default()),
        sanitize: Some(SanitizeOptions::default()),
        ..Config::default()
    };
    let want = sha256(&jsonl(&base, &corpus));
    for (threads, readers, budget) in [
        (2, 1, 16 << 20),
        (3, 1, 1),
        (4, 1, 64 << 10),
        (2, 2, 16 << 20),
        (3, 4, 1),
        (1, 3, 256 << 10),
    ] {
        let cfg = Config { threads, readers, max_bytes_in_flight: budget, ..base.clone() };
        let got = sha256(&jsonl(&cfg, &corpus));
        assert_eq!(
            got, want,
            "--extract with {threads} threads, {readers} readers, budget {budget}"
        );
    }
}

/// A WARC.gz of `n` corpus files as responses, one gzip member per record (as crawlers write).
fn warc_gz(files: &[PathBuf]) -> Vec<u8> {
    use flate2::{write::GzEncoder, Compression};
    let mut out = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let body = std::fs::read(f).unwrap();
        let mut http = b"HTTP/1.1 200 OK\r\nContent-Type: application/rss+xml\r\n\r\n".to_vec();
        http.extend(&body);
        let mut rec = format!(
            "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://h{i}.example/feed\r\n\
             Content-Length: {}\r\n\r\n",
            http.len()
        )
        .into_bytes();
        rec.extend(http);
        rec.extend(b"\r\n\r\n");
        let mut e = GzEncoder::new(Vec::new(), Compression::fast());
        e.write_all(&rec).unwrap();
        out.extend(e.finish().unwrap());
    }
    out
}

/// The corpus's RSS 2.0 and Atom files, sorted.
fn rss2_and_atom_files(corpus: &std::path::Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus.join("rss2"))
        .unwrap()
        .chain(std::fs::read_dir(corpus.join("atom")).unwrap())
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
}

/// Several inputs (a directory, a WARC.gz, single files) read by several readers at once:
/// the same bytes, in input order, as one reader gives; early stops too.
#[test]
fn several_readers_keep_input_order() {
    let Some(corpus) = corpus() else { return };
    let files = rss2_and_atom_files(&corpus);
    let dir = std::env::temp_dir().join(format!("feedmill-readers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let archive = dir.join("part.warc.gz");
    std::fs::write(&archive, warc_gz(&files[..120])).unwrap();
    let inputs = vec![
        Input::Path(files[3].clone()),
        Input::Path(corpus.clone()),
        Input::Path(archive.clone()),
        Input::Path(dir.join("missing.xml")),
        Input::Path(files[7].clone()),
        Input::Path(archive),
    ];
    let run = |cfg: &Config| {
        let out = Shared::default();
        bulk::run(inputs.clone(), cfg, Box::new(out.clone()), &mut |_| {}).expect("bulk run");
        let bytes = out.0.lock().unwrap().clone();
        bytes
    };
    let one = Config { threads: 1, readers: 1, ..Config::default() };
    let want = run(&one);
    assert_eq!(want.iter().filter(|&&b| b == b'\n').count(), 1 + 289 + 120 + 1 + 1 + 120);
    for (threads, readers, budget) in
        [(1, 2, 16 << 20), (2, 3, 1), (3, 8, 64 << 10), (4, 2, 1 << 20)]
    {
        let cfg = Config { threads, readers, max_bytes_in_flight: budget, ..Config::default() };
        assert!(run(&cfg) == want, "{threads} threads, {readers} readers, budget {budget}");
    }
    // Stopping early ends the run: with several readers (none left waiting), and on the one
    // thread of a one-worker run (nothing read after the stop).
    for (threads, readers) in [(2, 3), (1, 1)] {
        let cfg = Config { threads, readers, max_bytes_in_flight: 1, ..Config::default() };
        let step = || |_: &RecordView<'_, '_>, b: &mut Vec<u8>| b.push(1);
        let mut consumed = 0;
        let mut stop_after_3 = |_: &mut Vec<u8>| {
            consumed += 1;
            Ok(if consumed == 3 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) })
        };
        let summary =
            bulk::run_with(inputs.clone(), &cfg, step, &mut stop_after_3, &mut |_| {}).unwrap();
        assert_eq!(consumed, 3, "{threads} threads");
        assert!(summary.records < 100, "{threads} threads: stopped early");
    }
    // A consumer's error stops the run and is its result.
    let cfg = Config { threads: 1, readers: 1, ..Config::default() };
    let step = || |_: &RecordView<'_, '_>, b: &mut Vec<u8>| b.push(1);
    let mut calls = 0;
    let mut fail_second = |_: &mut Vec<u8>| {
        calls += 1;
        match calls {
            2 => Err(io::Error::other("test: the consumer fails")),
            _ => Ok(ControlFlow::Continue(())),
        }
    };
    let err = bulk::run_with(inputs.clone(), &cfg, step, &mut fail_second, &mut |_| {});
    assert_eq!(err.unwrap_err().to_string(), "test: the consumer fails");
    assert_eq!(calls, 2);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn run_with_sees_every_record_in_order_and_stops_early() {
    let Some(corpus) = corpus() else { return };
    let cfg = Config { threads: 3, ..Config::default() };
    // Every record, in order: the sources match the default run's lines.
    let lines = jsonl(&Config { threads: 1, ..Config::default() }, &corpus);
    let want: Vec<String> = lines
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_slice(l).unwrap();
            v["source"].as_str().unwrap().to_owned()
        })
        .collect();
    assert_eq!(want.len(), 289);
    let step = || {
        |rec: &RecordView<'_, '_>, b: &mut Vec<(String, bool)>| {
            b.push((rec.source.to_owned(), rec.status == Status::Ok));
        }
    };
    let mut seen = Vec::new();
    let mut all = |b: &mut Vec<(String, bool)>| {
        seen.extend(b.drain(..).map(|(s, _)| s));
        Ok(ControlFlow::Continue(()))
    };
    let summary =
        bulk::run_with(vec![Input::Path(corpus.clone())], &cfg, step, &mut all, &mut |_| {})
            .unwrap();
    assert_eq!(seen, want);
    assert_eq!(summary.records, 289);
    // Early stop: the consumer breaks after the first batch; nothing more is consumed and
    // the run returns normally.
    let mut batches = 0;
    let mut first = |_: &mut Vec<(String, bool)>| {
        batches += 1;
        Ok(ControlFlow::Break(()))
    };
    let s = bulk::run_with(vec![Input::Path(corpus)], &cfg, step, &mut first, &mut |_| {}).unwrap();
    assert_eq!(batches, 1);
    assert!(s.records >= 1 && s.records < 289, "{} records", s.records);
}

/// A damaged WARC.gz through the pipeline (members inflated by the workers, any threads and
/// readers) gives exactly what the sequential reader and one worker give: gzip bodies stored
/// in records (false member starts), a record carrying a whole spoofed WARC.gz member, a
/// corrupt member, junk between members and a cut end.
#[test]
fn damaged_warc_gz_reads_the_same_through_the_pipeline() {
    use feedmill::bulk::archive::reader::enumerate;
    use feedmill::bulk::archive::Counters;
    use feedmill::bulk::buf::BufPool;
    use flate2::{write::GzEncoder, Compression};
    let Some(corpus) = corpus() else { return };
    let gz = |data: &[u8], level: u32| {
        let mut e = GzEncoder::new(Vec::new(), Compression::new(level));
        e.write_all(data).unwrap();
        e.finish().unwrap()
    };
    let record = |uri: &str, http: &[u8]| {
        let mut r = format!(
            "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {uri}\r\nContent-Length: {}\r\n\r\n",
            http.len()
        )
        .into_bytes();
        r.extend(http);
        r.extend(b"\r\n\r\n");
        r
    };
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(corpus.join("rss2")).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let mut archive = Vec::new();
    for (i, f) in files.iter().take(150).enumerate() {
        let body = std::fs::read(f).unwrap();
        let uri = format!("http://h{i}.example/feed");
        let mut http = b"HTTP/1.1 200 OK\r\nContent-Type: application/rss+xml\r\n".to_vec();
        match i % 5 {
            // A gzip body: stored by the archive's deflate (level 0), its magic bytes in the
            // archive's raw bytes.
            0 => {
                http.extend(b"Content-Encoding: gzip\r\n\r\n");
                http.extend(gz(&body, 6));
                archive.extend(gz(&record(&uri, &http), 0));
            }
            // A record whose body is a whole gzip member of a spoofed record.
            1 => {
                let spoof =
                    gz(&record("http://spoof.example/", b"HTTP/1.1 200 OK\r\n\r\n<rss/>"), 1);
                http.extend(b"\r\n");
                http.extend(&spoof);
                archive.extend(gz(&record(&uri, &http), 0));
            }
            _ => {
                http.extend(b"\r\n");
                http.extend(&body);
                archive.extend(gz(&record(&uri, &http), 1));
            }
        }
        if i == 60 {
            archive.extend(b"junk between members");
        }
    }
    // A corrupt member in the middle, and a cut end.
    let mid = archive.len() / 2;
    archive[mid] ^= 0x55;
    archive.truncate(archive.len() - 100);
    let dir = std::env::temp_dir().join(format!("feedmill-damaged-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("damaged.warc.gz");
    std::fs::write(&path, &archive).unwrap();
    let inputs = vec![Input::Path(path)];
    // The sequential reader (no helpers) and one worker.
    let cfg = Config::default();
    let mut records = Vec::new();
    let read_cfg = cfg.read_config();
    enumerate(&inputs, &read_cfg, &Counters::default(), &BufPool::default(), &mut |r| {
        records.push(r);
        true
    });
    let (want, _) = bulk::encode_records(&mut bulk::Worker::new(&cfg), &records);
    assert!(want.split(|&b| b == b'\n').count() > 140);
    for (threads, readers) in [(1, 1), (2, 1), (3, 2), (4, 1)] {
        let cfg = Config { threads, readers, ..Config::default() };
        let out = Shared::default();
        bulk::run(inputs.clone(), &cfg, Box::new(out.clone()), &mut |_| {}).unwrap();
        let got = out.0.lock().unwrap().clone();
        assert!(got == want, "{threads} threads, {readers} readers: output differs");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Runs `f` on its own thread and fails the test if it has not finished within a minute (a
/// pipeline that lost a thread to a panic used to wait forever for its batch).
fn within_a_minute<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> std::thread::Result<T> {
    let (tx, rx) = std::sync::mpsc::channel();
    let handle = std::thread::spawn(move || {
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
        let _ = tx.send(());
        r
    });
    rx.recv_timeout(std::time::Duration::from_secs(60)).expect("the run hung");
    handle.join().expect("the test thread")
}

/// The feed whose step panics in the tests below: the 6th source of the corpus.
fn sixth_source(corpus: &Path) -> String {
    let cfg = Config { threads: 1, ..Config::default() };
    let lines = jsonl(&cfg, corpus);
    let line = lines.split(|&b| b == b'\n').nth(5).unwrap();
    let v: serde_json::Value = serde_json::from_slice(line).unwrap();
    v["source"].as_str().unwrap().to_owned()
}

#[test]
fn a_record_that_panics_becomes_an_internal_error_record() {
    let Some(corpus) = corpus() else { return };
    let target = sixth_source(&corpus);
    for threads in [1, 3] {
        let (corpus, failing) = (corpus.clone(), target.clone());
        let (seen, summary) = within_a_minute(move || {
            let cfg = Config { threads, ..Config::default() };
            // The step writes part of the record, then panics; the pipeline undoes the part
            // (the batch is a Vec: `Batch::rollback`) and hands the step the record's
            // `internal` error instead, which it writes.
            let step = || {
                let target = failing.clone();
                move |rec: &RecordView<'_, '_>, b: &mut Vec<(String, String)>| {
                    let kind = rec.error.as_ref().map_or("", |e| e.kind);
                    if rec.source == target && kind != "internal" {
                        b.push((rec.source.to_owned(), "partial".into()));
                        panic!("test: the step fails on {}", rec.source);
                    }
                    b.push((rec.source.to_owned(), kind.to_owned()));
                }
            };
            let mut seen = Vec::new();
            let mut all = |b: &mut Vec<(String, String)>| {
                seen.append(b);
                Ok(ControlFlow::Continue(()))
            };
            let inputs = vec![Input::Path(corpus)];
            let summary = bulk::run_with(inputs, &cfg, step, &mut all, &mut |_| {}).unwrap();
            (seen, summary)
        })
        .unwrap();
        assert_eq!(seen.len(), 289, "{threads} threads: one record per input record");
        assert_eq!(summary.records, 289);
        let failed: Vec<_> = seen.iter().filter(|(_, k)| k == "internal").collect();
        assert_eq!(failed.len(), 1, "{threads} threads");
        assert_eq!(failed[0].0, target);
        assert_eq!(seen[5].0, target, "in input order");
        assert!(seen.iter().all(|(_, k)| k != "partial"), "the partial output is undone");
    }
}

/// A batch that cannot undo a record (the default `Batch::mark`).
#[derive(Default)]
struct Count(usize);

impl bulk::Batch for Count {
    fn clear(&mut self) {
        self.0 = 0;
    }
    fn held_bytes(&self) -> usize {
        0
    }
}

#[test]
fn a_panic_the_batch_cannot_undo_stops_the_run_with_an_error() {
    let Some(corpus) = corpus() else { return };
    let target = sixth_source(&corpus);
    for threads in [1, 3] {
        let (corpus, target) = (corpus.clone(), target.clone());
        let err = within_a_minute(move || {
            let cfg = Config { threads, ..Config::default() };
            let step = || {
                let target = target.clone();
                move |rec: &RecordView<'_, '_>, b: &mut Count| {
                    b.0 += 1;
                    assert!(rec.source != target, "test: the step fails on {}", rec.source);
                }
            };
            let mut all = |_: &mut Count| Ok(ControlFlow::Continue(()));
            let inputs = vec![Input::Path(corpus)];
            bulk::run_with(inputs, &cfg, step, &mut all, &mut |_| {}).map(|_| ()).unwrap_err()
        })
        .unwrap();
        let inner = err.get_ref().expect("an inner error");
        let panicked = inner.downcast_ref::<bulk::Panicked>().expect("bulk::Panicked");
        // One thread runs everything on the caller's thread (here an unnamed one).
        let worker = if threads == 1 { "unnamed" } else { "feedmill-worker-" };
        assert!(panicked.thread.starts_with(worker), "{}", panicked.thread);
    }
}

#[test]
fn a_consumer_that_panics_does_not_hang_the_run() {
    let Some(corpus) = corpus() else { return };
    for threads in [1, 3] {
        let corpus = corpus.clone();
        let result = within_a_minute(move || {
            let cfg = Config { threads, ..Config::default() };
            let step = || |rec: &RecordView<'_, '_>, b: &mut Vec<String>| b.push(rec.source.into());
            let mut consumed = 0;
            let mut all = |_: &mut Vec<String>| {
                consumed += 1;
                assert!(consumed < 3, "test: the consumer fails");
                Ok(ControlFlow::Continue(()))
            };
            let inputs = vec![Input::Path(corpus)];
            bulk::run_with(inputs, &cfg, step, &mut all, &mut |_| {}).map(|_| ())
        });
        assert!(result.is_err(), "{threads} threads: the consumer's panic reaches the caller");
    }
}

/// `bulk::read` gives every record of the inputs in order, HTTP taken apart (status,
/// `Content-Type`, body with chunked and gzip removed, the target URI as `url`), unreadable
/// records and inputs as errors; and `Worker::process` turns each into the line `bulk::run`
/// writes for it.
#[test]
fn read_gives_each_record_with_http_taken_apart_and_process_gives_run_s_lines() {
    let capture = |uri: &str, status: Option<u16>, ct: Option<&str>| feedmill::record::Capture {
        record_type: Some("response"),
        target_uri: Some(uri.to_owned()),
        http_status: status,
        content_type: ct.map(str::to_owned),
        ..feedmill::record::Capture::default()
    };
    use flate2::{write::GzEncoder, Compression};
    let dir = std::env::temp_dir().join(format!("feedmill-read-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let gz = |data: &[u8]| {
        let mut e = GzEncoder::new(Vec::new(), Compression::fast());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    };
    let record = |uri: &str, http: &[u8]| {
        let mut r = format!(
            "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {uri}\r\nContent-Length: {}\r\n\r\n",
            http.len()
        )
        .into_bytes();
        r.extend(http);
        r.extend(b"\r\n\r\n");
        r
    };
    let feed = b"<rss version='2.0'><channel><title>T</title><item><title>I</title></item></channel></rss>";
    let mut chunked = b"HTTP/1.1 200 OK\r\nContent-Type: application/rss+xml\r\n\
        Transfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n\r\n"
        .to_vec();
    let body = gz(feed);
    chunked.extend(format!("{:x}\r\n", body.len()).bytes());
    chunked.extend(&body);
    chunked.extend(b"\r\n0\r\n\r\n");
    let mut warc = gz(&record("http://a.example/feed", &chunked));
    let second = warc.len();
    warc.extend(gz(&record("http://b.example/gone", b"HTTP/1.1 404 Not Found\r\n\r\nno")));
    let third = warc.len();
    warc.extend(gz(&record("http://c.example/bad", b"not an HTTP message")));
    let archive = dir.join("a.warc.gz");
    std::fs::write(&archive, &warc).unwrap();
    let doc = dir.join("doc.xml");
    std::fs::write(&doc, feed).unwrap();
    let missing = dir.join("missing.xml");
    let inputs = vec![Input::Path(archive.clone()), Input::Path(doc.clone()), Input::Path(missing)];
    let cfg = Config { threads: 1, ..Config::default() };
    let records: Vec<bulk::Record> =
        bulk::read(inputs.clone(), &cfg).collect::<io::Result<_>>().unwrap();
    let (a, d) = (archive.display(), dir.display());
    let want = [
        bulk::Record {
            source: format!("{a}@0 http://a.example/feed"),
            url: Some("http://a.example/feed".into()),
            status: Some(200),
            content_type: Some("application/rss+xml".into()),
            body: Ok(feed.to_vec()),
            // Its WARC header's capture, with the HTTP status and type filled in.
            capture: Some(capture("http://a.example/feed", Some(200), Some("application/rss+xml"))),
            notes: Vec::new(),
        },
        bulk::Record {
            source: format!("{a}@{second} http://b.example/gone"),
            url: Some("http://b.example/gone".into()),
            status: Some(404),
            content_type: None,
            body: Ok(b"no".to_vec()),
            // Its WARC header's capture, with the HTTP status and type filled in.
            capture: Some(capture("http://b.example/gone", Some(404), None)),
            notes: Vec::new(),
        },
        bulk::Record {
            source: format!("{a}@{third} http://c.example/bad"),
            url: Some("http://c.example/bad".into()),
            status: None,
            content_type: None,
            body: Err(bulk::ReadError {
                kind: "bad_http",
                message: "HTTP header has no end".into(),
            }),
            // Its WARC header's capture, with the HTTP status and type filled in.
            capture: Some(capture("http://c.example/bad", None, None)),
            notes: Vec::new(),
        },
        bulk::Record {
            source: format!("{d}/doc.xml"),
            url: None,
            status: None,
            content_type: None,
            body: Ok(feed.to_vec()),
            capture: None,
            notes: Vec::new(),
        },
    ];
    assert_eq!(records[..4], want[..]);
    assert_eq!(records.len(), 5);
    assert_eq!(records[4].source, format!("{d}/missing.xml"));
    assert_eq!(records[4].body.as_ref().unwrap_err().kind, "io");
    // Each record through a worker: the lines of `bulk::run`.
    let mut worker = bulk::Worker::new(&cfg);
    let mut lines = Vec::new();
    for rec in &records {
        worker.process(rec, &mut |view| {
            feedmill::sink::json::encode_record(&mut lines, view);
            lines.push(b'\n');
        });
    }
    let out = Shared::default();
    bulk::run(inputs, &cfg, Box::new(out.clone()), &mut |_| {}).unwrap();
    let run_lines = out.0.lock().unwrap().clone();
    assert_eq!(String::from_utf8(lines).unwrap(), String::from_utf8(run_lines).unwrap());
    std::fs::remove_dir_all(&dir).ok();
}

/// `bulk::read` reads ahead within `max_bytes_in_flight`, not a number of records: records
/// of 1 MiB with a 3 MiB budget are never more than 3 MiB in flight, the one the caller holds
/// included, and a record larger than the budget is read alone.
#[test]
fn read_ahead_is_bounded_by_bytes() {
    let dir = std::env::temp_dir().join(format!("feedmill-read-ahead-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for i in 0..12 {
        std::fs::write(dir.join(format!("{i:02}.xml")), vec![b'x'; 1 << 20]).unwrap();
    }
    std::fs::write(dir.join("99-large.xml"), vec![b'y'; 5 << 20]).unwrap();
    let cfg = Config { max_bytes_in_flight: 3 << 20, ..Config::default() };
    let mut records = bulk::read(vec![Input::Path(dir.clone())], &cfg);
    let mut n = 0;
    let mut peak_small = 0;
    while let Some(rec) = records.next() {
        let rec = rec.unwrap();
        if n == 11 {
            peak_small = records.peak_bytes_in_flight();
        }
        // The caller is slow: the reader has all the time it wants to read ahead.
        std::thread::sleep(std::time::Duration::from_millis(20));
        assert_eq!(rec.body.unwrap().len(), if n < 12 { 1 << 20 } else { 5 << 20 });
        n += 1;
    }
    assert_eq!(n, 13);
    assert!((2 << 20..=3 << 20).contains(&peak_small), "peak {peak_small} before the large one");
    // The large record alone (its buffer's capacity: it grew as it was read).
    let peak = records.peak_bytes_in_flight();
    assert!((5 << 20..=(8 << 20) + (1 << 16)).contains(&peak), "peak {peak}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `write_jsonl_files` cuts the run's lines into files of about `max_file_bytes`, each
/// ending with a whole line, in input order: together they are `run`'s bytes.
#[test]
fn jsonl_files_are_cut_at_whole_lines_and_together_are_the_run() {
    let Some(corpus) = corpus() else { return };
    let cfg = Config { threads: 3, batch_records: 8, ..Config::default() };
    let want = jsonl(&cfg, &corpus);
    let mut files = Vec::new();
    let (mut opened, max) = (Vec::new(), 64 << 10);
    let summary = bulk::write_jsonl_files(
        vec![Input::Path(corpus.clone())],
        &cfg,
        max,
        &mut |i| {
            opened.push(i);
            Ok(Shared::default())
        },
        &mut |i, w| {
            files.push((i, w.0.lock().unwrap().clone()));
            Ok(())
        },
        &mut |_| {},
    )
    .unwrap();
    assert!(files.len() > 3, "{} files for {} bytes", files.len(), want.len());
    assert_eq!(opened, (0..files.len()).collect::<Vec<_>>());
    let mut all = Vec::new();
    for (n, (i, f)) in files.iter().enumerate() {
        assert_eq!(*i, n);
        assert!(f.ends_with(b"\n"), "file {i} ends inside a line");
        if n + 1 < files.len() {
            assert!(f.len() as u64 >= max, "file {i} closed early: {} bytes", f.len());
        }
        all.extend_from_slice(f);
    }
    assert!(all == want, "the files together differ from the run's output");
    assert_eq!(summary.records as usize, want.split(|&b| b == b'\n').count() - 1);
}

/// The sources of the Parquet file `bytes`, in order.
fn parquet_sources(bytes: Vec<u8>) -> Vec<String> {
    use arrow_array::cast::AsArray;
    use arrow_array::Array;
    let reader = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(
        bytes::Bytes::from(bytes),
    )
    .expect("a valid Parquet file");
    let mut sources = Vec::new();
    for batch in reader.build().unwrap() {
        let batch = batch.unwrap();
        let s = batch.column_by_name("source").unwrap().as_string::<i32>();
        sources.extend((0..s.len()).map(|i| s.value(i).to_owned()));
    }
    sources
}

/// `write_parquet_files` makes files each valid on its own (footer and all), whose records
/// in order are the one file's.
#[test]
fn parquet_files_are_each_valid_and_together_are_the_run() {
    use feedmill::columnar::parquet::ParquetOptions;
    let Some(corpus) = corpus() else { return };
    let cfg = Config { threads: 2, ..Config::default() };
    let opts = ParquetOptions { row_group_records: 16, ..ParquetOptions::default() };
    let inputs = vec![Input::Path(corpus.clone())];
    let (_, one) =
        bulk::write_parquet(inputs.clone(), &cfg, Vec::new(), opts.clone(), &mut |_| {}).unwrap();
    let want = parquet_sources(one);
    let mut files = Vec::new();
    let summary = bulk::write_parquet_files(
        inputs,
        &cfg,
        opts,
        256 << 10,
        &mut |_| Ok(Vec::new()),
        &mut |i, w| {
            files.push((i, w));
            Ok(())
        },
        &mut |_| {},
    )
    .unwrap();
    assert!(files.len() > 2, "{} files", files.len());
    let mut got = Vec::new();
    for (n, (i, f)) in files.into_iter().enumerate() {
        assert_eq!(i, n);
        got.extend(parquet_sources(f));
    }
    assert_eq!(summary.records as usize, want.len());
    assert_eq!(got, want);
}

/// Where a Parquet file's row groups end is a function of the records and the Parquet
/// options: the same file, byte for byte, for any number of threads and any in-flight
/// budget, from a directory (record buffers recycled with any capacity) and from a WARC.gz
/// (records sharing inflated ranges). Small row groups, so that there are dozens of cuts.
#[test]
fn parquet_file_is_the_same_for_any_threads_and_budget() {
    use feedmill::columnar::parquet::ParquetOptions;
    let Some(corpus) = corpus() else { return };
    let files = rss2_and_atom_files(&corpus);
    let dir = std::env::temp_dir().join(format!("feedmill-pq-cuts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let archive = dir.join("corpus.warc.gz");
    std::fs::write(&archive, warc_gz(&files)).unwrap();
    let inputs = vec![Input::Path(corpus.clone()), Input::Path(archive)];
    let opts = ParquetOptions {
        row_group_records: 64,
        row_group_bytes: 512 << 10,
        ..ParquetOptions::default()
    };
    let file = |threads: usize, budget: usize| {
        let cfg = Config { threads, max_bytes_in_flight: budget, ..Config::default() };
        let (_, file) =
            bulk::write_parquet(inputs.clone(), &cfg, Vec::new(), opts.clone(), &mut |_| {})
                .expect("Parquet run");
        file
    };
    let want = file(1, 16 << 20);
    let meta = parquet::file::reader::SerializedFileReader::new(bytes::Bytes::from(want.clone()))
        .map(|r| parquet::file::reader::FileReader::metadata(&r).num_row_groups())
        .expect("a valid Parquet file");
    assert!(meta > 40, "{meta} row groups");
    for (threads, budget) in [(2, 16 << 20), (2, 1), (3, 64 << 10), (2, 256 << 20), (1, 1)] {
        let got = file(threads, budget);
        assert!(got == want, "{threads} threads, budget {budget}: another file");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `Config::stop` ends a run after the batch being written: set after the first batch, the
/// output is that batch's whole lines (Parquet: a valid file of its records), the summary
/// counts them, and no thread is left waiting.
#[test]
fn a_stopped_run_ends_after_the_batch_being_written() {
    use feedmill::columnar::parquet::ParquetOptions;
    use std::sync::atomic::{AtomicBool, Ordering};
    let Some(corpus) = corpus() else { return };
    for threads in [1, 3] {
        let corpus = corpus.clone();
        let (summary, lines, sources) = within_a_minute(move || {
            let stop = Arc::new(AtomicBool::new(false));
            let cfg = Config {
                threads,
                batch_records: 10,
                stop: Some(Arc::clone(&stop)),
                ..Config::default()
            };
            let out = Shared::default();
            let inputs = vec![Input::Path(corpus)];
            let summary = bulk::run(inputs.clone(), &cfg, Box::new(out.clone()), &mut |_| {
                stop.store(true, Ordering::Relaxed)
            })
            .unwrap();
            let lines = out.0.lock().unwrap().clone();
            stop.store(false, Ordering::Relaxed);
            let opts = ParquetOptions { row_group_records: 10, ..ParquetOptions::default() };
            let (psum, file) = bulk::write_parquet(inputs, &cfg, Vec::new(), opts, &mut |_| {
                stop.store(true, Ordering::Relaxed)
            })
            .unwrap();
            (summary, lines, (psum.records, parquet_sources(file)))
        })
        .expect("the stopped run");
        assert!(lines.ends_with(b"\n"), "{threads} threads: the output ends inside a line");
        let n = lines.split(|&b| b == b'\n').count() - 1;
        assert_eq!(n as u64, summary.records);
        assert!((1..=10).contains(&n), "{threads} threads: {n} lines after one batch");
        assert_eq!(sources.1.len() as u64, sources.0);
        assert!((1..=10).contains(&sources.1.len()), "{threads} threads: {:?}", sources.1.len());
    }
}

/// In the pipeline's Parquet output a record whose rows pass the column limit is its
/// `output_too_large` error record, in its place; the others are written whole.
#[test]
fn bulk_parquet_writes_a_record_past_the_column_limit_as_its_error_record() {
    use arrow_array::cast::AsArray;
    use arrow_array::Array;
    use feedmill::columnar::parquet::ParquetOptions;
    let dir = std::env::temp_dir().join(format!("feedmill-too-large-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, title) in [("a.xml", 100), ("b.xml", 5000), ("c.xml", 100)] {
        let xml = format!("<rss><channel><title>{}</title></channel></rss>", "t".repeat(title));
        std::fs::write(dir.join(name), xml).unwrap();
    }
    let opts = ParquetOptions { column_limit: 1000, ..ParquetOptions::default() };
    let cfg = Config { threads: 2, ..Config::default() };
    let (summary, file) =
        bulk::write_parquet(vec![Input::Path(dir.clone())], &cfg, Vec::new(), opts, &mut |_| {})
            .unwrap();
    assert_eq!(summary.records, 3);
    let reader = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(
        bytes::Bytes::from(file),
    )
    .unwrap();
    let mut kinds = Vec::new();
    for batch in reader.build().unwrap() {
        let batch = batch.unwrap();
        let error = batch.column_by_name("error").unwrap().as_struct();
        let kind = error.column_by_name("kind").unwrap().as_string::<i32>();
        kinds.extend(
            (0..batch.num_rows()).map(|i| (!error.is_null(i)).then(|| kind.value(i).to_owned())),
        );
    }
    assert_eq!(kinds, [None, Some("output_too_large".to_owned()), None]);
    std::fs::remove_dir_all(&dir).ok();
}
