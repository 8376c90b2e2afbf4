//! JSON Lines encoder: one line per input record, the record's walk
//! ([`crate::record`]) written as JSON.
//!
//! The keys, their order and their docs are the walk's (docs/record.md lists them); here is
//! only how each kind of value is written: strings escaped, integers in decimal, dates in
//! RFC 3339, a text value as a string beside its `<name>_type`, and the shared rules (a null
//! or empty value omitted, list elements never dropped).
//!
//! NOTE: this is the hot path of bulk runs. JSON is written by hand into the caller's
//! reused buffer (no `serde_json::Value` per record); strings are escaped by `json_str`
//! straight into it (SSE2 block scans; the same bytes `serde_json` writes, checked by a
//! differential test); an HTML value is serialized straight into its JSON string.

use crate::html::Html;
use crate::model::date::RFC3339_MAX_LEN;
use crate::model::fragment::serialize::{self, HtmlOut};
use crate::record::{Key, LintLine, RecordView, Shape, Visit, Walk};
use crate::sanitize::{write_sanitized_html, SanitizeOptions, SanitizedOut};
use crate::simd::block;
use crate::{Text, Timestamp};
use std::borrow::Borrow;

/// Appends the JSON object for `rec` (no newline) to `out`.
pub fn encode_record(out: &mut Vec<u8>, rec: &RecordView<'_, '_>) {
    encode(out, rec, rec.sanitize);
}

/// Appends the `feedmill lint` line of `rec` (no newline): `{source, status, error, format,
/// version, findings}`, `findings` always written (empty when the record was not linted).
pub fn encode_lint_line(out: &mut Vec<u8>, rec: &RecordView<'_, '_>) {
    let line = LintLine {
        source: rec.source,
        status: rec.status,
        error: rec.error,
        format: rec.format,
        report: rec.lint,
    };
    encode(out, &line, None);
}

fn encode(out: &mut Vec<u8>, value: &impl Walk, sanitize: Option<&SanitizeOptions>) {
    let _budget = sanitize.map(crate::sanitize::RecordUrlBudget::start);
    let mut json = Json { out, fields: 0, sanitize };
    json.out.push(b'{');
    value.walk(&mut json);
    json.out.push(b'}');
}

/// The JSON writer of a walk: the object being written is `out`'s tail, `fields` its keys
/// so far (for the commas and the "omit an empty object" rule).
struct Json<'o, 's> {
    out: &'o mut Vec<u8>,
    fields: usize,
    /// Strict sanitizing of HTML values (the record's options).
    sanitize: Option<&'s SanitizeOptions>,
}

impl Json<'_, '_> {
    /// Writes `,"key":` and returns the position before it, for [`Json::unkey`].
    #[inline(always)]
    fn key(&mut self, name: &str) -> usize {
        let at = self.out.len();
        // Keys are the walk's own names: nothing to escape.
        debug_assert!(name.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\'));
        push_key(self.out, self.fields > 0, name.as_bytes(), b"");
        self.fields += 1;
        at
    }

    /// Writes `,"<name><suffix>":` (a key a visit writes beside its own: `_type`, `_offset`,
    /// `_raw`).
    #[inline(always)]
    fn suffixed_key(&mut self, name: &str, suffix: &'static str) {
        push_key(self.out, self.fields > 0, name.as_bytes(), suffix.as_bytes());
        self.fields += 1;
    }

    /// Takes back the key written at `at` (its value turned out empty).
    fn unkey(&mut self, at: usize) {
        self.out.truncate(at);
        self.fields -= 1;
    }

    /// Writes `{` `walk` `}` as a value; returns whether the object has a key.
    #[inline(always)]
    fn object_value<T: Walk>(&mut self, v: &T) -> bool {
        let outer = std::mem::replace(&mut self.fields, 0);
        self.out.push(b'{');
        v.walk(self);
        self.out.push(b'}');
        std::mem::replace(&mut self.fields, outer) > 0
    }

    /// A list: `[` the items, each written by `item`, `]` (omitted when empty, unless the
    /// key says otherwise).
    #[inline(always)]
    fn array(&mut self, k: Key, n: usize, mut item: impl FnMut(&mut Self, usize)) {
        if n == 0 && !k.always {
            return;
        }
        self.key(k.name);
        self.out.push(b'[');
        for i in 0..n {
            if i > 0 {
                self.out.push(b',');
            }
            item(self, i);
        }
        self.out.push(b']');
    }
}

impl Visit for Json<'_, '_> {
    #[inline(always)]
    fn str(&mut self, k: Key, v: Option<&str>) {
        if let Some(v) = v.filter(|v| !v.is_empty()) {
            self.key(k.name);
            json_str(self.out, v);
        }
    }

