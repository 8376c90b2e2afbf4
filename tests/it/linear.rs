//! Linear everywhere: for every element the format tables read (RSS 2.0 channel and item with
//! the modules, RSS 1.0, Atom 1.0 and 0.3 feed and entry) and an unknown one (extension
//! capture), and for JSON Feed's lists (items, tags, attachments, authors, hubs) and repeated
//! or unknown members, a document repeating it 32k and 128k times, with distinct values, in
//! the channel (feed) and in one item (entry), costs at most ~5x the work and memory of the
//! smaller one (linear: 4x; quadratic: 16x) — parsed, and written as its JSON Lines record.
//!
//! Work is counted, not timed (wall time on the loaded shared machine measured x13 to x32 for
//! linear elements: a parse longer than the scheduler's time slice is preempted, a shorter one
//! may not be; perf/runs/2026-11-29-linear/):
//! - **instructions**: the hardware counter of user-space instructions retired by the test's
//!   thread (`perf_event_open`, through `perf-event2`), when the machine has one: exact to a
//!   fraction of a percent, so the bound is 5x;
//! - else **thread CPU time** (`CLOCK_THREAD_CPUTIME_ID`: this thread's time on a CPU, so
//!   neither the other tests' threads nor the machine's load count, only their effect on the
//!   caches and page faults), after a warm-up run the best of up to 5 interleaved runs of
//!   each size, bound 12x: it catches a dominant quadratic term (JSON Feed tags measured
//!   x15.9 before their fix) but not a small one, since linear elements measured up to x9
//!   on the loaded machine. The development VM and CI's have no hardware counter
//!   (`/sys/bus/event_source/devices/` has no `cpu`; perf reports `instructions` as not
//!   supported), so this is what runs there (perf/runs/2026-11-29-linear/). The exact
//!   memory counts below are the strict check on such machines.
//!
//! Memory is counted exactly, whichever meter runs: this test binary's global allocator
//! counts, per thread, the allocations, the bytes they asked for and the peak of live bytes
//! (the library sets no global allocator of its own; every test of this binary goes through
//! it, at the cost of a thread-local addition per call); each of the three grows at most 5x.
//! The JSON line grows at most 5x too and stays within `record::json_line_bound`.
//!
//! The limits that would cut the larger documents (`max_entries` for JSON Feed lists, the
//! `max_extension_*` capture budget) are raised, so that both sizes do all their work.
//!
//! The test prints its table of ratios (`cargo test --release --test it linear:: --
//! --nocapture`), which names the meter that ran.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::fmt::Write as _;

use feedmill::record::json_line_bound;
use feedmill::sink::json::encode_record;
use feedmill::sink::RecordView;
use feedmill::{Options, Parser};

/// The two sizes (the issue's): repeats of one element in the channel and in one item.
const SMALL: usize = 32 * 1024;
const LARGE: usize = 4 * SMALL;

/// The most the large document's work may be, as a multiple of the small one's: counted
/// instructions and memory (linear is 4, quadratic 16).
const BOUND: f64 = 5.0;
/// The same for thread CPU time (best of up to `CPU_RUNS` runs after a warm-up), which the
/// machine moves: on the loaded 2-core VM, linear work measured up to x9 (a hash index of
/// 128k keys past the caches: `dc:creator`, `dc:subject`), a quadratic scan x15.9 (JSON Feed
/// tags before the fix), so this bound catches only a dominant quadratic term.
const CPU_BOUND: f64 = 12.0;
const CPU_RUNS: usize = 5;

const NS: &str = r#"xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:podcast="https://podcastindex.org/namespace/1.0" xmlns:media="http://search.yahoo.com/mrss/" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:slash="http://purl.org/rss/1.0/modules/slash/" xmlns:wfw="http://wellformedweb.org/CommentAPI/" xmlns:sy="http://purl.org/rss/1.0/modules/syndication/" xmlns:thr="http://purl.org/syndication/thread/1.0" xmlns:taxo="http://purl.org/rss/1.0/modules/taxonomy/" xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:xhtml="http://www.w3.org/1999/xhtml" xmlns:x="urn:x""#;

