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
//!   `i64::MAX`, which no real feed has, is null). Decimal numbers (Podcasting 2.0 times,
//!   amounts, bitrates) are `double`. Booleans are `bool`.
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
//! feed's key columns (`source`, `url`, `status`, `format`, `feed_title`, …, `entry_index`) and the
//! entry's keys as top-level columns (a key the record already has gets `entry_` in front:
//! the entry's own `source` element is `entry_source`). In the entry layout a record with no
//! entry (not a feed, an error, a feed without items) is still one row, with a null
//! `entry_index`, so no record is ever dropped.
//!
//! Every column is nullable except `source` and `status`.

#[cfg(feature = "parquet")]
mod pages;
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

use arrow_array::cast::AsArray;
use arrow_array::types::{Float64Type, Int64Type, TimestampMicrosecondType};
use arrow_array::{
    Array, ArrayRef, BooleanArray, ListArray, PrimitiveArray, RecordBatch, StringArray, StructArray,
};
use arrow_buffer::{Buffer, NullBufferBuilder, OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field, Fields, Schema, SchemaRef};

use crate::model::Text;
use crate::record::{write_text_str, EntryRow, Inherited, Key, RecordView, Shape, Visit, Walk};
use crate::sanitize::SanitizeOptions;
use crate::Timestamp;

/// The most bytes one string column's values may hold in one batch: Arrow's `utf8` offsets
/// are 32-bit, so a column's values end at 2 GiB − 1.
pub const COLUMN_BYTES_MAX: usize = i32::MAX as usize;

/// The error kind of a record whose rows cannot be written in a batch
/// ([`RecordBatchBuilder::append`]): one of its columns alone would pass the column limit.
pub const OUTPUT_TOO_LARGE: &str = "output_too_large";

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
///
/// No column can overflow: a string column's values stay within the builder's column limit
/// ([`COLUMN_BYTES_MAX`], Arrow's 32-bit offsets, unless
/// [`RecordBatchBuilder::with_column_limit`] sets less) and a list's items within 2^31 − 1.
/// [`RecordBatchBuilder::try_append`] appends a record only if all its rows fit beside what
/// the builder holds, and leaves the builder as it was otherwise: finish the batch and append
/// the record again. A record that does not fit in an empty builder cannot be written; its
/// error record ([`OUTPUT_TOO_LARGE`]) takes its place. [`RecordBatchBuilder::held_bytes`]
/// tells how much the batch holds, to cut batches by memory.
pub struct RecordBatchBuilder {
    layout: Layout,
    records: usize,
    rows: usize,
    /// Rows after each record appended since the last finish (for `record_rows`).
    ends: Vec<usize>,
    /// Bytes one string column's values may hold at most.
    column_limit: usize,
    /// The top-level columns.
    columns: Columns,
    /// What the rows take in the columns, kept as they are appended.
    sizes: Sizes,
}

/// Why a record did not fit: the first value that would have passed a column's limit.
#[derive(Clone, Copy, Debug)]
struct Overflow {
    key: &'static str,
    bytes: usize,
}

impl RecordBatchBuilder {
    /// An empty builder of `layout`'s rows.
    pub fn new(layout: Layout) -> Self {
        let mut columns = match layout {
            Layout::Records => Columns::of(&RecordView::default()),
            Layout::Entries => Columns::of(&EntryRow::default()),
        };
        let sizes = Sizes::of(&mut columns);
        RecordBatchBuilder {
            layout,
            records: 0,
            rows: 0,
            ends: Vec::new(),
            column_limit: COLUMN_BYTES_MAX,
            columns,
            sizes,
        }
    }

