//! Apple Podcasts' requirements for the iTunes namespace (`itunes:*` in an RSS 2.0 channel
//! and its items; Apple's "Podcast RSS feed requirements"), reported with the Feed
//! Validator's iTunes classes: categories from Apple's list, `explicit`, `block` and
//! `complete` values, `duration` forms, `type` and `episodeType` names, `season` and `episode`
//! numbers, `keywords`, the `image` URL, the `owner`'s `email`, and the channel elements Apple
//! requires of a podcast (a channel with any iTunes element is one).

use super::values::{EmailCheck, UrlCheck};
use super::*;
use crate::lint::Code;
use crate::xml::{Tag, XmlReader};

/// Apple Podcasts' categories and their subcategories (Apple's list, current since 2019).
const CATEGORIES: &[(&str, &[&str])] = &[
    ("Arts", &["Books", "Design", "Fashion & Beauty", "Food", "Performing Arts", "Visual Arts"]),
    (
        "Business",
        &["Careers", "Entrepreneurship", "Investing", "Management", "Marketing", "Non-Profit"],
    ),
    ("Comedy", &["Comedy Interviews", "Improv", "Stand-Up"]),
    ("Education", &["Courses", "How To", "Language Learning", "Self-Improvement"]),
    ("Fiction", &["Comedy Fiction", "Drama", "Science Fiction"]),
    ("Government", &[]),
    ("History", &[]),
    (
        "Health & Fitness",
        &["Alternative Health", "Fitness", "Medicine", "Mental Health", "Nutrition", "Sexuality"],
    ),
    ("Kids & Family", &["Education for Kids", "Parenting", "Pets & Animals", "Stories for Kids"]),
    (
        "Leisure",
        &[
            "Animation & Manga",
            "Automotive",
            "Aviation",
            "Crafts",
            "Games",
            "Hobbies",
            "Home & Garden",
            "Video Games",
        ],
    ),
    ("Music", &["Music Commentary", "Music History", "Music Interviews"]),
    (
        "News",
        &[
            "Business News",
            "Daily News",
            "Entertainment News",
            "News Commentary",
            "Politics",
            "Sports News",
            "Tech News",
        ],
    ),
    (
        "Religion & Spirituality",
        &["Buddhism", "Christianity", "Hinduism", "Islam", "Judaism", "Religion", "Spirituality"],
    ),
    (
        "Science",
        &[
            "Astronomy",
            "Chemistry",
            "Earth Sciences",
            "Life Sciences",
            "Mathematics",
            "Natural Sciences",
            "Nature",
            "Physics",
            "Social Sciences",
        ],
    ),
    (
        "Society & Culture",
        &["Documentary", "Personal Journals", "Philosophy", "Places & Travel", "Relationships"],
    ),
    (
        "Sports",
        &[
            "Baseball",
            "Basketball",
            "Cricket",
            "Fantasy Sports",
            "Football",
            "Golf",
            "Hockey",
            "Rugby",
            "Running",
            "Soccer",
            "Swimming",
            "Tennis",
            "Volleyball",
            "Wilderness",
            "Wrestling",
        ],
    ),
    ("Technology", &[]),
    ("True Crime", &[]),
    (
        "TV & Film",
        &["After Shows", "Film History", "Film Interviews", "Film Reviews", "TV Reviews"],
    ),
];

/// Apple's categories before the 2019 list: no longer in Apple's list, still in many feeds
/// (the validator's `ObsoleteItunesCategory`).
const OBSOLETE: &[(&str, &[&str])] = &[
    ("Games & Hobbies", &["Automotive", "Aviation", "Hobbies", "Other Games", "Video Games"]),
    ("Government & Organizations", &["Local", "National", "Non-Profit", "Regional"]),
    ("Health", &["Alternative Health", "Fitness & Nutrition", "Self-Help", "Sexuality"]),
    ("Science & Medicine", &["Medicine", "Natural Sciences", "Social Sciences"]),
    ("Sports & Recreation", &["Amateur", "College & High School", "Outdoor", "Professional"]),
    ("Technology", &["Gadgets", "Podcasting", "Software How-To", "Tech News"]),
    ("Arts", &["Literature"]),
    ("Business", &["Business News", "Management & Marketing", "Shopping"]),
    (
        "Education",
        &["Educational Technology", "Higher Education", "K-12", "Language Courses", "Training"],
    ),
    ("Religion & Spirituality", &["Other"]),
    ("Society & Culture", &["History"]),
];

