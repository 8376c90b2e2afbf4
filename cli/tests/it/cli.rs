//! Integration tests of the `feedmill` binary: inputs (WARC.gz built here, tar.gz, directory,
//! loose files, stdin), one line per record in input order, statuses, determinism across
//! thread counts, exit codes and a closed output pipe.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use flate2::write::GzEncoder;
use flate2::Compression;
use serde_json::Value;

pub(crate) const BIN: &str = env!("CARGO_BIN_EXE_feedmill");
/// The workspace root: inputs are named relative to it (`corpus/...`).
pub(crate) const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// The target dir may be shared between checkouts: make sure the binary is this CLI.
pub(crate) fn check_binary() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let help = Command::new(BIN).arg("--help").output().expect("run feedmill");
        assert!(
            String::from_utf8_lossy(&help.stdout).contains("EXAMPLES"),
            "{BIN} is not this checkout's feedmill CLI (shared target dir overwritten?)"
        );
    });
}

pub(crate) fn feedmill(args: &[&str]) -> Output {
    check_binary();
    Command::new(BIN).args(args).current_dir(ROOT).output().expect("run feedmill")
}

fn feedmill_stdin(args: &[&str], input: &[u8]) -> Output {
    check_binary();
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(ROOT)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

fn lines(out: &Output) -> Vec<Value> {
    assert!(
        out.status.success(),
        "exit {:?}, stderr: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    records_of(out)
}

/// The records of a run, whatever its exit status.
pub(crate) fn records_of(out: &Output) -> Vec<Value> {
    String::from_utf8(out.stdout.clone())
        .expect("output is UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad JSON line {l}: {e}")))
        .collect()
}

