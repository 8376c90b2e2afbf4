//! `feedmill lint`'s human and CI outputs (docs/lint.md, "Outputs"): the text report (one
//! block per finding: where, what, the offending line, the rule's reference) and SARIF 2.1.0
//! (one run; the message classes as rules; a result per finding; the records not linted as
//! the invocation's notifications). Both are written record by record on the workers, in
//! input order, like the JSON lines; each finding's block is bounded: the message's
//! parameters and the excerpt are cut by the lint, the source is the record's.

use std::io::{self, Write};
use std::ops::ControlFlow;
use std::sync::atomic::Ordering;

use feedmill::bulk::{self, Config, Input, Progress, Summary};
use feedmill::lint::{messages, Code, Finding};
use feedmill::record::{RecordView, Status};
use feedmill::Severity;
use serde_json::json;

/// The documentation page of a message class: for a Feed Validator class, its `docs/error/`
/// or `docs/warning/` page, by the class's severity (the validator's own links); for a class
/// of feedmill's (JSON Feed), its rule set's reference.
pub fn doc_url(code: Code) -> String {
    if !code.is_validator_class() {
        return code.reference().to_owned();
    }
    let dir = match code.severity() {
        Severity::Error => "error",
        Severity::Warning | Severity::Info => "warning",
    };
    format!("https://validator.w3.org/feed/docs/{dir}/{}.html", code.name())
}

/// `s` with control characters (C0, DEL, C1) escaped as Rust writes them (`\t`, `\u{1b}`),
/// and the width in characters of its first `upto` characters once escaped.
fn escape_controls(s: &str, upto: usize) -> (String, usize) {
    let mut out = String::with_capacity(s.len());
    let mut width = 0;
    for (i, c) in s.chars().enumerate() {
        let written = if c.is_control() {
            let escaped = c.escape_default();
            let n = escaped.len();
            out.extend(escaped);
            n
        } else {
            out.push(c);
            1
        };
        if i < upto {
            width += written;
        }
    }
    (out, width)
}

/// The text report's block for one finding:
///
/// ```text
/// feed.xml:4:3: error MissingDescription: Missing channel element: description
///     |   <channel>
///     |   ^
///     = Profile 4.1.1 channel; https://validator.w3.org/feed/docs/error/MissingDescription.html
/// ```
pub fn write_text_finding(out: &mut Vec<u8>, source: &str, f: &Finding) {
    let (message, _) = escape_controls(&f.message(), 0);
    let _ = writeln!(
        out,
        "{source}:{}:{}: {} {}: {message}",
        f.line,
        f.column,
        f.severity().as_str(),
        f.code.name()
    );
    let at = f.excerpt_column.saturating_sub(1) as usize;
    let (excerpt, width) = escape_controls(&f.excerpt, at);
    let _ = writeln!(out, "    | {excerpt}\n    | {:width$}^", "");
    // A Profile rule's section is a number (`4.1.1 channel`); an Atom rule's names its RFC
    // (`RFC 4287 4.1.1 atom:feed`), an iTunes rule's Apple (`Apple Podcasts itunes:category`).
    let spec = if f.section.starts_with(|c: char| c.is_ascii_digit()) { "Profile " } else { "" };
    let _ = writeln!(out, "    = {spec}{}; {}", f.section, doc_url(f.code));
}

/// Why a record was not linted: `not linted (STATUS)`, with its error's kind where that
/// says more than the status (`error: too_large`), then its error's message.
fn not_linted(rec: &RecordView<'_, '_>) -> String {
    let status = rec.status.as_str();
    let mut why = match rec.error.map(|e| e.kind).filter(|k| *k != status) {
        Some(kind) => format!("not linted ({status}: {kind})"),
        None => format!("not linted ({status})"),
    };
    if let Some(e) = rec.error.filter(|e| !e.message.is_empty()) {
        why.push_str(": ");
        why.push_str(e.message);
    }
    why
}

/// The text report of one record: its findings' blocks; a line for a record that was not
/// linted ([`not_linted`]) and for findings past `--max-diagnostics`.
pub fn write_text_record(out: &mut Vec<u8>, rec: &RecordView<'_, '_>) {
    let (source, _) = escape_controls(rec.source, 0);
    if rec.status != Status::Ok {
        let (why, _) = escape_controls(&not_linted(rec), 0);
        let _ = writeln!(out, "{source}: {why}");
        return;
    }
    let Some(report) = rec.lint else { return };
    for f in &report.findings {
        write_text_finding(out, &source, f);
    }
    if report.dropped > 0 {
        let _ = writeln!(out, "{source}: {} more findings (--max-diagnostics)", report.dropped);
    }
}