/// What Apple's lists say of a category `text` under `parent` (`None`: a top-level one).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Known {
    Current,
    Obsolete,
    Unknown,
}

fn known(parent: Option<&str>, text: &str) -> Known {
    let find = |list: &[(&str, &[&str])]| match parent {
        None => list.iter().any(|(c, _)| *c == text),
        Some(p) => list.iter().any(|(c, subs)| *c == p && subs.contains(&text)),
    };
    if find(CATEGORIES) {
        Known::Current
    } else if find(OBSOLETE) {
        Known::Obsolete
    } else {
        Known::Unknown
    }
}

/// `itunes:duration`: seconds, or `H:MM`/`H:MM:SS` with any number of leading digits and
/// minutes and seconds below 60 (Apple: "HH:MM:SS, H:MM:SS, MM:SS, or M:SS" or seconds; the
/// Feed Validator's reading).
pub(super) fn is_duration(v: &str) -> bool {
    let mut parts = v.trim().split(':');
    let first = parts.next().unwrap_or("");
    let rest: Vec<&str> = parts.collect();
    values::all_digits(first)
        && rest.len() <= 2
        && rest.iter().all(|p| p.len() == 2 && values::all_digits(p) && p.as_bytes()[0] < b'6')
}

/// `itunes:explicit`: Apple's `true`/`false`, or the earlier `yes`/`no`/`clean` (Apple still
/// reads them), ASCII-case-insensitively.
pub(super) fn is_explicit(v: &str) -> bool {
    let v = v.trim();
    ["true", "false", "yes", "no", "clean"].iter().any(|k| k.eq_ignore_ascii_case(v))
}

/// What a channel's iTunes elements were.
#[derive(Default)]
pub(super) struct ChannelItunes {
    used: bool,
    category: bool,
    explicit: bool,
    image: bool,
    owner: bool,
}

const S_CATEGORY: &str = "Apple Podcasts itunes:category";

