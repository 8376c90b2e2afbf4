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
//!   text       `title` (etc.) is always a string: the plain text, or the sanitized HTML
//!              serialized; `title_type` (etc.) beside it is "text" or "html"
//!   date       RFC 3339 UTC, fraction kept: "2016-03-20T08:17:44Z"
//!
//! Beyond the spec's model (`feed.ext` / `entry.ext`), after the spec's keys
//! (feed: before `entries`):
//! feed         id, language, generator {name, uri, version}, rights, ttl,
//!              skip_hours [int], skip_days [string],
//!              image {url, title, link, description, width, height},
//!              category_details [category], contributors [person],
//!              itunes {explicit, type, categories [{text, subcategories [string]}],
//!                      owner {name, email}, block, complete, new_feed_url,
//!                      keywords [string]},
//!              podcast {guid, locked {locked, owner}, funding [{url, message}],
//!                       persons [podcast_person]},
//!              updated_lenient (lenient), version, pub_date, last_build_date,
//!              updated_from (pubDate | lastBuildDate), web_master (person), docs,
//!              cloud {domain, port, path, register_procedure, protocol}, rating,
//!              text_input {title, description, name, link},
//!              syndication {update_period, update_frequency, update_base (date)},
//!              topics [string], links [link]
//!   image      also display_width, display_height (RSS 2.0 defaults and maxima applied)
//! entry        id, id_is_permalink, comments, source {title, url}, category_details,
//!              contributors, itunes {explicit, episode, season, episode_type, block, title,
//!                                    keywords [string]},
//!              podcast {transcripts [{url, type, language, rel}], chapters {url, type},
//!                       persons [podcast_person], season {number, name},
//!                       episode {number, display}},
//!              published_lenient, updated_lenient, comment_count, comment_feed_url,
//!              thread_total, in_reply_to [{id, url, type, source}], topics [string],
//!              links [link], media {contents [{url, type, medium, width, height,
//!              file_size, duration, bitrate, lang, is_default, expression, group}],
//!              description, credits [{name, role, scheme}], ratings [{value, scheme}],
//!              player {url, width, height}, keywords [string]};
//!              then the spec's computed values: computed_authors [person],
//!              computed_updated (date; no "now" fallback)
//!   link            {rel, url, type, title, hreflang, length, count}
//!   category        {term, scheme, label}
//!   podcast_person  {name, role, group, img, href}
//!   lenient         {value (date), zone_assumed, form}
//! With extraction (`--extract`), last:
//! feed         title_text, subtitle_text, description_text, canonical_url
//! entry        title_text, subtitle_text, summary_text, content_text, body_source
//!              (content | summary), body_text, word_count (always), canonical_url,
//!              dedup_key, dedup_source (id | url | hash)
//! ```
//!
//! With strict sanitizing (`RecordView::sanitize`), every `html` text value is the output
//! of [`crate::sanitize::sanitize_text`] instead of the spec's serialization.
//!
//! "Empty" means an empty string, an empty array, or an object with no non-empty field
//! (such an object is omitted as a field value). Array elements are never dropped, so an
//! entry with no fields is written as `{}` and entry positions stay meaningful.
//!
//! NOTE: this is the hot path of bulk runs. JSON is written by hand into the caller's
//! reused buffer (no `serde_json::Value` per record); strings are escaped by `json_str`
//! straight into it (SSE2 block scans; the same bytes `serde_json` writes, checked by a
//! differential test).

use std::io::{self, Write};

use super::{RecordView, Sink};
use crate::extract::{EntryExtraction, FeedExtraction};
use crate::html::Html;
use crate::model::date::RFC3339_MAX_LEN;
use crate::model::ext::{Category, EntryExt, FeedExt, Link, MediaEntry, PodcastPerson};
use crate::model::fragment::serialize::{self, HtmlOut};
use crate::model::lenient_date::LenientDate;
use crate::sanitize::{with_sanitized_html, SanitizeOptions};
use crate::simd::block;
use crate::{Diagnostic, Enclosure, Entry, Feed, Image, Person, Text, Timestamp};

/// What nested writers need besides the output: the sanitizing options of the record.
struct Cx<'c> {
    sanitize: Option<&'c SanitizeOptions>,
}

