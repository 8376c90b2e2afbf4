//! The records the archive readers emit, before their HTTP messages are taken apart, and
//! the reader's settings and counters.

use std::sync::atomic::AtomicU64;
use std::sync::Arc;

use crate::bulk::buf::{Block, BufPool};
use crate::record::Capture;

/// What an archive record handed on holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A WARC `response` or an ARC record: an HTTP message.
    Response,
    /// A WARC `resource` record: a document, without HTTP.
    Resource,
    /// A WARC `revisit` record: the same content as an earlier capture (its block is at most
    /// the new response's HTTP header).
    Revisit,
    /// A WARC `continuation` record: a later segment of a record its crawler split (WARC 1.1
    /// §6), joined to its first segment by the reader, never handed on alone.
    Continuation,
}

impl Kind {
    /// Its `WARC-Type`.
    pub fn warc_type(self) -> &'static str {
        match self {
            Kind::Response => "response",
            Kind::Resource => "resource",
            Kind::Revisit => "revisit",
            Kind::Continuation => "continuation",
        }
    }
}

/// The block of the record a revisit refers to, read earlier in the run.
#[derive(Clone, Debug)]
pub struct Original {
    /// What the original holds (a `response`'s HTTP message or a `resource`'s document).
    pub kind: Kind,
    /// Its block, shared with the reader's memory of originals.
    pub block: Arc<[u8]>,
}

/// What a record holds.
#[derive(Debug)]
pub enum Payload {
    /// A document's bytes (a file, a tar member, standard input), gzip already removed.
    Document(Vec<u8>),
    /// A record of a WARC or ARC file: a WARC `response` or ARC record (the HTTP message:
    /// status line, headers, body as stored), a `resource` (the document) or a `revisit`
    /// (at most the HTTP header of the response it stands for).
    Response {
        /// Which of those.
        kind: Kind,
        /// The record's `WARC-Target-URI` or ARC URL (the base URL of its document).
        target_uri: String,
        /// The record block as stored (a range of a buffer shared with the records inflated
        /// with it, or a buffer of its own).
        message: Block,
        /// What the record's header says about the capture (the HTTP status and content type
        /// are filled in from the HTTP message later, by the worker).
        capture: Box<Capture>,
        /// A revisit's original, when it was read earlier in the run and is remembered.
        original: Option<Original>,
        /// Why a revisit has no original although one is remembered: `original_changed` (its
        /// file holds another record there now), `original_unreadable` or
        /// `revisit_limit_reached`, and a message.
        original_error: Option<(&'static str, String)>,
        /// How the record was read when its header was wrong (a stated length its gzip member
        /// or zstd frame contradicts): a diagnostic for its record.
        note: Option<String>,
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
    /// `path`, `path!member` (tar), `path@offset target-uri` (WARC, ARC).
    pub source: String,
    /// What was read.
    pub payload: Payload,
}

impl RawRecord {
    /// Bytes of the record's source name and payload, a revisit's original included (what a
    /// batch's size bounds: a batch of revisits of one large original is as large as its
    /// records are once processed).
    pub fn size(&self) -> usize {
        self.source.len()
            + match &self.payload {
                Payload::Document(b) => b.len(),
                Payload::Response { message, target_uri, original, .. } => {
                    message.len()
                        + target_uri.len()
                        + original.as_ref().map_or(0, |o| o.block.len())
                }
                Payload::Broken { message, .. } => message.len(),
            }
    }

    /// Heap bytes the record holds (capacities: what a memory budget must bound).
    pub fn held_bytes(&self) -> usize {
        self.source.capacity()
            + match &self.payload {
                Payload::Document(b) => b.capacity(),
                Payload::Response {
                    message,
                    target_uri,
                    capture,
                    original,
                    original_error,
                    ..
                } => {
                    message.held_bytes()
                        + original_error.as_ref().map_or(0, |e| e.1.capacity())
                        + target_uri.capacity()
                        + std::mem::size_of::<Capture>()
                        + capture.held_bytes()
                        + original.as_ref().map_or(0, |o| o.block.len())
                }
                Payload::Broken { message, .. } => message.capacity(),
            }
    }

    /// Makes the record's body hold about its length: a block that is a range of a buffer
    /// shared with other records is copied out, a recycled buffer much larger than its bytes
    /// is shrunk (see [`Block::compact`]). What the record reads as is unchanged.
    pub(crate) fn compact(&mut self) {
        match &mut self.payload {
            Payload::Document(b) => crate::bulk::buf::shrink(b),
            Payload::Response { message, .. } => message.compact(),
            Payload::Broken { .. } => {}
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
    /// Records of other types than `response`, `resource` and `revisit`, skipped (WARC
    /// `warcinfo`, `request`, `metadata`, …; an ARC file's `filedesc` and `dns:` records).
    pub skipped_records: AtomicU64,
    /// `skipped_records` by type, as [`crate::bulk::Summary::skipped_by_type`] counts them.
    pub skipped_by_type: [AtomicU64; crate::bulk::Summary::SKIPPED_TYPES.len()],
}

/// Reader settings.
#[derive(Clone, Debug)]
pub struct ReadConfig {
    /// Largest document or WARC record accepted; larger ones become broken records.
    pub max_record_bytes: usize,
    /// Bytes of `response` and `resource` records remembered for the revisits after them
    /// (see [`super::originals`]); 0: none.
    pub revisit_memory: usize,
    /// Revisits are given their originals' content within this many times the bytes of the
    /// records read (see [`super::originals`]); 0: none given.
    pub revisit_expansion: usize,
}
