//! The collector the RSS 2.0, RSS 1.0 and Atom 1.0 state machines and the JSON Feed reader
//! feed (see the module docs of [`super`]): one call per consumed child of `rss`, `channel`
//! and `item`, one per consumed item; one per consumed child of `feed` and `entry` (`atom`).
//! Per-level state (counts, what was seen, order) is kept until the parent is finalized.

use std::borrow::Cow;

use bumpalo::Bump;

use super::values::{self, DateCheck, EmailCheck, UrlCheck};
pub(crate) use json::{member_start, JsonMember};

use super::{Code, Finding, Level, LintOptions, Report};
use crate::xml::{Ns, Tag, XmlReader};

const SLASH: &str = "http://purl.org/rss/1.0/modules/slash/";

/// RSS 2.0 channel elements (Profile §4.1.1); all but `category` and `item` at most once.
const CHANNEL: [&str; 20] = [
    "title",
    "link",
    "description",
    "category",
    "cloud",
    "copyright",
    "docs",
    "generator",
    "image",
    "language",
    "lastBuildDate",
    "managingEditor",
    "pubDate",
    "rating",
    "skipDays",
    "skipHours",
    "textInput",
    "ttl",
    "webMaster",
    "item",
];

/// RSS 2.0 item elements (Profile §4.1.1.20); all but `category` at most once.
const ITEM: [&str; 10] = [
    "author",
    "category",
    "comments",
    "description",
    "enclosure",
    "guid",
    "link",
    "pubDate",
    "source",
    "title",
];

/// Namespace elements that duplicate a core element's semantics, as the Feed Validator
/// reports them (Profile §5.1.1: "the core element should be used"; §5.3.1 for `dc:creator`):
/// `(namespace element, core element, Profile section)`. In a channel: `DuplicateSemantics`.
const CHANNEL_PAIRS: [(&str, &str, &str); 8] = [
    ("dc:creator", "managingEditor", "5.3.1 dc:creator"),
    ("dc:creator", "webMaster", "5.3.1 dc:creator"),
    ("dc:language", "language", "5.1.1 atom:link"),
    ("dcterms:modified", "lastBuildDate", "5.1.1 atom:link"),
    ("dc:publisher", "webMaster", "5.1.1 atom:link"),
    ("dc:rights", "copyright", "5.1.1 atom:link"),
    ("dc:date", "pubDate", "5.1.1 atom:link"),
    ("admin:generatorAgent", "generator", "5.1.1 atom:link"),
];

/// In an item: `DuplicateItemSemantics`.
const ITEM_PAIRS: [(&str, &str, &str); 4] = [
    ("dc:creator", "author", "5.3.1 dc:creator"),
    ("dc:subject", "category", "5.1.1 atom:link"),
    ("dc:date", "pubDate", "5.1.1 atom:link"),
    ("dc:source", "source", "5.1.1 atom:link"),
];

const ADMIN: &str = "http://webns.net/mvcb/";

#[derive(Default)]
struct ChannelState<'a> {
    offset: usize,
    counts: [u32; CHANNEL.len()],
    /// Offset of each core element's first occurrence.
    first: [usize; CHANNEL.len()],
    /// Offset of each [`CHANNEL_PAIRS`] namespace element's first occurrence.
    ext: [Option<usize>; CHANNEL_PAIRS.len()],
    seen_item: bool,
    misplaced: bool,
    title: Option<Cow<'a, str>>,
    link: Option<Cow<'a, str>>,
    /// The image's title, link, and the image's offset.
    image: Option<(Option<&'a str>, Option<&'a str>, usize)>,
    self_link: bool,
    slash_comments: bool,
    /// The channel's item guids so far, trimmed (§4.1.1.20.6: a guid identifies its item).
    guids: std::collections::HashSet<Cow<'a, str>>,
    /// The channel's iTunes elements (Apple Podcasts' requirements).
    itunes: itunes::ChannelItunes,
}

#[derive(Default)]
struct ItemState {
    /// Whether the item is a `podcast:liveItem` (its findings name `liveItem`).
    live: bool,
    counts: [u32; ITEM.len()],
    first: [usize; ITEM.len()],
    ext: [Option<usize>; ITEM_PAIRS.len()],
}

impl ItemState {
    /// The item's element name, as findings name it: `item`, or `liveItem` for a
    /// `podcast:liveItem` (read as an item).
    fn name(&self) -> &'static str {
        if self.live {
            "liveItem"
        } else {
            "item"
        }
    }
}

