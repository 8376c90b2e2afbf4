#![no_main]
//! Archive readers and the bulk record pipeline; input layout: see `check_bulk` in
//! fuzz/src/checks/bulk.rs.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| feedmill_fuzz::checks::check_bulk(data));
