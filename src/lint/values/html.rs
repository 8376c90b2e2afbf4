//! HTML inside plain-text elements: the tags and elements HTML defines, and the scan of raw
//! content for markup.

use std::borrow::Cow;

use super::url::raw_relative_ref;

/// HTML elements whose tags in a plain-text value mean it holds HTML (§3.1).
pub(super) const HTML_TAGS: &[&str] = &[
    "a",
    "abbr",
    "acronym",
    "address",
    "b",
    "big",
    "blockquote",
    "br",
    "center",
    "cite",
    "code",
    "dd",
    "del",
    "div",
    "dl",
    "dt",
    "em",
    "embed",
    "font",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "i",
    "iframe",
    "img",
    "ins",
    "li",
    "object",
    "ol",
    "p",
    "pre",
    "q",
    "s",
    "script",
    "small",
    "span",
    "strike",
    "strong",
    "style",
    "sub",
    "sup",
    "table",
    "td",
    "th",
    "tr",
    "tt",
    "u",
    "ul",
];

/// The first HTML tag in `text` (`<b>`, `</p>`, `<br/>`, `<img src=…>`), if any.
pub fn html_tag(text: &str) -> Option<&str> {
    let b = text.as_bytes();
    for i in memchr::memchr_iter(b'<', b) {
        let mut j = i + 1;
        if b.get(j) == Some(&b'/') {
            j += 1;
        }
        let start = j;
        while j < b.len() && b[j].is_ascii_alphanumeric() {
            j += 1;
        }
        if j == start || !matches!(b.get(j), Some(b'>' | b' ' | b'/' | b'\t' | b'\n')) {
            continue;
        }
        let name = &text[start..j];
        if HTML_TAGS.iter().any(|t| t.eq_ignore_ascii_case(name)) {
            return Some(&text[i..(j + 1).min(text.len())]);
        }
    }
    None
}

/// Elements of the HTML Standard (current, obsolete and the Feed Validator's legacy list), the
/// tag names an HTML element's markup may use (§4.1.1.20.4, §5.2.1: "suitable for presentation
/// as HTML"); `svg` and `math` open foreign content, whose own element names are not checked.
#[cfg(test)]
pub(super) const HTML_ELEMENTS: [&str; 145] = [
    "a",
    "abbr",
    "acronym",
    "address",
    "applet",
    "area",
    "article",
    "aside",
    "audio",
    "b",
    "base",
    "basefont",
    "bdi",
    "bdo",
    "bgsound",
    "big",
    "blink",
    "blockquote",
    "body",
    "br",
    "button",
    "canvas",
    "caption",
    "center",
    "cite",
    "code",
    "col",
    "colgroup",
    "comment",
    "data",
    "datalist",
    "dd",
    "del",
    "details",
    "dfn",
    "dialog",
    "dir",
    "div",
    "dl",
    "dt",
    "em",
    "embed",
    "fieldset",
    "figcaption",
    "figure",
    "font",
    "footer",
    "form",
    "frame",
    "frameset",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hgroup",
    "hr",
    "html",
    "i",
    "iframe",
    "image",
    "img",
    "input",
    "ins",
    "isindex",
    "kbd",
    "keygen",
    "label",
    "legend",
    "li",
    "link",
    "listing",
    "main",
    "map",
    "mark",
    "marquee",
    "math",
    "menu",
    "menuitem",
    "meta",
    "meter",
    "multicol",
    "nav",
    "nextid",
    "nobr",
    "noembed",
    "noframes",
    "noscript",
    "object",
    "ol",
    "optgroup",
    "option",
    "output",
    "p",
    "param",
    "picture",
    "plaintext",
    "pre",
    "progress",
    "q",
    "rb",
    "rp",
    "rt",
    "rtc",
    "ruby",
    "s",
    "samp",
    "script",
    "search",
    "section",
    "select",
    "slot",
    "small",
    "source",
    "spacer",
    "span",
    "strike",
    "strong",
    "style",
    "sub",
    "summary",
    "sup",
    "svg",
    "table",
    "tbody",
    "td",
    "template",
    "textarea",
    "tfoot",
    "th",
    "thead",
    "time",
    "title",
    "tr",
    "track",
    "tt",
    "u",
    "ul",
    "var",
    "video",
    "wbr",
    "xmp",
];