    #[inline(always)]
    fn uint(&mut self, k: Key, v: Option<u64>) {
        if let Some(v) = v {
            self.key(k.name);
            push_uint(self.out, v);
        }
    }

    #[inline(always)]
    fn num(&mut self, k: Key, v: Option<f64>) {
        if let Some(v) = v.filter(|v| v.is_finite()) {
            self.key(k.name);
            // The shortest round-trip form (at most 24 bytes), as serde_json writes it.
            self.out.extend_from_slice(zmij::Buffer::new().format_finite(v).as_bytes());
        }
    }

    #[inline(always)]
    fn bool(&mut self, k: Key, v: Option<bool>) {
        if let Some(v) = v {
            self.key(k.name);
            self.out.extend_from_slice(if v { b"true" } else { b"false" });
        }
    }

    /// `"key":"…Z","key_offset":-300,"key_raw":"…"` (each omitted when it has no value).
    #[inline(always)]
    fn date(&mut self, k: Key, v: Option<Timestamp>, raw: Option<&str>) {
        if let Some(t) = v {
            // The date's bytes are digits and `-T:.Z`: nothing for JSON to escape (the same
            // bytes `json_str` writes), and never empty.
            self.key(k.name);
            self.out.push(b'"');
            self.out.extend_from_slice(t.format_rfc3339_bytes(&mut [0; RFC3339_MAX_LEN]));
            self.out.push(b'"');
            if let Some(m) = t.offset_minutes() {
                self.suffixed_key(k.name, "_offset");
                push_uint(self.out, i64::from(m));
            }
        }
        if let Some(raw) = raw.filter(|r| !r.is_empty()) {
            self.suffixed_key(k.name, "_raw");
            json_str(self.out, raw);
        }
    }

    /// `"key":"…","key_type":"text"|"html"` (the plain text, or the HTML serialized); both
    /// keys omitted when the value is empty.
    fn text(&mut self, k: Key, v: Option<&Text<'_>>) {
        let kind = match v {
            None => return,
            Some(Text::Plain(s)) => {
                if s.is_empty() {
                    return;
                }
                self.key(k.name);
                json_str(self.out, s);
                "text"
            }
            Some(Text::Html(h)) => {
                let at = self.key(k.name);
                let start = self.out.len();
                write_html(self.out, self.sanitize, h);
                // `""` is an empty value.
                if &self.out[start..] == b"\"\"" {
                    self.unkey(at);
                    return;
                }
                "html"
            }
        };
        self.suffixed_key(k.name, "_type");
        json_str(self.out, kind);
    }

    fn strs(&mut self, k: Key, v: &[&str]) {
        self.array(k, v.len(), |j, i| json_str(j.out, v[i]));
    }

    fn uints<N: Copy + Into<u64>>(&mut self, k: Key, v: &[N]) {
        self.array(k, v.len(), |j, i| push_uint(j.out, v[i].into()));
    }

    #[inline(always)]
    fn object<T: Walk + Shape>(&mut self, k: Key, v: Option<&T>) {
        if let Some(v) = v {
            let at = self.key(k.name);
            if !self.object_value(v) {
                self.unkey(at);
            }
        }
    }

    fn list_with<T: Walk + Shape, R: Borrow<T>>(
        &mut self,
        k: Key,
        n: usize,
        mut item: impl FnMut(usize) -> R,
    ) {
        self.array(k, n, |j, i| {
            j.object_value(item(i).borrow());
        });
    }

