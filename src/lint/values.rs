//! Value rules of the Profile: RFC 822 dates (§3.2), e-mail addresses (§3.3), full URLs
//! (§3.4), language codes (§4.1.1.10), MIME types, form component names, integers; and the
//! raw-content reader for plain-text elements (§3.1).

use std::borrow::Cow;

use crate::xml::entities::Resolved;

/// What §3.2 says about a date-time value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DateCheck {
    /// Valid and unproblematic; seconds since the Unix epoch.
    Ok(i64),
    /// Valid RFC 822 (four-digit years permitted) but problematic: the reason.
    Problematic(&'static str, i64),
    /// The day of the week does not match the date.
    IncorrectDow,
    /// Not an RFC 822 date-time.
    Invalid,
}

const DAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const MONTHS: [&str; 12] =
    ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m as i64 + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn month_days(y: i64, m: u32) -> u32 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

fn all_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// Checks an RFC 822 date-time (`[day ","] date time zone`, two- or four-digit year).
/// Problematic (Profile §3.2): a two-digit year, comments or runs of whitespace between
/// components, a military zone other than `Z`, a weekday, month or zone not capitalized as
/// in RFC 822.
pub fn check_rfc822(value: &str) -> DateCheck {
    let mut s = value.trim_matches(|c: char| c.is_ascii_whitespace());
    let mut problem: Option<&'static str> = None;
    let stripped: String;
    if s.contains('(') {
        // Comments (nestable, RFC 822 §3.1.4); an unbalanced one makes the value invalid.
        let mut out = String::with_capacity(s.len());
        let mut depth = 0usize;
        for c in s.chars() {
            match c {
                '(' => depth += 1,
                ')' if depth > 0 => depth -= 1,
                ')' => return DateCheck::Invalid,
                _ if depth == 0 => out.push(c),
                _ => {}
            }
        }
        if depth > 0 {
            return DateCheck::Invalid;
        }
        problem = Some("comment");
        stripped = out;
        s = stripped.trim_matches(|c: char| c.is_ascii_whitespace());
    }
    if s.contains("  ") || s.contains(['\t', '\n', '\r']) {
        problem.get_or_insert("whitespace");
    }
    let mut tokens: Vec<&str> = Vec::with_capacity(6);
    for t in s.split_ascii_whitespace() {
        // "Mon," and "Mon ," both give the weekday token then ",".
        if let Some(day) = t.strip_suffix(',') {
            if !day.is_empty() {
                tokens.push(day);
            }
            tokens.push(",");
        } else {
            tokens.push(t);
        }
    }
    let mut i = 0;
    let mut weekday = None;
    if tokens.len() >= 2 && tokens[1] == "," {
        let t = tokens[0];
        match DAYS.iter().position(|d| d.eq_ignore_ascii_case(t)) {
            Some(w) => {
                if DAYS[w] != t {
                    problem.get_or_insert("capitalization");
                }
                weekday = Some(w as i64);
            }
            None => return DateCheck::Invalid,
        }
        i = 2;
    }
    if tokens.len() != i + 5 {
        return DateCheck::Invalid;
    }
    let (d, mon, y, time, zone) =
        (tokens[i], tokens[i + 1], tokens[i + 2], tokens[i + 3], tokens[i + 4]);
    if !all_digits(d) || d.len() > 2 {
        return DateCheck::Invalid;
    }
    let day: u32 = d.parse().unwrap_or(0);
    let Some(m) = MONTHS.iter().position(|x| x.eq_ignore_ascii_case(mon)) else {
        return DateCheck::Invalid;
    };
    if MONTHS[m] != mon {
        problem.get_or_insert("capitalization");
    }
    if !all_digits(y) || !(y.len() == 2 || y.len() == 4) {
        return DateCheck::Invalid;
    }
    let mut year: i64 = y.parse().unwrap_or(0);
    if y.len() == 2 {
        problem.get_or_insert("two-digit year");
        year += if year < 50 { 2000 } else { 1900 };
    }
    let month = m as u32 + 1;
    if day == 0 || day > month_days(year, month) {
        return DateCheck::Invalid;
    }
    let parts: Vec<&str> = time.split(':').collect();
    if !(parts.len() == 2 || parts.len() == 3)
        || parts.iter().any(|p| p.len() != 2 || !all_digits(p))
    {
        return DateCheck::Invalid;
    }
    let n = |k: usize| parts.get(k).map_or(0, |p| p.parse::<i64>().unwrap_or(99));
    let (hh, mm, ss) = (n(0), n(1), n(2));
    if hh > 23 || mm > 59 || ss > 60 {
        return DateCheck::Invalid;
    }
    let offset_minutes = match zone_offset(zone) {
        Some((off, canonical)) => {
            if !canonical {
                problem.get_or_insert("time zone");
            }
            off
        }
        None => return DateCheck::Invalid,
    };
    let days = days_from_civil(year, month, day);
    if let Some(w) = weekday {
        // 1970-01-01 was a Thursday (index 3 from Monday).
        if (days + 3).rem_euclid(7) != w {
            return DateCheck::IncorrectDow;
        }
    }
    let secs = days * 86_400 + hh * 3600 + mm * 60 + ss - offset_minutes * 60;
    match problem {
        Some(p) => DateCheck::Problematic(p, secs),
        None => DateCheck::Ok(secs),
    }
}

