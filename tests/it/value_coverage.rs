//! Value coverage: every value an XML feed document carries reaches its record. For each
//! document of the project's corpus (`corpus/real/`, the conformance cases of
//! `corpus/conformance/tests-web/*.dat`, the XML files under `corpus/fixtures/` but the lint
//! fixtures, made invalid on purpose), the test
//! walks the document's leaf element texts and attribute values and looks for each in the
//! record the default mode gives (`serde_json` of the feed: the JSON Lines record's `feed`,
//! extraction off), *by meaning*:
//!
//! - text after entity decoding, whitespace collapse and case folding;
//! - HTML after reducing both sides to text (tags dropped, entities decoded);
//! - dates by instant (RFC 3339, W3C-DTF, RFC 822 and the lenient forms), durations
//!   (`h:m:s`) and numbers by value, `yes`/`no`/`true`/`false` as booleans;
//! - URLs as written, or resolved against the `xml:base` in scope, or normalized;
//! - a list written in one value (`a, b`, `mail (name)`, `k1 k2`) by each of its pieces.
//!
//! What is not walked, and why (counted in the table): namespace declarations (`xmlns`,
//! `xmlns:*`: they name namespaces, not values); `xml:base` (applied to the URLs in its scope,
//! which are checked resolved); empty and whitespace-only values (nothing to carry); the text of
//! an element that also has child elements (mixed content: not a leaf); XHTML content
//! (`type="xhtml"` or an element in the XHTML namespace) is one value, its whole text, not one
//! per leaf; documents that are not feeds (no record carries values; `nonfeed.dat`, the
//! non-feed fixtures); the rest of a document after a point where it is not well-formed XML
//! (the parser's recovery reads on, this walker does not).
//!
//! A value not found is a miss, classified by reason: `invalid` when a diagnostic of the
//! record quotes it (left out as the spec says, and said so), `spec` for the values the spec
//! reads and defines as dropped (see `spec_reason`), `hostile` for the safety fixtures'
//! entities, `loss` otherwise. The table of figures and misses is `docs/coverage.md`, written
//! by this test with `GOLDEN_BLESS=1`; the test fails when coverage is below the recorded
//! figure, or when a miss appears that the table does not list.

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use feedmill::model::date::{parse_rfc3339, parse_rfc822, parse_w3cdtf};
use feedmill::model::lenient_date::parse_lenient;
use feedmill::{Options, Parser};
use quick_xml::events::Event;
use quick_xml::name::ResolveResult;
use quick_xml::NsReader;
use serde_json::Value;
use url::Url;

const XHTML: &str = "http://www.w3.org/1999/xhtml";
const MEDIA: &str = "http://search.yahoo.com/mrss/";

/// One value of a document: where it is (element path, `@attr` for an attribute), its text
/// after entity decoding, and the `xml:base` in scope.
struct DocValue {
    path: String,
    text: String,
    base: Option<Url>,
    /// For an attribute: its element's attributes (name, value).
    siblings: Vec<(String, String)>,
}

/// What the walk left out, by reason.
#[derive(Default)]
struct Skipped {
    namespace_declarations: usize,
    xml_base: usize,
    xml_space: usize,
    empty: usize,
    mixed_content: usize,
    not_well_formed: usize,
}

/// Decodes a general entity reference (`amp`, `#38`, `#x26`, an HTML name); `None` for an
/// unknown name.
fn entity(name: &str) -> Option<String> {
    if let Some(num) = name.strip_prefix('#') {
        let code = match num.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => num.parse().ok()?,
        };
        return char::from_u32(code).map(String::from);
    }
    let (a, b) = markup5ever::data::NAMED_ENTITIES.get(format!("{name};").as_str())?;
    let mut s = String::new();
    s.extend(char::from_u32(*a));
    if *b != 0 {
        s.extend(char::from_u32(*b));
    }
    Some(s)
}

