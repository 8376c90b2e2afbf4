//! feedmill's dates against Python's feedparser (Universal Feed Parser), the field's most
//! trusted lenient date reader, on `corpus/fixtures/dates/feedparser.jsonl`: 600+ date
//! strings (feedparser's own test cases, feedmill's, real feeds' and the forms feeds write in
//! the wild) with what feedparser 6.0.14 reads them as (see that folder's README and
//! `generate.py`). No Python is needed here: feedparser's answers are in the table.
//!
//! feedmill's value for a string is the spec's strict parsers' when one reads it, else the
//! lenient fallback's (`parse_lenient`, which passes strict readings through unchanged). The
//! two agree when both give no date or both give the same second (feedparser drops
//! fractions). Every disagreement must be listed in [`DELIBERATE`] with its reason, and
//! every listed string must still disagree, so the list stays exact.

use std::collections::HashMap;

use feedmill::model::date;
use feedmill::model::lenient_date::parse_lenient;

struct Row {
    input: String,
    feedparser: Option<i64>,
    /// feedparser's answer changes with the day it runs (see `FP_TODAY`).
    fp_today: bool,
}

fn table() -> Vec<Row> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus/fixtures/dates/feedparser.jsonl");
    let text = std::fs::read_to_string(path).expect("the table is vendored");
    let mut rows = Vec::new();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        if v.get("meta").is_some() {
            continue;
        }
        let fp = v["feedparser"].as_str().map(|s| {
            date::parse_rfc3339(s)
                .unwrap_or_else(|| panic!("bad expected value {s}"))
                .unix_seconds()
        });
        rows.push(Row {
            input: v["input"].as_str().unwrap().to_owned(),
            feedparser: fp,
            fp_today: v.get("fp_time_dependent").is_some(),
        });
    }
    rows
}

/// feedmill's value: the strict parsers' reading if any, else the lenient fallback's. That is
/// `parse_lenient` itself — except for all-digit strings, which W3C-DTF reads as a year of any
/// length (`1705314030`): that strict reading applies only where the spec uses W3C-DTF
/// (`dc:date`), so the lenient reading (Unix time, ISO basic dates) is the one compared here
/// (see `strict_readings_pass_through`).
fn feedmill(s: &str) -> Option<i64> {
    parse_lenient(s).map(|d| d.timestamp.unix_seconds())
}

fn strict(s: &str) -> Option<i64> {
    date::parse_rfc3339(s)
        .or_else(|| date::parse_rfc822(s))
        .or_else(|| date::parse_w3cdtf(s))
        .map(|t| t.unix_seconds())
}

fn show(v: Option<i64>) -> String {
    v.and_then(date::Timestamp::from_unix).map_or("null".into(), |t| t.to_string())
}

// ---------------------------------------------------------------------------------------------
// Why feedmill and feedparser part (one reason per listed string).

/// feedparser's answer depends on the day it runs (`fp_time_dependent` in the table, found by
/// re-running it with the clock moved): its last-resort ISO 8601 reader takes any string
/// starting with four digits as that year with *today's* month (`2024/01/15` →
/// 2024-<this month>-01), fills a missing year from today (`10:20`, `-0312`) and reads
/// two-digit years in the current century (`24-01-15`, `15-01-2024` → 2015-01-20). Such an
/// answer is not a reading of the string; feedmill reads what the string says or nothing.
const FP_TODAY: &str = "feedparser's answer depends on today's date";

/// feedparser's last-resort ISO 8601 reader matches a *prefix* and ignores the rest, so a time
/// after a space, a named zone, a basic-format time (`T134500`) or a Korean/Chinese AM/PM is
/// silently lost (`2024-01-15 13:45:00 EST` → 2024-01-15T00:00Z); feedmill reads all of it.
const FP_PREFIX: &str = "feedparser drops the time or zone after the date";

/// Text after the date that makes the whole no date to feedmill (`…Z junk`, a second date or
/// time, a broken zone `+00:xx`, `T09:xx:00Z`): feedparser reads a prefix, feedmill rejects
/// rather than guess what the rest meant.
const FP_JUNK: &str = "feedparser ignores trailing text";

