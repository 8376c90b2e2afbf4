//! The `parse_response` and `parse_response_heavy` targets: an HTTP response (status,
//! `Content-Type`, base URL, body) through the response entry points.

use super::*;

/// `parse_response` target: the verdict, rejections, base URLs and [`check_parsed_light`].
pub fn check_parse_response(data: &[u8]) {
    check_response_case(&ResponseCase::decode(data))
}

/// `parse_response_heavy` target: also [`check_parsed`] and `parse_response` against
/// `parse_bytes` with the Content-Type charset.
pub fn check_parse_response_heavy(data: &[u8]) {
    check_response_case_heavy(&ResponseCase::decode(data))
}

pub fn check_response_case(case: &ResponseCase) {
    response_case(case, false)
}

pub fn check_response_case_heavy(case: &ResponseCase) {
    response_case(case, true)
}

fn response_case(case: &ResponseCase, heavy: bool) {
    let res = Response {
        status: case.status,
        content_type: case.content_type.as_deref(),
        url: case.url,
        body: &case.body,
    };
    let verdict = input::prepare_response_with(&res, true);
    let mut parser = Parser::new(Options::default());
    let result = parser.parse_response(&res);
    match verdict {
        // A JSON MIME type (`application/feed+json`, `application/json`, any `+json`) is
        // read as a JSON Feed, decoded by the spec's rules with the Content-Type charset (the
        // check predated the JSON Feed reader; found by this target).
        ResponseVerdict::NotXml { computed_mime }
            if input::mime::is_json_mime_type(
                &computed_mime.essence_raw().to_ascii_lowercase(),
            ) =>
        {
            assert_eq!(case.status, 200);
            let p = match result {
                Err(Error::InvalidBaseUrl { url: u }) => {
                    assert_eq!(Some(u.as_str()), URLS[3], "a valid base URL rejected");
                    return;
                }
                Err(e) => panic!("unexpected error {e}"),
                Ok(p) => p,
            };
            let charset = case
                .content_type
                .as_deref()
                .and_then(input::MimeType::parse)
                .and_then(|m| m.charset().map(Cow::into_owned));
            let decoded = input::decode(&case.body, charset.as_deref());
            if heavy {
                check_parsed(&p, case.body.len(), &decoded.text, &Limits::default());
            } else {
                check_parsed_light(&p, case.body.len(), &decoded.text, &Limits::default());
            }
        }
        ResponseVerdict::NotOk { .. } | ResponseVerdict::NotXml { .. } => {
            let p = result.expect("a rejected response is an error");
            assert!(
                p.feed.is_none() && p.format.is_none() && p.encoding.is_none(),
                "a rejected response has a feed"
            );
            assert_eq!(p.diagnostics.len(), 1);
            assert_eq!(
                (p.diagnostics[0].kind, p.diagnostics[0].offset),
                (DiagnosticKind::NotAFeed, 0)
            );
            if case.status != 200 {
                assert!(
                    matches!(verdict, ResponseVerdict::NotOk { .. }),
                    "status {} not rejected",
                    case.status
                );
            }
        }
        ResponseVerdict::Xml { decoded, url, .. } => {
            assert_eq!(case.status, 200);
            let p = match result {
                Err(Error::InvalidBaseUrl { url: u }) => {
                    assert_eq!(Some(u.as_str()), URLS[3], "a valid base URL rejected");
                    return;
                }
                Err(e) => panic!("unexpected error {e}"),
                Ok(p) => p,
            };
            assert_ne!(url, URLS[3], "an invalid base URL accepted");
            if !heavy {
                check_parsed_light(&p, case.body.len(), &decoded.text, &Limits::default());
                return;
            }
            check_parsed(&p, case.body.len(), &decoded.text, &Limits::default());
            let first = snapshot(&p);
            // The owned parse of the response gives what the borrowed one gave.
            let owned = OwnedParsed::parse_response(&res, &Options::default()).unwrap();
            assert_eq!(first, snapshot(owned.get()), "owned and borrowed parse_response differ");
        }
    }
}
