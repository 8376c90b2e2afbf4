//! Date values and the three strict date parsers of the spec (NOTES §4).
//!
//! Owns [`Timestamp`] (an instant in UTC plus the original fractional-second digits and the UTC
//! offset the text was written in) and the parsers [`parse_rfc3339`] (§4.1), [`parse_w3cdtf`]
//! (§4.2) and [`parse_rfc822`] (§4.3); [`as_written`] says whether a date's text is needed
//! beside its value to know how the feed wrote it.
//!
//! Invariants:
//! - A `Timestamp` is `unix_seconds` (whole seconds since 1970-01-01T00:00:00Z, proleptic
//!   Gregorian, no leap seconds) in UTC years 0001–9999 ([`Timestamp::MIN_UNIX_SECONDS`] to
//!   [`Timestamp::MAX_UNIX_SECONDS`]: the years RFC 3339 can write, and the range of readers
//!   of the Parquet output) plus a fraction kept as its *decimal digit string*: ASCII
//!   digits only, trailing zeros removed, at most 31 digits (longer fractions are truncated to
//!   their first 31 digits — never rounded), unused bytes of `frac` are zero (so the derived
//!   `Eq`/`Hash` are value equality).
//! - Parsers never trim (except RFC 822 CFWS), never allocate, never panic and never wrap:
//!   every digit run and every date computation uses checked arithmetic; anything that does
//!   not fit an `i64` second count, or whose instant falls outside UTC years 0001–9999
//!   (`99999-01-01`, `0000-01-01`, `0001-01-01T00:00:00+01:00`), yields `None`. Every
//!   constructor checks that range, so no `Timestamp` outside it can be made.
//! - Offsets are plain second counts (no `chrono::FixedOffset`), so RFC 822 `+9900` works.
//!   The offset a parser applied is kept with the instant, in minutes
//!   ([`Timestamp::offset_minutes`]); it is not part of the value: equality, order and hash
//!   are the instant's (`…T08:00:00Z` equals `…T09:00:00+01:00`), as for chrono's
//!   `DateTime<FixedOffset>`.
use std::fmt;

mod interop;
pub use interop::OutOfRange;

/// Maximum number of fractional-second digits kept; longer fractions are truncated.
pub const MAX_FRACTION_DIGITS: usize = 31;

/// An instant in UTC with the original fractional-second digits, and the UTC offset the date
/// was written in (when it was written with one).
///
/// Equality, order and hash are the instant's: the offset says how the instant was written,
/// not which instant it is.
#[derive(Clone, Copy)]
pub struct Timestamp {
    unix_seconds: i64,
    /// Minutes east of UTC the text was written in; [`NO_OFFSET`] when it named none.
    offset: i16,
    frac_len: u8,
    frac: [u8; 31],
}

/// The `offset` of a [`Timestamp`] whose text named no offset (or that was made from a
/// number).
const NO_OFFSET: i16 = i16::MIN;

impl PartialEq for Timestamp {
    fn eq(&self, other: &Self) -> bool {
        self.unix_seconds == other.unix_seconds && self.frac == other.frac
    }
}

impl Eq for Timestamp {}

impl std::hash::Hash for Timestamp {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.unix_seconds.hash(h);
        self.frac.hash(h);
    }
}

impl Timestamp {
    /// The earliest instant: 0001-01-01T00:00:00Z.
    pub const MIN_UNIX_SECONDS: i64 = -62_135_596_800;
    /// The latest whole second: 9999-12-31T23:59:59Z (fractions of it are kept).
    pub const MAX_UNIX_SECONDS: i64 = 253_402_300_799;

    /// Whole seconds since the Unix epoch (floor; the fraction is [`Self::fraction_digits`]).
    pub fn unix_seconds(&self) -> i64 {
        self.unix_seconds
    }

    /// The original fractional-second digits, trailing zeros removed (`""` if none).
    pub fn fraction_digits(&self) -> &str {
        std::str::from_utf8(self.frac_bytes()).unwrap_or("")
    }

    /// An instant with no fractional part (and no offset); `None` outside UTC years
    /// 0001–9999.
    pub fn from_unix(unix_seconds: i64) -> Option<Self> {
        (Self::MIN_UNIX_SECONDS..=Self::MAX_UNIX_SECONDS)
            .contains(&unix_seconds)
            .then_some(Timestamp { unix_seconds, offset: NO_OFFSET, frac_len: 0, frac: [0; 31] })
    }

