//! Interned HTML tag names for the fast tree builder (`fast`): every name that the "in body",
//! table and ruby rules of tree construction single out gets a [`Tag`] with its properties
//! precomputed ([`Tag::info`]); every other name is [`Tag::Other`] and is compared by string.
//!
//! Invariants:
//! - [`lookup`] is exact: it returns a tag only when the (ASCII-lowercased) name is exactly that
//!   tag's name, so a tag id stands for its name.
//! - The name → tag map is a perfect hash built at compile time from [`TAGS`]: a collision
//!   (after adding a name) fails the build, and the multiplier must then be searched anew.
//! - The property sets are html5ever's (`tree_builder::tag_sets`, `rules.rs`), HTML namespace
//!   only: e.g. `search` and `dialog` are not special there.

/// Tree-construction category of a start tag in the "in body" insertion mode.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Cat {
    /// "Any other start tag" (and names with no rule of their own): reconstruct, insert.
    Ordinary,
    /// `b`, `big`, `code`, `em`, `font`, `i`, `s`, `small`, `strike`, `strong`, `tt`, `u`:
    /// reconstruct, insert, push onto the list of active formatting elements.
    Formatting,
    /// `a`: like `Formatting`, after closing an `a` still in the list.
    A,
    /// `applet`, `marquee`, `object`: reconstruct, insert, push a marker.
    Marker,
    /// Closes a `p` in button scope, then insert.
    PClose,
    Heading,
    Li,
    DdDt,
    /// Inserted and immediately popped, after reconstructing.
    Void,
    /// `param`, `source`, `track`, and the "in head" ones `base`, `basefont`, `bgsound`,
    /// `link`, `meta`: inserted and popped, without reconstructing.
    VoidPlain,
    /// `hr`: closes a `p`, inserted and popped.
    Hr,
    /// `pre`, `listing`: like `PClose`, and a newline right after the start tag is dropped.
    Pre,
    /// `table` in body: closes a `p`, then insert.
    Table,
    /// Elements whose content the tokenizer reads as raw text up to the matching end tag.
    Raw(RawKind),
    /// `rb`, `rtc`, `rp`, `rt`.
    RubyChild,
    /// `svg`: reconstruct, insert an SVG element (foreign content).
    Svg,
    /// Ignored in body: `html`, `head`, `body`, `frameset`, `frame`, and table parts outside
    /// a table (`caption`, `col`, `colgroup`, `tbody`, `td`, `tfoot`, `th`, `thead`, `tr`).
    Ignored,
    /// `image`: an `img` start tag.
    Image,
    /// `nobr`: reconstruct, close an `nobr` in scope (adoption agency), push as formatting.
    Nobr,
    /// `button`: close a `button` in scope, reconstruct, insert.
    Button,
    /// `plaintext`: closes a `p`, insert; the rest of the input is its text.
    Plaintext,
    /// Not implemented: the fast builder gives up.
    Bail,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum RawKind {
    /// `script` (script data states).
    Script,
    /// `style`, `noframes`, `iframe`, `noembed` (RAWTEXT).
    Rawtext,
    /// `xmp`: RAWTEXT after closing a `p` and reconstructing.
    Xmp,
    /// `title` (RCDATA: character references decoded).
    Rcdata,
    /// `textarea`: RCDATA, and a newline right after the start tag is dropped.
    Textarea,
}

/// Formatting elements (entries of the list of active formatting elements).
pub(super) const FORMATTING: u16 = 1;
/// html5ever's `special_tag`.
pub(super) const SPECIAL: u16 = 1 << 1;
/// Boundaries of the default scope (`html_default_scope`).
pub(super) const SCOPE: u16 = 1 << 2;
/// `cursory_implied_end`: popped by "generate implied end tags".
pub(super) const IMPLIED_END: u16 = 1 << 3;
pub(super) const HEADING: u16 = 1 << 4;
/// End tags that, when their element is in scope, generate implied end tags and pop up to it
/// (block elements, list items, `p`, headings, `applet`/`marquee`/`object`).
pub(super) const BLOCK_END: u16 = 1 << 5;
/// Start tags that break out of foreign content (`font` only with `color`, `face` or `size`,
/// which the caller checks).
pub(super) const BREAKOUT: u16 = 1 << 6;

