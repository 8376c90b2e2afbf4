//! Known namespace URIs → [`Ns`]. The spec's switch tables match on these.
//!
//! Invariant: classification is exact string comparison of the resolved URI; the two
//! spellings of iTunes and Media RSS listed by the spec map to the same variant.

/// A namespace the spec names, or a marker for everything else.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ns {
    /// The null namespace (no prefix, no default namespace in scope).
    Null,
    /// The Atom 1.0 namespace ([`ATOM`]).
    Atom,
    /// The Atom 0.3 namespace ([`ATOM03`]).
    Atom03,
    /// Dublin Core elements ([`DUBLIN_CORE`]).
    DublinCore,
    /// Google Data ([`GDATA`]; `gd:image` in Atom persons).
    GData,
    /// Hatena ([`HATENA`]; `hatena:imageurl` in RSS 1.0 items).
    Hatena,
    /// XHTML ([`HTML`]; Atom `xhtml` content).
    Html,
    /// iTunes podcasts ([`ITUNES`] or [`ITUNES_ALT`]).
    Itunes,
    /// Media RSS ([`MEDIA_RSS`] or [`MEDIA_RSS_ALT`]).
    MediaRss,
    /// RDF ([`RDF`]; the RSS 1.0 root `rdf:RDF`).
    Rdf,
    /// RSS 1.0 ([`RSS1`]; also RSS 0.90's [`RSS090`], [`RSS090_ALT`]).
    Rss1,
    /// RSS 1.0 content module ([`RSS_CONTENT`]; `content:encoded`).
    RssContent,
    /// SVG ([`SVG`]).
    Svg,
    /// MathML ([`MATHML`]).
    MathMl,
    /// The Podcast namespace (podcastindex.org; not in the spec — read for `ext` fields).
    Podcast,
    /// DCMI terms (`http://purl.org/dc/terms/`; not in the spec — read by the recovery
    /// rules for dates).
    DcTerms,
    /// A namespace the spec does not use.
    Other,
    /// A prefix with no binding in scope (recovered: the element is in no known namespace).
    UnboundPrefix,
}

/// The Atom 1.0 namespace (RFC 4287).
pub const ATOM: &str = "http://www.w3.org/2005/Atom";
/// The Atom 0.3 namespace.
pub const ATOM03: &str = "http://purl.org/atom/ns#";
/// Dublin Core Metadata Element Set 1.1 (`dc:`).
pub const DUBLIN_CORE: &str = "http://purl.org/dc/elements/1.1/";
/// Google Data (`gd:`).
pub const GDATA: &str = "http://schemas.google.com/g/2005";
/// Hatena (`hatena:`).
pub const HATENA: &str = "http://www.hatena.ne.jp/info/xmlns#";
/// XHTML (the HTML namespace).
pub const HTML: &str = "http://www.w3.org/1999/xhtml";
/// Apple's iTunes podcast namespace (`itunes:`), the spelling Apple documents.
pub const ITUNES: &str = "http://www.itunes.com/dtds/podcast-1.0.dtd";
/// The iTunes namespace in the capitalized spelling the spec also lists.
pub const ITUNES_ALT: &str = "http://www.itunes.com/DTDs/Podcast-1.0.dtd";
/// Media RSS (`media:`), with the trailing slash.
pub const MEDIA_RSS: &str = "http://search.yahoo.com/mrss/";
/// Media RSS without the trailing slash (the spec lists both).
pub const MEDIA_RSS_ALT: &str = "http://search.yahoo.com/mrss";
/// The RDF syntax namespace (`rdf:`).
pub const RDF: &str = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
/// RSS 1.0.
pub const RSS1: &str = "http://purl.org/rss/1.0/";
/// RSS 0.90's namespace (two spellings seen in the wild). Not in the spec's list; read as
/// RSS 1.0 (same element names) so RSS 0.90 feeds yield their items.
pub const RSS090: &str = "http://my.netscape.com/rdf/simple/0.9/";
/// RSS 0.90's namespace, second spelling (see [`RSS090`]).
pub const RSS090_ALT: &str = "http://channel.netscape.com/rdf/simple/0.9/";
/// RSS 1.0 content module (`content:`).
pub const RSS_CONTENT: &str = "http://purl.org/rss/1.0/modules/content/";
/// SVG.
pub const SVG: &str = "http://www.w3.org/2000/svg";
/// MathML.
pub const MATHML: &str = "http://www.w3.org/1998/Math/MathML";
/// DCMI Metadata Terms (`dcterms:`): not in the spec, read by the recovery rules for dates.
pub const DC_TERMS: &str = "http://purl.org/dc/terms/";
/// UserLand's RSS 2.0 namespaces (not in the spec: a root `rss` in them is not a feed there;
/// the recovery rules read them as the null namespace, see [`Ns::from_uri_recovering`]).
pub const USERLAND_RSS2: &str = "http://backend.userland.com/rss2";
/// UserLand's RSS namespace, second spelling (see [`USERLAND_RSS2`]).
pub const USERLAND_RSS: &str = "http://backend.userland.com/rss";
/// The Podcast namespace (podcastindex.org, `podcast:`).
pub const PODCAST: &str = "https://podcastindex.org/namespace/1.0";
/// The Podcast namespace's earlier URI (its GitHub documentation page), still in use.
pub const PODCAST_LEGACY: &str =
    "https://github.com/Podcastindex-org/podcast-namespace/blob/main/docs/1.0.md";

impl Ns {
    /// Classifies a resolved namespace URI.
    pub fn from_uri(uri: &str) -> Ns {
        match uri {
            ATOM => Ns::Atom,
            ATOM03 => Ns::Atom03,
            DUBLIN_CORE => Ns::DublinCore,
            GDATA => Ns::GData,
            HATENA => Ns::Hatena,
            HTML => Ns::Html,
            ITUNES | ITUNES_ALT => Ns::Itunes,
            MEDIA_RSS | MEDIA_RSS_ALT => Ns::MediaRss,
            RDF => Ns::Rdf,
            RSS1 | RSS090 | RSS090_ALT => Ns::Rss1,
            RSS_CONTENT => Ns::RssContent,
            SVG => Ns::Svg,
            MATHML => Ns::MathMl,
            PODCAST | PODCAST_LEGACY => Ns::Podcast,
            DC_TERMS => Ns::DcTerms,
            "" => Ns::Null,
            _ => Ns::Other,
        }
    }

    /// [`Ns::from_uri`], except that with `recover` UserLand's RSS 2.0 namespaces are the
    /// null namespace (their elements are RSS 2.0's).
    pub fn from_uri_recovering(uri: &str, recover: bool) -> Ns {
        match Ns::from_uri(uri) {
            Ns::Other if recover && is_userland_rss(uri) => Ns::Null,
            ns => ns,
        }
    }
}

/// Whether `uri` is one of UserLand's RSS 2.0 namespaces (with or without a trailing `/`).
pub fn is_userland_rss(uri: &str) -> bool {
    let uri = uri.strip_suffix('/').unwrap_or(uri);
    uri == USERLAND_RSS2 || uri == USERLAND_RSS
}
