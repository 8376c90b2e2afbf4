//! The reader of the inputs: every item of the walk (a file, standard input) sniffed by its
//! first bytes, never by its name, and read into [`RawRecord`]s, one per document, never
//! holding more than one record of an archive in memory (besides the originals a revisit
//! may refer to, within their budget: see [`super::originals`]; and one segmented record
//! being joined: see [`super::segments`]).
//!
//! ```text
//!  stream ─► sniff first bytes (content, not name):
//!     1f 8b ─► gzip ─┐  peek inside: WARC/ ─► WARC.gz, WARC.zst (member by member, frame by
//!     28 b5 2f fd,   ├─►              frame, see warc/); filedesc:// ─► ARC.gz (see arc/)
//!     5? 2a 4d 18 ─► zstd ─┘   else ─► the decoded stream, sniffed again (a tar.gz, a
//!                                       gzipped document)
//!     WARC/ ─► WARC      filedesc:// ─► ARC
//!     ustar at 257, or a valid tar checksum ─► tar: each member a stream
//!     PK 03 04 ─► zip: not read, one error record
//!     else ─► one document
//! ```
//!
//! An archive inside an archive (a WARC, WARC.gz, tar or gzip file stored as a tar member, a
//! tar inside a gzip) is read the same way, its records named under the outer one
//! (`outer.tar!inner.warc.gz@1234 uri`, `outer.tar!inner.tar!member`): nothing from inside
//! a member comes out as a record of the outer archive, and a file that holds several
//! documents never comes out as one document. Streams nest at most [`MAX_DEPTH`] deep (each
//! gzip level holds its raw and member buffers, ≤ 7.3 MiB); a deeper one is a `too_deep`
//! record.
//!
//! Nothing is dropped: an unreadable file, a broken archive member or an oversized document
//! becomes a [`Payload::Broken`] record. Skipped WARC records (request, metadata, ...) are
//! counted in [`Counters::skipped_records`], by type.

use std::fs::File;
use std::io::{self, Cursor, Read};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use super::arc::{self, ArcFormat};
use super::framed::Framing;
use super::io::{io_kind, read_full, CountRead, StreamBreak};
use super::names::{path_name, record_source};
use super::originals::{Codec, Originals, Reopen};
use super::record::{Counters, Kind as RecordKind, Payload, RawRecord, ReadConfig};
use super::segments::{Joined, Out, Segments};
use super::tar::{is_tar, read_tar, TarItem};
use super::walk::{walk, Input, Item};
use super::warc::{self, WarcItem};
use crate::bulk::buf::{reserve, BufPool};
use crate::bulk::gzip::ahead::Offload;
use crate::bulk::gzip::raw::{Raw, CHUNK};
use crate::bulk::gzip::stream::{Break, GzStream, PlainStream, Source, Step};
use crate::bulk::gzip::zstd::{is_zstd, ZstdStream};

/// Calls `emit` for every record of `inputs`, in order; stops early when `emit` returns false.
pub fn enumerate(
    inputs: &[Input],
    cfg: &ReadConfig,
    counters: &Counters,
    pool: &BufPool,
    emit: &mut dyn FnMut(RawRecord) -> bool,
) {
    Reader::new(cfg, counters, pool, None, emit).walk(inputs);
}

/// Streams nested inside an input at most (the input itself is depth 0; a gzip's decoded
/// stream and a tar's member are one deeper than their container).
pub const MAX_DEPTH: usize = 8;

/// Reads items into records.
pub(crate) struct Reader<'c, 'e> {
    cfg: &'c ReadConfig,
    counters: &'c Counters,
    pool: &'c BufPool,
    emit: &'e mut dyn FnMut(RawRecord) -> bool,
    offload: Option<Arc<dyn Offload>>,
    /// `emit` returned false: nothing more is read.
    pub(crate) stopped: bool,
    /// How deep the stream being read is nested in its input (0: the input itself).
    depth: usize,
    /// The records revisits may refer to.
    originals: Originals,
    /// The path of the input file being read (none for standard input).
    path: Option<PathBuf>,
    /// The WARC file whose records are being read, when they can be read again (an input
    /// file's own records, not those of a stream inside it): where originals are re-read.
    reopen: Option<Arc<Reopen>>,
    /// The segmented WARC record being joined.
    segments: Segments,
}

/// What a stream is, by its first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Gzip,
    Zstd,
    Warc,
    Tar,
    /// An ARC file (the Internet Archive's format before WARC).
    Arc,
    /// A zip archive: not read.
    Zip,
    Document,
}