    /// This builder with string columns limited to `bytes` of values per batch (at most
    /// [`COLUMN_BYTES_MAX`], the default): a smaller limit makes smaller batches, and makes
    /// the cut and the [`OUTPUT_TOO_LARGE`] error record testable on small inputs.
    pub fn with_column_limit(mut self, bytes: usize) -> Self {
        self.column_limit = bytes.min(COLUMN_BYTES_MAX);
        self
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

    /// Heap bytes the builder's columns hold (allocated capacity: values, offsets, validity),
    /// about what the batch [`RecordBatchBuilder::finish`] makes takes in memory. Cheap
    /// enough to ask after every record (one pass over the some 300 columns).
    pub fn held_bytes(&self) -> usize {
        self.columns.held_bytes() + self.ends.capacity() * std::mem::size_of::<usize>()
    }

    /// Bytes the rows appended since the last finish take in the columns (values, offsets,
    /// validity): what a row group is cut by ([`parquet::ParquetOptions::row_group_held_bytes`]).
    /// Unlike [`RecordBatchBuilder::held_bytes`] it does not count capacity, so where a row
    /// group is cut depends on the records alone, not on the buffers a recycled builder
    /// ([`RecordBatchBuilder::recycle`]) kept from earlier batches.
    ///
    /// Kept as the rows are appended ([`Sizes`]) rather than summed over every column: it is
    /// asked after every record.
    #[cfg(feature = "parquet")]
    pub(crate) fn rows_bytes(&self) -> usize {
        let bytes =
            self.sizes.rows_bytes(self.rows) + self.ends.len() * std::mem::size_of::<usize>();
        #[cfg(debug_assertions)]
        assert_eq!(bytes, self.walked_rows_bytes(), "running rows_bytes");
        bytes
    }

    /// [`RecordBatchBuilder::rows_bytes`] summed over every column: the check of the running
    /// count.
    #[cfg(all(feature = "parquet", any(test, debug_assertions)))]
    fn walked_rows_bytes(&self) -> usize {
        self.columns.rows_bytes(self.rows) + self.ends.len() * std::mem::size_of::<usize>()
    }

    /// Appends one record (one row, or one row per entry). Strict sanitizing
    /// (`rec.sanitize`) applies to the HTML values; URL fields are written as the record
    /// holds them (the bulk worker removes unsafe ones with
    /// [`crate::sanitize::drop_unsafe_urls`]).
    ///
    /// When the record's rows do not fit beside what the builder holds (see the type's docs),
    /// its [`OUTPUT_TOO_LARGE`] error record is appended instead, so every record is one
    /// row (or one row per entry) whatever it holds; to keep such a record whole in the next
    /// batch, use [`RecordBatchBuilder::try_append`]. The error record's few short values are
    /// written past a limit set by [`RecordBatchBuilder::with_column_limit`]; this panics
    /// only if a column is within those few bytes of [`COLUMN_BYTES_MAX`].
    pub fn append(&mut self, rec: &RecordView<'_, '_>) {
        if let Err(why) = self.append_checked(rec) {
            self.append_too_large(rec, why);
        }
    }

    /// Appends one record, as [`RecordBatchBuilder::append`] does, if all its rows fit
    /// beside what the builder holds; returns false and leaves the builder as it was if a
    /// column would pass its limit.
    pub fn try_append(&mut self, rec: &RecordView<'_, '_>) -> bool {
        self.append_checked(rec).is_ok()
    }

    /// [`RecordBatchBuilder::try_append`], saying why a record did not fit.
    pub(crate) fn append_checked(&mut self, rec: &RecordView<'_, '_>) -> Result<(), TooLarge> {
        self.append_within(rec, self.column_limit).map_err(TooLarge)
    }

    /// The [`OUTPUT_TOO_LARGE`] error record of `rec`, whose rows do not fit (`why`),
    /// appended with the limit lifted to [`COLUMN_BYTES_MAX`].
    pub(crate) fn append_too_large(&mut self, rec: &RecordView<'_, '_>, why: TooLarge) {
        let TooLarge(o) = why;
        let message = format!(
            "the record's rows cannot be written: a `{}` value takes its column past {} bytes \
             in one batch (Arrow's 32-bit offsets, or the column limit set)",
            o.key, o.bytes
        );
        self.append_error(rec, OUTPUT_TOO_LARGE, &message);
    }

    /// Appends the error record of `rec` (its source and URL, `status: error`, `kind` and
    /// `message`) with the limit lifted to [`COLUMN_BYTES_MAX`].
    pub(crate) fn append_error(&mut self, rec: &RecordView<'_, '_>, kind: &str, message: &str) {
        let err = RecordView::error(rec.source, rec.url, kind, message);
        if let Err(o) = self.append_within(&err, COLUMN_BYTES_MAX) {
            panic!("columnar: no room for an error record ({} at {} bytes)", o.key, o.bytes);
        }
    }

    /// Appends `rec` if every string column stays within `limit` bytes; otherwise undoes the
    /// record's partial rows and says which value did not fit.
    fn append_within(&mut self, rec: &RecordView<'_, '_>, limit: usize) -> Result<(), Overflow> {
        let _budget = rec.sanitize.map(crate::sanitize::RecordUrlBudget::start);
        let rows = self.rows;
        let mut full = None;
        match self.layout {
            Layout::Records => self.append_row(rec, rec.sanitize, limit, &mut full),
            Layout::Entries => {
                let entries = rec.feed.map_or(0, |f| f.entries.len());
                let inherited = Inherited::of(rec);
                if entries == 0 {
                    let row = EntryRow { rec: *rec, index: None, inherited };
                    self.append_row(&row, rec.sanitize, limit, &mut full);
                }
                for i in 0..entries {
                    if full.is_some() {
                        break;
                    }
                    let row = EntryRow { rec: *rec, index: Some(i), inherited };
                    self.append_row(&row, rec.sanitize, limit, &mut full);
                }
            }
        }
        if let Some(o) = full {
            self.truncate(rows);
            return Err(o);
        }
        self.records += 1;
        self.ends.push(self.rows);
        Ok(())
    }

    fn append_row(
        &mut self,
        row: &impl Walk,
        sanitize: Option<&SanitizeOptions>,
        limit: usize,
        full: &mut Option<Overflow>,
    ) {
        let slot = self.rows;
        self.rows += 1;
        let mut append = Append {
            cols: &mut self.columns.cols,
            at: 0,
            slot,
            wrote: false,
            rec: RecordCtx { sizes: &mut self.sizes, sanitize, limit, full },
        };
        row.walk(&mut append);
        debug_assert_eq!(append.at, append.cols.len(), "the walk visited every column");
    }

    /// Drops every row after the first `rows` (a row boundary), and the records they were.
    pub(crate) fn truncate(&mut self, rows: usize) {
        if rows >= self.rows {
            return;
        }
        self.columns.truncate(rows);
        self.sizes.recount(&self.columns);
        self.rows = rows;
        while self.ends.last().is_some_and(|&e| e > rows) {
            self.ends.pop();
        }
        self.records = self.ends.len();
    }

    /// The rows of each record appended since the last finish, in order.
    #[cfg(feature = "parquet")]
    pub(crate) fn record_rows(&self) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(self.ends.iter().copied()).map(|(s, e)| s..e)
    }

    /// The batch of everything appended so far; the builder is then empty (and holds no
    /// memory: the columns' buffers become the batch's, without a copy).
    pub fn finish(&mut self) -> RecordBatch {
        let rows = std::mem::take(&mut self.rows);
        self.records = 0;
        self.ends.clear();
        self.sizes.clear();
        let (fields, arrays) = self.columns.finish(true, rows);
        // The columns are built row by row together, so lengths and types always agree.
        RecordBatch::try_new(Arc::new(Schema::new(fields)), arrays)
            .expect("columnar: builder columns agree with their schema")
    }

