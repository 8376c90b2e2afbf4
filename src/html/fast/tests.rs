//! The common-entity shortcut agrees with markup5ever's full table; `scan_until`'s block
//! compares agree with its byte classes. (The fast builder itself is tested
//! against html5ever in `html::tests`.

use markup5ever::data::NAMED_ENTITIES;

use super::refs::common_entity;

#[test]
fn common_entities_agree_with_the_table() {
    for name in [
        "amp", "lt", "gt", "quot", "apos", "nbsp", "copy", "ndash", "mdash", "lsquo", "rsquo",
        "ldquo", "rdquo", "hellip",
    ] {
        let c = common_entity(name).unwrap();
        let key = format!("{name};");
        assert_eq!(NAMED_ENTITIES.get(key.as_str()), Some(&(c as u32, 0)), "{name}");
    }
    assert_eq!(common_entity("ampx"), None);
}

/// `scan_until`'s block compares stop where the byte-class loop stops, for each of its three
/// stop sets, from every start of random texts of every length up to past two blocks.
#[test]
fn scan_until_blocks_match_the_byte_classes() {
    use super::tokenizer::{scan_until, CLASS, END_ATTR_NAME, END_TAG_NAME, END_UNQUOTED};
    let alphabet = b"aZ-\t\n\x0C /=>\"'&<\xC3\xA9\r\x0B";
    let mut next = crate::test_rng(0x2545_F491_4F6C_DD1D);
    for len in 0..40 {
        for _ in 0..30 {
            let b: Vec<u8> = (0..len)
                .map(|_| {
                    let seed = next();
                    // Mostly name bytes, so that stops are far apart too.
                    if seed & 3 == 0 {
                        alphabet[(seed >> 8) as usize % alphabet.len()]
                    } else {
                        b'a'
                    }
                })
                .collect();
            for stop in [END_TAG_NAME, END_ATTR_NAME, END_UNQUOTED] {
                for k in 0..=len {
                    let want = (k..len).find(|&i| CLASS[b[i] as usize] & stop != 0).unwrap_or(len);
                    assert_eq!(scan_until(&b, k, stop), want, "{b:?} from {k} stop {stop}");
                }
            }
        }
    }
}

/// `folded_key` finds the same tag as the key of the ASCII-lowercased name (the general
/// path), for known names and others of every length up to past a word (only the first 8
/// bytes are in the key), ending the input or followed by more bytes, with every byte value in
/// every position of the first word; and it is that key for names of lowercase letters and
/// digits, which every known name is.
#[test]
fn folded_key_finds_the_tag_of_the_lowercased_name() {
    use super::tokenizer::folded_key;
    use crate::html::tags::{lookup, name_key, TAGS};
    for info in TAGS.iter().skip(1) {
        let n = info.name.as_bytes();
        assert!(n.iter().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()), "{}", info.name);
    }
    let mut bases: Vec<Vec<u8>> = (1..13).map(|len| b"AbCdEfGhIjKl"[..len].to_vec()).collect();
    bases.extend(TAGS.iter().skip(1).map(|t| t.name.as_bytes().to_vec()));
    bases.extend(TAGS.iter().skip(1).map(|t| t.name.to_ascii_uppercase().into_bytes()));
    for base in &bases {
        let len = base.len();
        let exact = base.iter().all(|c| c.is_ascii_alphanumeric());
        for pos in 0..len.min(8) {
            for byte in 0..=255u8 {
                let mut name = base.clone();
                name[pos] = byte;
                let lowered = name.to_ascii_lowercase();
                let want = lookup(name_key(&lowered), &name);
                for tail in [&b""[..], b"Z>", b"\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF"] {
                    for lead in 0..3 {
                        let mut b = vec![b'Q'; lead];
                        b.extend_from_slice(&name);
                        b.extend_from_slice(tail);
                        let key = folded_key(&b, lead, lead + len);
                        assert_eq!(lookup(key, &name), want, "{name:?} lead {lead} tail {tail:?}");
                        if exact && byte.is_ascii_alphanumeric() {
                            assert_eq!(key, name_key(&lowered), "{name:?}");
                        }
                    }
                }
            }
        }
    }
}

/// `char_ref`'s shortcut for a name run of one character: every name of the table is two
/// ASCII alphanumerics or more, with an optional final `;`, so such a run starts no
/// reference; the prefix walk says the same (a literal `&`, read on from the name).
#[test]
fn one_character_name_runs_start_no_reference() {
    /// A decoder of the test text, handing its pieces to the given sink.
    type Decode<'d> = dyn Fn(&mut dyn FnMut(&str, Option<char>)) -> Option<usize> + 'd;
    use super::refs::{char_ref, named_ref_prefix};
    // (The table also holds every prefix of a name, mapped to zero: not references.)
    for (key, _) in NAMED_ENTITIES.entries().filter(|(_, &(c1, _))| c1 != 0) {
        let name = key.strip_suffix(';').unwrap_or(key);
        assert!(name.len() >= 2 && name.bytes().all(|c| c.is_ascii_alphanumeric()), "{key}");
    }
    for t in ["&T", "&b=2", "&a;", "&x ", "&Q&A", "&1;", "&1x", "&lt", "&ltx", "&amp=", "&é"] {
        for in_attr in [false, true] {
            let decode = |f: &Decode<'_>| {
                let mut out = String::new();
                let end = f(&mut |s: &str, c: Option<char>| {
                    out.push_str(s);
                    out.extend(c);
                });
                (out, end)
            };
            let got = decode(&|p| char_ref(t, 0, in_attr, &mut |s, c| p(s, c)));
            let want = decode(&|p| named_ref_prefix(t, 1, in_attr, &mut |s, c| p(s, c)));
            // (Past the alphanumeric arm `char_ref` does not walk prefixes at all.)
            if t.as_bytes()[1].is_ascii_alphanumeric() {
                assert_eq!(got, want, "{t} in_attr {in_attr}");
            }
        }
    }
}
