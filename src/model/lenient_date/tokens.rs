//! Tokens of a lenient date: one left-to-right pass splitting the text into numbers, month and
//! weekday names, zones, meridiems and separators (at most [`MAX_TOKENS`]), and the word tables.

use super::instant::{num, Time};

/// Most tokens a date can have; longer token lists give `None`.
pub(super) const MAX_TOKENS: usize = 32;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ZoneKind {
    /// `±HH[:MM]`, `±HHMM`.
    Numeric,
    /// A fixed abbreviation (`EST`, `CET`, `UTC`).
    Named,
    /// `ET`/`CT`/`MT`/`PT`: the offset is standard time; daylight time follows the US rules.
    UsGeneric,
}

#[derive(Clone, Copy, Debug)]
pub(super) enum Tok<'a> {
    /// A digit run (value, digit count).
    Num(i64, usize),
    /// A month name (1–12); `weekday` if the word is also a weekday abbreviation (`mar`).
    Month { m: u32, weekday: bool },
    /// `H:MM[:SS[.F]]` (or a basic `HH[MM[SS[.F]]]` after `T`).
    Time(Time<'a>),
    /// A zone: seconds east of UTC.
    Zone { off: i64, kind: ZoneKind },
    /// AM (`false`) or PM (`true`).
    Meridiem(bool),
    /// `-`, `/`, `.` (commas are dropped).
    Sep(u8),
}

pub(super) struct Tokens<'a> {
    pub(super) buf: [Tok<'a>; MAX_TOKENS],
    pub(super) len: usize,
    /// Korean date words were seen: the default zone is +09:00.
    pub(super) korean: bool,
    /// `年`/`月`/`日` markers seen in order (0 none … 3 all).
    pub(super) cjk: u8,
    /// An RFC 9557 `[…]` annotation was skipped.
    pub(super) annotated: bool,
}

impl<'a> Tokens<'a> {
    pub(super) fn push(&mut self, t: Tok<'a>) -> Option<()> {
        *self.buf.get_mut(self.len)? = t;
        self.len += 1;
        Some(())
    }
    pub(super) fn as_slice(&self) -> &[Tok<'a>] {
        &self.buf[..self.len]
    }
}

/// Most words a date can have, the dropped ones (weekday names, filler words) included;
/// more give `None`. Without it, a run of dropped words (`Monday Monday …`) was read to its
/// end at the cost of a table search per word.
pub(super) const MAX_WORDS: usize = MAX_TOKENS;