fn sniff(head: &[u8]) -> Kind {
    if head.starts_with(&[0x1f, 0x8b]) {
        Kind::Gzip
    } else if is_zstd(head) {
        Kind::Zstd
    } else if head.starts_with(b"WARC/") {
        Kind::Warc
    } else if is_tar(head) {
        Kind::Tar
    } else if head.starts_with(b"filedesc://") {
        Kind::Arc
    } else if [b"PK\x03\x04", b"PK\x05\x06", b"PK\x07\x08"].iter().any(|m| head.starts_with(*m)) {
        Kind::Zip
    } else {
        Kind::Document
    }
}

/// The record formats read out of a stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Framed {
    Warc,
    Arc,
}

/// The record format a decoded stream starting with `head` holds, if any.
fn framed(head: &[u8], complete: bool) -> Option<Framed> {
    if head.starts_with(b"WARC/") {
        Some(Framed::Warc)
    } else if head.starts_with(b"filedesc://") || ArcFormat::candidate(head, complete) == Some(true)
    {
        Some(Framed::Arc)
    } else {
        None
    }
}

/// A decoded stream as a reader: a corrupt region ends it with an error. The bytes decoded
/// before the corrupt region was found are read first (a pull may hand out bytes and find
/// the break in the same call); then every read fails with the break, for the bytes after
/// it (decoding resynchronized on a later member) do not continue the ones before: a tar
/// inside would read misaligned headers, a document inside would be spliced.
struct DecodedRead<S> {
    src: S,
    buf: Vec<u8>,
    at: usize,
    /// The corrupt region that ended the stream, once found.
    broken: Option<Break>,
}

impl<S: Source> DecodedRead<S> {
    /// The stream `src` after its first decoded bytes `head`, pulled already, and the break
    /// found after them, if any.
    fn new(src: S, head: Vec<u8>, broken: Option<Break>) -> Self {
        DecodedRead { src, buf: head, at: 0, broken }
    }
}

