//! The tar reader (ustar, GNU, pax, pre-POSIX): the regular file members of a tar stream,
//! each handed to the caller as a reader of its data, in order.
//!
//! NOTE: why not the `tar` crate: it reads a GNU long name or a pax header into memory whole,
//! whatever its size (a 300 MB name from a 300 KB tar.gz), and needs the ustar magic. This
//! reader keeps names up to [`MAX_NAME`] and streams everything else.
//!
//! A damaged header (its checksum fails) is skipped by the size it states when a valid header
//! follows there, never by a search for the next header: a member's data may hold tar headers
//! (a tar stored in a tar, or planted in a feed), which must not come out as members of the
//! outer archive.

use std::io::{self, Read};

use super::io::{io_kind, read_full, Exact};

/// Longest tar member name kept (GNU long name, pax `path`); a longer one makes the member an
/// error record, its bytes skipped while streaming.
pub const MAX_NAME: usize = 64 * 1024;
/// Largest pax extended header read (a larger one is skipped).
const MAX_PAX: u64 = 1 << 20;

/// A tar header block: the ustar magic, or (pre-POSIX tar, no magic) a valid header checksum.
pub(crate) fn is_tar(b: &[u8]) -> bool {
    b.len() >= 512 && (&b[257..262] == b"ustar" || (b[0] != 0 && tar_checksum_ok(&b[..512])))
}

/// An octal tar number field (NUL/space padded), or GNU base-256 when the top bit is set.
fn tar_number(f: &[u8]) -> Option<u64> {
    if f.first().is_some_and(|b| b & 0x80 != 0) {
        let mut v: u64 = (f[0] & 0x3f) as u64;
        for &b in &f[1..] {
            v = v.checked_mul(256)?.checked_add(b as u64)?;
        }
        return Some(v);
    }
    let t: &[u8] = f.trim_ascii_start();
    let end = t.iter().position(|b| *b == 0 || *b == b' ').unwrap_or(t.len());
    let t = &t[..end];
    if t.is_empty() {
        return Some(0);
    }
    let mut v: u64 = 0;
    for &b in t {
        if !(b'0'..=b'7').contains(&b) {
            return None;
        }
        v = v.checked_mul(8)?.checked_add((b - b'0') as u64)?;
    }
    Some(v)
}

/// The header checksum (POSIX: unsigned sum with the field as spaces; old tars: signed).
fn tar_checksum_ok(h: &[u8]) -> bool {
    let Some(stored) = tar_number(&h[148..156]) else { return false };
    let (mut unsigned, mut signed) = (0u64, 0i64);
    for (i, &b) in h[..512].iter().enumerate() {
        let b = if (148..156).contains(&i) { b' ' } else { b };
        unsigned += b as u64;
        signed += b as i8 as i64;
    }
    stored == unsigned || stored as i64 == signed
}

/// A NUL-terminated field.
fn cstr(f: &[u8]) -> &[u8] {
    &f[..memchr::memchr(0, f).unwrap_or(f.len())]
}

/// What the tar reader hands to its caller.
pub(crate) enum TarItem<'r> {
    /// A regular file member: its name as stored (any bytes) and a reader of its data. What
    /// the caller does not read of it is skipped.
    File {
        /// The member's name (GNU long name, pax `path`, or ustar prefix and name).
        name: &'r [u8],
        /// Its data, exactly the size its header states (`UnexpectedEof` when the archive
        /// ends first).
        data: &'r mut dyn Read,
    },
    /// A member that is not read (damaged header, name over [`MAX_NAME`]): the error record
    /// `<archive>!`; the members after it are read.
    Bad {
        /// Its error kind (`bad_tar`).
        kind: &'static str,
        /// What went wrong.
        message: String,
    },
}

