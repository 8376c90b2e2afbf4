//! Columnar (Apache Arrow) form of processed records: a [`RecordBatchBuilder`] that appends
//! [`RecordView`]s and finishes them into an Arrow [`RecordBatch`] with a fixed, documented
//! schema ([`schema`]), and (feature `parquet`) a Parquet writer over it ([`parquet`]).
//!
//! Owns: how the record's walk ([`crate::record`]) becomes Arrow columns. The columns are
//! made from the walk itself (a walk of an empty record gives the schema; a walk of each
//! record appends to the columns), so the schema is the JSON Lines record's, key for key, and
//! cannot drift from it:
//!
//! - Text values (`title`, `subtitle`, `description`, `summary`, `content`) are two `utf8`
//!   columns, the value (plain text, or the sanitized HTML serialized) and `<name>_type`
//!   (`text` | `html`), exactly as in JSON Lines.
//! - Dates are `timestamp[us, UTC]` (fractional digits beyond microseconds are cut; the JSON
//!   keeps them all), each with `<name>_offset` (`int64`, minutes east of UTC it was written
//!   in) and `<name>_raw` (`utf8`, the text as written when not RFC 3339), as in JSON Lines.
//! - Integers are `int64` (signed, because Spark reads no unsigned Arrow type; a value above
//!   `i64::MAX`, which no real feed has, is null). Booleans are `bool`.
//! - Objects are structs; arrays are lists. A value the JSON omits (null or empty: an object
//!   none of whose keys has a value) is null; an omitted array is an empty list. List
//!   elements are never dropped (an element with no value is a valid struct of nulls).
//! - The extraction columns (`*_text`, `canonical_url`, `body_*`, `word_count`, `dedup_*`)
//!   are always in the schema; they are null when the record was not extracted.
//! - Lint findings (`--lint`) are the last column of the record layout, `findings`; an empty
//!   list when the record was not linted or had none. The entry layout has neither
//!   diagnostics nor findings.
//!
//! Two layouts ([`Layout`]): one row per input record with a nested `feed.entries` list
//! (the JSON Lines record, column for column), or one row per entry with its record's and
//! feed's key columns (`source`, `status`, `format`, `feed_title`, …, `entry_index`) and the
//! entry's keys as top-level columns (a key the record already has gets `entry_` in front:
//! the entry's own `source` element is `entry_source`). In the entry layout a record with no
//! entry (not a feed, an error, a feed without items) is still one row, with a null
//! `entry_index`, so no record is ever dropped.
//!
//! Every column is nullable except `source` and `status`.

#[cfg(feature = "parquet")]
pub mod parquet;

/// The Arrow crates of this module's signatures, re-exported so callers need not match
/// versions themselves.
pub use arrow_array;
pub use arrow_buffer;
pub use arrow_schema;

use std::borrow::Borrow;
use std::fmt::Write as _;
use std::sync::Arc;

use arrow_array::builder::{
    BooleanBuilder, Int64Builder, StringBuilder, TimestampMicrosecondBuilder,
};
use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, ListArray, RecordBatch, StringArray, StructArray};
use arrow_buffer::{NullBufferBuilder, OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field, Fields, Schema, SchemaRef};

use crate::model::Text;
use crate::record::{with_text_str, EntryRow, Inherited, Key, RecordView, Shape, Visit, Walk};
use crate::sanitize::SanitizeOptions;
use crate::Timestamp;

/// Which rows a batch has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Layout {
    /// One row per input record; the feed's entries are the list column `feed.entries`.
    #[default]
    Records,
    /// One row per entry, with its record's and feed's key columns; a record without
    /// entries is one row with a null `entry_index`.
    Entries,
}

/// The Arrow schema of every batch of `layout` (also the Parquet file's schema).
pub fn schema(layout: Layout) -> SchemaRef {
    RecordBatchBuilder::new(layout).finish().schema()
}

/// Builds Arrow record batches from processed records.
///
/// ```ignore
/// let mut b = RecordBatchBuilder::new(Layout::Records);
/// b.append(&record_view);
/// let batch: RecordBatch = b.finish(); // the builder is empty again, ready for reuse
/// ```
pub struct RecordBatchBuilder {
    layout: Layout,
    records: usize,
    rows: usize,
    /// HTML serialization scratch, reused across values.
    scratch: String,
    /// The top-level columns.
    columns: Columns,
}

