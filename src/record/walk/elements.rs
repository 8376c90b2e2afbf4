//! The core objects a feed or an entry holds: images, people, enclosures, the generator,
//! categories, links, sources, `in-reply-to`, RSS 2.0's `cloud` and `textInput`, syndication,
//! and a date as written (`LenientDate`).

use crate::model::ext::{
    Category, Cloud, Generator, ImageInfo, InReplyTo, Link, Source, Syndication, TextInput,
};
use crate::model::lenient_date::{LenientDate, LenientForm};
use crate::record::{key, Shape, Visit, Walk};
use crate::{Enclosure, Image, Person, Timestamp};

impl Walk for Image<'_> {
    const NAME: &'static str = "image";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.url(key("url", "the image's URL, resolved"), self.url);
        v.uint(key("width", "width in pixels, as stated"), self.width);
        v.uint(key("height", "height in pixels, as stated"), self.height);
        v.str(key("rel", "`gd:image@rel` of a person's icon, as written"), self.rel);
    }
}

impl Walk for Person<'_> {
    const NAME: &'static str = "person";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("name", "the name, as written"), self.name);
        v.str(key("email", "the email address, as written"), self.email);
        v.url(key("page_url", "Atom `uri`, JSON Feed `url`"), self.page_url);
        v.object(key("icon", "`gd:image`, JSON Feed `avatar`"), self.icon.as_ref());
    }
}

impl Walk for Enclosure<'_> {
    const NAME: &'static str = "enclosure";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.url(key("url", "the file's URL, resolved"), self.url);
        v.str(key("type", "the MIME type, as written"), self.mime_type);
        v.uint(key("length", "size in bytes (greater than zero)"), self.length);
        v.str(key("title", "JSON Feed attachment `title`"), self.title);
        v.uint(
            key("duration", "JSON Feed attachment `duration_in_seconds`, seconds"),
            self.duration,
        );
        v.str(
            key("source", "`enclosure` | `media` | `link` | `attachment`: where it came from"),
            self.source,
        );
    }
}

impl Walk for Generator<'_> {
    const NAME: &'static str = "generator";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("name", "the generator's name"), self.name);
        v.url(key("uri", "Atom `generator@uri`"), self.uri);
        v.str(key("version", "Atom `generator@version`"), self.version);
    }
}

impl Walk for ImageInfo<'_> {
    const NAME: &'static str = "rss_image";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.url(key("url", "`url` (the spec's `logo.url`)"), self.url);
        v.str(key("title", "`title`: the image's alternative text"), self.title);
        v.url(key("link", "`link`: the page the image links to"), self.link);
        v.str(key("description", "`description`"), self.description);
        v.uint(key("width", "`width`, as written"), self.width);
        v.uint(key("height", "`height`, as written"), self.height);
        v.uint(
            key("display_width", "the width RSS 2.0 gives it (default 88, at most 144)"),
            self.display_width,
        );
        v.uint(
            key("display_height", "the height RSS 2.0 gives it (default 31, at most 400)"),
            self.display_height,
        );
    }
}

impl Walk for Category<'_> {
    const NAME: &'static str = "category";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("term", "the term, trimmed"), Some(self.term));
        v.str(key("scheme", "Atom `scheme`, RSS `domain`"), self.scheme);
        v.str(key("label", "Atom `label`"), self.label);
    }
}

impl Walk for LenientDate {
    const NAME: &'static str = "lenient_date";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.date(key("value", "the instant read"), Some(self.timestamp), None);
        v.bool(
            key("zone_assumed", "the text had no zone: UTC (Korean forms: +09:00) was assumed"),
            Some(self.zone_assumed),
        );
        v.str(
            key("form", "the form read (`us-month-name`, `ymd-slash`, …)"),
            Some(self.form.as_str()),
        );
    }
}

impl Shape for LenientDate {
    fn shape() -> Self {
        LenientDate {
            timestamp: Timestamp::from_unix(0).expect("the epoch is a date"),
            zone_assumed: false,
            form: LenientForm::Rfc3339,
        }
    }
}

impl Walk for Cloud<'_> {
    const NAME: &'static str = "cloud";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("domain", "`domain`"), self.domain);
        v.uint(key("port", "`port`"), self.port);
        v.str(key("path", "`path`"), self.path);
        v.str(key("register_procedure", "`registerProcedure`"), self.register_procedure);
        v.str(key("protocol", "`protocol`"), self.protocol);
    }
}

impl Walk for TextInput<'_> {
    const NAME: &'static str = "text_input";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("title", "`title`"), self.title);
        v.str(key("description", "`description`"), self.description);
        v.str(key("name", "`name`"), self.name);
        v.url(key("link", "`link` (URL)"), self.link);
    }
}

impl Walk for Syndication<'_> {
    const NAME: &'static str = "syndication";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("update_period", "`sy:updatePeriod`"), self.update_period);
        v.uint(key("update_frequency", "`sy:updateFrequency`"), self.update_frequency);
        v.date(key("update_base", "`sy:updateBase`"), self.update_base, self.update_base_raw);
    }
}

impl Walk for Link<'_> {
    const NAME: &'static str = "link";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("rel", "`rel`, as written"), Some(self.rel));
        v.url(key("url", "`href`, resolved"), Some(self.url));
        v.str(key("type", "`type`"), self.mime_type);
        v.str(key("title", "`title`"), self.title);
        v.str(key("hreflang", "`hreflang`"), self.hreflang);
        v.uint(key("length", "`length`"), self.length);
        v.uint(key("count", "`thr:count` on a `replies` link"), self.count);
        v.date(
            key("updated", "`thr:updated` (else the draft's `thr:when`) on a `replies` link"),
            self.updated,
            self.updated_raw,
        );
    }
}

impl Walk for Source<'_> {
    const NAME: &'static str = "source";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("title", "RSS `source` text, Atom `source/title`"), self.title);
        v.url(key("url", "RSS `source@url`, Atom `source` self (else alternate) link"), self.url);
    }
}

impl Walk for InReplyTo<'_> {
    const NAME: &'static str = "in_reply_to";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("id", "`ref`"), Some(self.id));
        v.url(key("url", "`href`"), self.url);
        v.str(key("type", "`type`"), self.mime_type);
        v.url(key("source", "`source`: the feed of the resource replied to"), self.source);
    }
}
