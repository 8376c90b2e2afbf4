//! Segmented WARC records (WARC 1.1 §6): a record its crawler split into a first segment
//! (`WARC-Segment-Number: 1`, the record that names the capture) and `continuation` records
//! (`WARC-Segment-Origin-ID`: the first segment's record id; `WARC-Segment-Number` 2, 3, …;
//! `WARC-Segment-Total-Length` on the last), joined here into one record whose block is the
//! segments' blocks in order, so that its HTTP message is read once, whole.
//!
//! What comes out, one record per segmented record:
//! - all segments read in order: the joined record, at the first segment's place (its
//!   `source`), emitted when its last segment is read; a total length that is not the joined
//!   length is a note (a `recovered` diagnostic);
//! - a segment missing (another first segment, a continuation out of order, or the end of the
//!   WARC stream before the last segment): the segments read so far, joined, with `capture.
//!   truncated: segment` and a note naming the segment missing;
//! - joined, larger than the record limit: one `too_large` error record, the first segment's;
//! - a continuation whose first segment is not the one being joined (not read before it in
//!   this stream, or out of order): one `bad_segment` error record, the continuation's.
//!
//! A continuation joined into a record (or into one reported too large) is counted among the
//! skipped records (type `continuation`), as it gives no record of its own.
//!
//! Memory: one record being joined (at most the record limit), beside the reader's own.
//! Segments are joined within one WARC stream (one file, or one member of a tar), in order;
//! NOTE: crawlers write a record's segments one after the other, so nothing is remembered by
//! position (as revisit originals are): a continuation in another file is a `bad_segment`
//! record, and the first segment's record says its continuation was not read.

use crate::record::Capture;

use super::record::Kind;
use super::warc::Segment;

/// A record being joined, or one that came out of the joining. The reader hands every
/// `response`, `resource` or `revisit` record on in this shape, its block then in the
/// reader's buffer type (`B`).
#[derive(Debug)]
pub struct Joined<B = Vec<u8>> {
    /// The first segment's `source`.
    pub source: String,
    /// Its type.
    pub kind: Kind,
    /// Its `WARC-Target-URI`.
    pub target_uri: String,
    /// The segments' blocks, joined.
    pub block: B,
    /// The first segment's capture (`truncated: segment` until every segment is joined).
    pub capture: Box<Capture>,
    /// Notes on how it was read: diagnostics for its record.
    pub note: Option<String>,
}

/// What the joining gives the reader to emit.
#[derive(Debug)]
pub enum Out {
    /// A joined record (whole, or cut: see the module docs).
    Record(Joined),
    /// An error record.
    Error {
        /// Its `source`.
        source: String,
        /// `too_large` or `bad_segment`.
        kind: &'static str,
        /// What went wrong.
        message: String,
    },
}

#[derive(Debug)]
struct Pending {
    /// None once it was reported too large (its continuations are still counted).
    joined: Option<Joined>,
    origin_id: Option<String>,
    next: u64,
}

/// The segmented record being joined (see the module docs).
#[derive(Debug, Default)]
pub struct Segments {
    pending: Option<Pending>,
}

fn add_note(note: &mut Option<String>, more: String) {
    *note = Some(match note.take() {
        Some(n) => format!("{n}; {more}"),
        None => more,
    });
}

impl Segments {
    /// A first segment: its record starts being joined; one being joined before it is given
    /// out, cut.
    pub fn first(&mut self, joined: Joined, out: &mut Vec<Out>) {
        self.cut("another first segment came first", out);
        let origin_id = joined.capture.record_id.clone();
        self.pending = Some(Pending { joined: Some(joined), origin_id, next: 2 });
    }

