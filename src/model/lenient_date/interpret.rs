//! Interpretation of a token list: which date form it is (day-month-name, numeric orders decided
//! by their values, CJK units, ...) and the instant it gives, or `None` when the reading is
//! ambiguous.

use super::super::date;
use super::instant::{instant, LenientDate, LenientForm, Time};
use super::tokens::*;

pub(super) fn interpret(t: &Tokens<'_>) -> Option<LenientDate> {
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
pub(super) fn year(v: i64, len: usize) -> Option<i64> {
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
pub(super) fn us_offset(std: i64, y: i64, mo: i64, d: i64, h: u32) -> Option<i64> {
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