/// One repeated element per name the RSS 2.0 tables read, in the channel or in an item (the
/// document has it in both: where no table reads it, it is captured), and an unknown one
/// (extension capture). `{i}` is the repeat's number.
const RSS: &[&str] = &[
    "<title>t{i}</title>",
    "<link>http://a.example/{i}</link>",
    "<description>d{i}</description>",
    "<author>a{i}@example.org (A {i})</author>",
    "<category domain='s{i}'>c{i}</category>",
    "<comments>http://a.example/c{i}</comments>",
    "<enclosure url='http://a.example/{i}.mp3' length='{i}' type='audio/mpeg'/>",
    "<guid>g{i}</guid>",
    "<pubDate>Mon, 15 Jan 2024 08:00:00 GMT</pubDate>",
    "<lastBuildDate>Mon, 15 Jan 2024 08:00:00 GMT</lastBuildDate>",
    "<source url='http://a.example/s{i}'>s{i}</source>",
    "<managingEditor>e{i}@example.org</managingEditor>",
    "<webMaster>w{i}@example.org</webMaster>",
    "<language>en</language>",
    "<copyright>c{i}</copyright>",
    "<generator>g{i}</generator>",
    "<docs>http://a.example/d{i}</docs>",
    "<rating>r{i}</rating>",
    "<ttl>{i}</ttl>",
    "<skipHours><hour>1</hour></skipHours>",
    "<skipDays><day>Monday</day></skipDays>",
    "<image><url>http://a.example/{i}.png</url></image>",
    "<cloud domain='a' port='80' path='/p' registerProcedure='x' protocol='soap'/>",
    "<textInput><title>t</title><name>n{i}</name></textInput>",
    "<categories><category>c{i}</category></categories>",
    "<dc:creator>C {i}</dc:creator>",
    "<dc:date>2024-01-15T08:00:00Z</dc:date>",
    "<dc:subject>s{i}</dc:subject>",
    "<dc:title>t{i}</dc:title>",
    "<dc:description>d{i}</dc:description>",
    "<dc:language>en</dc:language>",
    "<dc:rights>r{i}</dc:rights>",
    "<dcterms:issued>2024-01-15</dcterms:issued>",
    "<dcterms:modified>2024-01-15</dcterms:modified>",
    "<dcterms:created>2024-01-15</dcterms:created>",
    "<content:encoded>&lt;p&gt;{i}&lt;/p&gt;</content:encoded>",
    "<xhtml:body><xhtml:p>b{i}</xhtml:p></xhtml:body>",
    "<itunes:author>A {i}</itunes:author>",
    "<itunes:subtitle>s{i}</itunes:subtitle>",
    "<itunes:summary>s{i}</itunes:summary>",
    "<itunes:title>t{i}</itunes:title>",
    "<itunes:category text='c{i}'><itunes:category text='s{i}'/></itunes:category>",
    "<itunes:keywords>k{i},j{i}</itunes:keywords>",
    "<itunes:owner><itunes:name>n{i}</itunes:name></itunes:owner>",
    "<itunes:image href='http://a.example/{i}.jpg'/>",
    "<itunes:duration>{i}</itunes:duration>",
    "<itunes:explicit>no</itunes:explicit>",
    "<itunes:type>episodic</itunes:type>",
    "<itunes:block>no</itunes:block>",
    "<itunes:complete>no</itunes:complete>",
    "<itunes:new-feed-url>http://a.example/n{i}</itunes:new-feed-url>",
    "<itunes:episode>{i}</itunes:episode>",
    "<itunes:season>{i}</itunes:season>",
    "<itunes:episodeType>full</itunes:episodeType>",
    "<podcast:guid>g{i}</podcast:guid>",
    "<podcast:locked owner='o{i}'>no</podcast:locked>",
    "<podcast:medium>podcast</podcast:medium>",
    "<podcast:updateFrequency rrule='FREQ=DAILY'>d{i}</podcast:updateFrequency>",
    "<podcast:podping usesPodping='true'/>",
    "<podcast:publisher><podcast:remoteItem feedGuid='g{i}'/></podcast:publisher>",
    "<podcast:license url='http://a.example/l{i}'>l{i}</podcast:license>",
    "<podcast:chat server='s{i}' protocol='irc'/>",
    "<podcast:image href='http://a.example/{i}.png'/>",
    "<podcast:person>P {i}</podcast:person>",
    "<podcast:funding url='http://a.example/f{i}'>f</podcast:funding>",
    "<podcast:transcript url='http://a.example/t{i}' type='text/plain'/>",
    "<podcast:chapters url='http://a.example/c{i}' type='application/json'/>",
    "<podcast:season>{i}</podcast:season>",
    "<podcast:episode>{i}</podcast:episode>",
    "<podcast:value type='lightning' method='keysend' suggested='0.{i}'><podcast:valueRecipient address='a{i}' split='{i}'/></podcast:value>",
    "<podcast:soundbite startTime='{i}' duration='1.5'>s{i}</podcast:soundbite>",
    "<podcast:alternateEnclosure type='audio/opus' length='{i}'><podcast:source uri='http://a.example/s{i}'/></podcast:alternateEnclosure>",
    "<podcast:contentLink href='http://a.example/c{i}'>c{i}</podcast:contentLink>",
    "<podcast:location geo='geo:1,{i}'>L{i}</podcast:location>",
    "<podcast:images srcset='http://a.example/{i}.jpg {i}w'/>",
    "<podcast:txt purpose='p'>t{i}</podcast:txt>",
    "<podcast:block id='b{i}'>yes</podcast:block>",
    "<podcast:trailer url='http://a.example/t{i}' pubdate='Thu, 01 Apr 2021 08:00:00 EST'>T{i}</podcast:trailer>",
    "<podcast:remoteItem feedGuid='g{i}'/>",
    "<podcast:podroll><podcast:remoteItem feedGuid='g{i}'/></podcast:podroll>",
    "<podcast:socialInteract protocol='activitypub' uri='http://a.example/p{i}'/>",
    "<podcast:liveItem status='live' start='2021-09-26T07:30:00Z'><title>l{i}</title></podcast:liveItem>",
    "<media:content url='http://a.example/m{i}.jpg'/>",
    "<media:thumbnail url='http://a.example/t{i}.jpg'/>",
    "<media:title>t{i}</media:title>",
    "<media:description>d{i}</media:description>",
    "<media:keywords>k{i}, j{i}</media:keywords>",
    "<media:category>m{i}</media:category>",
    "<media:credit>c{i}</media:credit>",
    "<media:rating>r{i}</media:rating>",
    "<media:player url='http://a.example/p{i}'/>",
    "<media:group><media:content url='http://a.example/g{i}.jpg'/></media:group>",
    "<atom:link rel='r{i}' href='http://a.example/l{i}'/>",
    "<atom:link rel='alternate' href='http://a.example/l{i}'/>",
    "<atom:id>urn:{i}</atom:id>",
    "<atom:updated>2024-01-15T08:00:00Z</atom:updated>",
    "<atom:author><atom:name>A {i}</atom:name></atom:author>",
    "<slash:comments>{i}</slash:comments>",
    "<wfw:commentRss>http://a.example/w{i}</wfw:commentRss>",
    "<thr:in-reply-to ref='r{i}'/>",
    "<thr:total>{i}</thr:total>",
    "<sy:updatePeriod>hourly</sy:updatePeriod>",
    "<sy:updateFrequency>{i}</sy:updateFrequency>",
    "<sy:updateBase>2024-01-15T08:00:00Z</sy:updateBase>",
    "<taxo:topics><rdf:Bag><rdf:li resource='http://a.example/t{i}'/></rdf:Bag></taxo:topics>",
    "<x:unknown a='{i}'><x:child>v{i}</x:child></x:unknown>",
];

