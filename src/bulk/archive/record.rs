//! The records the archive readers emit, before their HTTP messages are taken apart, and
//! the reader's settings and counters.

use std::sync::atomic::AtomicU64;

use crate::bulk::buf::{Block, BufPool};

/// What a record holds.
#[derive(Debug)]
pub enum Payload {
    /// A document's bytes (a file, a tar member, standard input), gzip already removed.
    Document(Vec<u8>),
    /// A WARC `response` record: the HTTP message (status line, headers, body as stored).
    Response {
        /// The record's `WARC-Target-URI` (the base URL of its document).
        target_uri: String,
        /// The HTTP message as stored in the record block (a range of a buffer shared with
        /// the records inflated with it, or a buffer of its own).
        message: Block,
    },
    /// Something that could not be read.
    Broken {
        /// The error kind written to the record's `error.kind`.
        kind: &'static str,
        /// What went wrong, for `error.message`.
        message: String,
    },
}

/// One record as the archive readers emit it: exactly one output line. A WARC response's
/// HTTP message is taken apart later, by the worker that processes it.
#[derive(Debug)]
pub struct RawRecord {
    /// `path`, `path!member` (tar), `path@offset target-uri` (WARC).
    pub source: String,
    /// What was read.
    pub payload: Payload,
}

impl RawRecord {
    /// Bytes of the record's source name and payload (what a batch's size bounds).
    pub fn size(&self) -> usize {
        self.source.len()
            + match &self.payload {
                Payload::Document(b) => b.len(),
                Payload::Response { message, target_uri } => message.len() + target_uri.len(),
                Payload::Broken { message, .. } => message.len(),
            }
    }

    /// Heap bytes the record holds (capacities: what a memory budget must bound).
    pub fn held_bytes(&self) -> usize {
        self.source.capacity()
            + match &self.payload {
                Payload::Document(b) => b.capacity(),
                Payload::Response { message, target_uri } => {
                    message.held_bytes() + target_uri.capacity()
                }
                Payload::Broken { message, .. } => message.capacity(),
            }
    }

    /// Gives the record's buffers back to `pool` (a shared block's buffer goes back to its
    /// own pool once its last block is dropped).
    pub fn recycle(self, pool: &BufPool) {
        match self.payload {
            Payload::Document(b) => pool.put(b),
            Payload::Response { message, .. } => {
                if let Some(own) = message.into_own() {
                    pool.put(own)
                }
            }
            Payload::Broken { .. } => {}
        }
    }
}

/// Counters the reader updates while it runs (read by the progress bar and the summary).
#[derive(Debug, Default)]
pub struct Counters {
    /// Raw bytes read from files and standard input (compressed size for archives).
    pub bytes_read: AtomicU64,
    /// WARC records of other types than `response`, skipped.
    pub skipped_records: AtomicU64,
}

/// Reader settings.
#[derive(Clone, Debug)]
pub struct ReadConfig {
    /// Largest document or WARC record accepted; larger ones become broken records.
    pub max_record_bytes: usize,
}
