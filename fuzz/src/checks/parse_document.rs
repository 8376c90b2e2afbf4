//! The `parse_document` and `parse_document_heavy` targets: a stored document's bytes
//! parsed by a reused parser; heavy: every cross-check of a parse.

use super::*;

thread_local! {
    static DEFAULT_PARSER: std::cell::RefCell<Parser> = std::cell::RefCell::new(Parser::new(Options::default()));
}

/// `parse_document` target: the input as a stored document's bytes, parsed once by a reused
/// parser, with [`check_parsed_light`].
pub fn check_parse_document(data: &[u8]) {
    // The text the parser reads: the default options' recovery rules included.
    let decoded = input::decode::decode_with(data, None, true);
    DEFAULT_PARSER.with(|p| {
        let mut p = p.borrow_mut();
        let parsed = p
            .parse_bytes(data, None)
            .expect("parse_bytes with default limits and no base URL fails");
        check_parsed_light(&parsed, data.len(), &decoded.text, &Limits::default());
    });
}

/// `parse_document_heavy` target: [`check_parsed`] (JSON records, fragments, extraction), the
/// owned parse against the borrowed one ([`check_owned_matches`]),
/// determinism (reused vs fresh parser) and `parse_str` against `parse_bytes`.
pub fn check_parse_document_heavy(data: &[u8]) {
    let limits = Limits::default();
    // The text the parser reads: the default options' recovery rules included.
    let decoded = input::decode::decode_with(data, None, true);
    // 1. A reused parser (its arena holds previous documents' data).
    let first = DEFAULT_PARSER.with(|p| {
        let mut p = p.borrow_mut();
        let parsed = p
            .parse_bytes(data, None)
            .expect("parse_bytes with default limits and no base URL fails");
        check_parsed(&parsed, data.len(), &decoded.text, &limits);
        snapshot(&parsed)
    });
    // 2. Determinism: a fresh parser gives the same result.
    let mut fresh = Parser::new(Options::default());
    let second = snapshot(&fresh.parse_bytes(data, None).unwrap());
    assert_eq!(first, second, "parse_bytes is not deterministic");
    check_owned_matches(data, fresh.options(), &first);
    // 3. A body that decodes as itself (UTF-8, nothing stripped, no encoding guessed: a
    // guess is an `encoding_guessed` diagnostic parse_str cannot give) parses as parse_str
    // would. (`\0<\0?b` looks like UTF-16BE by its first bytes, has an odd length, and is
    // valid UTF-8: the recovery rule decodes it as UTF-8, found by parse_document_heavy.)
    if let Cow::Borrowed(t) = decoded.text {
        if t.len() == data.len()
            && decoded.encoding == encoding_rs::UTF_8
            && decoded.guessed.is_none()
        {
            let third = snapshot(&fresh.parse_str(t, None).unwrap());
            assert_eq!(
                Snapshot { encoding: Some("UTF-8"), ..third },
                first,
                "parse_str and parse_bytes differ"
            );
        }
    }
}