/// The namespace URI of a consumed element: the hooks run after the element's end, when a
/// prefix it declared itself is no longer in the reader's scope.
fn ns_uri<'a>(r: &XmlReader<'a>, tag: &Tag<'a>) -> &'a str {
    if let Some((prefix, _)) = tag.qname.split_once(':') {
        if let Some(uri) = tag.raw_attr(&format!("xmlns:{prefix}")) {
            return uri;
        }
    }
    r.element_ns_uri(tag.qname)
}

/// Notes a namespace element of `pairs` (by its validator name) at `offset`.
fn note_ext(pairs: &[(&str, &str, &str)], ext: &mut [Option<usize>], name: &str, offset: usize) {
    for (slot, (e, _, _)) in ext.iter_mut().zip(pairs) {
        if *e == name {
            slot.get_or_insert(offset);
        }
    }
}

pub(crate) struct Collector<'a> {
    src: &'a str,
    arena: &'a Bump,
    now: i64,
    version: Option<&'a str>,
    rss_offset: usize,
    is_rss: bool,
    channels: u32,
    channel: ChannelState<'a>,
    item: ItemState,
    /// Whether the root is Atom 1.0's `feed` (then the Atom hooks apply).
    is_atom: bool,
    atom_feed: atom::FeedState<'a>,
    atom_entry: atom::EntryState,
    /// Whether the root is RSS 1.0's `rdf:RDF` (then the RSS 1.0 hooks apply).
    is_rdf: bool,
    rdf: rss1::RdfState<'a>,
    findings: Vec<Finding>,
    /// Most findings kept ([`crate::Limits::max_diagnostics`]); the rest are counted.
    max_findings: usize,
    /// Findings past `max_findings`.
    dropped: usize,
    /// Whether the Media RSS namespace URI has been checked (at the first `media:` element).
    media_ns_checked: bool,
    /// The JSON Feed rules' state (a JSON Feed document).
    json: json::JsonState,
}

/// A finding under construction.
struct Draft {
    code: Code,
    offset: usize,
    section: &'static str,
    params: Vec<(&'static str, Box<str>)>,
}

impl Draft {
    fn param(mut self, name: &'static str, value: &str) -> Draft {
        self.params.push((name, value.into()));
        self
    }
    fn el(self, element: &str) -> Draft {
        self.param("element", element)
    }
    fn parent(self, parent: &str) -> Draft {
        self.param("parent", parent)
    }
    fn value(self, value: &str) -> Draft {
        // Values are quoted in messages and records; very long ones are cut.
        let v = value.trim();
        let v = &v[..crate::xml::floor_char_boundary(v, 200)];
        self.param("value", v)
    }
}

fn draft(code: Code, offset: usize, section: &'static str) -> Draft {
    Draft { code, offset, section, params: Vec::new() }
}

/// Sets the 1-based line and column (in characters) of each finding, `findings` sorted by
/// offset; returns the number of bytes read to do so.
///
/// NOTE: one forward pass over the text for all findings: the line and the column are carried
/// from one finding to the next, so the bytes read are at most three times the text's length
/// whatever the number of findings (counting each column from its line start made a one-line
/// document with a finding every few bytes quadratic).
fn locate(src: &str, findings: &mut [Finding]) -> usize {
    let (mut pos, mut line, mut column, mut read) = (0usize, 1u32, 1u32, 0usize);
    let mut line_start = 0usize;
    for f in findings {
        let upto = f.offset;
        let gap = &src.as_bytes()[pos..upto];
        // Characters are counted from the last newline of the gap, or from the previous
        // finding when the gap has none (offsets are on character boundaries).
        let counted = match memchr::memrchr(b'\n', gap) {
            Some(nl) => {
                line += memchr::memchr_iter(b'\n', &gap[..=nl]).count() as u32;
                line_start = pos + nl + 1;
                read += gap.len() + nl + 1;
                column = 1;
                &gap[nl + 1..]
            }
            None => {
                read += gap.len();
                gap
            }
        };
        column += counted.iter().filter(|&&b| b & 0xC0 != 0x80).count() as u32;
        read += counted.len();
        pos = upto;
        f.line = line;
        f.column = column;
        (f.excerpt, f.excerpt_column) = excerpt(src, line_start, upto);
    }
    read
}

/// Bytes of the offending line shown before the finding's offset, at most.
const EXCERPT_BEFORE: usize = 60;
/// Bytes of an excerpt, at most.
const EXCERPT_BYTES: usize = 160;

/// The part of the line holding `offset` (which starts at `line_start`) around it: at most
/// [`EXCERPT_BEFORE`] bytes before it and [`EXCERPT_BYTES`] in all, cut on character
/// boundaries, without the line break; and the 1-based column of `offset` in it, in
/// characters. Reads at most [`EXCERPT_BYTES`] bytes, whatever the line's length.
fn excerpt(src: &str, line_start: usize, offset: usize) -> (Box<str>, u32) {
    use crate::xml::floor_char_boundary;
    let from = floor_char_boundary(src, line_start.max(offset.saturating_sub(EXCERPT_BEFORE)));
    let limit = floor_char_boundary(src, (from + EXCERPT_BYTES).min(src.len())).max(offset);
    let to = memchr::memchr(b'\n', &src.as_bytes()[offset..limit]).map_or(limit, |i| offset + i);
    let text = src[from..to].strip_suffix('\r').unwrap_or(&src[from..to]);
    let column = 1 + src[from..offset].chars().count() as u32;
    (text.into(), column)
}

impl<'a> Collector<'a> {
    pub fn new(src: &'a str, arena: &'a Bump, options: &LintOptions, max_findings: usize) -> Self {
        Collector {
            src,
            arena,
            now: options.now,
            version: None,
            rss_offset: 0,
            is_rss: false,
            channels: 0,
            channel: ChannelState::default(),
            item: ItemState::default(),
            is_atom: false,
            atom_feed: atom::FeedState::default(),
            atom_entry: atom::EntryState::default(),
            is_rdf: false,
            rdf: rss1::RdfState::default(),
            findings: Vec::new(),
            max_findings,
            dropped: 0,
            media_ns_checked: false,
            json: json::JsonState::default(),
        }
    }