impl RecordBatchBuilder {
    /// An empty builder of `layout`'s rows.
    pub fn new(layout: Layout) -> Self {
        let columns = match layout {
            Layout::Records => Columns::of(&RecordView::default()),
            Layout::Entries => Columns::of(&EntryRow::default()),
        };
        RecordBatchBuilder { layout, records: 0, rows: 0, scratch: String::new(), columns }
    }

    /// The layout this builder makes.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// Input records appended since the last [`RecordBatchBuilder::finish`].
    pub fn records(&self) -> usize {
        self.records
    }

    /// Rows appended since the last finish (records, or entries in the entry layout).
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Appends one record (one row, or one row per entry). Strict sanitizing
    /// (`rec.sanitize`) applies to the HTML values; URL fields are written as the record
    /// holds them (the bulk worker removes unsafe ones with
    /// [`crate::sanitize::drop_unsafe_urls`]).
    pub fn append(&mut self, rec: &RecordView<'_, '_>) {
        self.records += 1;
        match self.layout {
            Layout::Records => self.append_row(rec, rec.sanitize),
            Layout::Entries => {
                let entries = rec.feed.map_or(0, |f| f.entries.len());
                let inherited = Inherited::of(rec);
                if entries == 0 {
                    let row = EntryRow { rec: *rec, index: None, inherited };
                    self.append_row(&row, rec.sanitize);
                }
                for i in 0..entries {
                    let row = EntryRow { rec: *rec, index: Some(i), inherited };
                    self.append_row(&row, rec.sanitize);
                }
            }
        }
    }

    fn append_row(&mut self, row: &impl Walk, sanitize: Option<&SanitizeOptions>) {
        self.rows += 1;
        let mut append = Append {
            cols: &mut self.columns.cols,
            at: 0,
            wrote: false,
            scratch: &mut self.scratch,
            sanitize,
        };
        row.walk(&mut append);
        debug_assert_eq!(append.at, append.cols.len(), "the walk visited every column");
    }

    /// The batch of everything appended so far; the builder is then empty.
    pub fn finish(&mut self) -> RecordBatch {
        self.records = 0;
        self.rows = 0;
        let (fields, arrays) = self.columns.finish(true);
        // The columns are built row by row together, so lengths and types always agree.
        RecordBatch::try_new(Arc::new(Schema::new(fields)), arrays)
            .expect("columnar: builder columns agree with their schema")
    }
}

/// The builder of one column, of the kind its key's visit calls for.
enum Column {
    Str(StringBuilder),
    Int(Int64Builder),
    Bool(BooleanBuilder),
    Date(TimestampMicrosecondBuilder),
    /// An object: its keys' columns and its validity.
    Struct(Columns, NullBufferBuilder),
    /// A list: the end offset of each row's items in `items`, which holds one column.
    List(Vec<i32>, Box<Column>),
}

/// The columns of an object (or of a row), in key order.
struct Columns {
    names: Vec<String>,
    cols: Vec<Column>,
}

impl Columns {
    /// The columns of `T`'s keys, made by walking a value of it.
    fn of<T: Walk>(shape: &T) -> Self {
        let mut s = Schema_ { cols: Columns { names: Vec::new(), cols: Vec::new() }, prefix: None };
        shape.walk(&mut s);
        s.cols
    }

    /// The fields and arrays of the columns (emptying them); `top`: the row's own columns,
    /// where `source` and `status` are never null.
    fn finish(&mut self, top: bool) -> (Fields, Vec<ArrayRef>) {
        let arrays = self.cols.iter_mut().map(Column::finish);
        let (fields, arrays): (Vec<Field>, Vec<ArrayRef>) = self
            .names
            .iter()
            .zip(arrays)
            .map(|(n, a)| {
                let required = top && matches!(n.as_str(), "source" | "status");
                // An empty value is null (as JSON omits it), except in a column that is never
                // null: an empty `source` (a record built with none) is an empty string there.
                let a = if required && a.null_count() > 0 { nulls_as_empty(&a) } else { a };
                (Field::new(n.as_str(), a.data_type().clone(), !required), a)
            })
            .unzip();
        (fields.into(), arrays)
    }