/// The same for RSS 1.0's channel and item (siblings in `rdf:RDF`).
const RSS1: &[&str] = &[
    "<title>t{i}</title>",
    "<link>http://a.example/{i}</link>",
    "<description>d{i}</description>",
    "<image rdf:resource='http://a.example/{i}.png'/>",
    "<textinput rdf:resource='http://a.example/t{i}'/>",
    "<items><rdf:Seq><rdf:li resource='http://a.example/{i}'/></rdf:Seq></items>",
    "<dc:creator>C {i}</dc:creator>",
    "<dc:date>2024-01-15T08:00:00Z</dc:date>",
    "<dc:subject>s{i}</dc:subject>",
    "<dc:language>en</dc:language>",
    "<dc:rights>r{i}</dc:rights>",
    "<content:encoded>&lt;p&gt;{i}&lt;/p&gt;</content:encoded>",
    "<hatena:imageurl>http://a.example/{i}.png</hatena:imageurl>",
    "<media:content url='http://a.example/m{i}.jpg'/>",
    "<atom:link rel='r{i}' href='http://a.example/l{i}'/>",
    "<x:unknown a='{i}'><x:child>v{i}</x:child></x:unknown>",
];

/// The same for Atom 1.0's feed and entry.
const ATOM: &[&str] = &[
    "<title>t{i}</title>",
    "<subtitle>s{i}</subtitle>",
    "<id>urn:{i}</id>",
    "<link rel='alternate' href='http://a.example/{i}'/>",
    "<link rel='r{i}' href='http://a.example/{i}'/>",
    "<author><name>A {i}</name><email>a{i}@example.org</email></author>",
    "<contributor><name>C {i}</name></contributor>",
    "<category term='c{i}' scheme='s{i}'/>",
    "<updated>2024-01-15T08:00:00Z</updated>",
    "<published>2024-01-15T08:00:00Z</published>",
    "<summary>s{i}</summary>",
    "<content>c{i}</content>",
    "<content type='xhtml'><div xmlns='http://www.w3.org/1999/xhtml'><p>c{i}</p></div></content>",
    "<rights>r{i}</rights>",
    "<generator uri='http://a.example/{i}'>g{i}</generator>",
    "<icon>http://a.example/{i}.ico</icon>",
    "<logo>http://a.example/{i}.png</logo>",
    "<source><title>s{i}</title></source>",
    "<dc:subject>s{i}</dc:subject>",
    "<media:group><media:content url='http://a.example/g{i}.jpg'/></media:group>",
    "<media:thumbnail url='http://a.example/t{i}.jpg'/>",
    "<x:unknown a='{i}'><x:child>v{i}</x:child></x:unknown>",
];

