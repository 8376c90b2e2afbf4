//! `feedmill._feedmill`: the Python bindings (PyO3). Each call runs the library's bulk worker
//! (the same per-record code as the CLI: WARC responses as HTTP responses, plain documents
//! with their base URL) and returns the record's Arrow form: as Python values (`parse`: a
//! dict with every key, [`values`]) or as a `pyarrow.RecordBatch`. The GIL is released while
//! parsing. Archives are read by the library's record reader (`feedmill::bulk::read`: read
//! ahead within a byte budget).
//!
//! Every function takes the CLI's processing options as keyword arguments ([`options`]); its
//! inputs are type-checked before any work ([`input`]).
//!
//! Panics (bugs): one while a record is processed makes it that record's `internal` error
//! record, as in the CLI; any other becomes a `RuntimeError` ([`guarded`]), never pyo3's
//! `PanicException`.

mod capture;
mod input;
mod options;
mod values;

use std::cell::RefCell;
use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use arrow::array::{
    ArrayRef, BinaryBuilder, Int64Builder, ListBuilder, StringBuilder, StructArray,
};
use arrow::datatypes::{Field, Schema};
use arrow::pyarrow::PyArrowType;
use arrow::record_batch::RecordBatch;
use feedmill::bulk::{Config, Input, ReadError, Record, Worker};
use feedmill::columnar::{Layout, RecordBatchBuilder};
use feedmill::sink::RecordView;
use pyo3::exceptions::{PyRuntimeError, PyStopIteration, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict};

use options::Settings;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

thread_local! {
    /// Workers (parser, arenas, buffers) of this thread, reused across calls: one per
    /// settings used lately, the most recent last.
    static WORKERS: RefCell<Vec<(Settings, Worker)>> = const { RefCell::new(Vec::new()) };
}

/// Workers kept per thread (for the last settings used).
const WORKERS_KEPT: usize = 4;

fn with_worker<T>(s: &Settings, f: impl FnOnce(&mut Worker) -> T) -> T {
    WORKERS.with(|w| {
        let mut w = w.borrow_mut();
        let at = match w.iter().position(|(k, _)| k == s) {
            Some(at) => at,
            None => {
                if w.len() == WORKERS_KEPT {
                    w.remove(0);
                }
                w.push((s.clone(), Worker::new(&s.config())));
                w.len() - 1
            }
        };
        f(&mut w[at].1)
    })
}

/// Runs `f`, turning a panic (a bug) into a `RuntimeError` instead of pyo3's
/// `PanicException`. The thread's workers are dropped then: one may be left mid-record.
fn guarded<T>(what: &str, f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|panic| {
        WORKERS.with(|w| w.borrow_mut().clear());
        let message = panic
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("no message");
        Err(PyRuntimeError::new_err(format!("internal error in {what} (a bug): {message}")))
    })
}

/// One input row: what `parse` and `parse_batch` take.
struct Row<'a> {
    source: Option<&'a str>,
    body: Option<&'a [u8]>,
    content_type: Option<&'a str>,
    url: Option<&'a str>,
    status: Option<i64>,
    error_kind: Option<&'a str>,
    error_message: Option<&'a str>,
    /// Where and when the row was captured (a raw WARC record's `capture`).
    capture: Option<&'a feedmill::record::Capture>,
    /// How a raw WARC record's body was read where that differs from what the record says
    /// (its `notes`): each a `recovered` diagnostic before the parser's, or added to the
    /// message of a body that is not a feed. A row without a body has them in its
    /// `error_message` already.
    notes: &'a [String],
}

