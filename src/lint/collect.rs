//! The collector the RSS 2.0 state machine feeds (see the module docs of [`super`]): one
//! call per consumed child of `rss`, `channel` and `item`, one per consumed item. Per-level
//! state (counts, what was seen, order) is kept until the parent is finalized.

use std::borrow::Cow;

use bumpalo::Bump;

use super::values::{self, DateCheck, EmailCheck, UrlCheck};
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
}

#[derive(Default)]
struct ItemState {
    counts: [u32; ITEM.len()],
    first: [usize; ITEM.len()],
    ext: [Option<usize>; ITEM_PAIRS.len()],
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
    ch: ChannelState<'a>,
    it: ItemState,
    findings: Vec<Finding>,
}

/// A finding under construction.
struct F {
    code: Code,
    offset: usize,
    section: &'static str,
    params: Vec<(&'static str, Box<str>)>,
}

impl F {
    fn p(mut self, name: &'static str, value: &str) -> F {
        self.params.push((name, value.into()));
        self
    }
    fn el(self, element: &str) -> F {
        self.p("element", element)
    }
    fn parent(self, parent: &str) -> F {
        self.p("parent", parent)
    }
    fn value(self, value: &str) -> F {
        // Values are quoted in messages and records; very long ones are cut.
        let v = value.trim();
        let v = &v[..crate::xml::floor_char_boundary(v, 200)];
        self.p("value", v)
    }
}

fn f(code: Code, offset: usize, section: &'static str) -> F {
    F { code, offset, section, params: Vec::new() }
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
    for f in findings {
        let upto = f.offset;
        let gap = &src.as_bytes()[pos..upto];
        // Characters are counted from the last newline of the gap, or from the previous
        // finding when the gap has none (offsets are on character boundaries).
        let counted = match memchr::memrchr(b'\n', gap) {
            Some(nl) => {
                line += memchr::memchr_iter(b'\n', &gap[..=nl]).count() as u32;
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
    }
    read
}

impl<'a> Collector<'a> {
    pub fn new(src: &'a str, arena: &'a Bump, options: &LintOptions) -> Self {
        Collector {
            src,
            arena,
            now: options.now,
            version: None,
            rss_offset: 0,
            is_rss: false,
            channels: 0,
            ch: ChannelState::default(),
            it: ItemState::default(),
            findings: Vec::new(),
        }
    }

    fn push(&mut self, f: F) {
        let offset = crate::xml::floor_char_boundary(self.src, f.offset.min(self.src.len()));
        self.findings.push(Finding {
            code: f.code,
            params: f.params,
            offset,
            line: 0,
            column: 0,
            section: f.section,
        });
    }

    /// The root `rss` element (§4.1: `version` must be "2.0").
    pub fn root(&mut self, tag: &Tag<'a>) {
        self.is_rss = true;
        self.rss_offset = tag.offset;
        self.version = tag.attr(self.arena, "version");
        const S: &str = "4.1 rss";
        match self.version.map(str::trim) {
            None => {
                self.push(f(Code::MissingAttribute, tag.offset, S).el("rss").p("attr", "version"))
            }
            Some("2.0") => {}
            Some(v @ ("0.91" | "0.92" | "0.93" | "0.94")) => {
                self.push(f(Code::ObsoleteVersion, tag.offset, S).el("rss").value(v))
            }
            Some(v) => self.push(f(Code::InvalidRSSVersion, tag.offset, S).el("rss").value(v)),
        }
    }

    /// The findings, in document order, with lines and columns.
    pub fn finish(mut self) -> Report {
        if self.is_rss && self.channels == 0 {
            let s = "4.1 rss";
            self.push(f(Code::MissingElement, self.rss_offset, s).parent("rss").el("channel"));
        }
        let mut findings = self.findings;
        findings.sort_by_key(|f| f.offset);
        locate(self.src, &mut findings);
        Report { version: self.version.map(Into::into), findings }
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
        match level {
            Level::Rss => self.rss_child(r, tag),
            Level::Channel => self.channel_child(r, tag),
            Level::Item => self.item_child(r, tag),
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
                    self.push(f(Code::DuplicateElement, tag.offset, s).parent("rss").el("channel"));
                }
                self.ch.offset = tag.offset;
                self.channel_end();
            }
            "item" => {}
            other => self.push(
                f(Code::UndefinedElement, tag.offset, "1. Introduction").parent("rss").el(other),
            ),
        }
        let _ = r;
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
            self.push(f(Code::UndefinedElement, offset, s).parent(name).el(child));
        } else if let Some(t) = values::html_tag(&raw.text) {
            self.push(f(Code::ContainsHTML, offset, s).parent(parent).el(name).value(t));
        }
        if let (true, Some(form)) = (hex, raw.non_hex) {
            self.push(f(Code::CharacterData, offset, s).parent(parent).el(name).value(form));
        }
        raw.text
    }

