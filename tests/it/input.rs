//! Integration tests for the response layer, through the public `feedmill::input` API only.

use std::borrow::Cow;
use std::path::PathBuf;

use encoding_rs::Encoding;
use feedmill::input::{decode, prepare_response, EncodingSource, Response, ResponseVerdict};

// ---------------------------------------------------------------------------------------------
// Encoding matrix
// ---------------------------------------------------------------------------------------------

/// One row: the label used in headers/declarations, the encoding the WHATWG Encoding Standard
/// resolves it to, and a title made only of characters that encoding can represent.
struct Row {
    label: &'static str,
    expect: &'static str,
    title: &'static str,
}

const ROWS: &[Row] = &[
    Row {
        label: "utf-8", expect: "UTF-8", title: "Grüße – café · 日本語 · Новости"
    },
    Row { label: "utf-16le", expect: "UTF-16LE", title: "Grüße – café · 日本語 · 𝄞" },
    Row { label: "utf-16be", expect: "UTF-16BE", title: "Grüße – café · 中文 · 𝄞" },
    Row {
        label: "windows-1252", expect: "windows-1252", title: "Grüße – café “quoted” €5"
    },
    // WHATWG: iso-8859-1 is windows-1252. The title stays within Latin-1 proper.
    Row { label: "iso-8859-1", expect: "windows-1252", title: "Grüße · café ± ½ ÿ" },
    Row {
        label: "iso-8859-15", expect: "ISO-8859-15", title: "Œuvre: 5 € café · Grüße · Šž"
    },
    Row {
        label: "shift_jis", expect: "Shift_JIS", title: "日本語のフィード「ニュース」"
    },
    Row { label: "euc-jp", expect: "EUC-JP", title: "日本語のフィード「ニュース」" },
    Row { label: "gb18030", expect: "gb18030", title: "中文订阅源：新闻与评论" },
    Row { label: "big5", expect: "Big5", title: "繁體中文訂閱：新聞與評論" },
    Row { label: "koi8-r", expect: "KOI8-R", title: "Новости дня: Ёлка, ёж" },
];

#[derive(Clone, Copy, Debug, PartialEq)]
enum Labelling {
    /// Only the XML declaration names the encoding.
    Declaration,
    /// Only the Content-Type charset names it.
    Transport,
    /// Both, disagreeing: the declaration names a wrong (but decodable) encoding.
    BothDisagreeing,
}

fn feed_text(title: &str, declared: Option<&str>) -> String {
    let decl = match declared {
        Some(label) => format!("<?xml version=\"1.0\" encoding=\"{label}\"?>"),
        None => "<?xml version=\"1.0\"?>".to_owned(),
    };
    format!(
        "{decl}\n<rss version=\"2.0\"><channel><title>{title}</title>\
         <item><title>{title}</title><link>https://example.com/1</link></item></channel></rss>\n"
    )
}

/// Encodes `text` in the row's encoding. UTF-16 (which encoding_rs does not encode to) is
/// produced by hand, with a BOM when `bom`.
fn encode(label: &str, text: &str, bom: bool) -> Vec<u8> {
    match label {
        "utf-16le" | "utf-16be" => {
            let le = label == "utf-16le";
            let mut out = Vec::new();
            let units = if bom {
                Some(0xFEFF).into_iter().chain(text.encode_utf16())
            } else {
                None.into_iter().chain(text.encode_utf16())
            };
            for u in units {
                out.extend_from_slice(&if le { u.to_le_bytes() } else { u.to_be_bytes() });
            }
            out
        }
        _ => {
            let enc = Encoding::for_label(label.as_bytes()).unwrap();
            let (bytes, used, unmappable) = enc.encode(text);
            assert_eq!(used, enc, "{label}: encoding_rs encodes to this encoding");
            assert!(!unmappable, "{label}: the title must be representable");
            bytes.into_owned()
        }
    }
}

fn is_utf16(label: &str) -> bool {
    label.starts_with("utf-16")
}

