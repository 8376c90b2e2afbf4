//! Media RSS's rules (<https://www.rssboard.org/media-rss>, version 1.5.1), reported with the
//! Feed Validator's Media RSS classes: each `media:` child of an RSS 2.0 `channel` or `item`
//! (or of an Atom 1.0 `feed` or `entry`) is checked as the state machine consumes it, with its
//! `media:` descendants (a `media:group`'s `media:content`s, a `media:content`'s
//! `media:player`, …) re-read from the element's own source span, as the Profile's `image`
//! is: attribute values (`medium`, `expression`, `isDefault`, numbers, URLs, MIME types),
//! ratings by scheme, restrictions, credit roles, hashes, prices, text types, and a group's
//! alternatives.

use std::borrow::Cow;

use super::values;
use super::*;
use crate::lint::Code;
use crate::xml::{Event, Ns, Tag, XmlReader};

/// A `media:` element re-read from its source span: its start tag (offset in the document),
/// its text (trimmed) and its `media:` children.
struct Node<'a> {
    tag: Tag<'a>,
    text: Cow<'a, str>,
    children: Vec<Node<'a>>,
}

/// Nesting read below a top-level media element: `group` › `content` › `player` and the
/// optional elements.
const MAX_DEPTH: u32 = 3;

/// The EBU role codes (the `urn:ebu` scheme, the default of `media:credit`'s `scheme`), as
/// the Feed Validator lists them, lower case.
const EBU_ROLES: &[&str] = &[
    "actor",
    "adaptor",
    "anchor person",
    "animal trainer",
    "animator",
    "announcer",
    "armourer",
    "art director",
    "artist/performer",
    "assistant camera",
    "assistant chief lighting technician",
    "assistant director",
    "assistant producer",
    "assistant visual editor",
    "author",
    "broadcast assistant",
    "broadcast journalist",
    "camera operator",
    "carpenter",
    "casting",
    "causeur",
    "chief lighting technician",
    "choir",
    "choreographer",
    "clapper loader",
    "commentary or commentator",
    "commissioning broadcaster",
    "composer",
    "computer programmer",
    "conductor",
    "consultant",
    "continuity checker",
    "correspondent",
    "costume designer",
    "dancer",
    "dialogue coach",
    "director",
    "director of photography",
    "distribution company",
    "draughtsman",
    "dresser",
    "dubber",
    "editor",
    "editor of story",
    "editor/producer (news)",
    "ensemble",
    "executive producer",
    "expert",
    "fight director",
    "floor manager",
    "focus puller",
    "foley artist",
    "foley editor",
    "foley mixer",
    "graphic assistant",
    "graphic designer",
    "greensman",
    "grip",
    "hairdresser",
    "illustrator",
    "interviewed guest",
    "interviewer",
    "key character",
    "key grip",
    "key talents",
    "leadman",
    "librettist",
    "lighting director",
    "lighting technician",
    "location manager",
    "lyricist",
    "make up artist",
    "manufacturer",
    "matte artist",
    "music arranger",
    "music group",
    "musician",
    "news reader",
    "orchestra",
    "participant",
    "photographer",
    "post",
    "producer",
    "production assistant",
    "production company",
    "production department",
    "production manager",
    "production secretary",
    "programme production researcher",
    "property manager",
    "publishing company",
    "puppeteer",
    "pyrotechnician",
    "reporter",
    "rigger",
    "runner",
    "scenario",
    "scenic operative",
    "script supervisor",
    "second assistant camera",
    "second assistant director",
    "second unit director",
    "set designer",
    "set dresser",
    "sign language",
    "singer",
    "sound designer",
    "sound mixer",
    "sound recordist",
    "special effects",
    "stunts",
    "subtitles",
    "technical director",
    "term",
    "translation",
    "transportation manager",
    "treatment/programme proposal",
    "vision mixer",
    "visual editor",
    "visual effects",
    "wardrobe",
    "witness",
];

/// The finding's section: the specification and the element (`Media RSS media:content`).
fn section(local: &str) -> &'static str {
    match local {
        "content" => "Media RSS media:content",
        "group" => "Media RSS media:group",
        "thumbnail" => "Media RSS media:thumbnail",
        "player" => "Media RSS media:player",
        "rating" => "Media RSS media:rating",
        "restriction" => "Media RSS media:restriction",
        "credit" => "Media RSS media:credit",
        "hash" => "Media RSS media:hash",
        "price" => "Media RSS media:price",
        "title" => "Media RSS media:title",
        "description" => "Media RSS media:description",
        "text" => "Media RSS media:text",
        "adult" => "Media RSS media:adult",
        _ => "Media RSS Namespace",
    }
}

