//! feedmill turns feed documents — RSS 0.9x/1.0/2.0, Atom 0.3/1.0, JSON Feed 1.0/1.1 and
//! their modules — into the records the "Feed processing" spec defines, with every repair
//! recorded as a diagnostic.
//!
//! One call, like `feed_rs::parser::parse`:
//!
//! ```
//! let body: &[u8] = b"<rss version='2.0'><channel><title>News</title>
//!     <item><title>Second</title><pubDate>Tue, 16 Jan 2024 08:00:00 GMT</pubDate></item>
//!     <item><title>First</title><pubDate>Mon, 15 Jan 2024 08:00:00 GMT</pubDate></item>
//!     </channel></rss>";
//! let parsed = feedmill::parse(body)?; // owned: 'static, Send + Sync
//! let feed = parsed.feed().expect("a feed");
//! assert_eq!(feed.title_text().as_deref(), Some("News"));
//! let mut entries = parsed.entries(); // each on its own, sharing the document
//! entries.sort_by_key(|e| e.get().date()); // the best date: updated, published, lenient
//! for e in &entries {
//!     println!("{} {}", e.get().date().unwrap(), e.get().title_text().unwrap());
//! }
//! // What was recovered or ignored: here each `pubDate` also read as `published`.
//! assert!(parsed.diagnostics().iter().all(|d| d.message.starts_with("date_published: ")));
//! # Ok::<(), feedmill::Error>(())
//! ```
//!
//! Many documents: keep a [`Parser`] per thread (its arena and buffers are reused; values
//! borrow the input, nothing is copied):
//!
//! ```
//! let mut parser = feedmill::Parser::new(feedmill::Options::default());
//! let parsed = parser.parse_bytes(b"<feed xmlns='http://www.w3.org/2005/Atom'>\
//!     <entry><title type='html'>&lt;b&gt;Hi&lt;/b&gt;</title></entry></feed>", None)?;
//! let entry = &parsed.feed.as_ref().unwrap().entries[0];
//! assert_eq!(entry.title_text().as_deref(), Some("Hi")); // HTML or not
//! assert_eq!(entry.title.as_ref().unwrap().to_string(), "<b>Hi</b>"); // the sanitized HTML
//! # Ok::<(), feedmill::Error>(())
//! ```
//!
//! Every entry point gives one result shape, [`Parsed`] (feed, format, diagnostics,
//! encoding, lint report): borrowed from [`Parser::parse_bytes`], [`Parser::parse_str`] and
//! [`Parser::parse_response`] (an HTTP response: status, `Content-Type`, URL), owned from
//! [`parse`] and [`OwnedParsed`]. A [`Diagnostic`] says what was repaired or left out, where,
//! and whether data was damaged ([`DiagnosticKind::severity`]).
//!
//! # Coming from feed-rs
//!
//! | feed-rs | feedmill | why |
//! |---|---|---|
//! | `parser::parse(r)?` | [`parse`]`(r)?` → [`OwnedParsed`] | also not-a-feed documents, with the diagnostics saying why |
//! | `feed.feed_type` | `parsed.format`, `feed.version` | |
//! | `feed.id`, `entry.id` (a hash when absent) | `feed.id`, `entry.id` (`None` when absent) | ids are never invented; `extract` gives a `dedup_key` |
//! | `feed.links`, `entry.links[0].href` | `page_url`, `feed_url`, `prev_feed_url`, `next_feed_url`; other relations in `links` | the spec's fields |
//! | `feed.published` | `feed.pub_date` (RSS), `feed.updated` | |
//! | `entry.published` from RSS `pubDate` | `entry.updated` (the spec's); `entry.published` too by the recovery rule `date_published`; [`Entry::date`] for the best date | the spec's tests read `pubDate` into `updated` |
//! | `entry.content.body` (a string) | `entry.content` ([`Text`]: plain, or sanitized HTML as a node tree) | `to_string()` serializes; [`Entry::body_text`] gives plain text |
//! | `Text.content` | [`Text::to_plain_text`], `Display` | |
//! | `entry.media` (enclosures, `media:content`, thumbnails) | `entry.enclosures`, `entry.thumbnail` (the first image enclosure moves there), `entry.media` (Media RSS details), `entry.duration` | the spec's model |
//! | `feed.categories`, `entry.categories` | `entry.categories` (the spec's set of terms, as written), `category_details` (`{term, scheme, label}`, trimmed) | |
//! | `Person.name` (a string) | `Person.name` (as written, `None` when blank); [`Person::display_name`] trimmed | |
//! | `feed.logo.uri`, RSS image title/link | `feed.logo`, `feed.image` (the RSS `image` element's own fields) | |
//!
//! # Layout
//!
//! The pipeline, one pass and no DOM of the feed document; each layer uses only the ones
//! above it in this list:
//!
//! ```text
//!  simd, error, options   byte kernels; Error and Diagnostic; Options and Limits
//!  xml                    zero-copy tokenizer, namespaces, forgiving recovery, limits
//!  input                  the response: status, MIME type sniffing, charset decoding
//!  model                  Feed<'a> and Entry<'a>, borrowing the input and a per-parse arena
//!  html                   escaped HTML into sanitized fragments; their plain text
//!  lint                   the RSS Profile lint, fed by the format state machines
//!  format                 root dispatch; Atom / RSS 2.0 / RSS 1.0 / JSON Feed; cleanup
//!  parse                  the driver: Parser, OwnedParsed, responses
//!  extract                plain text, canonical URLs, dedup keys
//!  sanitize               strict HTML sanitizing (lol_html)
//!  record, discover       the record's schema, written once as a walk; feed discovery
//!  sink, columnar         JSON Lines; Arrow and Parquet
//!  bulk                   archives and the ordered parallel pipeline
//! ```

