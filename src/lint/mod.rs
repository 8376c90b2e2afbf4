//! `feedmill::lint`: the RSS Best Practices Profile (RSS Advisory Board) as a validator for
//! RSS 2.0 documents (with the RSS core rules the Feed Validator checks and Apple Podcasts'
//! requirements for their iTunes elements), the RSS 1.0 specification's for RSS 1.0
//! documents, RFC 4287's rules for Atom 1.0 documents, Media RSS's for the `media:` elements
//! of RSS 2.0 and Atom, and JSON Feed 1.1's for JSON Feed documents, computed in the same pull
//! pass as parsing.
//!
//! Owns: [`Finding`] (a W3C Feed Validator message class as [`Code`], its [`Severity`], the
//! validator's parameters, the offending position and the Profile or RFC 4287 section it
//! enforces),
//! [`Report`] (the findings of one document, with the `rss` element's `version`),
//! [`LintOptions`] (turns linting on in [`crate::Options::lint`]), [`Tally`] (codes × feeds
//! counters of a bulk run), the JSON writers of the `findings` key and of `feedmill lint`
//! lines, and the collector the RSS 2.0, RSS 1.0 and Atom 1.0 state machines and the JSON
//! Feed reader feed.
//!
//! How it runs: the RSS 2.0 switch tables (`format::rss2`) call one hook after each child of
//! `rss`, `channel` and `item` has been processed, and one after each item. The hook gets
//! the child's start tag and the reader's position, so it sees what the model drops:
//! order, duplicates, unknown elements, attributes, and the raw source of the element's
//! content (`&amp;` versus `&#x26;`, CDATA, child elements in plain text). Leaf values are
//! read from that raw content; the small structured elements the model reads only in part
//! (`image`, `textInput`, `skipHours`, `skipDays`) are re-read from their own source span.
//! With [`crate::Options::lint`] `None` (the default) the hooks are one untaken branch each.
//! The Atom 1.0 switch tables (`format::atom`) call the same hook after each child of `feed`
//! and `entry` (the feed's hook for an `entry` closes that entry's checks); the feed's are
//! closed at the end of the document.
//!
//! The JSON Feed reader (`format::json_feed`) hands the lint the members of the feed object
//! and of each item as it reads them (`collect/json.rs`). The RSS 1.0 switch tables
//! (`format::rss1`) call the hook after each child of `rdf:RDF`, `channel` and `item`; RSS 2.0
//! calls one more before each item (whether it is a `podcast:liveItem`, named so in its
//! findings).
//!
//! RSS 2.0 (`rss` root, RSS 0.91–0.94 included), RSS 1.0, Atom 1.0 and JSON Feed are linted;
//! Atom 0.3 and RSS 0.90 documents get a report with no findings. Offsets, lines and columns
//! refer to the decoded text of the document (as diagnostics do); `line` and `column` are
//! 1-based, the column counts characters.

mod collect;
pub mod messages;
mod values;

use std::fmt;

use crate::error::Severity;

pub(crate) use collect::{member_start, Collector, JsonMember};
pub use messages::Code;

pub use crate::options::LintOptions;

/// One finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The Feed Validator message class.
    pub code: Code,
    /// The validator's parameters that apply, by name (`element`, `parent`, `attr`, `value`;
    /// `core` and `ext` for the duplicate-semantics classes, `uri` and `curi` for
    /// `NonCanonicalURI`, `message` for `NotHtml` and `RSS20Profile`), in that order; and `tag`
    /// for `SecurityRisk` (its template's; the same name is its `value`, the JSON key); `text`
    /// for the iTunes category classes; `len` and `max` for `TooLong`.
    pub params: Vec<(&'static str, Box<str>)>,
    /// Byte offset in the decoded document of the element (or attribute's element) at fault;
    /// for a missing child, of its parent.
    pub offset: usize,
    /// 1-based line of `offset`.
    pub line: u32,
    /// 1-based column of `offset`, in characters.
    pub column: u32,
    /// The Profile section the finding enforces (e.g. `4.1.1.20.6 guid`); for an Atom rule,
    /// the RFC and its section (`RFC 4287 4.1.2 atom:entry`).
    pub section: &'static str,
    /// The line of `offset` around it, for display: at most 60 bytes before `offset` and 160
    /// in all, cut on character boundaries, without the line break; as written (control
    /// characters included: a display escapes them). Not part of the JSON finding.
    pub excerpt: Box<str>,
    /// The 1-based column of `offset` in `excerpt`, in characters.
    pub excerpt_column: u32,
}

impl Finding {
    /// The severity of the finding's code ([`Code::severity`]).
    pub fn severity(&self) -> Severity {
        self.code.severity()
    }