/// Splits `s` into tokens, dropping whitespace, commas, parenthesised comments, `[…]`
/// annotations, filler words and weekday names. `None` on an unknown word or character, or
/// too many tokens or words ([`MAX_TOKENS`], [`MAX_WORDS`]).
pub(super) fn tokenize<'a>(s: &'a str, out: &mut Tokens<'a>) -> Option<()> {
    let b = s.as_bytes();
    let mut i = 0;
    let mut words = 0;
    let mut seen_time = false;
    let mut first_word = true;
    // The previous token was a `T` between digits (`…15T1345…`).
    let mut after_t = false;
    while i < b.len() {
        let c = b[i];
        let t_sep = std::mem::replace(&mut after_t, false);
        match c {
            b' ' | b'\t' | b'\r' | b'\n' | b',' => i += 1,
            b'(' => {
                let mut depth = 0usize;
                loop {
                    match *b.get(i)? {
                        b'(' => depth += 1,
                        b')' => depth -= 1,
                        _ => {}
                    }
                    i += 1;
                    if depth == 0 {
                        break;
                    }
                }
            }
            b'[' => {
                // RFC 9557 `[Europe/Paris]`: the offset before it decides (checked later).
                i += b[i..].iter().position(|&c| c == b']')? + 1;
                out.annotated = true;
            }
            b'0'..=b'9' => {
                let (run, v) = digits(b, &mut i)?;
                let colon_digit = |i: usize| {
                    b.get(i) == Some(&b':') && b.get(i + 1).is_some_and(u8::is_ascii_digit)
                };
                if colon_digit(i) {
                    // A time: H:MM[:SS[.F]].
                    i += 1;
                    let (mr, m) = digits(b, &mut i)?;
                    let (mut sec, mut frac) = (0, "");
                    if colon_digit(i) {
                        i += 1;
                        let (sr, sv) = digits(b, &mut i)?;
                        if sr.len() != 2 {
                            return None;
                        }
                        sec = sv;
                        frac = fraction(s, &mut i);
                    }
                    if run.len() > 2 || mr.len() != 2 {
                        return None;
                    }
                    out.push(Tok::Time((v as u32, m as u32, sec as u32, frac)))?;
                    seen_time = true;
                } else if t_sep && matches!(run.len(), 2 | 4 | 6) && !seen_time {
                    // ISO 8601 after `T`: `T13`, `T1345`, `T134500[.F]`.
                    let p = |k: usize| run.get(k..k + 2).map_or(0, |d| num(d) as u32);
                    let frac = if run.len() == 6 { fraction(s, &mut i) } else { "" };
                    out.push(Tok::Time((p(0), p(2), p(4), frac)))?;
                    seen_time = true;
                } else if run.len() == 8 && out.len == 0 {
                    // ISO 8601 basic date `YYYYMMDD` (then `T` or a time).
                    out.push(Tok::Num(v / 10_000, 4))?;
                    out.push(Tok::Sep(b'-'))?;
                    out.push(Tok::Num(v / 100 % 100, 2))?;
                    out.push(Tok::Sep(b'-'))?;
                    out.push(Tok::Num(v % 100, 2))?;
                } else {
                    out.push(Tok::Num(v, run.len()))?;
                    // Ordinal suffixes: 1st, 2nd, 3rd, 15th, 1er, 1º.
                    let rest = &s[i..];
                    for suf in ["st", "nd", "rd", "th", "er", "º", "°"] {
                        let n = suf.len();
                        if rest.len() >= n
                            && rest.as_bytes()[..n].eq_ignore_ascii_case(suf.as_bytes())
                            && !rest[n..].starts_with(|c: char| c.is_alphabetic())
                        {
                            i += n;
                            break;
                        }
                    }
                }
            }
            b'+' | b'-' if seen_time => {
                i += 1;
                let (run, v) = digits(b, &mut i)?;
                let (h, m) = match run.len() {
                    1 | 2 if b.get(i) == Some(&b':') => {
                        i += 1;
                        let (mr, m) = digits(b, &mut i)?;
                        if mr.len() != 2 {
                            return None;
                        }
                        (v, m)
                    }
                    1 | 2 => (v, 0),
                    4 => (v / 100, v % 100),
                    _ => return None,
                };
                if h > 23 || m > 59 {
                    return None;
                }
                let off = (h * 3600 + m * 60) * if c == b'-' { -1 } else { 1 };
                out.push(Tok::Zone { off, kind: ZoneKind::Numeric })?;
            }
            b'-' | b'/' | b'.' => {
                out.push(Tok::Sep(c))?;
                i += 1;
            }
            _ if s[i..].starts_with(char::is_whitespace) => {
                i += s[i..].chars().next().map_or(1, char::len_utf8); // `&nbsp;` and friends
            }
            _ => {
                // A word: a run of alphabetic characters (any script), then an optional '.'.
                words += 1;
                if words > MAX_WORDS {
                    return None;
                }
                let start = i;
                let word = word_at(s, &mut i)?;
                let dotted = b.get(i) == Some(&b'.');
                if dotted {
                    i += 1;
                }
                let was_first = std::mem::replace(&mut first_word, false);
                if let Some(m) = lookup(word, MONTHS) {
                    let weekday = lookup(word, WEEKDAYS).is_some();
                    out.push(Tok::Month { m, weekday })?;
                } else if let Some((unit, korean)) = lookup(word, CJK_UNITS) {
                    // 2024年1月15日: the markers follow their numbers, in this order.
                    let follows_num = matches!(out.as_slice().last(), Some(Tok::Num(..)));
                    if !follows_num || out.cjk != unit - 1 || dotted {
                        return None;
                    }
                    out.cjk = unit;
                    out.korean |= korean;
                    if unit < 3 {
                        out.push(Tok::Sep(b'-'))?;
                    }
                } else if lookup(word, WEEKDAYS).is_some() {
                } else if let Some(before_time) = lookup(word, FILLERS) {
                    if before_time && seen_time {
                        return None; // `16:31 AT` is not `at 16:31`
                    }
                    let t = word.eq_ignore_ascii_case("t") && !dotted;
                    after_t = t
                        && start > 0
                        && b[start - 1].is_ascii_digit()
                        && b.get(i).is_some_and(u8::is_ascii_digit);
                } else if let Some(pm) = meridiem(word, b, &mut i) {
                    out.korean |= word.starts_with(['오']);
                    out.push(Tok::Meridiem(pm))?;
                } else if let Some(off) = lookup(word, ZONES) {
                    out.push(Tok::Zone { off: off as i64 * 60, kind: ZoneKind::Named })?;
                } else if let Some(off) = lookup(word, US_GENERIC_ZONES) {
                    out.push(Tok::Zone { off: off as i64 * 60, kind: ZoneKind::UsGeneric })?;
                } else if word.eq_ignore_ascii_case("etc") && !dotted && b.get(i) == Some(&b'/') {
                    // `Etc/GMT`, `Etc/UTC` (not `Etc/GMT+5`, whose sign is inverted).
                    i += 1;
                    lookup(word_at(s, &mut i)?, ETC_ZONES)?;
                    if matches!(b.get(i), Some(b'+' | b'-')) {
                        return None;
                    }
                    out.push(Tok::Zone { off: 0, kind: ZoneKind::Named })?;
                } else if was_first && b.get(i) == Some(&b',') && !dotted {
                    // `Xyz, 20 …`: a leading word with a comma is a weekday, whatever it says.
                } else {
                    return None;
                }
            }
        }
    }
    Some(())
}

