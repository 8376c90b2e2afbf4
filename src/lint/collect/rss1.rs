//! RSS 1.0's rules (the RSS 1.0 specification, <https://web.resource.org/rss/1.0/spec>), as
//! the Feed Validator checks them: the children of `rdf:RDF` (one `channel`; `item`, `image`,
//! `textinput`), each with an `rdf:about` that no other element of the document has; the
//! channel's required `title`, `link`, `description` and `items`, whose `rdf:Seq` lists the
//! items by `rdf:li` elements with a `resource`; an item's `title` and `link`; an image's
//! `title`, `url` and `link`; elements of the RSS 1.0 namespace that the specification does not
//! define (RSS 2.0 elements such as `language` or `pubDate` written in it); each element at
//! most once; `link` and `url` full URLs. The RSS 1.0 state machine (`format::rss1`) calls the
//! hook after each child of `rdf:RDF`, of `channel` and of `item`; an item's and the
//! channel's rules are closed when they end, the document's at its end.

use super::*;
use crate::lint::Code;
use crate::xml::{Ns, Tag, XmlReader};

const RDF: &str = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";

/// RSS 1.0 `channel` children (spec §5.3): each at most once.
const CHANNEL1: [&str; 6] = ["title", "link", "description", "image", "items", "textinput"];
/// RSS 1.0 `item` children (§5.5).
const ITEM1: [&str; 3] = ["title", "link", "description"];

const S_CHANNEL: &str = "RSS 1.0 5.3 channel";
const S_ITEM: &str = "RSS 1.0 5.5 item";
const S_RDF: &str = "RSS 1.0 5.2 rdf:RDF";

/// What an RSS 1.0 document's lint keeps until the document ends.
#[derive(Default)]
pub(super) struct RdfState<'a> {
    offset: usize,
    channels: u32,
    channel: [u32; CHANNEL1.len()],
    item: [u32; ITEM1.len()],
    /// Every `rdf:about` so far (the validator's `DuplicateValue`).
    abouts: std::collections::HashSet<&'a str>,
}

/// The `rdf:about` of `tag`: an `about` attribute whose prefix is bound to the RDF namespace.
fn about<'a>(r: &XmlReader<'a>, tag: &Tag<'a>) -> Option<&'a str> {
    tag.attrs().find(|(n, _)| n.ends_with(":about") && r.attr_ns_uri(n) == RDF).map(|(_, v)| v)
}

impl<'a> Collector<'a> {
    /// The root `rdf:RDF` element of an RSS 1.0 document.
    pub fn rdf_root(&mut self, tag: &Tag<'a>) {
        // RSS 0.90 (its elements in `http://my.netscape.com/rdf/simple/0.9/`, declared on the
        // root) is not RSS 1.0: not linted.
        self.is_rdf = !tag.raw_attr("xmlns").is_some_and(|u| u.contains("my.netscape.com"));
        self.rdf.offset = tag.offset;
    }

    pub(super) fn rss1_child(&mut self, r: &XmlReader<'a>, level: Level, tag: &Tag<'a>) {
        if tag.ns != Ns::Rss1 || !self.is_rdf {
            return;
        }
        match level {
            Level::Rdf => self.rdf_child(r, tag),
            Level::Rss1Channel => {
                let i = self.rss1_counted(tag, "channel", &CHANNEL1, S_CHANNEL, true);
                match (i, tag.local) {
                    (Some(_), "link") => self.rss1_url(r, tag, "channel", S_CHANNEL),
                    (Some(_), "items") => self.rss1_items(r, tag),
                    _ => {}
                }
            }
            Level::Rss1Item => {
                let i = self.rss1_counted(tag, "item", &ITEM1, S_ITEM, false);
                if i == Some(1) {
                    self.rss1_url(r, tag, "item", S_ITEM);
                }
            }
            _ => {}
        }
    }

    /// Counts the child `tag` of `parent` among `names` (its index), reporting one the
    /// specification does not define and a second one.
    fn rss1_counted(
        &mut self,
        tag: &Tag<'a>,
        parent: &str,
        names: &[&str],
        s: &'static str,
        channel: bool,
    ) -> Option<usize> {
        let Some(i) = names.iter().position(|&n| n == tag.local) else {
            let e = draft(Code::UndefinedElement, tag.offset, s).parent(parent).el(tag.local);
            self.push(e);
            return None;
        };
        let count = if channel { &mut self.rdf.channel[i] } else { &mut self.rdf.item[i] };
        *count += 1;
        if *count > 1 {
            self.push(draft(Code::DuplicateElement, tag.offset, s).parent(parent).el(tag.local));
            return None;
        }
        Some(i)
    }

    /// A `link` (or an image's `url`): a full URL.
    fn rss1_url(&mut self, r: &XmlReader<'a>, tag: &Tag<'a>, parent: &str, s: &'static str) {
        let (cs, ce, _) = self.spans(r, tag);
        let v = values::read_raw(&self.src[cs..ce]).text;
        self.url(tag, parent, tag.local, &v, s);
    }