/// Processes one row and hands its record to `emit`: a row with `error_kind` (or without a
/// body) is an error record; with `content_type` or `status` it is an HTTP response (status
/// 200 when not given; other statuses are not feeds; computed MIME type, charset, `url` as
/// base URL); else a plain document at `url`. An error record's URL is `url`, else
/// `base_url`, as the bulk worker's is.
///
/// A panic while parsing the row (a bug) makes it an `internal` error record, as in the
/// CLI, and the worker starts afresh ([`Worker::process`]); a panic inside `emit` cannot be
/// undone (part of the row may be in the batch) and reaches [`guarded`].
fn process_row(
    w: &mut Worker,
    base_url: Option<&str>,
    row: &Row<'_>,
    emit: &mut dyn FnMut(&RecordView<'_, '_>),
) {
    // An empty `url` is no URL, whatever the row is (an archive record's empty target URI
    // is none too): a document without one has `base_url`.
    let url = row.url.filter(|u| !u.is_empty());
    let source = row.source.or(url).unwrap_or("");
    let body = match (row.error_kind, row.body) {
        (None, Some(b)) => b,
        (kind, _) => {
            let kind = kind.unwrap_or("no_body");
            let message = row.error_message.unwrap_or("the record has no body");
            let url = url.or(base_url);
            emit(&RecordView::capture_error(source, url, kind, message, row.capture));
            return;
        }
    };
    let mut rec = Record {
        source: source.to_owned(),
        url: url.map(str::to_owned),
        status: None,
        content_type: None,
        body: Ok(body.to_vec()),
        capture: row.capture.cloned(),
        notes: row.notes.to_vec(),
    };
    if row.content_type.is_some() || row.status.is_some() {
        // As the header of an HTTP response: a value cannot hold a line break, and is read
        // trimmed; a status that is no HTTP status code makes the response unreadable.
        rec.content_type = row.content_type.map(|ct| {
            let ct: String = ct.chars().filter(|c| *c != '\r' && *c != '\n').collect();
            ct.trim().to_owned()
        });
        let status = row.status.unwrap_or(200);
        match u16::try_from(status) {
            Ok(s) => rec.status = Some(s),
            Err(_) => {
                let line = format!("HTTP/1.1 {status} -");
                let message = format!("bad status line {line:?}");
                rec.body = Err(ReadError { kind: "bad_http", message });
            }
        }
    }
    w.process(&rec, emit);
}

/// The records layout's batch of one record, converted to Python values ([`values`]).
fn record_value<'py>(py: Python<'py>, batch: &RecordBatch) -> PyResult<Bound<'py, PyAny>> {
    let names = RECORD_NAMES.get_or_init(py, || {
        values::Names::of_fields(py, feedmill::columnar::schema(Layout::Records).fields())
    });
    values::row(py, &StructArray::from(batch.clone()), 0, names)
}

/// The Python strings of the records layout's field names, made once.
static RECORD_NAMES: PyOnceLock<values::Names> = PyOnceLock::new();

/// The batch of `layout` of the records that `process` hands, through a worker of `s`, to
/// its emit function: the one way every entry point builds its Arrow rows.
fn build_batch(
    s: &Settings,
    layout: Layout,
    process: impl FnOnce(&mut Worker, &mut dyn FnMut(&RecordView<'_, '_>)),
) -> RecordBatch {
    let mut b = RecordBatchBuilder::new(layout);
    with_worker(s, |w| process(w, &mut |v| b.append(v)));
    b.finish()
}

/// Processes `row` with `s` into the records layout's batch of its one record.
fn record_batch(s: &Settings, row: &Row<'_>) -> RecordBatch {
    build_batch(s, Layout::Records, |w, emit| process_row(w, s.base_url.as_deref(), row, emit))
}

