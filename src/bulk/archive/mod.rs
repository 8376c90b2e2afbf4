//! Archive readers, the stage above gzip: the inputs named (files, directories, standard
//! input) read into records, one per document, whatever holds them.
//!
//! - [`walk`]: the things to read, in input order (directories walked in name order);
//! - [`reader`]: each of them sniffed by its first bytes and read: a document, a gzip or
//!   zstd stream, a tar ([`tar`]), a WARC, WARC.gz or WARC.zst ([`warc`]), an ARC or ARC.gz
//!   ([`arc`]), both framings of [`framed`]'s record reader;
//! - [`originals`]: the records a WARC `revisit` may refer to, remembered within a budget;
//! - [`segments`]: a WARC record split into segments (`continuation` records) joined;
//! - [`record`]: the records emitted ([`RawRecord`]: a document, a WARC or ARC record's
//!   block as stored, or an error), the reader's settings and counters;
//! - [`http`]: the HTTP message of a WARC response taken apart (status, `Content-Type`,
//!   body without transfer and content codings);
//! - [`names`]: how a path or member name is written in a record's `source`;
//! - `io`: the reading helpers they share.

pub mod arc;
pub mod framed;
pub mod http;
pub(crate) mod io;
pub mod names;
pub mod originals;
pub mod reader;
pub mod record;
pub mod segments;
pub mod tar;
pub mod walk;
pub mod warc;

pub use record::{Counters, Kind, Payload, RawRecord, ReadConfig};
pub use walk::Input;
