//! JSON Feed 1.0 and 1.1 (<https://jsonfeed.org/version/1.1>), mapped into the same model as
//! the XML formats. Sniffed from the body (the first non-space character is `{`) or chosen
//! by a JSON MIME type; the format is [`Format::Json`].
//!
//! Mapping (every other member of the feed object or of an item — `user_comment`,
//! `expired`, `hubs`, `banner_image`, `external_url`, an item's `language`, extension keys
//! starting with `_`, a repeated key — is kept in its `extensions`, see below):
//!
//! | JSON Feed | model |
//! |---|---|
//! | `title`, `description` | `title`, `description` (plain text) |
//! | `home_page_url`, `feed_url`, `next_url` | `page_url`, `feed_url`, `next_feed_url` |
//! | `icon` (the large, square image), `favicon` | `logo`, `icon` |
//! | `authors` (1.1), else `author` (1.0): `name`, `url`, `avatar` | `authors`: `name`, `page_url`, `icon` |
//! | `language` | `ext.language` |
//! | `version` (`https://jsonfeed.org/version/1.1`) | `version` (`1.1`) |
//! | item `id` (a number is coerced to its text as written, as the spec asks, whatever its size) | entry `ext.id` |
//! | item `url` | entry `page_url` |
//! | item `title`, `summary` | entry `title`, `summary` (plain text) |
//! | item `content_html`, else `content_text` | entry `content` (HTML parsed and sanitized as RSS `description` is; text as is) |
//! | item `image` | entry `thumbnail` |
//! | item `date_published`, `date_modified` | entry `published`, `updated` (RFC 3339; else the lenient reader, in `ext.*_lenient`) |
//! | item `tags` | entry `categories` |
//! | item `attachments`: `url`, `mime_type`, `size_in_bytes`, `title`, `duration_in_seconds` | entry `enclosures`: `url`, `mime_type`, `length`, `title`, `duration` |
//! | any other member of the feed or an item | `extensions` rows (no namespace, no attributes) |
//!
//! Extension capture of JSON (as for XML elements no table reads, within the same
//! `max_extension_*` budget, off with `skip_extensions`): a member is a row named by its key;
//! a string, number or boolean is the row's `text` (a string unescaped and trimmed, a number
//! or boolean as written; `null` or a blank string: no text); an object is a row whose
//! members are its child rows (`path` `_ext/key`); an array is one row per element, each named
//! by the array's key (as repeated XML elements are), so `"hubs": [{"type": "WebSub", "url":
//! "…"}]` is a `hubs` row with `type` and `url` children.
//!
//! Robustness: malformed JSON is not a feed (a `not_a_feed` diagnostic says where); a member
//! of the wrong type is ignored with an `invalid_json` diagnostic, and so is a repeated
//! member this table reads (its first value is read; the later ones are `extensions` rows);
//! a `\u` escape of a lone surrogate (`"\ud800"`, valid JSON syntax but no character;
//! serde_json rejects its whole string) is read as U+FFFD, in values and keys alike, with an
//! `invalid_character` diagnostic at the escape; only the members above and, with capture
//! on, the captured rows are built (anything else is skipped by the JSON scanner), so memory
//! is bounded by the kept values:
//! items past `max_entries` and list members past it are skipped and counted; text longer than
//! `max_text_bytes` is cut (values kept; `version`, which only recognizes the format, is read
//! whole). Diagnostics past `max_diagnostics` are counted, with one `limit_reached` marker, as
//! for XML documents. Nesting depth is bounded by serde_json's recursion limit (128). URLs
//! resolve against the document's base URL; one that does not is never dropped silently
//! (`relative_url` keeps a relative one as written when there is no base URL).

use std::borrow::Cow;
use std::fmt;

