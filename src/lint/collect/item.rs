//! The item's rules: each item child checked as it is consumed (escaped HTML in `description`
//! and `content:encoded`, enclosures), then what the whole item must hold once it ends.

use super::values::{self, UrlCheck};
use super::*;
use crate::lint::Code;
use crate::xml::{Ns, Tag, XmlReader};

impl<'a> Collector<'a> {
    pub(super) fn item_child(&mut self, r: &XmlReader<'a>, tag: &Tag<'a>) {
        let off = tag.offset;
        let p = self.item.name();
        if tag.ns != Ns::Null {
            self.item_ns_child(r, tag);
            return;
        }
        let name = tag.local;
        let Some(i) = ITEM.iter().position(|&n| n == name) else {
            let s = "1. Introduction";
            self.push(draft(Code::UndefinedElement, off, s).parent(p).el(name));
            return;
        };
        self.item.counts[i] += 1;
        if self.item.counts[i] == 1 {
            self.item.first[i] = off;
        }
        if self.item.counts[i] > 1 && name != "category" {
            if name == "enclosure" {
                self.push(
                    draft(Code::DuplicateEnclosure, off, "4.1.1.20.5 enclosure").parent(p).el(name),
                );
            } else {
                self.push(draft(Code::DuplicateElement, off, "4.1.1.20 item").parent(p).el(name));
                return;
            }
        }
        match name {
            "title" => {
                self.plain(r, tag, p);
            }
            "category" => {
                let v = self.plain(r, tag, p);
                self.category(tag, p, &v, "4.1.1.20.2 category");
            }
            "description" => self.html(r, tag, p, "4.1.1.20.4 description"),
            "link" | "comments" => {
                let v = self.plain(r, tag, p);
                let s = if name == "link" { "4.1.1.20.7 link" } else { "4.1.1.20.3 comments" };
                self.url(tag, p, name, &v, s);
            }
            "author" => {
                let v = self.plain(r, tag, p);
                self.email(tag, p, &v);
            }
            "pubDate" => {
                let v = self.plain(r, tag, p);
                self.date(tag, p, &v, Some("4.1.1.20.8 pubDate"));
            }
            "guid" => {
                let v = self.plain(r, tag, p);
                let s = "4.1.1.20.6 guid";
                let permalink = match tag.attr(self.arena, "isPermaLink").map(str::trim) {
                    None | Some("true") => true,
                    Some("false") => false,
                    Some(other) => {
                        let e = draft(Code::InvalidBooleanAttribute, off, s).el("guid");
                        self.push(e.param("attr", "isPermaLink").value(other));
                        true
                    }
                };
                let check = if permalink { values::check_url(&v) } else { UrlCheck::Ok };
                // A tag: or urn:uuid: URI is an identifier, not the page's URL (the
                // validator's check).
                let id_uri = || {
                    let t = v.trim().as_bytes();
                    [&b"tag:"[..], b"urn:uuid:"]
                        .iter()
                        .any(|p| t.len() >= p.len() && t[..p.len()].eq_ignore_ascii_case(p))
                };
                if check == UrlCheck::Unregistered {
                    let scheme = values::scheme(v.trim()).unwrap_or_default();
                    let e = draft(Code::SchemeNotIANARegistered, off, "3.4 URLs").parent(p);
                    self.push(e.el("guid").value(scheme));
                } else if permalink && (check != UrlCheck::Ok || id_uri()) {
                    self.push(draft(Code::InvalidPermalink, off, s).parent(p).el("guid").value(&v));
                }
                // Not a permalink: a number of fewer than nine digits is no unique string
                // (the validator's check).
                let t = v.trim();
                if !permalink && !t.is_empty() && t.len() < 9 && values::all_digits(t) {
                    let e = draft(Code::NotSufficientlyUnique, off, s).parent(p).el("guid");
                    self.push(e.value(t));
                }
                // Two items of a channel with one guid: the validator's `DuplicateValue`.
                let key = match v {
                    Cow::Borrowed(b) => Cow::Borrowed(b.trim()),
                    Cow::Owned(o) => Cow::Owned(o.trim().to_owned()),
                };
                if !key.is_empty() && self.channel.guids.contains(&key) {
                    let e = draft(Code::DuplicateValue, off, s).parent(p).el("guid");
                    self.push(e.value(&key));
                } else if !key.is_empty() {
                    self.channel.guids.insert(key);
                }
            }
            "enclosure" => self.enclosure(tag),
            "source" => {
                self.plain(r, tag, p);
                self.url_attr(tag, "url", "4.1.1.20.9 source");
            }
            _ => {}
        }
    }

