//! Atom 1.0's rules (RFC 4287): each child of `feed` and `entry` checked as the Atom state
//! machine consumes it (text constructs, dates, ids, links, `content`, `icon`, `logo`, elements
//! the Atom namespace does not define), then what the whole entry must hold once it ends, and
//! what the whole feed must hold at the end of the document (required elements, the author
//! rule, the self link).

use super::values;
use super::*;
use crate::lint::Code;
use crate::xml::{Ns, Tag, XmlReader};

/// `atom:feed` children (RFC 4287 §4.1.1).
const FEED: [&str; 13] = [
    "author",
    "category",
    "contributor",
    "generator",
    "icon",
    "id",
    "link",
    "logo",
    "rights",
    "subtitle",
    "title",
    "updated",
    "entry",
];

/// `atom:entry` children (§4.1.2).
const ENTRY: [&str; 12] = [
    "author",
    "category",
    "content",
    "contributor",
    "id",
    "link",
    "published",
    "rights",
    "source",
    "summary",
    "title",
    "updated",
];

/// Children a feed holds at most once (§4.1.1: "MUST NOT contain more than one").
const FEED_ONCE: [&str; 8] =
    ["generator", "icon", "id", "logo", "rights", "subtitle", "title", "updated"];
/// Children an entry holds at most once (§4.1.2).
const ENTRY_ONCE: [&str; 8] =
    ["content", "id", "published", "rights", "source", "summary", "title", "updated"];

/// The IANA Link Relations registry's names (§4.2.7.2: a `rel` is a registered name or an
/// IRI), as of 2025, and the Feed Validator's few others (`comments`, `service.post`, …).
const RELS: &[&str] = &[
    "about",
    "acl",
    "alternate",
    "amphtml",
    "api-catalog",
    "appendix",
    "apple-touch-icon",
    "apple-touch-startup-image",
    "archives",
    "author",
    "blocked-by",
    "bookmark",
    "c2pa-manifest",
    "canonical",
    "chapter",
    "cite-as",
    "collection",
    "comments",
    "compression-dictionary",
    "contents",
    "convertedfrom",
    "copyright",
    "create-form",
    "current",
    "deprecation",
    "describedby",
    "describes",
    "disclosure",
    "dns-prefetch",
    "duplicate",
    "edit",
    "edit-form",
    "edit-media",
    "enclosure",
    "external",
    "first",
    "geofeed",
    "glossary",
    "help",
    "hosts",
    "hub",
    "ice-server",
    "icon",
    "index",
    "intervalafter",
    "intervalbefore",
    "intervalcontains",
    "intervaldisjoint",
    "intervalduring",
    "intervalequals",
    "intervalfinishedby",
    "intervalfinishes",
    "intervalin",
    "intervalmeets",
    "intervalmetby",
    "intervaloverlappedby",
    "intervaloverlaps",
    "intervalstartedby",
    "intervalstarts",
    "item",
    "last",
    "latest-version",
    "license",
    "linkset",
    "lrdd",
    "manifest",
    "mask-icon",
    "me",
    "media-feed",
    "memento",
    "micropub",
    "modulepreload",
    "monitor",
    "monitor-group",
    "next",
    "next-archive",
    "nofollow",
    "noopener",
    "noreferrer",
    "opener",
    "openid2.local_id",
    "openid2.provider",
    "original",
    "p3pv1",
    "payment",
    "pingback",
    "preconnect",
    "predecessor-version",
    "prefetch",
    "preload",
    "prerender",
    "prev",
    "prev-archive",
    "preview",
    "previous",
    "privacy-policy",
    "profile",
    "publication",
    "related",
    "replies",
    "restconf",
    "ruleinput",
    "search",
    "section",
    "self",
    "service",
    "service-desc",
    "service-doc",
    "service-meta",
    "service.edit",
    "service.feed",
    "service.post",
    "sip-trunking-capacity",
    "source",
    "sponsored",
    "start",
    "status",
    "stylesheet",
    "subsection",
    "successor-version",
    "sunset",
    "tag",
    "terms-of-service",
    "timegate",
    "timemap",
    "transform",
    "type",
    "ugc",
    "up",
    "version-history",
    "via",
    "webmention",
    "working-copy",
    "working-copy-of",
];

