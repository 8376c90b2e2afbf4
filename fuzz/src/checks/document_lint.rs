//! The `document_lint` and `document_lint_heavy` targets: parsing with the RSS Best
//! Practices Profile lint on.

use super::*;

/// `document_lint` target: parsing with the RSS Best Practices Profile lint on does not
/// panic; every finding's offset is a char boundary of the decoded text with the line and
/// column it reports.
pub fn check_document_lint(data: &[u8]) {
    document_lint(data, false)
}

/// `document_lint_heavy` target: also, the model and diagnostics are those of a parse
/// without linting.
pub fn check_document_lint_heavy(data: &[u8]) {
    document_lint(data, true)
}

fn document_lint(data: &[u8], heavy: bool) {
    let mut options = Options::default();
    // The text the parser reads: decoded with the same rules (recovery on by default).
    let decoded = input::decode::decode_with(data, None, options.recover());
    let text: &str = &decoded.text;
    // 2026-11-24T00:00:00Z, fixed so that a run is reproducible.
    options.lint = Some(feedmill::lint::LintOptions::at(1_795_478_400));
    let mut linting = Parser::new(options);
    let parsed = linting.parse_bytes(data, None).expect("parse_bytes with lint fails");
    let report = parsed.lint.as_ref().expect("lint on gives a report");
    for f in &report.findings {
        assert!(
            f.offset <= text.len() && text.is_char_boundary(f.offset),
            "finding offset {} out of bounds or inside a character ({} bytes): {f:?}",
            f.offset,
            text.len()
        );
        let before = &text[..f.offset];
        let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
        let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
        assert_eq!((f.line as usize, f.column as usize), (line, column), "{f:?}");
        let _ = f.message();
    }
    if !heavy {
        return;
    }
    let linted = snapshot(&parsed);
    let mut plain = Parser::new(Options::default());
    let unlinted = snapshot(&plain.parse_bytes(data, None).unwrap());
    assert_eq!(linted, unlinted, "linting changed the parse");
}
