//! What a record's entries get from its feed, within [`INHERITED_MAX`] bytes: the feed's
//! authors as an entry's `computed_authors`, and (Arrow entry layout) the feed's key columns in
//! an entry's row; and the record's `limit_reached` diagnostic when not all entries get them.

#[cfg(feature = "arrow")]
use crate::record::RecordView;
use crate::{Diagnostic, DiagnosticKind, Feed, Person};

/// Bytes of the feed's values a record may copy into its entries: `computed_authors` taken
/// from the feed, and the `feed_*` columns of the entry layout. Past it, the entries after the
/// last that fits get none (a record's `limit_reached` diagnostic says so), so one long value
/// in the channel cannot multiply the output by the number of entries.
pub const INHERITED_MAX: usize = 16 << 20;

/// Approximate bytes a person takes in a record.
fn person_bytes(p: &Person<'_>) -> usize {
    let len = |s: Option<&str>| s.map_or(0, str::len);
    48 + len(p.name) + len(p.email) + len(p.page_url) + len(p.icon.and_then(|i| i.url))
}

/// The number of entries (from the first) that get a copy of the feed's authors as their
/// `computed_authors`: those with authors of their own cost nothing; the others
/// the feed's authors' size each, within [`INHERITED_MAX`].
pub(super) fn authors_inherited_by(f: &Feed<'_>) -> usize {
    let each: usize = f.authors.iter().map(person_bytes).sum();
    let mut left = INHERITED_MAX;
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

/// The diagnostic of a record whose entries do not all get the feed's authors.
pub(super) fn authors_cut(f: &Feed<'_>) -> Option<Diagnostic> {
    let n = authors_inherited_by(f);
    (n < f.entries.len()).then(|| Diagnostic {
        kind: DiagnosticKind::LimitReached,
        offset: 0,
        message: format!(
            "computed_authors: the feed's authors are copied into the entries without authors \
             of their own up to {INHERITED_MAX} bytes, so into the first {n} of {} entries only",
            f.entries.len()
        ),
    })
}

/// How many of a record's entries (from the first) get copies of its feed's values, within
/// [`INHERITED_MAX`]: its authors as their `computed_authors`, and (entry layout) the feed's
/// key columns in their rows.
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
            authors: authors_inherited_by(f),
            // The first row gets them whatever their size.
            feed_columns: (INHERITED_MAX / (each + canonical)).max(1),
        }
    }
}
