//! JSON Feed reader (see `checks::check_json_feed`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| feedmill_fuzz::checks::check_json_feed(data));
