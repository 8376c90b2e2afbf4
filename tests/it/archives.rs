//! Archives as crawls ship them, through the bulk pipeline, each case with its exact records:
//! ARC and ARC.gz, WARC.zst with and without its dictionary, `revisit` and `resource`
//! records, `br` and `zstd` bodies, a body stored decoded under a stale `Content-Encoding`,
//! and the record types that give no record, counted.

use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use feedmill::bulk::{self, Config, Input, Summary};
use serde_json::{json, Value};

/// A `Write` the test keeps a handle on.
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

/// `data` written to a file of its own named `name`, processed (with `cfg`): its records as
/// JSON values with `source` cut to what follows the path, and the run's summary.
fn run_cfg(name: &str, data: &[u8], cfg: &Config) -> (Vec<Value>, Summary) {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("feedmill-archives-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path: PathBuf = dir.join(name);
    std::fs::write(&path, data).unwrap();
    let out = Shared::default();
    let summary =
        bulk::run(vec![Input::Path(path.clone())], cfg, Box::new(out.clone()), &mut |_| {})
            .unwrap();
    let prefix = path.to_str().unwrap().to_owned();
    let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    // The record reader and a worker give the same lines as the pipeline (notes included).
    let mut worker = bulk::Worker::new(cfg);
    let mut again = Vec::new();
    for rec in bulk::read(vec![Input::Path(path.clone())], cfg) {
        worker.process(&rec.unwrap(), &mut |v| {
            feedmill::sink::json::encode_record(&mut again, v);
            again.push(b'\n');
        });
    }
    assert_eq!(String::from_utf8(again).unwrap(), text, "bulk::read + Worker::process");
    let records = text
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            let s = v["source"].as_str().unwrap().replacen(&prefix, "", 1);
            v["source"] = Value::String(s);
            // A record's `url` is its capture's target URI: checked here for every record,
            // then left out of the comparisons.
            let url = v.as_object_mut().unwrap().remove("url").unwrap_or(Value::Null);
            assert_eq!(url, v["capture"]["target_uri"], "the url of {l}");
            v
        })
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    (records, summary)
}

fn run(name: &str, data: &[u8]) -> (Vec<Value>, Summary) {
    run_cfg(name, data, &Config { threads: 2, ..Config::default() })
}

/// Asserts records equal, printing both in full when they are not.
fn same(got: &[Value], want: &[Value]) {
    assert!(
        got == want,
        "got:\n{}\nwant:\n{}",
        serde_json::to_string_pretty(got).unwrap(),
        serde_json::to_string_pretty(want).unwrap()
    );
}

const FEED: &str = "<rss version=\"2.0\"><channel><title>News</title>\
    <item><title>First</title><guid>a1</guid></item></channel></rss>";

/// The record's `feed` object of [`FEED`].
fn feed() -> Value {
    json!({
        "title": "News", "title_type": "text", "version": "2.0",
        "entries": [{"title": "First", "title_type": "text", "id": "a1", "id_is_permalink": true}]
    })
}

