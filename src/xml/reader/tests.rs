//! Reader tests: differential runs against quick-xml on generated inputs, recovery cases with
//! their diagnostics, and limits.

use bumpalo::Bump;

use super::tag::{attr_name_len, may_declare_namespaces, needs_attr_decoding};
use super::*;
use crate::options::Limits;
use crate::test_rng as rng;
use crate::xml::ns::Ns;

/// The text decoder before the block fast paths (one memchr search per gap and per
/// reference), kept as the oracle of `decode_text`.
fn decode_text_plain<'a>(
    reader: &mut XmlReader<'a>,
    raw: &'a str,
    first: usize,
    offset: usize,
) -> &'a str {
    let bytes = raw.as_bytes();
    let n = bytes.len();
    let mut out = bumpalo::collections::String::with_capacity_in(n, reader.arena);
    out.push_str(&raw[..first]);
    let mut i = first;
    while i < n {
        let j = i + memchr::memchr2(b'&', b'\r', &bytes[i..]).unwrap_or(n - i);
        out.push_str(&raw[i..j]);
        if j == n {
            break;
        }
        if bytes[j] == b'\r' {
            out.push('\n');
            i = j + 1 + usize::from(bytes.get(j + 1) == Some(&b'\n'));
            continue;
        }
        let k = j + 1 + memchr::memchr2(b';', b'&', &bytes[j + 1..]).unwrap_or(n - j - 1);
        if k == n || bytes[k] == b'&' {
            reader.diag(
                DiagnosticKind::BareAmpersand,
                offset + j,
                "'&' starts no reference; kept literally",
            );
            out.push('&');
            i = j + 1;
            continue;
        }
        match &bytes[j + 1..k] {
            b"lt" => out.push('<'),
            b"gt" => out.push('>'),
            b"amp" => out.push('&'),
            b"quot" => out.push('"'),
            _ => reader.push_reference(&mut out, &raw[j + 1..k], &raw[j..=k], offset + j),
        }
        i = k + 1;
    }
    out.into_bump_str()
}

/// Random text runs built from the pieces that matter to a text decoder.
fn random_runs(seed: u64, count: usize, max_pieces: u64, mut check: impl FnMut(&str)) {
    let pieces = [
        "&",
        ";",
        "lt",
        "gt",
        "amp",
        "quot",
        "apos",
        "#39",
        "#x27",
        "#",
        "x",
        "nbsp",
        "eacute",
        "bogus",
        "\r",
        "\n",
        "\r\n",
        "a",
        "text ",
        "é",
        "日本語",
        "\u{10348}",
        " ",
        "#0",
        "#xD800",
        "&lt;p&gt;",
        "&amp;",
        "0123456789abcdef",
        "\t",
        "\u{1}",
    ];
    let mut rand = rng(seed);
    for _ in 0..count {
        let n = rand() % max_pieces;
        let raw: String = (0..n).map(|_| pieces[(rand() % pieces.len() as u64) as usize]).collect();
        check(&raw);
    }
}

#[test]
fn attribute_lists_match_a_scan_of_the_tag_text() {
    let pieces = [
        " ",
        "a",
        "b",
        "x:y",
        "xmlns",
        "xmlns:x",
        "=",
        "\"",
        "'",
        "v",
        "&amp;",
        "&",
        "/",
        "\n",
        "\r",
        "\t",
        "é",
        "\u{1}",
        "0123456789abcdefghij",
        "<",
        ">",
    ];
    let mut rand = rng(0x1234_5678_9abc_def1);
    for round in 0..100_000 {
        let n = rand() % 24;
        let attrs: String =
            (0..n).map(|_| pieces[(rand() % pieces.len() as u64) as usize]).collect();
        let doc = format!("<r {attrs}/>");
        let limits = if round % 3 == 0 {
            Limits { max_attributes: 2, max_text_bytes: 6, ..Limits::default() }
        } else {
            Limits::default()
        };
        let arena = Bump::new();
        let mut reader = XmlReader::with_limits(&arena, &doc, &limits);
        for _ in 0..8 {
            match reader.next() {
                Event::Start(tag) => {
                    let listed: Vec<_> = tag.attrs().collect();
                    let scanned: Vec<_> = Attrs::new(tag.attrs_raw).collect();
                    assert_eq!(listed, scanned, "{doc:?}");
                    let mut scan = Attrs::new(tag.attrs_raw);
                    while let Some(a) = scan.next_raw() {
                        assert_eq!(a.has_amp, a.value.contains('&'), "{doc:?}");
                    }
                    for (name, _) in &scanned {
                        let first = scanned.iter().find(|(n, _)| n == name).map(|&(_, v)| v);
                        assert_eq!(tag.raw_attr(name), first, "{doc:?}");
                    }
                }
                Event::Eof => break,
                _ => {}
            }
        }
    }
}

