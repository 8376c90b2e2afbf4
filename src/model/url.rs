//! URL resolution: the spec's "parse a URL" (WHATWG URL Standard, via the `url` crate)
//! against the document base URL, returning the serialized URL.
//!
//! Invariant: a returned string is exactly `Url::join(base, input).as_str()`; equality of URLs
//! in the cleanup steps is string equality of these serializations.

use bumpalo::Bump;
use url::Url;

/// Resolves `input` against `base` and returns the serialization, in the arena.
/// Unchanged serializations (input already canonical) are borrowed from the input.
pub fn resolve<'a>(arena: &'a Bump, base: &Url, input: &'a str) -> Option<&'a str> {
    let url = base.join(input).ok()?;
    let s = url.as_str();
    if s == input {
        Some(input)
    } else {
        Some(arena.alloc_str(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(input: &str) -> Option<String> {
        let arena = Bump::new();
        let base = Url::parse("https://base/").unwrap();
        resolve(&arena, &base, input).map(str::to_owned)
    }

    #[test]
    fn resolves_as_the_tests_expect() {
        assert_eq!(r("httpS://hoge").as_deref(), Some("https://hoge/"));
        assert_eq!(r("HTTPS://FOO").as_deref(), Some("https://foo/"));
        assert_eq!(r("https://Hoge").as_deref(), Some("https://hoge/"));
        assert_eq!(r(" https://FOO:4255 ").as_deref(), Some("https://foo:4255/"));
        assert_eq!(r("/icon").as_deref(), Some("https://base/icon"));
        assert_eq!(r("foo.png").as_deref(), Some("https://base/foo.png"));
        assert_eq!(r("hoge/fuga").as_deref(), Some("https://base/hoge/fuga"));
        assert_eq!(r("").as_deref(), Some("https://base/"));
        assert_eq!(r("   ").as_deref(), Some("https://base/"));
        assert_eq!(r("https://foo:bar"), None);
        assert_eq!(r("HTTPS://FOO:X"), None);
    }

    #[test]
    fn canonical_input_is_borrowed() {
        let arena = Bump::new();
        let base = Url::parse("https://base/").unwrap();
        let input = "https://example.com/a?b=c";
        let out = resolve(&arena, &base, input).unwrap();
        assert!(std::ptr::eq(out, input));
    }
}
