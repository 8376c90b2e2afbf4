//! Replays the committed fuzz regressions (`fuzz/regressions/<target>/*`: minimized crashes and
//! a few interesting seeds) through the same invariant checks the cargo-fuzz targets assert
//! (`fuzz/src/checks/`, compiled here through `#[path]`), so a fixed crash stays fixed. Runs
//! on stable without cargo-fuzz.
//!
//! A `<target>_heavy` target asserts everything `<target>` does plus its cross-checks, so
//! both targets' regression directories are replayed through the heavy checks (and the
//! light target's through its own checks too).
//!
//! Set `FEEDMILL_FUZZ_CORPUS=1` to also replay the local (gitignored) fuzz corpus,
//! `fuzz/corpus/<target>/*`, when it exists.

#[path = "../../fuzz/src/checks/mod.rs"]
mod checks;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p
                .file_name()
                .is_some_and(|n| n != "README.md" && !n.to_string_lossy().starts_with('.'))
            {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Runs `check` on every file of the regression directories of `targets` (and their
/// corpora, if asked); fails listing every input that panicked.
fn replay(targets: &[&str], check: fn(&[u8]), min_regressions: usize) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let target = targets.join("+");
    let regressions: Vec<PathBuf> =
        targets.iter().flat_map(|t| files(&root.join("regressions").join(t))).collect();
    assert!(
        regressions.len() >= min_regressions,
        "expected at least {min_regressions} regression inputs for {target}, found {}",
        regressions.len()
    );
    let mut inputs = regressions;
    if std::env::var_os("FEEDMILL_FUZZ_CORPUS").is_some() {
        inputs.extend(targets.iter().flat_map(|t| files(&root.join("corpus").join(t))));
    }
    let mut failed = Vec::new();
    for path in &inputs {
        // A running fuzzer may replace corpus files while this reads them.
        let data = match std::fs::read(path) {
            Ok(d) => d,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => panic!("{}: {e}", path.display()),
        };
        if let Err(e) = catch_unwind(AssertUnwindSafe(|| check(&data))) {
            let msg = e
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| e.downcast_ref::<&str>().copied())
                .unwrap_or("(non-string panic)");
            failed.push(format!("{}: {msg}", path.display()));
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {} {target} inputs fail:\n{}",
        failed.len(),
        inputs.len(),
        failed.join("\n")
    );
    eprintln!("{target}: {} inputs replayed", inputs.len());
}

#[test]
fn parse_document() {
    replay(&["parse_document"], checks::check_parse_document, 1);
}

#[test]
fn parse_document_heavy() {
    replay(&["parse_document", "parse_document_heavy"], checks::check_parse_document_heavy, 1);
}

#[test]
fn document_lint() {
    replay(&["document_lint"], checks::check_document_lint, 1);
}

#[test]
fn document_lint_heavy() {
    replay(&["document_lint", "document_lint_heavy"], checks::check_document_lint_heavy, 1);
}

#[test]
fn parse_response() {
    replay(&["parse_response"], checks::check_parse_response, 1);
}

#[test]
fn parse_response_heavy() {
    replay(&["parse_response", "parse_response_heavy"], checks::check_parse_response_heavy, 1);
}

#[test]
fn parse_limits() {
    replay(&["parse_limits"], checks::check_parse_limits, 1);
}

#[test]
fn parse_limits_heavy() {
    replay(&["parse_limits", "parse_limits_heavy"], checks::check_parse_limits_heavy, 1);
}

#[test]
fn escaped_html() {
    replay(&["escaped_html"], checks::check_escaped_html, 1);
}

#[test]
fn escaped_html_heavy() {
    replay(&["escaped_html", "escaped_html_heavy"], checks::check_escaped_html_heavy, 1);
}

#[test]
fn json_feed() {
    replay(&["json_feed"], checks::check_json_feed, 1);
}

#[test]
fn json_feed_heavy() {
    replay(&["json_feed", "json_feed_heavy"], checks::check_json_feed_heavy, 1);
}

#[test]
fn dates() {
    replay(&["dates"], checks::check_dates, 1);
}

#[test]
fn decode() {
    replay(&["decode"], checks::check_decode, 1);
}

#[test]
fn bulk() {
    replay(&["bulk"], checks::check_bulk, 1);
}

#[test]
fn archive() {
    replay(&["archive"], checks::check_archive, 1);
}

#[test]
fn tar() {
    replay(&["tar"], checks::check_tar, 1);
}

#[test]
fn parquet() {
    replay(&["parquet"], checks::check_parquet, 1);
}

#[test]
fn discover() {
    replay(&["discover"], checks::check_discover, 3);
}

/// Found by the escaped_html target: `Html::write_html` dropped an element's `xmlns`
/// attribute (it applied the XML serializer's namespace fix-up). Fixed; the round trip is
/// now exact for such fragments.
#[test]
fn write_html_keeps_xmlns_attributes() {
    let text = "<img src=\"x.gif\" xmlns=\"0\"><p>tracked</p>";
    let a = bumpalo::Bump::new();
    let Some(feedmill::Text::Html(h)) = feedmill::html::parse_escaped_html(&a, text) else {
        panic!("not HTML")
    };
    assert_eq!(checks::html_roundtrip_exception(&h), None);
    let html = h.to_html_string();
    assert!(html.contains("xmlns=\"0\""), "write_html dropped the xmlns attribute: {html}");
}

/// The input decoders are total and match their documented layouts.
#[test]
fn input_layouts() {
    let r = checks::ResponseCase::decode(&checks::ResponseCase::encode(
        0,
        Some("text/xml; charset=koi8-r"),
        1,
        b"<rss/>",
    ));
    assert_eq!(r.status, 200);
    assert_eq!(r.content_type.as_deref(), Some("text/xml; charset=koi8-r"));
    assert_eq!(r.url, checks::URLS[1]);
    assert_eq!(r.body, b"<rss/>");
    assert_eq!(checks::ResponseCase::decode(&[0xF9]).status, 304);
    assert_eq!(checks::ResponseCase::decode(b"").content_type, None);
    let l = checks::LimitsCase::decode(&[50, 3, 7, 2, b'<']);
    assert_eq!((l.limits.max_depth, l.limits.max_entries, l.limits.max_text_bytes), (2, 3, 7));
    assert_eq!(l.limits.max_input_bytes, Some(64));
    assert_eq!(l.body, b"<");
    let d = checks::DecodeCase::decode(b"\x07latin1<x/>");
    assert_eq!((d.label.as_deref(), &d.body[..]), (Some("latin1"), &b"<x/>"[..]));
    assert_eq!(checks::DecodeCase::decode(b"\x00<x/>").label, None);
}

/// The document targets' invariants (parse, JSON records with and without `--extract
/// --sanitize strict`, extraction against its reference definitions) on every file of the
/// real corpus, not only on the regressions.
#[test]
fn document_invariants_hold_on_the_real_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/real");
    let mut checked = 0;
    for dir in ["atom", "atom03", "rss1", "rss2"] {
        for path in files(&root.join(dir)) {
            let data = std::fs::read(&path).unwrap();
            if let Err(e) =
                catch_unwind(AssertUnwindSafe(|| checks::check_parse_document_heavy(&data)))
            {
                let msg = e.downcast_ref::<String>().cloned().unwrap_or_default();
                panic!("{}: {msg}", path.display());
            }
            checked += 1;
        }
    }
    assert!(checked >= 280, "{checked} corpus files");
}

