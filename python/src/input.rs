//! What the functions take as input: a body (`parse`: bytes-like or str), its HTTP status,
//! a path (`parse_file`, the WARC readers), the batch sizes of `read_warc_batches` and the
//! columns of a batch of rows (`parse_batch`), checked before any row is processed: a value
//! of a type that is not a body, or a column of a type its name does not take, raises
//! `TypeError`.

use std::path::PathBuf;

use arrow::array::{Array, ArrayRef, AsArray};
use arrow::compute::{cast_with_options, CastOptions};
use arrow::datatypes::{DataType, Field, Int64Type};
use arrow::record_batch::RecordBatch;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyInt, PyString};

use crate::options::type_error;
use crate::Row;

/// The UTF-8 byte order mark: put before a str body, it makes the parser read the body as
/// UTF-8 whatever its XML declaration says (the byte order mark comes first in the spec's
/// order of encoding sources).
const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// The bytes of `body` (`None` for None): bytes, bytearray, any other object with the buffer
/// protocol (memoryview, array, mmap, numpy arrays: its bytes in C order), or a str (UTF-8,
/// after a byte order mark). An object with the buffer protocol that cannot give its bytes
/// (a released memoryview) is a `ValueError`.
pub(crate) fn body(
    py: Python<'_>,
    func: &str,
    body: &Bound<'_, PyAny>,
) -> PyResult<Option<Vec<u8>>> {
    if body.is_none() {
        return Ok(None);
    }
    if let Ok(b) = body.cast::<PyBytes>() {
        return Ok(Some(b.as_bytes().to_vec()));
    }
    if let Ok(b) = body.cast::<PyByteArray>() {
        return Ok(Some(b.to_vec()));
    }
    if let Ok(s) = body.cast::<PyString>() {
        let text = s.to_cow()?;
        let mut out = Vec::with_capacity(UTF8_BOM.len() + text.len());
        out.extend_from_slice(UTF8_BOM);
        out.extend_from_slice(text.as_bytes());
        return Ok(Some(out));
    }
    // NOTE: the buffer protocol through memoryview, as PyO3's `PyBuffer` is not in the
    // stable ABI before Python 3.11 (the wheel supports 3.9).
    let view = py.import("builtins")?.getattr("memoryview")?;
    // `memoryview(body)` raises TypeError for an object without the buffer protocol; any
    // other error is an object that has it but cannot give its bytes now (a released
    // memoryview: ValueError; an exporter that refuses: BufferError), which is said as such,
    // the original error as its cause.
    let bytes = view.call1((body,)).and_then(|view| view.call_method0("tobytes"));
    match bytes {
        Ok(bytes) => Ok(Some(bytes.cast::<PyBytes>()?.as_bytes().to_vec())),
        Err(e) if e.is_instance_of::<PyTypeError>(py) => {
            let ty = body.get_type().name().map_or_else(|_| "?".to_owned(), |n| n.to_string());
            let err = PyTypeError::new_err(format!(
                "{func}(): body must be bytes, a bytes-like object or str, not {ty}"
            ));
            err.set_cause(py, Some(e));
            Err(err)
        }
        Err(e) => {
            let err =
                PyValueError::new_err(format!("{func}(): body cannot be read: {}", e.value(py)));
            err.set_cause(py, Some(e));
            Err(err)
        }
    }
}

/// `parse(status=...)`: an int (not a bool), or None. Every int of 64 bits is taken, as a
/// `parse_batch` `status` column value is: one outside 0..=65535 makes the record a
/// `bad_http` error record, and a WARC record's status is any number of 0..=65535 its status
/// line gives (three digits or not), which `parse(**record)` must take. A larger int raises
/// `ValueError`, as a `parse_batch` column value does.
pub(crate) fn status(func: &str, v: Option<&Bound<'_, PyAny>>) -> PyResult<Option<i64>> {
    let Some(v) = v.filter(|v| !v.is_none()) else { return Ok(None) };
    if v.is_instance_of::<PyBool>() || !v.is_instance_of::<PyInt>() {
        return Err(type_error(func, "status", "an int or None", v));
    }
    v.extract::<i64>().map(Some).map_err(|_| {
        PyValueError::new_err(format!(
            "{func}(): status must be an HTTP status code (an int of 64 bits at most), not {v}"
        ))
    })
}