    fn flatten<T: Walk>(&mut self, _prefix: &'static str, v: &T) {
        v.walk(self);
    }
}

/// Writes `s` as a quoted, escaped JSON string, byte for byte as `serde_json` writes it:
/// `"` and `\\` escaped, control characters below U+0020 as `\\b \\f \\n \\r \\t` or
/// `\\u00XX` (lowercase hex), everything else (DEL, non-ASCII) as is.
///
/// Sixteen bytes at a time (SSE2 compares, `simd::block`; 32 with AVX2 in long strings): the
/// bytes to escape come out of a block as a bitmask, and the runs between them are copied
/// whole.
pub(crate) fn json_str(out: &mut Vec<u8>, s: &str) {
    // A short value with nothing to escape (`"text"`, a format, a short name): the quotes
    // and one 16-byte store of its padded block under one reservation.
    let n = s.len();
    if n < block::BLOCK {
        let blk = block::tail_block(s.as_bytes(), b'a');
        if json_escaped(&blk) & ((1u32 << n) - 1) == 0 {
            out.reserve(block::BLOCK + 2);
            let dst = out.as_mut_ptr();
            let o = out.len();
            // SAFETY: `BLOCK + 2` bytes of room were reserved at `o`; the stores end at
            // `o + 1 + BLOCK` at most, and only the `n + 2` bytes of the string are counted.
            unsafe {
                *dst.add(o) = b'"';
                std::ptr::write_unaligned(dst.add(o + 1).cast::<[u8; block::BLOCK]>(), blk);
                *dst.add(o + 1 + n) = b'"';
                out.set_len(o + n + 2);
            }
            return;
        }
    }
    out.push(b'"');
    json_escape(out, s);
    out.push(b'"');
}

/// The inside of [`json_str`]: `s` escaped, without the quotes.
#[inline(always)]
fn json_escape(out: &mut Vec<u8>, s: &str) {
    block::copy_marked(out, s.as_bytes(), b'a', JsonEscaped, |b, i| escape_byte(b[i]));
}

/// The bytes JSON escapes: `"`, `\\` and the controls below U+0020.
struct JsonEscaped;

impl block::MarkSet<2> for JsonEscaped {
    const MARKS: block::Marks<2> = block::Marks { limit: 0x20, folded: [(0, b'"'), (0, b'\\')] };
}

/// [`JsonEscaped`] in a block.
#[inline(always)]
fn json_escaped(blk: &[u8; block::BLOCK]) -> u32 {
    <JsonEscaped as block::MarkSet<2>>::MARKS.mask(blk)
}

/// The inside of a JSON string as an [`HtmlOut`]: the HTML serialization of a value is
/// written straight into the line, each byte escaped once for HTML and JSON together, the
/// same bytes as [`json_str`] of [`Html::write_html`]'s string.
struct JsonHtml<'o>(&'o mut Vec<u8>);

/// The bytes [`JsonHtml::escaped`] marks: HTML's ([`serialize::HTML_ESCAPED`], `"`) and
/// JSON's (`"`, `\\`, the controls). `"` and `&`, `<` and `>` differ in one bit each: two
/// compares for four.
struct HtmlInJson;

impl block::MarkSet<4> for HtmlInJson {
    const MARKS: block::Marks<4> = {
        let [amp, lt, gt, c2] = serialize::HTML_ESCAPED;
        assert!(amp == b'"' | 4 && lt | 2 == gt);
        block::Marks { limit: 0x20, folded: [(4, amp), (2, gt), (0, c2), (0, b'\\')] }
    };
}

