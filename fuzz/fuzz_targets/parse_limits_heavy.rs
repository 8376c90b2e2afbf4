#![no_main]
//! Input layout: see `LimitsCase` in fuzz/src/checks/mod.rs; the heavy cross-checks (JSON
//! records, owned form, extraction, determinism).
use feedmill_fuzz::checks::{check_limits_case_heavy, LimitsCase};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|case: LimitsCase| check_limits_case_heavy(&case));
