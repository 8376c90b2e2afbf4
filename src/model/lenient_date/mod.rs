//! Opt-in lenient date fallback for re-processing real archives.
//!
//! Owns [`parse_lenient`] and [`LenientDate`]. This is **not** part of the spec: the spec's
//! parsers are the strict ones in [`super::date`]; callers use this only when those return
//! `None` and they prefer a best-effort instant to none.
//!
//! Invariants:
//! - Never guesses: a form whose reading is ambiguous (`03/04/2024`, `24-01-15`), an unknown
//!   word, an unknown or ambiguous zone abbreviation (`IST`, `BST`, `AT`), an out-of-range field
//!   (`Feb 30`, `25:00`, `+25:00`) or text left over after the date gives `None`. Numeric
//!   day/month orders are read only when the values decide them: `15/01/2024` and
//!   `01/15/2024` are read, `03/04/2024` is not (US and European feeds write the same digits
//!   for different days); two-digit years are never read in numeric dates (`15/01/24` could be
//!   `YY/MM/DD`). Dots are day-first everywhere they are used (`01.02.2024` is 1 February).
//! - Input the strict parsers accept is returned exactly as they parse it (form `"rfc3339"`,
//!   `"rfc822"`, `"w3cdtf"`), after trimming surrounding whitespace (and U+200B, U+FEFF) —
//!   except all-digit strings: only `YYYY` keeps its W3C-DTF reading; 10 or 13 digits in the
//!   Unix-time range (1990–2100) are Unix seconds or milliseconds (W3C-DTF would read
//!   `1705314030` as a far-future year; `1705314030.5` is read too); 7, 8 and 14 digits are
//!   ISO 8601 basic dates (`YYYYDDD`, `YYYYMMDD`, `YYYYMMDDhhmmss`) with a year in
//!   1900–2099; any other all-digit string gives `None`.
//! - No zone in the input ⇒ UTC is assumed and `zone_assumed` is set — except Korean forms
//!   (`년`/`월`/`일`, `오전`/`오후`), where Korea's zone (+09:00, no daylight saving since 1988)
//!   is assumed, as feedparser does; `zone_assumed` is set there too.
//! - The US zones without a season (`ET`, `CT`, `MT`, `PT`) take standard or daylight time from
//!   the US rules of the date (1987 onwards); an earlier year, the skipped hour and the
//!   repeated hour give `None`.
//! - Bounded work: one left-to-right pass over the text, at most 32 tokens and 32 words
//!   (weekday names and filler words count, though they give no token); no
//!   heap allocation, no regex; all arithmetic checked (via [`super::date`]).
//!
//! Layout: this file holds the API and the all-digit forms (Unix time, ISO 8601 basic and
//! week dates); `tokens` splits any other text into tokens (with the month, weekday, zone and
//! filler tables), `interpret` decides the form a token list is and its instant.
use super::date::{self, Timestamp};
mod instant;
mod interpret;
#[cfg(test)]
mod tests;
mod tokens;

use instant::{instant, num};
pub use instant::{LenientDate, LenientForm};
use interpret::interpret;
use tokens::{tokenize, Tok, Tokens, MAX_TOKENS};

/// Unix timestamps are only recognized in [1990-01-01, 2100-01-01).
const UNIX_MIN: i64 = 631_152_000;
const UNIX_MAX: i64 = 4_102_444_800;

/// Years accepted in all-digit calendar forms (`YYYYMMDD`, …), where a digit string could
/// also be an identifier.
const DIGIT_YEARS: std::ops::Range<i64> = 1900..2100;

/// Best-effort parse of a date string in one of the non-standard forms real feeds use.
/// Returns `None` rather than guess (see the module invariants).
pub fn parse_lenient(s: &str) -> Option<LenientDate> {
    let mut d = read(s)?;
    if d.zone_assumed {
        // The offset was not written: the value's offset is none.
        d.timestamp = d.timestamp.with_offset_minutes(None);
    }
    Some(d)
}