fn gz(data: &[u8]) -> Vec<u8> {
    use flate2::{write::GzEncoder, Compression};
    let mut e = GzEncoder::new(Vec::new(), Compression::fast());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// One zstd frame with a content checksum, with `dict` when not empty.
fn zst(data: &[u8], dict: &[u8]) -> Vec<u8> {
    let mut c = zstd::bulk::Compressor::with_dictionary(3, dict).unwrap();
    c.include_checksum(true).unwrap();
    c.compress(data).unwrap()
}

/// A WARC record: `fields` after the type, then the block.
fn warc(ty: &str, fields: &[(&str, &str)], block: &[u8]) -> Vec<u8> {
    let mut r = format!("WARC/1.1\r\nWARC-Type: {ty}\r\n");
    for (k, v) in fields {
        r += &format!("{k}: {v}\r\n");
    }
    r += &format!("Content-Length: {}\r\n\r\n", block.len());
    let mut r = r.into_bytes();
    r.extend_from_slice(block);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

fn http(headers: &str, body: &[u8]) -> Vec<u8> {
    [format!("HTTP/1.1 200 OK\r\n{headers}\r\n").as_bytes(), body].concat()
}

/// A response of [`FEED`] at `uri`, captured at `date`, with record id `<urn:x:id>`.
fn response(id: &str, uri: &str, date: &str) -> Vec<u8> {
    warc(
        "response",
        &[
            ("WARC-Record-ID", &format!("<urn:x:{id}>")),
            ("WARC-Date", date),
            ("WARC-Target-URI", uri),
            ("WARC-Payload-Digest", "sha1:FEEDFEEDFEEDFEEDFEEDFEEDFEEDFEED"),
            ("Content-Type", "application/http; msgtype=response"),
        ],
        &http("Content-Type: application/rss+xml\r\n", FEED.as_bytes()),
    )
}

/// The capture of [`response`].
fn response_capture(id: &str, uri: &str, date: &str) -> Value {
    json!({
        "record_type": "response", "date": date, "target_uri": uri,
        "record_id": format!("<urn:x:{id}>"),
        "payload_digest": "sha1:FEEDFEEDFEEDFEEDFEEDFEEDFEEDFEED",
        "http_status": 200, "content_type": "application/rss+xml"
    })
}

fn ok(source: &str, capture: Value) -> Value {
    json!({"source": source, "status": "ok", "format": "rss2", "encoding": "UTF-8",
           "capture": capture, "feed": feed()})
}

#[test]
fn arc_and_arc_gz() {
    let block = b"1 0 Feedmill\nURL IP-address Archive-date Content-type Archive-length\n";
    let filedesc = [
        format!("filedesc://t.arc 0.0.0.0 20050101000000 text/plain {}\n", block.len()).as_bytes(),
        block,
        b"\n",
    ]
    .concat();
    let body = http("Content-Type: text/xml\r\n", FEED.as_bytes());
    let rec = [
        format!("http://a.example/rss 192.0.2.1 20050102030405 text/xml {}\n", body.len())
            .as_bytes(),
        &body,
        b"\n",
    ]
    .concat();
    let dns = b"dns:a.example 192.0.2.1 20050102030404 text/dns 9\n192.0.2.1\n".to_vec();
    let capture = json!({"record_type": "response", "date": "2005-01-02T03:04:05Z",
        "target_uri": "http://a.example/rss", "http_status": 200, "content_type": "text/xml"});
    let plain = [filedesc.clone(), dns.clone(), rec.clone()].concat();
    let at = filedesc.len() + dns.len();
    let (got, summary) = run("t.arc", &plain);
    same(&got, &[ok(&format!("@{at} http://a.example/rss"), capture.clone())]);
    assert_eq!((summary.records, summary.skipped_records), (1, 2));
    let by_type: Vec<_> = summary.skipped().collect();
    assert_eq!(by_type, [("filedesc", 1), ("dns", 1)]);
    assert_eq!(summary.skipped_by_type.iter().sum::<u64>(), 2);
    let (f, d) = (gz(&filedesc), gz(&dns));
    let (got, _) = run("t.arc.gz", &[f.clone(), d.clone(), gz(&rec)].concat());
    same(&got, &[ok(&format!("@{} http://a.example/rss", f.len() + d.len()), capture)]);
}

/// A record whose stated length is wrong, in a file of one gzip member (ARC.gz, WARC.gz) or
/// zstd frame (WARC.zst) per record: read to its member's end, its record carrying a
/// `recovered` diagnostic with the stated and the actual length; one record out per record in.
#[test]
fn member_end_bounds_a_record_whose_length_is_wrong() {
    let body = http("Content-Type: application/rss+xml\r\n", FEED.as_bytes());
    let cl = body.len().to_string();
    let good = response("a", "http://a.example/rss", "2024-01-01T00:00:00Z");
    let lying = String::from_utf8(response("b", "http://b.example/rss", "2024-01-02T00:00:00Z"))
        .unwrap()
        .replacen(&format!("Content-Length: {cl}\r\n"), "Content-Length: 12\r\n", 1)
        .into_bytes();
    let note = |name: &str, stated: &str| {
        json!([{"kind": "recovered", "offset": 0, "message": format!(
            "{name} {stated} is not the record's: its gzip member or zstd frame ends it after a \
             block of {cl} bytes, read as the record")}])
    };
    for (name, pack) in
        [("t.warc.gz", gz as fn(&[u8]) -> Vec<u8>), ("t.warc.zst", |d: &[u8]| zst(d, b""))]
    {
        let (a, b) = (pack(&good), pack(&lying));
        let (got, summary) = run(name, &[a.clone(), b, pack(&good)].concat());
        assert_eq!(got.len(), 3, "{name}");
        assert!(got.iter().all(|r| r["status"] == "ok"), "{got:?}");
        assert_eq!(got[1]["source"], format!("@{} http://b.example/rss", a.len()));
        assert_eq!(got[1]["diagnostics"], note("WARC Content-Length", "12"), "{name}");
        assert!(got[0].get("diagnostics").is_none() && got[2].get("diagnostics").is_none());
        assert_eq!((summary.error, summary.recovered), (0, 1));
    }
    // ARC.gz: the header line's length says 5.
    let rec = |url: &str, n: usize| {
        [format!("{url} 192.0.2.1 20050102030405 text/xml {n}\n").as_bytes(), &body, b"\n"].concat()
    };
    let (a, b) =
        (gz(&rec("http://a.example/rss", body.len())), gz(&rec("http://b.example/rss", 5)));
    let (got, _) = run("t.arc.gz", &[a.clone(), b].concat());
    assert_eq!(got.len(), 2);
    assert_eq!(got[1]["status"], "ok");
    assert_eq!(got[1]["diagnostics"], note("ARC length", "5"));
}

#[test]
fn warc_zst_with_and_without_its_dictionary() {
    let warcinfo = warc("warcinfo", &[], b"software: test\r\n");
    let first = response("1", "http://a.example/rss", "2024-01-15T08:00:00Z");
    let second = response("2", "http://b.example/rss", "2024-01-16T08:00:00Z");
    let want = |a: usize, b: usize| {
        vec![
            ok(
                &format!("@{a} http://a.example/rss"),
                response_capture("1", "http://a.example/rss", "2024-01-15T08:00:00Z"),
            ),
            ok(
                &format!("@{b} http://b.example/rss"),
                response_capture("2", "http://b.example/rss", "2024-01-16T08:00:00Z"),
            ),
        ]
    };
    // Without a dictionary: a frame per record.
    let frames: Vec<Vec<u8>> = [&warcinfo, &first, &second].iter().map(|r| zst(r, &[])).collect();
    let (got, summary) = run("t.warc.zst", &frames.concat());
    same(&got, &want(frames[0].len(), frames[0].len() + frames[1].len()));
    assert_eq!(summary.skipped_records, 1);
    // With the dictionary in a skippable frame, as is and zstd-compressed.
    let dict = [&first[..], &second[..]].concat();
    for compressed in [false, true] {
        let stored = if compressed { zst(&dict, &[]) } else { dict.clone() };
        let mut data = vec![0x5d, 0x2a, 0x4d, 0x18];
        data.extend((stored.len() as u32).to_le_bytes());
        data.extend(&stored);
        let d = data.len();
        let frames: Vec<Vec<u8>> =
            [&warcinfo, &first, &second].iter().map(|r| zst(r, &dict)).collect();
        data.extend(frames.concat());
        let (got, summary) = run("t.warc.zst", &data);
        let (a, b) = (d + frames[0].len(), d + frames[0].len() + frames[1].len());
        same(&got, &want(a, b));
        assert_eq!(summary.skipped_records, 1);
        // Without the dictionary frame its frames do not decode: one error record for the
        // run of failed frames, nothing else.
        let (got, _) = run("t.warc.zst", &data[d..]);
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0]["error"]["kind"], "bad_zstd");
    }
}

