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

/// RSS 1.0 `mod_slash` (`slash:`).
pub const SLASH: &str = "http://purl.org/rss/1.0/modules/slash/";
/// Well-Formed Web's CommentAPI (`wfw:`).
pub const WFW: &str = "http://wellformedweb.org/CommentAPI/";
/// RSS 1.0 `mod_syndication` (`sy:`).
pub const SYNDICATION: &str = "http://purl.org/rss/1.0/modules/syndication/";
/// RSS 1.0 `mod_taxonomy` (`taxo:`).
pub const TAXONOMY: &str = "http://purl.org/rss/1.0/modules/taxonomy/";
/// Atom threading extensions (RFC 4685, `thr:`).
pub const THREAD: &str = "http://purl.org/syndication/thread/1.0";

/// The prefixes the recovery rule `well_known_prefix` binds when a document uses one without
/// declaring it (`<content:encoded>` with no `xmlns:content` in scope), and the namespace
/// each is bound to: the modules the format tables read (`content`, `dc`, `dcterms`,
/// `itunes`, `media`, `podcast`, `atom`, `slash`, `wfw`, `sy`, `taxo`, `thr`, `xhtml`) and a
/// few common ones extension capture keeps (`georss`, `geo`, `googleplay`, `feedburner`,
/// `psc`). Each prefix is the one its namespace's documentation uses, as in
/// Python feedparser's table of namespaces (whose loose parser reads undeclared prefixes by
/// these names). A prefix the document declares, to any URI, is never rebound. Not `rdf`:
/// the spec's suite reads an undeclared `<rdf:RDF/>` as no feed (`nonfeed` case 2).
pub const WELL_KNOWN_PREFIXES: [(&str, &str); 18] = [
    ("atom", ATOM),
    ("content", RSS_CONTENT),
    ("dc", DUBLIN_CORE),
    ("dcterms", DC_TERMS),
    ("feedburner", "http://rssnamespace.org/feedburner/ext/1.0"),
    ("geo", "http://www.w3.org/2003/01/geo/wgs84_pos#"),
    ("georss", "http://www.georss.org/georss"),
    ("googleplay", "http://www.google.com/schemas/play-podcasts/1.0"),
    ("itunes", ITUNES),
    ("media", MEDIA_RSS),
    ("podcast", PODCAST),
    ("psc", "http://podlove.org/simple-chapters"),
    ("slash", SLASH),
    ("sy", SYNDICATION),
    ("taxo", TAXONOMY),
    ("thr", THREAD),
    ("wfw", WFW),
    ("xhtml", HTML),
];

/// The index in [`WELL_KNOWN_PREFIXES`] of `prefix`, and its namespace URI.
pub fn well_known_prefix(prefix: &str) -> Option<(usize, &'static str)> {
    WELL_KNOWN_PREFIXES
        .iter()
        .position(|(p, _)| *p == prefix)
        .map(|i| (i, WELL_KNOWN_PREFIXES[i].1))
}

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