// Every public item is documented. CI turns the warning into an error twice: clippy with
// every feature (the test-only `internals` included, which makes the internal layers public)
// and rustdoc with the public features (the API as docs.rs shows it). The internals are held
// to the same rule rather than exempted: they are what the next maintainer reads first.
#![warn(missing_docs)]

/// Declares internal layers: private, or public with the test-only `internals` feature (for
/// this crate's tests, benches and fuzz targets; no semver promise).
macro_rules! internal {
    ($($(#[$m:meta])* $name:ident;)*) => {$(
        $(#[$m])*
        #[cfg(feature = "internals")]
        pub mod $name;
        $(#[$m])*
        #[cfg(not(feature = "internals"))]
        pub(crate) mod $name;
    )*};
}

mod simd;
internal! {
    error;
    options;
    xml;
    input;
}
pub mod model;
internal! {
    html;
}
pub mod lint;
internal! {
    format;
    parse;
}
#[cfg(feature = "bulk")]
pub mod bulk;
#[cfg(feature = "arrow")]
pub mod columnar;
#[cfg(feature = "discover")]
pub mod discover;
#[cfg(doctest)]
mod doctests;
pub mod extract;
#[cfg(feature = "json")]
pub mod record;
#[cfg(feature = "strict-sanitize")]
pub mod sanitize;
#[cfg(feature = "json")]
pub mod sink;

/// xorshift64: the deterministic random inputs of the crate's differential tests.
#[cfg(test)]
fn test_rng(mut state: u64) -> impl FnMut() -> u64 {
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

pub use error::{Diagnostic, DiagnosticKind, Error, Severity};
pub use format::{Format, Parsed};
pub use input::Response;
pub use model::{Enclosure, Entry, Feed, Image, Person, Text, Timestamp};
pub use options::{Limits, Options};
pub use parse::{parse, OwnedEntry, OwnedParsed, Parser, DEFAULT_BASE_URL};

/// Crates whose types appear in this crate's signatures (the per-parse arena, parsed URLs),
/// re-exported so callers need not depend on matching versions themselves.
pub use bumpalo;
pub use url;
