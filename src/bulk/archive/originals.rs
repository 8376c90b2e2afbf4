//! The records a WARC `revisit` may refer to ("the same payload as record X"): the `response`
//! and `resource` records read so far, remembered within a byte budget so that a revisit
//! read later in the run is processed with its original's block (and names its source).
//!
//! The run is streaming and in input order, so an original can only be found when it was
//! read before its revisit, by the same reader (one per run unless `--readers` is more than
//! one; archives inside archives share it). A revisit is matched by its `WARC-Refers-To`
//! (the original's `WARC-Record-ID`), else by its `WARC-Refers-To-Target-URI` (or its own
//! target URI) together with its `WARC-Payload-Digest` (WARC 1.0 revisits name no record).
//!
//! What is remembered of a record is *where* it is when it can be read again:
//! a record of a WARC, WARC.gz or WARC.zst file given as an input (not standard input, not a
//! member of a tar) is re-read from the file when a revisit names it — the raw offset of its
//! gzip member or zstd frame (or of the record in a plain WARC), decoded from there, with the
//! file's zstd dictionary frame put before it. A record of a stream that cannot be read again
//! (standard input, an archive inside a tar), or one more than [`REREAD_WITHIN`] decoded bytes
//! into its gzip member (a whole file gzipped as one member: re-reading would decode everything
//! before it), is a copy of its block. A re-read record must be the one remembered (same
//! record id, or same target URI and payload digest); when it is not (the file changed
//! since) the revisit gets the record of an original changed (`original_changed`, naming
//! what differs), and when it cannot be read (the file gone, or cut before the record) of
//! an original unreadable (`original_unreadable`).
//!
//! What is kept is bounded: each remembered record costs its source, its keys and 96 bytes,
//! plus its block when it is a copy, and once the total passes the budget
//! ([`super::ReadConfig::revisit_memory`]) the oldest are forgotten first; a record larger
//! than the whole budget is not remembered.
//!
//! What revisits are given is bounded too, so that the output stays bounded by the input (a
//! large original and many small revisits of it would otherwise multiply it): the originals'
//! bytes given to revisits stay within [`super::ReadConfig::revisit_expansion`] times the
//! bytes of the `response`, `resource` and `revisit` blocks read so far (originals and
//! revisits included); a revisit past that gets the error `revisit_limit_reached` and no
//! content, as one whose original was forgotten. (Block bytes: an original with a
//! `Content-Encoding` is decoded again for each revisit given it, within `max_input_bytes`.)
//! An original read again from its file also spends the bytes decoded before it in its gzip
//! member or zstd frame (at most [`REREAD_WITHIN`]), given or not: the work of re-reading
//! stays within the same bound.
//!
//! NOTE: a remembered block is a copy (made on the reader thread): a block of the record
//! being emitted may be a range of a shared inflated buffer of several MiB, which must not
//! be kept alive by a small record.

use std::collections::{HashMap, VecDeque};
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::PathBuf;
use std::sync::Arc;

use super::framed::Loc;
use super::record::{Kind, Original};
use super::warc::{self, WarcItem};
use crate::bulk::gzip::raw::Raw;
use crate::bulk::gzip::stream::{GzStream, PlainStream};
use crate::bulk::gzip::zstd::ZstdStream;
use crate::record::Capture;

/// Bytes a remembered record costs beyond its strings and block.
const OVERHEAD: usize = 96;

/// The remembered records (see the module docs).
#[derive(Debug, Default)]
pub struct Originals {
    budget: usize,
    held: usize,
    /// The expansion limit: `given` stays within `expansion` × `read`.
    expansion: u64,
    /// Bytes of the blocks read ([`Originals::count_read`]).
    read: u64,
    /// Bytes of originals given to revisits.
    given: u64,
    /// Sequence number of `entries[0]`.
    first: u64,
    entries: VecDeque<Entry>,
    by_id: HashMap<String, u64>,
    by_digest: HashMap<String, u64>,
}

