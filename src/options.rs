//! Parse options and resource limits.
//!
//! Owns: [`Options`], [`Limits`]. Every field documents its default; `Default` gives the
//! values used by the CLI. What each limit guarantees is summarized in the
//! "Safety and limits" section of the README (and of the XML reader's module docs).

/// Resource limits applied to every parse. Exceeding one never aborts the parse: what was
/// read is kept and a [`crate::DiagnosticKind::LimitReached`] diagnostic says what was cut or
/// skipped — except `max_input_bytes`, which is a typed [`crate::Error::InputTooLarge`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Largest document accepted, in bytes (raw body and decoded text). Default: 256 MiB.
    pub max_input_bytes: usize,
    /// Deepest element nesting followed; elements nested deeper are skipped with their
    /// content. Capped at 65 534 (quick-xml counts namespace scopes in a `u16`). Default: 256.
    pub max_depth: usize,
    /// Most entries kept per feed; further entries are skipped. A JSON Feed's lists
    /// (`authors`, an item's `tags` and `attachments`) are capped at this many members too.
    /// Default: 100 000.
    pub max_entries: usize,
    /// Longest text value kept, in bytes: longer element text is cut at a char boundary; an
    /// attribute value longer than this is ignored (with the attributes after it on that
    /// element). Default: 16 MiB.
    pub max_text_bytes: usize,
    /// Most attributes read on one element; further ones are ignored. Default: 256.
    pub max_attributes: usize,
    /// Most attributes of one tag in escaped HTML (duplicates counted): the text is parsed
    /// only up to the first place that could open a tag with more (see
    /// `html::parse_escaped_html_with`). Default: 256.
    pub max_html_attributes: usize,
    /// Most `xmlns`/`xmlns:*` namespace bindings in scope at once; further declarations are
    /// ignored (this also bounds the cost of resolving a prefix). Default: 128.
    pub max_namespace_bindings: usize,
    /// Most diagnostics recorded per document; after that one `LimitReached` diagnostic is
    /// added and the rest are only counted. Default: 1 000.
    pub max_diagnostics: usize,
    /// Most bytes resolving a document's relative URLs may add to its values beyond the
    /// document's own length (a relative URL copies its base URL, which may be long: a WARC
    /// target URI, `--base-url`). Past it, relative URLs are kept as written, with one
    /// `LimitReached` diagnostic; so the URLs of a record are at most twice its document's
    /// length plus this. Default: 1 MiB.
    pub max_url_growth: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_input_bytes: 256 << 20,
            max_depth: 256,
            max_entries: 100_000,
            max_text_bytes: 16 << 20,
            max_attributes: 256,
            max_html_attributes: 256,
            max_namespace_bindings: 128,
            max_diagnostics: 1_000,
            max_url_growth: 1 << 20,
        }
    }
}

/// Options for a parse.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// Resource limits for one document (input size, entries, depth, text and attribute
    /// sizes, diagnostics); past a limit the parser stops or skips with a `limit_reached`
    /// diagnostic, or returns an error for input over [`Limits::max_input_bytes`].
    pub limits: Limits,
    /// Lint RSS 2.0 documents against the RSS Best Practices Profile in the same pass
    /// ([`crate::lint`]; findings in [`crate::Parsed::lint`]). Default: `None` (off).
    pub lint: Option<LintOptions>,
    /// Turns every web recovery rule off (the README's "Web recovery rules" lists them): the
    /// result is exactly what the spec's processing yields. Default: `false` (the rules are
    /// on; each application is a [`crate::DiagnosticKind::Recovered`] or
    /// [`crate::DiagnosticKind::EncodingGuessed`] diagnostic, and no rule ever replaces a
    /// value the spec produced).
    pub spec_exact: bool,
}

impl Options {
    /// Whether the web recovery rules apply (`!spec_exact`).
    pub fn recover(&self) -> bool {
        !self.spec_exact
    }
}

/// Lint settings (setting [`Options::lint`] to `Some` turns linting on; see `crate::lint`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct LintOptions {
    /// "Now" for the future-date check (`ImplausibleDate`), in seconds since the Unix epoch.
    /// Default: the system clock when the options are made.
    pub now: i64,
}

impl LintOptions {
    /// Options with `now` as the current time.
    pub fn at(now: i64) -> Self {
        LintOptions { now }
    }
}

impl Default for LintOptions {
    fn default() -> Self {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64);
        LintOptions { now }
    }
}