/// `s` as a URI reference: every byte but unreserved characters and `/ @ ! $ & ' ( ) * + , ;
/// =` percent-encoded (`:` too, so that a first path segment is never read as a scheme).
pub fn uri_reference(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/@!$&'()*+,;=".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// The SARIF document up to its results: the tool with every message class as a rule
/// (`ruleIndex` is the class's place in [`messages::ALL`]).
fn sarif_head() -> Vec<u8> {
    let rules: Vec<_> = messages::ALL
        .iter()
        .map(|&c| {
            let text = match c.template() {
                "" => c.name(),
                t => t,
            };
            json!({
                "id": c.name(),
                "name": c.name(),
                "shortDescription": {"text": text},
                "helpUri": doc_url(c),
                "defaultConfiguration": {"level": level(c.severity())},
                "properties": {
                    "parent": c.parent(),
                    "family": c.family(),
                    "reference": c.reference(),
                },
            })
        })
        .collect();
    let tool = json!({"driver": {
        "name": "feedmill",
        "version": env!("CARGO_PKG_VERSION"),
        "informationUri": INFORMATION_URI,
        "rules": rules,
    }});
    let mut head = br#"{"$schema":"https://json.schemastore.org/sarif-2.1.0.json","version":"2.1.0","runs":[{"tool":"#.to_vec();
    serde_json::to_writer(&mut head, &tool).expect("JSON of a value");
    head.extend_from_slice(br#","columnKind":"unicodeCodePoints","results":["#);
    head
}

/// The tool's documentation: the lint's page (each rule names its rule set's reference in
/// its `properties`).
const INFORMATION_URI: &str = "https://github.com/feedmill/feedmill/blob/main/docs/lint.md";

/// Ends the run's notifications, its invocation and the log.
const SARIF_TAIL: &[u8] = b"]}]}]}\n";

/// Most records not linted of each level (`error`: not read; `note`: not a feed) that get a
/// notification of their own in a SARIF log, within [`SARIF_NOTIFICATION_BYTES`]; the
/// others are counted in a last notification of their level. The notifications are held
/// until the end of the run, so this bounds them whatever the share of non-feed records in
/// the input (a crawl's WARC), and an unreadable record after many pages still has its own.
pub const SARIF_NOTIFICATIONS: usize = 1000;

/// Most bytes of the notifications kept (see [`SARIF_NOTIFICATIONS`]).
pub const SARIF_NOTIFICATION_BYTES: usize = 16 << 20;

/// Encloses a record's notification in the bytes [`write_sarif_record`] writes (a step
/// fills a batch of records; this byte is never in JSON text, which escapes control
/// characters). The first byte enclosed is its level: [`ERROR`] or [`NOTE`].
const NOTIFICATION: u8 = 0;
const ERROR: u8 = b'e';
const NOTE: u8 = b'n';

/// The SARIF results of one record, each preceded by a comma (the first of the document is
/// dropped by the writer); a record not linted gets instead a tool execution notification
/// (`error` for a record that could not be read, `note` for one that is not a feed or a
/// revisit), enclosed in [`NOTIFICATION`] bytes after its level.
pub fn write_sarif_record(out: &mut Vec<u8>, rec: &RecordView<'_, '_>) {
    if rec.status != Status::Ok {
        let (mark, level) = match rec.status {
            Status::Error => (ERROR, "error"),
            _ => (NOTE, "note"),
        };
        let notification = json!({
            "level": level,
            "message": {"text": not_linted(rec)},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": uri_reference(rec.source)},
            }}],
        });
        out.extend([NOTIFICATION, mark]);
        serde_json::to_writer(&mut *out, &notification).expect("JSON of a value");
        out.push(NOTIFICATION);
        return;
    }
    let Some(report) = rec.lint else { return };
    if report.findings.is_empty() {
        return;
    }
    let uri = uri_reference(rec.source);
    for f in &report.findings {
        let params: serde_json::Map<_, _> =
            f.params.iter().map(|(k, v)| ((*k).to_owned(), json!(&**v))).collect();
        let result = json!({
            "ruleId": f.code.name(),
            "ruleIndex": f.code as usize,
            "level": level(f.severity()),
            "message": {"text": f.message()},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": uri},
                "region": {"startLine": f.line, "startColumn": f.column},
                "contextRegion": {"startLine": f.line, "snippet": {"text": &*f.excerpt}},
            }}],
            "properties": {
                "section": f.section,
                "reference": f.reference(),
                "offset": f.offset,
                "parameters": params,
            },
        });
        out.push(b',');
        serde_json::to_writer(&mut *out, &result).expect("JSON of a value");
    }
}

