//! The `archive` target: WARC, WARC.gz (per-record and block gzip), WARC.zst and ARC
//! archives built from the input, read back against the known truth, also nested in a tar.

use super::*;

/// Input of `archive`: a WARC (plain or gzip) generated with known truth, then damaged.
///
/// - byte 0: layout `% 4`: 0 plain WARC; 1 WARC.gz, one member per item (the member of a
///   record whose body carries a spoof stored verbatim, as a crawler's deflate stores an
///   incompressible body); 2 WARC.gz, one member for the whole file; 3 WARC.gz cut in members
///   of `byte 1 * 8 + 32` bytes whatever the records (block-gzip);
/// - byte 2: damage `% 4`: 0 none; 1 CRC flips (gzip layouts); 2 any byte flips and a
///   truncation (gzip layouts: only the structural invariants are checked); 3 as 1;
/// - then items until the input ends, each a tag byte `% 5` and its bytes: 0 a good `response`
///   record (body: `byte % 64` bytes of a small alphabet); 1 a good record whose body carries a
///   spoofed record (`http://spoof/`) as text and as a gzip member; 2 junk between records
///   (`byte % 32` bytes, never a version line or a gzip magic); 3 a record with a bad
///   Content-Length (too small, too large by 1–40, negative, not a number, past the end); 4 a
///   `metadata` record (skipped);
/// - damage positions are taken from the items' bytes (see the code).
///
/// Invariants: items in order inside the stream; no block over the limit; the reader's buffer
/// within `archive::warc::buffer_bound`; gzip layouts: the same items, in full, when the
/// members are inflated ahead (`gzip::ahead`, inline, 1–4 ranges ahead) as when they are not;
/// the archive nested in a tar (a member between two documents) reads as the archive does as
/// a file, its records named under the member and the documents around it intact (nothing
/// from inside it injected into the tar's listing; see `check_as_tar_member`); under damage
/// 0, 1, 3: no `http://spoof/` record ever (except the documented block-gzip case: reading
/// resumes inside a record cut by a failed member), and every good record whose gzip members
/// are intact is read (block-gzip: those after the first intact member that follows the last
/// damaged one, when no spoof is in the archive).
pub fn check_archive(data: &[u8]) {
    use feedmill::bulk::archive::warc::{buffer_bound, read_warc, read_warc_with, WarcItem};
    use feedmill::bulk::gzip::ahead::{InlineOffload, Offload};
    use std::sync::Arc;
    let mut r = Bytes::new(data);
    let layout = r.u8() % 4;
    let block = r.u8() as usize * 8 + 32;
    let damage = r.u8() % 4;
    let gz = gzip_member;
    let rec = |uri: &str, ty: &str, block: &[u8], cl: Option<String>| {
        let cl = cl.unwrap_or_else(|| block.len().to_string());
        let mut v = format!(
            "WARC/1.0\r\nWARC-Type: {ty}\r\nWARC-Target-URI: {uri}\r\nContent-Length: {cl}\r\n\r\n"
        )
        .into_bytes();
        v.extend_from_slice(block);
        v.extend_from_slice(b"\r\n\r\n");
        v
    };
    const ALPHABET: &[u8] = b"ab <>/\r\nW";
    // (plain bytes, is it a record, good uri or None, carries a spoof)
    let mut items: Vec<(Vec<u8>, Option<String>, bool)> = Vec::new();
    let mut n = 0;
    while !r.is_empty() && items.len() < 40 {
        let tag = r.u8() % 5;
        n += 1;
        match tag {
            0 => {
                let len = r.u8() as usize % 64;
                let body: Vec<u8> =
                    (0..len).map(|_| ALPHABET[r.u8() as usize % ALPHABET.len()]).collect();
                let mut b = b"HTTP/1.1 200 OK\r\n\r\n".to_vec();
                b.extend(&body);
                let uri = format!("http://good/{n}");
                items.push((rec(&uri, "response", &b, None), Some(uri), false));
            }
            1 => {
                let spoof =
                    rec("http://spoof/", "response", b"HTTP/1.1 200 OK\r\n\r\n<rss/>", None);
                let mut b = b"HTTP/1.1 200 OK\r\n\r\n".to_vec();
                b.extend(&spoof);
                b.extend(gz(&spoof, 1));
                let uri = format!("http://good/{n}");
                items.push((rec(&uri, "response", &b, None), Some(uri), true));
            }
            2 => {
                let len = r.u8() as usize % 32 + 1;
                let junk: Vec<u8> = (0..len)
                    .map(|_| match r.u8() {
                        b'W' | 0x1f => b'w',
                        b => b,
                    })
                    .collect();
                items.push((junk, None, false));
            }
            3 => {
                let body = b"HTTP/1.1 200 OK\r\n\r\n<rss/>";
                let k = r.u8();
                let cl = match k % 5 {
                    0 => (k as usize % body.len()).to_string(),
                    1 => (body.len() + 1 + k as usize % 40).to_string(),
                    2 => "-5".to_owned(),
                    3 => "abc".to_owned(),
                    _ => "999999".to_owned(),
                };
                items.push((
                    rec(&format!("http://bad/{n}"), "response", body, Some(cl)),
                    None,
                    false,
                ));
            }
            _ => items.push((rec("http://meta/", "metadata", b"k: v", None), None, false)),
        }
    }
    // The plain stream and each item's range in it.
    let mut plain = Vec::new();
    let mut ranges = Vec::new();
    for (bytes, _, _) in &items {
        ranges.push((plain.len(), plain.len() + bytes.len()));
        plain.extend(bytes);
    }
    // Members: (plain range, compressed bytes); junk items stay raw in layout 1.
    let mut stream = Vec::new();
    // For each member: (plain start, plain end, damaged)
    let mut members: Vec<(usize, usize, bool)> = Vec::new();
    let mut flips = Vec::new();
    let positions: Vec<u8> = data.iter().rev().take(8).copied().collect();
    match layout {
        0 => stream = plain.clone(),
        1 => {
            for (i, (bytes, uri, spoof)) in items.iter().enumerate() {
                if uri.is_none() && !bytes.starts_with(b"WARC/") {
                    stream.extend(bytes);
                    continue;
                }
                let m = gz(bytes, if *spoof { 0 } else { 1 });
                members.push((ranges[i].0, ranges[i].1, false));
                flips.push((stream.len(), m.len()));
                stream.extend(m);
            }
        }
        2 => {
            let m = gz(&plain, 1);
            members.push((0, plain.len(), false));
            flips.push((0, m.len()));
            stream = m;
        }
        _ => {
            let mut at = 0;
            for piece in plain.chunks(block) {
                let m = gz(piece, 1);
                members.push((at, at + piece.len(), false));
                flips.push((stream.len(), m.len()));
                stream.extend(m);
                at += piece.len();
            }
        }
    }
    // Damage: flip the CRC of (or, damage 2, any byte in) up to two members; damage 2 also
    // truncates.
    if layout != 0 && damage != 0 && !members.is_empty() {
        for p in positions.iter().take(2) {
            let k = *p as usize % members.len();
            let (start, len) = flips[k];
            let at = if damage == 2 {
                start + (positions[7 % positions.len()] as usize * 31 + *p as usize) % len
            } else {
                start + len - 8 + (*p as usize % 4)
            };
            stream[at] ^= 0x5a;
            members[k].2 = true;
        }
        if damage == 2 {
            let cut = stream.len() - positions[0] as usize % stream.len().min(64);
            stream.truncate(cut);
        }
    }
    if std::env::var_os("FEEDMILL_ARCHIVE_DEBUG").is_some() {
        eprintln!("layout {layout} damage {damage} members {members:?} flips {flips:?}");
    }
    let max = 1 << 20;
    let mut got: Vec<(String, u64)> = Vec::new();
    let mut last = 0u64;
    let peak = read_warc(&stream[..], layout != 0, max, &mut Vec::new, &mut |item| {
        let at = match &item {
            WarcItem::Record { at, .. }
            | WarcItem::Skipped { at, .. }
            | WarcItem::Broken { at, .. } => *at,
        };
        if std::env::var_os("FEEDMILL_ARCHIVE_DEBUG").is_some() {
            eprintln!("{item:?}");
        }
        assert!(at.offset <= stream.len() as u64, "item at {at} past the stream");
        assert!(at.offset >= last, "item offsets decreasing: {last} then {at}");
        last = at.offset;
        if let WarcItem::Record { target_uri, block, .. } = item {
            assert!(block.len() <= max, "a block over the limit");
            got.push((target_uri, at.offset));
        }
        true
    })
    .expect("reading from memory fails");
    assert!(peak <= buffer_bound(max), "reader buffer {peak} over its bound");
    if layout != 0 {
        // Members inflated ahead (the bulk pipeline's path): the very same items.
        let items_of = |offload: Option<Arc<dyn Offload>>| {
            let mut all = Vec::new();
            let peak =
                read_warc_with(&stream[..], true, max, offload, &mut Vec::new, &mut |item| {
                    all.push(match item {
                        WarcItem::Record { at, target_uri, block, .. } => {
                            format!("R {at} {target_uri} {}", String::from_utf8_lossy(&block))
                        }
                        other => format!("{other:?}"),
                    });
                    true
                })
                .expect("reading from memory fails");
            assert!(peak <= buffer_bound(max), "reader buffer {peak} over its bound");
            all
        };
        let ahead: Arc<dyn Offload> = Arc::new(InlineOffload::new(1 + positions[0] as usize % 4));
        assert_eq!(items_of(Some(ahead)), items_of(None), "members inflated ahead read otherwise");
    }
    check_as_tar_member(&stream, max);
    // The same items as zstd frames and as ARC records, damaged the same way.
    check_zstd_framing(&items, layout, block, damage, &positions, max);
    check_arc_framing(&items, layout % 2 == 1, damage, &positions, max);
    if damage == 2 && layout != 0 {
        return;
    }
    let damaged: Vec<&(usize, usize, bool)> = members.iter().filter(|m| m.2).collect();
    // Block-gzip after damage: resynchronization starts inside a record.
    let block_cut = layout == 3 && !damaged.is_empty();
    let resume = if block_cut {
        let last_bad = damaged.last().unwrap().1;
        members.iter().find(|m| m.0 >= last_bad && !m.2).map_or(usize::MAX, |m| m.0)
    } else {
        0
    };
    // Block-gzip after damage: reading resumes inside a record, whose text may hold a
    // version line (the documented limit): no spoof check, and no recovery check when a
    // spoof is in the archive.
    if !block_cut {
        assert!(
            !got.iter().any(|(u, _)| u.starts_with("http://spoof/")),
            "a record from inside another record came out: {got:?}"
        );
    } else if items.iter().any(|i| i.2) {
        return;
    }
    for ((_, uri, _), &(s, e)) in items.iter().zip(&ranges) {
        let Some(uri) = uri else { continue };
        let intact = members.iter().all(|m| m.1 <= s || m.0 >= e || !m.2);
        let after_resume = s >= resume;
        // Single member damaged: nothing after the failure point is required.
        let single_bad = layout == 2 && !damaged.is_empty();
        if intact && after_resume && !single_bad {
            assert!(
                got.iter().any(|(u, _)| u == uri),
                "good record {uri} at {s}..{e} lost (layout {layout}, damage {damage}); got {got:?}"
            );
        }
    }
}

