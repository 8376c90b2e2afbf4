#![no_main]
//! WARC, WARC.gz, WARC.zst and ARC/ARC.gz readers against generated, damaged archives with
//! known truth; input layout and invariants: see `check_archive` in fuzz/src/checks/archive.rs.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| feedmill_fuzz::checks::check_archive(data));
