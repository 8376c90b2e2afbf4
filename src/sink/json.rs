//! JSON Lines encoder: one line per input record.
//!
//! Record schema (keys in this order; null and empty values omitted):
//!
//! ```text
//! source       string   path | path!tar-member | path@offset target-uri (WARC)
//! status       string   ok | not_a_feed | error
//! error        {kind, message}                 when status is not ok
//! format       string   rss2 | rss1 | atom | atom03
//! encoding     string   encoding the body was decoded with (e.g. "UTF-8", "windows-1252")
//! diagnostics  [{kind, offset, message}]       offset: byte offset in the decoded text
//! feed         {title, subtitle, description, page_url, feed_url, prev_feed_url,
//!               next_feed_url, icon, logo, updated, authors, entries}
//!   image      {url, width, height}            (icon, logo, thumbnail, person icon)
//!   person     {name, email, page_url, icon}
//!   entry      {title, subtitle, summary, content, page_url, thumbnail, duration,
//!               published, updated, authors, categories [string], enclosures}
//!   enclosure  {url, type, length}
//!   text       "string" for a plain value, {"html": "..."} for markup
//!   date       RFC 3339 UTC, fraction kept: "2016-03-20T08:17:44Z"
//! ```
//!
//! "Empty" means an empty string, an empty array, or an object with no non-empty field
//! (such an object is omitted as a field value). Array elements are never dropped, so an
//! entry with no fields is written as `{}` and entry positions stay meaningful.
//!
//! NOTE: this is the hot path of bulk runs. JSON is written by hand into the caller's
//! reused buffer (no `serde_json::Value` per record); strings are escaped by
//! `serde_json::to_writer`, which allocates nothing for a `&str`.

use std::fmt::Write as _;
use std::io::{self, Write};

use super::{RecordView, Sink};
use crate::html::Html;
use crate::{Diagnostic, Enclosure, Entry, Feed, Image, Person, Text, Timestamp};

/// A [`Sink`] writing one JSON object per line to `W`.
pub struct JsonLines<W> {
    out: W,
    /// Scratch for HTML serialization and dates, reused across records.
    scratch: String,
    /// The line being built; written to `out` in one call.
    line: Vec<u8>,
}

impl<W: Write> JsonLines<W> {
    pub fn new(out: W) -> Self {
        JsonLines {
            out,
            scratch: String::new(),
            line: Vec::with_capacity(16 * 1024),
        }
    }

    /// The underlying writer.
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.out
    }

    pub fn into_inner(self) -> W {
        self.out
    }
}

impl<W: Write> Sink for JsonLines<W> {
    fn record(&mut self, rec: &RecordView<'_, '_>) -> io::Result<()> {
        self.line.clear();
        encode_record(&mut self.line, &mut self.scratch, rec);
        self.line.push(b'\n');
        self.out.write_all(&self.line)
    }
}

/// Appends the JSON object for `rec` (no newline) to `out`.
pub fn encode_record(out: &mut Vec<u8>, scratch: &mut String, rec: &RecordView<'_, '_>) {
    let mut o = Obj::begin(out);
    o.str("source", rec.source);
    o.str("status", rec.status.as_str());
    if let Some(p) = rec.error {
        let at = o.key("error");
        let mut e = Obj::begin(o.out);
        e.str("kind", p.kind);
        e.str("message", p.message);
        let wrote = e.end();
        o.end_value(at, wrote);
    }
    if let Some(f) = rec.format {
        o.str("format", f.as_str());
    }
    if let Some(enc) = rec.encoding {
        o.str("encoding", enc);
    }
    if !rec.pre_diagnostics.is_empty() || !rec.diagnostics.is_empty() {
        o.key("diagnostics");
        o.out.push(b'[');
        let mut first = true;
        for d in rec.pre_diagnostics.iter().chain(rec.diagnostics) {
            if !first {
                o.out.push(b',');
            }
            first = false;
            diagnostic(o.out, d);
        }
        o.out.push(b']');
    }
    if let Some(feed) = rec.feed {
        let at = o.key("feed");
        let wrote = write_feed(o.out, scratch, feed);
        o.end_value(at, wrote);
    }
    o.end();
}

fn diagnostic(out: &mut Vec<u8>, d: &Diagnostic) {
    let mut o = Obj::begin(out);
    o.str("kind", d.kind.as_str());
    o.uint("offset", d.offset as u64);
    o.str("message", &d.message);
    o.end();
}

