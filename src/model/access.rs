//! Convenience accessors on the model: what a library user asks of a feed without knowing
//! which spec field or extension holds it (the entry's best date, a text value for
//! display). The plain-text accessors (`title_text`, `to_plain_text`) are
//! `crate::html::text`'s, where text is taken out of HTML.

use std::fmt;

use super::{Entry, Text, Timestamp};

impl Entry<'_> {
    /// The entry's best date, for sorting and display: the spec's `updated`, else its
    /// `published` (both include values filled by recovery rules), else the lenient
    /// readings of a non-standard `updated` then `published` date (`*_lenient`, whose
    /// zone may have been assumed). `None` when the entry carries no readable date.
    ///
    /// ```
    /// let mut parser = feedmill::Parser::new(feedmill::Options::default());
    /// let doc = "<rss><channel><item><pubDate>Mon, 15 Jan 2024 13:45:00 GMT</pubDate></item>\
    ///            <item><pubDate>2024/01/16 08:00</pubDate></item></channel></rss>";
    /// let parsed = parser.parse_str(doc, None).unwrap();
    /// let entries = &parsed.feed.as_ref().unwrap().entries;
    /// assert_eq!(entries[0].date().unwrap().to_string(), "2024-01-15T13:45:00Z");
    /// assert_eq!(entries[1].date().unwrap().to_string(), "2024-01-16T08:00:00Z");
    /// ```
    pub fn date(&self) -> Option<Timestamp> {
        self.updated
            .or(self.published)
            .or_else(|| self.updated_lenient.or(self.published_lenient).map(|l| l.timestamp))
    }
}

/// A plain string as is; an HTML value as its HTML serialization (the sanitized fragment).
impl fmt::Display for Text<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Text::Plain(s) => f.write_str(s),
            Text::Html(h) => f.write_str(&h.to_html_string()),
        }
    }
}