/// Table structure kind (the insertion mode follows from the nearest one on the stack).
pub(super) const T_NONE: u8 = 0;
pub(super) const T_TABLE: u8 = 1;
pub(super) const T_SECTION: u8 = 2;
pub(super) const T_ROW: u8 = 3;
pub(super) const T_CELL: u8 = 4;

pub(super) struct Info {
    pub(super) name: &'static str,
    pub(super) cat: Cat,
    pub(super) flags: u16,
    pub(super) table: u8,
    /// The element may have a URL attribute ([`crate::html::urls::may_have_url_attrs`]);
    /// true for [`Tag::Other`], whose name is not known here.
    pub(super) url: bool,
    /// [`name_key`] of `name`.
    key: u64,
}

const F: u16 = FORMATTING;
const S: u16 = SPECIAL;
const SC: u16 = SCOPE;
const IE: u16 = IMPLIED_END;
const H: u16 = HEADING;
const BE: u16 = BLOCK_END;
const BO: u16 = BREAKOUT;

macro_rules! tags {
    ($($id:ident $name:literal $cat:expr, $flags:expr, $table:expr;)+) => {
        /// An interned tag name (see the module docs); `Other` is every name not listed.
        #[derive(Clone, Copy, PartialEq, Eq, Debug)]
        #[repr(u8)]
        pub(super) enum Tag {
            Other,
            $($id),+
        }

        const ALL: &[Tag] = &[Tag::Other, $(Tag::$id),+];

        /// Properties of each tag, indexed by `Tag as usize`.
        pub(super) const TAGS: &[Info] = &[
            Info { name: "", cat: Cat::Ordinary, flags: 0, table: T_NONE, url: true, key: 0 },
            $(Info {
                name: $name,
                cat: $cat,
                flags: $flags,
                table: $table,
                url: crate::html::urls::may_have_url_attrs($name),
                key: name_key($name.as_bytes()),
            }),+
        ];
    };
}

use Cat::*;

