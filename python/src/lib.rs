//! `feedmill._feedmill`: the Python bindings (PyO3). Each call runs the library's bulk worker
//! (the same per-record code as the CLI: WARC responses as HTTP responses, plain documents
//! with their base URL) and returns the JSON Lines record as a dict or the Arrow form as a
//! `pyarrow.RecordBatch`. The GIL is released while parsing. Archives are read by the
//! library's record reader (`feedmill::bulk::read`: read ahead within a byte budget).
//!
//! Panics (bugs): one while a record is processed makes it that record's `internal` error
//! record, as in the CLI; any other becomes a `RuntimeError` ([`guarded`]), never pyo3's
//! `PanicException`.

use std::cell::RefCell;
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex};

use arrow::array::{Array, ArrayRef, AsArray, BinaryBuilder, Int64Builder, StringBuilder};
use arrow::compute::cast;
use arrow::datatypes::{DataType, Field, Int64Type, Schema};
use arrow::pyarrow::PyArrowType;
use arrow::record_batch::RecordBatch;
use feedmill::bulk::{Config, Input, ReadError, Record, Records, Worker};
use feedmill::columnar::{Layout, RecordBatchBuilder};
use feedmill::extract::ExtractOptions;
use feedmill::sanitize::SanitizeOptions;
use feedmill::sink::RecordView;
use pyo3::exceptions::{PyRuntimeError, PyStopIteration, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// What a record is processed with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Mode {
    /// The extraction keys (`extract=True`).
    extract: bool,
    /// Strict HTML sanitizing (`sanitize="strict"`).
    strict: bool,
}

fn mode(extract: bool, sanitize: &str) -> PyResult<Mode> {
    match sanitize {
        "spec" => Ok(Mode { extract, strict: false }),
        "strict" => Ok(Mode { extract, strict: true }),
        other => Err(PyValueError::new_err(format!(
            "sanitize must be 'spec' or 'strict', not {other:?}"
        ))),
    }
}

fn config(m: Mode) -> Config {
    Config {
        threads: 1,
        extract: m.extract.then(ExtractOptions::default),
        sanitize: m.strict.then_some(SanitizeOptions { base_url: None, allow_video_embeds: false }),
        ..Config::default()
    }
}

thread_local! {
    /// One worker (parser, arenas, buffers) per thread and mode, reused across calls.
    static WORKERS: RefCell<HashMap<Mode, Worker>> = RefCell::new(HashMap::new());
}