fn write_feed(out: &mut Vec<u8>, scratch: &mut String, f: &Feed<'_>) -> bool {
    let mut o = Obj::begin(out);
    o.text("title", f.title.as_ref(), scratch);
    o.text("subtitle", f.subtitle.as_ref(), scratch);
    o.text("description", f.description.as_ref(), scratch);
    o.opt_str("page_url", f.page_url);
    o.opt_str("feed_url", f.feed_url);
    o.opt_str("prev_feed_url", f.prev_feed_url);
    o.opt_str("next_feed_url", f.next_feed_url);
    o.image("icon", f.icon.as_ref());
    o.image("logo", f.logo.as_ref());
    o.date("updated", f.updated, scratch);
    o.persons("authors", &f.authors);
    if !f.entries.is_empty() {
        o.key("entries");
        o.out.push(b'[');
        for (i, e) in f.entries.iter().enumerate() {
            if i > 0 {
                o.out.push(b',');
            }
            write_entry(o.out, scratch, e);
        }
        o.out.push(b']');
    }
    o.end()
}

fn write_entry(out: &mut Vec<u8>, scratch: &mut String, e: &Entry<'_>) -> bool {
    let mut o = Obj::begin(out);
    o.text("title", e.title.as_ref(), scratch);
    o.text("subtitle", e.subtitle.as_ref(), scratch);
    o.text("summary", e.summary.as_ref(), scratch);
    o.text("content", e.content.as_ref(), scratch);
    o.opt_str("page_url", e.page_url);
    o.image("thumbnail", e.thumbnail.as_ref());
    if let Some(d) = e.duration {
        o.uint("duration", d);
    }
    o.date("published", e.published, scratch);
    o.date("updated", e.updated, scratch);
    o.persons("authors", &e.authors);
    if e.categories.iter().any(|c| !c.is_empty()) {
        o.key("categories");
        o.out.push(b'[');
        let mut first = true;
        for c in e.categories.iter().filter(|c| !c.is_empty()) {
            if !first {
                o.out.push(b',');
            }
            first = false;
            json_str(o.out, c);
        }
        o.out.push(b']');
    }
    if !e.enclosures.is_empty() {
        o.key("enclosures");
        o.out.push(b'[');
        for (i, enc) in e.enclosures.iter().enumerate() {
            if i > 0 {
                o.out.push(b',');
            }
            write_enclosure(o.out, enc);
        }
        o.out.push(b']');
    }
    o.end()
}

fn write_enclosure(out: &mut Vec<u8>, e: &Enclosure<'_>) -> bool {
    let mut o = Obj::begin(out);
    o.opt_str("url", e.url);
    o.opt_str("type", e.mime_type);
    if let Some(l) = e.length {
        o.uint("length", l);
    }
    o.end()
}

fn write_image(out: &mut Vec<u8>, i: &Image<'_>) -> bool {
    let mut o = Obj::begin(out);
    o.opt_str("url", i.url);
    if let Some(w) = i.width {
        o.uint("width", w);
    }
    if let Some(h) = i.height {
        o.uint("height", h);
    }
    o.end()
}

fn write_person(out: &mut Vec<u8>, p: &Person<'_>) -> bool {
    let mut o = Obj::begin(out);
    o.opt_str("name", p.name);
    o.opt_str("email", p.email);
    o.opt_str("page_url", p.page_url);
    o.image("icon", p.icon.as_ref());
    o.end()
}

/// Writes `s` as a quoted, escaped JSON string.
fn json_str(out: &mut Vec<u8>, s: &str) {
    // Writing into a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, s);
}

fn write_html(out: &mut Vec<u8>, scratch: &mut String, h: &Html<'_>) {
    scratch.clear();
    h.write_html(scratch);
    out.extend_from_slice(b"{\"html\":");
    json_str(out, scratch);
    out.push(b'}');
}

/// An object being written: commas and key quoting, and the "omit empty" rule.
struct Obj<'o> {
    out: &'o mut Vec<u8>,
    fields: usize,
}

impl<'o> Obj<'o> {
    fn begin(out: &'o mut Vec<u8>) -> Self {
        out.push(b'{');
        Obj { out, fields: 0 }
    }

    /// Closes the object; returns whether it has any field.
    fn end(self) -> bool {
        self.out.push(b'}');
        self.fields > 0
    }

    /// Writes `,"key":` and returns the position before it, for [`Obj::end_value`].
    fn key(&mut self, key: &str) -> usize {
        let at = self.out.len();
        if self.fields > 0 {
            self.out.push(b',');
        }
        self.fields += 1;
        json_str(self.out, key);
        self.out.push(b':');
        at
    }