impl HtmlOut for JsonHtml<'_> {
    #[inline(always)]
    fn markup(&mut self, s: &'static str) {
        debug_assert!(s.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\'));
        self.0.extend_from_slice(s.as_bytes());
    }
    #[inline(always)]
    fn verbatim(&mut self, s: &str) {
        // Mostly element and attribute names: short, with nothing to escape. The rest (long
        // raw text, comments) is escaped out of line, keeping the names' path small.
        #[inline(never)]
        fn long_or_escaped(out: &mut Vec<u8>, s: &str) {
            json_escape(out, s);
        }
        if !block::copy_short_clean(self.0, s.as_bytes(), b'a', json_escaped) {
            long_or_escaped(self.0, s);
        }
    }
    /// The HTML escapes (`& < >`, U+00A0, `"` in an attribute) and JSON's (`"` in text,
    /// `\\`, controls) in one scan: a byte HTML replaces becomes an entity, plain ASCII
    /// that JSON leaves as is; every other byte JSON escapes is one HTML keeps.
    #[inline(always)]
    fn escaped(&mut self, s: &str, attr: bool) {
        // `& < > U+00A0 " \\` and the controls in one mask ([`HtmlInJson`]); the control mask
        // and six compares before cost 1.4 M more instructions on the corpus WARC.gz job.
        let escape = |b: &[u8], i: usize| match b[i] {
            b'"' if attr => serialize::html_escape_at(b, i),
            c @ 0..0x80 => {
                let (rep, len) = HTML_TEXT_ESCAPES[c as usize];
                (rep, len as usize, 1)
            }
            _ => serialize::html_escape_at(b, i),
        };
        block::copy_marked(self.0, s.as_bytes(), b'a', HtmlInJson, escape);
    }
    #[inline(always)]
    fn quote(&mut self) {
        self.0.extend_from_slice(b"\\\"");
    }
    // `start_tag`, `start_tag_closed`, `attr_start` and `end_tag` write a name with its
    // markup around it through `name_between`; `quote_close` is a value's closing quote
    // and the tag's `>` in one append.
    #[inline(always)]
    fn start_tag(&mut self, local: &str) {
        self.name_between(*b"<", local, []);
    }
    #[inline(always)]
    fn start_tag_closed(&mut self, local: &str) {
        self.name_between(*b"<", local, *b">");
    }
    #[inline(always)]
    fn quote_close(&mut self) {
        self.0.extend_from_slice(b"\\\">");
    }
    #[inline(always)]
    fn attr_start(&mut self, local: &str) {
        // `=` and the value's opening quote (`quote`, JSON-escaped).
        self.name_between(*b" ", local, *b"=\\\"");
    }
    #[inline(always)]
    fn end_tag(&mut self, local: &str) {
        self.name_between(*b"</", local, *b">");
    }
}

/// A sanitized value written into the JSON string: the pass computed from the tree through
/// [`HtmlOut`], a value sanitized as a string escaped for JSON (the bytes [`json_str`] writes
/// inside its quotes).
impl SanitizedOut for JsonHtml<'_> {
    fn end(&self) -> usize {
        self.0.len()
    }
    fn truncate(&mut self, at: usize) {
        self.0.truncate(at);
    }
    fn sanitized(&mut self, html: &str) {
        json_escape(self.0, html);
    }
    fn html_since(&self, _from: usize) -> Option<&str> {
        None
    }
    /// The JSON string's inside unescaped: the escapes [`escape_byte`] writes (`\"`, `\\`,
    /// `\n`, `\r`, `\t`, `\b`, `\f`, `\u00XX`) back into their byte, the rest as is.
    fn html_into(&self, from: usize, into: &mut String) {
        let mut rest = &self.0[from.min(self.0.len())..];
        while !rest.is_empty() {
            let plain = memchr::memchr(b'\\', rest).unwrap_or(rest.len());
            // An escape is ASCII: the bytes between escapes are whole characters.
            into.push_str(std::str::from_utf8(&rest[..plain]).unwrap_or_default());
            rest = &rest[plain..];
            let (byte, len) = match rest {
                [] | [_] => break,
                [_, b'u', h @ ..] if h.len() >= 4 => {
                    let hex = std::str::from_utf8(&h[..4]).unwrap_or_default();
                    (u8::from_str_radix(hex, 16).unwrap_or_default(), 6)
                }
                [_, c, ..] => (
                    match c {
                        b'n' => b'\n',
                        b'r' => b'\r',
                        b't' => b'\t',
                        b'b' => 0x08,
                        b'f' => 0x0C,
                        c => *c,
                    },
                    2,
                ),
            };
            into.push(char::from(byte));
            rest = &rest[len..];
        }
    }
}

