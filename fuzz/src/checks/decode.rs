//! The `decode` target: character decoding of a body, with and without a transport label.

use super::*;

/// `decode` target: `input::decode` with an arbitrary transport label, against a reference
/// decoding by `encoding_rs`.
pub fn check_decode(data: &[u8]) {
    check_decode_case(&DecodeCase::decode(data))
}

pub fn check_decode_case(case: &DecodeCase) {
    let body = &case.body[..];
    let d = input::decode(body, case.label.as_deref());
    assert!(!d.text.starts_with('\u{FEFF}'), "decoded text starts with a BOM");
    assert_eq!(d.malformed.is_some(), d.malformed_count > 0, "malformed offset and count disagree");
    if let Some(m) = d.malformed {
        assert!(m < body.len(), "malformed offset {m} past the body ({} bytes)", body.len());
    }
    let bom = encoding_rs::Encoding::for_bom(body);
    assert_eq!(
        bom.is_some(),
        d.source == input::EncodingSource::ByteOrderMark,
        "BOM source mismatch"
    );
    let skip = bom.map_or(0, |(_, n)| n);
    if let Some((enc, _)) = bom {
        assert_eq!(enc, d.encoding, "BOM encoding not used");
    }
    // Reference: encoding_rs decoding of the body after the BOM, minus leading U+FEFFs.
    let (reference, had_errors) = d.encoding.decode_without_bom_handling(&body[skip..]);
    assert_eq!(
        &*d.text,
        reference.trim_start_matches('\u{FEFF}'),
        "decoded text differs from encoding_rs"
    );
    assert_eq!(had_errors, d.malformed_count > 0, "malformed flag differs from encoding_rs");
    if d.malformed_count == 0 && d.encoding == encoding_rs::UTF_8 {
        assert!(matches!(d.text, Cow::Borrowed(_)), "valid UTF-8 was copied");
    }
    // The encoding detector fed only the lines holding non-ASCII bytes guesses what it
    // guesses fed every byte (of the first 64 KiB).
    const DETECT: usize = 64 << 10;
    let mut full = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    full.feed(&body[..body.len().min(DETECT)], body.len() <= DETECT);
    assert_eq!(
        input::decode::detect(body),
        full.guess(None, chardetng::Utf8Detection::Allow),
        "detection on the non-ASCII lines differs from detection on every byte"
    );
    // Determinism.
    let again = input::decode(body, case.label.as_deref());
    assert_eq!(
        (again.text, again.encoding, again.source, again.malformed),
        (d.text, d.encoding, d.source, d.malformed)
    );
}
