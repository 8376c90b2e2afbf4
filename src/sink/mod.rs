//! Sinks: where processed records go. Owns the JSON Lines encoder ([`json`]); the Arrow and
//! Parquet forms are `crate::columnar`'s. A record is a [`RecordView`] (one processed input
//! record, borrowed from the worker that made it), whose keys the record's walk
//! (`crate::record`) gives.
//!
//! Invariant: every input record becomes exactly one `RecordView`, whatever happened to it
//! (unreadable, not a feed, parse error); a sink never drops one.

pub mod json;

pub use crate::record::{Problem, RecordView, Status};
