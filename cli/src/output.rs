//! Where a run's output goes, and the guarantees of writing it (docs/cli.md, "Safe
//! writes"): standard output, one file, or a directory of part files; never an input; a file
//! written under a temporary name in its directory and renamed only when complete; SIGINT
//! and SIGTERM end the run after the batch being written, the output closed validly.

use std::collections::HashMap;
use std::ffi::OsString;
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use feedmill::bulk::Input;

/// Buffered only up to this: the pipeline writes whole batches of lines, and `BufWriter`
/// hands a write at least its capacity straight to the file instead of copying it into its
/// buffer; smaller writes (a short batch, Parquet's page headers) are gathered.
const OUTPUT_BUFFER: usize = 64 << 10;

/// Where the output goes (`-o`).
#[derive(Debug)]
pub enum Target {
    /// No `-o`, or `-o -`.
    Stdout,
    /// `-o FILE`.
    File(PathBuf),
    /// `-o DIR/` (a trailing slash) or `-o DIR` naming an existing directory: part files.
    Dir(PathBuf),
}

impl Target {
    pub fn of(path: Option<&Path>) -> Target {
        let Some(path) = path.filter(|p| p.as_os_str() != "-") else { return Target::Stdout };
        // `/dev/stdout` (any name of descriptor 1) is standard output, as `-`.
        if descriptor_of(path) == Some(1) {
            return Target::Stdout;
        }
        let slash = path
            .as_os_str()
            .as_encoded_bytes()
            .last()
            .is_some_and(|&b| b == b'/' || (cfg!(windows) && b == b'\\'));
        if slash || path.is_dir() {
            Target::Dir(path.to_owned())
        } else {
            Target::File(path.to_owned())
        }
    }
}

/// A file's identity: its device and inode on unix (so a hard link, a symbolic link or
/// another spelling of the same file is the same file); its canonical path elsewhere.
#[cfg(unix)]
type Id = (u64, u64);
#[cfg(not(unix))]
type Id = PathBuf;

