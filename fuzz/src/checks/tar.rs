//! The `tar` target: tar archives built from the input (plain, gzip, damaged headers), read
//! back against the known truth.

use super::*;

/// Input of `tar`: a tar archive generated with known truth, then damaged, written to a
/// temporary file and read through the CLI's input layer (`bulk::archive::reader::enumerate`: sniffing,
/// gzip, tar).
///
/// - byte 0: container `% 4`: 0 ustar; 1 ustar in one gzip member; 2 ustar cut into gzip
///   members (stored blocks) of `byte 1 * 8 + 512` bytes; 3 pre-POSIX tar (no magic, no long
///   names, no pax);
/// - byte 2: damage `% 4`: 0 none; 1 one byte of one header changed (any byte but the
///   first header's magic; by a mask below 0x80 from the input); 2 the tar truncated; 3 a byte
///   of the gzip stream flipped (containers 1 and 2; the others read as damage 0);
/// - byte 3: record limit: odd 48 bytes, even 1 MiB;
/// - then items until the input ends (at most 40), each a tag byte `% 9` and its bytes: 0 a
///   file (`byte % 64` bytes of a small alphabet; ustar: every other one with a `prefix`);
///   1 a file whose data is a whole tar member `SPOOF.xml` (header, data, padding: a tar in
///   a tar, read as one); 2 a GNU long name (`L`) of 104–614 bytes and its file; 3 a pax
///   header with `path=` and its file; 4 a directory (no record) or a symbolic link (a
///   `not_a_file` record); 5 a file whose data is gzip (read decompressed; the first such
///   file deflated, the others stored);
///   6 (when its next byte is 0) a GNU long name over `MAX_NAME` (one per archive; an error
///   record); 7 a WARC member of two responses, plain or (odd next byte) gzip, one member
///   each; 8 an ARC member, plain or (odd next byte) gzip (its record; its version block too
///   when over the limit, as a `too_large` record);
/// - damage positions are taken from the input's last bytes.
///
/// Invariants: no damage: exactly the expected records (names, bytes, `too_large` over the
/// limit, `bad_tar` for the over-long name, the records of an archive member under its name:
/// `<archive>!<member>!SPOOF.xml`, `<archive>!<member>@<offset> <uri>`), in order; one
/// damaged header (`tar_damage` says which rule applies): when the change may be in the size
/// field, the records before it then one `bad_tar` record for the archive; otherwise the same
/// as undamaged with the damaged header's member replaced by one `bad_tar` record
/// `<archive>!` (a damaged long-name or pax header: its file comes out under the name in its
/// own header) — every member after it is recovered; `SPOOF.xml` never comes out as a member
/// of the outer archive (only under its carrier's name); truncated: the expected records of
/// the members that end before the cut, then the records read from inside the member the cut
/// is in (under its name), then at most one error record per level the cut is in (two, three
/// in an archive member); always: no document over the limit, every source under the
/// archive's name.
pub fn check_tar(data: &[u8]) {
    use feedmill::bulk::archive::names::{escape_name, path_name};
    use feedmill::bulk::archive::reader::enumerate;
    use feedmill::bulk::archive::tar::MAX_NAME;
    use feedmill::bulk::archive::{Counters, Input, Payload, ReadConfig};
    use feedmill::bulk::buf::BufPool;

    #[derive(Clone, Debug, PartialEq)]
    enum Out {
        Doc(String, Vec<u8>),
        Bad(String, &'static str),
        Resp(String),
    }
    fn header(name: &[u8], prefix: &[u8], size: usize, flag: u8, ustar: bool) -> [u8; 512] {
        let mut h = [0u8; 512];
        let n = name.len().min(100);
        h[..n].copy_from_slice(&name[..n]);
        h[100..108].copy_from_slice(b"0000644\0");
        h[124..136].copy_from_slice(format!("{size:011o}\0").as_bytes());
        h[136..148].copy_from_slice(b"00000000000\0");
        h[156] = flag;
        if flag == b'2' {
            h[157..163].copy_from_slice(b"target");
        }
        if ustar {
            h[257..263].copy_from_slice(b"ustar\0");
            h[263..265].copy_from_slice(b"00");
            h[345..345 + prefix.len()].copy_from_slice(prefix);
        }
        h[148..156].copy_from_slice(b"        ");
        let sum: u32 = h.iter().map(|b| *b as u32).sum();
        h[148..156].copy_from_slice(format!("{sum:06o}\0 ").as_bytes());
        h
    }
    fn entry(t: &mut Vec<u8>, headers: &mut Vec<usize>, h: [u8; 512], data: &[u8]) -> usize {
        headers.push(t.len());
        t.extend(h);
        t.extend(data);
        let end = t.len();
        t.resize(t.len().div_ceil(512) * 512, 0);
        end
    }

    let mut r = Bytes::new(data);
    let container = r.u8() % 4;
    let block = r.u8() as usize * 8 + 512;
    let damage = r.u8() % 4;
    let max = if r.u8() % 2 == 1 { 48 } else { 1 << 20 };
    let ustar = container != 3;
    let file_flag = if ustar { b'0' } else { 0 };
    const ALPHABET: &[u8] = b"ab <>/\n";

    let mut t = Vec::new();
    // Per item: its header offsets (long-name and pax headers first), the end of its
    // file's data, the record it gives (if any) and the record it gives when its first
    // header is the damaged one.
    struct Item {
        headers: Vec<usize>,
        data_end: usize,
        expect: Vec<Out>,
        expect_damaged: Vec<Out>,
        /// The member's name when it holds an archive (its records are named under it).
        nest: Option<String>,
    }
    let mut items: Vec<Item> = Vec::new();
    let mut long_used = false;
    let mut deflated = false;
    while !r.is_empty() && items.len() < 40 {
        let n = items.len();
        let tag = r.u8() % 9;
        let mut headers = Vec::new();
        let body = |r: &mut Bytes| -> Vec<u8> {
            let len = r.u8() as usize % 64;
            (0..len).map(|_| ALPHABET[r.u8() as usize % ALPHABET.len()]).collect()
        };
        let file = |t: &mut Vec<u8>, hs: &mut Vec<usize>, name: &[u8], prefix: &[u8], d: &[u8]| {
            entry(t, hs, header(name, prefix, d.len(), file_flag, ustar), d)
        };
        let doc = |name: &[u8], d: Vec<u8>| -> Out {
            // The source is finished once the archive's name is known (below).
            let src = escape_name(name);
            if d.len() > max {
                Out::Bad(src, "too_large")
            } else {
                Out::Doc(src, d)
            }
        };
        let item = match tag {
            0 | 1 | 5 => {
                let name = format!("f{n}.xml").into_bytes();
                let prefix =
                    if ustar && n % 2 == 1 { format!("dir{n}").into_bytes() } else { vec![] };
                let full = if prefix.is_empty() {
                    name.clone()
                } else {
                    [&prefix[..], b"/", &name].concat()
                };
                let (stored, text) = match tag {
                    0 => {
                        let b = body(&mut r);
                        (b.clone(), b)
                    }
                    1 => {
                        let mut planted = Vec::new();
                        let spoof = header(b"SPOOF.xml", b"", 16, file_flag, ustar);
                        entry(&mut planted, &mut Vec::new(), spoof, b"<rss>spoof</rss>");
                        (planted.clone(), planted)
                    }
                    _ => {
                        let b = body(&mut r);
                        // One compressed member per archive; stored ones after it (a
                        // compressor costs far more than the reader under test).
                        let member = if std::mem::replace(&mut deflated, true) {
                            gzip_stored(&b)
                        } else {
                            gzip_member(&b, 1)
                        };
                        (member, b)
                    }
                };
                let end = file(&mut t, &mut headers, &name, &prefix, &stored);
                let bad = Out::Bad(String::new(), "bad_tar");
                // A tar in a tar is read: the planted member comes out under the carrier.
                let (expect, nest) = if tag == 1 {
                    let spoof =
                        doc(&[&full[..], b"!SPOOF.xml"].concat(), b"<rss>spoof</rss>".into());
                    (vec![spoof], Some(escape_name(&full)))
                } else {
                    (vec![doc(&full, text)], None)
                };
                Item { headers, data_end: end, expect, expect_damaged: vec![bad], nest }
            }
            2 | 3 if ustar => {
                let b = body(&mut r);
                let k = r.u8() as usize;
                let (long, own) = if tag == 2 {
                    let mut long: Vec<u8> =
                        (0..100 + k * 2).map(|i| if i % 7 == 6 { b'/' } else { b'l' }).collect();
                    // A name ending in `/` is an old-style directory: no record.
                    long.extend(b".xml");
                    let mut d = long.clone();
                    d.push(0);
                    entry(
                        &mut t,
                        &mut headers,
                        header(b"././@LongLink", b"", d.len(), b'L', true),
                        &d,
                    );
                    (long.clone(), long[..100].to_vec())
                } else {
                    let path = format!("p{n}/{}.xml", "q".repeat(k));
                    let rec = |len: usize| format!("{len} path={path}\n");
                    let mut len = rec(0).len();
                    while rec(len).len() != len {
                        len = rec(len).len();
                    }
                    let d = rec(len).into_bytes();
                    entry(&mut t, &mut headers, header(b"PaxHeader", b"", d.len(), b'x', true), &d);
                    (path.into_bytes(), format!("pax{n}.xml").into_bytes())
                };
                let end = file(&mut t, &mut headers, &own, b"", &b);
                Item {
                    headers,
                    data_end: end,
                    expect: vec![doc(&long, b.clone())],
                    expect_damaged: vec![Out::Bad(String::new(), "bad_tar"), doc(&own, b)],
                    nest: None,
                }
            }
            // Rare (its next byte must be 0): 64 KiB of name per archive.
            6 if ustar && !long_used && r.u8() == 0 => {
                long_used = true;
                let mut d = vec![b'x'; MAX_NAME + 10];
                d.push(0);
                entry(&mut t, &mut headers, header(b"././@LongLink", b"", d.len(), b'L', true), &d);
                let b = body(&mut r);
                let end = file(&mut t, &mut headers, &d[..100], b"", &b);
                let own = d[..100].to_vec();
                Item {
                    headers,
                    data_end: end,
                    expect: vec![Out::Bad(String::new(), "bad_tar")],
                    expect_damaged: vec![Out::Bad(String::new(), "bad_tar"), doc(&own, b)],
                    nest: None,
                }
            }
            7 => {
                // Two responses (a block of 25 bytes: read under either limit).
                let rec = |uri: &str| {
                    let block = b"HTTP/1.1 200 OK\r\n\r\n<rss/>";
                    let mut v = format!(
                        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {uri}\r\n\
                         Content-Length: {}\r\n\r\n",
                        block.len()
                    )
                    .into_bytes();
                    v.extend_from_slice(block);
                    v.extend_from_slice(b"\r\n\r\n");
                    v
                };
                let (one, two) = (format!("http://t{n}/1"), format!("http://t{n}/2"));
                let (a, b) = (rec(&one), rec(&two));
                let gzipped = r.u8() % 2 == 1;
                let (name, data, second) = if gzipped {
                    let first = gzip_stored(&a);
                    let at = first.len();
                    (format!("w{n}.warc.gz"), [first, gzip_stored(&b)].concat(), at)
                } else {
                    (format!("w{n}.warc"), [&a[..], &b].concat(), a.len())
                };
                let end = file(&mut t, &mut headers, name.as_bytes(), b"", &data);
                Item {
                    headers,
                    data_end: end,
                    expect: vec![
                        Out::Resp(format!("{name}@0 {one}")),
                        Out::Resp(format!("{name}@{second} {two}")),
                    ],
                    expect_damaged: vec![Out::Bad(String::new(), "bad_tar")],
                    nest: Some(name),
                }
            }
            8 => {
                let arc = b"filedesc://x.arc 0.0.0.0 20240101000000 text/plain 76\n1 0 \
                    InternetArchive\nURL IP-address Archive-date Content-type Archive-length\n\n\
                    http://a/feed 1.2.3.4 20240101000000 text/xml 6\n<rss/>\n";
                let (name, data) = if r.u8() % 2 == 1 {
                    (format!("a{n}.arc.gz"), gzip_stored(arc))
                } else {
                    (format!("a{n}.arc"), arc.to_vec())
                };
                let end = file(&mut t, &mut headers, name.as_bytes(), b"", &data);
                // Its version block (over the 48-byte limit: too large), then its record.
                let mut expect = Vec::new();
                if max < 76 {
                    expect.push(Out::Bad(format!("{name}@0 filedesc://x.arc"), "too_large"));
                }
                let at = if name.ends_with(".gz") { "0+131" } else { "131" };
                expect.push(Out::Resp(format!("{name}@{at} http://a/feed")));
                Item {
                    headers,
                    data_end: end,
                    expect,
                    expect_damaged: vec![Out::Bad(String::new(), "bad_tar")],
                    nest: Some(name),
                }
            }
            _ => {
                // A directory is no member; a symbolic link is one `not_a_file` record.
                let (h, expect) = if n.is_multiple_of(2) {
                    let flag = if ustar { b'5' } else { 0 };
                    (header(format!("d{n}/").as_bytes(), b"", 0, flag, ustar), Vec::new())
                } else {
                    let link = format!("s{n}");
                    let h = header(link.as_bytes(), b"", 0, b'2', ustar);
                    (h, vec![Out::Bad(link, "not_a_file")])
                };
                let end = entry(&mut t, &mut headers, h, b"");
                Item {
                    headers,
                    data_end: end,
                    expect,
                    expect_damaged: vec![Out::Bad(String::new(), "bad_tar")],
                    nest: None,
                }
            }
        };
        items.push(item);
    }
    if items.is_empty() {
        let end = entry(&mut t, &mut Vec::new(), header(b"e.xml", b"", 0, file_flag, ustar), b"");
        let expect = vec![Out::Doc("e.xml".into(), vec![])];
        items.push(Item {
            headers: vec![0],
            data_end: end,
            expect,
            expect_damaged: vec![Out::Bad(String::new(), "bad_tar")],
            nest: None,
        });
    }
    t.extend([0u8; 1024]);

    let positions: Vec<usize> = data.iter().rev().take(4).map(|b| *b as usize).collect();
    let pos = |i: usize| positions.get(i).copied().unwrap_or(0);
    let all_headers: Vec<(usize, usize)> = items
        .iter()
        .enumerate()
        .flat_map(|(i, it)| it.headers.iter().map(move |h| (i, *h)))
        .collect();
    // Which item's header is damaged, and whether it is the item's first header.
    let mut damaged: Option<(usize, bool)> = None;
    // What the reader must do with the damaged header (see `TarDamage`).
    let mut outcome = TarDamage::Recover;
    let mut cut = None;
    match damage {
        1 => {
            let k = (pos(0) * 7 + pos(1)) % all_headers.len();
            let (item, at) = all_headers[k];
            let mut off = (pos(2) * 3 + pos(3)) % 512;
            if ustar && at == 0 && (257..263).contains(&off) {
                off = (off + 40) % 124;
            }
            // Any change below 0x80 (every generated byte is ASCII, so sums stay unsigned).
            let mask = match (pos(1) as u8 & 0x7f) ^ 0x5a {
                0 => 0x5a,
                m => m,
            };
            t[at + off] ^= mask;
            damaged = Some((item, items[item].headers[0] == at));
            outcome = tar_damage(t[at..at + 512].try_into().unwrap());
        }
        2 => {
            let c = (pos(0) * 251 + pos(1) * 13 + pos(2)) % (t.len() + 1);
            t.truncate(c);
            cut = Some(c);
        }
        _ => {}
    }
    let mut stream = match container {
        1 => gzip_member(&t, 1),
        2 => t.chunks(block).flat_map(gzip_stored).collect(),
        _ => t.clone(),
    };
    let gzip_damaged = damage == 3 && matches!(container, 1 | 2) && !stream.is_empty();
    if gzip_damaged {
        let at = (pos(0) * 509 + pos(1) * 7 + pos(2)) % stream.len();
        stream[at] ^= 0x5a;
    }

    let path = scratch_file("tar", &stream);
    let arch = path_name(&path);
    let cfg =
        ReadConfig { max_record_bytes: max, revisit_memory: 1 << 20, ..ReadConfig::default() };
    let (counters, pool) = (Counters::default(), BufPool::default());
    let mut got = Vec::new();
    enumerate(&[Input::Path(path.clone())], &cfg, &counters, &pool, &mut |rec| {
        got.push(match rec.payload {
            Payload::Document(b) => Out::Doc(rec.source, b),
            Payload::Response { .. } => Out::Resp(rec.source),
            Payload::Broken { kind, .. } => Out::Bad(rec.source, kind),
        });
        true
    });
    let _ = std::fs::remove_file(&path);
    if std::env::var_os("FEEDMILL_TAR_DEBUG").is_some() {
        eprintln!("container {container} damage {damage} max {max} cut {cut:?} damaged {damaged:?}\n{got:?}");
    }

    // Always: under the archive's name, no document over the limit.
    for o in &got {
        let (Out::Doc(src, _) | Out::Bad(src, _) | Out::Resp(src)) = o;
        assert!(src.starts_with(&arch), "record {src} not under the archive {arch}");
        if let Out::Doc(_, b) = o {
            assert!(b.len() <= max, "document of {} bytes over the limit {max}", b.len());
        }
    }
    if gzip_damaged {
        // A damaged deflate stream decodes to anything before its CRC is checked at the
        // member's end: only the structural invariants.
        return;
    }
    let under = |o: &Out| match o {
        Out::Doc(s, b) => Out::Doc(format!("{arch}!{s}"), b.clone()),
        Out::Bad(s, k) => Out::Bad(format!("{arch}!{s}"), k),
        Out::Resp(s) => Out::Resp(format!("{arch}!{s}")),
    };
    let source = |o: &Out| match o {
        Out::Doc(s, _) | Out::Bad(s, _) | Out::Resp(s) => s.clone(),
    };
    let spoofed = got.iter().any(|o| source(o).starts_with(&format!("{arch}!SPOOF")));
    assert!(!spoofed, "a member from inside another member's data came out: {got:?}");
    match (damaged, cut) {
        (_, Some(c)) if c < 512 => {
            // Too short for a tar header: the whole file is one document.
            assert_eq!(got.len(), 1, "{got:?}");
            match &got[0] {
                Out::Doc(s, b) => assert!(*s == arch && *b == t, "{got:?}"),
                Out::Bad(s, k) => assert!(*s == arch && *k == "too_large", "{got:?}"),
                Out::Resp(_) => panic!("a WARC record from a tar's bytes: {got:?}"),
            }
        }
        (_, Some(c)) => {
            let done: Vec<Out> = items
                .iter()
                .filter(|i| i.data_end <= c)
                .flat_map(|i| i.expect.iter())
                .map(under)
                .collect();
            assert!(
                got.len() >= done.len() && got[..done.len()] == done[..],
                "cut at {c}: expected {done:?} first, got {got:?}"
            );
            // Records read from inside the archive member the cut is in, under its name;
            // then one error record at most per level the cut is in (the member's document
            // or inner archive, the inner archive's member, the outer archive).
            let rest = &got[done.len()..];
            let cut_in = items.iter().find(|i| i.data_end > c).and_then(|i| i.nest.as_ref());
            let inside = |o: &Out| {
                cut_in.is_some_and(|n| {
                    let s = source(o);
                    let p = format!("{arch}!{n}");
                    s.starts_with(&format!("{p}!")) || s.starts_with(&format!("{p}@"))
                })
            };
            let nested = rest.iter().take_while(|o| !matches!(o, Out::Bad(..)) && inside(o));
            let errors = &rest[nested.count()..];
            let levels = if cut_in.is_some() { 3 } else { 2 };
            assert!(
                errors.len() <= levels && errors.iter().all(|o| matches!(o, Out::Bad(..))),
                "cut at {c}: after {done:?}: {rest:?}"
            );
            // A cut anywhere but at an item's first header (a header, a long name, data,
            // padding) is said: an error record. At an item's first header the archive
            // ends there, as a tar without its end-of-archive blocks does.
            let at_item = items.iter().any(|i| i.headers.first() == Some(&c));
            let inside_items = items.iter().any(|i| i.data_end > c);
            if inside_items && !at_item {
                assert!(!errors.is_empty(), "cut at {c} inside an item, not said: {got:?}");
            }
        }
        (Some((0, _)), None) if !ustar && outcome != TarDamage::None => {
            // The first header of a pre-POSIX tar is recognized by its checksum only.
            assert_eq!(got.len(), 1, "{got:?}");
            match &got[0] {
                Out::Doc(s, b) => assert!(*s == arch && *b == t, "{got:?}"),
                Out::Bad(s, k) => assert!(*s == arch && *k == "too_large", "{got:?}"),
                Out::Resp(_) => panic!("a WARC record from a tar's bytes: {got:?}"),
            }
        }
        (Some((d, _)), None) if outcome == TarDamage::Stop => {
            let mut expect: Vec<Out> =
                items[..d].iter().flat_map(|i| i.expect.iter()).map(under).collect();
            expect.push(Out::Bad(arch.clone(), "bad_tar"));
            assert_eq!(
                got, expect,
                "container {container}: a damaged header that must end the archive"
            );
        }
        _ => {
            let mut expect = Vec::new();
            for (i, it) in items.iter().enumerate() {
                match damaged {
                    Some((d, first)) if d == i && outcome == TarDamage::Recover => {
                        let e = &it.expect_damaged;
                        // A damaged file header after a long-name or pax header: that
                        // member is the error record.
                        expect.extend(if first { &e[..] } else { &e[..1] }.iter().map(under));
                    }
                    _ => expect.extend(it.expect.iter().map(under)),
                }
            }
            assert_eq!(got, expect, "container {container} damage {damage} damaged {damaged:?}");
        }
    }
}

/// What the tar reader must do with a header after one byte of it changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TarDamage {
    /// The checksum still holds (a change in the checksum field's padding): no damage.
    None,
    /// Skip the member by its stated size (intact) and read on.
    Recover,
    /// End the archive: the checksum or size does not read, or the checksum's difference is
    /// a change between two bytes a size field holds (digits, NUL, space), so the size may be
    /// the damaged field.
    Stop,
}