/// Walks `doc`, returning its values.
fn walk(doc: &str, skipped: &mut Skipped) -> Vec<DocValue> {
    struct Frame {
        path: String,
        base: Option<Url>,
        text: String,
        has_child: bool,
        /// XHTML content: the whole subtree is one value.
        opaque: bool,
    }
    let mut reader = NsReader::from_str(doc);
    reader.config_mut().check_end_names = false;
    let mut values = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    // Inside XHTML content: the depth below the opaque element.
    let mut opaque_depth = 0usize;
    loop {
        let (ns, event) = match reader.read_resolved_event() {
            Ok((ns, e)) => (
                match ns {
                    ResolveResult::Bound(n) => n.as_ref().to_owned(),
                    _ => String::new(),
                },
                e,
            ),
            Err(_) => {
                skipped.not_well_formed += 1;
                break;
            }
        };
        match event {
            Event::Start(ref e) | Event::Empty(ref e) => {
                let empty = matches!(event, Event::Empty(_));
                if let Some(top) = stack.last_mut() {
                    top.has_child = true;
                }
                if opaque_depth > 0 {
                    if !empty {
                        opaque_depth += 1;
                    }
                    // A tag inside XHTML content separates words, as in `html_text`.
                    if let Some(top) = stack.last_mut() {
                        top.text.push(' ');
                    }
                    continue;
                }
                let name = e.name().as_ref().to_owned();
                let parent = stack.last();
                let path = match parent {
                    Some(p) => format!("{}/{name}", p.path),
                    None => name.clone(),
                };
                let mut base = parent.and_then(|p| p.base.clone());
                let mut attrs = Vec::new();
                // Text constructs and HTML containers are one value, markup included (RSS
                // `description` with unescaped markup, Atom `content`, XHTML `body`).
                let local = name.rsplit(':').next().unwrap_or("");
                let mut opaque = ns == XHTML
                    || (ns != MEDIA
                        && matches!(
                            local,
                            "title"
                                | "description"
                                | "summary"
                                | "content"
                                | "subtitle"
                                | "tagline"
                                | "rights"
                                | "copyright"
                                | "encoded"
                                | "body"
                                | "info"
                        ));
                for a in e.attributes().with_checks(false).flatten() {
                    let key = a.key.as_ref().to_owned();
                    let value = decode_entities(&a.value);
                    if key == "xmlns" || key.starts_with("xmlns:") {
                        skipped.namespace_declarations += 1;
                    } else if key == "xml:space" {
                        skipped.xml_space += 1;
                    } else if key == "xml:base" {
                        skipped.xml_base += 1;
                        base = match &base {
                            Some(b) => b.join(value.trim()).ok().or(Some(b.clone())),
                            None => Url::parse(value.trim()).ok(),
                        };
                    } else {
                        if key == "type" && value.trim().eq_ignore_ascii_case("xhtml") {
                            opaque = true;
                        }
                        attrs.push((key, value));
                    }
                }
                for (key, text) in &attrs {
                    if text.trim().is_empty() {
                        skipped.empty += 1;
                    } else {
                        values.push(DocValue {
                            path: format!("{path}/@{key}"),
                            text: text.clone(),
                            base: base.clone(),
                            siblings: attrs.clone(),
                        });
                    }
                }
                if empty {
                    continue;
                }
                if opaque {
                    opaque_depth = 1;
                }
                stack.push(Frame { path, base, text: String::new(), has_child: false, opaque });
            }
            Event::End(_) => {
                if opaque_depth > 1 {
                    opaque_depth -= 1;
                    if let Some(top) = stack.last_mut() {
                        top.text.push(' ');
                    }
                    continue;
                }
                opaque_depth = 0;
                let Some(f) = stack.pop() else { continue };
                if f.text.trim().is_empty() {
                    if !f.has_child || f.opaque {
                        skipped.empty += 1;
                    }
                } else if f.has_child && !f.opaque {
                    skipped.mixed_content += 1;
                } else {
                    values.push(DocValue {
                        path: f.path,
                        text: f.text,
                        base: f.base,
                        siblings: Vec::new(),
                    });
                }
            }
            Event::Text(t) => {
                if let Some(top) = stack.last_mut() {
                    top.text.push_str(&t.xml10_content());
                }
            }
            Event::CData(t) => {
                if let Some(top) = stack.last_mut() {
                    top.text.push_str(&t.xml10_content());
                }
            }
            Event::GeneralRef(r) => {
                if let Some(top) = stack.last_mut() {
                    let name = r.xml10_content();
                    match entity(&name) {
                        Some(s) => top.text.push_str(&s),
                        None => {
                            let _ = write!(top.text, "&{name};");
                        }
                    }
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    values
}

/// Whitespace collapsed, case folded.
fn norm(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

/// Entity references decoded (an unknown one kept as written).
fn decode_entities(s: &str) -> String {
    reduce(s, false)
}

/// HTML reduced to its text: tags dropped (as a space), entities decoded, then [`norm`].
fn html_text(s: &str) -> String {
    norm(&reduce(s, true))
}

fn reduce(s: &str, tags: bool) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    let stops: &[char] = if tags { &['<', '&'] } else { &['&'] };
    while let Some(i) = rest.find(stops) {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        if rest.starts_with('<') {
            match rest.find('>') {
                Some(j) => {
                    out.push(' ');
                    rest = &rest[j + 1..];
                }
                None => {
                    out.push_str(rest);
                    rest = "";
                }
            }
        } else {
            let decoded = rest
                .find(';')
                .filter(|&j| j < 40)
                .and_then(|j| entity(&rest[1..j]).map(|s| (s, j)));
            match decoded {
                Some((s, j)) => {
                    out.push_str(&s);
                    rest = &rest[j + 1..];
                }
                None => {
                    out.push('&');
                    rest = &rest[1..];
                }
            }
        }
    }
    out.push_str(rest);
    out
}

fn instant(s: &str) -> Option<String> {
    let s = s.trim();
    let t = parse_rfc3339(s)
        .or_else(|| parse_w3cdtf(s))
        .or_else(|| parse_rfc822(s))
        .or_else(|| parse_lenient(s).map(|d| d.timestamp))?;
    Some(format!("t:{}", t.unix_seconds()))
}

fn number(s: &str) -> Option<String> {
    let v: f64 = s.trim().parse().ok()?;
    v.is_finite().then(|| format!("n:{v}"))
}

/// `h:m:s`, `m:s` as seconds.
fn duration(s: &str) -> Option<String> {
    let parts: Vec<&str> = s.trim().split(':').collect();
    if parts.len() < 2 || parts.len() > 3 {
        return None;
    }
    let mut secs = 0f64;
    for p in parts {
        secs = secs * 60.0 + p.trim().parse::<f64>().ok()?;
    }
    Some(format!("n:{secs}"))
}

fn boolean(s: &str) -> Option<String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "yes" | "true" | "explicit" => Some("b:true".into()),
        "no" | "false" | "clean" => Some("b:false".into()),
        _ => None,
    }
}

/// Every form under which a record carries a value.
fn record_forms(v: &Value, forms: &mut HashSet<String>) {
    match v {
        Value::String(s) => {
            forms.insert(norm(s));
            forms.insert(html_text(s));
            if let Some(t) = instant(s) {
                forms.insert(t);
            }
            if let Some(n) = number(s) {
                forms.insert(n);
            }
            if let Ok(u) = Url::parse(s) {
                forms.insert(norm(u.as_str()));
            }
        }
        Value::Number(n) => {
            if let Some(f) = n.as_f64() {
                forms.insert(format!("n:{f}"));
                forms.insert(norm(&n.to_string()));
            }
        }
        Value::Bool(b) => {
            forms.insert(format!("b:{b}"));
        }
        Value::Array(a) => a.iter().for_each(|x| record_forms(x, forms)),
        Value::Object(o) => o.values().for_each(|x| record_forms(x, forms)),
        Value::Null => {}
    }
}

/// Whether the value (or a piece of it) is among the record's forms.
fn found_whole(text: &str, base: Option<&Url>, forms: &HashSet<String>) -> bool {
    let n = norm(text);
    if n.is_empty() || forms.contains(&n) || forms.contains(&html_text(text)) {
        return true;
    }
    let typed = [instant(text), number(text), duration(text), boolean(text)];
    if typed.into_iter().flatten().any(|f| forms.contains(&f)) {
        return true;
    }
    let t = text.trim();
    let resolved = match base {
        Some(b) => b.join(t).ok(),
        None => Url::parse(t).ok(),
    };
    resolved.is_some_and(|u| forms.contains(&norm(u.as_str())))
}

/// Text that is UTF-8 read as windows-1252 and written again (the parser repairs it: the
/// `double_utf8` recovery rule): `None` when it is not that.
fn demojibake(text: &str) -> Option<String> {
    let (bytes, _, unmappable) = encoding_rs::WINDOWS_1252.encode(text);
    if unmappable || bytes.is_ascii() {
        return None;
    }
    String::from_utf8(bytes.into_owned()).ok()
}

fn found(text: &str, base: Option<&Url>, forms: &HashSet<String>) -> bool {
    found_as_written(text, base, forms)
        || demojibake(text).is_some_and(|t| found_as_written(&t, base, forms))
}

fn found_as_written(text: &str, base: Option<&Url>, forms: &HashSet<String>) -> bool {
    if found_whole(text, base, forms) {
        return true;
    }
    // A list written in one value: each piece found.
    let separators: &[char] = &[',', ';', '(', ')', '<', '>', '|', '\n'];
    for split in [separators, &[' ', '\t', '\n', ',', ';'][..]] {
        let pieces: Vec<&str> =
            text.split(split).map(str::trim).filter(|p| !p.is_empty()).collect();
        if pieces.len() > 1 && pieces.iter().all(|p| found_whole(p, base, forms)) {
            return true;
        }
    }
    false
}

/// Whether the value's meaning is the record key it selects: the `rel` of a link of one of
/// the spec's relations whose `href` the record has (`page_url`, `feed_url`, …).
fn carried_by_key(v: &DocValue, forms: &HashSet<String>) -> bool {
    // A text construct's `type` (Atom 0.3: also `mode`) says how its text is read: the record
    // holds the text so read, and its `*_type` key says `text` or `html` (XHTML is serialized
    // as HTML, spec [72], [80]).
    let construct =
        ["title", "subtitle", "tagline", "summary", "content", "rights", "info"].iter().any(|c| {
            v.path.ends_with(&format!("/{c}/@type")) || v.path.ends_with(&format!("/{c}/@mode"))
        });
    let how = matches!(
        v.text.trim().to_ascii_lowercase().as_str(),
        "text"
            | "html"
            | "xhtml"
            | "text/plain"
            | "text/html"
            | "application/xhtml+xml"
            | "escaped"
            | "xml"
            | "base64"
    );
    if construct && how && (forms.contains("html") || forms.contains("text")) {
        return true;
    }
    let spec_rel =
        matches!(v.text.trim(), "alternate" | "self" | "previous" | "prev" | "next" | "enclosure");
    spec_rel
        && v.path.ends_with("link/@rel")
        && v.siblings.iter().any(|(k, h)| k == "href" && found(h, v.base.as_ref(), forms))
}

/// Cleanup entry step 2 (spec [262]): the first image enclosure of an entry with a page URL
/// becomes its thumbnail; the enclosure's `type` and `length` go with it.
fn image_enclosure(v: &DocValue, forms: &HashSet<String>) -> bool {
    let attr = v.path.ends_with("enclosure/@type") || v.path.ends_with("enclosure/@length");
    let url = v.siblings.iter().find(|(k, _)| k == "url").map(|(_, u)| u.trim());
    let ty = v.siblings.iter().find(|(k, _)| k == "type").map(|(_, t)| t.trim());
    let image = match ty {
        Some(t) => t.to_ascii_lowercase().starts_with("image/"),
        None => url.is_some_and(|u| [".jpeg", ".jpg", ".png"].iter().any(|x| u.ends_with(x))),
    };
    attr && image && url.is_some_and(|u| found(u, v.base.as_ref(), forms))
}

/// Why a value is not in the record.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Reason {
    /// A conformance case whose expected record (the spec's answer) lacks the value too.
    SpecSuite,
    /// Cleanup entry step 2: an image enclosure's `type` and `length`.
    SpecCleanup,
    /// Escaped HTML with no significant content (a 1×1 tracking image, removed by [113]).
    SpecNoContent,
    /// Left out with a diagnostic that quotes it (not a valid value of its element).
    Invalid,
    /// The hostile fixtures: entities the parser refuses to expand.
    Hostile,
    /// `xml:lang` on the root of an RSS document (the record's `language` is the element's).
    XmlLang,
    /// Lost: no rule drops it.
    Loss,
}

impl Reason {
    fn name(self) -> &'static str {
        match self {
            Reason::SpecSuite => "spec (suite)",
            Reason::SpecCleanup => "spec (cleanup)",
            Reason::SpecNoContent => "spec (no content)",
            Reason::Invalid => "invalid",
            Reason::Hostile => "hostile",
            Reason::XmlLang => "xml:lang",
            Reason::Loss => "loss",
        }
    }

    fn why(self) -> &'static str {
        match self {
            Reason::SpecSuite => {
                "a conformance case: the spec's expected record lacks the value as well (an \
                 invalid or ignored value the spec drops)"
            }
            Reason::SpecCleanup => {
                "cleanup entry step 2 [262]: an entry's first image enclosure becomes its \
                 thumbnail (the URL), its `type` and `length` go"
            }
            Reason::SpecNoContent => {
                "escaped HTML whose only content is a 1×1 image: sanitize removes it [113], and \
                 HTML with no significant content is null [111]"
            }
            Reason::Invalid => {
                "not a valid value of its element: left out with a diagnostic that quotes it"
            }
            Reason::Hostile => "the hostile fixtures: entities the parser refuses to expand",
            Reason::XmlLang => {
                "`xml:lang` on the root of an RSS document: the record's `language` is RSS \
                 `language` / `dc:language` (Atom: the root's `xml:lang`; a content's own \
                 language is its `content_language`)"
            }
            Reason::Loss => "no rule drops it: a loss to fix",
        }
    }
}

