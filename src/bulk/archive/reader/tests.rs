//! The input reader against files of every kind: sniffing by content, small files read whole
//! as they stream, tar variants and damage, long names, directory walks.

use super::*;
use crate::bulk::archive::tar::MAX_NAME;
use flate2::{write::GzEncoder, Compression, GzBuilder};
use std::io::Write;
use std::path::{Path, PathBuf};

fn run(inputs: &[Input], max: usize) -> Vec<String> {
    let cfg =
        ReadConfig { max_record_bytes: max, revisit_memory: 64 << 20, ..ReadConfig::default() };
    let (counters, pool) = (Counters::default(), BufPool::default());
    let mut out = Vec::new();
    enumerate(inputs, &cfg, &counters, &pool, &mut |r| {
        out.push(match r.payload {
            Payload::Document(b) => format!("D {} {}", r.source, String::from_utf8_lossy(&b)),
            Payload::Response { .. } => format!("R {}", r.source),
            Payload::Broken { kind, .. } => format!("B {} {kind}", r.source),
        });
        true
    });
    out
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("feedmill-input-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn file(dir: &Path, name: &str, data: &[u8]) -> Input {
    let p = dir.join(name);
    std::fs::write(&p, data).unwrap();
    Input::Path(p)
}

fn warc(uri: &str) -> Vec<u8> {
    let block = b"HTTP/1.1 200 OK\r\n\r\n<rss/>";
    let mut r = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {uri}\r\nContent-Length: {}\r\n\r\n",
        block.len()
    )
    .into_bytes();
    r.extend_from_slice(block);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

/// A 100 KB gzip FNAME in the first member: still sniffed as a WARC.gz.
#[test]
fn long_gzip_file_name_in_the_first_member() {
    let dir = scratch("fname");
    let mut e =
        GzBuilder::new().filename(vec![b'n'; 100_000]).write(Vec::new(), Compression::fast());
    e.write_all(&warc("http://a/")).unwrap();
    let input = file(&dir, "x.warc.gz", &e.finish().unwrap());
    let src = path_name(match &input {
        Input::Path(p) => p,
        _ => unreachable!(),
    });
    assert_eq!(run(&[input], 1 << 20), vec![format!("R {src}@0 http://a/")]);
}

/// One tar header block (pre-POSIX when `ustar` is false: no magic, no prefix).
fn tar_header(name: &[u8], size: usize, flag: u8, ustar: bool) -> [u8; 512] {
    let mut h = [0u8; 512];
    h[..name.len().min(100)].copy_from_slice(&name[..name.len().min(100)]);
    h[100..108].copy_from_slice(b"0000644\0");
    h[124..136].copy_from_slice(format!("{size:011o}\0").as_bytes());
    h[156] = flag;
    if ustar {
        h[257..263].copy_from_slice(b"ustar\0");
        h[263..265].copy_from_slice(b"00");
    }
    h[148..156].copy_from_slice(b"        ");
    let sum: u32 = h.iter().map(|b| *b as u32).sum();
    h[148..156].copy_from_slice(format!("{sum:06o}\0 ").as_bytes());
    h
}

fn tar_entry(out: &mut Vec<u8>, name: &[u8], data: &[u8], flag: u8, ustar: bool) {
    out.extend(tar_header(name, data.len(), flag, ustar));
    out.extend(data);
    out.resize(out.len().div_ceil(512) * 512, 0);
}

#[test]
fn pre_posix_tar_is_a_tar() {
    let dir = scratch("v7");
    let mut t = Vec::new();
    tar_entry(&mut t, b"dir/", b"", 0, false);
    tar_entry(&mut t, b"dir/a.xml", b"<rss>a</rss>", 0, false);
    tar_entry(&mut t, b"b.xml", b"<feed/>", b'0', false);
    t.extend([0u8; 1024]);
    let input = file(&dir, "old.tar", &t);
    let n = path_name(match &input {
        Input::Path(p) => p,
        _ => unreachable!(),
    });
    assert_eq!(
        run(&[input], 1 << 20),
        vec![format!("D {n}!dir/a.xml <rss>a</rss>"), format!("D {n}!b.xml <feed/>")]
    );
}

/// A header with a wrong checksum is skipped by the size it states when a valid header
/// follows there: the members after it are read, and a tar stored in the damaged member's
/// data never comes out. A damaged header whose size does not read, whose damage may be in
/// the size field, or whose member is not followed by a header, ends the archive with one
/// error record.
#[test]
fn tar_damaged_header_is_skipped_by_its_size() {
    let dir = scratch("damaged");
    let mut planted = Vec::new();
    tar_entry(&mut planted, b"SPOOF.xml", b"<rss>spoof</rss>", b'0', true);
    let mut t = Vec::new();
    tar_entry(&mut t, b"a.xml", b"<rss>a</rss>", b'0', true);
    let damaged = t.len();
    tar_entry(&mut t, b"carrier.xml", &planted, b'0', true);
    tar_entry(&mut t, b"b.xml", b"<rss>b</rss>", b'0', true);
    t.extend([0u8; 1024]);
    let mut bad_name = t.clone();
    bad_name[damaged + 3] ^= 0x5a;
    let mut bad_size = t.clone();
    bad_size[damaged + 130] ^= 0x5a;
    // Damage that would point into the member's data if trusted: a size digit still
    // octal (2000 → 0000), a file flag turned into a directory's.
    let mut size_digit = t.clone();
    assert_eq!(size_digit[damaged + 131], b'2');
    size_digit[damaged + 131] = b'0';
    let mut flag = t.clone();
    flag[damaged + 156] = b'5';
    let inputs = [
        file(&dir, "name.tar", &bad_name),
        file(&dir, "size.tar", &bad_size),
        file(&dir, "digit.tar", &size_digit),
        file(&dir, "flag.tar", &flag),
    ];
    let [n, s, d, f] = [0, 1, 2, 3].map(|i| match &inputs[i] {
        Input::Path(p) => path_name(p),
        _ => unreachable!(),
    });
    assert_eq!(
        run(&inputs, 1 << 20),
        vec![
            format!("D {n}!a.xml <rss>a</rss>"),
            format!("B {n}! bad_tar"),
            format!("D {n}!b.xml <rss>b</rss>"),
            format!("D {s}!a.xml <rss>a</rss>"),
            format!("B {s} bad_tar"),
            format!("D {d}!a.xml <rss>a</rss>"),
            format!("B {d} bad_tar"),
            format!("D {f}!a.xml <rss>a</rss>"),
            format!("B {f} bad_tar"),
        ]
    );
}

/// A GNU long name beyond MAX_NAME is never held, nor one that a source would write in more
/// bytes: the member is an error record, its bytes skipped; the next member reads normally.
/// Non-UTF-8 names stay distinct.
#[test]
fn tar_long_names_are_bounded() {
    let dir = scratch("longname");
    let mut t = Vec::new();
    let mut long = vec![b'x'; MAX_NAME + 10];
    long.push(0);
    tar_entry(&mut t, b"././@LongLink", &long, b'L', true);
    tar_entry(&mut t, b"x", b"<rss/>", b'0', true);
    // Under MAX_NAME bytes, over it as a source writes them (`\xff` for each).
    let mut wide = vec![0xff; MAX_NAME / 2];
    wide.push(0);
    tar_entry(&mut t, b"././@LongLink", &wide, b'L', true);
    tar_entry(&mut t, b"x", b"<rss/>", b'0', true);
    let mut ok = b"ok-".repeat(50);
    ok.extend(b".xml\0");
    tar_entry(&mut t, b"././@LongLink", &ok, b'L', true);
    tar_entry(&mut t, b"ok", b"<rss>ok</rss>", b'0', true);
    tar_entry(&mut t, b"a\xff.xml", b"1", b'0', true);
    tar_entry(&mut t, b"a\xfe.xml", b"2", b'0', true);
    t.extend([0u8; 1024]);
    let mut e = GzEncoder::new(Vec::new(), Compression::fast());
    e.write_all(&t).unwrap();
    let input = file(&dir, "t.tar.gz", &e.finish().unwrap());
    let n = path_name(match &input {
        Input::Path(p) => p,
        _ => unreachable!(),
    });
    let okname = format!("{}.xml", "ok-".repeat(50));
    assert_eq!(
        run(&[input], 1 << 20),
        vec![
            format!("B {n}! bad_tar"),
            format!("B {n}! bad_tar"),
            format!("D {n}!{okname} <rss>ok</rss>"),
            format!("D {n}!a\\xff.xml 1"),
            format!("D {n}!a\\xfe.xml 2"),
        ]
    );
}

/// Every member that stands for a file is a record: a link, a device, a FIFO, a GNU
/// sparse file and a multi-volume part are `not_a_file` records named by the member (a link
/// naming its target); a type this reader does not know is read as a regular file (POSIX);
/// directories, volume labels and global pax headers are no member.
#[test]
fn tar_members_that_are_not_files_are_records() {
    let dir = scratch("tartypes");
    let mut t = Vec::new();
    tar_entry(&mut t, b"vol", b"", b'V', true);
    tar_entry(&mut t, b"d/", b"", b'5', true);
    tar_entry(&mut t, b"pax_global_header", b"9 a=bcde\n", b'g', true);
    tar_entry(&mut t, b"d/a.xml", b"<rss>a</rss>", b'0', true);
    let mut link = tar_header(b"d/hard.xml", 0, b'1', true);
    link[157..166].copy_from_slice(b"d/a.xml\0\0");
    link[148..156].copy_from_slice(b"        ");
    let sum: u32 = link.iter().map(|b| *b as u32).sum();
    link[148..156].copy_from_slice(format!("{sum:06o}\0 ").as_bytes());
    t.extend(link);
    tar_entry(&mut t, b"d/soft.xml", b"", b'2', true);
    tar_entry(&mut t, b"d/null", b"", b'3', true);
    tar_entry(&mut t, b"d/fifo", b"", b'6', true);
    tar_entry(&mut t, b"d/sparse.xml", b"<rss>sparse map</rss>", b'S', true);
    tar_entry(&mut t, b"d/vendor.xml", b"<rss>vendor</rss>", b'X', true);
    tar_entry(&mut t, b"d/b.xml", b"<rss>b</rss>", b'0', true);
    t.extend([0u8; 1024]);
    let input = file(&dir, "types.tar", &t);
    let n = path_name(match &input {
        Input::Path(p) => p,
        _ => unreachable!(),
    });
    assert_eq!(
        run(&[input], 1 << 20),
        vec![
            format!("D {n}!d/a.xml <rss>a</rss>"),
            format!("B {n}!d/hard.xml not_a_file"),
            format!("B {n}!d/soft.xml not_a_file"),
            format!("B {n}!d/null not_a_file"),
            format!("B {n}!d/fifo not_a_file"),
            format!("B {n}!d/sparse.xml not_a_file"),
            format!("D {n}!d/vendor.xml <rss>vendor</rss>"),
            format!("D {n}!d/b.xml <rss>b</rss>"),
        ]
    );
}

/// A pax header's `size` is the next member's size (what tar writes for a member of
/// 8 GiB or more, whose header's size field then says 0): the member is read whole and the
/// members after it are found; a `size` that is not a number leaves the header's.
#[test]
fn tar_pax_size_is_the_members_size() {
    let dir = scratch("paxsize");
    let mut t = Vec::new();
    tar_entry(&mut t, b"a.xml", b"<rss>a</rss>", b'0', true);
    let body = b"<rss>big</rss>".repeat(40);
    let pax = format!("12 size={}\n", body.len());
    assert_eq!(pax.len(), 12);
    tar_entry(&mut t, b"PaxHeaders/big.xml", pax.as_bytes(), b'x', true);
    t.extend(tar_header(b"big.xml", 0, b'0', true));
    t.extend(&body);
    t.resize(t.len().div_ceil(512) * 512, 0);
    tar_entry(&mut t, b"PaxHeaders/c.xml", b"11 size=zz\n", b'x', true);
    tar_entry(&mut t, b"c.xml", b"<rss>c</rss>", b'0', true);
    t.extend([0u8; 1024]);
    let input = file(&dir, "pax.tar", &t);
    let n = path_name(match &input {
        Input::Path(p) => p,
        _ => unreachable!(),
    });
    let got = run(&[input], 1 << 20);
    assert_eq!(got.len(), 3, "{got:?}");
    assert_eq!(got[0], format!("D {n}!a.xml <rss>a</rss>"));
    assert!(got[1].starts_with(&format!("D {n}!big.xml <rss>big</rss><rss>big</rss>")), "{got:?}");
    assert_eq!(got[2], format!("D {n}!c.xml <rss>c</rss>"));
}

/// In a walked directory: a FIFO is an error record (never opened), links back to an
/// ancestor are `symlink_loop` records, files read once each.
#[cfg(unix)]
#[test]
fn directory_walk_skips_fifos_and_detects_loops() {
    let dir = scratch("walk");
    std::fs::write(dir.join("a.xml"), b"<rss/>").unwrap();
    let fifo = dir.join("b.fifo");
    let status = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(status.success());
    std::os::unix::fs::symlink(".", dir.join("c-loop")).unwrap();
    std::os::unix::fs::symlink(".", dir.join("d-loop")).unwrap();
    let d = path_name(&dir);
    assert_eq!(
        run(&[Input::Path(dir.clone())], 1 << 20),
        vec![
            format!("D {d}/a.xml <rss/>"),
            format!("B {d}/b.fifo not_a_file"),
            format!("B {d}/c-loop symlink_loop"),
            format!("B {d}/d-loop symlink_loop"),
        ]
    );
    // A non-UTF-8 file name is printed with its bytes escaped.
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::ffi::OsStrExt;
        let odd = dir.join(std::ffi::OsStr::from_bytes(b"z\xff.xml"));
        std::fs::write(&odd, b"x").unwrap();
        assert_eq!(path_name(&odd), format!("{d}/z\\xff.xml"));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Small regular files are read whole and sniffed in memory: each kind (plain, gzip,
/// WARC, WARC.gz, tar, over the limit, at it) yields the records its stream does, also
/// when the file is larger than the walk said, and every byte read is counted once.
#[test]
fn small_files_read_whole_as_streamed() {
    let dir = scratch("small");
    let gz = |data: &[u8]| {
        let mut e = GzEncoder::new(Vec::new(), Compression::fast());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    };
    let mut tar = Vec::new();
    tar_entry(&mut tar, b"in/t.xml", b"<feed/>", b'0', true);
    tar.resize(tar.len() + 1024, 0);
    let max = 4096;
    let files: Vec<(&str, Vec<u8>)> = vec![
        ("a.xml", b"<rss/>".to_vec()),
        ("b.xml.gz", gz(b"<feed/>")),
        ("c.warc", warc("http://c/")),
        ("d.warc.gz", [gz(&warc("http://d/")), gz(&warc("http://e/"))].concat()),
        ("e.tar", tar),
        ("f.xml", vec![b'f'; max + 1]),
        ("g.xml", vec![b'g'; max]),
        ("h.xml", Vec::new()),
        // More than the limit: streamed, or read in part and then streamed when the walk
        // said it was small.
        ("i.warc.gz", (0..80).flat_map(|i| gz(&warc(&format!("http://i/{i}")))).collect()),
    ];
    assert!(files.last().unwrap().1.len() > max + 1);
    let last: usize = (0..79).map(|i| gz(&warc(&format!("http://i/{i}"))).len()).sum();
    // Each file streamed, and read as a small file whose size the walk understated (it
    // grew since): the same records, the same bytes counted.
    let (mut streamed, mut streamed_bytes) = (Vec::new(), 0);
    let (mut grown, mut grown_bytes) = (Vec::new(), 0);
    let show = |r: RawRecord| match r.payload {
        Payload::Document(b) => format!("D {} {}", r.source, b.len()),
        Payload::Response { .. } => format!("R {}", r.source),
        Payload::Broken { kind, .. } => format!("B {} {kind}", r.source),
    };
    for (name, data) in &files {
        let Input::Path(p) = file(&dir, name, data) else { unreachable!() };
        let cfg =
            ReadConfig { max_record_bytes: max, revisit_memory: 64 << 20, ..ReadConfig::default() };
        for understated in [false, true] {
            let (counters, pool) = (Counters::default(), BufPool::default());
            let (out, total) = if understated {
                (&mut grown, &mut grown_bytes)
            } else {
                (&mut streamed, &mut streamed_bytes)
            };
            let mut emit = |r: RawRecord| {
                out.push(show(r));
                true
            };
            let mut reader = Reader::new(&cfg, &counters, &pool, None, &mut emit);
            if understated {
                reader.read(Item::Open { path: p.clone(), size: Some(1) });
            } else {
                reader.stream(&path_name(&p), &mut File::open(&p).unwrap());
            }
            *total += counters.bytes_read.load(Ordering::Relaxed);
        }
    }
    assert_eq!(grown, streamed);
    assert_eq!(grown_bytes, streamed_bytes);
    let cfg =
        ReadConfig { max_record_bytes: max, revisit_memory: 64 << 20, ..ReadConfig::default() };
    let (counters, pool) = (Counters::default(), BufPool::default());
    let mut whole = Vec::new();
    enumerate(&[Input::Path(dir.clone())], &cfg, &counters, &pool, &mut |r| {
        whole.push(show(r));
        true
    });
    assert_eq!(whole, streamed);
    let d = path_name(&dir);
    for want in [
        format!("D {d}/a.xml 6"),
        format!("D {d}/b.xml.gz 7"),
        format!("R {d}/c.warc@0 http://c/"),
        format!("R {d}/d.warc.gz@119 http://e/"),
        format!("D {d}/e.tar!in/t.xml 7"),
        format!("B {d}/f.xml too_large"),
        format!("D {d}/g.xml {max}"),
        format!("D {d}/h.xml 0"),
        format!("R {d}/i.warc.gz@{last} http://i/79"),
    ] {
        assert!(whole.contains(&want), "{want} not in {whole:?}");
    }
    assert_eq!(counters.bytes_read.load(Ordering::Relaxed), streamed_bytes);
    let _ = std::fs::remove_dir_all(&dir);
}

/// An endless input named on the command line is read up to the limit, then left.
#[cfg(unix)]
#[test]
fn dev_zero_is_bounded() {
    let got = run(&[Input::Path(PathBuf::from("/dev/zero"))], 1 << 20);
    assert_eq!(got, vec!["B /dev/zero too_large".to_owned()]);
}

fn gz(data: &[u8]) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), Compression::fast());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// A tar of `members` (ustar, ending with its two zero blocks).
fn tar_of(members: &[(&[u8], Vec<u8>)]) -> Vec<u8> {
    let mut t = Vec::new();
    for (name, data) in members {
        tar_entry(&mut t, name, data, b'0', true);
    }
    t.extend([0u8; 1024]);
    t
}

/// The start of an ARC file (version 1 header: a `filedesc://` URL record, then its block).
const ARC: &[u8] = b"filedesc://x.arc 0.0.0.0 20240101000000 text/plain 76\n\
    1 0 InternetArchive\nURL IP-address Archive-date Content-type Archive-length\n\n";

/// An ARC record of an HTTP response at `url`.
fn arc_record(url: &str) -> Vec<u8> {
    let block = b"HTTP/1.1 200 OK\r\n\r\n<rss/>";
    let line = format!("{url} 192.0.2.1 20240101000000 text/xml {}\n", block.len());
    [line.as_bytes(), block, b"\n"].concat()
}

/// Archives stored as tar members are read as archives, by content, their records named
/// under the member (`outer!inner@offset uri`, `outer!inner!member`), offsets counted in the
/// member; a zip member is one `unsupported_archive` record. Before, a WARC member was one
/// document (its first feed came out as an `ok` record, the other records were lost) and a
/// tar member one document holding the inner tar.
#[test]
fn archives_inside_a_tar_are_read_by_content() {
    let dir = scratch("nested");
    let (a, b) = (warc("http://a/"), warc("http://b/"));
    let plain_warc = [a.clone(), b.clone()].concat();
    let (ga, gb) = (gz(&a), gz(&b));
    let warc_gz = [ga.clone(), gb].concat();
    let inner_tar = tar_of(&[(b"in/x.xml", b"<rss>x</rss>".to_vec())]);
    let inner_tgz = gz(&tar_of(&[(b"y.xml", b"<rss>y</rss>".to_vec())]));
    let zip = b"PK\x03\x04\x14\x00\x00\x00\x00\x00<rss>stored</rss>".to_vec();
    let outer = tar_of(&[
        (b"feed.xml", b"<rss>f</rss>".to_vec()),
        (b"crawl.warc", plain_warc),
        (b"crawl.warc.gz", warc_gz),
        (b"inner.tar", inner_tar),
        (b"inner.tgz", inner_tgz),
        (b"old.arc", [ARC, &arc_record("http://a/")].concat()),
        (b"old.arc.gz", gz(&[ARC, &arc_record("http://a/")].concat())),
        (b"feeds.zip", zip),
        (b"last.xml", b"<rss>l</rss>".to_vec()),
    ]);
    let inputs = [file(&dir, "outer.tar", &outer), file(&dir, "outer.tar.gz", &gz(&outer))];
    for input in inputs {
        let o = path_name(match &input {
            Input::Path(p) => p,
            _ => unreachable!(),
        });
        assert_eq!(
            run(&[input], 1 << 20),
            vec![
                format!("D {o}!feed.xml <rss>f</rss>"),
                format!("R {o}!crawl.warc@0 http://a/"),
                format!("R {o}!crawl.warc@{} http://b/", a.len()),
                format!("R {o}!crawl.warc.gz@0 http://a/"),
                format!("R {o}!crawl.warc.gz@{} http://b/", ga.len()),
                format!("D {o}!inner.tar!in/x.xml <rss>x</rss>"),
                format!("D {o}!inner.tgz!y.xml <rss>y</rss>"),
                format!("R {o}!old.arc@{} http://a/", ARC.len()),
                format!("R {o}!old.arc.gz@0+{} http://a/", ARC.len()),
                format!("B {o}!feeds.zip unsupported_archive"),
                format!("D {o}!last.xml <rss>l</rss>"),
            ]
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A plain ARC file, an ARC.gz and a zip named as inputs, small (read whole) or streamed: the
/// ARC records are read (one whose length is not followed by a line end is `bad_arc`), a zip
/// is one `unsupported_archive` record, never a document holding its first feed.
#[test]
fn arc_inputs_are_read_and_zip_inputs_are_error_records() {
    let dir = scratch("arc");
    let feed = b"<rss><channel><title>first</title></channel></rss>";
    let mut arc = ARC.to_vec();
    arc.extend(b"http://a/feed 1.2.3.4 20240101000000 text/xml 51\n");
    arc.extend(feed);
    arc.extend(b"\n");
    let mut big = arc.clone();
    big.resize(3 << 20, b' ');
    let inputs = [
        file(&dir, "a.arc", &arc),
        file(&dir, "a.arc.gz", &gz(&arc)),
        file(&dir, "big.arc", &big),
        file(&dir, "f.zip", b"PK\x03\x04 stored <rss/>"),
    ];
    let names: Vec<String> = inputs
        .iter()
        .map(|i| match i {
            Input::Path(p) => path_name(p),
            _ => unreachable!(),
        })
        .collect();
    let got = run(&inputs, 4 << 20);
    let want = [
        format!("R {}@131 http://a/feed", names[0]),
        format!("R {}@0+131 http://a/feed", names[1]),
        format!("B {}@131 http://a/feed bad_arc", names[2]),
        format!("B {} unsupported_archive", names[3]),
    ];
    assert_eq!(got, want);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Tars nested in tars are read down to MAX_DEPTH streams below the input; a stream below
/// that is a `too_deep` record, named by its path through the archives.
#[test]
fn archives_nest_at_most_max_depth_deep() {
    let dir = scratch("deep");
    let nested = |tars: usize| {
        let mut t = tar_of(&[(b"doc.xml", b"<rss/>".to_vec())]);
        for _ in 0..tars {
            t = tar_of(&[(b"t", t)]);
        }
        t
    };
    let inputs = [
        file(&dir, "deepest.tar", &nested(MAX_DEPTH - 1)),
        file(&dir, "deeper.tar", &nested(MAX_DEPTH)),
    ];
    let [a, b] = [0, 1].map(|i| match &inputs[i] {
        Input::Path(p) => path_name(p),
        _ => unreachable!(),
    });
    let (ta, tb) = ("!t".repeat(MAX_DEPTH - 1), "!t".repeat(MAX_DEPTH));
    assert_eq!(
        run(&inputs, 1 << 20),
        vec![format!("D {a}{ta}!doc.xml <rss/>"), format!("B {b}{tb}!doc.xml too_deep")]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A revisit whose original, remembered by where it is, is another record when re-read (the
/// file replaced while the run reads it): its record's error is `original_changed`, naming
/// what differs, not `original_not_found`.
#[test]
fn a_revisit_whose_original_changed_on_disk_says_so() {
    let rec = |ty: &str, id: &str, extra: &str, block: &[u8]| {
        let mut r = format!(
            "WARC/1.1\r\nWARC-Type: {ty}\r\nWARC-Record-ID: {id}\r\nWARC-Target-URI: http://a/\r\n\
             WARC-Payload-Digest: sha1:AAAA\r\n{extra}Content-Length: {}\r\n\r\n",
            block.len()
        )
        .into_bytes();
        r.extend_from_slice(block);
        r.extend_from_slice(b"\r\n\r\n");
        r
    };
    let original = rec("response", "<urn:a>", "", b"HTTP/1.1 200 OK\r\n\r\n<rss/>");
    let revisit = rec("revisit", "<urn:r>", "WARC-Refers-To: <urn:a>\r\n", b"");
    let dir = scratch("changed");
    let path = dir.join("t.warc.gz");
    std::fs::write(&path, [gz(&original), gz(&revisit)].concat()).unwrap();
    let cfg =
        ReadConfig { max_record_bytes: 1 << 20, revisit_memory: 64 << 20, ..ReadConfig::default() };
    let (counters, pool) = (Counters::default(), BufPool::default());
    let mut out = Vec::new();
    enumerate(&[Input::Path(path.clone())], &cfg, &counters, &pool, &mut |r| {
        if out.is_empty() {
            // Replaced (a new file at the path; the run's open file is the old one): another
            // record where the original was.
            let other = rec("response", "<urn:z>", "", b"HTTP/1.1 200 OK\r\n\r\n<rss/>");
            let tmp = dir.join("new");
            std::fs::write(&tmp, [gz(&other), gz(&revisit)].concat()).unwrap();
            std::fs::rename(&tmp, &path).unwrap();
        }
        out.push(match r.payload {
            Payload::Response { original, original_error, capture, .. } => {
                let from = capture.refers_to_source.unwrap_or_default();
                format!("R {} {} {from} {original_error:?}", r.source, original.is_some())
            }
            other => format!("{other:?}"),
        });
        true
    });
    let p = path.display();
    let at = gz(&original).len();
    assert_eq!(
        out,
        [
            format!("R {p}@0 http://a/ false  None"),
            format!(
                "R {p}@{at} http://a/ false {p}@0 http://a/ Some((\"original_changed\", \"the \
                 original {p}@0 http://a/ changed: the record at 0 in {p} is now record id \
                 <urn:z> (was <urn:a>)\"))"
            ),
        ]
    );
    let _ = std::fs::remove_dir_all(&dir);
}
