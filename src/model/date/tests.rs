use super::*;

/// The form built with the formatting machinery, as `Display` wrote it before.
fn reference_rfc3339(t: &Timestamp) -> String {
    let (y, mo, d, h, mi, s) = t.civil();
    let sign = if y < 0 { "-" } else { "" };
    let y = y.unsigned_abs();
    let frac = t.fraction_digits();
    let dot = if frac.is_empty() { "" } else { "." };
    format!("{sign}{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}{dot}{frac}Z")
}

#[test]
fn digit_formatting_matches_the_reference() {
    let (min, max) = (Timestamp::MIN_UNIX_SECONDS, Timestamp::MAX_UNIX_SECONDS);
    let mut seconds = vec![min, min + 1, max, max - 1, 0, -1, 1, 951_782_400];
    // The extremes, then every power of 3 in range, both signs, with odd offsets.
    let mut x: i64 = 1;
    while x < max {
        seconds.extend([x, -x, x + 86_399, -x - 3_601]);
        x *= 3;
    }
    seconds.retain(|u| (min..=max).contains(u));
    for (i, &u) in seconds.iter().enumerate() {
        let fraction = &"1234567890123456789012345678901"[..i % 32];
        let t = Timestamp::with_fraction(u, fraction).unwrap();
        assert_eq!(t.to_string(), reference_rfc3339(&t), "{u} {fraction}");
        assert!(t.to_string().len() <= RFC3339_MAX_LEN);
    }
}

fn s3339(s: &str) -> Option<String> {
    parse_rfc3339(s).map(|t| t.to_string())
}
fn w3c(s: &str) -> Option<String> {
    parse_w3cdtf(s).map(|t| t.to_string())
}
fn r822(s: &str) -> Option<String> {
    parse_rfc822(s).map(|t| t.to_string())
}
fn some(s: &str) -> Option<String> {
    Some(s.to_owned())
}

// ----- Timestamp / calendar -------------------------------------------------------------

#[test]
fn epoch_anchors() {
    assert_eq!(parse_rfc3339("1970-01-01T00:00:00Z").unwrap().unix_seconds(), 0);
    assert_eq!(parse_rfc3339("2000-03-01T00:00:00Z").unwrap().unix_seconds(), 951_868_800);
    let first = parse_rfc3339("0001-01-01T00:00:00Z").unwrap().unix_seconds();
    assert_eq!(first, Timestamp::MIN_UNIX_SECONDS);
    let last = parse_rfc3339("9999-12-31T23:59:59Z").unwrap().unix_seconds();
    assert_eq!(last, Timestamp::MAX_UNIX_SECONDS);
    assert_eq!(parse_rfc3339("1969-12-31T23:59:59Z").unwrap().unix_seconds(), -1);
    let at = |u| Timestamp::from_unix(u).unwrap();
    assert_eq!(at(0).to_string(), "1970-01-01T00:00:00Z");
    assert_eq!(at(-1).to_string(), "1969-12-31T23:59:59Z");
    assert_eq!(format!("{:?}", at(86_400)), "1970-01-02T00:00:00Z");
}

#[test]
fn day_walk_matches_calendar() {
    // Independent check of days_from_civil / civil_from_days: walk every day 1599–2401.
    let mut days = days_from_civil(1599, 1, 1).unwrap();
    for y in 1599..=2401i64 {
        for m in 1..=12u32 {
            let dim = days_in_month(y, m);
            for d in 1..=dim {
                assert_eq!(days_from_civil(y, m, d), Some(days), "{y}-{m}-{d}");
                assert_eq!(civil_from_days(days), (y, m, d));
                days += 1;
            }
        }
    }
}

#[test]
fn leap_years() {
    assert!(parse_rfc3339("2000-02-29T00:00:00Z").is_some());
    assert!(parse_rfc3339("1900-02-29T00:00:00Z").is_none());
    assert!(parse_rfc3339("2016-02-29T00:00:00Z").is_some());
    assert!(parse_rfc3339("2015-02-29T00:00:00Z").is_none());
    assert!(parse_w3cdtf("2000-02-29").is_some());
    assert!(parse_w3cdtf("1900-02-29").is_none());
    assert!(parse_w3cdtf("2016-02-29").is_some());
    assert!(parse_rfc822("29 Feb 2000 00:00 GMT").is_some());
    assert!(parse_rfc822("29 Feb 1900 00:00 GMT").is_none());
    assert!(parse_rfc822("29 Feb 2016 00:00 GMT").is_some());
    assert!(parse_rfc822("29 Feb 16 00:00 GMT").is_some());
    assert!(parse_rfc822("29 Feb 400 00:00 GMT").is_none()); // 3 digits: 2300, not leap
    assert!(parse_rfc822("29 Feb 100 00:00 GMT").is_some()); // 3 digits: 100 + 1900 = 2000
    assert!(parse_rfc822("29 Feb 00 00:00 GMT").is_some()); // 2 digits: 2000
    assert!(parse_rfc822("29 Feb 4 00:00 GMT").is_some()); // 1 digit: year 4 (leap)
    assert!(parse_rfc822("29 Feb 1 00:00 GMT").is_none());
}

