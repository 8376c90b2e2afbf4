#![no_main]
//! Input layout: see `ResponseCase` in fuzz/src/checks/mod.rs; the heavy cross-checks (JSON
//! records, owned form, extraction, `parse_response` against `parse_bytes`).
use feedmill_fuzz::checks::{check_response_case_heavy, ResponseCase};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|case: ResponseCase| check_response_case_heavy(&case));