/// The alphabetic run at `*i` (any script; at least one character).
pub(super) fn word_at<'a>(s: &'a str, i: &mut usize) -> Option<&'a str> {
    let start = *i;
    let len: usize = s[start..].chars().take_while(|c| c.is_alphabetic()).map(char::len_utf8).sum();
    if len == 0 {
        return None;
    }
    *i += len;
    Some(&s[start..*i])
}

/// Optional fractional seconds at `*i`: `.` or `,` then digits (`""` if none).
pub(super) fn fraction<'a>(s: &'a str, i: &mut usize) -> &'a str {
    let b = s.as_bytes();
    if !matches!(b.get(*i), Some(b'.' | b',')) || !b.get(*i + 1).is_some_and(u8::is_ascii_digit) {
        return "";
    }
    let start = *i + 1;
    let mut j = start;
    while b.get(j).is_some_and(u8::is_ascii_digit) {
        j += 1;
    }
    *i = j;
    &s[start..j]
}

/// A digit run at `*i` (at least one digit; value must fit an i64).
pub(super) fn digits<'b>(b: &'b [u8], i: &mut usize) -> Option<(&'b [u8], i64)> {
    let start = *i;
    while b.get(*i).is_some_and(u8::is_ascii_digit) {
        *i += 1;
    }
    let run = &b[start..*i];
    if run.is_empty() {
        return None;
    }
    let mut v = 0i64;
    for &c in run {
        v = v.checked_mul(10)?.checked_add((c - b'0') as i64)?;
    }
    Some((run, v))
}

/// `am`/`pm`, also `a.m.`/`p.m.` (the dot after `a`/`p` has already been consumed), and the
/// Korean, Japanese and Chinese words (`오전`/`오후`, `午前`/`午後`, `上午`/`下午`).
pub(super) fn meridiem(word: &str, b: &[u8], i: &mut usize) -> Option<bool> {
    match word {
        "오전" | "午前" | "上午" => return Some(false),
        "오후" | "午後" | "下午" => return Some(true),
        _ => {}
    }
    if word.eq_ignore_ascii_case("am") {
        return Some(false);
    }
    if word.eq_ignore_ascii_case("pm") {
        return Some(true);
    }
    let pm = match word {
        "a" | "A" => false,
        "p" | "P" => true,
        _ => return None,
    };
    // `a.m.`: previous '.' consumed with the word; expect `m` and an optional '.'.
    if b.get(*i).is_some_and(|c| c.eq_ignore_ascii_case(&b'm')) && b[*i - 1] == b'.' {
        *i += 1;
        if b.get(*i) == Some(&b'.') {
            *i += 1;
        }
        return Some(pm);
    }
    None
}

/// Unicode-lowercase comparison of `word` with the lowercase `name`, without allocating.
pub(super) fn eq_lower(word: &str, name: &str) -> bool {
    word.chars().flat_map(char::to_lowercase).eq(name.chars())
}

