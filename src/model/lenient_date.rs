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
//! - Bounded work: one left-to-right pass over the text, at most 32 tokens; no
//!   heap allocation, no regex; all arithmetic checked (via [`super::date`]).
use super::date::{self, Timestamp};

/// A date recognized by [`parse_lenient`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct LenientDate {
    /// The instant read, in UTC (JSONL `value`, RFC 3339 with `Z`).
    pub timestamp: Timestamp,
    /// The input had no zone: UTC (Korean forms: +09:00) was assumed, so the instant is
    /// uncertain by up to ±14 h.
    pub zone_assumed: bool,
    /// The form that was recognized (its name, [`LenientForm::as_str`], is written in records).
    pub form: LenientForm,
}

/// The date forms [`parse_lenient`] recognizes; each is written by its short name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LenientForm {
    /// `rfc3339`: the spec's RFC 3339 parser read it.
    Rfc3339,
    /// `rfc822`: the spec's RFC 822 parser read it.
    Rfc822,
    /// `w3cdtf`: the spec's W3C-DTF parser read it.
    W3cDtf,
    /// `unix-seconds`: 10 digits (optionally `.F`), 1990–2100.
    UnixSeconds,
    /// `unix-millis`: 13 digits, 1990–2100.
    UnixMillis,
    /// `iso-basic`: all digits, `YYYYMMDD` or `YYYYMMDDhhmmss`.
    IsoBasic,
    /// `iso-date`: `Y-M-D` (or `YYYYMMDD` before a time), `T` or space, optional time
    /// (`H:MM[:SS[.F]]`, `HH`, `HHMM`, `HHMMSS`; `24:00:00` is the next midnight) and zone.
    IsoDate,
    /// `iso-week`: `2024-W03-1`, `2024W031`.
    IsoWeek,
    /// `iso-ordinal`: `2024-015`, `2024015`.
    IsoOrdinal,
    /// `ymd-slash`: `2024/01/15`.
    YmdSlash,
    /// `ymd-dot`: `2024.01.15`.
    YmdDot,
    /// `dmy-dot`: `15.01.2024`.
    DmyDot,
    /// `dmy-numeric`: `15/01/2024`, `15-01-2024` (only when the first number is above 12).
    DmyNumeric,
    /// `mdy-numeric`: `01/15/2024` (only when the second number is above 12).
    MdyNumeric,
    /// `us-month-name`: `Jan 15, 2024`.
    UsMonthName,
    /// `day-month-name`: `15 January 2024`, RFC 822 variants.
    DayMonthName,
    /// `year-month-name`: `2024-Jan-15`, `2004-július-13T9:15-05:00`.
    YearMonthName,
    /// `ctime`: `Sun Aug 17 16:51:14 UTC 2008`.
    Ctime,
    /// `cjk-ymd`: `2024年1月15日`, `2004년 05월 28일 01:31:15`.
    CjkYmd,
}

impl LenientForm {
    /// The form's short name, as written in records (`us-month-name`, `iso-week`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            LenientForm::Rfc3339 => "rfc3339",
            LenientForm::Rfc822 => "rfc822",
            LenientForm::W3cDtf => "w3cdtf",
            LenientForm::UnixSeconds => "unix-seconds",
            LenientForm::UnixMillis => "unix-millis",
            LenientForm::IsoBasic => "iso-basic",
            LenientForm::IsoDate => "iso-date",
            LenientForm::IsoWeek => "iso-week",
            LenientForm::IsoOrdinal => "iso-ordinal",
            LenientForm::YmdSlash => "ymd-slash",
            LenientForm::YmdDot => "ymd-dot",
            LenientForm::DmyDot => "dmy-dot",
            LenientForm::DmyNumeric => "dmy-numeric",
            LenientForm::MdyNumeric => "mdy-numeric",
            LenientForm::UsMonthName => "us-month-name",
            LenientForm::DayMonthName => "day-month-name",
            LenientForm::YearMonthName => "year-month-name",
            LenientForm::Ctime => "ctime",
            LenientForm::CjkYmd => "cjk-ymd",
        }
    }
}

