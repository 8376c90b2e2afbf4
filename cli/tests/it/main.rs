//! The `feedmill` binary's integration tests in one test binary (`it`; each test binary of
//! `cargo test --release` is a separate thin-LTO link): `cli` (inputs, records, exit codes)
//! and `golden` (the committed output snapshots), e.g. `cargo test --release --test it
//! golden::`. The tests run the binary as a child process with its own working directory.

mod cli;
mod golden;
