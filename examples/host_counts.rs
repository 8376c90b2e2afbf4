//! Entries per host of the feeds in a crawl, hosts in order of first appearance:
//! `cargo run --release --example host_counts -- crawl.warc.gz`
use feedmill::{bulk, sink::RecordView};
use std::{collections::HashMap, ops::ControlFlow::Continue};
/// On a worker thread, per record: (host of the record's URL, entries) when it is a feed.
fn step(rec: &RecordView, batch: &mut Vec<(String, usize)>) {
    let host = rec.url.and_then(|u| Some(url::Url::parse(u).ok()?.host_str()?.to_owned()));
    batch.extend(host.zip(rec.feed).map(|(h, f)| (h, f.entries.len())));
}
fn main() -> std::io::Result<()> {
    let inputs = std::env::args_os().skip(1).map(bulk::Input::parse).collect();
    let (mut hosts, mut index) = (Vec::new(), HashMap::new());
    // On this thread, batch after batch in input order.
    let mut add = |batch: &mut Vec<(String, usize)>| {
        for (host, n) in batch.drain(..) {
            let i = *index.entry(host.clone()).or_insert(hosts.len());
            hosts.extend((i == hosts.len()).then_some((host, 0)));
            hosts[i].1 += n;
        }
        Ok(Continue(()))
    };
    bulk::run_with(inputs, &bulk::Config::default(), || step, &mut add, &mut |_| {})?;
    hosts.iter().for_each(|(host, n)| println!("{n}\t{host}"));
    Ok(())
}
