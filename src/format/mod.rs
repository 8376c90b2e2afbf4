//! STUB
use bumpalo::Bump;
pub fn process_document<'a>(_arena: &'a Bump, _doc: &'a str, _base: url::Url, _o: &crate::Options) -> crate::Parsed<'a> {
    crate::Parsed { feed: None, format: None, diagnostics: Vec::new() }
}