impl<'a> Collector<'a> {
    /// An `itunes:*` child of `channel` or (`item`) of an item.
    pub(super) fn itunes_child(&mut self, r: &XmlReader<'a>, tag: &Tag<'a>, item: bool) {
        self.channel.itunes.used = true;
        let parent = if item { self.item.name() } else { "channel" };
        let off = tag.offset;
        match tag.local {
            "category" if !item => {
                self.channel.itunes.category = true;
                self.itunes_category(tag, None);
                for sub in self.itunes_subcategories(r, tag) {
                    if let Some(p) = tag.attr(self.arena, "text") {
                        self.itunes_category(&sub, Some(p));
                    }
                }
            }
            "explicit" => {
                self.channel.itunes.explicit |= !item;
                let (cs, ce, _) = self.spans(r, tag);
                let v = values::read_raw(&self.src[cs..ce]).text;
                if !is_explicit(&v) {
                    let e = draft(Code::InvalidYesNoClean, off, "Apple Podcasts itunes:explicit");
                    self.push(e.parent(parent).el("itunes:explicit").value(&v));
                }
            }
            "image" => {
                self.channel.itunes.image |= !item;
                self.itunes_image(tag, parent);
            }
            "duration" if item => {
                let (cs, ce, _) = self.spans(r, tag);
                let v = values::read_raw(&self.src[cs..ce]).text;
                if !is_duration(&v) {
                    let e = draft(Code::InvalidDuration, off, "Apple Podcasts itunes:duration");
                    self.push(e.parent(parent).el("itunes:duration").value(&v));
                }
            }
            "type" if !item => {
                let v = self.itunes_text(r, tag);
                if !matches!(v.trim(), "episodic" | "serial") {
                    let e =
                        draft(Code::InvalidItunesChannelType, off, "Apple Podcasts itunes:type");
                    self.push(e.parent(parent).el("itunes:type").value(&v));
                }
            }
            "episodeType" if item => {
                let v = self.itunes_text(r, tag);
                if !matches!(v.trim(), "full" | "trailer" | "bonus") {
                    let s = "Apple Podcasts itunes:episodeType";
                    let e = draft(Code::InvalidItunesEpisodeType, off, s);
                    self.push(e.parent(parent).el("itunes:episodeType").value(&v));
                }
            }
            // Apple: "Yes" blocks (hides) the show or episode, any other value does not; the
            // validator reads `itunes:block` as `itunes:explicit` (yes, no, clean).
            "block" => {
                let v = self.itunes_text(r, tag);
                let t = v.trim();
                if !["yes", "no", "clean"].iter().any(|k| k.eq_ignore_ascii_case(t)) {
                    let e = draft(Code::InvalidYesNoClean, off, "Apple Podcasts itunes:block");
                    self.push(e.parent(parent).el("itunes:block").value(&v));
                }
            }
            // Apple: "Yes" marks a show that will publish no more episodes.
            "complete" if !item => {
                let v = self.itunes_text(r, tag);
                let t = v.trim();
                if !["yes", "no"].iter().any(|k| k.eq_ignore_ascii_case(t)) {
                    let e = draft(Code::InvalidYesNo, off, "Apple Podcasts itunes:complete");
                    self.push(e.parent(parent).el("itunes:complete").value(&v));
                }
            }
            "owner" if !item => {
                self.channel.itunes.owner = true;
                self.itunes_owner(r, tag);
            }
            "season" | "episode" if item => {
                let v = self.itunes_text(r, tag);
                if values::non_negative(&v).is_none_or(|n| n == 0) {
                    let (el, s) = if tag.local == "season" {
                        ("itunes:season", "Apple Podcasts itunes:season")
                    } else {
                        ("itunes:episode", "Apple Podcasts itunes:episode")
                    };
                    let e = draft(Code::InvalidPositiveInteger, off, s).parent(parent).el(el);
                    self.push(e.value(&v));
                }
            }
            "keywords" => {
                let v = self.itunes_text(r, tag);
                let s = "Apple Podcasts itunes:keywords";
                // The validator's limit: 255 characters.
                let len = v.chars().count();
                if len > 255 {
                    let e = draft(Code::TooLong, off, s).parent(parent).el("itunes:keywords");
                    self.push(e.param("len", &len.to_string()).param("max", "255"));
                }
                if v.contains(' ') && !v.contains(',') {
                    let e = draft(Code::InvalidKeywords, off, s).parent(parent);
                    self.push(e.el("itunes:keywords").value(&v));
                }
            }
            _ => {}
        }
    }