#[test]
fn fraction_digits_preserved() {
    assert_eq!(s3339("2016-03-05T10:20:30.500Z"), some("2016-03-05T10:20:30.5Z"));
    assert_eq!(s3339("2016-03-05T10:20:30.000Z"), some("2016-03-05T10:20:30Z"));
    assert_eq!(
        s3339("2016-03-05T10:20:30.123456789123Z"),
        some("2016-03-05T10:20:30.123456789123Z")
    );
    assert_eq!(parse_rfc3339("2016-03-05T10:20:30.000Z").unwrap().fraction_digits(), "");
    assert_eq!(parse_rfc3339("2016-03-05T10:20:30.0100Z").unwrap().fraction_digits(), "01");
    assert_eq!(w3c("2016-03-05T10:20:30.500Z"), some("2016-03-05T10:20:30.5Z"));
    assert_eq!(w3c("2016-03-05T10:20:30.000+01:00"), some("2016-03-05T09:20:30Z"));
    // Negative offsets and fractions: the fraction is not affected by the offset.
    assert_eq!(s3339("1970-01-01T00:00:00.25-00:01"), some("1970-01-01T00:01:00.25Z"));
    // `.` without digits.
    assert_eq!(s3339("2016-03-05T10:20:30.Z"), None);
    assert_eq!(w3c("2016-03-05T10:20:30.Z"), None);
    // Truncation to 31 digits, then trailing zeros removed.
    let long = "1234567890123456789012345678901234567890";
    let t = parse_rfc3339(&format!("2016-03-05T10:20:30.{long}Z")).unwrap();
    assert_eq!(t.fraction_digits(), &long[..31]);
    let t = parse_rfc3339(&format!("2016-03-05T10:20:30.1{}5Z", "0".repeat(40))).unwrap();
    assert_eq!(t.fraction_digits(), "1");
    // Equality is value equality.
    assert_eq!(parse_rfc3339("2016-03-05T10:20:30.5Z"), parse_rfc3339("2016-03-05T10:20:30.50Z"));
    assert_ne!(parse_rfc3339("2016-03-05T10:20:30.5Z"), parse_rfc3339("2016-03-05T10:20:30Z"));
    assert_eq!(
        Timestamp::with_fraction(0, "120"),
        Some(Timestamp::with_fraction(0, "12").unwrap())
    );
    assert_eq!(Timestamp::with_fraction(0, "1a"), None);
}

#[test]
fn year_padding_and_extremes() {
    assert_eq!(w3c("0005"), some("0005-01-01T00:00:00Z"));
    assert_eq!(r822("1 Jan 5 00:00 GMT"), some("0005-01-01T00:00:00Z"));
    assert_eq!(w3c("0001"), some("0001-01-01T00:00:00Z"));
    assert_eq!(w3c("9999-12-31T23:59:59.999Z"), some("9999-12-31T23:59:59.999Z"));
}