/// The value of `word` in `table` (lowercase names), compared case-insensitively.
///
/// NOTE: an ASCII word can only equal an ASCII name of its length, compared bytewise; the
/// Unicode lowercase comparison is kept for other words (and stops at the first difference).
pub(super) fn lookup<T: Copy>(word: &str, table: &[(&str, T)]) -> Option<T> {
    #[cfg(test)]
    super::tests::count_lookup(table.len());
    if word.is_ascii() {
        let w = word.as_bytes();
        return table
            .iter()
            .find(|(n, _)| n.len() == w.len() && n.as_bytes().eq_ignore_ascii_case(w))
            .map(|&(_, v)| v);
    }
    table.iter().find(|(n, _)| eq_lower(word, n)).map(|&(_, v)| v)
}

/// Month names and abbreviations: English, German, French, Spanish, Italian, Portuguese,
/// Dutch, Swedish/Danish/Norwegian, Indonesian, Hungarian, Polish, Turkish, Russian and Greek
/// (with common unaccented spellings). No entry is a name of two different months, and names
/// that are one month in a language and another in a neighbour's are left out (Polish
/// `listopad(a)` is November, Croatian October).
#[rustfmt::skip]
pub(super) const MONTHS: &[(&str, u32)] = &[
    ("january", 1), ("jan", 1), ("januar", 1), ("jänner", 1), ("janvier", 1), ("janv", 1),
    ("enero", 1), ("ene", 1), ("gennaio", 1), ("gen", 1), ("janeiro", 1), ("januari", 1),
    ("január", 1), ("stycznia", 1), ("styczeń", 1), ("sty", 1), ("ocak", 1),
    ("января", 1), ("январь", 1), ("янв", 1), ("ιαν", 1), ("ιανουαρίου", 1),
    ("february", 2), ("feb", 2), ("febr", 2), ("februar", 2), ("février", 2), ("fevrier", 2),
    ("févr", 2), ("fevr", 2), ("fév", 2), ("fev", 2), ("febrero", 2), ("febbraio", 2),
    ("fevereiro", 2), ("februari", 2), ("febuary", 2), ("feburary", 2), ("február", 2),
    ("lutego", 2), ("luty", 2), ("lut", 2),
    ("şubat", 2), ("subat", 2), ("февраля", 2), ("февраль", 2), ("фев", 2), ("февр", 2),
    ("φεβ", 2), ("φεβρουαρίου", 2),
    ("march", 3), ("mar", 3), ("märz", 3), ("maerz", 3), ("marz", 3), ("mär", 3), ("mrz", 3),
    ("mars", 3), ("marzo", 3), ("março", 3), ("marco", 3), ("maart", 3), ("mrt", 3),
    ("marts", 3), ("maret", 3), ("március", 3), ("márc", 3), ("marca", 3), ("marzec", 3),
    ("mart", 3), ("марта", 3), ("март", 3), ("мар", 3), ("μάρ", 3), ("μαρ", 3),
    ("μαρτίου", 3),
    ("april", 4), ("apr", 4), ("avril", 4), ("avr", 4), ("abril", 4), ("abr", 4),
    ("aprile", 4), ("április", 4), ("ápr", 4), ("kwietnia", 4), ("kwiecień", 4), ("kwi", 4),
    ("nisan", 4), ("апреля", 4), ("апрель", 4), ("апр", 4), ("απρ", 4), ("απριλίου", 4),
    ("may", 5), ("mai", 5), ("mayo", 5), ("maggio", 5), ("mag", 5), ("maio", 5), ("mei", 5),
    ("maj", 5), ("május", 5), ("máj", 5), ("maja", 5), ("mayıs", 5), ("mayis", 5),
    ("мая", 5), ("май", 5), ("μάι", 5), ("μαι", 5), ("μαϊ", 5), ("μαΐου", 5), ("μαιου", 5),
    ("june", 6), ("jun", 6), ("juni", 6), ("juin", 6), ("junio", 6), ("giugno", 6),
    ("giu", 6), ("junho", 6), ("június", 6), ("jún", 6), ("czerwca", 6), ("czerwiec", 6),
    ("cze", 6), ("haziran", 6), ("июня", 6), ("июнь", 6), ("июн", 6), ("ιούν", 6),
    ("ιουν", 6), ("ιον", 6), ("ιουνίου", 6),
    ("july", 7), ("jul", 7), ("juli", 7), ("juillet", 7), ("juil", 7), ("julio", 7),
    ("luglio", 7), ("lug", 7), ("julho", 7), ("július", 7), ("júl", 7), ("lipca", 7),
    ("lipiec", 7), ("lip", 7), ("temmuz", 7), ("июля", 7), ("июль", 7), ("июл", 7),
    ("ιούλ", 7), ("ιουλ", 7), ("ιολ", 7), ("ιουλίου", 7),
    ("august", 8), ("aug", 8), ("août", 8), ("aout", 8), ("agosto", 8), ("ago", 8),
    ("augustus", 8), ("augusti", 8), ("agustus", 8), ("augusztus", 8), ("sierpnia", 8),
    ("sierpień", 8), ("sie", 8), ("ağustos", 8), ("agustos", 8), ("августа", 8),
    ("август", 8), ("авг", 8), ("αύγ", 8), ("αυγ", 8), ("αυγούστου", 8),
    ("september", 9), ("sep", 9), ("sept", 9), ("septembre", 9), ("septiembre", 9),
    ("setiembre", 9), ("settembre", 9), ("set", 9), ("setembro", 9), ("szeptember", 9),
    ("szept", 9), ("września", 9), ("wrzesień", 9), ("wrz", 9), ("eylül", 9), ("eylul", 9),
    ("сентября", 9), ("сентябрь", 9), ("сен", 9), ("сент", 9), ("σεπ", 9),
    ("σεπτεμβρίου", 9),
    ("october", 10), ("oct", 10), ("oktober", 10), ("okt", 10), ("octobre", 10),
    ("octubre", 10), ("ottobre", 10), ("ott", 10), ("outubro", 10), ("out", 10),
    ("október", 10), ("października", 10), ("październik", 10), ("paź", 10), ("ekim", 10),
    ("октября", 10), ("октябрь", 10), ("окт", 10), ("οκτ", 10), ("οκτωβρίου", 10),
    ("november", 11), ("nov", 11), ("novembre", 11), ("noviembre", 11), ("novembro", 11),
    ("kasım", 11), ("kasim", 11), ("ноября", 11), ("ноябрь", 11), ("ноя", 11), ("нояб", 11),
    ("νοέ", 11), ("νοε", 11), ("νοεμβρίου", 11),
    ("december", 12), ("dec", 12), ("dezember", 12), ("dez", 12), ("décembre", 12),
    ("decembre", 12), ("déc", 12), ("diciembre", 12), ("dic", 12), ("dicembre", 12),
    ("dezembro", 12), ("desember", 12), ("grudnia", 12), ("grudzień", 12), ("gru", 12),
    ("aralık", 12), ("aralik", 12), ("декабря", 12), ("декабрь", 12), ("дек", 12),
    ("δεκ", 12), ("δεκεμβρίου", 12),
];

