//! `date_flags`: what makes an entry's dates suspicious, in one place
//! (docs/spec/feed-formats-and-extraction.md, Date Parsing: "Missing timezone: Assume UTC and
//! flag as uncertain").
//!
//! The dates looked at are the entry's `published` and `updated`, each else its lenient
//! reading; a flag is set when one of them has it.

use crate::model::{Entry, Timestamp};

/// 1995-01-01T00:00:00Z: before syndication formats existed, so an entry dated earlier is
/// almost always a default or a misread date.
pub const SYNDICATION_EPOCH: i64 = 788_918_400;

/// How far past the reference instant a date must be to be `future` (one day: clocks and
/// zones of publishers and crawlers disagree by hours).
pub const FUTURE_SLACK_SECONDS: i64 = 86_400;

/// The flags, in the order records write them.
pub const DATE_FLAGS: [&str; 4] = ["future", "zone_assumed", "lenient", "before_1995"];

/// The entry's date flags as a bit set over [`DATE_FLAGS`] (bit `i` is `DATE_FLAGS[i]`):
/// `future`: more than [`FUTURE_SLACK_SECONDS`] after `reference`; `zone_assumed`: read by
/// the lenient parser from a date without a zone (UTC assumed); `lenient`: read only by the
/// lenient parser; `before_1995`: before [`SYNDICATION_EPOCH`].
pub(crate) fn date_flags(e: &Entry<'_>, reference: Timestamp) -> u8 {
    let mut flags = 0u8;
    let future_after = reference.unix_seconds().saturating_add(FUTURE_SLACK_SECONDS);
    let dates = [(e.published, e.published_lenient), (e.updated, e.updated_lenient)];
    for (strict, lenient) in dates {
        let t = match (strict, lenient) {
            (Some(t), _) => t,
            (None, Some(l)) => {
                flags |= 1 << 2;
                if l.zone_assumed {
                    flags |= 1 << 1;
                }
                l.timestamp
            }
            (None, None) => continue,
        };
        if t.unix_seconds() > future_after {
            flags |= 1;
        }
        if t.unix_seconds() < SYNDICATION_EPOCH {
            flags |= 1 << 3;
        }
    }
    flags
}

/// The names of the flags set in `bits`, in [`DATE_FLAGS`] order.
pub(crate) fn flag_names(bits: u8) -> &'static [&'static str] {
    // Every subset of the four flags, in order, so a record borrows its list.
    const SUBSETS: [&[&str]; 16] = [
        &[],
        &["future"],
        &["zone_assumed"],
        &["future", "zone_assumed"],
        &["lenient"],
        &["future", "lenient"],
        &["zone_assumed", "lenient"],
        &["future", "zone_assumed", "lenient"],
        &["before_1995"],
        &["future", "before_1995"],
        &["zone_assumed", "before_1995"],
        &["future", "zone_assumed", "before_1995"],
        &["lenient", "before_1995"],
        &["future", "lenient", "before_1995"],
        &["zone_assumed", "lenient", "before_1995"],
        &["future", "zone_assumed", "lenient", "before_1995"],
    ];
    SUBSETS[(bits & 15) as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flag_names_follow_the_bits() {
        for bits in 0u8..16 {
            let names = flag_names(bits);
            let expected: Vec<&str> =
                (0..4).filter(|i| bits & (1 << i) != 0).map(|i| DATE_FLAGS[i]).collect();
            assert_eq!(names, expected.as_slice());
        }
    }

    #[test]
    fn future_needs_more_than_a_day() {
        let reference = Timestamp::from_unix(1_700_000_000).unwrap();
        let mut e = Entry {
            updated: Timestamp::from_unix(1_700_000_000 + FUTURE_SLACK_SECONDS),
            ..Entry::default()
        };
        assert_eq!(date_flags(&e, reference), 0);
        e.updated = Timestamp::from_unix(1_700_000_001 + FUTURE_SLACK_SECONDS);
        assert_eq!(date_flags(&e, reference), 1);
        e.updated = Timestamp::from_unix(SYNDICATION_EPOCH - 1);
        assert_eq!(flag_names(date_flags(&e, reference)), ["before_1995"]);
        e.updated = Timestamp::from_unix(SYNDICATION_EPOCH);
        assert_eq!(date_flags(&e, reference), 0);
    }
}