/// A count argument (`read_warc_batches`'s `batch_size` and `batch_bytes`): an int (not a
/// bool) of at least 1.
pub(crate) fn count(func: &str, name: &str, v: &Bound<'_, PyAny>) -> PyResult<usize> {
    if v.is_instance_of::<PyBool>() || !v.is_instance_of::<PyInt>() {
        return Err(type_error(func, name, "an int", v));
    }
    match v.extract::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(PyValueError::new_err(format!(
            "{func}(): {name} must be a positive integer that fits in usize, not {v}"
        ))),
    }
}

/// A path argument, taken as Python's `open()` takes one: a str, bytes (the file system
/// encoding's bytes, as they are on Unix) or an `os.PathLike` giving either. Another type is
/// a `TypeError` naming the argument.
pub(crate) fn path(func: &str, v: &Bound<'_, PyAny>) -> PyResult<PathBuf> {
    let py = v.py();
    // `os.fsdecode` gives the str of each (bytes decoded with `surrogateescape`), which the
    // conversion to a path encodes back to the same bytes.
    match py.import("os")?.getattr("fsdecode")?.call1((v,)) {
        Ok(text) => text.extract::<PathBuf>(),
        Err(e) if e.is_instance_of::<PyTypeError>(py) => {
            let err = type_error(func, "path", "a str, bytes or os.PathLike", v);
            err.set_cause(py, Some(e));
            Err(err)
        }
        Err(e) => Err(e),
    }
}

/// What a column of a `parse_batch` input holds.
#[derive(Clone, Copy)]
enum Kind {
    /// `body`: binary or string.
    Body,
    /// A string column.
    Str,
    /// `status`: an integer.
    Int,
}

impl Kind {
    fn takes(self, ty: &DataType) -> bool {
        use DataType::*;
        let string = |t: &DataType| matches!(t, Utf8 | LargeUtf8 | Utf8View);
        let ok = match self {
            Kind::Body => {
                string(ty) || matches!(ty, Binary | LargeBinary | BinaryView | FixedSizeBinary(_))
            }
            Kind::Str => string(ty),
            Kind::Int => ty.is_integer(),
        };
        // An all-null column (pyarrow's type for [None, None]) holds no value of any type;
        // a dictionary column holds values of its value type.
        ok || *ty == Null || matches!(ty, Dictionary(_, v) if self.takes(v))
    }

    fn expected(self) -> &'static str {
        match self {
            Kind::Body => "binary or string",
            Kind::Str => "string",
            Kind::Int => "integer",
        }
    }

    /// The type a column of this kind is read as.
    fn read_as(self) -> DataType {
        match self {
            Kind::Body => DataType::LargeBinary,
            Kind::Str => DataType::Utf8,
            Kind::Int => DataType::Int64,
        }
    }
}

/// The columns of a `parse_batch` input, checked and cast to the types read.
pub(crate) struct Columns {
    rows: usize,
    body: ArrayRef,
    content_type: Option<ArrayRef>,
    url: Option<ArrayRef>,
    status: Option<ArrayRef>,
    source: Option<ArrayRef>,
    error_kind: Option<ArrayRef>,
    error_message: Option<ArrayRef>,
    /// Each row's `capture` (none without the column), read before any row is processed.
    captures: Vec<Option<feedmill::record::Capture>>,
    /// Each row's `notes` (none without the column, or for a null row).
    notes: Vec<Vec<String>>,
}

