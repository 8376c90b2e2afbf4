//! The attribute cap of escaped HTML on the html5ever path ([`first_over_cap`]).
//!
//! Owns: finding, in linear time, the first place in a text from which the HTML tokenizer
//! could read a tag with more than a given number of attributes. html5ever's tokenizer checks
//! each new attribute name against every earlier one of its tag, so a tag with n attributes
//! costs n² / 2 comparisons; the text handed to it is cut before such a tag instead.

/// States of the HTML tokenizer inside a tag, from the tag name on (HTML Standard §13.2.5.8
/// "tag name state" to §13.2.5.40 "self-closing start tag state").
#[derive(Clone, Copy)]
#[repr(u8)]
enum TagState {
    TagName,
    BeforeAttrName,
    AttrName,
    AfterAttrName,
    BeforeValue,
    DoubleQuoted,
    SingleQuoted,
    Unquoted,
    AfterQuoted,
    SelfClosing,
}

const STATES: usize = 10;

/// The tokenizer's whitespace (CR counts: input preprocessing makes it LF).
#[inline]
fn ws(c: u8) -> bool {
    c.is_ascii_whitespace()
}

/// The first `<` at or after `from` that opens a start or end tag (`<` or `</` followed by an
/// ASCII letter) whose attributes, read by the tokenizer's tag states from there, number more
/// than `cap` (every attribute name counts, duplicates included). Every `<` is tried, whatever
/// state the tokenizer would really be in there (inside a comment, an attribute value, raw
/// text…), so this over-approximates: a tag the tokenizer reads with more than `cap`
/// attributes always starts at or after the position returned.
///
/// One right-to-left pass: `next[s]` is the number of attribute names the tag states read
/// from the following byte on, in state `s`, up to the tag's `>` or the end of the text
/// (saturating at `cap + 1`); each byte's row follows from the next one's.
pub(crate) fn first_over_cap(text: &str, from: usize, cap: usize) -> Option<usize> {
    let b = text.as_bytes();
    let limit = u32::try_from(cap).unwrap_or(u32::MAX - 1).saturating_add(1);
    // Rows for positions p + 1 and p + 2 (counts from there on, per state).
    let mut next = [0u32; STATES];
    let mut next2 = [0u32; STATES];
    let mut found = None;
    for p in (from..b.len()).rev() {
        let c = b[p];
        if c == b'<' {
            // `<x`: the letter at p + 1 is the name's first character (row `next`); `</x`:
            // the letter at p + 2 is (row `next2`). A letter keeps the tag name state.
            let over = match b.get(p + 1) {
                Some(l) if l.is_ascii_alphabetic() => next[TagState::TagName as usize] >= limit,
                Some(b'/') if b.get(p + 2).is_some_and(|l| l.is_ascii_alphabetic()) => {
                    next2[TagState::TagName as usize] >= limit
                }
                _ => false,
            };
            if over {
                found = Some(p);
            }
        }
        let row = step(c, &next, limit);
        next2 = next;
        next = row;
    }
    found
}