    /// A `continuation` record (`source`, `segment`, `block`), joined to its first segment
    /// when it is the one being joined and comes in order, the joined record given out when it
    /// is the last; records of at most `max` bytes. Whether it was joined (else it gave an
    /// error record of its own).
    pub fn continuation(
        &mut self,
        source: &str,
        segment: Option<&Segment>,
        block: &[u8],
        max: usize,
        out: &mut Vec<Out>,
    ) -> bool {
        let number = segment.map(|s| s.number);
        let origin = segment.and_then(|s| s.origin_id.as_deref());
        let bad = |message: String| Out::Error {
            source: source.to_owned(),
            kind: "bad_segment",
            message,
        };
        let (Some(number), Some(origin)) = (number, origin) else {
            let message = "a continuation record without WARC-Segment-Number and \
                           WARC-Segment-Origin-ID: no record to join it to"
                .to_owned();
            out.push(bad(message));
            return false;
        };
        let ours = self.pending.as_ref().is_some_and(|p| p.origin_id.as_deref() == Some(origin));
        if !ours {
            let message = format!(
                "continuation segment {number} of {origin}: its first segment was not read \
                 before it in this WARC stream"
            );
            out.push(bad(message));
            return false;
        }
        let Some(p) = &mut self.pending else { return false };
        if number != p.next {
            let expected = p.next;
            self.cut(&format!("segment {number} came after segment {}", expected - 1), out);
            let message = format!(
                "continuation segment {number} of {origin} out of order: segment {expected} \
                 expected"
            );
            out.push(bad(message));
            return false;
        }
        p.next += 1;
        let last = segment.and_then(|s| s.total_length);
        if let Some(j) = &mut p.joined {
            if j.block.len().saturating_add(block.len()) > max {
                let source = std::mem::take(&mut j.source);
                p.joined = None;
                let message = format!("segmented record larger than {max} bytes joined");
                out.push(Out::Error { source, kind: "too_large", message });
            } else {
                j.block.extend_from_slice(block);
            }
        }
        let Some(total) = last else { return true };
        let Some(mut j) = self.pending.take().and_then(|p| p.joined) else { return true };
        if j.capture.truncated.as_deref() == Some("segment") {
            j.capture.truncated = None;
        }
        if total != j.block.len() as u64 {
            let more = format!(
                "WARC-Segment-Total-Length {total} is not the {} bytes its {number} segments \
                 join to",
                j.block.len()
            );
            add_note(&mut j.note, more);
        }
        out.push(Out::Record(j));
        true
    }

    /// The end of the WARC stream: a record still being joined is given out, cut.
    pub fn finish(&mut self, out: &mut Vec<Out>) {
        self.cut("the WARC stream ended", out);
    }