/// An out-of-range field (hour 25, minute 61, Feb 30, month 13 or 0, day 0 or 32, zone
/// `+25:00`/`+99:99`/`+2400` outside RFC 822): feedmill rejects; feedparser rolls it over
/// through `mktime` (`2024-02-30` → March 1) or drops the bad part.
const OUT_OF_RANGE: &str = "out-of-range field: feedparser normalizes, feedmill rejects";

/// feedparser knows a dozen zone names and reads every other as UTC (`CET`, `JST`, `AEST`,
/// `BST`, `XYZ`, `Europe/Berlin`, `UTC+2`, `EST5EDT`): wrong by the zone's offset. feedmill uses
/// the offset (the spec's RFC 822 zone table when that parser reads the string, its own
/// table of unambiguous names otherwise) and rejects a name it does not know or that means
/// several zones (`BST`, `IST` outside strict RFC 822).
const FP_UNKNOWN_ZONE: &str = "feedparser reads an unknown zone name as UTC";

/// `AT` is Atlantic time to feedparser (−04:00) and −02:00 in the spec's RFC 822 table:
/// feedmill does not pick one outside strict RFC 822.
const AMBIGUOUS_ZONE: &str = "a zone name with several meanings";

/// `ET`/`CT`/`MT`/`PT` carry no season: feedmill applies the US daylight-saving rules of the
/// date (and rejects the skipped and the repeated hour); feedparser always uses standard time,
/// an hour off from March to November (`Jul 15 2024 4:31 PM ET` also loses its PM there).
const US_DST: &str = "US zone without a season: feedparser ignores daylight time";

/// feedparser ignores AM/PM (`1:45 PM` → 01:45, `12:00 AM` → noon).
const FP_MERIDIEM: &str = "feedparser ignores AM/PM";

/// feedparser's W3C-DTF reader drops the minutes of a `±HHMM` zone (`+0530` → +05:00).
const FP_ZONE_MINUTES: &str = "feedparser drops the minutes of a +HHMM zone";

/// feedparser reads a digit string as an ISO 8601 prefix (`1705326300` → year 1705, day 326:
/// 1705-11-22); feedmill reads 10 digits (optionally `.F`) and 13 digits in 1990–2100 as
/// Unix seconds/milliseconds, 7/8/14 digits as ISO basic dates in 1900–2099, and nothing else.
const FP_DIGITS: &str = "digit strings: Unix time to feedmill, year prefixes to feedparser";

/// feedparser rounds fractional seconds through a float (`.999…` → next second); feedmill
/// keeps the digits (the whole second is the floor).
const FP_FLOAT: &str = "feedparser rounds fractional seconds";

/// Fullwidth or Arabic-Indic digits (`２０２４-01-15`): Python's `int` reads them, feedmill reads
/// ASCII digits only.
const ASCII_DIGITS: &str = "feedmill reads ASCII digits only";

/// feedparser takes any word starting with a month abbreviation as that month (`Janx`);
/// feedmill reads listed names only.
const FP_MONTH_PREFIX: &str = "feedparser reads any word starting with a month abbreviation";

/// `2024-1`: month precision with a one-digit month; feedmill reads reduced precision only
/// where the spec's W3C-DTF does (`2024`, `2024-01`).
const REDUCED_PRECISION: &str = "reduced precision outside W3C-DTF";

/// The spec's strict RFC 822 parser reads the string and decides differently; its decisions
/// stay (NOTES §4.3): named zones per its table (`MET` +00:00, `BST` −11:00, `IST` +02:00),
/// other names and military letters +00:00 (`ET`, `PT`, `A`, `N`, `M`, `Y`; feedparser uses
/// US standard time and RFC 822's inverted military offsets), two-digit years 50–99 in the
/// 1900s (`71` → 1971; feedparser: 1990–2089).
const STRICT: &str = "the spec's strict parser reads it differently";

/// feedparser reads no date; feedmill reads one: `Jan 15, 2024` and every US month-first form
/// with a comma, AM/PM times, RFC 822 without a zone or with fractional seconds, `+01` zones,
/// month names in other languages (German, French, Spanish, Italian, Portuguese, Dutch,
/// Scandinavian, Polish, Russian, Turkish, Greek in full), `15-Jan-2024`, `15.01.2024`,
/// `15/01/2024` and `01/15/2024` (one reading only), ordinals (`15th`), NBSP separators.
const FP_MISSES: &str = "feedparser reads no date here";

