//! Parse options and resource limits.
//!
//! Owns: [`Options`], [`Limits`] (declared once, in the `limits!` list below: the struct, its
//! defaults and [`Limits::ALL`], from which the CLI's flags, the Python keywords and the
//! limits table of `docs/safety.md` are made), [`LintOptions`].

/// Declares [`Limits`] once: each field with its doc, unit and default; [`Limits::ALL`]
/// describes them for everything that lists limits (the CLI's flags, the Python keywords, the
/// table in `docs/safety.md`), so a new limit is one entry here.
macro_rules! limits {
    ($($(#[doc = $doc:literal])* $name:ident: $unit:ident = $default:expr;)*) => {
        /// Resource limits applied to every parse. Exceeding one never aborts the parse: what
        /// was read is kept and a [`crate::DiagnosticKind::LimitReached`] diagnostic says what
        /// was cut or skipped — except `max_input_bytes`, which is a typed
        /// [`crate::Error::InputTooLarge`]. [`Limits::ALL`] lists them by name.
        #[derive(Clone, Debug, PartialEq, Eq)]
        #[non_exhaustive]
        pub struct Limits {
            $(
                $(#[doc = $doc])*
                #[doc = concat!("\n\nDefault: `", stringify!($default), "`.")]
                pub $name: usize,
            )*
        }

        impl Default for Limits {
            fn default() -> Self {
                Limits::DEFAULT
            }
        }

        impl Limits {
            /// [`Limits::default`], as a constant (for a default read where no `Limits` is at
            /// hand).
            pub(crate) const DEFAULT: Limits = Limits { $($name: $default,)* };

            /// Every limit, in declaration order: its name (the field's, the CLI flag's with
            /// `-`), unit, default and doc, and access to its field.
            pub const ALL: &'static [Limit] = &[$(Limit {
                name: stringify!($name),
                bytes: matches!(Unit::$unit, Unit::Bytes),
                default: $default,
                doc: concat!($($doc, "\n",)*),
                get: |l| l.$name,
                set: |l, v| l.$name = v,
            },)*];
        }
    };
}

/// What a limit counts (only [`Limit::is_bytes`] is public).
enum Unit {
    Bytes,
    Count,
}