/// The `archive` invariants over 4,000 pseudo-random inputs (fixed seed), so they hold on
/// stable without cargo-fuzz too.
#[test]
fn archive_random_inputs() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..4000 {
        let len = (next() % 400) as usize;
        let data: Vec<u8> = (0..len).map(|_| next() as u8).collect();
        if let Err(e) = catch_unwind(AssertUnwindSafe(|| checks::check_archive(&data))) {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            panic!("input {data:?}: {msg}");
        }
    }
}

/// The `tar` invariants over 3,000 pseudo-random inputs (fixed seed), on stable too.
#[test]
fn tar_random_inputs() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..3000 {
        let len = (next() % 300) as usize;
        let data: Vec<u8> = (0..len).map(|_| next() as u8).collect();
        if let Err(e) = catch_unwind(AssertUnwindSafe(|| checks::check_tar(&data))) {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            panic!("input {data:?}: {msg}");
        }
    }
}

/// The archive checks build gzip members with a reused compressor; the bytes must be exactly
/// flate2's `GzEncoder`'s, so committed regressions keep decoding to the same archives.
#[test]
fn generated_gzip_members_equal_gz_encoder_output() {
    use std::io::Write;
    let mut inputs: Vec<Vec<u8>> = vec![Vec::new(), b"x".to_vec()];
    inputs.push((0..70_000u32).map(|i| (i * 7 % 251) as u8).collect());
    inputs.push(b"WARC/1.0\r\nWARC-Type: response\r\n\r\n<rss/>".repeat(500));
    for level in [0, 1, 6, 9] {
        for data in &inputs {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(level));
            e.write_all(data).unwrap();
            let want = e.finish().unwrap();
            assert!(
                checks::gzip_member(data, level) == want,
                "level {level}, {} bytes",
                data.len()
            );
            // Reused compressor: the second member is the same again.
            assert!(checks::gzip_member(data, level) == want, "level {level}, reused");
        }
    }
}

#[test]
fn canonical_url() {
    replay(&["canonical_url"], checks::check_canonical_url_idempotent, 3);
}