/// The reader's rule for a damaged header, written out independently: octal fields as tar
/// writes them (leading spaces, digits, then NUL or space); ASCII headers only.
fn tar_damage(h: &[u8; 512]) -> TarDamage {
    fn octal(f: &[u8]) -> Option<u64> {
        let f = f.trim_ascii_start();
        let digits = &f[..f.iter().position(|b| *b == 0 || *b == b' ').unwrap_or(f.len())];
        digits.iter().try_fold(0u64, |v, b| match b {
            b'0'..=b'7' => Some(v * 8 + u64::from(b - b'0')),
            _ => None,
        })
    }
    let sum: u64 = h
        .iter()
        .enumerate()
        .map(|(i, &b)| if (148..156).contains(&i) { 32 } else { b as u64 })
        .sum();
    let (Some(stored), Some(_size)) = (octal(&h[148..156]), octal(&h[124..136])) else {
        return TarDamage::Stop;
    };
    if stored == sum {
        return TarDamage::None;
    }
    let field_bytes = b"01234567\0 ";
    let d = sum.abs_diff(stored);
    if field_bytes.iter().any(|&a| field_bytes.iter().any(|&b| a > b && u64::from(a - b) == d)) {
        TarDamage::Stop
    } else {
        TarDamage::Recover
    }
}