struct Miss {
    source: String,
    path: String,
    value: String,
    reason: Reason,
}

#[derive(Default)]
struct Tally {
    documents: usize,
    not_feeds: usize,
    values: usize,
    misses: Vec<Miss>,
    skipped: Skipped,
}

impl Tally {
    /// Walks one document; `expected` is a conformance case's expected record (JSON).
    fn document(
        &mut self,
        source: &str,
        doc_bytes: &[u8],
        base: Option<&str>,
        expected: Option<&str>,
    ) {
        let mut parser = Parser::new(Options::default());
        let Ok(parsed) = parser.parse_bytes(doc_bytes, base) else {
            self.not_feeds += 1;
            return;
        };
        let Some(feed) = parsed.feed.as_ref() else {
            self.not_feeds += 1;
            return;
        };
        self.documents += 1;
        let record = serde_json::to_value(feed).unwrap();
        if std::env::var("COVERAGE_SHOW").is_ok_and(|s| source.ends_with(&s)) {
            println!("{}", serde_json::to_string_pretty(&record).unwrap());
        }
        let mut forms = HashSet::new();
        record_forms(&record, &mut forms);
        let encoding = parsed.encoding.unwrap_or(encoding_rs::UTF_8);
        let (text, _, _) = encoding.decode(doc_bytes);
        let doc_base = base.and_then(|b| Url::parse(b).ok());
        let mut values = walk(&text, &mut self.skipped);
        for v in &mut values {
            v.base = match (&doc_base, v.base.take()) {
                (Some(d), Some(b)) => d.join(b.as_str()).ok(),
                (Some(d), None) => Some(d.clone()),
                (None, b) => b,
            };
        }
        let quoted: String = parsed.diagnostics.iter().map(|d| norm(&d.message)).collect();
        let expected_forms = expected.map(|e| {
            let mut f = HashSet::new();
            record_forms(&serde_json::from_str(e).unwrap_or(Value::Null), &mut f);
            f
        });
        for v in values {
            self.values += 1;
            if found(&v.text, v.base.as_ref(), &forms) || carried_by_key(&v, &forms) {
                continue;
            }
            let n = norm(&v.text);
            let reason = if source.contains("fixtures/hostile/") {
                Reason::Hostile
            } else if image_enclosure(&v, &forms) {
                Reason::SpecCleanup
            } else if v.text.contains('<')
                && html_text(&v.text).is_empty()
                && v.text.contains("1\"")
            {
                Reason::SpecNoContent
            } else if expected_forms.as_ref().is_some_and(|f| !found(&v.text, v.base.as_ref(), f)) {
                Reason::SpecSuite
            } else if n.len() > 1 && quoted.contains(&n) {
                Reason::Invalid
            } else if v.path.ends_with("@xml:lang") {
                Reason::XmlLang
            } else {
                Reason::Loss
            };
            self.misses.push(Miss {
                source: source.to_owned(),
                path: v.path,
                value: v.text,
                reason,
            });
        }
    }
}