#[test]
fn cached_namespaces_match_the_resolver() {
    let pieces = [
        "<a>",
        "</a>",
        "<x:a>",
        "</x:a>",
        "<y:b/>",
        "<a:b:c/>",
        "<:d/>",
        "text",
        "<b xmlns:y='u'>",
        "</b>",
        "<c xmlns=''>",
        "</c>",
        "<e xmlns='http://www.w3.org/2005/Atom'>",
        "</e>",
        "<f xmlns:x='http://purl.org/dc/elements/1.1/'>",
        "</f>",
        "<g x:attr='1' y:attr='2'/>",
        "<h y:z='2' xmlns:y='v'/>",
        "<i xmlns:x=''>",
        "</i>",
        "<j a='xmlns'>",
        "</j>",
        "<k xmlns:z='1' xmlns:w='2' xmlns:v='3'>",
        "</k>",
        "<l xmlns:y='u'/xmlns:z='v'>",
        "</l>",
        "<m xmlns:y=u xmlns:z='v'>",
        "</m>",
        "<n =xmlns:y='u'>",
        "</n>",
        "<o xmlns:y='u' xmlns:y='w'>",
        "</o>",
        "<p xmlns:xml='u' xmlns:y='w'>",
        "</p>",
        "<q xmlns:y = \"u\"\txmlns='v' />",
        "<s xmlns:y='u' a>",
        "</s>",
        "<t xmlns:z='1'xmlns:y='2' / >",
        "<u a='1' xmlns:y='<'>",
        "</u>",
        "<v xmlns:xmlns='u' xmlns='w'>",
        "</v>",
        "<w xmlns:y='u' xmlns:z='v>",
        "</w>",
        "<z xmlns:q='' xmlns:y='&amp;'>",
        "</z>",
        "<dc:t itunes:a='1' xml:lang='x' media:b='2' x:c='3' a:b:c='4'/>",
    ];
    let mut rand = rng(0x0bad_5eed_1234_5678);
    for round in 0..20_000 {
        let n = rand() % 30;
        let body: String =
            (0..n).map(|_| pieces[(rand() % pieces.len() as u64) as usize]).collect();
        let doc = format!("<r xmlns:x='http://www.itunes.com/dtds/podcast-1.0.dtd'>{body}</r>");
        let limits = Limits {
            max_namespace_bindings: if round % 4 == 0 { 2 } else { 128 },
            ..Limits::default()
        };
        let read = |disabled: bool| {
            let arena = Bump::new();
            let mut reader = XmlReader::with_limits(&arena, &doc, &limits);
            reader.ns_cache.disabled = disabled;
            // The `well_known_prefix` rule's URIs for undeclared prefixes too.
            reader.set_recover(round % 2 == 1);
            let mut names = Vec::new();
            loop {
                match reader.next() {
                    Event::Start(tag) => {
                        names.push(format!("{} {:?}", tag.qname, tag.ns));
                        // The URIs the cache answers (`element_ns_uri`, `attr_ns_uri`).
                        names.push(reader.element_ns_uri(tag.qname).to_owned());
                        for (name, _) in tag.attrs() {
                            names.push(format!("{name}={}", reader.attr_ns_uri(name)));
                        }
                    }
                    Event::Eof => break,
                    _ => {}
                }
            }
            (names, reader.diagnostics)
        };
        assert_eq!(read(false), read(true), "{doc:?}");
    }
}