    fn push(&mut self, f: Draft) {
        if self.findings.len() >= self.max_findings {
            self.dropped += 1;
            return;
        }
        let offset = crate::xml::floor_char_boundary(self.src, f.offset.min(self.src.len()));
        self.findings.push(Finding {
            code: f.code,
            params: f.params,
            offset,
            line: 0,
            column: 0,
            section: f.section,
            excerpt: Box::default(),
            excerpt_column: 0,
        });
    }

    /// The root `rss` element (§4.1: `version` must be "2.0").
    pub fn root(&mut self, tag: &Tag<'a>) {
        self.is_rss = true;
        self.rss_offset = tag.offset;
        self.version = tag.attr(self.arena, "version");
        const S: &str = "4.1 rss";
        for (name, _) in tag.attrs() {
            if !(name.contains(':') || name == "xmlns" || name == "version") {
                let e = draft(Code::UnexpectedAttribute, tag.offset, "1. Introduction");
                self.push(e.el("rss").parent("rss").param("attr", name));
            }
        }
        match self.version.map(str::trim) {
            None => self.push(
                draft(Code::MissingAttribute, tag.offset, S).el("rss").param("attr", "version"),
            ),
            Some("2.0") => {}
            Some(v @ ("0.91" | "0.92" | "0.93" | "0.94")) => {
                self.push(draft(Code::ObsoleteVersion, tag.offset, S).el("rss").value(v))
            }
            Some(v) => self.push(draft(Code::InvalidRSSVersion, tag.offset, S).el("rss").value(v)),
        }
    }

    /// The findings, in document order, with lines and columns.
    pub fn finish(mut self) -> Report {
        if self.is_rss && self.channels == 0 {
            let s = "4.1 rss";
            self.push(draft(Code::MissingElement, self.rss_offset, s).parent("rss").el("channel"));
        }
        if self.is_atom {
            self.atom_end();
        }
        if self.is_rdf {
            self.rdf_end();
        }
        let mut findings = self.findings;
        findings.sort_by_key(|f| f.offset);
        locate(self.src, &mut findings);
        Report { version: self.version.map(Into::into), findings, dropped: self.dropped }
    }

    /// The content span of the element whose start tag is `tag`, now consumed (the reader's
    /// last token is its end tag), and the end of the whole element.
    fn spans(&self, r: &XmlReader<'a>, tag: &Tag<'a>) -> (usize, usize, usize) {
        self.content_span(tag, r.last_offset())
    }