    /// The UTC offset the date was written in, in minutes east of UTC (`-300` for `-0500` or
    /// `EST`, `0` for `Z`, `GMT` or `+00:00`): the offset the parser applied to the text.
    /// `None` when the text named none (a W3C-DTF date without a time, a lenient reading
    /// that assumed a zone) and for instants made from numbers.
    pub fn offset_minutes(&self) -> Option<i16> {
        (self.offset != NO_OFFSET).then_some(self.offset)
    }

    /// This instant, written in the UTC offset `minutes` east of UTC (`None`: no offset).
    /// The instant is unchanged; an offset beyond ±99:59 (more than any date syntax
    /// writes) is taken as none.
    pub fn with_offset_minutes(self, minutes: Option<i16>) -> Self {
        let offset = match minutes {
            Some(m) if (-5999..=5999).contains(&m) => m,
            _ => NO_OFFSET,
        };
        Timestamp { offset, ..self }
    }

    /// Sets the offset from `seconds` east of UTC, as a parser applied it (whole minutes;
    /// any sign).
    fn with_offset_seconds(self, seconds: i64) -> Self {
        self.with_offset_minutes(i16::try_from(seconds / 60).ok())
    }

    /// An instant with the given fractional digits (ASCII digits only, else `None`; trailing
    /// zeros removed; more than 31 digits truncated to 31); `None` outside UTC years
    /// 0001–9999.
    pub fn with_fraction(unix_seconds: i64, digits: &str) -> Option<Self> {
        let d = digits.as_bytes();
        if !d.iter().all(u8::is_ascii_digit) {
            return None;
        }
        Self::from_parts(unix_seconds, d)
    }

    /// `digits` must be ASCII digits (checked by callers); `None` outside UTC years
    /// 0001–9999.
    fn from_parts(unix_seconds: i64, digits: &[u8]) -> Option<Self> {
        let mut t = Self::from_unix(unix_seconds)?;
        let mut d = &digits[..digits.len().min(MAX_FRACTION_DIGITS)];
        while let [rest @ .., b'0'] = d {
            d = rest;
        }
        t.frac[..d.len()].copy_from_slice(d);
        t.frac_len = d.len() as u8;
        Some(t)
    }

    /// The UTC civil time: `(year 1–9999, month 1–12, day 1–31, hour, minute, second)`.
    pub fn civil(&self) -> (i64, u32, u32, u32, u32, u32) {
        let days = self.unix_seconds.div_euclid(86_400);
        let secs = self.unix_seconds.rem_euclid(86_400) as u32;
        let (y, m, d) = civil_from_days(days);
        (y, m, d, secs / 3600, secs / 60 % 60, secs % 60)
    }

    /// Writes `YYYY-MM-DDTHH:MM:SS[.F]Z` (the harness form; see `Display`).
    pub fn write_rfc3339<W: fmt::Write>(&self, w: &mut W) -> fmt::Result {
        w.write_str(self.format_rfc3339(&mut [0; RFC3339_MAX_LEN]))
    }