    fn url(&mut self, tag: &Tag<'a>, parent: &str, element: &str, v: &str, section: &'static str) {
        match values::check_url(v) {
            UrlCheck::Ok => {}
            UrlCheck::Blank => {
                self.push(f(Code::NotBlank, tag.offset, section).parent(parent).el(element))
            }
            UrlCheck::Iri => self.push(
                f(Code::UriNotIri, tag.offset, "3.4 URLs").parent(parent).el(element).value(v),
            ),
            UrlCheck::NotFull => self.push(
                f(Code::InvalidFullLink, tag.offset, "3.4 URLs")
                    .parent(parent)
                    .el(element)
                    .value(v),
            ),
        }
    }

    fn url_attr(&mut self, tag: &Tag<'a>, attr: &str, section: &'static str) {
        let Some(v) = tag.attr(self.arena, attr) else {
            let e = f(Code::MissingAttribute, tag.offset, section).el(tag.local).p("attr", attr);
            self.push(e);
            return;
        };
        let code = match values::check_url(v) {
            UrlCheck::Ok => return,
            UrlCheck::Iri => Code::UriNotIri,
            UrlCheck::Blank | UrlCheck::NotFull => Code::InvalidURLAttribute,
        };
        self.push(f(code, tag.offset, "3.4 URLs").el(tag.local).p("attr", attr).value(v));
    }

