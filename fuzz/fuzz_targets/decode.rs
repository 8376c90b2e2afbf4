#![no_main]
//! Input layout: see `DecodeCase` in fuzz/src/checks/mod.rs.
use feedmill_fuzz::checks::{check_decode_case, DecodeCase};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|case: DecodeCase| check_decode_case(&case));
