//! The `bulk` target: WARC, WARC.gz and plain documents through the bulk record pipeline,
//! each output line a valid record.

use super::*;

/// Input of `bulk`: byte 0 selects how the rest is read — `% 4`: 0 = a plain WARC stream,
/// 1 = the rest gzip-compressed (one member) as a WARC.gz, 2 = the rest as WARC.gz bytes as
/// they are (broken gzip, resynchronization), 3 = the rest as one plain document.
pub fn check_bulk(data: &[u8]) {
    use feedmill::bulk::archive::warc::{read_warc, WarcItem};
    use feedmill::bulk::archive::{Payload, RawRecord as Record};
    use feedmill::bulk::{encode_records, Config, Worker};
    let mode = data.first().copied().unwrap_or(0) % 4;
    let rest = data.get(1..).unwrap_or(&[]);
    let mut records = Vec::new();
    if mode == 3 {
        records.push(Record { source: "doc".into(), payload: Payload::Document(rest.to_vec()) });
    } else {
        let gz;
        let stream: &[u8] = if mode == 1 {
            gz = gzip_member(rest, 1);
            &gz
        } else {
            rest
        };
        let mut last = None;
        let mut emit = |item: WarcItem| {
            let at = match &item {
                WarcItem::Record { at, .. }
                | WarcItem::Skipped { at, .. }
                | WarcItem::Broken { at, .. } => *at,
            };
            assert!(
                at.offset <= stream.len() as u64,
                "WARC item offset {at} past the stream ({} bytes)",
                stream.len()
            );
            if let Some(prev) = last {
                // Plain WARC: each item starts after the previous one. WARC.gz: the offset is
                // the gzip member's (a failed member is reported after the records read
                // from it: same offset).
                if mode == 0 {
                    assert!(at.offset > prev, "WARC item offsets not increasing: {prev} then {at}");
                } else {
                    assert!(at.offset >= prev, "WARC.gz item offsets decreasing: {prev} then {at}");
                }
            }
            last = Some(at.offset);
            match item {
                WarcItem::Record { at, kind, target_uri, block, capture, note, .. } => records
                    .push(Record {
                        source: format!("fuzz.warc@{at} {target_uri}"),
                        payload: Payload::Response {
                            kind,
                            target_uri,
                            message: block,
                            capture,
                            original: None,
                            original_error: None,
                            note,
                        },
                    }),
                WarcItem::Skipped { .. } => {}
                WarcItem::Broken { at, kind, message, .. } => records.push(Record {
                    source: format!("fuzz.warc@{at}"),
                    payload: Payload::Broken { kind, message },
                }),
            }
            records.len() < 64
        };
        let _ = read_warc(stream, mode != 0, 1 << 20, &mut Vec::new, &mut emit);
    }
    let cfg = Config { threads: 1, ..Config::default() };
    let mut worker = Worker::new(&cfg);
    let (out, _stats) = encode_records(&mut worker, &records);
    // Exactly one line per record, each valid JSON.
    let lines: Vec<&[u8]> = out.split(|&b| b == b'\n').collect();
    assert_eq!(lines.last().map(|l| l.len()), Some(0), "output does not end with a newline");
    assert_eq!(lines.len() - 1, records.len(), "not one line per record");
    for l in &lines[..lines.len() - 1] {
        check_json_line(l, None);
    }
    // Deterministic (a reused worker).
    let (again, _) = encode_records(&mut worker, &records);
    assert!(again == out, "bulk output is not deterministic");
}