    /// A child of `rdf:RDF`, consumed.
    fn rdf_child(&mut self, r: &XmlReader<'a>, tag: &Tag<'a>) {
        let name = tag.local;
        if !matches!(name, "channel" | "item" | "image" | "textinput") {
            let e = draft(Code::UndefinedElement, tag.offset, S_RDF).parent("rdf:RDF").el(name);
            return self.push(e);
        }
        let s = match name {
            "channel" => S_CHANNEL,
            "item" => S_ITEM,
            "image" => "RSS 1.0 5.4 image",
            _ => "RSS 1.0 5.6 textinput",
        };
        match about(r, tag).map(str::trim) {
            None => {
                let e = draft(Code::MissingAttribute, tag.offset, s).el(name);
                self.push(e.param("attr", "rdf:about"));
            }
            Some(v) if !self.rdf.abouts.insert(v) => {
                let e = draft(Code::DuplicateValue, tag.offset, s).parent(name).el("rdf:about");
                self.push(e.value(v));
            }
            Some(_) => {}
        }
        match name {
            "channel" => {
                self.rdf.channels += 1;
                if self.rdf.channels > 1 {
                    let e = draft(Code::DuplicateElement, tag.offset, S_RDF).parent("rdf:RDF");
                    self.push(e.el("channel"));
                }
                let counts = std::mem::take(&mut self.rdf.channel);
                for (i, code) in [
                    (0, Code::MissingTitle),
                    (1, Code::MissingLink),
                    (2, Code::MissingDescription),
                    (4, Code::MissingElement),
                ] {
                    if counts[i] == 0 {
                        let e = draft(code, tag.offset, S_CHANNEL).parent("channel");
                        self.push(e.el(CHANNEL1[i]));
                    }
                }
            }
            "item" => {
                let counts = std::mem::take(&mut self.rdf.item);
                for (i, code) in [(0, Code::MissingTitle), (1, Code::MissingLink)] {
                    if counts[i] == 0 {
                        let e = draft(code, tag.offset, S_ITEM).parent("item");
                        self.push(e.el(ITEM1[i]));
                    }
                }
            }
            "image" => self.rss1_image(r, tag),
            _ => {}
        }
    }

    /// A top-level `image` (§5.4): `title`, `url`, `link`, each once; `url` and `link` full
    /// URLs; re-read from its source span.
    fn rss1_image(&mut self, r: &XmlReader<'a>, tag: &Tag<'a>) {
        let s = "RSS 1.0 5.4 image";
        const NAMES: [&str; 3] = ["title", "url", "link"];
        let mut seen = [0u32; 3];
        for (c, t, _) in self.rss1_children(r, tag) {
            let Some(i) = NAMES.iter().position(|&n| n == c.local) else {
                self.push(draft(Code::UndefinedElement, c.offset, s).parent("image").el(c.local));
                continue;
            };
            seen[i] += 1;
            if seen[i] > 1 {
                self.push(draft(Code::DuplicateElement, c.offset, s).parent("image").el(c.local));
            } else if i > 0 {
                self.url(&c, "image", c.local, t, s);
            }
        }
        for (i, code) in
            [(0, Code::MissingTitle), (1, Code::MissingElement), (2, Code::MissingLink)]
        {
            if seen[i] == 0 {
                self.push(draft(code, tag.offset, s).parent("image").el(NAMES[i]));
            }
        }
    }

    /// The channel's `items` (§5.3.5): an `rdf:Seq` whose `rdf:li` elements each name an item
    /// by `resource` (`rdf:resource`, or the specification's unprefixed form).
    fn rss1_items(&mut self, r: &XmlReader<'a>, tag: &Tag<'a>) {
        let s = "RSS 1.0 5.3.5 items";
        let (_, _, end) = self.spans(r, tag);
        let slice = &self.src[tag.offset..end.max(tag.offset)];
        let mut sub = XmlReader::new(self.arena, slice, 8);
        let mut seq = false;
        let mut missing = Vec::new();
        if matches!(sub.next(), crate::xml::Event::Start(_)) {
            while let Some(c) = sub.next_child() {
                if c.local != "Seq" {
                    sub.skip();
                    continue;
                }
                seq = true;
                while let Some(li) = sub.next_child() {
                    sub.skip();
                    let resource =
                        li.attrs().any(|(n, _)| n == "resource" || n.ends_with(":resource"));
                    if li.local == "li" && !resource {
                        missing.push(li.offset + tag.offset);
                    }
                }
            }
        }
        if !seq {
            let e = draft(Code::MissingElement, tag.offset, s).parent("items").el("rdf:Seq");
            self.push(e);
        }
        for at in missing {
            let e = draft(Code::MissingAttribute, at, s).el("rdf:li");
            self.push(e.param("attr", "rdf:resource"));
        }
    }

    /// The direct children of the consumed element `tag` in its namespace (by prefix),
    /// re-read from its source span: `(tag, text, raw content)`.
    fn rss1_children(&self, r: &XmlReader<'a>, tag: &Tag<'a>) -> Vec<(Tag<'a>, &'a str, &'a str)> {
        let prefix = tag.qname.split_once(':').map(|(p, _)| p);
        self.children_where(r, tag, |c| c.qname.split_once(':').map(|(p, _)| p) == prefix)
    }

    /// The end of an RSS 1.0 document: one `channel` (§5.2).
    pub(super) fn rdf_end(&mut self) {
        if self.rdf.channels == 0 {
            let e = draft(Code::MissingElement, self.rdf.offset, S_RDF).parent("rdf:RDF");
            self.push(e.el("channel"));
        }
    }
}