/// A non-negative decimal number: digits with at most one `.` (`29.97`, `44.1`, `128`).
fn is_decimal(v: &str) -> bool {
    let v = v.trim();
    let (int, frac) = v.split_once('.').unwrap_or((v, ""));
    (!int.is_empty() || !frac.is_empty())
        && int.bytes().all(|b| b.is_ascii_digit())
        && frac.bytes().all(|b| b.is_ascii_digit())
}

/// A `urn:icra` rating: `r (` label-value pairs `)`, as the Feed Validator reads it: a
/// category letter with `z` and `0`/`1`, or a category letter with one of its level letters
/// and `1`.
fn is_icra(v: &str) -> bool {
    let Some(inner) = v.strip_prefix("r (").and_then(|s| s.strip_suffix(')')) else {
        return false;
    };
    let tokens: Vec<&str> = inner.split(' ').collect();
    if tokens.is_empty() || !tokens.len().is_multiple_of(2) {
        return false;
    }
    tokens.chunks(2).all(|pair| {
        let (label, value) = (pair[0].as_bytes(), pair[1]);
        if label.len() != 2 {
            return false;
        }
        let last = match label[0] {
            b'n' | b'l' => b'c',
            b's' => b'f',
            b'v' => b'j',
            b'o' => b'h',
            b'c' => b'b',
            b'x' => b'e',
            _ => return false,
        };
        match label[1] {
            b'z' => value == "0" || value == "1",
            l @ b'a'..=b'z' => l <= last && value == "1",
            _ => false,
        }
    })
}

/// Whether `value` is a rating under `scheme` (Media RSS: `urn:simple` `adult`/`nonadult`,
/// `urn:mpaa`, `urn:v-chip`, `urn:icra`); values of other schemes are not checked.
fn is_rating(scheme: &str, value: &str) -> bool {
    let v = value.trim();
    let one_of = |list: &[&str]| list.iter().any(|k| k.eq_ignore_ascii_case(v));
    match scheme.trim() {
        "urn:simple" => one_of(&["adult", "nonadult"]),
        "urn:mpaa" => one_of(&["g", "pg", "pg-13", "r", "nc-17", "x"]),
        "urn:v-chip" => one_of(&["tv-y", "tv-y7", "tv-y7-fv", "tv-g", "tv-pg", "tv-14", "tv-ma"]),
        "urn:icra" => is_icra(v),
        _ => true,
    }
}

impl<'a> Collector<'a> {
    /// A `media:` child `tag` of `parent` (`channel`, `item`, `feed`, `entry`), consumed.
    pub(super) fn media_child(&mut self, r: &XmlReader<'a>, tag: &Tag<'a>, parent: &str) {
        if !self.media_ns_checked {
            self.media_ns_checked = true;
            if ns_uri(r, tag) == crate::xml::ns::MEDIA_RSS_ALT {
                let e = draft(Code::MediaRssNamespace, tag.offset, section(""));
                self.push(e.el(tag.qname).value(crate::xml::ns::MEDIA_RSS_ALT));
            }
        }
        let Some(node) = self.media_tree(r, tag) else { return };
        self.media_node(&node, parent);
    }

