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

use flate2::bufread::{GzDecoder, MultiGzDecoder};

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
    Response { target_uri: String, message: Vec<u8> },
    /// Something that could not be read.
    Broken { kind: &'static str, message: String },
}

/// One input record: exactly one output line.
#[derive(Debug)]
pub struct Record {
    /// `path`, `path!member` (tar), `path@offset target-uri` (WARC).
    pub source: String,
    pub payload: Payload,
}

impl Record {
    /// Bytes held (for bounding the records in flight).
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

/// Recycled record buffers: the reader decodes into them, the runner gives them back once a
/// window is written.
/// NOTE: without recycling, every record's buffer is allocated by the reader thread and
/// freed by another one, and the allocator hands back freshly zeroed pages: page faults
/// were a third of the reader's time.
#[derive(Debug, Default)]
pub struct BufPool {
    bufs: std::sync::Mutex<Vec<Vec<u8>>>,
}

impl BufPool {
    /// Buffers kept at most (a bit more than the records in flight).
    const KEEP: usize = 4096;
    /// Larger buffers are freed rather than kept.
    const MAX_KEPT_CAPACITY: usize = 4 << 20;

    /// An empty buffer, recycled when one is available.
    pub fn get(&self) -> Vec<u8> {
        self.bufs.lock().ok().and_then(|mut b| b.pop()).unwrap_or_default()
    }

    /// Gives a buffer back.
    pub fn put(&self, mut buf: Vec<u8>) {
        if buf.capacity() == 0 || buf.capacity() > Self::MAX_KEPT_CAPACITY {
            return;
        }
        buf.clear();
        if let Ok(mut b) = self.bufs.lock() {
            if b.len() < Self::KEEP {
                b.push(buf);
            }
        }
    }