    /// Takes back the buffers of `batch`, a batch this (now empty) builder made with
    /// [`RecordBatchBuilder::finish`] and that is no longer needed (encoded), as its columns'
    /// emptied buffers, while the builder holds at most `keep` bytes of them: the next batch's
    /// values are written into memory already allocated instead of buffers grown afresh by
    /// doubling and freed after each row group, whose churn the allocator keeps as memory
    /// (glibc's arenas held 160–350 MB at `-j2` for 140 MB of live data). A buffer still
    /// shared elsewhere, or one past `keep`, is simply dropped; the rows and the batches made
    /// are the same either way.
    #[cfg(feature = "parquet")]
    pub(crate) fn recycle(&mut self, batch: RecordBatch, keep: usize) {
        if self.rows > 0 {
            return;
        }
        let (_, arrays, _) = batch.into_parts();
        let mut budget = keep.saturating_sub(self.held_bytes());
        self.columns.recycle(arrays, &mut budget);
    }
}

/// Why a record's rows do not fit in a batch: the first value that would have taken its
/// column past the limit.
pub(crate) struct TooLarge(Overflow);

/// The builder of one column, of the kind its key's visit calls for. NOTE: hand-written
/// rather than Arrow's builders, which cannot undo an append: a record that turns out not to
/// fit, or whose walk panicked part way, is truncated away (`Column::truncate`). The buffers
/// become the arrays' without a copy, as with Arrow's builders.
///
/// Nulls are written lazily: a column holds its slots up to its last value, and the slots
/// after it are null until it gets its next value or the batch is finished, when it is
/// padded with them in one go ([`Column::pad`]). A struct's validity is padded likewise, and
/// its columns on their own: an absent object costs no write in any column below it (most
/// of a record's some 500 columns are absent objects' or keys without a value; appending
/// their nulls one by one cost 28 M instructions on corpus ×1). Each column therefore
/// has at most as many slots as its group (the rows, or its list's items) until `finish`.
enum Column {
    Str(Strs),
    Int(Vec<i64>, NullBufferBuilder),
    Float(Vec<f64>, NullBufferBuilder),
    Bool(Vec<bool>, NullBufferBuilder),
    Date(Vec<i64>, NullBufferBuilder),
    /// An object: its keys' columns and its validity.
    Struct(Columns, NullBufferBuilder),
    /// A list: the end offset of each row's items in `items`, which holds one column; and
    /// the index of its items' slot group in [`Sizes`].
    List(Vec<i32>, Box<Column>, usize),
}

/// A `utf8` column: the values end to end, the end offset of each, their validity.
struct Strs {
    /// A `String`, so that a serialized value can be written into it in place
    /// ([`Strs::push_written`]).
    values: String,
    offsets: Vec<i32>,
    valid: NullBufferBuilder,
}

impl Strs {
    fn new() -> Self {
        Strs { values: String::new(), offsets: vec![0], valid: NullBufferBuilder::new(0) }
    }

    /// Whether `n` more bytes of values fit within `limit`.
    #[inline]
    fn fits(&self, n: usize, limit: usize) -> bool {
        self.values.len() + n <= limit
    }

    /// Appends `v`; the caller checked that it fits (within [`COLUMN_BYTES_MAX`]).
    #[inline]
    fn push(&mut self, v: &str) {
        self.values.push_str(v);
        // The caller's `fits` keeps the values within i32::MAX.
        self.offsets.push(self.values.len() as i32);
        self.valid.append_non_null();
    }

    /// Appends at `slot` the value `write` appends to the values, unless it is empty or
    /// takes the values past `limit`; then its bytes are cut off again and the slot stays
    /// null. Returns the value's length, or `Err` if it did not fit. Writing in place saves
    /// copying a serialized value from a scratch string: half of the HTML values' `memcpy`.
    #[inline]
    fn push_written(
        &mut self,
        slot: usize,
        limit: usize,
        write: impl FnOnce(&mut String),
    ) -> Result<usize, ()> {
        // Nulls up to `slot` first, at the values' end before the value: a slot left null
        // after all is one `finish` would pad anyway.
        self.pad(slot);
        let start = self.values.len();
        write(&mut self.values);
        let n = self.values.len() - start;
        if n == 0 {
            return Ok(0);
        }
        if self.values.len() > limit {
            // The value was written whole; `start` is the end of the last value, a char
            // boundary.
            self.values.truncate(start);
            return Err(());
        }
        // `limit` (at most COLUMN_BYTES_MAX) keeps the values within i32::MAX.
        self.offsets.push(self.values.len() as i32);
        self.valid.append_non_null();
        Ok(n)
    }

    /// The slots (values and nulls) the column holds.
    #[inline]
    fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Nulls up to `slots` slots (see [`Column`]).
    #[inline]
    fn pad(&mut self, slots: usize) {
        if self.len() < slots {
            self.pad_nulls(slots);
        }
    }

    /// [`Strs::pad`]'s nulls, out of line: most values follow one at the slot before.
    #[inline(never)]
    fn pad_nulls(&mut self, slots: usize) {
        let len = self.len();
        // The caller's `fits` kept the values within i32::MAX.
        self.offsets.resize(slots + 1, self.values.len() as i32);
        self.valid.append_n_nulls(slots - len);
    }

    fn finish(&mut self) -> StringArray {
        let values = Buffer::from_vec(std::mem::take(&mut self.values).into_bytes());
        let offsets = offset_buffer(std::mem::replace(&mut self.offsets, vec![0]));
        let nulls = self.valid.finish();
        // SAFETY: `try_new` would not fail: the values were appended only as whole `&str`s
        // (`push`) and cut back only to an offset (`Column::truncate`), so they are valid
        // UTF-8 and every offset, a value's end, is a char boundary; the offsets start at 0
        // and do not decrease (`offset_buffer`), and `fits` kept them within the values;
        // there is one validity bit per slot (pushed or padded with its offset). `new` would
        // check the UTF-8 again: one more pass over every value.
        unsafe { StringArray::new_unchecked(offsets, values, nulls) }
    }
}

