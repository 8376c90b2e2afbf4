//! The `capture` of a raw WARC record, out and back: `read_warc` and `read_warc_batches`
//! (without `parse=True`) give each record's capture in the record schema's own form (the
//! struct of `schema()`'s `capture` field; as a dict, what `parse` returns under `capture`),
//! and `parse(capture=...)` and `parse_batch`'s `capture` column read it back, so a raw record
//! parses to exactly what `parse=True` gives (its `capture` key, and `--extract`'s `future`
//! flag, judged against the capture date).
//!
//! The struct is made by the library's record builder (the schema's one description), and
//! read back here by field name.

use arrow::array::{Array, ArrayRef, AsArray, StructArray};
use arrow::compute::{cast_with_options, CastOptions};
use arrow::datatypes::{DataType, FieldRef, Int64Type, TimestampMicrosecondType};
use feedmill::columnar::{Layout, RecordBatchBuilder};
use feedmill::record::Capture;
use feedmill::sink::RecordView;
use feedmill::Timestamp;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyDict;

/// The schema's `capture` field.
pub(crate) fn field() -> FieldRef {
    let schema = feedmill::columnar::schema(Layout::Records);
    let field = schema.field_with_name("capture").expect("the records layout has `capture`");
    std::sync::Arc::new(field.clone())
}

/// The `capture` column of `captures`, one row each (null for `None`).
pub(crate) fn column<'c>(captures: impl IntoIterator<Item = Option<&'c Capture>>) -> ArrayRef {
    let mut b = RecordBatchBuilder::new(Layout::Records);
    for capture in captures {
        b.append(&RecordView { capture, ..RecordView::default() });
    }
    b.finish().column_by_name("capture").expect("the records layout has `capture`").clone()
}

/// `capture` as a dict of Python values (what `parse` returns under `capture`), or None.
pub(crate) fn dict<'py>(
    py: Python<'py>,
    capture: Option<&Capture>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let Some(capture) = capture else { return Ok(None) };
    let names = NAMES.get_or_init(py, || {
        let DataType::Struct(fields) = field().data_type().clone() else {
            unreachable!("`capture` is a struct")
        };
        crate::values::Names::of_fields(py, &fields)
    });
    crate::values::row(py, column([Some(capture)]).as_struct(), 0, names).map(Some)
}

/// The Python strings of the `capture` struct's field names, made once.
static NAMES: PyOnceLock<crate::values::Names> = PyOnceLock::new();

/// A `capture` column of a `parse_batch` input, cast to the schema's struct (an all-null
/// column is a column of nulls); a column of another type is a `TypeError`.
pub(crate) fn checked_column(func: &str, c: &ArrayRef) -> PyResult<ArrayRef> {
    let want = field().data_type().clone();
    if *c.data_type() == want {
        return Ok(c.clone());
    }
    let strict = CastOptions { safe: false, ..CastOptions::default() };
    match c.data_type() {
        DataType::Null | DataType::Struct(_) => cast_with_options(c, &want, &strict).map_err(|e| {
            PyTypeError::new_err(format!(
                "{func}(): column \"capture\" must be the struct of schema()'s \"capture\" \
                 field: {e}"
            ))
        }),
        other => Err(PyTypeError::new_err(format!(
            "{func}(): column \"capture\" must be the struct of schema()'s \"capture\" field, \
             not {other}"
        ))),
    }
}

/// `parse(capture=...)`: a dict as `read_warc` gives it (keys missing or None have no value),
/// or None. Nothing given is dropped silently: a key that is not one of the struct's (in
/// `capture` or its `refers_to`) is a `TypeError` naming the keys there are; a naive
/// `datetime` (`date`, `refers_to["date"]`) is a `ValueError`, as for `as_of` (which zone it
/// means is unknown); `date_offset` and `date_raw`, which a capture never has (`read_warc`
/// gives them as None), must be None. A value of the wrong type or out of range is a
/// `TypeError` or `ValueError` naming `capture`.
pub(crate) fn of_dict(
    py: Python<'_>,
    func: &str,
    value: &Bound<'_, PyAny>,
) -> PyResult<Option<Capture>> {
    if value.is_none() {
        return Ok(None);
    }
    let DataType::Struct(fields) = field().data_type().clone() else {
        unreachable!("`capture` is a struct")
    };
    let d = checked_dict(func, "capture", value, &fields)?;
    if let Some(refers) = d.get_item("refers_to")?.filter(|r| !r.is_none()) {
        let refers_field = fields.iter().find(|f| f.name() == "refers_to");
        let Some(DataType::Struct(inner)) = refers_field.map(|f| f.data_type()) else {
            unreachable!("`capture.refers_to` is a struct")
        };
        checked_dict(func, "capture[\"refers_to\"]", &refers, inner)?;
    }
    let ty = arrow::pyarrow::PyArrowType(field().data_type().clone());
    let array = py.import("pyarrow")?.getattr("array")?.call1(([value], ty)).map_err(|e| {
        let message = format!("{func}(): capture: {}", e.value(py));
        let err = match e.is_instance_of::<PyTypeError>(py) {
            true => PyTypeError::new_err(message),
            false => PyValueError::new_err(message),
        };
        err.set_cause(py, Some(e));
        err
    })?;
    let data: arrow::pyarrow::PyArrowType<arrow::array::ArrayData> = array.extract()?;
    let array = arrow::array::make_array(data.0);
    read(array.as_struct(), 0)
}