tags! {
    A "a" Cat::A, F, T_NONE;
    Address "address" PClose, S | BE, T_NONE;
    Applet "applet" Marker, S | SC | BE, T_NONE;
    Area "area" Void, S, T_NONE;
    Article "article" PClose, S | BE, T_NONE;
    Aside "aside" PClose, S | BE, T_NONE;
    B "b" Formatting, F | BO, T_NONE;
    Base "base" VoidPlain, S, T_NONE;
    Basefont "basefont" VoidPlain, S, T_NONE;
    Bgsound "bgsound" VoidPlain, S, T_NONE;
    Big "big" Formatting, F | BO, T_NONE;
    Blockquote "blockquote" PClose, S | BE | BO, T_NONE;
    Body "body" Ignored, S | BO, T_NONE;
    Br "br" Void, S | BO, T_NONE;
    Button "button" Cat::Button, S | BE, T_NONE;
    Caption "caption" Ignored, S | SC, T_NONE;
    Center "center" PClose, S | BE | BO, T_NONE;
    Code "code" Formatting, F | BO, T_NONE;
    Col "col" Ignored, S, T_NONE;
    Colgroup "colgroup" Ignored, S, T_NONE;
    Dd "dd" DdDt, S | IE | BE | BO, T_NONE;
    Details "details" PClose, S | BE, T_NONE;
    Dialog "dialog" PClose, BE, T_NONE;
    Dir "dir" PClose, S | BE, T_NONE;
    Div "div" PClose, S | BE | BO, T_NONE;
    Dl "dl" PClose, S | BE | BO, T_NONE;
    Dt "dt" DdDt, S | IE | BE | BO, T_NONE;
    Em "em" Formatting, F | BO, T_NONE;
    Embed "embed" Void, S | BO, T_NONE;
    Fieldset "fieldset" PClose, S | BE, T_NONE;
    Figcaption "figcaption" PClose, S | BE, T_NONE;
    Figure "figure" PClose, S | BE, T_NONE;
    Font "font" Formatting, F, T_NONE;
    Footer "footer" PClose, S | BE, T_NONE;
    Form "form" Bail, S, T_NONE;
    Frame "frame" Ignored, S, T_NONE;
    Frameset "frameset" Ignored, S, T_NONE;
    H1 "h1" Heading, S | H | BE | BO, T_NONE;
    H2 "h2" Heading, S | H | BE | BO, T_NONE;
    H3 "h3" Heading, S | H | BE | BO, T_NONE;
    H4 "h4" Heading, S | H | BE | BO, T_NONE;
    H5 "h5" Heading, S | H | BE | BO, T_NONE;
    H6 "h6" Heading, S | H | BE | BO, T_NONE;
    Head "head" Ignored, S | BO, T_NONE;
    Header "header" PClose, S | BE, T_NONE;
    Hgroup "hgroup" PClose, S | BE, T_NONE;
    Hr "hr" Cat::Hr, S | BO, T_NONE;
    Html "html" Ignored, S | SC, T_NONE;
    I "i" Formatting, F | BO, T_NONE;
    Iframe "iframe" Raw(RawKind::Rawtext), S, T_NONE;
    Image "image" Cat::Image, 0, T_NONE;
    Img "img" Void, S | BO, T_NONE;
    Input "input" Void, S, T_NONE;
    Isindex "isindex" Ordinary, S, T_NONE;
    Keygen "keygen" Void, 0, T_NONE;
    Li "li" Cat::Li, S | IE | BE | BO, T_NONE;
    Link "link" VoidPlain, S, T_NONE;
    Listing "listing" Pre, S | BE | BO, T_NONE;
    Main "main" PClose, S | BE, T_NONE;
    Marquee "marquee" Marker, S | SC | BE, T_NONE;
    Math "math" Bail, 0, T_NONE;
    Menu "menu" PClose, S | BE | BO, T_NONE;
    Meta "meta" VoidPlain, S | BO, T_NONE;
    Nav "nav" PClose, S | BE, T_NONE;
    Nobr "nobr" Cat::Nobr, F | BO, T_NONE;
    Noembed "noembed" Raw(RawKind::Rawtext), S, T_NONE;
    Noframes "noframes" Raw(RawKind::Rawtext), S, T_NONE;
    Noscript "noscript" Ordinary, S, T_NONE;
    Object "object" Marker, S | SC | BE, T_NONE;
    Ol "ol" PClose, S | BE | BO, T_NONE;
    Optgroup "optgroup" Bail, IE, T_NONE;
    Option "option" Bail, IE, T_NONE;
    P "p" PClose, S | IE | BE | BO, T_NONE;
    Param "param" VoidPlain, S, T_NONE;
    Plaintext "plaintext" Cat::Plaintext, S, T_NONE;
    Pre "pre" Cat::Pre, S | BE | BO, T_NONE;
    Rb "rb" RubyChild, IE, T_NONE;
    Rp "rp" RubyChild, IE, T_NONE;
    Rt "rt" RubyChild, IE, T_NONE;
    Rtc "rtc" RubyChild, IE, T_NONE;
    Ruby "ruby" Ordinary, BO, T_NONE;
    S "s" Formatting, F | BO, T_NONE;
    Script "script" Raw(RawKind::Script), S, T_NONE;
    Search "search" PClose, BE, T_NONE;
    Section "section" PClose, S | BE, T_NONE;
    Select "select" Bail, S | SC, T_NONE;
    Small "small" Formatting, F | BO, T_NONE;
    Source "source" VoidPlain, S, T_NONE;
    Span "span" Ordinary, BO, T_NONE;
    Strike "strike" Formatting, F | BO, T_NONE;
    Strong "strong" Formatting, F | BO, T_NONE;
    Style "style" Raw(RawKind::Rawtext), S, T_NONE;
    Sub "sub" Ordinary, BO, T_NONE;
    Summary "summary" PClose, S | BE, T_NONE;
    Sup "sup" Ordinary, BO, T_NONE;
    Svg "svg" Cat::Svg, 0, T_NONE;
    Table "table" Cat::Table, S | SC | BO, T_TABLE;
    Tbody "tbody" Ignored, S, T_SECTION;
    Td "td" Ignored, S | SC, T_CELL;
    Template "template" Bail, S | SC, T_NONE;
    Textarea "textarea" Raw(RawKind::Textarea), S, T_NONE;
    Tfoot "tfoot" Ignored, S, T_SECTION;
    Th "th" Ignored, S | SC, T_CELL;
    Thead "thead" Ignored, S, T_SECTION;
    Title "title" Raw(RawKind::Rcdata), S, T_NONE;
    Tr "tr" Ignored, S, T_ROW;
    Track "track" VoidPlain, S, T_NONE;
    Tt "tt" Formatting, F | BO, T_NONE;
    U "u" Formatting, F | BO, T_NONE;
    Ul "ul" PClose, S | BE | BO, T_NONE;
    Var "var" Ordinary, BO, T_NONE;
    Wbr "wbr" Void, S, T_NONE;
    Xmp "xmp" Raw(RawKind::Xmp), S, T_NONE;
}