/// The prefix that makes a registered name an IRI (§4.2.7.2); stripped before the lookup.
const IANA_REL_PREFIX: &str = "http://www.iana.org/assignments/relation/";

const S_FEED: &str = "RFC 4287 4.1.1 atom:feed";
const S_ENTRY: &str = "RFC 4287 4.1.2 atom:entry";
const S_UNDEFINED: &str = "RFC 4287 6.2 Extensions to the Atom Vocabulary";

/// An alternate link's `(type, hreflang)`, ASCII-lowercased (both are case-insensitive: a
/// media type and a language tag).
type LinkKey = (Box<str>, Box<str>);

#[derive(Default)]
pub(super) struct FeedState<'a> {
    offset: usize,
    counts: [u32; FEED.len()],
    has_self: bool,
    alternates: Vec<LinkKey>,
    /// The entries' ids so far, trimmed (the Feed Validator's `DuplicateEntries`).
    ids: std::collections::HashSet<Cow<'a, str>>,
    /// Offsets of the entries with no author of their own nor in their `source`: each one
    /// must have the feed's (§4.1.2), known only at the feed's end.
    authorless: Vec<usize>,
}

#[derive(Default)]
pub(super) struct EntryState {
    counts: [u32; ENTRY.len()],
    alternates: Vec<LinkKey>,
    has_alternate: bool,
    source_author: bool,
    /// Whether the `content` requires a `summary` (§4.1.2: it has a `src`, or its type is a
    /// MIME type that is neither XML nor text, so Base64).
    content_needs_summary: bool,
}

/// The `type` of a text construct or `content`, when it is one of §3.1.1's.
#[derive(Clone, Copy, PartialEq, Eq)]
enum TextType {
    Text,
    Html,
    Xhtml,
}

impl<'a> Collector<'a> {
    /// The root `feed` element of an Atom 1.0 document.
    pub fn atom_root(&mut self, tag: &Tag<'a>) {
        self.is_atom = true;
        self.atom_feed.offset = tag.offset;
    }

    pub(super) fn atom_child(&mut self, r: &XmlReader<'a>, level: Level, tag: &Tag<'a>) {
        if tag.ns == Ns::MediaRss && self.is_atom {
            let parent = if level == Level::Feed { "feed" } else { "entry" };
            return self.media_child(r, tag, parent);
        }
        if tag.ns != Ns::Atom || !self.is_atom {
            return;
        }
        let feed = level == Level::Feed;
        let (parent, names, once): (&str, &[&str], &[&str]) =
            if feed { ("feed", &FEED, &FEED_ONCE) } else { ("entry", &ENTRY, &ENTRY_ONCE) };
        let off = tag.offset;
        let name = tag.local;
        let Some(i) = names.iter().position(|&n| n == name) else {
            let e = draft(Code::UndefinedElement, off, S_UNDEFINED).parent(parent).el(name);
            return self.push(e);
        };
        let count =
            if feed { &mut self.atom_feed.counts[i] } else { &mut self.atom_entry.counts[i] };
        *count += 1;
        if *count > 1 && once.contains(&name) {
            let s = if feed { S_FEED } else { S_ENTRY };
            return self.push(draft(Code::DuplicateElement, off, s).parent(parent).el(name));
        }
        match name {
            "entry" => self.atom_entry_end(tag),
            "title" | "subtitle" | "rights" | "summary" => self.text_construct(r, tag, parent),
            "content" => self.atom_content(r, tag),
            "id" => self.atom_id(r, tag, parent),
            "updated" | "published" => {
                let v = self.atom_text(r, tag);
                if !values::is_rfc3339(&v) {
                    let e = draft(Code::InvalidRFC3339Date, off, "RFC 4287 3.3 Date Constructs");
                    self.push(e.parent(parent).el(name).value(&v));
                }
            }
            "link" => self.atom_link(tag, parent, feed),
            "icon" | "logo" => {
                let v = self.atom_text(r, tag);
                let s = if name == "icon" {
                    "RFC 4287 4.2.5 atom:icon"
                } else {
                    "RFC 4287 4.2.8 atom:logo"
                };
                if v.trim().is_empty() {
                    self.push(draft(Code::NotBlank, off, s).parent(parent).el(name));
                } else if !values::is_iri_reference(&v) {
                    self.push(draft(Code::InvalidLink, off, s).parent(parent).el(name).value(&v));
                }
            }
            "source" => self.atom_entry.source_author = self.has_author_child(r, tag),
            "author" | "contributor" => self.atom_person(r, tag),
            _ => {}
        }
    }