/// The offsets of a string or list column as Arrow's, without `OffsetBuffer::new`'s check
/// (a pass over every offset: 4.2 M instructions on corpus ×1).
fn offset_buffer(offsets: Vec<i32>) -> OffsetBuffer<i32> {
    debug_assert!(offsets.first() == Some(&0) && offsets.windows(2).all(|w| w[0] <= w[1]));
    // SAFETY: the offsets are not empty and start at 0 (a column's start with `vec![0]`,
    // and `truncate` keeps at least that), and do not decrease: a string column's offsets
    // are each the values' length when pushed (`Strs::push`, `Strs::pad_nulls`; the values
    // only grow, and `truncate` cuts both back together), a list's each the last plus its
    // row's items (`push_offset`, checked) or the last again (`pad_offsets`).
    unsafe { OffsetBuffer::new_unchecked(ScalarBuffer::from(offsets)) }
}

/// `a` as the array type `A`, owned: its buffers are then no longer shared with `a`.
#[cfg(feature = "parquet")]
fn owned<A: Array + Clone + 'static>(a: ArrayRef) -> Option<A> {
    let one = a.as_any().downcast_ref::<A>()?.clone();
    drop(a);
    Some(one)
}

/// Makes `buf`'s allocation `v`'s (holding what `v` holds, an empty column's initial values)
/// if it is larger, not shared, allocated as a `Vec<T>` and within `budget` bytes.
#[cfg(feature = "parquet")]
fn reuse<T: arrow_buffer::ArrowNativeType>(v: &mut Vec<T>, buf: Buffer, budget: &mut usize) {
    if let Some(mut b) = larger(v.capacity(), buf, budget) {
        b.extend_from_slice(v);
        *v = b;
    }
}

/// [`reuse`] for a string column's values: `buf`'s allocation becomes `s`'s, holding `s`'s
/// text, on the same conditions.
#[cfg(feature = "parquet")]
fn reuse_str(s: &mut String, buf: Buffer, budget: &mut usize) {
    if let Some(b) = larger(s.capacity(), buf, budget) {
        // `larger` returns its vector empty, and an empty vector is valid UTF-8.
        let mut t = String::from_utf8(b).expect("an empty vector");
        t.push_str(s);
        *s = t;
    }
}