    /// Appends a null row to every column.
    fn append_null(&mut self) {
        self.cols.iter_mut().for_each(Column::append_null);
    }
}

/// A string column with its nulls as empty strings.
fn nulls_as_empty(a: &ArrayRef) -> ArrayRef {
    let values = a.as_string::<i32>().iter().map(|v| v.unwrap_or(""));
    Arc::new(StringArray::from_iter_values(values))
}

impl Column {
    fn struct_of<T: Walk>(shape: &T) -> Column {
        Column::Struct(Columns::of(shape), NullBufferBuilder::new(0))
    }

    fn list_of(items: Column) -> Column {
        Column::List(vec![0], Box::new(items))
    }

    fn date() -> Column {
        Column::Date(TimestampMicrosecondBuilder::new().with_timezone("UTC"))
    }

    /// Appends a null (a list: an empty one).
    fn append_null(&mut self) {
        match self {
            Column::Str(b) => b.append_null(),
            Column::Int(b) => b.append_null(),
            Column::Bool(b) => b.append_null(),
            Column::Date(b) => b.append_null(),
            Column::Struct(cols, valid) => {
                cols.append_null();
                valid.append_null();
            }
            Column::List(offsets, _) => offsets.push(*offsets.last().expect("starts at 0")),
        }
    }

    fn finish(&mut self) -> ArrayRef {
        match self {
            Column::Str(b) => Arc::new(b.finish()),
            Column::Int(b) => Arc::new(b.finish()),
            Column::Bool(b) => Arc::new(b.finish()),
            Column::Date(b) => Arc::new(b.finish()),
            Column::Struct(cols, valid) => {
                let (fields, arrays) = cols.finish(false);
                Arc::new(StructArray::new(fields, arrays, valid.finish()))
            }
            Column::List(offsets, items) => {
                let items = items.finish();
                let offsets = std::mem::replace(offsets, vec![0]);
                let field = Arc::new(Field::new_list_field(items.data_type().clone(), true));
                let offsets = OffsetBuffer::new(ScalarBuffer::from(offsets));
                Arc::new(ListArray::new(field, offsets, items, None))
            }
        }
    }
}

/// The walk that makes the columns (any value of the walked type will do).
struct Schema_ {
    cols: Columns,
    /// Inside [`Visit::flatten`]: the prefix of a name the row already has.
    prefix: Option<&'static str>,
}

impl Schema_ {
    fn push(&mut self, name: &str, col: Column) {
        let name = match self.prefix {
            Some(p) if self.cols.names.iter().any(|n| n == name) => format!("{p}{name}"),
            _ => name.to_owned(),
        };
        self.cols.names.push(name);
        self.cols.cols.push(col);
    }
}

impl Visit for Schema_ {
    fn str(&mut self, k: Key, _: Option<&str>) {
        self.push(k.name, Column::Str(StringBuilder::new()));
    }
    fn uint(&mut self, k: Key, _: Option<u64>) {
        self.push(k.name, Column::Int(Int64Builder::new()));
    }
    fn bool(&mut self, k: Key, _: Option<bool>) {
        self.push(k.name, Column::Bool(BooleanBuilder::new()));
    }
    fn date(&mut self, k: Key, _: Option<Timestamp>, _: Option<&str>) {
        self.push(k.name, Column::date());
        self.push(&format!("{}_offset", k.name), Column::Int(Int64Builder::new()));
        self.push(&format!("{}_raw", k.name), Column::Str(StringBuilder::new()));
    }
    fn text(&mut self, k: Key, _: Option<&Text<'_>>) {
        self.push(k.name, Column::Str(StringBuilder::new()));
        self.push(&format!("{}_type", k.name), Column::Str(StringBuilder::new()));
    }
    fn strs(&mut self, k: Key, _: &[&str]) {
        self.push(k.name, Column::list_of(Column::Str(StringBuilder::new())));
    }
    fn uints<N: Copy + Into<u64>>(&mut self, k: Key, _: &[N]) {
        self.push(k.name, Column::list_of(Column::Int(Int64Builder::new())));
    }
    fn object<T: Walk + Shape>(&mut self, k: Key, _: Option<&T>) {
        self.push(k.name, Column::struct_of(&T::shape()));
    }
    fn list_with<T: Walk + Shape, R: Borrow<T>>(
        &mut self,
        k: Key,
        _: usize,
        _: impl FnMut(usize) -> R,
    ) {
        self.push(k.name, Column::list_of(Column::struct_of(&T::shape())));
    }
    fn flatten<T: Walk>(&mut self, prefix: &'static str, v: &T) {
        let outer = self.prefix.replace(prefix);
        v.walk(self);
        self.prefix = outer;
    }
}