/// Reads the tar stream `r`, calling `visit` for each regular file member and each member
/// that cannot be read, in order; `visit` returns whether to go on (an `Err` from it, an I/O
/// failure while it read the member, ends the archive as one from the stream does).
/// `Ok(())` at the archive's end or when `visit` stopped; `Err((kind, message))` when the
/// archive cannot be read on (the caller's error record for the archive: the rest of it is
/// skipped).
pub(crate) fn read_tar(
    r: &mut dyn Read,
    visit: &mut dyn FnMut(TarItem<'_>) -> io::Result<bool>,
) -> Result<(), (&'static str, String)> {
    let mut block = [0u8; 512];
    // Name for the next member from a GNU long-name entry or a pax header:
    // Ok(name), or Err(length) when it is longer than MAX_NAME.
    let mut next_name: Option<Result<Vec<u8>, u64>> = None;
    // The header after a corrupt one, already read (see below).
    let mut pending = false;
    loop {
        if !std::mem::take(&mut pending) {
            match read_full(r, &mut block) {
                Ok(0) => return Ok(()),
                Ok(512) => {}
                Ok(_) => return Err(("truncated", "archive ends inside a header".into())),
                Err(e) => return Err(io_kind(e)),
            }
        }
        if block.iter().all(|b| *b == 0) {
            return Ok(());
        }
        if !tar_checksum_ok(&block) {
            // A damaged header (a flipped byte in its name, mode, times …): its member is
            // skipped by the size it states when the block after that member is a valid
            // header, and reading goes on from there. Never by a search for the next
            // header: a member's data may hold tar headers (a tar stored in a tar, or
            // planted in a feed), which must not come out as members of their own.
            next_name = None;
            match skip_damaged_member(r, &block) {
                Ok(Some(next)) => {
                    let message = "tar header checksum mismatch; member skipped".to_owned();
                    block = next;
                    pending = true;
                    match visit(TarItem::Bad { kind: "bad_tar", message }) {
                        Ok(true) => continue,
                        Ok(false) => return Ok(()),
                        Err(e) => return Err(io_kind(e)),
                    }
                }
                Ok(None) => return Err(("bad_tar", "tar header checksum mismatch".into())),
                Err(e) => {
                    let (kind, msg) = io_kind(e);
                    return Err((kind, format!("after a damaged tar header: {msg}")));
                }
            }
        }
        let Some(size) = tar_number(&block[124..136]) else {
            return Err(("bad_tar", "bad member size".into()));
        };
        let padding = (512 - size % 512) % 512;
        let flag = block[156];
        let mut entry = Exact { inner: &mut *r, left: size };
        let mut go_on = true;
        let res: io::Result<()> = (|| match flag {
            b'L' => {
                next_name = Some(read_name(&mut entry, size)?);
                Ok(())
            }
            b'x' if size <= MAX_PAX => {
                let mut pax = Vec::new();
                entry.read_to_end(&mut pax)?;
                if let Some(p) = pax_path(&pax) {
                    next_name =
                        Some(if p.len() > MAX_NAME { Err(p.len() as u64) } else { Ok(p.to_vec()) });
                }
                Ok(())
            }
            b'0' | b'7' | 0 => {
                let member = match next_name.take() {
                    Some(n) => n,
                    None => {
                        let mut n = cstr(&block[..100]).to_vec();
                        let prefix = cstr(&block[345..500]);
                        if &block[257..262] == b"ustar" && !prefix.is_empty() {
                            n = [prefix, b"/", &n].concat();
                        }
                        Ok(n)
                    }
                };
                go_on = match member {
                    Ok(m) if m.ends_with(b"/") => true, // pre-POSIX directory
                    Ok(m) => visit(TarItem::File { name: &m, data: &mut entry })?,
                    Err(len) => {
                        let message = format!("member name of {len} bytes, longer than {MAX_NAME}");
                        visit(TarItem::Bad { kind: "bad_tar", message })?
                    }
                };
                Ok(())
            }
            _ => {
                // Directories, links, devices, global pax headers, oversized pax headers.
                next_name = None;
                Ok(())
            }
        })();
        let res = res
            .and_then(|_| io::copy(&mut entry, &mut io::sink()).map(|_| ()))
            .and_then(|_| io::copy(&mut (&mut *r).take(padding), &mut io::sink()).map(|_| ()));
        if let Err(e) = res {
            return Err(io_kind(e));
        }
        if !go_on {
            return Ok(());
        }
    }
}

/// After a header with a wrong checksum: skips the member by the size the header states and
/// returns the next header block when it is one (valid checksum, or the end of the archive:
/// a zero block followed by another or by the end of the stream); `None` when the damage may
/// be in the size field, the size does not read as a number, or no header is where it points.
///
/// The damage is taken to be one byte, so the checksum's difference is how much that byte
/// changed. A size field holds octal digits, NUL and space: when the difference is one
/// between two of those, the size may be the damaged field and skipping by it could land on a
/// header planted in the member's data, so the archive ends instead. The type flag is not
/// trusted either: every type is skipped by its stated size, as an intact header is.
fn skip_damaged_member(r: &mut dyn Read, damaged: &[u8; 512]) -> io::Result<Option<[u8; 512]>> {
    let (Some(stored), Some(size)) =
        (tar_number(&damaged[148..156]), tar_number(&damaged[124..136]))
    else {
        return Ok(None);
    };
    let sum: u64 = damaged
        .iter()
        .enumerate()
        .map(|(i, &b)| if (148..156).contains(&i) { 32 } else { b as u64 })
        .sum();
    if size_field_change(sum.abs_diff(stored)) {
        return Ok(None);
    }
    let skip = size.div_ceil(512).saturating_mul(512);
    if io::copy(&mut r.take(skip), &mut io::sink())? < skip {
        return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "archive ends inside a member"));
    }
    let mut next = [0u8; 512];
    match read_full(r, &mut next)? {
        0 => Ok(Some([0u8; 512])),
        512 if tar_checksum_ok(&next) => Ok(Some(next)),
        512 if next.iter().all(|b| *b == 0) => {
            let mut after = [0u8; 512];
            match read_full(r, &mut after)? {
                0 => Ok(Some(next)),
                512 if after.iter().all(|b| *b == 0) => Ok(Some(next)),
                _ => Ok(None),
            }
        }
        512 => Ok(None),
        _ => Err(io::Error::new(io::ErrorKind::UnexpectedEof, "archive ends inside a header")),
    }
}