/// An original response, two revisits of it (by record id, by URI and digest) and a revisit of
/// a record never read.
fn revisit_parts() -> [Vec<u8>; 4] {
    let uri = "http://a.example/rss";
    let original = response("1", uri, "2024-01-15T08:00:00Z");
    let revisit_head = http("Content-Type: application/rss+xml\r\n", b"");
    let by_id = warc(
        "revisit",
        &[
            ("WARC-Record-ID", "<urn:x:2>"),
            ("WARC-Date", "2024-02-15T08:00:00Z"),
            ("WARC-Target-URI", uri),
            ("WARC-Payload-Digest", "sha1:FEEDFEEDFEEDFEEDFEEDFEEDFEEDFEED"),
            ("WARC-Refers-To", "<urn:x:1>"),
            ("WARC-Refers-To-Target-URI", uri),
            ("WARC-Refers-To-Date", "2024-01-15T08:00:00Z"),
            ("WARC-Profile", "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"),
        ],
        &revisit_head,
    );
    // WARC 1.0: no record named, matched by target URI and payload digest; no HTTP header.
    let by_digest = warc(
        "revisit",
        &[
            ("WARC-Record-ID", "<urn:x:3>"),
            ("WARC-Date", "2024-03-15T08:00:00Z"),
            ("WARC-Target-URI", uri),
            ("WARC-Payload-Digest", "sha1:FEEDFEEDFEEDFEEDFEEDFEEDFEEDFEED"),
        ],
        b"",
    );
    let unknown = warc(
        "revisit",
        &[
            ("WARC-Record-ID", "<urn:x:4>"),
            ("WARC-Date", "2024-04-15T08:00:00Z"),
            ("WARC-Target-URI", "http://c.example/rss"),
            ("WARC-Refers-To", "<urn:x:0>"),
        ],
        b"",
    );
    [original, by_id, by_digest, unknown]
}

#[test]
fn revisits_name_their_original_and_have_its_feed() {
    let uri = "http://a.example/rss";
    let parts = revisit_parts();
    let at: Vec<usize> =
        parts.iter().scan(0, |a, p| Some(std::mem::replace(a, *a + p.len()))).collect();
    let (got, summary) = run("t.warc", &parts.concat());
    let source0 = format!("@0 {uri}");
    let revisit = |i: usize, id: &str, date: &str, extra: Value| {
        let mut capture = json!({"record_type": "revisit", "date": date, "target_uri": uri,
            "record_id": id, "payload_digest": "sha1:FEEDFEEDFEEDFEEDFEEDFEEDFEEDFEED",
            "content_type": "application/rss+xml"});
        for (k, v) in extra.as_object().unwrap() {
            capture[k] = v.clone();
        }
        json!({"source": format!("@{} {uri}", at[i]), "status": "revisit", "format": "rss2",
               "encoding": "UTF-8", "capture": capture, "feed": feed()})
    };
    let full = absolute(&got);
    same(
        &got,
        &[
            ok(&source0, response_capture("1", uri, "2024-01-15T08:00:00Z")),
            revisit(
                1,
                "<urn:x:2>",
                "2024-02-15T08:00:00Z",
                json!({"http_status": 200, "refers_to": {"record_id": "<urn:x:1>",
                    "target_uri": uri, "date": "2024-01-15T08:00:00Z", "source": full.clone()}}),
            ),
            revisit(2, "<urn:x:3>", "2024-03-15T08:00:00Z", json!({"refers_to": {"source": full}})),
            json!({"source": format!("@{} http://c.example/rss", at[3]), "status": "revisit",
                "error": {"kind": "original_not_found", "message": "the record this revisit \
                refers to (<urn:x:0>) was not read earlier in this run, or is no longer \
                remembered; its content is not here"},
                "capture": {"record_type": "revisit", "date": "2024-04-15T08:00:00Z",
                    "target_uri": "http://c.example/rss", "record_id": "<urn:x:4>",
                    "refers_to": {"record_id": "<urn:x:0>"}}}),
        ],
    );
    assert_eq!((summary.ok, summary.revisit, summary.entries), (1, 3, 3));
    // With nothing remembered, the revisits have no feed (and still name their original).
    let cfg = Config { threads: 1, revisit_memory: 0, ..Config::default() };
    let (got, _) = run_cfg("t.warc", &parts.concat(), &cfg);
    assert!(got[1..].iter().all(|r| r["status"] == "revisit" && r["feed"].is_null()));
    assert_eq!(got[1]["error"]["kind"], "original_not_found");
    assert_eq!(got[1]["capture"]["refers_to"]["record_id"], "<urn:x:1>");
}

/// A record's `source` holds at most 1 KiB of its target URI (cut at a character boundary,
/// marked `…`), so that the revisits naming it repeat no more; the URI is whole in `url` and
/// `capture.target_uri`.
#[test]
fn a_long_target_uri_is_cut_in_the_sources_that_repeat_it() {
    let uri = format!("http://a.example/{}é{}", "p".repeat(1006), "q".repeat(300_000));
    let original = response("1", &uri, "2024-01-15T08:00:00Z");
    let revisit = warc(
        "revisit",
        &[
            ("WARC-Record-ID", "<urn:x:2>"),
            ("WARC-Date", "2024-02-15T08:00:00Z"),
            ("WARC-Refers-To", "<urn:x:1>"),
        ],
        b"",
    );
    let broken = b"WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: ".to_vec();
    // Its block cut by the end of the file.
    let cut = b"\r\nContent-Length: 1000\r\n\r\n<rss".to_vec();
    let broken = [broken, uri.as_bytes().to_vec(), cut];
    let data = [original, revisit.repeat(50), broken.concat()].concat();
    let (got, _) = run("t.warc", &data);
    let shown = format!("@0 http://a.example/{}…", "p".repeat(1006));
    assert_eq!(got[0]["source"], shown.as_str());
    assert_eq!(got[0]["capture"]["target_uri"], uri.as_str());
    let full = got[1]["capture"]["refers_to"]["source"].as_str().unwrap();
    assert!(full.ends_with(&shown), "{full}");
    for r in &got[1..51] {
        assert_eq!(r["status"], "revisit");
        assert_eq!(r["capture"]["refers_to"]["source"], full);
    }
    let last = got.last().unwrap();
    assert_eq!(last["status"], "error", "{last}");
    assert!(last["source"].as_str().unwrap().ends_with(&format!("{}…", "p".repeat(1006))));
    assert!(got.iter().all(|r| r["source"].as_str().unwrap().len() < 1100));
}