/// Instants outside UTC years 0001–9999 are not `Timestamp`s: RFC 3339 cannot write them,
/// and readers of the Parquet output (pyarrow) fail on the whole file for one of them. Every
/// parser gives `None` (its callers record the value as not a date), whatever the form,
/// also when only the zone offset carries the instant out of range.
#[test]
fn years_outside_0001_to_9999_are_none() {
    for y in ["0000", "10000", "99999", "-1", "-0001"] {
        assert_eq!(s3339(&format!("{y}-06-15T12:00:00Z")), None, "{y}");
        assert_eq!(w3c(&format!("{y}-06-15T12:00:00Z")), None, "{y}");
        assert_eq!(w3c(&format!("{y}-06-15")), None, "{y}");
        assert_eq!(w3c(y), None, "{y}");
        assert_eq!(r822(&format!("Sat, 15 Jun {y} 12:00:00 GMT")), None, "{y}");
    }
    // 1 digit: year 0; 0001 and 9999 are kept, to their last second.
    assert_eq!(r822("1 Jan 0 00:00 GMT"), None);
    assert_eq!(s3339("0001-01-01T00:00:00Z"), some("0001-01-01T00:00:00Z"));
    assert_eq!(r822("1 Jan 0001 00:00 GMT"), some("0001-01-01T00:00:00Z"));
    assert_eq!(w3c("9999"), some("9999-01-01T00:00:00Z"));
    assert_eq!(r822("31 Dec 9999 23:59:59 GMT"), some("9999-12-31T23:59:59Z"));
    // The offset decides: the UTC instant is what must be in range.
    assert_eq!(s3339("0001-01-01T00:00:00+00:01"), None);
    assert_eq!(s3339("0001-01-01T00:00:00-00:01"), some("0001-01-01T00:01:00Z"));
    assert_eq!(w3c("9999-12-31T23:59:59-00:01"), None);
    assert_eq!(r822("1 Jan 0001 00:00 +0100"), None);
    // No constructor makes one either.
    let (min, max) = (Timestamp::MIN_UNIX_SECONDS, Timestamp::MAX_UNIX_SECONDS);
    for u in [min - 1, max + 1, i64::MIN, i64::MAX] {
        assert_eq!(Timestamp::from_unix(u), None, "{u}");
        assert_eq!(Timestamp::with_fraction(u, "5"), None, "{u}");
        assert_eq!(Timestamp::from_unix_nanos(u, 0), None, "{u}");
    }
    assert_eq!(
        Timestamp::with_fraction(max, "999").unwrap().to_string(),
        "9999-12-31T23:59:59.999Z"
    );
    assert_eq!(Timestamp::from_unix(min).unwrap().to_string(), "0001-01-01T00:00:00Z");
}

#[test]
fn huge_numbers_are_none_not_panics() {
    let huge = "99999999999999999999";
    assert_eq!(w3c(huge), None);
    assert_eq!(w3c("9999999999999"), None); // fits i64 as a year, not as seconds
    assert_eq!(w3c(&"9".repeat(300)), None);
    // Around the last year whose start fits an i64 second count.
    assert_eq!(w3c("292277026596"), None);
    assert_eq!(w3c("292277026596-12-04T15:30:07Z"), None);
    assert_eq!(w3c("292277026596-12-04T15:30:08Z"), None);
    assert_eq!(w3c("292277026597"), None);
    assert_eq!(r822("4 Dec 292277026596 15:30:07 -9959"), None);
    assert_eq!(r822(&format!("1 Jan {huge} 00:00 GMT")), None);
    assert_eq!(r822(&format!("{huge} Jan 2016 00:00 GMT")), None);
    assert_eq!(r822(&format!("1 Jan 2016 {huge}:00 GMT")), None);
    assert_eq!(r822(&format!("1 Jan 2016 00:{huge} GMT")), None);
    assert_eq!(r822(&format!("1 Jan 2016 00:00:{huge} GMT")), None);
    assert_eq!(r822("1 Jan 9999999999999 00:00 GMT"), None);
    // Leading zeros are harmless however many there are.
    let z = "0".repeat(100);
    assert_eq!(r822(&format!("{z}1 Jan 2016 {z}3:{z}5:{z}7 GMT")), some("2016-01-01T03:05:07Z"));
    assert_eq!(w3c(&format!("{z}2016")), some("2016-01-01T00:00:00Z"));
}

// ----- §4.1 RFC 3339 ---------------------------------------------------------------------

#[test]
fn rfc3339_accepted() {
    assert_eq!(s3339("2052-01-04T00:20:31+06:01"), some("2052-01-03T18:19:31Z"));
    assert_eq!(s3339("1903-04-01T12:03:11Z"), some("1903-04-01T12:03:11Z"));
    assert_eq!(s3339("2016-03-20T08:17:44+00:00"), some("2016-03-20T08:17:44Z"));
    assert_eq!(s3339("0001-01-01T00:00:00Z"), some("0001-01-01T00:00:00Z"));
    assert_eq!(s3339("2016-03-20t08:17:44z"), some("2016-03-20T08:17:44Z"));
    assert_eq!(s3339("2016-03-20T08:17:44+0100"), some("2016-03-20T07:17:44Z"));
    assert_eq!(s3339("2016-03-20T08:17:44-00:00"), some("2016-03-20T08:17:44Z"));
    assert_eq!(s3339("2016-03-20T08:17:44+23:59"), some("2016-03-19T08:18:44Z"));
    assert_eq!(s3339("2016-03-20T08:17:44-23:59"), some("2016-03-21T08:16:44Z"));
    assert_eq!(s3339("9999-12-31T23:59:59Z"), some("9999-12-31T23:59:59Z"));
}