/// [`parse_lenient`] before the offset of an assumed zone is dropped.
fn read(s: &str) -> Option<LenientDate> {
    let s = s.trim_matches(|c: char| c.is_whitespace() || c == '\u{200B}' || c == '\u{FEFF}');
    let strict = |timestamp, form| Some(LenientDate { timestamp, zone_assumed: false, form });
    let b = s.as_bytes();
    if !b.is_empty() && b.iter().all(u8::is_ascii_digit) {
        return all_digits(s);
    }
    if let Some((int, frac)) = s.split_once('.') {
        // Unix seconds with a fraction, as `time.time()` prints them: `1705314030.5`.
        let digits = |d: &str| !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit());
        if int.len() == 10 && digits(int) && digits(frac) {
            let v = num(int.as_bytes());
            (UNIX_MIN..UNIX_MAX).contains(&v).then_some(())?;
            return strict(Timestamp::with_fraction(v, frac)?, LenientForm::UnixSeconds);
        }
    }
    if let Some(t) = date::parse_rfc3339(s) {
        return strict(t, LenientForm::Rfc3339);
    }
    if let Some(t) = date::parse_rfc822(s) {
        return strict(t, LenientForm::Rfc822);
    }
    if let Some(t) = date::parse_w3cdtf(s) {
        return strict(t, LenientForm::W3cDtf);
    }
    if let Some(d) = week_or_ordinal(b) {
        return Some(d);
    }
    let mut toks =
        Tokens { buf: [Tok::Sep(0); MAX_TOKENS], len: 0, korean: false, cjk: 0, annotated: false };
    tokenize(s, &mut toks)?;
    interpret(&toks)
}

/// An all-digit string (see the module invariants).
fn all_digits(s: &str) -> Option<LenientDate> {
    let b = s.as_bytes();
    let at = |timestamp, form| Some(LenientDate { timestamp, zone_assumed: false, form });
    let local = |timestamp, form| Some(LenientDate { timestamp, zone_assumed: true, form });
    let year = || Some(num(&b[..4])).filter(|y| DIGIT_YEARS.contains(y));
    match b.len() {
        4 => at(date::parse_w3cdtf(s)?, LenientForm::W3cDtf),
        7 => local(ordinal(year()?, num(&b[4..]))?, LenientForm::IsoOrdinal),
        8 => {
            let t = instant(year()?, num(&b[4..6]), num(&b[6..]), (0, 0, 0, ""), 0, false)?;
            local(t, LenientForm::IsoBasic)
        }
        10 => {
            let v = num(b);
            (UNIX_MIN..UNIX_MAX).contains(&v).then_some(())?;
            at(Timestamp::from_unix(v)?, LenientForm::UnixSeconds)
        }
        13 => {
            let v = num(&b[..10]);
            (UNIX_MIN..UNIX_MAX).contains(&v).then_some(())?;
            at(Timestamp::with_fraction(v, &s[10..])?, LenientForm::UnixMillis)
        }
        14 => {
            let (h, mi, sec) =
                (num(&b[8..10]) as u32, num(&b[10..12]) as u32, num(&b[12..]) as u32);
            let t = instant(year()?, num(&b[4..6]), num(&b[6..8]), (h, mi, sec, ""), 0, false)?;
            local(t, LenientForm::IsoBasic)
        }
        _ => None,
    }
}

/// Day `ddd` (1-based) of year `y`.
fn ordinal(y: i64, ddd: i64) -> Option<Timestamp> {
    let len = if date::is_leap(y) { 366 } else { 365 };
    if !(1..=len).contains(&ddd) {
        return None;
    }
    let days = date::days_from_civil(y, 1, 1)? + ddd - 1;
    Timestamp::from_unix(days.checked_mul(86_400)?)
}

/// Days since 1970-01-01 of the Monday of ISO week 1 of `y` (the week with 4 January).
fn iso_week1(y: i64) -> Option<i64> {
    let jan4 = date::days_from_civil(y, 1, 4)?;
    Some(jan4 - (jan4 + 3).rem_euclid(7)) // 1970-01-01 was a Thursday: Monday = 0
}

/// ISO 8601 week and ordinal dates: `YYYY-Www-D`, `YYYYWwwD`, `YYYY-DDD` (date only).
fn week_or_ordinal(b: &[u8]) -> Option<LenientDate> {
    let digits = |r: std::ops::Range<usize>| {
        let d = b.get(r)?;
        d.iter().all(u8::is_ascii_digit).then(|| num(d))
    };
    let y = digits(0..4)?;
    let is_w = |i: usize| matches!(b.get(i), Some(b'W' | b'w'));
    let (w, d) = match b.len() {
        8 if b[4] == b'-' => {
            let t = ordinal(y, digits(5..8)?)?;
            return Some(LenientDate {
                timestamp: t,
                zone_assumed: true,
                form: LenientForm::IsoOrdinal,
            });
        }
        10 if b[4] == b'-' && is_w(5) && b[8] == b'-' => (digits(6..8)?, digits(9..10)?),
        8 if is_w(4) => (digits(5..7)?, digits(7..8)?),
        _ => return None,
    };
    if !(1..=7).contains(&d) || w < 1 {
        return None;
    }
    let day = iso_week1(y)? + (w - 1) * 7 + d - 1;
    if day >= iso_week1(y + 1)? {
        return None; // week 53 of a 52-week year
    }
    let timestamp = Timestamp::from_unix(day.checked_mul(86_400)?)?;
    Some(LenientDate { timestamp, zone_assumed: true, form: LenientForm::IsoWeek })
}
