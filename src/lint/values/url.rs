//! Full URLs (§3.4): registered schemes, authorities, relative references, and a relative
//! `href`/`src` found in raw HTML.

use std::borrow::Cow;

use super::raw::read_raw;

/// URI schemes of the IANA registry ("Uniform Resource Identifier (URI) Schemes",
/// <https://www.iana.org/assignments/uri-schemes/>): its permanent schemes that feeds use and
/// widely used provisional ones (`feed`, `itpc`, `pcast`, `webcal`, ...), and every scheme of
/// the Feed Validator's `iana_schemes` list (`validators.py`, which includes the historical
/// `fax` and `modem`). A scheme of letters only that is not here is the validator's
/// `SchemeNotIANARegistered`.
pub(super) const SCHEMES: &[&str] = &[
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
    "fax",
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
    "iris.beep",
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
    "modem",
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
    /// Relative, or not a valid URL (a scheme of other than letters that is not registered
    /// included).
    NotFull,
    /// A valid URL whose scheme, letters only, is not in [`SCHEMES`] (the validator's
    /// `SchemeNotIANARegistered`; `bogus://a.example/`).
    Unregistered,
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
    let registered = SCHEMES.iter().any(|k| k.eq_ignore_ascii_case(s));
    // The validator checks the syntax first, then the scheme, and names an unregistered one
    // only when it is letters only (`www.example.com:80/x` is no URL, not a new scheme).
    if !registered && !s.bytes().all(|b| b.is_ascii_alphabetic()) {
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
    if !registered {
        return UrlCheck::Unregistered;
    }
    UrlCheck::Ok
}

/// `//host[:port]` then `/`, `?`, `#` or the end: a non-empty host of letters, digits, `-`,
/// `.`, `_`, `%` and `~` (or a bracketed IP literal), and an all-digit port.
pub(super) fn has_authority(rest: &str) -> bool {
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

/// Quote forms an attribute value may be delimited by in raw (escaped or CDATA) HTML.
pub(super) const QUOTES: [&str; 8] =
    ["\"", "'", "&quot;", "&#34;", "&#x22;", "&apos;", "&#39;", "&#x27;"];

pub(super) fn raw_relative_ref(raw: &str) -> Option<Cow<'_, str>> {
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

/// Whether the image URL `v` names a file that is not GIF, JPEG or PNG (§4.1.1.9.3): the
/// extension of its path's last segment (query and fragment left out), when it has one of
/// one to five letters or digits, is none of `gif`, `jpg`, `jpeg`, `jpe`, `jfif`, `png`
/// (any case). A path without an extension says nothing: the type is the server's.
pub fn image_url_not_gif_jpeg_png(v: &str) -> bool {
    image_url_extension(v).is_some_and(|ext| {
        !["gif", "jpg", "jpeg", "jpe", "jfif", "png"].iter().any(|e| ext.eq_ignore_ascii_case(e))
    })
}

/// Whether the image URL `v` names a file that is not JPEG or PNG (Apple Podcasts'
/// `itunes:image`), read as [`image_url_not_gif_jpeg_png`] reads it: `jpg`, `jpeg`, `png`.
pub fn image_url_not_jpeg_png(v: &str) -> bool {
    image_url_extension(v)
        .is_some_and(|ext| !["jpg", "jpeg", "png"].iter().any(|e| ext.eq_ignore_ascii_case(e)))
}

/// The extension of the last path segment of URL `v` (query and fragment left out), when it
/// has one of one to five letters or digits.
fn image_url_extension(v: &str) -> Option<&str> {
    let v = v.trim();
    let path = v.split(['?', '#']).next().unwrap_or("");
    let path =
        path.split_once("://").map_or(path, |(_, rest)| rest.split_once('/').map_or("", |p| p.1));
    let last = path.rsplit('/').next().unwrap_or("");
    let (_, ext) = last.rsplit_once('.')?;
    let ok = !ext.is_empty() && ext.len() <= 5 && ext.bytes().all(|b| b.is_ascii_alphanumeric());
    ok.then_some(ext)
}

/// Whether `value` (trimmed) is an IRI reference as far as its characters go (RFC 3987
/// `IRI-reference`; RFC 4287 §4.2.5, §4.2.7.1, §4.2.8): not empty, no space, control or
/// character RFC 3986 leaves out of URIs (`<>"{}|\^` and the backquote), and `%` only in a
/// percent-escape (`%` and two hexadecimal digits). Relative references pass.
pub fn is_iri_reference(value: &str) -> bool {
    let v = value.trim();
    let b = v.as_bytes();
    !v.is_empty()
        && !v.chars().any(|c| {
            c.is_control()
                || matches!(c, ' ' | '<' | '>' | '"' | '{' | '}' | '|' | '\\' | '^' | '`')
        })
        && b.iter().enumerate().all(|(i, &c)| {
            c != b'%' || b.get(i + 1..i + 3).is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit))
        })
}

/// Whether `value` (trimmed) is an absolute IRI (RFC 4287 §4.2.6: an `atom:id`'s content): an
/// IRI reference ([`is_iri_reference`]) with a scheme, and for `http`, `https` and `ftp` an
/// authority (`http:foo` is no full URL, as the Feed Validator's check has it).
pub fn is_absolute_iri(value: &str) -> bool {
    let v = value.trim();
    let Some(s) = scheme(v) else { return false };
    let hierarchical = ["http", "https", "ftp"].iter().any(|h| h.eq_ignore_ascii_case(s));
    // An IRI's host may hold any non-ASCII characters (RFC 3987 `iunreserved`).
    let rest = &v[s.len() + 1..];
    let authority = || {
        if rest.is_ascii() {
            has_authority(rest)
        } else {
            let ascii: String = rest.chars().map(|c| if c.is_ascii() { c } else { 'a' }).collect();
            has_authority(&ascii)
        }
    };
    is_iri_reference(v) && (!hierarchical || authority())
}
