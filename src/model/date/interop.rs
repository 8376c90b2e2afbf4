//! Order and conversions of [`Timestamp`]: to and from [`std::time::SystemTime`], and — by
//! cargo feature — `chrono`, `jiff` and `time`.
//!
//! A conversion keeps nanoseconds: the first nine of the original fractional digits (the rest
//! are dropped, never rounded, as the parsers do). Converting back from those types gives the
//! nanosecond digits with trailing zeros removed. An instant of those types outside UTC years
//! 0001–9999 (the range of a `Timestamp`) gives [`OutOfRange`].

use std::cmp::Ordering;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::Timestamp;

/// Instants in time order; equal instants with different fractional digits (`.5` and `.50`)
/// cannot occur, since trailing zeros are removed.
impl Ord for Timestamp {
    fn cmp(&self, other: &Self) -> Ordering {
        // Digits are compared as decimal fractions: unused bytes are 0, below every ASCII
        // digit, and the last kept digit is never '0', so a longer fraction with the same
        // prefix is the larger one.
        self.unix_seconds.cmp(&other.unix_seconds).then_with(|| self.frac.cmp(&other.frac))
    }
}

impl PartialOrd for Timestamp {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Timestamp {
    /// The sub-second part in nanoseconds (the first nine fractional digits).
    pub fn subsec_nanos(&self) -> u32 {
        let mut nanos = 0u32;
        for i in 0..9 {
            let digit = match self.frac[i] {
                d @ b'0'..=b'9' => u32::from(d - b'0'),
                _ => 0,
            };
            nanos = nanos * 10 + digit;
        }
        nanos
    }

    /// An instant from seconds and nanoseconds since the Unix epoch (`nanos` < 10⁹, else
    /// `None`; `None` outside UTC years 0001–9999).
    pub fn from_unix_nanos(unix_seconds: i64, nanos: u32) -> Option<Self> {
        if nanos >= 1_000_000_000 {
            return None;
        }
        let mut digits = [0u8; 9];
        let mut n = nanos;
        for d in digits.iter_mut().rev() {
            *d = b'0' + (n % 10) as u8;
            n /= 10;
        }
        Self::from_parts(unix_seconds, &digits)
    }

    /// The instant as a [`SystemTime`] (`None` outside the platform's range).
    pub fn to_system_time(&self) -> Option<SystemTime> {
        let nanos = Duration::from_nanos(u64::from(self.subsec_nanos()));
        if self.unix_seconds >= 0 {
            UNIX_EPOCH
                .checked_add(Duration::from_secs(self.unix_seconds as u64))?
                .checked_add(nanos)
        } else {
            UNIX_EPOCH
                .checked_sub(Duration::from_secs(self.unix_seconds.unsigned_abs()))?
                .checked_add(nanos)
        }
    }

    /// The instant of a [`SystemTime`] (`None` outside UTC years 0001–9999).
    pub fn from_system_time(t: SystemTime) -> Option<Self> {
        match t.duration_since(UNIX_EPOCH) {
            Ok(d) => Self::from_unix_nanos(i64::try_from(d.as_secs()).ok()?, d.subsec_nanos()),
            Err(before) => {
                let d = before.duration();
                let secs = i64::try_from(d.as_secs()).ok()?;
                if d.subsec_nanos() == 0 {
                    Self::from_unix(-secs)
                } else {
                    Self::from_unix_nanos(-secs - 1, 1_000_000_000 - d.subsec_nanos())
                }
            }
        }
    }
}

impl TryFrom<Timestamp> for SystemTime {
    type Error = OutOfRange;
    fn try_from(t: Timestamp) -> Result<Self, OutOfRange> {
        t.to_system_time().ok_or(OutOfRange)
    }
}

impl TryFrom<SystemTime> for Timestamp {
    type Error = OutOfRange;
    fn try_from(t: SystemTime) -> Result<Self, OutOfRange> {
        Timestamp::from_system_time(t).ok_or(OutOfRange)
    }
}

/// A [`Timestamp`] conversion whose target cannot represent the instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfRange;

impl std::fmt::Display for OutOfRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("instant out of the target type's range")
    }
}

impl std::error::Error for OutOfRange {}

#[cfg(feature = "chrono")]
impl TryFrom<Timestamp> for chrono::DateTime<chrono::Utc> {
    type Error = OutOfRange;
    fn try_from(t: Timestamp) -> Result<Self, OutOfRange> {
        chrono::DateTime::from_timestamp(t.unix_seconds, t.subsec_nanos()).ok_or(OutOfRange)
    }
}

#[cfg(feature = "chrono")]
impl<Tz: chrono::TimeZone> TryFrom<chrono::DateTime<Tz>> for Timestamp {
    type Error = OutOfRange;
    fn try_from(t: chrono::DateTime<Tz>) -> Result<Self, OutOfRange> {
        Timestamp::from_unix_nanos(t.timestamp(), t.timestamp_subsec_nanos()).ok_or(OutOfRange)
    }
}

