use super::*;

fn finding(offset: usize) -> Finding {
    let (code, params, section) = (Code::UndefinedElement, Vec::new(), "");
    Finding {
        code,
        params,
        offset,
        line: 0,
        column: 0,
        section,
        excerpt: Box::default(),
        excerpt_column: 0,
    }
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

/// The excerpt is the finding's line around it, bounded whatever the line's length, without
/// its line break, and the finding's column in it.
#[test]
fn excerpt_bounded_on_its_line() {
    let src = "<rss>\r\n  <channel><title>é</title>\r\n</rss>";
    let at = src.find("<title>").unwrap();
    let mut f = [finding(at)];
    locate(src, &mut f);
    assert_eq!((&*f[0].excerpt, f[0].excerpt_column), ("  <channel><title>é</title>", 12));
    assert_eq!((f[0].line, f[0].column), (2, 12));

    let long = format!("<rss>{}<x/>{}</rss>", "a".repeat(10_000), "é".repeat(10_000));
    let at = long.find("<x/>").unwrap();
    let mut f = [finding(0), finding(at)];
    locate(&long, &mut f);
    assert!(f[0].excerpt.len() <= EXCERPT_BYTES && f[0].excerpt.starts_with("<rss>aaa"));
    let (e, c) = (&*f[1].excerpt, f[1].excerpt_column as usize);
    assert!(e.len() <= EXCERPT_BYTES, "{}", e.len());
    assert_eq!(c, EXCERPT_BEFORE + 1);
    assert!(e[EXCERPT_BEFORE..].starts_with("<x/>é"));
}
