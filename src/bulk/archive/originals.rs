//! The records a WARC `revisit` may refer to ("the same payload as record X"): the `response`
//! and `resource` records read so far, remembered within a byte budget so that a revisit
//! read later in the run is processed with its original's block (and names its source).
//!
//! The run is streaming and in input order, so an original can only be found when it was
//! read before its revisit, by the same reader (one per run unless `--readers` is more than
//! one; archives inside archives share it). What is kept is bounded: each remembered record
//! costs its block, its source, its keys and 96 bytes, and once the total passes the budget
//! ([`super::ReadConfig::revisit_memory`]) the oldest are forgotten first; a record larger
//! than the whole budget is not remembered. A revisit is matched by its `WARC-Refers-To`
//! (the original's `WARC-Record-ID`), else by its `WARC-Refers-To-Target-URI` (or its own
//! target URI) together with its `WARC-Payload-Digest` (WARC 1.0 revisits name no record).
//!
//! NOTE: a remembered block is a copy (made on the reader thread): a block of the record
//! being emitted may be a range of a shared inflated buffer of several MiB, which must not
//! be kept alive by a small record.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use super::record::{Kind, Original};
use crate::record::Capture;

/// Bytes a remembered record costs beyond its strings and block.
const OVERHEAD: usize = 96;

/// The remembered records (see the module docs).
#[derive(Debug, Default)]
pub struct Originals {
    budget: usize,
    held: usize,
    /// Sequence number of `entries[0]`.
    first: u64,
    entries: VecDeque<Entry>,
    by_id: HashMap<String, u64>,
    by_digest: HashMap<String, u64>,
}

#[derive(Debug)]
struct Entry {
    source: String,
    original: Original,
    id: Option<String>,
    digest_key: Option<String>,
    cost: usize,
}

/// The key of a target URI and payload digest.
fn digest_key(uri: &str, digest: &str) -> String {
    format!("{digest}\n{uri}")
}

impl Originals {
    /// Remembers at most `budget` bytes of records (0: none).
    pub fn new(budget: usize) -> Self {
        Originals { budget, ..Originals::default() }
    }

    /// Bytes held now (at most the budget).
    #[cfg(test)]
    pub fn held(&self) -> usize {
        self.held
    }

    /// Remembers the record `source` (a `response` or `resource` of `kind`, with `capture`'s
    /// record id or target URI and payload digest) and its `block`, forgetting the oldest
    /// records past the budget. A record with neither key is not remembered.
    pub fn remember(&mut self, source: &str, kind: Kind, capture: &Capture, block: &[u8]) {
        let id = capture.record_id.clone();
        let digest_key = match (&capture.target_uri, &capture.payload_digest) {
            (Some(u), Some(d)) => Some(digest_key(u, d)),
            _ => None,
        };
        if id.is_none() && digest_key.is_none() {
            return;
        }
        let len = |s: &Option<String>| s.as_ref().map_or(0, String::len);
        let cost = block.len() + source.len() + 2 * (len(&id) + len(&digest_key)) + OVERHEAD;
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
        let original = Original { kind, block: Arc::from(block) };
        self.entries.push_back(Entry { source: source.to_owned(), original, id, digest_key, cost });
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

    /// The original of the revisit whose header gave `capture`: its source and block.
    pub fn find(&self, capture: &Capture) -> Option<(&str, Original)> {
        let by_id = capture.refers_to_record_id.as_ref().and_then(|id| self.by_id.get(id));
        let by_digest = || {
            let uri = capture.refers_to_target_uri.as_ref().or(capture.target_uri.as_ref())?;
            self.by_digest.get(&digest_key(uri, capture.payload_digest.as_ref()?))
        };
        let seq = by_id.or_else(by_digest)?;
        let e = self.entries.get((seq - self.first) as usize)?;
        Some((&e.source, e.original.clone()))
    }
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
        let mut o = Originals::new(1000);
        o.remember("a@0 u", Kind::Response, &capture("<id:a>", "u", "sha1:A"), &[b'a'; 300]);
        o.remember("b@9 v", Kind::Resource, &capture("<id:b>", "v", "sha1:B"), &[b'b'; 300]);
        let (src, orig) = o.find(&revisit(Some("<id:a>"), "x", "y")).unwrap();
        assert_eq!((src, orig.kind, orig.block.len()), ("a@0 u", Kind::Response, 300));
        assert_eq!(o.find(&revisit(None, "v", "sha1:B")).unwrap().0, "b@9 v");
        assert!(o.find(&revisit(None, "v", "sha1:A")).is_none(), "digest of another URI");
        assert!(o.find(&revisit(Some("<id:z>"), "q", "sha1:Q")).is_none());
        // A third record passes the budget: the first is forgotten.
        o.remember("c@20 w", Kind::Response, &capture("<id:c>", "w", "sha1:C"), &[b'c'; 300]);
        assert!(o.find(&revisit(Some("<id:a>"), "u", "sha1:A")).is_none());
        assert_eq!(o.find(&revisit(Some("<id:c>"), "w", "x")).unwrap().0, "c@20 w");
        assert!(o.held() <= 1000);
        // Larger than the whole budget: not remembered, nothing forgotten.
        o.remember("d@30 z", Kind::Response, &capture("<id:d>", "z", "sha1:D"), &[0; 2000]);
        assert!(o.find(&revisit(Some("<id:d>"), "z", "sha1:D")).is_none());
        assert!(o.find(&revisit(Some("<id:b>"), "v", "sha1:B")).is_some());
        // No budget: nothing remembered.
        let mut none = Originals::new(0);
        none.remember("a@0 u", Kind::Response, &capture("<id:a>", "u", "sha1:A"), b"x");
        assert!(none.find(&revisit(Some("<id:a>"), "u", "sha1:A")).is_none());
    }
}