#[cfg(unix)]
fn id_of(meta: &fs::Metadata, _path: &Path) -> Option<Id> {
    use std::os::unix::fs::MetadataExt;
    Some((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn id_of(_meta: &fs::Metadata, path: &Path) -> Option<Id> {
    fs::canonicalize(path).ok()
}

fn id(path: &Path) -> Option<Id> {
    id_of(&fs::metadata(path).ok()?, path)
}

/// The metadata of standard input or output (`fd` 0 or 1), when it can be had.
#[cfg(unix)]
fn std_stream_meta(fd: std::os::fd::BorrowedFd<'_>) -> Option<fs::Metadata> {
    File::from(fd.try_clone_to_owned().ok()?).metadata().ok()
}

/// Refuses an output that is one of the inputs, or inside an input directory (its walk
/// would read the output as it is written), also through a symbolic link the walk follows:
/// compared by file identity, not by name. The error is the message for a usage error.
pub fn check_not_an_input(target: &Target, inputs: &[Input]) -> Result<(), String> {
    let mut files: HashMap<Id, String> = HashMap::new();
    let mut dirs: HashMap<Id, String> = HashMap::new();
    for input in inputs {
        match input {
            Input::Path(p) => {
                let Ok(meta) = fs::metadata(p) else { continue };
                let Some(id) = id_of(&meta, p) else { continue };
                let set = if meta.is_dir() { &mut dirs } else { &mut files };
                set.entry(id).or_insert_with(|| input.name());
            }
            Input::Stdin => {
                #[cfg(unix)]
                {
                    use std::os::fd::AsFd;
                    let meta = std_stream_meta(io::stdin().as_fd());
                    if let Some(meta) = meta.filter(fs::Metadata::is_file) {
                        if let Some(id) = id_of(&meta, Path::new("-")) {
                            files.entry(id).or_insert_with(|| "- (standard input)".into());
                        }
                    }
                }
            }
        }
    }
    let inside = |path: &Path| -> Option<String> {
        // The nearest existing directory holding `path`, and every directory above it.
        let canonical = fs::canonicalize(nearest_dir(path)?).ok()?;
        canonical.ancestors().find_map(|a| dirs.get(&id(a)?).cloned())
    };
    let (named, path) = match target {
        Target::Stdout => {
            #[cfg(unix)]
            {
                use std::os::fd::AsFd;
                let meta = std_stream_meta(io::stdout().as_fd()).filter(fs::Metadata::is_file);
                if let Some(input) = meta.and_then(|m| files.get(&id_of(&m, Path::new("-"))?)) {
                    return Err(format!(
                        "standard output is the input {input}: writing it would destroy the \
                         input before it is read"
                    ));
                }
            }
            // Where standard output is a file, its path (Linux), to check it is not in an
            // input directory.
            match fs::read_link("/proc/self/fd/1") {
                Ok(p) if p.is_absolute() && p.is_file() => ("standard output".to_owned(), p),
                _ => return Ok(()),
            }
        }
        Target::File(p) => {
            // What is written, where a link or a descriptor leads (a descriptor's pipe or
            // socket has no name an input could have).
            let Some(written) = Landing::of(p).checked_path() else { return Ok(()) };
            if let Some(input) = id(&written).and_then(|i| files.get(&i)) {
                return Err(format!(
                    "the output {} is the input {input}: writing it would destroy the input \
                     before it is read",
                    p.display()
                ));
            }
            (format!("the output {}", p.display()), written)
        }
        Target::Dir(p) => {
            if let Some(input) = id(p).and_then(|i| dirs.get(&i)) {
                return Err(format!(
                    "the output directory {} is the input {input}: its part files would be read \
                     as inputs",
                    p.display()
                ));
            }
            // The directory itself counts as "inside" when it is an input's subdirectory.
            (format!("the output directory {}", p.display()), p.join("part"))
        }
    };
    if let Some(dir) = inside(&path) {
        return Err(format!(
            "{named} is inside the input directory {dir}: it would be read as an input while \
             it is written"
        ));
    }
    // The walk of an input directory follows symbolic links, so the output's directory may
    // be inside one by a link, and the file written may be one of its files by a link:
    // found by walking the input directories' directories and links.
    let out_dir = nearest_dir(&path).and_then(|d| id(&d));
    let out_file =
        fs::metadata(&path).ok().filter(fs::Metadata::is_file).and_then(|m| id_of(&m, &path));
    if out_dir.is_none() && out_file.is_none() {
        return Ok(());
    }
    for (input, dir) in inputs.iter().filter_map(|i| match i {
        Input::Path(p) if p.is_dir() => Some((i, p)),
        _ => None,
    }) {
        let walk = walkdir::WalkDir::new(dir).follow_links(true).into_iter();
        let dirs_and_links = walk.filter_entry(|e| e.file_type().is_dir() || e.path_is_symlink());
        for entry in dirs_and_links.flatten() {
            let found = entry.metadata().ok().and_then(|m| id_of(&m, entry.path()));
            let (is_dir, found) = (entry.file_type().is_dir(), found.as_ref());
            if is_dir && found.is_some() && found == out_dir.as_ref() {
                return Err(format!(
                    "{named} is inside the input directory {} through the symbolic link \
                     {}: it would be read as an input while it is written",
                    input.name(),
                    entry.path().display()
                ));
            }
            if !is_dir && found.is_some() && found == out_file.as_ref() {
                return Err(format!(
                    "{named} is the file {} of the input directory {} (a symbolic link): \
                     writing it would destroy the input before it is read",
                    entry.path().display(),
                    input.name()
                ));
            }
        }
    }
    Ok(())
}

/// Where writing the file named by `-o` lands.
enum Landing {
    /// Written under a temporary name beside this path and renamed to it: the name given,
    /// or the file a symbolic link points to (the link stays; a dangling link is replaced).
    Replace(PathBuf),
    /// Opened as it is and written, never renamed over: a name that exists and is not a
    /// regular file (`/dev/null`, a FIFO).
    Direct(PathBuf),
    /// One of this process's open descriptors (see [`descriptor_of`]), written through a
    /// duplicate of it: where it writes, at its position, as `-o -` writes standard output.
    Descriptor(i32),
}

impl Landing {
    fn of(path: &Path) -> Landing {
        if let Some(fd) = descriptor_of(path) {
            return Landing::Descriptor(fd);
        }
        let path = match fs::symlink_metadata(path) {
            Ok(m) if m.file_type().is_symlink() => {
                fs::canonicalize(path).unwrap_or_else(|_| path.to_owned())
            }
            _ => path.to_owned(),
        };
        if fs::metadata(&path).is_ok_and(|m| !m.is_file()) {
            Landing::Direct(path)
        } else {
            Landing::Replace(path)
        }
    }

    /// The path written, for the input checks: the file replaced, the device or FIFO, the
    /// file a descriptor has open (none for a pipe or socket).
    fn checked_path(&self) -> Option<PathBuf> {
        match self {
            Landing::Replace(p) | Landing::Direct(p) => Some(p.clone()),
            Landing::Descriptor(fd) => fs::canonicalize(descriptor_path(*fd)).ok(),
        }
    }
}

/// The descriptor `path` names, when it names one of this process's: `/dev/stdin`,
/// `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`, `/proc/thread-self/fd/N`,
/// in any spelling (`//dev/stdout`, `stdout` in `/dev`): by its directory's canonical path.
/// Reopening such a name would write the descriptor's file from its start, not where the
/// descriptor is, and replacing it would rename a file over the file the caller opened.
fn descriptor_of(path: &Path) -> Option<i32> {
    if !cfg!(unix) {
        return None;
    }
    let name = path.file_name()?.to_str()?;
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let parent = fs::canonicalize(parent).ok()?;
    if parent == Path::new("/dev") {
        return ["stdin", "stdout", "stderr"].iter().position(|n| *n == name).map(|i| i as i32);
    }
    let fd_dirs = ["/proc/self/fd", "/proc/thread-self/fd", "/dev/fd"];
    let is_fd_dir = fd_dirs.iter().any(|d| fs::canonicalize(d).is_ok_and(|d| d == parent));
    if is_fd_dir {
        name.parse().ok().filter(|fd| *fd >= 0)
    } else {
        None
    }
}

/// The name of open descriptor `fd` (`/dev/fd/N`).
fn descriptor_path(fd: i32) -> PathBuf {
    Path::new("/dev/fd").join(fd.to_string())
}

/// A duplicate of this process's open descriptor `fd`, sharing its file position.
#[cfg(unix)]
fn duplicate(fd: i32) -> io::Result<File> {
    use std::os::fd::BorrowedFd;
    // Open (its name resolves) before it is borrowed: nothing closes it meanwhile.
    if fs::symlink_metadata(descriptor_path(fd)).is_err() {
        return Err(io::Error::new(
            io::ErrorKind::NotFound,
            format!("descriptor {fd} is not open"),
        ));
    }
    // SAFETY: `fd` is open (above) and stays open while borrowed for the duplication.
    let borrowed = unsafe { BorrowedFd::borrow_raw(fd) };
    Ok(File::from(borrowed.try_clone_to_owned()?))
}

#[cfg(not(unix))]
fn duplicate(fd: i32) -> io::Result<File> {
    Err(io::Error::new(io::ErrorKind::Unsupported, format!("descriptor {fd}")))
}

/// The nearest existing directory holding `path` (`.` for a bare name).
fn nearest_dir(path: &Path) -> Option<PathBuf> {
    let existing = path.ancestors().skip(1).find(|a| a.as_os_str().is_empty() || a.is_dir())?;
    Some(if existing.as_os_str().is_empty() { PathBuf::from(".") } else { existing.to_owned() })
}

/// A file or standard output being written. A file is written under a temporary name in
/// its directory (`.NAME.XXXXXX.tmp`) and renamed to its name by [`Out::commit`]; dropped
/// without a commit (an error, a panic), the temporary file is removed and a file already
/// at that name is untouched. A name that exists and is not a regular file (`/dev/null`, a
/// FIFO) is written directly.
pub struct Out {
    w: BufWriter<Dest>,
    /// The name a temporary file gets when complete.
    name: Option<PathBuf>,
}

enum Dest {
    Stdout(io::Stdout),
    Temp(tempfile::NamedTempFile),
    Direct(File),
}

impl Write for Dest {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Dest::Stdout(w) => w.write(buf),
            Dest::Temp(w) => w.write(buf),
            Dest::Direct(w) => w.write(buf),
        }
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Dest::Stdout(w) => w.write_all(buf),
            Dest::Temp(w) => w.write_all(buf),
            Dest::Direct(w) => w.write_all(buf),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Dest::Stdout(w) => w.flush(),
            Dest::Temp(w) => w.flush(),
            Dest::Direct(w) => w.flush(),
        }
    }
}

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.w.write(buf)
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.w.write_all(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.w.flush()
    }
}