impl<S: Source> Read for DecodedRead<S> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        while self.at == self.buf.len() {
            if let Some(b) = &self.broken {
                return Err(break_error(b));
            }
            self.buf.clear();
            self.at = 0;
            match self.src.pull(&mut self.buf, CHUNK)? {
                Step::Data => {}
                Step::End => return Ok(0),
                Step::Break(b) => self.broken = Some(b),
            }
        }
        let n = out.len().min(self.buf.len() - self.at);
        out[..n].copy_from_slice(&self.buf[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// The I/O error of a corrupt region, keeping its record kind (`truncated`, `bad_gzip`,
/// `bad_zstd`) for [`io_kind`].
fn break_error(b: &Break) -> io::Error {
    let kind = if b.kind == "truncated" {
        io::ErrorKind::UnexpectedEof
    } else {
        io::ErrorKind::InvalidData
    };
    let message = format!("{} at {}: {}", b.unit, b.offset, b.message);
    io::Error::new(kind, StreamBreak { kind: b.kind, message })
}

impl<'c, 'e> Reader<'c, 'e> {
    pub(crate) fn new(
        cfg: &'c ReadConfig,
        counters: &'c Counters,
        pool: &'c BufPool,
        offload: Option<Arc<dyn Offload>>,
        emit: &'e mut dyn FnMut(RawRecord) -> bool,
    ) -> Self {
        let originals = Originals::new(cfg.revisit_memory, cfg.revisit_expansion);
        let (path, reopen) = (None, None);
        Reader {
            cfg,
            counters,
            pool,
            emit,
            offload,
            stopped: false,
            depth: 0,
            originals,
            path,
            reopen,
            segments: Segments::default(),
        }
    }

    fn emit(&mut self, rec: RawRecord) {
        if !self.stopped && !(self.emit)(rec) {
            self.stopped = true;
        }
    }

    fn broken(&mut self, source: String, kind: &'static str, message: String) {
        self.emit(RawRecord { source, payload: Payload::Broken { kind, message } });
    }

    /// Reads every item of the walk of `inputs`, in order.
    pub(crate) fn walk(&mut self, inputs: &[Input]) {
        walk(inputs, &mut |item, _| {
            self.read(item);
            !self.stopped
        });
    }

    /// Reads `items`, in order.
    pub(crate) fn items(&mut self, items: Vec<Item>) {
        for item in items {
            if self.stopped {
                return;
            }
            self.read(item);
        }
    }

    /// Reads one item of the walk.
    pub(crate) fn read(&mut self, item: Item) {
        match item {
            Item::Stdin => {
                let mut stdin = io::stdin().lock();
                self.stream("-", &mut stdin);
            }
            Item::Open { path, size } => match File::open(&path) {
                Ok(mut f) => {
                    let name = path_name(&path);
                    self.path = Some(path);
                    match size {
                        Some(size)
                            if size <= WHOLE_FILE_BYTES.min(self.cfg.max_record_bytes) as u64 =>
                        {
                            self.small_file(&name, f, size as usize)
                        }
                        _ => self.stream(&name, &mut f),
                    }
                    self.path = None;
                }
                Err(e) => self.broken(path_name(&path), "io", e.to_string()),
            },
            Item::Broken { source, kind, message } => self.broken(source, kind, message),
        }
    }

    /// A regular file of at most [`WHOLE_FILE_BYTES`] (`size` by the walk's metadata): read
    /// whole into a pooled buffer, then sniffed there. A plain document (most files of a
    /// walked directory) is that buffer; an archive or compressed file is streamed from it.
    fn small_file(&mut self, name: &str, mut file: File, size: usize) {
        let mut bytes = self.pool.get();
        let max = self.cfg.max_record_bytes;
        if let Err(e) = read_file(&mut file, size, max, &mut bytes) {
            self.counters.bytes_read.fetch_add(bytes.len() as u64, Ordering::Relaxed);
            return self.broken(name.to_owned(), "io", e.to_string());
        }
        if sniff(&bytes) != Kind::Document {
            // The bytes read, then whatever the file grew by since the walk (an archive is
            // not limited to one record's size); `stream` counts the bytes as it reads them.
            return self.stream(name, &mut Cursor::new(bytes).chain(file));
        }
        // A read into a pooled buffer larger than the limit may take more than one byte past it.
        bytes.truncate(max.saturating_add(1));
        self.counters.bytes_read.fetch_add(bytes.len() as u64, Ordering::Relaxed);
        let bytes = if bytes.len() > max { Err(too_large(max)) } else { Ok(bytes) };
        self.emit_document(name.to_owned(), bytes)
    }

    /// One stream (an input, a gzip's decoded stream, a tar member): sniffs its kind and
    /// emits its records. The raw bytes of an input (depth 0) are counted as they are read.
    fn stream(&mut self, name: &str, raw: &mut dyn Read) {
        let outer = self.depth == 0;
        // NOTE: sniffed from a small head read, not through `Raw`: most inputs of a walked
        // directory are plain documents, read straight into a pooled record buffer; a
        // `Raw` (256 KiB, zeroed) per file was a tenth of the run's instructions.
        let mut head = [0u8; 512];
        let n = match read_full(raw, &mut head) {
            Ok(n) => n,
            Err(e) => return self.read_failed(name, e),
        };
        let counters: &'c Counters = self.counters;
        let uncounted = AtomicU64::new(0);
        let counter = if outer { &counters.bytes_read } else { &uncounted };
        counter.fetch_add(n as u64, Ordering::Relaxed);
        let head = &head[..n];
        let kind = sniff(head);
        match kind {
            Kind::Document => {
                // A plain document is read from the stream itself, not through the counting
                // wrapper: a `File` reads into the buffer's spare capacity as is, where any
                // reader without its own `read_buf` has std zero that capacity first (a few
                // percent of a directory job). The bytes are counted after the read.
                let max = self.cfg.max_record_bytes;
                let (bytes, got) = read_bounded(head, raw, max, self.pool.get());
                counter.fetch_add(got as u64, Ordering::Relaxed);
                return self.emit_document(name.to_owned(), bytes);
            }
            Kind::Zip => return self.unsupported(name),
            Kind::Gzip | Kind::Zstd | Kind::Warc | Kind::Arc | Kind::Tar => {}
        }
        // The head, then the rest of the stream with its bytes counted as they are read.
        let mut counted = CountRead { inner: raw, counter };
        let mut rest = Cursor::new(head).chain(&mut counted);
        let rest: &mut dyn Read = &mut rest;
        match kind {
            Kind::Warc => {
                let mut plain = PlainStream::new(Raw::new(rest));
                self.records(name, Framed::Warc, Codec::Plain, &mut plain, Vec::new(), None)
            }
            Kind::Arc => {
                let mut plain = PlainStream::new(Raw::new(rest));
                self.records(name, Framed::Arc, Codec::Plain, &mut plain, Vec::new(), None)
            }
            Kind::Tar => self.tar(name, rest),
            Kind::Zstd => self.decoded(name, Codec::Zstd, ZstdStream::new(Raw::new(rest))),
            _ => self.decoded(name, Codec::Gzip, GzStream::new(Raw::new(rest))),
        }
    }

    /// A compressed stream (gzip, zstd): its first decoded bytes sniffed for WARC or ARC
    /// records (read member by member), else the decoded stream read as any stream, one
    /// level deeper.
    fn decoded<S: Source>(&mut self, name: &str, codec: Codec, mut src: S) {
        // Decode the first bytes, whatever the length of the first member's header.
        let mut peek = Vec::new();
        let mut brk = None;
        while peek.len() < 512 && brk.is_none() {
            let want = 512 - peek.len();
            match src.pull(&mut peek, want) {
                Ok(Step::Data) => {}
                Ok(Step::End) => break,
                Ok(Step::Break(b)) if peek.is_empty() => {
                    // The first member is corrupt: a WARC.gz or ARC.gz goes on after it.
                    let mut after = Vec::new();
                    let mut complete = false;
                    while after.len() < 512 && !complete {
                        match src.pull(&mut after, 512) {
                            Ok(Step::Data) => {}
                            _ => complete = true,
                        }
                    }
                    if let Some(format) = framed(&after, complete) {
                        let source = format!("{name}@{}", b.offset);
                        self.broken(source, b.kind, b.message);
                        if let Some(o) = &self.offload {
                            src.use_offload(o.clone());
                        }
                        return self.records(name, format, codec, &mut src, after, None);
                    }
                    return self.broken(name.to_owned(), b.kind, break_error(&b).to_string());
                }
                Ok(Step::Break(b)) => brk = Some(b),
                Err(e) => return self.read_failed(name, e),
            }
        }
        if let Some(format) = framed(&peek, brk.is_some() || peek.len() < 512) {
            if let Some(o) = &self.offload {
                src.use_offload(o.clone());
            }
            return self.records(name, format, codec, &mut src, peek, brk);
        }
        // Anything else inside (a tar, a document …): the decoded stream, sniffed.
        self.nested(name, &mut DecodedRead::new(src, peek, brk))
    }

    /// The error record of stream `name`, whose read failed with `e`: `io` for an input; for a
    /// stream inside one, what the failure of the outer stream means (`truncated` when the
    /// outer archive ends inside it, `bad_gzip` when its decoding failed).
    fn read_failed(&mut self, name: &str, e: io::Error) {
        let (kind, message) = if self.depth == 0 { ("io", e.to_string()) } else { io_kind(e) };
        self.broken(name.to_owned(), kind, message)
    }

    /// A stream inside the one being read (a gzip's decoded stream, a tar member), read one
    /// level deeper; past [`MAX_DEPTH`], a `too_deep` record.
    fn nested(&mut self, name: &str, r: &mut dyn Read) {
        if self.depth >= MAX_DEPTH {
            let message = format!("archives nested more than {MAX_DEPTH} deep: not read");
            return self.broken(name.to_owned(), "too_deep", message);
        }
        self.depth += 1;
        self.stream(name, r);
        self.depth -= 1;
    }

    /// The error record of a zip archive (not read here): its documents are not listed
    /// (and none of them comes out as the stream's document).
    fn unsupported(&mut self, name: &str) {
        let message = "a zip archive: zip archives are not read, so its members are not listed";
        self.broken(name.to_owned(), "unsupported_archive", message.to_owned());
    }

    fn emit_document(&mut self, source: String, bytes: Result<Vec<u8>, (&'static str, String)>) {
        match bytes {
            Ok(bytes) => self.emit(RawRecord { source, payload: Payload::Document(bytes) }),
            Err((kind, message)) => self.broken(source, kind, message),
        }
    }

    /// The WARC or ARC records of a decoded stream (`head`: its first bytes, already
    /// pulled, and `brk` the break after them), stored as `codec` says.
    fn records<S: Source>(
        &mut self,
        name: &str,
        format: Framed,
        codec: Codec,
        src: &mut S,
        head: Vec<u8>,
        brk: Option<Break>,
    ) {
        // An input file's own WARC records can be read again (see `super::originals`).
        self.reopen = match (&self.path, format) {
            (Some(path), Framed::Warc) if self.depth == 0 => {
                Some(Arc::new(Reopen { path: path.clone(), codec }))
            }
            _ => None,
        };
        let max = self.cfg.max_record_bytes;
        let pool = self.pool;
        let mut emit = |item: WarcItem| {
            self.archive_item(name, item);
            !self.stopped
        };
        let mut new_buf = || pool.get();
        let (result, what) = match format {
            Framed::Warc => {
                (warc::read_records(src, head, brk, max, &mut new_buf, &mut emit), "WARC")
            }
            Framed::Arc => (arc::read_records(src, head, brk, max, &mut new_buf, &mut emit), "ARC"),
        };
        self.reopen = None;
        let mut out = Vec::new();
        self.segments.finish(&mut out);
        self.joined(out);
        if let Err(e) = result {
            self.broken(
                name.to_owned(),
                "io",
                format!("reading {what}: {e}; rest of file skipped"),
            );
        }
    }

    /// The record of a WARC or ARC item of `name`: a revisit gets its original (when
    /// remembered), a response or resource is remembered for the revisits after it.
    fn archive_item(&mut self, name: &str, item: WarcItem) {
        match item {
            WarcItem::Record { at, kind, target_uri, block, capture, note, segment } => {
                let source = record_source(name, at, Some(&target_uri));
                if kind == RecordKind::Continuation
                    || segment.as_ref().is_some_and(|s| s.number == 1)
                {
                    let mut out = Vec::new();
                    if kind == RecordKind::Continuation {
                        let max = self.cfg.max_record_bytes;
                        let seg = segment.as_ref();
                        if self.segments.continuation(&source, seg, &block, max, &mut out) {
                            self.count_skipped("continuation");
                        }
                    } else {
                        let joined = Joined {
                            source,
                            kind,
                            target_uri,
                            block: block.to_vec(),
                            capture,
                            note,
                        };
                        self.segments.first(joined, &mut out);
                    }
                    if let Some(own) = block.into_own() {
                        self.pool.put(own);
                    }
                    return self.joined(out);
                }
                let response = Response { source, kind, target_uri, block, capture, note };
                self.handed_on(response, Some(at));
            }
            WarcItem::Skipped { warc_type, .. } => self.count_skipped(&warc_type),
            WarcItem::Broken { at, target_uri, kind, message } => {
                self.broken(record_source(name, at, target_uri.as_deref()), kind, message)
            }
        }
    }

    /// Counts a skipped record of `warc_type`.
    fn count_skipped(&mut self, warc_type: &str) {
        self.counters.skipped_records.fetch_add(1, Ordering::Relaxed);
        let i = crate::bulk::Summary::skipped_index(warc_type);
        self.counters.skipped_by_type[i].fetch_add(1, Ordering::Relaxed);
    }

    /// Emits what the joining of segmented records gave out (see [`super::segments`]).
    fn joined(&mut self, out: Vec<Out>) {
        for o in out {
            match o {
                Out::Record(j) => {
                    let Joined { source, kind, target_uri, block, capture, note } = j;
                    // Remembered as a copy: the file holds it in several records.
                    let block = block.into();
                    self.handed_on(
                        Response { source, kind, target_uri, block, capture, note },
                        None,
                    );
                }
                Out::Error { source, kind, message } => self.broken(source, kind, message),
            }
        }
    }

    /// The record of a `response`, `resource` or `revisit` handed on: a revisit gets its
    /// original (when remembered), a response or resource is remembered for the revisits
    /// after it (by where it is, `at` in the file being read, when it can be read again
    /// there).
    fn handed_on(&mut self, response: Response, at: Option<super::framed::Loc>) {
        let Response { source, kind, target_uri, block, mut capture, note } = response;
        let (mut original, mut original_error) = (None, None);
        self.originals.count_read(block.len());
        if kind == RecordKind::Revisit {
            let max = self.cfg.max_record_bytes;
            if let Some((from, found)) = self.originals.find(&capture, max) {
                capture.refers_to_source = Some(from.to_owned());
                match found {
                    Ok(o) => original = Some(o),
                    Err(e) => original_error = Some(e),
                }
            }
        } else {
            let file = self.reopen.as_ref().zip(at);
            self.originals.remember(&source, kind, &capture, &block, file);
        }
        let payload = Payload::Response {
            kind,
            target_uri,
            message: block,
            capture,
            original,
            original_error,
            note,
        };
        self.emit(RawRecord { source, payload })
    }

    /// A tar stream (see [`super::tar`]): each regular file member read as a stream of its
    /// own (a document, or the records of an archive inside), named `<archive>!<member>`.
    fn tar(&mut self, name: &str, r: &mut dyn Read) {
        let result = read_tar(r, &mut |item| {
            match item {
                TarItem::File { name: member, data } => {
                    // Sniffed and read as any stream: a WARC, a tar, gzip … inside.
                    self.nested(&format!("{name}!{member}"), data)
                }
                TarItem::NotAFile { name: member, message } => {
                    self.broken(format!("{name}!{member}"), "not_a_file", message)
                }
                TarItem::Bad { kind, message } => self.broken(format!("{name}!"), kind, message),
            }
            Ok(!self.stopped)
        });
        match result {
            Err((kind, msg)) => {
                self.broken(name.to_owned(), kind, format!("{msg}; rest of archive skipped"))
            }
            // The stream after the end-of-archive blocks is read to its end, so that a
            // compressed tar whose stream fails (a cut trailer, a checksum mismatch, found
            // only at the stream's end) has its error record, after the members.
            Ok(()) if !self.stopped => {
                if let Err(e) = io::copy(r, &mut io::sink()) {
                    let (kind, msg) = io_kind(e);
                    let message = format!(
                        "{msg}: found after the end of the tar, once its members were read"
                    );
                    self.broken(name.to_owned(), kind, message);
                }
            }
            Ok(()) => {}
        }
    }
}

/// A `response`, `resource` or `revisit` record read whole (from one WARC or ARC record, or
/// joined from a segmented one), for [`Reader::handed_on`].
type Response = Joined<crate::bulk::buf::Block>;

/// The error of a document over `max` bytes.
fn too_large(max: usize) -> (&'static str, String) {
    ("too_large", format!("document larger than {max} bytes"))
}

/// Largest file read whole before it is sniffed (see [`Reader::small_file`]); a larger one
/// is streamed through a 512-byte head.
const WHOLE_FILE_BYTES: usize = 1 << 20;

/// Reads `file` to its end into `bytes`, stopping once more than `max` bytes are in (a read
/// fills the buffer's spare capacity, so it may take more). `size` is what its metadata
/// said: the buffer gets room for it, and one `read` into that room (not zeroed first)
/// takes the whole file, one more finds its end. (`read_to_end` through a `Take` has
/// no size hint: it reads in 8, 16, 32, … KiB steps, four or five calls for a typical feed.)
#[cfg(unix)]
fn read_file(file: &mut File, size: usize, max: usize, bytes: &mut Vec<u8>) -> io::Result<()> {
    let limit = max.saturating_add(1);
    // One byte more than the file: the read that finds the end needs room.
    reserve(bytes, size.min(max) + 1);
    while bytes.len() < limit {
        if bytes.len() == bytes.capacity() {
            bytes.reserve(bytes.len().min(limit - bytes.len()));
        }
        match rustix::io::read(&*file, rustix::buffer::spare_capacity(bytes)) {
            Ok(0) => return Ok(()),
            Ok(_) => {}
            Err(rustix::io::Errno::INTR) => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(())
}

/// Reads `file` to its end into `bytes`, at most one byte past `max`.
#[cfg(not(unix))]
fn read_file(file: &mut File, size: usize, max: usize, bytes: &mut Vec<u8>) -> io::Result<()> {
    reserve(bytes, size.min(max) + 1);
    file.take((max as u64).saturating_add(1)).read_to_end(bytes).map(|_| ())
}

/// Reads all of `r`, at most `max` bytes; what is beyond `max` is not read.
/// A document of at most `max` bytes: `prefix` (bytes already read from the stream), then
/// the rest of `r` (at most one byte past the limit is read). Also returns how many bytes
/// were read from `r`.
fn read_bounded(
    prefix: &[u8],
    r: &mut dyn Read,
    max: usize,
    mut bytes: Vec<u8>,
) -> (Result<Vec<u8>, (&'static str, String)>, usize) {
    bytes.extend_from_slice(prefix);
    if bytes.len() > max {
        return (Err(too_large(max)), 0);
    }
    let result = r.take(max as u64 + 1 - bytes.len() as u64).read_to_end(&mut bytes);
    let got = bytes.len() - prefix.len();
    let bytes = match result {
        Ok(_) if bytes.len() > max => Err(too_large(max)),
        Ok(_) => Ok(bytes),
        Err(e) => Err(io_kind(e)),
    };
    (bytes, got)
}

#[cfg(test)]
mod tests;