/// The walk that appends one value to the columns of its shape: `cols[at]` is the column of
/// the next key.
struct Append<'c, 's> {
    cols: &'c mut [Column],
    at: usize,
    /// Whether a key of this object had a value (an object with none is null).
    wrote: bool,
    scratch: &'s mut String,
    sanitize: Option<&'s SanitizeOptions>,
}

impl Append<'_, '_> {
    /// The column of the next key.
    #[inline]
    fn next(&mut self) -> &mut Column {
        self.at += 1;
        &mut self.cols[self.at - 1]
    }
}

/// Appends `v`'s keys to `cols` (an object's columns); returns whether any had a value.
fn append_object<T: Walk>(
    cols: &mut Columns,
    v: &T,
    scratch: &mut String,
    sanitize: Option<&SanitizeOptions>,
) -> bool {
    let mut inner = Append { cols: &mut cols.cols, at: 0, wrote: false, scratch, sanitize };
    v.walk(&mut inner);
    debug_assert_eq!(inner.at, inner.cols.len(), "the walk visited every column");
    inner.wrote
}

fn unexpected(k: Key) -> ! {
    unreachable!("columnar: key `{}` visited in a different way than the schema's walk", k.name)
}

impl Visit for Append<'_, '_> {
    fn str(&mut self, k: Key, v: Option<&str>) {
        let Column::Str(b) = self.next() else { unexpected(k) };
        match v {
            Some(v) if !v.is_empty() => {
                b.append_value(v);
                self.wrote = true;
            }
            _ => b.append_null(),
        }
    }

    fn uint(&mut self, k: Key, v: Option<u64>) {
        let Column::Int(b) = self.next() else { unexpected(k) };
        b.append_option(v.and_then(|v| i64::try_from(v).ok()));
        self.wrote |= v.is_some();
    }

    fn bool(&mut self, k: Key, v: Option<bool>) {
        let Column::Bool(b) = self.next() else { unexpected(k) };
        b.append_option(v);
        self.wrote |= v.is_some();
    }

    fn date(&mut self, k: Key, v: Option<Timestamp>, raw: Option<&str>) {
        let [Column::Date(b), Column::Int(offsets), Column::Str(raws)] =
            &mut self.cols[self.at..self.at + 3]
        else {
            unexpected(k)
        };
        self.at += 3;
        b.append_option(v.and_then(timestamp_micros));
        offsets.append_option(v.and_then(|t| t.offset_minutes()).map(i64::from));
        let raw = raw.filter(|r| !r.is_empty());
        raws.append_option(raw);
        self.wrote |= v.is_some() || raw.is_some();
    }

    fn text(&mut self, k: Key, v: Option<&Text<'_>>) {
        let [Column::Str(b), Column::Str(kinds)] = &mut self.cols[self.at..self.at + 2] else {
            unexpected(k)
        };
        self.at += 2;
        let written = v.is_some_and(|t| {
            with_text_str(t, self.sanitize, self.scratch, |s| {
                !s.is_empty() && {
                    b.append_value(s);
                    true
                }
            })
        });
        if written {
            kinds.append_value(if let Some(Text::Plain(_)) = v { "text" } else { "html" });
            self.wrote = true;
        } else {
            b.append_null();
            kinds.append_null();
        }
    }

