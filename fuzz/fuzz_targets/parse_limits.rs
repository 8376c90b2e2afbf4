#![no_main]
//! Input layout: see `LimitsCase` in fuzz/src/checks/mod.rs.
use feedmill_fuzz::checks::{check_limits_case, LimitsCase};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|case: LimitsCase| check_limits_case(&case));
