//! JSON Feed 1.1's rules (<https://www.jsonfeed.org/version/1.1/>; version 1 feeds too),
//! with feedmill's classes named in the Feed Validator's style: the JSON Feed reader
//! (`format::json_feed`) hands the lint the members of the feed object and of each item as
//! it reads them (key, position, raw JSON value), and the lint checks required members,
//! every member's JSON type, the version, URLs, RFC 3339 dates, unique item ids, item
//! content, authors (and `author`'s deprecation), attachments and hubs; the small nested
//! values (`authors`, `attachments`, `hubs`, `tags`) are read from the raw value given.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde_json::value::RawValue;

use super::values;
use super::*;
use crate::lint::Code;

/// One member of a JSON object, as the JSON Feed reader hands it to the lint.
pub(crate) struct JsonMember<'a> {
    /// The key, unescaped.
    pub key: &'a str,
    /// The offset of the member in the document: its key's opening quote (the value's start
    /// when the key cannot be found before it: [`member_start`]).
    pub at: usize,
    /// The offset of the value in the document.
    pub value: usize,
    /// The value, as written (valid JSON).
    pub json: &'a str,
}

/// The offset of the member whose value starts at `value` in `doc`: its key's opening quote
/// (back over `:` and white space to the key's closing quote, then to the first `"` not
/// escaped); `value` when the text before it is not `"key" :`.
pub(crate) fn member_start(doc: &str, value: usize) -> usize {
    let b = doc.as_bytes();
    let ws = |c: u8| matches!(c, b' ' | b'\t' | b'\n' | b'\r');
    let mut i = value.min(b.len());
    while i > 0 && ws(b[i - 1]) {
        i -= 1;
    }
    if i == 0 || b[i - 1] != b':' {
        return value;
    }
    i -= 1;
    while i > 0 && ws(b[i - 1]) {
        i -= 1;
    }
    if i == 0 || b[i - 1] != b'"' {
        return value;
    }
    let mut j = i - 1;
    while j > 0 {
        j -= 1;
        if b[j] == b'"' {
            let backslashes = b[..j].iter().rev().take_while(|&&c| c == b'\\').count();
            if backslashes % 2 == 0 {
                return j;
            }
        }
    }
    value
}

/// The feed's JSON Feed version, from `version`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum JsonVersion {
    /// `https://jsonfeed.org/version/1`.
    V1,
    /// `https://jsonfeed.org/version/1.1`, or a version the lint does not know.
    #[default]
    V1_1,
}

/// Per-document state of the JSON Feed rules.
#[derive(Default)]
pub(crate) struct JsonState {
    version: JsonVersion,
    /// Item ids so far (trimmed; a number as written).
    ids: std::collections::HashSet<String>,
}

/// What a member's value must be.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    String,
    /// A string holding a URL.
    Url,
    /// A string holding an RFC 3339 date-time.
    Date,
    Bool,
    /// A number, 0 or more.
    NonNegative,
    Object,
    Array,
}

impl Kind {
    fn expected(self) -> &'static str {
        match self {
            Kind::String | Kind::Url | Kind::Date => "a string",
            Kind::Bool => "a boolean",
            Kind::NonNegative => "a number",
            Kind::Object => "an object",
            Kind::Array => "an array",
        }
    }
}

/// The members of the feed object JSON Feed 1.1 defines (and 1.0's `author`).
const FEED: [(&str, Kind); 15] = [
    ("version", Kind::String),
    ("title", Kind::String),
    ("home_page_url", Kind::Url),
    ("feed_url", Kind::Url),
    ("description", Kind::String),
    ("user_comment", Kind::String),
    ("next_url", Kind::Url),
    ("icon", Kind::Url),
    ("favicon", Kind::Url),
    ("authors", Kind::Array),
    ("author", Kind::Object),
    ("language", Kind::String),
    ("expired", Kind::Bool),
    ("hubs", Kind::Array),
    ("items", Kind::Array),
];

/// The members of an item.
const ITEM: [(&str, Kind); 16] = [
    ("id", Kind::String),
    ("url", Kind::Url),
    ("external_url", Kind::Url),
    ("title", Kind::String),
    ("content_html", Kind::String),
    ("content_text", Kind::String),
    ("summary", Kind::String),
    ("image", Kind::Url),
    ("banner_image", Kind::Url),
    ("date_published", Kind::Date),
    ("date_modified", Kind::Date),
    ("authors", Kind::Array),
    ("author", Kind::Object),
    ("tags", Kind::Array),
    ("language", Kind::String),
    ("attachments", Kind::Array),
];

