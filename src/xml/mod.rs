//! Stage 3: XML. A forgiving pull reader with namespace resolution ([`reader`]) over a
//! zero-copy tokenizer (`scan`: memchr/SWAR over the decoded `&str`, quick-xml for the rare
//! constructs and as its differential oracle; quick-xml's `NamespaceResolver` keeps the
//! scopes), known namespaces ([`ns`]), references ([`entities`]), and the few walking
//! primitives every format state machine uses (`walk`: [`XmlReader::next_child`],
//! [`XmlReader::child_text`], [`XmlReader::skip`]).
//!
//! Layout, lowest first (each file uses only the ones before it): `bytes` the delimiter
//! searches, char boundaries and end-of-line normalization shared with the HTML fast builder;
//! [`ns`] and [`entities`]; `scan` the tokenizer; [`reader`] the event stream; `walk` the
//! walking primitives on top of it.
//!
//! Invariant: a walker that receives `Some(tag)` from `next_child` consumes that child
//! completely (through `child_text`, `skip`, or its own `next_child` loop) before asking for
//! the next one. Walking is iterative; stack depth does not grow with document depth.
//!
//! ## Forgiving XML
//!
//! Like an XML5 parser, the reader never gives up on a document: it reads what can be read
//! and records each repair as a [`crate::Diagnostic`] (kind + byte offset into the decoded
//! text). A namespace-well-formed document gets no diagnostic at all, so a caller can tell
//! a clean feed from a repaired one.
//!
//! | input | what is read | diagnostic |
//! |---|---|---|
//! | `&nbsp;`, `&eacute;` … (HTML named references) | the character(s) | `html_entity` |
//! | `&foo;`, a reference to a DTD-declared entity | `&foo;` literally | `unknown_entity` |
//! | `AT&T`, `a & b` | `&` literally | `bare_ampersand` |
//! | `&#0;`, `&#xD800;` | U+FFFD | `invalid_character` |
//! | NUL and C0 controls other than TAB/LF/CR (text, CDATA, attributes, comments) | U+FFFD | `invalid_character` |
//! | `<item><title>a</item>` | the end tag closes the elements opened inside it | `mismatched_end_tag` |
//! | an end tag matching no open element, `</a junk>` | ignored / the name up to the space | `mismatched_end_tag` / `malformed_xml` |
//! | a body truncated anywhere | every open element is closed: entries completed before the cut are kept, the partial one too (its last value may be cut) | `unclosed_element` (plus `malformed_xml` when cut inside a tag) |
//! | unclosed `<![CDATA[` | the rest of the input is its text | `malformed_xml` |
//! | content after the root element | ignored | `content_after_root` |
//! | text before the root element | ignored | `malformed_xml` |
//! | `<foo:bar>` or `foo:x="…"` with `foo` undeclared | element in no known namespace; attribute in the null namespace | `unbound_prefix` |
//! | `<content:encoded>`, `dc:`, `itunes:`, `media:` … undeclared, with the recovery rules on ([`XmlReader::set_recover`]) | the prefix bound to its well-known namespace ([`ns::WELL_KNOWN_PREFIXES`]) for the whole document | `recovered` (`well_known_prefix`), once per prefix |
//! | `a < b`, `x<3`, `c<d</a>`, `<? no` (a `<` that starts no tag) | `<` as text | `malformed_xml` |
//! | `<!bogus …>`, a tag with an unclosed quote | skipped to the next `>` | `malformed_xml` |
//! | `href=x` (unquoted), `checked` (no value) | the value (`""` when none) | `malformed_xml` |
//! | `x="1" x="2"` | the first | `malformed_xml` |
//!
//! ## Safety and limits
//!
//! feedmill is built to read untrusted documents in bulk:
//!
//! - **Nothing outside the document is ever read.** DOCTYPEs are skipped: external DTDs,
//!   external entities (`SYSTEM`/`PUBLIC`, `file:` or otherwise) and parameter entities are
//!   never fetched or opened.
//! - **Bounded entity expansion.** With the web recovery rules on
//!   ([`XmlReader::set_recover`]), general entities of the document's own internal subset
//!   are expanded as character data under a budget ([`entities::InternalEntities`]: all
//!   expansions together at most the document's size, nested at most 16 deep); external
//!   and parameter entities never are. Otherwise nothing declared in a DOCTYPE is expanded:
//!   a reference is kept literally (`&name;`) with an `unknown_entity` diagnostic, and the
//!   DOCTYPE gets a `doctype_ignored` diagnostic. An entity-expansion bomb ("billion
//!   laughs", quadratic blowup) costs at most one more pass over the document's size.
//! - **Bounded work and memory.** Parsing is a single forward pass, linear in the input,
//!   with no recursion (document depth never grows the stack). After a syntax error the
//!   reader always resumes past the error, so it cannot loop. Memory is the input, an arena
//!   bounded by a small multiple of the input, and the limits below.
//! - **No panics, no aborts** on any input: malformed markup is repaired with a diagnostic;
//!   invalid byte sequences become U+FFFD.
//!
//! Limits ([`crate::Limits`], set through [`crate::Options`]; each field says what it bounds):
//! exceeding one keeps what was read and adds a `limit_reached` diagnostic, except
//! `max_input_bytes`, a typed error.

mod bytes;
pub mod entities;
pub mod ns;
pub mod reader;
mod scan;
mod walk;

pub use bytes::normalize_newlines;
pub(crate) use bytes::{find_near, find_terminator, floor_char_boundary};
pub use ns::Ns;
pub use reader::{Event, Tag, XmlReader};