/// Every disagreement, by reason. An entry ending in `…` matches the one input that starts
/// with the text before it (for the long hostile strings).
#[rustfmt::skip]
const DELIBERATE: &[(&str, &[&str])] = &[
    (FP_TODAY, &[
        "2004-július-13T9:15-05:00",
        "-0312",
        "031231",
        "03-12-31",
        "-03-12",
        "03335",
        "2004년 05월 28일  01:31:15",
        "22013",
        "2013-xx-27",
        "2024/01/15",
        "2024/01/15 10:20:30",
        "2024/1/5 9:05",
        "2024.01.15",
        "2024-Jan-15",
        "2024 January 15 10:00 UTC",
        "631152000",
        "01-15-2024",
        "15-01-2024",
        "4102444800",
        "9999999999999",
        "12345",
        "2024/01-15",
        "2024-W03-1",
        "2024W031",
        "2024-W03",
        "2024-015",
        "10000-01-01",
        "24-01-15",
        "2024/01/15 13:45:00",
        "2024/01/15 13:45",
        "2024/01/15 13:45:00 +0900",
        "2024/1/5",
        "2024/01/15T13:45:00Z",
        "2024/13/01",
        "01-02-2024",
        "15-01-2024 13:45:00",
        "31-12-2023",
        "2024.1.15",
        "2024 Jan 15",
        "2024 Jan 15 13:45:00 GMT",
        "2024年1月15日",
        "2024年01月15日 13:45",
        "2024년 1월 15일",
        "2024년 01월 15일 13:45:00",
        "2024-január-15T13:45+01:00",
        "2024-március-15T9:05-05:00",
        "2024-május-15T13:45+02:00",
        "2024. január 15.",
        "2024年1月15日 13時45分",
        "-1705326300",
        "946684800",
        "10:20",
        "13:45:00",
        "99999-01-15",
        "2024 2024 2024",
        "12:00 12:00",
        "99999999999999999999…", // 400 nines
    ]),
    (FP_PREFIX, &[
        "2004-05-25 오후 11:23:17",
        "2024-01-15 10:20:30 -05",
        "2024-01-15 10:20:30 UTC",
        "2024-01-15 10:20:30 PST",
        "20240115T134500Z",
        "2024-01-15T13:45:00 EST",
        "2024-01-15T13:45:00 CET",
        "2024-01-15 13:45:00 UTC",
        "2024-01-15 13:45:00 GMT",
        "2024-01-15 13:45:00 EST",
        "2024-01-15 13:45:00 CET",
        "2024-01-15 13:45:00 -08",
        "2024-01-15 13:45:00 -0500 EST",
        "20240115T134500",
        "20240115T1345Z",
        "20240115 13:45:00",
        "2024-01-15T134500Z",
        "2024-01-15 오전 11:23:17",
        "2024-01-15 오후 12:23:17",
        "2024-01-15 오전 12:23:17",
        "2024-01-15 下午 1:45",
    ]),
    (FP_JUNK, &[
        "2013-01-27-01",
        "2013-01-28T11:30:00-06:00Textra",
        "2013-01-28T09:xx:00Z",
        "2013-01-28T09:00:00+00:xx",
        "Sat, 20 Mar 2016 03:13:44 (unterminated",
        "2024-01-15 10:20 10:30",
        "2024-01-15T10:20:30Z junk",
        "2024-01-15T13:45:00ZZ",
        "Mon, 15 Jan 2024 13:45:00 +0000 junk",
        "2024-01-15T13:",
        "2024-01-15T13:45:",
        "2024-01-15T13:45:00+",
        "2024-01-15 2024-01-16",
    ]),
    (OUT_OF_RANGE, &[
        "2003-12-31T25:14:55Z",
        "2003-12-31T10:61:55Z",
        "2003-12-31T10:14:61Z",
        "2024-13-01",
        "2024-02-30",
        "2024-01-15 25:00",
        "2024-01-15 10:20:30 +2400",
        "2024-01-15T13:45:00+25:00",
        "2023-02-29",
        "2024-04-31",
        "2024-00-10",
        "2024-01-00",
        "2024-01-15 13:45:00 +99:99",
        "2024-01-15T13:45:00+99:99",
        "2024-12-32",
    ]),
    (FP_UNKNOWN_ZONE, &[
        "Sat 20 Mar 2016 03:13:44 BST",
        "Sat 20 Mar 2016 03:13:44 IST",
        "Sat 20 Mar 2016 03:13:44 XYZ",
        "Mon, 15 Jan 2024 13:45:00 AKST",
        "Mon, 15 Jan 2024 13:45:00 HST",
        "Mon, 15 Jan 2024 13:45:00 CET",
        "Mon, 15 Jan 2024 13:45:00 CEST",
        "Mon, 15 Jan 2024 13:45:00 EET",
        "Mon, 15 Jan 2024 13:45:00 JST",
        "Mon, 15 Jan 2024 13:45:00 KST",
        "Mon, 15 Jan 2024 13:45:00 AEST",
        "Mon, 15 Jan 2024 13:45:00 NZDT",
        "Mon, 15 Jan 2024 13:45:00 Europe/Berlin",
        "Mon, 15 Jan 2024 13:45:00 UTC+2",
        "Mon, 15 Jan 2024 13:45:00 Pacific Standard Time",
        "Mon, 15 Jan 2024 13:45:00 EST5EDT",
    ]),
    (AMBIGUOUS_ZONE, &[
        "Mon, 26 January 2004 16:31:00 AT",
    ]),
    (US_DST, &[
        "Mon, 15 July 2024 16:31:00 PT",
        "Mon, 15 July 2024 16:31:00 ET",
        "Sun, 10 March 2024 02:30:00 ET",
        "Sun, 3 November 2024 01:30:00 ET",
        "Jul 15 2024 4:31 PM ET",
    ]),
    (FP_MERIDIEM, &[
        "Sat, Dec 16 2023 02:02:33 PM",
        "Mon, 15 Jan 2024 1:45:00 PM EST",
        "Mon, 15 Jan 2024 01:45 PM +0000",
        "2024-01-15 1:45 PM",
        "2024-01-15 01:45:00 PM",
        "Dec 25 2023 11:59:59 PM",
        "Dec 25 2023 12:00 AM",
    ]),
    (FP_ZONE_MINUTES, &[
        "2024-01-15T13:45:00+0530",
        "2024-01-15 13:45:00 +0530",
    ]),
    (FP_DIGITS, &[
        "1705314030",
        "1705314030123",
        "1705314030500",
        "0631152000",
        "1705314030000",
        "1705326300000",
        "20240115134500",
        "1705326300",
        "1705326300.5",
        "1705326300.123",
        "170532630",
        "17053263000",
        "1705326300123456",
        "1111111111111",
        "11111111111",
        "22222222",
    ]),
    (FP_FLOAT, &[
        "2024-01-15T13:45:00.999…", // 300 nines, then Z
    ]),
    (ASCII_DIGITS, &[
        "２０２４-01-15",
        "٢٠٢٤-01-15",
    ]),
    (FP_MONTH_PREFIX, &[
        "15 Janx 2024",
    ]),
    (REDUCED_PRECISION, &[
        "2024-1",
    ]),
    (STRICT, &[
        "Thu, 30 Apr 2015 08:57:00 MET",
        "Sat, 20 Mar 2016 03:13:44 BST",
        "Sat, 20 Mar 2016 03:13:44 IST",
        "Mon, 15 Jan 2024 13:45:00 A",
        "Mon, 15 Jan 2024 13:45:00 N",
        "Mon, 15 Jan 2024 13:45:00 M",
        "Mon, 15 Jan 2024 13:45:00 Y",
        "Mon, 15 Jan 2024 13:45:00 ET",
        "Mon, 15 Jan 2024 13:45:00 PT",
        "Mon, 15 Jan 2024 13:45:00 MET",
        "Fri, 15 Jan 71 13:45:00 GMT",
        "15 Jan 89 13:45:00 GMT",
    ]),
    (FP_MISSES, &[
        "Do, 22 Dez 2016 17:36:00 +0000",
        "Fr, 06 Jan 2017 11:46:00 +0000",
        "Mi, 04 Jan 2017 17:36:24 +0000",
        "mer, 16 nov 2022 00:38:15 +0100",
        "Seg, 24 Set 2018 19:18:49 -0300",
        "03 Apr 02 1500 GMT",
        "Jan 15, 2024",
        "January 15, 2024",
        "Jan 15, 2024 10:30 AM",
        "Jan 15, 2024 12:05 AM",
        "Jan 15, 2024 12:05 PM",
        "Jan 15, 2024 3:45 p.m. EST",
        "January 15th, 2024",
        "March 1st 2024 at 9:00 PDT",
        "Monday, January 15, 2024",
        "Monday, January 15, 2024 - 10:20",
        "Sept. 3, 2019, 4:05 p.m.",
        "Dec 31, 1999 23:59:59 CST",
        "Jul 4 2021 18:00:00 GMT+2",
        "20-Mar-2016 03:13:44 GMT",
        "20-Mar-2016",
        "Sat, 20 Mar 2016 03:13:44",
        "Sat, 20 Mar 2016 03:13:44GMT",
        "Mon, 15 Jan 2024 10:20:30.250 +0000",
        "22. März 2016",
        "Dienstag, 22. März 2016 14:05 Uhr",
        "Di, 22 Mär 2016 14:05:00 +0100",
        "22 MÄRZ 2016",
        "mar., 15 mars 2016 08:00:00 +0100",
        "mar, 15 mars 2016 08:00:00 +0100",
        "1er janvier 2024",
        "lundi 15 janvier 2024 à 10:20",
        "15 févr. 2024",
        "15 août 2023 18:30 CEST",
        "3 décembre 2023",
        "15 de marzo de 2024",
        "lun, 15 ene 2024 10:00:00 +0100",
        "miércoles, 3 de abril de 2024",
        "15 marzo 2024 alle 10:20",
        "gio, 12 ott 2023 09:15:00 +0200",
        "Qua, 05 Dez 2018 10:00:00 -0200",
        "5 de dezembro de 2018",
        "Sex, 07 Set 2018 12:00:00 -0300",
        "do, 14 mrt 2024 09:00:00 +0100",
        "14 maart 2024",
        "15.01.2024",
        "15.01.2024 10:20",
        "15/01/2024",
        "01/15/2024",
        "15. Januar 2024",
        "15 de enero de 2024",
        "Mon, 15 Jan 2024 13:45:00 +01",
        "Mon, 15 Jan 2024 13:45:00 +1",
        "Mon, 15 Jan 2024 13:45:00",
        "Mon, 15 Jan 2024 13:45",
        "Mon,15 Jan 2024 13:45:00 +0000",
        "Mon, 15 Jan 2024, 13:45:00 +0000",
        "Mon, 15 Jan 2024 13:45:00.123 +0000",
        "Monday, 15-Jan-24 13:45:00 GMT",
        "Mon, 15-Jan-2024 13:45:00 GMT",
        "Mon, Jan 15, 2024 13:45:00 GMT",
        "Jan 15 13:45:00 2024",
        "1/15/2024 1:45:00 PM",
        "01/15/2024 13:45",
        "15/01/2024 13:45",
        "15/01/2024 13:45:00 +0100",
        "31/12/2023",
        "12/31/2023",
        "15-1-2024",
        "15.1.2024",
        "01.02.2024",
        "15.01.2024 13:45:00",
        "Jan. 15, 2024",
        "JANUARY 15, 2024",
        "January 15, 2024 at 1:45 PM",
        "January 15, 2024 1:45 pm EST",
        "Jan 15, 2024 13:45:00 GMT",
        "Jan 15, 2024, 1:45 PM",
        "Jan 15, 2024 1:45PM",
        "January 15, 2024, 13:45 UTC",
        "15-Jan-2024",
        "15-jan-2024 13:45",
        "15th January 2024",
        "Monday 15th January 2024",
        "Monday, January 15th, 2024 at 1:45pm",
        "the 15th of January, 2024",
        "Jan 15, 99",
        "Mo, 15 Jan 2024 13:45:00 +0100",
        "Di, 16 Jan 2024 13:45:00 +0100",
        "Mi, 17 Jan 2024 13:45:00 +0100",
        "Do, 18 Jan 2024 13:45:00 +0100",
        "Fr, 19 Jan 2024 13:45:00 +0100",
        "Sa, 20 Jan 2024 13:45:00 +0100",
        "So, 21 Jan 2024 13:45:00 +0100",
        "Mo, 15 Mär 2024 13:45:00 +0100",
        "Mi, 15 Mai 2024 13:45:00 +0200",
        "Di, 15 Okt 2024 13:45:00 +0200",
        "So, 15 Dez 2024 13:45:00 +0100",
        "Montag, 15. Januar 2024, 13:45 Uhr",
        "15.01.2024, 13:45 Uhr",
        "lun., 15 janv. 2024 13:45:00 +0100",
        "lun. 15 janv. 2024 13:45",
        "15 mai 2024",
        "15 juillet 2024",
        "lun, 15 gen 2024 13:45:00 +0100",
        "15 gennaio 2024",
        "lunedì 15 gennaio 2024",
        "15 de enero de 2024 13:45",
        "lunes, 15 de enero de 2024",
        "15 ene 2024",
        "seg, 15 jan 2024 13:45:00 -0300",
        "15 de janeiro de 2024",
        "ma, 15 jan 2024 13:45:00 +0100",
        "15 okt 2024",
        "15 января 2024",
        "15 stycznia 2024",
        "15 Ιανουαρίου 2024",
        "Mon, 15 Jan 2024 13:45:00 +00",
        "Feb 29, 2024",
        "\u{a0}Jan 15, 2024\u{a0}",
        "Jan\u{a0}15,\u{a0}2024",
        "Febuary 15, 2024",
        "15 Dezember 2024",
        "15. Mai 2024 um 13:45 Uhr",
        "Mon Jan 15 13:45:00 2024 GMT",
        "15 Jan 2024 13:45:00 GMT+1",
        "15 февраля 2024 г. в 13:45",
        "15 lutego 2024 13:45",
        "15 şubat 2024",
        "15 februari 2024 kl. 13:45",
        ", , , , , , , , , , …", // ", " × 100, then Jan 15, 2024
    ]),
];

