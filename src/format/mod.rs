//! Stage 4: formats. "Process a feed document" \[10\]: root dispatch to the Atom, RSS 2.0
//! and RSS 1.0 state machines (JSON Feed: by its content), then "cleanup feed". Owns the
//! result of processing one document ([`Parsed`]) and the [`Format`] names.
//!
//! Each format module walks the spec's "switch by namespace and local name" tables directly
//! over the pull reader — one `match (ns, local)` arm per row — and builds the model in one
//! pass. [`common`] holds the element steps the tables share; [`cleanup`] the cleanup steps.

pub mod atom;
pub mod cleanup;
pub mod common;
pub mod ext;
pub mod json_feed;
pub mod recover;
pub mod rss1;
pub mod rss2;

use bumpalo::Bump;
use url::Url;

use crate::model::url::UrlBudget;
use crate::xml::{Event, Ns, XmlReader};
use crate::{lint, Diagnostic, DiagnosticKind, Feed, Options};
use common::Ctx;

/// The feed format, by root element (JSON Feed: by its `version`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// `rss` in the null namespace (RSS 0.9x and 2.0).
    Rss2,
    /// `rdf:RDF` (RSS 1.0 and 0.90).
    Rss1,
    /// `feed` in the Atom 1.0 namespace.
    Atom,
    /// `feed` in the Atom 0.3 namespace.
    Atom03,
    /// JSON Feed 1.0 or 1.1 (`format::json_feed`).
    Json,
}

impl Format {
    /// Stable name used in JSON records.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Rss2 => "rss2",
            Format::Rss1 => "rss1",
            Format::Atom => "atom",
            Format::Atom03 => "atom03",
            Format::Json => "json",
        }
    }
}

/// The result of processing one document.
#[derive(Debug, PartialEq)]
#[non_exhaustive]
pub struct Parsed<'a> {
    /// The feed, or `None` when the document is not a feed (spec: null).
    pub feed: Option<Feed<'a>>,
    /// The format, when the root element is a feed root.
    pub format: Option<Format>,
    /// Everything recovered or ignored, in the order recorded: as the document is read, so in
    /// document order, except that a diagnostic about an element's value (`recovered`,
    /// `invalid_value`) is recorded once the element is read, with the element's start offset
    /// (after any diagnostic from inside it).
    pub diagnostics: Vec<Diagnostic>,
    /// The character encoding the document was decoded with (`None` when the caller gave
    /// decoded text, or when a response was rejected before decoding).
    pub encoding: Option<&'static encoding_rs::Encoding>,
    /// The lint report, when [`Options::lint`] is set (its findings are empty for documents
    /// that are neither RSS 2.0, Atom 1.0 nor JSON Feed).
    pub lint: Option<lint::Report>,
    /// The parse's [`crate::Limits::max_inherited_bytes`], which bounds what the record of
    /// this result copies from the feed into its entries ([`crate::RecordView::parsed`]).
    pub(crate) max_inherited_bytes: usize,
}

impl Parsed<'_> {
    /// The result of a document that is not a feed, with the diagnostic saying why.
    pub(crate) fn not_a_feed(why: crate::Diagnostic) -> Self {
        Parsed {
            feed: None,
            format: None,
            diagnostics: vec![why],
            encoding: None,
            lint: None,
            // No feed: nothing to copy into entries.
            max_inherited_bytes: crate::Limits::DEFAULT.max_inherited_bytes,
        }
    }
}

