//! `feedmill._feedmill`: the Python bindings (PyO3). Each call runs the library's bulk worker
//! (the same per-record code as the CLI: WARC responses as HTTP responses, plain documents
//! with their base URL) and returns the JSON Lines record as a dict or the Arrow form as a
//! `pyarrow.RecordBatch`. The GIL is released while parsing.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex};

use arrow::array::{Array, ArrayRef, AsArray, BinaryBuilder, Int64Builder, StringBuilder};
use arrow::compute::cast;
use arrow::datatypes::{DataType, Field, Int64Type, Schema};
use arrow::pyarrow::PyArrowType;
use arrow::record_batch::RecordBatch;
use feedmill::bulk::archive::http::parse_http_response;
use feedmill::bulk::archive::reader::spawn_reader;
use feedmill::bulk::archive::{Counters, Payload, RawRecord as Record, ReadConfig};
use feedmill::bulk::buf::BufPool;
use feedmill::bulk::{Config, Input, Worker};
use feedmill::columnar::{Layout, RecordBatchBuilder};
use feedmill::extract::ExtractOptions;
use feedmill::sanitize::SanitizeOptions;
use feedmill::sink::RecordView;
use pyo3::exceptions::{PyStopIteration, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// What a record is processed with: extraction on or off, strict sanitizing on or off.
type Mode = (bool, bool);

fn mode(extract: bool, sanitize: &str) -> PyResult<Mode> {
    match sanitize {
        "spec" => Ok((extract, false)),
        "strict" => Ok((extract, true)),
        other => Err(PyValueError::new_err(format!(
            "sanitize must be 'spec' or 'strict', not {other:?}"
        ))),
    }
}

fn config((extract, strict): Mode) -> Config {
    Config {
        threads: 1,
        extract: extract.then(ExtractOptions::default),
        sanitize: strict.then_some(SanitizeOptions { base_url: None, allow_video_embeds: false }),
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

/// An HTTP response message around an already decoded body (no transfer or content coding
/// headers, so the body is taken as is).
fn http_message(status: i64, content_type: Option<&str>, body: &[u8]) -> Vec<u8> {
    let mut m = Vec::with_capacity(body.len() + 128);
    m.extend_from_slice(format!("HTTP/1.1 {status} -\r\n").as_bytes());
    if let Some(ct) = content_type {
        // A header value cannot hold a line break.
        let ct: String = ct.chars().filter(|c| *c != '\r' && *c != '\n').collect();
        m.extend_from_slice(format!("Content-Type: {ct}\r\n").as_bytes());
    }
    m.extend_from_slice(b"\r\n");
    m.extend_from_slice(body);
    m
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
/// body) is an error record; with `content_type` or `status` it is an HTTP response (status,
/// computed MIME type, charset, `url` as base URL); else a plain document at `url`.
///
/// A panic while parsing the row (a bug) makes it an `internal` error record, as in the
/// CLI, and the worker starts afresh; a panic inside `emit` is not caught (what it built
/// cannot be undone) and reaches Python as a `PanicException`.
fn process_row(w: &mut Worker, m: Mode, row: &Row<'_>, emit: &mut dyn FnMut(&RecordView<'_, '_>)) {
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
    let payload = if row.content_type.is_some() || row.status.is_some() {
        let message = http_message(row.status.unwrap_or(200), row.content_type, body);
        Payload::Response { target_uri: row.url.unwrap_or("").to_owned(), message: message.into() }
    } else {
        w.set_base_url(row.url);
        Payload::Document(body.to_vec())
    };
    let rec = Record { source: source.to_owned(), payload };
    let mut entered = false;
    let parsed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        w.view(&rec, &mut |view, _| {
            entered = true;
            emit(view)
        })
    }));
    if let Err(panic) = parsed {
        *w = Worker::new(&config(m));
        if entered {
            std::panic::resume_unwind(panic);
        }
        let message = feedmill::bulk::internal_error_message(&*panic);
        emit(&RecordView::error(source, row.url, "internal", &message));
    }
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
        with_worker(m, |w| {
            let mut out = Vec::with_capacity(body.len());
            process_row(w, m, &row, &mut |v| feedmill::sink::json::encode_record(&mut out, v));
            out
        })
    });
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
    let body = column(&batch, "body", &DataType::LargeBinary)?
        .ok_or_else(|| PyValueError::new_err("parse_batch needs a `body` column"))?;
    let ct = column(&batch, "content_type", &DataType::Utf8)?;
    let url = column(&batch, "url", &DataType::Utf8)?;
    let status = column(&batch, "status", &DataType::Int64)?;
    let source = column(&batch, "source", &DataType::Utf8)?;
    let ek = column(&batch, "error_kind", &DataType::Utf8)?;
    let em = column(&batch, "error_message", &DataType::Utf8)?;
    let out = py.detach(|| {
        let body = body.as_binary::<i64>();
        fn str_at(c: &Option<ArrayRef>, i: usize) -> Option<&str> {
            c.as_ref().filter(|c| c.is_valid(i)).map(|c| c.as_string::<i32>().value(i))
        }
        let mut b = RecordBatchBuilder::new(layout);
        with_worker(m, |w| {
            for i in 0..batch.num_rows() {
                let row = Row {
                    source: str_at(&source, i),
                    body: body.is_valid(i).then(|| body.value(i)),
                    content_type: str_at(&ct, i),
                    url: str_at(&url, i),
                    status: status
                        .as_ref()
                        .filter(|c| c.is_valid(i))
                        .map(|c| c.as_primitive::<Int64Type>().value(i)),
                    error_kind: str_at(&ek, i),
                    error_message: str_at(&em, i),
                };
                process_row(w, m, &row, &mut |v| b.append(v));
            }
        });
        b.finish()
    });
    Ok(PyArrowType(out))
}