use bumpalo::Bump;
use serde::de::{self, Deserializer as _, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use url::Url;

use crate::format::ext::{CaptureBudget, Seen, CAPTURE_SPENT, ROW_BYTES};
use crate::lint::{member_start, Collector, JsonMember};
use crate::model::date::parse_rfc3339;
use crate::model::ext::Extension;
use crate::model::lenient_date::parse_lenient;
use crate::model::url::{resolve_within, UrlBudget};
use crate::model::{Enclosure, Entry, Feed, Image, Person, Text};
use crate::{Diagnostic, DiagnosticKind, Format, Limits, Parsed};

/// Whether `document` looks like JSON (its first non-space character is `{`): the sniff
/// that sends a body to this reader instead of the XML one.
pub fn looks_like_json(document: &str) -> bool {
    document.trim_start_matches(['\u{FEFF}', ' ', '\t', '\n', '\r']).starts_with('{')
}

/// Processes a JSON Feed document (decoded text) with `base` as its URL; members no table
/// reads are kept as `extensions` when `capture_extensions`. With `lint`, the JSON Feed
/// rules run as the members are read ([`crate::lint`]): the feed object's and each item's
/// members are handed to the lint, and `Parsed::lint` is its report (a JSON object without a
/// JSON Feed `version` is linted too, though not a feed).
pub fn process_document<'a>(
    arena: &'a Bump,
    document: &'a str,
    base: &Url,
    recover: bool,
    limits: &Limits,
    capture_extensions: bool,
    lint: Option<&crate::lint::LintOptions>,
) -> Parsed<'a> {
    let mut cx = Cx {
        arena,
        document,
        base,
        recover,
        unresolved: 0,
        malformed: 0,
        html_urls: 0,
        url_budget: super::url_budget(document, limits),
        limits,
        capture: capture_extensions.then(|| CaptureBudget::new(limits)),
        diagnostics: Vec::new(),
        diagnostics_dropped: 0,
        lint: lint.map(|o| Collector::new(document, arena, o, limits.max_diagnostics)),
    };
    // A `\u` escape of a lone surrogate is valid JSON syntax but no character, and serde_json
    // rejects the whole string or key holding it: each is read as the escape of U+FFFD, in a
    // copy of the document rewritten in place (same length, so offsets hold).
    let lone = lone_surrogate_escapes(document);
    if !lone.is_empty() {
        let mut repaired = document.to_owned();
        for &at in &lone {
            let escape = &document[at..at + 6];
            let msg = format!("the escape {escape} is a lone surrogate; read as U+FFFD");
            cx.diag(DiagnosticKind::InvalidCharacter, at, msg);
            repaired.replace_range(at..at + 6, "\\ufffd");
        }
        cx.document = arena.alloc_str(&repaired);
    }
    let feed = read_feed(&mut cx);
    if cx.url_budget.spent() {
        cx.diag(DiagnosticKind::LimitReached, 0, super::url_budget_message(document, limits));
    }
    for (kind, msg) in super::unresolved_urls(recover, cx.unresolved, cx.malformed) {
        cx.diag(kind, 0, msg);
    }
    if let Some(msg) = super::html_url_message(cx.html_urls) {
        cx.diag(DiagnosticKind::Recovered, 0, msg);
    }
    let format = feed.is_some().then_some(Format::Json);
    let lint = cx.lint.map(Collector::finish);
    let max_inherited_bytes = limits.max_inherited_bytes;
    Parsed { feed, format, diagnostics: cx.diagnostics, encoding: None, lint, max_inherited_bytes }
}

struct Cx<'a, 'c> {
    arena: &'a Bump,
    document: &'a str,
    base: &'c Url,
    /// Whether the web recovery rules apply (here: `relative_url`).
    recover: bool,
    /// Relative URLs with no base URL to resolve them against (kept as written by
    /// `relative_url`, else left out) and URLs that do not parse (left out): counted for one
    /// diagnostic each per document.
    unresolved: usize,
    malformed: usize,
    /// Relative URLs of `content_html` resolved against the base URL (the recovery rule
    /// `html_url`, `super::common::Ctx::html_urls`): counted for one diagnostic.
    html_urls: usize,
    /// What resolving relative URLs may still add ([`crate::Limits::max_url_growth`]).
    url_budget: UrlBudget,
    limits: &'c Limits,
    /// What extension capture may still keep (`None`: capture off).
    capture: Option<CaptureBudget>,
    diagnostics: Vec<Diagnostic>,
    /// Diagnostics past `max_diagnostics`, counted ([`crate::error::record_capped`]).
    diagnostics_dropped: usize,
    /// The lint collector, when linting ([`crate::Options::lint`]).
    lint: Option<Collector<'a>>,
}

const FEED_KEYS: [&str; 11] = [
    "version",
    "title",
    "home_page_url",
    "feed_url",
    "description",
    "next_url",
    "icon",
    "favicon",
    "authors",
    "author",
    "language",
];
const ITEMS: &str = "items";
const ITEM_KEYS: [&str; 12] = [
    "id",
    "url",
    "title",
    "content_html",
    "content_text",
    "summary",
    "image",
    "date_published",
    "date_modified",
    "authors",
    "author",
    "tags",
];
const ATTACHMENTS: &str = "attachments";

