#![no_main]
//! Lint findings; lint-on vs lint-off is in `document_lint_heavy`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| feedmill_fuzz::checks::check_document_lint(data));