/// One zstd frame of `data`, with its content checksum.
fn zstd_frame(data: &[u8]) -> Vec<u8> {
    let mut c = zstd::bulk::Compressor::new(1).expect("a zstd context");
    c.include_checksum(true).expect("checksum flag");
    c.compress(data).expect("compressing in memory")
}

/// The block of a WARC record `rec` written by `check_archive` (between its header and the
/// `CRLF CRLF` after it).
fn warc_block(rec: &[u8]) -> &[u8] {
    let at = rec.windows(4).position(|w| w == b"\r\n\r\n").map_or(rec.len(), |i| i + 4);
    &rec[at..rec.len().saturating_sub(4).max(at)]
}

/// What the items of an archive check read back as, for any framing: the records emitted
/// (URI, block, offset); asserts each good record's block is byte for byte its own (nothing
/// from a damaged frame or member, nor from inside another record, comes out as a good
/// record), offsets never decrease, and returns the URIs read.
fn read_back(
    items: &[(Vec<u8>, Option<String>, bool)],
    got: Vec<(String, Vec<u8>, u64)>,
    stream_len: usize,
    spoof_allowed: bool,
    what: &str,
) -> Vec<String> {
    let mut last = 0;
    let mut uris = Vec::new();
    for (uri, block, at) in got {
        assert!(at <= stream_len as u64 && at >= last, "{what}: offset {at} after {last}");
        last = at;
        if uri.starts_with("http://spoof/") {
            assert!(spoof_allowed, "{what}: a record from inside another record came out");
            continue;
        }
        if uri.starts_with("http://bad/") {
            // A wrong Content-Length may still end at a blank line or a version line (inside
            // its body, or in the item after it): then the record is read with that many
            // bytes from its body's start on.
            if !spoof_allowed {
                let field = format!("WARC-Target-URI: {uri}\r\n");
                let (mut plain, mut body_at) = (Vec::new(), None);
                for (bytes, good, _) in items {
                    if good.is_none() && bytes.windows(field.len()).any(|w| w == field.as_bytes()) {
                        let hl = bytes.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
                        body_at = Some(plain.len() + hl);
                    }
                    plain.extend_from_slice(bytes);
                }
                let at =
                    body_at.unwrap_or_else(|| panic!("{what}: a record {uri} that is not an item"));
                assert!(
                    plain[at..].starts_with(&block),
                    "{what}: the block of {uri} is not the bytes its length covers"
                );
            }
            continue;
        }
        let own = items.iter().find(|i| i.1.as_deref() == Some(uri.as_str()));
        if spoof_allowed && own.is_none() {
            // Damage may alter a header's bytes unchecked (see below).
            continue;
        }
        let own = own.unwrap_or_else(|| panic!("{what}: a record {uri} that is not an item"));
        // (Under damage that may alter a frame's bytes unchecked, or resume inside records,
        // only the structural invariants hold, as for the WARC.gz layouts.)
        assert!(
            spoof_allowed || block == warc_block(&own.0),
            "{what}: the block of {uri} is not its own"
        );
        uris.push(uri);
    }
    uris
}