const ATTACHMENT: [(&str, Kind); 5] = [
    ("url", Kind::Url),
    ("mime_type", Kind::String),
    ("title", Kind::String),
    ("size_in_bytes", Kind::NonNegative),
    ("duration_in_seconds", Kind::NonNegative),
];

const AUTHOR: [(&str, Kind); 3] =
    [("name", Kind::String), ("url", Kind::Url), ("avatar", Kind::Url)];

const HUB: [(&str, Kind); 2] = [("type", Kind::String), ("url", Kind::Url)];

const S_FEED: &str = "JSON Feed 1.1 Top-level";
const S_ITEM: &str = "JSON Feed 1.1 Items";
const S_ATTACHMENT: &str = "JSON Feed 1.1 Attachments";
const S_DEPRECATIONS: &str = "JSON Feed 1.1 Deprecations";
const S_EXTENSIONS: &str = "JSON Feed 1.1 Extensions";

const V1: &str = "https://jsonfeed.org/version/1";
const V1_1: &str = "https://jsonfeed.org/version/1.1";

/// The JSON type of a raw value (`"…"` string, `{` object, …).
fn json_kind(json: &str) -> &'static str {
    match json.as_bytes().first() {
        Some(b'"') => "string",
        Some(b'{') => "object",
        Some(b'[') => "array",
        Some(b't' | b'f') => "boolean",
        Some(b'n') => "null",
        _ => "number",
    }
}

/// A raw string value unescaped (`None`: not a string).
fn string(json: &str) -> Option<Cow<'_, str>> {
    if !json.starts_with('"') {
        return None;
    }
    match serde_json::from_str::<&str>(json) {
        Ok(s) => Some(Cow::Borrowed(s)),
        Err(_) => serde_json::from_str::<String>(json).ok().map(Cow::Owned),
    }
}

/// The offset of `inner`, a slice of the value of `m`, in the document.
fn offset_in(m: &JsonMember<'_>, inner: &str) -> usize {
    m.value + (inner.as_ptr() as usize).saturating_sub(m.json.as_ptr() as usize)
}

