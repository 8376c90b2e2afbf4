#![no_main]
//! Input layout: see `ResponseCase` in fuzz/src/checks/mod.rs.
use feedmill_fuzz::checks::{check_response_case, ResponseCase};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|case: ResponseCase| check_response_case(&case));
