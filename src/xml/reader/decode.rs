//! Character data: text runs decoded in one pass (references resolved, line ends
//! normalized, each repair diagnosed at its own offset), CDATA sections' line ends, and
//! forbidden C0 controls in text, CDATA, comments and PIs replaced by U+FFFD. A reference
//! is resolved as XML, else as HTML, else kept literally; with the web recovery rules on,
//! C1-control references and the internal subset's general entities first.

use super::state::XmlReader;
use super::text::{
    copy_to_special, find_forbidden_control, gap_and_common_reference, is_forbidden_control,
    is_ref_name, push_common_reference, reference_end,
};
use crate::error::DiagnosticKind;
use crate::simd::block;
use crate::xml::bytes::normalize_newlines;
use crate::xml::entities::{self, Resolved};

impl<'a> XmlReader<'a> {
    /// `s` with CRLF and lone CR as LF (a CDATA section's text); borrowed when it has no CR.
    pub(super) fn normalize_eols(&self, s: &'a str) -> &'a str {
        normalize_newlines(self.arena, s)
    }

    /// Replaces forbidden C0 controls in `s` by U+FFFD (only called when the input has some).
    /// `raw` is the undecoded chunk `s` came from and `raw_offset` its offset, for the
    /// diagnostic.
    pub(super) fn clean_controls(&mut self, s: &'a str, raw: &str, raw_offset: usize) -> &'a str {
        let Some(first) = find_forbidden_control(s.as_bytes()) else { return s };
        let count = s.bytes().filter(|&b| is_forbidden_control(b)).count();
        let at = raw_offset + find_forbidden_control(raw.as_bytes()).unwrap_or(first);
        let msg = format!("{count} control character(s) not allowed in XML replaced by U+FFFD");
        self.diag(DiagnosticKind::InvalidCharacter, at, msg);
        let mut out =
            bumpalo::collections::String::with_capacity_in(s.len() + 2 * count, self.arena);
        for c in s.chars() {
            if c.is_ascii() && is_forbidden_control(c as u8) {
                out.push('\u{FFFD}');
            } else {
                out.push(c);
            }
        }
        out.into_bump_str()
    }

    /// Decodes a text run from `first` (its first `&` or CR) on: references resolved, line
    /// ends normalized, every repair diagnosed at its byte offset (`offset` is the run's).
    pub(super) fn decode_text(&mut self, raw: &'a str, first: usize, offset: usize) -> &'a str {
        let bytes = raw.as_bytes();
        let n = bytes.len();
        // One block of slack for the whole-block copies of `copy_to_special`.
        let mut out = bumpalo::collections::String::with_capacity_in(n + block::BLOCK, self.arena);
        out.push_str(&raw[..first]);
        let mut i = first;
        // `i` is a char boundary of `raw` throughout: `first` and every later position are
        // right at or after an ASCII byte (`&`, CR, LF, `;`, a reference's last byte).
        while i < n {
            // SAFETY: `i` is a char boundary (above).
            if let Some(next) = unsafe { gap_and_common_reference(&mut out, raw, i) } {
                i = next;
                continue;
            }
            let j = copy_to_special(&mut out, raw, i);
            if j == n {
                break;
            }
            if bytes[j] == b'\r' {
                // CRLF and lone CR become LF.
                out.push('\n');
                i = j + 1 + usize::from(bytes.get(j + 1) == Some(&b'\n'));
                continue;
            }
            // The references of entity-escaped HTML, read in place: their end is the `;`
            // the search below would find.
            if let Some(len) = push_common_reference(&mut out, bytes, j) {
                i = j + len;
                continue;
            }
            // A reference runs to the next `;`, unless another `&` comes first (quick-xml's
            // rule, kept so that `a & b; c` reads as it always has).
            let k = reference_end(bytes, j + 1);
            if k == n || bytes[k] == b'&' {
                self.diag(
                    DiagnosticKind::BareAmpersand,
                    offset + j,
                    "'&' starts no reference; kept literally",
                );
                out.push('&');
                i = j + 1;
                continue;
            }
            match &bytes[j + 1..k] {
                [b'l', b't'] => out.push('<'),
                [b'g', b't'] => out.push('>'),
                [b'a', b'm', b'p'] => out.push('&'),
                [b'q', b'u', b'o', b't'] => out.push('"'),
                _ => self.push_reference(&mut out, &raw[j + 1..k], &raw[j..=k], offset + j),
            }
            i = k + 1;
        }
        out.into_bump_str()
    }

    /// Appends what the reference `&name;` (`literal`, at byte `at`) stands for.
    pub(super) fn push_reference(
        &mut self,
        out: &mut bumpalo::collections::String<'a>,
        name: &str,
        literal: &str,
        at: usize,
    ) {
        // Resolved once: the recovery rules and the spec's reading share the result.
        let resolved = entities::resolve(name);
        if self.recover && self.may_recover(resolved) {
            if let Some(done) = self.push_recovered_reference(out, name, resolved, at) {
                return done;
            }
        }
        match self.report_resolved(name, resolved, at) {
            Resolved::Xml(c) => out.push(c),
            Resolved::Html(a, b) => {
                out.push(a);
                if let Some(b) = b {
                    out.push(b);
                }
            }
            Resolved::InvalidChar => out.push('\u{FFFD}'),
            Resolved::Unknown => out.push_str(literal),
        }
    }

    /// Whether a web recovery rule of [`Self::push_recovered_reference`] may apply to a
    /// reference resolved as `resolved` (checked inline: most references are neither).
    #[inline]
    fn may_recover(&self, resolved: Resolved) -> bool {
        match resolved {
            Resolved::Xml(c) => entities::is_c1(c),
            Resolved::Unknown => !self.internal_entities.is_empty(),
            Resolved::Html(..) | Resolved::InvalidChar => false,
        }
    }

    /// The web recovery rules for a reference in text: a numeric reference to a C1 control
    /// (`&#146;`) is read as the windows-1252 character it stands for in real documents, and
    /// a general entity declared in the document's internal subset is expanded (see
    /// [`entities::InternalEntities`]). `None` when neither applies.
    #[cold]
    fn push_recovered_reference(
        &mut self,
        out: &mut bumpalo::collections::String<'a>,
        name: &str,
        resolved: Resolved,
        at: usize,
    ) -> Option<()> {
        match resolved {
            Resolved::Xml(c) => {
                let mapped = entities::c1_to_windows_1252(c)?;
                out.push(mapped);
                self.diag(
                    DiagnosticKind::Recovered,
                    at,
                    format!(
                        "c1_control: &{name}; (C1 control) read as windows-1252 {mapped:?} (U+{:04X})",
                        mapped as u32
                    ),
                );
                Some(())
            }
            Resolved::Unknown => match self.internal_entities.expand(name) {
                Ok(Some(text)) => {
                    out.push_str(text);
                    self.diag(
                        DiagnosticKind::Recovered,
                        at,
                        format!("internal_entity: &{name}; expanded from the internal DTD subset"),
                    );
                    Some(())
                }
                Ok(None) => None,
                Err(why) => {
                    out.push('&');
                    out.push_str(name);
                    out.push(';');
                    self.diag(
                        DiagnosticKind::LimitReached,
                        at,
                        format!("&{name}; not expanded: {why}; kept literally"),
                    );
                    Some(())
                }
            },
            _ => None,
        }
    }

    /// Resolves the reference `&name;` at byte `at`, recording what text and attribute values
    /// alike do with it when it is not an XML reference (read as HTML, U+FFFD, kept literally).
    pub(super) fn resolve_reported(&mut self, name: &str, at: usize) -> Resolved {
        self.report_resolved(name, entities::resolve(name), at)
    }

    /// [`Self::resolve_reported`] for a reference already resolved.
    fn report_resolved(&mut self, name: &str, resolved: Resolved, at: usize) -> Resolved {
        match resolved {
            Resolved::Xml(_) => {}
            Resolved::Html(..) => self.diag(
                DiagnosticKind::HtmlEntity,
                at,
                format!("&{name}; is not an XML entity; read as HTML"),
            ),
            Resolved::InvalidChar => self.diag(
                DiagnosticKind::InvalidCharacter,
                at,
                format!("&{name}; is not an XML character"),
            ),
            Resolved::Unknown if is_ref_name(name) => self.diag(
                DiagnosticKind::UnknownEntity,
                at,
                format!("&{name}; is not defined; kept literally"),
            ),
            // `a & b; c` reads `& b;` as a reference that is not one.
            Resolved::Unknown => self.diag(
                DiagnosticKind::BareAmpersand,
                at,
                "'&' starts no reference; kept literally",
            ),
        }
        resolved
    }
}