impl<'a> Collector<'a> {
    /// The members of the feed object (at `at`). The lint's version rules read `version`.
    pub(crate) fn json_feed(&mut self, at: usize, members: &[JsonMember<'a>]) {
        let get = |k: &str| members.iter().find(|m| m.key == k);
        for k in ["version", "title", "items"] {
            if get(k).is_none() {
                let e = draft(Code::MissingJsonMember, at, S_FEED).parent("feed").el(k);
                self.push(e);
            }
        }
        if let Some(v) = get("version").and_then(|m| string(m.json).map(|s| (m, s))) {
            match v.1.trim() {
                V1 => self.json.version = JsonVersion::V1,
                V1_1 => self.json.version = JsonVersion::V1_1,
                other => {
                    let e = draft(Code::UnknownJsonFeedVersion, v.0.at, S_FEED).el("version");
                    self.push(e.parent("feed").value(other));
                }
            }
        }
        self.json_members(members, "feed", &FEED, S_FEED);
        self.json_versioned(members, "feed", S_FEED);
        // "`next_url` must not be the same as `feed_url`".
        let text = |k: &str| get(k).and_then(|m| string(m.json)).map(|s| s.trim().to_owned());
        if let (Some(next), Some(feed)) = (text("next_url"), text("feed_url")) {
            if next == feed && !next.is_empty() {
                let at = get("next_url").map_or(at, |m| m.at);
                let e = draft(Code::JsonNextUrlIsFeedUrl, at, S_FEED).parent("feed");
                self.push(e.el("next_url").value(&next));
            }
        }
        if let Some(m) = get("hubs") {
            self.json_objects(m, "hub", &HUB, &["type", "url"], S_FEED);
        }
    }

    /// The members of an item (the object at `at`).
    pub(crate) fn json_item(&mut self, at: usize, members: &[JsonMember<'a>]) {
        let get = |k: &str| members.iter().find(|m| m.key == k);
        match get("id") {
            None => {
                let e = draft(Code::MissingJsonMember, at, S_ITEM).parent("item").el("id");
                self.push(e);
            }
            Some(m) => {
                let id = match json_kind(m.json) {
                    "string" => string(m.json).map(|s| s.trim().to_owned()),
                    "number" => {
                        let e = draft(Code::JsonIdNotString, m.at, S_ITEM).parent("item");
                        self.push(e.el("id").value(m.json));
                        Some(m.json.to_owned())
                    }
                    _ => None,
                };
                match id {
                    Some(id) if id.is_empty() => {
                        // "If an `id` is blank …, the `item` must be discarded."
                        let e = draft(Code::MissingJsonMember, m.at, S_ITEM).parent("item");
                        self.push(e.el("id").value(""));
                    }
                    Some(id) => {
                        if self.json.ids.contains(&id) {
                            let e = draft(Code::DuplicateJsonItemId, m.at, S_ITEM).parent("item");
                            self.push(e.el("id").value(&id));
                        } else {
                            self.json.ids.insert(id);
                        }
                    }
                    None => {}
                }
            }
        }
        // "`content_html` and `content_text` are each optional strings — but one or both
        // must be present."
        let content = |k: &str| get(k).is_some_and(|m| m.json.starts_with('"'));
        if !content("content_html") && !content("content_text") {
            let e = draft(Code::MissingJsonContent, at, S_ITEM).parent("item");
            self.push(e.el("content_html"));
        }
        self.json_members(members, "item", &ITEM, S_ITEM);
        self.json_versioned(members, "item", S_ITEM);
        if let Some(m) = get("attachments") {
            let required = ["url", "mime_type"];
            self.json_objects(m, "attachment", &ATTACHMENT, &required, S_ATTACHMENT);
        }
    }

    /// An item that is not an object (at `at`, raw `json`).
    pub(crate) fn json_item_not_object(&mut self, at: usize, json: &str) {
        let e = draft(Code::InvalidJsonType, at, S_ITEM).parent("feed").el("items[]");
        self.push(e.value(json).param("type", "an object"));
    }

    /// Type and value rules of `members` of the object `parent` (`feed`, `item`, …) whose
    /// defined members are `defined`; undefined members (not extensions) are reported.
    fn json_members(
        &mut self,
        members: &[JsonMember<'a>],
        parent: &str,
        defined: &[(&str, Kind)],
        section: &'static str,
    ) {
        for m in members {
            let Some(&(_, kind)) = defined.iter().find(|(k, _)| *k == m.key) else {
                // "Names must start with an `_` character followed by a letter."
                let ext = m.key.strip_prefix('_').and_then(|r| r.chars().next());
                if !ext.is_some_and(char::is_alphabetic) {
                    let e = draft(Code::UndefinedJsonMember, m.at, S_EXTENSIONS).parent(parent);
                    self.push(e.el(m.key));
                }
                continue;
            };
            if m.key == "id" && parent == "item" {
                // The id rules are the item's (a number is coerced).
                if !matches!(json_kind(m.json), "string" | "number") {
                    self.json_type(m, parent, kind, section);
                }
                continue;
            }
            self.json_value(m, parent, kind, section);
        }
    }

    /// One member's type and value.
    fn json_value(&mut self, m: &JsonMember<'a>, parent: &str, kind: Kind, section: &'static str) {
        let found = json_kind(m.json);
        let ok_type = match kind {
            Kind::String | Kind::Url | Kind::Date => found == "string",
            Kind::Bool => found == "boolean",
            Kind::NonNegative => found == "number",
            Kind::Object => found == "object",
            Kind::Array => found == "array",
        };
        if !ok_type {
            return self.json_type(m, parent, kind, section);
        }
        match kind {
            Kind::Url => {
                let v = string(m.json).unwrap_or_default();
                self.json_url(m, parent, &v, section);
            }
            Kind::Date => {
                let v = string(m.json).unwrap_or_default();
                if crate::model::date::parse_rfc3339(v.trim()).is_none() {
                    let e = draft(Code::InvalidJsonDate, m.at, section).parent(parent);
                    self.push(e.el(m.key).value(&v));
                }
            }
            Kind::NonNegative if m.json.starts_with('-') => {
                let e = draft(Code::InvalidJsonNumber, m.at, section).parent(parent);
                self.push(e.el(m.key).value(m.json));
            }
            Kind::Array if matches!(m.key, "authors" | "tags") => {
                let Ok(list) = serde_json::from_str::<Vec<&RawValue>>(m.json) else { return };
                for raw in list {
                    let json = raw.get();
                    let (at, value) = (offset_in(m, json), offset_in(m, json));
                    if m.key == "tags" {
                        if !json.starts_with('"') {
                            let e = draft(Code::InvalidJsonType, at, section).parent(parent);
                            let e = e.el("tags[]").value(json);
                            self.push(e.param("type", "a string"));
                        }
                    } else {
                        let one = JsonMember { key: "authors[]", at, value, json };
                        self.json_author(&one, parent, section);
                    }
                }
            }
            Kind::Object if m.key == "author" => self.json_author(m, parent, section),
            _ => {}
        }
    }

    fn json_type(&mut self, m: &JsonMember<'a>, parent: &str, kind: Kind, section: &'static str) {
        let e = draft(Code::InvalidJsonType, m.at, section).parent(parent).el(m.key);
        self.push(e.value(m.json).param("type", kind.expected()));
    }

    /// A URL member: a URL (absolute: a relative reference is reported apart).
    fn json_url(&mut self, m: &JsonMember<'a>, parent: &str, v: &str, section: &'static str) {
        let t = v.trim();
        let code = match values::check_url(t) {
            values::UrlCheck::Ok | values::UrlCheck::Unregistered | values::UrlCheck::Iri => return,
            _ if !t.is_empty()
                && values::scheme(t).is_none()
                && !t.contains(char::is_whitespace) =>
            {
                Code::RelativeJsonURL
            }
            _ => Code::InvalidJsonURL,
        };
        self.push(draft(code, m.at, section).parent(parent).el(m.key).value(v));
    }

    /// An author object (`author`, an element of `authors`): its members' types, URLs, and
    /// "if you provide an author object, then at least one [member] is required".
    fn json_author(&mut self, m: &JsonMember<'a>, parent: &str, section: &'static str) {
        let Some(members) = self.json_object_members(m) else {
            let e = draft(Code::InvalidJsonType, m.at, section).parent(parent).el(m.key);
            return self.push(e.value(m.json).param("type", "an object"));
        };
        let mut any = false;
        for a in &members {
            if let Some(&(_, kind)) = AUTHOR.iter().find(|(k, _)| *k == a.key) {
                any = true;
                self.json_value(a, "author", kind, section);
            }
        }
        if !any {
            let e = draft(Code::EmptyJsonAuthor, m.at, section).parent(parent).el(m.key);
            self.push(e);
        }
    }

    /// The objects of the array member `m` (`hubs`, `attachments`): each an object with the
    /// `required` members, of `defined` types.
    fn json_objects(
        &mut self,
        m: &JsonMember<'a>,
        name: &str,
        defined: &[(&str, Kind)],
        required: &[&str],
        section: &'static str,
    ) {
        let Ok(list) = serde_json::from_str::<Vec<&RawValue>>(m.json) else { return };
        for raw in list {
            let json = raw.get();
            let at = offset_in(m, json);
            let one = JsonMember { key: m.key, at, value: at, json };
            let Some(members) = self.json_object_members(&one) else {
                let e = draft(Code::InvalidJsonType, at, section).parent(name).el(m.key);
                self.push(e.value(json).param("type", "an array of objects"));
                continue;
            };
            for k in required {
                if !members.iter().any(|x| x.key == *k) {
                    let e = draft(Code::MissingJsonMember, at, section).parent(name).el(k);
                    self.push(e);
                }
            }
            for x in &members {
                if let Some(&(_, kind)) = defined.iter().find(|(k, _)| *k == x.key) {
                    self.json_value(x, name, kind, section);
                }
            }
        }
    }

    /// The members of the object value of `m` (`None`: not an object); keys are copied into
    /// the arena.
    fn json_object_members(&self, m: &JsonMember<'a>) -> Option<Vec<JsonMember<'a>>> {
        if !m.json.starts_with('{') {
            return None;
        }
        let map = serde_json::from_str::<BTreeMap<String, &'a RawValue>>(m.json).ok()?;
        Some(
            map.into_iter()
                .map(|(k, v)| {
                    let json = v.get();
                    let value = offset_in(m, json);
                    let at = member_start(self.src, value);
                    JsonMember { key: self.arena.alloc_str(&k), at, value, json }
                })
                .collect(),
        )
    }

    /// Members of one JSON Feed version used in a feed of the other: `author` in a 1.1 feed
    /// without `authors` (deprecated), `authors` and `language` (1.1) in a version 1 feed.
    fn json_versioned(&mut self, members: &[JsonMember<'a>], parent: &str, section: &'static str) {
        let has = |k: &str| members.iter().any(|m| m.key == k);
        for m in members {
            match (self.json.version, m.key) {
                (JsonVersion::V1_1, "author") if !has("authors") => {
                    let e = draft(Code::DeprecatedJsonAuthor, m.at, S_DEPRECATIONS);
                    self.push(e.parent(parent).el("author"));
                }
                (JsonVersion::V1, "authors" | "language") => {
                    let e = draft(Code::JsonMemberNotInVersion, m.at, section).parent(parent);
                    self.push(e.el(m.key));
                }
                _ => {}
            }
        }
    }
}