/// Revisits read their original again from the file (a WARC.gz member, a record inside a
/// member, a WARC.zst frame after its dictionary) or, from a stream that cannot be read again
/// (a tar member), from the copy remembered: the same records either way.
#[test]
fn revisits_re_read_their_original_from_every_layout() {
    // The content of the original: larger than the memory of the second round.
    let pad = format!("X-Pad: {}\r\n", "p".repeat(8000));
    let mut parts = revisit_parts();
    parts[0] = warc(
        "response",
        &[
            ("WARC-Record-ID", "<urn:x:1>"),
            ("WARC-Date", "2024-01-15T08:00:00Z"),
            ("WARC-Target-URI", "http://a.example/rss"),
            ("WARC-Payload-Digest", "sha1:FEEDFEEDFEEDFEEDFEEDFEEDFEEDFEED"),
        ],
        &http(&format!("Content-Type: application/rss+xml\r\n{pad}"), FEED.as_bytes()),
    );
    let warcinfo = warc("warcinfo", &[], b"software: test\r\n");
    let per_record: Vec<u8> = parts.iter().flat_map(|p| gz(p)).collect();
    // The original 22+ bytes into a member holding the warcinfo record before it.
    let shared =
        [gz(&[&warcinfo[..], &parts[0]].concat()), gz(&parts[1]), gz(&parts[2]), gz(&parts[3])]
            .concat();
    let dict = parts[0].clone();
    let mut zst_file = vec![0x5d, 0x2a, 0x4d, 0x18];
    zst_file.extend((dict.len() as u32).to_le_bytes());
    zst_file.extend(&dict);
    zst_file.extend(parts.iter().flat_map(|p| zst(p, &dict)));
    let tar = tar_of("in.warc.gz", &per_record);
    for (name, data) in [
        ("t.warc.gz", per_record.clone()),
        ("s.warc.gz", shared),
        ("t.warc.zst", zst_file),
        ("t.tar", tar),
    ] {
        // 4 KiB of memory holds where the original is, not its 8 KB block: a tar member's
        // revisits then find nothing.
        for (threads, memory) in [(1, 16 << 20), (2, 16 << 20), (1, 4096)] {
            let cfg = Config { threads, revisit_memory: memory, ..Config::default() };
            let (got, summary) = run_cfg(name, &data, &cfg);
            let status: Vec<&str> = got.iter().map(|r| r["status"].as_str().unwrap()).collect();
            assert_eq!(status, ["ok", "revisit", "revisit", "revisit"], "{name}: {got:?}");
            if name == "t.tar" && memory == 4096 {
                assert!(got[1..].iter().all(|r| r["error"]["kind"] == "original_not_found"));
                continue;
            }
            for r in &got[1..3] {
                assert_eq!(r["feed"], feed(), "{name}: {r}");
                let from = r["capture"]["refers_to"]["source"].as_str().unwrap();
                assert!(from.ends_with(got[0]["source"].as_str().unwrap()), "{name}: {from}");
            }
            assert_eq!(got[3]["error"]["kind"], "original_not_found", "{name}");
            assert_eq!((summary.revisit, summary.entries), (3, 3), "{name}");
        }
    }
}

/// One large original and many small revisits of it: the revisits are given the original's
/// content only within the expansion limit (64 times the bytes of the record blocks read), so the
/// output stays bounded by the input; each revisit past it is still one record, naming its
/// original, with the error `revisit_limit_reached`. A larger limit gives them all.
#[test]
fn revisits_of_a_large_original_are_bounded_by_the_expansion_limit() {
    let uri = "http://a.example/rss";
    // A 200 KB original (its feed padded with a long description).
    let big = FEED.replace(
        "<title>First</title>",
        &format!("<description>{}</description><title>First</title>", "d".repeat(200_000)),
    );
    let original_block = http("Content-Type: application/rss+xml\r\n", big.as_bytes());
    let original = warc(
        "response",
        &[("WARC-Record-ID", "<urn:x:1>"), ("WARC-Target-URI", uri)],
        &original_block,
    );
    // A revisit's block is the HTTP header of the response not stored again.
    let revisit_block = http("Content-Type: application/rss+xml\r\n", b"");
    let refers = [("WARC-Target-URI", uri), ("WARC-Refers-To", "<urn:x:1>")];
    let revisit = warc("revisit", &refers, &revisit_block);
    let n = 500;
    let data = [vec![original], vec![revisit; n]].concat().concat();
    let given = |cfg: &Config| {
        let (got, summary) = run_cfg("t.warc", &data, cfg);
        assert_eq!((got.len(), summary.revisit), (n + 1, n as u64));
        let with_feed = got[1..].iter().filter(|r| r["feed"].is_object()).count();
        for r in got[1..].iter().filter(|r| !r["feed"].is_object()) {
            assert_eq!(r["error"]["kind"], "revisit_limit_reached", "{r}");
            assert!(r["capture"]["refers_to"]["source"].is_string(), "{r}");
        }
        // Each revisit not given its original was cut by a limit.
        assert_eq!(summary.limited, (n - with_feed) as u64);
        with_feed
    };
    // Revisit k is given the original while the originals given stay within 64 × the blocks
    // read (the original's and k revisits'): the first 65, then one every 58 revisits or so.
    let (ob, rb) = (original_block.len(), revisit_block.len());
    let (mut spent, mut want) = (0, 0);
    for k in 1..=n {
        if spent + ob <= 64 * (ob + k * rb) {
            (spent, want) = (spent + ob, want + 1);
        }
    }
    assert_eq!(want, 72);
    assert_eq!(given(&Config { threads: 2, ..Config::default() }), want);
    assert_eq!(given(&Config { threads: 1, revisit_expansion: 0, ..Config::default() }), 0);
    assert_eq!(given(&Config { threads: 1, revisit_expansion: 1000, ..Config::default() }), n);
}