/// The body and Content-Type for one cell of the matrix.
fn cell(row: &Row, labelling: Labelling) -> (Vec<u8>, String) {
    let wrong = if row.label == "utf-8" { "windows-1252" } else { "utf-8" };
    let (declared, charset) = match labelling {
        Labelling::Declaration => {
            (Some(if is_utf16(row.label) { "UTF-16" } else { row.label }), None)
        }
        Labelling::Transport => (None, Some(row.label)),
        Labelling::BothDisagreeing => (Some(wrong), Some(row.label)),
    };
    let body = encode(row.label, &feed_text(row.title, declared), is_utf16(row.label));
    let content_type = match charset {
        Some(c) => format!("application/rss+xml; charset={c}"),
        None => "application/rss+xml".to_owned(),
    };
    (body, content_type)
}

#[test]
fn encoding_matrix() {
    let mut cells = 0;
    for row in ROWS {
        for labelling in [Labelling::Declaration, Labelling::Transport, Labelling::BothDisagreeing]
        {
            let (body, content_type) = cell(row, labelling);
            let res =
                Response { status: 200, content_type: Some(&content_type), url: None, body: &body };
            let ResponseVerdict::Xml { decoded, computed_mime, .. } = prepare_response(&res) else {
                panic!("{} {labelling:?}: not XML", row.label);
            };
            let ctx = format!("{} {labelling:?}", row.label);
            assert_eq!(computed_mime.to_string(), "application/rss+xml", "{ctx}");
            assert_eq!(decoded.encoding.name(), row.expect, "{ctx}");
            let expected_source = match labelling {
                _ if is_utf16(row.label) => EncodingSource::ByteOrderMark,
                Labelling::Declaration => EncodingSource::XmlDeclaration,
                Labelling::Transport | Labelling::BothDisagreeing => EncodingSource::Transport,
            };
            assert_eq!(decoded.source, expected_source, "{ctx}");
            assert_eq!(decoded.malformed, None, "{ctx}");
            assert!(!decoded.text.starts_with('\u{FEFF}'), "{ctx}");
            assert!(
                decoded.text.starts_with("<?xml version=\"1.0\""),
                "{ctx}: declaration kept as is"
            );
            let wanted = format!("<channel><title>{}</title>", row.title);
            assert!(decoded.text.contains(&wanted), "{ctx}: {:?}", decoded.text);
            assert_eq!(decoded.text.matches(row.title).count(), 2, "{ctx}");
            if row.label == "utf-8" {
                assert!(matches!(decoded.text, Cow::Borrowed(_)), "{ctx}: UTF-8 is not copied");
            }
            cells += 1;
        }
    }
    assert_eq!(cells, ROWS.len() * 3);
}

#[test]
fn utf16_without_bom_labelled_by_declaration() {
    for row in ROWS.iter().filter(|r| is_utf16(r.label)) {
        let body = encode(row.label, &feed_text(row.title, Some("UTF-16")), false);
        let d = decode(&body, None);
        assert_eq!(d.encoding.name(), row.expect);
        assert_eq!(d.source, EncodingSource::XmlDeclaration);
        assert!(d.text.contains(row.title));
    }
}

// ---------------------------------------------------------------------------------------------
// Stored fixtures (corpus/fixtures/encoding/)
// ---------------------------------------------------------------------------------------------

fn fixture_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus/fixtures/encoding")
}

/// Fixtures stored on disk: each is labelled by its own bytes (declaration or BOM), so no
/// Content-Type is needed to read it. (file name, row label)
const FIXTURES: &[(&str, &str)] = &[
    ("rss-utf-8.xml", "utf-8"),
    ("rss-utf-16le-bom.xml", "utf-16le"),
    ("rss-utf-16be-bom.xml", "utf-16be"),
    ("rss-windows-1252.xml", "windows-1252"),
    ("rss-iso-8859-1.xml", "iso-8859-1"),
    ("rss-iso-8859-15.xml", "iso-8859-15"),
    ("rss-shift_jis.xml", "shift_jis"),
    ("rss-euc-jp.xml", "euc-jp"),
    ("rss-gb18030.xml", "gb18030"),
    ("rss-big5.xml", "big5"),
    ("rss-koi8-r.xml", "koi8-r"),
];