    fn item_ns_child(&mut self, r: &XmlReader<'a>, tag: &Tag<'a>) {
        let p = self.item.name();
        match (tag.ns, tag.local) {
            (Ns::Itunes, _) => self.itunes_child(r, tag, true),
            (Ns::MediaRss, _) => self.media_child(r, tag, "item"),
            (Ns::RssContent, "encoded") => {
                if self.item.counts[3] == 0 {
                    let s = "5.2.1 content:encoded";
                    let e = draft(Code::NeedDescriptionBeforeContent, tag.offset, s).parent(p);
                    self.push(e.el(tag.qname));
                }
                self.html(r, tag, p, "5.2.1 content:encoded");
            }
            (Ns::DublinCore, local) => {
                self.ns_text(r, tag, p);
                let name = match local {
                    "creator" => "dc:creator",
                    "subject" => "dc:subject",
                    "date" => "dc:date",
                    "source" => "dc:source",
                    _ => return,
                };
                note_ext(&ITEM_PAIRS, &mut self.item.ext, name, tag.offset);
            }
            (Ns::Atom, "link") if tag.attr(self.arena, "href").is_none() => {
                let s = "5.1.1 atom:link";
                self.push(
                    draft(Code::MissingHref, tag.offset, s).el(tag.qname).param("attr", "href"),
                );
            }
            (Ns::Other, "comments") if ns_uri(r, tag) == SLASH => {
                self.channel.slash_comments = true;
                let (cs, ce, _) = self.spans(r, tag);
                let src = self.src;
                let v = self.plain_raw(tag.offset, tag.qname, p, &src[cs..ce], false);
                if values::non_negative(&v).is_none() {
                    let s = "5.4.1 slash:comments";
                    let e = draft(Code::InvalidNonNegativeInteger, tag.offset, s).parent(p);
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
            self.push(
                draft(Code::UndefinedElement, tag.offset, section).parent(tag.qname).el(child),
            );
        }
        if let Some(name) = scan.non_html {
            let e = draft(Code::NotHtml, tag.offset, section).parent(parent).el(tag.qname);
            self.push(e.value(name).param("message", "Non-html tag"));
        }
        if let Some(v) = &scan.relative {
            let e = draft(Code::ContainsRelRef, tag.offset, section).parent(parent).el(tag.qname);
            self.push(e.value(v));
        }
        // The validator's HTML security checks (no Profile row: its 4.1.1.20.4 asks for
        // HTML that displays; these elements and attributes run code in a reader).
        self.security(&scan, tag, parent, section);
    }

    /// The validator's HTML security findings of `scan` (the content of `tag`, a child of
    /// `parent`): `SecurityRisk` for its first risky element, `SecurityRiskAttr` for its first
    /// event-handler attribute. RSS `description`/`content:encoded` and Atom text constructs
    /// and `content` of type `html` or `xhtml` share it.
    pub(super) fn security(
        &mut self,
        scan: &values::HtmlScan<'_>,
        tag: &Tag<'a>,
        parent: &str,
        section: &'static str,
    ) {
        if let Some(name) = scan.risk_tag {
            let e = draft(Code::SecurityRisk, tag.offset, section).parent(parent).el(tag.qname);
            self.push(e.value(name).param("tag", name));
        }
        if let Some(name) = scan.risk_attr {
            let e = draft(Code::SecurityRiskAttr, tag.offset, section).parent(parent).el(tag.qname);
            self.push(e.param("attr", name));
        }
    }

    fn enclosure(&mut self, tag: &Tag<'a>) {
        let s = "4.1.1.20.5 enclosure";
        self.url_attr(tag, "url", s);
        match tag.attr(self.arena, "length").map(str::trim) {
            None => self.push(
                draft(Code::MissingAttribute, tag.offset, s)
                    .el("enclosure")
                    .param("attr", "length"),
            ),
            Some(v) if values::non_negative(v).is_none() => {
                let code = if v.strip_prefix('-').is_some_and(|d| values::non_negative(d).is_some())
                {
                    Code::UseZeroForUnknown
                } else {
                    Code::InvalidNonNegativeInteger
                };
                self.push(
                    draft(code, tag.offset, s).el("enclosure").param("attr", "length").value(v),
                );
            }
            Some(_) => {}
        }
        match tag.attr(self.arena, "type") {
            None => self.push(
                draft(Code::MissingAttribute, tag.offset, s).el("enclosure").param("attr", "type"),
            ),
            Some(v) if !values::is_mime_type(v) => {
                self.push(
                    draft(Code::InvalidMIMEAttribute, tag.offset, s)
                        .el("enclosure")
                        .param("attr", "type")
                        .value(v),
                );
            }
            Some(_) => {}
        }
    }

    /// The item `tag` opens: an `item`, or a `podcast:liveItem` (read as an item, named
    /// `liveItem` in its findings).
    pub fn item_start(&mut self, tag: &Tag<'a>) {
        self.item.live = tag.local == "liveItem";
    }

    /// The item `tag` was consumed: required elements, recommended guid, semantics.
    pub fn item_end(&mut self, tag: &Tag<'a>) {
        let it = std::mem::take(&mut self.item);
        let count = |n: &str| it.counts[ITEM.iter().position(|&x| x == n).unwrap_or(0)];
        if count("title") == 0 && count("description") == 0 {
            let s = "4.1.1.20 item";
            self.push(draft(Code::ItemMustContainTitleOrDescription, tag.offset, s).el(it.name()));
        }
        if count("guid") == 0 {
            let s = "4.1.1.20.6 guid";
            self.push(draft(Code::MissingGuid, tag.offset, s).parent(it.name()).el("guid"));
        }
        let core_at = |n: &str| {
            let i = ITEM.iter().position(|&x| x == n)?;
            (it.counts[i] > 0).then_some(it.first[i])
        };
        self.semantics(Code::DuplicateItemSemantics, &ITEM_PAIRS, &it.ext, core_at);
    }
}