/// A [`Sink`] writing one JSON object per line to `W`.
pub struct JsonLines<W> {
    out: W,
    /// The line being built; written to `out` in one call.
    line: Vec<u8>,
}

impl<W: Write> JsonLines<W> {
    /// A sink writing to `out` (wrap a file in a `BufWriter`: each record is one
    /// `write_all` of its line).
    pub fn new(out: W) -> Self {
        JsonLines { out, line: Vec::with_capacity(16 * 1024) }
    }

    /// The underlying writer.
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.out
    }

    /// Returns the underlying writer (nothing is held back here: every record was written
    /// whole; flush the writer itself if it buffers).
    pub fn into_inner(self) -> W {
        self.out
    }
}

impl<W: Write> Sink for JsonLines<W> {
    fn record(&mut self, rec: &RecordView<'_, '_>) -> io::Result<()> {
        self.line.clear();
        encode_record(&mut self.line, rec);
        self.line.push(b'\n');
        self.out.write_all(&self.line)
    }
}

/// Appends the JSON object for `rec` (no newline) to `out`.
pub fn encode_record(out: &mut Vec<u8>, rec: &RecordView<'_, '_>) {
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
    if !rec.diagnostics.is_empty() {
        o.key("diagnostics");
        o.out.push(b'[');
        let mut first = true;
        for d in rec.diagnostics {
            if !first {
                o.out.push(b',');
            }
            first = false;
            diagnostic(o.out, d);
        }
        o.out.push(b']');
    }
    if let Some(feed) = rec.feed {
        // Strict sanitizing covers URL fields too (`javascript:`, `data:` … removed).
        let cleaned;
        let feed = match rec.sanitize {
            Some(_) => {
                let mut f = feed.clone();
                crate::sanitize::drop_unsafe_urls(&mut f);
                cleaned = f;
                &cleaned
            }
            None => feed,
        };
        let mut cx = Cx { sanitize: rec.sanitize };
        let at = o.key("feed");
        let wrote = write_feed(o.out, &mut cx, feed, rec.extraction);
        o.end_value(at, wrote);
    }
    if let Some(r) = rec.lint.filter(|r| !r.findings.is_empty()) {
        o.key("findings");
        crate::lint::write_findings_json(o.out, &r.findings);
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

fn write_feed(
    out: &mut Vec<u8>,
    cx: &mut Cx<'_>,
    f: &Feed<'_>,
    x: Option<&FeedExtraction<'_>>,
) -> bool {
    let mut o = Obj::begin(out);
    o.text("title", f.title.as_ref(), cx);
    o.text("subtitle", f.subtitle.as_ref(), cx);
    o.text("description", f.description.as_ref(), cx);
    o.opt_str("page_url", f.page_url);
    o.opt_str("feed_url", f.feed_url);
    o.opt_str("prev_feed_url", f.prev_feed_url);
    o.opt_str("next_feed_url", f.next_feed_url);
    o.image("icon", f.icon.as_ref());
    o.image("logo", f.logo.as_ref());
    o.date("updated", f.updated);
    o.persons("authors", &f.authors);
    write_feed_ext(&mut o, &f.ext);
    if let Some(x) = x {
        o.opt_str("title_text", x.title_text);
        o.opt_str("subtitle_text", x.subtitle_text);
        o.opt_str("description_text", x.description_text);
        o.opt_str("canonical_url", x.canonical_url);
    }
    if !f.entries.is_empty() {
        o.key("entries");
        o.out.push(b'[');
        for (i, e) in f.entries.iter().enumerate() {
            if i > 0 {
                o.out.push(b',');
            }
            write_entry(o.out, cx, f, e, x.and_then(|x| x.entries.get(i)));
        }
        o.out.push(b']');
    }
    o.end()
}

fn write_entry(
    out: &mut Vec<u8>,
    cx: &mut Cx<'_>,
    f: &Feed<'_>,
    e: &Entry<'_>,
    x: Option<&EntryExtraction<'_>>,
) -> bool {
    let mut o = Obj::begin(out);
    o.text("title", e.title.as_ref(), cx);
    o.text("subtitle", e.subtitle.as_ref(), cx);
    o.text("summary", e.summary.as_ref(), cx);
    o.text("content", e.content.as_ref(), cx);
    o.opt_str("page_url", e.page_url);
    o.image("thumbnail", e.thumbnail.as_ref());
    if let Some(d) = e.duration {
        o.uint("duration", d);
    }
    o.date("published", e.published);
    o.date("updated", e.updated);
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
    write_entry_ext(&mut o, &e.ext);
    // The spec's computed values (entry, else feed), without the "now" fallback.
    o.persons("computed_authors", f.computed_authors(e));
    o.date("computed_updated", f.computed_updated_opt(e));
    if let Some(x) = x {
        write_entry_extraction(&mut o, x);
    }
    o.end()
}

fn write_feed_ext(o: &mut Obj<'_>, x: &FeedExt<'_>) {
    o.opt_str("id", x.id);
    o.opt_str("language", x.language);
    if let Some(g) = &x.generator {
        let at = o.key("generator");
        let mut g_o = Obj::begin(o.out);
        g_o.opt_str("name", g.name);
        g_o.opt_str("uri", g.uri);
        g_o.opt_str("version", g.version);
        let wrote = g_o.end();
        o.end_value(at, wrote);
    }
    o.opt_str("rights", x.rights);
    o.opt_uint("ttl", x.ttl);
    o.array("skip_hours", &x.skip_hours, |out, h| push_uint(out, *h));
    o.array("skip_days", &x.skip_days, |out, d| json_str(out, d));
    if let Some(i) = &x.image {
        let at = o.key("image");
        let mut i_o = Obj::begin(o.out);
        i_o.opt_str("url", i.url);
        i_o.opt_str("title", i.title);
        i_o.opt_str("link", i.link);
        i_o.opt_str("description", i.description);
        i_o.opt_uint("width", i.width);
        i_o.opt_uint("height", i.height);
        i_o.opt_uint("display_width", i.display_width);
        i_o.opt_uint("display_height", i.display_height);
        let wrote = i_o.end();
        o.end_value(at, wrote);
    }
    o.array("category_details", &x.categories, write_category);
    o.persons("contributors", &x.contributors);
    if !x.itunes.is_empty() {
        let it = &x.itunes;
        let at = o.key("itunes");
        let mut i_o = Obj::begin(o.out);
        i_o.opt_bool("explicit", it.explicit);
        i_o.opt_str("type", it.kind);
        i_o.array("categories", &it.categories, |out, c| {
            let mut c_o = Obj::begin(out);
            c_o.str("text", c.text);
            c_o.array("subcategories", &c.subcategories, |out, s| json_str(out, s));
            c_o.end();
        });
        if let Some(ow) = &it.owner {
            let at = i_o.key("owner");
            let mut ow_o = Obj::begin(i_o.out);
            ow_o.opt_str("name", ow.name);
            ow_o.opt_str("email", ow.email);
            let wrote = ow_o.end();
            i_o.end_value(at, wrote);
        }
        i_o.opt_bool("block", it.block);
        i_o.opt_bool("complete", it.complete);
        i_o.opt_str("new_feed_url", it.new_feed_url);
        i_o.array("keywords", &it.keywords, |out, k| json_str(out, k));
        let wrote = i_o.end();
        o.end_value(at, wrote);
    }
    if !x.podcast.is_empty() {
        let pc = &x.podcast;
        let at = o.key("podcast");
        let mut p_o = Obj::begin(o.out);
        p_o.opt_str("guid", pc.guid);
        if let Some(l) = &pc.locked {
            p_o.key("locked");
            let mut l_o = Obj::begin(p_o.out);
            l_o.bool("locked", l.locked);
            l_o.opt_str("owner", l.owner);
            l_o.end();
        }
        p_o.array("funding", &pc.funding, |out, f| {
            let mut f_o = Obj::begin(out);
            f_o.str("url", f.url);
            f_o.opt_str("message", f.message);
            f_o.end();
        });
        p_o.array("persons", &pc.persons, write_podcast_person);
        let wrote = p_o.end();
        o.end_value(at, wrote);
    }
    o.lenient("updated_lenient", x.updated_lenient);
    o.opt_str("version", x.version);
    o.date("pub_date", x.pub_date);
    o.date("last_build_date", x.last_build_date);
    o.opt_str("updated_from", x.updated_from);
    if let Some(p) = &x.web_master {
        let at = o.key("web_master");
        let wrote = write_person(o.out, p);
        o.end_value(at, wrote);
    }
    o.opt_str("docs", x.docs);
    if let Some(c) = &x.cloud {
        let at = o.key("cloud");
        let mut c_o = Obj::begin(o.out);
        c_o.opt_str("domain", c.domain);
        c_o.opt_uint("port", c.port);
        c_o.opt_str("path", c.path);
        c_o.opt_str("register_procedure", c.register_procedure);
        c_o.opt_str("protocol", c.protocol);
        let wrote = c_o.end();
        o.end_value(at, wrote);
    }
    o.opt_str("rating", x.rating);
    if let Some(t) = &x.text_input {
        let at = o.key("text_input");
        let mut t_o = Obj::begin(o.out);
        t_o.opt_str("title", t.title);
        t_o.opt_str("description", t.description);
        t_o.opt_str("name", t.name);
        t_o.opt_str("link", t.link);
        let wrote = t_o.end();
        o.end_value(at, wrote);
    }
    if let Some(s) = &x.syndication {
        let at = o.key("syndication");
        let mut s_o = Obj::begin(o.out);
        s_o.opt_str("update_period", s.update_period);
        s_o.opt_uint("update_frequency", s.update_frequency);
        s_o.date("update_base", s.update_base);
        let wrote = s_o.end();
        o.end_value(at, wrote);
    }
    o.array("topics", &x.topics, |out, t| json_str(out, t));
    o.array("links", &x.links, write_link);
}

fn write_link(out: &mut Vec<u8>, l: &Link<'_>) {
    let mut o = Obj::begin(out);
    o.str("rel", l.rel);
    o.str("url", l.url);
    o.opt_str("type", l.mime_type);
    o.opt_str("title", l.title);
    o.opt_str("hreflang", l.hreflang);
    o.opt_uint("length", l.length);
    o.opt_uint("count", l.count);
    o.end();
}

fn write_media(out: &mut Vec<u8>, m: &MediaEntry<'_>) -> bool {
    let mut o = Obj::begin(out);
    o.array("contents", &m.contents, |out, c| {
        let mut c_o = Obj::begin(out);
        c_o.opt_str("url", c.url);
        c_o.opt_str("type", c.mime_type);
        c_o.opt_str("medium", c.medium);
        c_o.opt_uint("width", c.width);
        c_o.opt_uint("height", c.height);
        c_o.opt_uint("file_size", c.file_size);
        c_o.opt_uint("duration", c.duration);
        c_o.opt_uint("bitrate", c.bitrate);
        c_o.opt_str("lang", c.lang);
        c_o.opt_bool("is_default", c.is_default);
        c_o.opt_str("expression", c.expression);
        c_o.opt_uint("group", c.group.map(u64::from));
        c_o.end();
    });
    o.opt_str("description", m.description);
    o.array("credits", &m.credits, |out, c| {
        let mut c_o = Obj::begin(out);
        c_o.str("name", c.name);
        c_o.opt_str("role", c.role);
        c_o.opt_str("scheme", c.scheme);
        c_o.end();
    });
    o.array("ratings", &m.ratings, |out, r| {
        let mut r_o = Obj::begin(out);
        r_o.str("value", r.value);
        r_o.opt_str("scheme", r.scheme);
        r_o.end();
    });
    if let Some(p) = &m.player {
        o.key("player");
        let mut p_o = Obj::begin(o.out);
        p_o.str("url", p.url);
        p_o.opt_uint("width", p.width);
        p_o.opt_uint("height", p.height);
        p_o.end();
    }
    o.array("keywords", &m.keywords, |out, k| json_str(out, k));
    o.end()
}

fn write_entry_ext(o: &mut Obj<'_>, x: &EntryExt<'_>) {
    o.opt_str("id", x.id);
    o.opt_bool("id_is_permalink", x.id_is_permalink);
    o.opt_str("comments", x.comments);
    if let Some(s) = &x.source {
        let at = o.key("source");
        let mut s_o = Obj::begin(o.out);
        s_o.opt_str("title", s.title);
        s_o.opt_str("url", s.url);
        let wrote = s_o.end();
        o.end_value(at, wrote);
    }
    o.array("category_details", &x.categories, write_category);
    o.persons("contributors", &x.contributors);
    if !x.itunes.is_empty() {
        let it = &x.itunes;
        let at = o.key("itunes");
        let mut i_o = Obj::begin(o.out);
        i_o.opt_bool("explicit", it.explicit);
        i_o.opt_uint("episode", it.episode);
        i_o.opt_uint("season", it.season);
        i_o.opt_str("episode_type", it.episode_type);
        i_o.opt_bool("block", it.block);
        i_o.opt_str("title", it.title);
        i_o.array("keywords", &it.keywords, |out, k| json_str(out, k));
        let wrote = i_o.end();
        o.end_value(at, wrote);
    }
    if let Some(pc) = x.podcast.as_deref().filter(|p| !p.is_empty()) {
        let at = o.key("podcast");
        let mut p_o = Obj::begin(o.out);
        p_o.array("transcripts", &pc.transcripts, |out, t| {
            let mut t_o = Obj::begin(out);
            t_o.str("url", t.url);
            t_o.opt_str("type", t.mime_type);
            t_o.opt_str("language", t.language);
            t_o.opt_str("rel", t.rel);
            t_o.end();
        });
        if let Some(c) = &pc.chapters {
            let at = p_o.key("chapters");
            let mut c_o = Obj::begin(p_o.out);
            c_o.str("url", c.url);
            c_o.opt_str("type", c.mime_type);
            let wrote = c_o.end();
            p_o.end_value(at, wrote);
        }
        p_o.array("persons", &pc.persons, write_podcast_person);
        if let Some(s) = &pc.season {
            p_o.key("season");
            let mut s_o = Obj::begin(p_o.out);
            s_o.uint("number", s.number);
            s_o.opt_str("name", s.name);
            s_o.end();
        }
        if let Some(e) = &pc.episode {
            let at = p_o.key("episode");
            let mut e_o = Obj::begin(p_o.out);
            e_o.str("number", e.number);
            e_o.opt_str("display", e.display);
            let wrote = e_o.end();
            p_o.end_value(at, wrote);
        }
        let wrote = p_o.end();
        o.end_value(at, wrote);
    }
    o.lenient("published_lenient", x.published_lenient);
    o.lenient("updated_lenient", x.updated_lenient);
    o.opt_uint("comment_count", x.comment_count);
    o.opt_str("comment_feed_url", x.comment_feed_url);
    o.opt_uint("thread_total", x.thread_total);
    o.array("in_reply_to", &x.in_reply_to, |out, t| {
        let mut t_o = Obj::begin(out);
        t_o.str("id", t.id);
        t_o.opt_str("url", t.url);
        t_o.opt_str("type", t.mime_type);
        t_o.opt_str("source", t.source);
        t_o.end();
    });
    o.array("topics", &x.topics, |out, t| json_str(out, t));
    o.array("links", &x.links, write_link);
    if let Some(m) = x.media.as_deref() {
        let at = o.key("media");
        let wrote = write_media(o.out, m);
        o.end_value(at, wrote);
    }
}

fn write_entry_extraction(o: &mut Obj<'_>, x: &EntryExtraction<'_>) {
    o.opt_str("title_text", x.title_text);
    o.opt_str("subtitle_text", x.subtitle_text);
    o.opt_str("summary_text", x.summary_text);
    o.opt_str("content_text", x.content_text);
    o.opt_str("body_source", x.body_source.map(|s| s.as_str()));
    o.opt_str("body_text", x.body_text);
    o.uint("word_count", x.word_count.into());
    o.opt_str("canonical_url", x.canonical_url);
    o.opt_str("dedup_key", x.dedup_key);
    o.opt_str("dedup_source", x.dedup_source.map(|s| s.as_str()));
}

fn write_category(out: &mut Vec<u8>, c: &Category<'_>) {
    let mut o = Obj::begin(out);
    o.str("term", c.term);
    o.opt_str("scheme", c.scheme);
    o.opt_str("label", c.label);
    o.end();
}

fn write_podcast_person(out: &mut Vec<u8>, p: &PodcastPerson<'_>) {
    let mut o = Obj::begin(out);
    o.str("name", p.name);
    o.opt_str("role", p.role);
    o.opt_str("group", p.group);
    o.opt_str("img", p.img);
    o.opt_str("href", p.href);
    o.end();
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

/// Writes `s` as a quoted, escaped JSON string, byte for byte as `serde_json` writes it:
/// `"` and `\\` escaped, control characters below U+0020 as `\\b \\f \\n \\r \\t` or
/// `\\u00XX` (lowercase hex), everything else (DEL, non-ASCII) as is.
///
/// Sixteen bytes at a time (SSE2 compares, `simd::block`): the bytes to escape come out of a
/// block as a bitmask, and the runs between them are copied whole.
pub(crate) fn json_str(out: &mut Vec<u8>, s: &str) {
    out.push(b'"');
    json_escape(out, s);
    out.push(b'"');
}

/// The inside of [`json_str`]: `s` escaped, without the quotes.
#[inline(always)]
fn json_escape(out: &mut Vec<u8>, s: &str) {
    block::copy_escaped(out, s.as_bytes(), b'a', json_escaped, |b, i| escape_byte(b[i]));
}

/// The bytes JSON escapes in a block: `"`, `\\` and the controls below U+0020.
#[inline(always)]
fn json_escaped(blk: &[u8; block::BLOCK]) -> u32 {
    block::lt_mask(blk, 0x20) | block::eq_mask(blk, [b'"', b'\\'])
}

/// The inside of a JSON string as an [`HtmlOut`]: the HTML serialization of a value is
/// written straight into the line, each byte escaped once for HTML and JSON together, the
/// same bytes as [`json_str`] of [`Html::write_html`]'s string.
struct JsonHtml<'o>(&'o mut Vec<u8>);

impl HtmlOut for JsonHtml<'_> {
    #[inline(always)]
    fn markup(&mut self, s: &'static str) {
        debug_assert!(s.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\'));
        self.0.extend_from_slice(s.as_bytes());
    }
    #[inline(always)]
    fn verbatim(&mut self, s: &str) {
        // Mostly element and attribute names: short, with nothing to escape. The rest (long
        // raw text, comments) is escaped out of line, keeping the names' path small.
        #[inline(never)]
        fn long_or_escaped(out: &mut Vec<u8>, s: &str) {
            json_escape(out, s);
        }
        if !block::copy_short_clean(self.0, s.as_bytes(), b'a', json_escaped) {
            long_or_escaped(self.0, s);
        }
    }
    /// The HTML escapes (`& < >`, U+00A0, `"` in an attribute) and JSON's (`"` in text,
    /// `\\`, controls) in one scan: a byte HTML replaces becomes an entity, plain ASCII
    /// that JSON leaves as is; every other byte JSON escapes is one HTML keeps.
    #[inline(always)]
    fn escaped(&mut self, s: &str, attr: bool) {
        let [amp, lt, gt, c2] = serialize::HTML_ESCAPED;
        let flag = |blk: &[u8; block::BLOCK]| {
            block::lt_mask(blk, 0x20) | block::eq_mask(blk, [amp, lt, gt, c2, b'"', b'\\'])
        };
        let escape = |b: &[u8], i: usize| match b[i] {
            b'"' if attr => serialize::html_escape_at(b, i),
            c @ (b'"' | b'\\' | 0..0x20) => escape_byte(c),
            _ => serialize::html_escape_at(b, i),
        };
        block::copy_escaped(self.0, s.as_bytes(), b'a', flag, escape);
    }
    #[inline(always)]
    fn quote(&mut self) {
        self.0.extend_from_slice(b"\\\"");
    }
}

/// An integer in decimal (`itoa`: no formatting machinery).
fn push_uint(out: &mut Vec<u8>, v: impl itoa::Integer) {
    out.extend_from_slice(itoa::Buffer::new().format(v).as_bytes());
}

/// The JSON escape of `c` (`"`, `\\` or a control character): its bytes, their number, and
/// the one input byte it replaces.
#[inline(always)]
fn escape_byte(c: u8) -> ([u8; 8], usize, usize) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let short = match c {
        b'"' => b'"',
        b'\\' => b'\\',
        b'\n' => b'n',
        b'\r' => b'r',
        b'\t' => b't',
        0x08 => b'b',
        0x0C => b'f',
        _ => {
            let u = [b'\\', b'u', b'0', b'0', HEX[(c >> 4) as usize], HEX[(c & 15) as usize], 0, 0];
            return (u, 6, 1);
        }
    };
    ([b'\\', short, 0, 0, 0, 0, 0, 0], 2, 1)
}

/// Serializes the HTML value `h` (strictly sanitized when the record asks for it) as a JSON
/// string.
fn write_html(out: &mut Vec<u8>, cx: &mut Cx<'_>, h: &Html<'_>) {
    match cx.sanitize {
        None => {
            out.push(b'"');
            h.write_html_to(&mut JsonHtml(out));
            out.push(b'"');
        }
        Some(opts) => with_sanitized_html(h, opts, |s| json_str(out, s)),
    }
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
        // Keys are the layout's own names: nothing to escape.
        debug_assert!(key.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\'));
        self.out.push(b'"');
        self.out.extend_from_slice(key.as_bytes());
        self.out.extend_from_slice(b"\":");
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
        push_uint(self.out, v);
    }

    fn opt_uint(&mut self, key: &str, v: Option<u64>) {
        if let Some(v) = v {
            self.uint(key, v);
        }
    }

    fn bool(&mut self, key: &str, v: bool) {
        self.key(key);
        self.out.extend_from_slice(if v { b"true" } else { b"false" });
    }

    fn opt_bool(&mut self, key: &str, v: Option<bool>) {
        if let Some(v) = v {
            self.bool(key, v);
        }
    }

    /// A non-empty array of `items`, each written by `f` (elements are never dropped).
    fn array<T>(&mut self, key: &str, items: &[T], mut f: impl FnMut(&mut Vec<u8>, &T)) {
        if items.is_empty() {
            return;
        }
        self.key(key);
        self.out.push(b'[');
        for (i, it) in items.iter().enumerate() {
            if i > 0 {
                self.out.push(b',');
            }
            f(self.out, it);
        }
        self.out.push(b']');
    }

    /// `{value, zone_assumed, form}` of a lenient date.
    fn lenient(&mut self, key: &str, v: Option<&LenientDate>) {
        if let Some(l) = v {
            self.key(key);
            let mut o = Obj::begin(self.out);
            o.date("value", Some(l.timestamp));
            o.bool("zone_assumed", l.zone_assumed);
            o.str("form", l.form.as_str());
            o.end();
        }
    }

    /// A text value: `"key":"…","key_type":"text"|"html"` (the plain text, or the sanitized
    /// HTML serialized); both keys omitted when the value is empty.
    fn text(&mut self, key: &str, v: Option<&Text<'_>>, cx: &mut Cx<'_>) {
        let kind = match v {
            None => return,
            Some(Text::Plain(s)) => {
                if s.is_empty() {
                    return;
                }
                self.key(key);
                json_str(self.out, s);
                "text"
            }
            Some(Text::Html(h)) => {
                let at = self.key(key);
                let start = self.out.len();
                write_html(self.out, cx, h);
                // `""` is an empty value.
                let empty = &self.out[start..] == b"\"\"";
                self.end_value(at, !empty);
                if empty {
                    return;
                }
                "html"
            }
        };
        self.key_type(key);
        json_str(self.out, kind);
    }

    /// Writes `,"<key>_type":`.
    fn key_type(&mut self, key: &str) {
        self.out.push(b',');
        self.fields += 1;
        self.out.push(b'"');
        // Field names are fixed ASCII identifiers: no escaping needed.
        self.out.extend_from_slice(key.as_bytes());
        self.out.extend_from_slice(b"_type\":");
    }

    fn image(&mut self, key: &str, v: Option<&Image<'_>>) {
        if let Some(i) = v {
            let at = self.key(key);
            let wrote = write_image(self.out, i);
            self.end_value(at, wrote);
        }
    }

    fn date(&mut self, key: &str, v: Option<Timestamp>) {
        if let Some(t) = v {
            self.str(key, t.format_rfc3339(&mut [0; RFC3339_MAX_LEN]));
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
        encode_record(&mut out, rec);
        String::from_utf8(out).unwrap()
    }

    fn view<'r, 'a>(feed: Option<&'r Feed<'a>>) -> RecordView<'r, 'a> {
        RecordView {
            url: None,
            source: "a \"b\".xml",
            status: Status::Ok,
            error: None,
            format: Some(crate::Format::Rss2),
            encoding: Some("UTF-8"),
            diagnostics: &[],
            feed,
            extraction: None,
            sanitize: None,
            lint: None,
        }
    }

    #[test]
    fn json_str_writes_what_serde_json_writes() {
        let pieces = [
            "a", "\"", "\\", "\n", "\r", "\t", "\u{8}", "\u{c}", "\u{0}", "\u{1f}", "\u{7f}", "é",
            "\u{2028}", "😀", "abcdefgh", " ", "/",
        ];
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for len in 0..400 {
            let mut s = String::new();
            for _ in 0..len % 50 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                s.push_str(pieces[(seed % pieces.len() as u64) as usize]);
            }
            let mut out = b"x".to_vec();
            json_str(&mut out, &s);
            assert_eq!(out[1..], serde_json::to_vec(&s).unwrap()[..], "{s:?}");
        }
        // Long strings (room is reserved 4 KiB of input at a time), escapes everywhere.
        for len in [4095, 4096, 4097, 10_000] {
            let s: String = "a\"\u{1}\\é\n".repeat(len / 6 + 1).chars().take(len).collect();
            let mut out = Vec::new();
            json_str(&mut out, &s);
            assert_eq!(out, serde_json::to_vec(&s).unwrap(), "len {len}");
        }
        let mut out = Vec::new();
        json_str(&mut out, "tab\there \u{1}\"q\"\\");
        assert_eq!(out, b"\"tab\\there \\u0001\\\"q\\\"\\\\\"");
    }

    /// An HTML value written straight into the JSON string (escaped once for both) is the
    /// JSON string of its HTML serialization, whatever bytes its names, attributes and text
    /// hold.
    #[test]
    fn html_written_into_json_is_json_str_of_its_serialization() {
        let pieces = [
            "a",
            "<p>",
            "</p>",
            "<a href=\"x\\y\">",
            "<a title='q\"uo\u{1}te'>",
            "</a>",
            "<br>",
            "&amp;",
            "&lt;",
            "&gt;",
            "&nbsp;",
            "&quot;",
            "\u{a0}",
            "\u{c2}",
            "\u{c3}\u{a0}",
            "\"",
            "\\",
            "\n",
            "\t",
            "\u{1}",
            "\u{1f}",
            "\u{7f}",
            "é",
            "😀",
            "<pre>\nx</pre>",
            "<b\\c>",
            "<svg><x:y z:w=\"1\"/></svg>",
            "<img alt=\"a\u{1}b\">",
            "abcdefghijklmnopq",
            "<textarea>\n</textarea>",
            "<math xlink:href=\"u\">",
            "<table><td>",
        ];
        let arena = bumpalo::Bump::new();
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut html_values = 0;
        for len in 1..600 {
            let mut s = String::new();
            for _ in 0..len % 60 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                s.push_str(pieces[(seed % pieces.len() as u64) as usize]);
            }
            let s = arena.alloc_str(&s);
            let Some(Text::Html(h)) = crate::html::parse_escaped_html(&arena, s) else { continue };
            html_values += 1;
            let mut direct = Vec::new();
            write_html(&mut direct, &mut Cx { sanitize: None }, &h);
            let mut two_passes = Vec::new();
            json_str(&mut two_passes, &h.to_html_string());
            assert_eq!(String::from_utf8(direct).unwrap(), String::from_utf8(two_passes).unwrap());
        }
        assert!(html_values > 400, "{html_values}");
    }

    #[test]
    fn escapes_and_omits_empty() {
        let feed = Feed {
            title: Some(Text::Plain("T\n\u{1}é")),
            subtitle: Some(Text::Plain("")),
            logo: Some(Image { url: None, width: None, height: None }),
            icon: Some(Image { url: Some("http://x/i.png"), width: Some(16), height: None }),
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
            r#"{"source":"a \"b\".xml","status":"ok","format":"rss2","encoding":"UTF-8","feed":{"title":"T\n\u0001é","title_type":"text","icon":{"url":"http://x/i.png","width":16},"entries":[{},{"duration":61,"categories":["a","b\"c"],"enclosures":[{"url":"u","type":"audio/mpeg","length":3}]}]}}"#
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
        rec.error = Some(Problem { kind: "http_status", message: "HTTP status 404" });
        rec.diagnostics = &[];
        let s = encode(&rec);
        assert_eq!(
            s,
            r#"{"source":"a \"b\".xml","status":"not_a_feed","error":{"kind":"http_status","message":"HTTP status 404"},"encoding":"UTF-8"}"#
        );
    }
}