    /// `YYYY-MM-DDTHH:MM:SS[.F]Z` in `buf`, digit by digit (the formatting machinery costs
    /// over a thousand instructions a date; the JSON writer formats every date this way).
    pub(crate) fn format_rfc3339<'b>(&self, buf: &'b mut [u8; RFC3339_MAX_LEN]) -> &'b str {
        // Every byte written is an ASCII digit or one of `-T:.Z`.
        std::str::from_utf8(self.format_rfc3339_bytes(buf)).expect("ASCII")
    }

    /// [`Self::format_rfc3339`] as bytes (all ASCII), for a writer of bytes: no UTF-8 check
    /// of what was just written (~70 instructions a date).
    pub(crate) fn format_rfc3339_bytes<'b>(&self, buf: &'b mut [u8; RFC3339_MAX_LEN]) -> &'b [u8] {
        let (y, mo, d, h, mi, s) = self.civil();
        let mut n = 0;
        if (1000..=9999).contains(&y) {
            // The common case (every year a parser reads from four digits): the digits
            // directly, without the general loop's divisions by a variable length.
            let y = y as u32;
            buf[..4].copy_from_slice(&[
                b'0' + (y / 1000) as u8,
                b'0' + (y / 100 % 10) as u8,
                b'0' + (y / 10 % 10) as u8,
                b'0' + (y % 10) as u8,
            ]);
            n = 4;
        } else {
            if y < 0 {
                buf[0] = b'-';
                n = 1;
            }
            // At least 4 digits, zero-padded; up to 12 (the range of `i64` seconds).
            let mut year = y.unsigned_abs();
            let mut digits = [b'0'; 12];
            let mut len = 0;
            while year > 0 || len < 4 {
                digits[11 - len] = b'0' + (year % 10) as u8;
                year /= 10;
                len += 1;
            }
            buf[n..n + len].copy_from_slice(&digits[12 - len..]);
            n += len;
        }
        // `-MM-DDTHH:MM:SS` built whole, then one copy.
        let two = two_digits;
        let ([mo1, mo0], [d1, d0], [h1, h0], [mi1, mi0], [s1, s0]) =
            (two(mo), two(d), two(h), two(mi), two(s));
        buf[n..n + 15].copy_from_slice(&[
            b'-', mo1, mo0, b'-', d1, d0, b'T', h1, h0, b':', mi1, mi0, b':', s1, s0,
        ]);
        n += 15;
        let frac = self.frac_bytes();
        if !frac.is_empty() {
            buf[n] = b'.';
            buf[n + 1..n + 1 + frac.len()].copy_from_slice(frac);
            n += 1 + frac.len();
        }
        buf[n] = b'Z';
        &buf[..n + 1]
    }

    /// The fractional-second digits as bytes (ASCII digits, see [`Self::fraction_digits`]).
    fn frac_bytes(&self) -> &[u8] {
        &self.frac[..self.frac_len as usize]
    }
}

impl Timestamp {
    /// Writes the date as its text would be written in its own offset:
    /// `YYYY-MM-DDTHH:MM:SS[.F]` then `Z` for offset 0 or none, else `±HH:MM` (RFC 3339).
    pub fn write_rfc3339_local<W: fmt::Write>(&self, w: &mut W) -> fmt::Result {
        let mut buf = [0; RFC3339_MAX_LEN];
        let (time, offset) = self.rfc3339_local_parts(&mut buf);
        // Every byte is an ASCII digit or one of `-T:.Z+`.
        w.write_str(std::str::from_utf8(time).expect("ASCII"))?;
        match offset {
            Some(o) => w.write_str(std::str::from_utf8(&o).expect("ASCII")),
            None => Ok(()),
        }
    }

    /// Whether `text` is exactly what [`Self::write_rfc3339_local`] writes, compared byte by
    /// byte: nothing formatted into a `String` (its allocation and `write!` cost some
    /// hundred instructions a date).
    fn is_written_local_as(&self, text: &[u8]) -> bool {
        let mut buf = [0; RFC3339_MAX_LEN];
        match self.rfc3339_local_parts(&mut buf) {
            (time, None) => text == time,
            (time, Some(offset)) => {
                text.len() == time.len() + offset.len()
                    && text.starts_with(time)
                    && text.ends_with(&offset)
            }
        }
    }

    /// What [`Self::write_rfc3339_local`] writes, in two parts: the RFC 3339 text of the local
    /// time (with its `Z` when the offset is 0 or none, else without it) and the `±HH:MM`
    /// offset (`None` for `Z`). An offset is within ±99:59 ([`Self::with_offset_minutes`]),
    /// so its hours are two digits.
    fn rfc3339_local_parts<'b>(
        &self,
        buf: &'b mut [u8; RFC3339_MAX_LEN],
    ) -> (&'b [u8], Option<[u8; 6]>) {
        let offset = self.offset_minutes().unwrap_or(0);
        let local = Timestamp {
            unix_seconds: self.unix_seconds + i64::from(offset) * 60,
            offset: NO_OFFSET,
            ..*self
        };
        let utc = local.format_rfc3339_bytes(buf);
        if offset == 0 {
            return (utc, None);
        }
        let m = offset.unsigned_abs();
        debug_assert!(m / 60 <= 99, "offset {offset} beyond ±99:59");
        let m = u32::from(m);
        let ([h1, h0], [m1, m0]) = (two_digits(m / 60), two_digits(m % 60));
        let sign = if offset < 0 { b'-' } else { b'+' };
        (&utc[..utc.len() - 1], Some([sign, h1, h0, b':', m1, m0]))
    }
}

