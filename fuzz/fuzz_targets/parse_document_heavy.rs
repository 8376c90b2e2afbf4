#![no_main]
//! The heavy cross-checks of a stored document (JSON records, owned form, extraction,
//! determinism, `parse_str`); see `check_parse_document_heavy` in fuzz/src/checks/parse_document.rs.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| feedmill_fuzz::checks::check_parse_document_heavy(data));