fn read_feed<'a>(cx: &mut Cx<'a, '_>) -> Option<Feed<'a>> {
    let doc = cx.document;
    let mut keys: Vec<&str> = FEED_KEYS.to_vec();
    keys.push(ITEMS);
    // The lint sees every member (extension capture or not).
    let keep_others = cx.capture.is_some() || cx.lint.is_some();
    let (top, others, repeated) =
        match object(doc.trim_start_matches('\u{FEFF}'), &keys, keep_others) {
            Ok(Some(top)) => top,
            Ok(None) => {
                cx.diag(DiagnosticKind::NotAFeed, 0, "the JSON document is not an object");
                return None;
            }
            Err(e) => {
                let offset = offset_of_line_column(doc, e.line(), e.column());
                cx.diag(DiagnosticKind::NotAFeed, offset, format!("the document is not JSON: {e}"));
                return None;
            }
        };
    cx.repeated(&keys, &repeated, "");
    if cx.lint.is_some() {
        let start = doc.len() - doc.trim_start_matches(['\u{FEFF}', ' ', '\t', '\n', '\r']).len();
        let members = cx.members(&keys, &top, &others);
        if let Some(l) = &mut cx.lint {
            l.json_feed(start, &members);
        }
    }
    let [version, title, home_page_url, feed_url, description, next_url, icon, favicon, authors, author, language, items] =
        top[..]
    else {
        unreachable!("one slot per key")
    };
    // Read whole: the text limit applies to values kept, not to recognizing the format.
    const VERSION: &str = "https://jsonfeed.org/version/";
    let written = match version.and_then(|v| cx.string_whole(v, "version")) {
        Some(v) if v.starts_with(VERSION) => (version, v),
        Some(v) => {
            let msg = format!("version {v:?} is not a JSON Feed version");
            cx.diag(DiagnosticKind::NotAFeed, cx.offset(version), msg);
            return None;
        }
        None => {
            let msg = "a JSON object without a JSON Feed `version` is not a feed";
            cx.diag(DiagnosticKind::NotAFeed, 0, msg);
            return None;
        }
    };
    let mut feed = Feed {
        title: title.and_then(|v| cx.string(v, "title")).map(Text::Plain),
        description: description.and_then(|v| cx.string(v, "description")).map(Text::Plain),
        page_url: home_page_url.and_then(|v| cx.url(v, "home_page_url")),
        feed_url: feed_url.and_then(|v| cx.url(v, "feed_url")),
        next_feed_url: next_url.and_then(|v| cx.url(v, "next_url")),
        logo: icon.and_then(|v| cx.url(v, "icon")).map(image),
        icon: favicon.and_then(|v| cx.url(v, "favicon")).map(image),
        authors: cx.authors(authors, author),
        ..Feed::default()
    };
    feed.language = language.and_then(|v| cx.string(v, "language"));
    feed.extensions = cx.extensions(others);
    // `https://jsonfeed.org/version/1.1` is version `1.1` (cut to max_text_bytes, as values
    // are).
    if let (Some(raw), v) = written {
        let number = v[VERSION.len()..].trim_end_matches('/');
        feed.version = Some(cx.cut(raw, "version", number)).filter(|v| !v.is_empty());
    }
    if let Some(items) = items {
        for item in cx.array(items, "items", cx.limits.max_entries) {
            if let Some(entry) = cx.item(item) {
                super::common::push_entry(&mut feed.entries, entry);
            }
        }
    }
    Some(feed)
}

fn image(url: &str) -> Image<'_> {
    Image { url: Some(url), ..Image::default() }
}

