//! Probe for perf/runs/2026-11-29-linear: one element repeated n and 4n times in the channel
//! and in one item, parsed (default options, a reused parser, as the old timed test did) three
//! times per size; prints per size the best wall time, the best thread CPU time, and for the
//! best-CPU run its user and system time and minor page faults (getrusage RUSAGE_THREAD).
//!
//! cargo run --release --example linear_probe -- N 'ELEMENT' ['raise']

use std::time::Instant;

use feedmill::{Options, Parser};

const NS: &str = r#"xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:x="urn:x""#;

fn usage() -> (u64, u64, u64) {
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_THREAD, &mut u) };
    let us = |t: libc::timeval| t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64;
    (us(u.ru_utime), us(u.ru_stime), u.ru_minflt as u64)
}

fn cpu_ns() -> u64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args[1].parse().unwrap();
    let element = &args[2];
    let raise = args.get(3).is_some_and(|a| a == "raise");
    let mut options = Options::default();
    if raise {
        options.limits.max_extension_elements = usize::MAX / 2;
        options.limits.max_extension_bytes = 1 << 30;
    }
    let mut out = Vec::new();
    for size in [n, 4 * n] {
        let rep: String = (0..size).map(|i| element.replace("{i}", &i.to_string())).collect();
        let doc =
            format!("<rss version='2.0' {NS}><channel>{rep}<item>{rep}</item></channel></rss>");
        let mut parser = Parser::new(options.clone());
        let (mut wall, mut cpu, mut best) = (u64::MAX, u64::MAX, (0, 0, 0));
        for _ in 0..3 {
            let (u0, c0, w0) = (usage(), cpu_ns(), Instant::now());
            let parsed = parser.parse_str(&doc, Some("https://base.example/")).unwrap();
            let kept: usize = parsed.feed.as_ref().map_or(0, |f| {
                f.extensions.len() + f.entries.iter().map(|e| e.extensions.len()).sum::<usize>()
            });
            std::hint::black_box(kept);
            drop(parsed);
            let (w, c, u1) = (w0.elapsed().as_nanos() as u64, cpu_ns() - c0, usage());
            wall = wall.min(w);
            if c < cpu {
                cpu = c;
                best = (u1.0 - u0.0, u1.1 - u0.1, u1.2 - u0.2);
            }
        }
        println!(
            "n={size:>7} bytes={:>9} wall={:>8.2}ms cpu={:>8.2}ms user={:>8.2}ms sys={:>8.2}ms minflt={:>7}",
            doc.len(),
            wall as f64 / 1e6,
            cpu as f64 / 1e6,
            best.0 as f64 / 1e3,
            best.1 as f64 / 1e3,
            best.2
        );
        out.push((wall, cpu, best));
    }
    let r = |a: u64, b: u64| b as f64 / a.max(1) as f64;
    println!(
        "ratio wall x{:.2} cpu x{:.2} user x{:.2} sys x{:.2} minflt x{:.2}",
        r(out[0].0, out[1].0),
        r(out[0].1, out[1].1),
        r(out[0].2 .0, out[1].2 .0),
        r(out[0].2 .1, out[1].2 .1),
        r(out[0].2 .2, out[1].2 .2)
    );
}
