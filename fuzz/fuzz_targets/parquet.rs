#![no_main]
//! The Parquet writer (our column-chunk encoder) on the records of any documents, against
//! parquet-rs's Arrow writer; input layout: see `check_parquet` in fuzz/src/checks/parquet.rs.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| feedmill_fuzz::checks::check_parquet(data));
