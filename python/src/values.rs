//! Python values of the rows of feedmill's Arrow record batches: what `parse` returns.
//!
//! A row of the records layout is the record, key for key (the columnar form is made from the
//! record's walk, as the JSON Lines record is), so converting it gives every key of the record
//! on every call: a struct is a `dict` with all its fields, a list a `list`, a null `None`, an
//! empty list `[]`, a `timestamp[us, UTC]` an aware `datetime` (UTC), `int64` an `int`,
//! `utf8` a `str`, `bool` a `bool`. These are the values `pyarrow`'s `to_pylist()` gives for
//! the same batch; the TypedDicts of `feedmill/record.py` describe them.
//!
//! NOTE: each field name is a Python string made once per schema ([`Names`]) and shared by
//! every dict, instead of a new string per key per row.

use arrow::array::{Array, AsArray, StructArray};
use arrow::datatypes::{DataType, Float64Type, Int64Type, TimeUnit, TimestampMicrosecondType};
use chrono::{DateTime, Utc};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

/// The Python strings of a schema's field names, in the shape of its types.
pub(crate) enum Names {
    /// A value with no fields under it.
    Leaf,
    /// A struct: each field's name and the names under it.
    Struct(Vec<(Py<PyString>, Names)>),
    /// A list: the names of its items.
    List(Box<Names>),
}

impl Names {
    /// The names of the fields of `fields` (a schema's or a struct's).
    pub(crate) fn of_fields(py: Python<'_>, fields: &arrow::datatypes::Fields) -> Names {
        Names::Struct(
            fields
                .iter()
                .map(|f| (PyString::intern(py, f.name()).unbind(), Names::of(py, f.data_type())))
                .collect(),
        )
    }

    fn of(py: Python<'_>, ty: &DataType) -> Names {
        match ty {
            DataType::Struct(fields) => Names::of_fields(py, fields),
            DataType::List(item) => Names::List(Box::new(Names::of(py, item.data_type()))),
            _ => Names::Leaf,
        }
    }
}

/// Row `i` of `rows` (a record batch as one struct array) as a `dict`, with `names` the names
/// of `rows`' fields.
pub(crate) fn row<'py>(
    py: Python<'py>,
    rows: &StructArray,
    i: usize,
    names: &Names,
) -> PyResult<Bound<'py, PyAny>> {
    struct_value(py, rows, i, names)
}

fn struct_value<'py>(
    py: Python<'py>,
    a: &StructArray,
    i: usize,
    names: &Names,
) -> PyResult<Bound<'py, PyAny>> {
    let Names::Struct(fields) = names else { return Err(mismatch(a.data_type())) };
    let d = PyDict::new(py);
    for ((name, under), column) in fields.iter().zip(a.columns()) {
        d.set_item(name.bind(py), value(py, column.as_ref(), i, under)?)?;
    }
    Ok(d.into_any())
}

fn value<'py>(
    py: Python<'py>,
    a: &dyn Array,
    i: usize,
    names: &Names,
) -> PyResult<Bound<'py, PyAny>> {
    if a.is_null(i) {
        // A list is never null in feedmill's batches (an absent list is empty); a null one
        // would still be no items.
        return Ok(match a.data_type() {
            DataType::List(_) => PyList::empty(py).into_any(),
            _ => py.None().into_bound(py),
        });
    }
    match a.data_type() {
        DataType::Utf8 => Ok(PyString::new(py, a.as_string::<i32>().value(i)).into_any()),
        DataType::Int64 => Ok(a.as_primitive::<Int64Type>().value(i).into_pyobject(py)?.into_any()),
        DataType::Float64 => {
            Ok(a.as_primitive::<Float64Type>().value(i).into_pyobject(py)?.into_any())
        }
        DataType::Boolean => Ok(a.as_boolean().value(i).into_pyobject(py)?.to_owned().into_any()),
        DataType::Timestamp(TimeUnit::Microsecond, Some(_)) => {
            let micros = a.as_primitive::<TimestampMicrosecondType>().value(i);
            // feedmill's instants are within years 1 to 9999, as Python's datetime is.
            let t = DateTime::<Utc>::from_timestamp_micros(micros).ok_or_else(|| {
                PyRuntimeError::new_err(format!("timestamp out of range: {micros} µs"))
            })?;
            Ok(t.into_pyobject(py)?.into_any())
        }
        DataType::Struct(_) => struct_value(py, a.as_struct(), i, names),
        DataType::List(_) => {
            let Names::List(items) = names else { return Err(mismatch(a.data_type())) };
            let list = a.as_list::<i32>();
            let values = list.value(i);
            let out = PyList::empty(py);
            for j in 0..values.len() {
                out.append(value(py, values.as_ref(), j, items)?)?;
            }
            Ok(out.into_any())
        }
        other => Err(mismatch(other)),
    }
}

/// A column type the conversion does not know: a bug (feedmill's schema has none).
fn mismatch(ty: &DataType) -> PyErr {
    PyRuntimeError::new_err(format!("internal error: no Python value for Arrow type {ty}"))
}
