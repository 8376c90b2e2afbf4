//! Input enumeration: turns the command line's inputs into a stream of [`Record`]s, one per
//! document, never holding more than one record of an archive in memory.
//!
//! ```text
//!  path ─► directory? ─► walk, sorted by name, recursively
//!       ─► file / `-` ─► sniff first bytes (magic, not extension):
//!            1f 8b ─► peek inside: WARC/ ─► WARC.gz (member by member, see warc.rs)
//!                                  ustar ─► tar.gz      else ─► gzipped document
//!            WARC/ ─► WARC      ustar at 257 ─► tar     else ─► one document
//! ```
//!
//! Nothing is dropped: an unreadable file, a broken archive member or an oversized document
//! becomes a [`Payload::Broken`] record. Skipped WARC records (request, metadata, ...) are
//! counted in [`Counters::skipped_records`].

use std::fs::File;
use std::io::{self, BufReader, Cursor, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::Arc;
use std::thread::JoinHandle;

use flate2::bufread::MultiGzDecoder;

use super::warc::ahead::Offload;
use super::warc::block::Block;
use super::warc::gz::{Break, GzStream, PlainStream, Raw, Source, Step};
use super::warc::{self, WarcItem};

/// One input named on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A file or a directory.
    Path(PathBuf),
    /// Standard input (`-`).
    Stdin,
}

impl Input {
    /// `-` is standard input; anything else a path.
    pub fn parse(arg: &str) -> Input {
        if arg == "-" {
            Input::Stdin
        } else {
            Input::Path(PathBuf::from(arg))
        }
    }
}

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

/// One input record: exactly one output line.
#[derive(Debug)]
pub struct Record {
    /// `path`, `path!member` (tar), `path@offset target-uri` (WARC).
    pub source: String,
    /// What was read.
    pub payload: Payload,
}