/// Whether `name` is an HTML element name: one of `HTML_ELEMENTS` (any case) or a custom
/// element name (it has a `-`, HTML Standard §4.13.2).
pub fn is_html_element(name: &str) -> bool {
    let b = name.as_bytes();
    if b.contains(&b'-') {
        return b[0].is_ascii_alphabetic();
    }
    let mut buf = [0u8; 10];
    if b.is_empty() || b.len() > buf.len() {
        return false;
    }
    for (d, c) in buf.iter_mut().zip(b) {
        *d = c.to_ascii_lowercase();
    }
    // The names of `HTML_ELEMENTS` (a `match` on the bytes: no per-call search setup).
    matches!(
        &buf[..b.len()],
        b"a" | b"abbr"
            | b"acronym"
            | b"address"
            | b"applet"
            | b"area"
            | b"article"
            | b"aside"
            | b"audio"
            | b"b"
            | b"base"
            | b"basefont"
            | b"bdi"
            | b"bdo"
            | b"bgsound"
            | b"big"
            | b"blink"
            | b"blockquote"
            | b"body"
            | b"br"
            | b"button"
            | b"canvas"
            | b"caption"
            | b"center"
            | b"cite"
            | b"code"
            | b"col"
            | b"colgroup"
            | b"comment"
            | b"data"
            | b"datalist"
            | b"dd"
            | b"del"
            | b"details"
            | b"dfn"
            | b"dialog"
            | b"dir"
            | b"div"
            | b"dl"
            | b"dt"
            | b"em"
            | b"embed"
            | b"fieldset"
            | b"figcaption"
            | b"figure"
            | b"font"
            | b"footer"
            | b"form"
            | b"frame"
            | b"frameset"
            | b"h1"
            | b"h2"
            | b"h3"
            | b"h4"
            | b"h5"
            | b"h6"
            | b"head"
            | b"header"
            | b"hgroup"
            | b"hr"
            | b"html"
            | b"i"
            | b"iframe"
            | b"image"
            | b"img"
            | b"input"
            | b"ins"
            | b"isindex"
            | b"kbd"
            | b"keygen"
            | b"label"
            | b"legend"
            | b"li"
            | b"link"
            | b"listing"
            | b"main"
            | b"map"
            | b"mark"
            | b"marquee"
            | b"math"
            | b"menu"
            | b"menuitem"
            | b"meta"
            | b"meter"
            | b"multicol"
            | b"nav"
            | b"nextid"
            | b"nobr"
            | b"noembed"
            | b"noframes"
            | b"noscript"
            | b"object"
            | b"ol"
            | b"optgroup"
            | b"option"
            | b"output"
            | b"p"
            | b"param"
            | b"picture"
            | b"plaintext"
            | b"pre"
            | b"progress"
            | b"q"
            | b"rb"
            | b"rp"
            | b"rt"
            | b"rtc"
            | b"ruby"
            | b"s"
            | b"samp"
            | b"script"
            | b"search"
            | b"section"
            | b"select"
            | b"slot"
            | b"small"
            | b"source"
            | b"spacer"
            | b"span"
            | b"strike"
            | b"strong"
            | b"style"
            | b"sub"
            | b"summary"
            | b"sup"
            | b"svg"
            | b"table"
            | b"tbody"
            | b"td"
            | b"template"
            | b"textarea"
            | b"tfoot"
            | b"th"
            | b"thead"
            | b"time"
            | b"title"
            | b"tr"
            | b"track"
            | b"tt"
            | b"u"
            | b"ul"
            | b"var"
            | b"video"
            | b"wbr"
            | b"xmp"
    )
}