/// Process a feed document: `document` is the decoded text, `base` the document URL. A
/// JSON Feed is recognized by its content ([`json_feed::looks_like_json`]); everything else
/// is read as XML.
pub fn process_document<'a>(
    arena: &'a Bump,
    document: &'a str,
    base: Url,
    options: &Options,
) -> Parsed<'a> {
    if json_feed::looks_like_json(document) {
        return json_feed::process_document(
            arena,
            document,
            &base,
            options.recover(),
            &options.limits,
            !options.skip_extensions,
            options.lint.as_ref(),
        );
    }
    let mut r = XmlReader::with_limits(arena, document, &options.limits);
    r.set_recover(options.recover());
    let lint = options.lint.as_ref().map(|o| {
        let max = options.limits.max_diagnostics;
        std::cell::RefCell::new(crate::lint::Collector::new(document, arena, o, max))
    });
    // `xml:base` (recovery rule `xml_base`) only where the spec gives no value: without a
    // document base URL (the spec resolves against the response URL only, [128]).
    let xml_base = (options.recover() && base.cannot_be_a_base()).then(|| r.track_xml_base());
    let cx = Ctx {
        arena,
        base,
        url_budget: url_budget(document, &options.limits),
        limits: options.limits.clone(),
        lint,
        recover: options.recover(),
        extensions: (!options.skip_extensions).then(|| ext::CaptureBudget::new(&options.limits)),
        unresolved: std::cell::Cell::new(0),
        malformed: std::cell::Cell::new(0),
        xml_base,
        enclosure_rules: std::cell::Cell::default(),
        html_urls: std::cell::Cell::new(0),
    };
    let root = loop {
        match r.next() {
            Event::Start(tag) => break Some(tag),
            Event::Eof => break None,
            _ => {}
        }
    };
    let version = root.as_ref().and_then(|tag| ext::version(tag, &cx));
    let (format, feed) = match root {
        Some(tag) => match (tag.ns, tag.local) {
            (Ns::Atom, "feed") => {
                if let Some(l) = &cx.lint {
                    l.borrow_mut().atom_root(&tag);
                }
                (Some(Format::Atom), Some(atom::feed(&mut r, &tag, &cx)))
            }
            (Ns::Atom03, "feed") => (Some(Format::Atom03), Some(atom::feed(&mut r, &tag, &cx))),
            (Ns::Null, "rss") => {
                if let Some(l) = &cx.lint {
                    l.borrow_mut().root(&tag);
                }
                if cx.recover && crate::xml::ns::is_userland_rss(r.element_ns_uri(tag.qname)) {
                    let msg = format!(
                        "userland_namespace: <{}> in UserLand's RSS 2.0 namespace read as RSS 2.0",
                        tag.qname
                    );
                    r.diag(DiagnosticKind::Recovered, tag.offset, msg);
                }
                (Some(Format::Rss2), Some(rss2::rss(&mut r, &cx)))
            }
            (Ns::Rdf, "RDF") => {
                if let Some(l) = &cx.lint {
                    l.borrow_mut().rdf_root(&tag);
                }
                (Some(Format::Rss1), Some(rss1::rdf(&mut r, &cx)))
            }
            _ => {
                let msg = format!("root element <{}> is not a feed root", tag.qname);
                r.diag(DiagnosticKind::NotAFeed, tag.offset, msg);
                (None, None)
            }
        },
        None => {
            r.diag(DiagnosticKind::NotAFeed, 0, "the document has no root element");
            (None, None)
        }
    };
    let feed = feed.map(|mut f| {
        f.version = version;
        cleanup::cleanup_feed(&mut f);
        f
    });
    if cx.url_budget.spent() {
        r.diag(DiagnosticKind::LimitReached, 0, url_budget_message(document, &options.limits));
    }
    for (kind, msg) in unresolved_urls(cx.recover, cx.unresolved.get(), 0) {
        r.diag(kind, 0, msg);
    }
    if let Some(b) = &cx.xml_base {
        let applied = b.applied.get();
        if applied > 0 {
            let msg = format!(
                "xml_base: {applied} relative URLs with no base URL given resolved against \
                 their xml:base"
            );
            r.diag(DiagnosticKind::Recovered, 0, msg);
        }
        let unusable = b.unusable();
        if unusable > 0 {
            let msg = format!("{unusable} xml:base values that are not http(s) URLs ignored");
            r.diag(DiagnosticKind::InvalidValue, 0, msg);
        }
        let relative = b.relative();
        if relative > 0 {
            let msg = format!(
                "{relative} relative xml:base values with no absolute base to resolve them \
                 against ignored (the relative URLs in their scope kept as written)"
            );
            r.diag(DiagnosticKind::InvalidValue, 0, msg);
        }
    }
    if let Some(msg) = html_url_message(cx.html_urls.get()) {
        r.diag(DiagnosticKind::Recovered, 0, msg);
    }
    for (kind, msg) in unresolved_urls(cx.recover, 0, cx.malformed.get()) {
        r.diag(kind, 0, msg);
    }
    let twice = r.double_utf8();
    if twice > 0 {
        let msg = format!(
            "double_utf8: {twice} text values that were UTF-8 decoded twice (`Ã©` for `é`) \
             read as decoded once"
        );
        r.diag(DiagnosticKind::Recovered, 0, msg);
    }
    recover::enclosure_summary(&mut r, &cx.enclosure_rules.get());
    let lint = cx.lint.map(|l| l.into_inner().finish());
    if let Some(dropped) = lint.as_ref().map(|l| l.dropped).filter(|n| *n > 0) {
        let msg = format!("{dropped} lint findings past max_diagnostics were counted, not kept");
        r.diag(DiagnosticKind::LimitReached, 0, msg);
    }
    let max_inherited_bytes = options.limits.max_inherited_bytes;
    Parsed { feed, format, diagnostics: r.diagnostics, encoding: None, lint, max_inherited_bytes }
}

/// The diagnostics (one each, at most) about a document's URLs that did not resolve:
/// `unresolved` relative references with no base URL to resolve them against (kept as written
/// by the rule `relative_url` when `recover`, else left out, as the spec says) and `malformed`
/// URLs that do not parse (left out in both modes). No URL is dropped without one.
fn unresolved_urls(
    recover: bool,
    unresolved: usize,
    malformed: usize,
) -> impl Iterator<Item = (DiagnosticKind, String)> {
    let relative = (unresolved > 0).then(|| {
        if recover {
            let msg = format!(
                "relative_url: {unresolved} relative URLs with no base URL to resolve them \
                 against kept as written"
            );
            (DiagnosticKind::Recovered, msg)
        } else {
            let msg = format!(
                "{unresolved} relative URLs with no base URL to resolve them against left out"
            );
            (DiagnosticKind::InvalidValue, msg)
        }
    });
    let malformed = (malformed > 0).then(|| {
        (DiagnosticKind::InvalidValue, format!("{malformed} URLs that do not parse left out"))
    });
    relative.into_iter().chain(malformed)
}

/// The `recovered` message of the rule `html_url` for `n` resolved URLs (none when 0).
fn html_url_message(n: usize) -> Option<String> {
    (n > 0).then(|| {
        format!(
            "html_url: {n} relative URLs in HTML values resolved against their base (the \
             xml:base in scope when there is no base URL, else the base URL)"
        )
    })
}

/// The URL budget of `document`: its length plus [`crate::Limits::max_url_growth`].
fn url_budget(document: &str, limits: &crate::Limits) -> UrlBudget {
    UrlBudget::new(document.len().saturating_add(limits.max_url_growth))
}

/// The `LimitReached` message of a spent URL budget.
fn url_budget_message(document: &str, limits: &crate::Limits) -> String {
    format!(
        "resolving relative URLs would add more than {} bytes (the document's length plus \
         max_url_growth); the relative URLs past that are kept as written",
        document.len().saturating_add(limits.max_url_growth)
    )
}