limits! {
    /// Largest document accepted, in bytes (the raw body, and the text decoded from it).
    /// Past it the document is not parsed: a typed error `Error::InputTooLarge`; a record
    /// over it is a `too_large` error record, whether the bulk reader finds the size (a
    /// file, archive member, WARC block or decoded HTTP body over it is not read whole) or
    /// the parser does (the text decoded from a body is over it: a UTF-16 body).
    max_input_bytes: Bytes = 256 << 20;
    /// Deepest element nesting followed; elements nested deeper are skipped with their
    /// content. Capped at 65 534 (quick-xml counts namespace scopes in a `u16`).
    max_depth: Count = 256;
    /// Most entries kept per feed; further entries are skipped. A JSON Feed's lists
    /// (`authors`, an item's `tags` and `attachments`) are capped at this many members too.
    max_entries: Count = 100_000;
    /// Longest text value kept, in bytes: longer element text is cut at a char boundary; an
    /// attribute value longer than this is ignored (with the attributes after it on that
    /// element).
    max_text_bytes: Bytes = 16 << 20;
    /// Most attributes read on one element; further ones are ignored.
    max_attributes: Count = 256;
    /// Most attributes of one tag in escaped HTML (duplicates counted): the HTML is read only
    /// up to the first `<` that could open a tag with more (an over-approximation past what
    /// the exact fast tree builder read). Without a cap, html5ever's duplicate-attribute
    /// check is quadratic in a tag's attributes.
    max_html_attributes: Count = 256;
    /// Most `xmlns`/`xmlns:*` namespace bindings in scope at once; further declarations are
    /// ignored (this also bounds the cost of resolving a prefix).
    max_namespace_bindings: Count = 128;
    /// Most diagnostics recorded per document; after that one `LimitReached` diagnostic is
    /// added and the rest are only counted. Lint findings past as many are counted too
    /// (`findings_dropped` on a `feedmill lint` line).
    max_diagnostics: Count = 1_000;
    /// Most bytes resolving a document's relative URLs (its URL elements and attributes, and
    /// the URLs inside its HTML values) may add to its values beyond the document's own
    /// length (a relative URL copies its base URL, which may be long: a WARC target URI,
    /// `--base-url`, an `xml:base`). Past it, relative URLs are kept as written, with one
    /// `LimitReached` diagnostic; so the URLs of a record are at most twice its document's
    /// length plus this. Strict sanitizing (all the HTML values of a record together) and
    /// extraction's body images (all the entries of a feed) each have a budget of this size
    /// too (`SanitizeOptions::max_url_growth`, `ExtractOptions::max_url_growth`, which the
    /// CLI sets from this).
    max_url_growth: Bytes = 1 << 20;
    /// Deepest element kept by extension capture, counted from the feed's or entry's child
    /// (1); deeper elements are skipped with their content, each with a `LimitReached`
    /// diagnostic.
    max_extension_depth: Count = 16;
    /// Most elements extension capture keeps per document (rows of the feeds' and entries'
    /// `extensions`); past it the document's further extension elements are skipped, with
    /// one `LimitReached` diagnostic.
    max_extension_elements: Count = 50_000;
    /// Most bytes extension capture keeps per document: the text, path, names, namespace
    /// URIs and attribute values of its rows plus 64 per row and 32 per attribute (about
    /// their JSON size). Past it the element being read is cut there and the document's
    /// further extension elements are skipped, with one `LimitReached` diagnostic.
    max_extension_bytes: Bytes = 8 << 20;
    /// Most bytes of the feed's values a record copies into its entries, for each of two
    /// copies: the feed's authors as the `computed_authors` of entries without authors of
    /// their own, and the feed's key columns (`feed_*`) in the rows of the Arrow entry layout
    /// (the first row gets those whatever their size). Past it the remaining entries get none
    /// of that copy; a cut of the authors adds one `LimitReached` diagnostic saying how many
    /// entries got them. So one long value in the channel cannot multiply the output by the
    /// number of entries. Applied where records are written: `RecordView::parsed` takes it
    /// from the options the document was parsed with.
    max_inherited_bytes: Bytes = 16 << 20;
}

/// One field of [`Limits`], described, from [`Limits::ALL`]: for code that lists limits or
/// sets them by name.
#[derive(Clone, Copy)]
pub struct Limit {
    name: &'static str,
    bytes: bool,
    default: usize,
    doc: &'static str,
    get: fn(&Limits) -> usize,
    set: fn(&mut Limits, usize),
}

impl Limit {
    /// The field's name (`max_depth`); the CLI flag is the same with `-` (`--max-depth`).
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Whether the limit is a number of bytes (else a count of things).
    pub fn is_bytes(&self) -> bool {
        self.bytes
    }

    /// Its value in [`Limits::default`].
    pub fn default_value(&self) -> usize {
        self.default
    }

    /// The field's documentation, as Markdown: what the limit bounds and what happens past it.
    pub fn doc(&self) -> String {
        let mut out = String::new();
        for line in self.doc.lines() {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(line.trim());
        }
        out
    }

    /// The doc's first sentence (a one-line summary, e.g. for `--help`).
    pub fn summary(&self) -> String {
        let doc = self.doc();
        match doc.find(". ") {
            Some(end) => doc[..=end].to_string(),
            None => doc,
        }
    }

    /// Its value in `limits`.
    pub fn get(&self, limits: &Limits) -> usize {
        (self.get)(limits)
    }

    /// Sets it in `limits`.
    pub fn set(&self, limits: &mut Limits, value: usize) {
        (self.set)(limits, value)
    }

    /// The default as people write it: `256 MiB`, `100 000`.
    pub fn default_display(&self) -> String {
        let v = self.default;
        if self.bytes {
            for (shift, unit) in [(30, "GiB"), (20, "MiB"), (10, "KiB")] {
                if v >= 1 << shift && v.is_multiple_of(1 << shift) {
                    return format!("{} {unit}", v >> shift);
                }
            }
            return format!("{v} bytes");
        }
        let digits = v.to_string();
        let mut out = String::new();
        for (i, d) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push(' ');
            }
            out.push(d);
        }
        out
    }
}

