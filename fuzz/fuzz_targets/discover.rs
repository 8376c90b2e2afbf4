//! Feed discovery in HTML pages (see `checks::check_discover`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| feedmill_fuzz::checks::check_discover(data));