#[test]
fn rfc3339_rejected() {
    for s in [
        "4244",
        "2052-01-04<x>T</x>00:20:31+06:01",
        "2016-03-05T10:20Z",
        " 2016-03-05T10:20:30Z",
        "2016-03-05T10:20:30Z ",
        "2016-03-05 10:20:30Z",
        "12016-03-05T10:20:30Z",
        "2016-02-30T10:20:30Z",
        "2016-03-05T24:00:00Z",
        "2016-03-05T23:59:60Z",
        "2016-03-05T23:60:00Z",
        "2016-03-05T10:20:30+24:00",
        "2016-03-05T10:20:30+00:60",
        "2016-03-05T10:20:30",
        "2016-03-05T10:20:30+01",
        "2016-03-05T10:20:30+1:00",
        "2016-13-05T10:20:30Z",
        "2016-00-05T10:20:30Z",
        "2016-03-00T10:20:30Z",
        "2016-03-32T10:20:30Z",
        "2016-04-31T10:20:30Z",
        "2016-3-05T10:20:30Z",
        "2016-03-05X10:20:30Z",
        "2016-03-05T10:20:30ZZ",
        "2016-03-05T10:20:30.5",
        "2016-03-05",
        "",
        "２016-03-05T10:20:30Z",
    ] {
        assert_eq!(s3339(s), None, "{s:?}");
    }
}

// ----- §4.2 W3C-DTF ----------------------------------------------------------------------

#[test]
fn w3cdtf_accepted() {
    assert_eq!(w3c("4244"), some("4244-01-01T00:00:00Z"));
    assert_eq!(w3c("2016-03"), some("2016-03-01T00:00:00Z"));
    assert_eq!(w3c("2016-03-05"), some("2016-03-05T00:00:00Z"));
    assert_eq!(w3c("2016-03-05T10:20Z"), some("2016-03-05T10:20:00Z"));
    assert_eq!(w3c("2016-03-05T10:20:30Z"), some("2016-03-05T10:20:30Z"));
    assert_eq!(w3c("2013-03-05T00:13:33-03:11"), some("2013-03-05T03:24:33Z"));
    assert_eq!(w3c("2013-03-05T00:13:33-0311"), some("2013-03-05T03:24:33Z"));
    assert_eq!(w3c("2016-03-05T10:20-00:00"), some("2016-03-05T10:20:00Z"));
    assert_eq!(w3c("0001"), some("0001-01-01T00:00:00Z"));
    assert_eq!(w3c("09999"), some("9999-01-01T00:00:00Z"));
}

#[test]
fn w3cdtf_rejected() {
    for s in [
        "4a4",
        "201",
        "2016-3-5",
        "2016-13",
        "2016-00",
        "2016-03-05T10:20",
        " 2016",
        "2016 ",
        "2016-03-05t10:20Z",
        "2016-03-05T10:20z",
        "2016-03-05T10:20:60Z",
        "2016-03-05T24:00Z",
        "2016-03-05T10:20+24:00",
        "2016-03-05T10:20+00:60",
        "2016-03-05T10Z",
        "2016-03-05T10:2Z",
        "2016-03-05T10:20:3Z",
        "2016-02-30",
        "2016-03-",
        "2016-",
        "2016-03-05T",
        "2016-03-05 10:20Z",
        "2016-031",
        "2016Z",
        "2016-03T10:20Z",
        "",
    ] {
        assert_eq!(w3c(s), None, "{s:?}");
    }
}

// ----- §4.3 RFC 822 ----------------------------------------------------------------------