/// An original 512 KiB into its gzip member is read again by decoding the member from its
/// start: those bytes are spent from the expansion limit too, given or not, so that many
/// revisits of it cannot make the run's work quadratic in the input. A larger limit gives it.
#[test]
fn re_reading_an_original_spends_the_bytes_decoded_before_it() {
    let parts = revisit_parts();
    let metadata = warc("metadata", &[], &vec![b'm'; 512 << 10]);
    let deep = gz(&[&metadata[..], &parts[0]].concat());
    let data = [deep, gz(&parts[1]), gz(&parts[2])].concat();
    let cfg = Config { threads: 1, ..Config::default() };
    let (got, _) = run_cfg("deep.warc.gz", &data, &cfg);
    let status: Vec<&str> = got.iter().map(|r| r["status"].as_str().unwrap()).collect();
    assert_eq!(status, ["ok", "revisit", "revisit"], "{got:?}");
    for r in &got[1..] {
        assert_eq!(r["error"]["kind"], "revisit_limit_reached", "{r}");
        let message = r["error"]["message"].as_str().unwrap();
        assert!(message.contains("more decoded to read it again"), "{message}");
        assert!(r["capture"]["refers_to"]["source"].as_str().is_some(), "{r}");
    }
    let cfg = Config { threads: 1, revisit_expansion: 1 << 20, ..Config::default() };
    let (got, _) = run_cfg("deep.warc.gz", &data, &cfg);
    assert!(got[1..].iter().all(|r| r["feed"] == feed()), "{got:?}");
}

/// A record over `max_input_bytes` — a document, a WARC record, an HTTP body — is a
/// `too_large` error record, counted as cut by a limit as the parser's is.
#[test]
fn records_over_the_input_limit_are_counted_as_cut_by_a_limit() {
    let mut cfg = Config { threads: 1, ..Config::default() };
    cfg.options.limits.max_input_bytes = 100;
    let doc = FEED.replace("News", &"n".repeat(200));
    let (got, summary) = run_cfg("big.xml", doc.as_bytes(), &cfg);
    assert_eq!(got[0]["error"]["kind"], "too_large", "{got:?}");
    assert_eq!((summary.error, summary.limited), (1, 1));
    let uri = "http://a.example/rss";
    let block = http("Content-Type: application/rss+xml\r\n", doc.as_bytes());
    let record = warc("response", &[("WARC-Target-URI", uri)], &block);
    let (got, summary) = run_cfg("t.warc", &record, &cfg);
    assert_eq!(got[0]["error"]["kind"], "too_large", "{got:?}");
    assert_eq!((summary.error, summary.limited), (1, 1));
    // 92 bytes of UTF-16 whose text is 135 bytes of UTF-8: the parser finds the size.
    let mut utf16 = vec![0xff, 0xfe];
    utf16.extend("中".repeat(45).encode_utf16().flat_map(u16::to_le_bytes));
    let (got, summary) = run_cfg("utf16.xml", &utf16, &cfg);
    assert_eq!(got[0]["error"]["kind"], "too_large", "{got:?}");
    assert_eq!((summary.error, summary.limited), (1, 1));
}

/// A ustar archive of one member `name` holding `data`.
fn tar_of(name: &str, data: &[u8]) -> Vec<u8> {
    let mut h = [0u8; 512];
    h[..name.len()].copy_from_slice(name.as_bytes());
    h[100..108].copy_from_slice(b"0000644\0");
    h[108..116].copy_from_slice(b"0000000\0");
    h[116..124].copy_from_slice(b"0000000\0");
    h[124..136].copy_from_slice(format!("{:011o}\0", data.len()).as_bytes());
    h[136..148].copy_from_slice(b"00000000000\0");
    h[148..156].copy_from_slice(b"        ");
    h[156] = b'0';
    h[257..263].copy_from_slice(b"ustar\0");
    h[263..265].copy_from_slice(b"00");
    let sum: u32 = h.iter().map(|&b| u32::from(b)).sum();
    h[148..156].copy_from_slice(format!("{sum:06o}\0 ").as_bytes());
    let mut out = h.to_vec();
    out.extend_from_slice(data);
    out.resize(out.len().div_ceil(512) * 512 + 1024, 0);
    out
}