/// The two decimal digits of `v` (below 100: a month, day, hour, minute, second, or an
/// offset's hours or minutes).
fn two_digits(v: u32) -> [u8; 2] {
    debug_assert!(v < 100);
    [b'0' + (v / 10) as u8, b'0' + (v % 10) as u8]
}

/// `Some(text)` when `text` is not exactly how [`Timestamp::write_rfc3339_local`] writes `t`:
/// then the text is needed beside the value to know how the feed wrote the date (an RFC 822
/// date, `+0100` for `+01:00`, a W3C-DTF date without a time, trailing zeros of a fraction,
/// spaces around it). `None` when the value and its offset give the text back.
pub fn as_written<'a>(text: &'a str, t: &Timestamp) -> Option<&'a str> {
    // NOTE: formatting costs some hundred instructions; most texts that are not canonical
    // are told apart by their length or first byte first (RFC 822 dates start with a letter
    // or a space).
    let n = text.len();
    if !(20..=RFC3339_MAX_LEN + 5).contains(&n) || !text.as_bytes()[0].is_ascii_digit() {
        return Some(text);
    }
    (!t.is_written_local_as(text.as_bytes())).then_some(text)
}

/// The longest `YYYY-MM-DDTHH:MM:SS[.F]Z`: a sign, a year of up to 12 digits (the range of
/// `i64` seconds), `-MM-DDTHH:MM:SS`, a `.` and [`MAX_FRACTION_DIGITS`] digits, `Z`.
pub(crate) const RFC3339_MAX_LEN: usize = 1 + 12 + 15 + 1 + MAX_FRACTION_DIGITS + 1;

/// `YYYY-MM-DDTHH:MM:SS[.F]Z`: year zero-padded to 4 digits (`0005`),
/// `.F` only when fractional digits remain.
impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_rfc3339(f)
    }
}

impl fmt::Debug for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

// ---------------------------------------------------------------------------------------------
// Calendar arithmetic (Howard Hinnant, "chrono-Compatible Low-Level Date Algorithms").

/// Proleptic Gregorian leap year (4/100/400).
pub(crate) fn is_leap(y: i64) -> bool {
    y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
}

/// Days in month `m` (1–12) of year `y`.
pub(crate) fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap(y) => 29,
        2 => 28,
        _ => 0,
    }
}

/// Days since 1970-01-01 of a valid civil date; `None` on overflow.
pub(crate) fn days_from_civil(y: i64, m: u32, d: u32) -> Option<i64> {
    let y = if m <= 2 { y.checked_sub(1)? } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400); // [0, 399]
    let mp = if m > 2 { m - 3 } else { m + 9 } as i64; // [0, 11]
    let doy = (153 * mp + 2) / 5 + d as i64 - 1; // [0, 365]
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy; // [0, 146096]
    era.checked_mul(146_097)?.checked_add(doe - 719_468)
}

/// Civil date of a day count since 1970-01-01 (total for every `i64` that comes from
/// `unix_seconds / 86400`).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468; // |z| ≤ 1.1e14 here: cannot overflow
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097); // [0, 146096]
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365; // [0, 399]
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // [0, 365]
    let mp = (5 * doy + 2) / 153; // [0, 11]
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// A date and time of day as a parser read them, before any range check.
struct LocalTime {
    year: i64,
    month: u64,
    day: u64,
    hour: u64,
    minute: u64,
    second: u64,
}

impl LocalTime {
    /// Validates the fields and converts the local time at `offset` seconds east of UTC,
    /// with fractional-second digits `frac`, to a `Timestamp`. `None` if any field is out of
    /// range (no leap second), on overflow, or when the instant is outside UTC years
    /// 0001–9999.
    fn at_offset(self, offset: i64, frac: &[u8]) -> Option<Timestamp> {
        let LocalTime { year: y, month: mo, day: d, hour: h, minute: mi, second: s } = self;
        if y < 0 || !(1..=12).contains(&mo) || h > 23 || mi > 59 || s > 59 {
            return None;
        }
        let mo = mo as u32;
        if d < 1 || d > days_in_month(y, mo) as u64 {
            return None;
        }
        let days = days_from_civil(y, mo, d as u32)?;
        let secs = days
            .checked_mul(86_400)?
            .checked_add((h * 3600 + mi * 60 + s) as i64)?
            .checked_sub(offset)?;
        Some(Timestamp::from_parts(secs, frac)?.with_offset_seconds(offset))
    }
}

