//! Stage 4: formats. "Process a feed document" \[10\]: root dispatch to the Atom, RSS 2.0
//! and RSS 1.0 state machines, then "cleanup feed".
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

use crate::xml::{Event, Ns, XmlReader};
use crate::{DiagnosticKind, Format, Options, Parsed};
use common::Ctx;

/// Process a feed document: `document` is the decoded text, `base` the document URL.
pub fn process_document<'a>(
    arena: &'a Bump,
    document: &'a str,
    base: Url,
    options: &Options,
) -> Parsed<'a> {
    let mut r = XmlReader::with_limits(arena, document, &options.limits);
    r.set_recover(options.recover());
    let lint = options
        .lint
        .as_ref()
        .map(|o| std::cell::RefCell::new(crate::lint::Collector::new(document, arena, o)));
    let cx = Ctx { arena, base, limits: options.limits.clone(), lint, recover: options.recover() };
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
            (Ns::Atom, "feed") => (Some(Format::Atom), Some(atom::feed(&mut r, &tag, &cx))),
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
            (Ns::Rdf, "RDF") => (Some(Format::Rss1), Some(rss1::rdf(&mut r, &cx))),
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
    let lint = cx.lint.map(|l| l.into_inner().finish());
    Parsed { feed, format, diagnostics: r.diagnostics, encoding: None, lint }
}