    /// The text of a consumed leaf element (references resolved, CDATA unwrapped).
    fn atom_text(&self, r: &XmlReader<'a>, tag: &Tag<'a>) -> Cow<'a, str> {
        let (cs, ce, _) = self.spans(r, tag);
        values::read_raw(&self.src[cs..ce]).text
    }

    /// `atom:id` (§4.2.6): an absolute IRI; an entry's unique in the feed.
    fn atom_id(&mut self, r: &XmlReader<'a>, tag: &Tag<'a>, parent: &str) {
        let v = self.atom_text(r, tag);
        let s = "RFC 4287 4.2.6 atom:id";
        if !values::is_absolute_iri(&v) {
            let e = draft(Code::InvalidFullLink, tag.offset, s).parent(parent).el("id");
            self.push(e.value(&v));
        }
        if parent != "entry" {
            return;
        }
        let key = match v {
            Cow::Borrowed(b) => Cow::Borrowed(b.trim()),
            Cow::Owned(o) => Cow::Owned(o.trim().to_owned()),
        };
        if key.is_empty() {
            return;
        }
        if self.atom_feed.ids.contains(&key) {
            // §4.1.1: entries with one id are one entry's versions; the validator warns.
            self.push(
                draft(Code::DuplicateEntries, tag.offset, S_FEED)
                    .parent(parent)
                    .el("id")
                    .value(&key),
            );
        } else {
            self.atom_feed.ids.insert(key);
        }
    }

    /// `atom:link` (§4.2.7): `href` required and an IRI reference; `rel` registered or an IRI;
    /// one alternate link per `type` and `hreflang` (§4.1.1, §4.1.2).
    fn atom_link(&mut self, tag: &Tag<'a>, parent: &str, feed: bool) {
        let off = tag.offset;
        match tag.attr(self.arena, "href") {
            None => {
                let e = draft(Code::MissingHref, off, "RFC 4287 4.2.7.1 href");
                self.push(e.parent(parent).el("link"));
            }
            Some(href) if !values::is_iri_reference(href) => {
                let e = draft(Code::InvalidURIAttribute, off, "RFC 4287 4.2.7.1 href");
                self.push(e.parent(parent).el("link").param("attr", "href").value(href));
            }
            Some(_) => {}
        }
        // §4.2.7.3 `type` a media type, §4.2.7.4 `hreflang` a language tag (RFC 3066),
        // §4.2.7.6 `length` an octet count.
        if let Some(v) = tag.attr(self.arena, "type").filter(|v| !values::is_mime_type(v)) {
            let e = draft(Code::InvalidMIMEType, off, "RFC 4287 4.2.7.3 type").parent(parent);
            self.push(e.el("link").param("attr", "type").value(v));
        }
        if let Some(v) = tag.attr(self.arena, "hreflang").filter(|v| !values::is_language(v)) {
            let e = draft(Code::InvalidLanguage, off, "RFC 4287 4.2.7.4 hreflang").parent(parent);
            self.push(e.el("link").param("attr", "hreflang").value(v));
        }
        if let Some(v) =
            tag.attr(self.arena, "length").filter(|v| values::non_negative(v).is_none())
        {
            let s = "RFC 4287 4.2.7.6 length";
            let e = draft(Code::InvalidNonNegativeInteger, off, s).parent(parent).el("link");
            self.push(e.param("attr", "length").value(v));
        }
        let rel = tag.attr(self.arena, "rel").map_or("alternate", str::trim);
        let name = rel.strip_prefix(IANA_REL_PREFIX).unwrap_or(rel);
        let registered = RELS.iter().any(|r| r.eq_ignore_ascii_case(name));
        if !registered && !values::is_absolute_iri(rel) {
            let e = draft(Code::UnregisteredAtomLinkRel, off, "RFC 4287 4.2.7.2 rel");
            self.push(e.parent(parent).el("link").param("attr", "rel").value(rel));
        }
        if name.eq_ignore_ascii_case("self") && feed {
            self.atom_feed.has_self = true;
        }
        if !name.eq_ignore_ascii_case("alternate") {
            return;
        }
        let lower = |a: &str| tag.attr(self.arena, a).unwrap_or("").trim().to_ascii_lowercase();
        let key: LinkKey = (lower("type").into(), lower("hreflang").into());
        let (list, s) = if feed {
            (&mut self.atom_feed.alternates, S_FEED)
        } else {
            self.atom_entry.has_alternate = true;
            (&mut self.atom_entry.alternates, S_ENTRY)
        };
        if list.contains(&key) {
            let e = draft(Code::DuplicateAtomLink, off, s).parent(parent).el("link");
            self.push(e);
        } else {
            list.push(key);
        }
    }

    /// The `type` of a text construct (§3.1.1) or `content` (§4.1.3.1), reporting a text
    /// construct's that is not one of §3.1.1's; `Err` with the MIME type of a `content` that
    /// names one.
    fn text_type(
        &mut self,
        tag: &Tag<'a>,
        parent: &str,
        content: bool,
    ) -> Result<TextType, &'a str> {
        let Some(t) = tag.attr(self.arena, "type") else { return Ok(TextType::Text) };
        match t.trim() {
            "text" => Ok(TextType::Text),
            "html" => Ok(TextType::Html),
            "xhtml" => Ok(TextType::Xhtml),
            other if content => Err(other),
            other => {
                let e = draft(Code::InvalidTextType, tag.offset, "RFC 4287 3.1.1 type");
                self.push(e.parent(parent).el(tag.local).param("attr", "type").value(other));
                // Read as text (the model's reading of an unknown type).
                Ok(TextType::Text)
            }
        }
    }

    /// The raw content of a text construct or `content` of type `ty`: `text` and `html` hold
    /// no child element (§3.1.1.1, §3.1.1.2), `xhtml` a single `div` (§3.1.1.3).
    fn text_content(&mut self, tag: &Tag<'a>, parent: &str, ty: TextType, raw: &str) {
        let off = tag.offset;
        match ty {
            TextType::Xhtml if !values::starts_with_div(raw) => {
                let s = "RFC 4287 3.1.1.3 xhtml";
                self.push(draft(Code::MissingXhtmlDiv, off, s).parent(parent).el(tag.local));
            }
            TextType::Xhtml => {}
            TextType::Text | TextType::Html => {
                if let Some(child) = values::first_child_element(raw) {
                    let s = if ty == TextType::Text {
                        "RFC 4287 3.1.1.1 text"
                    } else {
                        "RFC 4287 3.1.1.2 html"
                    };
                    self.push(draft(Code::UndefinedElement, off, s).parent(tag.local).el(child));
                }
            }
        }
    }

    /// `title`, `subtitle`, `rights`, `summary` (§3.1).
    fn text_construct(&mut self, r: &XmlReader<'a>, tag: &Tag<'a>, parent: &str) {
        let ty = self.text_type(tag, parent, false).unwrap_or(TextType::Text);
        let (cs, ce, _) = self.spans(r, tag);
        let src = self.src;
        self.text_content(tag, parent, ty, &src[cs..ce]);
        self.atom_security(tag, parent, ty, &src[cs..ce]);
    }

    /// The validator's HTML security checks on `html` (escaped or CDATA) and `xhtml` (markup)
    /// content, as the RSS lint runs them on item descriptions (§3.1.1.2, §3.1.1.3: the content
    /// is displayed as HTML).
    fn atom_security(&mut self, tag: &Tag<'a>, parent: &str, ty: TextType, raw: &str) {
        let scan = match ty {
            TextType::Text => return,
            TextType::Html => values::scan_html_risks(raw),
            TextType::Xhtml => values::scan_markup_risks(raw),
        };
        let s = match ty {
            TextType::Html => "RFC 4287 3.1.1.2 html",
            _ => "RFC 4287 3.1.1.3 xhtml",
        };
        self.security(&scan, tag, parent, s);
    }

    /// A person construct (`author`, `contributor`; §3.2): one `name`, at most one `uri` (an
    /// IRI reference) and one `email` (an addr-spec), re-read from the element's source span
    /// (children in the element's own namespace, by prefix).
    fn atom_person(&mut self, r: &XmlReader<'a>, tag: &Tag<'a>) {
        let s = "RFC 4287 3.2 Person Constructs";
        let (_, _, end) = self.spans(r, tag);
        let slice = &self.src[tag.offset..end.max(tag.offset)];
        let prefix = tag.qname.split_once(':').map(|(p, _)| p);
        let mut sub = XmlReader::new(self.arena, slice, 8);
        if !matches!(sub.next(), crate::xml::Event::Start(_)) {
            return;
        }
        let person = tag.local;
        let mut seen = [0u32; 3];
        while let Some(c) = sub.next_child() {
            let v = sub.child_text(1 << 12);
            if c.qname.split_once(':').map(|(p, _)| p) != prefix {
                continue;
            }
            let Some(i) = ["name", "uri", "email"].iter().position(|&n| n == c.local) else {
                continue;
            };
            let at = c.offset + tag.offset;
            seen[i] += 1;
            if seen[i] > 1 {
                self.push(draft(Code::DuplicateElement, at, s).parent(person).el(c.local));
                continue;
            }
            let v = v.trim();
            match c.local {
                "uri" if !values::is_iri_reference(v) => {
                    self.push(draft(Code::InvalidIRI, at, s).parent(person).el("uri").value(v));
                }
                "email" if !values::is_addr_spec(v) => {
                    let e = draft(Code::InvalidAddrSpec, at, s).parent(person).el("email");
                    self.push(e.value(v));
                }
                _ => {}
            }
        }
        if seen[0] == 0 {
            self.push(draft(Code::MissingElement, tag.offset, s).parent(person).el("name"));
        }
    }

    /// `atom:content` (§4.1.3).
    fn atom_content(&mut self, r: &XmlReader<'a>, tag: &Tag<'a>) {
        let off = tag.offset;
        let (cs, ce, _) = self.spans(r, tag);
        let raw = &self.src[cs..ce];
        let ty = self.text_type(tag, "entry", true);
        let src = tag.attr(self.arena, "src");
        if let Some(src) = src {
            let s = "RFC 4287 4.1.3.2 src";
            if !values::is_iri_reference(src) {
                let e = draft(Code::InvalidURIAttribute, off, s).parent("entry").el("content");
                self.push(e.param("attr", "src").value(src));
            }
            // "If the src attribute is present, atom:content MUST be empty."
            let text = values::read_raw(raw).text;
            if !text.trim().is_empty() || values::first_child_element(raw).is_some() {
                self.push(draft(Code::UnexpectedText, off, s).parent("entry").el("content"));
            }
            // "… and MUST be a MIME media type, rather than "text", "html", or "xhtml"."
            if let (Ok(_), Some(v)) = (ty, tag.attr(self.arena, "type")) {
                let e = draft(Code::InvalidMIMEType, off, "RFC 4287 4.1.3.1 type").parent("entry");
                self.push(e.el("content").param("attr", "type").value(v));
            }
            self.atom_entry.content_needs_summary = true;
            return;
        }
        match ty {
            Ok(ty) => {
                self.text_content(tag, "entry", ty, raw);
                self.atom_security(tag, "entry", ty, raw);
            }
            Err(mime) if !values::is_mime_type(mime) => {
                let e = draft(Code::InvalidMIMEType, off, "RFC 4287 4.1.3.1 type").parent("entry");
                self.push(e.el("content").param("attr", "type").value(mime));
            }
            Err(mime) => {
                // §4.1.3.3: XML and text types are inline; any other is Base64 (and then
                // §4.1.2 requires a summary).
                let m = mime.to_ascii_lowercase();
                let inline = m.ends_with("+xml") || m.ends_with("/xml") || m.starts_with("text/");
                self.atom_entry.content_needs_summary = !inline;
            }
        }
    }

    /// Whether the consumed element `tag` (an entry's `source`) has an `author` child in its
    /// own namespace, re-read from its source span.
    fn has_author_child(&self, r: &XmlReader<'a>, tag: &Tag<'a>) -> bool {
        let (_, _, end) = self.spans(r, tag);
        let slice = &self.src[tag.offset..end.max(tag.offset)];
        let prefix = tag.qname.split_once(':').map(|(p, _)| p);
        let mut sub = XmlReader::new(self.arena, slice, 8);
        if !matches!(sub.next(), crate::xml::Event::Start(_)) {
            return false;
        }
        while let Some(c) = sub.next_child() {
            sub.skip();
            if c.local == "author" && c.qname.split_once(':').map(|(p, _)| p) == prefix {
                return true;
            }
        }
        false
    }

    /// The entry `tag` has been consumed: what it must hold (§4.1.2).
    fn atom_entry_end(&mut self, tag: &Tag<'a>) {
        let st = std::mem::take(&mut self.atom_entry);
        let off = tag.offset;
        let has = |n: &str| st.counts[ENTRY.iter().position(|&e| e == n).unwrap_or(0)] > 0;
        for el in ["id", "title", "updated"] {
            if !has(el) {
                self.push(draft(Code::MissingElement, off, S_ENTRY).parent("entry").el(el));
            }
        }
        if !has("author") && !st.source_author {
            self.atom_feed.authorless.push(off);
        }
        if has("content") {
            if st.content_needs_summary && !has("summary") {
                self.push(draft(Code::MissingSummary, off, S_ENTRY).parent("feed").el("entry"));
            }
        } else {
            if !has("summary") {
                let e = draft(Code::MissingTextualContent, off, S_ENTRY);
                self.push(e.parent("feed").el("entry"));
            }
            if !st.has_alternate {
                let e = draft(Code::MissingContentOrAlternate, off, S_ENTRY);
                self.push(e.parent("feed").el("entry"));
            }
        }
    }

    /// The end of an Atom 1.0 document: what the feed must hold (§4.1.1).
    pub(super) fn atom_end(&mut self) {
        let st = std::mem::take(&mut self.atom_feed);
        let off = st.offset;
        let count = |n: &str| st.counts[FEED.iter().position(|&e| e == n).unwrap_or(0)];
        for el in ["id", "title", "updated"] {
            if count(el) == 0 {
                self.push(draft(Code::MissingElement, off, S_FEED).parent("feed").el(el));
            }
        }
        if count("author") == 0 {
            // "… unless all of the atom:feed element's child atom:entry elements contain at
            // least one atom:author element."
            if count("entry") == 0 {
                self.push(draft(Code::MissingElement, off, S_FEED).parent("feed").el("author"));
            }
            for at in st.authorless {
                self.push(draft(Code::MissingElement, at, S_ENTRY).parent("entry").el("author"));
            }
        }
        if !st.has_self {
            // §4.1.1: "atom:feed elements SHOULD contain one atom:link element with a rel
            // attribute value of "self"".
            self.push(draft(Code::MissingSelf, off, S_FEED).parent("feed").el("link"));
        }
    }
}
