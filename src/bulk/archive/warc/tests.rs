//! The WARC reader against generated archives: offsets in every gzip member layout, damage
//! (corrupt, truncated, junk, bad Content-Length) costing one error record each, nothing from
//! inside a record or a failed member injected, and the members inflated ahead giving exactly
//! the sequential reader's items.

use super::*;
use crate::bulk::archive::http::parse_http_response;
use crate::bulk::gzip::raw::Raw;
use crate::bulk::gzip::stream::GzStream;
use crate::bulk::gzip::{ahead, ahead::Offload, member::BIG};
use flate2::{write::GzEncoder, Compression};
use std::io::{Read, Write};
use std::sync::Arc;

fn gz_level(data: &[u8], level: Compression) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), level);
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn gz(data: &[u8]) -> Vec<u8> {
    gz_level(data, Compression::fast())
}

fn record(ty: &str, uri: &str, block: &[u8]) -> Vec<u8> {
    record_cl(ty, uri, block, &block.len().to_string())
}

fn record_cl(ty: &str, uri: &str, block: &[u8], cl: &str) -> Vec<u8> {
    let mut r = format!(
        "WARC/1.0\r\nWARC-Type: {ty}\r\nWARC-Target-URI: {uri}\r\nContent-Length: {cl}\r\n\r\n"
    )
    .into_bytes();
    r.extend_from_slice(block);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

fn response(uri: &str, body: &str) -> Vec<u8> {
    record("response", uri, format!("HTTP/1.1 200 OK\r\n\r\n{body}").as_bytes())
}

/// An item as a short string: `R at uri`, `S at type`, `B at kind`.
fn short(i: WarcItem) -> String {
    match i {
        WarcItem::Record { at, target_uri, .. } => format!("R {at} {target_uri}"),
        WarcItem::Skipped { at, warc_type } => format!("S {at} {warc_type}"),
        WarcItem::Broken { at, kind, .. } => format!("B {at} {kind}"),
    }
}

/// Items as [`short`] strings. For a gzip stream, also checks that the members inflated
/// ahead give the same items, blocks and messages.
fn show(data: &[u8], gzip: bool, max: usize) -> Vec<String> {
    let mut items = Vec::new();
    read_warc(data, gzip, max, &mut Vec::new, &mut |i| {
        items.push(short(i));
        true
    })
    .unwrap();
    if gzip {
        same_ahead(data, max);
    }
    items
}

/// Every item in full (blocks as lengths and hashes), read with `offload`.
fn full(data: &[u8], max: usize, offload: Option<Arc<dyn Offload>>) -> Vec<String> {
    let mut items = Vec::new();
    read_warc_with(data, true, max, offload, &mut Vec::new, &mut |i| {
        items.push(match i {
            WarcItem::Record { at, target_uri, block, note, .. } => {
                let mut h = crc32fast::Hasher::new();
                h.update(&block);
                format!("R {at} {target_uri} {} {:08x} {note:?}", block.len(), h.finalize())
            }
            WarcItem::Skipped { at, warc_type } => format!("S {at} {warc_type}"),
            WarcItem::Broken { at, target_uri, kind, message } => {
                format!("B {at} {target_uri:?} {kind} {message}")
            }
        });
        true
    })
    .unwrap();
    items
}

/// The members inflated ahead (inline, and by threads finishing out of order, with one
/// and several ranges ahead) give exactly the items of the sequential reader.
fn same_ahead(data: &[u8], max: usize) {
    let want = full(data, max, None);
    for ranges in [1, 3] {
        let inline: Arc<dyn Offload> = Arc::new(ahead::InlineOffload::new(ranges));
        same(&full(data, max, Some(inline)), &want);
        let pool: Arc<dyn Offload> = ahead::LifoPool::new(2, ranges);
        same(&full(data, max, Some(pool)), &want);
    }
}

/// Compares long item lists by their first difference.
fn same(got: &[String], want: &[String]) {
    let i = got.iter().zip(want).position(|(g, w)| g != w).unwrap_or(got.len().min(want.len()));
    assert_eq!((got.len(), got.get(i)), (want.len(), want.get(i)), "first difference at item {i}");
}

/// The decoded length of a multi-member gzip stream.
fn records_len(gz: &[u8]) -> usize {
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(gz).read_to_end(&mut out).unwrap();
    out.len()
}

/// Incompressible bytes (a deflate writer stores them verbatim).
fn noise(n: usize, seed: u64) -> Vec<u8> {
    let mut next = crate::test_rng(seed);
    (0..n).map(|_| next() as u8).collect()
}

/// A response whose body carries a complete gzip member of a spoofed record, among
/// incompressible bytes: a crawler's deflate stores it verbatim in the archive.
fn carrier(uri: &str) -> Vec<u8> {
    let spoof = gz(&response("https://bank.example/feed.xml", "<rss>SPOOFED bank feed</rss>"));
    let mut body = b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n\r\n".to_vec();
    body.extend(noise(3000, 7));
    body.extend(&spoof);
    body.extend(noise(3000, 9));
    record("response", uri, &body)
}

/// An archive of many ranges: one member per record, bodies of every kind (text, stored
/// noise, gzip bodies stored verbatim with a spoofed record inside, members larger than
/// what one range may produce), so that candidates inside members, ranges starting at
/// false candidates and members crossing range ends all occur.
fn big_archive(records: usize, seed: u64) -> Vec<u8> {
    let mut data = Vec::new();
    for i in 0..records {
        let uri = format!("http://h{i}.example/feed");
        let rec = match i % 7 {
            0 => carrier(&uri),
            1 => response(&uri, &"<item><title>t</title></item>".repeat(i * 13 % 500)),
            2 => {
                let mut body = b"HTTP/1.1 200 OK\r\n\r\n".to_vec();
                body.extend(noise(1000 + i * 997 % 90_000, seed + i as u64));
                record("response", &uri, &body)
            }
            3 => record("request", &uri, b"GET / HTTP/1.1\r\n\r\n"),
            4 if i % 3 == 0 => {
                // Larger than a worker inflates: the stream inflates it itself.
                let big = "<item>x</item>".repeat((BIG + 4096) / 14);
                response(&uri, &big)
            }
            _ => response(&uri, "<rss/>"),
        };
        let level = if i % 5 == 0 { Compression::none() } else { Compression::fast() };
        data.extend(gz_level(&rec, level));
    }
    data
}

#[test]
fn a_range_job_that_panics_is_read_by_the_stream_itself() {
    // Every range job panics (a bug in the worker's inflate): each range comes back
    // uninflated, the stream decodes its members itself, and the records are the same.
    let data = big_archive(40, 1);
    let read = |panics: bool| {
        ahead::PANIC_IN_RANGES.set(panics);
        let mut src = GzStream::new(Raw::new(&data[..]));
        src.offload(Arc::new(ahead::InlineOffload::new(4)));
        let mut items = Vec::new();
        read_records(&mut src, Vec::new(), None, 16 << 20, &mut Vec::new, &mut |item| {
            if let WarcItem::Record { block, .. } = item {
                items.push(block.into_vec());
            }
            true
        })
        .unwrap();
        ahead::PANIC_IN_RANGES.set(false);
        (items, src.members_inflated_ahead())
    };
    let (want, ahead) = read(false);
    let (got, ahead_panicking) = read(true);
    assert!(want.len() > 30, "{} responses", want.len());
    assert!(ahead > 0 && ahead_panicking == 0, "{ahead} / {ahead_panicking} inflated ahead");
    assert!(got == want, "the same records");
}

#[test]
fn members_inflated_ahead_read_the_same() {
    let data = big_archive(120, 1);
    assert!(data.len() > 8 * ahead::RANGE_BYTES);
    same_ahead(&data, 1 << 20);
    same_ahead(&data, 16 << 20);
    // Nearly every member comes from the helpers: here all but the five larger than a
    // worker inflates.
    let mut src = GzStream::new(Raw::new(&data[..]));
    src.offload(Arc::new(ahead::InlineOffload::new(4)));
    let mut records = 0;
    let mut blocks = Vec::new();
    read_records(&mut src, Vec::new(), None, 16 << 20, &mut Vec::new, &mut |item| {
        records += 1;
        if let WarcItem::Record { block, .. } = item {
            blocks.push(block);
        }
        true
    })
    .unwrap();
    let taken = src.members_inflated_ahead();
    assert!(records == 120 && taken >= 110, "{taken} of {records} members inflated ahead");
    // Most of them in whole ranges, their buffers taken rather than copied.
    let swapped = src.members_swapped_in();
    assert!(swapped >= 100, "{swapped} of {taken} members in ranges swapped in");
    // And the blocks of their records are ranges of those buffers, not copies; the
    // buffers are accounted for once each: at least the blocks' bytes, at most what was
    // inflated.
    let shared: Vec<&Block> = blocks.iter().filter(|b| b.is_shared()).collect();
    assert!(shared.len() * 10 >= blocks.len() * 8, "{} of {} shared", shared.len(), blocks.len());
    let held: usize = shared.iter().map(|b| b.held_bytes()).sum();
    let len: usize = shared.iter().map(|b| b.len()).sum();
    let inflated: usize = records_len(&data);
    assert!(
        len <= held && held <= inflated,
        "blocks {len} B, held {held} B, inflated {inflated} B"
    );
    let buffers = shared.iter().filter(|b| b.held_bytes() > 0).count();
    assert!(buffers >= 8, "{buffers} shared buffers: one per range");
    // Their buffers go back for reuse once the last block of each is dropped.
    let home = src.buffer_home().expect("a stream with helpers has a home for buffers");
    let kept = home.kept();
    drop(shared);
    drop(blocks);
    let back = (kept + buffers).min(ahead::SPARE_OUTPUTS);
    assert_eq!(home.kept(), back, "{buffers} buffers shared, {kept} kept before");
    // Damage in the middle: a flipped byte, a cut member, junk, a truncated end.
    let mut next = crate::test_rng(0x2545_f491_4f6c_dd1d);
    for _ in 0..12 {
        let mut d = data.clone();
        let at = (next() % d.len() as u64) as usize;
        match next() % 4 {
            0 => d[at] ^= 1 << (next() % 8),
            1 => drop(d.drain(at..(at + 1 + next() as usize % 5000).min(d.len()))),
            2 => d.splice(at..at, b"junk\x1f\x8b\x08\x00".iter().copied()).for_each(drop),
            _ => d.truncate(at),
        }
        same_ahead(&d, 1 << 20);
    }
}

/// A range mostly made of other records (small responses beside large `metadata`
/// records) has its blocks copied: shared, each would hold the whole range.
#[test]
fn sparse_ranges_copy_their_blocks() {
    let mut data = Vec::new();
    for i in 0..40 {
        let uri = format!("http://h{i}.example/");
        data.extend(gz(&response(&uri, "<rss/>")));
        // Large when inflated, ~20 KB raw: several pairs per range.
        let mut meta = noise(20_000, i);
        meta.resize(300_000, b'x');
        data.extend(gz(&record("metadata", &uri, &meta)));
    }
    same_ahead(&data, 1 << 20);
    let mut src = GzStream::new(Raw::new(&data[..]));
    src.offload(Arc::new(ahead::InlineOffload::new(4)));
    let mut blocks = Vec::new();
    read_records(&mut src, Vec::new(), None, 1 << 20, &mut Vec::new, &mut |item| {
        if let WarcItem::Record { block, .. } = item {
            blocks.push(block);
        }
        true
    })
    .unwrap();
    assert_eq!(blocks.len(), 40);
    let swapped = src.members_swapped_in();
    assert!(swapped >= 40, "{swapped} members swapped in");
    assert!(blocks.iter().all(|b| !b.is_shared()), "a block of a sparse range is shared");
}

/// A header over the limit is one however much is buffered: a member holding a 1.5 MiB
/// header (swapped in whole with its range) reads as the sequential reader reads it,
/// and one just under the limit is accepted either way.
#[test]
fn header_limit_does_not_depend_on_buffering() {
    let a = gz(&response("http://a/", "<rss/>"));
    let c = gz(&response("http://c/", "<feed/>"));
    for pad in [MAX_HEADER + MAX_HEADER / 2, MAX_HEADER - 200] {
        let mut long =
            b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://b/\r\nContent-Length: 6\r\n"
                .to_vec();
        while long.len() < pad {
            long.extend_from_slice(
                b"X-Pad: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n",
            );
        }
        long.extend_from_slice(b"\r\n<rss/>\r\n\r\n");
        let data = [a.clone(), gz(&long), c.clone()].concat();
        let want = full(&data, 16 << 20, None);
        let over = pad > MAX_HEADER;
        assert_eq!(want.iter().any(|i| i.contains("header longer")), over, "{want:?}");
        assert_eq!(want.iter().any(|i| i.contains("http://b/")), !over, "{want:?}");
        same_ahead(&data, 16 << 20);
    }
}

/// Whole-file and block gzip: few members start with a record; the stream decodes the
/// rest itself, the same bytes either way.
#[test]
fn other_member_layouts_read_the_same_ahead() {
    let mut plain = Vec::new();
    for i in 0..200 {
        plain.extend(response(&format!("http://x/{i}"), &"<item>y</item>".repeat(i % 40)));
    }
    same_ahead(&gz(&plain), 1 << 20);
    let blocks: Vec<u8> = plain.chunks(10_000).flat_map(gz).collect();
    same_ahead(&blocks, 1 << 20);
}

#[test]
fn one_member_per_record_offsets() {
    let a = gz(&response("http://a/", "<rss/>"));
    let b = gz(&record("request", "http://a/", b"GET / HTTP/1.1\r\n\r\n"));
    let c = gz(&response("http://c/", "<feed/>"));
    let data = [a.clone(), b.clone(), c].concat();
    let (ab, abb) = (a.len(), a.len() + b.len());
    assert_eq!(
        show(&data, true, 1 << 20),
        vec![format!("R 0 http://a/"), format!("S {ab} request"), format!("R {abb} http://c/")]
    );
}

/// `gzip crawl.warc`: one member, larger than the record limit, every record read.
#[test]
fn single_member_larger_than_the_limit() {
    let mut plain = Vec::new();
    let mut want = Vec::new();
    for i in 0..3000 {
        let at = Loc { offset: 0, within: plain.len() as u64 };
        want.push(format!("R {at} http://x/{i}"));
        plain.extend(response(&format!("http://x/{i}"), &"<rss/>".repeat(i % 50)));
    }
    let data = gz(&plain);
    assert!(plain.len() > 64 * 1024);
    same(&show(&data, true, 64 * 1024), &want);
}

/// Block-gzip writers: members cut every 1000 bytes, whatever the records.
#[test]
fn members_not_aligned_with_records() {
    let mut plain = Vec::new();
    let mut starts = Vec::new();
    for i in 0..200 {
        starts.push((plain.len(), i));
        plain.extend(response(&format!("http://x/{i}"), &"<rss/>".repeat(i % 30)));
    }
    let mut data = Vec::new();
    let mut want = Vec::new();
    let mut next = starts.iter().peekable();
    for (k, piece) in plain.chunks(1000).enumerate() {
        let member_at = data.len();
        while let Some(&&(s, i)) = next.peek() {
            if s >= (k + 1) * 1000 {
                break;
            }
            let within = s - k * 1000;
            let at = Loc { offset: member_at as u64, within: within as u64 };
            want.push(format!("R {at} http://x/{i}"));
            next.next();
        }
        data.extend(gz(piece));
    }
    same(&show(&data, true, 1 << 20), &want);
}

/// A member whose CRC fails, holding a stored gzip member with a spoofed record: one
/// error record for it, nothing from inside it, the next member read.
#[test]
fn corrupt_member_injects_nothing() {
    let a = gz(&response("http://a/", "<rss/>"));
    let mut b = gz_level(&carrier("http://b/"), Compression::none());
    let n = b.len();
    b[n - 6] ^= 0x55; // CRC
    let c = gz(&response("http://c/", "<rss/>"));
    let data = [a.clone(), b.clone(), c].concat();
    let (at_b, at_c) = (a.len(), a.len() + b.len());
    assert_eq!(
        show(&data, true, 1 << 20),
        vec![format!("R 0 http://a/"), format!("B {at_b} bad_gzip"), format!("R {at_c} http://c/")]
    );
    // Bit rot in the stored bytes before the payload.
    let mut b2 = gz_level(&carrier("http://b/"), Compression::none());
    b2[600] ^= 0x10;
    let data = [a.clone(), b2.clone(), gz(&response("http://c/", "<rss/>"))].concat();
    let at_c = a.len() + b2.len();
    assert_eq!(
        show(&data, true, 1 << 20),
        vec![
            format!("R 0 http://a/"),
            format!("B {} bad_gzip", a.len()),
            format!("R {at_c} http://c/")
        ]
    );
}

/// A truncated last member holding a stored spoofed member: one `truncated` record.
#[test]
fn truncated_member_injects_nothing() {
    let a = gz(&response("http://a/", "<rss/>"));
    let b = gz_level(&carrier("http://b/"), Compression::none());
    let data = [a.clone(), b[..b.len() - 2000].to_vec()].concat();
    assert_eq!(
        show(&data, true, 1 << 20),
        vec![format!("R 0 http://a/"), format!("B {} truncated", a.len())]
    );
}

/// An oversized record holding a stored spoofed member: `too_large`, then the next one.
#[test]
fn oversized_record_injects_nothing() {
    let a = gz(&response("http://a/", "<rss/>"));
    let b = gz_level(&carrier("http://b/"), Compression::none());
    let c = gz(&response("http://c/", "<rss/>"));
    let data = [a.clone(), b.clone(), c].concat();
    assert_eq!(
        show(&data, true, 4096),
        vec![
            format!("R 0 http://a/"),
            format!("B {} too_large", a.len()),
            format!("R {} http://c/", a.len() + b.len())
        ]
    );
}

/// A member cut inside a stored block (an incompressible body; a crawler that crashed and
/// then appended): the stored block declares bytes that are really the members written
/// after the cut, and each of those is read, not skipped as stored data.
#[test]
fn member_cut_inside_a_stored_block_keeps_the_members_after_it() {
    let a = gz(&response("http://a/", "<rss/>"));
    let mut body = b"HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\n\r\n".to_vec();
    body.extend(noise(200_000, 3));
    let b = gz_level(&record("response", "http://b/", &body), Compression::fast());
    let b = &b[..b.len() / 2];
    let mut data = [a.clone(), b.to_vec()].concat();
    let mut want = vec![format!("R 0 http://a/"), format!("B {} bad_gzip", a.len())];
    for i in 0..300 {
        want.push(format!("R {} http://c/{i}", data.len()));
        data.extend(gz(&response(&format!("http://c/{i}"), "<rss/>")));
    }
    same(&show(&data, true, 1 << 20), &want);
}

/// The same cut, but a gzip body stored verbatim (with a spoofed record) before the cut:
/// its member ends inside the stored data, where the enclosing member's bytes go on, so it
/// is still not read; the members after the cut are.
#[test]
fn member_cut_after_a_stored_gzip_body_injects_nothing() {
    let a = gz(&response("http://a/", "<rss/>"));
    let b = gz_level(&carrier("http://b/"), Compression::none());
    let b = &b[..b.len() - 1000];
    let mut data = [a.clone(), b.to_vec()].concat();
    let mut want = vec![format!("R 0 http://a/"), format!("B {} bad_gzip", a.len())];
    for i in 0..100 {
        want.push(format!("R {} http://c/{i}", data.len()));
        data.extend(gz(&response(&format!("http://c/{i}"), "<rss/>")));
    }
    same(&show(&data, true, 1 << 20), &want);
}

/// A zstd frame of `data` (no content checksum, as the library writes by default).
fn zst(data: &[u8]) -> Vec<u8> {
    zstd::bulk::compress(data, 1).unwrap()
}

/// The items of WARC.zst `data`, as [`show`] gives them.
fn show_zst(data: &[u8]) -> Vec<String> {
    use crate::bulk::gzip::zstd::ZstdStream;
    let mut items = Vec::new();
    let src = &mut ZstdStream::new(Raw::new(data));
    read_records(src, Vec::new(), None, 1 << 20, &mut Vec::new, &mut |i| {
        items.push(short(i));
        true
    })
    .unwrap();
    items
}

/// A zstd frame holding a `.zst` body stored as is (a raw block, with a spoofed record),
/// cut inside that block, then frames appended: nothing from inside the raw block's declared
/// bytes is read — neither the stored spoof nor the appended frames the cut block covers
/// (frames there are not told from stored ones: a stored frame without a checksum can be
/// built to decode past the block's end) — and the frames after them are.
#[test]
fn zstd_frame_cut_inside_a_raw_block_injects_nothing() {
    let a = zst(&response("http://a/", "<rss/>"));
    let spoof = zst(&response("https://bank.example/feed.xml", "<rss>SPOOFED bank feed</rss>"));
    let mut body = b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n\r\n".to_vec();
    body.extend(noise(3000, 7));
    body.extend(&spoof);
    body.extend(noise(200_000, 9));
    let b = zst(&record("response", "http://b/", &body));
    let mut data = [&a[..], &b[..20_000]].concat();
    let mut last = 0;
    for i in 0..1200 {
        last = data.len();
        data.extend(zst(&response(&format!("http://c/{i}"), "<rss/>")));
    }
    let got = show_zst(&data);
    assert_eq!(got[..2], ["R 0 http://a/".to_owned(), format!("B {} bad_zstd", a.len())]);
    assert!(got.iter().all(|r| !r.contains("bank.example")), "{got:?}");
    assert_eq!(got.last(), Some(&format!("R {last} http://c/1199")));
}

/// A member cut short and followed by a good one (a crawler restarted): the good one is
/// found from the cut member's start.
#[test]
fn truncated_member_does_not_swallow_the_next() {
    let a = gz(&response("http://a/", "<rss/>"));
    let b = gz(&response("http://b/", &"<item>text</item>".repeat(200)));
    let b = &b[..b.len() / 2];
    let c = gz(&response("http://c/", "<rss/>"));
    let data = [a.clone(), b.to_vec(), c].concat();
    assert_eq!(
        show(&data, true, 1 << 20),
        vec![
            format!("R 0 http://a/"),
            format!("B {} bad_gzip", a.len()),
            format!("R {} http://c/", a.len() + b.len())
        ]
    );
}

#[test]
fn junk_between_members() {
    let a = gz(&response("http://a/", "<rss/>"));
    let c = gz(&response("http://c/", "<rss/>"));
    let data = [a.clone(), b"garbage!".to_vec(), c].concat();
    assert_eq!(
        show(&data, true, 1 << 20),
        vec![
            format!("R 0 http://a/"),
            format!("B {} bad_gzip", a.len()),
            format!("R {} http://c/", a.len() + 8)
        ]
    );
}

/// Plain WARC: a bad Content-Length (too small, too large, past the end, negative, not a
/// number) and junk between records each cost one error record; the rest is read.
#[test]
fn plain_warc_resyncs_on_the_next_version_line() {
    let body = b"HTTP/1.1 200 OK\r\n\r\n<rss/>";
    for cl in ["3", "40", "999999", "-5", "abc", "99999999999999999999999"] {
        let a = response("http://a/", "<rss/>");
        let b = record_cl("response", "http://b/", body, cl);
        let c = response("http://c/", "<rss/>");
        let data = [a.clone(), b, c].concat();
        let kind = if cl == "999999" { "truncated" } else { "bad_warc" };
        let want = vec![
            format!("R 0 http://a/"),
            format!("B {} {kind}", a.len()),
            format!("R {} http://c/", data.len() - response("http://c/", "<rss/>").len()),
        ];
        assert_eq!(show(&data, false, 1 << 20), want, "Content-Length {cl}");
    }
    let a = response("http://a/", "<rss/>");
    let c = response("http://c/", "<rss/>");
    let data = [a.clone(), b"junk junk\r\n".to_vec(), c].concat();
    assert_eq!(
        show(&data, false, 1 << 20),
        vec![
            format!("R 0 http://a/"),
            format!("B {} bad_warc", a.len()),
            format!("R {} http://c/", a.len() + 11)
        ]
    );
}

/// WARC.gz with one member per record: a record whose Content-Length is wrong (too small,
/// too large, past the end, past the record limit) is read to its member's end, with a note
/// giving the stated and the actual length; one record out per record in. Plain WARC and a
/// member holding several records keep the resync rule (one error record).
#[test]
fn member_end_bounds_a_record_whose_content_length_is_wrong() {
    let body = b"HTTP/1.1 200 OK\r\n\r\n<rss/>";
    let records = |cl: &str| {
        [
            response("http://a/", "<rss/>"),
            record_cl("response", "http://b/", body, cl),
            response("http://c/", "<rss/>"),
        ]
    };
    for cl in ["3", "40", "999999", "99999999999"] {
        let [a, b, c] = records(cl);
        let data = [gz(&a), gz(&b), gz(&c)].concat();
        let mut got = Vec::new();
        read_warc(&data[..], true, 1 << 20, &mut Vec::new, &mut |i| {
            got.push(match i {
                WarcItem::Record { target_uri, block, note, .. } => {
                    format!("R {target_uri} {} {}", block.len(), note.unwrap_or_default())
                }
                other => format!("{other:?}"),
            });
            true
        })
        .unwrap();
        let note = format!(
            "WARC Content-Length {cl} is not the record's: its gzip member or zstd frame ends it \
             after a block of {} bytes, read as the record",
            body.len()
        );
        let want = [
            "R http://a/ 25 ".to_owned(),
            format!("R http://b/ {} {note}", body.len()),
            "R http://c/ 25 ".to_owned(),
        ];
        assert_eq!(got, want, "Content-Length {cl}");
        same_ahead(&data, 1 << 20);
        // The last record lying: its member ends at the end of the stream.
        let data = [gz(&a), gz(&c), gz(&b)].concat();
        let got = show(&data, true, 1 << 20);
        assert_eq!(got.len(), 3, "{got:?}");
        assert!(got.iter().all(|g| g.starts_with('R')), "{got:?}");
        // One member for the whole stream: the length's rule (one error record).
        let whole = show(&gz(&[a, b, c].concat()), true, 1 << 20);
        assert!(whole.iter().any(|g| g.starts_with('B')), "{whole:?}");
    }
    // Records just larger than the limit: `too_large`, the lying one too (its member, found
    // within the limit and its trailer, ends it: the next record is not skipped with it).
    let [a, b, c] = records("99999999999");
    let (ga, gb) = (gz(&a), gz(&b));
    let data = [ga.clone(), gb.clone(), gz(&c)].concat();
    let want = [
        "B 0 too_large".to_owned(),
        format!("B {} too_large", ga.len()),
        format!("B {} too_large", ga.len() + gb.len()),
    ];
    assert_eq!(show(&data, true, body.len() - 1), want);
}

/// A version line inside a well-formed record's block is never a record.
#[test]
fn records_inside_a_block_stay_inside() {
    let inner = response("https://bank.example/feed.xml", "SPOOFED");
    let mut body = b"HTTP/1.1 200 OK\r\n\r\n".to_vec();
    body.extend(&inner);
    let a = record("response", "http://a/", &body);
    let c = response("http://c/", "<rss/>");
    let data = [a.clone(), c].concat();
    let want = vec![format!("R 0 http://a/"), format!("R {} http://c/", a.len())];
    assert_eq!(show(&data, false, 1 << 20), want);
    assert_eq!(
        show(&gz(&data), true, 1 << 20),
        vec![format!("R 0 http://a/"), format!("R 0+{} http://c/", a.len())]
    );
}

#[test]
fn several_records_in_one_member() {
    let mut both = record("metadata", "http://a/", b"k: v");
    let second = both.len();
    both.extend(response("http://b/", "x"));
    assert_eq!(
        show(&gz(&both), true, 1 << 20),
        vec!["S 0 metadata".to_owned(), format!("R 0+{second} http://b/")]
    );
}

/// Corrupted archives never panic, and every item has an offset inside the input.
#[test]
fn mutated_archives_do_not_panic() {
    let mut base = Vec::new();
    for i in 0..4 {
        let body = format!(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n<rss>\r\n0\r\n\r\n{i}"
        );
        base.extend(gz(&record("response", "http://a/", body.as_bytes())));
    }
    let mut next = crate::test_rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..300 {
        let mut data = base.clone();
        for _ in 0..1 + next() % 4 {
            let at = (next() % data.len() as u64) as usize;
            match next() % 3 {
                0 => data[at] ^= 1 << (next() % 8),
                1 => data.truncate(at),
                _ => data.insert(at, next() as u8),
            }
        }
        same_ahead(&data, 1 << 20);
        for gzip in [true, false] {
            read_warc(&data[..], gzip, 1 << 20, &mut Vec::new, &mut |item| {
                let at = match &item {
                    WarcItem::Record { at, block, .. } => {
                        let _ = parse_http_response(block, 1 << 20);
                        *at
                    }
                    WarcItem::Skipped { at, .. } | WarcItem::Broken { at, .. } => *at,
                };
                assert!(at.offset <= data.len() as u64);
                true
            })
            .unwrap();
        }
    }
}

#[test]
fn plain_warc() {
    let mut data = record("warcinfo", "", b"x: y");
    let second = data.len();
    data.extend(record("response", "http://a/", b"HTTP/1.0 200 OK\r\n\r\nbody"));
    assert_eq!(
        show(&data, false, 1 << 20),
        vec!["S 0 warcinfo".to_owned(), format!("R {second} http://a/")]
    );
}

/// Content-Length: a value no block can have (2^64 - 1, past `isize::MAX`, past `u64`) is
/// reported as too large — 2^64 - 1 was the "absent" sentinel and read as no
/// Content-Length —, a missing one as missing, a non-number as bad.
#[test]
fn content_length_too_large_missing_or_bad_is_reported_as_such() {
    let header = |cl: Option<&str>| {
        let field = cl.map_or(String::new(), |v| format!("Content-Length: {v}\r\n"));
        let h = format!("WARC/1.0\r\nWARC-Type: response\r\n{field}\r\n");
        parse_warc_header(h.as_bytes()).map(|h| h.content_length)
    };
    for v in ["18446744073709551615", "9223372036854775808", "99999999999999999999999"] {
        assert_eq!(header(Some(v)), Err(format!("Content-Length {v} is too large")));
    }
    assert_eq!(header(Some("9223372036854775807")), Ok(isize::MAX as usize));
    assert_eq!(header(Some("0")), Ok(0));
    assert_eq!(header(Some(" 42 ")), Ok(42));
    assert_eq!(header(None), Err("WARC header has no Content-Length".into()));
    assert_eq!(header(Some("-5")), Err("bad Content-Length \"-5\"".into()));
    assert_eq!(header(Some("")), Err("bad Content-Length \"\"".into()));
    // Repeated: the same value is that value; two values are neither.
    assert_eq!(header(Some("42\r\ncontent-length: 42")), Ok(42));
    let conflict = Err("conflicting Content-Length fields (5 and 5000)".to_owned());
    assert_eq!(header(Some("5\r\nContent-Length: 5000")), conflict);
    // In a stream: one bad_warc record, then the record after it.
    let bad = record_cl(
        "response",
        "http://b/",
        b"HTTP/1.1 200 OK\r\n\r\n",
        "21\r\nContent-Length: 9000",
    );
    let data = [bad.clone(), response("http://c/", "<rss/>")].concat();
    assert_eq!(
        show(&data, false, 1 << 20),
        vec!["B 0 bad_warc".to_owned(), format!("R {} http://c/", bad.len())]
    );
}

/// A field given again with another value keeps its first (as warcio reads a header) and
/// the record carries a note naming it; the same value repeated, an unread field, or a
/// `Content-Type` repeated on a record that does not use it say nothing.
#[test]
fn repeated_header_fields_keep_the_first_and_say_so() {
    let parse = |fields: &str| {
        let h = format!("WARC/1.0\r\nContent-Length: 0\r\n{fields}\r\n");
        parse_warc_header(h.as_bytes()).unwrap()
    };
    let w = parse(
        "WARC-Type: response\r\nWARC-Target-URI: http://a/\r\nWARC-Date: 2020-01-01T00:00:00Z\r\n\
         warc-target-uri: http://b/\r\nWARC-Date: 2021-01-01T00:00:00Z\r\n\
         WARC-Target-URI: http://c/\r\nContent-Type: a/b\r\nContent-Type: c/d\r\n",
    );
    assert_eq!(w.capture.target_uri.as_deref(), Some("http://a/"));
    assert_eq!(w.capture.date.map(|d| d.unix_seconds()), Some(1_577_836_800));
    assert_eq!(
        w.repeated.as_deref(),
        Some(
            "WARC header repeats warc-target-uri, WARC-Date with other values: the first of \
             each is used"
        )
    );
    let w = parse("WARC-Type: resource\r\nContent-Type: a/b\r\nContent-Type: c/d\r\n");
    assert_eq!(w.capture.content_type.as_deref(), Some("a/b"));
    assert_eq!(
        w.repeated.as_deref(),
        Some("WARC header repeats Content-Type with another value: the first is used")
    );
    let w = parse("WARC-Type: response\r\nWARC-Type: response\r\nX-Other: 1\r\nX-Other: 2\r\n");
    assert_eq!((w.warc_type.as_str(), w.repeated), ("response", None));
    // In a stream: the note is the record's.
    let block = b"HTTP/1.1 200 OK\r\n\r\n<rss/>";
    let mut r = record("response", "http://a/", block);
    let at = r.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 2;
    r.splice(at..at, b"WARC-Target-URI: http://z/\r\n".iter().copied());
    let got = full(&gz(&r), 1 << 20, None);
    assert_eq!(got.len(), 1);
    assert!(got[0].starts_with("R 0 http://a/ "), "{got:?}");
    assert!(
        got[0].ends_with(
            "Some(\"WARC header repeats WARC-Target-URI with another value: the first is used\")"
        ),
        "{got:?}"
    );
}

/// `header_lines` splits as `str::lines` does: LF and CRLF ends, a bare CR kept, a last line
/// without LF kept whole (a CR at its end too), no empty line after a final LF; over every
/// string of up to six bytes from `a`, `:`, CR, LF and a two-byte character.
#[test]
fn header_lines_are_str_lines() {
    let parts = ["a", ":", "\r", "\n", "é"];
    let mut texts = vec![String::new()];
    for _ in 0..6 {
        let longer: Vec<String> =
            texts.iter().flat_map(|t| parts.iter().map(move |p| format!("{t}{p}"))).collect();
        texts.extend(longer.into_iter().filter(|t| t.len() <= 6));
        texts.sort();
        texts.dedup();
    }
    for t in &texts {
        let got: Vec<&str> = header_lines(t).collect();
        let want: Vec<&str> = t.lines().collect();
        assert_eq!(got, want, "{t:?}");
    }
    let long = format!("{}\r\n{}\n{}", "x".repeat(100), "y".repeat(70), "z".repeat(20));
    assert_eq!(header_lines(&long).collect::<Vec<_>>(), long.lines().collect::<Vec<_>>());
}

/// `header_text` is `String::from_utf8_lossy`, borrowing valid text: every sequence of up
/// to three parts from ASCII, a two- and a three-byte character, a lone continuation byte, a
/// cut lead byte, an overlong form and 0xFF.
#[test]
fn header_text_is_from_utf8_lossy() {
    let parts: [&[u8]; 8] =
        [b"a", b"\r\n", "é".as_bytes(), "€".as_bytes(), b"\x80", b"\xE2\x82", b"\xC0\xAF", b"\xFF"];
    let mut texts: Vec<Vec<u8>> = vec![Vec::new()];
    for _ in 0..3 {
        let longer: Vec<Vec<u8>> =
            texts.iter().flat_map(|t| parts.iter().map(move |p| [&t[..], p].concat())).collect();
        texts.extend(longer);
    }
    for t in &texts {
        let got = header_text(t);
        assert_eq!(got, String::from_utf8_lossy(t), "{t:?}");
        let valid = std::str::from_utf8(t).is_ok();
        assert_eq!(matches!(got, std::borrow::Cow::Borrowed(_)), valid, "{t:?}");
    }
}

/// Field names are read without regard to ASCII case, every known one ([`Field::ALL`]) within
/// `LONGEST_NAME`, and a longer or non-ASCII name is none of them.
#[test]
fn header_field_names_ignore_ascii_case() {
    let h = "WARC/1.1\r\nwarc-TYPE: Response\r\nCONTENT-length: 7\r\n\
             warc-refers-to-target-uri: <http://a/>\r\nWARC-SEGMENT-TOTAL-LENGTH: 9\r\n\
             WARC-Segment-Number: 2\r\nWARC-Target-URI-and-more-than-25-bytes: x\r\n\
             WARC-Târget-URI: y\r\nWarc-Target-Uri: http://b/\r\n\r\n";
    let w = parse_warc_header(h.as_bytes()).unwrap();
    assert_eq!((w.warc_type.as_str(), w.content_length), ("response", 7));
    assert_eq!(w.capture.refers_to_target_uri.as_deref(), Some("http://a/"));
    assert_eq!(w.capture.target_uri.as_deref(), Some("http://b/"));
    let s = w.segment.unwrap();
    assert_eq!((s.number, s.total_length), (2, Some(9)));
    // The one list of fields: lowercase names, the longest `LONGEST_NAME` bytes, each read
    // as its field by the `match`.
    assert_eq!(Field::ALL.iter().map(|(_, n)| n.len()).max(), Some(LONGEST_NAME));
    for &(field, name) in Field::ALL {
        assert!(name.iter().all(|b| b.is_ascii_lowercase() || *b == b'-'), "{field:?}");
        assert_eq!(Field::named(name), Some(field));
    }
    assert_eq!(Field::named(b"warc-block-digest"), None);
}

/// A gzip member of stored deflate blocks of `size` bytes each, with eight empty
/// fixed-Huffman blocks before block `split`: 11 bytes that are not stored data, so that
/// the stored data before and after them are two runs (back-to-back stored blocks are one
/// run, whose inner headers a crafted member gains nothing by crossing); they stand for
/// whatever predictable non-stored bytes a writer puts there. Its header's comment (16 bytes
/// in all) holds a gzip magic with reserved flags: non-member bytes after the member's start
/// that are not stored data, where a resynchronization stops first.
fn gz_stored_blocks(data: &[u8], size: usize, split: usize) -> Vec<u8> {
    let mut out = vec![0x1f, 0x8b, 8, 0x10, 0, 0, 0, 0, 0, 0xff, 0x1f, 0x8b, 8, 0xe0, b'x', 0];
    let count = data.len().div_ceil(size);
    for (i, b) in data.chunks(size).enumerate() {
        // Bits, least significant first: each empty block is BFINAL 0, BTYPE 01 and the
        // end-of-block code 0000000; then this block's BFINAL and BTYPE 00.
        let (mut bits, mut n) = (0u128, 0usize);
        if i == split {
            for _ in 0..8 {
                bits |= 0b010 << n;
                n += 10;
            }
        }
        bits |= u128::from(i + 1 == count) << n;
        n += 3;
        out.extend(&bits.to_le_bytes()[..n.div_ceil(8)]);
        out.extend((b.len() as u16).to_le_bytes());
        out.extend((!(b.len() as u16)).to_le_bytes());
        out.extend(b);
    }
    out.extend(crc32fast::hash(data).to_le_bytes());
    out.extend((data.len() as u32).to_le_bytes());
    out
}

/// A body crafted against a writer whose block layout it predicts: a gzip member starts
/// inside the last block of a run of stored blocks and declares content running over the
/// writer's next bytes (the CRC computed with those predicted bytes in it), so it decodes
/// past the stored run's end as a member after a cut inside it would. When the enclosing
/// member fails later — a CRC rotted at its end, or a cut further on with members appended
/// — the crafted member is still not read: the members from it do not run on past where
/// the enclosing member failed, even after the resynchronization first stopped at (and
/// failed on) non-member bytes before it. The appended members are read.
#[test]
fn member_crafted_across_a_predicted_block_boundary_injects_nothing() {
    const S: usize = 4096;
    let filler = noise(40_000, 11);
    let mut body = b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n\r\n".to_vec();
    body.extend(&filler);
    let mut payload = record("response", "http://b/", &body);
    let filler_at = payload.len() - 4 - filler.len();
    let spoof =
        response("https://bank.example/feed.xml", &format!("<rss>{}</rss>", "x".repeat(64)));
    // The crafted member starts in block k; the writer's bytes between block k's data and
    // block k + 1's (`between`) fall at offset `a` of its content, inside the spoof's feed.
    let k = filler_at / S + 2;
    let a = spoof.len() - 40;
    // Those bytes, from the writer's layout (block k + 1's data starts 10 bytes later than
    // the blocks' before it).
    let layout = gz_stored_blocks(&payload, S, k + 1);
    let data_at = |i: usize| 16 + (i + 1) * 5 + i * S + if i > k { 10 } else { 0 };
    let between = layout[data_at(k) + S..data_at(k + 1)].to_vec();
    assert_eq!(between.len(), 15);
    // The spoof's feed holds those 15 bytes, so that it decodes as a whole record.
    let mut content = spoof.clone();
    content[a..a + 15].copy_from_slice(&between);
    let m = (k + 1) * S - 15 - a;
    let mut head = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff, 1];
    head.extend((content.len() as u16).to_le_bytes());
    head.extend((!(content.len() as u16)).to_le_bytes());
    head.extend(&content[..a]);
    payload[m..m + head.len()].copy_from_slice(&head);
    let mut tail = content[a + 15..].to_vec();
    tail.extend(crc32fast::hash(&content).to_le_bytes());
    tail.extend((content.len() as u32).to_le_bytes());
    payload[(k + 1) * S..(k + 1) * S + tail.len()].copy_from_slice(&tail);
    let b = gz_stored_blocks(&payload, S, k + 1);
    assert_eq!(records_len(&b), payload.len());
    let start = data_at(k) + m - k * S;
    let mut decoded = Vec::new();
    flate2::read::GzDecoder::new(&b[start..]).read_to_end(&mut decoded).unwrap();
    assert_eq!(decoded, content, "the crafted member decodes across the blocks' boundary");

    let a_rec = gz(&response("http://a/", "<rss/>"));
    let c_rec = gz(&response("http://c/", "<rss/>"));
    // The enclosing member's CRC rotted.
    let mut rotted = b.clone();
    let n = rotted.len();
    rotted[n - 6] ^= 0x55;
    let data = [a_rec.clone(), rotted, c_rec.clone()].concat();
    let want = vec![
        format!("R 0 http://a/"),
        format!("B {} bad_gzip", a_rec.len()),
        format!("R {} http://c/", a_rec.len() + b.len()),
    ];
    same(&show(&data, true, 1 << 20), &want);
    // Cut three blocks on, members appended.
    let cut = data_at(k + 3) + 100;
    let mut data = [a_rec.clone(), b[..cut].to_vec()].concat();
    let mut want = vec![format!("R 0 http://a/"), format!("B {} bad_gzip", a_rec.len())];
    for i in 0..100 {
        want.push(format!("R {} http://c/{i}", data.len()));
        data.extend(gz(&response(&format!("http://c/{i}"), "<rss/>")));
    }
    same(&show(&data, true, 1 << 20), &want);
}