#[test]
fn rfc822_accepted() {
    let cases = [
        ("Sat, 20 Mar 2016 03:13:44 -0504", "2016-03-20T08:17:44Z"),
        ("20 Mar 2016 03:13:44 -0504", "2016-03-20T08:17:44Z"),
        ("20 Mar 16 03:13 EST", "2016-03-20T08:13:00Z"),
        ("20 Mar 2016 3:5:7 JST", "2016-03-19T18:05:07Z"),
        ("(c) 20 Mar 2016 03:13:44 GMT (c)", "2016-03-20T03:13:44Z"),
        ("20 mar 2016 03:13:44 gmt", "2016-03-20T03:13:44Z"),
        ("20 MAR 2016 03:13:44 GmT", "2016-03-20T03:13:44Z"),
        ("Xyz, 20 Mar 2016 03:13:44 GMT", "2016-03-20T03:13:44Z"),
        ("Mon,20 Mar 2016 03:13:44 GMT", "2016-03-20T03:13:44Z"),
        ("Mon , 20 Mar 2016 03:13:44 GMT", "2016-03-20T03:13:44Z"),
        ("Mon(x),(y)20 Mar 2016 03:13:44 GMT", "2016-03-20T03:13:44Z"),
        ("20 Mar 2016 03:13GMT", "2016-03-20T03:13:00Z"),
        ("20 Mar 2016 03 : 13 : 44 GMT", "2016-03-20T03:13:44Z"),
        ("20(a)Mar(b)2016(c)03(d):(e)13(f):(g)44(h)GMT", "2016-03-20T03:13:44Z"),
        ("\t\r\n20\tMar\r\n2016\n03:13:44\tGMT\r\n", "2016-03-20T03:13:44Z"),
        ("20 Mar 2016 03:13:44 +0000", "2016-03-20T03:13:44Z"),
        ("20 Mar 2016 03:13:44 -0000", "2016-03-20T03:13:44Z"),
        ("20 Mar 2016 03:13:44 +9900", "2016-03-16T00:13:44Z"),
        ("20 Mar 2016 03:13:44 -9959", "2016-03-24T07:12:44Z"),
        ("20 Mar 2016 03:13:44 +0959", "2016-03-19T17:14:44Z"),
        ("1 Jan 2016 00:00 GMT", "2016-01-01T00:00:00Z"),
        ("01 Jan 2016 00:00 GMT", "2016-01-01T00:00:00Z"),
        ("001 Jan 2016 00:00 GMT", "2016-01-01T00:00:00Z"),
        ("20 Mar 2016 03:13:44 GMT", "2016-03-20T03:13:44Z"),
    ];
    for (s, want) in cases {
        assert_eq!(r822(s), some(want), "{s:?}");
    }
}

#[test]
fn rfc822_comments() {
    let cases = [
        ("(a (nested (deeply)) comment) 20 Mar 2016 03:13:44 GMT", "2016-03-20T03:13:44Z"),
        ("20 Mar 2016 03:13:44 GMT (unbalanced \\) escaped)", "2016-03-20T03:13:44Z"),
        ("20 Mar 2016 03:13:44 GMT (escaped \\( paren)", "2016-03-20T03:13:44Z"),
        ("20 Mar 2016 03:13:44 GMT (\\\\)", "2016-03-20T03:13:44Z"),
        ("20 Mar 2016 03:13:44 (x)GMT", "2016-03-20T03:13:44Z"),
        ("20 Mar 2016 03:13:44 GMT(x)", "2016-03-20T03:13:44Z"),
        ("20 Mar 2016 03:13:44 +0100 (CET)", "2016-03-20T02:13:44Z"),
        ("()20 Mar 2016 03:13:44 GMT()", "2016-03-20T03:13:44Z"),
        ("20 Mar 2016 03:13:44 GMT (ünïcödé \\é)", "2016-03-20T03:13:44Z"),
    ];
    for (s, want) in cases {
        assert_eq!(r822(s), some(want), "{s:?}");
    }
    for s in [
        "(unterminated 20 Mar 2016 03:13:44 GMT",
        "20 Mar 2016 03:13:44 GMT (unterminated",
        "20 Mar 2016 03:13:44 GMT (a (b)",
        "20 Mar 2016 03:13:44 GMT (\\)",
        "20 Mar 2016 03:13:44 GMT (\\",
        "20 Mar 2016 03:13:44 GMT )",
    ] {
        assert_eq!(r822(s), None, "{s:?}");
    }
}

#[test]
fn rfc822_rejected() {
    for s in [
        "3/5",
        "2016-03-20T08:17:44Z",
        "2016-03-20T08:17:44+00:00",
        "20-Mar-2016 03:13:44 GMT",
        "31 Feb 2016 03:13:44 GMT",
        "20 Mar 2016 03:13:44 +0960",
        "20 Mar 2016 03:13:44",
        "20 Mar 2016 03:13",
        "Sat 20 Mar 2016 03:13:44 GMT",
        "Saturday 20 Mar 2016 03:13:44 GMT",
        "20 March 2016 03:13:44 GMT",
        "20 Ma 2016 03:13:44 GMT",
        "20 Mar 2016 03:13:44GMT",
        "20 Mar 2016 03:13:44+0000",
        "20 Mar 2016 24:00:00 GMT",
        "20 Mar 2016 03:60:00 GMT",
        "20 Mar 2016 03:13:60 GMT",
        "0 Mar 2016 03:13:44 GMT",
        "32 Mar 2016 03:13:44 GMT",
        "31 Apr 2016 03:13:44 GMT",
        "20Mar 2016 03:13:44 GMT",
        "20 Mar2016 03:13:44 GMT",
        "20 Mar 201603:13:44 GMT",
        "20 Mar 2016 03:13:44 +000",
        "20 Mar 2016 03:13:44 +00000",
        "20 Mar 2016 03:13:44 +00:00",
        "20 Mar 2016 03:13:44 0000",
        "20 Mar 2016 03:13:44 GMT GMT",
        "20 Mar 2016 03:13:44 GMT1",
        "20 Mar 2016 03:13:44 G-T",
        "20 Mar 2016 03: GMT",
        "20 Mar 2016 :13 GMT",
        "20 Mar 2016 03:13: GMT",
        ", 20 Mar 2016 03:13:44 GMT",
        "Sat,, 20 Mar 2016 03:13:44 GMT",
        "Sat, Mar 20 2016 03:13:44 GMT",
        "Sat, 20 Mar 2016",
        "",
        "   ",
        "20 Mär 2016 03:13:44 GMT",
    ] {
        assert_eq!(r822(s), None, "{s:?}");
    }
}