    /// [`Self::spans`] with `end`, the offset of the element's end tag.
    fn content_span(&self, tag: &Tag<'a>, end: usize) -> (usize, usize, usize) {
        let src = self.src;
        let base = src.as_ptr() as usize;
        let a = tag.attrs_raw.as_ptr() as usize;
        let after_attrs = if a >= base && a + tag.attrs_raw.len() <= base + src.len() {
            a - base + tag.attrs_raw.len()
        } else {
            (tag.offset + 1 + tag.qname.len()).min(src.len())
        };
        let gt = src.as_bytes()[after_attrs..]
            .iter()
            .position(|&b| b == b'>')
            .map_or(src.len(), |p| after_attrs + p);
        let content_start = (gt + 1).min(src.len());
        let self_closing = gt > 0 && gt < src.len() && src.as_bytes()[gt - 1] == b'/';
        let end = end.min(src.len());
        if self_closing || end < content_start {
            return (content_start, content_start, content_start);
        }
        let whole_end = src.as_bytes()[end..]
            .iter()
            .position(|&b| b == b'>')
            .map_or(src.len(), |p| end + p + 1);
        (content_start, end, whole_end)
    }

    pub fn child(&mut self, r: &XmlReader<'a>, level: Level, tag: &Tag<'a>) {
        if matches!(level, Level::Feed | Level::Entry) {
            return self.atom_child(r, level, tag);
        }
        if matches!(level, Level::Rdf | Level::Rss1Channel | Level::Rss1Item) {
            return self.rss1_child(r, level, tag);
        }
        if tag.ns == Ns::Null && !tag.attrs_raw.is_empty() {
            self.unexpected_attrs(level, tag);
        }
        match level {
            Level::Rss => self.rss_child(r, tag),
            Level::Channel => self.channel_child(r, tag),
            Level::Item => self.item_child(r, tag),
            _ => {}
        }
    }

    fn rss_child(&mut self, r: &XmlReader<'a>, tag: &Tag<'a>) {
        if tag.ns != Ns::Null {
            return;
        }
        match tag.local {
            "channel" => {
                self.channels += 1;
                if self.channels > 1 {
                    let s = "4.1 rss";
                    self.push(
                        draft(Code::DuplicateElement, tag.offset, s).parent("rss").el("channel"),
                    );
                }
                self.channel.offset = tag.offset;
                self.channel_end();
            }
            "item" => {}
            other => self.push(
                draft(Code::UndefinedElement, tag.offset, "1. Introduction")
                    .parent("rss")
                    .el(other),
            ),
        }
        let _ = r;
    }

    /// Attributes in no namespace that the specification does not give the element `tag` (a
    /// child of `rss`, `channel` or `item` the specification defines): the validator's
    /// `UnexpectedAttribute` (`isPermalink` for `isPermaLink`). `xmlns` declarations and
    /// prefixed attributes (`xml:lang`, extension attributes: §1, the Profile's restrictions do
    /// not apply to them) are not checked; an undefined element is reported as such.
    #[cold]
    fn unexpected_attrs(&mut self, level: Level, tag: &Tag<'a>) {
        let known = match level {
            Level::Rss => matches!(tag.local, "channel" | "item"),
            Level::Channel => CHANNEL.contains(&tag.local) || tag.local == "item",
            Level::Item => ITEM.contains(&tag.local),
            _ => false,
        };
        if !known {
            return;
        }
        let expected: &[&str] = match tag.local {
            "guid" => &["isPermaLink"],
            "enclosure" => &["url", "length", "type"],
            "source" => &["url"],
            "category" => &["domain"],
            "cloud" => &["domain", "port", "path", "registerProcedure", "protocol"],
            _ => &[],
        };
        for (name, _) in tag.attrs() {
            if name.contains(':') || name == "xmlns" || expected.contains(&name) {
                continue;
            }
            let e = draft(Code::UnexpectedAttribute, tag.offset, "1. Introduction");
            self.push(e.el(tag.local).parent(tag.local).param("attr", name));
        }
    }

    /// A plain-text element's value (§3.1): child elements, HTML, and `&`/`<`/`>` encoded
    /// other than by hexadecimal references are reported.
    fn plain(&mut self, r: &XmlReader<'a>, tag: &Tag<'a>, parent: &str) -> Cow<'a, str> {
        let (cs, ce, _) = self.spans(r, tag);
        let src = self.src;
        self.plain_raw(tag.offset, tag.qname, parent, &src[cs..ce], tag.ns == Ns::Null)
    }

