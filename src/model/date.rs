//! STUB — replaced by the dates helper. Interface only.
use std::fmt;

/// An instant in UTC with the original fractional-second digits.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Timestamp {
    unix_seconds: i64,
    frac_len: u8,
    frac: [u8; 31],
}

impl Timestamp {
    pub fn unix_seconds(&self) -> i64 { self.unix_seconds }
    pub fn fraction_digits(&self) -> &str { std::str::from_utf8(&self.frac[..self.frac_len as usize]).unwrap_or("") }
    pub fn from_unix(unix_seconds: i64) -> Self { Timestamp { unix_seconds, frac_len: 0, frac: [0; 31] } }
}
impl fmt::Display for Timestamp { fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { write!(f, "{}", self.unix_seconds) } }
impl fmt::Debug for Timestamp { fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { fmt::Display::fmt(self, f) } }
pub fn parse_rfc3339(_s: &str) -> Option<Timestamp> { None }
pub fn parse_w3cdtf(_s: &str) -> Option<Timestamp> { None }
pub fn parse_rfc822(_s: &str) -> Option<Timestamp> { None }