#[test]
fn rfc822_years() {
    let at = |y: &str| parse_rfc822(&format!("1 Jan {y} 00:00 GMT")).map(|t| t.civil().0);
    assert_eq!(at("49"), Some(2049));
    assert_eq!(at("50"), Some(1950));
    assert_eq!(at("16"), Some(2016));
    assert_eq!(at("99"), Some(1999));
    assert_eq!(at("00"), Some(2000));
    assert_eq!(at("05"), Some(2005));
    assert_eq!(at("116"), Some(2016));
    assert_eq!(at("016"), Some(1916));
    assert_eq!(at("999"), Some(2899));
    assert_eq!(at("5"), Some(5));
    assert_eq!(at("0"), None); // year 0
    assert_eq!(at("1"), Some(1));
    assert_eq!(at("2016"), Some(2016));
    assert_eq!(at("0049"), Some(49));
    assert_eq!(at("12016"), None); // past 9999
}

#[test]
fn rfc822_military_and_unknown_letters_are_utc() {
    let base = parse_rfc822("20 Mar 2016 03:13:44 +0000").unwrap();
    for c in b'A'..=b'Z' {
        for c in [c, c.to_ascii_lowercase()] {
            let s = format!("20 Mar 2016 03:13:44 {}", c as char);
            assert_eq!(parse_rfc822(&s), Some(base), "{s:?}");
        }
    }
    for z in ["Z", "XYZ", "ABCDEFGHIJKLMNOP", "Europe"] {
        let s = format!("20 Mar 2016 03:13:44 {z}");
        assert_eq!(parse_rfc822(&s), Some(base), "{s:?}");
    }
}

/// The zone table exactly as NOTES §4.3 prints it.
const NOTES_ZONES: &str =
    "-1200 IDLW; -1100 BST NT; -1000 AHST BDT CAT HAST HST; -0900 AKST HDT YST; -0800 PST YDT;
-0700 MOUNTAIN MST PDT PPET; -0600 CST MDT; -0500 CDT EST; -0400 AST EDT EWT; -0330 NFT NST;
-0300 ADT GST; -0230 NDT; -0200 AT FDT; +0000 GMT MET MEWT MEZ SAMST UCT UT UTC WET;
+0100 CET DNT ECT FWT NOR SET SWT WETDST; +0200 CEST CETDST EET FST IST MEST METDST SST UKR;
+0300 BT EEST EETDST IDT; +0330 IT; +0400 ZP4; +0500 ZP5; +0600 ZP6; +0700 WAST;
+0800 AWST CCT HKT WADT WST; +0830 MT; +0900 AWSST JCST JST JT KST WDT; +0930 ACST CAST SAST SAT;
+1000 AEST EAST KDT LIGT; +1030 ACSST CADT SADT; +1100 AESST EADT; +1200 IDLE NZS NZST NZT;
+1300 NZD NZDT";

