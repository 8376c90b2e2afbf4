//! The generated parts of the docs and the Python package are what the code generates now:
//! the record's key tables (docs/record.md), the Arrow schema listings (docs/record.md) and
//! the Python `TypedDict`s (python/feedmill/record.py), all made from the record's walk, and
//! the limit keywords of the Python stub's `Options` (python/feedmill/__init__.pyi) and the
//! limits table (docs/safety.md), made from `Limits::ALL`. Each
//! lives between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->` lines (`# ` in
//! front in Python); `GOLDEN_BLESS=1 cargo test --release --test it generated::` rewrites
//! them.

use std::path::Path;

use feedmill::columnar::{describe, Layout};
use feedmill::record::{json_key_tables, python_typed_dicts};

/// Checks (or, with `GOLDEN_BLESS`, rewrites) the region `name` of `file` against `content`.
fn region(file: &str, comment: &str, name: &str, content: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
    let (open, close) = match comment {
        "#" => (format!("# <!-- generated:{name} -->\n"), format!("# <!-- /generated:{name} -->")),
        _ => (format!("<!-- generated:{name} -->\n"), format!("<!-- /generated:{name} -->")),
    };
    let start = text.find(&open).unwrap_or_else(|| panic!("{file}: no {open:?}")) + open.len();
    let end = start + text[start..].find(&close).unwrap_or_else(|| panic!("{file}: no {close:?}"));
    if text[start..end] == *content {
        return;
    }
    if std::env::var_os("GOLDEN_BLESS").is_some() {
        std::fs::write(&path, format!("{}{content}{}", &text[..start], &text[end..])).unwrap();
        return;
    }
    panic!(
        "{file}: the generated region {name:?} is not what the code generates; \
         GOLDEN_BLESS=1 cargo test --release --test it generated:: rewrites it.\n\
         --- in the file\n{}\n--- generated\n{content}",
        &text[start..end]
    );
}

#[test]
fn record_key_tables_are_the_walks() {
    region("docs/record.md", "", "jsonl-keys", &json_key_tables());
}

#[test]
fn arrow_schema_listings_are_the_schemas() {
    for (name, layout) in [("arrow-records", Layout::Records), ("arrow-entries", Layout::Entries)] {
        region("docs/record.md", "", name, &format!("```text\n{}```\n", describe(layout)));
    }
}

#[test]
fn python_typed_dicts_are_the_walks() {
    region("python/feedmill/record.py", "#", "typed-dicts", &python_typed_dicts());
}

#[test]
fn python_limit_options_are_the_limits() {
    let keys: String =
        feedmill::Limits::ALL.iter().map(|l| format!("    {}: int\n", l.name())).collect();
    region("python/feedmill/__init__.pyi", "#", "limit-options", &keys);
}

#[test]
fn limits_table_is_the_limits() {
    region("docs/safety.md", "", "limits", &feedmill::Limits::markdown_table());
}
