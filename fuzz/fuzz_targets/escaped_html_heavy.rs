#![no_main]
//! Strict sanitizing against the html5ever reference parser, determinism and the re-parse
//! round trip of escaped HTML; see `check_escaped_html_heavy` in fuzz/src/checks/escaped_html.rs.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| feedmill_fuzz::checks::check_escaped_html_heavy(data));
