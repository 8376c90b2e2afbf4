mod enc;
mod fast;
use std::time::Instant;

fn load() -> Vec<Vec<u8>> {
    let mut names: Vec<_> =
        std::fs::read_dir("/tmp/snappy-pages").unwrap().map(|e| e.unwrap().path()).collect();
    names.sort();
    names.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

type F = fn(&mut Ctx, &[u8], &mut [u8]) -> usize;
struct Ctx {
    snap: snap::raw::Encoder,
    mine: enc::Enc,
    fast: fast::Fast,
}

macro_rules! v {
    ($h:expr, $s:expr, $b:expr) => {
        (|c: &mut Ctx, i: &[u8], o: &mut [u8]| c.mine.compress::<$h, $s, $b>(i, o)) as F
    };
}

macro_rules! u {
    ($h:expr, $s:expr, $b:expr) => {
        (|c: &mut Ctx, i: &[u8], o: &mut [u8]| c.fast.compress::<$h, $s, $b>(i, o)) as F
    };
}
fn variants() -> Vec<(&'static str, F)> {
    vec![
        ("snap", (|c: &mut Ctx, i: &[u8], o: &mut [u8]| c.snap.compress(i, o).unwrap()) as F),
        (
            "cpp-snappy-1.3.1",
            (|_c: &mut Ctx, i: &[u8], o: &mut [u8]| {
                let mut n = o.len();
                let st = unsafe {
                    snappy_src::snappy_compress(
                        i.as_ptr() as _,
                        i.len(),
                        o.as_mut_ptr() as _,
                        &mut n,
                    )
                };
                assert_eq!(st, 0);
                n
            }) as F,
        ),
        ("safe-h4-s5-b14", v!(4, 5, 14)),
        ("u-h4-s5-b14", u!(4, 5, 14)),
        ("u-h4-s5-b13", u!(4, 5, 13)),
        ("u-h4-s5-b16", u!(4, 5, 16)),
        ("u-h4-s4-b14", u!(4, 4, 14)),
        ("u-h4-s4-b13", u!(4, 4, 13)),
        ("u-h4-s4-b12", u!(4, 4, 12)),
        ("u-h4-s3-b14", u!(4, 3, 14)),
        ("u-h5-s5-b14", u!(5, 5, 14)),
        ("u-h5-s4-b14", u!(5, 4, 14)),
        ("u-h6-s5-b14", u!(6, 5, 14)),
        ("u-h6-s4-b14", u!(6, 4, 14)),
        ("u-h6-s4-b12", u!(6, 4, 12)),
        ("u-h6-s3-b14", u!(6, 3, 14)),
    ]
}

#[inline(never)]
fn run(f: F, ctx: &mut Ctx, pages: &[Vec<u8>], out: &mut [u8]) -> usize {
    let mut total = 0;
    for p in pages {
        total += f(ctx, p, out);
    }
    total
}

fn main() {
    let pages = load();
    let args: Vec<String> = std::env::args().collect();
    let only = args.get(1).cloned().filter(|s| !s.is_empty());
    let rounds: usize = args.get(2).map(|s| s.parse().unwrap()).unwrap_or(10);
    let mut out = vec![0u8; enc::max_compress_len(pages.iter().map(|p| p.len()).max().unwrap())];
    let mut ctx =
        Ctx { snap: snap::raw::Encoder::new(), mine: enc::Enc::new(), fast: fast::Fast::new() };
    let raw: usize = pages.iter().map(|p| p.len()).sum();
    let mut dec = snap::raw::Decoder::new();
    for (name, f) in variants() {
        if let Some(o) = &only {
            if o != name {
                continue;
            }
        }
        // verify
        let mut size = 0;
        for p in &pages {
            let n = f(&mut ctx, p, &mut out);
            size += n;
            let back = dec.decompress_vec(&out[..n]).unwrap();
            assert!(back == *p, "{name} roundtrip");
        }
        let mut best = f64::MAX;
        for _ in 0..rounds {
            let t = Instant::now();
            let s = run(f, &mut ctx, &pages, &mut out);
            best = best.min(t.elapsed().as_secs_f64());
            assert_eq!(s, size);
        }
        println!(
            "{name:12} size {size:9} ({:.4} of raw) best {:.2} ms ({:.0} MB/s)",
            size as f64 / raw as f64,
            best * 1e3,
            raw as f64 / best / 1e6
        );
    }
}