/// The same for Atom 0.3's feed and entry.
const ATOM03: &[&str] = &[
    "<title mode='escaped'>t{i}</title>",
    "<tagline>s{i}</tagline>",
    "<id>urn:{i}</id>",
    "<link rel='alternate' type='text/html' href='http://a.example/{i}'/>",
    "<author><name>A {i}</name></author>",
    "<contributor><name>C {i}</name></contributor>",
    "<modified>2024-01-15T08:00:00Z</modified>",
    "<issued>2024-01-15T08:00:00Z</issued>",
    "<created>2024-01-15T08:00:00Z</created>",
    "<summary>s{i}</summary>",
    "<content type='text/html' mode='escaped'>&lt;p&gt;c{i}&lt;/p&gt;</content>",
    "<content mode='base64'>YWJj</content>",
    "<copyright>r{i}</copyright>",
    "<generator>g{i}</generator>",
    "<x:unknown a='{i}'><x:child>v{i}</x:child></x:unknown>",
];

/// JSON Feed: a list member repeated in the feed (`{items}` items, `authors`, `hubs`) or in
/// its one item (`tags`, `attachments`, `authors`), and members repeated as keys.
const JSON: &[(&str, &str)] = &[
    ("items", r#""items": [{rep}]"#),
    ("feed authors", r#""authors": [{rep}], "items": [{"id": "1"}]"#),
    ("hubs", r#""hubs": [{rep}], "items": [{"id": "1"}]"#),
    ("tags", r#""items": [{"id": "1", "tags": [{rep}]}]"#),
    ("attachments", r#""items": [{"id": "1", "attachments": [{rep}]}]"#),
    ("item authors", r#""items": [{"id": "1", "authors": [{rep}]}]"#),
    ("repeated feed key", r#"{rep}, "items": [{"id": "1"}]"#),
    ("repeated item key", r#""items": [{"id": "1", {rep}}]"#),
    ("extension member", r#"{rep}, "items": [{"id": "1", {rep}}]"#),
];

/// The repeated part of each `JSON` case (`,`-separated).
fn json_repeat(case: &str) -> &'static str {
    match case {
        "items" => {
            r#"{"id": "i{i}", "url": "http://a.example/{i}", "title": "t{i}", "content_html": "<p>{i}</p>", "date_published": "2024-01-15T08:00:00Z"}"#
        }
        "feed authors" | "item authors" => r#"{"name": "A {i}", "url": "http://a.example/a{i}"}"#,
        "hubs" => r#"{"type": "WebSub", "url": "http://a.example/h{i}"}"#,
        "tags" => r#""t{i}""#,
        "attachments" => {
            r#"{"url": "http://a.example/{i}.mp3", "mime_type": "audio/mpeg", "size_in_bytes": {i}}"#
        }
        "repeated feed key" | "repeated item key" => r#""title": "t{i}""#,
        "extension member" => r#""_x{i}": {"a": "v{i}", "b": [{i}]}"#,
        other => unreachable!("{other}"),
    }
}

fn repeat(element: &str, n: usize, sep: &str) -> String {
    let mut out = String::new();
    for i in 0..n {
        if i > 0 {
            out.push_str(sep);
        }
        out.push_str(&element.replace("{i}", &i.to_string()));
    }
    out
}

/// The documents of one format: the repeated element in both places.
#[derive(Clone, Copy)]
enum Format {
    Rss,
    Rss1,
    Atom,
    Atom03,
    Json,
}

fn document(format: Format, element: &str, n: usize) -> String {
    match format {
        Format::Rss => {
            let rep = repeat(element, n, "");
            format!("<rss version='2.0' {NS}><channel>{rep}<item>{rep}</item></channel></rss>")
        }
        Format::Rss1 => {
            let rep = repeat(element, n, "");
            format!(
                "<rdf:RDF xmlns='http://purl.org/rss/1.0/' xmlns:hatena='http://www.hatena.ne.jp/info/xmlns#' {NS}>\
                 <channel rdf:about='http://a.example/'>{rep}</channel>\
                 <item rdf:about='http://a.example/1'>{rep}</item></rdf:RDF>"
            )
        }
        Format::Atom => {
            let rep = repeat(element, n, "");
            format!(
                "<feed xmlns='http://www.w3.org/2005/Atom' {NS}>{rep}<entry>{rep}</entry></feed>"
            )
        }
        Format::Atom03 => {
            let rep = repeat(element, n, "");
            format!(
                "<feed version='0.3' xmlns='http://purl.org/atom/ns#' {NS}>{rep}<entry>{rep}</entry></feed>"
            )
        }
        Format::Json => {
            let rep = repeat(json_repeat(element), n, ", ");
            let members = JSON.iter().find(|(name, _)| *name == element).unwrap().1;
            format!(
                r#"{{"version": "https://jsonfeed.org/version/1.1", "title": "T", {}}}"#,
                members.replace("{rep}", &rep)
            )
        }
    }
}

/// Options under which both sizes do all their work: no limit cuts the larger document.
fn options() -> Options {
    let mut options = Options::default();
    options.limits.max_entries = 4 * LARGE;
    options.limits.max_extension_elements = 16 * LARGE;
    options.limits.max_extension_bytes = 1 << 30;
    options
}

/// Counts, per thread, what the test binary allocates: it forwards every call to the system
/// allocator. Hand-written (about 40 lines): the allocation-counting crates found either
/// count process-wide (the other tests' threads would count too) or do not forward
/// `realloc`, which would turn every in-place growth of a large buffer into a copy.
struct CountingAllocator;

/// One thread's allocation counts (const-initialized, no destructor: reading them never
/// allocates, so the allocator may use them).
struct Counts {
    allocations: Cell<u64>,
    bytes: Cell<u64>,
    live: Cell<i64>,
    peak: Cell<i64>,
}

thread_local! {
    static COUNTS: Counts = const {
        Counts {
            allocations: Cell::new(0),
            bytes: Cell::new(0),
            live: Cell::new(0),
            peak: Cell::new(0),
        }
    };
}

/// Records an allocation of `grown` bytes more than were live at this address (`grown` is
/// negative for a shrink or a free; `fresh` counts a new block of `size` bytes).
fn count(fresh: Option<usize>, grown: i64) {
    let _ = COUNTS.try_with(|c| {
        if let Some(size) = fresh {
            c.allocations.set(c.allocations.get() + 1);
            c.bytes.set(c.bytes.get() + size as u64);
        }
        let live = c.live.get() + grown;
        c.live.set(live);
        c.peak.set(c.peak.get().max(live));
    });
}

// SAFETY: every method forwards to `System` with the same arguments and returns its result
// unchanged; the counting touches only this thread's `Cell`s and never allocates.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(Some(layout.size()), layout.size() as i64);
        // SAFETY: the caller's contract for `alloc`, passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(Some(layout.size()), layout.size() as i64);
        // SAFETY: the caller's contract for `alloc_zeroed`, passed on.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(None, -(layout.size() as i64));
        // SAFETY: the caller's contract for `dealloc`, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // A growth counts as an allocation of the new size (what a copy would cost).
        let fresh = (new_size > layout.size()).then_some(new_size);
        count(fresh, new_size as i64 - layout.size() as i64);
        // SAFETY: the caller's contract for `realloc`, passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// What one run of a closure cost this thread: allocations, bytes allocated, the peak of
/// live bytes above the start.
#[derive(Clone, Copy, Default)]
struct Memory {
    allocations: u64,
    bytes: u64,
    peak: u64,
}

fn memory_of<T>(f: impl FnOnce() -> T) -> (T, Memory) {
    let start = COUNTS.with(|c| {
        c.peak.set(c.live.get());
        (c.allocations.get(), c.bytes.get(), c.live.get())
    });
    let out = f();
    let memory = COUNTS.with(|c| Memory {
        allocations: c.allocations.get() - start.0,
        bytes: c.bytes.get() - start.1,
        peak: (c.peak.get() - start.2).max(0) as u64,
    });
    (out, memory)
}

/// The work meter of this thread: the instruction counter when the machine has one, else
/// thread CPU time.
enum Meter {
    Instructions(perf_event::Counter),
    CpuTime,
}

impl Meter {
    fn new() -> Meter {
        let counter = perf_event::Builder::new(perf_event::events::Hardware::INSTRUCTIONS)
            .exclude_kernel(true)
            .exclude_hv(true)
            .build();
        let mut meter = match counter {
            Ok(counter) => Meter::Instructions(counter),
            Err(_) => return Meter::CpuTime,
        };
        // A counter that opens but does not count (a VM's PMU not scheduled) is no meter.
        let busy = || (0..10_000u64).fold(0, |x, i| std::hint::black_box(x ^ i));
        match meter.work(busy) {
            Ok((_, n)) if n >= 10_000 => meter,
            _ => Meter::CpuTime,
        }
    }

    fn name(&self) -> &'static str {
        match self {
            Meter::Instructions(_) => "instructions (user space, this thread)",
            Meter::CpuTime => "thread CPU time, ns (no instruction counter here)",
        }
    }

    /// The work `f` did on this thread.
    fn work<T>(&mut self, f: impl FnOnce() -> T) -> std::io::Result<(T, u64)> {
        match self {
            Meter::Instructions(counter) => {
                counter.reset()?;
                counter.enable()?;
                let out = f();
                counter.disable()?;
                Ok((out, counter.read()?))
            }
            Meter::CpuTime => {
                let start = thread_cpu_ns();
                let out = f();
                Ok((out, thread_cpu_ns() - start))
            }
        }
    }

    /// The least work a ratio is taken against: the write of a line that does not grow (one
    /// value) takes microseconds, whose ratios are noise (an Atom `id` measured x11.8).
    fn floor(&self) -> u64 {
        match self {
            Meter::Instructions(_) => 100_000,
            Meter::CpuTime => 200_000,
        }
    }

    fn bound(&self) -> f64 {
        match self {
            Meter::Instructions(_) => BOUND,
            Meter::CpuTime => CPU_BOUND,
        }
    }
}

/// This thread's CPU time in nanoseconds (`CLOCK_THREAD_CPUTIME_ID`).
fn thread_cpu_ns() -> u64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid, writable timespec; the clock id is a constant Linux supports.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
}

/// This thread's minor page faults so far (`getrusage(RUSAGE_THREAD)`): memory it touched
/// for the first time since the kernel gave it.
fn thread_page_faults() -> u64 {
    // SAFETY: `getrusage` only writes the `rusage` it is given; all-zero bytes are a valid
    // value of that plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `usage` is a valid, writable rusage; RUSAGE_THREAD is Linux's.
    let rc = unsafe { libc::getrusage(libc::RUSAGE_THREAD, &mut usage) };
    assert_eq!(rc, 0, "getrusage(RUSAGE_THREAD)");
    usage.ru_minflt as u64
}

/// What one document cost: parsing it and writing its record.
#[derive(Clone, Copy, Default)]
struct Cost {
    parse: u64,
    write: u64,
    memory: Memory,
    /// Page faults while parsing (shown, not bounded: the allocator's reuse of memory
    /// decides them).
    faults: u64,
    line: usize,
    input: usize,
}

/// One document with its parser and line buffer, reused between runs as a worker reuses
/// them (the arena's chunk and the line's capacity are kept: later runs measure the work,
/// not the first touch of fresh memory).
struct Run {
    doc: String,
    parser: Parser,
    line: Vec<u8>,
}

impl Run {
    fn new(doc: String) -> Run {
        Run { doc, parser: Parser::new(options()), line: Vec::new() }
    }

    /// Parses the document and writes its JSON line, measured.
    fn cost(&mut self, meter: &mut Meter) -> Cost {
        let Run { doc, parser, line } = self;
        let faults = thread_page_faults();
        let ((parsed, memory), parse) = meter
            .work(|| memory_of(|| parser.parse_str(doc, Some("https://base.example/"))))
            .unwrap();
        let faults = thread_page_faults() - faults;
        let parsed = parsed.unwrap();
        assert!(parsed.feed.is_some(), "not a feed: {:?}", &doc[..doc.len().min(200)]);
        let rec = RecordView::parsed("s", None, &parsed);
        line.clear();
        let ((), write) = meter.work(|| encode_record(line, &rec)).unwrap();
        Cost { parse, write, memory, faults, line: line.len(), input: doc.len() }
    }
}

/// The costs of one element at both sizes. Memory and faults are the first run's (a fresh
/// parser); the work is the one count of the instruction counter, or the best thread CPU
/// time of up to `CPU_RUNS` runs after that first one (a warm-up), the sizes interleaved so
/// that a change of the machine's load meets both.
fn ratios(meter: &mut Meter, format: Format, element: &str) -> (Cost, Cost) {
    let mut small_run = Run::new(document(format, element, SMALL));
    let mut large_run = Run::new(document(format, element, LARGE));
    let (mut small, mut large) = (small_run.cost(meter), large_run.cost(meter));
    if matches!(meter, Meter::CpuTime) {
        for run in 0..CPU_RUNS {
            let (s, l) = (small_run.cost(meter), large_run.cost(meter));
            if run == 0 {
                (small.parse, small.write, large.parse, large.write) =
                    (s.parse, s.write, l.parse, l.write);
            } else {
                small.parse = small.parse.min(s.parse);
                small.write = small.write.min(s.write);
                large.parse = large.parse.min(l.parse);
                large.write = large.write.min(l.write);
            }
            let floor = meter.floor();
            if ratio(large.parse, small.parse.max(floor)) <= CPU_BOUND
                && ratio(large.write, small.write.max(floor)) <= CPU_BOUND
            {
                break;
            }
        }
    }
    (small, large)
}

fn ratio(large: u64, small: u64) -> f64 {
    large as f64 / small.max(1) as f64
}

/// Measures every element of `format`; fails listing those that grow more than linearly.
fn check(format: Format, elements: &[&str]) {
    let mut meter = Meter::new();
    let bound = meter.bound();
    let mut table = format!(
        "{:<60} {:>8} {:>8} {:>7} {:>7} {:>7} {:>7} {:>7}  work: {}\n",
        "element",
        "parse",
        "write",
        "allocs",
        "bytes",
        "peak",
        "line",
        "faults",
        meter.name()
    );
    let mut failures = Vec::new();
    for element in elements {
        let (small, large) = ratios(&mut meter, format, element);
        let floor = meter.floor();
        let r = [
            ratio(large.parse, small.parse.max(floor)),
            ratio(large.write, small.write.max(floor)),
            ratio(large.memory.allocations, small.memory.allocations),
            ratio(large.memory.bytes, small.memory.bytes),
            ratio(large.memory.peak, small.memory.peak),
            ratio(large.line as u64, small.line as u64),
        ];
        let name: String = element.chars().take(60).collect();
        writeln!(
            table,
            "{name:<60} {:>8.2} {:>8.2} {:>7.2} {:>7.2} {:>7.2} {:>7.2} {:>7.2}",
            r[0],
            r[1],
            r[2],
            r[3],
            r[4],
            r[5],
            ratio(large.faults, small.faults)
        )
        .unwrap();
        let bounds = [bound, bound, BOUND, BOUND, BOUND, BOUND];
        if r.iter().zip(bounds).any(|(r, b)| *r > b) {
            failures.push(format!(
                "{element}: parse x{:.2}, write x{:.2}, allocations x{:.2}, bytes x{:.2}, \
                 peak x{:.2}, line x{:.2}",
                r[0], r[1], r[2], r[3], r[4], r[5]
            ));
        }
        for c in [small, large] {
            if c.line > json_line_bound(c.input) {
                failures.push(format!("{element}: a {}-byte line of {} bytes", c.line, c.input));
            }
        }
    }
    eprintln!("{table}");
    assert!(failures.is_empty(), "more than linear ({}):\n{}", meter.name(), failures.join("\n"));
}

#[test]
fn rss2_elements_repeated_cost_linear_work() {
    check(Format::Rss, RSS);
}

#[test]
fn rss1_elements_repeated_cost_linear_work() {
    check(Format::Rss1, RSS1);
}

#[test]
fn atom_elements_repeated_cost_linear_work() {
    check(Format::Atom, ATOM);
}

#[test]
fn atom03_elements_repeated_cost_linear_work() {
    check(Format::Atom03, ATOM03);
}

#[test]
fn json_feed_lists_and_members_repeated_cost_linear_work() {
    let cases: Vec<&str> = JSON.iter().map(|(name, _)| *name).collect();
    check(Format::Json, &cases);
}
