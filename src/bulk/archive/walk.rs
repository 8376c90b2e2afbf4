//! The walk of the inputs: the paths named (files, directories walked in name order,
//! standard input) as the things to read, in input order.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use super::names::path_name;

/// One input named on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A file or a directory.
    Path(PathBuf),
    /// Standard input (`-`).
    Stdin,
}

impl Input {
    /// `-` is standard input; anything else a path, whatever its bytes (a file name need
    /// not be UTF-8: see [`crate::bulk`] on names).
    pub fn parse(arg: impl AsRef<OsStr>) -> Input {
        let arg = arg.as_ref();
        if arg == "-" {
            Input::Stdin
        } else {
            Input::Path(PathBuf::from(arg))
        }
    }

    /// The input's name as its records' sources begin: `-`, or the path as named (see
    /// [`crate::bulk`] on names).
    pub fn name(&self) -> String {
        match self {
            Input::Stdin => "-".to_owned(),
            Input::Path(p) => path_name(p),
        }
    }

    /// Total size in bytes of the files `inputs` name (directories walked), or `None` when
    /// one is standard input. For a progress bar's length; unreadable entries count 0.
    pub fn total_size(inputs: &[Input]) -> Option<u64> {
        let mut total = 0;
        for i in inputs {
            match i {
                Input::Stdin => return None,
                Input::Path(p) => {
                    for e in walkdir::WalkDir::new(p).follow_links(true).into_iter().flatten() {
                        if e.file_type().is_file() {
                            total += e.metadata().map_or(0, |m| m.len());
                        }
                    }
                }
            }
        }
        Some(total)
    }
}

/// One thing to read, as the walk of the inputs yields them, in input order.
#[derive(Debug)]
pub(crate) enum Item {
    /// Standard input.
    Stdin,
    /// A path to open and read: a regular file of a walked directory, or a path named on the
    /// command line that is not a directory (opened whatever it is). `size` is the walk's
    /// metadata length of a regular file (`None` for anything else).
    Open { path: PathBuf, size: Option<u64> },
    /// Something that cannot be read (its error record).
    Broken { source: String, kind: &'static str, message: String },
}

/// Walks `inputs` in order, calling `f` with each [`Item`] and its size when known (from the
/// file's metadata); stops when `f` returns false. A directory is walked recursively (entries
/// sorted by name, symbolic links followed, a link back to an ancestor directory reported as
/// `symlink_loop`); in it, anything but regular files and directories (FIFOs, sockets,
/// devices) is reported as `not_a_file` and not opened. A path named on the command line is
/// opened whatever it is (a FIFO from `<(...)`, a device: read up to the limit).
pub(crate) fn walk(inputs: &[Input], f: &mut dyn FnMut(Item, Option<u64>) -> bool) {
    for input in inputs {
        let path = match input {
            Input::Stdin => {
                if !f(Item::Stdin, None) {
                    return;
                }
                continue;
            }
            Input::Path(p) => p,
        };
        let go_on = match std::fs::metadata(path) {
            Err(e) => {
                let (source, message) = (path_name(path), e.to_string());
                f(Item::Broken { source, kind: "io", message }, None)
            }
            Ok(m) if !m.is_dir() => {
                let size = m.is_file().then_some(m.len());
                f(Item::Open { path: path.clone(), size }, Some(m.len()))
            }
            Ok(_) => walk_dir(path, f),
        };
        if !go_on {
            return;
        }
    }
}

/// The items of directory `dir` (see [`walk`]); false when `f` stopped the walk.
fn walk_dir(dir: &Path, f: &mut dyn FnMut(Item, Option<u64>) -> bool) -> bool {
    let walk = walkdir::WalkDir::new(dir).follow_links(true).sort_by_file_name();
    for entry in walk {
        let go_on = match entry {
            Err(e) => {
                let source = e.path().map_or_else(|| path_name(dir), path_name);
                let kind = if e.loop_ancestor().is_some() { "symlink_loop" } else { "io" };
                f(Item::Broken { source, kind, message: e.to_string() }, None)
            }
            Ok(e) if e.file_type().is_dir() => true,
            Ok(e) if e.file_type().is_file() => {
                let size = e.metadata().ok().map(|m| m.len());
                f(Item::Open { path: e.into_path(), size }, size)
            }
            Ok(e) => {
                let message = "not a regular file (FIFO, socket or device): skipped".to_owned();
                f(Item::Broken { source: path_name(e.path()), kind: "not_a_file", message }, None)
            }
        };
        if !go_on {
            return false;
        }
    }
    true
}