impl Record {
    /// Bytes of the record: its source name and payload (for bounding the records in flight).
    pub fn size(&self) -> usize {
        self.source.len()
            + match &self.payload {
                Payload::Document(b) => b.len(),
                Payload::Response { message, target_uri } => message.len() + target_uri.len(),
                Payload::Broken { message, .. } => message.len(),
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

/// Room for `additional` more bytes in `buf`. An empty buffer too small for them (a pooled
/// one) is replaced rather than grown: growing reallocates, and a reallocation copies the
/// whole old allocation even when the buffer holds nothing.
pub(crate) fn reserve(buf: &mut Vec<u8>, additional: usize) {
    if buf.is_empty() && buf.capacity() < additional {
        *buf = Vec::with_capacity(additional);
    } else {
        buf.reserve(additional);
    }
}

/// Recycled buffers: record buffers (the reader decodes into them, the runner gives them back
/// once they are written), and a WARC.gz stream's inflated ranges (see [`super::warc::block`]).
/// NOTE: without recycling, every record's buffer is allocated by the reader thread and
/// freed by another one, and the allocator hands back freshly zeroed pages: page faults
/// were a third of the reader's time.
#[derive(Debug)]
pub struct BufPool {
    bufs: std::sync::Mutex<Vec<Vec<u8>>>,
    /// Buffers kept at most.
    keep: usize,
    /// Larger buffers are freed rather than kept.
    max_capacity: usize,
}

impl Default for BufPool {
    /// The record buffers' pool: at most 4096 buffers (a bit more than the records in flight)
    /// of at most 4 MiB.
    fn default() -> Self {
        BufPool::with_limits(4096, 4 << 20)
    }
}

impl BufPool {
    /// A pool keeping at most `keep` buffers of at most `max_capacity` bytes.
    pub fn with_limits(keep: usize, max_capacity: usize) -> Self {
        BufPool { bufs: std::sync::Mutex::new(Vec::new()), keep, max_capacity }
    }

    /// An empty buffer, recycled when one is available.
    pub fn get(&self) -> Vec<u8> {
        self.bufs.lock().ok().and_then(|mut b| b.pop()).unwrap_or_default()
    }

    /// Buffers kept now.
    #[cfg(test)]
    pub(crate) fn kept(&self) -> usize {
        self.bufs.lock().map_or(0, |b| b.len())
    }

    /// Gives a buffer back (kept unless enough are, or it is too large).
    pub fn put(&self, mut buf: Vec<u8>) {
        if buf.capacity() == 0 || buf.capacity() > self.max_capacity {
            return;
        }
        buf.clear();
        if let Ok(mut b) = self.bufs.lock() {
            if b.len() < self.keep {
                b.push(buf);
            }
        }
    }

    /// Gives back the buffers of a processed record.
    pub fn recycle(&self, rec: Record) {
        match rec.payload {
            Payload::Document(b) => self.put(b),
            Payload::Response { message, .. } => {
                if let Some(own) = message.into_own() {
                    self.put(own)
                }
            }
            Payload::Broken { .. } => {}
        }
    }
}

/// Reader settings.
#[derive(Clone, Debug)]
pub struct ReadConfig {
    /// Largest document or WARC record accepted; larger ones become broken records.
    pub max_record_bytes: usize,
}

/// Streams the records of `inputs` from a reader thread through a channel holding at most
/// `bound` records. Dropping the receiver stops the reader.
pub fn spawn_reader(
    inputs: Vec<Input>,
    cfg: ReadConfig,
    counters: Arc<Counters>,
    pool: Arc<BufPool>,
    bound: usize,
) -> (Receiver<Record>, JoinHandle<()>) {
    let (tx, rx) = sync_channel(bound);
    let handle = std::thread::Builder::new()
        .name("feedmill-reader".into())
        .spawn(move || {
            let mut emit = |r: Record| tx.send(r).is_ok();
            enumerate(&inputs, &cfg, &counters, &pool, &mut emit);
        })
        .expect("spawn reader thread");
    (rx, handle)
}

/// Calls `emit` for every record of `inputs`, in order; stops early when `emit` returns false.
pub fn enumerate(
    inputs: &[Input],
    cfg: &ReadConfig,
    counters: &Counters,
    pool: &BufPool,
    emit: &mut dyn FnMut(Record) -> bool,
) {
    enumerate_with(inputs, cfg, counters, pool, None, emit)
}

/// [`enumerate`], with the gzip members of WARC.gz inputs inflated ahead by `offload`'s
/// threads (see [`warc::ahead`]); the records are the same.
pub fn enumerate_with(
    inputs: &[Input],
    cfg: &ReadConfig,
    counters: &Counters,
    pool: &BufPool,
    offload: Option<Arc<dyn Offload>>,
    emit: &mut dyn FnMut(Record) -> bool,
) {
    Reader::new(cfg, counters, pool, offload, emit).walk(inputs);
}

/// One thing to read, as the walk of the inputs yields them, in input order.
#[derive(Debug)]
pub(crate) enum Item {
    /// Standard input.
    Stdin,
    /// A path to open and read: a regular file of a walked directory, or a path named on the
    /// command line that is not a directory (opened whatever it is). `size` is the walk's
    /// metadata length of a regular file (`None` for anything else).
    Open { path: PathBuf, size: Option<u64> },
    /// Something that cannot be read (its error record).
    Broken { source: String, kind: &'static str, message: String },
}

/// Walks `inputs` in order, calling `f` with each [`Item`] and its size when known (from the
/// file's metadata); stops when `f` returns false. A directory is walked recursively (entries
/// sorted by name, symbolic links followed, a link back to an ancestor directory reported as
/// `symlink_loop`); in it, anything but regular files and directories (FIFOs, sockets,
/// devices) is reported as `not_a_file` and not opened. A path named on the command line is
/// opened whatever it is (a FIFO from `<(...)`, a device: read up to the limit).
pub(crate) fn walk(inputs: &[Input], f: &mut dyn FnMut(Item, Option<u64>) -> bool) {
    for input in inputs {
        let path = match input {
            Input::Stdin => {
                if !f(Item::Stdin, None) {
                    return;
                }
                continue;
            }
            Input::Path(p) => p,
        };
        let go_on = match std::fs::metadata(path) {
            Err(e) => {
                let (source, message) = (path_name(path), e.to_string());
                f(Item::Broken { source, kind: "io", message }, None)
            }
            Ok(m) if !m.is_dir() => {
                let size = m.is_file().then_some(m.len());
                f(Item::Open { path: path.clone(), size }, Some(m.len()))
            }
            Ok(_) => walk_dir(path, f),
        };
        if !go_on {
            return;
        }
    }
}

/// The items of directory `dir` (see [`walk`]); false when `f` stopped the walk.
fn walk_dir(dir: &Path, f: &mut dyn FnMut(Item, Option<u64>) -> bool) -> bool {
    let walk = walkdir::WalkDir::new(dir).follow_links(true).sort_by_file_name();
    for entry in walk {
        let go_on = match entry {
            Err(e) => {
                let source = e.path().map_or_else(|| path_name(dir), path_name);
                let kind = if e.loop_ancestor().is_some() { "symlink_loop" } else { "io" };
                f(Item::Broken { source, kind, message: e.to_string() }, None)
            }
            Ok(e) if e.file_type().is_dir() => true,
            Ok(e) if e.file_type().is_file() => {
                let size = e.metadata().ok().map(|m| m.len());
                f(Item::Open { path: e.into_path(), size }, size)
            }
            Ok(e) => {
                let message = "not a regular file (FIFO, socket or device): skipped".to_owned();
                f(Item::Broken { source: path_name(e.path()), kind: "not_a_file", message }, None)
            }
        };
        if !go_on {
            return false;
        }
    }
    true
}

/// Reads items into records.
pub(crate) struct Reader<'c, 'e> {
    cfg: &'c ReadConfig,
    counters: &'c Counters,
    pool: &'c BufPool,
    emit: &'e mut dyn FnMut(Record) -> bool,
    offload: Option<Arc<dyn Offload>>,
    /// `emit` returned false: nothing more is read.
    pub(crate) stopped: bool,
}

/// Counts raw bytes read.
struct CountRead<'c, R> {
    inner: R,
    counter: &'c AtomicU64,
}

impl<R: Read> Read for CountRead<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.counter.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// Longest tar member name kept (GNU long name, pax `path`); a longer one makes the member an
/// error record, its bytes skipped while streaming.
pub const MAX_NAME: usize = 64 * 1024;
/// Largest pax extended header read (a larger one is skipped).
const MAX_PAX: u64 = 1 << 20;

fn is_gzip(b: &[u8]) -> bool {
    b.starts_with(&[0x1f, 0x8b])
}

/// A tar header block: the ustar magic, or (pre-POSIX tar, no magic) a valid header checksum.
fn is_tar(b: &[u8]) -> bool {
    b.len() >= 512 && (&b[257..262] == b"ustar" || (b[0] != 0 && tar_checksum_ok(&b[..512])))
}

/// An octal tar number field (NUL/space padded), or GNU base-256 when the top bit is set.
fn tar_number(f: &[u8]) -> Option<u64> {
    if f.first().is_some_and(|b| b & 0x80 != 0) {
        let mut v: u64 = (f[0] & 0x3f) as u64;
        for &b in &f[1..] {
            v = v.checked_mul(256)?.checked_add(b as u64)?;
        }
        return Some(v);
    }
    let t: &[u8] = f.trim_ascii_start();
    let end = t.iter().position(|b| *b == 0 || *b == b' ').unwrap_or(t.len());
    let t = &t[..end];
    if t.is_empty() {
        return Some(0);
    }
    let mut v: u64 = 0;
    for &b in t {
        if !(b'0'..=b'7').contains(&b) {
            return None;
        }
        v = v.checked_mul(8)?.checked_add((b - b'0') as u64)?;
    }
    Some(v)
}

/// The header checksum (POSIX: unsigned sum with the field as spaces; old tars: signed).
fn tar_checksum_ok(h: &[u8]) -> bool {
    let Some(stored) = tar_number(&h[148..156]) else { return false };
    let (mut unsigned, mut signed) = (0u64, 0i64);
    for (i, &b) in h[..512].iter().enumerate() {
        let b = if (148..156).contains(&i) { b' ' } else { b };
        unsigned += b as u64;
        signed += b as i8 as i64;
    }
    stored == unsigned || stored as i64 == signed
}

/// A NUL-terminated field.
fn cstr(f: &[u8]) -> &[u8] {
    &f[..memchr::memchr(0, f).unwrap_or(f.len())]
}

/// A name for output: UTF-8 as is, each invalid byte as `\xNN` (so distinct names stay
/// distinct).
pub fn escape_name(b: &[u8]) -> String {
    let mut out = String::with_capacity(b.len());
    for chunk in b.utf8_chunks() {
        out.push_str(chunk.valid());
        for x in chunk.invalid() {
            out.push_str(&format!("\\x{x:02x}"));
        }
    }
    out
}

/// A path for output (see [`escape_name`]).
pub fn path_name(p: &Path) -> String {
    escape_name(p.as_os_str().as_encoded_bytes())
}

/// A reader that fails with `UnexpectedEof` when its input ends before `left` bytes.
struct Exact<R> {
    inner: R,
    left: u64,
}

impl<R: Read> Read for Exact<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.left == 0 || buf.is_empty() {
            return Ok(0);
        }
        let n = buf.len().min(self.left.min(usize::MAX as u64) as usize);
        let got = self.inner.read(&mut buf[..n])?;
        if got == 0 {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "archive ends inside a member",
            ));
        }
        self.left -= got as u64;
        Ok(got)
    }
}