/// How a WARC file's records are stored (what decodes them when one is re-read).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Codec {
    /// Plain WARC.
    Plain,
    /// WARC.gz (any gzip member layout).
    Gzip,
    /// WARC.zst (zstd frames, maybe after a dictionary frame).
    Zstd,
}

/// A WARC file given as an input, whose records can be read again.
#[derive(Debug)]
pub struct Reopen {
    /// Its path.
    pub path: PathBuf,
    /// How its records are stored.
    pub codec: Codec,
}

/// Records more than this many decoded bytes into their gzip member (or zstd frame) are
/// copied rather than re-read: a re-read decodes the member from its start.
pub const REREAD_WITHIN: u64 = 1 << 20;

/// What is remembered of an original's block.
#[derive(Debug)]
enum Held {
    /// A copy.
    Block(Arc<[u8]>),
    /// Where it is in a file: re-read when a revisit names it.
    At(Arc<Reopen>, Loc),
}

#[derive(Debug)]
struct Entry {
    source: String,
    kind: Kind,
    held: Held,
    /// Bytes of its block.
    len: usize,
    id: Option<String>,
    digest_key: Option<String>,
    cost: usize,
}

/// The key of a target URI and payload digest.
fn digest_key(uri: &str, digest: &str) -> String {
    format!("{digest}\n{uri}")
}

/// The key of a capture's target URI and payload digest, when it has both.
fn capture_digest_key(c: &Capture) -> Option<String> {
    Some(digest_key(c.target_uri.as_deref()?, c.payload_digest.as_deref()?))
}

impl Originals {
    /// Remembers at most `budget` bytes of records (0: none) and gives revisits at most
    /// `expansion` times the bytes read ([`Originals::count_read`]).
    pub fn new(budget: usize, expansion: usize) -> Self {
        Originals { budget, expansion: expansion as u64, ..Originals::default() }
    }

    /// Counts `n` bytes of a `response`, `resource` or `revisit` block read.
    pub fn count_read(&mut self, n: usize) {
        self.read += n as u64;
    }

    /// Bytes held now (at most the budget).
    #[cfg(test)]
    pub fn held(&self) -> usize {
        self.held
    }

    /// Remembers the record `source` (a `response` or `resource` of `kind`, with `capture`'s
    /// record id or target URI and payload digest) and its `block` — where it is, when `file`
    /// (the WARC file it was read from at `at`) can read it again, else a copy — forgetting
    /// the oldest records past the budget. A record with neither key is not remembered.
    pub fn remember(
        &mut self,
        source: &str,
        kind: Kind,
        capture: &Capture,
        block: &[u8],
        file: Option<(&Arc<Reopen>, Loc)>,
    ) {
        let id = capture.record_id.clone();
        let digest_key = capture_digest_key(capture);
        if id.is_none() && digest_key.is_none() {
            return;
        }
        let len = |s: &Option<String>| s.as_ref().map_or(0, String::len);
        let copied = match file {
            Some((_, at)) if at.within <= REREAD_WITHIN => 0,
            _ => block.len(),
        };
        let cost = copied + source.len() + 2 * (len(&id) + len(&digest_key)) + OVERHEAD;
        if cost > self.budget {
            return;
        }
        let seq = self.first + self.entries.len() as u64;
        if let Some(id) = &id {
            self.by_id.insert(id.clone(), seq);
        }
        if let Some(k) = &digest_key {
            self.by_digest.insert(k.clone(), seq);
        }
        let held = match file {
            Some((file, at)) if copied == 0 => Held::At(file.clone(), at),
            _ => Held::Block(Arc::from(block)),
        };
        let (source, len) = (source.to_owned(), block.len());
        self.entries.push_back(Entry { source, kind, held, len, id, digest_key, cost });
        self.held += cost;
        while self.held > self.budget {
            let Some(e) = self.entries.pop_front() else { break };
            let seq = self.first;
            self.first += 1;
            self.held -= e.cost;
            if let Some(id) = e.id {
                if self.by_id.get(&id) == Some(&seq) {
                    self.by_id.remove(&id);
                }
            }
            if let Some(k) = e.digest_key {
                if self.by_digest.get(&k) == Some(&seq) {
                    self.by_digest.remove(&k);
                }
            }
        }
    }

