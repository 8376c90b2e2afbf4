//! Sinks: where processed records go (stage 7 of the pipeline).
//!
//! Owns: [`RecordView`] (one processed input record, borrowed from the worker that made it),
//! the [`Sink`] trait and the JSON Lines encoder ([`json::JsonLines`]).
//!
//! Invariant: every input record becomes exactly one `RecordView`, whatever happened to it
//! (unreadable, not a feed, parse error); a sink never drops one.

pub mod json;

pub use crate::record::{Problem, RecordView, Status};

/// Receives processed records in input order.
pub trait Sink {
    /// Writes one record. An `Err` is an output failure (fatal for the run).
    fn record(&mut self, rec: &RecordView<'_, '_>) -> std::io::Result<()>;
}
