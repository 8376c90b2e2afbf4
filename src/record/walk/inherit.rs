//! What a record's entries get from its feed, within the record's
//! [`max_inherited_bytes`](crate::Limits::max_inherited_bytes): the feed's authors as an
//! entry's `computed_authors`, and (Arrow entry layout) the feed's key columns in an entry's
//! row; and the record's `limit_reached` diagnostic when not all entries get them.

#[cfg(feature = "arrow")]
use crate::record::RecordView;
use crate::{Diagnostic, DiagnosticKind, Feed, Person};

/// Approximate bytes a person takes in a record.
fn person_bytes(p: &Person<'_>) -> usize {
    let len = |s: Option<&str>| s.map_or(0, str::len);
    48 + len(p.name) + len(p.email) + len(p.page_url) + len(p.icon.and_then(|i| i.url))
}

/// The number of entries (from the first) that get a copy of the feed's authors as their
/// `computed_authors`: those with authors of their own cost nothing; the others
/// the feed's authors' size each, within `max` bytes.
pub(super) fn authors_inherited_by(f: &Feed<'_>, max: usize) -> usize {
    let each: usize = f.authors.iter().map(person_bytes).sum();
    let mut left = max;
    for (i, e) in f.entries.iter().enumerate() {
        if e.authors.is_empty() && each > 0 {
            match left.checked_sub(each) {
                Some(l) => left = l,
                None => return i,
            }
        }
    }
    f.entries.len()
}

/// The diagnostic of a record whose entries do not all get the feed's authors: only the first
/// `n` do ([`authors_inherited_by`] within `max` bytes).
pub(super) fn authors_cut(f: &Feed<'_>, n: usize, max: usize) -> Option<Diagnostic> {
    (n < f.entries.len()).then(|| Diagnostic {
        kind: DiagnosticKind::LimitReached,
        offset: 0,
        message: format!(
            "computed_authors: the feed's authors are copied into the entries without authors \
             of their own up to {max} bytes, so into the first {n} of {} entries only",
            f.entries.len()
        ),
    })
}

/// How many of a record's entries (from the first) get copies of its feed's values, within
/// its [`max_inherited_bytes`](RecordView::max_inherited_bytes): its authors as their
/// `computed_authors`, and (entry layout) the feed's key columns in their rows.
#[cfg(feature = "arrow")]
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Inherited {
    pub(super) authors: usize,
    pub(super) feed_columns: usize,
}

#[cfg(feature = "arrow")]
impl Inherited {
    /// The copies `rec`'s entries get.
    pub(crate) fn of(rec: &RecordView<'_, '_>) -> Self {
        let Some(f) = rec.feed else { return Inherited::default() };
        let len = |s: Option<&str>| s.map_or(0, str::len);
        let title = match &f.title {
            None => 0,
            Some(crate::Text::Plain(t)) => t.len(),
            Some(crate::Text::Html(h)) => h.to_html_string().len(),
        };
        let canonical = len(rec.extraction.and_then(|x| x.canonical_url));
        let each = 64 + title + len(f.page_url) + len(f.feed_url) + len(f.id) + len(f.language);
        Inherited {
            authors: authors_inherited_by(f, rec.max_inherited_bytes),
            // The first row gets them whatever their size.
            feed_columns: (rec.max_inherited_bytes / (each + canonical)).max(1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::person_bytes;
    use crate::sink::json::encode_record;
    use crate::sink::RecordView;
    use crate::{Limits, Options, Parser};

    /// A channel author and ten entries without authors of their own.
    const DOC: &str = "<rss><channel><managingEditor>ed@example.org (Ed)</managingEditor>\
        <item/><item/><item/><item/><item/><item/><item/><item/><item/><item/></channel></rss>";

    fn json(rec: &RecordView<'_, '_>) -> serde_json::Value {
        let mut line = Vec::new();
        encode_record(&mut line, rec);
        serde_json::from_slice(&line).unwrap()
    }

    fn with_authors(v: &serde_json::Value) -> usize {
        let entries = v["feed"]["entries"].as_array().unwrap();
        entries.iter().filter(|e| e.get("computed_authors").is_some()).count()
    }

    fn limit_reached(v: &serde_json::Value) -> Vec<&serde_json::Value> {
        let diagnostics = v["diagnostics"].as_array().map_or(&[][..], |d| &d[..]);
        diagnostics.iter().filter(|d| d["kind"] == "limit_reached").collect()
    }

    /// Below the record's `max_inherited_bytes`, the entries past the budget get no copy of
    /// the feed's authors, and the record one `limit_reached` diagnostic; at the default, all
    /// of them get it and there is none.
    #[test]
    fn the_record_limit_cuts_the_copies_and_says_so() {
        let mut parser = Parser::new(Options::default());
        let parsed = parser.parse_str(DOC, None).unwrap();
        let feed = parsed.feed.as_ref().unwrap();
        let each: usize = feed.authors.iter().map(person_bytes).sum();

        let default = RecordView::parsed("s", None, &parsed);
        assert_eq!(default.max_inherited_bytes, Limits::default().max_inherited_bytes);
        let v = json(&default);
        assert_eq!(with_authors(&v), 10);
        assert!(limit_reached(&v).is_empty(), "{v}");

        let max = 3 * each + each / 2;
        let v = json(&RecordView { max_inherited_bytes: max, ..default });
        assert_eq!(with_authors(&v), 3);
        let cut = limit_reached(&v);
        assert_eq!(cut.len(), 1, "{v}");
        let message = cut[0]["message"].as_str().unwrap();
        assert!(
            message.contains(&format!("up to {max} bytes, so into the first 3 of 10")),
            "{message}"
        );
    }

    /// The limit set in the parser's options reaches the record: `RecordView::parsed` takes it
    /// from the parse.
    #[test]
    fn the_parsers_limit_is_the_records() {
        let mut parser = Parser::new(Options::default());
        let parsed = parser.parse_str(DOC, None).unwrap();
        let each: usize = parsed.feed.as_ref().unwrap().authors.iter().map(person_bytes).sum();
        let mut options = Options::default();
        options.limits.max_inherited_bytes = 2 * each;
        let mut parser = Parser::new(options);
        let parsed = parser.parse_str(DOC, None).unwrap();
        let view = RecordView::parsed("s", None, &parsed);
        assert_eq!(view.max_inherited_bytes, 2 * each);
        let v = json(&view);
        assert_eq!(with_authors(&v), 2);
        assert_eq!(limit_reached(&v).len(), 1, "{v}");
    }

    /// The entry layout's `feed_*` columns: within the record's limit, and in the first row
    /// whatever their size.
    #[cfg(feature = "arrow")]
    #[test]
    fn the_entry_layouts_feed_columns_stay_within_the_record_limit() {
        use super::Inherited;
        let mut parser = Parser::new(Options::default());
        let parsed = parser.parse_str(DOC, None).unwrap();
        let default = RecordView::parsed("s", None, &parsed);
        assert!(Inherited::of(&default).feed_columns >= 10);
        let none = Inherited::of(&RecordView { max_inherited_bytes: 0, ..default });
        assert_eq!((none.authors, none.feed_columns), (0, 1));
    }
}