/// A compressed tar's stream that fails ends the archive there with records saying so, and
/// one that fails only after the end-of-archive blocks (a cut trailer, a checksum at the
/// stream's end) gets its archive's record after the members; a tar cut inside a member's
/// padding is truncated. Never a member read past a failure, never the failure unsaid; zero
/// padding after the last gzip member is no failure.
#[test]
fn a_compressed_tar_whose_stream_fails_says_so_where_it_fails() {
    let one = |name: &str| {
        let t = tar_of(name, FEED.as_bytes());
        t[..t.len() - 1024].to_vec()
    };
    let mut tar = [one("1.xml"), one("2.xml"), one("3.xml")].concat();
    tar.resize(tar.len() + 1024, 0);
    let cut = |b: &[u8], n: usize| b[..b.len() - n].to_vec();
    let flipped = |b: &[u8]| {
        let mut b = b.to_vec();
        *b.last_mut().unwrap() ^= 1;
        b
    };
    let kinds = |name: &str, data: &[u8]| -> Vec<(String, String)> {
        let (got, _) = run(name, data);
        got.iter()
            .map(|r| {
                let kind = r["error"]["kind"].as_str().unwrap_or("ok");
                (r["source"].as_str().unwrap().to_owned(), kind.to_owned())
            })
            .collect()
    };
    let members = |kind: &[&str]| -> Vec<(String, String)> {
        ["!1.xml", "!2.xml", "!3.xml", ""]
            .iter()
            .zip(kind)
            .map(|(s, k)| (s.to_string(), k.to_string()))
            .collect()
    };
    let all_ok = members(&["ok", "ok", "ok"]);
    assert_eq!(kinds("x.tar", &tar), all_ok);
    assert_eq!(kinds("x.tar.gz", &gz(&tar)), all_ok);
    assert_eq!(kinds("x.tar.zst", &zst(&tar, b"")), all_ok);
    let cut_at_end = |kind| members(&["ok", "ok", "ok", kind]);
    assert_eq!(kinds("cut.tar.gz", &cut(&gz(&tar), 4)), cut_at_end("truncated"));
    assert_eq!(kinds("cut.tar.zst", &cut(&zst(&tar, b""), 4)), cut_at_end("truncated"));
    // A checksum that fails: no member comes out of the frame's bytes as if intact.
    let bad = kinds("bad.tar.zst", &flipped(&zst(&tar, b"")));
    assert_eq!(bad.last().unwrap(), &(String::new(), "bad_zstd".to_owned()), "{bad:?}");
    assert!(bad.iter().all(|(_, k)| k == "bad_zstd"), "{bad:?}");
    let bad = kinds("bad.tar.gz", &flipped(&gz(&tar)));
    assert_eq!(bad.last().unwrap(), &(String::new(), "bad_gzip".to_owned()), "{bad:?}");
    // Zero bytes after the last gzip member are padding, as gzip reads them; other bytes
    // there are not.
    let zeros = [gz(&tar), vec![0; 700]].concat();
    assert_eq!(kinds("z.tar.gz", &zeros), all_ok);
    let junk = [gz(&tar), b"junk".to_vec()].concat();
    assert_eq!(kinds("j.tar.gz", &junk), cut_at_end("bad_gzip"));
    let (got, _) = run("f.xml.gz", &[gz(FEED.as_bytes()), vec![0; 30]].concat());
    assert_eq!((got.len(), &got[0]["status"]), (1, &json!("ok")), "{got:?}");
    // Cut inside the first member's padding: that member is whole, the archive is not.
    let padding_cut = tar[..800].to_vec();
    assert_eq!(
        kinds("c800.tar", &padding_cut),
        vec![("!1.xml".to_owned(), "ok".to_owned()), (String::new(), "truncated".to_owned())]
    );
}

/// The source of the first record as the run wrote it (the `refers_to.source` of a revisit is
/// the original's full source, path included).
fn absolute(got: &[Value]) -> Value {
    got[1]["capture"]["refers_to"]["source"].clone()
}

#[test]
fn resource_records_are_documents_without_http() {
    let atom = "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>Saved</title></feed>";
    let rec = warc(
        "resource",
        &[
            ("WARC-Record-ID", "<urn:x:9>"),
            ("WARC-Date", "2010-05-01T00:00:00Z"),
            ("WARC-Target-URI", "http://s.example/atom"),
            ("Content-Type", "application/atom+xml"),
        ],
        atom.as_bytes(),
    );
    let metadata = warc("metadata", &[], b"via: x\r\n");
    let request = warc("request", &[], b"GET / HTTP/1.1\r\n\r\n");
    let (got, summary) = run("r.warc", &[rec, metadata, request].concat());
    same(
        &got,
        &[json!({"source": "@0 http://s.example/atom", "status": "ok", "format": "atom",
            "encoding": "UTF-8",
            "capture": {"record_type": "resource", "date": "2010-05-01T00:00:00Z",
                "target_uri": "http://s.example/atom", "record_id": "<urn:x:9>",
                "content_type": "application/atom+xml"},
            "feed": {"title": "Saved", "title_type": "text", "version": "1.0"}})],
    );
    assert_eq!(summary.skipped_records, 2);
    assert_eq!(summary.skipped().collect::<Vec<_>>(), [("request", 1), ("metadata", 1)]);
}