/// `check_archive`'s items as a WARC.zst: a zstd frame per record (layouts 1 and 2; junk
/// stays raw) or frames cut every `block` bytes (layout 3; layout 0: one frame), a spoof
/// carrier's body holding the spoof as a zstd frame too; up to two frames damaged (damage 1:
/// their checksum, 2: any byte, then the stream truncated). Nothing injected: every record
/// read is a good item's own block; with frames per record, every good record of an
/// undamaged frame is read.
fn check_zstd_framing(
    items: &[(Vec<u8>, Option<String>, bool)],
    layout: u8,
    block: usize,
    damage: u8,
    positions: &[u8],
    max: usize,
) {
    use feedmill::bulk::archive::warc::{buffer_bound, read_records, WarcItem};
    use feedmill::bulk::gzip::raw::Raw;
    use feedmill::bulk::gzip::zstd::ZstdStream;
    let spoof = "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://spoof/\r\n\
        Content-Length: 25\r\n\r\nHTTP/1.1 200 OK\r\n\r\n<rss/>\r\n\r\n";
    // The carriers hold the spoof's zstd frame as well (the other items are the same).
    let items: Vec<(Vec<u8>, Option<String>, bool)> = items
        .iter()
        .map(|(bytes, uri, is_spoof)| {
            if !*is_spoof {
                return (bytes.clone(), uri.clone(), false);
            }
            let uri = uri.clone().expect("a carrier has a URI");
            let body = [warc_block(bytes), &zstd_frame(spoof.as_bytes())].concat();
            let rec = [
                format!(
                    "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {uri}\r\n\
                     Content-Length: {}\r\n\r\n",
                    body.len()
                )
                .as_bytes(),
                &body,
                b"\r\n\r\n",
            ]
            .concat();
            (rec, Some(uri), true)
        })
        .collect();
    let mut ranges = Vec::new();
    let mut plain = Vec::new();
    for (bytes, _, _) in &items {
        ranges.push((plain.len(), plain.len() + bytes.len()));
        plain.extend(bytes);
    }
    let mut stream = Vec::new();
    // (raw start, raw len, plain start, plain end) of each frame.
    let mut frames: Vec<(usize, usize, usize, usize)> = Vec::new();
    if layout == 0 || layout == 3 {
        let size = if layout == 0 { plain.len().max(1) } else { block };
        for (k, piece) in plain.chunks(size).enumerate() {
            let f = zstd_frame(piece);
            frames.push((stream.len(), f.len(), k * size, k * size + piece.len()));
            stream.extend(f);
        }
    } else {
        // Junk items stay raw, between the frames.
        for (i, (bytes, uri, _)) in items.iter().enumerate() {
            if uri.is_none() && !bytes.starts_with(b"WARC/") {
                stream.extend(bytes);
                continue;
            }
            let f = zstd_frame(bytes);
            frames.push((stream.len(), f.len(), ranges[i].0, ranges[i].1));
            stream.extend(f);
        }
    }
    let mut damaged = vec![false; frames.len()];
    if damage != 0 && !frames.is_empty() {
        for p in positions.iter().take(2) {
            let k = *p as usize % frames.len();
            let (start, len, ..) = frames[k];
            let at = if damage == 2 {
                start + (positions[7 % positions.len()] as usize * 31 + *p as usize) % len
            } else {
                // A byte of the content checksum (the frame's last four bytes).
                start + len - 4 + (*p as usize % 4)
            };
            stream[at] ^= 0x5a;
            damaged[k] = true;
        }
        if damage == 2 {
            let cut = stream.len() - positions[0] as usize % stream.len().min(64);
            stream.truncate(cut);
        }
    }
    let mut got = Vec::new();
    let mut src = ZstdStream::new(Raw::new(&stream[..]));
    let peak = read_records(&mut src, Vec::new(), None, max, &mut Vec::new, &mut |item| {
        if let WarcItem::Record { at, target_uri, block, .. } = item {
            got.push((target_uri, block.to_vec(), at.offset));
        }
        true
    })
    .expect("reading from memory fails");
    assert!(peak <= buffer_bound(max), "zstd: reader buffer {peak} over its bound");
    // Frames cut regardless of records: after damage, reading resumes inside a record (as
    // for block-gzip); a damaged frame may also be read up to where its damage is.
    let cut = layout == 3 || layout == 0;
    let spoof_allowed = damage == 2 || (cut && damage != 0);
    let uris = read_back(&items, got, stream.len(), spoof_allowed, "zstd");
    if cut || damage == 2 {
        return;
    }
    for (i, (_, uri, _)) in items.iter().enumerate() {
        let Some(uri) = uri else { continue };
        let (s, e) = ranges[i];
        let intact = frames.iter().zip(&damaged).all(|(f, d)| f.3 <= s || f.2 >= e || !d);
        if intact {
            assert!(uris.contains(uri), "zstd: good record {uri} lost; got {uris:?}");
        }
    }
}