    /// The reference document of the rule the finding enforces, by its `section`: the
    /// Profile (a numbered section), RFC 4287 (`RFC 4287 …`), Apple's requirements (`Apple
    /// Podcasts …`), the RSS 1.0 specification (`RSS 1.0 …`), the Media RSS specification
    /// (`Media RSS …`), JSON Feed 1.1 (`JSON Feed …`); a class several rule sets report (`MissingAttribute`) is referenced by its finding.
    pub fn reference(&self) -> &'static str {
        messages::section_reference(self.section).unwrap_or(self.code.reference())
    }

    /// A parameter's value.
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params.iter().find(|(n, _)| *n == name).map(|(_, v)| &**v)
    }

    /// The validator's message: the class template with its parameters filled in (a
    /// parameter the finding lacks is left empty; `%(name)d` as `%(name)s`); for a class with no template
    /// (`RSS20Profile`), the `message` parameter.
    pub fn message(&self) -> String {
        let t = match self.code.template() {
            "" => "%(message)s",
            t => t,
        };
        let mut out = String::with_capacity(t.len() + 16);
        let mut rest = t;
        while let Some(i) = rest.find("%(") {
            out.push_str(&rest[..i]);
            let after = &rest[i + 2..];
            // `%(name)s`, or `%(name)d` for a number (`TooLong`'s `len` and `max`).
            match after
                .find(')')
                .filter(|&j| matches!(after.as_bytes().get(j + 1), Some(b's' | b'd')))
            {
                Some(j) => {
                    out.push_str(self.param(&after[..j]).unwrap_or(""));
                    rest = &after[j + 2..];
                }
                None => {
                    out.push_str(&rest[i..]);
                    rest = "";
                }
            }
        }
        out.push_str(rest);
        out
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{} {} {}: {} [{}]",
            self.line,
            self.column,
            self.severity().as_str(),
            self.code.name(),
            self.message(),
            self.section
        )
    }
}

/// The lint of one document.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// The `rss` element's `version` attribute, as written.
    pub version: Option<Box<str>>,
    /// Findings in document order (by offset; ties in the order they were found): the first
    /// [`crate::Limits::max_diagnostics`] found.
    pub findings: Vec<Finding>,
    /// Findings found past [`crate::Limits::max_diagnostics`], counted only.
    pub dropped: usize,
}

impl Report {
    /// The highest severity among the findings.
    pub fn max_severity(&self) -> Option<Severity> {
        self.findings.iter().map(Finding::severity).max()
    }
}

/// Counters over linted records: for each code, the number of records (feeds) with at least
/// one finding of that code; and the records with at least one error / warning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tally {
    /// Records linted (every [`Tally::count`] call).
    pub linted: u64,
    /// Records with at least one error.
    pub with_errors: u64,
    /// Records with at least one warning (with or without errors).
    pub with_warnings: u64,
    /// For each code, indexed by `code as usize` (the order of [`messages::ALL`]): the
    /// records with at least one finding of that code.
    pub feeds: [u64; messages::ALL.len()],
    /// For each code, indexed as `feeds`: the findings of that code (those listed; past
    /// [`crate::Limits::max_diagnostics`] findings are counted in [`Report::dropped`] only).
    pub findings: [u64; messages::ALL.len()],
}

impl Default for Tally {
    fn default() -> Self {
        let feeds = [0; messages::ALL.len()];
        Tally { linted: 0, with_errors: 0, with_warnings: 0, feeds, findings: feeds }
    }
}

impl Tally {
    /// Counts one linted record.
    pub fn count(&mut self, report: &Report) {
        self.linted += 1;
        let mut seen = [false; messages::ALL.len()];
        for f in &report.findings {
            seen[f.code as usize] = true;
            self.findings[f.code as usize] += 1;
        }
        for (n, s) in self.feeds.iter_mut().zip(seen) {
            *n += s as u64;
        }
        match report.max_severity() {
            Some(Severity::Error) => {
                self.with_errors += 1;
                self.with_warnings +=
                    report.findings.iter().any(|f| f.severity() == Severity::Warning) as u64;
            }
            Some(Severity::Warning) => self.with_warnings += 1,
            _ => {}
        }
    }

    /// Adds another tally's counts to this one (merging per-worker tallies).
    pub fn add(&mut self, other: &Tally) {
        self.linted += other.linted;
        self.with_errors += other.with_errors;
        self.with_warnings += other.with_warnings;
        for (a, b) in self.feeds.iter_mut().zip(other.feeds) {
            *a += b;
        }
        for (a, b) in self.findings.iter_mut().zip(other.findings) {
            *a += b;
        }
    }

    /// `(code, feeds affected)` for every code that occurred, most frequent first (ties by
    /// code name).
    pub fn rows(&self) -> Vec<(Code, u64)> {
        let mut rows: Vec<(Code, u64)> = messages::ALL
            .iter()
            .map(|&c| (c, self.feeds[c as usize]))
            .filter(|r| r.1 > 0)
            .collect();
        rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.name().cmp(b.0.name())));
        rows
    }
}

/// Where a hook is called from: a child of `rss`, of `channel` or of `item` (RSS 2.0); of
/// `feed` or of `entry` (Atom 1.0); of `rdf:RDF`, of `channel` or of `item` (RSS 1.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Level {
    Rss,
    Channel,
    Item,
    Feed,
    Entry,
    Rdf,
    Rss1Channel,
    Rss1Item,
}