    /// The original of the revisit whose header gave `capture`: its source and block (re-read
    /// from its file when that is where it is remembered; records of at most `max_record`
    /// bytes), or, when it is not given, its source and why (`original_changed`: another
    /// record is there now; `original_unreadable`; `revisit_limit_reached`: it would pass the
    /// expansion limit). None when it is not remembered.
    pub fn find(&mut self, capture: &Capture, max_record: usize) -> Option<(&str, Found)> {
        let by_id = capture.refers_to_record_id.as_ref().and_then(|id| self.by_id.get(id));
        let by_digest = || {
            let uri = capture.refers_to_target_uri.as_ref().or(capture.target_uri.as_ref())?;
            self.by_digest.get(&digest_key(uri, capture.payload_digest.as_ref()?))
        };
        let seq = by_id.or_else(by_digest)?;
        let e = self.entries.get((seq - self.first) as usize)?;
        let len = e.len as u64;
        // A re-read decodes its gzip member (or zstd frame) from the start: the bytes before
        // the block are spent too, so that many revisits of an original deep in a member
        // cannot make the run's work quadratic.
        let before = match &e.held {
            Held::At(_, at) => at.within,
            Held::Block(_) => 0,
        };
        let allowed = self.expansion.saturating_mul(self.read);
        let given = self.given.saturating_add(len).saturating_add(before);
        if given > allowed || self.expansion == 0 {
            let decoded = match before {
                0 => String::new(),
                n => format!(", {n} more decoded to read it again"),
            };
            let message = format!(
                "the original ({len} bytes{decoded}) is not given to this revisit: the revisits \
                 before it were charged {} bytes for their originals, and this one would pass \
                 {} times the {} bytes of records read (the revisit expansion limit)",
                self.given, self.expansion, self.read
            );
            return Some((&e.source, Err(("revisit_limit_reached", message))));
        }
        let block = match &e.held {
            Held::Block(b) => b.clone(),
            Held::At(file, at) => match reread(file, *at, max_record, e) {
                Ok(b) => b,
                Err(miss) => {
                    // Spent, though nothing is given: a re-read that fails may have decoded
                    // the member before finding the record gone or changed.
                    self.given = self.given.saturating_add(before);
                    return Some((&e.source, Err(miss)));
                }
            },
        };
        self.given = given;
        Some((&e.source, Ok(Original { kind: e.kind, block })))
    }
}

