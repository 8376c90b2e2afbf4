//! `authors_normalized`: a feed's or an entry's persons as a reader of names expects them.
//!
//! The spec keeps a person's name as written: untrimmed, and for `dc:creator`,
//! `itunes:author`, an Atom `name` or an RSS `author` outside the exact `email (name)` form,
//! with any address still inside it. feedparser splits and trims these; so does this, beside
//! the spec's `authors` (which are never changed):
//!
//! - the name's whitespace collapsed and trimmed;
//! - an address inside the name (`jo@example.com (Jo)`, `Jo <jo@example.com>`,
//!   `Jo (mailto:jo@example.com)`) moved to `email` when the person has none, the brackets
//!   around what remains removed;
//! - `email` trimmed and without `mailto:`;
//! - persons left with nothing, and repeats of an earlier person, dropped.
//!
//! Every string is a slice of the value it came from (or a collapsed copy in the arena
//! when it had inner runs of whitespace), so the output never outgrows the input.

use bumpalo::Bump;

use super::unique::Unique;

use crate::model::Person;

/// The normalized `persons`, in order; `&[]` when none remains.
pub(super) fn normalized<'a: 'b, 'b>(arena: &'b Bump, persons: &[Person<'a>]) -> &'b [Person<'b>] {
    if persons.is_empty() {
        return &[];
    }
    // Many persons cost linear time.
    let mut out = Unique::with_capacity_in(persons.len(), arena);
    for p in persons {
        let n = normalize(arena, p);
        let empty =
            n.name.is_none() && n.email.is_none() && n.page_url.is_none() && n.icon.is_none();
        if !empty {
            out.push(n);
        }
    }
    out.finish()
}

fn normalize<'a: 'b, 'b>(arena: &'b Bump, p: &Person<'a>) -> Person<'b> {
    let mut email = p.email.map(clean_address).filter(|e| !e.is_empty());
    let mut name = p.name.map(str::trim).filter(|n| !n.is_empty());
    if let (None, Some(n)) = (email, name) {
        if let Some((before, address, after)) = find_address(n) {
            email = Some(address);
            name = remainder(arena, before, after);
        }
    }
    Person { name: name.map(|n| collapse(arena, n)), email, page_url: p.page_url, icon: p.icon }
}

/// `e` trimmed, without a `mailto:` prefix (any case).
fn clean_address(e: &str) -> &str {
    let e = e.trim();
    match e.get(..7) {
        Some(p) if p.eq_ignore_ascii_case("mailto:") => e[7..].trim_start(),
        _ => e,
    }
}

/// The first whitespace- or bracket-delimited word of `text` that is an address
/// (`local@domain.tld`, optionally `mailto:`), with the text before and after it.
fn find_address(text: &str) -> Option<(&str, &str, &str)> {
    let mut start = 0;
    for word in text.split(is_delimiter) {
        let at = start;
        start += word.len() + text[at + word.len()..].chars().next().map_or(0, char::len_utf8);
        let address = clean_address(word);
        if is_address(address) {
            return Some((&text[..at], address, &text[at + word.len()..]));
        }
    }
    None
}

/// What delimits an address inside a name: white space, brackets, `,`, `;`, `"`.
fn is_delimiter(c: char) -> bool {
    c.is_whitespace() || matches!(c, '(' | ')' | '<' | '>' | '[' | ']' | ',' | ';' | '"')
}

/// `local@domain` with a non-empty local part and a dotted domain of letters, digits,
/// `-` and `.` (not starting or ending with a dot).
fn is_address(s: &str) -> bool {
    let Some((local, domain)) = s.split_once('@') else { return false };
    !local.is_empty()
        && !local.contains('@')
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && domain.chars().all(|c| c.is_alphanumeric() || c == '-' || c == '.')
}

/// What is left of a name once its address is taken out: `before` and `after` joined,
/// with the brackets that held the address (now empty) and brackets around the whole rest
/// removed; `None` when nothing but punctuation remains.
fn remainder<'b>(arena: &'b Bump, before: &'b str, after: &'b str) -> Option<&'b str> {
    let strip = |s: &'b str| s.trim_matches(is_delimiter);
    let (b, a) = (strip(before), strip(after));
    let rest = match (b.is_empty(), a.is_empty()) {
        (true, true) => return None,
        (false, true) => b,
        (true, false) => a,
        (false, false) => {
            let mut s =
                bumpalo::collections::String::with_capacity_in(b.len() + 1 + a.len(), arena);
            s.push_str(b);
            s.push(' ');
            s.push_str(a);
            s.into_bump_str()
        }
    };
    Some(rest)
}