impl JsonHtml<'_> {
    /// `pre`, the name `local`, `post`: a short clean name (the names the HTML parser makes
    /// are short lowercase ASCII) and its markup under one reservation, else appended piece
    /// by piece, the name escaped by [`HtmlOut::verbatim`]. `pre` and `post` are markup:
    /// nothing in them for JSON to escape.
    #[inline(always)]
    fn name_between<const P: usize, const Q: usize>(
        &mut self,
        pre: [u8; P],
        local: &str,
        post: [u8; Q],
    ) {
        if !block::copy_short_clean_between(self.0, pre, local.as_bytes(), post, b'a', json_escaped)
        {
            self.0.extend_from_slice(&pre);
            self.verbatim(local);
            self.0.extend_from_slice(&post);
        }
    }
}

/// Appends `"<name><suffix>":`, after a `,` when `comma`: one reservation and, for a name
/// and a suffix each shorter than a block (every key of the walk, `_type`, `_offset`,
/// `_raw`), one 16-byte store of each, no `memcpy` call.
#[inline(always)]
fn push_key(out: &mut Vec<u8>, comma: bool, name: &[u8], suffix: &[u8]) {
    let (n, m) = (name.len(), suffix.len());
    if n >= block::BLOCK || m >= block::BLOCK {
        if comma {
            out.push(b',');
        }
        out.push(b'"');
        out.extend_from_slice(name);
        out.extend_from_slice(suffix);
        out.extend_from_slice(b"\":");
        return;
    }
    let blk = block::tail_block(name, 0);
    // Written: at most `,` `"`, a whole block of the name, one of the suffix, then `":`
    // within the last.
    out.reserve(2 * block::BLOCK + 4);
    let dst = out.as_mut_ptr();
    let mut o = out.len();
    // SAFETY: `2 * BLOCK + 4` bytes of room were reserved at the old length; the stores end
    // at most 2 + 2 * BLOCK bytes past it (2 + BLOCK without a suffix), and only the
    // `comma + 1 + n + m + 2` bytes of the key are counted as written.
    unsafe {
        *dst.add(o) = b',';
        o += usize::from(comma);
        *dst.add(o) = b'"';
        o += 1;
        std::ptr::write_unaligned(dst.add(o).cast::<[u8; block::BLOCK]>(), blk);
        o += n;
        if m > 0 {
            let sfx = block::tail_block(suffix, 0);
            std::ptr::write_unaligned(dst.add(o).cast::<[u8; block::BLOCK]>(), sfx);
            o += m;
        }
        std::ptr::write_unaligned(dst.add(o).cast::<[u8; 2]>(), *b"\":");
        out.set_len(o + 2);
    }
}

/// An integer in decimal (`itoa`: no formatting machinery); one padded-block store for the
/// usual fewer than 16 digits (no `memcpy` call).
fn push_uint(out: &mut Vec<u8>, v: impl itoa::Integer) {
    block::push_short(out, itoa::Buffer::new().format(v).as_bytes());
}

/// [`JsonHtml::escaped`]'s replacement of an ASCII byte outside an attribute value, by
/// table: the JSON escape of a control character, `"` and `\\` ([`escape_byte`]), the HTML
/// escape of `& < >` ([`serialize::html_escape_at`]), else the byte itself. (A table load
/// where the two matches, for the newlines of text mostly, cost 1.3 M more instructions on the
/// corpus WARC.gz job.)
const HTML_TEXT_ESCAPES: [([u8; 8], u8); 128] = {
    let mut t = [([0u8; 8], 1u8); 128];
    let mut c = 0;
    while c < 128 {
        let b = c as u8;
        t[c] = match b {
            b'&' => (*b"&amp;\0\0\0", 5),
            b'<' => (*b"&lt;\0\0\0\0", 4),
            b'>' => (*b"&gt;\0\0\0\0", 4),
            0..0x20 | b'"' | b'\\' => {
                let (rep, len, _) = escape_byte(b);
                (rep, len as u8)
            }
            _ => ([b, 0, 0, 0, 0, 0, 0, 0], 1),
        };
        c += 1;
    }
    t
};

