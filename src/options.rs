//! Parse options and resource limits.
//!
//! Owns: [`Options`], [`Limits`]. Every field documents its default; `Default` gives the
//! values used by the CLI.

/// Resource limits applied to every parse. Exceeding one stops processing at that point with
/// a [`crate::DiagnosticKind::LimitReached`] diagnostic (what was read before is kept), except
/// `max_input_bytes`, which is a typed [`crate::Error::InputTooLarge`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Largest document accepted, in bytes. Default: 256 MiB.
    pub max_input_bytes: usize,
    /// Deepest element nesting followed. Deeper content is skipped. Default: 256.
    pub max_depth: usize,
    /// Most entries kept per feed. Default: 100 000.
    pub max_entries: usize,
    /// Longest text value kept, in bytes; longer values are cut at a char boundary. Default: 16 MiB.
    pub max_text_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_input_bytes: 256 << 20,
            max_depth: 256,
            max_entries: 100_000,
            max_text_bytes: 16 << 20,
        }
    }
}

/// Options for a parse.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    pub limits: Limits,
}
