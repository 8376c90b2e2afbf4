//! Bench-side document decoding (BOM > XML declaration > UTF-8), used to turn corpus bytes
//! into the `&str` that `feedmill::Parser::parse_str` takes.
//!
//! This is a stand-in for `feedmill::input::decode` (which lands with the input module) and
//! does the same work: BOM sniff, `<?xml … encoding="…"?>` sniff, UTF-8 validation (borrowed,
//! no copy, when valid) or transcoding with `encoding_rs` (lossy: malformed bytes become
//! U+FFFD). Shared by `benches/` and `perf/peers/` (included there by `#[path]`), so every
//! harness decodes the same way.
#![allow(dead_code)]

use encoding_rs::Encoding;
use std::borrow::Cow;

/// The encoding to decode `bytes` with, and the length of its byte-order mark (0 if none).
pub fn sniff_encoding(bytes: &[u8]) -> (&'static Encoding, usize) {
    if let Some((enc, bom_len)) = Encoding::for_bom(bytes) {
        return (enc, bom_len);
    }
    if let Some(label) = declared_encoding(bytes) {
        if let Some(enc) = Encoding::for_label(label) {
            // A UTF-16 label without a BOM cannot be right for bytes we could read the
            // ASCII declaration from: treat as UTF-8 (what browsers do).
            if enc != encoding_rs::UTF_16LE && enc != encoding_rs::UTF_16BE {
                return (enc, 0);
            }
        }
    }
    (encoding_rs::UTF_8, 0)
}

/// The `encoding` pseudo-attribute of the XML declaration, if the document starts with one.
pub fn declared_encoding(bytes: &[u8]) -> Option<&[u8]> {
    let head = &bytes[..bytes.len().min(1024)];
    if !head.starts_with(b"<?xml") {
        return None;
    }
    let end = memchr::memmem::find(head, b"?>")?;
    let decl = &head[..end];
    let at = memchr::memmem::find(decl, b"encoding")? + b"encoding".len();
    let rest = &decl[at..];
    let rest = &rest[rest.iter().position(|&b| b == b'=')? + 1..];
    let rest = &rest[rest.iter().position(|&b| b == b'"' || b == b'\'')?..];
    let quote = rest[0];
    let rest = &rest[1..];
    let close = rest.iter().position(|&b| b == quote)?;
    Some(&rest[..close])
}

/// Decodes a whole document. Borrowed (no copy) when the bytes are already valid UTF-8.
pub fn decode_document(bytes: &[u8]) -> Cow<'_, str> {
    let (enc, bom_len) = sniff_encoding(bytes);
    enc.decode_without_bom_handling(&bytes[bom_len..]).0
}
