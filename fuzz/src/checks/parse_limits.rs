//! The `parse_limits` and `parse_limits_heavy` targets: a document parsed under small
//! resource limits, which the result respects.

use super::*;

/// `parse_limits` target: small limits hold ([`check_parsed_light`]; `max_input_bytes` on
/// the body and on the decoded text).
pub fn check_parse_limits(data: &[u8]) {
    check_limits_case(&LimitsCase::decode(data))
}

/// `parse_limits_heavy` target: also [`check_parsed`], determinism, and `max_entries` only
/// cuts the entry list (a prefix of the entries parsed without the limit, every feed-level
/// value the same).
pub fn check_parse_limits_heavy(data: &[u8]) {
    check_limits_case_heavy(&LimitsCase::decode(data))
}

pub fn check_limits_case(case: &LimitsCase) {
    limits_case(case, false)
}

pub fn check_limits_case_heavy(case: &LimitsCase) {
    limits_case(case, true)
}

fn limits_case(case: &LimitsCase, heavy: bool) {
    let limits = case.limits.to_limits();
    let mut opts = Options::default();
    opts.limits = limits.clone();
    let mut parser = Parser::new(opts.clone());
    let result = parser.parse_bytes(&case.body, None);
    if case.body.len() > limits.max_input_bytes {
        assert_eq!(
            result.err(),
            Some(Error::InputTooLarge { size: case.body.len(), limit: limits.max_input_bytes }),
            "max_input_bytes not enforced"
        );
        return;
    }
    let decoded = input::decode::decode_with(&case.body, None, opts.recover());
    if decoded.text.len() > limits.max_input_bytes {
        // The limit also applies to the decoded text, which can be longer than the body
        // (U+FFFD for an invalid byte, non-ASCII in a legacy encoding); the error then reports
        // the text's size (found by this target: documented behaviour of `Parser::run`).
        assert_eq!(
            result.err(),
            Some(Error::InputTooLarge { size: decoded.text.len(), limit: limits.max_input_bytes }),
            "max_input_bytes not enforced on the decoded text"
        );
        return;
    }
    let p = result.expect("parse_bytes failed within max_input_bytes");
    if !heavy {
        check_parsed_light(&p, case.body.len(), &decoded.text, &limits);
        return;
    }
    check_parsed(&p, case.body.len(), &decoded.text, &limits);
    let first = snapshot(&p);
    let mut fresh = Parser::new(opts.clone());
    assert_eq!(first, snapshot(&fresh.parse_bytes(&case.body, None).unwrap()), "not deterministic");
    // The same limits but no entry limit: the limited entries are a prefix, the rest is equal.
    let mut unlimited = opts;
    unlimited.limits.max_entries = usize::MAX;
    let mut up = Parser::new(unlimited);
    let all = up.parse_bytes(&case.body, None).unwrap();
    assert_eq!(first.format, all.format);
    if let (Some(cut), Some(full)) = (&p.feed, &all.feed) {
        let (mut cut, mut full) = (cut.clone(), full.clone());
        assert!(cut.entries.len() <= full.entries.len());
        if first.format == Some(feedmill::Format::Json) {
            // The JSON Feed reader also caps list members (`authors`, `tags`, `attachments`)
            // at `max_entries` (documented): each capped list is a prefix of the full one.
            fn capped<T: PartialEq + Clone + std::fmt::Debug>(
                cut: &mut Vec<T>,
                full: &[T],
                max: usize,
            ) {
                assert!(
                    cut.len() <= max && full.starts_with(cut),
                    "{cut:?} is not a cap of {full:?}"
                );
                *cut = full.to_vec();
            }
            let max = limits.max_entries;
            capped(&mut cut.authors, &full.authors, max);
            for (c, f) in cut.entries.iter_mut().zip(&full.entries) {
                capped(&mut c.authors, &f.authors, max);
                capped(&mut c.categories, &f.categories, max);
                capped(&mut c.enclosures, &f.enclosures, max);
            }
        }
        assert_eq!(
            cut.entries[..],
            full.entries[..cut.entries.len()],
            "max_entries changed the kept entries"
        );
        cut.entries.clear();
        full.entries.clear();
        assert_eq!(cut, full, "max_entries changed feed-level values");
    }
}