/// A zone's offset in minutes and whether it is written as the Profile recommends (named
/// zones in capitals, `Z` the only military zone, numeric `+hhmm`/`-hhmm`).
fn zone_offset(z: &str) -> Option<(i64, bool)> {
    let named = [
        ("UT", 0),
        ("GMT", 0),
        ("EST", -300),
        ("EDT", -240),
        ("CST", -360),
        ("CDT", -300),
        ("MST", -420),
        ("MDT", -360),
        ("PST", -480),
        ("PDT", -420),
        ("Z", 0),
    ];
    if let Some(&(name, off)) = named.iter().find(|(n, _)| n.eq_ignore_ascii_case(z)) {
        return Some((off, name == z));
    }
    let b = z.as_bytes();
    if b.len() == 1 && b[0].is_ascii_alphabetic() && !b[0].eq_ignore_ascii_case(&b'j') {
        // RFC 822's military zones are specified with the wrong sign; the offset is not used
        // for anything but the future-date check, so it is taken as 0.
        return Some((0, false));
    }
    if b.len() == 5 && (b[0] == b'+' || b[0] == b'-') && all_digits(&z[1..]) {
        let h: i64 = z[1..3].parse().ok()?;
        let m: i64 = z[3..].parse().ok()?;
        if m > 59 {
            return None;
        }
        let off = h * 60 + m;
        return Some((if b[0] == b'-' { -off } else { off }, true));
    }
    None
}

/// What §3.3 says about an e-mail value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmailCheck {
    /// `username@hostname.tld (Real Name)`.
    Recommended,
    /// A bare address.
    MissingRealName,
    /// An address in another form (`Name <a@b.c>`, `mailto:a@b.c`, ...).
    OtherFormat,
    /// No e-mail address at all.
    Invalid,
}