impl Tag {
    #[inline]
    pub(super) fn info(self) -> &'static Info {
        &TAGS[self as usize]
    }

    #[inline]
    pub(super) fn has(self, flags: u16) -> bool {
        self.info().flags & flags != 0
    }

    /// html5ever's `special_tag` minus `address`, `div`, `p`: where the `li`/`dd`/`dt`
    /// start-tag walk stops.
    #[inline]
    pub(super) fn is_extra_special(self) -> bool {
        self.has(SPECIAL) && !matches!(self, Tag::Address | Tag::Div | Tag::P)
    }
}

/// The first (up to) 8 bytes of a lowercase name, little-endian, zero-padded: with the length,
/// the key the perfect hash is computed from.
pub(super) const fn name_key(name: &[u8]) -> u64 {
    let mut k = 0u64;
    let mut i = 0;
    while i < name.len() && i < 8 {
        k |= (name[i] as u64) << (8 * i);
        i += 1;
    }
    k
}

const HASH_BITS: u32 = 9;
/// Found by a search over random odd multipliers for one that maps every name of [`TAGS`] to
/// its own slot (checked at compile time by [`build_slots`]).
const HASH_MUL: u64 = 0xd6fe_3f92_3126_68fd;

#[inline(always)]
const fn slot(key: u64, len: usize) -> usize {
    ((key ^ len as u64).wrapping_mul(HASH_MUL) >> (64 - HASH_BITS)) as usize
}

const fn build_slots() -> [Tag; 1 << HASH_BITS] {
    let mut slots = [Tag::Other; 1 << HASH_BITS];
    let mut i = 1;
    while i < ALL.len() {
        let info = &TAGS[i];
        assert!(ALL[i] as usize == i);
        let s = slot(info.key, info.name.len());
        assert!(matches!(slots[s], Tag::Other), "tag name hash collision: search a new HASH_MUL");
        slots[s] = ALL[i];
        i += 1;
    }
    slots
}

static SLOTS: [Tag; 1 << HASH_BITS] = build_slots();

/// The tag whose name is `raw` ASCII-lowercased, given `key` = [`name_key`] of the lowercased
/// name (or of a fold that maps the same bytes to the letters and digits of known names, as
/// `fast::tokenizer::folded_key` does); [`Tag::Other`] for any other name.
#[inline]
pub(super) fn lookup(key: u64, raw: &[u8]) -> Tag {
    let t = SLOTS[slot(key, raw.len())];
    let info = t.info();
    if info.key == key
        && info.name.len() == raw.len()
        && (raw.len() <= 8 || raw[8..].eq_ignore_ascii_case(&info.name.as_bytes()[8..]))
    {
        t
    } else {
        Tag::Other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_is_exact() {
        for (i, info) in TAGS.iter().enumerate().skip(1) {
            let n = info.name.as_bytes();
            assert_eq!(lookup(name_key(n), n) as usize, i, "{}", info.name);
            let upper = info.name.to_ascii_uppercase();
            assert_eq!(lookup(name_key(n), upper.as_bytes()) as usize, i, "{}", info.name);
            // Extensions and prefixes are other names.
            let longer = format!("{}x", info.name);
            assert_eq!(lookup(name_key(longer.as_bytes()), longer.as_bytes()), Tag::Other);
            let shorter = &n[..n.len() - 1];
            if !shorter.is_empty() && !TAGS.iter().any(|t| t.name.as_bytes() == shorter) {
                assert_eq!(lookup(name_key(shorter), shorter), Tag::Other, "{}", info.name);
            }
        }
        for other in ["spam", "o:p", "x-y", "blockquotf", "figcaptiox", "dive", ""] {
            assert_eq!(lookup(name_key(other.as_bytes()), other.as_bytes()), Tag::Other, "{other}");
        }
    }
}