impl std::fmt::Display for LenientForm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Compares by short name (`form == "rfc822"`).
impl PartialEq<&str> for LenientForm {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// Unix timestamps are only recognized in [1990-01-01, 2100-01-01).
const UNIX_MIN: i64 = 631_152_000;
const UNIX_MAX: i64 = 4_102_444_800;

/// Years accepted in all-digit calendar forms (`YYYYMMDD`, …), where a digit string could
/// also be an identifier.
const DIGIT_YEARS: std::ops::Range<i64> = 1900..2100;

/// Best-effort parse of a date string in one of the non-standard forms real feeds use.
/// Returns `None` rather than guess (see the module invariants).
pub fn parse_lenient(s: &str) -> Option<LenientDate> {
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

/// Hours, minutes, seconds, fraction digits.
type Time<'a> = (u32, u32, u32, &'a str);

/// The instant of a civil date and time at `off` seconds east of UTC; `None` unless every
/// field is in range. `24:00:00` (`allow_24`) is midnight at the end of the day.
fn instant(y: i64, mo: i64, d: i64, t: Time<'_>, off: i64, allow_24: bool) -> Option<Timestamp> {
    let (h, mi, s, frac) = t;
    let end_of_day = allow_24 && h == 24 && mi == 0 && s == 0 && frac.bytes().all(|c| c == b'0');
    if !(1..=12).contains(&mo) || d < 1 || d > date::days_in_month(y, mo as u32) as i64 {
        return None;
    }
    if (h > 23 && !end_of_day) || mi > 59 || s > 59 {
        return None;
    }
    let days = date::days_from_civil(y, mo as u32, d as u32)?;
    let secs = days.checked_mul(86_400)?.checked_add((h * 3600 + mi * 60 + s) as i64)?;
    Timestamp::with_fraction(secs.checked_sub(off)?, frac)
}

/// Value of the ASCII digits `b` (at most 18 of them, checked by callers).
fn num(b: &[u8]) -> i64 {
    b.iter().fold(0, |v, &c| v * 10 + (c - b'0') as i64)
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
            at(Timestamp::from_unix(v), LenientForm::UnixSeconds)
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
    Some(Timestamp::from_unix(days.checked_mul(86_400)?))
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
    let timestamp = Timestamp::from_unix(day.checked_mul(86_400)?);
    Some(LenientDate { timestamp, zone_assumed: true, form: LenientForm::IsoWeek })
}

// ---------------------------------------------------------------------------------------------
// Tokens

/// Most tokens a date can have; longer token lists give `None`.
const MAX_TOKENS: usize = 32;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ZoneKind {
    /// `±HH[:MM]`, `±HHMM`.
    Numeric,
    /// A fixed abbreviation (`EST`, `CET`, `UTC`).
    Named,
    /// `ET`/`CT`/`MT`/`PT`: the offset is standard time; daylight time follows the US rules.
    UsGeneric,
}

#[derive(Clone, Copy, Debug)]
enum Tok<'a> {
    /// A digit run (value, digit count).
    Num(i64, usize),
    /// A month name (1–12); `weekday` if the word is also a weekday abbreviation (`mar`).
    Month { m: u32, weekday: bool },
    /// `H:MM[:SS[.F]]` (or a basic `HH[MM[SS[.F]]]` after `T`).
    Time(Time<'a>),
    /// A zone: seconds east of UTC.
    Zone { off: i64, kind: ZoneKind },
    /// AM (`false`) or PM (`true`).
    Meridiem(bool),
    /// `-`, `/`, `.` (commas are dropped).
    Sep(u8),
}

struct Tokens<'a> {
    buf: [Tok<'a>; MAX_TOKENS],
    len: usize,
    /// Korean date words were seen: the default zone is +09:00.
    korean: bool,
    /// `年`/`月`/`日` markers seen in order (0 none … 3 all).
    cjk: u8,
    /// An RFC 9557 `[…]` annotation was skipped.
    annotated: bool,
}

impl<'a> Tokens<'a> {
    fn push(&mut self, t: Tok<'a>) -> Option<()> {
        *self.buf.get_mut(self.len)? = t;
        self.len += 1;
        Some(())
    }
    fn as_slice(&self) -> &[Tok<'a>] {
        &self.buf[..self.len]
    }
}

/// Splits `s` into tokens, dropping whitespace, commas, parenthesised comments, `[…]`
/// annotations, filler words and weekday names. `None` on an unknown word or character, or
/// too many tokens.
fn tokenize<'a>(s: &'a str, out: &mut Tokens<'a>) -> Option<()> {
    let b = s.as_bytes();
    let mut i = 0;
    let mut seen_time = false;
    let mut first_word = true;
    // The previous token was a `T` between digits (`…15T1345…`).
    let mut after_t = false;
    while i < b.len() {
        let c = b[i];
        let t_sep = std::mem::replace(&mut after_t, false);
        match c {
            b' ' | b'\t' | b'\r' | b'\n' | b',' => i += 1,
            b'(' => {
                let mut depth = 0usize;
                loop {
                    match *b.get(i)? {
                        b'(' => depth += 1,
                        b')' => depth -= 1,
                        _ => {}
                    }
                    i += 1;
                    if depth == 0 {
                        break;
                    }
                }
            }
            b'[' => {
                // RFC 9557 `[Europe/Paris]`: the offset before it decides (checked later).
                i += b[i..].iter().position(|&c| c == b']')? + 1;
                out.annotated = true;
            }
            b'0'..=b'9' => {
                let (run, v) = digits(b, &mut i)?;
                let colon_digit = |i: usize| {
                    b.get(i) == Some(&b':') && b.get(i + 1).is_some_and(u8::is_ascii_digit)
                };
                if colon_digit(i) {
                    // A time: H:MM[:SS[.F]].
                    i += 1;
                    let (mr, m) = digits(b, &mut i)?;
                    let (mut sec, mut frac) = (0, "");
                    if colon_digit(i) {
                        i += 1;
                        let (sr, sv) = digits(b, &mut i)?;
                        if sr.len() != 2 {
                            return None;
                        }
                        sec = sv;
                        frac = fraction(s, &mut i);
                    }
                    if run.len() > 2 || mr.len() != 2 {
                        return None;
                    }
                    out.push(Tok::Time((v as u32, m as u32, sec as u32, frac)))?;
                    seen_time = true;
                } else if t_sep && matches!(run.len(), 2 | 4 | 6) && !seen_time {
                    // ISO 8601 after `T`: `T13`, `T1345`, `T134500[.F]`.
                    let p = |k: usize| run.get(k..k + 2).map_or(0, |d| num(d) as u32);
                    let frac = if run.len() == 6 { fraction(s, &mut i) } else { "" };
                    out.push(Tok::Time((p(0), p(2), p(4), frac)))?;
                    seen_time = true;
                } else if run.len() == 8 && out.len == 0 {
                    // ISO 8601 basic date `YYYYMMDD` (then `T` or a time).
                    out.push(Tok::Num(v / 10_000, 4))?;
                    out.push(Tok::Sep(b'-'))?;
                    out.push(Tok::Num(v / 100 % 100, 2))?;
                    out.push(Tok::Sep(b'-'))?;
                    out.push(Tok::Num(v % 100, 2))?;
                } else {
                    out.push(Tok::Num(v, run.len()))?;
                    // Ordinal suffixes: 1st, 2nd, 3rd, 15th, 1er, 1º.
                    let rest = &s[i..];
                    for suf in ["st", "nd", "rd", "th", "er", "º", "°"] {
                        let n = suf.len();
                        if rest.len() >= n
                            && rest.as_bytes()[..n].eq_ignore_ascii_case(suf.as_bytes())
                            && !rest[n..].starts_with(|c: char| c.is_alphabetic())
                        {
                            i += n;
                            break;
                        }
                    }
                }
            }
            b'+' | b'-' if seen_time => {
                i += 1;
                let (run, v) = digits(b, &mut i)?;
                let (h, m) = match run.len() {
                    1 | 2 if b.get(i) == Some(&b':') => {
                        i += 1;
                        let (mr, m) = digits(b, &mut i)?;
                        if mr.len() != 2 {
                            return None;
                        }
                        (v, m)
                    }
                    1 | 2 => (v, 0),
                    4 => (v / 100, v % 100),
                    _ => return None,
                };
                if h > 23 || m > 59 {
                    return None;
                }
                let off = (h * 3600 + m * 60) * if c == b'-' { -1 } else { 1 };
                out.push(Tok::Zone { off, kind: ZoneKind::Numeric })?;
            }
            b'-' | b'/' | b'.' => {
                out.push(Tok::Sep(c))?;
                i += 1;
            }
            _ if s[i..].starts_with(char::is_whitespace) => {
                i += s[i..].chars().next().map_or(1, char::len_utf8); // `&nbsp;` and friends
            }
            _ => {
                // A word: a run of alphabetic characters (any script), then an optional '.'.
                let start = i;
                let word = word_at(s, &mut i)?;
                let dotted = b.get(i) == Some(&b'.');
                if dotted {
                    i += 1;
                }
                let was_first = std::mem::replace(&mut first_word, false);
                if let Some(m) = lookup(word, MONTHS) {
                    let weekday = lookup(word, WEEKDAYS).is_some();
                    out.push(Tok::Month { m, weekday })?;
                } else if let Some((unit, korean)) = lookup(word, CJK_UNITS) {
                    // 2024年1月15日: the markers follow their numbers, in this order.
                    let follows_num = matches!(out.as_slice().last(), Some(Tok::Num(..)));
                    if !follows_num || out.cjk != unit - 1 || dotted {
                        return None;
                    }
                    out.cjk = unit;
                    out.korean |= korean;
                    if unit < 3 {
                        out.push(Tok::Sep(b'-'))?;
                    }
                } else if lookup(word, WEEKDAYS).is_some() {
                } else if let Some(before_time) = lookup(word, FILLERS) {
                    if before_time && seen_time {
                        return None; // `16:31 AT` is not `at 16:31`
                    }
                    let t = word.eq_ignore_ascii_case("t") && !dotted;
                    after_t = t
                        && start > 0
                        && b[start - 1].is_ascii_digit()
                        && b.get(i).is_some_and(u8::is_ascii_digit);
                } else if let Some(pm) = meridiem(word, b, &mut i) {
                    out.korean |= word.starts_with(['오']);
                    out.push(Tok::Meridiem(pm))?;
                } else if let Some(off) = lookup(word, ZONES) {
                    out.push(Tok::Zone { off: off as i64 * 60, kind: ZoneKind::Named })?;
                } else if let Some(off) = lookup(word, US_GENERIC_ZONES) {
                    out.push(Tok::Zone { off: off as i64 * 60, kind: ZoneKind::UsGeneric })?;
                } else if word.eq_ignore_ascii_case("etc") && !dotted && b.get(i) == Some(&b'/') {
                    // `Etc/GMT`, `Etc/UTC` (not `Etc/GMT+5`, whose sign is inverted).
                    i += 1;
                    lookup(word_at(s, &mut i)?, ETC_ZONES)?;
                    if matches!(b.get(i), Some(b'+' | b'-')) {
                        return None;
                    }
                    out.push(Tok::Zone { off: 0, kind: ZoneKind::Named })?;
                } else if was_first && b.get(i) == Some(&b',') && !dotted {
                    // `Xyz, 20 …`: a leading word with a comma is a weekday, whatever it says.
                } else {
                    return None;
                }
            }
        }
    }
    Some(())
}

/// The alphabetic run at `*i` (any script; at least one character).
fn word_at<'a>(s: &'a str, i: &mut usize) -> Option<&'a str> {
    let start = *i;
    let len: usize = s[start..].chars().take_while(|c| c.is_alphabetic()).map(char::len_utf8).sum();
    if len == 0 {
        return None;
    }
    *i += len;
    Some(&s[start..*i])
}

/// Optional fractional seconds at `*i`: `.` or `,` then digits (`""` if none).
fn fraction<'a>(s: &'a str, i: &mut usize) -> &'a str {
    let b = s.as_bytes();
    if !matches!(b.get(*i), Some(b'.' | b',')) || !b.get(*i + 1).is_some_and(u8::is_ascii_digit) {
        return "";
    }
    let start = *i + 1;
    let mut j = start;
    while b.get(j).is_some_and(u8::is_ascii_digit) {
        j += 1;
    }
    *i = j;
    &s[start..j]
}

/// A digit run at `*i` (at least one digit; value must fit an i64).
fn digits<'b>(b: &'b [u8], i: &mut usize) -> Option<(&'b [u8], i64)> {
    let start = *i;
    while b.get(*i).is_some_and(u8::is_ascii_digit) {
        *i += 1;
    }
    let run = &b[start..*i];
    if run.is_empty() {
        return None;
    }
    let mut v = 0i64;
    for &c in run {
        v = v.checked_mul(10)?.checked_add((c - b'0') as i64)?;
    }
    Some((run, v))
}

