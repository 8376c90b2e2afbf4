//! The ARC reader against generated ARC and ARC.gz files: records named like WARC's, the
//! version block and `dns:` records counted, damage costing one error record each and
//! nothing injected.

use super::*;
use flate2::{write::GzEncoder, Compression};
use std::io::Write;

fn gz(data: &[u8]) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), Compression::fast());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// An ARC version 1 record: header line, block, line end.
fn record(url: &str, date: &str, block: &[u8]) -> Vec<u8> {
    let mut r = format!("{url} 192.0.2.1 {date} text/xml {}\n", block.len()).into_bytes();
    r.extend_from_slice(block);
    r.push(b'\n');
    r
}

fn filedesc() -> Vec<u8> {
    let block = b"1 0 Feedmill\nURL IP-address Archive-date Content-type Archive-length\n";
    let mut r = format!("filedesc://test.arc 0.0.0.0 20050101000000 text/plain {}\n", block.len())
        .into_bytes();
    r.extend_from_slice(block);
    r.push(b'\n');
    r
}

fn response(url: &str, date: &str, body: &str) -> Vec<u8> {
    record(url, date, format!("HTTP/1.0 200 OK\r\nContent-Type: text/xml\r\n\r\n{body}").as_bytes())
}

/// Items as short strings: `R at uri date`, `S at type`, `B at kind`.
fn show(data: &[u8], gzip: bool) -> Vec<String> {
    let mut items = Vec::new();
    read_arc(data, gzip, 1 << 20, &mut Vec::new, &mut |i| {
        items.push(match i {
            WarcItem::Record { at, target_uri, capture, kind, .. } => {
                assert_eq!(kind, Kind::Response);
                assert_eq!(capture.record_type, Some("response"));
                let date = capture.date.map(|d| d.to_string()).unwrap_or_default();
                format!("R {at} {target_uri} {date}")
            }
            WarcItem::Skipped { at, warc_type } => format!("S {at} {warc_type}"),
            WarcItem::Broken { at, kind, .. } => format!("B {at} {kind}"),
        });
        true
    })
    .unwrap();
    items
}

fn archive(gzip: bool, records: &[Vec<u8>]) -> (Vec<u8>, Vec<u64>) {
    let mut out = Vec::new();
    let mut offsets = Vec::new();
    for r in records {
        offsets.push(out.len() as u64);
        out.extend(if gzip { gz(r) } else { r.clone() });
    }
    (out, offsets)
}

#[test]
fn arc_and_arc_gz_records_are_named_like_warcs() {
    let records = [
        filedesc(),
        record("dns:example.org", "20050101000001", b"192.0.2.1"),
        response("http://example.org/feed.xml", "20050102030405", "<rss/>"),
        response("http://example.org/a b.xml", "200501020304", "<feed/>"),
    ];
    for gzip in [false, true] {
        let (data, at) = archive(gzip, &records);
        assert_eq!(
            show(&data, gzip),
            [
                format!("S {} filedesc", at[0]),
                format!("S {} dns", at[1]),
                format!("R {} http://example.org/feed.xml 2005-01-02T03:04:05Z", at[2]),
                format!("R {} http://example.org/a b.xml 2005-01-02T03:04:00Z", at[3]),
            ],
            "gzip {gzip}"
        );
    }
    // The block is the HTTP message, exactly.
    let (data, _) = archive(false, &records);
    let mut blocks = Vec::new();
    read_arc(&data[..], false, 1 << 20, &mut Vec::new, &mut |i| {
        if let WarcItem::Record { block, .. } = i {
            blocks.push(block.to_vec());
        }
        true
    })
    .unwrap();
    assert_eq!(blocks[0], b"HTTP/1.0 200 OK\r\nContent-Type: text/xml\r\n\r\n<rss/>");
}

#[test]
fn version_2_header_lines_are_read() {
    let block = b"HTTP/1.0 200 OK\r\n\r\n<rss/>";
    let mut r = format!(
        "http://example.org/v2.xml 192.0.2.1 20080304050607 text/xml 200 - - 1234 f.arc {}\n",
        block.len()
    )
    .into_bytes();
    r.extend_from_slice(block);
    r.push(b'\n');
    let data = [filedesc(), r].concat();
    let at = filedesc().len();
    assert_eq!(
        show(&data, false),
        [
            "S 0 filedesc".to_owned(),
            format!("R {at} http://example.org/v2.xml 2008-03-04T05:06:07Z")
        ]
    );
}

#[test]
fn header_lines_read_or_not() {
    let ok = |l: &str| parse_line(l.as_bytes()).map(|h| (h.url, h.length));
    assert_eq!(ok("http://a/ 1.2.3.4 20050101000000 text/html 12"), Ok(("http://a/".into(), 12)));
    assert_eq!(
        ok("http://a/ b 1.2.3.4 20050101000000 text/html 3\r"),
        Ok(("http://a/ b".into(), 3))
    );
    for bad in [
        "http://a/ 1.2.3.4 2005 text/html 12",
        "http://a/ 1.2.3.4 20050101000000 text/html -1",
        "http://a/ 1.2.3.4 20050101000000 text/html",
        "no-url 1.2.3.4 20050101000000 text/html 12",
        "http://a/ 1.2.3.4 20050101000000 text/html 99999999999999999999",
    ] {
        assert!(ok(bad).is_err(), "{bad}");
    }
    // A date that does not exist is read as none, the record is still read.
    let h = parse_line(b"http://a/ 1.2.3.4 20050230000000 text/html 1").unwrap();
    assert_eq!((h.date, h.length), (None, 1));
}