impl<'a> Cx<'a, '_> {
    fn diag(&mut self, kind: DiagnosticKind, offset: usize, message: impl Into<String>) {
        crate::error::record_capped(
            &mut self.diagnostics,
            &mut self.diagnostics_dropped,
            self.limits.max_diagnostics,
            kind,
            offset,
            message,
        );
    }

    /// The members of an object for the lint: the values of `keys` found (`slots`) and the
    /// other members, each at its key.
    fn members(
        &self,
        keys: &[&str],
        slots: &[Option<&'a RawValue>],
        others: &Others<'a>,
    ) -> Vec<JsonMember<'a>> {
        let found = keys.iter().zip(slots).filter_map(|(&k, v)| Some((k, (*v)?)));
        let all = found.chain(others.iter().map(|(k, v)| (self.key(k.clone()), *v)));
        all.map(|(key, raw)| {
            let key: &'a str = self.arena.alloc_str(key);
            let value = self.offset(Some(raw));
            JsonMember { key, at: member_start(self.document, value), value, json: raw.get() }
        })
        .collect()
    }

    /// The byte offset of a value in the document (0 when there is none).
    fn offset(&self, raw: Option<&'a RawValue>) -> usize {
        raw.map_or(0, |r| {
            (r.get().as_ptr() as usize).saturating_sub(self.document.as_ptr() as usize)
        })
    }

    /// An `invalid_json` diagnostic for each later value of a key an object repeats
    /// (`keys[i]`, named `within.key`, or `key` when `within` is empty): its first value is
    /// the one read.
    fn repeated(&mut self, keys: &[&str], repeated: &Repeated<'a>, within: &str) {
        for &(i, raw) in repeated {
            let offset = self.offset(Some(raw));
            let dot = if within.is_empty() { "" } else { "." };
            let msg = format!("`{within}{dot}{}` is repeated; its first value is used", keys[i]);
            self.diag(DiagnosticKind::InvalidJson, offset, msg);
        }
    }

    fn wrong_type(&mut self, raw: &'a RawValue, field: &str, expected: &str) {
        let offset = self.offset(Some(raw));
        self.diag(
            DiagnosticKind::InvalidJson,
            offset,
            format!("`{field}` is not {expected}; ignored"),
        );
    }

    /// A non-empty string member, unescaped (borrowed when it has no escapes), cut at
    /// `max_text_bytes`.
    fn string(&mut self, raw: &'a RawValue, field: &str) -> Option<&'a str> {
        let s = self.string_whole(raw, field)?;
        Some(self.cut(raw, field, s)).filter(|s| !s.trim().is_empty())
    }

    /// A string member, unescaped (borrowed when it has no escapes), whole.
    fn string_whole(&mut self, raw: &'a RawValue, field: &str) -> Option<&'a str> {
        let text = raw.get();
        let s = self.unescaped(text);
        if s.is_none() && text != "null" {
            self.wrong_type(raw, field, "a string");
        }
        s
    }

    /// The JSON string `text` unescaped: borrowed when it has no escapes, else copied into
    /// the arena; `None` when `text` is not a string.
    fn unescaped(&self, text: &'a str) -> Option<&'a str> {
        match serde_json::from_str::<&'a str>(text) {
            Ok(s) => Some(s),
            Err(_) => serde_json::from_str::<String>(text).ok().map(|s| &*self.arena.alloc_str(&s)),
        }
    }

    /// `s`, the value of `raw`, cut at `max_text_bytes` (recorded).
    fn cut(&mut self, raw: &'a RawValue, field: &str, s: &'a str) -> &'a str {
        let max = self.limits.max_text_bytes;
        if s.len() > max {
            let offset = self.offset(Some(raw));
            self.diag(
                DiagnosticKind::LimitReached,
                offset,
                format!("`{field}` longer than max_text_bytes ({max}); cut"),
            );
            &s[..crate::xml::floor_char_boundary(s, max)]
        } else {
            s
        }
    }

    /// The recovery rule `html_url` on `content_html`: its relative URLs resolved against the
    /// base URL (a JSON Feed has no `xml:base`), within the URL budget.
    fn html_urls(&mut self, v: Text<'a>) -> Text<'a> {
        let Text::Html(h) = v else { return v };
        if !self.recover || self.base.cannot_be_a_base() {
            return v;
        }
        let (arena, budget) = (self.arena, &self.url_budget);
        let mut n = 0;
        let h = crate::html::urls::resolve_urls(arena, h, self.base, false, |base, u| {
            let url = super::common::html_url_within(arena, base, u, budget)?;
            n += 1;
            Some(url)
        });
        self.html_urls += n;
        Text::Html(h)
    }

    /// A URL member, resolved against the base URL. One that does not resolve is counted: a
    /// relative reference with no base URL is kept as written by the rule `relative_url`
    /// (left out with `spec_exact`), a URL that does not parse is left out.
    fn url(&mut self, raw: &'a RawValue, field: &str) -> Option<&'a str> {
        let s = self.string(raw, field)?.trim();
        if let Some(url) = resolve_within(self.arena, self.base, s, &self.url_budget) {
            return Some(url);
        }
        if s.is_empty() {
            return None;
        }
        let relative = matches!(Url::parse(s), Err(url::ParseError::RelativeUrlWithoutBase));
        if relative && self.base.cannot_be_a_base() {
            self.unresolved += 1;
            return self.recover.then_some(s);
        }
        self.malformed += 1;
        None
    }

    /// The members of an array (at most `cap`; the rest are skipped and counted).
    fn array(&mut self, raw: &'a RawValue, field: &str, cap: usize) -> Vec<&'a RawValue> {
        match array(raw.get(), cap) {
            Ok(Some((members, skipped))) => {
                if skipped > 0 {
                    self.members_skipped(raw, field, skipped, cap);
                }
                members
            }
            _ => {
                if raw.get() != "null" {
                    self.wrong_type(raw, field, "an array");
                }
                Vec::new()
            }
        }
    }

    /// The `limit_reached` diagnostic of `skipped` members of list `field` (at `raw`) past
    /// the limit `cap`.
    fn members_skipped(&mut self, raw: &'a RawValue, field: &str, skipped: usize, cap: usize) {
        let offset = self.offset(Some(raw));
        let s = if skipped == 1 { "" } else { "s" };
        let msg = format!("`{field}`: {skipped} member{s} past the limit of {cap} skipped");
        self.diag(DiagnosticKind::LimitReached, offset, msg);
    }

    /// The named members of an object member (`None` for another type, with a diagnostic).
    fn object<const N: usize>(
        &mut self,
        raw: &'a RawValue,
        field: &str,
        keys: [&str; N],
    ) -> Option<[Option<&'a RawValue>; N]> {
        match object(raw.get(), &keys, false) {
            Ok(Some((v, _, repeated))) => {
                self.repeated(&keys, &repeated, field);
                v.try_into().ok()
            }
            _ => {
                if raw.get() != "null" {
                    self.wrong_type(raw, field, "an object");
                }
                None
            }
        }
    }

    /// `authors` (JSON Feed 1.1), else the 1.0 `author` object.
    fn authors(
        &mut self,
        authors: Option<&'a RawValue>,
        author: Option<&'a RawValue>,
    ) -> Vec<Person<'a>> {
        let cap = self.limits.max_entries;
        let list = match (authors, author) {
            (Some(list), _) => self.array(list, "authors", cap),
            // The one 1.0 author is a list of one, capped as the 1.1 list is.
            (None, Some(one)) if cap == 0 => {
                self.members_skipped(one, "author", 1, cap);
                return Vec::new();
            }
            (None, Some(one)) => vec![one],
            (None, None) => return Vec::new(),
        };
        let mut people = Vec::new();
        for raw in list {
            let Some([name, url, avatar]) = self.object(raw, "author", ["name", "url", "avatar"])
            else {
                continue;
            };
            let person = Person {
                name: name.and_then(|v| self.string(v, "author.name")),
                email: None,
                page_url: url.and_then(|v| self.url(v, "author.url")),
                icon: avatar.and_then(|v| self.url(v, "author.avatar")).map(image),
            };
            if person.name.is_some() || person.page_url.is_some() || person.icon.is_some() {
                people.push(person);
            }
        }
        people
    }

    fn item(&mut self, raw: &'a RawValue) -> Option<Entry<'a>> {
        let mut keys: Vec<&str> = ITEM_KEYS.to_vec();
        keys.push(ATTACHMENTS);
        let keep_others = self.capture.is_some() || self.lint.is_some();
        let (fields, others, repeated) = match object(raw.get(), &keys, keep_others) {
            Ok(Some(f)) => f,
            _ => {
                self.wrong_type(raw, "items[]", "an object");
                let at = self.offset(Some(raw));
                if let Some(l) = &mut self.lint {
                    l.json_item_not_object(at, raw.get());
                }
                return None;
            }
        };
        self.repeated(&keys, &repeated, "items[]");
        if self.lint.is_some() {
            let members = self.members(&keys, &fields, &others);
            let at = self.offset(Some(raw));
            if let Some(l) = &mut self.lint {
                l.json_item(at, &members);
            }
        }
        let [id, url, title, content_html, content_text, summary, image_url, date_published, date_modified, authors, author, tags, attachments] =
            fields[..]
        else {
            unreachable!("one slot per key")
        };
        let mut entry = Entry { id: id.and_then(|v| self.id(v)), ..Entry::default() };
        entry.extensions = self.extensions(others);
        entry.page_url = url.and_then(|v| self.url(v, "url"));
        entry.title = title.and_then(|v| self.string(v, "title")).map(Text::Plain);
        entry.summary = summary.and_then(|v| self.string(v, "summary")).map(Text::Plain);
        entry.content = content_html
            .and_then(|v| {
                let html = self.string(v, "content_html")?;
                let (arena, limits) = (self.arena, self.limits);
                super::common::escaped_html_within(arena, html, limits, |msg| {
                    let at = self.offset(Some(v));
                    self.diag(DiagnosticKind::LimitReached, at, msg)
                })
                .value_with_urls(|v| v.map(|v| self.html_urls(v)))
            })
            .or_else(|| content_text.and_then(|v| self.string(v, "content_text")).map(Text::Plain));
        entry.thumbnail = image_url.and_then(|v| self.url(v, "image")).map(image);
        if let Some(v) = date_published {
            (entry.published, entry.published_lenient, entry.published_raw) =
                self.date(v, "date_published");
        }
        if let Some(v) = date_modified {
            (entry.updated, entry.updated_lenient, entry.updated_raw) =
                self.date(v, "date_modified");
        }
        entry.authors = self.authors(authors, author);
        if let Some(tags) = tags {
            // The spec's "add term to categories" (unique, first-seen order) through an index:
            // a scan of the terms kept made 128k tags quadratic (x16 the work of 32k).
            let mut seen = Seen::default();
            for tag in self.array(tags, "tags", self.limits.max_entries) {
                if let Some(t) = self.string(tag, "tags[]") {
                    seen.add_term(&mut entry.categories, t);
                }
            }
        }
        if let Some(list) = attachments {
            for raw in self.array(list, "attachments", self.limits.max_entries) {
                let keys = ["url", "mime_type", "size_in_bytes", "title", "duration_in_seconds"];
                let Some([url, mime, size, title, duration]) =
                    self.object(raw, "attachments[]", keys)
                else {
                    continue;
                };
                let size = size.and_then(|v| {
                    let n = serde_json::from_str::<u64>(v.get()).ok();
                    if n.is_none() && v.get() != "null" {
                        self.wrong_type(v, "size_in_bytes", "a non-negative integer");
                    }
                    n
                });
                // A number of seconds, possibly with a fraction (cut).
                let duration = duration.and_then(|v| {
                    let n = serde_json::from_str::<f64>(v.get())
                        .ok()
                        .filter(|d| d.is_finite() && *d >= 0.0 && *d < u64::MAX as f64);
                    if n.is_none() && v.get() != "null" {
                        self.wrong_type(v, "duration_in_seconds", "a non-negative number");
                    }
                    n.map(|d| d as u64)
                });
                let enclosure = Enclosure {
                    url: url.and_then(|v| self.url(v, "attachments[].url")),
                    mime_type: mime.and_then(|v| self.string(v, "mime_type")),
                    length: size,
                    title: title.and_then(|v| self.string(v, "attachments[].title")),
                    duration,
                    source: Some("attachment"),
                };
                if enclosure.url.is_some() {
                    entry.enclosures.push(enclosure);
                }
            }
        }
        Some(entry)
    }

    /// The rows of `members` (the feed's or an item's members no table read), in order.
    fn extensions(&mut self, members: Others<'a>) -> Vec<Extension<'a>> {
        let mut out = Vec::new();
        for (key, raw) in members {
            let name = self.key(key);
            self.capture_member(name, raw, None, 1, &mut out);
        }
        out
    }

    /// A key as a string of the document's lifetime (copied only when it had escapes).
    fn key(&self, key: Cow<'a, str>) -> &'a str {
        match key {
            Cow::Borrowed(k) => k,
            Cow::Owned(k) => self.arena.alloc_str(&k),
        }
    }

    /// The rows of one member named `name` (see the module docs) under the row `parent`, at
    /// nesting `depth` (1: a member of the feed or item).
    fn capture_member(
        &mut self,
        name: &'a str,
        raw: &'a RawValue,
        parent: Option<usize>,
        depth: usize,
        out: &mut Vec<Extension<'a>>,
    ) {
        let Some(budget) = &self.capture else { return };
        if budget.spent() {
            return;
        }
        if depth > budget.max_depth() {
            let max = budget.max_depth();
            let msg = format!(
                "extension member `{name}` deeper than max_extension_depth ({max}); skipped \
                 with its content"
            );
            self.diag(DiagnosticKind::LimitReached, self.offset(Some(raw)), msg);
            return;
        }
        let json = raw.get();
        if json.starts_with('[') {
            // Each element a row of the array's name, beside each other (as repeated XML
            // elements are); nested arrays flatten likewise, each level counted as one of
            // depth. Read at most as many elements as rows are allowed.
            if let Ok(Some((members, _))) = array(json, self.limits.max_extension_elements) {
                for m in members {
                    let nested = m.get().starts_with('[');
                    self.capture_member(name, m, parent, depth + usize::from(nested), out);
                }
            }
            return;
        }
        let text = match json.as_bytes().first() {
            Some(b'{') | Some(b'n') => None,
            Some(b'"') => self.unescaped(json),
            _ => Some(json),
        };
        let Some(row) = self.capture_row(name, raw, parent, text, out) else { return };
        if json.starts_with('{') {
            if let Ok(Some((_, members, _))) = object(json, &[], true) {
                for (key, m) in members {
                    let key = self.key(key);
                    self.capture_member(key, m, Some(row), depth + 1, out);
                }
            }
        }
    }

    /// Pushes the row of `name` with `text` (trimmed; cut to the budget) onto `out`: its
    /// index, or `None` when the budget does not allow it (recorded once).
    fn capture_row(
        &mut self,
        name: &'a str,
        raw: &'a RawValue,
        parent: Option<usize>,
        text: Option<&'a str>,
        out: &mut Vec<Extension<'a>>,
    ) -> Option<usize> {
        let budget = self.capture.as_ref()?;
        let path: &'a str = match parent {
            None => name,
            Some(p) => bumpalo::format!(in self.arena, "{}/{name}", out[p].path).into_bump_str(),
        };
        if !budget.take(ROW_BYTES + path.len() + name.len()) {
            if budget.spend_first() {
                self.diag(DiagnosticKind::LimitReached, self.offset(Some(raw)), CAPTURE_SPENT);
            }
            return None;
        }
        let mut cut = false;
        let text = text.map(str::trim).filter(|t| !t.is_empty()).map(|t| {
            let n = budget.take_text(t.len());
            cut = n < t.len();
            &t[..crate::xml::floor_char_boundary(t, n)]
        });
        let text = text.filter(|t| !t.is_empty());
        if cut && budget.spend_first() {
            self.diag(DiagnosticKind::LimitReached, self.offset(Some(raw)), CAPTURE_SPENT);
        }
        out.push(Extension {
            path,
            parent: parent.map(|p| p as u64),
            name,
            text,
            ..Extension::default()
        });
        Some(out.len() - 1)
    }

    /// An item id: a string, or a number coerced to its text as written (JSON Feed 1.1: "If
    /// an id is presented as a number or other type, a JSON Feed reader must coerce it to a
    /// string"), also one too large for a double (`123456789012345678901234567890`, `1e400`):
    /// the raw value is valid JSON, so a value starting with `-` or a digit is a number.
    fn id(&mut self, raw: &'a RawValue) -> Option<&'a str> {
        let text = raw.get();
        if text.starts_with('"') {
            self.string(raw, "id")
        } else if text.starts_with(|c: char| c == '-' || c.is_ascii_digit()) {
            Some(self.cut(raw, "id", text))
        } else if text == "true" || text == "false" {
            Some(text)
        } else {
            if text != "null" {
                self.wrong_type(raw, "id", "a string or a number");
            }
            None
        }
    }

    /// An RFC 3339 date; else the lenient reading (spec field `None`); with the text as
    /// written when it is not the value's RFC 3339 form (`model::date::as_written`).
    fn date(
        &mut self,
        raw: &'a RawValue,
        field: &str,
    ) -> (
        Option<crate::Timestamp>,
        Option<&'a crate::model::lenient_date::LenientDate>,
        Option<&'a str>,
    ) {
        let Some(s) = self.string(raw, field) else { return (None, None, None) };
        match parse_rfc3339(s.trim()) {
            Some(t) => (Some(t), None, crate::model::date::as_written(s, &t)),
            None => match parse_lenient(s) {
                Some(l) => (None, Some(&*self.arena.alloc(l)), Some(s)),
                None => {
                    let offset = self.offset(Some(raw));
                    let v = crate::format::common::quoted(s.trim());
                    let msg = format!("`{field}` {v} is not a date; left out");
                    self.diag(DiagnosticKind::InvalidValue, offset, msg);
                    (None, None, None)
                }
            },
        }
    }
}

/// The offsets of the `\u` escapes of lone surrogates in `doc` (a high surrogate not
/// directly followed by the escape of a low one, or a low one not directly after a high
/// one). One pass: in JSON a `\` is only ever inside a string, where it starts an escape.
fn lone_surrogate_escapes(doc: &str) -> Vec<usize> {
    let b = doc.as_bytes();
    // The code unit of a `\uXXXX` escape at `i`.
    let unit = |i: usize| {
        let hex = b.get(i + 2..i + 6).filter(|_| b[i + 1] == b'u')?;
        let hex = std::str::from_utf8(hex).ok()?;
        hex.bytes().all(|c| c.is_ascii_hexdigit()).then(|| u16::from_str_radix(hex, 16).ok())?
    };
    let (mut lone, mut high): (Vec<usize>, Option<usize>) = (Vec::new(), None);
    let mut i = 0;
    while let Some(p) = memchr::memchr(b'\\', &b[i..]) {
        i += p;
        let u = unit(i);
        match (high.take(), u) {
            (Some(h), Some(0xDC00..=0xDFFF)) if h + 6 == i => {}
            (pending, u) => {
                lone.extend(pending);
                match u {
                    Some(0xD800..=0xDBFF) => high = Some(i),
                    Some(0xDC00..=0xDFFF) => lone.push(i),
                    _ => {}
                }
            }
        }
        i = (i + if u.is_some() { 6 } else { 2 }).min(b.len());
    }
    lone.extend(high);
    lone
}

/// The byte offset of a serde_json error position (1-based line, column in bytes).
fn offset_of_line_column(doc: &str, line: usize, column: usize) -> usize {
    let start: usize = doc.split_inclusive('\n').take(line.saturating_sub(1)).map(str::len).sum();
    crate::xml::floor_char_boundary(doc, (start + column.saturating_sub(1)).min(doc.len()))
}

/// The `visit_*` methods of a visitor whose `Value` is an `Option`, for the scalar JSON types:
/// valid JSON of another type than the one looked for is `Ok(None)`.
macro_rules! scalars_are_none {
    () => {
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
    };
}

/// The members of an object that none of the keys looked for took (a repeated key's later
/// values included), in document order: key and raw value.
type Others<'a> = Vec<(Cow<'a, str>, &'a RawValue)>;

/// The later values of keys looked for that an object repeats: the key's index and the value.
type Repeated<'a> = Vec<(usize, &'a RawValue)>;

/// An object's values of the keys looked for (one slot per key), its other members and the
/// repeated keys looked for.
type Members<'a> = (Vec<Option<&'a RawValue>>, Others<'a>, Repeated<'a>);

/// Reads a JSON object keeping the first value of each of `keys` (raw, unparsed) and, when
/// `keep_others`, every other member (raw), a repeated key's later values included; other
/// members are skipped without being built. `Ok(None)` when `json` is valid JSON of another
/// type.
fn object<'a>(
    json: &'a str,
    keys: &[&str],
    keep_others: bool,
) -> serde_json::Result<Option<Members<'a>>> {
    let mut de = serde_json::Deserializer::from_str(json);
    let found = de.deserialize_any(ObjectVisitor { keys, keep_others })?;
    de.end()?;
    Ok(found)
}

struct ObjectVisitor<'k> {
    keys: &'k [&'k str],
    keep_others: bool,
}