/// What [`Originals::find`] found of a remembered original: its block, or why it could not
/// be read again (an error kind, `original_changed` or `original_unreadable`, and a message).
pub type Found = Result<Original, (&'static str, String)>;

/// The block of remembered record `e`, read again from `file` at `at`; an error when the
/// file cannot be read there (`original_unreadable`) or holds another record there now
/// (`original_changed`, naming what differs).
fn reread(
    file: &Reopen,
    at: Loc,
    max_record: usize,
    e: &Entry,
) -> Result<Arc<[u8]>, (&'static str, String)> {
    let path = file.path.display();
    let unreadable = |why: String| {
        ("original_unreadable", format!("the original {} cannot be read again: {why}", e.source))
    };
    let mut f = File::open(&file.path).map_err(|err| unreadable(format!("{path}: {err}")))?;
    // The zstd dictionary frame, which the frames after it need, goes before the frame.
    let prefix = match file.codec {
        Codec::Zstd => {
            dictionary_frame(&mut f).map_err(|err| unreadable(format!("{path}: {err}")))?
        }
        Codec::Plain | Codec::Gzip => Vec::new(),
    };
    f.seek(SeekFrom::Start(at.offset)).map_err(|err| unreadable(format!("{path}: {err}")))?;
    let want = Loc { offset: prefix.len() as u64, within: at.within };
    let raw = Raw::new(io::Cursor::new(prefix).chain(f));
    let mut found = None;
    let mut emit = |item: WarcItem| {
        let at = match &item {
            WarcItem::Record { at, .. } | WarcItem::Skipped { at, .. } => *at,
            WarcItem::Broken { at, .. } => *at,
        };
        if at == want {
            if let WarcItem::Record { kind, block, capture, .. } = item {
                found = Some((kind, block, capture));
            }
            return false;
        }
        at.offset == want.offset && at.within < want.within
    };
    let mut new_buf = Vec::new;
    let read = match file.codec {
        Codec::Plain => {
            let src = &mut PlainStream::new(raw);
            warc::read_records(src, Vec::new(), None, max_record, &mut new_buf, &mut emit)
        }
        Codec::Gzip => {
            let src = &mut GzStream::new(raw);
            warc::read_records(src, Vec::new(), None, max_record, &mut new_buf, &mut emit)
        }
        Codec::Zstd => {
            let src = &mut ZstdStream::new(raw);
            warc::read_records(src, Vec::new(), None, max_record, &mut new_buf, &mut emit)
        }
    };
    if let Err(err) = read {
        return Err(unreadable(format!("{path}: {err}")));
    }
    let Some((kind, block, capture)) = found else {
        let why = format!("no {} record at {at} in {path} now", e.kind.warc_type());
        return Err(("original_changed", format!("the original {} changed: {why}", e.source)));
    };
    let mut differs = Vec::new();
    if kind != e.kind {
        differs.push(format!("a {} record (was {})", kind.warc_type(), e.kind.warc_type()));
    }
    let shown = |v: &Option<String>| v.as_deref().unwrap_or("none").to_owned();
    if capture.record_id != e.id {
        differs.push(format!("record id {} (was {})", shown(&capture.record_id), shown(&e.id)));
    }
    if capture_digest_key(&capture) != e.digest_key {
        let (uri, digest) = (shown(&capture.target_uri), shown(&capture.payload_digest));
        differs.push(format!(
            "target URI {uri} and payload digest {digest} (not the ones remembered)"
        ));
    }
    if !differs.is_empty() {
        let message = format!(
            "the original {} changed: the record at {at} in {path} is now {}",
            e.source,
            differs.join(", ")
        );
        return Err(("original_changed", message));
    }
    Ok(Arc::from(&block[..]))
}

/// The dictionary frame a WARC.zst file starts with (the whole skippable frame), or nothing.
fn dictionary_frame(f: &mut File) -> io::Result<Vec<u8>> {
    let mut head = [0u8; 8];
    let n = super::io::read_full(f, &mut head)?;
    if n < 8 || head[..4] != crate::bulk::gzip::zstd::DICT_MAGIC {
        return Ok(Vec::new());
    }
    let size = u32::from_le_bytes([head[4], head[5], head[6], head[7]]) as usize;
    if size > crate::bulk::gzip::zstd::MAX_DICTIONARY {
        return Err(io::Error::new(io::ErrorKind::InvalidData, "zstd dictionary too large"));
    }
    let mut frame = head.to_vec();
    f.take(size as u64).read_to_end(&mut frame)?;
    Ok(frame)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn capture(id: &str, uri: &str, digest: &str) -> Capture {
        Capture {
            record_id: Some(id.into()),
            target_uri: Some(uri.into()),
            payload_digest: Some(digest.into()),
            ..Capture::default()
        }
    }

    fn revisit(refers_to: Option<&str>, uri: &str, digest: &str) -> Capture {
        Capture {
            refers_to_record_id: refers_to.map(Into::into),
            target_uri: Some(uri.into()),
            payload_digest: Some(digest.into()),
            ..Capture::default()
        }
    }

    #[test]
    fn found_by_id_or_by_uri_and_digest_and_forgotten_oldest_first() {
        let mut o = Originals::new(1000, 1000);
        o.count_read(1 << 20);
        o.remember("a@0 u", Kind::Response, &capture("<id:a>", "u", "sha1:A"), &[b'a'; 300], None);
        o.remember("b@9 v", Kind::Resource, &capture("<id:b>", "v", "sha1:B"), &[b'b'; 300], None);
        let (src, orig) = o.find(&revisit(Some("<id:a>"), "x", "y"), usize::MAX).unwrap();
        let orig = orig.unwrap();
        assert_eq!((src, orig.kind, orig.block.len()), ("a@0 u", Kind::Response, 300));
        assert_eq!(o.find(&revisit(None, "v", "sha1:B"), usize::MAX).unwrap().0, "b@9 v");
        assert!(
            o.find(&revisit(None, "v", "sha1:A"), usize::MAX).is_none(),
            "digest of another URI"
        );
        assert!(o.find(&revisit(Some("<id:z>"), "q", "sha1:Q"), usize::MAX).is_none());
        // A third record passes the budget: the first is forgotten.
        o.remember("c@20 w", Kind::Response, &capture("<id:c>", "w", "sha1:C"), &[b'c'; 300], None);
        assert!(o.find(&revisit(Some("<id:a>"), "u", "sha1:A"), usize::MAX).is_none());
        assert_eq!(o.find(&revisit(Some("<id:c>"), "w", "x"), usize::MAX).unwrap().0, "c@20 w");
        assert!(o.held() <= 1000);
        // Larger than the whole budget: not remembered, nothing forgotten.
        o.remember("d@30 z", Kind::Response, &capture("<id:d>", "z", "sha1:D"), &[0; 2000], None);
        assert!(o.find(&revisit(Some("<id:d>"), "z", "sha1:D"), usize::MAX).is_none());
        assert!(o.find(&revisit(Some("<id:b>"), "v", "sha1:B"), usize::MAX).is_some());
        // No budget: nothing remembered.
        let mut none = Originals::new(0, 1000);
        none.remember("a@0 u", Kind::Response, &capture("<id:a>", "u", "sha1:A"), b"x", None);
        assert!(none.find(&revisit(Some("<id:a>"), "u", "sha1:A"), usize::MAX).is_none());
    }

    #[test]
    fn revisits_are_given_at_most_the_expansion_limit_times_the_bytes_read() {
        // 2 × the bytes read: a 300-byte original read (300), then revisits of 10 bytes each.
        let mut o = Originals::new(1 << 20, 2);
        let a = capture("<id:a>", "u", "sha1:A");
        o.count_read(300);
        o.remember("a@0 u", Kind::Response, &a, &[b'a'; 300], None);
        let mut given = Vec::new();
        for _ in 0..8 {
            o.count_read(10);
            let (_, found) = o.find(&revisit(Some("<id:a>"), "u", "sha1:A"), usize::MAX).unwrap();
            given.push(found.map(|f| f.block.len()).map_err(|e| e.0));
        }
        // Read 310, 320, 330, …: allowed 620, 640, 660, …; 600 given after two, 900 would pass.
        let limit = Err("revisit_limit_reached");
        assert_eq!(given, [Ok(300), Ok(300), limit, limit, limit, limit, limit, limit]);
        let (src, err) = o.find(&revisit(Some("<id:a>"), "u", "sha1:A"), usize::MAX).unwrap();
        assert_eq!(src, "a@0 u");
        assert_eq!(
            err.unwrap_err().1,
            "the original (300 bytes) is not given to this revisit: the revisits before it were \
             charged 600 bytes for their originals, and this one would pass 2 times the 380 \
             bytes of records read (the revisit expansion limit)"
        );
        // Expansion 0: no revisit is given its original.
        let mut none = Originals::new(1 << 20, 0);
        none.count_read(300);
        none.remember("a@0 u", Kind::Response, &a, &[b'a'; 300], None);
        let (_, found) = none.find(&revisit(Some("<id:a>"), "u", "sha1:A"), usize::MAX).unwrap();
        assert_eq!(found.unwrap_err().0, "revisit_limit_reached");
    }

    #[test]
    fn re_read_from_the_file_and_checked_to_be_the_same_record() {
        let record = |id: &str, body: &str| {
            format!(
                "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: {id}\r\n\
                 WARC-Target-URI: u\r\nWARC-Payload-Digest: d\r\nContent-Length: {}\r\n\r\n{body}\r\n\r\n",
                body.len()
            )
        };
        let dir = std::env::temp_dir().join(format!("feedmill-originals-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.warc");
        let first = record("<id:a>", "HTTP/1.1 200 OK\r\n\r\nAAAA");
        std::fs::write(&path, [first.clone(), record("<id:b>", "B")].concat()).unwrap();
        let file = Arc::new(Reopen { path: path.clone(), codec: Codec::Plain });
        let mut o = Originals::new(1000, 1000);
        o.count_read(1 << 20);
        let big = [b'x'; 5000];
        let (cap_a, cap_b) = (capture("<id:a>", "u", "d"), capture("<id:b>", "u", "d"));
        // Remembered by where they are (their blocks are larger than the budget: not copied).
        let at_b = Loc { offset: first.len() as u64, within: 0 };
        o.remember(
            "t@0 u",
            Kind::Response,
            &cap_a,
            &big,
            Some((&file, Loc { offset: 0, within: 0 })),
        );
        o.remember("t@x u", Kind::Response, &cap_b, &big, Some((&file, at_b)));
        assert!(o.held() < 1000);
        let mut find = |id: &str| {
            let (src, found) = o.find(&revisit(Some(id), "u", "d"), usize::MAX).unwrap();
            (src.to_owned(), found)
        };
        let (src, orig) = find("<id:a>");
        assert_eq!(
            (&src[..], &orig.unwrap().block[..]),
            ("t@0 u", &b"HTTP/1.1 200 OK\r\n\r\nAAAA"[..])
        );
        assert_eq!(&find("<id:b>").1.unwrap().block[..], b"B");
        let p = path.display();
        // The file changed: another record where the original was (another id), so changed.
        std::fs::write(&path, record("<id:z>", "HTTP/1.1 200 OK\r\n\r\nZZZZ")).unwrap();
        let (src, err) = find("<id:a>");
        assert_eq!(src, "t@0 u");
        let want = format!("the original t@0 u changed: the record at 0 in {p} is now record id <id:z> (was <id:a>)");
        assert_eq!(err.unwrap_err(), ("original_changed", want));
        // Same id, another payload digest and type.
        let changed =
            record("<id:a>", "X").replace("response", "resource").replace("Digest: d", "Digest: e");
        std::fs::write(&path, changed).unwrap();
        let want = format!("the original t@0 u changed: the record at 0 in {p} is now a resource record (was response), target URI u and payload digest e (not the ones remembered)");
        assert_eq!(find("<id:a>").1.unwrap_err(), ("original_changed", want));
        // No record at the offset any more (the file cut before it).
        std::fs::write(&path, &first).unwrap();
        let want =
            format!("the original t@x u changed: no response record at {} in {p} now", first.len());
        assert_eq!(find("<id:b>").1.unwrap_err(), ("original_changed", want));
        // The file gone.
        std::fs::remove_file(&path).unwrap();
        let (kind, message) = find("<id:a>").1.unwrap_err();
        assert_eq!(kind, "original_unreadable");
        assert!(
            message.starts_with(&format!("the original t@0 u cannot be read again: {p}: ")),
            "{message}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
