//! Golden output: the CLI's records for the shipped corpora, compared with the committed
//! snapshots under `corpus/golden/`, so that every change of output is deliberate and
//! reviewed in the diff of the snapshot.
//!
//! - `fixtures.jsonl`: the full records (default mode) of every document under
//!   `corpus/fixtures/{extended,encoding,recovery,json-feed}` — small, read line by line in
//!   review.
//! - `real.tsv`: for every record of `corpus/real` (287 feeds, 14 MB of JSON per mode), a
//!   64-bit FNV-1a hash of its line in each mode (default, `--extract`, `--sanitize strict`,
//!   `--sanitize strict --allow-video-embeds`, `--extract --sanitize strict`): a change names
//!   the feeds whose output changed; `feedmill <feed>` shows the new record.
//! - `fixtures-strict.tsv`: the same hash for every record of `corpus/fixtures` (every
//!   directory, hand-written hostile and odd markup included) with `--extract --sanitize
//!   strict --allow-video-embeds`, so that speed work on strict sanitizing provably changes
//!   no output byte.
//!
//! To accept a deliberate change: `GOLDEN_BLESS=1 cargo test --release -p feedmill-cli --test it
//! golden::`, then review and commit the snapshot diff.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_feedmill");
const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// The reference instant of `date_flags` in the snapshots, so that they do not change as
/// time passes (`future`).
const AS_OF: &str = "2026-11-28T00:00:00Z";

fn run(args: &[&str]) -> String {
    let as_of: &[&str] = if args.contains(&"--extract") { &["--as-of", AS_OF] } else { &[] };
    let out = Command::new(BIN)
        .args(["--quiet", "--threads", "2"])
        .args(as_of)
        .args(args)
        .current_dir(ROOT)
        .output()
        .expect("run feedmill");
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

fn fnv1a(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

/// The `source` of a record line (the key of `real.tsv`).
fn source(line: &str) -> String {
    let v: serde_json::Value = serde_json::from_str(line).expect("JSON line");
    v["source"].as_str().expect("source").to_owned()
}

fn check(name: &str, actual: &str) {
    let path = Path::new(ROOT).join("corpus/golden").join(name);
    if std::env::var_os("GOLDEN_BLESS").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (GOLDEN_BLESS=1 writes it)", path.display()));
    if expected == actual {
        return;
    }
    let (exp, act): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    let mut report = String::new();
    for i in 0..exp.len().max(act.len()) {
        let (e, a) = (exp.get(i), act.get(i));
        if e != a {
            report += &format!(
                "line {}:\n  expected {}\n  actual   {}\n",
                i + 1,
                e.unwrap_or(&"(none)"),
                a.unwrap_or(&"(none)")
            );
            if report.len() > 4000 {
                report += "...\n";
                break;
            }
        }
    }
    panic!(
        "{name}: output differs from the committed snapshot ({} vs {} lines). If the change is \
         deliberate: GOLDEN_BLESS=1 cargo test --release -p feedmill-cli --test it golden::, \
         and commit the snapshot.\n{report}",
        exp.len(),
        act.len()
    );
}

#[test]
fn fixtures_records_are_unchanged() {
    let out = run(&[
        "corpus/fixtures/extended",
        "corpus/fixtures/encoding",
        "corpus/fixtures/recovery",
        "corpus/fixtures/json-feed",
    ]);
    check("fixtures.jsonl", &out);
}

#[test]
fn real_corpus_records_are_unchanged() {
    let modes: [(&str, &[&str]); 5] = [
        ("default", &[]),
        ("extract", &["--extract"]),
        ("strict", &["--sanitize", "strict"]),
        ("strict_video", &["--sanitize", "strict", "--allow-video-embeds"]),
        ("extract_strict", &["--extract", "--sanitize", "strict"]),
    ];
    let mut rows: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (_, flags) in modes {
        let mut args = flags.to_vec();
        args.push("corpus/real");
        for line in run(&args).lines() {
            rows.entry(source(line)).or_default().push(format!("{:016x}", fnv1a(line)));
        }
    }
    let names: Vec<&str> = modes.iter().map(|(name, _)| *name).collect();
    let mut tsv = format!("source\t{}\n", names.join("\t"));
    for (source, hashes) in rows {
        assert_eq!(hashes.len(), modes.len(), "{source}: one record per mode");
        tsv += &format!("{source}\t{}\n", hashes.join("\t"));
    }
    check("real.tsv", &tsv);
}

#[test]
fn fixtures_strict_records_are_unchanged() {
    let out =
        run(&["--extract", "--sanitize", "strict", "--allow-video-embeds", "corpus/fixtures"]);
    let mut rows: BTreeMap<String, String> = BTreeMap::new();
    for line in out.lines() {
        let prev = rows.insert(source(line), format!("{:016x}", fnv1a(line)));
        assert!(prev.is_none(), "one record per source: {}", source(line));
    }
    let mut tsv = String::from("source\textract_strict_video\n");
    for (source, hash) in rows {
        tsv += &format!("{source}\t{hash}\n");
    }
    check("fixtures-strict.tsv", &tsv);
}