    /// Gives back the buffers of a processed record.
    pub fn recycle(&self, rec: Record) {
        match rec.payload {
            Payload::Document(b) => self.put(b),
            Payload::Response { message, .. } => self.put(message),
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
    let mut r = Reader { cfg, counters, pool, emit, stopped: false };
    for input in inputs {
        match input {
            Input::Stdin => {
                let stdin = io::stdin().lock();
                r.stream("-", stdin);
            }
            Input::Path(p) => r.path(p),
        }
        if r.stopped {
            return;
        }
    }
}

struct Reader<'c, 'e> {
    cfg: &'c ReadConfig,
    counters: &'c Counters,
    pool: &'c BufPool,
    emit: &'e mut dyn FnMut(Record) -> bool,
    stopped: bool,
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

const HEAD: usize = 64 * 1024;

fn is_tar(b: &[u8]) -> bool {
    b.len() >= 262 && &b[257..262] == b"ustar"
}

fn is_gzip(b: &[u8]) -> bool {
    b.starts_with(&[0x1f, 0x8b])
}

/// Reads up to `n` bytes (fewer only at the end or on error).
fn read_head<R: Read>(r: &mut R, n: usize) -> io::Result<Vec<u8>> {
    let mut head = Vec::with_capacity(n);
    r.take(n as u64).read_to_end(&mut head)?;
    Ok(head)
}

impl Reader<'_, '_> {
    fn emit(&mut self, rec: Record) {
        if !self.stopped && !(self.emit)(rec) {
            self.stopped = true;
        }
    }

    fn broken(&mut self, source: String, kind: &'static str, message: String) {
        self.emit(Record { source, payload: Payload::Broken { kind, message } });
    }

    /// A file or a directory (walked recursively, entries sorted by name).
    fn path(&mut self, path: &Path) {
        let name = path.display().to_string();
        let meta = match std::fs::metadata(path) {
            Ok(m) => m,
            Err(e) => return self.broken(name, "io", e.to_string()),
        };
        if meta.is_dir() {
            let mut entries: Vec<PathBuf> = match std::fs::read_dir(path) {
                Ok(rd) => rd.filter_map(|e| e.ok().map(|e| e.path())).collect(),
                Err(e) => return self.broken(name, "io", e.to_string()),
            };
            entries.sort();
            for p in entries {
                self.path(&p);
                if self.stopped {
                    return;
                }
            }
            return;
        }
        match File::open(path) {
            Ok(f) => self.stream(&name, f),
            Err(e) => self.broken(name, "io", e.to_string()),
        }
    }

    /// One stream (file or standard input): sniffs its kind and emits its records.
    fn stream<R: Read>(&mut self, name: &str, raw: R) {
        let mut raw = CountRead { inner: raw, counter: &self.counters.bytes_read };
        let head = match read_head(&mut raw, HEAD) {
            Ok(h) => h,
            Err(e) => return self.broken(name.to_owned(), "io", e.to_string()),
        };
        let inner_head = if is_gzip(&head) { peek_gzip(&head) } else { Vec::new() };
        let whole = BufReader::with_capacity(256 * 1024, Cursor::new(head.clone()).chain(raw));
        if is_gzip(&head) {
            if inner_head.starts_with(b"WARC/") {
                self.warc(name, whole, true)
            } else if is_tar(&inner_head) {
                self.tar(name, MultiGzDecoder::new(whole))
            } else {
                self.document(name.to_owned(), MultiGzDecoder::new(whole))
            }
        } else if head.starts_with(b"WARC/") {
            self.warc(name, whole, false)
        } else if is_tar(&head) {
            self.tar(name, whole)
        } else {
            self.document(name.to_owned(), whole)
        }
    }

    /// One document: the whole stream, bounded by `max_record_bytes`.
    fn document<R: Read>(&mut self, source: String, r: R) {
        match read_bounded(r, self.cfg.max_record_bytes, self.pool.get()) {
            Ok(bytes) => self.emit(Record { source, payload: Payload::Document(bytes) }),
            Err((kind, message)) => self.broken(source, kind, message),
        }
    }

    fn warc<R: Read>(&mut self, name: &str, r: R, gzip: bool) {
        let counters = self.counters;
        let max = self.cfg.max_record_bytes;
        let pool = self.pool;
        let mut emit = |item: WarcItem| {
            match item {
                WarcItem::Response { offset, target_uri, block } => {
                    let source = format!("{name}@{offset} {target_uri}");
                    self.emit(Record {
                        source,
                        payload: Payload::Response { target_uri, message: block },
                    })
                }
                WarcItem::Skipped { .. } => {
                    counters.skipped_records.fetch_add(1, Ordering::Relaxed);
                }
                WarcItem::Broken { offset, target_uri, kind, message } => {
                    let source = match target_uri {
                        Some(u) => format!("{name}@{offset} {u}"),
                        None => format!("{name}@{offset}"),
                    };
                    self.broken(source, kind, message)
                }
            }
            !self.stopped
        };
        if let Err(e) = warc::read_warc(r, gzip, max, &mut || pool.get(), &mut emit) {
            self.broken(name.to_owned(), "io", format!("reading WARC: {e}; rest of file skipped"));
        }
    }

    fn tar<R: Read>(&mut self, name: &str, r: R) {
        let mut archive = tar::Archive::new(r);
        let entries = match archive.entries() {
            Ok(e) => e,
            Err(e) => return self.broken(name.to_owned(), "bad_tar", e.to_string()),
        };
        for entry in entries {
            let mut entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    // NOTE: tar has no framing to resynchronize on; the rest is reported here.
                    return self.broken(
                        name.to_owned(),
                        "bad_tar",
                        format!("{e}; rest of archive skipped"),
                    );
                }
            };
            if !entry.header().entry_type().is_file() {
                continue;
            }
            let member = match entry.path() {
                Ok(p) => p.display().to_string(),
                Err(_) => String::from_utf8_lossy(&entry.path_bytes()).into_owned(),
            };
            let source = format!("{name}!{member}");
            let head = match read_head(&mut entry, 2) {
                Ok(h) => h,
                Err(e) => {
                    return self.broken(source, "bad_tar", format!("{e}; rest of archive skipped"))
                }
            };
            let rest = Cursor::new(head.clone()).chain(&mut entry);
            if is_gzip(&head) {
                self.document(source, MultiGzDecoder::new(BufReader::new(rest)))
            } else {
                self.document(source, rest)
            }
            if self.stopped {
                return;
            }
        }
    }
}

/// The first decompressed bytes of a gzip stream whose first bytes are `head`.
fn peek_gzip(head: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    // Errors (a member longer than `head`, corrupt data) just end the peek.
    let mut dec = GzDecoder::new(head).take(512);
    let mut buf = [0u8; 512];
    while let Ok(n) = dec.read(&mut buf) {
        if n == 0 {
            break;
        }
        out.extend_from_slice(&buf[..n]);
    }
    out
}

/// Reads all of `r`, at most `max` bytes.
fn read_bounded<R: Read>(
    r: R,
    max: usize,
    mut bytes: Vec<u8>,
) -> Result<Vec<u8>, (&'static str, String)> {
    let mut r = r;
    match (&mut r).take(max as u64 + 1).read_to_end(&mut bytes) {
        Ok(_) if bytes.len() > max => {
            // Drain the rest so the enclosing stream (a tar) stays in step.
            let _ = io::copy(&mut r, &mut io::sink());
            Err(("too_large", format!("document larger than {max} bytes")))
        }
        Ok(_) => Ok(bytes),
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => Err(("truncated", e.to_string())),
        Err(e)
            if e.kind() == io::ErrorKind::InvalidInput
                || e.kind() == io::ErrorKind::InvalidData =>
        {
            Err(("bad_gzip", e.to_string()))
        }
        Err(e) => Err(("io", e.to_string())),
    }
}

/// Total size in bytes of the files `inputs` name (directories walked), or `None` when
/// one is standard input. For a progress bar's length; unreadable entries count 0.
pub fn total_size(inputs: &[Input]) -> Option<u64> {
    fn walk(p: &Path) -> u64 {
        match std::fs::metadata(p) {
            Ok(m) if m.is_dir() => std::fs::read_dir(p)
                .map(|rd| rd.filter_map(|e| e.ok()).map(|e| walk(&e.path())).sum())
                .unwrap_or(0),
            Ok(m) => m.len(),
            Err(_) => 0,
        }
    }
    let mut total = 0;
    for i in inputs {
        match i {
            Input::Stdin => return None,
            Input::Path(p) => total += walk(p),
        }
    }
    Some(total)
}