#[test]
fn named_zone_table() {
    let base = parse_rfc822("20 Mar 2016 03:13:44 +0000").unwrap().unix_seconds();
    let mut count = 0;
    for group in NOTES_ZONES.split(';') {
        let mut words = group.split_whitespace();
        let off = words.next().unwrap();
        let sign = if off.starts_with('-') { -1 } else { 1 };
        let hh: i64 = off[1..3].parse().unwrap();
        let mm: i64 = off[3..5].parse().unwrap();
        let secs = sign * (hh * 3600 + mm * 60);
        for name in words {
            count += 1;
            assert_eq!(named_zone_offset(name.as_bytes()), secs, "{name}");
            assert_eq!(named_zone_offset(name.to_ascii_lowercase().as_bytes()), secs, "{name}");
            // Same instant as the numeric form.
            let numeric = parse_rfc822(&format!("20 Mar 2016 03:13:44 {off}")).unwrap();
            assert_eq!(numeric.unix_seconds(), base - secs);
            let lower = name.to_ascii_lowercase();
            let mixed: String = name
                .chars()
                .enumerate()
                .map(|(i, c)| if i % 2 == 1 { c.to_ascii_lowercase() } else { c })
                .collect();
            for n in [name, lower.as_str(), mixed.as_str()] {
                let s = format!("Sun, 20 Mar 2016 03:13:44 {n}");
                let got = parse_rfc822(&s);
                if name.bytes().all(|c| c.is_ascii_alphabetic()) {
                    assert_eq!(got, Some(numeric), "{s:?}");
                } else {
                    // ZP4–ZP6: the ZONE token is letters only (NOTES §4.3 grammar), so
                    // the digit is trailing junk.
                    assert_eq!(got, None, "{s:?}");
                }
            }
        }
    }
    assert_eq!(count, NAMED_ZONES.len());
}

// ----- Property-style round trip ---------------------------------------------------------

#[test]
fn format_then_parse_round_trips() {
    const MON: [&str; 12] =
        ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = |n: u64| {
        state =
            state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) % n
    };
    let mut prev: Option<(i64, i64)> = None;
    for _ in 0..20_000 {
        let y = next(9_999) as i64 + 1;
        let m = next(12) as u32 + 1;
        let d = next(days_in_month(y, m) as u64) as u32 + 1;
        let (h, mi, s) = (next(24) as u32, next(60) as u32, next(60) as u32);
        let text = format!("{y:04}-{m:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z");
        let t = parse_rfc3339(&text).unwrap_or_else(|| panic!("{text}"));
        assert_eq!(t.to_string(), text);
        assert_eq!(t.civil(), (y, m, d, h, mi, s));
        // Every parser agrees on the instant.
        assert_eq!(parse_w3cdtf(&text), Some(t), "{text}");
        let r = format!("Xyz, {d} {} {y:04} {h}:{mi}:{s} UT", MON[m as usize - 1]);
        if y >= 1000 {
            assert_eq!(parse_rfc822(&r), Some(t), "{r}");
        }
        // Re-parse of Display of from_unix is identity.
        let whole = Timestamp::from_unix(t.unix_seconds()).unwrap();
        assert_eq!(parse_rfc3339(&whole.to_string()), Some(t));
        // Offsets shift by exactly their length.
        let off = next(24 * 60) as i64;
        let z =
            format!("{y:04}-{m:02}-{d:02}T{h:02}:{mi:02}:{s:02}-{:02}:{:02}", off / 60, off % 60);
        assert_eq!(parse_rfc3339(&z).unwrap().unix_seconds(), t.unix_seconds() + off * 60);
        // Ordering: the instant is monotonic in the civil fields.
        let key = ((y * 12 + m as i64) * 31 + d as i64) * 86_400 + (h * 3600 + mi * 60 + s) as i64;
        if let Some((pk, pu)) = prev {
            assert_eq!(key.cmp(&pk), t.unix_seconds().cmp(&pu), "{text}");
        }
        prev = Some((key, t.unix_seconds()));
    }
}

#[test]
fn each_parser_keeps_the_offset_it_applied() {
    let off = |t: Option<Timestamp>| t.map(|t| t.offset_minutes());
    assert_eq!(off(parse_rfc3339("2024-01-15T08:00:00Z")), Some(Some(0)));
    assert_eq!(off(parse_rfc3339("2024-01-15T08:00:00-05:30")), Some(Some(-330)));
    assert_eq!(off(parse_rfc3339("2024-01-15T08:00:00+0100")), Some(Some(60)));
    assert_eq!(off(parse_w3cdtf("2024-01-15T08:00+02:00")), Some(Some(120)));
    // A date without a time names no offset.
    assert_eq!(off(parse_w3cdtf("2024-01-15")), Some(None));
    assert_eq!(off(parse_w3cdtf("2024")), Some(None));
    assert_eq!(off(parse_rfc822("Mon, 15 Jan 2024 08:00:00 EST")), Some(Some(-300)));
    assert_eq!(off(parse_rfc822("Mon, 15 Jan 2024 08:00:00 +9900")), Some(Some(5940)));
    assert_eq!(off(parse_rfc822("15 Jan 2024 08:00 GMT")), Some(Some(0)));
    assert_eq!(Timestamp::from_unix(0).unwrap().offset_minutes(), None);
}

