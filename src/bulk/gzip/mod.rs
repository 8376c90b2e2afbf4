//! Gzip, the stage above the buffers: inflating gzip members into one decoded stream, member
//! by member, with every corrupt region reported where it is and nothing taken from inside
//! it. It serves every compressed input the archive readers meet: a WARC.gz, a tar.gz, a
//! gzipped document, and gzip inside tar members.
//!
//! - [`member`]: the member format (magic, header length) and the whole-member size bound;
//! - [`deflate`]: one-shot inflate of a member held whole in memory (libdeflate), the fast
//!   path;
//! - [`raw`]: the buffered raw bytes, with a look-behind to resume after a failed member;
//! - [`stream`]: the decoded streams ([`stream::GzStream`], [`stream::PlainStream`]) the
//!   readers pull from, with the raw offset of every decoded byte and the deflate block
//!   boundaries of the member being decoded (so that a resynchronization never starts inside
//!   a stored block);
//! - [`ahead`]: members ahead of the read position inflated on other threads (the
//!   pipeline's workers), used only when they start exactly where the stream is;
//! - [`zstd`]: the same for zstd frames ([`zstd::ZstdStream`]: `.warc.zst`, with or without
//!   its dictionary), decoded on the reader's thread.

pub mod ahead;
pub mod deflate;
pub mod member;
pub mod raw;
pub mod stream;
pub mod zstd;