/// An ARC record's bytes and, for a good one, its URI and block.
type ArcRecord = (Vec<u8>, Option<(String, Vec<u8>)>);

/// `check_archive`'s items as ARC records (a response's HTTP message as the block, a
/// metadata record as a `dns:` record, a bad Content-Length as a bad length, junk without
/// line ends on a line of its own), plain or a gzip member per record, damaged as the WARC.gz
/// members are. Nothing injected; every good record outside a damaged member is read.
fn check_arc_framing(
    items: &[(Vec<u8>, Option<String>, bool)],
    gzip: bool,
    damage: u8,
    positions: &[u8],
    max: usize,
) {
    use feedmill::bulk::archive::arc::{buffer_bound, read_arc};
    use feedmill::bulk::archive::warc::WarcItem;
    let line = |url: &str, len: &str| format!("{url} 192.0.2.1 20050101000000 text/xml {len}\n");
    let arc = |url: &str, block: &[u8], len: Option<String>| {
        let len = len.unwrap_or_else(|| block.len().to_string());
        [line(url, &len).as_bytes(), block, b"\n"].concat()
    };
    let spoof = arc("http://spoof/", b"HTTP/1.1 200 OK\r\n\r\n<rss/>", None);
    // (ARC bytes, good URI and its block)
    let mut records: Vec<ArcRecord> = vec![(
        arc(
            "filedesc://f.arc",
            b"1 0 Feedmill\nURL IP-address Archive-date Content-type Archive-length\n",
            None,
        ),
        None,
    )];
    for (bytes, uri, is_spoof) in items {
        let rec = match uri {
            Some(u) => {
                let mut block = warc_block(bytes).to_vec();
                if *is_spoof {
                    block =
                        [&b"HTTP/1.1 200 OK\r\n\r\n"[..], &spoof, &gzip_member(&spoof, 0)].concat();
                }
                (arc(u, &block, None), Some((u.clone(), block)))
            }
            None if bytes.starts_with(b"WARC/") => {
                let text = String::from_utf8_lossy(bytes);
                if text.contains("WARC-Type: metadata") {
                    (arc("dns:meta.example", b"192.0.2.1", None), None)
                } else {
                    // A bad length: as written in the WARC record.
                    let cl = text
                        .lines()
                        .find_map(|l| l.strip_prefix("Content-Length: "))
                        .unwrap_or("0")
                        .to_owned();
                    (arc("http://bad/", warc_block(bytes), Some(cl)), None)
                }
            }
            None => {
                let junk: Vec<u8> =
                    bytes.iter().map(|&b| if b == b'\n' { b' ' } else { b }).collect();
                ([&b"#"[..], &junk, b"\n"].concat(), None)
            }
        };
        records.push(rec);
    }
    let mut stream = Vec::new();
    // (raw start, raw len, damaged) of each record's member.
    let mut members: Vec<(usize, usize, bool)> = Vec::new();
    for (bytes, _) in &records {
        if gzip {
            let m = gzip_member(bytes, if bytes.len() % 3 == 0 { 0 } else { 1 });
            members.push((stream.len(), m.len(), false));
            stream.extend(m);
        } else {
            stream.extend(bytes);
        }
    }
    if gzip && damage != 0 {
        for p in positions.iter().take(2) {
            let k = *p as usize % members.len();
            let (start, len, _) = members[k];
            let at = if damage == 2 {
                start + (positions[7 % positions.len()] as usize * 31 + *p as usize) % len
            } else {
                start + len - 8 + (*p as usize % 4)
            };
            stream[at] ^= 0x5a;
            members[k].2 = true;
        }
        if damage == 2 {
            let cut = stream.len() - positions[0] as usize % stream.len().min(64);
            stream.truncate(cut);
        }
    }
    let mut got = Vec::new();
    let peak = read_arc(&stream[..], gzip, max, &mut Vec::new, &mut |item| {
        if let WarcItem::Record { at, target_uri, block, .. } = item {
            got.push((target_uri, block.to_vec(), at.offset));
        }
        true
    })
    .expect("reading from memory fails");
    assert!(peak <= buffer_bound(max), "ARC: reader buffer {peak} over its bound");
    let mut last = 0;
    let mut uris = Vec::new();
    for (uri, block, at) in got {
        assert!(at <= stream.len() as u64 && at >= last, "ARC: offset {at} after {last}");
        last = at;
        if uri == "http://spoof/" {
            assert!(damage == 2, "ARC: a record from inside another record came out");
            continue;
        }
        if uri == "http://bad/" {
            // As for WARC: a wrong length may still end at a line end; the record is then
            // read with that many bytes from after a bad record's header line.
            if damage != 2 {
                let plain: Vec<u8> = records.iter().flat_map(|r| r.0.iter().copied()).collect();
                let head = b"http://bad/ ";
                let covered = (0..plain.len()).filter(|&i| plain[i..].starts_with(head)).any(|i| {
                    let nl = plain[i..]
                        .iter()
                        .position(|&b| b == b'\n')
                        .map_or(plain.len(), |p| i + p + 1);
                    plain[nl..].starts_with(&block)
                });
                assert!(covered, "ARC: the block of {uri} is not the bytes its length covers");
            }
            continue;
        }
        let own = records.iter().find_map(|r| r.1.as_ref().filter(|g| g.0 == uri));
        if damage == 2 && own.is_none() {
            continue;
        }
        let own = own.unwrap_or_else(|| panic!("ARC: a record {uri} that is not an item"));
        assert!(damage == 2 || block == own.1, "ARC: the block of {uri} is not its own");
        uris.push(uri);
    }
    if damage == 2 && gzip {
        return;
    }
    for (i, (_, good)) in records.iter().enumerate() {
        let Some((uri, _)) = good else { continue };
        if !gzip || !members[i].2 {
            assert!(uris.contains(uri), "ARC: good record {uri} lost; got {uris:?}");
        }
    }
}