impl Columns {
    /// The columns of `batch`: `body` is required; a column of a type its name does not take
    /// is a `TypeError`.
    pub(crate) fn of(batch: &RecordBatch) -> PyResult<Columns> {
        let col = |name: &str, kind: Kind| -> PyResult<Option<ArrayRef>> {
            let Some(c) = batch.column_by_name(name) else { return Ok(None) };
            if !kind.takes(c.data_type()) {
                return Err(PyTypeError::new_err(format!(
                    "parse_batch(): column {name:?} must be {}, not {}",
                    kind.expected(),
                    c.data_type()
                )));
            }
            // Not `safe`: a value the type read cannot hold (a status past i64) is an error,
            // not a null.
            let strict = CastOptions { safe: false, ..CastOptions::default() };
            cast_with_options(c, &kind.read_as(), &strict)
                .map(Some)
                .map_err(|e| PyValueError::new_err(format!("parse_batch(): column {name:?}: {e}")))
        };
        Ok(Columns {
            rows: batch.num_rows(),
            body: col("body", Kind::Body)?
                .ok_or_else(|| PyValueError::new_err("parse_batch() needs a `body` column"))?,
            content_type: col("content_type", Kind::Str)?,
            url: col("url", Kind::Str)?,
            status: col("status", Kind::Int)?,
            source: col("source", Kind::Str)?,
            error_kind: col("error_kind", Kind::Str)?,
            error_message: col("error_message", Kind::Str)?,
            captures: match batch.column_by_name("capture") {
                Some(c) => {
                    let c = crate::capture::checked_column("parse_batch", c)?;
                    (0..batch.num_rows())
                        .map(|i| crate::capture::read(c.as_struct(), i))
                        .collect::<PyResult<_>>()?
                }
                None => vec![None; batch.num_rows()],
            },
            notes: match batch.column_by_name("notes") {
                Some(c) => notes(c)?,
                None => vec![Vec::new(); batch.num_rows()],
            },
        })
    }

    pub(crate) fn rows(&self) -> usize {
        self.rows
    }

    /// Row `i`.
    pub(crate) fn row(&self, i: usize) -> Row<'_> {
        fn str_at(c: &Option<ArrayRef>, i: usize) -> Option<&str> {
            c.as_ref().filter(|c| c.is_valid(i)).map(|c| c.as_string::<i32>().value(i))
        }
        let body = self.body.as_binary::<i64>();
        Row {
            source: str_at(&self.source, i),
            body: body.is_valid(i).then(|| body.value(i)),
            content_type: str_at(&self.content_type, i),
            url: str_at(&self.url, i),
            status: self
                .status
                .as_ref()
                .filter(|s| s.is_valid(i))
                .map(|s| s.as_primitive::<Int64Type>().value(i)),
            error_kind: str_at(&self.error_kind, i),
            error_message: str_at(&self.error_message, i),
            capture: self.captures[i].as_ref(),
            notes: &self.notes[i],
        }
    }
}

/// The rows of a `notes` column: a list (or large list) of strings per row, as
/// `read_warc_batches` makes it; an all-null column, a null row or a null note is no note.
fn notes(c: &ArrayRef) -> PyResult<Vec<Vec<String>>> {
    let list = DataType::List(std::sync::Arc::new(Field::new_list_field(DataType::Utf8, true)));
    let takes = match c.data_type() {
        DataType::Null => return Ok(vec![Vec::new(); c.len()]),
        DataType::List(f) | DataType::LargeList(f) => Kind::Str.takes(f.data_type()),
        _ => false,
    };
    if !takes {
        return Err(PyTypeError::new_err(format!(
            "parse_batch(): column \"notes\" must be a list of strings, not {}",
            c.data_type()
        )));
    }
    let strict = CastOptions { safe: false, ..CastOptions::default() };
    let c = cast_with_options(c, &list, &strict)
        .map_err(|e| PyValueError::new_err(format!("parse_batch(): column \"notes\": {e}")))?;
    let c = c.as_list::<i32>();
    Ok((0..c.len())
        .map(|i| {
            if c.is_null(i) {
                return Vec::new();
            }
            let row = c.value(i);
            let row = row.as_string::<i32>();
            row.iter().flatten().map(str::to_owned).collect()
        })
        .collect())
}
