//! Names of records: how a path or a tar member name (any bytes) is written in a record's
//! `source`.

use std::path::Path;

/// A name for output: UTF-8 as is, each invalid byte as `\xNN` (so distinct names stay
/// distinct).
pub fn escape_name(b: &[u8]) -> String {
    let mut out = String::with_capacity(b.len());
    for chunk in b.utf8_chunks() {
        out.push_str(chunk.valid());
        for x in chunk.invalid() {
            out.push_str(&format!("\\x{x:02x}"));
        }
    }
    out
}

/// A path for output (see [`escape_name`]).
pub fn path_name(p: &Path) -> String {
    escape_name(p.as_os_str().as_encoded_bytes())
}