#[cfg(feature = "jiff")]
impl TryFrom<Timestamp> for jiff::Timestamp {
    type Error = OutOfRange;
    fn try_from(t: Timestamp) -> Result<Self, OutOfRange> {
        jiff::Timestamp::new(t.unix_seconds, t.subsec_nanos() as i32).map_err(|_| OutOfRange)
    }
}

#[cfg(feature = "jiff")]
impl TryFrom<jiff::Timestamp> for Timestamp {
    type Error = OutOfRange;
    fn try_from(t: jiff::Timestamp) -> Result<Self, OutOfRange> {
        let (secs, nanos) = (t.as_second(), t.subsec_nanosecond());
        if nanos >= 0 {
            Timestamp::from_unix_nanos(secs, nanos as u32).ok_or(OutOfRange)
        } else {
            Timestamp::from_unix_nanos(secs - 1, (1_000_000_000 + nanos) as u32).ok_or(OutOfRange)
        }
    }
}

#[cfg(feature = "time")]
impl TryFrom<Timestamp> for time::OffsetDateTime {
    type Error = OutOfRange;
    fn try_from(t: Timestamp) -> Result<Self, OutOfRange> {
        let nanos = i128::from(t.unix_seconds) * 1_000_000_000 + i128::from(t.subsec_nanos());
        time::OffsetDateTime::from_unix_timestamp_nanos(nanos).map_err(|_| OutOfRange)
    }
}

#[cfg(feature = "time")]
impl TryFrom<time::OffsetDateTime> for Timestamp {
    type Error = OutOfRange;
    fn try_from(t: time::OffsetDateTime) -> Result<Self, OutOfRange> {
        let nanos = t.unix_timestamp_nanos();
        let secs = i64::try_from(nanos.div_euclid(1_000_000_000)).map_err(|_| OutOfRange)?;
        Timestamp::from_unix_nanos(secs, nanos.rem_euclid(1_000_000_000) as u32).ok_or(OutOfRange)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::date::parse_rfc3339;

    fn ts(s: &str) -> Timestamp {
        parse_rfc3339(s).unwrap()
    }

    #[test]
    fn order_is_time_order() {
        let mut v = [
            ts("2024-01-01T00:00:00.5Z"),
            ts("2023-12-31T23:59:59Z"),
            ts("2024-01-01T00:00:00Z"),
            ts("2024-01-01T00:00:00.05Z"),
            ts("2024-01-01T00:00:00.51Z"),
            ts("1969-12-31T23:59:59.9Z"),
        ];
        v.sort();
        let s: Vec<String> = v.iter().map(|t| t.to_string()).collect();
        assert_eq!(
            s,
            [
                "1969-12-31T23:59:59.9Z",
                "2023-12-31T23:59:59Z",
                "2024-01-01T00:00:00Z",
                "2024-01-01T00:00:00.05Z",
                "2024-01-01T00:00:00.5Z",
                "2024-01-01T00:00:00.51Z",
            ]
        );
    }

    #[test]
    fn system_time_round_trip() {
        for s in
            ["2024-02-29T12:34:56.123456789Z", "1969-12-31T23:59:59.25Z", "1970-01-01T00:00:00Z"]
        {
            let t = ts(s);
            let sys = SystemTime::try_from(t).unwrap();
            assert_eq!(Timestamp::try_from(sys).unwrap(), t, "{s}");
        }
        let t = ts("2024-02-29T12:34:56.1234567891Z");
        assert_eq!(t.subsec_nanos(), 123_456_789);
        assert_eq!(
            Timestamp::from_system_time(t.to_system_time().unwrap()).unwrap().to_string(),
            "2024-02-29T12:34:56.123456789Z"
        );
        assert_eq!(Timestamp::from_unix_nanos(0, 1_000_000_000), None);
    }

    #[cfg(feature = "chrono")]
    #[test]
    fn chrono_round_trip() {
        let t = ts("2024-02-29T12:34:56.5Z");
        let c = chrono::DateTime::<chrono::Utc>::try_from(t).unwrap();
        assert_eq!(c.to_rfc3339(), "2024-02-29T12:34:56.500+00:00");
        assert_eq!(Timestamp::try_from(c).unwrap(), t);
    }

    #[cfg(feature = "jiff")]
    #[test]
    fn jiff_round_trip() {
        let t = ts("1969-07-20T20:17:40.25Z");
        let j = jiff::Timestamp::try_from(t).unwrap();
        assert_eq!(j.to_string(), "1969-07-20T20:17:40.25Z");
        assert_eq!(Timestamp::try_from(j).unwrap(), t);
    }

    #[cfg(feature = "time")]
    #[test]
    fn time_round_trip() {
        let t = ts("1969-07-20T20:17:40.25Z");
        let o = time::OffsetDateTime::try_from(t).unwrap();
        assert_eq!(o.unix_timestamp(), t.unix_seconds());
        assert_eq!(Timestamp::try_from(o).unwrap(), t);
    }
}