/// Reads a whole block; `Ok(n < buf.len())` only at the end of the stream.
fn read_full<R: Read>(r: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// A decoded stream as a reader: a corrupt region ends it with an error.
struct DecodedRead<S> {
    src: S,
    buf: Vec<u8>,
    at: usize,
}

impl<S: Source> Read for DecodedRead<S> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        while self.at == self.buf.len() {
            self.buf.clear();
            self.at = 0;
            match self.src.pull(&mut self.buf, warc::gz::CHUNK)? {
                Step::Data => {}
                Step::End => return Ok(0),
                Step::Break(b) => return Err(break_error(&b)),
            }
        }
        let n = out.len().min(self.buf.len() - self.at);
        out[..n].copy_from_slice(&self.buf[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

fn break_error(b: &Break) -> io::Error {
    let kind = if b.kind == "truncated" {
        io::ErrorKind::UnexpectedEof
    } else {
        io::ErrorKind::InvalidData
    };
    io::Error::new(kind, format!("gzip member at {}: {}", b.offset, b.message))
}

impl<'c, 'e> Reader<'c, 'e> {
    pub(crate) fn new(
        cfg: &'c ReadConfig,
        counters: &'c Counters,
        pool: &'c BufPool,
        offload: Option<Arc<dyn Offload>>,
        emit: &'e mut dyn FnMut(Record) -> bool,
    ) -> Self {
        Reader { cfg, counters, pool, emit, offload, stopped: false }
    }

    fn emit(&mut self, rec: Record) {
        if !self.stopped && !(self.emit)(rec) {
            self.stopped = true;
        }
    }

    fn broken(&mut self, source: String, kind: &'static str, message: String) {
        self.emit(Record { source, payload: Payload::Broken { kind, message } });
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
                let stdin = io::stdin().lock();
                self.stream("-", stdin);
            }
            Item::Open { path, size } => match File::open(&path) {
                Ok(f) => match size {
                    Some(size)
                        if size <= WHOLE_FILE_BYTES.min(self.cfg.max_record_bytes) as u64 =>
                    {
                        self.small_file(&path_name(&path), f, size as usize)
                    }
                    _ => self.stream(&path_name(&path), f),
                },
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
        if is_gzip(&bytes) || bytes.starts_with(b"WARC/") || is_tar(&bytes) {
            // The bytes read, then whatever the file grew by since the walk (an archive is
            // not limited to one record's size); `stream` counts the bytes as it reads them.
            return self.stream(name, Cursor::new(bytes).chain(file));
        }
        // A read into a pooled buffer larger than the limit may take more than one byte past it.
        bytes.truncate(max.saturating_add(1));
        self.counters.bytes_read.fetch_add(bytes.len() as u64, Ordering::Relaxed);
        let bytes = if bytes.len() > max { Err(too_large(max)) } else { Ok(bytes) };
        self.emit_document(name.to_owned(), bytes)
    }

    /// One stream (file or standard input): sniffs its kind and emits its records.
    fn stream<R: Read>(&mut self, name: &str, mut raw: R) {
        // NOTE: sniffed from a small head read, not through `Raw`: most inputs of a walked
        // directory are plain documents, read straight into a pooled record buffer; a
        // `Raw` (256 KiB, zeroed) per file was a tenth of the run's instructions.
        let mut head = [0u8; 512];
        let n = match read_full(&mut raw, &mut head) {
            Ok(n) => n,
            Err(e) => return self.broken(name.to_owned(), "io", e.to_string()),
        };
        self.counters.bytes_read.fetch_add(n as u64, Ordering::Relaxed);
        let head = &head[..n];
        // The head, then the rest of the stream with its bytes counted as they are read.
        let counted = |raw| {
            Cursor::new(head).chain(CountRead { inner: raw, counter: &self.counters.bytes_read })
        };
        if !is_gzip(head) {
            if head.starts_with(b"WARC/") {
                let mut plain = PlainStream::new(Raw::new(counted(raw)));
                return self.warc(name, &mut plain, Vec::new(), None);
            }
            if is_tar(head) {
                return self.tar(name, counted(raw));
            }
            // A plain document is read from the stream itself, not through the counting
            // wrapper: a `File` reads into the buffer's spare capacity as is, where any
            // reader without its own `read_buf` has std zero that capacity first (a few
            // percent of a directory job). The bytes are counted after the read.
            let (bytes, got) = read_bounded(head, raw, self.cfg.max_record_bytes, self.pool.get());
            self.counters.bytes_read.fetch_add(got as u64, Ordering::Relaxed);
            return self.emit_document(name.to_owned(), bytes);
        }
        let raw = Raw::new(counted(raw));
        // Decode the first bytes, whatever the length of the first member's header.
        let mut src = GzStream::new(raw);
        let mut peek = Vec::new();
        let mut brk = None;
        while peek.len() < 512 && brk.is_none() {
            let want = 512 - peek.len();
            match src.pull(&mut peek, want) {
                Ok(Step::Data) => {}
                Ok(Step::End) => break,
                Ok(Step::Break(b)) if peek.is_empty() => {
                    // The first member is corrupt: a WARC.gz goes on after it.
                    let mut after = Vec::new();
                    while after.len() < 8 {
                        match src.pull(&mut after, 512) {
                            Ok(Step::Data) => {}
                            _ => break,
                        }
                    }
                    if after.starts_with(b"WARC/") {
                        let source = format!("{name}@{}", b.offset);
                        self.broken(source, b.kind, b.message);
                        if let Some(o) = &self.offload {
                            src.offload(o.clone());
                        }
                        return self.warc(name, &mut src, after, None);
                    }
                    return self.broken(name.to_owned(), b.kind, break_error(&b).to_string());
                }
                Ok(Step::Break(b)) => brk = Some(b),
                Err(e) => return self.broken(name.to_owned(), "io", e.to_string()),
            }
        }
        if peek.starts_with(b"WARC/") {
            if let Some(o) = &self.offload {
                src.offload(o.clone());
            }
            return self.warc(name, &mut src, peek, brk);
        }
        let err = brk.map(|b| break_error(&b));
        let r = Cursor::new(peek).chain(ErrThen { err }).chain(DecodedRead {
            src,
            buf: Vec::new(),
            at: 0,
        });
        let mut r = r;
        // A tar inside: sniffed on the decoded bytes.
        let mut head = [0u8; 512];
        let n = match read_full(&mut r, &mut head) {
            Ok(n) => n,
            Err(e) => {
                let (kind, msg) = io_kind(e);
                return self.broken(name.to_owned(), kind, msg);
            }
        };
        let r = Cursor::new(head[..n].to_vec()).chain(r);
        if is_tar(&head[..n]) {
            self.tar(name, r)
        } else {
            self.document(name.to_owned(), r)
        }
    }

    /// One document: the stream up to `max_record_bytes` (the rest is not read).
    fn document<R: Read>(&mut self, source: String, r: R) {
        let (bytes, _) = read_bounded(&[], r, self.cfg.max_record_bytes, self.pool.get());
        self.emit_document(source, bytes)
    }

    fn emit_document(&mut self, source: String, bytes: Result<Vec<u8>, (&'static str, String)>) {
        match bytes {
            Ok(bytes) => self.emit(Record { source, payload: Payload::Document(bytes) }),
            Err((kind, message)) => self.broken(source, kind, message),
        }
    }

    fn warc<S: Source>(&mut self, name: &str, src: &mut S, head: Vec<u8>, brk: Option<Break>) {
        let counters = self.counters;
        let max = self.cfg.max_record_bytes;
        let pool = self.pool;
        let mut emit = |item: WarcItem| {
            match item {
                WarcItem::Response { at, target_uri, block } => {
                    let source = format!("{name}@{at} {target_uri}");
                    self.emit(Record {
                        source,
                        payload: Payload::Response { target_uri, message: block },
                    })
                }
                WarcItem::Skipped { .. } => {
                    counters.skipped_records.fetch_add(1, Ordering::Relaxed);
                }
                WarcItem::Broken { at, target_uri, kind, message } => {
                    let source = match target_uri {
                        Some(u) => format!("{name}@{at} {u}"),
                        None => format!("{name}@{at}"),
                    };
                    self.broken(source, kind, message)
                }
            }
            !self.stopped
        };
        if let Err(e) = warc::read_records(src, head, brk, max, &mut || pool.get(), &mut emit) {
            self.broken(name.to_owned(), "io", format!("reading WARC: {e}; rest of file skipped"));
        }
    }

    /// A tar stream (ustar, GNU, pax, pre-POSIX): one record per regular file member.
    /// NOTE: why not the `tar` crate: it reads a GNU long name or a pax header into memory
    /// whole, whatever its size (a 300 MB name from a 300 KB tar.gz), and needs the ustar
    /// magic. This reader keeps names up to [`MAX_NAME`] and streams everything else.
    fn tar<R: Read>(&mut self, name: &str, mut r: R) {
        let mut block = [0u8; 512];
        // Name for the next member from a GNU long-name entry or a pax header:
        // Ok(name), or Err(length) when it is longer than MAX_NAME.
        let mut next_name: Option<Result<Vec<u8>, u64>> = None;
        // The header after a corrupt one, already read (see below).
        let mut pending = false;
        loop {
            let fail = |this: &mut Self, kind, msg: String| {
                this.broken(name.to_owned(), kind, format!("{msg}; rest of archive skipped"))
            };
            if !std::mem::take(&mut pending) {
                match read_full(&mut r, &mut block) {
                    Ok(0) => return,
                    Ok(512) => {}
                    Ok(_) => return fail(self, "truncated", "archive ends inside a header".into()),
                    Err(e) => {
                        let (kind, msg) = io_kind(e);
                        return fail(self, kind, msg);
                    }
                }
            }
            if block.iter().all(|b| *b == 0) {
                return;
            }
            if !tar_checksum_ok(&block) {
                // A damaged header (a flipped byte in its name, mode, times …): its member is
                // skipped by the size it states when the block after that member is a valid
                // header, and reading goes on from there. Never by a search for the next
                // header: a member's data may hold tar headers (a tar stored in a tar, or
                // planted in a feed), which must not come out as members of their own.
                next_name = None;
                match skip_damaged_member(&mut r, &block) {
                    Ok(Some(next)) => {
                        let msg = "tar header checksum mismatch; member skipped".to_owned();
                        self.broken(format!("{name}!"), "bad_tar", msg);
                        block = next;
                        pending = true;
                        if self.stopped {
                            return;
                        }
                        continue;
                    }
                    Ok(None) => {
                        return fail(self, "bad_tar", "tar header checksum mismatch".into())
                    }
                    Err(e) => {
                        let (kind, msg) = io_kind(e);
                        return fail(self, kind, format!("after a damaged tar header: {msg}"));
                    }
                }
            }
            let Some(size) = tar_number(&block[124..136]) else {
                return fail(self, "bad_tar", "bad member size".into());
            };
            let padding = (512 - size % 512) % 512;
            let flag = block[156];
            let mut entry = Exact { inner: &mut r, left: size };
            let res: io::Result<()> = (|| match flag {
                b'L' => {
                    next_name = Some(read_name(&mut entry, size)?);
                    Ok(())
                }
                b'x' if size <= MAX_PAX => {
                    let mut pax = Vec::new();
                    entry.read_to_end(&mut pax)?;
                    if let Some(p) = pax_path(&pax) {
                        next_name = Some(if p.len() > MAX_NAME {
                            Err(p.len() as u64)
                        } else {
                            Ok(p.to_vec())
                        });
                    }
                    Ok(())
                }
                b'0' | b'7' | 0 => {
                    let member = match next_name.take() {
                        Some(n) => n,
                        None => {
                            let mut n = cstr(&block[..100]).to_vec();
                            let prefix = cstr(&block[345..500]);
                            if &block[257..262] == b"ustar" && !prefix.is_empty() {
                                n = [prefix, b"/", &n].concat();
                            }
                            Ok(n)
                        }
                    };
                    match member {
                        Ok(m) if m.ends_with(b"/") => {} // pre-POSIX directory
                        Ok(m) => {
                            let source = format!("{name}!{}", escape_name(&m));
                            let mut head = [0u8; 2];
                            let n = read_full(&mut entry, &mut head)?;
                            let rest = Cursor::new(head[..n].to_vec()).chain(&mut entry);
                            if is_gzip(&head[..n]) {
                                self.document(source, MultiGzDecoder::new(BufReader::new(rest)))
                            } else {
                                self.document(source, rest)
                            }
                        }
                        Err(len) => {
                            let source = format!("{name}!");
                            let msg = format!("member name of {len} bytes, longer than {MAX_NAME}");
                            self.broken(source, "bad_tar", msg);
                        }
                    }
                    Ok(())
                }
                _ => {
                    // Directories, links, devices, global pax headers, oversized pax headers.
                    next_name = None;
                    Ok(())
                }
            })();
            let res = res
                .and_then(|_| io::copy(&mut entry, &mut io::sink()).map(|_| ()))
                .and_then(|_| io::copy(&mut (&mut r).take(padding), &mut io::sink()).map(|_| ()));
            if let Err(e) = res {
                let (kind, msg) = io_kind(e);
                return fail(self, kind, msg);
            }
            if self.stopped {
                return;
            }
        }
    }
}

/// After a header with a wrong checksum: skips the member by the size the header states and
/// returns the next header block when it is one (valid checksum, or the end of the archive:
/// a zero block followed by another or by the end of the stream); `None` when the damage may
/// be in the size field, the size does not read as a number, or no header is where it points.
///
/// The damage is taken to be one byte, so the checksum's difference is how much that byte
/// changed. A size field holds octal digits, NUL and space: when the difference is one
/// between two of those, the size may be the damaged field and skipping by it could land on a
/// header planted in the member's data, so the archive ends instead. The type flag is not
/// trusted either: every type is skipped by its stated size, as an intact header is.
fn skip_damaged_member<R: Read>(r: &mut R, damaged: &[u8; 512]) -> io::Result<Option<[u8; 512]>> {
    let (Some(stored), Some(size)) =
        (tar_number(&damaged[148..156]), tar_number(&damaged[124..136]))
    else {
        return Ok(None);
    };
    let sum: u64 = damaged
        .iter()
        .enumerate()
        .map(|(i, &b)| if (148..156).contains(&i) { 32 } else { b as u64 })
        .sum();
    if size_field_change(sum.abs_diff(stored)) {
        return Ok(None);
    }
    let skip = size.div_ceil(512).saturating_mul(512);
    if io::copy(&mut r.take(skip), &mut io::sink())? < skip {
        return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "archive ends inside a member"));
    }
    let mut next = [0u8; 512];
    match read_full(r, &mut next)? {
        0 => Ok(Some([0u8; 512])),
        512 if tar_checksum_ok(&next) => Ok(Some(next)),
        512 if next.iter().all(|b| *b == 0) => {
            let mut after = [0u8; 512];
            match read_full(r, &mut after)? {
                0 => Ok(Some(next)),
                512 if after.iter().all(|b| *b == 0) => Ok(Some(next)),
                _ => Ok(None),
            }
        }
        512 => Ok(None),
        _ => Err(io::Error::new(io::ErrorKind::UnexpectedEof, "archive ends inside a header")),
    }
}

/// Whether a checksum difference of `d` is a change of one byte between two of the bytes a
/// size field holds (`0`–`7`, NUL, space).
fn size_field_change(d: u64) -> bool {
    const FIELD: [u8; 10] = *b"01234567\0 ";
    FIELD.iter().any(|&a| FIELD.iter().any(|&b| a > b && u64::from(a - b) == d))
}

/// A reader that yields nothing, then its error (once).
struct ErrThen {
    err: Option<io::Error>,
}

impl Read for ErrThen {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        match self.err.take() {
            Some(e) => Err(e),
            None => Ok(0),
        }
    }
}

/// A GNU long name (`size` bytes, NUL-terminated): kept up to [`MAX_NAME`] bytes.
fn read_name<R: Read>(r: &mut R, size: u64) -> io::Result<Result<Vec<u8>, u64>> {
    if size > MAX_NAME as u64 + 1 {
        io::copy(r, &mut io::sink())?;
        return Ok(Err(size));
    }
    let mut v = Vec::new();
    r.read_to_end(&mut v)?;
    Ok(Ok(cstr(&v).to_vec()))
}

/// The `path` of a pax extended header (`<len> path=<value>\n` records).
fn pax_path(mut pax: &[u8]) -> Option<&[u8]> {
    let mut found = None;
    while !pax.is_empty() {
        let sp = memchr::memchr(b' ', pax)?;
        let len: usize = std::str::from_utf8(&pax[..sp]).ok()?.parse().ok()?;
        if len <= sp || len > pax.len() {
            return found;
        }
        let rec = &pax[sp + 1..len];
        let rec = rec.strip_suffix(b"\n").unwrap_or(rec);
        if let Some(v) = rec.strip_prefix(b"path=") {
            found = Some(v);
        }
        pax = &pax[len..];
    }
    found
}

fn io_kind(e: io::Error) -> (&'static str, String) {
    let kind = match e.kind() {
        io::ErrorKind::UnexpectedEof => "truncated",
        io::ErrorKind::InvalidData | io::ErrorKind::InvalidInput => "bad_gzip",
        _ => "io",
    };
    (kind, e.to_string())
}

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
fn read_bounded<R: Read>(
    prefix: &[u8],
    r: R,
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

/// Total size in bytes of the files `inputs` name (directories walked), or `None` when
/// one is standard input. For a progress bar's length; unreadable entries count 0.
pub fn total_size(inputs: &[Input]) -> Option<u64> {
    let mut total = 0;
    for i in inputs {
        match i {
            Input::Stdin => return None,
            Input::Path(p) => {
                for e in walkdir::WalkDir::new(p).follow_links(true).into_iter().flatten() {
                    if e.file_type().is_file() {
                        total += e.metadata().map_or(0, |m| m.len());
                    }
                }
            }
        }
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::{write::GzEncoder, Compression, GzBuilder};
    use std::io::Write;

    fn run(inputs: &[Input], max: usize) -> Vec<String> {
        let cfg = ReadConfig { max_record_bytes: max };
        let (counters, pool) = (Counters::default(), BufPool::default());
        let mut out = Vec::new();
        enumerate(inputs, &cfg, &counters, &pool, &mut |r| {
            out.push(match r.payload {
                Payload::Document(b) => format!("D {} {}", r.source, String::from_utf8_lossy(&b)),
                Payload::Response { .. } => format!("R {}", r.source),
                Payload::Broken { kind, .. } => format!("B {} {kind}", r.source),
            });
            true
        });
        out
    }

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("feedmill-input-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn file(dir: &Path, name: &str, data: &[u8]) -> Input {
        let p = dir.join(name);
        std::fs::write(&p, data).unwrap();
        Input::Path(p)
    }

    fn warc(uri: &str) -> Vec<u8> {
        let block = b"HTTP/1.1 200 OK\r\n\r\n<rss/>";
        let mut r = format!(
            "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {uri}\r\nContent-Length: {}\r\n\r\n",
            block.len()
        )
        .into_bytes();
        r.extend_from_slice(block);
        r.extend_from_slice(b"\r\n\r\n");
        r
    }

    /// A 100 KB gzip FNAME in the first member: still sniffed as a WARC.gz.
    #[test]
    fn long_gzip_file_name_in_the_first_member() {
        let dir = scratch("fname");
        let mut e =
            GzBuilder::new().filename(vec![b'n'; 100_000]).write(Vec::new(), Compression::fast());
        e.write_all(&warc("http://a/")).unwrap();
        let input = file(&dir, "x.warc.gz", &e.finish().unwrap());
        let src = path_name(match &input {
            Input::Path(p) => p,
            _ => unreachable!(),
        });
        assert_eq!(run(&[input], 1 << 20), vec![format!("R {src}@0 http://a/")]);
    }

    /// One tar header block (pre-POSIX when `ustar` is false: no magic, no prefix).
    fn tar_header(name: &[u8], size: usize, flag: u8, ustar: bool) -> [u8; 512] {
        let mut h = [0u8; 512];
        h[..name.len().min(100)].copy_from_slice(&name[..name.len().min(100)]);
        h[100..108].copy_from_slice(b"0000644\0");
        h[124..136].copy_from_slice(format!("{size:011o}\0").as_bytes());
        h[156] = flag;
        if ustar {
            h[257..263].copy_from_slice(b"ustar\0");
            h[263..265].copy_from_slice(b"00");
        }
        h[148..156].copy_from_slice(b"        ");
        let sum: u32 = h.iter().map(|b| *b as u32).sum();
        h[148..156].copy_from_slice(format!("{sum:06o}\0 ").as_bytes());
        h
    }

    fn tar_entry(out: &mut Vec<u8>, name: &[u8], data: &[u8], flag: u8, ustar: bool) {
        out.extend(tar_header(name, data.len(), flag, ustar));
        out.extend(data);
        out.resize(out.len().div_ceil(512) * 512, 0);
    }

    #[test]
    fn pre_posix_tar_is_a_tar() {
        let dir = scratch("v7");
        let mut t = Vec::new();
        tar_entry(&mut t, b"dir/", b"", 0, false);
        tar_entry(&mut t, b"dir/a.xml", b"<rss>a</rss>", 0, false);
        tar_entry(&mut t, b"b.xml", b"<feed/>", b'0', false);
        t.extend([0u8; 1024]);
        let input = file(&dir, "old.tar", &t);
        let n = path_name(match &input {
            Input::Path(p) => p,
            _ => unreachable!(),
        });
        assert_eq!(
            run(&[input], 1 << 20),
            vec![format!("D {n}!dir/a.xml <rss>a</rss>"), format!("D {n}!b.xml <feed/>")]
        );
    }

    /// A header with a wrong checksum is skipped by the size it states when a valid header
    /// follows there: the members after it are read, and a tar stored in the damaged member's
    /// data never comes out. A damaged header whose size does not read, whose damage may be in
    /// the size field, or whose member is not followed by a header, ends the archive with one
    /// error record.
    #[test]
    fn tar_damaged_header_is_skipped_by_its_size() {
        let dir = scratch("damaged");
        let mut planted = Vec::new();
        tar_entry(&mut planted, b"SPOOF.xml", b"<rss>spoof</rss>", b'0', true);
        let mut t = Vec::new();
        tar_entry(&mut t, b"a.xml", b"<rss>a</rss>", b'0', true);
        let damaged = t.len();
        tar_entry(&mut t, b"carrier.xml", &planted, b'0', true);
        tar_entry(&mut t, b"b.xml", b"<rss>b</rss>", b'0', true);
        t.extend([0u8; 1024]);
        let mut bad_name = t.clone();
        bad_name[damaged + 3] ^= 0x5a;
        let mut bad_size = t.clone();
        bad_size[damaged + 130] ^= 0x5a;
        // Damage that would point into the member's data if trusted: a size digit still
        // octal (2000 → 0000), a file flag turned into a directory's.
        let mut size_digit = t.clone();
        assert_eq!(size_digit[damaged + 131], b'2');
        size_digit[damaged + 131] = b'0';
        let mut flag = t.clone();
        flag[damaged + 156] = b'5';
        let inputs = [
            file(&dir, "name.tar", &bad_name),
            file(&dir, "size.tar", &bad_size),
            file(&dir, "digit.tar", &size_digit),
            file(&dir, "flag.tar", &flag),
        ];
        let [n, s, d, f] = [0, 1, 2, 3].map(|i| match &inputs[i] {
            Input::Path(p) => path_name(p),
            _ => unreachable!(),
        });
        assert_eq!(
            run(&inputs, 1 << 20),
            vec![
                format!("D {n}!a.xml <rss>a</rss>"),
                format!("B {n}! bad_tar"),
                format!("D {n}!b.xml <rss>b</rss>"),
                format!("D {s}!a.xml <rss>a</rss>"),
                format!("B {s} bad_tar"),
                format!("D {d}!a.xml <rss>a</rss>"),
                format!("B {d} bad_tar"),
                format!("D {f}!a.xml <rss>a</rss>"),
                format!("B {f} bad_tar"),
            ]
        );
    }

    /// A GNU long name beyond MAX_NAME is never held: the member is an error record, its
    /// bytes skipped; the next member reads normally. Non-UTF-8 names stay distinct.
    #[test]
    fn tar_long_names_are_bounded() {
        let dir = scratch("longname");
        let mut t = Vec::new();
        let mut long = vec![b'x'; MAX_NAME + 10];
        long.push(0);
        tar_entry(&mut t, b"././@LongLink", &long, b'L', true);
        tar_entry(&mut t, b"x", b"<rss/>", b'0', true);
        let mut ok = b"ok-".repeat(50);
        ok.extend(b".xml\0");
        tar_entry(&mut t, b"././@LongLink", &ok, b'L', true);
        tar_entry(&mut t, b"ok", b"<rss>ok</rss>", b'0', true);
        tar_entry(&mut t, b"a\xff.xml", b"1", b'0', true);
        tar_entry(&mut t, b"a\xfe.xml", b"2", b'0', true);
        t.extend([0u8; 1024]);
        let mut e = GzEncoder::new(Vec::new(), Compression::fast());
        e.write_all(&t).unwrap();
        let input = file(&dir, "t.tar.gz", &e.finish().unwrap());
        let n = path_name(match &input {
            Input::Path(p) => p,
            _ => unreachable!(),
        });
        let okname = format!("{}.xml", "ok-".repeat(50));
        assert_eq!(
            run(&[input], 1 << 20),
            vec![
                format!("B {n}! bad_tar"),
                format!("D {n}!{okname} <rss>ok</rss>"),
                format!("D {n}!a\\xff.xml 1"),
                format!("D {n}!a\\xfe.xml 2"),
            ]
        );
    }

    /// In a walked directory: a FIFO is an error record (never opened), links back to an
    /// ancestor are `symlink_loop` records, files read once each.
    #[cfg(unix)]
    #[test]
    fn directory_walk_skips_fifos_and_detects_loops() {
        let dir = scratch("walk");
        std::fs::write(dir.join("a.xml"), b"<rss/>").unwrap();
        let fifo = dir.join("b.fifo");
        let status = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(status.success());
        std::os::unix::fs::symlink(".", dir.join("c-loop")).unwrap();
        std::os::unix::fs::symlink(".", dir.join("d-loop")).unwrap();
        let d = path_name(&dir);
        assert_eq!(
            run(&[Input::Path(dir.clone())], 1 << 20),
            vec![
                format!("D {d}/a.xml <rss/>"),
                format!("B {d}/b.fifo not_a_file"),
                format!("B {d}/c-loop symlink_loop"),
                format!("B {d}/d-loop symlink_loop"),
            ]
        );
        // A non-UTF-8 file name is printed with its bytes escaped.
        #[cfg(target_os = "linux")]
        {
            use std::os::unix::ffi::OsStrExt;
            let odd = dir.join(std::ffi::OsStr::from_bytes(b"z\xff.xml"));
            std::fs::write(&odd, b"x").unwrap();
            assert_eq!(path_name(&odd), format!("{d}/z\\xff.xml"));
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Small regular files are read whole and sniffed in memory: each kind (plain, gzip,
    /// WARC, WARC.gz, tar, over the limit, at it) yields the records its stream does, also
    /// when the file is larger than the walk said, and every byte read is counted once.
    #[test]
    fn small_files_read_whole_as_streamed() {
        let dir = scratch("small");
        let gz = |data: &[u8]| {
            let mut e = GzEncoder::new(Vec::new(), Compression::fast());
            e.write_all(data).unwrap();
            e.finish().unwrap()
        };
        let mut tar = Vec::new();
        tar_entry(&mut tar, b"in/t.xml", b"<feed/>", b'0', true);
        tar.resize(tar.len() + 1024, 0);
        let max = 4096;
        let files: Vec<(&str, Vec<u8>)> = vec![
            ("a.xml", b"<rss/>".to_vec()),
            ("b.xml.gz", gz(b"<feed/>")),
            ("c.warc", warc("http://c/")),
            ("d.warc.gz", [gz(&warc("http://d/")), gz(&warc("http://e/"))].concat()),
            ("e.tar", tar),
            ("f.xml", vec![b'f'; max + 1]),
            ("g.xml", vec![b'g'; max]),
            ("h.xml", Vec::new()),
            // More than the limit: streamed, or read in part and then streamed when the walk
            // said it was small.
            ("i.warc.gz", (0..80).flat_map(|i| gz(&warc(&format!("http://i/{i}")))).collect()),
        ];
        assert!(files.last().unwrap().1.len() > max + 1);
        let last: usize = (0..79).map(|i| gz(&warc(&format!("http://i/{i}"))).len()).sum();
        // Each file streamed, and read as a small file whose size the walk understated (it
        // grew since): the same records, the same bytes counted.
        let (mut streamed, mut streamed_bytes) = (Vec::new(), 0);
        let (mut grown, mut grown_bytes) = (Vec::new(), 0);
        let show = |r: Record| match r.payload {
            Payload::Document(b) => format!("D {} {}", r.source, b.len()),
            Payload::Response { .. } => format!("R {}", r.source),
            Payload::Broken { kind, .. } => format!("B {} {kind}", r.source),
        };
        for (name, data) in &files {
            let Input::Path(p) = file(&dir, name, data) else { unreachable!() };
            let cfg = ReadConfig { max_record_bytes: max };
            for understated in [false, true] {
                let (counters, pool) = (Counters::default(), BufPool::default());
                let (out, total) = if understated {
                    (&mut grown, &mut grown_bytes)
                } else {
                    (&mut streamed, &mut streamed_bytes)
                };
                let mut emit = |r: Record| {
                    out.push(show(r));
                    true
                };
                let mut reader = Reader::new(&cfg, &counters, &pool, None, &mut emit);
                if understated {
                    reader.read(Item::Open { path: p.clone(), size: Some(1) });
                } else {
                    reader.stream(&path_name(&p), File::open(&p).unwrap());
                }
                *total += counters.bytes_read.load(Ordering::Relaxed);
            }
        }
        assert_eq!(grown, streamed);
        assert_eq!(grown_bytes, streamed_bytes);
        let cfg = ReadConfig { max_record_bytes: max };
        let (counters, pool) = (Counters::default(), BufPool::default());
        let mut whole = Vec::new();
        enumerate(&[Input::Path(dir.clone())], &cfg, &counters, &pool, &mut |r| {
            whole.push(show(r));
            true
        });
        assert_eq!(whole, streamed);
        let d = path_name(&dir);
        for want in [
            format!("D {d}/a.xml 6"),
            format!("D {d}/b.xml.gz 7"),
            format!("R {d}/c.warc@0 http://c/"),
            format!("R {d}/d.warc.gz@119 http://e/"),
            format!("D {d}/e.tar!in/t.xml 7"),
            format!("B {d}/f.xml too_large"),
            format!("D {d}/g.xml {max}"),
            format!("D {d}/h.xml 0"),
            format!("R {d}/i.warc.gz@{last} http://i/79"),
        ] {
            assert!(whole.contains(&want), "{want} not in {whole:?}");
        }
        assert_eq!(counters.bytes_read.load(Ordering::Relaxed), streamed_bytes);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// An endless input named on the command line is read up to the limit, then left.
    #[cfg(unix)]
    #[test]
    fn dev_zero_is_bounded() {
        let got = run(&[Input::Path(PathBuf::from("/dev/zero"))], 1 << 20);
        assert_eq!(got, vec!["B /dev/zero too_large".to_owned()]);
    }
}