impl<'de> Visitor<'de> for ObjectVisitor<'_> {
    type Value = Option<Members<'de>>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut found = vec![None; self.keys.len()];
        let (mut others, mut repeated) = (Vec::new(), Vec::new());
        while let Some(key) = map.next_key::<Key<'de>>()? {
            match self.keys.iter().position(|k| *k == key.0.as_ref()) {
                Some(i) if found[i].is_none() => found[i] = Some(map.next_value::<&RawValue>()?),
                Some(i) => {
                    let value = map.next_value::<&RawValue>()?;
                    repeated.push((i, value));
                    if self.keep_others {
                        others.push((key.0, value));
                    }
                }
                None if self.keep_others => others.push((key.0, map.next_value::<&RawValue>()?)),
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(Some((found, others, repeated)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(None)
    }

    scalars_are_none!();
}

/// An object key: borrowed from the document unless it has escapes.
struct Key<'de>(Cow<'de, str>);

impl<'de> de::Deserialize<'de> for Key<'de> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string key")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
        }
        d.deserialize_str(KeyVisitor)
    }
}

/// The first `cap` members of a JSON array (raw) and how many more were skipped; `Ok(None)`
/// for valid JSON of another type.
fn array(json: &str, cap: usize) -> serde_json::Result<Option<(Vec<&RawValue>, usize)>> {
    struct ArrayVisitor {
        cap: usize,
    }
    impl<'de> Visitor<'de> for ArrayVisitor {
        type Value = Option<(Vec<&'de RawValue>, usize)>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a JSON array")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut members = Vec::new();
            while members.len() < self.cap {
                match seq.next_element::<&RawValue>()? {
                    Some(m) => members.push(m),
                    None => return Ok(Some((members, 0))),
                }
            }
            let mut skipped = 0;
            while seq.next_element::<IgnoredAny>()?.is_some() {
                skipped += 1;
            }
            Ok(Some((members, skipped)))
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            Ok(None)
        }
        scalars_are_none!();
    }
    let mut de = serde_json::Deserializer::from_str(json);
    let found = de.deserialize_any(ArrayVisitor { cap })?;
    de.end()?;
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::lone_surrogate_escapes;

    #[test]
    fn lone_surrogate_escapes_are_found_and_truncated_escapes_never_panic() {
        let cases: &[(&str, &[usize])] = &[
            (r#""\ud800""#, &[1]),
            (r#""\ud800\udc00""#, &[]),
            (r#""\udc00\ud800""#, &[1, 7]),
            (r#""\ud800x\udc00""#, &[1, 8]),
            (r#""\\ud800""#, &[]),
            (r#""\\\ud800""#, &[3]),
            (r#""\ud83d\ude00\ud83d""#, &[13]),
            (r#""\u00e9\n\t""#, &[]),
        ];
        for &(doc, want) in cases {
            assert_eq!(lone_surrogate_escapes(doc), want, "{doc}");
        }
        for doc in ["\\", "\"\\u", "\"\\ud8", "\"\\ud80", "\"\\ud800", "\\\\\\", "\\u\u{e9}\u{e9}"]
        {
            let _ = lone_surrogate_escapes(doc);
        }
        assert_eq!(lone_surrogate_escapes("\"\\ud800"), [1]);
    }
}
