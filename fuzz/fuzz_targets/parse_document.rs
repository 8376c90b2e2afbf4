#![no_main]
//! Cheap invariants of one parse; the cross-checks are in `parse_document_heavy`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| feedmill_fuzz::checks::check_parse_document(data));