#[test]
fn br_zstd_and_stale_content_encodings() {
    let mut br = Vec::new();
    {
        let mut w = brotli::CompressorWriter::new(&mut br, 4096, 5, 22);
        w.write_all(FEED.as_bytes()).unwrap();
    }
    let cases: [(&str, Vec<u8>); 4] = [
        ("br", br),
        ("zstd", zst(FEED.as_bytes(), &[])),
        ("gzip, br", {
            let mut b = Vec::new();
            {
                let mut w = brotli::CompressorWriter::new(&mut b, 4096, 5, 22);
                w.write_all(&gz(FEED.as_bytes())).unwrap();
            }
            b
        }),
        // Stored decoded under its original header.
        ("gzip", FEED.as_bytes().to_vec()),
    ];
    let mut data = Vec::new();
    let mut at = Vec::new();
    for (i, (enc, body)) in cases.iter().enumerate() {
        at.push(data.len());
        let headers = format!("Content-Type: application/rss+xml\r\nContent-Encoding: {enc}\r\n");
        let uri = format!("http://e.example/{i}");
        data.extend(warc("response", &[("WARC-Target-URI", &uri)], &http(&headers, body)));
    }
    // Not a feed and not gzip: still an error.
    at.push(data.len());
    let headers = "Content-Type: text/html\r\nContent-Encoding: gzip\r\n";
    data.extend(warc(
        "response",
        &[("WARC-Target-URI", "http://e.example/4")],
        &http(headers, b"<p>"),
    ));
    let (got, _) = run("e.warc", &data);
    let capture = |i: usize, ct: &str| {
        json!({"record_type": "response", "target_uri": format!("http://e.example/{i}"),
               "http_status": 200, "content_type": ct})
    };
    let mut want: Vec<Value> = (0..3)
        .map(|i| {
            let mut r =
                ok(&format!("@{} http://e.example/{i}", at[i]), capture(i, "application/rss+xml"));
            r["feed"]["entries"][0]["id"] = json!("a1");
            r
        })
        .collect();
    let mut stale =
        ok(&format!("@{} http://e.example/3", at[3]), capture(3, "application/rss+xml"));
    stale["diagnostics"] = json!([{"kind": "recovered", "offset": 0, "message":
        "Content-Encoding \"gzip\" declared, but gzip body: invalid gzip header; the body \
         reads as a feed as stored, so it was read as is"}]);
    want.push(stale);
    want.push(json!({"source": format!("@{} http://e.example/4", at[4]), "status": "error",
        "error": {"kind": "content_encoding", "message": "gzip body: unexpected end of file"},
        "capture": {"record_type": "response", "target_uri": "http://e.example/4",
            "http_status": 200, "content_type": "text/html"}}));
    same(&got, &want);
}

/// A crawl as Common Crawl and ArchiveTeam write one (WARC/1.1, dates with fractions of a
/// second): `warcinfo`, `request` and `metadata` records give no record and are counted; a
/// response cut at the crawler's size limit (`WARC-Truncated: length`) is read as far as it
/// goes and says so in `capture.truncated`; a record split into segments (`WARC-Segment-Number:
/// 1`, then its `continuation`) is one record, its segments joined (the continuation counted).
#[test]
fn crawl_record_types_truncation_and_segments() {
    let info = warc("warcinfo", &[("Content-Type", "application/warc-fields")], b"isPartOf: x\r\n");
    let request = warc(
        "request",
        &[("WARC-Target-URI", "http://c.example/feed"), ("WARC-Date", "2024-05-01T10:00:00Z")],
        b"GET /feed HTTP/1.1\r\nHost: c.example\r\n\r\n",
    );
    // The feed cut after its first item.
    let cut = &FEED[..FEED.find("</item>").unwrap() + "</item>".len()];
    let truncated = warc(
        "response",
        &[
            ("WARC-Target-URI", "http://c.example/feed"),
            ("WARC-Date", "2024-05-01T10:00:00.123456Z"),
            ("WARC-Truncated", "length"),
        ],
        &http("Content-Type: application/rss+xml\r\n", cut.as_bytes()),
    );
    let metadata =
        warc("metadata", &[("WARC-Target-URI", "http://c.example/feed")], b"fetchTimeMs: 12\r\n");
    let half = FEED.len() / 2;
    let first_block = http("Content-Type: application/rss+xml\r\n", &FEED.as_bytes()[..half]);
    let total = (first_block.len() + FEED.len() - half).to_string();
    let first = warc(
        "response",
        &[
            ("WARC-Target-URI", "http://c.example/split"),
            ("WARC-Record-ID", "<urn:x:s1>"),
            ("WARC-Segment-Number", "1"),
        ],
        &first_block,
    );
    let continuation = warc(
        "continuation",
        &[
            ("WARC-Target-URI", "http://c.example/split"),
            ("WARC-Segment-Origin-ID", "<urn:x:s1>"),
            ("WARC-Segment-Number", "2"),
            ("WARC-Segment-Total-Length", &total),
        ],
        &FEED.as_bytes()[half..],
    );
    let parts = [info, request, truncated, metadata, first, continuation];
    let at: Vec<usize> =
        parts.iter().scan(0, |n, p| Some(std::mem::replace(n, *n + p.len()))).collect();
    let (got, summary) = run("cc.warc", &parts.concat());
    assert_eq!((summary.records, summary.skipped_records), (2, 4), "{got:#?}");
    assert_eq!(got[0]["source"], json!(format!("@{} http://c.example/feed", at[2])));
    assert_eq!(
        got[0]["capture"],
        json!({"record_type": "response", "date": "2024-05-01T10:00:00.123456Z",
               "target_uri": "http://c.example/feed", "http_status": 200,
               "content_type": "application/rss+xml", "truncated": "length"})
    );
    // What the cut body holds is read; the parser notes the elements the cut left open.
    assert_eq!(got[0]["feed"]["entries"][0]["title"], json!("First"));
    assert!(got[0]["diagnostics"].to_string().contains("unclosed_element"), "{}", got[0]);
    let capture = json!({"record_type": "response", "target_uri": "http://c.example/split",
        "record_id": "<urn:x:s1>", "http_status": 200, "content_type": "application/rss+xml"});
    same(&got[1..], &[ok(&format!("@{} http://c.example/split", at[4]), capture)]);
    let by_type: Vec<_> = summary.skipped().collect();
    assert_eq!(by_type, [("warcinfo", 1), ("request", 1), ("metadata", 1), ("continuation", 1)]);
}