impl std::fmt::Debug for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Limit")
            .field("name", &self.name)
            .field("bytes", &self.bytes)
            .field("default", &self.default)
            .finish()
    }
}

impl Limits {
    /// The limit named `name` (a field name, `max_depth`; or its flag, `max-depth`).
    pub fn by_name(name: &str) -> Option<&'static Limit> {
        let name = name.trim_start_matches("--");
        Limits::ALL.iter().find(|l| {
            l.name.len() == name.len()
                && l.name.bytes().zip(name.bytes()).all(|(a, b)| a == b || (a == b'_' && b == b'-'))
        })
    }

    /// The limits as a Markdown table (`| limit | default | what it bounds |`), for the docs.
    pub fn markdown_table() -> String {
        let mut out = String::from(
            "| limit | CLI flag | default | what it bounds, and past it |\n|---|---|---|---|\n",
        );
        for l in Limits::ALL {
            out.push_str(&format!(
                "| `{}` | `--{}` | {} | {} |\n",
                l.name,
                l.name.replace('_', "-"),
                l.default_display(),
                l.doc().replace('|', "\\|")
            ));
        }
        out
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
    /// Lint RSS 2.0 documents against the RSS Best Practices Profile, Atom 1.0 documents
    /// against RFC 4287, their iTunes and Media RSS elements against Apple's requirements and
    /// Media RSS, and JSON Feed documents against JSON Feed 1.1, in the same pass
    /// ([`crate::lint`]; findings in
    /// [`crate::Parsed::lint`]). Default: `None` (off).
    pub lint: Option<LintOptions>,
    /// Turns every web recovery rule off (the README's "Web recovery rules" lists them): the
    /// result is exactly what the spec's processing yields. Default: `false` (the rules are
    /// on; each application is a [`crate::DiagnosticKind::Recovered`] or
    /// [`crate::DiagnosticKind::EncodingGuessed`] diagnostic, and no rule ever replaces a
    /// value the spec produced).
    pub spec_exact: bool,
    /// Turns extension capture off: the feeds' and entries' `extensions` stay empty (CLI
    /// `--extensions none`). Default: `false` (every element no table reads is kept, with its
    /// content, within the `max_extension_*` limits; in both modes, as it adds and never
    /// replaces a value).
    pub skip_extensions: bool,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_limit_is_listed_once_with_its_field() {
        let mut limits = Limits::default();
        for (i, limit) in Limits::ALL.iter().enumerate() {
            assert_eq!(limit.get(&Limits::default()), limit.default_value(), "{}", limit.name());
            limit.set(&mut limits, 1_000_000 + i);
            assert!(Limits::by_name(limit.name()).is_some_and(|l| l.name() == limit.name()));
            let flag = format!("--{}", limit.name().replace('_', "-"));
            assert_eq!(Limits::by_name(&flag).map(Limit::name), Some(limit.name()));
            assert!(limit.summary().ends_with('.') && !limit.doc().contains('\n'));
        }
        for (i, limit) in Limits::ALL.iter().enumerate() {
            assert_eq!(limit.get(&limits), 1_000_000 + i, "{} shares a field", limit.name());
        }
        // Every field was set: none is missing from the list (the Debug form shows all fields).
        let shown = format!("{limits:?}");
        assert_eq!(shown.matches(": 100").count(), Limits::ALL.len(), "{shown}");
        assert!(Limits::by_name("max_nothing").is_none());
    }

    #[test]
    fn defaults_display_as_people_write_them() {
        let shown = |name| Limits::by_name(name).unwrap().default_display();
        assert_eq!(shown("max_input_bytes"), "256 MiB");
        assert_eq!(shown("max_entries"), "100 000");
        assert_eq!(shown("max_depth"), "256");
        assert_eq!(shown("max_url_growth"), "1 MiB");
    }
}