fn is_addr_spec(s: &str) -> bool {
    let Some((local, domain)) = s.rsplit_once('@') else { return false };
    let atext = |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+/=?^_`{|}~.-".contains(&b);
    !local.is_empty()
        && local.bytes().all(atext)
        && !local.starts_with('.')
        && !local.ends_with('.')
        && domain.contains('.')
        && domain
            .split('.')
            .all(|l| !l.is_empty() && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
}

pub fn check_email(value: &str) -> EmailCheck {
    let v = value.trim();
    if is_addr_spec(v) {
        return EmailCheck::MissingRealName;
    }
    if let Some((addr, rest)) = v.split_once(' ') {
        let rest = rest.trim_start();
        if is_addr_spec(addr) && rest.starts_with('(') && rest.ends_with(')') && rest.len() > 2 {
            return EmailCheck::Recommended;
        }
    }
    let found = v
        .split(|c: char| c.is_whitespace() || "<>()\"',;".contains(c))
        .map(|t| t.strip_prefix("mailto:").unwrap_or(t))
        .any(is_addr_spec);
    if found {
        EmailCheck::OtherFormat
    } else {
        EmailCheck::Invalid
    }
}

/// URI schemes of the IANA registry (permanent ones and widely used provisional ones).
const SCHEMES: &[&str] = &[
    "about",
    "acap",
    "acct",
    "cid",
    "coap",
    "coaps",
    "crid",
    "data",
    "dav",
    "dict",
    "dns",
    "feed",
    "file",
    "ftp",
    "geo",
    "git",
    "go",
    "gopher",
    "h323",
    "http",
    "https",
    "iax",
    "icap",
    "im",
    "imap",
    "info",
    "ipp",
    "ipps",
    "iris",
    "irc",
    "ircs",
    "itms",
    "itms-podcasts",
    "itpc",
    "jabber",
    "ldap",
    "magnet",
    "mailto",
    "mid",
    "mms",
    "msrp",
    "mtqp",
    "mupdate",
    "news",
    "nfs",
    "ni",
    "nih",
    "nntp",
    "opaquelocktoken",
    "pcast",
    "pop",
    "pres",
    "prospero",
    "rsync",
    "rtmp",
    "rtsp",
    "rtsps",
    "rtspu",
    "service",
    "sftp",
    "shttp",
    "sieve",
    "sip",
    "sips",
    "sms",
    "snews",
    "snmp",
    "soap.beep",
    "soap.beeps",
    "ssh",
    "svn",
    "tag",
    "tel",
    "telnet",
    "tftp",
    "tip",
    "tn3270",
    "urn",
    "vemmi",
    "wais",
    "webcal",
    "ws",
    "wss",
    "xmlrpc.beep",
    "xmlrpc.beeps",
    "xmpp",
    "z39.50r",
    "z39.50s",
];

/// What §3.4 says about a URL value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UrlCheck {
    Ok,
    /// Empty after trimming.
    Blank,
    /// Non-ASCII characters: an IRI where a URL is expected.
    Iri,
    /// Relative, an unregistered scheme, or not a valid URL.
    NotFull,
}

/// The scheme of `v` (`[A-Za-z][A-Za-z0-9+.-]*:`), if it has one.
pub fn scheme(v: &str) -> Option<&str> {
    let colon = v.find(':')?;
    let s = &v[..colon];
    let mut b = s.bytes();
    (b.next().is_some_and(|c| c.is_ascii_alphabetic())
        && b.all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'.' | b'-')))
    .then_some(s)
}

pub fn check_url(value: &str) -> UrlCheck {
    let v = value.trim();
    if v.is_empty() {
        return UrlCheck::Blank;
    }
    if !v.is_ascii() {
        return UrlCheck::Iri;
    }
    let Some(s) = scheme(v) else { return UrlCheck::NotFull };
    if !SCHEMES.iter().any(|k| k.eq_ignore_ascii_case(s)) {
        return UrlCheck::NotFull;
    }
    if v.bytes().any(|b| {
        matches!(b, 0..=b' ' | b'<' | b'>' | b'"' | b'{' | b'}' | b'|' | b'\\' | b'^' | b'`')
    }) {
        return UrlCheck::NotFull;
    }
    let hierarchical = ["http", "https", "ftp"].iter().any(|h| h.eq_ignore_ascii_case(s));
    if hierarchical && !has_authority(&v[s.len() + 1..]) {
        return UrlCheck::NotFull;
    }
    UrlCheck::Ok
}