/// Weekday names and abbreviations in the same languages (values unused: weekdays are
/// never validated).
#[rustfmt::skip]
pub(super) const WEEKDAYS: &[(&str, ())] = &[
    ("monday", ()), ("mon", ()), ("tuesday", ()), ("tue", ()), ("tues", ()),
    ("wednesday", ()), ("wed", ()), ("thursday", ()), ("thu", ()), ("thur", ()),
    ("thurs", ()), ("friday", ()), ("fri", ()), ("saturday", ()), ("sat", ()),
    ("sunday", ()), ("sun", ()),
    ("montag", ()), ("mo", ()), ("dienstag", ()), ("di", ()), ("mittwoch", ()), ("mi", ()),
    ("donnerstag", ()), ("do", ()), ("freitag", ()), ("fr", ()), ("samstag", ()),
    ("sonnabend", ()), ("sa", ()), ("sonntag", ()), ("so", ()),
    ("lundi", ()), ("lun", ()), ("mardi", ()), ("mar", ()), ("mercredi", ()), ("mer", ()),
    ("jeudi", ()), ("jeu", ()), ("vendredi", ()), ("ven", ()), ("samedi", ()), ("sam", ()),
    ("dimanche", ()), ("dim", ()),
    ("lunes", ()), ("martes", ()), ("miércoles", ()), ("miercoles", ()), ("mié", ()),
    ("mie", ()), ("jueves", ()), ("jue", ()), ("viernes", ()), ("vie", ()), ("sábado", ()),
    ("sabado", ()), ("sáb", ()), ("sab", ()), ("domingo", ()), ("dom", ()),
    ("lunedì", ()), ("lunedi", ()), ("martedì", ()), ("martedi", ()), ("mercoledì", ()),
    ("mercoledi", ()), ("giovedì", ()), ("giovedi", ()), ("gio", ()), ("venerdì", ()),
    ("venerdi", ()), ("sabato", ()), ("domenica", ()),
    ("segunda", ()), ("seg", ()), ("terça", ()), ("terca", ()), ("ter", ()), ("quarta", ()),
    ("qua", ()), ("quinta", ()), ("qui", ()), ("sexta", ()), ("sex", ()),
    ("maandag", ()), ("ma", ()), ("dinsdag", ()), ("woensdag", ()), ("wo", ()),
    ("donderdag", ()), ("vrijdag", ()), ("vr", ()), ("zaterdag", ()), ("za", ()),
    ("zondag", ()), ("zo", ()),
    ("måndag", ()), ("mandag", ()), ("tisdag", ()), ("tirsdag", ()), ("onsdag", ()),
    ("torsdag", ()), ("fredag", ()), ("lördag", ()), ("lørdag", ()), ("söndag", ()),
    ("søndag", ()),
    ("hétfő", ()), ("kedd", ()), ("szerda", ()), ("csütörtök", ()), ("péntek", ()),
    ("szombat", ()), ("vasárnap", ()),
    ("poniedziałek", ()), ("wtorek", ()), ("środa", ()), ("czwartek", ()), ("piątek", ()),
    ("sobota", ()), ("niedziela", ()),
    ("pazartesi", ()), ("salı", ()), ("çarşamba", ()), ("perşembe", ()), ("cuma", ()),
    ("cumartesi", ()), ("pazar", ()),
    ("понедельник", ()), ("вторник", ()), ("среда", ()), ("четверг", ()), ("пятница", ()),
    ("суббота", ()), ("воскресенье", ()), ("пн", ()), ("вт", ()), ("ср", ()), ("чт", ()),
    ("пт", ()), ("сб", ()), ("вс", ()),
    ("κυρ", ()), ("δευ", ()), ("τρι", ()), ("τετ", ()), ("πεμ", ()), ("παρ", ()), ("σαβ", ()),
];

