#![no_main]
//! The input layer (sniffing, gzip, tar) against generated, damaged tar archives with known
//! truth; input layout and invariants: see `check_tar` in fuzz/src/checks/tar.rs.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| feedmill_fuzz::checks::check_tar(data));
