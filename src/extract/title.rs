//! `title_text` for every entry: the title's plain text, else a headline made from the first
//! sentence or line of the body (docs/spec/feed-formats-and-extraction.md, Metadata Extraction
//! Checklist: Title, fallback "first line of description").

use bumpalo::Bump;

use crate::html::text::{collapse, first_line};
use crate::model::Text;

/// The most characters a headline made from the body keeps before it is cut at a word
/// boundary (an ellipsis `…` is then appended).
pub const TITLE_FROM_BODY_MAX_CHARS: usize = 120;

/// Bytes of the body's first line gathered at most (the headline is cut far shorter).
const LINE_BYTES_MAX: usize = TITLE_FROM_BODY_MAX_CHARS * 8;

/// A headline from a body: its first line (text up to the first block boundary or line
/// break), cut after its first sentence when that sentence has at least three words (a `.`,
/// `!`, `?` or `…` followed by a space, or `。`, `！`, `？`), then, when longer than
/// [`TITLE_FROM_BODY_MAX_CHARS`] characters, cut at the last space within them (at that many
/// characters when there is none) with `…` appended. `None` when the body has no text.
pub(crate) fn title_from_body<'b>(arena: &'b Bump, body: &Text<'_>) -> Option<&'b str> {
    let line: &str = match body {
        Text::Plain(s) => {
            let s = s.trim_start();
            let end = s.find('\n').unwrap_or(s.len());
            let line = &s[..floor_char(s, end.min(LINE_BYTES_MAX))];
            collapse(arena, arena.alloc_str(line))
        }
        Text::Html(h) => first_line(arena, h, LINE_BYTES_MAX),
    };
    let line = first_sentence(line);
    if line.is_empty() {
        return None;
    }
    Some(cut_to_length(arena, line))
}

/// The largest char boundary of `s` at or below `i`.
fn floor_char(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// `line` up to the end of its first sentence of three or more words (see
/// [`title_from_body`]); the whole line when it has none.
fn first_sentence(line: &str) -> &str {
    let mut spaces = 0usize;
    let mut chars = line.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            ' ' => spaces += 1,
            '.' | '!' | '?' | '…' => {
                let ends = chars.peek().is_none_or(|&(_, n)| n == ' ');
                if ends && spaces >= 2 {
                    return &line[..i + c.len_utf8()];
                }
            }
            '。' | '！' | '？' => return &line[..i + c.len_utf8()],
            _ => {}
        }
    }
    line
}

/// `line` within [`TITLE_FROM_BODY_MAX_CHARS`] (see [`title_from_body`]).
fn cut_to_length<'b>(arena: &'b Bump, line: &str) -> &'b str {
    let Some((limit, _)) = line.char_indices().nth(TITLE_FROM_BODY_MAX_CHARS) else {
        return arena.alloc_str(line);
    };
    let head = &line[..limit];
    let cut = match head.rfind(' ') {
        Some(sp) if sp > 0 => head[..sp].trim_end(),
        _ => head,
    };
    let mut s = bumpalo::collections::String::with_capacity_in(cut.len() + 3, arena);
    s.push_str(cut);
    s.push('…');
    s.into_bump_str()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn title(s: &str) -> Option<String> {
        let arena = Bump::new();
        title_from_body(&arena, &Text::Plain(s)).map(str::to_owned)
    }

    #[test]
    fn first_sentence_of_three_words_or_more() {
        assert_eq!(
            title("Mr. Smith went to Washington. Then home.").as_deref(),
            Some("Mr. Smith went to Washington.")
        );
        assert_eq!(
            title("U.S. stocks fell sharply! Oil rose.").as_deref(),
            Some("U.S. stocks fell sharply!")
        );
        assert_eq!(title("東京は晴れ。明日は雨。").as_deref(), Some("東京は晴れ。"));
        // Version numbers and decimals do not end a sentence.
        assert_eq!(title("Release 1.2.3 is out").as_deref(), Some("Release 1.2.3 is out"));
    }

    #[test]
    fn first_line_then_word_boundary_cut() {
        assert_eq!(title("\n\n  First line here\nSecond line").as_deref(), Some("First line here"));
        assert_eq!(title("   \n \t ").as_deref(), None);
        let long = "word ".repeat(40);
        let t = title(&long).unwrap();
        assert!(t.ends_with("word…"), "{t}");
        assert!(t.chars().count() <= TITLE_FROM_BODY_MAX_CHARS + 1);
        // No space within the limit: cut at the limit.
        let t = title(&"x".repeat(300)).unwrap();
        assert_eq!(t.chars().count(), TITLE_FROM_BODY_MAX_CHARS + 1);
        // Multi-byte characters are cut on character boundaries.
        let t = title(&"é".repeat(300)).unwrap();
        assert_eq!(t.chars().count(), TITLE_FROM_BODY_MAX_CHARS + 1);
    }
}
