#![no_main]
//! Lint on vs lint off give the same parse; see `check_document_lint_heavy` in
//! fuzz/src/checks/document_lint.rs.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| feedmill_fuzz::checks::check_document_lint_heavy(data));
