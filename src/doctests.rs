//! The Rust examples of the README and of the pages under `docs/`, compiled and run as
//! doctests (`cargo test --doc`): one item per Markdown file that holds Rust code blocks.

/// The README's Rust examples.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// The Rust examples of `docs/library.md`.
#[cfg(doctest)]
#[doc = include_str!("../docs/library.md")]
pub struct LibraryDoctests;
