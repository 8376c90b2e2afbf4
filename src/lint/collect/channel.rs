//! The channel's rules: each channel child checked as it is consumed, then what the whole
//! channel must hold once it ends (required elements, counts, duplicate semantics), and the
//! channel's structured elements (`image`, `textInput`, `cloud`, `skipHours`, `skipDays`).

use super::values::{self};
use super::*;
use crate::lint::Code;
use crate::xml::{Ns, Tag, XmlReader};

impl<'a> Collector<'a> {
    pub(super) fn channel_child(&mut self, r: &XmlReader<'a>, tag: &Tag<'a>) {
        let off = tag.offset;
        if tag.ns != Ns::Null {
            self.channel_ns_child(r, tag);
            return;
        }
        let name = tag.local;
        if name == "item" {
            self.channel.seen_item = true;
            return;
        }
        if self.channel.seen_item && !self.channel.misplaced {
            self.channel.misplaced = true;
            self.push(draft(Code::MisplacedItem, off, "4.1.1 channel").parent("channel").el(name));
        }
        let Some(i) = CHANNEL.iter().position(|&n| n == name) else {
            let s = "1. Introduction";
            self.push(draft(Code::UndefinedElement, off, s).parent("channel").el(name));
            return;
        };
        self.channel.counts[i] += 1;
        if self.channel.counts[i] == 1 {
            self.channel.first[i] = off;
        }
        if self.channel.counts[i] > 1 && name != "category" {
            let s = "4.1.1 channel";
            self.push(draft(Code::DuplicateElement, off, s).parent("channel").el(name));
            return;
        }
        match name {
            "title" => {
                let v = self.plain(r, tag, "channel");
                self.not_blank(tag, "channel", &v, "4.1.1.3 title");
                self.channel.title = Some(v);
            }
            "description" => {
                let v = self.plain(r, tag, "channel");
                self.not_blank(tag, "channel", &v, "4.1.1.1 description");
            }
            "link" => {
                let v = self.plain(r, tag, "channel");
                self.url(tag, "channel", "link", &v, "4.1.1.2 link");
                self.channel.link = Some(v);
            }
            "docs" => {
                let v = self.plain(r, tag, "channel");
                self.url(tag, "channel", "docs", &v, "4.1.1.7 docs");
                if values::is_noncanonical_rssboard_docs(&v) {
                    let e = draft(Code::NonCanonicalURI, off, "4.1.1.7 docs").parent("channel");
                    let e = e.el("docs").param("uri", v.trim());
                    self.push(e.param("curi", values::RSSBOARD_SPEC));
                }
            }
            "language" => {
                let v = self.plain(r, tag, "channel");
                if !values::is_language(&v) {
                    let s = "4.1.1.10 language";
                    self.push(
                        draft(Code::InvalidLanguage, off, s).parent("channel").el(name).value(&v),
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
                    let e =
                        draft(Code::InvalidNonNegativeInteger, off, s).parent("channel").el(name);
                    self.push(e.value(&v));
                }
            }
            "copyright" | "generator" => {
                self.plain(r, tag, "channel");
            }
            "rating" => {
                let v = self.plain(r, tag, "channel");
                if !values::is_pics_label(&v) {
                    let e =
                        draft(Code::InvalidMediaRating, off, "4.1.1.14 rating").parent("channel");
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
            (Ns::MediaRss, _) => self.media_child(r, tag, "channel"),
            (Ns::Atom, "link") => {
                let s = "5.1.1 atom:link";
                let Some(href) = tag.attr(self.arena, "href") else {
                    self.push(
                        draft(Code::MissingHref, tag.offset, s).el(tag.qname).param("attr", "href"),
                    );
                    return;
                };
                if tag.attr(self.arena, "rel").map(str::trim) == Some("self") {
                    self.channel.self_link = true;
                    if values::scheme(href.trim()).is_none() {
                        self.push(
                            draft(Code::RelativeSelf, tag.offset, s).el(tag.qname).value(href),
                        );
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
                note_ext(&CHANNEL_PAIRS, &mut self.channel.ext, name, tag.offset);
            }
            (Ns::DcTerms, "modified") => {
                note_ext(&CHANNEL_PAIRS, &mut self.channel.ext, "dcterms:modified", tag.offset);
            }
            (Ns::Itunes, _) => self.itunes_child(r, tag, false),
            (Ns::Other, "generatorAgent") if ns_uri(r, tag) == ADMIN => {
                note_ext(&CHANNEL_PAIRS, &mut self.channel.ext, "admin:generatorAgent", tag.offset);
            }
            _ => {}
        }
    }

    /// The channel just ended (its `channel` child of `rss` was consumed).
    pub(super) fn channel_end(&mut self) {
        let ch = std::mem::take(&mut self.channel);
        let off = ch.offset;
        let count = |n: &str| ch.counts[CHANNEL.iter().position(|&x| x == n).unwrap_or(0)];
        for (name, code, s) in [
            ("title", Code::MissingTitle, "4.1.1.3 title"),
            ("link", Code::MissingLink, "4.1.1.2 link"),
            ("description", Code::MissingDescription, "4.1.1.1 description"),
        ] {
            if count(name) == 0 {
                self.push(draft(code, off, s).parent("channel").el(name));
            }
        }
        if let Some((title, link, at)) = ch.image {
            let s = "4.1.1.9.1 link";
            if let (Some(il), Some(cl)) = (link, ch.link.as_deref()) {
                if il.trim() != cl.trim() {
                    self.push(
                        draft(Code::ImageLinkDoesntMatch, at, s)
                            .parent("image")
                            .el("link")
                            .value(il),
                    );
                }
            }
            let s = "4.1.1.9.2 title";
            if let (Some(it), Some(ct)) = (title, ch.title.as_deref()) {
                if it.trim() != ct.trim() {
                    self.push(
                        draft(Code::ImageTitleDoesntMatch, at, s)
                            .parent("image")
                            .el("title")
                            .value(it),
                    );
                }
            }
        }
        if !ch.self_link {
            let s = "5.1.1 atom:link";
            self.push(draft(Code::MissingAtomSelfLink, off, s).parent("channel").el("atom:link"));
        }
        let core_at = |n: &str| {
            let i = CHANNEL.iter().position(|&x| x == n)?;
            (ch.counts[i] > 0).then_some(ch.first[i])
        };
        self.semantics(Code::DuplicateSemantics, &CHANNEL_PAIRS, &ch.ext, core_at);
        let language = count("language") > 0;
        self.itunes_end(ch.itunes, off, language);
        if ch.slash_comments && count("lastBuildDate") == 0 {
            let s = "5.4.1 slash:comments";
            self.push(draft(Code::SlashDate, off, s).parent("channel").el("lastBuildDate"));
        }
    }

    fn cloud(&mut self, tag: &Tag<'a>) {
        let s = "4.1.1.5 cloud";
        for attr in ["domain", "port", "path", "registerProcedure", "protocol"] {
            let Some(v) = tag.attr(self.arena, attr) else {
                self.push(
                    draft(Code::MissingAttribute, tag.offset, s).el("cloud").param("attr", attr),
                );
                continue;
            };
            let v = v.trim();
            match attr {
                "port" if values::non_negative(v).is_none_or(|p| p == 0 || p > 65_535) => {
                    let e = draft(Code::InvalidIntegerAttribute, tag.offset, s).el("cloud");
                    self.push(e.param("attr", attr).value(v));
                }
                "protocol" if !matches!(v, "xml-rpc" | "soap" | "http-post") => {
                    self.push(
                        draft(Code::InvalidValue, tag.offset, s)
                            .el("cloud")
                            .param("attr", attr)
                            .value(v),
                    );
                }
                _ => {}
            }
        }
    }

    fn image(&mut self, r: &XmlReader<'a>, tag: &Tag<'a>) {
        let kids = self.children(r, tag);
        let mut seen: [u32; 6] = [0; 6];
        const NAMES: [&str; 6] = ["url", "title", "link", "description", "width", "height"];
        let (mut title, mut link) = (None, None);
        for (c, t, raw) in &kids {
            let Some(i) = NAMES.iter().position(|&n| n == c.local) else {
                let s = "4.1.1.9 image";
                self.push(draft(Code::UndefinedElement, c.offset, s).parent("image").el(c.local));
                continue;
            };
            seen[i] += 1;
            if seen[i] > 1 {
                let s = "4.1.1.9 image";
                self.push(draft(Code::DuplicateElement, c.offset, s).parent("image").el(c.local));
                continue;
            }
            self.plain_raw(c.offset, c.local, "image", raw, true);
            match c.local {
                "url" => {
                    self.url(c, "image", "url", t, "4.1.1.9.3 url");
                    if values::image_url_not_gif_jpeg_png(t) {
                        let s = "4.1.1.9.3 url";
                        let e = draft(Code::ImageUrlFormat, c.offset, s).parent("image").el("url");
                        self.push(e.value(t));
                    }
                }
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
                        self.push(draft(code, c.offset, s).parent("image").el(c.local).value(t));
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
                self.push(draft(code, tag.offset, s).parent("image").el(NAMES[i]));
            }
        }
        self.channel.image = Some((title, link, tag.offset));
    }

    fn text_input(&mut self, r: &XmlReader<'a>, tag: &Tag<'a>) {
        let s = "4.1.1.17 textInput";
        self.push(draft(Code::AvoidTextInput, tag.offset, s).el("textInput"));
        let kids = self.children(r, tag);
        const NAMES: [&str; 4] = ["title", "description", "name", "link"];
        let mut seen = [0u32; 4];
        for (c, t, raw) in &kids {
            let Some(i) = NAMES.iter().position(|&n| n == c.local) else {
                self.push(
                    draft(Code::UndefinedElement, c.offset, s).parent("textInput").el(c.local),
                );
                continue;
            };
            seen[i] += 1;
            if seen[i] > 1 {
                self.push(
                    draft(Code::DuplicateElement, c.offset, s).parent("textInput").el(c.local),
                );
                continue;
            }
            self.plain_raw(c.offset, c.local, "textInput", raw, true);
            match c.local {
                "link" => self.url(c, "textInput", "link", t, "4.1.1.17.2 link"),
                "name" if !values::is_form_component_name(t) => {
                    let s = "4.1.1.17.3 name";
                    self.push(
                        draft(Code::InvalidFormComponentName, c.offset, s)
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
                self.push(
                    draft(Code::MissingElement, tag.offset, s).parent("textInput").el(NAMES[i]),
                );
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
                self.push(
                    draft(Code::UndefinedElement, c.offset, s).parent("skipHours").el(c.local),
                );
                continue;
            }
            self.plain_raw(c.offset, c.local, "skipHours", raw, true);
            n += 1;
            if n == 25 {
                let s = "4.1.1.16 skipHours";
                self.push(draft(Code::NotEnoughHoursInTheDay, c.offset, s).el("skipHours"));
            }
            match values::non_negative(t) {
                Some(h @ 0..=23) => {
                    if std::mem::replace(&mut seen[h as usize], true) {
                        self.push(
                            draft(Code::DuplicateValue, c.offset, s)
                                .parent("skipHours")
                                .el("hour")
                                .value(t),
                        );
                    }
                }
                Some(24) => {
                    self.push(
                        draft(Code::UseZeroForMidnight, c.offset, s)
                            .parent("skipHours")
                            .el("hour")
                            .value(t),
                    );
                    if std::mem::replace(&mut seen[0], true) {
                        self.push(
                            draft(Code::DuplicateValue, c.offset, s)
                                .parent("skipHours")
                                .el("hour")
                                .value(t),
                        );
                    }
                }
                _ => self.push(
                    draft(Code::InvalidHour, c.offset, s).parent("skipHours").el("hour").value(t),
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
                self.push(
                    draft(Code::UndefinedElement, c.offset, s).parent("skipDays").el(c.local),
                );
                continue;
            }
            self.plain_raw(c.offset, c.local, "skipDays", raw, true);
            n += 1;
            if n == 8 {
                let s = "4.1.1.15 skipDays";
                self.push(draft(Code::EightDaysAWeek, c.offset, s).el("skipDays"));
            }
            match DAYS.iter().position(|d| *d == t.trim()) {
                Some(d) => {
                    if std::mem::replace(&mut seen[d], true) {
                        self.push(
                            draft(Code::DuplicateValue, c.offset, s)
                                .parent("skipDays")
                                .el("day")
                                .value(t),
                        );
                    }
                }
                None => self.push(
                    draft(Code::InvalidDay, c.offset, s).parent("skipDays").el("day").value(t),
                ),
            }
        }
    }
}