/// Whether a checksum difference of `d` is a change of one byte between two of the bytes a
/// size field holds (`0`–`7`, NUL, space).
fn size_field_change(d: u64) -> bool {
    const FIELD: [u8; 10] = *b"01234567\0 ";
    FIELD.iter().any(|&a| FIELD.iter().any(|&b| a > b && u64::from(a - b) == d))
}

/// A GNU long name (`size` bytes, NUL-terminated): kept up to [`MAX_NAME`] bytes.
fn read_name(r: &mut dyn Read, size: u64) -> io::Result<Result<Vec<u8>, u64>> {
    if size > MAX_NAME as u64 + 1 {
        io::copy(r, &mut io::sink())?;
        return Ok(Err(size));
    }
    let mut v = Vec::new();
    r.read_to_end(&mut v)?;
    Ok(Ok(cstr(&v).to_vec()))
}

/// The `path` of a pax extended header (`<len> path=<value>\n` records).
fn pax_path(mut pax: &[u8]) -> Option<&[u8]> {
    let mut found = None;
    while !pax.is_empty() {
        let sp = memchr::memchr(b' ', pax)?;
        let len: usize = std::str::from_utf8(&pax[..sp]).ok()?.parse().ok()?;
        if len <= sp || len > pax.len() {
            return found;
        }
        let rec = &pax[sp + 1..len];
        let rec = rec.strip_suffix(b"\n").unwrap_or(rec);
        if let Some(v) = rec.strip_prefix(b"path=") {
            found = Some(v);
        }
        pax = &pax[len..];
    }
    found
}