/// `am`/`pm`, also `a.m.`/`p.m.` (the dot after `a`/`p` has already been consumed), and the
/// Korean, Japanese and Chinese words (`오전`/`오후`, `午前`/`午後`, `上午`/`下午`).
fn meridiem(word: &str, b: &[u8], i: &mut usize) -> Option<bool> {
    match word {
        "오전" | "午前" | "上午" => return Some(false),
        "오후" | "午後" | "下午" => return Some(true),
        _ => {}
    }
    if word.eq_ignore_ascii_case("am") {
        return Some(false);
    }
    if word.eq_ignore_ascii_case("pm") {
        return Some(true);
    }
    let pm = match word {
        "a" | "A" => false,
        "p" | "P" => true,
        _ => return None,
    };
    // `a.m.`: previous '.' consumed with the word; expect `m` and an optional '.'.
    if b.get(*i).is_some_and(|c| c.eq_ignore_ascii_case(&b'm')) && b[*i - 1] == b'.' {
        *i += 1;
        if b.get(*i) == Some(&b'.') {
            *i += 1;
        }
        return Some(pm);
    }
    None
}

/// Unicode-lowercase comparison of `word` with the lowercase `name`, without allocating.
fn eq_lower(word: &str, name: &str) -> bool {
    word.chars().flat_map(char::to_lowercase).eq(name.chars())
}

fn lookup<T: Copy>(word: &str, table: &[(&str, T)]) -> Option<T> {
    table.iter().find(|(n, _)| eq_lower(word, n)).map(|&(_, v)| v)
}

/// Month names and abbreviations: English, German, French, Spanish, Italian, Portuguese,
/// Dutch, Swedish/Danish/Norwegian, Indonesian, Hungarian, Polish, Turkish, Russian and Greek
/// (with common unaccented spellings). No entry is a name of two different months, and names
/// that are one month in a language and another in a neighbour's are left out (Polish
/// `listopad(a)` is November, Croatian October).
#[rustfmt::skip]
const MONTHS: &[(&str, u32)] = &[
    ("january", 1), ("jan", 1), ("januar", 1), ("jänner", 1), ("janvier", 1), ("janv", 1),
    ("enero", 1), ("ene", 1), ("gennaio", 1), ("gen", 1), ("janeiro", 1), ("januari", 1),
    ("január", 1), ("stycznia", 1), ("styczeń", 1), ("sty", 1), ("ocak", 1),
    ("января", 1), ("январь", 1), ("янв", 1), ("ιαν", 1), ("ιανουαρίου", 1),
    ("february", 2), ("feb", 2), ("febr", 2), ("februar", 2), ("février", 2), ("fevrier", 2),
    ("févr", 2), ("fevr", 2), ("fév", 2), ("fev", 2), ("febrero", 2), ("febbraio", 2),
    ("fevereiro", 2), ("februari", 2), ("febuary", 2), ("feburary", 2), ("február", 2),
    ("lutego", 2), ("luty", 2), ("lut", 2),
    ("şubat", 2), ("subat", 2), ("февраля", 2), ("февраль", 2), ("фев", 2), ("февр", 2),
    ("φεβ", 2), ("φεβρουαρίου", 2),
    ("march", 3), ("mar", 3), ("märz", 3), ("maerz", 3), ("marz", 3), ("mär", 3), ("mrz", 3),
    ("mars", 3), ("marzo", 3), ("março", 3), ("marco", 3), ("maart", 3), ("mrt", 3),
    ("marts", 3), ("maret", 3), ("március", 3), ("márc", 3), ("marca", 3), ("marzec", 3),
    ("mart", 3), ("марта", 3), ("март", 3), ("мар", 3), ("μάρ", 3), ("μαρ", 3),
    ("μαρτίου", 3),
    ("april", 4), ("apr", 4), ("avril", 4), ("avr", 4), ("abril", 4), ("abr", 4),
    ("aprile", 4), ("április", 4), ("ápr", 4), ("kwietnia", 4), ("kwiecień", 4), ("kwi", 4),
    ("nisan", 4), ("апреля", 4), ("апрель", 4), ("апр", 4), ("απρ", 4), ("απριλίου", 4),
    ("may", 5), ("mai", 5), ("mayo", 5), ("maggio", 5), ("mag", 5), ("maio", 5), ("mei", 5),
    ("maj", 5), ("május", 5), ("máj", 5), ("maja", 5), ("mayıs", 5), ("mayis", 5),
    ("мая", 5), ("май", 5), ("μάι", 5), ("μαι", 5), ("μαϊ", 5), ("μαΐου", 5), ("μαιου", 5),
    ("june", 6), ("jun", 6), ("juni", 6), ("juin", 6), ("junio", 6), ("giugno", 6),
    ("giu", 6), ("junho", 6), ("június", 6), ("jún", 6), ("czerwca", 6), ("czerwiec", 6),
    ("cze", 6), ("haziran", 6), ("июня", 6), ("июнь", 6), ("июн", 6), ("ιούν", 6),
    ("ιουν", 6), ("ιον", 6), ("ιουνίου", 6),
    ("july", 7), ("jul", 7), ("juli", 7), ("juillet", 7), ("juil", 7), ("julio", 7),
    ("luglio", 7), ("lug", 7), ("julho", 7), ("július", 7), ("júl", 7), ("lipca", 7),
    ("lipiec", 7), ("lip", 7), ("temmuz", 7), ("июля", 7), ("июль", 7), ("июл", 7),
    ("ιούλ", 7), ("ιουλ", 7), ("ιολ", 7), ("ιουλίου", 7),
    ("august", 8), ("aug", 8), ("août", 8), ("aout", 8), ("agosto", 8), ("ago", 8),
    ("augustus", 8), ("augusti", 8), ("agustus", 8), ("augusztus", 8), ("sierpnia", 8),
    ("sierpień", 8), ("sie", 8), ("ağustos", 8), ("agustos", 8), ("августа", 8),
    ("август", 8), ("авг", 8), ("αύγ", 8), ("αυγ", 8), ("αυγούστου", 8),
    ("september", 9), ("sep", 9), ("sept", 9), ("septembre", 9), ("septiembre", 9),
    ("setiembre", 9), ("settembre", 9), ("set", 9), ("setembro", 9), ("szeptember", 9),
    ("szept", 9), ("września", 9), ("wrzesień", 9), ("wrz", 9), ("eylül", 9), ("eylul", 9),
    ("сентября", 9), ("сентябрь", 9), ("сен", 9), ("сент", 9), ("σεπ", 9),
    ("σεπτεμβρίου", 9),
    ("october", 10), ("oct", 10), ("oktober", 10), ("okt", 10), ("octobre", 10),
    ("octubre", 10), ("ottobre", 10), ("ott", 10), ("outubro", 10), ("out", 10),
    ("október", 10), ("października", 10), ("październik", 10), ("paź", 10), ("ekim", 10),
    ("октября", 10), ("октябрь", 10), ("окт", 10), ("οκτ", 10), ("οκτωβρίου", 10),
    ("november", 11), ("nov", 11), ("novembre", 11), ("noviembre", 11), ("novembro", 11),
    ("kasım", 11), ("kasim", 11), ("ноября", 11), ("ноябрь", 11), ("ноя", 11), ("нояб", 11),
    ("νοέ", 11), ("νοε", 11), ("νοεμβρίου", 11),
    ("december", 12), ("dec", 12), ("dezember", 12), ("dez", 12), ("décembre", 12),
    ("decembre", 12), ("déc", 12), ("diciembre", 12), ("dic", 12), ("dicembre", 12),
    ("dezembro", 12), ("desember", 12), ("grudnia", 12), ("grudzień", 12), ("gru", 12),
    ("aralık", 12), ("aralik", 12), ("декабря", 12), ("декабрь", 12), ("дек", 12),
    ("δεκ", 12), ("δεκεμβρίου", 12),
];