    /// [`Self::plain`] of the element `name` at `offset` whose raw content is `raw`. The
    /// hexadecimal-reference rule (`hex`) is the Profile's for elements of the RSS
    /// specification; namespace elements get the child-element and HTML checks only.
    fn plain_raw(
        &mut self,
        offset: usize,
        name: &str,
        parent: &str,
        raw: &'a str,
        hex: bool,
    ) -> Cow<'a, str> {
        let raw = values::read_raw(raw);
        let s = "3.1 Character Data";
        if let Some(child) = raw.child {
            self.push(draft(Code::UndefinedElement, offset, s).parent(name).el(child));
        } else if let Some(t) = values::html_tag(&raw.text) {
            self.push(draft(Code::ContainsHTML, offset, s).parent(parent).el(name).value(t));
        }
        if let (true, Some(form)) = (hex, raw.non_hex) {
            self.push(draft(Code::CharacterData, offset, s).parent(parent).el(name).value(form));
        }
        raw.text
    }

    fn url(&mut self, tag: &Tag<'a>, parent: &str, element: &str, v: &str, section: &'static str) {
        match values::check_url(v) {
            UrlCheck::Ok => {}
            UrlCheck::Blank => {
                self.push(draft(Code::NotBlank, tag.offset, section).parent(parent).el(element))
            }
            UrlCheck::Iri => self.push(
                draft(Code::UriNotIri, tag.offset, "3.4 URLs").parent(parent).el(element).value(v),
            ),
            UrlCheck::NotFull => self.push(
                draft(Code::InvalidFullLink, tag.offset, "3.4 URLs")
                    .parent(parent)
                    .el(element)
                    .value(v),
            ),
            UrlCheck::Unregistered => self.push(
                draft(Code::SchemeNotIANARegistered, tag.offset, "3.4 URLs")
                    .parent(parent)
                    .el(element)
                    .value(values::scheme(v.trim()).unwrap_or_default()),
            ),
        }
    }

    fn url_attr(&mut self, tag: &Tag<'a>, attr: &str, section: &'static str) {
        let Some(v) = tag.attr(self.arena, attr) else {
            let e = draft(Code::MissingAttribute, tag.offset, section)
                .el(tag.local)
                .param("attr", attr);
            self.push(e);
            return;
        };
        let Some((code, v)) = url_attr_problem(v) else { return };
        self.push(draft(code, tag.offset, "3.4 URLs").el(tag.local).param("attr", attr).value(v));
    }

    fn date(&mut self, tag: &Tag<'a>, parent: &str, v: &str, future_section: Option<&'static str>) {
        let s = "3.2 Dates and Times";
        let e = tag.local;
        let secs = match values::check_rfc822(v) {
            DateCheck::Ok(secs) => secs,
            DateCheck::Problematic(_, secs) => {
                let fnd = draft(Code::ProblematicalRFC822Date, tag.offset, s).parent(parent).el(e);
                self.push(fnd.value(v));
                secs
            }
            DateCheck::IncorrectDow => {
                let fnd = draft(Code::IncorrectDOW, tag.offset, s).parent(parent).el(e);
                return self.push(fnd.value(v));
            }
            DateCheck::Invalid => {
                let fnd = draft(Code::InvalidRFC2822Date, tag.offset, s).parent(parent).el(e);
                return self.push(fnd.value(v));
            }
        };
        // The validator's other implausible dates: before 1970 (any date element).
        if secs < 0 {
            let fnd = draft(Code::ImplausibleDate, tag.offset, s).parent(parent).el(e);
            return self.push(fnd.value(v));
        }
        if let Some(section) = future_section {
            // A day of slack for clock skew between publisher and reader.
            if secs > self.now.saturating_add(86_400) {
                let fnd = draft(Code::ImplausibleDate, tag.offset, section).parent(parent).el(e);
                self.push(fnd.value(v));
            }
        }
    }

    fn email(&mut self, tag: &Tag<'a>, parent: &str, v: &str) {
        let s = "3.3 E-mail Addresses";
        let code = match values::check_email(v) {
            EmailCheck::Recommended => return,
            EmailCheck::MissingRealName => Code::MissingRealName,
            EmailCheck::OtherFormat => Code::EmailFormat,
            EmailCheck::Invalid => Code::InvalidContact,
        };
        self.push(draft(code, tag.offset, s).parent(parent).el(tag.local).value(v));
    }

    fn not_blank(&mut self, tag: &Tag<'a>, parent: &str, v: &str, section: &'static str) -> bool {
        if v.trim().is_empty() {
            self.push(draft(Code::NotBlank, tag.offset, section).parent(parent).el(tag.local));
            return false;
        }
        true
    }

    /// A Dublin Core element (plain text, as the validator's `text` class reads it).
    fn ns_text(&mut self, r: &XmlReader<'a>, tag: &Tag<'a>, parent: &str) {
        let (cs, ce, _) = self.spans(r, tag);
        let src = self.src;
        self.plain_raw(tag.offset, tag.qname, parent, &src[cs..ce], false);
    }

    /// A category value (§4.1.1.4, §4.1.1.20.2): a hierarchy level that is empty.
    fn category(&mut self, tag: &Tag<'a>, parent: &str, v: &str, section: &'static str) {
        if values::has_empty_category_level(v) {
            let e = draft(Code::RSS20Profile, tag.offset, section).parent(parent).el("category");
            self.push(e.value(v).param(
                "message",
                "The category's value should be a slash-delimited string that identifies a \
                 hierarchical position in the taxonomy",
            ));
        }
    }

    /// Core and namespace elements with the same semantics in one channel or item.
    fn semantics(
        &mut self,
        code: Code,
        pairs: &[(&str, &str, &'static str)],
        ext: &[Option<usize>],
        core_at: impl Fn(&str) -> Option<usize>,
    ) {
        let mut reported: Vec<&str> = Vec::new();
        for ((e, core, section), at) in pairs.iter().zip(ext) {
            let (Some(at), Some(core_off)) = (*at, core_at(core)) else { continue };
            if reported.contains(e) {
                continue;
            }
            reported.push(e);
            // Reported where the second of the two appears, as the validator does.
            let e = draft(code, at.max(core_off), section).param("core", core).param("ext", e);
            self.push(e);
        }
    }

    /// The direct null-namespace children of the consumed element `tag`, re-read from its
    /// source span: `(tag, text, raw content)`.
    fn children(&self, r: &XmlReader<'a>, tag: &Tag<'a>) -> Vec<(Tag<'a>, &'a str, &'a str)> {
        self.children_where(r, tag, |c| {
            c.ns == Ns::Null || c.ns == Ns::UnboundPrefix && !c.qname.contains(':')
        })
    }

    /// The direct children of the consumed element `tag` that `keep` takes, re-read from its
    /// source span: `(tag, text, raw content)`.
    fn children_where(
        &self,
        r: &XmlReader<'a>,
        tag: &Tag<'a>,
        keep: impl Fn(&Tag<'a>) -> bool,
    ) -> Vec<(Tag<'a>, &'a str, &'a str)> {
        let (_, _, end) = self.spans(r, tag);
        let slice = &self.src[tag.offset..end.max(tag.offset)];
        let base = tag.offset;
        let mut sub = XmlReader::new(self.arena, slice, 8);
        let mut out = Vec::new();
        if !matches!(sub.next(), crate::xml::Event::Start(_)) {
            return out;
        }
        while let Some(mut c) = sub.next_child() {
            let t = sub.child_text(1 << 16);
            if keep(&c) {
                c.offset += base;
                let (cs, ce, _) = self.content_span(&c, sub.last_offset() + base);
                out.push((c, t, &self.src[cs..ce]));
            }
        }
        out
    }
}

/// What is wrong with the value of a URL attribute, as its finding's code and value (the
/// scheme, for one not registered with IANA); `None` for a full URL.
fn url_attr_problem(v: &str) -> Option<(Code, &str)> {
    match values::check_url(v) {
        UrlCheck::Ok => None,
        UrlCheck::Iri => Some((Code::UriNotIri, v)),
        UrlCheck::Blank | UrlCheck::NotFull => Some((Code::InvalidURLAttribute, v)),
        UrlCheck::Unregistered => {
            Some((Code::SchemeNotIANARegistered, values::scheme(v.trim()).unwrap_or_default()))
        }
    }
}

mod atom;
mod channel;
mod item;
mod itunes;
mod json;
mod media;
mod rss1;
#[cfg(test)]
mod tests;
