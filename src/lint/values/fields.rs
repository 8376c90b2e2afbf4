//! E-mail addresses (§3.3), language codes (§4.1.1.10), MIME types, form component names,
//! PICS labels, category paths, the RSS docs URL and integers.

use super::date::all_digits;
use super::url::{check_url, scheme, UrlCheck};

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

/// An RFC 2822 `addr-spec` as feeds write it: `local@domain.tld` (dot-atoms).
pub fn is_addr_spec(s: &str) -> bool {
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

/// ISO 639-1 codes (the two-letter codes HTML permits; RSS language codes are these with a
/// region, e.g. `en-us`).
pub(super) const ISO639_1: &str =
    "aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca \
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