/// What §4.1.1.20.4 and §5.2.1 check in the raw content of an HTML element (`description`,
/// `content:encoded`), read without decoding it.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct HtmlScan<'a> {
    /// The first child element (markup that was neither escaped nor in CDATA).
    pub child: Option<&'a str>,
    /// The first start tag, escaped or in CDATA, whose name is not an HTML element (the
    /// validator's `NotHtml` "Non-html tag"), until `svg` or `math` foreign content begins.
    pub non_html: Option<&'a str>,
    /// The first relative `href`/`src` reference (decoded).
    pub relative: Option<Cow<'a, str>>,
    /// The first start tag, escaped or in CDATA, of an element that runs code or changes the
    /// page ([`RISK_TAGS`]: the validator's `SecurityRisk`).
    pub risk_tag: Option<&'a str>,
    /// The first event-handler attribute (`on` and three or more letters: `onclick`,
    /// `onsubmit`) of a start tag, escaped or in CDATA (the validator's `SecurityRiskAttr`).
    pub risk_attr: Option<&'a str>,
}

/// Elements an HTML description must not hold (they run code, embed plugins or redirect the
/// page): `script`, `applet`, `embed`, `object`, `meta`, `iframe`, `frame`, `frameset`.
pub const RISK_TAGS: [&str; 8] =
    ["script", "applet", "embed", "object", "meta", "iframe", "frame", "frameset"];

/// Bytes of a start tag read for its attributes, at most: the scan stays linear on content
/// with many unterminated tags.
const ATTRS_WINDOW: usize = 1024;

/// Notes the security risks of start tag `name` whose attributes follow in `attrs` (up to
/// the tag's end, `end`: `>` or the escaped `&gt;`).
///
/// NOTE: the attributes are tokenized ([`event_attr`]) only when they hold an `on` that can
/// start an event-handler name ([`may_hold_event_attr`]); the tag's end is found with memchr.
/// Most tags (`<a href=…>`, `<img src=…>`, `<p>`) then cost one or two memchr calls instead of a
/// substring search and a parse of every attribute (callgrind on corpus/real, `perf/runs/`).
fn note_risk<'a>(name: &'a str, attrs: &'a str, end: &str, out: &mut HtmlScan<'a>) {
    if out.risk_tag.is_none()
        && (4..=8).contains(&name.len())
        && RISK_TAGS.iter().any(|t| name.eq_ignore_ascii_case(t))
    {
        out.risk_tag = Some(name);
    }
    if out.risk_attr.is_none() {
        let window = &attrs[..crate::xml::floor_char_boundary(attrs, ATTRS_WINDOW)];
        let attrs = match tag_end(window, end) {
            Some(e) => &window[..e],
            None => window,
        };
        if may_hold_event_attr(attrs) {
            out.risk_attr = event_attr(attrs);
        }
    }
}

/// The first occurrence of `end` (`>` or `&gt;`) in `s`, as `s.find(end)` gives it.
fn tag_end(s: &str, end: &str) -> Option<usize> {
    let b = s.as_bytes();
    match end.as_bytes() {
        [one] => memchr::memchr(*one, b),
        [first, rest @ ..] => {
            memchr::memchr_iter(*first, b).find(|&i| b[i + 1..].starts_with(rest))
        }
        [] => Some(0),
    }
}

/// Whether [`event_attr`] can find an event handler in `attrs`: some `on` (any case) followed
/// by three ASCII letters, at the start or right after a byte an attribute name can follow in
/// its tokenizing (ASCII whitespace, `/`, or the last byte of a closing quote: `"`, `'`, `;`). A necessary
/// condition, so skipping the parse when it fails changes no finding.
pub(super) fn may_hold_event_attr(attrs: &str) -> bool {
    let b = attrs.as_bytes();
    memchr::memchr2_iter(b'o', b'O', b).any(|p| {
        (p == 0 || b[p - 1].is_ascii_whitespace() || matches!(b[p - 1], b'/' | b'"' | b'\'' | b';'))
            && matches!(b.get(p + 1), Some(b'n' | b'N'))
            && b.get(p + 2..p + 5).is_some_and(|l| l.iter().all(u8::is_ascii_alphabetic))
    })
}