/// The counts at a byte `c` per state, given the counts at the following byte (`n`).
#[inline]
fn step(c: u8, n: &[u32; STATES], limit: u32) -> [u32; STATES] {
    use TagState::*;
    let at = |s: TagState| n[s as usize];
    let new_attr = |v: u32| (v + 1).min(limit);
    // States that consume `c` (their value depends only on the next row) first, then the
    // ones that reconsume it in another state (in an order with no cycle).
    let tag_name = match c {
        b'>' => 0,
        b'/' => at(SelfClosing),
        c if ws(c) => at(BeforeAttrName),
        _ => at(TagName),
    };
    let double_quoted = if c == b'"' { at(AfterQuoted) } else { at(DoubleQuoted) };
    let single_quoted = if c == b'\'' { at(AfterQuoted) } else { at(SingleQuoted) };
    let unquoted = match c {
        b'>' => 0,
        c if ws(c) => at(BeforeAttrName),
        _ => at(Unquoted),
    };
    // Attribute name: whitespace, `/` and `>` reconsume in the after-name state.
    let attr_name_consuming = match c {
        b'=' => Some(at(BeforeValue)),
        c if ws(c) || c == b'/' || c == b'>' => None,
        _ => Some(at(AttrName)),
    };
    let after_attr_name = match c {
        b'>' => 0,
        b'/' => at(SelfClosing),
        b'=' => at(BeforeValue),
        c if ws(c) => at(AfterAttrName),
        // Anything else starts a new attribute, reconsumed in the name state (which
        // consumes it: it is none of whitespace, `/`, `>`, `=`).
        _ => new_attr(attr_name_consuming.unwrap_or(0)),
    };
    let attr_name = attr_name_consuming.unwrap_or(after_attr_name);
    let before_value = match c {
        b'"' => at(DoubleQuoted),
        b'\'' => at(SingleQuoted),
        b'>' => 0,
        c if ws(c) => at(BeforeValue),
        _ => unquoted,
    };
    let before_attr_name = match c {
        c if ws(c) => at(BeforeAttrName),
        b'/' | b'>' => after_attr_name,
        // `=` starts an attribute whose name begins with it; anything else starts one and is
        // reconsumed in the name state.
        b'=' => new_attr(at(AttrName)),
        _ => new_attr(attr_name),
    };
    let after_quoted = match c {
        c if ws(c) => at(BeforeAttrName),
        b'/' => at(SelfClosing),
        b'>' => 0,
        _ => before_attr_name,
    };
    let self_closing = if c == b'>' { 0 } else { before_attr_name };
    let mut row = [0; STATES];
    row[TagName as usize] = tag_name;
    row[BeforeAttrName as usize] = before_attr_name;
    row[AttrName as usize] = attr_name;
    row[AfterAttrName as usize] = after_attr_name;
    row[BeforeValue as usize] = before_value;
    row[DoubleQuoted as usize] = double_quoted;
    row[SingleQuoted as usize] = single_quoted;
    row[Unquoted as usize] = unquoted;
    row[AfterQuoted as usize] = after_quoted;
    row[SelfClosing as usize] = self_closing;
    row
}

#[cfg(test)]
mod tests {
    use super::first_over_cap;

    /// The number of attributes of the tag at 0, by a forward reading of the same states.
    fn count(text: &str) -> usize {
        // The smallest cap the tag is not over.
        (0..1000).find(|&cap| first_over_cap(text, 0, cap) != Some(0)).unwrap()
    }

    #[test]
    fn counts_attributes_as_the_tokenizer_reads_them() {
        assert_eq!(count("<a>"), 0);
        assert_eq!(count("<a b>"), 1);
        assert_eq!(count("<a b c=d e='f' g=\"h\">"), 4);
        // Duplicates count, `=` can start a name, a quoted value hides `>` and spaces.
        // (`b =x` is `b` with value `x`; after a value, `=d` is an attribute named `=d`.)
        assert_eq!(count("<a b b =x c=\"> y z\" =d>"), 4);
        // After a quoted value a name can follow without a space; `/` separates.
        assert_eq!(count("<a b=\"\"c=''d/e/>"), 4);
        // End tags have attributes too; EOF inside the tag counts what was read.
        assert_eq!(count("</a b c>"), 2);
        assert_eq!(count("<a b c"), 2);
        // The tag ends at its `>`: what follows is not counted.
        assert_eq!(count("<a b> c d e"), 1);
        assert_eq!(count("<a b=c>d e"), 1);
    }

    #[test]
    fn finds_the_first_tag_over_the_cap() {
        let many = format!("<p{}>", " x".repeat(10));
        let text = format!("<b a b c>text{many} <i a b c d e f g h i j k l>");
        assert_eq!(first_over_cap(&text, 0, 10), Some(text.find("<i").unwrap()));
        assert_eq!(first_over_cap(&text, 0, 9), Some(text.find("<p").unwrap()));
        assert_eq!(first_over_cap(&text, 0, 12), None);
        // Only from `from` on.
        assert_eq!(
            first_over_cap(&text, text.find("text").unwrap() + 5, 9),
            Some(text.find("<i").unwrap())
        );
        // `<` not opening a tag is not a candidate.
        assert_eq!(first_over_cap(&format!("< {}>", " x".repeat(20)), 0, 1), None);
    }
}
