//! The tar reader (ustar, GNU, pax, pre-POSIX): the regular file members of a tar stream,
//! each handed to the caller as a reader of its data, in order, and the members that are not
//! regular files but stand for one (links, devices, FIFOs, sparse and multi-volume parts) as
//! items of their own, so that none goes unrecorded. Directories and metadata headers (pax,
//! GNU long names, volume labels) are no member.
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
use super::names::escape_name;

/// Longest tar member name kept (GNU long name, pax `path`), Linux's `PATH_MAX`, in bytes as a
/// record's source writes it ([`escape_name`]: a byte that is not UTF-8 is four); a longer one
/// makes the member an error record, its bytes skipped while streaming. Every record read from
/// a member repeats its name in its `source`, so the name must stay short whatever the archive
/// says.
pub const MAX_NAME: usize = 4096;
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
    /// A regular file member: its name and a reader of its data. What the caller does not
    /// read of it is skipped.
    File {
        /// The member's name (GNU long name, pax `path`, or ustar prefix and name), as a
        /// record's source writes it ([`escape_name`]).
        name: &'r str,
        /// Its data, exactly the size its header states (`UnexpectedEof` when the archive
        /// ends first).
        data: &'r mut dyn Read,
    },
    /// A member that is not a regular file and is not read: a hard or symbolic link, a
    /// device, a FIFO, a GNU sparse file or a multi-volume continuation (the caller's
    /// `not_a_file` record, as for such a file in a walked directory).
    NotAFile {
        /// The member's name, as for [`TarItem::File`].
        name: &'r str,
        /// What it is (a link names its target).
        message: String,
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
    // The size of the next member from a pax header's `size` record (POSIX pax: it
    // overrides the header's size field, which a member of 8 GiB or more cannot hold).
    let mut next_size: Option<u64> = None;
    // The header after a corrupt one, already read (see below).
    let mut pending = false;
    loop {
        if !std::mem::take(&mut pending) {
            match read_full(r, &mut block) {
                // Ending at a header boundary is an end (as GNU tar and Python's tarfile read
                // it), unless a long-name or pax header announced a member still to come.
                Ok(0) if next_name.is_some() || next_size.is_some() => {
                    let message = "archive ends after a long-name or pax header, before its member";
                    return Err(("truncated", message.into()));
                }
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
            (next_name, next_size) = (None, None);
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
        let flag = block[156];
        // The pax size applies to the member the pax header describes, not to a metadata
        // header between them.
        let pax_size = if is_metadata(flag) { None } else { next_size.take() };
        let Some(size) = pax_size.or_else(|| tar_number(&block[124..136])) else {
            return Err(("bad_tar", "bad member size".into()));
        };
        let padding = (512 - size % 512) % 512;
        let mut entry = Exact { inner: &mut *r, left: size, ends: "archive ends inside a member" };
        let mut go_on = true;
        let res: io::Result<()> = (|| match flag {
            b'L' => {
                next_name = Some(read_name(&mut entry, size)?);
                Ok(())
            }
            b'x' if size <= MAX_PAX => {
                let mut pax = Vec::new();
                entry.read_to_end(&mut pax)?;
                let (path, pax_size) = pax_records(&pax);
                if let Some(p) = path {
                    next_name =
                        Some(if p.len() > MAX_NAME { Err(p.len() as u64) } else { Ok(p.to_vec()) });
                }
                next_size = pax_size.or(next_size);
                Ok(())
            }
            _ if is_metadata(flag) => Ok(()),
            // A directory (`D`: GNU's dumpdir) is no member.
            b'5' | b'D' => {
                next_name = None;
                Ok(())
            }
            _ => {
                let member = member_name(&block, next_name.take()).and_then(|m| {
                    let written = escape_name(&m);
                    if written.len() > MAX_NAME {
                        Err(written.len() as u64)
                    } else {
                        Ok(written)
                    }
                });
                let not_a_file = not_a_file(flag, &block);
                go_on = match (member, not_a_file) {
                    (Ok(m), _) if m.ends_with('/') => true, // pre-POSIX directory
                    (Ok(m), None) => visit(TarItem::File { name: &m, data: &mut entry })?,
                    (Ok(m), Some(message)) => visit(TarItem::NotAFile { name: &m, message })?,
                    (Err(len), _) => {
                        let message = format!("member name of {len} bytes, longer than {MAX_NAME}");
                        visit(TarItem::Bad { kind: "bad_tar", message })?
                    }
                };
                Ok(())
            }
        })();
        // The member's unread data, then the padding to the next block (an archive cut
        // inside either is truncated).
        let res = res.and_then(|_| io::copy(&mut entry, &mut io::sink()).map(|_| ()));
        let ends = "archive ends inside the padding after a member's data";
        let mut pad = Exact { inner: &mut *r, left: padding, ends };
        let res = res.and_then(|_| io::copy(&mut pad, &mut io::sink()).map(|_| ()));
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

/// Whether a type flag is a header about the next member rather than a member: a pax
/// extended (`x`) or global (`g`) header, a GNU long name (`L`) or long link name (`K`), a
/// volume label (`V`).
fn is_metadata(flag: u8) -> bool {
    matches!(flag, b'x' | b'g' | b'L' | b'K' | b'V')
}

/// A member's name: from a GNU long name or pax `path` before it (`Err(length)` when that is
/// longer than [`MAX_NAME`]), else the header's name with its ustar prefix.
fn member_name(block: &[u8; 512], before: Option<Result<Vec<u8>, u64>>) -> Result<Vec<u8>, u64> {
    before.unwrap_or_else(|| {
        let mut n = cstr(&block[..100]).to_vec();
        let prefix = cstr(&block[345..500]);
        if &block[257..262] == b"ustar" && !prefix.is_empty() {
            n = [prefix, b"/", &n].concat();
        }
        Ok(n)
    })
}

/// What a member of type `flag` is when it is not a regular file (`None`: it is one; a type
/// this reader does not know is read as a regular file, as POSIX says).
fn not_a_file(flag: u8, block: &[u8; 512]) -> Option<String> {
    let target = || String::from_utf8_lossy(cstr(&block[157..257])).into_owned();
    Some(match flag {
        b'1' => format!("a hard link to {:?} in the archive: not read", target()),
        b'2' => format!("a symbolic link to {:?}: not read", target()),
        b'3' | b'4' => "a device: not read".to_owned(),
        b'6' => "a FIFO: not read".to_owned(),
        b'S' => "a GNU sparse file: its data is not read".to_owned(),
        b'M' => "a multi-volume continuation (the rest of a file begun in another volume): \
                 not read"
            .to_owned(),
        _ => return None,
    })
}

/// The `path` and `size` records of a pax extended header (`<len> <key>=<value>\n` records);
/// a `size` that is not a decimal number is ignored (the header's size field stands).
fn pax_records(mut pax: &[u8]) -> (Option<&[u8]>, Option<u64>) {
    let (mut path, mut size) = (None, None);
    while !pax.is_empty() {
        let Some(sp) = memchr::memchr(b' ', pax) else { break };
        let Some(len) = std::str::from_utf8(&pax[..sp]).ok().and_then(|n| n.parse().ok()) else {
            break;
        };
        if len <= sp || len > pax.len() {
            break;
        }
        let rec = &pax[sp + 1..len];
        let rec = rec.strip_suffix(b"\n").unwrap_or(rec);
        if let Some(v) = rec.strip_prefix(b"path=") {
            path = Some(v);
        } else if let Some(v) = rec.strip_prefix(b"size=") {
            size = std::str::from_utf8(v).ok().and_then(|v| v.parse().ok()).or(size);
        }
        pax = &pax[len..];
    }
    (path, size)
}