/// Words that carry no date information; `true`: only before the time (`at 16:31`, never
/// `16:31 AT`).
#[rustfmt::skip]
pub(super) const FILLERS: &[(&str, bool)] = &[
    ("t", true), ("at", true), ("of", false), ("the", false), ("on", false), ("de", false),
    ("del", false), ("um", true), ("uhr", false), ("à", true), ("le", false), ("el", false),
    ("feira", false), ("om", true), ("alle", true), ("às", true), ("kl", true), ("г", false),
    ("года", false), ("в", true),
];

/// `年`/`월`… markers: 1 year, 2 month, 3 day; `true` for Korean.
#[rustfmt::skip]
pub(super) const CJK_UNITS: &[(&str, (u8, bool))] = &[
    ("年", (1, false)), ("月", (2, false)), ("日", (3, false)),
    ("년", (1, true)), ("월", (2, true)), ("일", (3, true)),
];

/// Unambiguous zone abbreviations, minutes east of UTC. Deliberately absent (ambiguous):
/// `BST`, `IST`, `AST`, `AT`, `CST` other than US Central, etc.
#[rustfmt::skip]
pub(super) const ZONES: &[(&str, i32)] = &[
    ("z", 0), ("ut", 0), ("utc", 0), ("gmt", 0),
    ("est", -300), ("edt", -240), ("cst", -360), ("cdt", -300),
    ("mst", -420), ("mdt", -360), ("pst", -480), ("pdt", -420),
    ("akst", -540), ("akdt", -480), ("hst", -600),
    ("wet", 0), ("west", 60), ("cet", 60), ("cest", 120), ("mez", 60), ("mesz", 120),
    ("eet", 120), ("eest", 180), ("msk", 180), ("jst", 540), ("kst", 540), ("hkt", 480),
    ("sgt", 480), ("aest", 600), ("aedt", 660), ("acst", 570), ("acdt", 630), ("awst", 480),
    ("nzst", 720), ("nzdt", 780),
];

/// US zones without a season: standard-time offsets in minutes (see [`us_offset`]).
pub(super) const US_GENERIC_ZONES: &[(&str, i32)] =
    &[("et", -300), ("ct", -360), ("mt", -420), ("pt", -480)];

/// Zone names accepted after `Etc/`.
pub(super) const ETC_ZONES: &[(&str, ())] =
    &[("utc", ()), ("gmt", ()), ("uct", ()), ("ut", ()), ("zulu", ()), ("universal", ())];