    /// The element `tag` (consumed) and its `media:` descendants, re-read from its span.
    fn media_tree(&self, r: &XmlReader<'a>, tag: &Tag<'a>) -> Option<Node<'a>> {
        let (_, _, end) = self.spans(r, tag);
        let slice = &self.src[tag.offset..end.max(tag.offset)];
        let mut sub = XmlReader::new(self.arena, slice, 16);
        let Event::Start(root) = sub.next() else { return None };
        Some(self.media_read(r, &mut sub, root, tag.offset, 0))
    }

    fn media_read(
        &self,
        r: &XmlReader<'a>,
        sub: &mut XmlReader<'a>,
        mut tag: Tag<'a>,
        base: usize,
        depth: u32,
    ) -> Node<'a> {
        tag.offset += base;
        let mut text: Cow<'a, str> = Cow::Borrowed("");
        let mut children = Vec::new();
        loop {
            match sub.next() {
                Event::Start(c) => {
                    let media = c.ns == Ns::MediaRss
                        || c.ns == Ns::UnboundPrefix
                            && Ns::from_uri(r.element_ns_uri(c.qname)) == Ns::MediaRss;
                    if media && depth < MAX_DEPTH {
                        children.push(self.media_read(r, sub, c, base, depth + 1));
                    } else {
                        sub.skip();
                    }
                }
                Event::Text(t) if text.len() < 4096 => match &mut text {
                    Cow::Borrowed("") => text = Cow::Borrowed(t),
                    other => other.to_mut().push_str(t),
                },
                Event::End | Event::Eof => break,
                _ => {}
            }
        }
        let text = match text {
            Cow::Borrowed(b) => Cow::Borrowed(b.trim()),
            Cow::Owned(o) => Cow::Owned(o.trim().to_owned()),
        };
        Node { tag, text, children }
    }

    fn media_node(&mut self, n: &Node<'a>, parent: &str) {
        let tag = &n.tag;
        let s = section(tag.local);
        let el = tag.qname;
        let attr = |name: &str| tag.attr(self.arena, name);
        match tag.local {
            "content" => self.media_content(n, parent),
            "group" => {
                let contents: Vec<&Node<'a>> =
                    n.children.iter().filter(|c| c.tag.local == "content").collect();
                if contents.len() < 2 {
                    self.push(draft(Code::MediaGroupWithoutAlternatives, tag.offset, s).el(el));
                }
                let mut defaults = contents.iter().filter(|c| {
                    c.tag.attr(self.arena, "isDefault").is_some_and(|v| v.trim() == "true")
                });
                if let Some(second) = defaults.nth(1) {
                    let e = draft(Code::MultipleMediaDefaults, second.tag.offset, s);
                    self.push(e.el(second.tag.qname).parent(el).param("attr", "isDefault"));
                }
            }
            "thumbnail" | "player" => {
                self.media_url(tag, parent, true);
                self.media_ints(tag, parent, &["width", "height"]);
            }
            "rating" => {
                let scheme = attr("scheme").unwrap_or("urn:simple");
                if !is_rating(scheme, &n.text) {
                    let e = draft(Code::InvalidMediaRating, tag.offset, s).parent(parent).el(el);
                    self.push(e.param("attr", "scheme").value(&n.text));
                }
            }
            "restriction" => self.media_restriction(n, parent),
            "credit" => {
                let scheme = attr("scheme").map_or("urn:ebu", str::trim);
                if let (Some(role), "urn:ebu") = (attr("role"), scheme) {
                    let known = EBU_ROLES.iter().any(|r| r.eq_ignore_ascii_case(role.trim()));
                    if !known {
                        let e = draft(Code::InvalidCreditRole, tag.offset, s).parent(parent);
                        self.push(e.el(el).param("attr", "role").value(role));
                    }
                }
            }
            "hash" => {
                let algo = attr("algo").map_or("md5", str::trim);
                let len = if algo.eq_ignore_ascii_case("md5") {
                    Some(32)
                } else if algo.eq_ignore_ascii_case("sha-1") {
                    Some(40)
                } else {
                    None
                };
                let e = draft(Code::InvalidMediaHash, tag.offset, s).parent(parent).el(el);
                match len {
                    None => self.push(e.param("attr", "algo").value(algo)),
                    Some(len) => {
                        let v = &*n.text;
                        if v.len() != len || !v.bytes().all(|b| b.is_ascii_hexdigit()) {
                            self.push(e.value(v));
                        }
                    }
                }
            }
            "price" => {
                if let Some(t) = attr("type") {
                    let known = ["rent", "purchase", "package", "subscription"];
                    if !known.contains(&t.trim()) {
                        let e = draft(Code::InvalidPriceType, tag.offset, s).parent(parent);
                        self.push(e.el(el).param("attr", "type").value(t));
                    }
                }
                if let Some(p) = attr("price").filter(|p| !is_decimal(p)) {
                    let e = draft(Code::InvalidFloat, tag.offset, s).parent(parent).el(el);
                    self.push(e.param("attr", "price").value(p));
                }
            }
            "title" | "description" | "text" => {
                if let Some(t) = attr("type").filter(|t| !matches!(t.trim(), "plain" | "html")) {
                    let e = draft(Code::InvalidMediaTextType, tag.offset, s).parent(parent);
                    self.push(e.el(el).param("attr", "type").value(t));
                }
            }
            "adult" => {
                self.push(draft(Code::DeprecatedMediaAdult, tag.offset, s).parent(parent).el(el))
            }
            _ => {}
        }
        for c in &n.children {
            self.media_node(c, el);
        }
    }

    /// `media:content`'s attributes (Media RSS: "`url` … If not included, a `<media:player>`
    /// element must be specified").
    fn media_content(&mut self, n: &Node<'a>, parent: &str) {
        let tag = &n.tag;
        let s = section("content");
        let el = tag.qname;
        let has_player = n.children.iter().any(|c| c.tag.local == "player");
        self.media_url(tag, parent, !has_player);
        self.media_ints(tag, parent, &["fileSize", "height", "width", "channels"]);
        for name in ["bitrate", "framerate", "samplingrate", "duration"] {
            if let Some(v) = tag.attr(self.arena, name).filter(|v| !is_decimal(v)) {
                let e = draft(Code::InvalidFloat, tag.offset, s).parent(parent).el(el);
                self.push(e.param("attr", name).value(v));
            }
        }
        if let Some(v) = tag.attr(self.arena, "type").filter(|v| !values::is_mime_type(v)) {
            let e = draft(Code::InvalidMIMEAttribute, tag.offset, s).parent(parent).el(el);
            self.push(e.param("attr", "type").value(v));
        }
        let media = ["image", "audio", "video", "document", "executable"];
        if let Some(v) = tag.attr(self.arena, "medium").filter(|v| !media.contains(&v.trim())) {
            let e = draft(Code::InvalidMediaMedium, tag.offset, s).parent(parent).el(el);
            self.push(e.param("attr", "medium").value(v));
        }
        let is_default = tag.attr(self.arena, "isDefault");
        if let Some(v) = is_default.filter(|v| !matches!(v.trim(), "true" | "false")) {
            let e = draft(Code::InvalidBooleanAttribute, tag.offset, s).parent(parent).el(el);
            self.push(e.param("attr", "isDefault").value(v));
        }
        let expressions = ["sample", "full", "nonstop"];
        let expression = tag.attr(self.arena, "expression");
        if let Some(v) = expression.filter(|v| !expressions.contains(&v.trim())) {
            let e = draft(Code::InvalidMediaExpression, tag.offset, s).parent(parent).el(el);
            self.push(e.param("attr", "expression").value(v));
        }
        if let Some(v) = tag.attr(self.arena, "lang").filter(|v| !values::is_language(v)) {
            let e = draft(Code::InvalidLanguage, tag.offset, s).parent(parent).el(el);
            self.push(e.param("attr", "lang").value(v));
        }
    }

    /// The `url` attribute of `tag`: a full URL; `required`: its absence is reported.
    fn media_url(&mut self, tag: &Tag<'a>, parent: &str, required: bool) {
        let s = section(tag.local);
        let el = tag.qname;
        let Some(v) = tag.attr(self.arena, "url") else {
            if required {
                let e = draft(Code::MissingAttribute, tag.offset, s).parent(parent).el(el);
                self.push(e.param("attr", "url"));
            }
            return;
        };
        let Some((code, v)) = url_attr_problem(v) else { return };
        self.push(draft(code, tag.offset, s).parent(parent).el(el).param("attr", "url").value(v));
    }

    /// Integer attributes of `tag` (`width`, `fileSize`, …): non-negative integers.
    fn media_ints(&mut self, tag: &Tag<'a>, parent: &str, names: &[&str]) {
        for &name in names {
            let Some(v) = tag.attr(self.arena, name) else { continue };
            if values::non_negative(v).is_none() {
                let s = section(tag.local);
                let e = draft(Code::InvalidNonNegativeInteger, tag.offset, s).parent(parent);
                self.push(e.el(tag.qname).param("attr", name).value(v));
            }
        }
    }

    /// `media:restriction`: `relationship` `allow` or `deny` (required), `type` `country`,
    /// `uri` or `sharing`; without a type, the value `all` or `none`; with `country`, ISO
    /// 3166 codes (two letters), space-separated.
    fn media_restriction(&mut self, n: &Node<'a>, parent: &str) {
        let tag = &n.tag;
        let s = section("restriction");
        let el = tag.qname;
        match tag.attr(self.arena, "relationship").map(str::trim) {
            None => {
                let e = draft(Code::MissingAttribute, tag.offset, s).parent(parent).el(el);
                self.push(e.param("attr", "relationship"));
            }
            Some("allow" | "deny") => {}
            Some(v) => {
                let e = draft(Code::InvalidMediaRestrictionRel, tag.offset, s).parent(parent);
                self.push(e.el(el).param("attr", "relationship").value(v));
            }
        }
        let v = &*n.text;
        match tag.attr(self.arena, "type").map(str::trim) {
            None => {
                if !matches!(v, "" | "all" | "none") {
                    let e = draft(Code::InvalidMediaRestriction, tag.offset, s).parent(parent);
                    self.push(e.el(el).value(v));
                }
            }
            Some("country") => {
                let bad = v.split_ascii_whitespace().find(|c| {
                    !(matches!(*c, "all" | "none")
                        || c.len() == 2 && c.bytes().all(|b| b.is_ascii_alphabetic()))
                });
                if let Some(c) = bad {
                    let e = draft(Code::InvalidCountryCode, tag.offset, s).parent(parent);
                    self.push(e.el(el).value(c));
                }
            }
            Some("uri" | "sharing") => {}
            Some(t) => {
                let e = draft(Code::InvalidMediaRestrictionType, tag.offset, s).parent(parent);
                self.push(e.el(el).param("attr", "type").value(t));
            }
        }
    }
}