// ---------------------------------------------------------------------------------------------
// Byte cursor shared by the parsers.

/// The bytes being parsed and the position of the next one.
struct Cur<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cur<'a> {
    fn new(s: &'a str) -> Self {
        Cur { bytes: s.as_bytes(), at: 0 }
    }
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }
    fn at_end(&self) -> bool {
        self.at >= self.bytes.len()
    }
    /// Consumes `c` if it is next.
    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.at += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, c: u8) -> Option<()> {
        self.eat(c).then_some(())
    }
    /// Exactly `n` ASCII digits (not checked that no digit follows).
    fn fixed(&mut self, n: usize) -> Option<u64> {
        let s = self.bytes.get(self.at..self.at + n)?;
        let mut v = 0u64;
        for &c in s {
            if !c.is_ascii_digit() {
                return None;
            }
            v = v * 10 + (c - b'0') as u64; // n ≤ 4: cannot overflow
        }
        self.at += n;
        Some(v)
    }
    /// A maximal run of ASCII digits: `(digits, value)`. `None` if the run is empty or its
    /// value does not fit an `i64`.
    fn digit_run(&mut self) -> Option<(&'a [u8], i64)> {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        let run = &self.bytes[start..self.at];
        if run.is_empty() {
            return None;
        }
        let mut v = 0i64;
        for &c in run {
            v = v.checked_mul(10)?.checked_add((c - b'0') as i64)?;
        }
        Some((run, v))
    }
    /// A maximal run of ASCII letters (possibly empty).
    fn letters(&mut self) -> &'a [u8] {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
            self.at += 1;
        }
        &self.bytes[start..self.at]
    }
    /// `.d+` if present (the digits), else empty; `None` for a `.` without digits.
    fn fraction(&mut self) -> Option<&'a [u8]> {
        if !self.eat(b'.') {
            return Some(&[]);
        }
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        let digits = &self.bytes[start..self.at];
        (!digits.is_empty()).then_some(digits)
    }
    /// `±HH:MM` / `±HHMM` with hour ≤ 23 and minute ≤ 59: seconds east of UTC.
    fn numeric_zone(&mut self) -> Option<i64> {
        let sign = match self.peek()? {
            b'+' => 1,
            b'-' => -1,
            _ => return None,
        };
        self.at += 1;
        let h = self.fixed(2)?;
        self.eat(b':');
        let m = self.fixed(2)?;
        if h > 23 || m > 59 {
            return None;
        }
        Some(sign * (h * 3600 + m * 60) as i64)
    }
    /// RFC 822 CFWS: runs of TAB/LF/CR/SPACE and (nestable, `\x`-escaping) comments.
    /// `Some(true)` if anything was consumed; `None` for an unterminated comment.
    fn cfws(&mut self) -> Option<bool> {
        let start = self.at;
        while let Some(c) = self.peek() {
            match c {
                b' ' | b'\t' | b'\r' | b'\n' => self.at += 1,
                b'(' => {
                    self.at += 1;
                    let mut depth = 1u32;
                    while depth > 0 {
                        let c = self.peek()?;
                        self.at += 1;
                        match c {
                            b'\\' => {
                                self.peek()?;
                                self.at += 1;
                            }
                            b'(' => depth += 1,
                            b')' => depth -= 1,
                            _ => {}
                        }
                    }
                }
                _ => break,
            }
        }
        Some(self.at > start)
    }
}

// ---------------------------------------------------------------------------------------------
// §4.1 RFC 3339