#[test]
fn agreement_with_feedparser() {
    let rows = table();
    assert!(rows.len() >= 300, "{} rows", rows.len());
    let mut listed: HashMap<&str, (&'static str, usize)> = HashMap::new();
    for &(reason, inputs) in DELIBERATE {
        for &s in inputs {
            assert!(listed.insert(s, (reason, 0)).is_none(), "{s:?} listed twice");
        }
    }
    fn reason_of(
        input: &str,
        listed: &mut HashMap<&str, (&'static str, usize)>,
    ) -> Option<&'static str> {
        let key = listed.keys().copied().find(|k| match k.strip_suffix('…') {
            Some(prefix) => input.starts_with(prefix),
            None => *k == input,
        })?;
        let e = listed.get_mut(key).unwrap();
        e.1 += 1;
        Some(e.0)
    }
    let (mut agree, mut fp_only, mut fm_only, mut differ) = (0, 0, 0, 0);
    let mut problems = Vec::new();
    for r in &rows {
        let fm = feedmill(&r.input);
        let reason = reason_of(&r.input, &mut listed);
        let line =
            format!("{:?}: feedparser {}, feedmill {}", r.input, show(r.feedparser), show(fm));
        match (r.feedparser, fm) {
            (a, b) if a == b => {
                agree += 1;
                if let Some(reason) = reason {
                    problems.push(format!("listed ({reason}) but now agrees: {line}"));
                }
                continue;
            }
            (Some(_), None) => fp_only += 1,
            (None, Some(_)) => fm_only += 1,
            _ => differ += 1,
        }
        match reason {
            None => problems.push(format!("unlisted disagreement: {line}")),
            Some(reason) if (reason == FP_TODAY) != r.fp_today => {
                problems.push(format!("FP_TODAY must be exactly the time-dependent rows: {line}"))
            }
            Some(_) => {}
        }
    }
    for (k, (_, n)) in &listed {
        if *n != 1 {
            problems.push(format!("listed {k:?} matches {n} rows"));
        }
    }
    println!(
        "{} rows: {agree} agree; feedparser only {fp_only}, feedmill only {fm_only}, \
         different instants {differ}",
        rows.len()
    );
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

/// `parse_lenient` returns exactly what the strict parsers read, for every string of the
/// table one of them reads — except all-digit strings (W3C-DTF's any-length years).
#[test]
fn strict_readings_pass_through() {
    let mut strict_rows = 0;
    for r in table() {
        let Some(s) = strict(&r.input) else { continue };
        strict_rows += 1;
        if r.input.bytes().all(|c| c.is_ascii_digit()) && r.input.len() != 4 {
            continue;
        }
        assert_eq!(feedmill(&r.input), Some(s), "{:?}", r.input);
    }
    assert!(strict_rows > 100, "{strict_rows}");
}