fn xml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        // The lint fixtures are validator inputs: copies of one clean document, each with one
        // rule broken on purpose (values made invalid), so they measure the lint, not this.
        let lint = p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("lint"));
        if p.is_dir() && !lint {
            xml_files(&p, out);
        } else if p
            .extension()
            .is_some_and(|e| e == "xml" || e == "rss" || e == "atom" || e == "rdf")
        {
            out.push(p);
        }
    }
}

/// The last two steps of a path: the element (or element and attribute) a miss is listed by.
fn element(path: &str) -> String {
    let mut parts: Vec<&str> = path.rsplitn(3, '/').take(2).collect();
    parts.reverse();
    parts.join("/")
}

fn cell(s: &str) -> String {
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut c: String = s.chars().take(60).collect();
    if c.len() < s.len() {
        c.push('…');
    }
    // Control characters written visibly (`\u{0}`): the page stays text.
    let c: String = c
        .chars()
        .map(|ch| if ch.is_control() { ch.escape_unicode().to_string() } else { ch.to_string() })
        .collect();
    c.replace('|', "\\|").replace('`', "'").replace('<', "&lt;")
}

fn percent(n: usize, of: usize) -> String {
    format!("{:.2} %", 100.0 * n as f64 / of.max(1) as f64)
}