impl Out {
    pub fn stdout() -> Out {
        Out { w: BufWriter::with_capacity(OUTPUT_BUFFER, Dest::Stdout(io::stdout())), name: None }
    }

    /// Starts writing the file `path` (see the type's docs and [`Landing`]).
    pub fn create(path: &Path) -> io::Result<Out> {
        let direct = |f: File| Out {
            w: BufWriter::with_capacity(OUTPUT_BUFFER, Dest::Direct(f)),
            name: None,
        };
        let path = match Landing::of(path) {
            Landing::Descriptor(fd) => return duplicate(fd).map(direct),
            Landing::Direct(path) => return File::create(path).map(direct),
            Landing::Replace(path) => path,
        };
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let mut prefix = OsString::from(".");
        prefix.push(path.file_name().unwrap_or_else(|| "output".as_ref()));
        prefix.push(".");
        let mut b = tempfile::Builder::new();
        b.prefix(&prefix).suffix(".tmp");
        // The permissions File::create gives (0666 less the umask), not the private 0600 of
        // a temporary file: the renamed file is an ordinary output.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            b.permissions(fs::Permissions::from_mode(0o666));
        }
        let tmp = b.tempfile_in(dir)?;
        Ok(Out { w: BufWriter::with_capacity(OUTPUT_BUFFER, Dest::Temp(tmp)), name: Some(path) })
    }

    /// Flushes the output and gives a temporary file its name (replacing a file there).
    pub fn commit(self) -> io::Result<()> {
        let dest = self.w.into_inner().map_err(io::IntoInnerError::into_error)?;
        match (dest, self.name) {
            (Dest::Temp(tmp), Some(name)) => {
                tmp.persist(&name).map_err(|e| e.error)?;
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

/// The name of part file `i` of a directory output: `part-00000.parquet`, … (five digits,
/// more past 99,999).
pub fn part_name(i: usize, ext: &str) -> String {
    format!("part-{i:05}.{ext}")
}

/// Creates the output directory; refuses one that already holds part files (from an
/// earlier run: a reader of the directory would take them for this run's).
pub fn prepare_dir(dir: &Path) -> Result<(), String> {
    fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let entries = fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for entry in entries.flatten() {
        if entry.file_name().as_encoded_bytes().starts_with(b"part-") {
            return Err(format!(
                "{} already holds part files ({}): remove them, or write to another directory",
                dir.display(),
                entry.file_name().to_string_lossy()
            ));
        }
    }
    Ok(())
}

/// SIGINT and SIGTERM: the first sets the run's stop flag (the run ends after the batch
/// being written, its output closed validly); a second one ends the process at once, with
/// the same status.
pub struct Signals {
    stop: Arc<AtomicBool>,
    which: Arc<AtomicUsize>,
}

impl Signals {
    pub fn install() -> Signals {
        use signal_hook::consts::{SIGINT, SIGTERM};
        let stop = Arc::new(AtomicBool::new(false));
        let which = Arc::new(AtomicUsize::new(0));
        for sig in [SIGINT, SIGTERM] {
            // Registered first, so it sees the flag the first signal has not set yet.
            #[cfg(unix)]
            let _ =
                signal_hook::flag::register_conditional_shutdown(sig, 128 + sig, Arc::clone(&stop));
            let _ = signal_hook::flag::register_usize(sig, Arc::clone(&which), sig as usize);
            let _ = signal_hook::flag::register(sig, Arc::clone(&stop));
        }
        Signals { stop, which }
    }

    /// The flag a run stops on ([`feedmill::bulk::Config::stop`]).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// The signal received, if any: its name and the conventional exit status (128 + its
    /// number: 130 for SIGINT, 143 for SIGTERM).
    pub fn received(&self) -> Option<(&'static str, u8)> {
        use signal_hook::consts::{SIGINT, SIGTERM};
        let sig = self.which.load(Ordering::Relaxed) as i32;
        let name = match sig {
            SIGINT => "SIGINT",
            SIGTERM => "SIGTERM",
            _ => return None,
        };
        Some((name, u8::try_from(128 + sig).unwrap_or(1)))
    }
}

/// Whether `e` is a closed output pipe (`| head`): the reader wanted no more.
pub fn is_broken_pipe(e: &io::Error) -> bool {
    if e.kind() == io::ErrorKind::BrokenPipe {
        return true;
    }
    let mut source = e.get_ref().map(|s| s as &(dyn std::error::Error + 'static));
    while let Some(s) = source {
        if s.downcast_ref::<io::Error>().is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe) {
            return true;
        }
        source = s.source();
    }
    false
}