    /// The text of a consumed `itunes:` leaf element.
    fn itunes_text(&self, r: &XmlReader<'a>, tag: &Tag<'a>) -> Cow<'a, str> {
        let (cs, ce, _) = self.spans(r, tag);
        values::read_raw(&self.src[cs..ce]).text
    }

    /// `itunes:image`: an `href` that is a full URL of a JPEG or PNG file (Apple: "JPEG or PNG
    /// format"; its size, 1400–3000 pixels square, needs the image, which is not fetched).
    fn itunes_image(&mut self, tag: &Tag<'a>, parent: &str) {
        let s = "Apple Podcasts itunes:image";
        let Some(href) = tag.attr(self.arena, "href") else {
            let e = draft(Code::MissingAttribute, tag.offset, s);
            return self.push(e.parent(parent).el("itunes:image").param("attr", "href"));
        };
        if !matches!(values::check_url(href), UrlCheck::Ok | UrlCheck::Unregistered) {
            let e = draft(Code::InvalidURLAttribute, tag.offset, s).parent(parent);
            return self.push(e.el("itunes:image").param("attr", "href").value(href));
        }
        if values::image_url_not_jpeg_png(href) {
            let e = draft(Code::ImageUrlFormat, tag.offset, s).parent(parent);
            self.push(e.el("itunes:image").param("attr", "href").value(href));
        }
    }

    /// `itunes:owner`: an `itunes:email` child that is an e-mail address (the validator's
    /// `owner`), re-read from the owner's source span.
    fn itunes_owner(&mut self, r: &XmlReader<'a>, tag: &Tag<'a>) {
        let s = "Apple Podcasts itunes:owner";
        let (_, _, end) = self.spans(r, tag);
        let slice = &self.src[tag.offset..end.max(tag.offset)];
        let mut sub = XmlReader::new(self.arena, slice, 8);
        let mut email = None;
        if matches!(sub.next(), crate::xml::Event::Start(_)) {
            while let Some(c) = sub.next_child() {
                let t = sub.child_text(1 << 12);
                if c.local == "email" && email.is_none() {
                    email = Some((c.offset + tag.offset, t));
                }
            }
        }
        match email {
            None => {
                let e = draft(Code::MissingElement, tag.offset, s).parent("itunes:owner");
                self.push(e.el("itunes:email"));
            }
            Some((at, v)) if values::check_email(v) == EmailCheck::Invalid => {
                let e = draft(Code::InvalidContact, at, s).parent("itunes:owner");
                self.push(e.el("itunes:email").value(v));
            }
            Some(_) => {}
        }
    }

    /// An `itunes:category`'s `text` against Apple's list (under `parent`, for a
    /// subcategory).
    fn itunes_category(&mut self, tag: &Tag<'a>, parent: Option<&str>) {
        let Some(text) = tag.attr(self.arena, "text") else {
            let e = draft(Code::MissingAttribute, tag.offset, S_CATEGORY).el("itunes:category");
            return self.push(e.param("attr", "text"));
        };
        let code = match known(parent, text) {
            Known::Current => return,
            Known::Obsolete => Code::ObsoleteItunesCategory,
            Known::Unknown => Code::InvalidItunesCategory,
        };
        let e = draft(code, tag.offset, S_CATEGORY).parent(parent.unwrap_or("channel"));
        self.push(e.el("itunes:category").param("text", text));
    }

    /// The `category` children of a consumed `itunes:category`, re-read from its source span
    /// (offsets in the document).
    fn itunes_subcategories(&self, r: &XmlReader<'a>, tag: &Tag<'a>) -> Vec<Tag<'a>> {
        let (_, _, end) = self.spans(r, tag);
        let slice = &self.src[tag.offset..end.max(tag.offset)];
        let mut sub = XmlReader::new(self.arena, slice, 8);
        let mut out = Vec::new();
        if !matches!(sub.next(), crate::xml::Event::Start(_)) {
            return out;
        }
        while let Some(mut c) = sub.next_child() {
            sub.skip();
            if c.local == "category" {
                c.offset += tag.offset;
                out.push(c);
            }
        }
        out
    }

    /// The end of a channel that has iTunes elements: the ones Apple requires.
    pub(super) fn itunes_end(&mut self, it: ChannelItunes, off: usize, language: bool) {
        if !it.used {
            return;
        }
        let s = "Apple Podcasts channel";
        for (has, el) in [
            (it.image, "itunes:image"),
            (it.category, "itunes:category"),
            (it.explicit, "itunes:explicit"),
            (language, "language"),
        ] {
            if !has {
                self.push(draft(Code::MissingItunesElement, off, s).parent("channel").el(el));
            }
        }
        if !it.owner {
            let s = "Apple Podcasts itunes:owner";
            self.push(draft(Code::MissingItunesEmail, off, s).parent("channel").el("itunes:email"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_explicit_values_and_categories() {
        for ok in ["0", "3723", "1:02:03", "62:03", "5:00", "100:00:00", " 12:34 "] {
            assert!(is_duration(ok), "{ok}");
        }
        for bad in ["", "5 min", "1:75", "1:2", "1:02:03:04", "1:02:60", "-5", "1.5", "PT1H"] {
            assert!(!is_duration(bad), "{bad}");
        }
        for ok in ["true", "false", "Yes", "no", "clean", " explicit ".trim_matches(' ')] {
            assert_eq!(is_explicit(ok), ok != "explicit", "{ok}");
        }
        assert!(known(None, "TV & Film") == Known::Current);
        assert!(known(Some("TV & Film"), "After Shows") == Known::Current);
        assert!(known(Some("Arts"), "After Shows") == Known::Unknown);
        assert!(known(None, "Games & Hobbies") == Known::Obsolete);
        assert!(known(Some("Technology"), "Podcasting") == Known::Obsolete);
        assert!(known(None, "technology") == Known::Unknown);
    }
}