    fn strs(&mut self, k: Key, v: &[&str]) {
        let Column::List(offsets, items) = self.next() else { unexpected(k) };
        let Column::Str(b) = &mut **items else { unexpected(k) };
        v.iter().for_each(|s| b.append_value(s));
        push_offset(offsets, v.len());
        self.wrote |= !v.is_empty();
    }

    fn uints<N: Copy + Into<u64>>(&mut self, k: Key, v: &[N]) {
        let Column::List(offsets, items) = self.next() else { unexpected(k) };
        let Column::Int(b) = &mut **items else { unexpected(k) };
        v.iter().for_each(|n| b.append_option(i64::try_from((*n).into()).ok()));
        push_offset(offsets, v.len());
        self.wrote |= !v.is_empty();
    }

    fn object<T: Walk + Shape>(&mut self, k: Key, v: Option<&T>) {
        self.at += 1;
        let Column::Struct(cols, valid) = &mut self.cols[self.at - 1] else { unexpected(k) };
        let Some(v) = v else {
            cols.append_null();
            valid.append_null();
            return;
        };
        let wrote = append_object(cols, v, self.scratch, self.sanitize);
        valid.append(wrote);
        self.wrote |= wrote;
    }

    fn list_with<T: Walk + Shape, R: Borrow<T>>(
        &mut self,
        k: Key,
        n: usize,
        mut item: impl FnMut(usize) -> R,
    ) {
        self.at += 1;
        let Column::List(offsets, items) = &mut self.cols[self.at - 1] else { unexpected(k) };
        let Column::Struct(cols, valid) = &mut **items else { unexpected(k) };
        push_offset(offsets, n);
        for i in 0..n {
            append_object(cols, item(i).borrow(), self.scratch, self.sanitize);
            valid.append_non_null();
        }
        self.wrote |= n > 0;
    }

    fn flatten<T: Walk>(&mut self, _prefix: &'static str, v: &T) {
        v.walk(self);
    }
}

/// Ends a list row of `n` more items.
fn push_offset(offsets: &mut Vec<i32>, n: usize) {
    let last = *offsets.last().expect("starts at 0");
    offsets.push(last + i32::try_from(n).expect("columnar: a list of over 2^31 items"));
}

/// Microseconds since the Unix epoch (fraction digits past the sixth are cut).
pub fn timestamp_micros(t: Timestamp) -> Option<i64> {
    let mut micros = 0i64;
    let digits = t.fraction_digits().as_bytes();
    for i in 0..6 {
        micros = micros * 10 + digits.get(i).map_or(0, |d| i64::from(d - b'0'));
    }
    t.unix_seconds().checked_mul(1_000_000)?.checked_add(micros)
}

/// Writes the schema of `layout` as an indented tree (`name: type`), one column per line;
/// used to document the schema (docs/python-arrow.md) and to pin it in tests.
pub fn describe(layout: Layout) -> String {
    fn walk(out: &mut String, f: &Field, depth: usize) {
        use DataType as D;
        let ty = match f.data_type() {
            D::Utf8 => "utf8".to_owned(),
            D::Int64 => "int64".to_owned(),
            D::Boolean => "bool".to_owned(),
            D::Timestamp(_, _) => "timestamp[us, UTC]".to_owned(),
            D::Struct(_) => "struct".to_owned(),
            D::List(item) => match item.data_type() {
                D::Struct(_) => "list<struct>".to_owned(),
                D::Utf8 => "list<utf8>".to_owned(),
                D::Int64 => "list<int64>".to_owned(),
                other => format!("list<{other}>"),
            },
            other => other.to_string(),
        };
        let _ = writeln!(out, "{:indent$}{}: {ty}", "", f.name(), indent = depth * 2);
        match f.data_type() {
            D::Struct(fields) => fields.iter().for_each(|c| walk(out, c, depth + 1)),
            D::List(item) => {
                if let D::Struct(fields) = item.data_type() {
                    fields.iter().for_each(|c| walk(out, c, depth + 1));
                }
            }
            _ => {}
        }
    }
    let mut out = String::new();
    for f in schema(layout).fields() {
        walk(&mut out, f, 0);
    }
    out
}

#[cfg(test)]
mod tests;