/// The first event-handler attribute name in the attributes of a start tag (quoted values,
/// `"`, `'` or escaped, skipped).
pub(super) fn event_attr(attrs: &str) -> Option<&str> {
    let b = attrs.as_bytes();
    let mut i = 0;
    while i < b.len() {
        while i < b.len() && (b[i].is_ascii_whitespace() || b[i] == b'/') {
            i += 1;
        }
        let start = i;
        while i < b.len() && !(b[i].is_ascii_whitespace() || b[i] == b'=' || b[i] == b'/') {
            i += 1;
        }
        let name = &attrs[start..i];
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if i < b.len() && b[i] == b'=' {
            i += 1;
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
            let rest = &attrs[i..];
            let quote = ["&quot;", "&#34;", "&apos;", "&#39;", "\"", "'"]
                .into_iter()
                .find(|q| rest.starts_with(q));
            match quote {
                Some(q) => {
                    let value = &rest[q.len()..];
                    i += q.len() + value.find(q).map_or(value.len(), |e| e + q.len());
                }
                None => {
                    while i < b.len() && !b[i].is_ascii_whitespace() {
                        i += 1;
                    }
                }
            }
        }
        // Event handlers are `on` and at least three letters (`oncut`, `onload`, ...).
        if name.len() >= 5
            && name[..2].eq_ignore_ascii_case("on")
            && name[2..].bytes().all(|c| c.is_ascii_alphabetic())
        {
            return Some(name);
        }
    }
    None
}

/// The tag name at the start of `s` (just after a `<`, escaped or not): a letter, then letters,
/// digits, `-`, `.`, `:`, `_`, followed by whitespace, `>`, `/`, `&` (an escaped `>`) or the
/// end of the content.
pub(super) fn tag_name(s: &str) -> Option<&str> {
    let b = s.as_bytes();
    if !b.first().is_some_and(u8::is_ascii_alphabetic) {
        return None;
    }
    let n = b
        .iter()
        .position(|c| !(c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b':' | b'_')))
        .unwrap_or(b.len());
    match b.get(n) {
        None | Some(b' ' | b'\t' | b'\n' | b'\r' | b'>' | b'/' | b'&') => Some(&s[..n]),
        _ => None,
    }
}

/// Notes the start tag `name`: the first non-HTML one outside foreign content goes in `slot`.
pub(super) fn note_tag<'a>(name: &'a str, foreign: &mut bool, slot: &mut Option<&'a str>) {
    if *foreign || slot.is_some() {
        return;
    }
    if !is_html_element(name) {
        *slot = Some(name);
    } else if matches!(name.len(), 3 | 4)
        && (name.eq_ignore_ascii_case("svg") || name.eq_ignore_ascii_case("math"))
    {
        *foreign = true;
    }
}