/// The JSON escape of `c` (`"`, `\\` or a control character): its bytes, their number, and
/// the one input byte it replaces.
#[inline(always)]
const fn escape_byte(c: u8) -> ([u8; 8], usize, usize) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let short = match c {
        b'"' => b'"',
        b'\\' => b'\\',
        b'\n' => b'n',
        b'\r' => b'r',
        b'\t' => b't',
        0x08 => b'b',
        0x0C => b'f',
        _ => {
            let u = [b'\\', b'u', b'0', b'0', HEX[(c >> 4) as usize], HEX[(c & 15) as usize], 0, 0];
            return (u, 6, 1);
        }
    };
    ([b'\\', short, 0, 0, 0, 0, 0, 0], 2, 1)
}

/// Serializes the HTML value `h` (strictly sanitized when `sanitize` is given) as a JSON
/// string.
fn write_html(out: &mut Vec<u8>, sanitize: Option<&SanitizeOptions>, h: &Html<'_>) {
    out.push(b'"');
    match sanitize {
        None => h.write_html_to(&mut JsonHtml(out)),
        Some(opts) => write_sanitized_html(h, opts, &mut JsonHtml(out)),
    }
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{Problem, Status};
    use crate::{Enclosure, Entry, Feed, Image};

    fn encode(rec: &RecordView<'_, '_>) -> String {
        let mut out = Vec::new();
        encode_record(&mut out, rec);
        String::from_utf8(out).unwrap()
    }

    fn view<'r, 'a>(feed: Option<&'r Feed<'a>>) -> RecordView<'r, 'a> {
        RecordView {
            url: None,
            source: "a \"b\".xml",
            status: Status::Ok,
            error: None,
            format: Some(crate::Format::Rss2),
            encoding: Some("UTF-8"),
            diagnostics: &[],
            feed,
            extraction: None,
            sanitize: None,
            lint: None,
            capture: None,
            ..RecordView::default()
        }
    }

    /// `JsonHtml::html_into` reads back what was written into the JSON string as HTML: the
    /// HTML serialization of any value, written by `JsonHtml` after other bytes, comes back
    /// as the string `write_html` makes.
    #[test]
    fn json_html_reads_back_as_html() {
        let extra = ["q\"\\\u{1}\u{1f}\n\r\t\u{8}\u{c}\u{7f}\u{a0}é€😀<&>", "", "\\u0041"];
        let soups = crate::sanitize::tests::soups(500);
        for soup in soups.iter().map(String::as_str).chain(extra) {
            let arena = bumpalo::Bump::new();
            let Some(Text::Html(h)) = crate::html::parse_escaped_html(&arena, soup) else {
                continue;
            };
            let mut line = b"{\"k\":\"x\\\"".to_vec();
            let at = line.len();
            h.write_html_to(&mut JsonHtml(&mut line));
            let mut back = String::from("kept");
            JsonHtml(&mut line).html_into(at, &mut back);
            assert_eq!(back, format!("kept{}", h.to_html_string()), "{soup:?}");
        }
        for raw in extra {
            let mut line = Vec::new();
            json_escape(&mut line, raw);
            let mut back = String::new();
            JsonHtml(&mut line).html_into(0, &mut back);
            assert_eq!(back, raw);
        }
    }

    /// A strictly sanitized HTML value written into its JSON string (the first pass from the
    /// tree through `JsonHtml`, or the passes' string escaped) is `json_str` of the value
    /// sanitized as a string.
    #[test]
    fn sanitized_html_is_json_str_of_the_sanitized_string() {
        let extra = [
            "<p>a<b>b</b> <a href=/x onclick=y>d</a>\"q\\</p>",
            "<pre>\nx<!--c--></pre><x-el>y</x-el>",
            "<svg><circle r=1></circle></svg>t",
            "<tr><td>a</td></tr><a href='?a=1&amp;b=\"2\"'>l</a>",
            "<img src=\"java\tscript:x\" srcset=\"a.png 1x, b.png 2x\">\u{1}\u{a0}",
        ];
        let soups = crate::sanitize::tests::soups(1500);
        for soup in soups.iter().map(String::as_str).chain(extra) {
            let arena = bumpalo::Bump::new();
            let Some(t @ Text::Html(h)) = crate::html::parse_escaped_html(&arena, soup) else {
                continue;
            };
            for o in &crate::sanitize::tests::without_and_with_base() {
                let mut direct = Vec::new();
                write_html(&mut direct, Some(o), &h);
                let mut via = Vec::new();
                json_str(&mut via, &crate::sanitize::sanitize_text(&t, o));
                assert_eq!(
                    String::from_utf8(direct).unwrap(),
                    String::from_utf8(via).unwrap(),
                    "{soup:?}"
                );
            }
        }
    }

    #[test]
    fn json_str_writes_what_serde_json_writes() {
        let pieces = [
            "a", "\"", "\\", "\n", "\r", "\t", "\u{8}", "\u{c}", "\u{0}", "\u{1f}", "\u{7f}", "é",
            "\u{2028}", "😀", "abcdefgh", " ", "/",
        ];
        let mut next = crate::test_rng(0x2545_F491_4F6C_DD1D);
        for len in 0..400 {
            let mut s = String::new();
            for _ in 0..len % 50 {
                s.push_str(pieces[(next() % pieces.len() as u64) as usize]);
            }
            let mut out = b"x".to_vec();
            json_str(&mut out, &s);
            assert_eq!(out[1..], serde_json::to_vec(&s).unwrap()[..], "{s:?}");
        }
        // Long strings (room is reserved 4 KiB of input at a time), escapes everywhere.
        for len in [4095, 4096, 4097, 10_000] {
            let s: String = "a\"\u{1}\\é\n".repeat(len / 6 + 1).chars().take(len).collect();
            let mut out = Vec::new();
            json_str(&mut out, &s);
            assert_eq!(out, serde_json::to_vec(&s).unwrap(), "len {len}");
        }
        let mut out = Vec::new();
        json_str(&mut out, "tab\there \u{1}\"q\"\\");
        assert_eq!(out, b"\"tab\\there \\u0001\\\"q\\\"\\\\\"");
    }

    /// An HTML value written straight into the JSON string (escaped once for both) is the
    /// JSON string of its HTML serialization, whatever bytes its names, attributes and text
    /// hold.
    #[test]
    fn html_written_into_json_is_json_str_of_its_serialization() {
        let pieces = [
            "a",
            "<p>",
            "</p>",
            "<a href=\"x\\y\">",
            "<a title='q\"uo\u{1}te'>",
            "</a>",
            "<br>",
            "&amp;",
            "&lt;",
            "&gt;",
            "&nbsp;",
            "&quot;",
            "\u{a0}",
            "\u{c2}",
            "\u{c3}\u{a0}",
            "\"",
            "\\",
            "\n",
            "\t",
            "\u{1}",
            "\u{1f}",
            "\u{7f}",
            "é",
            "😀",
            "<pre>\nx</pre>",
            "<b\\c>",
            "<svg><x:y z:w=\"1\"/></svg>",
            "<img alt=\"a\u{1}b\">",
            "abcdefghijklmnopq",
            "<textarea>\n</textarea>",
            "<math xlink:href=\"u\">",
            "<table><td>",
            // Names of a block and longer, and names JSON escapes (the fused tag writers'
            // fallbacks).
            "<abcdefghijklmno p>",
            "<abcdefghijklmnop abcdefghijklmnop=\"1\" abcdefghijklmno=2>",
            "<p a\"b=\"1\" c\\d=3>",
            "<abcdefghijklmnopqrs>",
            "<x\"y>",
            "<svg><x:y></x:y></svg>",
        ];
        let arena = bumpalo::Bump::new();
        let mut next = crate::test_rng(0x9E37_79B9_7F4A_7C15);
        let mut html_values = 0;
        for len in 1..600 {
            let mut s = String::new();
            for _ in 0..len % 60 {
                s.push_str(pieces[(next() % pieces.len() as u64) as usize]);
            }
            let s = arena.alloc_str(&s);
            let Some(Text::Html(h)) = crate::html::parse_escaped_html(&arena, s) else { continue };
            html_values += 1;
            let mut direct = Vec::new();
            write_html(&mut direct, None, &h);
            let mut two_passes = Vec::new();
            json_str(&mut two_passes, &h.to_html_string());
            assert_eq!(String::from_utf8(direct).unwrap(), String::from_utf8(two_passes).unwrap());
        }
        assert!(html_values > 400, "{html_values}");
    }

    /// The text escape table is the two matches it replaces, for every ASCII byte.
    #[test]
    fn html_text_escapes_table_is_the_matches() {
        for c in 0..0x80u8 {
            let b = [c, b'a'];
            let want = match c {
                b'"' | b'\\' | 0..0x20 => escape_byte(c),
                _ => serialize::html_escape_at(&b, 0),
            };
            let (rep, len) = HTML_TEXT_ESCAPES[c as usize];
            assert_eq!(rep[..len as usize], want.0[..want.1], "{c:#x}");
            assert_eq!(want.2, 1);
        }
    }

    /// `push_key` writes what the plain pushes write, for every name length (a block and
    /// beyond) and every suffix length (none, the walk's, a block and beyond), with and
    /// without the comma.
    #[test]
    fn push_key_writes_comma_quoted_name_suffix_colon() {
        let name: Vec<u8> = (0..40).map(|i| b'a' + (i % 26) as u8).collect();
        let suffix: Vec<u8> = (0..20).map(|i| b'_' + (i % 3) as u8).collect();
        for n in 0..=name.len() {
            for m in 0..=suffix.len() {
                for comma in [false, true] {
                    let (name, suffix) = (&name[..n], &suffix[..m]);
                    let mut out = b"{\"x\":1".to_vec();
                    push_key(&mut out, comma, name, suffix);
                    let mut want = b"{\"x\":1".to_vec();
                    if comma {
                        want.push(b',');
                    }
                    want.push(b'"');
                    want.extend_from_slice(name);
                    want.extend_from_slice(suffix);
                    want.extend_from_slice(b"\":");
                    assert_eq!(out, want, "name {n} suffix {m} comma {comma}");
                }
            }
        }
    }

    #[test]
    fn escapes_and_omits_empty() {
        let feed = Feed {
            title: Some(Text::Plain("T\n\u{1}é")),
            subtitle: Some(Text::Plain("")),
            logo: Some(Image::default()),
            icon: Some(Image { url: Some("http://x/i.png"), width: Some(16), ..Image::default() }),
            entries: vec![
                Entry::default(),
                Entry {
                    categories: vec!["a", "b\"c"],
                    enclosures: vec![Enclosure {
                        url: Some("u"),
                        mime_type: Some("audio/mpeg"),
                        length: Some(3),
                        ..Enclosure::default()
                    }],
                    duration: Some(61),
                    ..Entry::default()
                },
            ],
            ..Feed::default()
        };
        let s = encode(&view(Some(&feed)));
        assert_eq!(
            s,
            r#"{"source":"a \"b\".xml","status":"ok","format":"rss2","encoding":"UTF-8","feed":{"title":"T\n\u0001é","title_type":"text","icon":{"url":"http://x/i.png","width":16},"entries":[{},{"duration":61,"categories":["a","b\"c"],"enclosures":[{"url":"u","type":"audio/mpeg","length":3}]}]}}"#
        );
        let v: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(v["feed"]["entries"][1]["categories"][1], "b\"c");
    }

    #[test]
    fn error_record_and_empty_feed() {
        let feed = Feed::default();
        let mut rec = view(Some(&feed));
        rec.status = Status::NotAFeed;
        rec.format = None;
        rec.error = Some(Problem { kind: "http_status", message: "HTTP status 404" });
        rec.diagnostics = &[];
        let s = encode(&rec);
        assert_eq!(
            s,
            r#"{"source":"a \"b\".xml","status":"not_a_feed","error":{"kind":"http_status","message":"HTTP status 404"},"encoding":"UTF-8"}"#
        );
    }
}