/// Segmented records (WARC 1.1 §6) in every way they go wrong, in WARC and WARC.gz: each
/// record in gives its record or an error record, none dropped. A record split in three is
/// one record; one whose segment 2 is missing is its first segment, cut, with a diagnostic
/// (and its segment 3 a `bad_segment` record); a continuation of no first segment is a
/// `bad_segment` record; one whose last segment is not in the file is cut, with a diagnostic.
#[test]
fn segmented_records_joined_or_reported() {
    let block = http("Content-Type: application/rss+xml\r\n", FEED.as_bytes());
    let thirds = [&block[..40], &block[40..80], &block[80..]];
    let first = |id: &str, part: &[u8]| {
        let id = format!("<urn:x:{id}>");
        warc(
            "response",
            &[
                ("WARC-Target-URI", "http://s.example/feed"),
                ("WARC-Record-ID", &id),
                ("WARC-Segment-Number", "1"),
            ],
            part,
        )
    };
    let cont = |id: &str, n: u32, part: &[u8], last: bool| {
        let (id, n, total) = (format!("<urn:x:{id}>"), n.to_string(), block.len().to_string());
        let mut fields = vec![
            ("WARC-Target-URI", "http://s.example/feed"),
            ("WARC-Segment-Origin-ID", id.as_str()),
            ("WARC-Segment-Number", n.as_str()),
        ];
        if last {
            fields.push(("WARC-Segment-Total-Length", total.as_str()));
        }
        warc("continuation", &fields, part)
    };
    let records = [
        first("a", thirds[0]),
        cont("a", 2, thirds[1], false),
        cont("a", 3, thirds[2], true),
        first("b", thirds[0]),
        cont("b", 3, thirds[2], true),
        cont("z", 2, thirds[1], false),
        first("c", thirds[0]),
        cont("c", 2, thirds[1], false),
    ];
    let at: Vec<usize> =
        records.iter().scan(0, |n, p| Some(std::mem::replace(n, *n + p.len()))).collect();
    let (got, summary) = run("s.warc", &records.concat());
    let src = |i: usize| format!("@{} http://s.example/feed", at[i]);
    // The note: the first diagnostic, or after the error message of a record without them.
    let line = |v: &Value| {
        let diag = v["diagnostics"][0]["message"].as_str().unwrap_or("").to_owned();
        let err = v["error"]["kind"].as_str().unwrap_or("").to_owned();
        let message = v["error"]["message"].as_str().unwrap_or("");
        let diag = match message.find(" (segmented") {
            Some(i) => message[i + 2..message.len() - 1].to_owned(),
            None => diag,
        };
        (
            v["source"].as_str().unwrap().to_owned(),
            v["status"].as_str().unwrap().to_owned(),
            err,
            diag,
        )
    };
    let got: Vec<_> = got.iter().map(line).collect();
    let cut = |next: u32, why: &str| {
        format!(
            "segmented record cut: its segment {next} was not read ({why}); its content is the {} \
             segments before it, joined",
            next - 1
        )
    };
    let want = [
        (src(0), "ok".into(), "".into(), "".into()),
        // Segment 1 alone holds part of the HTTP header only.
        (src(3), "error".into(), "bad_http".into(), cut(2, "segment 3 came after segment 1")),
        (src(4), "error".into(), "bad_segment".into(), "".into()),
        (src(5), "error".into(), "bad_segment".into(), "".into()),
        // Segments 1 and 2 hold the feed's start: read as far as it goes.
        (src(6), "ok".into(), "".into(), cut(3, "the WARC stream ended")),
    ];
    assert_eq!(got, want);
    // The continuations joined: a's two, c's one.
    assert_eq!(summary.skipped_records, 3);
    // WARC.gz, one member per record: the same records.
    let gzipped: Vec<Vec<u8>> = records.iter().map(|r| gz(r)).collect();
    let (got_gz, _) = run("s.warc.gz", &gzipped.concat());
    let statuses = |g: &[Value]| g.iter().map(|v| v["status"].clone()).collect::<Vec<_>>();
    assert_eq!(got_gz.len(), 5);
    assert_eq!(statuses(&got_gz), want.iter().map(|w| json!(w.1)).collect::<Vec<_>>());
}

/// With `--extract`, an archive record's `future` dates are those more than a day after its
/// capture date (`capture.date`), not after `ExtractOptions::as_of` or now.
#[test]
fn date_flags_future_is_relative_to_the_capture_date() {
    let doc = "<rss version=\"2.0\"><channel><title>News</title>\
        <item><title>Soon</title><guid>s</guid><pubDate>Tue, 16 Jan 2024 08:00:00 GMT</pubDate></item>\
        <item><title>Later</title><guid>l</guid><pubDate>Sat, 20 Jan 2024 08:00:00 GMT</pubDate></item>\
        </channel></rss>";
    let record = |date: &str| {
        warc(
            "response",
            &[
                ("WARC-Record-ID", "<urn:x:f>"),
                ("WARC-Date", date),
                ("WARC-Target-URI", "http://a.example/rss"),
                ("Content-Type", "application/http; msgtype=response"),
            ],
            &http("Content-Type: application/rss+xml\r\n", doc.as_bytes()),
        )
    };
    // `as_of` far in the past: only the capture date can keep the entries from being future.
    let extract = feedmill::extract::ExtractOptions {
        as_of: feedmill::Timestamp::from_unix(0),
        ..Default::default()
    };
    let cfg = Config { threads: 1, extract: Some(extract), ..Config::default() };
    let flags = |recs: &[Value]| -> Vec<Value> {
        recs[0]["feed"]["entries"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e.get("date_flags").cloned().unwrap_or(Value::Null))
            .collect()
    };
    // Captured 15 January 2024 08:00: the 16th is within a day, the 20th is future.
    let (recs, _) = run_cfg("a.warc", &record("2024-01-15T08:00:00Z"), &cfg);
    assert_eq!(recs[0]["capture"]["date"], "2024-01-15T08:00:00Z");
    assert_eq!(flags(&recs), [Value::Null, json!(["future"])]);
    // Captured 20 January: neither.
    let (recs, _) = run_cfg("b.warc", &record("2024-01-20T08:00:00Z"), &cfg);
    assert_eq!(flags(&recs), [Value::Null, Value::Null]);
    // A plain document has no capture date: `as_of` (1970) makes both future.
    let (recs, _) = run_cfg("c.xml", doc.as_bytes(), &cfg);
    assert_eq!(flags(&recs), [json!(["future"]), json!(["future"])]);
}