/// The security risks ([`HtmlScan::risk_tag`], [`HtmlScan::risk_attr`]) of raw content that
/// is markup itself (an Atom `xhtml` construct's `div`): every start tag, any prefix
/// (`xhtml:script`) left out of its name; comments, CDATA and escaped markup are text. The
/// check is [`scan_html_raw`]'s, on tags that are not escaped.
pub fn scan_markup_risks(raw: &str) -> HtmlScan<'_> {
    let mut out = HtmlScan::default();
    let b = raw.as_bytes();
    let mut i = 0;
    while let Some(k) = memchr::memchr(b'<', &b[i..]) {
        let at = i + k;
        let rest = &raw[at..];
        i = at + 1;
        // Comments and CDATA sections are text: skipped whole.
        for (open, close) in [("<!--", "-->"), ("<![CDATA[", "]]>")] {
            if rest.starts_with(open) {
                let end = memchr::memmem::find(&b[at + open.len()..], close.as_bytes());
                i = end.map_or(b.len(), |e| at + open.len() + e + close.len());
            }
        }
        if i > at + 1 {
            continue;
        }
        let Some(qname) = tag_name(&rest[1..]) else { continue };
        let name = qname.rsplit_once(':').map_or(qname, |(_, local)| local);
        note_risk(name, &rest[1 + qname.len()..], ">", &mut out);
        if out.risk_tag.is_some() && out.risk_attr.is_some() {
            break;
        }
    }
    out
}

/// Scans the raw content of an HTML element (see [`HtmlScan`]).
pub fn scan_html_raw(raw: &str) -> HtmlScan<'_> {
    scan_html(raw, true)
}

/// The security risks alone ([`HtmlScan::risk_tag`], [`HtmlScan::risk_attr`]) of the raw
/// content of an HTML element, escaped or in CDATA: [`scan_html_raw`]'s scan without its
/// element-name and relative-reference checks, stopping once both risks are found (Atom
/// `html` constructs: their relative references resolve against `xml:base`).
pub fn scan_html_risks(raw: &str) -> HtmlScan<'_> {
    scan_html(raw, false)
}

/// [`scan_html_raw`] (`full`), or [`scan_html_risks`].
fn scan_html(raw: &str, full: bool) -> HtmlScan<'_> {
    let b = raw.as_bytes();
    let mut out = HtmlScan::default();
    let mut foreign = false;
    let mut i = 0;
    while let Some(k) = memchr::memchr2(b'<', b'&', &b[i..]) {
        let at = i + k;
        let rest = &raw[at..];
        let mut skip = 1;
        if let Some(body) = rest.strip_prefix("&") {
            // An escaped `<`: `&lt;`, `&#60;`, `&#x3c;`.
            let after = match body.as_bytes().first() {
                Some(b'l' | b'#') => ["lt;", "#60;", "#x3c;", "#x3C;", "#X3c;", "#X3C;"]
                    .iter()
                    .find_map(|e| body.strip_prefix(e)),
                _ => None,
            };
            if let Some(after) = after {
                if let Some(name) = tag_name(after) {
                    if full {
                        note_tag(name, &mut foreign, &mut out.non_html);
                    }
                    note_risk(name, &after[name.len()..], "&gt;", &mut out);
                }
            }
        } else if let Some(body) = rest.strip_prefix("<![CDATA[") {
            let end = memchr::memmem::find(body.as_bytes(), b"]]>").unwrap_or(body.len());
            let data = &body[..end];
            for lt in memchr::memchr_iter(b'<', data.as_bytes()) {
                if let Some(name) = tag_name(&data[lt + 1..]) {
                    if full {
                        note_tag(name, &mut foreign, &mut out.non_html);
                    }
                    note_risk(name, &data[lt + 1 + name.len()..], ">", &mut out);
                }
            }
            skip = 9 + (end + 3).min(body.len());
        } else if rest.starts_with("<!--") {
            skip = memchr::memmem::find(rest.as_bytes(), b"-->").map_or(rest.len(), |e| e + 3);
        } else if out.child.is_none() && rest.as_bytes().get(1).is_some_and(u8::is_ascii_alphabetic)
        {
            let n = rest[1..]
                .find(|c: char| c.is_whitespace() || c == '>' || c == '/')
                .map_or(rest.len(), |e| e + 1);
            out.child = Some(&rest[1..n]);
        }
        i = at + skip;
        if !full && out.risk_tag.is_some() && out.risk_attr.is_some() {
            break;
        }
    }
    if full {
        out.relative = raw_relative_ref(raw);
    }
    out
}