/// parse(body, *, content_type=None, url=None, status=None, source=None, error_kind=None, error_message=None, capture=None, notes=None, **options)
/// --
///
/// Parses one feed body into a record: a dict with every key of the record (`source`,
/// `status`, `error`, `format`, `encoding`, `diagnostics`, `feed`, `findings`; the feed's and
/// entries' keys likewise), None or [] where the feed has no value, dates as aware
/// `datetime`s in UTC. The TypedDict `feedmill.record.Record` describes it.
///
/// `body`: bytes or any bytes-like object (bytearray, memoryview, ...) as stored, or a str
/// (already decoded: read as UTF-8 whatever its XML declaration says); None gives an
/// error record; a bytes-like object that cannot give its bytes (a released memoryview)
/// raises ValueError. With `content_type` or `status` the body is an HTTP response (a status
/// other than 200 is not a feed; an int outside 0..=65535, such as 70000, gives a `bad_http`
/// error record; a bool or an int past 64 bits raises; the MIME type is computed, the
/// charset taken from `content_type`); otherwise a stored document. `url` is the
/// document's own URL (the base URL of its relative links, and the record's `source` unless
/// `source` is given); an empty `url` is none. `error_kind`/`error_message` make an error
/// record (as `read_warc` gives for an unreadable record); `capture` (a dict, as the record's
/// `capture` key: an unknown key raises TypeError, a naive `datetime` ValueError) says where
/// and when the body was captured, and `notes` (a list of str, as `read_warc` gives them) how
/// it was read where that differs from what its archive record says: each becomes a
/// `recovered` diagnostic. So `parse(**record)` takes a `read_warc` record and gives what
/// `read_warc(path, parse=True)` does.
///
/// Options (the CLI's flags, `_` for `-`): `spec_exact`, `base_url` (for a body without
/// `url`), `sanitize` ("spec" or "strict"), `allow_video_embeds`, `extract`, and every
/// limit (`feedmill.limits()`). Bad feed content gives a record with a status; a wrong
/// argument raises TypeError or ValueError. The GIL is released while parsing.
#[pyfunction]
#[pyo3(signature = (body, *, content_type=None, url=None, status=None, source=None, error_kind=None, error_message=None, capture=None, notes=None, **options))]
#[allow(clippy::too_many_arguments)]
fn parse<'py>(
    py: Python<'py>,
    body: &Bound<'py, PyAny>,
    content_type: Option<&str>,
    url: Option<&str>,
    status: Option<&Bound<'py, PyAny>>,
    source: Option<&str>,
    error_kind: Option<&str>,
    error_message: Option<&str>,
    capture: Option<&Bound<'py, PyAny>>,
    notes: Option<Vec<String>>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let s = Settings::from_kwargs("parse", options)?;
    let status = input::status("parse", status)?;
    let body = input::body(py, "parse", body)?;
    let capture = capture.map(|c| capture::of_dict(py, "parse", c)).transpose()?.flatten();
    let row = Row {
        source,
        body: body.as_deref(),
        content_type,
        url,
        status,
        error_kind,
        error_message,
        capture: capture.as_ref(),
        notes: notes.as_deref().unwrap_or_default(),
    };
    let batch = py.detach(|| guarded("parse", || Ok(record_batch(&s, &row))))?;
    guarded("parse", || record_value(py, &batch))
}

/// parse_file(path, **options)
/// --
///
/// Parses the feed document at `path` (a str, bytes or os.PathLike, as `open()` takes; gzip
/// removed) into a record, as `parse` does, with the path as its `source`. A file that
/// cannot be read raises OSError; an archive (WARC, tar) or directory holding other than one
/// document raises ValueError (`read_warc(path, parse=True)` reads those). A FIFO or
/// `/dev/fd/N` (a shell's `<(zcat x)`) is read as a stream, to its end: the call waits for a
/// writer and its data, and Ctrl-C interrupts the wait (KeyboardInterrupt). Takes the options
/// of `parse`.
#[pyfunction]
#[pyo3(signature = (path, **options))]
fn parse_file<'py>(
    py: Python<'py>,
    path: &Bound<'py, PyAny>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let path = input::path("parse_file", path)?;
    let s = Settings::from_kwargs("parse_file", options)?;
    // A file or directory that cannot be read raises here (the reader would make it an
    // error record); a FIFO is not opened twice.
    let meta = std::fs::metadata(&path)?;
    if meta.is_dir() {
        std::fs::read_dir(&path)?;
    } else if meta.is_file() {
        std::fs::File::open(&path)?;
    }
    let reader = Reader::open(vec![path.clone()], &s.config())?;
    let batch = py.detach(|| {
        guarded("parse_file", || {
            let (Some(rec), None) = (reader.next()?, reader.next()?) else {
                return Err(PyValueError::new_err(format!(
                    "parse_file(): {} holds other than one document; \
                     read_warc(path, parse=True) reads archives and directories",
                    path.display()
                )));
            };
            Ok(build_batch(&s, Layout::Records, |w, emit| w.process(&rec, emit)))
        })
    })?;
    guarded("parse_file", || record_value(py, &batch))
}

