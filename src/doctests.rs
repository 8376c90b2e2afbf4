//! The Rust examples of the README and the docs, compiled and run as doctests.

/// The README's examples.
#[doc = include_str!("../README.md")]
pub struct Readme;