/// `//host[:port]` then `/`, `?`, `#` or the end: a non-empty host of letters, digits, `-`,
/// `.`, `_`, `%` and `~` (or a bracketed IP literal), and an all-digit port.
fn has_authority(rest: &str) -> bool {
    let Some(rest) = rest.strip_prefix("//") else { return false };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..end];
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let (host, port) = if host_port.starts_with('[') {
        match host_port.find(']') {
            Some(i) => (&host_port[..=i], host_port[i + 1..].strip_prefix(':')),
            None => return false,
        }
    } else {
        match host_port.split_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (host_port, None),
        }
    };
    let host_ok = host.starts_with('[')
        || (!host.is_empty()
            && host.bytes().all(|b| b.is_ascii_alphanumeric() || b"-._%~".contains(&b)));
    host_ok && port.is_none_or(|p| p.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether an href/src value is a relative reference (fragment-only references and empty
/// values are not: they point into the same document).
pub fn is_relative_ref(v: &str) -> bool {
    let v = v.trim();
    !v.is_empty() && !v.starts_with('#') && scheme(v).is_none()
}

/// ISO 639-1 codes (the two-letter codes HTML permits; RSS language codes are these with a
/// region, e.g. `en-us`).
const ISO639_1: &str = "aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca \
ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu \
gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik in io is it iu iw ja ji jv jw ka kg ki kj kk \
kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mo mr ms mt my na \
nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg \
sh si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur \
uz ve vi vo wa wo xh yi yo za zh zu";

/// A language code: an ISO 639-1 code or a three-letter ISO 639-2 code, or an `i-`/`x-`
/// tag, optionally followed by `-` subtags of 1 to 8 letters or digits (case-insensitive).
pub fn is_language(value: &str) -> bool {
    let v = value.trim();
    let mut parts = v.split('-');
    let first = parts.next().unwrap_or("").to_ascii_lowercase();
    let ok_first = match first.len() {
        1 => first == "i" || first == "x",
        2 => ISO639_1.split(' ').any(|c| c == first),
        3 => first.bytes().all(|b| b.is_ascii_lowercase()),
        _ => false,
    };
    let mut n = 0;
    let ok_rest = parts.all(|p| {
        n += 1;
        (1..=8).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_alphanumeric())
    });
    ok_first && ok_rest && (first.len() > 1 || n > 0)
}

/// `type/subtype` (RFC 2045 tokens), optionally followed by `;` parameters.
pub fn is_mime_type(value: &str) -> bool {
    let v = value.split(';').next().unwrap_or("").trim();
    let token = |s: &str| {
        !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b"!#$&^_.+-".contains(&b))
    };
    matches!(v.split_once('/'), Some((t, s)) if token(t) && token(s))
}

/// §4.1.1.17.3: begins with a letter; letters, digits, `:`, `-`, `.`, `_` only.
pub fn is_form_component_name(value: &str) -> bool {
    let v = value.trim();
    let mut b = v.bytes();
    b.next().is_some_and(|c| c.is_ascii_alphabetic())
        && b.all(|c| c.is_ascii_alphanumeric() || matches!(c, b':' | b'-' | b'.' | b'_'))
}

/// §4.1.1.14: a PICS label list (PICS-1.1, "PICS Label Distribution Label Syntax and
/// Communication Protocols", W3C REC 1996): `(PICS-n.n "service URL" ...)`, parentheses
/// balanced outside quoted strings. Only that outer syntax is checked (a service's rating
/// vocabulary is not known here).
pub fn is_pics_label(value: &str) -> bool {
    let v = value.trim();
    let Some(rest) = v.strip_prefix('(') else { return false };
    let rest = rest.trim_start();
    let Some(after) = rest.strip_prefix("PICS-").or_else(|| rest.strip_prefix("pics-")) else {
        return false;
    };
    let version_end = after.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(0);
    let version = &after[..version_end];
    if !matches!(version.split_once('.'), Some((a, b)) if all_digits(a) && all_digits(b)) {
        return false;
    }
    let body = &after[version_end..];
    if !body.starts_with(|c: char| c.is_ascii_whitespace()) || !body.trim_start().starts_with('"') {
        return false;
    }
    // Depth 1 inside the outer parenthesis; it must close exactly at the end of the value.
    let mut depth = 1usize;
    let mut quoted = false;
    for (i, c) in body.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '(' if !quoted => depth += 1,
            ')' if !quoted => {
                depth -= 1;
                if depth == 0 {
                    return i + 1 == body.len();
                }
            }
            _ => {}
        }
    }
    false
}