/// Weekday names and abbreviations in the same languages (values unused: weekdays are
/// never validated).
#[rustfmt::skip]
const WEEKDAYS: &[(&str, ())] = &[
    ("monday", ()), ("mon", ()), ("tuesday", ()), ("tue", ()), ("tues", ()),
    ("wednesday", ()), ("wed", ()), ("thursday", ()), ("thu", ()), ("thur", ()),
    ("thurs", ()), ("friday", ()), ("fri", ()), ("saturday", ()), ("sat", ()),
    ("sunday", ()), ("sun", ()),
    ("montag", ()), ("mo", ()), ("dienstag", ()), ("di", ()), ("mittwoch", ()), ("mi", ()),
    ("donnerstag", ()), ("do", ()), ("freitag", ()), ("fr", ()), ("samstag", ()),
    ("sonnabend", ()), ("sa", ()), ("sonntag", ()), ("so", ()),
    ("lundi", ()), ("lun", ()), ("mardi", ()), ("mar", ()), ("mercredi", ()), ("mer", ()),
    ("jeudi", ()), ("jeu", ()), ("vendredi", ()), ("ven", ()), ("samedi", ()), ("sam", ()),
    ("dimanche", ()), ("dim", ()),
    ("lunes", ()), ("martes", ()), ("miércoles", ()), ("miercoles", ()), ("mié", ()),
    ("mie", ()), ("jueves", ()), ("jue", ()), ("viernes", ()), ("vie", ()), ("sábado", ()),
    ("sabado", ()), ("sáb", ()), ("sab", ()), ("domingo", ()), ("dom", ()),
    ("lunedì", ()), ("lunedi", ()), ("martedì", ()), ("martedi", ()), ("mercoledì", ()),
    ("mercoledi", ()), ("giovedì", ()), ("giovedi", ()), ("gio", ()), ("venerdì", ()),
    ("venerdi", ()), ("sabato", ()), ("domenica", ()),
    ("segunda", ()), ("seg", ()), ("terça", ()), ("terca", ()), ("ter", ()), ("quarta", ()),
    ("qua", ()), ("quinta", ()), ("qui", ()), ("sexta", ()), ("sex", ()),
    ("maandag", ()), ("ma", ()), ("dinsdag", ()), ("woensdag", ()), ("wo", ()),
    ("donderdag", ()), ("vrijdag", ()), ("vr", ()), ("zaterdag", ()), ("za", ()),
    ("zondag", ()), ("zo", ()),
    ("måndag", ()), ("mandag", ()), ("tisdag", ()), ("tirsdag", ()), ("onsdag", ()),
    ("torsdag", ()), ("fredag", ()), ("lördag", ()), ("lørdag", ()), ("söndag", ()),
    ("søndag", ()),
    ("hétfő", ()), ("kedd", ()), ("szerda", ()), ("csütörtök", ()), ("péntek", ()),
    ("szombat", ()), ("vasárnap", ()),
    ("poniedziałek", ()), ("wtorek", ()), ("środa", ()), ("czwartek", ()), ("piątek", ()),
    ("sobota", ()), ("niedziela", ()),
    ("pazartesi", ()), ("salı", ()), ("çarşamba", ()), ("perşembe", ()), ("cuma", ()),
    ("cumartesi", ()), ("pazar", ()),
    ("понедельник", ()), ("вторник", ()), ("среда", ()), ("четверг", ()), ("пятница", ()),
    ("суббота", ()), ("воскресенье", ()), ("пн", ()), ("вт", ()), ("ср", ()), ("чт", ()),
    ("пт", ()), ("сб", ()), ("вс", ()),
    ("κυρ", ()), ("δευ", ()), ("τρι", ()), ("τετ", ()), ("πεμ", ()), ("παρ", ()), ("σαβ", ()),
];

/// Words that carry no date information; `true`: only before the time (`at 16:31`, never
/// `16:31 AT`).
#[rustfmt::skip]
const FILLERS: &[(&str, bool)] = &[
    ("t", true), ("at", true), ("of", false), ("the", false), ("on", false), ("de", false),
    ("del", false), ("um", true), ("uhr", false), ("à", true), ("le", false), ("el", false),
    ("feira", false), ("om", true), ("alle", true), ("às", true), ("kl", true), ("г", false),
    ("года", false), ("в", true),
];

/// `年`/`월`… markers: 1 year, 2 month, 3 day; `true` for Korean.
#[rustfmt::skip]
const CJK_UNITS: &[(&str, (u8, bool))] = &[
    ("年", (1, false)), ("月", (2, false)), ("日", (3, false)),
    ("년", (1, true)), ("월", (2, true)), ("일", (3, true)),
];

/// Unambiguous zone abbreviations, minutes east of UTC. Deliberately absent (ambiguous):
/// `BST`, `IST`, `AST`, `AT`, `CST` other than US Central, etc.
#[rustfmt::skip]
const ZONES: &[(&str, i32)] = &[
    ("z", 0), ("ut", 0), ("utc", 0), ("gmt", 0),
    ("est", -300), ("edt", -240), ("cst", -360), ("cdt", -300),
    ("mst", -420), ("mdt", -360), ("pst", -480), ("pdt", -420),
    ("akst", -540), ("akdt", -480), ("hst", -600),
    ("wet", 0), ("west", 60), ("cet", 60), ("cest", 120), ("mez", 60), ("mesz", 120),
    ("eet", 120), ("eest", 180), ("msk", 180), ("jst", 540), ("kst", 540), ("hkt", 480),
    ("sgt", 480), ("aest", 600), ("aedt", 660), ("acst", 570), ("acdt", 630), ("awst", 480),
    ("nzst", 720), ("nzdt", 780),
];

/// US zones without a season: standard-time offsets in minutes (see [`us_offset`]).
const US_GENERIC_ZONES: &[(&str, i32)] = &[("et", -300), ("ct", -360), ("mt", -420), ("pt", -480)];

/// Zone names accepted after `Etc/`.
const ETC_ZONES: &[(&str, ())] =
    &[("utc", ()), ("gmt", ()), ("uct", ()), ("ut", ()), ("zulu", ()), ("universal", ())];

// ---------------------------------------------------------------------------------------------
// Interpretation

fn interpret(t: &Tokens<'_>) -> Option<LenientDate> {
    let toks = t.as_slice();
    // A leading word that is both weekday and month (`mar`) is the weekday when another month
    // name follows.
    let months = toks.iter().filter(|t| matches!(t, Tok::Month { .. })).count();
    let toks = match toks {
        [Tok::Month { weekday: true, .. }, rest @ ..] if months == 2 => rest,
        _ if months > 1 => return None,
        _ => toks,
    };

    let mut time: Option<Time<'_>> = None;
    let mut time_at = usize::MAX;
    let mut zone: Option<(i64, ZoneKind)> = None;
    let mut zone_at = 0;
    let mut meridiem = None;
    let mut month = None;
    let mut month_at = 0;
    let mut nums = [(0i64, 0usize, 0usize); 3];
    let mut n_nums = 0;
    let mut seps = [0u8; 2];
    let mut n_seps = 0;
    for (at, t) in toks.iter().enumerate() {
        match *t {
            Tok::Num(v, len) => {
                *nums.get_mut(n_nums)? = (v, len, at);
                n_nums += 1;
            }
            Tok::Month { m, .. } => (month, month_at) = (Some(m), at),
            Tok::Time(tm) => {
                if time.is_some() {
                    return None;
                }
                (time, time_at) = (Some(tm), at);
            }
            Tok::Zone { off, kind } => {
                zone_at = at;
                zone = match zone {
                    None => Some((off, kind)),
                    // `GMT GMT`, `+0000 +0000`: the same zone twice.
                    Some(z) if z == (off, kind) => Some(z),
                    // `GMT+0100`, `+0000 UTC`, `-0500 (EST)`: the numeric offset wins.
                    Some((_, k)) if k != ZoneKind::Numeric && kind == ZoneKind::Numeric => {
                        Some((off, kind))
                    }
                    Some((o, ZoneKind::Numeric)) if kind != ZoneKind::Numeric => {
                        Some((o, ZoneKind::Numeric))
                    }
                    Some(_) => return None,
                };
            }
            Tok::Meridiem(pm) => {
                // After the time, or right before it (`오후 11:23:17`, `下午 1:45`).
                let before_time = matches!(toks.get(at + 1), Some(Tok::Time(_)));
                if meridiem.is_some() || (time.is_none() && !before_time) {
                    return None;
                }
                meridiem = Some(pm);
            }
            Tok::Sep(c) => {
                if time.is_none() {
                    if let Some(slot) = seps.get_mut(n_seps) {
                        *slot = c;
                    }
                    n_seps += 1;
                } else if c != b'.' {
                    return None;
                }
            }
        }
    }
    let nums = &nums[..n_nums];

    // Date fields.
    let (y, mo, d, mut form, mut time) = match month {
        Some(mo) => {
            let (y, d, form, time) = match *nums {
                // 15 January 2024 / 20-Mar-2016 / 03 Apr 02 1500 GMT
                [(d, dl, da), (y, yl, ya)] if da < month_at && month_at < ya && dl <= 2 => {
                    (year(y, yl)?, d, LenientForm::DayMonthName, time)
                }
                [(d, dl, da), (y, yl, ya), (hm, 4, ha)]
                    if da < month_at && month_at < ya && ya < ha && dl <= 2 && time.is_none() =>
                {
                    time_at = ha;
                    (
                        year(y, yl)?,
                        d,
                        LenientForm::DayMonthName,
                        Some(((hm / 100) as u32, (hm % 100) as u32, 0, "")),
                    )
                }
                // 2024-Jan-15
                [(y, 4, ya), (d, dl, da)] if ya < month_at && month_at < da && dl <= 2 => {
                    (y, d, LenientForm::YearMonthName, time)
                }
                // Jan 15, 2024 / Sun Aug 17 16:51:14 UTC 2008
                [(d, dl, da), (y, yl, ya)] if month_at < da && da < ya && dl <= 2 => {
                    let form = if da < time_at && time_at < ya {
                        LenientForm::Ctime
                    } else {
                        LenientForm::UsMonthName
                    };
                    (year(y, yl)?, d, form, time)
                }
                _ => return None,
            };
            if form != LenientForm::Ctime && time_at < month_at.max(nums.last()?.2) {
                return None;
            }
            (y, mo as i64, d, form, time)
        }
        None => {
            let ([(a, al, _), (b, bl, _), (c, cl, ca)], 2) = (nums, n_seps) else {
                return None;
            };
            let [s1, s2] = seps;
            if s1 != s2 || *ca > time_at {
                return None;
            }
            // Google's `2003-012-31`: a 3-digit month with a leading zero.
            let bl = if *bl == 3 && *b < 100 && *al == 4 && s1 == b'-' { 2 } else { *bl };
            if bl > 2 {
                return None;
            }
            match (al, cl, s1) {
                (4, 1 | 2, b'-') => (*a, *b, *c, LenientForm::IsoDate, time),
                (4, 1 | 2, b'/') => (*a, *b, *c, LenientForm::YmdSlash, time),
                (4, 1 | 2, b'.') => (*a, *b, *c, LenientForm::YmdDot, time),
                (1 | 2, 4, b'.') => (*c, *b, *a, LenientForm::DmyDot, time),
                // 15/01/2024, 01/15/2024: the only reading where the numbers fit. 03/04/2024
                // (either way) and friends are not guessed at.
                (1 | 2, 4, b'/' | b'-') if *a > 12 && *b <= 12 => {
                    (*c, *b, *a, LenientForm::DmyNumeric, time)
                }
                (1 | 2, 4, b'/' | b'-') if *b > 12 && *a <= 12 => {
                    (*c, *a, *b, LenientForm::MdyNumeric, time)
                }
                _ => return None,
            }
        }
    };
    if t.cjk != 0 {
        if t.cjk != 3 || form != LenientForm::IsoDate {
            return None;
        }
        form = LenientForm::CjkYmd;
    }

    // A zone needs a time before it (`Jan 15, 2024 EST` is not guessed at).
    if zone.is_some() && (time.is_none() || zone_at < time_at) {
        return None;
    }
    if let (Some(pm), Some(t)) = (meridiem, time.as_mut()) {
        t.0 = match (t.0, pm) {
            (1..=11, false) | (13..=23, true) | (0, false) => t.0, // `13:00 PM` is 13:00
            (12, false) => 0,
            (1..=11, true) => t.0 + 12,
            (12, true) => 12,
            _ => return None,
        };
    }
    let tm = time.unwrap_or((0, 0, 0, ""));
    let (off, zone_assumed) = match zone {
        Some((o, ZoneKind::UsGeneric)) => (us_offset(o, y, mo, d, tm.0)?, false),
        Some((o, _)) => (o, false),
        None if t.annotated => return None, // `[Europe/Paris]` alone: no offset to read
        None if t.korean => (9 * 3600, true),
        None => (0, true),
    };
    let timestamp = instant(y, mo, d, tm, off, form == LenientForm::IsoDate)?;
    Some(LenientDate { timestamp, zone_assumed, form })
}