    /// After a nested object was written at `at`: removes the key and value when the
    /// value turned out empty.
    fn end_value(&mut self, at: usize, non_empty: bool) {
        if !non_empty {
            self.out.truncate(at);
            self.fields -= 1;
        }
    }

    fn str(&mut self, key: &str, v: &str) {
        if !v.is_empty() {
            self.key(key);
            json_str(self.out, v);
        }
    }

    fn opt_str(&mut self, key: &str, v: Option<&str>) {
        if let Some(v) = v {
            self.str(key, v);
        }
    }

    fn uint(&mut self, key: &str, v: u64) {
        self.key(key);
        let _ = write!(self.out, "{v}");
    }

    fn text(&mut self, key: &str, v: Option<&Text<'_>>, scratch: &mut String) {
        match v {
            None => {}
            Some(Text::Plain(s)) => self.str(key, s),
            Some(Text::Html(h)) => {
                let at = self.key(key);
                let start = self.out.len();
                write_html(self.out, scratch, h);
                // `{"html":""}` is an empty value.
                let empty = &self.out[start..] == b"{\"html\":\"\"}";
                self.end_value(at, !empty);
            }
        }
    }

    fn image(&mut self, key: &str, v: Option<&Image<'_>>) {
        if let Some(i) = v {
            let at = self.key(key);
            let wrote = write_image(self.out, i);
            self.end_value(at, wrote);
        }
    }

    fn date(&mut self, key: &str, v: Option<Timestamp>, scratch: &mut String) {
        if let Some(t) = v {
            scratch.clear();
            let _ = write!(scratch, "{t}");
            self.str(key, scratch);
        }
    }

    fn persons(&mut self, key: &str, v: &[Person<'_>]) {
        if v.is_empty() {
            return;
        }
        self.key(key);
        self.out.push(b'[');
        for (i, p) in v.iter().enumerate() {
            if i > 0 {
                self.out.push(b',');
            }
            write_person(self.out, p);
        }
        self.out.push(b']');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sink::{Problem, Status};

    fn encode(rec: &RecordView<'_, '_>) -> String {
        let mut out = Vec::new();
        encode_record(&mut out, &mut String::new(), rec);
        String::from_utf8(out).unwrap()
    }

    fn view<'r, 'a>(feed: Option<&'r Feed<'a>>) -> RecordView<'r, 'a> {
        RecordView {
            source: "a \"b\".xml",
            status: Status::Ok,
            error: None,
            format: Some(crate::Format::Rss2),
            encoding: Some("UTF-8"),
            diagnostics: &[],
            pre_diagnostics: &[],
            feed,
        }
    }

    #[test]
    fn escapes_and_omits_empty() {
        let feed = Feed {
            title: Some(Text::Plain("T\n\u{1}é")),
            subtitle: Some(Text::Plain("")),
            logo: Some(Image {
                url: None,
                width: None,
                height: None,
            }),
            icon: Some(Image {
                url: Some("http://x/i.png"),
                width: Some(16),
                height: None,
            }),
            entries: vec![
                Entry::default(),
                Entry {
                    categories: vec!["a", "b\"c"],
                    enclosures: vec![Enclosure {
                        url: Some("u"),
                        mime_type: Some("audio/mpeg"),
                        length: Some(3),
                    }],
                    duration: Some(61),
                    ..Entry::default()
                },
            ],
            ..Feed::default()
        };
        let s = encode(&view(Some(&feed)));
        assert_eq!(
            s,
            r#"{"source":"a \"b\".xml","status":"ok","format":"rss2","encoding":"UTF-8","feed":{"title":"T\n\u0001é","icon":{"url":"http://x/i.png","width":16},"entries":[{},{"duration":61,"categories":["a","b\"c"],"enclosures":[{"url":"u","type":"audio/mpeg","length":3}]}]}}"#
        );
        let v: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(v["feed"]["entries"][1]["categories"][1], "b\"c");
    }

    #[test]
    fn error_record_and_empty_feed() {
        let feed = Feed::default();
        let mut rec = view(Some(&feed));
        rec.status = Status::NotAFeed;
        rec.format = None;
        rec.error = Some(Problem {
            kind: "http_status",
            message: "HTTP status 404",
        });
        rec.diagnostics = &[];
        let s = encode(&rec);
        assert_eq!(
            s,
            r#"{"source":"a \"b\".xml","status":"not_a_feed","error":{"kind":"http_status","message":"HTTP status 404"},"encoding":"UTF-8"}"#
        );
    }
}