/// §4.1.1.4, §4.1.1.20.2: a category value with a hierarchy level that is empty or blank
/// (`News//Tech`, `/News`, `News/`, `News/ /Tech`) is not a slash-delimited position. Values
/// that are URLs (identifiers in a URI-based taxonomy) are not read as paths.
pub fn has_empty_category_level(value: &str) -> bool {
    let v = value.trim();
    v.contains('/') && check_url(v) != UrlCheck::Ok && v.split('/').any(|l| l.trim().is_empty())
}

/// §4.1.1.7: the RSS Advisory Board's specification URL, as the Profile gives it.
pub const RSSBOARD_SPEC: &str = "http://www.rssboard.org/rss-specification";

/// Whether a `docs` value points at the RSS Advisory Board's site (so the feed relies on the
/// Board's specification) but not at the specification's URL ([`RSSBOARD_SPEC`], or the same
/// with `https`, where the Board now serves it).
pub fn is_noncanonical_rssboard_docs(value: &str) -> bool {
    let v = value.trim();
    if check_url(v) != UrlCheck::Ok {
        return false;
    }
    let Some(s) = scheme(v) else { return false };
    let Some(rest) = v[s.len() + 1..].strip_prefix("//") else { return false };
    let authority = &rest[..rest.find(['/', '?', '#']).unwrap_or(rest.len())];
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = host.split(':').next().unwrap_or("").trim_end_matches('.');
    let board =
        host.eq_ignore_ascii_case("rssboard.org") || host.eq_ignore_ascii_case("www.rssboard.org");
    board && v != RSSBOARD_SPEC && v != "https://www.rssboard.org/rss-specification"
}

/// A non-negative integer (ASCII digits after trimming), if it is one.
pub fn non_negative(value: &str) -> Option<u64> {
    let v = value.trim();
    if all_digits(v) {
        Some(v.parse().unwrap_or(u64::MAX))
    } else {
        None
    }
}

/// HTML elements whose tags in a plain-text value mean it holds HTML (§3.1).
const HTML_TAGS: &[&str] = &[
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
const HTML_ELEMENTS: [&str; 145] = [
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
}

/// The tag name at the start of `s` (just after a `<`, escaped or not): a letter, then letters,
/// digits, `-`, `.`, `:`, `_`, followed by whitespace, `>`, `/`, `&` (an escaped `>`) or the
/// end of the content.
fn tag_name(s: &str) -> Option<&str> {
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
fn note_tag<'a>(name: &'a str, foreign: &mut bool, slot: &mut Option<&'a str>) {
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

/// Scans the raw content of an HTML element (see [`HtmlScan`]).
pub fn scan_html_raw(raw: &str) -> HtmlScan<'_> {
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
            if let Some(name) = after.and_then(tag_name) {
                note_tag(name, &mut foreign, &mut out.non_html);
            }
        } else if let Some(body) = rest.strip_prefix("<![CDATA[") {
            let end = memchr::memmem::find(body.as_bytes(), b"]]>").unwrap_or(body.len());
            let data = &body[..end];
            for lt in memchr::memchr_iter(b'<', data.as_bytes()) {
                if let Some(name) = tag_name(&data[lt + 1..]) {
                    note_tag(name, &mut foreign, &mut out.non_html);
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
    }
    out.relative = raw_relative_ref(raw);
    out
}

/// Quote forms an attribute value may be delimited by in raw (escaped or CDATA) HTML.
const QUOTES: [&str; 8] = ["\"", "'", "&quot;", "&#34;", "&#x22;", "&apos;", "&#39;", "&#x27;"];

fn raw_relative_ref(raw: &str) -> Option<Cow<'_, str>> {
    let b = raw.as_bytes();
    for eq in memchr::memchr_iter(b'=', b) {
        let mut k = eq;
        while k > 0 && b[k - 1].is_ascii_whitespace() {
            k -= 1;
        }
        let name_end = k;
        while k > 0 && b[k - 1].is_ascii_alphabetic() {
            k -= 1;
        }
        let name = &raw[k..name_end];
        if !(name.eq_ignore_ascii_case("href") || name.eq_ignore_ascii_case("src"))
            || k == 0
            || !b[k - 1].is_ascii_whitespace()
        {
            continue;
        }
        let mut v = eq + 1;
        while v < b.len() && b[v].is_ascii_whitespace() {
            v += 1;
        }
        let rest = &raw[v..];
        let (start, end) = match QUOTES.iter().find(|q| rest.starts_with(**q)) {
            Some(q) => {
                let from = v + q.len();
                let end =
                    memchr::memmem::find(&b[from..], q.as_bytes()).map_or(b.len(), |e| from + e);
                (from, end)
            }
            None => {
                let end = b[v..]
                    .iter()
                    .position(|c| c.is_ascii_whitespace() || matches!(c, b'>' | b'&'))
                    .map_or(b.len(), |e| v + e);
                (v, end)
            }
        };
        let value = read_raw(&raw[start..end]).text;
        if is_relative_ref(&value) {
            return Some(value);
        }
    }
    None
}

/// The raw content of an element, read for §3.1.
pub struct Raw<'a> {
    /// The character data: references resolved (the five XML entities and numeric
    /// references; other references kept as written), CDATA unwrapped, comments and
    /// processing instructions dropped, the text of child elements kept.
    pub text: Cow<'a, str>,
    /// The first child element's qualified name.
    pub child: Option<&'a str>,
    /// The first way `&`, `<` or `>` was encoded other than by a hexadecimal character
    /// reference (`&amp;`, `&#60;`, `<![CDATA[`), if any.
    pub non_hex: Option<&'a str>,
}