/// The table `docs/coverage.md` holds.
fn table(t: &Tally) -> String {
    let found = t.values - t.misses.len();
    let dropped_by_rule = t.misses.iter().filter(|m| m.reason != Reason::Loss).count();
    let mut by_reason: BTreeMap<Reason, usize> = BTreeMap::new();
    let mut groups: BTreeMap<(Reason, String), (usize, &Miss)> = BTreeMap::new();
    for m in &t.misses {
        *by_reason.entry(m.reason).or_default() += 1;
        groups.entry((m.reason, element(&m.path))).or_insert((0, m)).0 += 1;
    }
    let mut out = String::new();
    let s = &t.skipped;
    let _ = write!(
        out,
        "<!-- found {found} of {values} -->\n\
         | | count |\n|---|---:|\n\
         | documents walked (XML feeds) | {docs} |\n\
         | documents that are not feeds (no record; not walked) | {nf} |\n\
         | values (leaf element texts, attribute values) | {values} |\n\
         | **found in the record** | **{found} ({fp})** |\n\
         | not found | {missed} |\n\
         | found, or left out by a rule (spec, invalid, hostile, `xml:lang`) | {kept} ({kp}) |\n\n\
         Not walked:\n\n| what | count | why |\n|---|---:|---|\n\
         | namespace declarations | {ns} | they name namespaces, not values |\n\
         | `xml:base` | {base} | applied: the URLs in its scope are looked for resolved |\n\
         | `xml:space` | {space} | an instruction to the XML processor, not a value |\n\
         | empty and whitespace-only values | {empty} | nothing to carry |\n\
         | text of an element that has child elements | {mixed} | mixed content, not a leaf (text constructs and HTML containers are walked as one value instead) |\n\
         | documents cut where they are not well-formed | {nwf} | the walker stops there; the parser's recovery reads on |\n\n\
         Misses by reason:\n\n| reason | count | why |\n|---|---:|---|\n",
        docs = t.documents,
        nf = t.not_feeds,
        values = t.values,
        fp = percent(found, t.values),
        missed = t.misses.len(),
        kept = found + dropped_by_rule,
        kp = percent(found + dropped_by_rule, t.values),
        ns = s.namespace_declarations,
        base = s.xml_base,
        space = s.xml_space,
        empty = s.empty,
        mixed = s.mixed_content,
        nwf = s.not_well_formed,
    );
    for (r, n) in &by_reason {
        let _ = writeln!(out, "| {} | {n} | {} |", r.name(), r.why());
    }
    out.push_str("\nMisses by element (the last two steps of the path), with one example:\n\n");
    out.push_str("| reason | element | count | example |\n|---|---|---:|---|\n");
    let mut rows: Vec<_> = groups.into_iter().collect();
    rows.sort_by(|a, b| a.0 .0.cmp(&b.0 .0).then(b.1 .0.cmp(&a.1 .0)).then(a.0 .1.cmp(&b.0 .1)));
    for ((reason, el), (n, m)) in rows {
        let _ = writeln!(
            out,
            "| {} | `{}` | {n} | {}: {} |",
            reason.name(),
            cell(&el),
            cell(&m.source),
            cell(&m.value)
        );
    }
    out
}