#[test]
fn find_forbidden_control_matches_a_byte_loop() {
    let mut rand = rng(0xd1b5_4a32_d192_ed03);
    for _ in 0..20_000 {
        let len = (rand() % 700) as usize;
        let mut bytes: Vec<u8> = (0..len)
            .map(|_| {
                [b'a', b'\t', b'\n', b'\r', b' ', 0x80, 0xff, b'<', 0x29, 0x89, 0x8d, 0x7a]
                    [(rand() % 12) as usize]
            })
            .collect();
        for _ in 0..rand() % 3 {
            if len > 0 {
                let at = (rand() % len as u64) as usize;
                bytes[at] = [0, 1, 8, 0x0b, 0x0c, 0x0e, 0x1f, 0x19, 0x1a, 0x1d, 0x10]
                    [(rand() % 11) as usize];
            }
        }
        let want = bytes.iter().position(|&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r'));
        assert_eq!(find_forbidden_control(&bytes), want, "{bytes:?}");
    }
}

#[test]
fn attr_name_len_matches_a_byte_loop() {
    let pieces = [
        "a",
        "x:y",
        " ",
        "\t",
        "\n",
        "\r",
        "=",
        "/",
        ">",
        "\u{1}",
        "\u{1f}",
        "!",
        "é",
        "0123456789abcdef",
        "\"",
        "<",
    ];
    let mut rand = rng(0x2545_f491_4f6c_dd1d);
    for _ in 0..100_000 {
        let n = rand() % 12;
        let s: String = (0..n).map(|_| pieces[(rand() % pieces.len() as u64) as usize]).collect();
        let b = s.as_bytes();
        let want =
            b.iter().position(|&c| is_ws(c) || matches!(c, b'=' | b'/' | b'>')).unwrap_or(b.len());
        assert_eq!(attr_name_len(b), want, "{s:?}");
    }
}

#[test]
fn may_declare_namespaces_matches_a_substring_search() {
    let pieces = ["x", "xml", "xmlns", "ns", " ", "a", "='", "é", "0123456789abcdef"];
    let mut rand = rng(0x3c6e_f372_fe94_f82b);
    for _ in 0..100_000 {
        let n = rand() % 16;
        let attrs: String =
            (0..n).map(|_| pieces[(rand() % pieces.len() as u64) as usize]).collect();
        assert_eq!(may_declare_namespaces(attrs.as_bytes()), attrs.contains("xmlns"), "{attrs:?}");
    }
}

#[test]
fn needs_attr_decoding_matches_a_byte_loop() {
    random_runs(0x5851_f42d_4c95_7f2d, 100_000, 30, |raw| {
        let want = raw.bytes().any(|b| b == b'&' || b < 0x20);
        assert_eq!(needs_attr_decoding(raw.as_bytes()), want, "{raw:?}");
    });
}

#[test]
fn decode_text_matches_the_plain_decoder() {
    random_runs(0x9e37_79b9_7f4a_7c15, 200_000, 40, |raw| {
        assert_decoders_agree(raw, None);
    });
}

/// `decode_text` of `raw` from its first `&` or CR against [`decode_text_plain`], output and
/// diagnostics, each in a reader of its own; with `dtd`, both with the recovery rules on and
/// the internal entities `dtd` declares. Nothing to decode: nothing checked.
fn assert_decoders_agree(raw: &str, dtd: Option<&str>) {
    let Some(first) = raw.bytes().position(|b| b == b'&' || b == b'\r') else { return };
    let arena = Bump::new();
    let mut fast = XmlReader::new(&arena, raw, 16);
    let mut plain = XmlReader::new(&arena, raw, 16);
    if let Some(dtd) = dtd {
        for r in [&mut fast, &mut plain] {
            r.set_recover(true);
            r.internal_entities = entities::InternalEntities::parse(&arena, dtd, 100_000);
        }
    }
    let got = fast.decode_text(raw, first, 0);
    let want = decode_text_plain(&mut plain, raw, first, 0);
    assert_eq!(got, want, "{raw:?}");
    assert_eq!(fast.diagnostics, plain.diagnostics, "{raw:?}");
}

/// The one-block step of `decode_text` (`text::gap_and_common_reference`) at every gap length
/// around the block size, for each of the four common references, a reference cut off by
/// the end, a CR and other references, after ASCII and multi-byte text; also with an
/// internal entity whose expansion is longer than its reference, so that the output's spare
/// room runs short of a block (the step then hands over to the general path).
#[test]
fn decode_text_block_step_matches_the_plain_decoder() {
    let dtd = "<!ENTITY big 'a long replacement text that is much longer than its reference'>";
    let fills = ["", "x", "é", "日本", "\u{10348}", "0123456789abcdef"];
    let specials = [
        "&lt;", "&gt;", "&amp;", "&quot;", "&lt", "&amp", "&quo", "&quot", "\r", "&apos;", "&big;",
        "&",
    ];
    let mut runs = Vec::new();
    for gap in 0..=40 {
        for fill in fills {
            let before: String = fill.chars().cycle().take(gap).collect();
            for special in specials {
                for after in ["", "p&gt;", "&big;&big;&lt;b&gt;", "0123456789abcdef&lt;"] {
                    runs.push(format!("{before}{special}{after}"));
                    runs.push(format!("&big;{before}{special}{after}{before}&lt;"));
                }
            }
        }
    }
    for raw in &runs {
        assert_decoders_agree(raw, Some(dtd));
    }
}

/// `element::colons` against byte loops: names of every length around the block size with
/// `:` at none, one or several places (first, last, both ends), non-ASCII in them, read in
/// place in the input (the block path, with the input ending right after the name or going
/// on) and from a copy elsewhere (the byte loops).
#[test]
fn name_colons_match_byte_loops() {
    let mut rand = rng(0x2545_f491_4f6c_dd1d);
    for len in 0..40usize {
        for _ in 0..200 {
            let name: String =
                (0..len).map(|_| ['a', ':', 'é', 'b', '日'][(rand() % 5) as usize]).collect();
            let q = name.as_bytes();
            let want = q
                .iter()
                .position(|&b| b == b':')
                .map(|f| (f, q.iter().rposition(|&b| b == b':').unwrap_or(f)));
            for after in ["", ">", " a:b='c:d'>", ":::::::::::::::::"] {
                let src = format!("<{name}{after}");
                let bytes = src.as_bytes();
                let in_place = &bytes[1..1 + q.len()];
                assert_eq!(super::element::colons(bytes, 1, in_place), want, "{src:?}");
                assert_eq!(super::element::colons(bytes, 1, q), want, "{src:?} (a copy)");
            }
        }
    }
}

#[test]
fn many_undeclared_prefixed_attributes_are_each_reported_once() {
    // 200 attributes with undeclared prefixes, one prefix declared on the same tag after
    // them, and a long value that every per-attribute rescan would have crossed.
    let mut attrs: String = (0..200).map(|i| format!(" p{i}:a='v{i}'")).collect();
    attrs.push_str(" q:b='w'");
    attrs.push_str(&format!(" long='{}'", "x".repeat(100_000)));
    attrs.push_str(" xmlns:q='urn:q'");
    let doc = format!("<r{attrs}/>");
    let arena = Bump::new();
    let mut reader = XmlReader::new(&arena, &doc, 16);
    let Event::Start(tag) = reader.next() else { panic!("no start tag") };
    assert_eq!(tag.raw_attr("p0:a"), Some("v0"));
    assert_eq!(tag.raw_attr("p199:a"), Some("v199"));
    assert_eq!(tag.raw_attr("q:b"), Some("w"));
    assert_eq!(tag.attrs().count(), 203);
    let unbound: Vec<&str> = reader
        .diagnostics
        .iter()
        .filter(|d| d.kind == DiagnosticKind::UnboundPrefix)
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(unbound.len(), 200, "{unbound:?}");
    assert_eq!(unbound[0], "namespace prefix \"p0\" of attribute \"p0:a\" is not declared");
    assert_eq!(unbound[199], "namespace prefix \"p199\" of attribute \"p199:a\" is not declared");
    let first = reader.diagnostics.iter().find(|d| d.kind == DiagnosticKind::UnboundPrefix);
    assert_eq!(first.map(|d| d.offset), Some(3));
}

/// Every event of `doc` read with the recovery rules `recover`, as `(ns, qname)` of the start
/// tags, with the diagnostics.
/// `(namespace, qualified name)` of each start tag, and `(kind, message)` of each diagnostic.
type Read = (Vec<(Ns, String)>, Vec<(DiagnosticKind, String)>);

fn starts(doc: &str, recover: bool) -> Read {
    let arena = Bump::new();
    let mut reader = XmlReader::new(&arena, doc, 16);
    reader.set_recover(recover);
    let mut out = Vec::new();
    loop {
        match reader.next() {
            Event::Start(t) => out.push((t.ns, t.qname.to_owned())),
            Event::Eof => break,
            _ => {}
        }
    }
    let diags = reader.diagnostics.iter().map(|d| (d.kind, d.message.clone())).collect();
    (out, diags)
}

#[test]
fn undeclared_well_known_prefixes_are_bound_once_per_document_with_the_rules_on() {
    let doc = "<rss><item><content:encoded/><dc:creator/><dc:creator/><foo:bar/>\
               <x dc:y='1' media:z='2'/><media:content/></item>\
               <item xmlns:dc='urn:other'><dc:creator/></item></rss>";
    let (on, diags) = starts(doc, true);
    let ns: Vec<Ns> = on.iter().map(|(ns, _)| *ns).collect();
    use Ns::*;
    assert_eq!(
        ns,
        [
            Null,
            Null,
            RssContent,
            DublinCore,
            DublinCore,
            UnboundPrefix,
            Null,
            MediaRss,
            Null,
            Other
        ]
    );
    let messages: Vec<&str> = diags.iter().map(|(_, m)| m.as_str()).collect();
    assert_eq!(
        messages,
        [
            "well_known_prefix: <content:encoded> read with the undeclared prefix \"content\" \
             bound to http://purl.org/rss/1.0/modules/content/ (every use in the document)",
            "well_known_prefix: <dc:creator> read with the undeclared prefix \"dc\" bound to \
             http://purl.org/dc/elements/1.1/ (every use in the document)",
            "namespace prefix \"foo\" is not declared",
            "well_known_prefix: attribute \"media:z\" read with the undeclared prefix \"media\" \
             bound to http://search.yahoo.com/mrss/ (every use in the document)",
        ]
    );
    // Off: every use is reported and no element is in a known namespace.
    let (off, diags) = starts(doc, false);
    assert_eq!(off.iter().filter(|(ns, _)| *ns == UnboundPrefix).count(), 5);
    assert!(diags.iter().all(|(k, _)| *k == DiagnosticKind::UnboundPrefix), "{diags:?}");
    assert_eq!(diags.len(), 7);
}

#[test]
fn bound_well_known_prefixes_resolve_attributes_and_names() {
    let doc = "<r><itunes:image href='h' itunes:a='1'/></r>";
    let arena = Bump::new();
    let mut reader = XmlReader::new(&arena, doc, 16);
    reader.set_recover(true);
    reader.next();
    let Event::Start(t) = reader.next() else { panic!("no start tag") };
    assert_eq!(t.ns, Ns::Itunes);
    assert_eq!(reader.element_ns_uri(t.qname), crate::xml::ns::ITUNES);
    assert_eq!(reader.attr_ns_uri("itunes:a"), crate::xml::ns::ITUNES);
    assert_eq!(reader.attr_ns_uri("nope:a"), "");
}

#[test]
fn xml_base_scopes_nest_and_close_after_the_next_event() {
    let doc = "<feed xml:base='http://a.example/blog/'>\
               <entry xml:base='2024/'><link xml:base='/m/' href='x'/><t/></entry>\
               <entry><t/></entry><entry xml:base='javascript:x'><t/></entry>\
               <entry xml:base='//b.example/'><t/></entry></feed>";
    let arena = Bump::new();
    let mut reader = XmlReader::new(&arena, doc, 16);
    let bases = reader.track_xml_base();
    let mut seen = Vec::new();
    loop {
        let ev = reader.next();
        let now = bases.current().map(|u| u.to_string()).unwrap_or_default();
        match ev {
            Event::Start(t) => seen.push(format!("<{}> {now}", t.qname)),
            Event::End => seen.push(format!("/ {now}")),
            Event::Eof => break,
            _ => {}
        }
    }
    let blog = "http://a.example/blog/";
    let y2024 = "http://a.example/blog/2024/";
    let m = "http://a.example/m/";
    let b = "http://b.example/";
    let expected = [
        format!("<feed> {blog}"),
        format!("<entry> {y2024}"),
        format!("<link> {m}"),
        format!("/ {m}"), // the link's own base until the next event
        format!("<t> {y2024}"),
        format!("/ {y2024}"),
        format!("/ {y2024}"),
        format!("<entry> {blog}"),
        format!("<t> {blog}"),
        format!("/ {blog}"),
        format!("/ {blog}"),
        format!("<entry> {blog}"), // javascript: is no base
        format!("<t> {blog}"),
        format!("/ {blog}"),
        format!("/ {blog}"),
        format!("<entry> {b}"),
        format!("<t> {b}"),
        format!("/ {b}"),
        format!("/ {b}"),
        format!("/ {blog}"),
    ];
    assert_eq!(seen, expected);
    assert_eq!(bases.unusable(), 1);
}

/// Walks a document as a format state machine does — `next_child` at every level, `skip`
/// for some children — logging each step with the reader's offsets; `plain`: with loops
/// over [`XmlReader::next`] that drop text, comments and PIs themselves (the walkers before
/// `skip_indentation`).
fn walk_log(doc: &str, plain: bool) -> (Vec<String>, Vec<crate::Diagnostic>) {
    fn next_child_plain<'a>(r: &mut XmlReader<'a>) -> Option<Tag<'a>> {
        loop {
            match r.next() {
                Event::Start(tag) => return Some(tag),
                Event::End | Event::Eof => return None,
                _ => {}
            }
        }
    }
    fn skip_plain(r: &mut XmlReader<'_>) {
        let mut depth = 0usize;
        loop {
            match r.next() {
                Event::Start(_) => depth += 1,
                Event::End if depth == 0 => return,
                Event::End => depth -= 1,
                Event::Eof => return,
                _ => {}
            }
        }
    }
    let arena = Bump::new();
    let mut r = XmlReader::new(&arena, doc, 8);
    let mut log = Vec::new();
    // The root, then its children.
    let root = if plain { next_child_plain(&mut r) } else { r.next_child() };
    log.push(format!("root {:?} {}", root.map(|t| t.qname), r.last_offset()));
    let mut depth = 0usize;
    while root.is_some() {
        let child = if plain { next_child_plain(&mut r) } else { r.next_child() };
        match child {
            Some(tag) => {
                log.push(format!("<{} @{} {}", tag.qname, tag.offset, r.last_offset()));
                if tag.local.len() % 2 == 0 {
                    if plain {
                        skip_plain(&mut r);
                    } else {
                        r.skip();
                    }
                    log.push(format!("skipped {}", r.last_offset()));
                } else {
                    depth += 1;
                }
            }
            None => {
                log.push(format!("end {}", r.last_offset()));
                if depth == 0 {
                    break;
                }
                depth -= 1;
            }
        }
    }
    log.push(format!("after {:?}", r.next()));
    (log, r.diagnostics)
}