    /// Gives out the record being joined, if any, cut before its segment `next` (`why`).
    fn cut(&mut self, why: &str, out: &mut Vec<Out>) {
        let Some(p) = self.pending.take() else { return };
        let Some(mut j) = p.joined else { return };
        let more = format!(
            "segmented record cut: its segment {} was not read ({why}); its content is the \
             {} segments before it, joined",
            p.next,
            p.next - 1
        );
        add_note(&mut j.note, more);
        out.push(Out::Record(j));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first(id: &str, block: &[u8]) -> Joined {
        let capture = Capture {
            record_id: Some(id.into()),
            truncated: Some("segment".into()),
            ..Capture::default()
        };
        Joined {
            source: format!("t@0 {id}"),
            kind: Kind::Response,
            target_uri: "u".into(),
            block: block.to_vec(),
            capture: Box::new(capture),
            note: None,
        }
    }

    fn seg(n: u64, origin: &str, total: Option<u64>) -> Segment {
        Segment { number: n, origin_id: Some(origin.into()), total_length: total }
    }

    fn show(out: Vec<Out>) -> Vec<String> {
        out.into_iter()
            .map(|o| match o {
                Out::Record(j) => format!(
                    "R {} {} {:?} {}",
                    j.source,
                    String::from_utf8_lossy(&j.block),
                    j.capture.truncated,
                    j.note.unwrap_or_default()
                ),
                Out::Error { source, kind, message } => format!("E {source} {kind} {message}"),
            })
            .collect()
    }

    #[test]
    fn segments_in_order_join_into_one_record() {
        let (mut s, mut out) = (Segments::default(), Vec::new());
        s.first(first("<a>", b"HTTP/1.1 200 OK\r\n\r\n<r"), &mut out);
        s.continuation("t@9 u", Some(&seg(2, "<a>", None)), b"ss/", 100, &mut out);
        assert!(out.is_empty());
        s.continuation("t@19 u", Some(&seg(3, "<a>", Some(25))), b">", 100, &mut out);
        assert_eq!(show(out), ["R t@0 <a> HTTP/1.1 200 OK\r\n\r\n<rss/> None "]);
        // A wrong total length: the record, with a note.
        let mut out = Vec::new();
        s.first(first("<b>", b"ab"), &mut out);
        s.continuation("t@9 u", Some(&seg(2, "<b>", Some(9))), b"c", 100, &mut out);
        assert_eq!(
            show(out),
            ["R t@0 <b> abc None WARC-Segment-Total-Length 9 is not the 3 bytes its 2 segments \
              join to"]
        );
        s.finish(&mut Vec::new());
    }

    #[test]
    fn missing_out_of_order_and_orphan_segments_are_reported() {
        // Segment 2 missing: the first segment cut, the continuation an error record.
        let (mut s, mut out) = (Segments::default(), Vec::new());
        s.first(first("<a>", b"ab"), &mut out);
        s.continuation("t@9 u", Some(&seg(3, "<a>", Some(3))), b"c", 100, &mut out);
        let got = show(out);
        assert_eq!(got.len(), 2);
        assert!(got[0].starts_with("R t@0 <a> ab Some(\"segment\") segmented record cut: its segment 2 was not read (segment 3 came after segment 1)"), "{got:?}");
        assert!(
            got[1].starts_with("E t@9 u bad_segment continuation segment 3 of <a> out of order"),
            "{got:?}"
        );
        // A continuation of no first segment, and one without its fields.
        let mut out = Vec::new();
        s.continuation("t@20 u", Some(&seg(2, "<z>", None)), b"c", 100, &mut out);
        s.continuation("t@30 u", None, b"c", 100, &mut out);
        let got = show(out);
        assert!(got[0].starts_with("E t@20 u bad_segment continuation segment 2 of <z>: its first"));
        assert!(got[1].starts_with("E t@30 u bad_segment a continuation record without"));
        // The stream ends before the last segment: cut.
        let mut out = Vec::new();
        s.first(first("<c>", b"ab"), &mut out);
        s.continuation("t@9 u", Some(&seg(2, "<c>", None)), b"c", 100, &mut out);
        s.finish(&mut out);
        let got = show(out);
        assert_eq!(got.len(), 1);
        assert!(got[0].starts_with("R t@0 <c> abc Some(\"segment\") segmented record cut: its segment 3 was not read (the WARC stream ended)"), "{got:?}");
        // Another first segment before the last: the one before it cut.
        let mut out = Vec::new();
        s.first(first("<d>", b"ab"), &mut out);
        s.first(first("<e>", b"xy"), &mut out);
        s.continuation("t@9 u", Some(&seg(2, "<e>", Some(3))), b"z", 100, &mut out);
        let got = show(out);
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(got[0].contains("(another first segment came first)"));
        assert_eq!(got[1], "R t@0 <e> xyz None ");
    }

    #[test]
    fn joined_larger_than_the_limit_is_one_error_record() {
        let (mut s, mut out) = (Segments::default(), Vec::new());
        s.first(first("<a>", b"abcd"), &mut out);
        s.continuation("t@9 u", Some(&seg(2, "<a>", None)), b"efgh", 6, &mut out);
        s.continuation("t@19 u", Some(&seg(3, "<a>", Some(9))), b"i", 6, &mut out);
        s.finish(&mut out);
        assert_eq!(show(out), ["E t@0 <a> too_large segmented record larger than 6 bytes joined"]);
    }
}