#[test]
fn every_value_of_the_corpus_reaches_the_record() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut tally = Tally::default();
    let mut files = Vec::new();
    xml_files(&root.join("corpus/real"), &mut files);
    xml_files(&root.join("corpus/fixtures"), &mut files);
    for path in &files {
        let source = path.strip_prefix(root).unwrap().to_str().unwrap().to_owned();
        tally.document(&source, &std::fs::read(path).unwrap(), None, None);
    }
    for file in ["atom", "atom03", "rss1", "rss2", "nonfeed"] {
        let path = root.join(format!("corpus/conformance/tests-web/{file}.dat"));
        for case in super::conformance::read_cases(&path) {
            let source = format!("{file}.dat#{}", case.index);
            let base = Some("https://base/");
            tally.document(&source, case.data.as_bytes(), base, Some(&case.parsed));
        }
    }
    assert!(tally.documents > 550 && tally.values > 75_000, "{} {}", tally.documents, tally.values);
    let generated = table(&tally);
    let path = root.join("docs/coverage.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let (open, close) = ("<!-- generated:coverage -->\n", "<!-- /generated:coverage -->");
    let start = text.find(open).expect("docs/coverage.md: no generated region") + open.len();
    let end = start + text[start..].find(close).expect("docs/coverage.md: no region end");
    let recorded = &text[start..end];
    if std::env::var_os("GOLDEN_BLESS").is_some() {
        std::fs::write(&path, format!("{}{generated}{}", &text[..start], &text[end..])).unwrap();
        return;
    }
    let (found, values) = recorded
        .strip_prefix("<!-- found ")
        .and_then(|r| r.split_once(" -->"))
        .and_then(|(r, _)| r.split_once(" of "))
        .map(|(f, v)| (f.parse::<usize>().unwrap(), v.parse::<usize>().unwrap()))
        .expect("docs/coverage.md: no `<!-- found N of M -->`");
    let now = tally.values - tally.misses.len();
    assert!(
        now as f64 / tally.values as f64 >= found as f64 / values as f64,
        "coverage fell: {now} of {} found, {found} of {values} recorded",
        tally.values
    );
    let new: Vec<String> = tally
        .misses
        .iter()
        .filter(|m| {
            let row = format!("| {} | `{}` |", m.reason.name(), cell(&element(&m.path)));
            !recorded.contains(&row)
        })
        .map(|m| format!("{} {} {:?} ({})", m.source, m.path, m.value, m.reason.name()))
        .collect();
    assert!(new.is_empty(), "values lost that docs/coverage.md does not list:\n{}", new.join("\n"));
    if generated != recorded {
        println!(
            "docs/coverage.md is not what the corpus gives now (better: nothing lost); \
             GOLDEN_BLESS=1 cargo test --release --test it value_coverage:: rewrites it"
        );
    }
}