#[test]
fn walking_over_indentation_reads_what_dropping_its_text_event_reads() {
    // Whitespace runs of every length around 16 and 32 (the blocks `skip_indentation`
    // looks at) before tags, text, stray `<`, comments and PIs; unclosed and mismatched
    // elements; content before and after the root.
    let pieces = [
        "<a>",
        "</a>",
        "<bb>",
        "</bb>",
        "<c x='1'>",
        "</c>",
        "<dd/>",
        "<e\n/>",
        "text",
        "é",
        "<!--c-->",
        "<?p d?>",
        "<",
        "&amp;",
        "\r\n",
        " ",
        "\t",
        "\n        ",
        "</",
    ];
    let mut rand = rng(0x6a09_e667_f3bc_c909);
    for _ in 0..60_000 {
        let n = rand() % 20;
        let mut doc = String::from(if rand().is_multiple_of(4) { "  <r>" } else { "<r>" });
        for _ in 0..n {
            if rand().is_multiple_of(2) {
                let ws = [" ", "\n", "\t", "\r\n"][(rand() % 4) as usize];
                for _ in 0..[1, 2, 15, 16, 17, 31, 32, 33, 40][(rand() % 9) as usize] {
                    doc.push_str(ws);
                }
            }
            doc.push_str(pieces[(rand() % pieces.len() as u64) as usize]);
        }
        if !rand().is_multiple_of(3) {
            doc.push_str("\n</r>");
        }
        if rand().is_multiple_of(5) {
            doc.push_str("   \n  <x/>");
        }
        assert_eq!(walk_log(&doc, false), walk_log(&doc, true), "{doc:?}");
    }
}