    fn date(&mut self, tag: &Tag<'a>, parent: &str, v: &str, future_section: Option<&'static str>) {
        let s = "3.2 Dates and Times";
        let e = tag.local;
        let secs = match values::check_rfc822(v) {
            DateCheck::Ok(secs) => secs,
            DateCheck::Problematic(_, secs) => {
                let fnd = f(Code::ProblematicalRFC822Date, tag.offset, s).parent(parent).el(e);
                self.push(fnd.value(v));
                secs
            }
            DateCheck::IncorrectDow => {
                let fnd = f(Code::IncorrectDOW, tag.offset, s).parent(parent).el(e);
                return self.push(fnd.value(v));
            }
            DateCheck::Invalid => {
                let fnd = f(Code::InvalidRFC2822Date, tag.offset, s).parent(parent).el(e);
                return self.push(fnd.value(v));
            }
        };
        if let Some(section) = future_section {
            // A day of slack for clock skew between publisher and reader.
            if secs > self.now.saturating_add(86_400) {
                let fnd = f(Code::ImplausibleDate, tag.offset, section).parent(parent).el(e);
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
        self.push(f(code, tag.offset, s).parent(parent).el(tag.local).value(v));
    }

    fn not_blank(&mut self, tag: &Tag<'a>, parent: &str, v: &str, section: &'static str) -> bool {
        if v.trim().is_empty() {
            self.push(f(Code::NotBlank, tag.offset, section).parent(parent).el(tag.local));
            return false;
        }
        true
    }

    fn channel_child(&mut self, r: &XmlReader<'a>, tag: &Tag<'a>) {
        let off = tag.offset;
        if tag.ns != Ns::Null {
            self.channel_ns_child(r, tag);
            return;
        }
        let name = tag.local;
        if name == "item" {
            self.ch.seen_item = true;
            return;
        }
        if self.ch.seen_item && !self.ch.misplaced {
            self.ch.misplaced = true;
            self.push(f(Code::MisplacedItem, off, "4.1.1 channel").parent("channel").el(name));
        }
        let Some(i) = CHANNEL.iter().position(|&n| n == name) else {
            let s = "1. Introduction";
            self.push(f(Code::UndefinedElement, off, s).parent("channel").el(name));
            return;
        };
        self.ch.counts[i] += 1;
        if self.ch.counts[i] == 1 {
            self.ch.first[i] = off;
        }
        if self.ch.counts[i] > 1 && name != "category" {
            let s = "4.1.1 channel";
            self.push(f(Code::DuplicateElement, off, s).parent("channel").el(name));
            return;
        }
        match name {
            "title" => {
                let v = self.plain(r, tag, "channel");
                self.not_blank(tag, "channel", &v, "4.1.1.3 title");
                self.ch.title = Some(v);
            }
            "description" => {
                let v = self.plain(r, tag, "channel");
                self.not_blank(tag, "channel", &v, "4.1.1.1 description");
            }
            "link" => {
                let v = self.plain(r, tag, "channel");
                self.url(tag, "channel", "link", &v, "4.1.1.2 link");
                self.ch.link = Some(v);
            }
            "docs" => {
                let v = self.plain(r, tag, "channel");
                self.url(tag, "channel", "docs", &v, "4.1.1.7 docs");
                if values::is_noncanonical_rssboard_docs(&v) {
                    let e = f(Code::NonCanonicalURI, off, "4.1.1.7 docs").parent("channel");
                    let e = e.el("docs").p("uri", v.trim());
                    self.push(e.p("curi", values::RSSBOARD_SPEC));
                }
            }
            "language" => {
                let v = self.plain(r, tag, "channel");
                if !values::is_language(&v) {
                    let s = "4.1.1.10 language";
                    self.push(
                        f(Code::InvalidLanguage, off, s).parent("channel").el(name).value(&v),
                    );
                }
            }
            "pubDate" | "lastBuildDate" => {
                let v = self.plain(r, tag, "channel");
                self.date(tag, "channel", &v, None);
            }
            "managingEditor" | "webMaster" => {
                let v = self.plain(r, tag, "channel");
                self.email(tag, "channel", &v);
            }
            "ttl" => {
                let v = self.plain(r, tag, "channel");
                if values::non_negative(&v).is_none() {
                    let s = "4.1.1.18 ttl";
                    let e = f(Code::InvalidNonNegativeInteger, off, s).parent("channel").el(name);
                    self.push(e.value(&v));
                }
            }
            "copyright" | "generator" => {
                self.plain(r, tag, "channel");
            }
            "rating" => {
                let v = self.plain(r, tag, "channel");
                if !values::is_pics_label(&v) {
                    let e = f(Code::InvalidMediaRating, off, "4.1.1.14 rating").parent("channel");
                    self.push(e.el(name).value(&v));
                }
            }
            "category" => {
                let v = self.plain(r, tag, "channel");
                self.category(tag, "channel", &v, "4.1.1.4 category");
            }
            "cloud" => self.cloud(tag),
            "image" => self.image(r, tag),
            "textInput" => self.text_input(r, tag),
            "skipHours" => self.skip_hours(r, tag),
            "skipDays" => self.skip_days(r, tag),
            _ => {}
        }
    }

    fn channel_ns_child(&mut self, r: &XmlReader<'a>, tag: &Tag<'a>) {
        match (tag.ns, tag.local) {
            (Ns::Atom, "link") => {
                let s = "5.1.1 atom:link";
                let Some(href) = tag.attr(self.arena, "href") else {
                    self.push(f(Code::MissingHref, tag.offset, s).el(tag.qname).p("attr", "href"));
                    return;
                };
                if tag.attr(self.arena, "rel").map(str::trim) == Some("self") {
                    self.ch.self_link = true;
                    if values::scheme(href.trim()).is_none() {
                        self.push(f(Code::RelativeSelf, tag.offset, s).el(tag.qname).value(href));
                    }
                }
            }
            (Ns::DublinCore, local) => {
                self.ns_text(r, tag, "channel");
                let name = match local {
                    "creator" => "dc:creator",
                    "language" => "dc:language",
                    "publisher" => "dc:publisher",
                    "rights" => "dc:rights",
                    "date" => "dc:date",
                    _ => return,
                };
                note_ext(&CHANNEL_PAIRS, &mut self.ch.ext, name, tag.offset);
            }
            (Ns::DcTerms, "modified") => {
                note_ext(&CHANNEL_PAIRS, &mut self.ch.ext, "dcterms:modified", tag.offset);
            }
            (Ns::Other, "generatorAgent") if ns_uri(r, tag) == ADMIN => {
                note_ext(&CHANNEL_PAIRS, &mut self.ch.ext, "admin:generatorAgent", tag.offset);
            }
            _ => {}
        }
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
            let e = f(Code::RSS20Profile, tag.offset, section).parent(parent).el("category");
            self.push(e.value(v).p(
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
            let e = f(code, at.max(core_off), section).p("core", core).p("ext", e);
            self.push(e);
        }
    }

    /// The channel just ended (its `channel` child of `rss` was consumed).
    fn channel_end(&mut self) {
        let ch = std::mem::take(&mut self.ch);
        let off = ch.offset;
        let count = |n: &str| ch.counts[CHANNEL.iter().position(|&x| x == n).unwrap_or(0)];
        for (name, code, s) in [
            ("title", Code::MissingTitle, "4.1.1.3 title"),
            ("link", Code::MissingLink, "4.1.1.2 link"),
            ("description", Code::MissingDescription, "4.1.1.1 description"),
        ] {
            if count(name) == 0 {
                self.push(f(code, off, s).parent("channel").el(name));
            }
        }
        if let Some((title, link, at)) = ch.image {
            let s = "4.1.1.9.1 link";
            if let (Some(il), Some(cl)) = (link, ch.link.as_deref()) {
                if il.trim() != cl.trim() {
                    self.push(
                        f(Code::ImageLinkDoesntMatch, at, s).parent("image").el("link").value(il),
                    );
                }
            }
            let s = "4.1.1.9.2 title";
            if let (Some(it), Some(ct)) = (title, ch.title.as_deref()) {
                if it.trim() != ct.trim() {
                    self.push(
                        f(Code::ImageTitleDoesntMatch, at, s).parent("image").el("title").value(it),
                    );
                }
            }
        }
        if !ch.self_link {
            let s = "5.1.1 atom:link";
            self.push(f(Code::MissingAtomSelfLink, off, s).parent("channel").el("atom:link"));
        }
        let core_at = |n: &str| {
            let i = CHANNEL.iter().position(|&x| x == n)?;
            (ch.counts[i] > 0).then_some(ch.first[i])
        };
        self.semantics(Code::DuplicateSemantics, &CHANNEL_PAIRS, &ch.ext, core_at);
        if ch.slash_comments && count("lastBuildDate") == 0 {
            let s = "5.4.1 slash:comments";
            self.push(f(Code::SlashDate, off, s).parent("channel").el("lastBuildDate"));
        }
    }

    fn cloud(&mut self, tag: &Tag<'a>) {
        let s = "4.1.1.5 cloud";
        for attr in ["domain", "port", "path", "registerProcedure", "protocol"] {
            let Some(v) = tag.attr(self.arena, attr) else {
                self.push(f(Code::MissingAttribute, tag.offset, s).el("cloud").p("attr", attr));
                continue;
            };
            let v = v.trim();
            match attr {
                "port" if values::non_negative(v).is_none_or(|p| p == 0 || p > 65_535) => {
                    let e = f(Code::InvalidIntegerAttribute, tag.offset, s).el("cloud");
                    self.push(e.p("attr", attr).value(v));
                }
                "protocol" if !matches!(v, "xml-rpc" | "soap" | "http-post") => {
                    self.push(
                        f(Code::InvalidValue, tag.offset, s).el("cloud").p("attr", attr).value(v),
                    );
                }
                _ => {}
            }
        }
    }

    /// The direct null-namespace children of the consumed element `tag`, re-read from its
    /// source span: `(tag, text, raw content)`.
    fn children(&self, r: &XmlReader<'a>, tag: &Tag<'a>) -> Vec<(Tag<'a>, &'a str, &'a str)> {
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
            if c.ns == Ns::Null || c.ns == Ns::UnboundPrefix && !c.qname.contains(':') {
                c.offset += base;
                let (cs, ce, _) = self.content_span(&c, sub.last_offset() + base);
                out.push((c, t, &self.src[cs..ce]));
            }
        }
        out
    }

    fn image(&mut self, r: &XmlReader<'a>, tag: &Tag<'a>) {
        let kids = self.children(r, tag);
        let mut seen: [u32; 6] = [0; 6];
        const NAMES: [&str; 6] = ["url", "title", "link", "description", "width", "height"];
        let (mut title, mut link) = (None, None);
        for (c, t, raw) in &kids {
            let Some(i) = NAMES.iter().position(|&n| n == c.local) else {
                let s = "4.1.1.9 image";
                self.push(f(Code::UndefinedElement, c.offset, s).parent("image").el(c.local));
                continue;
            };
            seen[i] += 1;
            if seen[i] > 1 {
                let s = "4.1.1.9 image";
                self.push(f(Code::DuplicateElement, c.offset, s).parent("image").el(c.local));
                continue;
            }
            self.plain_raw(c.offset, c.local, "image", raw, true);
            match c.local {
                "url" => self.url(c, "image", "url", t, "4.1.1.9.3 url"),
                "link" => {
                    self.url(c, "image", "link", t, "4.1.1.9.1 link");
                    link = Some(*t);
                }
                "title" => {
                    self.not_blank(c, "image", t, "4.1.1.9.2 title");
                    title = Some(*t);
                }
                "width" | "height" => {
                    let (max, code, s) = if c.local == "width" {
                        (144, Code::InvalidWidth, "4.1.1.9.6 width")
                    } else {
                        (400, Code::InvalidHeight, "4.1.1.9.5 height")
                    };
                    if !values::non_negative(t).is_some_and(|n| (1..=max).contains(&n)) {
                        self.push(f(code, c.offset, s).parent("image").el(c.local).value(t));
                    }
                }
                _ => {}
            }
        }
        for (i, code, s) in [
            (0, Code::MissingElement, "4.1.1.9.3 url"),
            (1, Code::MissingTitle, "4.1.1.9.2 title"),
            (2, Code::MissingLink, "4.1.1.9.1 link"),
        ] {
            if seen[i] == 0 {
                self.push(f(code, tag.offset, s).parent("image").el(NAMES[i]));
            }
        }
        self.ch.image = Some((title, link, tag.offset));
    }

    fn text_input(&mut self, r: &XmlReader<'a>, tag: &Tag<'a>) {
        let s = "4.1.1.17 textInput";
        self.push(f(Code::AvoidTextInput, tag.offset, s).el("textInput"));
        let kids = self.children(r, tag);
        const NAMES: [&str; 4] = ["title", "description", "name", "link"];
        let mut seen = [0u32; 4];
        for (c, t, raw) in &kids {
            let Some(i) = NAMES.iter().position(|&n| n == c.local) else {
                self.push(f(Code::UndefinedElement, c.offset, s).parent("textInput").el(c.local));
                continue;
            };
            seen[i] += 1;
            if seen[i] > 1 {
                self.push(f(Code::DuplicateElement, c.offset, s).parent("textInput").el(c.local));
                continue;
            }
            self.plain_raw(c.offset, c.local, "textInput", raw, true);
            match c.local {
                "link" => self.url(c, "textInput", "link", t, "4.1.1.17.2 link"),
                "name" if !values::is_form_component_name(t) => {
                    let s = "4.1.1.17.3 name";
                    self.push(
                        f(Code::InvalidFormComponentName, c.offset, s)
                            .parent("textInput")
                            .el("name")
                            .value(t),
                    );
                }
                _ => {}
            }
        }
        for (i, s) in [
            (0, "4.1.1.17.4 title"),
            (1, "4.1.1.17.1 description"),
            (2, "4.1.1.17.3 name"),
            (3, "4.1.1.17.2 link"),
        ] {
            if seen[i] == 0 {
                self.push(f(Code::MissingElement, tag.offset, s).parent("textInput").el(NAMES[i]));
            }
        }
    }

    fn skip_hours(&mut self, r: &XmlReader<'a>, tag: &Tag<'a>) {
        let s = "4.1.1.16.1 hour";
        let kids = self.children(r, tag);
        let mut seen = [false; 24];
        let mut n = 0;
        for (c, t, raw) in &kids {
            if c.local != "hour" {
                let s = "4.1.1.16 skipHours";
                self.push(f(Code::UndefinedElement, c.offset, s).parent("skipHours").el(c.local));
                continue;
            }
            self.plain_raw(c.offset, c.local, "skipHours", raw, true);
            n += 1;
            if n == 25 {
                let s = "4.1.1.16 skipHours";
                self.push(f(Code::NotEnoughHoursInTheDay, c.offset, s).el("skipHours"));
            }
            match values::non_negative(t) {
                Some(h @ 0..=23) => {
                    if std::mem::replace(&mut seen[h as usize], true) {
                        self.push(
                            f(Code::DuplicateValue, c.offset, s)
                                .parent("skipHours")
                                .el("hour")
                                .value(t),
                        );
                    }
                }
                Some(24) => {
                    self.push(
                        f(Code::UseZeroForMidnight, c.offset, s)
                            .parent("skipHours")
                            .el("hour")
                            .value(t),
                    );
                    if std::mem::replace(&mut seen[0], true) {
                        self.push(
                            f(Code::DuplicateValue, c.offset, s)
                                .parent("skipHours")
                                .el("hour")
                                .value(t),
                        );
                    }
                }
                _ => self.push(
                    f(Code::InvalidHour, c.offset, s).parent("skipHours").el("hour").value(t),
                ),
            }
        }
    }

    fn skip_days(&mut self, r: &XmlReader<'a>, tag: &Tag<'a>) {
        const DAYS: [&str; 7] =
            ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
        let s = "4.1.1.15.1 day";
        let kids = self.children(r, tag);
        let mut seen = [false; 7];
        let mut n = 0;
        for (c, t, raw) in &kids {
            if c.local != "day" {
                let s = "4.1.1.15 skipDays";
                self.push(f(Code::UndefinedElement, c.offset, s).parent("skipDays").el(c.local));
                continue;
            }
            self.plain_raw(c.offset, c.local, "skipDays", raw, true);
            n += 1;
            if n == 8 {
                let s = "4.1.1.15 skipDays";
                self.push(f(Code::EightDaysAWeek, c.offset, s).el("skipDays"));
            }
            match DAYS.iter().position(|d| *d == t.trim()) {
                Some(d) => {
                    if std::mem::replace(&mut seen[d], true) {
                        self.push(
                            f(Code::DuplicateValue, c.offset, s)
                                .parent("skipDays")
                                .el("day")
                                .value(t),
                        );
                    }
                }
                None => self
                    .push(f(Code::InvalidDay, c.offset, s).parent("skipDays").el("day").value(t)),
            }
        }
    }

    fn item_child(&mut self, r: &XmlReader<'a>, tag: &Tag<'a>) {
        let off = tag.offset;
        if tag.ns != Ns::Null {
            self.item_ns_child(r, tag);
            return;
        }
        let name = tag.local;
        let Some(i) = ITEM.iter().position(|&n| n == name) else {
            let s = "1. Introduction";
            self.push(f(Code::UndefinedElement, off, s).parent("item").el(name));
            return;
        };
        self.it.counts[i] += 1;
        if self.it.counts[i] == 1 {
            self.it.first[i] = off;
        }
        if self.it.counts[i] > 1 && name != "category" {
            if name == "enclosure" {
                self.push(
                    f(Code::DuplicateEnclosure, off, "4.1.1.20.5 enclosure")
                        .parent("item")
                        .el(name),
                );
            } else {
                self.push(f(Code::DuplicateElement, off, "4.1.1.20 item").parent("item").el(name));
                return;
            }
        }
        match name {
            "title" => {
                self.plain(r, tag, "item");
            }
            "category" => {
                let v = self.plain(r, tag, "item");
                self.category(tag, "item", &v, "4.1.1.20.2 category");
            }
            "description" => self.html(r, tag, "item", "4.1.1.20.4 description"),
            "link" | "comments" => {
                let v = self.plain(r, tag, "item");
                let s = if name == "link" { "4.1.1.20.7 link" } else { "4.1.1.20.3 comments" };
                self.url(tag, "item", name, &v, s);
            }
            "author" => {
                let v = self.plain(r, tag, "item");
                self.email(tag, "item", &v);
            }
            "pubDate" => {
                let v = self.plain(r, tag, "item");
                self.date(tag, "item", &v, Some("4.1.1.20.8 pubDate"));
            }
            "guid" => {
                let v = self.plain(r, tag, "item");
                let s = "4.1.1.20.6 guid";
                let permalink = match tag.attr(self.arena, "isPermaLink").map(str::trim) {
                    None | Some("true") => true,
                    Some("false") => false,
                    Some(other) => {
                        let e = f(Code::InvalidBooleanAttribute, off, s).el("guid");
                        self.push(e.p("attr", "isPermaLink").value(other));
                        true
                    }
                };
                if permalink && values::check_url(&v) != UrlCheck::Ok {
                    self.push(
                        f(Code::InvalidPermalink, off, s).parent("item").el("guid").value(&v),
                    );
                }
            }
            "enclosure" => self.enclosure(tag),
            "source" => {
                self.plain(r, tag, "item");
                self.url_attr(tag, "url", "4.1.1.20.9 source");
            }
            _ => {}
        }
    }

    fn item_ns_child(&mut self, r: &XmlReader<'a>, tag: &Tag<'a>) {
        match (tag.ns, tag.local) {
            (Ns::RssContent, "encoded") => {
                if self.it.counts[3] == 0 {
                    let s = "5.2.1 content:encoded";
                    let e = f(Code::NeedDescriptionBeforeContent, tag.offset, s).parent("item");
                    self.push(e.el(tag.qname));
                }
                self.html(r, tag, "item", "5.2.1 content:encoded");
            }
            (Ns::DublinCore, local) => {
                self.ns_text(r, tag, "item");
                let name = match local {
                    "creator" => "dc:creator",
                    "subject" => "dc:subject",
                    "date" => "dc:date",
                    "source" => "dc:source",
                    _ => return,
                };
                note_ext(&ITEM_PAIRS, &mut self.it.ext, name, tag.offset);
            }
            (Ns::Atom, "link") if tag.attr(self.arena, "href").is_none() => {
                let s = "5.1.1 atom:link";
                self.push(f(Code::MissingHref, tag.offset, s).el(tag.qname).p("attr", "href"));
            }
            (Ns::Other, "comments") if ns_uri(r, tag) == SLASH => {
                self.ch.slash_comments = true;
                let (cs, ce, _) = self.spans(r, tag);
                let src = self.src;
                let v = self.plain_raw(tag.offset, tag.qname, "item", &src[cs..ce], false);
                if values::non_negative(&v).is_none() {
                    let s = "5.4.1 slash:comments";
                    let e = f(Code::InvalidNonNegativeInteger, tag.offset, s).parent("item");
                    self.push(e.el(tag.qname).value(&v));
                }
            }
            _ => {}
        }
    }

    /// An HTML element (`description`, `content:encoded`): markup must be escaped (§4.1.1.20.4:
    /// no child elements) and should not hold relative URL references.
    fn html(&mut self, r: &XmlReader<'a>, tag: &Tag<'a>, parent: &str, section: &'static str) {
        let (cs, ce, _) = self.spans(r, tag);
        let scan = values::scan_html_raw(&self.src[cs..ce]);
        if let Some(child) = scan.child {
            self.push(f(Code::UndefinedElement, tag.offset, section).parent(tag.qname).el(child));
        }
        if let Some(name) = scan.non_html {
            let e = f(Code::NotHtml, tag.offset, section).parent(parent).el(tag.qname);
            self.push(e.value(name).p("message", "Non-html tag"));
        }
        if let Some(v) = scan.relative {
            let e = f(Code::ContainsRelRef, tag.offset, section).parent(parent).el(tag.qname);
            self.push(e.value(&v));
        }
    }

    fn enclosure(&mut self, tag: &Tag<'a>) {
        let s = "4.1.1.20.5 enclosure";
        self.url_attr(tag, "url", s);
        match tag.attr(self.arena, "length").map(str::trim) {
            None => self
                .push(f(Code::MissingAttribute, tag.offset, s).el("enclosure").p("attr", "length")),
            Some(v) if values::non_negative(v).is_none() => {
                let code = if v.strip_prefix('-').is_some_and(|d| values::non_negative(d).is_some())
                {
                    Code::UseZeroForUnknown
                } else {
                    Code::InvalidNonNegativeInteger
                };
                self.push(f(code, tag.offset, s).el("enclosure").p("attr", "length").value(v));
            }
            Some(_) => {}
        }
        match tag.attr(self.arena, "type") {
            None => self
                .push(f(Code::MissingAttribute, tag.offset, s).el("enclosure").p("attr", "type")),
            Some(v) if !values::is_mime_type(v) => {
                self.push(
                    f(Code::InvalidMIMEAttribute, tag.offset, s)
                        .el("enclosure")
                        .p("attr", "type")
                        .value(v),
                );
            }
            Some(_) => {}
        }
    }

    /// The item `tag` was consumed: required elements, recommended guid, semantics.
    pub fn item_end(&mut self, tag: &Tag<'a>) {
        let it = std::mem::take(&mut self.it);
        let count = |n: &str| it.counts[ITEM.iter().position(|&x| x == n).unwrap_or(0)];
        if count("title") == 0 && count("description") == 0 {
            let s = "4.1.1.20 item";
            self.push(f(Code::ItemMustContainTitleOrDescription, tag.offset, s).el("item"));
        }
        if count("guid") == 0 {
            let s = "4.1.1.20.6 guid";
            self.push(f(Code::MissingGuid, tag.offset, s).parent("item").el("guid"));
        }
        let core_at = |n: &str| {
            let i = ITEM.iter().position(|&x| x == n)?;
            (it.counts[i] > 0).then_some(it.first[i])
        };
        self.semantics(Code::DuplicateItemSemantics, &ITEM_PAIRS, &it.ext, core_at);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(offset: usize) -> Finding {
        let (code, params, section) = (Code::UndefinedElement, Vec::new(), "");
        Finding { code, params, offset, line: 0, column: 0, section }
    }

    /// Locating findings reads each byte of the text a bounded number of times, however many
    /// findings a line holds: on a one-line document with a finding every 16 bytes, four
    /// times the text is four times the bytes read (counting each column from the line start
    /// read 32 000 times the text's length at 1 MB).
    #[test]
    fn locating_findings_is_linear_on_one_line_documents() {
        let work = |len: usize| {
            let src = "é<item>x</item>".repeat(len / 16);
            let mut findings: Vec<Finding> = (0..src.len()).step_by(16).map(finding).collect();
            let read = locate(&src, &mut findings);
            let last = findings.last().unwrap();
            assert_eq!((last.line, last.column), (1, (findings.len() as u32 - 1) * 15 + 1));
            assert!(read <= 3 * src.len(), "{read} bytes read for {}", src.len());
            read
        };
        let (small, large) = (work(1 << 18), work(1 << 20));
        assert!(large < 5 * small, "4x the text: {small} -> {large} bytes read");
    }

    /// Lines and columns across newlines: the column restarts after each `\n`, and counts
    /// characters (a `\r` is a character of its line).
    #[test]
    fn locating_findings_across_lines() {
        let src = "ab\nçd\r\n\nxy€z";
        let offsets = [0, 1, 3, 5, 6, 8, 10, 14];
        let mut findings: Vec<Finding> = offsets.iter().map(|&o| finding(o)).collect();
        locate(src, &mut findings);
        let got: Vec<(u32, u32)> = findings.iter().map(|f| (f.line, f.column)).collect();
        assert_eq!(got, [(1, 1), (1, 2), (2, 1), (2, 2), (2, 3), (3, 1), (4, 2), (4, 4)]);
    }
}