/// A year in a textual date: 4 digits literally, 2 digits per RFC 822 (`49` → 2049,
/// `50` → 1950); other lengths are not guessed.
fn year(v: i64, len: usize) -> Option<i64> {
    match len {
        4 => Some(v),
        2 if v < 50 => Some(2000 + v),
        2 => Some(1900 + v),
        _ => None,
    }
}

/// Offset of a US zone without a season (`std` = standard time, seconds east of UTC) at local
/// date `y-mo-d`, hour `h`: daylight time from 2:00 on the second Sunday of March to 2:00 on
/// the first Sunday of November (2007 on), or the first Sunday of April to the last Sunday
/// of October (1987–2006). `None` before 1987, in the skipped hour (2:00–2:59 on the first
/// day) and in the repeated hour (1:00–1:59 on the last day).
fn us_offset(std: i64, y: i64, mo: i64, d: i64, h: u32) -> Option<i64> {
    // Day of the month of the `n`th Sunday of month `m` (`n` = 0: the last one).
    let sunday = |m: u32, n: u32| -> Option<i64> {
        let weekday_of_1st = (date::days_from_civil(y, m, 1)? + 4).rem_euclid(7); // Sunday = 0
        let first_sunday = 1 + (7 - weekday_of_1st) % 7;
        Some(if n == 0 {
            let dim = date::days_in_month(y, m) as i64;
            first_sunday + (dim - first_sunday) / 7 * 7
        } else {
            first_sunday + 7 * (n as i64 - 1)
        })
    };
    let (start, end) = match y {
        2007.. => ((3, sunday(3, 2)?), (11, sunday(11, 1)?)),
        1987..=2006 => ((4, sunday(4, 1)?), (10, sunday(10, 0)?)),
        _ => return None,
    };
    let (md, h) = ((mo, d), h as i64);
    let dst = if md < start || md > end {
        false
    } else if md == start {
        match h {
            0..=1 => false,
            2 => return None,
            _ => true,
        }
    } else if md == end {
        match h {
            0 => true,
            1 => return None,
            _ => false,
        }
    } else {
        true
    };
    Some(std + if dst { 3600 } else { 0 })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (instant as printed, form, zone_assumed); `None` = must be rejected.
    type Expected = Option<(&'static str, &'static str, bool)>;

    /// Real-world date strings (many verbatim from `corpus/real`, the rest typical of feeds
    /// in the wild): expected UTC instant, form and whether the zone was assumed.
    #[rustfmt::skip]
    const CASES: &[(&str, Expected)] = &[
        ("Do, 22 Dez 2016 17:36:00 +0000", Some(("2016-12-22T17:36:00Z", "day-month-name", false))),
        ("Fr, 06 Jan 2017 11:46:00 +0000", Some(("2017-01-06T11:46:00Z", "rfc822", false))),
        ("Mi, 04 Jan 2017 17:36:24 +0000", Some(("2017-01-04T17:36:24Z", "rfc822", false))),
        ("mer, 16 nov 2022 00:38:15 +0100", Some(("2022-11-15T23:38:15Z", "rfc822", false))),
        ("Seg, 24 Set 2018 19:18:49 -0300", Some(("2018-09-24T22:18:49Z", "day-month-name", false))),
        ("Fri, 01 Jan 2010 15:59:30 PST", Some(("2010-01-01T23:59:30Z", "rfc822", false))),
        ("Wed, 31 Jan 2018 20:15:15 GMT", Some(("2018-01-31T20:15:15Z", "rfc822", false))),
        ("Fri,  5 Dec 2008 11:56:39 EST", Some(("2008-12-05T16:56:39Z", "rfc822", false))),
        ("Fri, 6 Jan 2017 11:09:09 +0100", Some(("2017-01-06T10:09:09Z", "rfc822", false))),
        ("07 Jan 2009 16:05:07 EST", Some(("2009-01-07T21:05:07Z", "rfc822", false))),
        ("Thu, 07 May 2020 07:36:53 Z", Some(("2020-05-07T07:36:53Z", "rfc822", false))),
        ("Sat, 07 Jan 2017 15:21:42 GMT ", Some(("2017-01-07T15:21:42Z", "rfc822", false))),
        ("Fri, 01 Sep 2023 04:00:00 -0000", Some(("2023-09-01T04:00:00Z", "rfc822", false))),
        ("Mon, 2 Jul 2012 13:41:00 EST", Some(("2012-07-02T18:41:00Z", "rfc822", false))),
        ("2005-02-16T09:51:40Z", Some(("2005-02-16T09:51:40Z", "rfc3339", false))),
        ("2006-03-25T00:05:42-05:00", Some(("2006-03-25T05:05:42Z", "rfc3339", false))),
        ("2006-04-03T10:53:00.000-07:00", Some(("2006-04-03T17:53:00Z", "rfc3339", false))),
        ("2016-06-27T07:36:54.007-07:00", Some(("2016-06-27T14:36:54.007Z", "rfc3339", false))),
        ("2009-01-20T08:24:04.718+01:00", Some(("2009-01-20T07:24:04.718Z", "rfc3339", false))),
        ("2007-06-15T09:50:54.337718-08:00", Some(("2007-06-15T17:50:54.337718Z", "rfc3339", false))),
        ("2021-07-19T00:00:00.000Z", Some(("2021-07-19T00:00:00Z", "rfc3339", false))),
        ("2022-12-17", Some(("2022-12-17T00:00:00Z", "w3cdtf", false))),
        ("2016-03", Some(("2016-03-01T00:00:00Z", "w3cdtf", false))),
        ("2024", Some(("2024-01-01T00:00:00Z", "w3cdtf", false))),
        ("2013-03-05T00:13:33-03:11", Some(("2013-03-05T03:24:33Z", "rfc3339", false))),
        ("  2016-03-20T08:17:44Z\n", Some(("2016-03-20T08:17:44Z", "rfc3339", false))),
        ("2008-12-01T5:40:14-05:00", Some(("2008-12-01T10:40:14Z", "iso-date", false))),
        ("2009-01-12T5:40:14-05:00", Some(("2009-01-12T10:40:14Z", "iso-date", false))),
        ("03 Apr 02 1500 GMT", Some(("2002-04-03T15:00:00Z", "day-month-name", false))),
        ("Sat, Dec 16 2023 02:02:33 PM", Some(("2023-12-16T14:02:33Z", "us-month-name", true))),
        ("Sun Aug 17 16:51:14 UTC 2008", Some(("2008-08-17T16:51:14Z", "ctime", false))),
        ("Wed Jan 10 09:30:00 EST 2024", Some(("2024-01-10T14:30:00Z", "ctime", false))),
        ("Thu Feb  1 12:00:00 2024", Some(("2024-02-01T12:00:00Z", "ctime", true))),
        ("Jan 15, 2024", Some(("2024-01-15T00:00:00Z", "us-month-name", true))),
        ("January 15, 2024", Some(("2024-01-15T00:00:00Z", "us-month-name", true))),
        ("Jan 15, 2024 10:30 AM", Some(("2024-01-15T10:30:00Z", "us-month-name", true))),
        ("Jan 15, 2024 12:05 AM", Some(("2024-01-15T00:05:00Z", "us-month-name", true))),
        ("Jan 15, 2024 12:05 PM", Some(("2024-01-15T12:05:00Z", "us-month-name", true))),
        ("Jan 15, 2024 3:45 p.m. EST", Some(("2024-01-15T20:45:00Z", "us-month-name", false))),
        ("January 15th, 2024", Some(("2024-01-15T00:00:00Z", "us-month-name", true))),
        ("March 1st 2024 at 9:00 PDT", Some(("2024-03-01T16:00:00Z", "us-month-name", false))),
        ("Monday, January 15, 2024", Some(("2024-01-15T00:00:00Z", "us-month-name", true))),
        ("Monday, January 15, 2024 - 10:20", Some(("2024-01-15T10:20:00Z", "us-month-name", true))),
        ("Sept. 3, 2019, 4:05 p.m.", Some(("2019-09-03T16:05:00Z", "us-month-name", true))),
        ("Dec 31, 1999 23:59:59 CST", Some(("2000-01-01T05:59:59Z", "us-month-name", false))),
        ("Jul 4 2021 18:00:00 GMT-0400", Some(("2021-07-04T22:00:00Z", "us-month-name", false))),
        ("Jul 4 2021 18:00:00 GMT+2", Some(("2021-07-04T16:00:00Z", "us-month-name", false))),
        ("15 January 2024", Some(("2024-01-15T00:00:00Z", "day-month-name", true))),
        ("15 Jan 2024 10:20", Some(("2024-01-15T10:20:00Z", "day-month-name", true))),
        ("Sat 20 Mar 2016 03:13:44 GMT", Some(("2016-03-20T03:13:44Z", "day-month-name", false))),
        ("Saturday, 20 March 2016 03:13:44 GMT", Some(("2016-03-20T03:13:44Z", "day-month-name", false))),
        ("Tuesday, 10 June 2003 04:00:00 -0400", Some(("2003-06-10T08:00:00Z", "day-month-name", false))),
        ("Wed, 02 Oct 2002 08:00 EST", Some(("2002-10-02T13:00:00Z", "rfc822", false))),
        ("Wed 02 Oct 2002 08:00:00 EST", Some(("2002-10-02T13:00:00Z", "day-month-name", false))),
        ("20-Mar-2016 03:13:44 GMT", Some(("2016-03-20T03:13:44Z", "day-month-name", false))),
        ("20-Mar-2016", Some(("2016-03-20T00:00:00Z", "day-month-name", true))),
        ("Sat, 20 Mar 2016 03:13:44", Some(("2016-03-20T03:13:44Z", "day-month-name", true))),
        ("Sat, 20 Mar 2016 03:13:44 +0000 (UTC)", Some(("2016-03-20T03:13:44Z", "rfc822", false))),
        ("Sat, 20 Mar 2016 03:13:44 +00:00", Some(("2016-03-20T03:13:44Z", "day-month-name", false))),
        ("Sat, 20 Mar 2016 03:13:44 +0100 CET", Some(("2016-03-20T02:13:44Z", "day-month-name", false))),
        ("Sat, 20 Mar 2016 03:13:44GMT", Some(("2016-03-20T03:13:44Z", "day-month-name", false))),
        ("SAT, 20 MAR 2016 03:13:44 GMT", Some(("2016-03-20T03:13:44Z", "rfc822", false))),
        ("sat, 20 march 2016 03:13:44 gmt", Some(("2016-03-20T03:13:44Z", "day-month-name", false))),
        ("Sun, 31 Feb 2016 03:13:44 GMT", None),
        ("Thu, 05 Jan 2017 25:00:00 GMT", None),
        ("Mon, 15 Jan 2024 10:20:30.250 +0000", Some(("2024-01-15T10:20:30.25Z", "day-month-name", false))),
        ("15 Jan 24 10:20 EST", Some(("2024-01-15T15:20:00Z", "rfc822", false))),
        ("Sat, 20 Mar 2016 03:13:44 BST", Some(("2016-03-20T14:13:44Z", "rfc822", false))),
        ("Sat, 20 Mar 2016 03:13:44 IST", Some(("2016-03-20T01:13:44Z", "rfc822", false))),
        ("22. März 2016", Some(("2016-03-22T00:00:00Z", "day-month-name", true))),
        ("Dienstag, 22. März 2016 14:05 Uhr", Some(("2016-03-22T14:05:00Z", "day-month-name", true))),
        ("Di, 22 Mär 2016 14:05:00 +0100", Some(("2016-03-22T13:05:00Z", "day-month-name", false))),
        ("22 MÄRZ 2016", Some(("2016-03-22T00:00:00Z", "day-month-name", true))),
        ("mar., 15 mars 2016 08:00:00 +0100", Some(("2016-03-15T07:00:00Z", "day-month-name", false))),
        ("mar, 15 mars 2016 08:00:00 +0100", Some(("2016-03-15T07:00:00Z", "day-month-name", false))),
        ("1er janvier 2024", Some(("2024-01-01T00:00:00Z", "day-month-name", true))),
        ("lundi 15 janvier 2024 à 10:20", Some(("2024-01-15T10:20:00Z", "day-month-name", true))),
        ("15 févr. 2024", Some(("2024-02-15T00:00:00Z", "day-month-name", true))),
        ("15 août 2023 18:30 CEST", Some(("2023-08-15T16:30:00Z", "day-month-name", false))),
        ("3 décembre 2023", Some(("2023-12-03T00:00:00Z", "day-month-name", true))),
        ("15 de marzo de 2024", Some(("2024-03-15T00:00:00Z", "day-month-name", true))),
        ("lun, 15 ene 2024 10:00:00 +0100", Some(("2024-01-15T09:00:00Z", "day-month-name", false))),
        ("miércoles, 3 de abril de 2024", Some(("2024-04-03T00:00:00Z", "day-month-name", true))),
        ("15 marzo 2024 alle 10:20", Some(("2024-03-15T10:20:00Z", "day-month-name", true))),
        ("gio, 12 ott 2023 09:15:00 +0200", Some(("2023-10-12T07:15:00Z", "day-month-name", false))),
        ("Qua, 05 Dez 2018 10:00:00 -0200", Some(("2018-12-05T12:00:00Z", "day-month-name", false))),
        ("5 de dezembro de 2018", Some(("2018-12-05T00:00:00Z", "day-month-name", true))),
        ("Sex, 07 Set 2018 12:00:00 -0300", Some(("2018-09-07T15:00:00Z", "day-month-name", false))),
        ("do, 14 mrt 2024 09:00:00 +0100", Some(("2024-03-14T08:00:00Z", "day-month-name", false))),
        ("14 maart 2024", Some(("2024-03-14T00:00:00Z", "day-month-name", true))),
        ("2024/01/15", Some(("2024-01-15T00:00:00Z", "ymd-slash", true))),
        ("2024/01/15 10:20:30", Some(("2024-01-15T10:20:30Z", "ymd-slash", true))),
        ("2024/1/5 9:05", Some(("2024-01-05T09:05:00Z", "ymd-slash", true))),
        ("2024-01-15 10:20:30", Some(("2024-01-15T10:20:30Z", "iso-date", true))),
        ("2024-01-15T10:20:30", Some(("2024-01-15T10:20:30Z", "iso-date", true))),
        ("2024-01-15T10:20", Some(("2024-01-15T10:20:00Z", "iso-date", true))),
        ("2024-01-15 10:20:30.123456", Some(("2024-01-15T10:20:30.123456Z", "iso-date", true))),
        ("2024-01-15 10:20:30 +0200", Some(("2024-01-15T08:20:30Z", "iso-date", false))),
        ("2024-01-15 10:20:30 -05", Some(("2024-01-15T15:20:30Z", "iso-date", false))),
        ("2024-01-15 10:20:30 UTC", Some(("2024-01-15T10:20:30Z", "iso-date", false))),
        ("2024-01-15 10:20:30 PST", Some(("2024-01-15T18:20:30Z", "iso-date", false))),
        ("2024-01-15T10:20:30+0100", Some(("2024-01-15T09:20:30Z", "rfc3339", false))),
        ("2024-1-5", Some(("2024-01-05T00:00:00Z", "iso-date", true))),
        ("2024.01.15", Some(("2024-01-15T00:00:00Z", "ymd-dot", true))),
        ("15.01.2024", Some(("2024-01-15T00:00:00Z", "dmy-dot", true))),
        ("15.01.2024 10:20", Some(("2024-01-15T10:20:00Z", "dmy-dot", true))),
        ("2024-Jan-15", Some(("2024-01-15T00:00:00Z", "year-month-name", true))),
        ("2024 January 15 10:00 UTC", Some(("2024-01-15T10:00:00Z", "year-month-name", false))),
        ("1705314030", Some(("2024-01-15T10:20:30Z", "unix-seconds", false))),
        ("1705314030123", Some(("2024-01-15T10:20:30.123Z", "unix-millis", false))),
        ("1705314030500", Some(("2024-01-15T10:20:30.5Z", "unix-millis", false))),
        ("631152000", None),
        ("0631152000", Some(("1990-01-01T00:00:00Z", "unix-seconds", false))),
        ("03/04/2024", None),
        // Numeric day/month orders decided by their values; two-digit years never.
        ("31/12/2023", Some(("2023-12-31T00:00:00Z", "dmy-numeric", true))),
        ("12/31/2023 1:45:00 PM", Some(("2023-12-31T13:45:00Z", "mdy-numeric", true))),
        ("15-01-2024 13:45:00 +0100", Some(("2024-01-15T12:45:00Z", "dmy-numeric", false))),
        ("13/13/2024", None),
        ("15/01/24", None),
        ("01-02-2024", None),
        // ISO 8601 basic, week and ordinal dates; 24:00; comma fractions; hour only.
        ("20240115T134500Z", Some(("2024-01-15T13:45:00Z", "iso-date", false))),
        ("20240115T1345", Some(("2024-01-15T13:45:00Z", "iso-date", true))),
        ("2024-01-15T134500.25+0100", Some(("2024-01-15T12:45:00.25Z", "iso-date", false))),
        ("20240115 13:45:00", Some(("2024-01-15T13:45:00Z", "iso-date", true))),
        ("20240115134500", Some(("2024-01-15T13:45:00Z", "iso-basic", true))),
        ("18991231", None),
        ("20241301", None),
        ("2024015", Some(("2024-01-15T00:00:00Z", "iso-ordinal", true))),
        ("2024-366", Some(("2024-12-31T00:00:00Z", "iso-ordinal", true))),
        ("2023-366", None),
        ("2024-W03-1", Some(("2024-01-15T00:00:00Z", "iso-week", true))),
        ("2024w031", Some(("2024-01-15T00:00:00Z", "iso-week", true))),
        ("2020-W53-7", Some(("2021-01-03T00:00:00Z", "iso-week", true))),
        ("2024-W53-1", None),
        ("2024-W03-8", None),
        ("2024-W03", None),
        ("2024-01-15T24:00:00Z", Some(("2024-01-16T00:00:00Z", "iso-date", false))),
        ("2024-01-15T24:00:01Z", None),
        ("Mon, 15 Jan 2024 24:00:00 GMT", None),
        ("2024-01-15T13:45:00,5Z", Some(("2024-01-15T13:45:00.5Z", "iso-date", false))),
        ("2024-01-15T13Z", Some(("2024-01-15T13:00:00Z", "iso-date", false))),
        ("2003-012-31T10:14:55+00:00", Some(("2003-12-31T10:14:55Z", "iso-date", false))),
        ("2003-112-31", None),
        ("Sun, 16 Dec 2012 1:2:3:4 GMT", None),
        ("1705314030.25", Some(("2024-01-15T10:20:30.25Z", "unix-seconds", false))),
        ("170531403.25", None),
        // Zones: annotations, Etc/, duplicates, `AT` after a time.
        ("2024-01-15T13:45:00-08:00[America/Los_Angeles]", Some(("2024-01-15T21:45:00Z", "iso-date", false))),
        ("2024-01-15T13:45:00[Europe/Paris]", None),
        ("2024-01-15T13:45:00Z[Europe/Paris", None),
        ("Wed, 19 Aug 2009 18:28:00 Etc/GMT", Some(("2009-08-19T18:28:00Z", "day-month-name", false))),
        ("Aug 19 2009 18:28:00 Etc/UTC", Some(("2009-08-19T18:28:00Z", "us-month-name", false))),
        ("Aug 19 2009 18:28:00 Etc/GMT+5", None),
        ("Aug 19 2009 18:28:00 Etc/Berlin", None),
        ("Aug 19 2009 18:28:00 GMT GMT", Some(("2009-08-19T18:28:00Z", "us-month-name", false))),
        ("Aug 19 2009 18:28:00 EST EDT", None),
        ("Mon, 26 January 2004 16:31:00 AT", None),
        ("Mon, 26 January 2004 16:31:00 ET", Some(("2004-01-26T21:31:00Z", "day-month-name", false))),
        ("Mon, 15 July 2024 16:31:00 PT", Some(("2024-07-15T23:31:00Z", "day-month-name", false))),
        ("Jul 15 2024 4:31 PM CT", Some(("2024-07-15T21:31:00Z", "us-month-name", false))),
        ("Mon, 15 Jan 2024 13:45:00 UTC+2", Some(("2024-01-15T11:45:00Z", "day-month-name", false))),
        ("Mon, 15 Jan 2024 13:45:00 MSK", Some(("2024-01-15T13:45:00Z", "rfc822", false))),
        ("Mon 15 Jan 2024 13:45:00 MSK", Some(("2024-01-15T10:45:00Z", "day-month-name", false))),
        // AM/PM: redundant with a 24-hour time, or before the time.
        ("Dec 25 2023 00:00 AM", Some(("2023-12-25T00:00:00Z", "us-month-name", true))),
        ("Dec 25 2023 0:30 PM", None),
        ("Dec 25 2023 13:00 AM", None),
        ("2024-01-15 下午 1:45", Some(("2024-01-15T13:45:00Z", "iso-date", true))),
        ("Jan 15 2024 PM", None),
        // CJK and Korean forms (Korean: +09:00 assumed, as feedparser does).
        ("2024年1月15日", Some(("2024-01-15T00:00:00Z", "cjk-ymd", true))),
        ("2024年01月15日(月) 13:45", Some(("2024-01-15T13:45:00Z", "cjk-ymd", true))),
        ("2004년 05월 28일  01:31:15", Some(("2004-05-27T16:31:15Z", "cjk-ymd", true))),
        ("2004-05-25 오후 11:23:17", Some(("2004-05-25T14:23:17Z", "iso-date", true))),
        ("2004-05-25 오후 11:23:17 +0000", Some(("2004-05-25T23:23:17Z", "iso-date", false))),
        ("2024年1月", None),
        ("1月15日2024年", None),
        ("2024年1月15日 13時45分", None),
        ("2024年 2024年", None),
        // More languages; NBSP; Greek (feedparser's tests).
        ("Κυρ, 11 Ιούλ 2004 12:00:00 EST", Some(("2004-07-11T17:00:00Z", "day-month-name", false))),
        ("Πεμ, 29 Ιαν 2004 12:53:00 GMT", Some(("2004-01-29T12:53:00Z", "day-month-name", false))),
        ("2004-július-13T9:15-05:00", Some(("2004-07-13T14:15:00Z", "year-month-name", false))),
        ("2024. január 15.", Some(("2024-01-15T00:00:00Z", "year-month-name", true))),
        ("15 января 2024 г. в 13:45", Some(("2024-01-15T13:45:00Z", "day-month-name", true))),
        ("15 lutego 2024", Some(("2024-02-15T00:00:00Z", "day-month-name", true))),
        ("15 listopada 2024", None),
        ("15 şubat 2024", Some(("2024-02-15T00:00:00Z", "day-month-name", true))),
        ("Jan\u{a0}15,\u{a0}2024", Some(("2024-01-15T00:00:00Z", "us-month-name", true))),
        ("\u{200b}2024-01-15T13:45:00Z\u{feff}", Some(("2024-01-15T13:45:00Z", "rfc3339", false))),
        ("Febuary 15, 2024", Some(("2024-02-15T00:00:00Z", "us-month-name", true))),
        ("15 Janx 2024", None),
        ("15/01/2024", Some(("2024-01-15T00:00:00Z", "dmy-numeric", true))),
        ("01/15/2024", Some(("2024-01-15T00:00:00Z", "mdy-numeric", true))),
        ("3/5", None),
        ("01-15-2024", Some(("2024-01-15T00:00:00Z", "mdy-numeric", true))),
        ("15-01-2024", Some(("2024-01-15T00:00:00Z", "dmy-numeric", true))),
        ("12/31/99", None),
        ("0000000001", None),
        ("4102444800", None),
        ("9999999999999", None),
        ("20240115", Some(("2024-01-15T00:00:00Z", "iso-basic", true))),
        ("12345", None),
        ("", None),
        (" ", None),
        ("now", None),
        ("yesterday", None),
        ("N/A", None),
        ("TBD", None),
        ("Jan 2024", None),
        ("2024-13-01", None),
        ("2024-02-30", None),
        ("Feb 30, 2024", None),
        ("Jan 32, 2024", None),
        ("Sat 20 Mar 2016 03:13:44 BST", None),
        ("Sat 20 Mar 2016 03:13:44 IST", None),
        ("Sat 20 Mar 2016 03:13:44 XYZ", None),
        ("Jan 15, 2024 EST", None),
        ("Jan 15 2024 13:00 PM", Some(("2024-01-15T13:00:00Z", "us-month-name", true))),
        ("Jan 15 2024 0:30 AM", Some(("2024-01-15T00:30:00Z", "us-month-name", true))),
        ("2024-01-15 25:00", None),
        ("Jan 15, 124", None),
        ("Jan 15, 2024 10:20 foo", None),
        ("Janvember 15, 2024", None),
        ("15 Jan Feb 2024", None),
        ("2024-01-15 10:20:30 +2400", None),
        ("15.01.24", None),
        ("2024/01-15", None),
        ("Sat, 20 Mar 2016 03:13:44 (unterminated", None),
        ("2024-01-15 10:20 10:30", None),
        ("2024-01-15T10:20:30Z junk", None),
        ("Q1 2024", None),
        ("¡15 enero 2024!", None),
    ];

    #[test]
    fn real_world_table() {
        assert!(CASES.len() >= 80);
        let mut failures = Vec::new();
        for &(input, want) in CASES {
            let got = parse_lenient(input);
            let got = got.map(|d| (d.timestamp.to_string(), d.form.as_str(), d.zone_assumed));
            let want = want.map(|(t, f, z)| (t.to_owned(), f, z));
            if got != want {
                failures.push(format!("{input:?}: got {got:?}, want {want:?}"));
            }
        }
        assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    }

    #[test]
    fn strict_results_are_passed_through_unchanged() {
        for s in ["2016-03-20T08:17:44.5+01:00", "Sat, 20 Mar 2016 03:13:44 -0504", "12016-01-01"] {
            let strict = date::parse_rfc3339(s)
                .or_else(|| date::parse_rfc822(s))
                .or_else(|| date::parse_w3cdtf(s))
                .unwrap();
            assert_eq!(parse_lenient(s).unwrap().timestamp, strict);
        }
    }

    #[test]
    fn every_month_name_maps_to_one_month() {
        for (i, (a, m)) in MONTHS.iter().enumerate() {
            assert_eq!(a.to_lowercase(), *a);
            for (b, n) in &MONTHS[i + 1..] {
                assert!(a != b || m == n, "{a} listed twice");
            }
            let s = format!("15 {a} 2024");
            let d = parse_lenient(&s).unwrap_or_else(|| panic!("{s}"));
            assert_eq!(d.timestamp.civil().1, *m, "{s}");
            // Upper case reads the same (unless upper-casing is not undone by lower-casing,
            // as for `ΐ` → `Ϊ́`).
            let upper = a.to_uppercase();
            if upper.to_lowercase() == *a {
                let s = format!("{upper} 15, 2024");
                assert_eq!(parse_lenient(&s).map(|d| d.timestamp.civil().1), Some(*m), "{s}");
            }
        }
        for (w, ()) in WEEKDAYS {
            assert_eq!(w.to_lowercase(), *w);
            let s = format!("{w} 15 Jan 2024 10:00 GMT");
            assert_eq!(
                parse_lenient(&s).map(|d| d.timestamp.unix_seconds()),
                Some(1_705_312_800),
                "{s}"
            );
        }
    }

    #[test]
    fn zones_shift_correctly() {
        for (z, min) in ZONES {
            let s = format!("2024-01-15 10:00:00 {}", z.to_uppercase());
            let d = parse_lenient(&s).unwrap_or_else(|| panic!("{s}"));
            assert_eq!(d.timestamp.unix_seconds(), 1_705_312_800 - *min as i64 * 60, "{s}");
            assert!(!d.zone_assumed);
        }
    }

    #[test]
    fn us_zones_without_a_season_follow_the_us_rules() {
        let at = |s: &str| parse_lenient(s).map(|d| d.timestamp.to_string());
        let some = |s: &str| Some(s.to_owned());
        // 2007 on: second Sunday of March to first Sunday of November.
        assert_eq!(at("Sun, 10 March 2024 01:59:00 ET"), some("2024-03-10T06:59:00Z"));
        assert_eq!(at("Sun, 10 March 2024 02:30:00 ET"), None); // skipped
        assert_eq!(at("Sun, 10 March 2024 03:00:00 ET"), some("2024-03-10T07:00:00Z"));
        assert_eq!(at("Sun, 3 November 2024 00:59:00 ET"), some("2024-11-03T04:59:00Z"));
        assert_eq!(at("Sun, 3 November 2024 01:30:00 ET"), None); // repeated
        assert_eq!(at("Sun, 3 November 2024 02:00:00 ET"), some("2024-11-03T07:00:00Z"));
        // 1987–2006: first Sunday of April to last Sunday of October.
        assert_eq!(at("Sat, 1 April 2006 12:00:00 PT"), some("2006-04-01T20:00:00Z"));
        assert_eq!(at("Sun, 2 April 2006 03:00:00 PT"), some("2006-04-02T10:00:00Z"));
        assert_eq!(at("Sun, 29 October 2006 00:30:00 MT"), some("2006-10-29T06:30:00Z"));
        assert_eq!(at("Sun, 29 October 2006 02:30:00 MT"), some("2006-10-29T09:30:00Z"));
        assert_eq!(at("Tue, 15 July 1986 12:00:00 ET"), None);
        // A numeric offset wins.
        assert_eq!(at("Mon, 15 July 2024 16:31:00 -0500 ET"), some("2024-07-15T21:31:00Z"));
    }

    #[test]
    fn never_panics_on_odd_input() {
        let long = "9".repeat(400);
        for s in [
            long.as_str(), "((((", "))))", "Jan", "Jan Jan Jan", "-", "+0000", "10:20", "T",
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33",
            "15 Jan 99999999999999999999", "99999999999999999999 Jan 15", "Jan 15 2024 99999999999999999999:00",
            "2024-01-15 10:20:30 +99999999999999999999", "a.", "p.m", "2024-01-15 10:20 a.m", "ºº",
            "年年年", "2024年", "[", "[[[]", "2024-W", "2024-W99-9", "W031", "Etc/", "Etc/GMT",
            "24:00", "T24", "20240115T", "20240115T99", "99999999T1345", "오후", "오후 1:00",
        ] {
            let _ = parse_lenient(s);
        }
        // Long hostile inputs: one pass each (linear), whatever they hold.
        let mb = 1 << 20;
        for s in [
            "9".repeat(mb),
            "Jan 15, 2024 ".to_owned() + &"(".repeat(mb),
            "(".repeat(mb) + &")".repeat(mb),
            ", ".repeat(mb) + "Jan 15, 2024",
            "x".repeat(mb),
            "é".repeat(mb),
            "2024-01-15T13:45:00.".to_owned() + &"9".repeat(mb) + "Z",
            "1705314030.".to_owned() + &"5".repeat(mb),
            "Jan 15, 2024 ".to_owned() + &"[".repeat(mb),
            "\u{a0}".repeat(mb) + "Jan 15, 2024",
        ] {
            let _ = parse_lenient(&s);
        }
        assert_eq!(
            parse_lenient(&(", ".repeat(mb) + "Jan 15, 2024")).map(|d| d.form.as_str()),
            Some("us-month-name")
        );
    }
}