/// RFC 3339 `date-time` as Atom uses it (NOTES §4.1): `YYYY-MM-DDTHH:MM:SS(.d+)?` then `Z` or
/// `±HH:MM`/`±HHMM`. ASCII-case-insensitive (`t`, `z`), exactly 4-digit year, seconds
/// mandatory, no leap second, zone hour ≤ 23. No trimming.
pub fn parse_rfc3339(s: &str) -> Option<Timestamp> {
    let mut c = Cur::new(s);
    let y = c.fixed(4)?;
    c.expect(b'-')?;
    let mo = c.fixed(2)?;
    c.expect(b'-')?;
    let d = c.fixed(2)?;
    if !(c.eat(b'T') || c.eat(b't')) {
        return None;
    }
    let h = c.fixed(2)?;
    c.expect(b':')?;
    let mi = c.fixed(2)?;
    c.expect(b':')?;
    let sec = c.fixed(2)?;
    let frac = c.fraction()?;
    let offset = if c.eat(b'Z') || c.eat(b'z') { 0 } else { c.numeric_zone()? };
    if !c.at_end() {
        return None;
    }
    LocalTime { year: y as i64, month: mo, day: d, hour: h, minute: mi, second: sec }
        .at_offset(offset, frac)
}

// ---------------------------------------------------------------------------------------------
// §4.2 W3C-DTF

/// W3C-DTF (NOTES §4.2): `Y{4,} [-MM [-DD [THH:MM[:SS[.d+]] TZD]]]`, TZD = `Z` |
/// `±HH:MM` | `±HHMM`. Case-sensitive; missing month/day = 01, missing time = midnight UTC;
/// a time requires a TZD. Years of any length (overflow → `None`). No trimming.
pub fn parse_w3cdtf(s: &str) -> Option<Timestamp> {
    let mut c = Cur::new(s);
    let (ydigits, y) = c.digit_run()?;
    if ydigits.len() < 4 {
        return None;
    }
    let (mut mo, mut d) = (1, 1);
    let (mut h, mut mi, mut sec, mut offset) = (0, 0, 0, 0);
    let mut frac: &[u8] = &[];
    let mut zoned = false;
    if c.eat(b'-') {
        mo = c.fixed(2)?;
        if c.eat(b'-') {
            d = c.fixed(2)?;
            if c.eat(b'T') {
                h = c.fixed(2)?;
                c.expect(b':')?;
                mi = c.fixed(2)?;
                if c.eat(b':') {
                    sec = c.fixed(2)?;
                    frac = c.fraction()?;
                }
                offset = if c.eat(b'Z') { 0 } else { c.numeric_zone()? };
                zoned = true;
            }
        }
    }
    if !c.at_end() {
        return None;
    }
    // A date without a time names no offset (midnight UTC is the spec's reading).
    let t = LocalTime { year: y, month: mo, day: d, hour: h, minute: mi, second: sec }
        .at_offset(offset, frac)?;
    Some(if zoned { t } else { t.with_offset_minutes(None) })
}

// ---------------------------------------------------------------------------------------------
// §4.3 RFC 822

/// Named RFC 822 zones and their offsets in minutes (NOTES §4.3). Names not listed here
/// (including military letters and `Z`) mean +0000.
#[rustfmt::skip]
pub(crate) const NAMED_ZONES: &[(&str, i32)] = &[
    ("IDLW", -720),
    ("BST", -660), ("NT", -660),
    ("AHST", -600), ("BDT", -600), ("CAT", -600), ("HAST", -600), ("HST", -600),
    ("AKST", -540), ("HDT", -540), ("YST", -540),
    ("PST", -480), ("YDT", -480),
    ("MOUNTAIN", -420), ("MST", -420), ("PDT", -420), ("PPET", -420),
    ("CST", -360), ("MDT", -360),
    ("CDT", -300), ("EST", -300),
    ("AST", -240), ("EDT", -240), ("EWT", -240),
    ("NFT", -210), ("NST", -210),
    ("ADT", -180), ("GST", -180),
    ("NDT", -150),
    ("AT", -120), ("FDT", -120),
    ("GMT", 0), ("MET", 0), ("MEWT", 0), ("MEZ", 0), ("SAMST", 0), ("UCT", 0), ("UT", 0),
    ("UTC", 0), ("WET", 0),
    ("CET", 60), ("DNT", 60), ("ECT", 60), ("FWT", 60), ("NOR", 60), ("SET", 60), ("SWT", 60),
    ("WETDST", 60),
    ("CEST", 120), ("CETDST", 120), ("EET", 120), ("FST", 120), ("IST", 120), ("MEST", 120),
    ("METDST", 120), ("SST", 120), ("UKR", 120),
    ("BT", 180), ("EEST", 180), ("EETDST", 180), ("IDT", 180),
    ("IT", 210),
    ("ZP4", 240),
    ("ZP5", 300),
    ("ZP6", 360),
    ("WAST", 420),
    ("AWST", 480), ("CCT", 480), ("HKT", 480), ("WADT", 480), ("WST", 480),
    ("MT", 510),
    ("AWSST", 540), ("JCST", 540), ("JST", 540), ("JT", 540), ("KST", 540), ("WDT", 540),
    ("ACST", 570), ("CAST", 570), ("SAST", 570), ("SAT", 570),
    ("AEST", 600), ("EAST", 600), ("KDT", 600), ("LIGT", 600),
    ("ACSST", 630), ("CADT", 630), ("SADT", 630),
    ("AESST", 660), ("EADT", 660),
    ("IDLE", 720), ("NZS", 720), ("NZST", 720), ("NZT", 720),
    ("NZD", 780), ("NZDT", 780),
];