#[test]
fn the_offset_is_not_part_of_the_value() {
    let utc = parse_rfc3339("2024-01-15T08:00:00Z").unwrap();
    let paris = parse_rfc3339("2024-01-15T09:00:00+01:00").unwrap();
    assert_eq!(utc, paris);
    assert_eq!(utc.cmp(&paris), std::cmp::Ordering::Equal);
    let mut set = std::collections::HashSet::new();
    set.insert(utc);
    assert!(set.contains(&paris), "equal instants hash alike");
    assert_eq!(utc.to_string(), paris.to_string(), "Display is UTC");
    assert_eq!(paris.offset_minutes(), Some(60));
}

#[test]
fn local_form_and_the_text_as_written() {
    let local = |t: Timestamp| {
        let mut s = String::new();
        t.write_rfc3339_local(&mut s).unwrap();
        s
    };
    let t = parse_rfc822("Mon, 15 Jan 2024 08:00:00 -0500").unwrap();
    assert_eq!(local(t), "2024-01-15T08:00:00-05:00");
    assert_eq!(t.to_string(), "2024-01-15T13:00:00Z");
    let t = parse_rfc3339("2024-01-15T08:00:00.250+05:45").unwrap();
    assert_eq!(local(t), "2024-01-15T08:00:00.25+05:45");
    // Canonical texts need no copy beside the value; everything else does.
    for canonical in
        ["2024-01-15T08:00:00Z", "2024-01-15T08:00:00-05:00", "1999-12-31T23:59:59.5+01:00"]
    {
        let t = parse_rfc3339(canonical).unwrap();
        assert_eq!(as_written(canonical, &t), None, "{canonical}");
    }
    for (text, t) in [
        ("Mon, 15 Jan 2024 08:00:00 GMT", parse_rfc822("Mon, 15 Jan 2024 08:00:00 GMT")),
        ("2024-01-15T08:00:00+0100", parse_rfc3339("2024-01-15T08:00:00+0100")),
        ("2024-01-15t08:00:00z", parse_rfc3339("2024-01-15t08:00:00z")),
        ("2024-01-15T08:00:00.500Z", parse_rfc3339("2024-01-15T08:00:00.500Z")),
        ("2024-01-15T08:00:00+00:00", parse_rfc3339("2024-01-15T08:00:00+00:00")),
        ("2024-01-15", parse_w3cdtf("2024-01-15")),
        ("2024-01-15T08:00Z", parse_w3cdtf("2024-01-15T08:00Z")),
    ] {
        assert_eq!(as_written(text, &t.unwrap()), Some(text), "{text}");
    }
    // An offset beyond what dates write is none.
    let t = Timestamp::from_unix(0).unwrap();
    assert_eq!(t.with_offset_minutes(Some(6000)).offset_minutes(), None);
    assert_eq!(t.with_offset_minutes(Some(-5999)).offset_minutes(), Some(-5999));
}

#[test]
fn text_as_written_is_compared_as_write_rfc3339_local_writes_it() {
    let (min, max) = (Timestamp::MIN_UNIX_SECONDS, Timestamp::MAX_UNIX_SECONDS);
    let mut seconds = vec![min, max, 0, -1, 951_782_400, 1_700_000_000];
    let mut x: i64 = 7;
    while x < max {
        seconds.extend([x, -x]);
        x *= 11;
    }
    seconds.retain(|u| (min..=max).contains(u));
    let offsets = [None, Some(0), Some(1), Some(-1), Some(60), Some(-300), Some(345), Some(5999)];
    for (i, &u) in seconds.iter().enumerate() {
        for (j, &offset) in offsets.iter().chain([Some(-5999)].iter()).enumerate() {
            let fraction = &"120034"[..(i + j) % 7];
            let t = Timestamp::with_fraction(u, fraction).unwrap().with_offset_minutes(offset);
            let mut local = String::new();
            t.write_rfc3339_local(&mut local).unwrap();
            assert!(t.is_written_local_as(local.as_bytes()), "{local}");
            // Every one-byte change, a byte more and a byte less: not what it writes.
            let b = local.as_bytes();
            for k in 0..b.len() {
                let mut v = b.to_vec();
                v[k] = if v[k] == b'1' { b'2' } else { b'1' };
                assert!(!t.is_written_local_as(&v), "{local} at {k}");
            }
            assert!(!t.is_written_local_as(&b[..b.len() - 1]), "{local}");
            assert!(!t.is_written_local_as(&[b, b"0"].concat()), "{local}");
        }
    }
}