/// `value` as a dict whose keys are among the names of `fields` (the struct `what` is read
/// into), its dates aware and its `date_offset` and `date_raw` None.
fn checked_dict<'py>(
    func: &str,
    what: &str,
    value: &Bound<'py, PyAny>,
    fields: &arrow::datatypes::Fields,
) -> PyResult<Bound<'py, PyDict>> {
    let Ok(d) = value.cast::<PyDict>() else {
        let ty = value.get_type().name().map_or_else(|_| "?".to_owned(), |n| n.to_string());
        return Err(PyTypeError::new_err(format!(
            "{func}(): {what} must be a dict (as read_warc gives it) or None, not {ty}"
        )));
    };
    let known = || fields.iter().map(|f| f.name().as_str()).collect::<Vec<_>>().join(", ");
    let mut unknown = Vec::new();
    for (k, v) in d.iter() {
        let name = k.extract::<String>().ok();
        let Some(field) = name.as_deref().and_then(|n| fields.iter().find(|f| f.name() == n))
        else {
            unknown.push(k.repr().map_or_else(|_| "?".to_owned(), |r| r.to_string()));
            continue;
        };
        let name = field.name();
        if v.is_none() {
            continue;
        }
        if name == "date_offset" || name == "date_raw" {
            return Err(PyValueError::new_err(format!(
                "{func}(): {what}[{name:?}] must be None: a capture date has no offset or \
                 text of its own (read_warc gives None)"
            )));
        }
        if matches!(field.data_type(), DataType::Timestamp(..)) {
            crate::options::is_aware_datetime(func, &format!("{what}[{name:?}]"), &v)?;
        }
    }
    if !unknown.is_empty() {
        return Err(PyTypeError::new_err(format!(
            "{func}(): {what} has unknown keys {} (its keys: {})",
            unknown.join(", "),
            known()
        )));
    }
    Ok(d.clone())
}

/// Row `i` of a `capture` column of the schema's type.
pub(crate) fn read(c: &StructArray, i: usize) -> PyResult<Option<Capture>> {
    if c.is_null(i) {
        return Ok(None);
    }
    let refers = c.column_by_name("refers_to").map(|r| r.as_struct()).filter(|r| r.is_valid(i));
    let at = |s: Option<&StructArray>, name: &str| {
        s.and_then(|s| s.column_by_name(name)).filter(|a| a.is_valid(i)).cloned()
    };
    let string = |s, name| at(s, name).map(|a| a.as_string::<i32>().value(i).to_owned());
    let date = |s, name| -> PyResult<Option<Timestamp>> {
        let Some(a) = at(s, name) else { return Ok(None) };
        let micros = a.as_primitive::<TimestampMicrosecondType>().value(i);
        let (secs, sub) = (micros.div_euclid(1_000_000), micros.rem_euclid(1_000_000));
        Timestamp::from_unix_nanos(secs, sub as u32 * 1000)
            .map(Some)
            .ok_or_else(|| PyValueError::new_err(format!("capture {name}: out of range")))
    };
    let record_type = match string(Some(c), "record_type").as_deref() {
        None => None,
        Some("response") => Some("response"),
        Some("resource") => Some("resource"),
        Some("revisit") => Some("revisit"),
        Some(other) => {
            return Err(PyValueError::new_err(format!(
                "capture record_type must be 'response', 'resource' or 'revisit', not {other:?}"
            )))
        }
    };
    let http_status = at(Some(c), "http_status")
        .map(|a| {
            let s = a.as_primitive::<Int64Type>().value(i);
            u16::try_from(s).map_err(|_| {
                PyValueError::new_err(format!("capture http_status {s} is no HTTP status"))
            })
        })
        .transpose()?;
    Ok(Some(Capture {
        record_type,
        date: date(Some(c), "date")?,
        target_uri: string(Some(c), "target_uri"),
        record_id: string(Some(c), "record_id"),
        payload_digest: string(Some(c), "payload_digest"),
        http_status,
        content_type: string(Some(c), "content_type"),
        truncated: string(Some(c), "truncated"),
        refers_to_record_id: string(refers, "record_id"),
        refers_to_target_uri: string(refers, "target_uri"),
        refers_to_date: date(refers, "date")?,
        refers_to_source: string(refers, "source"),
    }))
}