/// The stored fixtures are exactly what the generator produces (run with
/// `FEEDMILL_REGEN_FIXTURES=1` to rewrite them), and each decodes to its title.
#[test]
fn stored_fixtures() {
    let regen = std::env::var_os("FEEDMILL_REGEN_FIXTURES").is_some();
    for (file, label) in FIXTURES {
        let row = ROWS.iter().find(|r| r.label == *label).unwrap();
        let (generated, _) = cell(row, Labelling::Declaration);
        let path = fixture_dir().join(file);
        if regen {
            std::fs::create_dir_all(fixture_dir()).unwrap();
            std::fs::write(&path, &generated).unwrap();
        }
        let stored = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(stored, generated, "{file} differs from the generator");
        let d = decode(&stored, None);
        assert_eq!(d.encoding.name(), row.expect, "{file}");
        assert!(d.text.contains(row.title), "{file}");
    }
}

// ---------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------

const RSS: &[u8] =
    b"<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>T</title></channel></rss>";
const RSS_NO_DECL: &[u8] = b"\n<rss version=\"2.0\"><channel><title>T</title></channel></rss>";
const ATOM: &[u8] = b"<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!-- generator: x -->\n\
<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>T</title></feed>";
const RDF: &[u8] =
    b"<?xml version=\"1.0\"?>\n<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\" \
xmlns=\"http://purl.org/rss/1.0/\"><channel><title>T</title></channel></rdf:RDF>";
const HTML_PAGE: &[u8] = b"<!DOCTYPE html>\n<html lang=\"en\"><head><title>Home</title>\
<link rel=\"alternate\" type=\"application/rss+xml\" href=\"/feed\"></head><body><p>Hi</p></body></html>";

fn verdict<'a>(status: u16, content_type: Option<&'a str>, body: &'a [u8]) -> ResponseVerdict<'a> {
    prepare_response(&Response {
        status,
        content_type,
        url: Some("https://example.com/feed"),
        body,
    })
}

fn computed(v: &ResponseVerdict<'_>) -> String {
    match v {
        ResponseVerdict::NotOk { status } => format!("status {status}"),
        ResponseVerdict::NotXml { computed_mime } => format!("not xml: {computed_mime}"),
        ResponseVerdict::Xml { computed_mime, .. } => computed_mime.to_string(),
    }
}

#[test]
fn non_200_is_null() {
    for status in [100, 201, 203, 206, 301, 302, 304, 400, 403, 404, 410, 500, 503] {
        assert!(
            matches!(verdict(status, Some("application/rss+xml"), RSS), ResponseVerdict::NotOk { status: s } if s == status),
            "{status}"
        );
    }
}

#[test]
fn xml_mime_type_forms() {
    let forms = [
        ("text/xml", "text/xml"),
        ("application/xml", "application/xml"),
        ("application/rss+xml", "application/rss+xml"),
        ("application/atom+xml", "application/atom+xml"),
        ("application/rdf+xml", "application/rdf+xml"),
        ("image/svg+xml", "image/svg+xml"),
        ("TEXT/XML", "text/xml"),
        ("Application/Atom+XML; charset=UTF-8", "application/atom+xml"),
        ("  application/rss+xml ; charset=\"utf-8\" ; foo=bar  ", "application/rss+xml"),
        ("application/vnd.example.feed+xml;version=2", "application/vnd.example.feed+xml"),
    ];
    for (ct, essence) in forms {
        let v = verdict(200, Some(ct), RSS);
        assert!(v.is_xml(), "{ct}");
        assert_eq!(computed(&v), essence, "{ct}");
        let ResponseVerdict::Xml { computed_mime, url, .. } = v else { unreachable!() };
        assert!(!computed_mime.is_sniffed(), "{ct}: the supplied type stands");
        assert_eq!(url, Some("https://example.com/feed"));
    }
}

#[test]
fn non_xml_types_are_null() {
    for ct in ["application/json", "text/css", "application/xml-dtd", "text/xmlx", "image/png"] {
        assert!(matches!(verdict(200, Some(ct), RSS), ResponseVerdict::NotXml { .. }), "{ct}");
    }
}