/// A fresh scratch directory under the system temp dir.
pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("feedmill-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn gz(data: &[u8]) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), Compression::fast());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

pub(crate) fn warc_record(ty: &str, uri: &str, block: &[u8]) -> Vec<u8> {
    let mut r = format!(
        "WARC/1.0\r\nWARC-Type: {ty}\r\nWARC-Record-ID: <urn:uuid:{}>\r\nWARC-Target-URI: {uri}\r\n\
         Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
        uri.len(),
        block.len()
    )
    .into_bytes();
    r.extend_from_slice(block);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

pub(crate) fn http(status: &str, headers: &[(&str, &str)], body: &[u8]) -> Vec<u8> {
    let mut m = format!("HTTP/1.1 {status}\r\n").into_bytes();
    for (k, v) in headers {
        m.extend(format!("{k}: {v}\r\n").bytes());
    }
    m.extend_from_slice(b"\r\n");
    m.extend_from_slice(body);
    m
}

fn chunked(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for part in body.chunks(37) {
        out.extend(format!("{:x}\r\n", part.len()).bytes());
        out.extend_from_slice(part);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"0\r\n\r\n");
    out
}

/// What a response record must give.
#[derive(Debug)]
struct Expect {
    offset: usize,
    uri: String,
    /// `None`: a feed, `ok` with a format.
    status: Option<&'static str>,
    error_kind: Option<&'static str>,
    encoding: Option<&'static str>,
}

/// Builds a WARC.gz of `rounds` × 12 records plus a warcinfo and a truncated tail member.
fn build_warc(rounds: usize) -> (Vec<u8>, Vec<Expect>, usize) {
    let mut data = Vec::new();
    let mut expect = Vec::new();
    let mut skipped = 0;
    let push = |data: &mut Vec<u8>, rec: Vec<u8>| {
        let off = data.len();
        data.extend(gz(&rec));
        off
    };
    push(&mut data, warc_record("warcinfo", "", b"software: feedmill-test\r\n"));
    skipped += 1;
    for i in 0..rounds {
        for kind in 0..12 {
            let uri = format!("http://example.com/{i}/{kind}");
            let (rec, status, error_kind, encoding): (Vec<u8>, _, _, _) = match kind {
                0 => {
                    let body = format!("<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Feed {i} é</title><item><title>x</title></item></channel></rss>");
                    (
                        http(
                            "200 OK",
                            &[("Content-Type", "application/rss+xml; charset=utf-8")],
                            body.as_bytes(),
                        ),
                        None,
                        None,
                        Some("UTF-8"),
                    )
                }
                1 => {
                    let mut body = b"<?xml version=\"1.0\"?><feed xmlns=\"http://www.w3.org/2005/Atom\"><title>Caf\xe9 ".to_vec();
                    body.extend(format!("{i}</title></feed>").bytes());
                    (
                        http("200 OK", &[("Content-Type", "text/xml; charset=ISO-8859-1")], &body),
                        None,
                        None,
                        Some("windows-1252"),
                    )
                }
                2 => {
                    let text = format!("<?xml version=\"1.0\" encoding=\"UTF-16\"?><rss version=\"2.0\"><channel><title>UTF-16 {i}</title></channel></rss>");
                    let mut body = vec![0xFF, 0xFE];
                    body.extend(text.encode_utf16().flat_map(|u| u.to_le_bytes()));
                    (
                        http("200 OK", &[("Content-Type", "application/xml")], &body),
                        None,
                        None,
                        Some("UTF-16LE"),
                    )
                }
                3 => {
                    let mut body = b"<?xml version=\"1.0\" encoding=\"windows-1251\"?><rss version=\"2.0\"><channel><title>\xcd\xee\xe2\xee\xf1\xf2\xe8</title></channel></rss>".to_vec();
                    body.extend(format!("<!-- {i} -->").bytes());
                    (
                        http("200 OK", &[("Content-Type", "text/xml")], &body),
                        None,
                        None,
                        Some("windows-1251"),
                    )
                }
                4 => {
                    let body = format!("<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\" xmlns=\"http://purl.org/rss/1.0/\"><channel><title>gz {i}</title></channel></rdf:RDF>");
                    let coded = chunked(&gz(body.as_bytes()));
                    let h = [
                        ("Content-Type", "application/rdf+xml"),
                        ("Transfer-Encoding", "chunked"),
                        ("Content-Encoding", "gzip"),
                    ];
                    (http("200 OK", &h, &coded), None, None, Some("UTF-8"))
                }
                5 => {
                    // An HTML page: its computed MIME type is not XML, so it is rejected
                    // before decoding (no encoding reported).
                    let body = format!("<!DOCTYPE html><html><body>page {i}</body></html>");
                    (
                        http("200 OK", &[("Content-Type", "text/html")], body.as_bytes()),
                        Some("not_a_feed"),
                        Some("not_a_feed"),
                        None,
                    )
                }
                6 => (
                    http("404 Not Found", &[("Content-Type", "text/html")], b"<html>gone</html>"),
                    Some("not_a_feed"),
                    Some("http_status"),
                    None,
                ),
                7 => (
                    http("301 Moved Permanently", &[("Location", "/x")], b""),
                    Some("not_a_feed"),
                    Some("http_status"),
                    None,
                ),
                8 => (
                    http("200 OK", &[("Content-Encoding", "gzip")], b"this is not gzip data"),
                    Some("error"),
                    Some("content_encoding"),
                    None,
                ),
                9 => (
                    // A real first chunk, then a bad size line (a body whose first line is
                    // not a chunk size is read as stored: crawlers store bodies de-chunked).
                    http("200 OK", &[("Transfer-Encoding", "chunked")], b"3\r\nabc\r\nzz\r\n"),
                    Some("error"),
                    Some("bad_chunked"),
                    None,
                ),
                10 => {
                    let rec = warc_record(
                        "request",
                        &uri,
                        b"GET / HTTP/1.1\r\nHost: example.com\r\n\r\n",
                    );
                    push(&mut data, rec);
                    skipped += 1;
                    continue;
                }
                _ => {
                    let rec = warc_record("metadata", &uri, b"fetchTimeMs: 12\r\n");
                    push(&mut data, rec);
                    skipped += 1;
                    continue;
                }
            };
            let offset = push(&mut data, warc_record("response", &uri, &rec));
            expect.push(Expect { offset, uri, status, error_kind, encoding });
        }
        if i == rounds / 2 {
            // Bytes that are not a gzip member between two members: one error record.
            let offset = data.len();
            data.extend_from_slice(b"this is junk between members\n");
            expect.push(Expect {
                offset,
                uri: String::new(),
                status: Some("error"),
                error_kind: Some("bad_gzip"),
                encoding: None,
            });
        }
    }
    // A truncated last member (a crawl cut short).
    let last = gz(&warc_record(
        "response",
        "http://example.com/cut",
        &http("200 OK", &[], b"<rss></rss>"),
    ));
    let offset = data.len();
    data.extend_from_slice(&last[..last.len() - 10]);
    expect.push(Expect {
        offset,
        uri: "http://example.com/cut".into(),
        status: Some("error"),
        error_kind: Some("truncated"),
        encoding: None,
    });
    (data, expect, skipped)
}

#[test]
fn warc_gz_one_line_per_response_record_in_order() {
    let dir = scratch("warc");
    let (data, expect, skipped) = build_warc(25);
    assert!(expect.len() >= 250, "hundreds of records");
    let path = dir.join("crawl.warc.gz");
    std::fs::write(&path, &data).unwrap();
    let p = path.to_str().unwrap();
    let out = feedmill(&["--summary", p]);
    let recs = lines(&out);
    assert_eq!(recs.len(), expect.len(), "one line per response record (and per broken member)");
    for (rec, exp) in recs.iter().zip(&expect) {
        let source = rec["source"].as_str().unwrap();
        let want = if exp.uri.is_empty() {
            format!("{p}@{}", exp.offset)
        } else {
            format!("{p}@{} {}", exp.offset, exp.uri)
        };
        // The truncated member's URI may or may not be recoverable.
        if exp.error_kind == Some("truncated") {
            assert!(source.starts_with(&format!("{p}@{}", exp.offset)), "{source}");
        } else {
            assert_eq!(source, want);
        }
        let status = rec["status"].as_str().unwrap();
        match exp.status {
            Some(s) => assert_eq!(status, s, "{rec}"),
            None => {
                assert_eq!(status, "ok", "{rec}");
                assert!(rec["format"].is_string(), "{rec}");
            }
        }
        if let Some(k) = exp.error_kind {
            assert_eq!(rec["error"]["kind"], k, "{rec}");
            assert!(!rec["error"]["message"].as_str().unwrap().is_empty());
        }
        if status != "ok" {
            assert!(rec.get("error").is_some(), "not ok records say why: {rec}");
        }
        if let Some(e) = exp.encoding {
            assert_eq!(rec["encoding"], e, "{rec}");
        }
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    // One warcinfo, then a request and a metadata record per round: counted by type too.
    let rounds = (skipped - 1) / 2;
    let by_type = format!(
        "{skipped} archive records skipped (warcinfo 1, request {rounds}, metadata {rounds})"
    );
    assert!(stderr.contains(&by_type), "{stderr}");
    assert!(stderr.contains(&format!("{} records", expect.len())), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn plain_warc_and_stdin_warc_gz() {
    let (data, expect, _) = build_warc(3);
    let out = feedmill_stdin(&["-"], &data);
    let recs = lines(&out);
    assert_eq!(recs.len(), expect.len());
    assert!(recs[0]["source"].as_str().unwrap().starts_with("-@"));
    // Uncompressed WARC: the same response records (offsets differ).
    let mut plain = Vec::new();
    for i in 0..3 {
        plain.extend(warc_record("request", "http://x/", b"GET / HTTP/1.1\r\n\r\n"));
        plain.extend(warc_record(
            "response",
            &format!("http://x/{i}"),
            &http("500 Oops", &[], b""),
        ));
    }
    let recs = lines(&feedmill_stdin(&["-"], &plain));
    assert_eq!(recs.len(), 3);
    for (i, r) in recs.iter().enumerate() {
        assert!(r["source"].as_str().unwrap().ends_with(&format!(" http://x/{i}")));
        assert_eq!(r["status"], "not_a_feed");
        assert_eq!(r["error"]["message"], "HTTP status 500");
    }
}

/// The loose sample files, in directory-walk order.
fn loose_files() -> Vec<String> {
    fn walk(p: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> =
            std::fs::read_dir(p).unwrap().map(|e| e.unwrap().path()).collect();
        entries.sort();
        for e in entries {
            if e.is_dir() {
                walk(&e, out)
            } else {
                out.push(e)
            }
        }
    }
    let mut files = Vec::new();
    walk(Path::new(ROOT).join("corpus/cli/loose").as_path(), &mut files);
    files.iter().map(|f| f.strip_prefix(ROOT).unwrap().to_str().unwrap().to_owned()).collect()
}

fn without_source(v: &Value) -> Value {
    let mut v = v.clone();
    v.as_object_mut().unwrap().remove("source");
    v
}

#[test]
fn directory_tar_gz_and_loose_files_give_the_same_records() {
    let files = loose_files();
    assert_eq!(files.len(), 6);
    let args: Vec<&str> = files.iter().map(String::as_str).collect();
    let loose = feedmill(&args);
    let dir = feedmill(&["corpus/cli/loose"]);
    assert_eq!(String::from_utf8_lossy(&dir.stdout), String::from_utf8_lossy(&loose.stdout));
    let loose = lines(&loose);
    assert_eq!(loose.len(), 6);
    for (rec, f) in loose.iter().zip(&files) {
        assert_eq!(rec["source"], f.as_str());
    }
    // Encodings are sniffed (XML declaration) and gzip is recognized by magic bytes.
    assert_eq!(loose[2]["encoding"], "windows-1252");
    assert_eq!(loose[4]["encoding"], "UTF-8");
    let statuses: Vec<_> =
        loose.iter().map(|r| (r["status"].as_str().unwrap(), r["format"].as_str())).collect();
    assert_eq!(
        statuses,
        [
            ("ok", Some("rss2")),
            ("ok", Some("atom")),
            ("ok", Some("rss2")),
            ("not_a_feed", None),
            ("ok", Some("rss1")),
            ("ok", Some("atom03")),
        ]
    );

    // The same files in a tar.gz (and a plain tar), member names relative to loose/.
    let tmp = scratch("tar");
    for (name, compress) in [("loose.tar.gz", true), ("loose.tar", false)] {
        let path = tmp.join(name);
        let file = std::fs::File::create(&path).unwrap();
        let w: Box<dyn Write> = if compress {
            Box::new(GzEncoder::new(file, Compression::fast()))
        } else {
            Box::new(file)
        };
        let mut b = tar::Builder::new(w);
        for f in &files {
            let member = f.strip_prefix("corpus/cli/loose/").unwrap();
            b.append_path_with_name(Path::new(ROOT).join(f), member).unwrap();
        }
        let mut w = b.into_inner().unwrap();
        w.flush().unwrap();
        drop(w); // GzEncoder finishes the stream on drop
        let p = path.to_str().unwrap().to_owned();
        let recs = lines(&feedmill(&[&p]));
        assert_eq!(recs.len(), files.len(), "{name}");
        for ((t, l), f) in recs.iter().zip(&loose).zip(&files) {
            let member = f.strip_prefix("corpus/cli/loose/").unwrap();
            assert_eq!(t["source"].as_str().unwrap(), format!("{p}!{member}"));
            assert_eq!(without_source(t), without_source(l));
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
}

#[test]
fn stdin_dash_is_a_document() {
    let bytes = std::fs::read(Path::new(ROOT).join("corpus/cli/loose/c-latin1.xml")).unwrap();
    let recs = lines(&feedmill_stdin(&["-"], &bytes));
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0]["source"], "-");
    let file = lines(&feedmill(&["corpus/cli/loose/c-latin1.xml"]));
    assert_eq!(without_source(&recs[0]), without_source(&file[0]));
    // Gzipped on stdin too, and with a base URL.
    let gzipped = gz(&bytes);
    let mut recs =
        lines(&feedmill_stdin(&["--base-url", "http://example.com/feed", "-"], &gzipped));
    let url = recs[0].as_object_mut().unwrap().remove("url");
    assert_eq!(
        url,
        Some(serde_json::json!("http://example.com/feed")),
        "the base URL is the record's url"
    );
    assert_eq!(without_source(&recs[0]), without_source(&file[0]));
}

#[test]
fn parallel_output_is_byte_identical_to_one_thread() {
    let dir = scratch("par");
    let (data, _, _) = build_warc(20);
    let path = dir.join("a.warc.gz");
    std::fs::write(&path, &data).unwrap();
    let p = path.to_str().unwrap();
    let one = feedmill(&["--threads", "1", p, "corpus/real", "corpus/cli/loose"]);
    assert!(one.status.success());
    for threads in ["2", "4", "3"] {
        let many = feedmill(&["--threads", threads, p, "corpus/real", "corpus/cli/loose"]);
        assert!(many.stdout == one.stdout, "--threads {threads} differs from --threads 1");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn broken_inputs_are_records_not_failures() {
    let dir = scratch("broken");
    let bad_gz = dir.join("bad.xml.gz");
    let mut g = gz(b"<rss><channel><title>t</title></channel></rss>");
    let n = g.len();
    g.truncate(n - 12);
    std::fs::write(&bad_gz, &g).unwrap();
    let missing = dir.join("missing.xml");
    let out = feedmill(&[
        bad_gz.to_str().unwrap(),
        missing.to_str().unwrap(),
        "corpus/cli/loose/a-rss2.xml",
    ]);
    let recs = records_of(&out);
    assert_eq!(recs.len(), 3);
    // A missing input: its error record, a message on stderr, exit status 1.
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("missing.xml"), "{stderr}");
    assert_eq!(recs[0]["status"], "error");
    assert_eq!(recs[0]["error"]["kind"], "truncated");
    assert_eq!(recs[1]["status"], "error");
    assert_eq!(recs[1]["error"]["kind"], "io");
    assert_eq!(recs[2]["source"], "corpus/cli/loose/a-rss2.xml");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn exit_codes() {
    assert_eq!(feedmill(&["--threads", "0"]).status.code(), Some(2));
    assert_eq!(feedmill(&["--no-such-flag"]).status.code(), Some(2));
    assert_eq!(feedmill(&["-j", "65535", "corpus/cli/loose"]).status.code(), Some(2));
    let bad_base = feedmill(&["--base-url", "not a url", "corpus/cli/loose"]);
    assert_eq!(bad_base.status.code(), Some(2));
    assert!(bad_base.stdout.is_empty());
    assert!(String::from_utf8_lossy(&bad_base.stderr).contains("invalid --base-url"));
    assert_eq!(
        feedmill(&["-o", "/nonexistent-dir/x.jsonl", "corpus/cli/loose"]).status.code(),
        Some(1)
    );
    // `lint` checks its inputs and flags as the main command does.
    let lint_bad_base = feedmill(&["lint", "--base-url", "not a url", "corpus/cli/loose"]);
    assert_eq!(lint_bad_base.status.code(), Some(2));
    assert!(lint_bad_base.stdout.is_empty());
    assert_eq!(feedmill(&["lint", "-j", "65535", "corpus/cli/loose"]).status.code(), Some(2));
    let lint_missing = feedmill(&["lint", "/nonexistent-dir/x.xml", "corpus/cli/loose"]);
    assert_eq!(lint_missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&lint_missing.stderr).contains("x.xml"));
    assert!(String::from_utf8_lossy(&lint_missing.stdout).contains("\"status\":\"error\""));
    // So does `discover`, and it takes the input limit.
    let discover_missing = feedmill(&["discover", "/nonexistent-dir/x.html", "corpus/cli/loose"]);
    assert_eq!(discover_missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&discover_missing.stderr).contains("x.html"));
    let first = records_of(&discover_missing)[0].clone();
    assert_eq!(first["error"]["kind"], "io", "{first}");
    let small = lines(&feedmill(&["discover", "--max-input-bytes", "16", "corpus/cli/loose"]));
    assert!(!small.is_empty() && small.iter().all(|r| r["error"]["kind"] == "too_large"));
    let help = feedmill(&["--help"]);
    assert!(help.status.success());
    assert!(String::from_utf8_lossy(&help.stdout).contains("EXAMPLES"));
    // -o writes the same bytes as stdout.
    let dir = scratch("out");
    let o = dir.join("o.jsonl");
    assert!(feedmill(&["-o", o.to_str().unwrap(), "corpus/cli/loose"]).status.success());
    assert_eq!(std::fs::read(&o).unwrap(), feedmill(&["corpus/cli/loose"]).stdout);
    // `-o -` is standard output, as with other tools (not a file named `-`).
    let dash = feedmill(&["-o", "-", "corpus/cli/loose"]);
    assert!(dash.status.success());
    assert_eq!(dash.stdout, std::fs::read(&o).unwrap());
    assert!(!Path::new(ROOT).join("-").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn closed_output_pipe_ends_quietly() {
    // Enough output to overflow the pipe buffer: the corpus many times over.
    let mut args = vec!["--threads", "2"];
    args.extend(std::iter::repeat_n("corpus/real", 40));
    let mut child = Command::new(BIN)
        .args(&args)
        .current_dir(ROOT)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 100];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout); // like `| head -c 100`
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "exit {:?}", out.status);
    assert!(out.stderr.is_empty(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
}

// ---------------------------------------------------------------------------------------------
// Beyond the spec's model: ext fields, --extract, --sanitize strict, discover.

fn one_record(args: &[&str]) -> Value {
    let mut recs = lines(&feedmill(args));
    assert_eq!(recs.len(), 1, "{args:?}");
    recs.remove(0)
}

#[test]
fn ext_fields_are_written() {
    let r = one_record(&["corpus/fixtures/extended/rss2-fields.xml"]);
    let f = &r["feed"];
    assert_eq!(f["language"], "en-us");
    assert_eq!(f["generator"]["name"], "MightyInHouse Content System v2.3");
    assert_eq!(f["rights"], "Copyright 2002, Spartanburg Herald-Journal");
    assert_eq!(f["ttl"], 60);
    assert_eq!(f["skip_hours"], serde_json::json!([0, 1, 23]));
    assert_eq!(f["skip_days"], serde_json::json!(["Saturday", "Sunday"]));
    assert_eq!(f["image"]["width"], 88);
    assert_eq!(f["image"]["description"], "The Herald");
    assert_eq!(f["category_details"][0], serde_json::json!({"term": "1765", "scheme": "Syndic8"}));
    let e = &f["entries"];
    assert_eq!(e[0]["id"], "https://herald.example/1");
    assert_eq!(e[0]["id_is_permalink"], true);
    assert_eq!(e[0]["source"]["url"], "http://www.tomalak.org/links2.xml");
    assert_eq!(e[1]["id"], "tag:herald.example,2024:2");
    assert_eq!(e[1]["id_is_permalink"], false);
    // Whitespace-only guid: no id, and null/empty keys are omitted.
    assert!(e[3].get("id").is_none() && e[3].get("id_is_permalink").is_none());

    let r = one_record(&["corpus/fixtures/extended/podcast.xml"]);
    let f = &r["feed"];
    assert_eq!(f["itunes"]["type"], "serial");
    assert_eq!(f["itunes"]["categories"][0]["subcategories"][1], "Philosophy");
    assert_eq!(f["itunes"]["owner"]["email"], "owner@pod.example");
    assert_eq!(
        f["podcast"]["locked"],
        serde_json::json!({"locked": true, "owner": "owner@pod.example"})
    );
    assert_eq!(f["podcast"]["funding"][0]["message"], "Support the show!");
    let e = &f["entries"][0];
    assert_eq!(e["itunes"]["episode"], 3);
    assert_eq!(e["itunes"]["episode_type"], "full");
    assert_eq!(e["podcast"]["transcripts"][0]["type"], "text/vtt");
    assert_eq!(e["podcast"]["chapters"]["url"], "https://pod.example/ep3.json");
    assert_eq!(e["podcast"]["season"], serde_json::json!({"number": 2, "name": "Autumn"}));
    assert_eq!(e["podcast"]["episode"], serde_json::json!({"number": "3.5", "display": "Ch. 3"}));

    let r = one_record(&["corpus/fixtures/extended/atom-fields.xml"]);
    let f = &r["feed"];
    assert_eq!(f["generator"]["version"], "1.0");
    assert_eq!(f["contributors"][0]["name"], "Carol");
    assert_eq!(f["entries"][0]["contributors"][1]["page_url"], "https://eve.example/");

    let r = one_record(&["corpus/fixtures/extended/dates.xml"]);
    let e = &r["feed"]["entries"];
    assert!(e[0].get("updated_lenient").is_none());
    assert_eq!(
        e[1]["updated_lenient"],
        serde_json::json!({"value": "2024-01-15T00:00:00Z", "zone_assumed": true, "form": "us-month-name"})
    );
    assert_eq!(e[3]["updated_lenient"]["zone_assumed"], false);
}

const EXTRACT_FEED_KEYS: &[&str] =
    &["title_text", "subtitle_text", "description_text", "canonical_url", "categories_normalized"];
const EXTRACT_ENTRY_KEYS: &[&str] = &[
    "fingerprint",
    "title_text",
    "subtitle_text",
    "summary_text",
    "content_text",
    "body_source",
    "body_text",
    "word_count",
    "canonical_url",
    "dedup_key",
    "dedup_source",
    "title_source",
    "image_url",
    "image_source",
    "image_width",
    "image_height",
    "categories_normalized",
    "date_flags",
];

fn has_any(v: &Value, keys: &[&str]) -> bool {
    keys.iter().any(|k| v.get(k).is_some())
}

#[test]
fn as_of_sets_the_instant_future_dates_are_flagged_after() {
    let dir = scratch("as-of");
    let path = dir.join("x.xml");
    std::fs::write(
        &path,
        "<rss version=\"2.0\"><channel><title>t</title>\
         <item><title>a</title><pubDate>Tue, 01 Jan 2030 00:00:00 GMT</pubDate></item>\
         </channel></rss>",
    )
    .unwrap();
    let p = path.to_str().unwrap();
    let flags = |as_of: &str| {
        one_record(&["--extract", "--as-of", as_of, p])["feed"]["entries"][0]["date_flags"].clone()
    };
    assert_eq!(flags("2029-12-01"), serde_json::json!(["future"]));
    // Less than a day before: not flagged (the key is omitted when empty).
    assert_eq!(flags("2029-12-31T12:00:00Z"), Value::Null);
    let bad = feedmill(&["--extract", "--as-of", "soon", p]);
    assert_eq!(bad.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn extract_flag_adds_extraction_keys() {
    let dir = scratch("extract");
    let path = dir.join("x.xml");
    std::fs::write(
        &path,
        r#"<rss version="2.0"><channel><title>Feed &amp;amp; co</title><link>HTTPS://Example.COM:443/blog/?utm_source=x&amp;b=2&amp;a=1#top</link><description>&lt;b&gt;Desc&lt;/b&gt;</description>
<item><title>One</title><link>https://example.com/p/1?utm_medium=rss</link><description>&lt;p&gt;Hello &lt;b&gt;big&lt;/b&gt; world&lt;/p&gt;&lt;script&gt;x()&lt;/script&gt;</description></item>
<item><title>Two</title><guid isPermaLink="false">id-2</guid></item>
<item><title>Three</title><pubDate>Mon, 15 Jan 2024 13:45:00 GMT</pubDate></item>
</channel></rss>"#,
    )
    .unwrap();
    let p = path.to_str().unwrap();
    let plain = one_record(&[p]);
    let f = &plain["feed"];
    assert!(!has_any(f, EXTRACT_FEED_KEYS), "{f}");
    for e in f["entries"].as_array().unwrap() {
        assert!(!has_any(e, EXTRACT_ENTRY_KEYS), "{e}");
    }

    let x = one_record(&["--extract", p]);
    let f = &x["feed"];
    assert_eq!(f["title_text"], "Feed &amp; co");
    // RSS channel descriptions are plain text in the spec's model: kept as written.
    assert_eq!(f["description_text"], "<b>Desc</b>");
    assert_eq!(f["canonical_url"], "https://example.com/blog?a=1&b=2");
    let e = &f["entries"];
    assert_eq!(e[0]["title_text"], "One");
    assert_eq!(e[0]["summary_text"], "Hello big world");
    assert_eq!(e[0]["body_source"], "summary");
    assert_eq!(e[0]["body_text"], "Hello big world");
    assert_eq!(e[0]["word_count"], 3);
    assert_eq!(e[0]["canonical_url"], "https://example.com/p/1");
    assert_eq!(e[0]["dedup_key"], "https://example.com/p/1");
    assert_eq!(e[0]["dedup_source"], "url");
    assert_eq!(e[1]["dedup_key"], "id-2");
    assert_eq!(e[1]["dedup_source"], "id");
    assert_eq!(e[1]["word_count"], 0);
    assert!(e[1].get("body_source").is_none());
    assert_eq!(e[2]["dedup_source"], "hash");
    assert_eq!(e[2]["dedup_key"].as_str().unwrap().len(), 16);
    // Without --extract the record is the same minus the extraction keys.
    let mut stripped = x.clone();
    for k in EXTRACT_FEED_KEYS {
        stripped["feed"].as_object_mut().unwrap().remove(*k);
    }
    for e in stripped["feed"]["entries"].as_array_mut().unwrap() {
        for k in EXTRACT_ENTRY_KEYS {
            e.as_object_mut().unwrap().remove(*k);
        }
    }
    assert_eq!(stripped, plain);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sanitize_strict_removes_script_and_event_handlers() {
    let dir = scratch("sanitize");
    let path = dir.join("xss.xml");
    std::fs::write(
        &path,
        r#"<rss version="2.0"><channel><title>t</title><link>https://x.example/</link>
<item><title>a</title><description>&lt;p&gt;hi &lt;img src="img/a.png" onerror="alert(1)"&gt;&lt;script&gt;alert(2)&lt;/script&gt; &lt;a href="javascript:alert(3)"&gt;j&lt;/a&gt; &lt;a href="rel/x"&gt;l&lt;/a&gt;&lt;/p&gt;</description></item>
</channel></rss>"#,
    )
    .unwrap();
    let p = path.to_str().unwrap();
    let base = "https://x.example/dir/feed.xml";
    let spec = one_record(&["--base-url", base, p]);
    // Schema-stable text values: always a string, `<name>_type` says whether it is HTML.
    assert_eq!(spec["feed"]["entries"][0]["summary_type"], "html");
    assert_eq!(spec["feed"]["entries"][0]["title_type"], "text");
    let spec_html = spec["feed"]["entries"][0]["summary"].as_str().unwrap().to_owned();
    assert!(spec_html.contains("<script>") && spec_html.contains("onerror="), "{spec_html}");
    // `--sanitize spec` is the default.
    assert_eq!(one_record(&["--sanitize", "spec", "--base-url", base, p]), spec);

    let strict = one_record(&["--sanitize", "strict", "--base-url", base, p]);
    assert_eq!(strict["feed"]["entries"][0]["summary_type"], "html");
    let html = strict["feed"]["entries"][0]["summary"].as_str().unwrap();
    assert!(!html.contains("<script") && !html.contains("alert(2)"), "{html}");
    assert!(!html.contains("onerror"), "{html}");
    assert!(!html.contains("javascript:"), "{html}");
    // Relative URLs resolved against the record's URL (here --base-url).
    assert!(html.contains(r#"src="https://x.example/dir/img/a.png""#), "{html}");
    assert!(html.contains(r#"href="https://x.example/dir/rel/x""#), "{html}");
    assert!(html.starts_with("<p>hi "), "{html}");
    // Plain values are untouched.
    assert_eq!(strict["feed"]["title"], "t");
    // `--max-url-growth` bounds the sanitizer's resolving too (under `--spec-exact` the
    // parser leaves the HTML's URLs to it): with none, they stay relative.
    let exact = ["--spec-exact", "--sanitize", "strict", "--base-url", base, p];
    let resolved = one_record(&exact);
    let html = resolved["feed"]["entries"][0]["summary"].as_str().unwrap();
    assert!(html.contains(r#"src="https://x.example/dir/img/a.png""#), "{html}");
    let kept = one_record(&[&exact[..], &["--max-url-growth", "0"]].concat());
    let html = kept["feed"]["entries"][0]["summary"].as_str().unwrap();
    assert!(html.contains(r#"src="img/a.png""#) && html.contains(r#"href="rel/x""#), "{html}");

    // Video embeds: dropped by default, kept with --allow-video-embeds; the flag needs strict.
    std::fs::write(
        &path,
        r#"<rss version="2.0"><channel><title>t</title><item><description>&lt;p&gt;v&lt;/p&gt;&lt;iframe src="https://www.youtube.com/embed/abc"&gt;&lt;/iframe&gt;</description></item></channel></rss>"#,
    )
    .unwrap();
    let no = one_record(&["--sanitize", "strict", p]);
    assert!(!no.to_string().contains("iframe"), "{no}");
    let yes = one_record(&["--sanitize", "strict", "--allow-video-embeds", p]);
    assert!(yes["feed"]["entries"][0]["summary"].as_str().unwrap().contains("<iframe"), "{yes}");
    assert_eq!(feedmill(&["--allow-video-embeds", p]).status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn strict_sanitizing_removes_unsafe_urls_from_url_fields() {
    let dir = scratch("strict-urls");
    let path = dir.join("urls.xml");
    std::fs::write(
        &path,
        r#"<rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>t</title>
<link>javascript:alert(1)</link><podcast:funding url="data:text/html,x">f</podcast:funding>
<podcast:funding url="https://fund.example/">ok</podcast:funding>
<item><title>a</title><link>JaVa&#x09;script:alert(2)</link><comments>javascript:alert(3)</comments>
<enclosure url="data:audio/mpeg;base64,AA" type="audio/mpeg" length="3"/>
<enclosure url="https://x.example/a.mp3" type="audio/mpeg" length="3"/>
<source url="vbscript:x">s</source>
<description>&lt;iframe src="https://www.youtube.com/embed/abc"&gt;&lt;img src=x onerror=alert(4)&gt;&lt;/iframe&gt;</description></item>
</channel></rss>"#,
    )
    .unwrap();
    let p = path.to_str().unwrap();
    // The spec's values (what the default writes) keep them.
    let spec = one_record(&[p]);
    assert_eq!(spec["feed"]["page_url"], "javascript:alert(1)");
    assert_eq!(spec["feed"]["entries"][0]["comments"], "javascript:alert(3)");
    let strict = one_record(&["--sanitize", "strict", "--allow-video-embeds", p]);
    let feed = &strict["feed"];
    assert_eq!(feed.get("page_url"), None, "{feed}");
    assert_eq!(
        feed["podcast"]["funding"].to_string(),
        r#"[{"message":"ok","url":"https://fund.example/"}]"#
    );
    let e = &feed["entries"][0];
    assert_eq!(e.get("page_url"), None, "{e}");
    assert_eq!(e.get("comments"), None, "{e}");
    assert_eq!(e["source"].to_string(), r#"{"title":"s"}"#);
    assert_eq!(
        e["enclosures"].to_string(),
        r#"[{"length":3,"source":"enclosure","type":"audio/mpeg"},{"length":3,"source":"enclosure","type":"audio/mpeg","url":"https://x.example/a.mp3"}]"#
    );
    // A kept video embed loses its (never shown, raw) text content, and gets a fixed `allow`.
    assert_eq!(
        e["summary"],
        r#"<iframe src="https://www.youtube.com/embed/abc" sandbox="allow-scripts allow-same-origin allow-presentation allow-popups" allow="autoplay; encrypted-media; fullscreen; picture-in-picture"></iframe>"#
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn strict_sanitizing_removes_unsafe_urls_from_module_fields() {
    let dir = scratch("strict-module-urls");
    let path = dir.join("urls.xml");
    std::fs::write(
        &path,
        r#"<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:wfw="http://wellformedweb.org/CommentAPI/" xmlns:media="http://search.yahoo.com/mrss/" xmlns:thr="http://purl.org/syndication/thread/1.0"><channel><title>t</title>
<link>https://site.example/</link><docs>javascript:alert(1)</docs>
<textInput><title>s</title><description>d</description><name>q</name><link>data:text/html,x</link></textInput>
<atom:link rel="hub" href="javascript:alert(2)"/><atom:link rel="hub" href="https://hub.example/"/>
<item><title>a</title><wfw:commentRss>vbscript:x</wfw:commentRss>
<atom:link rel="replies" href="javascript:alert(3)"/>
<thr:in-reply-to ref="tag:x" href="javascript:alert(4)"/>
<media:content url="javascript:alert(5)" medium="image"/><media:content url="https://m.example/a.jpg" medium="image"/>
<media:player url="data:text/html,y"/>
</item></channel></rss>"#,
    )
    .unwrap();
    let p = path.to_str().unwrap();
    // The default output keeps the values as written.
    let spec = one_record(&[p]);
    assert_eq!(spec["feed"]["docs"], "javascript:alert(1)");
    assert_eq!(spec["feed"]["entries"][0]["media"]["player"]["url"], "data:text/html,y");
    let strict = one_record(&["--sanitize", "strict", p]);
    let feed = &strict["feed"];
    assert_eq!(feed.get("docs"), None, "{feed}");
    assert_eq!(feed["text_input"].to_string(), r#"{"description":"d","name":"q","title":"s"}"#);
    assert_eq!(feed["links"].to_string(), r#"[{"rel":"hub","url":"https://hub.example/"}]"#);
    let e = &feed["entries"][0];
    assert_eq!(e.get("comment_feed_url"), None, "{e}");
    assert_eq!(e.get("links"), None, "{e}");
    assert_eq!(e["in_reply_to"].to_string(), r#"[{"id":"tag:x"}]"#);
    assert_eq!(
        e["media"].to_string(),
        r#"{"contents":[{"medium":"image"},{"medium":"image","url":"https://m.example/a.jpg"}]}"#
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn discover_html_files_and_warc_responses() {
    let dir = scratch("discover");
    let page = dir.join("page.html");
    std::fs::write(
        &page,
        r#"<!doctype html><html><head><title>Blog</title>
<link rel="alternate" type="application/rss+xml" title="Posts" href="/feed">
<link rel="stylesheet" href="/s.css"></head><body><p>hi</p></body></html>"#,
    )
    .unwrap();
    let p = page.to_str().unwrap();
    let out = feedmill(&["discover", "--base-url", "https://blog.example/posts/1", p]);
    let recs = lines(&out);
    assert_eq!(recs.len(), 1);
    let r = &recs[0];
    assert_eq!(r["source"], p);
    assert_eq!(r["page_url"], "https://blog.example/posts/1");
    assert_eq!(
        r["feeds"],
        serde_json::json!([{"url": "https://blog.example/feed", "type": "application/rss+xml", "title": "Posts", "found_by": "link"}])
    );
    assert_eq!(r["candidates"][0], "https://blog.example/feed");
    // Key order as documented.
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with(r#"{"source":"#)
            && text.contains(r#""page_url":"https://blog.example/posts/1","feeds":[{"url":"#)
    );

    // Without a page URL only absolute links can be found; no candidates.
    let r = &lines(&feedmill(&["discover", p]))[0];
    assert_eq!(r["feeds"], serde_json::json!([]));
    assert!(r.get("page_url").is_none());

    // WARC: HTML 200 responses are pages at their target URI; feeds and 404s are skipped.
    let html = std::fs::read(&page).unwrap();
    let mut warc = Vec::new();
    warc.extend(gz(&warc_record(
        "response",
        "https://site.example/a/b.html",
        &http("200 OK", &[("Content-Type", "text/html; charset=utf-8")], &html),
    )));
    warc.extend(gz(&warc_record(
        "response",
        "https://site.example/feed.xml",
        &http(
            "200 OK",
            &[("Content-Type", "application/rss+xml")],
            b"<rss version=\"2.0\"><channel/></rss>",
        ),
    )));
    warc.extend(gz(&warc_record(
        "response",
        "https://site.example/gone",
        &http("404 Not Found", &[], &html),
    )));
    let wpath = dir.join("pages.warc.gz");
    std::fs::write(&wpath, &warc).unwrap();
    let recs = lines(&feedmill(&["discover", wpath.to_str().unwrap()]));
    assert_eq!(recs.len(), 1, "{recs:?}");
    assert_eq!(recs[0]["page_url"], "https://site.example/a/b.html");
    assert_eq!(recs[0]["feeds"][0]["url"], "https://site.example/feed");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn plain_form_is_unchanged_by_the_subcommand() {
    // `feedmill INPUT...` still processes inputs; a file named `discover` is reachable as
    // `./discover`.
    let recs = lines(&feedmill(&["corpus/fixtures/extended/podcast.xml"]));
    assert_eq!(recs[0]["status"], "ok");
    let dir = scratch("named-discover");
    std::fs::copy(
        Path::new(ROOT).join("corpus/fixtures/extended/podcast.xml"),
        dir.join("discover"),
    )
    .unwrap();
    let out = Command::new(BIN).arg("./discover").current_dir(&dir).output().unwrap();
    let recs = lines(&out);
    assert_eq!(recs[0]["feed"]["title"], "Pod");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn extract_output_is_byte_identical_across_threads() {
    let dir = scratch("par-extract");
    let (data, _, _) = build_warc(10);
    let path = dir.join("a.warc.gz");
    std::fs::write(&path, &data).unwrap();
    let p = path.to_str().unwrap();
    let args = ["--extract", "--sanitize", "strict", p, "corpus/real", "corpus/fixtures/extended"];
    let one = feedmill(&[&["--threads", "1"][..], &args].concat());
    assert!(one.status.success());
    let two = feedmill(&[&["--threads", "2"][..], &args].concat());
    assert!(two.stdout == one.stdout, "--threads 2 differs from --threads 1 with --extract");
    let plain =
        feedmill(&["--threads", "1", "--extract", p, "corpus/real", "corpus/fixtures/extended"]);
    let plain2 =
        feedmill(&["--threads", "2", "--extract", p, "corpus/real", "corpus/fixtures/extended"]);
    assert!(plain.stdout == plain2.stdout, "--threads 2 differs from --threads 1 with --extract");
    assert!(String::from_utf8_lossy(&one.stdout).contains("\"dedup_key\""));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn readers_change_no_output_byte() {
    // Several inputs (two WARC.gz files, directories, a loose file) read by 1, 2 and 5 reader
    // threads: the same lines in the same order as one reader with one worker.
    let dir = scratch("readers");
    let (data, _, _) = build_warc(6);
    let (a, b) = (dir.join("a.warc.gz"), dir.join("b.warc.gz"));
    std::fs::write(&a, &data).unwrap();
    std::fs::write(&b, &data[..data.len() / 2]).unwrap(); // cut: an error record, same place
    let inputs = [
        a.to_str().unwrap(),
        "corpus/real",
        b.to_str().unwrap(),
        "corpus/cli/loose/a-rss2.xml",
        "corpus/fixtures/extended",
    ];
    let base = feedmill(&[&["-q", "-j", "1", "--readers", "1"][..], &inputs].concat());
    assert!(!base.stdout.is_empty());
    for (threads, readers) in [("2", "2"), ("3", "5"), ("1", "3")] {
        let out = feedmill(&[&["-q", "-j", threads, "--readers", readers][..], &inputs].concat());
        assert_eq!(out.status.code(), base.status.code());
        assert!(out.stdout == base.stdout, "-j {threads} --readers {readers} differs");
    }
    assert_eq!(feedmill(&["--readers", "0", "corpus/cli/loose"]).status.code(), Some(2));
    assert_eq!(feedmill(&["--readers", "257", "corpus/cli/loose"]).status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn lint_lines_summary_and_deny() {
    let dir = "corpus/fixtures/lint";
    let out = feedmill(&["lint", "--threads", "1", dir]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let parallel = feedmill(&["lint", "--threads", "3", dir]);
    assert_eq!(out.stdout, parallel.stdout, "lint lines depend on --threads");
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    let clean = r#"{"source":"corpus/fixtures/lint/clean.xml","status":"ok","format":"rss2","version":"2.0","findings":[]}"#;
    assert!(text.lines().any(|l| l == clean), "{text}");
    let recs = lines(&out);
    let bad = recs.iter().find(|v| v["source"] == "corpus/fixtures/lint/image-width.bad.xml");
    let f = &bad.unwrap()["findings"][0];
    assert_eq!(f["code"], "InvalidWidth");
    assert_eq!(f["severity"], "error");
    assert_eq!(f["message"], "width must be between 1 and 144");
    assert_eq!(f["section"], "4.1.1.9.6 width");

    // Findings are data: exit 0 unless --deny.
    let clean_file = "corpus/fixtures/lint/clean.xml";
    let warn_file = "corpus/fixtures/lint/guid-missing.bad.xml";
    let err_file = "corpus/fixtures/lint/image-width.bad.xml";
    assert_eq!(feedmill(&["lint", err_file]).status.code(), Some(0));
    assert_eq!(feedmill(&["lint", "--deny", "errors", warn_file]).status.code(), Some(0));
    assert_eq!(feedmill(&["lint", "--deny", "errors", err_file]).status.code(), Some(3));
    assert_eq!(feedmill(&["lint", "--deny", "warnings", warn_file]).status.code(), Some(3));
    assert_eq!(feedmill(&["lint", "--deny", "warnings", clean_file]).status.code(), Some(0));

    let summary = feedmill(&["lint", "--summary", err_file, warn_file, clean_file]);
    let table = String::from_utf8(summary.stderr).unwrap();
    assert!(
        table.starts_with("feedmill lint: 3 records (3 linted), 1 with errors, 1 with warnings\n"),
        "{table}"
    );
    assert!(
        table.contains("\nInvalidWidth                         error           1       1\n"),
        "{table}"
    );
    assert!(
        table.contains("\nMissingGuid                          warning         1       1\n"),
        "{table}"
    );

    // The limits are the main command's flags; a record not linted says why.
    let small = lines(&feedmill(&["lint", "--max-input-bytes", "64", clean_file]));
    assert_eq!(small[0]["status"], "error", "{small:?}");
    assert_eq!(small[0]["error"]["kind"], "too_large", "{small:?}");
    let text = feedmill(&["lint", "--format", "text", "--max-input-bytes", "64", clean_file]);
    let text = String::from_utf8(text.stdout).unwrap();
    assert_eq!(
        text,
        format!("{clean_file}: not linted (error: too_large): document larger than 64 bytes\n")
    );
    let two = "corpus/fixtures/lint/skipdays-eight.bad.xml";
    let capped = lines(&feedmill(&["lint", "--max-diagnostics", "1", two]));
    assert_eq!(capped[0]["findings"].as_array().map(Vec::len), Some(1), "{capped:?}");
    assert_eq!(capped[0]["findings_dropped"], 1, "{capped:?}");
    assert_eq!(lines(&feedmill(&["lint", two]))[0]["findings"].as_array().map(Vec::len), Some(2));
}

#[test]
fn main_job_lint_flag_adds_findings_last() {
    let out = feedmill(&["--lint", "corpus/fixtures/lint/guid-missing.bad.xml"]);
    let line = String::from_utf8(out.stdout.clone()).unwrap();
    let at = line.find(r#"]},"findings":[{"code":"MissingGuid""#).expect("findings after feed");
    assert!(line[at..].trim_end().ends_with("]}") && !line[at + 3..].contains(r#""feed""#));
    assert_eq!(lines(&out)[0]["findings"][0]["code"], "MissingGuid");
    let rec = one_record(&["--lint", "corpus/fixtures/lint/clean.xml"]);
    assert!(rec.get("findings").is_none(), "no findings, no key");
    let rec = one_record(&["corpus/fixtures/lint/guid-missing.bad.xml"]);
    assert!(rec.get("findings").is_none(), "no --lint, no key");
}

/// Pages in legacy encodings: the encoding comes from `<meta charset>`, `<meta http-equiv>`
/// or the WARC response's Content-Type charset (it was always read as UTF-8, so windows-1251
/// and Shift_JIS feed URLs and titles came out as U+FFFD).
#[test]
fn discover_decodes_pages_by_their_declared_encoding() {
    let dir = scratch("discover-charset");
    // `<link … title="Лента новостей" href="/лента.xml">` in windows-1251.
    let cp1251 = [
        b"<link rel=alternate type=application/rss+xml title=\"".as_slice(),
        b"\xcb\xe5\xed\xf2\xe0 \xed\xee\xe2\xee\xf1\xf2\xe5\xe9\" href=\"/\xeb\xe5\xed\xf2\xe0.xml\">",
    ]
    .concat();
    let meta = [b"<meta charset=windows-1251>".as_slice(), &cp1251].concat();
    let equiv = [
        b"<meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1251\">"
            .as_slice(),
        &cp1251,
    ]
    .concat();
    for (name, page) in [("meta.html", &meta), ("equiv.html", &equiv)] {
        let path = dir.join(name);
        std::fs::write(&path, page).unwrap();
        let out =
            feedmill(&["discover", "--base-url", "https://ru.example/", path.to_str().unwrap()]);
        let r = &lines(&out)[0];
        assert_eq!(r["feeds"][0]["url"], "https://ru.example/%D0%BB%D0%B5%D0%BD%D1%82%D0%B0.xml");
        assert_eq!(r["feeds"][0]["title"], "Лента новостей", "{name}");
    }
    // Shift_JIS named only by the response's Content-Type.
    // `<a href="/日本/feed">フィード</a>` in Shift_JIS.
    let sjis = b"<a href=\"/\x93\xfa\x96{/feed\">\x83t\x83B\x81[\x83h</a>";
    let warc = gz(&warc_record(
        "response",
        "https://jp.example/",
        &http("200 OK", &[("Content-Type", "text/html; charset=Shift_JIS")], sjis),
    ));
    let wpath = dir.join("sjis.warc.gz");
    std::fs::write(&wpath, &warc).unwrap();
    let r = &lines(&feedmill(&["discover", wpath.to_str().unwrap()]))[0];
    assert_eq!(r["feeds"][0]["url"], "https://jp.example/%E6%97%A5%E6%9C%AC/feed");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A huge `<base href>` with many relative links: each link's URL copied the base, so the
/// output was over a thousand times the page. Links over 32 KiB, and links past the page's
/// resolution budget, are counted in `skipped_links`; the output stays a small multiple of
/// the page, and absolute links are still found.
#[test]
fn discover_output_stays_a_small_multiple_of_the_page() {
    let dir = scratch("discover-base");
    for base_len in [1 << 20, 30_000] {
        let mut page = format!("<base href=\"https://cdn.example/{}/\">", "b".repeat(base_len));
        for i in 0..4_000 {
            page.push_str(&format!("<a href=\"f{i}/feed\">x</a>"));
        }
        page.push_str(
            "<link rel=alternate type=application/rss+xml href=\"https://abs.example/feed\">",
        );
        let path = dir.join("page.html");
        std::fs::write(&path, &page).unwrap();
        let out =
            feedmill(&["discover", "--base-url", "https://site.example/", path.to_str().unwrap()]);
        assert!(
            out.stdout.len() <= 10 * page.len(),
            "{base_len}: {} bytes out for {} in",
            out.stdout.len(),
            page.len()
        );
        let r = &lines(&out)[0];
        assert_eq!(r["feeds"][0]["url"], "https://abs.example/feed");
        let found = r["feeds"].as_array().unwrap().len() as u64;
        assert_eq!(found + r["skipped_links"].as_u64().unwrap(), 4_001, "{base_len}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Records are read ahead within a byte budget (16 MiB, the main pipeline's default), not a
/// fixed 64 records whatever their size (16 pages of 32 MB held 414 MB more): 12 pages of
/// 2 MiB are all found, with at most 16 MiB of records read ahead at once.
#[test]
fn discover_reads_ahead_within_a_byte_budget() {
    let dir = scratch("discover-ahead");
    for i in 0..12 {
        let page = format!(
            "<link rel=alternate type=application/rss+xml href=https://e.example/{i}/feed>{}",
            "<p>x</p>".repeat(1 << 18)
        );
        std::fs::write(dir.join(format!("p{i:02}.html")), page).unwrap();
    }
    let out = feedmill(&["discover", "--summary", dir.to_str().unwrap()]);
    let recs = lines(&out);
    assert_eq!(recs.len(), 12);
    for (i, r) in recs.iter().enumerate() {
        assert_eq!(r["feeds"][0]["url"], format!("https://e.example/{i}/feed"));
    }
    let err = String::from_utf8(out.stderr).unwrap();
    let peak: usize = err
        .trim_end()
        .split(", ")
        .find_map(|part| part.strip_suffix(" bytes read ahead at most"))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no read-ahead figure in {err:?}"));
    assert!((2 << 20..=16 << 20).contains(&peak), "{peak}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file name that is not UTF-8 (Latin-1 `café`) is an input like any other: read when it
/// exists, an error record naming it when it does not (with a message naming it, exit 1),
/// and the other inputs are read. Its byte is written `\xe9`; a file literally named
/// `caf\xe9.xml` is written `caf\\xe9.xml`, so the two never share a source.
#[cfg(target_os = "linux")]
#[test]
fn non_utf8_file_names_are_read_and_named_unambiguously() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    check_binary();
    let dir = scratch("latin1");
    let feed = std::fs::read(Path::new(ROOT).join("corpus/cli/loose/a-rss2.xml")).unwrap();
    let latin1 = dir.join(OsStr::from_bytes(b"caf\xe9.xml"));
    let literal = dir.join("caf\\xe9.xml");
    let missing = dir.join(OsStr::from_bytes(b"gone-\xff.xml"));
    std::fs::write(&latin1, &feed).unwrap();
    std::fs::write(&literal, &feed).unwrap();
    let out = Command::new(BIN)
        .args([latin1.as_os_str(), missing.as_os_str(), literal.as_os_str()])
        .current_dir(ROOT)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "a missing input");
    let d = dir.to_str().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(&format!("{d}/gone-\\xff.xml")), "{stderr}");
    let got: Vec<(String, String)> = records_of(&out)
        .iter()
        .map(|r| (r["source"].as_str().unwrap().into(), r["status"].as_str().unwrap().into()))
        .collect();
    let want = [
        (format!("{d}/caf\\xe9.xml"), "ok"),
        (format!("{d}/gone-\\xff.xml"), "error"),
        (format!("{d}/caf\\\\xe9.xml"), "ok"),
    ];
    assert_eq!(got, want.map(|(s, k)| (s, k.to_owned())));
    // The same names from a directory walk, in name order, still distinct.
    std::fs::write(dir.join(OsStr::from_bytes(b"caf\xff.xml")), &feed).unwrap();
    let walked: Vec<String> =
        lines(&feedmill(&[d])).iter().map(|r| r["source"].as_str().unwrap().to_owned()).collect();
    assert_eq!(
        walked,
        [format!("{d}/caf\\\\xe9.xml"), format!("{d}/caf\\xe9.xml"), format!("{d}/caf\\xff.xml"),]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A WARC.gz stored in a tar (beside a feed) gives the records it gives as a file, each
/// named under the member (`crawls.tar!crawl.warc.gz@offset uri`), byte for byte otherwise;
/// an ARC file is read as one (its version block skipped, its record named like a WARC's).
/// Before, the member was one `ok` record holding its first feed, every other record lost;
/// the ARC file was one `unsupported_archive` error record.
#[test]
fn a_warc_gz_in_a_tar_reads_as_the_warc_gz_and_an_arc_file_as_an_arc() {
    let dir = scratch("nested");
    let (data, expect, _) = build_warc(5);
    let warc = dir.join("crawl.warc.gz");
    std::fs::write(&warc, &data).unwrap();
    let tar_path = dir.join("crawls.tar");
    let mut b = tar::Builder::new(std::fs::File::create(&tar_path).unwrap());
    b.append_path_with_name(&warc, "crawl.warc.gz").unwrap();
    b.append_path_with_name(Path::new(ROOT).join("corpus/cli/loose/a-rss2.xml"), "a.xml").unwrap();
    b.into_inner().unwrap().flush().unwrap();
    let (w, t) = (warc.to_str().unwrap(), tar_path.to_str().unwrap());
    let alone = lines(&feedmill(&[w]));
    assert_eq!(alone.len(), expect.len());
    let nested = lines(&feedmill(&[t]));
    assert_eq!(nested.len(), alone.len() + 1);
    for (n, a) in nested.iter().zip(&alone) {
        let renamed = a["source"].as_str().unwrap().replacen(w, &format!("{t}!crawl.warc.gz"), 1);
        assert_eq!(n["source"].as_str().unwrap(), renamed);
        assert_eq!(without_source(n), without_source(a));
    }
    assert_eq!(nested.last().unwrap()["source"], format!("{t}!a.xml"));
    assert_eq!(nested.last().unwrap()["status"], "ok");
    // An ARC file: its header record, then a feed it holds.
    let feed = b"<rss version=\"2.0\"><channel><title>first</title></channel></rss>";
    let mut arc = b"filedesc://x.arc 0.0.0.0 20240101000000 text/plain 76\n1 0 InternetArchive\n\
        URL IP-address Archive-date Content-type Archive-length\n\n"
        .to_vec();
    arc.extend(format!("http://a/feed 1.2.3.4 20240101000000 text/xml {}\n", feed.len()).bytes());
    arc.extend(feed);
    let arc_path = dir.join("crawl.arc");
    std::fs::write(&arc_path, &arc).unwrap();
    let a = arc_path.to_str().unwrap();
    let recs = lines(&feedmill(&[a]));
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0]["source"], format!("{a}@131 http://a/feed"));
    assert_eq!(recs[0]["status"], "ok");
    assert_eq!(recs[0]["feed"]["title"], "first");
    // A block without an HTTP header is a document: a resource with the header's type.
    assert_eq!(recs[0]["capture"]["record_type"], "resource");
    assert_eq!(recs[0]["capture"]["content_type"], "text/xml");
    assert_eq!(recs[0]["capture"]["date"], "2024-01-01T00:00:00Z");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every limit of `feedmill::Limits::ALL` is a `--max-*` flag, and a flag takes effect.
#[test]
fn every_limit_is_a_flag_that_takes_effect() {
    let help = String::from_utf8(feedmill(&["--help"]).stdout).unwrap();
    for limit in feedmill::Limits::ALL {
        let flag = format!("--{} ", limit.name().replace('_', "-"));
        assert!(help.contains(&flag), "{flag}missing from --help");
    }
    let doc = b"<rss version='2.0'><channel><title>t</title>\
        <item><title>a</title><link>a/1</link></item>\
        <item><title>b</title><link>b/2</link></item></channel></rss>";
    let limited = |rec: &Value| {
        rec["diagnostics"]
            .as_array()
            .is_some_and(|d| d.iter().any(|d| d["kind"] == "limit_reached"))
    };

    let all = lines(&feedmill_stdin(&["-"], doc));
    assert_eq!(all[0]["feed"]["entries"].as_array().unwrap().len(), 2);
    assert!(!limited(&all[0]));
    let one = lines(&feedmill_stdin(&["--max-entries", "1", "-"], doc));
    assert_eq!(one[0]["feed"]["entries"].as_array().unwrap().len(), 1);
    assert!(limited(&one[0]), "{}", one[0]);

    // A base URL longer than the document: resolving its relative links adds more than the
    // document's length, which --max-url-growth 0 refuses (the links stay as written).
    let base = format!("http://example.com/{}/", "x".repeat(400));
    let resolved = lines(&feedmill_stdin(&["--base-url", &base, "-"], doc));
    assert_eq!(resolved[0]["feed"]["entries"][0]["page_url"], format!("{base}a/1"));
    let kept = lines(&feedmill_stdin(&["--base-url", &base, "--max-url-growth", "0", "-"], doc));
    assert_eq!(kept[0]["feed"]["entries"][0]["page_url"], "a/1");
    assert!(limited(&kept[0]), "{}", kept[0]);

    // The channel's author is copied into the entries without authors of their own, within
    // --max-inherited-bytes (read where the record is written, not by the parser).
    let authored = b"<rss version='2.0'><channel><managingEditor>ed@example.org (Ed)\
        </managingEditor><item><title>a</title></item><item><title>b</title></item>\
        </channel></rss>";
    let copied = lines(&feedmill_stdin(&["-"], authored));
    assert_eq!(copied[0]["feed"]["entries"][1]["computed_authors"][0]["name"], "Ed");
    assert!(!limited(&copied[0]), "{}", copied[0]);
    let cut = lines(&feedmill_stdin(&["--max-inherited-bytes", "0", "-"], authored));
    assert_eq!(cut[0]["feed"]["entries"][0].get("computed_authors"), None);
    assert!(limited(&cut[0]), "{}", cut[0]);
}
