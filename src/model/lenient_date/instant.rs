//! What a lenient reading gives ([`LenientDate`], [`LenientForm`]) and the civil-time
//! arithmetic every form ends in (a date, a time and an offset to an instant).

use super::super::date::{self, Timestamp};

/// A date recognized by [`super::parse_lenient`].
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

/// The date forms [`super::parse_lenient`] recognizes; each is written by its short name.
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

/// Hours, minutes, seconds, fraction digits.
pub(super) type Time<'a> = (u32, u32, u32, &'a str);

/// The instant of a civil date and time at `off` seconds east of UTC; `None` unless every
/// field is in range. `24:00:00` (`allow_24`) is midnight at the end of the day.
pub(super) fn instant(
    y: i64,
    mo: i64,
    d: i64,
    t: Time<'_>,
    off: i64,
    allow_24: bool,
) -> Option<Timestamp> {
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
    Some(
        Timestamp::with_fraction(secs.checked_sub(off)?, frac)?
            .with_offset_minutes(i16::try_from(off / 60).ok()),
    )
}

/// Value of the ASCII digits `b` (at most 18 of them, checked by callers).
pub(super) fn num(b: &[u8]) -> i64 {
    b.iter().fold(0, |v, &c| v * 10 + (c - b'0') as i64)
}