#[test]
fn mislabeled_feeds_served_as_html() {
    for (body, essence) in [
        (RSS, "application/rss+xml"),
        (RSS_NO_DECL, "application/rss+xml"),
        (ATOM, "application/atom+xml"),
        (RDF, "application/rss+xml"),
    ] {
        for ct in ["text/html", "text/html; charset=utf-8", "Text/HTML"] {
            let v = verdict(200, Some(ct), body);
            assert_eq!(computed(&v), essence, "{ct} {}", String::from_utf8_lossy(body));
        }
    }
    // An RDF document that is not RSS 1.0 stays HTML.
    let rdf_only = b"<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"></rdf:RDF>";
    assert_eq!(computed(&verdict(200, Some("text/html"), rdf_only)), "not xml: text/html");
}

#[test]
fn real_html_page_is_null() {
    let v = verdict(200, Some("text/html; charset=utf-8"), HTML_PAGE);
    assert_eq!(computed(&v), "not xml: text/html");
    // Even though it links to a feed and mentions `rss`.
    let v = verdict(200, None, HTML_PAGE);
    assert_eq!(computed(&v), "not xml: text/html");
}

#[test]
fn text_plain_and_octet_stream_with_xml_body() {
    for ct in ["text/plain", "text/plain; charset=ISO-8859-1", "application/octet-stream"] {
        assert_eq!(computed(&verdict(200, Some(ct), RSS)), "text/xml", "{ct}");
        assert_eq!(
            computed(&verdict(200, Some(ct), b"just words")),
            format!("not xml: {ct}").split(';').next().unwrap(),
            "{ct}"
        );
    }
}

#[test]
fn missing_or_broken_content_type_sniffs() {
    for ct in [
        None,
        Some(""),
        Some("garbage"),
        Some("*/*"),
        Some("unknown/unknown"),
        Some("application/unknown"),
    ] {
        assert_eq!(computed(&verdict(200, ct, RSS)), "text/xml", "{ct:?}");
        assert_eq!(
            computed(&verdict(200, ct, b"\xEF\xBB\xBF<?xml version=\"1.0\"?><rss/>")),
            "text/xml",
            "{ct:?}"
        );
        assert_eq!(computed(&verdict(200, ct, RSS_NO_DECL)), "application/rss+xml", "{ct:?}");
        assert_eq!(computed(&verdict(200, ct, HTML_PAGE)), "not xml: text/html", "{ct:?}");
        assert_eq!(
            computed(&verdict(200, ct, b"\x00\x01\x02binary")),
            "not xml: application/octet-stream",
            "{ct:?}"
        );
    }
}

#[test]
fn content_type_charset_is_the_transport_label() {
    let body = b"<?xml version=\"1.0\" encoding=\"utf-8\"?><rss><channel><title>\xC7\xE8\xEC\xE0</title></channel></rss>";
    let ResponseVerdict::Xml { decoded, .. } =
        verdict(200, Some("application/rss+xml; charset=\"windows-1251\""), body)
    else {
        panic!()
    };
    assert_eq!(decoded.encoding.name(), "windows-1251");
    assert_eq!(decoded.source, EncodingSource::Transport);
    assert!(decoded.text.contains("<title>Зима</title>"));
    // The declaration is left as written.
    assert!(decoded.text.starts_with("<?xml version=\"1.0\" encoding=\"utf-8\"?>"));

    // An unknown charset falls through to the declaration, with a note.
    let body = b"<?xml version=\"1.0\" encoding=\"iso-8859-1\"?><rss><title>caf\xE9</title></rss>";
    let ResponseVerdict::Xml { decoded, .. } =
        verdict(200, Some("text/xml; charset=no-such-charset"), body)
    else {
        panic!()
    };
    assert_eq!(decoded.encoding.name(), "windows-1252");
    assert_eq!(decoded.source, EncodingSource::XmlDeclaration);
    assert!(decoded.text.contains("café"));
    assert_eq!(decoded.notes.len(), 1, "{:?}", decoded.notes);
}

#[test]
fn invalid_bytes_are_replaced_and_located() {
    let body = b"<rss><title>ok \xFF\xFE bad</title></rss>";
    let ResponseVerdict::Xml { decoded, .. } = verdict(200, Some("application/rss+xml"), body)
    else {
        panic!()
    };
    assert_eq!(decoded.malformed, Some(15));
    assert_eq!(decoded.malformed_count, 2);
    assert!(decoded.text.contains("ok \u{FFFD}\u{FFFD} bad"));
}