/// The SARIF notifications of the records not linted, in input order: of each level, the
/// first [`SARIF_NOTIFICATIONS`] within [`SARIF_NOTIFICATION_BYTES`] in all, then a count
/// of the others.
#[derive(Default)]
struct Notifications {
    json: Vec<u8>,
    /// Notifications kept, and records only counted: errors, notes.
    kept: [usize; 2],
    more: [u64; 2],
}

impl Notifications {
    /// Adds a notification as [`write_sarif_record`] enclosed it: its level, then its JSON.
    fn add(&mut self, enclosed: &[u8]) {
        let Some((&mark, notification)) = enclosed.split_first() else { return };
        let i = usize::from(mark != ERROR);
        let room = self.json.len() + notification.len() < SARIF_NOTIFICATION_BYTES;
        if self.kept[i] == SARIF_NOTIFICATIONS || !room {
            self.more[i] += 1;
            return;
        }
        if !self.json.is_empty() {
            self.json.push(b',');
        }
        self.json.extend_from_slice(notification);
        self.kept[i] += 1;
    }

    /// The notifications, comma-separated; after them, per level, the count of the others.
    fn finish(mut self) -> Vec<u8> {
        for (i, (level, what)) in [("error", "not read"), ("note", "not feeds")].iter().enumerate()
        {
            if self.more[i] == 0 {
                continue;
            }
            let text = format!(
                "{} more records not linted ({what}): a notification is written for the first \
                 {SARIF_NOTIFICATIONS} of each level, within {SARIF_NOTIFICATION_BYTES} bytes",
                self.more[i]
            );
            if !self.json.is_empty() {
                self.json.push(b',');
            }
            let more = json!({"level": level, "message": {"text": text}});
            serde_json::to_writer(&mut self.json, &more).expect("JSON of a value");
        }
        self.json
    }
}

/// The lint report formats written here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    Text,
    Sarif,
}

/// Runs the lint over `inputs` into `out` in `style`, records in input order.
pub fn run(
    inputs: Vec<Input>,
    cfg: &Config,
    style: Style,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(Progress),
) -> io::Result<Summary> {
    let make_step = || {
        move |rec: &RecordView<'_, '_>, buf: &mut Vec<u8>| match style {
            Style::Text => write_text_record(buf, rec),
            Style::Sarif => write_sarif_record(buf, rec),
        }
    };
    let mut first = true;
    if style == Style::Sarif {
        out.write_all(&sarif_head())?;
    }
    let mut notifications = Notifications::default();
    let mut write = |buf: &mut Vec<u8>| {
        if style != Style::Sarif {
            return out.write_all(buf).map(|()| ControlFlow::Continue(()));
        }
        // Results and enclosed notifications alternate in the batch.
        for (i, part) in buf.split(|&b| b == NOTIFICATION).enumerate() {
            if i % 2 == 1 {
                notifications.add(part);
            } else if !part.is_empty() {
                let results = if first { &part[1..] } else { part };
                first = false;
                out.write_all(results)?;
            }
        }
        Ok(ControlFlow::Continue(()))
    };
    let summary = bulk::run_with(inputs, cfg, make_step, &mut write, progress)?;
    if style == Style::Sarif {
        // A run stopped by a signal has not linted every record.
        let stopped = cfg.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed));
        out.write_all(b"],\"invocations\":[{")?;
        write!(out, "\"executionSuccessful\":{},", !stopped)?;
        out.write_all(b"\"toolExecutionNotifications\":[")?;
        out.write_all(&notifications.finish())?;
        out.write_all(SARIF_TAIL)?;
    }
    out.flush()?;
    Ok(summary)
}
