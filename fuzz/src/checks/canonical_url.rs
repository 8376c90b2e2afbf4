//! The `canonical_url` target: `canonicalize_url` on any text is idempotent and its entry
//! points agree.

use super::*;

/// `canonicalize_url` on any text. Byte layout: the first byte picks a prefix put before the
/// rest (its value mod 4: none, `http://`, `https://`, `https://u:p@e.com/`) so that most
/// inputs are http(s) URLs; the rest is the text (UTF-8, invalid sequences replaced).
///
/// Invariants: the canonical form is a fixed point (`canonicalize_url(c) == c`), holds no
/// credentials, and every entry point (`canonicalize_url_cow`, `canonical_url_in`) gives the
/// same result, borrowing the input exactly when it is already canonical.
pub fn check_canonical_url_idempotent(data: &[u8]) {
    use feedmill::extract::{canonical_url_in, canonicalize_url, canonicalize_url_cow};
    let mut b = Bytes::new(data);
    let prefix = ["", "http://", "https://", "https://u:p@e.com/"][(b.u8() % 4) as usize];
    let u = format!("{prefix}{}", String::from_utf8_lossy(b.rest()));
    let once = canonicalize_url(&u);
    let cow = canonicalize_url_cow(&u);
    assert_eq!(cow.as_deref(), once.as_deref(), "canonicalize_url_cow on {u:?}");
    if let Some(Cow::Borrowed(kept)) = &cow {
        assert_eq!(*kept, u, "borrowed a different string for {u:?}");
    }
    let arena = Bump::new();
    assert_eq!(canonical_url_in(&arena, &u), once.as_deref(), "canonical_url_in on {u:?}");
    let Some(once) = once else { return };
    assert_eq!(
        canonicalize_url(&once).as_deref(),
        Some(once.as_str()),
        "canonical URL of {u:?} is not a fixed point"
    );
    assert!(
        matches!(canonicalize_url_cow(&once), Some(Cow::Borrowed(_))),
        "canonical URL {once:?} not borrowed"
    );
    let after_scheme = once.split_once("://").map_or("", |(_, rest)| rest);
    let authority = after_scheme.split(['/', '?', '#']).next().unwrap_or("");
    assert!(!authority.contains('@'), "credentials in {once:?}");
}
