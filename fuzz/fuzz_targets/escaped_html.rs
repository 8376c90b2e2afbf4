#![no_main]
//! One parse of escaped HTML; strict sanitizing and round trips are in `escaped_html_heavy`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| feedmill_fuzz::checks::check_escaped_html(data));