// ---------------------------------------------------------------------------------------------
// Robustness
// ---------------------------------------------------------------------------------------------

fn check_invariants(body: &[u8], label: Option<&str>) {
    let d = decode(body, label);
    assert!(!d.text.starts_with('\u{FEFF}'), "{body:?} {label:?}");
    if let Some(m) = d.malformed {
        assert!(m < body.len(), "{body:?} {label:?}: offset {m}");
        assert!(d.malformed_count >= 1);
    } else {
        assert_eq!(d.malformed_count, 0);
    }
    for ct in [
        None,
        Some("text/html"),
        Some("text/plain"),
        Some("application/xml; charset=utf-16"),
        Some("text/xml;charset=\""),
    ] {
        for status in [200, 404] {
            let _ = prepare_response(&Response { status, content_type: ct, url: None, body });
        }
    }
}

#[test]
fn never_panics_on_garbage() {
    let mut samples: Vec<Vec<u8>> = vec![
        vec![],
        b"\xEF".to_vec(),
        b"\xEF\xBB".to_vec(),
        b"\xEF\xBB\xBF".to_vec(),
        b"\xFF".to_vec(),
        b"\xFF\xFE".to_vec(),
        b"\xFE\xFF".to_vec(),
        b"\xFF\xFE<".to_vec(),
        b"\xFE\xFF\x00".to_vec(),
        b"\xFF\xFE\x00\xD8".to_vec(), // lone high surrogate
        b"<\0?\0x\0m\0l\0 \0e\0n\0c\0".to_vec(),
        b"\0<\0?\0x\0m".to_vec(),
        b"<\0".to_vec(),
        b"\0<".to_vec(),
        vec![0xFF; 10_000],
        vec![0x00; 4096],
        b"<?xml".to_vec(),
        b"<?xml ".to_vec(),
        b"<?xml encoding".to_vec(),
        b"<?xml encoding=".to_vec(),
        b"<?xml encoding=\"".to_vec(),
        b"<?xml encoding='utf-16".to_vec(),
        b"<?xml version='1.0' encoding='\xFF\xFE'?>".to_vec(),
        b"<!--".to_vec(),
        b"<!".to_vec(),
        b"<?".to_vec(),
        b"<rdf:RDF".to_vec(),
        b"<rdf:RDF http://purl.org/rss/1.0/".to_vec(),
    ];
    samples.push([b"<?xml version='1.0' encoding='".as_slice(), &[b'a'; 5000], b"'?>"].concat());
    samples.push([b"<!--".as_slice(), &[b'-'; 3000]].concat());
    let labels = [
        None,
        Some(""),
        Some("utf-16"),
        Some("utf-16be"),
        Some("shift_jis"),
        Some("iso-2022-jp"),
        Some("replacement"),
        Some("x-user-defined"),
        Some("\u{0}\u{FFFD}"),
    ];
    for body in &samples {
        for label in labels {
            check_invariants(body, label);
        }
    }
    // Pseudo-random bodies over an alphabet of interesting fragments (deterministic LCG).
    let fragments: &[&[u8]] = &[
        b"<",
        b">",
        b"?",
        b"!",
        b"--",
        b"<?xml ",
        b"encoding=",
        b"'",
        b"\"",
        b"utf-16",
        b"koi8-r",
        b"\0",
        b"\xFF",
        b"\xFE",
        b"\xEF\xBB\xBF",
        b"\xC3",
        b"\x82\xA0",
        b"\x1B$B",
        b"rss",
        b"feed",
        b"rdf:RDF",
        b" ",
        b"http://purl.org/rss/1.0/",
        b"http://www.w3.org/1999/02/22-rdf-syntax-ns#",
        b"\xED\xA0\x80",
    ];
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 33) as usize
    };
    for _ in 0..3000 {
        let n = next() % 24;
        let body: Vec<u8> =
            (0..n).flat_map(|_| fragments[next() % fragments.len()].iter().copied()).collect();
        let label = labels[next() % labels.len()];
        check_invariants(&body, label);
    }
}