fn layout(name: &str) -> PyResult<Layout> {
    match name {
        "records" => Ok(Layout::Records),
        "entries" => Ok(Layout::Entries),
        other => Err(PyValueError::new_err(format!(
            "layout must be 'records' or 'entries', not {other:?}"
        ))),
    }
}

/// parse_batch(batch, *, layout="records", **options)
/// --
///
/// Parses a `pyarrow.RecordBatch` of bodies into a `pyarrow.RecordBatch` of records with
/// feedmill's Arrow schema (`schema(layout)`).
///
/// Input columns: `body` (binary or string, required), and optional `content_type`, `url`,
/// `source` (default `url`), `error_kind` and `error_message` (strings: the row is an error
/// record, as `read_warc_batches` yields for an unreadable WARC record), `status` (an
/// integer), `capture` (the struct of `schema()`'s `capture` field, as
/// `read_warc_batches` yields it) and `notes` (a list of strings per row, as
/// `read_warc_batches` yields them; see `parse`). A column of another type raises TypeError. A row is
/// processed as in `parse`.
/// One output row per input row (`layout="records"`), or one per entry
/// (`layout="entries"`). Takes the options of `parse`. The GIL is released while parsing.
#[pyfunction]
#[pyo3(signature = (batch, *, layout="records", **options))]
fn parse_batch(
    py: Python<'_>,
    batch: PyArrowType<RecordBatch>,
    layout: &str,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyArrowType<RecordBatch>> {
    let batch = batch.0;
    let s = Settings::from_kwargs("parse_batch", options)?;
    let layout = self::layout(layout)?;
    let columns = input::Columns::of(&batch)?;
    let out = py.detach(|| guarded("parse_batch", || Ok(parse_rows(&columns, &s, layout))))?;
    Ok(PyArrowType(out))
}

/// The records of the rows of `c`.
fn parse_rows(c: &input::Columns, s: &Settings, layout: Layout) -> RecordBatch {
    build_batch(s, layout, |w, emit| {
        for i in 0..c.rows() {
            process_row(w, s.base_url.as_deref(), &c.row(i), emit);
        }
    })
}

/// limits()
/// --
///
/// Every limit option by name (the CLI's `--max-*` flags with `_` for `-`), with its
/// default: `parse(body, max_entries=200_000)` raises one.
#[pyfunction]
fn limits(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    for l in feedmill::Limits::ALL {
        d.set_item(l.name(), l.default_value())?;
    }
    Ok(d)
}

/// schema(layout="records")
/// --
///
/// The `pyarrow.Schema` of `parse_batch` output and of the CLI's Parquet files.
#[pyfunction]
#[pyo3(signature = (layout="records"))]
fn schema(layout: &str) -> PyResult<PyArrowType<Schema>> {
    let layout = self::layout(layout)?;
    guarded("schema", || Ok(PyArrowType(feedmill::columnar::schema(layout).as_ref().clone())))
}

/// The records of files, directories and archives (WARC, WARC.gz, tar, gzip), in order:
/// [`feedmill::bulk::read`], which reads them on a thread of its own, ahead of the caller
/// within a byte budget (`Config::max_bytes_in_flight`, 16 MiB: whatever the records' sizes),
/// each WARC response's HTTP message taken apart. Every path is a path (`-` too: a file named
/// `-`; a FIFO or `/dev/fd/N` is read as a stream).
///
/// The caller waits for a record without the GIL and can be interrupted: a thread of the
/// reader's own (the fetcher) takes each record from the library's iterator when the caller
/// asks for it (so the read-ahead is the library's, no more), and the caller checks for
/// signals every [`SIGNAL_CHECK`] while it waits, so Ctrl-C raises `KeyboardInterrupt` even
/// while the file is being opened (a FIFO without a writer blocks in `open()`) or read. The
/// record asked for then is handed out by the next call; threads blocked in the operating
/// system stay there until it returns (a FIFO's `open()` until a writer comes), and end then.
struct Reader {
    state: Mutex<ReaderState>,
}

/// How often a caller waiting for a record checks for signals.
const SIGNAL_CHECK: Duration = Duration::from_millis(50);

/// The fetcher's answer: the library iterator's next item.
type Fetched = Option<std::io::Result<Record>>;

struct ReaderState {
    /// Asks the fetcher for the next record (closed when the reader is dropped: the fetcher
    /// then ends, and drops the library's iterator, which stops its thread).
    ask: Sender<()>,
    /// The fetcher's answers, one per question.
    answers: Receiver<Fetched>,
    /// A record was asked for and its answer not taken yet (the wait was interrupted).
    asked: bool,
    /// Records read and not handed out: one that did not fit in the last batch, or those of
    /// a batch whose filling was interrupted.
    pending: VecDeque<Record>,
}

impl Reader {
    fn open(paths: Vec<PathBuf>, cfg: &Config) -> PyResult<Self> {
        let inputs = paths.into_iter().map(Input::Path).collect();
        let mut records = feedmill::bulk::read(inputs, cfg);
        let (ask, questions) = channel::<()>();
        let (answer, answers) = channel::<Fetched>();
        std::thread::Builder::new().name("feedmill-python-fetcher".into()).spawn(move || {
            // After the end the library's iterator keeps answering `None`.
            while questions.recv().is_ok() {
                if answer.send(records.next()).is_err() {
                    break;
                }
            }
        })?;
        let state = ReaderState { ask, answers, asked: false, pending: VecDeque::new() };
        Ok(Reader { state: Mutex::new(state) })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, ReaderState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The next record; `Ok(None)` at the end. A bug in the reader is a `RuntimeError`; a
    /// signal while waiting raises (`KeyboardInterrupt`).
    fn next(&self) -> PyResult<Option<Record>> {
        next_of(&mut self.lock())
    }

    /// The records of the next batch: until `size` records or `bytes` bytes (a record that
    /// would take the batch past `bytes` waits for the next one; a batch has at least one
    /// record). The reader is held for the whole batch, so that threads sharing the
    /// iterator each get whole batches and no record is lost between them; a batch
    /// interrupted by a signal gives its records back to the next.
    fn batch(&self, size: usize, bytes: usize) -> PyResult<Vec<Record>> {
        let mut state = self.lock();
        let mut records = Vec::new();
        let mut held = 0;
        while records.len() < size {
            let r = match next_of(&mut state) {
                Ok(Some(r)) => r,
                Ok(None) => break,
                Err(e) => {
                    for r in records.into_iter().rev() {
                        state.pending.push_front(r);
                    }
                    return Err(e);
                }
            };
            let add = batch_bytes(&r);
            if !records.is_empty() && held + add > bytes {
                state.pending.push_front(r);
                break;
            }
            held += add;
            records.push(r);
        }
        Ok(records)
    }
}

/// The first record pending in `state`, else the reader's next (asked of the fetcher, unless
/// an interrupted wait asked already). Waits without the GIL (the callers release it),
/// taking it every [`SIGNAL_CHECK`] to check for signals.
fn next_of(state: &mut ReaderState) -> PyResult<Option<Record>> {
    if let Some(rec) = state.pending.pop_front() {
        return Ok(Some(rec));
    }
    let gone = || PyRuntimeError::new_err("internal error in the reader (a bug): it stopped");
    if !state.asked {
        state.ask.send(()).map_err(|_| gone())?;
        state.asked = true;
    }
    loop {
        match state.answers.recv_timeout(SIGNAL_CHECK) {
            Ok(fetched) => {
                state.asked = false;
                return fetched.transpose().map_err(|e| PyRuntimeError::new_err(e.to_string()));
            }
            Err(RecvTimeoutError::Timeout) => Python::attach(|py| py.check_signals())?,
            Err(RecvTimeoutError::Disconnected) => return Err(gone()),
        }
    }
}

/// Iterator of dicts returned by `read_warc`.
#[pyclass(module = "feedmill._feedmill")]
struct WarcRecords {
    reader: Reader,
    /// `parse=True`: the settings the records are processed with.
    parse: Option<Settings>,
}

#[pymethods]
impl WarcRecords {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let rec = py
            .detach(|| guarded("read_warc", || self.reader.next()))?
            .ok_or_else(|| PyStopIteration::new_err(()))?;
        if let Some(s) = &self.parse {
            let batch = py.detach(|| {
                guarded("read_warc", || {
                    Ok(build_batch(s, Layout::Records, |w, emit| w.process(&rec, emit)))
                })
            })?;
            return guarded("read_warc", || record_value(py, &batch));
        }
        let capture = guarded("read_warc", || capture::dict(py, rec.capture.as_ref()))?;
        let error_message = rec.error_message();
        let d = PyDict::new(py);
        d.set_item("source", rec.source)?;
        d.set_item("url", rec.url)?;
        d.set_item("status", rec.status)?;
        d.set_item("content_type", rec.content_type)?;
        match rec.body {
            Ok(body) => {
                d.set_item("body", PyBytes::new(py, &body))?;
                d.set_item("error_kind", None::<&str>)?;
            }
            Err(e) => {
                d.set_item("body", None::<&[u8]>)?;
                d.set_item("error_kind", e.kind)?;
            }
        }
        d.set_item("error_message", error_message)?;
        d.set_item("capture", capture)?;
        d.set_item("notes", rec.notes)?;
        Ok(d.into_any())
    }
}

/// The settings of a WARC reader's `**options`: without `parse`, only `max_input_bytes`
/// (the largest record read) applies, and any other option is a `TypeError`.
fn reader_settings(
    func: &str,
    parse: bool,
    layout: &str,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Settings> {
    let s = Settings::from_kwargs(func, options)?;
    if !parse && (!s.only_reading() || layout != "records") {
        return Err(PyTypeError::new_err(format!(
            "{func}(): without parse=True only max_input_bytes applies; \
             the other options (layout, {}) are for parse=True",
            options::names()
                .into_iter()
                .filter(|n| *n != "max_input_bytes")
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    Ok(s)
}

/// read_warc(path, *, parse=False, **options)
/// --
///
/// Iterates over the records of a WARC / WARC.gz file at `path` (a str, bytes or
/// os.PathLike; also a directory, tar, gzip or plain file, and archives inside a tar), in
/// order, as dicts `{source, url, status, content_type,
/// body, error_kind, error_message, capture, notes}`: WARC `response` records with their HTTP
/// status, `Content-Type` and decoded body (chunked, gzip and deflate removed); other WARC
/// record types are skipped. An unreadable record has `body` None and `error_kind` set.
/// `notes` say how a record was read where that differs from what it says (a stated length
/// that did not end it, segments missing, a stale `Content-Encoding`); an unreadable record's
/// are in its `error_message`. `source` is
/// the CLI's (`path@offset target-uri`). Each dict can be passed to `parse(**record)`.
/// With `parse=True` the records come parsed instead, as `parse` returns them (the CLI's
/// records of `path`), with the options of `parse`; without it only `max_input_bytes` (the
/// largest record read) applies. Records are read ahead on a thread within 16 MiB (or one
/// record, when it is larger); a wait for the next one (a FIFO without a writer, a slow
/// disk) is interrupted by Ctrl-C (KeyboardInterrupt; the record waited for comes next). A
/// bug in the reader raises `RuntimeError`.
#[pyfunction]
#[pyo3(signature = (path, *, parse=false, **options))]
fn read_warc(
    path: &Bound<'_, PyAny>,
    parse: bool,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<WarcRecords> {
    let path = input::path("read_warc", path)?;
    let s = reader_settings("read_warc", parse, "records", options)?;
    let reader = Reader::open(vec![path], &s.config())?;
    Ok(WarcRecords { reader, parse: parse.then_some(s) })
}

/// Iterator of record batches returned by `read_warc_batches`.
#[pyclass(module = "feedmill._feedmill")]
struct WarcBatches {
    reader: Reader,
    size: usize,
    bytes: usize,
    /// `parse=True`: the settings the records are processed with and the layout of the
    /// batches.
    parse: Option<(Settings, Layout)>,
}

/// Most bytes of a `read_warc_batches` batch: its `binary` and `string` columns have 32-bit
/// offsets, so no column may hold 2 GiB; a batch stays under half that.
const MAX_BATCH_BYTES: usize = 1 << 30;

/// Bytes `rec` adds to a batch's columns.
fn batch_bytes(rec: &Record) -> usize {
    rec.source.len()
        + rec.url.as_ref().map_or(0, String::len)
        + rec.content_type.as_ref().map_or(0, String::len)
        + rec.capture.as_ref().map_or(0, feedmill::record::Capture::held_bytes)
        + match &rec.body {
            Ok(b) => b.len(),
            Err(e) => e.kind.len() + e.message.len(),
        }
}

impl WarcBatches {
    /// The next batch ([`Reader::batch`]).
    fn next_batch(&self) -> PyResult<Option<RecordBatch>> {
        let mut records = self.reader.batch(self.size, self.bytes)?;
        if records.is_empty() {
            return Ok(None);
        }
        if let Some((s, layout)) = &self.parse {
            let batch =
                build_batch(s, *layout, |w, emit| records.iter().for_each(|r| w.process(r, emit)));
            return Ok(Some(batch));
        }
        // A record larger than a batch column holds is its error record here (`read_warc`
        // and `parse=True` read it).
        for r in &mut records {
            let size = batch_bytes(r);
            if size > MAX_BATCH_BYTES {
                r.body = Err(feedmill::bulk::ReadError {
                    kind: "too_large",
                    message: format!(
                        "the record's {size} bytes are more than a read_warc_batches batch \
                         holds ({MAX_BATCH_BYTES}); read_warc reads it"
                    ),
                });
            }
        }
        // Each record's values are copied into the builders, the body's sized up front (no
        // regrowth), and the record is dropped once copied: the batch holds its bodies once,
        // not twice.
        let capture = capture::column(records.iter().map(|r| r.capture.as_ref()));
        let n = records.len();
        let body_bytes = records.iter().map(|r| r.body.as_ref().map_or(0, Vec::len)).sum();
        let mut source = StringBuilder::new();
        let mut url = StringBuilder::new();
        let mut status = Int64Builder::with_capacity(n);
        let mut ct = StringBuilder::new();
        let mut body = BinaryBuilder::with_capacity(n, body_bytes);
        let mut ek = StringBuilder::new();
        let mut em = StringBuilder::new();
        let mut notes = ListBuilder::new(StringBuilder::new());
        for r in records {
            source.append_value(&r.source);
            url.append_option(r.url.as_deref());
            status.append_option(r.status.map(i64::from));
            ct.append_option(r.content_type.as_deref());
            notes.append_value(r.notes.iter().map(Some));
            match r.body {
                Ok(b) => {
                    body.append_value(b);
                    ek.append_null();
                    em.append_null();
                }
                Err(ref e) => {
                    body.append_null();
                    ek.append_value(e.kind);
                    em.append_option(r.error_message());
                }
            }
        }
        let cols: Vec<(&str, ArrayRef)> = vec![
            ("source", Arc::new(source.finish())),
            ("url", Arc::new(url.finish())),
            ("status", Arc::new(status.finish())),
            ("content_type", Arc::new(ct.finish())),
            ("body", Arc::new(body.finish())),
            ("error_kind", Arc::new(ek.finish())),
            ("error_message", Arc::new(em.finish())),
            ("capture", capture),
            ("notes", Arc::new(notes.finish())),
        ];
        let fields: Vec<Field> = cols
            .iter()
            .map(|(n, a)| Field::new(*n, a.data_type().clone(), *n != "source"))
            .collect();
        let arrays = cols.into_iter().map(|(_, a)| a).collect();
        RecordBatch::try_new(Arc::new(Schema::new(fields)), arrays)
            .map(Some)
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }
}

#[pymethods]
impl WarcBatches {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<PyArrowType<RecordBatch>> {
        match py.detach(|| guarded("read_warc_batches", || self.next_batch()))? {
            Some(b) => Ok(PyArrowType(b)),
            None => Err(PyStopIteration::new_err(())),
        }
    }
}

/// read_warc_batches(path, batch_size=256, batch_bytes=64 << 20, *, parse=False, layout="records", **options)
/// --
///
/// The records of `read_warc(path)` as `pyarrow.RecordBatch`es of at most `batch_size`
/// records and `batch_bytes` bytes of values (both positive ints, else ValueError or
/// TypeError naming them; a larger record is a batch of its own; at most 1 GiB, as the
/// `binary` column's offsets are 32-bit: a larger record is a `too_large` error row, which
/// `read_warc` reads), with the columns `parse_batch` takes (`source`, `url`, `status`,
/// `content_type`, `body`, `error_kind`, `error_message`, `capture`, `notes`). With
/// `parse=True` the batches are those records parsed instead, as `parse_batch` makes them
/// (`schema(layout)`), with the options of `parse`; without it only `max_input_bytes` (the
/// largest record read) applies. `path` and waiting for records as in `read_warc`.
#[pyfunction]
#[pyo3(signature = (path, batch_size=256, batch_bytes=64 << 20, *, parse=false, layout="records", **options))]
fn read_warc_batches(
    path: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = batch_size_arg)] batch_size: usize,
    #[pyo3(from_py_with = batch_bytes_arg)] batch_bytes: usize,
    parse: bool,
    layout: &str,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<WarcBatches> {
    let path = input::path("read_warc_batches", path)?;
    let s = reader_settings("read_warc_batches", parse, layout, options)?;
    let layout = self::layout(layout)?;
    Ok(WarcBatches {
        reader: Reader::open(vec![path], &s.config())?,
        size: batch_size,
        bytes: batch_bytes.min(MAX_BATCH_BYTES),
        parse: parse.then_some((s, layout)),
    })
}

fn batch_size_arg(v: &Bound<'_, PyAny>) -> PyResult<usize> {
    input::count("read_warc_batches", "batch_size", v)
}

fn batch_bytes_arg(v: &Bound<'_, PyAny>) -> PyResult<usize> {
    input::count("read_warc_batches", "batch_bytes", v)
}

#[pymodule]
fn _feedmill(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(parse_file, m)?)?;
    m.add_function(wrap_pyfunction!(parse_batch, m)?)?;
    m.add_function(wrap_pyfunction!(limits, m)?)?;
    m.add_function(wrap_pyfunction!(schema, m)?)?;
    m.add_function(wrap_pyfunction!(read_warc, m)?)?;
    m.add_function(wrap_pyfunction!(read_warc_batches, m)?)?;
    m.add_class::<WarcRecords>()?;
    m.add_class::<WarcBatches>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
