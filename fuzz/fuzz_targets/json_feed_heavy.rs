//! JSON Feed reader with the JSON records of the result (see `checks::check_json_feed_heavy`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| feedmill_fuzz::checks::check_json_feed_heavy(data));
