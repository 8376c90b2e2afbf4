//! Lenient date tests: real-world strings with their expected instant, form and assumed zone,
//! and the rejections the invariants promise.

use super::tokens::{MONTHS, WEEKDAYS, ZONES};
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
    for s in ["2016-03-20T08:17:44.5+01:00", "Sat, 20 Mar 2016 03:13:44 -0504", "09999-01-01"] {
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
        long.as_str(),
        "((((",
        "))))",
        "Jan",
        "Jan Jan Jan",
        "-",
        "+0000",
        "10:20",
        "T",
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33",
        "15 Jan 99999999999999999999",
        "99999999999999999999 Jan 15",
        "Jan 15 2024 99999999999999999999:00",
        "2024-01-15 10:20:30 +99999999999999999999",
        "a.",
        "p.m",
        "2024-01-15 10:20 a.m",
        "ºº",
        "年年年",
        "2024年",
        "[",
        "[[[]",
        "2024-W",
        "2024-W99-9",
        "W031",
        "Etc/",
        "Etc/GMT",
        "24:00",
        "T24",
        "20240115T",
        "20240115T99",
        "99999999T1345",
        "오후",
        "오후 1:00",
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

thread_local! {
    /// Table entries [`super::tokens::lookup`] was given on this thread: the work counter of
    /// the linearity tests.
    static LOOKUP_ENTRIES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

pub(super) fn count_lookup(entries: usize) {
    LOOKUP_ENTRIES.with(|c| c.set(c.get() + entries));
}

/// The table entries searched to read `s`.
fn lookup_work(s: &str) -> usize {
    LOOKUP_ENTRIES.with(|c| c.set(0));
    let _ = parse_lenient(s);
    LOOKUP_ENTRIES.with(|c| c.get())
}

/// Runs of words the tokenizer drops (weekday names, filler words) and of other words:
/// at most [`super::tokens::MAX_WORDS`] words are read, so the table searches do not grow
/// with the input (a run of `Monday Monday …` searched the tables for every word, about 1 MB
/// a second); the same words once fewer than the cap are still read.
#[test]
fn word_runs_cost_a_bounded_number_of_table_searches() {
    use super::tokens::{CJK_UNITS, ETC_ZONES, FILLERS, MAX_WORDS, US_GENERIC_ZONES};
    // Every word searched in every table, for the most words a date can have.
    let tables = MONTHS.len() + WEEKDAYS.len() + ZONES.len() + FILLERS.len() + CJK_UNITS.len();
    let cap = MAX_WORDS * (tables + US_GENERIC_ZONES.len() + ETC_ZONES.len());
    for word in
        ["Monday ", "Mon ", "MonMon ", "the ", "at ", "Monday, the ", "lundi ", "понедельник "]
    {
        let (small, large) = (lookup_work(&word.repeat(1_000)), lookup_work(&word.repeat(4_000)));
        assert!(large <= small && small <= cap, "{word:?}: {small} -> {large}");
    }
    // Pathological single words and mixed runs: one pass, a few searches.
    for s in ["Mon".repeat(400_000), "Monday1".repeat(100_000), "Mon 1 Tue. 2, ".repeat(50_000)] {
        assert!(lookup_work(&s) <= cap, "{}", &s[..20]);
    }
    // Dropped words under the cap are still dropped.
    assert_eq!(
        parse_lenient("Monday, the 15th of January 2024").map(|d| d.form.as_str()),
        Some("day-month-name")
    );
}

/// The ASCII fast path of the table search equals the Unicode comparison: every ASCII name
/// of every table is lowercase (so an ASCII word matches it exactly when the lowercase
/// comparison does).
#[test]
fn ascii_table_names_are_lowercase() {
    use super::tokens::{CJK_UNITS, ETC_ZONES, FILLERS, US_GENERIC_ZONES};
    let names = MONTHS.iter().map(|e| e.0).chain(WEEKDAYS.iter().map(|e| e.0));
    let names = names.chain(ZONES.iter().map(|e| e.0)).chain(FILLERS.iter().map(|e| e.0));
    let names =
        names.chain(CJK_UNITS.iter().map(|e| e.0)).chain(US_GENERIC_ZONES.iter().map(|e| e.0));
    for n in names.chain(ETC_ZONES.iter().map(|e| e.0)) {
        assert_eq!(n, n.to_lowercase(), "{n}");
    }
}

/// Years outside 0001–9999 give `None` in every lenient form too (no `Timestamp` outside
/// them can be made), and the edge years are kept.
#[test]
fn lenient_years_outside_0001_to_9999_are_none() {
    // A negative year is no form's year (`-1-Jun-15` is read as 1 June 2015, as before).
    for s in ["-0001-06-15T12:00:00Z", "-0001-06-15", "-1-06-15 12:00"] {
        assert_eq!(parse_lenient(s), None, "{s:?}");
    }
    for y in ["0000", "10000", "99999"] {
        for s in [
            format!("{y}-06-15T12:00:00Z"),
            format!("{y}-06-15 12:00"),
            format!("{y}/06/15"),
            format!("{y}.06.15"),
            format!("15.06.{y}"),
            format!("15/06/{y}"),
            format!("June 15, {y}"),
            format!("15 June {y} 12:00 UTC"),
            format!("{y}-Jun-15"),
            format!("Sun Jun 15 12:00:00 UTC {y}"),
            format!("{y}年6月15日"),
            format!("{y}-W03-1"),
            format!("{y}-015"),
            format!("Sat, 15 Jun {y} 12:00:00 GMT"),
        ] {
            assert_eq!(parse_lenient(&s), None, "{s:?}");
        }
    }
    for (s, want) in [
        ("0001-01-01 00:00", "0001-01-01T00:00:00Z"),
        ("9999/12/31", "9999-12-31T00:00:00Z"),
        ("Dec 31, 9999 11:59 PM", "9999-12-31T23:59:00Z"),
    ] {
        assert_eq!(parse_lenient(s).map(|d| d.timestamp.to_string()).as_deref(), Some(want), "{s}");
    }
    // Past the end of 9999 by the zone alone.
    assert_eq!(parse_lenient("Dec 31, 9999 11:59 PM -0100"), None);
}

#[test]
fn an_offset_only_where_the_text_wrote_a_zone() {
    let off = |s: &str| parse_lenient(s).map(|d| d.timestamp.offset_minutes());
    assert_eq!(off("January 15, 2024 8:00 AM EST"), Some(Some(-300)));
    assert_eq!(off("2024/01/15 08:00:00 +0900"), Some(Some(540)));
    // No zone written: UTC (or Korea's) assumed, no offset kept.
    assert_eq!(off("January 15, 2024"), Some(None));
    assert_eq!(off("1705314030"), Some(None));
}