/// `buf`'s allocation as an empty vector, if it holds more than `have` elements, is not
/// shared, was allocated as a `Vec<T>` and its growth fits within `budget` bytes (taken from
/// it).
#[cfg(feature = "parquet")]
fn larger<T: arrow_buffer::ArrowNativeType>(
    have: usize,
    buf: Buffer,
    budget: &mut usize,
) -> Option<Vec<T>> {
    let mut b = buf.into_vec::<T>().ok()?;
    let bytes = b.capacity() * std::mem::size_of::<T>();
    if b.capacity() <= have || bytes > *budget {
        return None;
    }
    *budget -= bytes - have * std::mem::size_of::<T>();
    b.clear();
    Some(b)
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

    /// The fields and arrays of the columns, `slots` long (emptying them); `top`: the row's
    /// own columns, where `source` and `status` are never null.
    fn finish(&mut self, top: bool, slots: usize) -> (Fields, Vec<ArrayRef>) {
        let arrays = self.cols.iter_mut().map(|c| c.finish(slots));
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

    fn truncate(&mut self, rows: usize) {
        self.cols.iter_mut().for_each(|c| c.truncate(rows));
    }

    fn held_bytes(&self) -> usize {
        self.cols.iter().map(Column::held_bytes).sum()
    }

    /// Bytes `slots` slots of the columns take, their nulls padded.
    #[cfg(all(feature = "parquet", any(test, debug_assertions)))]
    fn rows_bytes(&self, slots: usize) -> usize {
        self.cols.iter().map(|c| c.rows_bytes(slots)).sum()
    }

    /// See [`RecordBatchBuilder::recycle`]: `arrays` are these columns' finished arrays.
    #[cfg(feature = "parquet")]
    fn recycle(&mut self, arrays: Vec<ArrayRef>, budget: &mut usize) {
        if arrays.len() == self.cols.len() {
            self.cols.iter_mut().zip(arrays).for_each(|(c, a)| c.recycle(a, budget));
        }
    }
}

/// A string column with its nulls as empty strings.
fn nulls_as_empty(a: &ArrayRef) -> ArrayRef {
    let values = a.as_string::<i32>().iter().map(|v| v.unwrap_or(""));
    Arc::new(StringArray::from_iter_values(values))
}

/// The `int64` array of `values` and `valid`, emptying them.
fn int64s(values: &mut Vec<i64>, valid: &mut NullBufferBuilder) -> PrimitiveArray<Int64Type> {
    PrimitiveArray::new(ScalarBuffer::from(std::mem::take(values)), valid.finish())
}

impl Column {
    fn str() -> Column {
        Column::Str(Strs::new())
    }

    fn int() -> Column {
        Column::Int(Vec::new(), NullBufferBuilder::new(0))
    }

    fn struct_of<T: Walk>(shape: &T) -> Column {
        Column::Struct(Columns::of(shape), NullBufferBuilder::new(0))
    }

    fn list_of(items: Column) -> Column {
        Column::List(vec![0], Box::new(items), 0)
    }

    /// Nulls (a list: empty lists) up to `slots` slots; a struct's own validity only, its
    /// columns being padded when they are next written or finished (see [`Column`]).
    fn pad(&mut self, slots: usize) {
        match self {
            Column::Str(s) => s.pad(slots),
            Column::Int(v, valid) | Column::Date(v, valid) => pad_values(v, valid, slots),
            Column::Float(v, valid) => pad_values(v, valid, slots),
            Column::Bool(v, valid) => pad_values(v, valid, slots),
            Column::Struct(_, valid) => pad_validity(valid, slots),
            Column::List(offsets, ..) => {
                pad_offsets(offsets, slots);
            }
        }
    }

    /// Keeps at most the first `rows` slots (a column holds up to its last value: fewer
    /// slots when the rest were null, more when a record's rows were partly appended).
    fn truncate(&mut self, rows: usize) {
        match self {
            Column::Str(s) => {
                s.offsets.truncate(rows + 1);
                s.values.truncate(s.offsets.last().map_or(0, |&o| o as usize));
                s.valid.truncate(rows);
            }
            Column::Int(v, valid) | Column::Date(v, valid) => {
                v.truncate(rows);
                valid.truncate(rows);
            }
            Column::Float(v, valid) => {
                v.truncate(rows);
                valid.truncate(rows);
            }
            Column::Bool(v, valid) => {
                v.truncate(rows);
                valid.truncate(rows);
            }
            Column::Struct(cols, valid) => {
                cols.truncate(rows);
                valid.truncate(rows);
            }
            Column::List(offsets, items, _) => {
                offsets.truncate(rows + 1);
                items.truncate(offsets.last().map_or(0, |&o| o as usize));
            }
        }
    }

    fn held_bytes(&self) -> usize {
        match self {
            Column::Str(s) => {
                s.values.capacity() + s.offsets.capacity() * 4 + s.valid.allocated_size()
            }
            Column::Int(v, valid) | Column::Date(v, valid) => {
                v.capacity() * 8 + valid.allocated_size()
            }
            Column::Float(v, valid) => v.capacity() * 8 + valid.allocated_size(),
            Column::Bool(v, valid) => v.capacity() + valid.allocated_size(),
            Column::Struct(cols, valid) => cols.held_bytes() + valid.allocated_size(),
            Column::List(offsets, items, _) => offsets.capacity() * 4 + items.held_bytes(),
        }
    }

    /// Bytes `slots` slots of the column take (values, offsets, validity; not capacity), its
    /// nulls padded: the check of [`Sizes`], which counts them as they are appended.
    #[cfg(all(feature = "parquet", any(test, debug_assertions)))]
    fn rows_bytes(&self, slots: usize) -> usize {
        let len = match self {
            Column::Str(s) => s.len(),
            Column::Int(v, _) | Column::Date(v, _) => v.len(),
            Column::Float(v, _) => v.len(),
            Column::Bool(v, _) => v.len(),
            Column::Struct(_, valid) => valid.len(),
            Column::List(offsets, ..) => offsets.len() - 1,
        };
        assert!(len <= slots, "a column holds {len} of its group's {slots} slots");
        match self {
            Column::Str(s) => s.values.len() + (slots + 1) * 4 + slots.div_ceil(8),
            Column::Int(..) | Column::Date(..) | Column::Float(..) => slots * 8 + slots / 8,
            Column::Bool(..) => slots + slots / 8,
            Column::Struct(cols, _) => cols.rows_bytes(slots) + slots / 8,
            Column::List(offsets, items, _) => {
                let last = offsets.last().map_or(0, |&o| o as usize);
                (slots + 1) * 4 + items.rows_bytes(last)
            }
        }
    }

    /// See [`RecordBatchBuilder::recycle`]: `a` is this column's finished array. Validity
    /// bitmaps (one bit a row) are not taken back.
    #[cfg(feature = "parquet")]
    fn recycle(&mut self, a: ArrayRef, budget: &mut usize) {
        match self {
            Column::Str(s) => {
                let Some(a) = owned::<StringArray>(a) else { return };
                let (offsets, values, _) = a.into_parts();
                reuse_str(&mut s.values, values, budget);
                reuse(&mut s.offsets, offsets.into_inner().into_inner(), budget);
            }
            Column::Int(v, _) => {
                let Some(a) = owned::<PrimitiveArray<Int64Type>>(a) else { return };
                reuse(v, a.into_parts().1.into_inner(), budget);
            }
            Column::Date(v, _) => {
                let Some(a) = owned::<PrimitiveArray<TimestampMicrosecondType>>(a) else {
                    return;
                };
                reuse(v, a.into_parts().1.into_inner(), budget);
            }
            Column::Float(v, _) => {
                let Some(a) = owned::<PrimitiveArray<Float64Type>>(a) else { return };
                reuse(v, a.into_parts().1.into_inner(), budget);
            }
            // Packed into bits when finished: the values vector itself was kept.
            Column::Bool(..) => {}
            Column::Struct(cols, _) => {
                let Some(a) = owned::<StructArray>(a) else { return };
                cols.recycle(a.into_parts().1, budget);
            }
            Column::List(offsets, items, _) => {
                let Some(a) = owned::<ListArray>(a) else { return };
                let (_, list_offsets, values, _) = a.into_parts();
                reuse(offsets, list_offsets.into_inner().into_inner(), budget);
                items.recycle(values, budget);
            }
        }
    }

    /// The array of the column's `slots` slots (its nulls padded), emptying it.
    fn finish(&mut self, slots: usize) -> ArrayRef {
        self.pad(slots);
        match self {
            Column::Str(s) => Arc::new(s.finish()),
            Column::Int(v, valid) => Arc::new(int64s(v, valid)),
            Column::Float(v, valid) => Arc::new(PrimitiveArray::<Float64Type>::new(
                ScalarBuffer::from(std::mem::take(v)),
                valid.finish(),
            )),
            Column::Bool(v, valid) => {
                let array = BooleanArray::new(v.as_slice().into(), valid.finish());
                v.clear();
                Arc::new(array)
            }
            Column::Date(v, valid) => {
                let values = ScalarBuffer::from(std::mem::take(v));
                Arc::new(
                    PrimitiveArray::<TimestampMicrosecondType>::new(values, valid.finish())
                        .with_timezone("UTC"),
                )
            }
            Column::Struct(cols, valid) => {
                let (fields, arrays) = cols.finish(false, slots);
                Arc::new(StructArray::new(fields, arrays, valid.finish()))
            }
            Column::List(offsets, items, _) => {
                // Offsets start at 0 and never decrease: the last is not negative.
                let items = items.finish(*offsets.last().expect("starts at 0") as usize);
                let offsets = offset_buffer(std::mem::replace(offsets, vec![0]));
                let field = Arc::new(Field::new_list_field(items.data_type().clone(), true));
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
        self.push(k.name, Column::str());
    }
    fn uint(&mut self, k: Key, _: Option<u64>) {
        self.push(k.name, Column::int());
    }
    fn num(&mut self, k: Key, _: Option<f64>) {
        self.push(k.name, Column::Float(Vec::new(), NullBufferBuilder::new(0)));
    }
    fn bool(&mut self, k: Key, _: Option<bool>) {
        self.push(k.name, Column::Bool(Vec::new(), NullBufferBuilder::new(0)));
    }
    fn date(&mut self, k: Key, _: Option<Timestamp>, _: Option<&str>) {
        self.push(k.name, Column::Date(Vec::new(), NullBufferBuilder::new(0)));
        self.push(&format!("{}_offset", k.name), Column::int());
        self.push(&format!("{}_raw", k.name), Column::str());
    }
    fn text(&mut self, k: Key, _: Option<&Text<'_>>) {
        self.push(k.name, Column::str());
        self.push(&format!("{}_type", k.name), Column::str());
    }
    fn strs(&mut self, k: Key, _: &[&str]) {
        self.push(k.name, Column::list_of(Column::str()));
    }
    fn uints<N: Copy + Into<u64>>(&mut self, k: Key, _: &[N]) {
        self.push(k.name, Column::list_of(Column::int()));
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
/// the next key, and `slot` the value's slot in them (its row, or its item in a list's
/// items). Only values are written: a column is padded with nulls up to `slot` when it gets
/// its next value ([`Column::pad`]), so a key without a value, or an absent object with all
/// its columns, costs no write (see [`Column`]).
struct Append<'c, 's> {
    cols: &'c mut [Column],
    at: usize,
    slot: usize,
    /// Whether a key of this object had a value (an object with none is null).
    wrote: bool,
    rec: RecordCtx<'s>,
}

/// What the objects of one record's rows share while they are appended.
struct RecordCtx<'s> {
    sizes: &'s mut Sizes,
    sanitize: Option<&'s SanitizeOptions>,
    /// Bytes one string column's values may hold.
    limit: usize,
    /// The first value that did not fit: once set, values are left null and lists empty
    /// (the walk goes on, but the record's rows are truncated away at the end).
    full: &'s mut Option<Overflow>,
}

impl RecordCtx<'_> {
    /// The same context, for a nested object's [`Append`].
    #[inline]
    fn reborrow(&mut self) -> RecordCtx<'_> {
        RecordCtx {
            sizes: &mut *self.sizes,
            sanitize: self.sanitize,
            limit: self.limit,
            full: &mut *self.full,
        }
    }
}

impl Append<'_, '_> {
    /// The column of the next key.
    #[inline]
    fn next(&mut self) -> &mut Column {
        self.at += 1;
        &mut self.cols[self.at - 1]
    }
}

/// Appends `v`'s keys to `cols` (an object's columns) at `slot`; returns whether any had a
/// value.
fn append_object<T: Walk>(cols: &mut Columns, slot: usize, v: &T, rec: RecordCtx<'_>) -> bool {
    let mut inner = Append { cols: &mut cols.cols, at: 0, slot, wrote: false, rec };
    v.walk(&mut inner);
    debug_assert_eq!(inner.at, inner.cols.len(), "the walk visited every column");
    inner.wrote
}

fn unexpected(k: Key) -> ! {
    unreachable!("columnar: key `{}` visited in a different way than the schema's walk", k.name)
}

/// Appends `v` to `b` at `slot` if it fits within `limit` (counting its bytes in `sizes`);
/// else records the overflow in `full` (the slot stays null).
#[inline]
fn push_str(
    b: &mut Strs,
    slot: usize,
    v: &str,
    k: Key,
    limit: usize,
    full: &mut Option<Overflow>,
    sizes: &mut Sizes,
) -> bool {
    if full.is_none() && b.fits(v.len(), limit) {
        b.pad(slot);
        b.push(v);
        sizes.str_values += v.len();
        return true;
    }
    full.get_or_insert(Overflow { key: k.name, bytes: limit });
    false
}

/// Appends the present value `v` at `slot` to a column of fixed-size values.
#[inline]
fn push_value<T: Copy + Default>(b: &mut Vec<T>, valid: &mut NullBufferBuilder, slot: usize, v: T) {
    pad_values(b, valid, slot);
    b.push(v);
    valid.append_non_null();
}

impl Visit for Append<'_, '_> {
    fn str(&mut self, k: Key, v: Option<&str>) {
        let (limit, at, slot) = (self.rec.limit, self.at, self.slot);
        self.at += 1;
        if let Some(v) = v.filter(|v| !v.is_empty()) {
            let Column::Str(b) = &mut self.cols[at] else { unexpected(k) };
            self.wrote |= push_str(b, slot, v, k, limit, self.rec.full, self.rec.sizes);
        }
    }

    fn uint(&mut self, k: Key, v: Option<u64>) {
        let slot = self.slot;
        let Column::Int(b, valid) = self.next() else { unexpected(k) };
        // A value past i64::MAX is null (the object still has a value).
        if let Some(n) = v.and_then(|v| i64::try_from(v).ok()) {
            push_value(b, valid, slot, n);
        }
        self.wrote |= v.is_some();
    }

    fn num(&mut self, k: Key, v: Option<f64>) {
        let slot = self.slot;
        let Column::Float(b, valid) = self.next() else { unexpected(k) };
        if let Some(n) = v {
            push_value(b, valid, slot, n);
            self.wrote = true;
        }
    }

    fn bool(&mut self, k: Key, v: Option<bool>) {
        let slot = self.slot;
        let Column::Bool(b, valid) = self.next() else { unexpected(k) };
        if let Some(x) = v {
            push_value(b, valid, slot, x);
            self.wrote = true;
        }
    }

    fn date(&mut self, k: Key, v: Option<Timestamp>, raw: Option<&str>) {
        let slot = self.slot;
        let Column::Date(b, valid) = self.next() else { unexpected(k) };
        if let Some(n) = v.and_then(timestamp_micros) {
            push_value(b, valid, slot, n);
        }
        self.wrote |= v.is_some();
        let Column::Int(offsets, valid) = self.next() else { unexpected(k) };
        if let Some(m) = v.and_then(|t| t.offset_minutes()) {
            push_value(offsets, valid, slot, i64::from(m));
        }
        self.str(k, raw);
    }

    fn text(&mut self, k: Key, v: Option<&Text<'_>>) {
        let [Column::Str(b), Column::Str(kinds)] = &mut self.cols[self.at..self.at + 2] else {
            unexpected(k)
        };
        self.at += 2;
        let Some(v) = v else { return };
        let (slot, limit, full, sizes) =
            (self.slot, self.rec.limit, &mut *self.rec.full, &mut *self.rec.sizes);
        // A full record's values are left null (see `push_str`).
        if full.is_some() {
            return;
        }
        let sanitize = self.rec.sanitize;
        match b.push_written(slot, limit, |out| write_text_str(v, sanitize, out)) {
            Ok(0) => {}
            Ok(n) => {
                sizes.str_values += n;
                let kind = if let Text::Plain(_) = v { "text" } else { "html" };
                // A kind that does not fit leaves the record full: its rows are undone.
                if push_str(kinds, slot, kind, k, limit, full, sizes) {
                    self.wrote = true;
                }
            }
            Err(()) => {
                full.get_or_insert(Overflow { key: k.name, bytes: limit });
            }
        }
    }

    fn strs(&mut self, k: Key, v: &[&str]) {
        let (limit, at, slot) = (self.rec.limit, self.at, self.slot);
        self.at += 1;
        if v.is_empty() {
            return;
        }
        let Column::List(offsets, items, group) = &mut self.cols[at] else { unexpected(k) };
        let Column::Str(b) = &mut **items else { unexpected(k) };
        let first = pad_offsets(offsets, slot);
        for (i, s) in v.iter().enumerate() {
            push_str(b, first + i, s, k, limit, self.rec.full, self.rec.sizes);
        }
        self.rec.sizes.slots[*group] = push_offset(offsets, v.len(), k, self.rec.full);
        self.wrote = true;
    }

    fn uints<N: Copy + Into<u64>>(&mut self, k: Key, v: &[N]) {
        let (at, slot) = (self.at, self.slot);
        self.at += 1;
        if v.is_empty() {
            return;
        }
        let Column::List(offsets, items, group) = &mut self.cols[at] else { unexpected(k) };
        let Column::Int(b, valid) = &mut **items else { unexpected(k) };
        let first = pad_offsets(offsets, slot);
        for (i, n) in v.iter().enumerate() {
            // A value past i64::MAX is a null item.
            if let Ok(n) = i64::try_from((*n).into()) {
                push_value(b, valid, first + i, n);
            }
        }
        self.rec.sizes.slots[*group] = push_offset(offsets, v.len(), k, self.rec.full);
        self.wrote = true;
    }

    fn object<T: Walk + Shape>(&mut self, k: Key, v: Option<&T>) {
        let slot = self.slot;
        self.at += 1;
        let Some(v) = v else { return };
        let Column::Struct(cols, valid) = &mut self.cols[self.at - 1] else { unexpected(k) };
        if append_object(cols, slot, v, self.rec.reborrow()) {
            pad_validity(valid, slot);
            valid.append_non_null();
            self.wrote = true;
        }
    }

    fn list_with<T: Walk + Shape, R: Borrow<T>>(
        &mut self,
        k: Key,
        n: usize,
        mut item: impl FnMut(usize) -> R,
    ) {
        let slot = self.slot;
        self.at += 1;
        // Once the record does not fit, its lists are left empty: its rows are undone anyway.
        if n == 0 || self.rec.full.is_some() {
            return;
        }
        let Column::List(offsets, items, group) = &mut self.cols[self.at - 1] else {
            unexpected(k)
        };
        let Column::Struct(cols, valid) = &mut **items else { unexpected(k) };
        let first = pad_offsets(offsets, slot);
        for i in 0..n {
            append_object(cols, first + i, item(i).borrow(), self.rec.reborrow());
            // List elements are never null (an element with no value is a struct of nulls).
            pad_validity(valid, first + i);
            valid.append_non_null();
        }
        self.rec.sizes.slots[*group] = push_offset(offsets, n, k, self.rec.full);
        self.wrote = true;
    }

    fn flatten<T: Walk>(&mut self, _prefix: &'static str, v: &T) {
        v.walk(self);
    }
}

/// Pads a fixed-size column with nulls (values `T::default()`) up to `slots` slots.
#[inline]
fn pad_values<T: Copy + Default>(v: &mut Vec<T>, valid: &mut NullBufferBuilder, slots: usize) {
    if v.len() < slots {
        pad_value_nulls(v, valid, slots);
    }
}

/// [`pad_values`]' nulls, out of line.
#[inline(never)]
fn pad_value_nulls<T: Copy + Default>(v: &mut Vec<T>, valid: &mut NullBufferBuilder, slots: usize) {
    let len = v.len();
    v.resize(slots, T::default());
    valid.append_n_nulls(slots - len);
}

/// Pads a struct's validity with nulls up to `slots` slots.
#[inline]
fn pad_validity(valid: &mut NullBufferBuilder, slots: usize) {
    let len = valid.len();
    if len < slots {
        valid.append_n_nulls(slots - len);
    }
}

/// Pads a list's offsets with empty lists up to `slots` rows; returns its items so far (the
/// slot of its next item).
#[inline]
fn pad_offsets(offsets: &mut Vec<i32>, slots: usize) -> usize {
    let last = *offsets.last().expect("starts at 0");
    if offsets.len() <= slots {
        offsets.resize(slots + 1, last);
    }
    // Offsets start at 0 and never decrease: `last` is not negative.
    last as usize
}

/// Ends a list row of `n` more items; past 2^31 − 1 items in the batch, the row is empty
/// and the record does not fit. Returns the list's items (its new last offset).
fn push_offset(offsets: &mut Vec<i32>, n: usize, k: Key, full: &mut Option<Overflow>) -> usize {
    let last = *offsets.last().expect("starts at 0");
    let end = i32::try_from(n).ok().and_then(|n| last.checked_add(n));
    if end.is_none() {
        full.get_or_insert(Overflow { key: k.name, bytes: i32::MAX as usize });
    }
    let end = end.unwrap_or(last);
    offsets.push(end);
    // Offsets start at 0 and never decrease: `end` is not negative.
    end as usize
}

/// What the rows take in the columns (values, offsets, validity; not capacity), kept as they
/// are appended so that [`RecordBatchBuilder::rows_bytes`] is not a walk of every column
/// after each record. Every column of a *slot group* has one slot per slot of the group:
/// group 0 is the rows (the top-level columns and the structs among them, recursively), and
/// each list's items are a group of their own (the list's last offset slots). A column's bytes
/// are then a function of its group's slots, except a string column's values, whose bytes
/// are counted as they are appended ([`push_str`]).
struct Sizes {
    /// The bytes of every string column's values.
    str_values: usize,
    /// The slots of each group (index 0 unused: the builder's rows).
    slots: Vec<usize>,
    /// What each group's columns take as a function of its slots.
    shapes: Vec<SlotShape>,
}

/// The bytes a slot group's columns take for `n` slots: `per_slot * n + floor8 * (n / 8) +
/// ceil8 * ceil(n / 8) + fixed` (a string's validity counts partial bytes, the other
/// columns' whole ones; an offsets vector has one entry more than slots).
#[derive(Clone, Copy, Default)]
struct SlotShape {
    per_slot: usize,
    floor8: usize,
    ceil8: usize,
    fixed: usize,
}

impl SlotShape {
    #[inline]
    fn bytes(&self, n: usize) -> usize {
        self.per_slot * n + self.floor8 * (n / 8) + self.ceil8 * n.div_ceil(8) + self.fixed
    }

    /// Adds `col` (and, in its group, its struct children) to this group's shape; a list's
    /// items get a group of their own, whose index the list keeps.
    fn add(shapes: &mut Vec<SlotShape>, group: usize, col: &mut Column) {
        let s = &mut shapes[group];
        match col {
            Column::Str(_) => {
                s.per_slot += 4;
                s.fixed += 4;
                s.ceil8 += 1;
            }
            Column::Int(..) | Column::Date(..) | Column::Float(..) => {
                s.per_slot += 8;
                s.floor8 += 1;
            }
            Column::Bool(..) => {
                s.per_slot += 1;
                s.floor8 += 1;
            }
            Column::Struct(cols, _) => {
                s.floor8 += 1;
                cols.cols.iter_mut().for_each(|c| SlotShape::add(shapes, group, c));
            }
            Column::List(_, items, items_group) => {
                s.per_slot += 4;
                s.fixed += 4;
                *items_group = shapes.len();
                shapes.push(SlotShape::default());
                SlotShape::add(shapes, *items_group, items);
            }
        }
    }
}

impl Sizes {
    /// The sizes of `columns`, empty; numbers their lists' item groups.
    fn of(columns: &mut Columns) -> Sizes {
        let mut shapes = vec![SlotShape::default()];
        columns.cols.iter_mut().for_each(|c| SlotShape::add(&mut shapes, 0, c));
        Sizes { str_values: 0, slots: vec![0; shapes.len()], shapes }
    }

    /// The bytes `rows` rows take.
    #[cfg_attr(not(feature = "parquet"), allow(dead_code))]
    fn rows_bytes(&self, rows: usize) -> usize {
        let items: usize =
            self.shapes.iter().zip(&self.slots).skip(1).map(|(s, &n)| s.bytes(n)).sum();
        self.str_values + self.shapes[0].bytes(rows) + items
    }

    /// Counts again from the columns (after they were cut back).
    fn recount(&mut self, columns: &Columns) {
        fn count(sizes: &mut Sizes, col: &Column) {
            match col {
                Column::Str(s) => sizes.str_values += s.values.len(),
                Column::Struct(cols, _) => cols.cols.iter().for_each(|c| count(sizes, c)),
                Column::List(offsets, items, group) => {
                    sizes.slots[*group] = offsets.last().map_or(0, |&o| o as usize);
                    count(sizes, items);
                }
                Column::Int(..) | Column::Date(..) | Column::Float(..) | Column::Bool(..) => {}
            }
        }
        self.clear();
        columns.cols.iter().for_each(|c| count(self, c));
    }

    /// No rows.
    fn clear(&mut self) {
        self.str_values = 0;
        self.slots.fill(0);
    }
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
            D::Float64 => "double".to_owned(),
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