/// schema(layout="records")
/// --
///
/// The `pyarrow.Schema` of `parse_batch` output and of the CLI's Parquet files.
#[pyfunction]
#[pyo3(signature = (layout="records"))]
fn schema(layout: &str) -> PyResult<PyArrowType<Schema>> {
    Ok(PyArrowType(feedmill::columnar::schema(self::layout(layout)?).as_ref().clone()))
}

/// One record as read from an archive, HTTP taken apart.
struct RawRecord {
    source: String,
    url: Option<String>,
    status: Option<i64>,
    content_type: Option<String>,
    body: Option<Vec<u8>>,
    error: Option<(&'static str, String)>,
}

/// Iterates over the records of files, directories and archives (WARC, WARC.gz, tar, gzip),
/// on a reader thread, in order.
struct Reader {
    rx: Mutex<Receiver<Record>>,
    max_body: usize,
}

impl Reader {
    fn open(paths: Vec<String>) -> Self {
        let max_body = feedmill::Options::default().limits.max_input_bytes;
        let inputs = paths.iter().map(|p| Input::parse(p)).collect();
        let cfg = ReadConfig { max_record_bytes: max_body };
        let counters = Arc::new(Counters::default());
        let (rx, _handle) = spawn_reader(inputs, cfg, counters, Arc::new(BufPool::default()), 64);
        Reader { rx: Mutex::new(rx), max_body }
    }

    fn next(&self) -> Option<RawRecord> {
        let rec = self.rx.lock().ok()?.recv().ok()?;
        let mut raw = RawRecord {
            source: rec.source,
            url: None,
            status: None,
            content_type: None,
            body: None,
            error: None,
        };
        match rec.payload {
            Payload::Document(b) => raw.body = Some(b),
            Payload::Broken { kind, message } => raw.error = Some((kind, message)),
            Payload::Response { target_uri, message } => {
                match parse_http_response(&message, self.max_body) {
                    Ok(r) => {
                        raw.status = Some(r.status.into());
                        raw.content_type = r.content_type;
                        raw.body = Some(r.body.into_owned());
                    }
                    Err((kind, msg)) => raw.error = Some((kind, msg)),
                }
                raw.url = Some(target_uri).filter(|u| !u.is_empty());
            }
        }
        Some(raw)
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
        let raw = py.detach(|| self.reader.next()).ok_or_else(|| PyStopIteration::new_err(()))?;
        let d = PyDict::new(py);
        d.set_item("source", raw.source)?;
        d.set_item("url", raw.url)?;
        d.set_item("status", raw.status)?;
        d.set_item("content_type", raw.content_type)?;
        d.set_item("body", raw.body.map(|b| PyBytes::new(py, &b)))?;
        d.set_item("error_kind", raw.error.as_ref().map(|e| e.0))?;
        d.set_item("error_message", raw.error.map(|e| e.1))?;
        Ok(d)
    }
}

/// read_warc(path)
/// --
///
/// Iterates over the records of a WARC / WARC.gz file (also a directory, tar, gzip or plain
/// file), in order, as dicts `{source, url, status, content_type, body, error_kind,
/// error_message}`: WARC `response` records with their HTTP status, `Content-Type` and
/// decoded body (chunked, gzip and deflate removed); other WARC record types are skipped.
/// An unreadable record has `body` None and `error_kind` set. `source` is the CLI's
/// (`path@offset target-uri`). The dicts can be passed to `parse(**…)` minus the extra keys.
#[pyfunction]
fn read_warc(path: String) -> WarcRecords {
    WarcRecords { reader: Reader::open(vec![path]) }
}

/// Iterator of record batches returned by `read_warc_batches`.
#[pyclass(module = "feedmill._feedmill")]
struct WarcBatches {
    reader: Reader,
    size: usize,
}

#[pymethods]
impl WarcBatches {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<PyArrowType<RecordBatch>> {
        let batch = py.detach(|| {
            let mut source = StringBuilder::new();
            let mut url = StringBuilder::new();
            let mut status = Int64Builder::new();
            let mut ct = StringBuilder::new();
            let mut body = BinaryBuilder::new();
            let mut ek = StringBuilder::new();
            let mut em = StringBuilder::new();
            let mut n = 0;
            while n < self.size {
                let Some(r) = self.reader.next() else { break };
                source.append_value(&r.source);
                url.append_option(r.url.as_deref());
                status.append_option(r.status);
                ct.append_option(r.content_type.as_deref());
                body.append_option(r.body.as_deref());
                ek.append_option(r.error.as_ref().map(|e| e.0));
                em.append_option(r.error.as_ref().map(|e| e.1.as_str()));
                n += 1;
            }
            (n > 0).then(|| {
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
            })
        });
        match batch {
            None => Err(PyStopIteration::new_err(())),
            Some(Ok(b)) => Ok(PyArrowType(b)),
            Some(Err(e)) => Err(PyValueError::new_err(e.to_string())),
        }
    }
}

/// read_warc_batches(path, batch_size=256)
/// --
///
/// The records of `read_warc(path)` as `pyarrow.RecordBatch`es of at most `batch_size` rows,
/// with the columns `parse_batch` takes (`source`, `url`, `status`, `content_type`, `body`,
/// `error_kind`, `error_message`).
#[pyfunction]
#[pyo3(signature = (path, batch_size=256))]
fn read_warc_batches(path: String, batch_size: usize) -> WarcBatches {
    WarcBatches { reader: Reader::open(vec![path]), size: batch_size.max(1) }
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