fn with_worker<T>(m: Mode, f: impl FnOnce(&mut Worker) -> T) -> T {
    WORKERS.with(|w| {
        let mut w = w.borrow_mut();
        let worker = w.entry(m).or_insert_with(|| Worker::new(&config(m)));
        f(worker)
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
}

/// Processes one row and hands its record to `emit`: a row with `error_kind` (or without a
/// body) is an error record; with `content_type` or `status` it is an HTTP response (status
/// 200 when not given; other statuses are not feeds; computed MIME type, charset, `url` as
/// base URL); else a plain document at `url`.
///
/// A panic while parsing the row (a bug) makes it an `internal` error record, as in the
/// CLI, and the worker starts afresh ([`Worker::process`]); a panic inside `emit` cannot be
/// undone (part of the row may be in the batch) and reaches [`guarded`].
fn process_row(w: &mut Worker, row: &Row<'_>, emit: &mut dyn FnMut(&RecordView<'_, '_>)) {
    let source = row.source.or(row.url).unwrap_or("");
    let body = match (row.error_kind, row.body) {
        (None, Some(b)) => b,
        (kind, _) => {
            let kind = kind.unwrap_or("no_body");
            let message = row.error_message.unwrap_or("the record has no body");
            emit(&RecordView::error(source, row.url, kind, message));
            return;
        }
    };
    let mut rec = Record {
        source: source.to_owned(),
        url: row.url.map(str::to_owned),
        status: None,
        content_type: None,
        body: Ok(body.to_vec()),
        capture: None,
    };
    if row.content_type.is_some() || row.status.is_some() {
        // As the header of an HTTP response: a value cannot hold a line break, and is read
        // trimmed; a status that is no HTTP status code makes the response unreadable.
        rec.url = rec.url.filter(|u| !u.is_empty());
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

/// parse(body, *, content_type=None, url=None, status=None, extract=False, sanitize="spec")
/// --
///
/// Parses one feed body into a record dict, the same shape as a JSON Lines record of the
/// CLI (`source`, `status`, `error`, `format`, `encoding`, `diagnostics`, `feed`).
///
/// With `content_type` or `status` the body is an HTTP response (status other than 200 is
/// not a feed; the MIME type is computed and the charset taken from `content_type`);
/// otherwise a stored document. `url` is the base URL of relative links (and the record's
/// `source`). `extract=True` adds the extraction keys; `sanitize="strict"` sanitizes HTML
/// values strictly. The GIL is released while parsing.
#[pyfunction]
#[pyo3(signature = (body, *, content_type=None, url=None, status=None, extract=false, sanitize="spec"))]
fn parse<'py>(
    py: Python<'py>,
    body: &[u8],
    content_type: Option<&str>,
    url: Option<&str>,
    status: Option<i64>,
    extract: bool,
    sanitize: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let m = mode(extract, sanitize)?;
    let row = Row {
        source: None,
        body: Some(body),
        content_type,
        url,
        status,
        error_kind: None,
        error_message: None,
    };
    let line = py.detach(|| {
        guarded("parse", || {
            Ok(with_worker(m, |w| {
                let mut out = Vec::with_capacity(body.len());
                process_row(w, &row, &mut |v| feedmill::sink::json::encode_record(&mut out, v));
                out
            }))
        })
    })?;
    let json = py.import("json")?;
    json.call_method1("loads", (PyBytes::new(py, &line),))
}

fn column(batch: &RecordBatch, name: &str, to: &DataType) -> PyResult<Option<ArrayRef>> {
    match batch.column_by_name(name) {
        None => Ok(None),
        Some(c) => cast(c, to)
            .map(Some)
            .map_err(|e| PyValueError::new_err(format!("column {name:?}: {e}"))),
    }
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

/// parse_batch(batch, *, layout="records", extract=False, sanitize="spec")
/// --
///
/// Parses a `pyarrow.RecordBatch` of bodies into a `pyarrow.RecordBatch` of records with
/// feedmill's Arrow schema (`schema(layout)`).
///
/// Input columns: `body` (binary, required), and optional `content_type` (string), `url`
/// (string), `status` (integer), `source` (string; default `url`), `error_kind` and
/// `error_message` (strings: the row is an error record, as `read_warc_batches` yields for
/// an unreadable WARC record). A row is processed as in `parse`. One output row per input
/// row (`layout="records"`), or one per entry (`layout="entries"`). The GIL is released
/// while parsing.
#[pyfunction]
#[pyo3(signature = (batch, *, layout="records", extract=false, sanitize="spec"))]
fn parse_batch(
    py: Python<'_>,
    batch: PyArrowType<RecordBatch>,
    layout: &str,
    extract: bool,
    sanitize: &str,
) -> PyResult<PyArrowType<RecordBatch>> {
    let batch = batch.0;
    let m = mode(extract, sanitize)?;
    let layout = self::layout(layout)?;
    let out = py.detach(|| {
        guarded("parse_batch", || {
            let body = column(&batch, "body", &DataType::LargeBinary)?
                .ok_or_else(|| PyValueError::new_err("parse_batch needs a `body` column"))?;
            let columns = Columns {
                ct: column(&batch, "content_type", &DataType::Utf8)?,
                url: column(&batch, "url", &DataType::Utf8)?,
                status: column(&batch, "status", &DataType::Int64)?,
                source: column(&batch, "source", &DataType::Utf8)?,
                ek: column(&batch, "error_kind", &DataType::Utf8)?,
                em: column(&batch, "error_message", &DataType::Utf8)?,
            };
            Ok(parse_rows(&batch, &body, &columns, m, layout))
        })
    })?;
    Ok(PyArrowType(out))
}

/// The optional input columns of `parse_batch`, cast to the types read.
struct Columns {
    ct: Option<ArrayRef>,
    url: Option<ArrayRef>,
    status: Option<ArrayRef>,
    source: Option<ArrayRef>,
    ek: Option<ArrayRef>,
    em: Option<ArrayRef>,
}

/// The records of the rows of `batch`, whose `body` column (cast to large binary) is `body`.
fn parse_rows(
    batch: &RecordBatch,
    body: &ArrayRef,
    c: &Columns,
    m: Mode,
    layout: Layout,
) -> RecordBatch {
    fn str_at(c: &Option<ArrayRef>, i: usize) -> Option<&str> {
        c.as_ref().filter(|c| c.is_valid(i)).map(|c| c.as_string::<i32>().value(i))
    }
    let body = body.as_binary::<i64>();
    let mut b = RecordBatchBuilder::new(layout);
    with_worker(m, |w| {
        for i in 0..batch.num_rows() {
            let row = Row {
                source: str_at(&c.source, i),
                body: body.is_valid(i).then(|| body.value(i)),
                content_type: str_at(&c.ct, i),
                url: str_at(&c.url, i),
                status: c
                    .status
                    .as_ref()
                    .filter(|s| s.is_valid(i))
                    .map(|s| s.as_primitive::<Int64Type>().value(i)),
                error_kind: str_at(&c.ek, i),
                error_message: str_at(&c.em, i),
            };
            process_row(w, &row, &mut |v| b.append(v));
        }
    });
    b.finish()
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
/// each WARC response's HTTP message taken apart. A record it read and that did not fit in
/// the last batch waits in `pending`.
struct Reader {
    state: Mutex<(Records, Option<Record>)>,
}

impl Reader {
    fn open(paths: Vec<String>) -> Self {
        let inputs = paths.iter().map(Input::parse).collect();
        let records = feedmill::bulk::read(inputs, &Config::default());
        Reader { state: Mutex::new((records, None)) }
    }

    /// The next record; `Ok(None)` at the end. A bug in the reader is a `RuntimeError`.
    fn next(&self) -> PyResult<Option<Record>> {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let (records, pending) = &mut *state;
        if let Some(rec) = pending.take() {
            return Ok(Some(rec));
        }
        records.next().transpose().map_err(|e| PyRuntimeError::new_err(e.to_string()))
    }

    /// Keeps `rec` for the next call of [`Reader::next`].
    fn put_back(&self, rec: Record) {
        self.state.lock().unwrap_or_else(|p| p.into_inner()).1 = Some(rec);
    }
}

/// Iterator of dicts returned by `read_warc`.
#[pyclass(module = "feedmill._feedmill")]
struct WarcRecords {
    reader: Reader,
}

#[pymethods]
impl WarcRecords {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let rec = py
            .detach(|| guarded("read_warc", || self.reader.next()))?
            .ok_or_else(|| PyStopIteration::new_err(()))?;
        let d = PyDict::new(py);
        d.set_item("source", rec.source)?;
        d.set_item("url", rec.url)?;
        d.set_item("status", rec.status)?;
        d.set_item("content_type", rec.content_type)?;
        match rec.body {
            Ok(body) => {
                d.set_item("body", PyBytes::new(py, &body))?;
                d.set_item("error_kind", None::<&str>)?;
                d.set_item("error_message", None::<&str>)?;
            }
            Err(e) => {
                d.set_item("body", None::<&[u8]>)?;
                d.set_item("error_kind", e.kind)?;
                d.set_item("error_message", e.message)?;
            }
        }
        Ok(d)
    }
}

/// read_warc(path)
/// --
///
/// Iterates over the records of a WARC / WARC.gz file (also a directory, tar, gzip or plain
/// file, and archives inside a tar), in order, as dicts `{source, url, status, content_type,
/// body, error_kind, error_message}`: WARC `response` records with their HTTP status,
/// `Content-Type` and decoded body (chunked, gzip and deflate removed); other WARC record
/// types are skipped. An unreadable record has `body` None and `error_kind` set. `source` is
/// the CLI's (`path@offset target-uri`). The dicts can be passed to `parse(**…)` minus the
/// extra keys. Records are read ahead on a thread within 16 MiB (or one record, when it is
/// larger). A bug in the reader raises `RuntimeError`.
#[pyfunction]
fn read_warc(path: String) -> WarcRecords {
    WarcRecords { reader: Reader::open(vec![path]) }
}

/// Iterator of record batches returned by `read_warc_batches`.
#[pyclass(module = "feedmill._feedmill")]
struct WarcBatches {
    reader: Reader,
    size: usize,
    bytes: usize,
}

/// Most bytes of a `read_warc_batches` batch: its `binary` and `string` columns have 32-bit
/// offsets, so no column may hold 2 GiB; a batch stays under half that.
const MAX_BATCH_BYTES: usize = 1 << 30;

/// Bytes `rec` adds to a batch's columns.
fn batch_bytes(rec: &Record) -> usize {
    rec.source.len()
        + rec.url.as_ref().map_or(0, String::len)
        + rec.content_type.as_ref().map_or(0, String::len)
        + match &rec.body {
            Ok(b) => b.len(),
            Err(e) => e.kind.len() + e.message.len(),
        }
}

impl WarcBatches {
    /// The next batch: records until `size` rows or `bytes` bytes (a record that would take
    /// the batch past `bytes` starts the next one; a batch has at least one record).
    fn next_batch(&self) -> PyResult<Option<RecordBatch>> {
        let mut source = StringBuilder::new();
        let mut url = StringBuilder::new();
        let mut status = Int64Builder::new();
        let mut ct = StringBuilder::new();
        let mut body = BinaryBuilder::new();
        let mut ek = StringBuilder::new();
        let mut em = StringBuilder::new();
        let (mut n, mut held) = (0, 0);
        while n < self.size {
            let Some(r) = self.reader.next()? else { break };
            let add = batch_bytes(&r);
            if n > 0 && held + add > self.bytes {
                self.reader.put_back(r);
                break;
            }
            held += add;
            source.append_value(&r.source);
            url.append_option(r.url.as_deref());
            status.append_option(r.status.map(i64::from));
            ct.append_option(r.content_type.as_deref());
            match &r.body {
                Ok(b) => {
                    body.append_value(b);
                    ek.append_null();
                    em.append_null();
                }
                Err(e) => {
                    body.append_null();
                    ek.append_value(e.kind);
                    em.append_value(&e.message);
                }
            }
            n += 1;
        }
        if n == 0 {
            return Ok(None);
        }
        let cols: Vec<(&str, ArrayRef)> = vec![
            ("source", Arc::new(source.finish())),
            ("url", Arc::new(url.finish())),
            ("status", Arc::new(status.finish())),
            ("content_type", Arc::new(ct.finish())),
            ("body", Arc::new(body.finish())),
            ("error_kind", Arc::new(ek.finish())),
            ("error_message", Arc::new(em.finish())),
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

/// read_warc_batches(path, batch_size=256, batch_bytes=64 << 20)
/// --
///
/// The records of `read_warc(path)` as `pyarrow.RecordBatch`es of at most `batch_size` rows
/// and `batch_bytes` bytes of values (a larger record is a batch of its own; at most 1 GiB,
/// as the `binary` column's offsets are 32-bit), with the columns `parse_batch` takes
/// (`source`, `url`, `status`, `content_type`, `body`, `error_kind`, `error_message`).
#[pyfunction]
#[pyo3(signature = (path, batch_size=256, batch_bytes=64 << 20))]
fn read_warc_batches(path: String, batch_size: usize, batch_bytes: usize) -> WarcBatches {
    WarcBatches {
        reader: Reader::open(vec![path]),
        size: batch_size.max(1),
        bytes: batch_bytes.clamp(1, MAX_BATCH_BYTES),
    }
}

#[pymodule]
fn _feedmill(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(parse_batch, m)?)?;
    m.add_function(wrap_pyfunction!(schema, m)?)?;
    m.add_function(wrap_pyfunction!(read_warc, m)?)?;
    m.add_function(wrap_pyfunction!(read_warc_batches, m)?)?;
    m.add_class::<WarcRecords>()?;
    m.add_class::<WarcBatches>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