/// Reads the raw content `s` of an element.
pub fn read_raw(s: &str) -> Raw<'_> {
    if memchr::memchr2(b'&', b'<', s.as_bytes()).is_none() {
        return Raw { text: Cow::Borrowed(s), child: None, non_hex: None };
    }
    let mut out = String::with_capacity(s.len());
    let mut child = None;
    let mut non_hex = None;
    let mut i = 0;
    let b = s.as_bytes();
    while i < s.len() {
        let Some(k) = memchr::memchr2(b'&', b'<', &b[i..]) else {
            out.push_str(&s[i..]);
            break;
        };
        out.push_str(&s[i..i + k]);
        i += k;
        let rest = &s[i..];
        if let Some(after) = rest.strip_prefix('&') {
            let Some(semi) = after.find(';').filter(|&e| e <= 32) else {
                out.push('&');
                non_hex.get_or_insert("&");
                i += 1;
                continue;
            };
            let name = &after[..semi];
            let whole = &rest[..semi + 2];
            // XML's references only (the predefined names, numeric references to XML
            // characters), as the XML reader resolves them; anything else stays as written.
            let c = match crate::xml::entities::resolve(name) {
                Resolved::Xml(c) => Some(c),
                Resolved::InvalidChar | Resolved::Html(..) | Resolved::Unknown => None,
            };
            match c {
                Some(c) => {
                    let is_hex = name.starts_with("#x") || name.starts_with("#X");
                    if matches!(c, '&' | '<' | '>') && !is_hex {
                        non_hex.get_or_insert(whole);
                    }
                    out.push(c);
                }
                None => out.push_str(whole),
            }
            i += whole.len();
        } else if let Some(body) = rest.strip_prefix("<![CDATA[") {
            let end = body.find("]]>").unwrap_or(body.len());
            let data = &body[..end];
            if data.contains(['&', '<']) {
                non_hex.get_or_insert("<![CDATA[");
            }
            out.push_str(data);
            i += 9 + (end + 3).min(body.len());
        } else if let Some(body) = rest.strip_prefix("<!--") {
            i += 4 + body.find("-->").map_or(body.len(), |e| e + 3);
        } else if rest.starts_with("<?") {
            i += rest.find("?>").map_or(rest.len(), |e| e + 2);
        } else {
            // A tag: note the first child element, drop the markup, keep its text.
            if child.is_none() && rest.as_bytes().get(1).is_some_and(|c| c.is_ascii_alphabetic()) {
                let n = rest[1..]
                    .find(|c: char| c.is_whitespace() || c == '>' || c == '/')
                    .map_or(rest.len(), |e| e + 1);
                child = Some(&rest[1..n]);
            }
            i += rest.find('>').map_or(rest.len(), |e| e + 1);
        }
    }
    Raw { text: Cow::Owned(out), child, non_hex }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc822_dates() {
        assert_eq!(check_rfc822("Sat, 07 Sep 2002 00:00:01 GMT"), DateCheck::Ok(1_031_356_801));
        assert_eq!(check_rfc822("7 Sep 2002 09:00 +0900"), DateCheck::Ok(1_031_356_800));
        assert_eq!(
            check_rfc822("Sat, 07 Sep 02 00:00:01 GMT"),
            DateCheck::Problematic("two-digit year", 1_031_356_801)
        );
        assert!(matches!(
            check_rfc822("Sat,  07 Sep 2002 00:00:01 GMT"),
            DateCheck::Problematic("whitespace", _)
        ));
        assert!(matches!(
            check_rfc822("Sat, 07 Sep 2002 00:00:01 GMT (UTC)"),
            DateCheck::Problematic("comment", _)
        ));
        assert!(matches!(
            check_rfc822("Sat, 07 Sep 2002 00:00:01 A"),
            DateCheck::Problematic("time zone", _)
        ));
        assert!(matches!(check_rfc822("Sat, 07 Sep 2002 00:00:01 Z"), DateCheck::Ok(_)));
        assert!(matches!(
            check_rfc822("sat, 07 sep 2002 00:00:01 gmt"),
            DateCheck::Problematic("capitalization", _)
        ));
        assert_eq!(check_rfc822("Sun, 07 Sep 2002 00:00:01 GMT"), DateCheck::IncorrectDow);
        assert_eq!(check_rfc822("2002-09-07T00:00:01Z"), DateCheck::Invalid);
        assert_eq!(check_rfc822("Sat, 31 Sep 2002 00:00:01 GMT"), DateCheck::Invalid);
        assert_eq!(check_rfc822("Sat, 07 Sep 2002 24:00:01 GMT"), DateCheck::Invalid);
        assert_eq!(check_rfc822(""), DateCheck::Invalid);
    }

    #[test]
    fn emails() {
        assert_eq!(check_email("a@b.example (A B)"), EmailCheck::Recommended);
        assert_eq!(check_email("a@b.example"), EmailCheck::MissingRealName);
        assert_eq!(check_email("A B <a@b.example>"), EmailCheck::OtherFormat);
        assert_eq!(check_email("mailto:a@b.example"), EmailCheck::OtherFormat);
        assert_eq!(check_email("A B"), EmailCheck::Invalid);
    }

    #[test]
    fn urls() {
        assert_eq!(check_url(" https://a.example/x?y=1 "), UrlCheck::Ok);
        assert_eq!(check_url("mailto:a@b.example"), UrlCheck::Ok);
        assert_eq!(check_url("/x"), UrlCheck::NotFull);
        assert_eq!(check_url("www.example.com"), UrlCheck::NotFull);
        assert_eq!(check_url("bogus://a.example/"), UrlCheck::NotFull);
        assert_eq!(check_url("http://"), UrlCheck::NotFull);
        assert_eq!(check_url("https://a.example/é"), UrlCheck::Iri);
        assert_eq!(check_url("  "), UrlCheck::Blank);
    }

    #[test]
    fn small_values() {
        assert!(is_language("en-us") && is_language("EN") && is_language("x-klingon"));
        assert!(!is_language("english") && !is_language("qq") && !is_language("en_US"));
        assert!(is_mime_type("audio/mpeg") && is_mime_type("text/html; charset=utf-8"));
        assert!(!is_mime_type("mp3"));
        assert!(is_form_component_name("q:x-y.z_1") && !is_form_component_name("1q"));
        assert_eq!(html_tag("a <b>bold</b>"), Some("<b>"));
        assert_eq!(html_tag("1 < 2 > 0"), None);
        assert_eq!(raw_relative_ref(r#"<a href="/x">"#).as_deref(), Some("/x"));
        let absolute_and_fragment = r#"<img src='https://a.example/i.png'> <a href=#top>"#;
        assert_eq!(raw_relative_ref(absolute_and_fragment), None);
        let h = scan_html_raw("x &lt;a href=&quot;/y?a&amp;b&quot;&gt;");
        assert_eq!((h.child, h.relative.as_deref(), h.non_html), (None, Some("/y?a&b"), None));
        let h = scan_html_raw("<![CDATA[<p><img src='i.png'></p>]]> <b>x</b>");
        assert_eq!((h.child, h.relative.as_deref(), h.non_html), (Some("b"), Some("i.png"), None));
        let h = scan_html_raw("&lt;a href=&#34;https://a.example/&#34;&gt;");
        assert_eq!(h.relative, None);
        let h = scan_html_raw("&lt;p&gt;a&lt;o:p&gt;&lt;/o:p&gt; &lt;blah&gt;&lt;/p&gt;");
        assert_eq!(h.non_html, Some("o:p"));
        let h =
            scan_html_raw("<![CDATA[<figure><my-widget x=1></my-widget><svg><path/></svg><foo>]]>");
        assert_eq!(h.non_html, None);
        let h = scan_html_raw("<![CDATA[<section><foo>]]>");
        assert_eq!(h.non_html, Some("foo"));
        let h = scan_html_raw("1 &lt; 2 &amp;&amp; a&lt;b &#x3C;Video controls&gt;");
        assert_eq!(h.non_html, None);
        assert!(HTML_ELEMENTS.iter().all(|n| is_html_element(n)));
        assert!(is_html_element("BLOCKQUOTE") && !is_html_element("blockquotes"));
        assert!(is_html_element("figcaption") && is_html_element("H1") && !is_html_element("h7"));
        assert!(!is_html_element("o:p") && is_html_element("x-y") && !is_html_element(""));
    }

    #[test]
    fn profile_notes() {
        assert!(is_pics_label(r#"(PICS-1.1 "http://www.classify.org/safesurf/" l r (SS~~000 1))"#));
        assert!(is_pics_label(
            r#" (PICS-1.1 "http://www.rsac.org/ratingsv01.html" l gen true comment "RSACi (x)" r (n 0 s 0 v 0 l 0)) "#
        ));
        assert!(!is_pics_label("PG-13") && !is_pics_label("(PICS-1.1 \"u\" r (n 0)"));
        assert!(!is_pics_label("(PICS-1.1 \"u\" r (n 0))) x") && !is_pics_label("(PICS \"u\")"));
        assert!(has_empty_category_level("News//Tech") && has_empty_category_level("/News"));
        assert!(has_empty_category_level("News/ /Tech") && has_empty_category_level("News/"));
        assert!(!has_empty_category_level("Business/Industries/Publishing"));
        assert!(!has_empty_category_level("AC/DC") && !has_empty_category_level("Grateful Dead"));
        assert!(!has_empty_category_level("https://www.example.com/tags/x"));
        assert!(is_noncanonical_rssboard_docs("http://www.rssboard.org/rss-specification/"));
        assert!(is_noncanonical_rssboard_docs("https://rssboard.org/rss-specification"));
        assert!(is_noncanonical_rssboard_docs("http://www.rssboard.org/rss-profile"));
        assert!(!is_noncanonical_rssboard_docs(RSSBOARD_SPEC));
        assert!(!is_noncanonical_rssboard_docs("https://www.rssboard.org/rss-specification"));
        assert!(!is_noncanonical_rssboard_docs("http://blogs.law.harvard.edu/tech/rss"));
    }

    #[test]
    fn raw_content() {
        let r = read_raw("a &amp; b");
        assert_eq!((&*r.text, r.non_hex), ("a & b", Some("&amp;")));
        let r = read_raw("a &#x26; b &#X3c; c");
        assert_eq!((&*r.text, r.non_hex), ("a & b < c", None));
        let r = read_raw("<![CDATA[x < y]]>");
        assert_eq!((&*r.text, r.non_hex), ("x < y", Some("<![CDATA[")));
        let r = read_raw("x <b>y</b> &eacute;");
        assert_eq!((&*r.text, r.child), ("x y &eacute;", Some("b")));
    }
}