/// Offset in seconds of an RFC 822 zone name (ASCII-case-insensitive); unknown → 0.
/// (`ZP4`–`ZP6` contain a digit and so can never be reached from the letters-only ZONE
/// token; they are kept for fidelity with the table.)
pub(crate) fn named_zone_offset(name: &[u8]) -> i64 {
    NAMED_ZONES
        .iter()
        .find(|(n, _)| n.as_bytes().eq_ignore_ascii_case(name))
        .map_or(0, |&(_, m)| m as i64 * 60)
}

/// Month number of a 3-letter English abbreviation (ASCII-case-insensitive).
pub(crate) fn month_abbrev(name: &[u8]) -> Option<u64> {
    const MONTHS: [&[u8; 3]; 12] = [
        b"jan", b"feb", b"mar", b"apr", b"may", b"jun", b"jul", b"aug", b"sep", b"oct", b"nov",
        b"dec",
    ];
    MONTHS.iter().position(|m| m.eq_ignore_ascii_case(name)).map(|i| i as u64 + 1)
}

/// RSS 2.0 / RFC 822 date-time (NOTES §4.3):
/// `[WEEKDAY CFWS* "," CFWS*] DAY CFWS+ MON CFWS+ YEAR CFWS+ HH CFWS* ":" CFWS* MM CFWS*
/// [":" CFWS* SS CFWS+] ZONE`, with leading/trailing CFWS. Weekday not validated (comma
/// required); 3-letter month names only; 2-digit years → 1950–2049, 3-digit → +1900;
/// `±HHMM` zones with unchecked hours, named zones per `NAMED_ZONES`, other letters +0000.
pub fn parse_rfc822(s: &str) -> Option<Timestamp> {
    let mut c = Cur::new(s);
    c.cfws()?;
    if !c.letters().is_empty() {
        c.cfws()?;
        c.expect(b',')?;
        c.cfws()?;
    }
    let (_, day) = c.digit_run()?;
    if !c.cfws()? {
        return None;
    }
    let mo = month_abbrev(c.letters())?;
    if !c.cfws()? {
        return None;
    }
    let (ydigits, year) = c.digit_run()?;
    let year = match ydigits.len() {
        2 if year + 1900 < 1950 => year + 2000,
        2 | 3 => year + 1900,
        _ => year,
    };
    if !c.cfws()? {
        return None;
    }
    let (_, h) = c.digit_run()?;
    c.cfws()?;
    c.expect(b':')?;
    c.cfws()?;
    let (_, mi) = c.digit_run()?;
    c.cfws()?;
    let mut sec = 0;
    if c.eat(b':') {
        c.cfws()?;
        sec = c.digit_run()?.1;
        if !c.cfws()? {
            return None;
        }
    }
    let offset = match c.peek()? {
        sign @ (b'+' | b'-') => {
            c.at += 1;
            let hh = c.fixed(2)?;
            let mm = c.fixed(2)?;
            if mm > 59 {
                return None;
            }
            let v = (hh * 3600 + mm * 60) as i64;
            if sign == b'+' {
                v
            } else {
                -v
            }
        }
        _ => {
            let name = c.letters();
            if name.is_empty() {
                return None;
            }
            named_zone_offset(name)
        }
    };
    c.cfws()?;
    if !c.at_end() {
        return None;
    }
    LocalTime {
        year,
        month: mo,
        day: day as u64,
        hour: h as u64,
        minute: mi as u64,
        second: sec as u64,
    }
    .at_offset(offset, &[])
}

#[cfg(test)]
mod tests;
