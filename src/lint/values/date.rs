//! RFC 822 dates (Profile §3.2), on the model's calendar.

use crate::model::date;

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

pub(super) const DAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
pub(super) const MONTHS: [&str; 12] =
    ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

pub fn all_digits(s: &str) -> bool {
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
    if day == 0 || day > date::days_in_month(year, month) {
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
    let Some(days) = date::days_from_civil(year, month, day) else {
        return DateCheck::Invalid;
    };
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
pub(super) fn zone_offset(z: &str) -> Option<(i64, bool)> {
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

/// Whether `value` (trimmed) is an RFC 3339 `date-time` as Atom's Date constructs require it
/// (RFC 4287 §3.3): the model's reading ([`date::parse_rfc3339`]: four-digit year, seconds,
/// a real calendar date and time, `Z` or a numeric offset), with §3.3's restrictions: `T` and
/// `Z` upper case, and the offset written `±HH:MM` (RFC 3339's `time-numoffset`).
pub fn is_rfc3339(value: &str) -> bool {
    let v = value.trim();
    let b = v.as_bytes();
    let zone_ok = match b.last() {
        Some(b'Z') => true,
        _ => b.len() >= 6 && matches!(b[b.len() - 6], b'+' | b'-') && b[b.len() - 3] == b':',
    };
    zone_ok && b.get(10) == Some(&b'T') && date::parse_rfc3339(v).is_some()
}
