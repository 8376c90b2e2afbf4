use super::*;

fn finding(offset: usize) -> Finding {
    let (code, params, section) = (Code::UndefinedElement, Vec::new(), "");
    Finding { code, params, offset, line: 0, column: 0, section }
}

/// Locating findings reads each byte of the text a bounded number of times, however many
/// findings a line holds: on a one-line document with a finding every 16 bytes, four
/// times the text is four times the bytes read (counting each column from the line start
/// read 32 000 times the text's length at 1 MB).
#[test]
fn locating_findings_is_linear_on_one_line_documents() {
    let work = |len: usize| {
        let src = "é<item>x</item>".repeat(len / 16);
        let mut findings: Vec<Finding> = (0..src.len()).step_by(16).map(finding).collect();
        let read = locate(&src, &mut findings);
        let last = findings.last().unwrap();
        assert_eq!((last.line, last.column), (1, (findings.len() as u32 - 1) * 15 + 1));
        assert!(read <= 3 * src.len(), "{read} bytes read for {}", src.len());
        read
    };
    let (small, large) = (work(1 << 18), work(1 << 20));
    assert!(large < 5 * small, "4x the text: {small} -> {large} bytes read");
}

/// Lines and columns across newlines: the column restarts after each `\n`, and counts
/// characters (a `\r` is a character of its line).
#[test]
fn locating_findings_across_lines() {
    let src = "ab\nçd\r\n\nxy€z";
    let offsets = [0, 1, 3, 5, 6, 8, 10, 14];
    let mut findings: Vec<Finding> = offsets.iter().map(|&o| finding(o)).collect();
    locate(src, &mut findings);
    let got: Vec<(u32, u32)> = findings.iter().map(|f| (f.line, f.column)).collect();
    assert_eq!(got, [(1, 1), (1, 2), (2, 1), (2, 2), (2, 3), (3, 1), (4, 2), (4, 4)]);
}