/// `s` (already trimmed) with each inner run of whitespace made one space; borrowed when
/// it has none.
fn collapse<'b>(arena: &'b Bump, s: &'b str) -> &'b str {
    let collapsed = !s.contains("  ") && !s.contains(|c: char| c.is_whitespace() && c != ' ');
    if collapsed {
        return s;
    }
    let mut out = bumpalo::collections::String::with_capacity_in(s.len(), arena);
    for (i, w) in s.split_whitespace().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(w);
    }
    out.into_bump_str()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn person<'a>(name: Option<&'a str>, email: Option<&'a str>) -> Person<'a> {
        Person { name, email, ..Person::default() }
    }

    fn one(name: Option<&str>, email: Option<&str>) -> (Option<String>, Option<String>) {
        let arena = Bump::new();
        let out = normalized(&arena, &[person(name, email)]);
        assert!(out.len() <= 1);
        out.first()
            .map_or((None, None), |p| (p.name.map(str::to_owned), p.email.map(str::to_owned)))
    }

    fn s(v: &str) -> Option<String> {
        Some(v.to_owned())
    }

    /// Repeats are dropped wherever they are, before and after the hash set takes over, and
    /// the first of each stays in its place.
    #[test]
    fn repeats_are_dropped_in_long_lists() {
        let names: Vec<String> = (0..100).map(|i| format!("P{}", i % 40)).collect();
        let persons: Vec<Person> = names.iter().map(|n| person(Some(n), None)).collect();
        let arena = Bump::new();
        let out = normalized(&arena, &persons);
        let got: Vec<&str> = out.iter().map(|p| p.name.unwrap()).collect();
        let want: Vec<String> = (0..40).map(|i| format!("P{i}")).collect();
        assert_eq!(got, want);
        // The same name with another email is another person.
        let twice = [person(Some("Jo"), None), person(Some("Jo"), Some("jo@example.com"))];
        assert_eq!(normalized(&arena, &[&persons[..], &twice, &twice].concat()).len(), 42);
    }

    #[test]
    fn names_are_trimmed_and_collapsed() {
        assert_eq!(one(Some("  Jo \n  Smith\t"), None), (s("Jo Smith"), None));
        assert_eq!(one(Some("Jo Smith"), None), (s("Jo Smith"), None));
        assert_eq!(one(Some("   "), None), (None, None));
    }

    #[test]
    fn an_address_in_the_name_becomes_the_email() {
        let jo = (s("Jo Smith"), s("jo@example.com"));
        assert_eq!(one(Some("jo@example.com (Jo Smith)"), None), jo);
        assert_eq!(one(Some("Jo Smith <jo@example.com>"), None), jo);
        assert_eq!(one(Some("Jo Smith (mailto:jo@example.com)"), None), jo);
        assert_eq!(one(Some(" jo@example.com  "), None), (None, s("jo@example.com")));
        assert_eq!(
            one(Some("Jo (jo@example.com) Smith"), None),
            (s("Jo Smith"), s("jo@example.com"))
        );
    }

    #[test]
    fn an_existing_email_is_kept_and_cleaned() {
        assert_eq!(
            one(Some("Jo <jo@example.com>"), Some(" mailto:other@example.org ")),
            (s("Jo <jo@example.com>"), s("other@example.org"))
        );
    }

    #[test]
    fn not_addresses_stay_in_the_name() {
        assert_eq!(one(Some("@jo on Mastodon"), None), (s("@jo on Mastodon"), None));
        assert_eq!(one(Some("jo@localhost"), None), (s("jo@localhost"), None));
        assert_eq!(one(Some("a@b."), None), (s("a@b."), None));
    }

    #[test]
    fn repeats_and_empty_persons_are_dropped() {
        let arena = Bump::new();
        let persons = [
            person(Some("Jo Smith"), None),
            person(Some(" Jo  Smith "), None),
            person(Some(" "), Some(" ")),
            person(Some("jo@example.com (Jo Smith)"), None),
        ];
        let out = normalized(&arena, &persons);
        let got: Vec<_> = out.iter().map(|p| (p.name, p.email)).collect();
        assert_eq!(got, [(Some("Jo Smith"), None), (Some("Jo Smith"), Some("jo@example.com"))]);
    }

    #[test]
    fn output_is_never_longer_than_input() {
        let arena = Bump::new();
        for name in ["a  b  c", "x@y.zz ( n )", "<x@y.zz>", "n\u{a0}\u{a0}m", "é  ü <é@ü.de>"] {
            let out = normalized(&arena, &[person(Some(name), None)]);
            let len: usize =
                out.iter().map(|p| p.name.map_or(0, str::len) + p.email.map_or(0, str::len)).sum();
            assert!(len <= name.len(), "{name:?}");
        }
    }
}