#[test]
fn damage_costs_one_error_record_and_injects_nothing() {
    // A record whose body holds an ARC record line of its own: never a record.
    let spoof = response("http://spoof/", "20050101000000", "<rss/>");
    let carrier = record(
        "http://good/carrier",
        "20050101000000",
        &[&b"HTTP/1.0 200 OK\r\n\r\nx\n"[..], &spoof].concat(),
    );
    let good = response("http://good/after", "20050101000000", "<rss/>");
    // Plain ARC: junk between records, then a length too large.
    let mut long = response("http://bad/long", "20050101000000", "<rss/>");
    let pos = long.iter().position(|b| *b == b'\n').unwrap();
    let line = String::from_utf8(long[..pos].to_vec()).unwrap();
    let n: usize = line.rsplit(' ').next().unwrap().parse().unwrap();
    let fixed = line.replace(&format!(" {n}"), &format!(" {}", n + 5));
    long.splice(..pos, fixed.into_bytes());
    let data = [filedesc(), carrier.clone(), b"garbage\n\n".to_vec(), long, good.clone()].concat();
    let got = show(&data, false);
    let kinds: Vec<&str> = got.iter().map(|s| &s[..1]).collect();
    assert_eq!(kinds, ["S", "R", "B", "B", "R"], "{got:?}");
    assert!(got[1].contains("http://good/carrier") && got[4].contains("http://good/after"));
    assert!(got.iter().all(|s| !s.contains("spoof")), "{got:?}");
    // ARC.gz: a corrupt member and a truncated last member.
    let (mut data, at) = archive(true, &[filedesc(), carrier, good.clone(), good]);
    let flip = (at[2] + 20) as usize;
    data[flip] ^= 0x5a;
    data.truncate(data.len() - 3);
    let got = show(&data, true);
    assert_eq!(got[0], "S 0 filedesc");
    assert!(got[1].starts_with(&format!("R {} http://good/carrier", at[1])), "{got:?}");
    assert_eq!(&got[2..], [format!("B {} bad_gzip", at[2]), format!("B {} truncated", at[3])]);
}

#[test]
fn dates_read_as_instants() {
    let d = |s: &str| arc_date(s).map(|t| t.to_string());
    assert_eq!(d("19961104142103").as_deref(), Some("1996-11-04T14:21:03Z"));
    assert_eq!(d("20000229").as_deref(), Some("2000-02-29T00:00:00Z"));
    assert_eq!(d("19990229000000"), None);
    assert_eq!(d("20001301000000"), None);
    assert_eq!(d("20000101250000"), None);
}

/// ARC.gz, one member per record: a record whose header's length is wrong (too small, too
/// large, past the end of the stream) is read to its member's end, with a note giving the
/// stated and the actual length; one record out per record in, the last one too.
#[test]
fn member_end_bounds_a_record_whose_length_is_wrong() {
    let good = response("http://good/a", "20050101000000", "<rss/>");
    let lying = |n: usize| {
        let r = response("http://bad/b", "20050101000000", "<rss><channel/></rss>");
        let pos = r.iter().position(|b| *b == b'\n').unwrap();
        let line = String::from_utf8(r[..pos].to_vec()).unwrap();
        let stated = line.rsplit(' ').next().unwrap().to_owned();
        let actual: usize = stated.parse().unwrap();
        let fixed = format!("{} {n}", &line[..line.len() - stated.len() - 1]);
        ([fixed.into_bytes(), r[pos..].to_vec()].concat(), actual)
    };
    for stated in [3, 70, 999_999] {
        let (bad, actual) = lying(stated);
        for order in [[0, 1, 2], [0, 2, 1]] {
            let parts = [filedesc(), bad.clone(), good.clone()];
            let records: Vec<Vec<u8>> = order.iter().map(|&i| parts[i].clone()).collect();
            let (data, at) = archive(true, &records);
            let mut got = Vec::new();
            read_arc(&data[..], true, 1 << 20, &mut Vec::new, &mut |i| {
                got.push(match i {
                    WarcItem::Record { at, target_uri, block, note, .. } => {
                        format!("R {at} {target_uri} {} {}", block.len(), note.unwrap_or_default())
                    }
                    other => format!("{other:?}"),
                });
                true
            })
            .unwrap();
            let note = format!(
                "ARC length {stated} is not the record's: its gzip member or zstd frame ends \
                 it after a block of {actual} bytes, read as the record"
            );
            let bad_at = at[order.iter().position(|&i| i == 1).unwrap()];
            let want_bad = format!("R {bad_at} http://bad/b {actual} {note}");
            assert_eq!(got.len(), 3, "{got:?}");
            assert!(got.contains(&want_bad), "{got:?}\n{want_bad}");
            assert!(
                got.iter().any(|g| g.starts_with("R ") && g.contains("http://good/a")),
                "{got:?}"
            );
        }
        // Plain ARC keeps the resync rule: the lying record is one error record.
        let data = [filedesc(), bad, good.clone()].concat();
        let kinds: Vec<String> = show(&data, false).iter().map(|s| s[..1].to_owned()).collect();
        assert_eq!(kinds, ["S", "B", "R"], "length {stated}");
    }
}