/// `stream` read through the input layer as a file of its own, and as the member `m` of a
/// ustar archive between two documents: the same records, `<tar>!m…` for `<file>…`, between
/// the two documents' records, and nothing else.
fn check_as_tar_member(stream: &[u8], max: usize) {
    use feedmill::bulk::archive::names::path_name;
    use feedmill::bulk::archive::reader::enumerate;
    use feedmill::bulk::archive::{Counters, Input, Payload, ReadConfig};
    use feedmill::bulk::buf::BufPool;
    fn member(t: &mut Vec<u8>, name: &[u8], data: &[u8]) {
        let mut h = [0u8; 512];
        h[..name.len()].copy_from_slice(name);
        h[100..108].copy_from_slice(b"0000644\0");
        h[124..136].copy_from_slice(format!("{:011o}\0", data.len()).as_bytes());
        h[156] = b'0';
        h[257..263].copy_from_slice(b"ustar\0");
        h[263..265].copy_from_slice(b"00");
        h[148..156].copy_from_slice(b"        ");
        let sum: u32 = h.iter().map(|b| *b as u32).sum();
        h[148..156].copy_from_slice(format!("{sum:06o}\0 ").as_bytes());
        t.extend(h);
        t.extend(data);
        t.resize(t.len().div_ceil(512) * 512, 0);
    }
    let read = |path: &std::path::Path| {
        let cfg =
            ReadConfig { max_record_bytes: max, revisit_memory: 1 << 20, ..ReadConfig::default() };
        let mut got = Vec::new();
        let input = [Input::Path(path.to_path_buf())];
        enumerate(&input, &cfg, &Counters::default(), &BufPool::default(), &mut |rec| {
            got.push(match rec.payload {
                Payload::Document(b) => format!("D {} {}", rec.source, String::from_utf8_lossy(&b)),
                Payload::Response { message, .. } => format!("R {} {}", rec.source, message.len()),
                Payload::Broken { kind, message } => format!("B {} {kind} {message}", rec.source),
            });
            true
        });
        got
    };
    let mut tar = Vec::new();
    member(&mut tar, b"before.xml", b"<rss>before</rss>");
    member(&mut tar, b"m", stream);
    member(&mut tar, b"after.xml", b"<rss>after</rss>");
    tar.extend([0u8; 1024]);
    let (file, tar_file) = (scratch_file("warc", stream), scratch_file("tar", &tar));
    let (alone, nested) = (read(&file), read(&tar_file));
    let _ = std::fs::remove_file(&file);
    let _ = std::fs::remove_file(&tar_file);
    let (f, t) = (path_name(&file), path_name(&tar_file));
    let mut want = vec![format!("D {t}!before.xml <rss>before</rss>")];
    for r in &alone {
        let (kind, rest) = r.split_at(2);
        let rest = rest.strip_prefix(&f).expect("a record under the file's name");
        want.push(format!("{kind}{t}!m{rest}"));
    }
    want.push(format!("D {t}!after.xml <rss>after</rss>"));
    assert_eq!(nested, want, "the archive as a tar member reads otherwise than as a file");
}
