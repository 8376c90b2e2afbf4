//! Columnar (Apache Arrow) form of processed records: a [`RecordBatchBuilder`] that appends
//! [`RecordView`]s and finishes them into an Arrow [`RecordBatch`] with a fixed, documented
//! schema ([`schema`]), and (feature `parquet`) a Parquet writer over it ([`parquet`]).
//!
//! Owns: the Arrow schema of a record and its mapping from the model. The builder knows
//! nothing about the bulk pipeline: any caller appends records and finishes batches.
//!
//! The schema is the JSON Lines record (`crate::sink::json`) with one type per column:
//!
//! - Text values (`title`, `subtitle`, `description`, `summary`, `content`) are two `utf8`
//!   columns, the value (plain text, or the sanitized HTML serialized) and `<name>_type`
//!   (`text` | `html`), exactly as in JSON Lines.
//! - Dates are `timestamp[us, UTC]` (fractional digits beyond microseconds are cut; the JSON
//!   keeps them all). Lenient dates are `struct {value: timestamp, zone_assumed, form}`.
//! - Integers (`duration`, `length`, `width`, `height`, `ttl`, `offset`, `episode`, …) are
//!   `int64` (signed, because Spark reads no unsigned Arrow type; a value above `i64::MAX`,
//!   which no real feed has, is null). Booleans are `bool`.
//! - Objects are structs; arrays are lists. A value the JSON omits (null or empty) is null;
//!   an omitted array is an empty list. Array elements are never dropped.
//! - The extraction columns (`*_text`, `canonical_url`, `body_*`, `word_count`, `dedup_*`)
//!   are always in the schema; they are null when the record was not extracted.
//! - Lint findings (`--lint`) are the last column of the record layout, `findings`
//!   (`list<struct>`, the JSON `findings` elements key for key); an empty list when the
//!   record was not linted or had none. The entry layout has neither diagnostics nor findings.
//!
//! Two layouts ([`Layout`]): one row per input record with a nested `feed.entries` list
//! (the JSON Lines record, column for column), or one row per entry with its record's and
//! feed's key columns (`source`, `status`, `format`, `feed_title`, …, `entry_index`) and the
//! entry's fields as top-level columns (the entry's own `source` element is `entry_source`). In the entry layout a record with no entry (not a
//! feed, an error, a feed without items) is still one row, with a null `entry_index`, so no
//! record is ever dropped.
//!
//! NOTE: every column is nullable except `source` and `status`; the schema is derived from
//! the builders themselves ([`schema`] finishes an empty builder), so it cannot drift from
//! the data.

#[cfg(feature = "parquet")]
pub mod parquet;

/// The Arrow crates of this module's signatures, re-exported so callers need not match
/// versions themselves.
pub use arrow_array;
pub use arrow_buffer;
pub use arrow_schema;

use std::fmt::Write as _;
use std::sync::Arc;

use arrow_array::builder::ArrayBuilder;
use arrow_array::builder::TimestampMicrosecondBuilder;
use arrow_array::builder::{BooleanBuilder, Int64Builder, StringBuilder};
use arrow_array::{Array, ArrayRef, ListArray, RecordBatch, StructArray};
use arrow_buffer::{NullBuffer, NullBufferBuilder, OffsetBuffer, ScalarBuffer};
use arrow_schema::{Field, Fields, Schema, SchemaRef};

use crate::extract::{EntryExtraction, FeedExtraction};
use crate::model::ext::{Category, EntryExt, FeedExt, Link, MediaEntry, PodcastPerson};
use crate::model::lenient_date::LenientDate;
use crate::sanitize::{with_sanitized_html, SanitizeOptions};
use crate::sink::RecordView;
use crate::{Diagnostic, Enclosure, Entry, Feed, Image, Person, Text, Timestamp};

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
    /// HTML serialization scratch, reused across values.
    scratch: String,
    /// `Layout::Records` columns.
    rec: RecordCols,
    /// `Layout::Entries` columns.
    ent: EntryRowCols,
}

impl RecordBatchBuilder {
    /// An empty builder of `layout`'s rows.
    pub fn new(layout: Layout) -> Self {
        RecordBatchBuilder {
            layout,
            records: 0,
            scratch: String::new(),
            rec: RecordCols::default(),
            ent: EntryRowCols::default(),
        }
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
        match self.layout {
            Layout::Records => self.records,
            Layout::Entries => ArrayBuilder::len(&self.ent.head.source),
        }
    }

    /// Appends one record (one row, or one row per entry).
    pub fn append(&mut self, rec: &RecordView<'_, '_>) {
        // Strict sanitizing covers URL fields too (`javascript:`, `data:` … removed).
        let cleaned;
        let mut rec = *rec;
        if let (Some(_), Some(f)) = (rec.sanitize, rec.feed) {
            let mut f = f.clone();
            crate::sanitize::drop_unsafe_urls(&mut f);
            cleaned = f;
            rec.feed = Some(&cleaned);
        }
        let rec = &rec;
        self.records += 1;
        let mut cx = Cx { scratch: &mut self.scratch, sanitize: rec.sanitize };
        match self.layout {
            Layout::Records => self.rec.append(rec, &mut cx),
            Layout::Entries => self.ent.append(rec, &mut cx),
        }
    }

    /// The batch of everything appended so far; the builder is then empty.
    pub fn finish(&mut self) -> RecordBatch {
        self.records = 0;
        let cols = match self.layout {
            Layout::Records => self.rec.finish(),
            Layout::Entries => self.ent.finish(),
        };
        let fields: Fields = cols
            .iter()
            .map(|(name, a)| {
                let required = matches!(*name, "source" | "status");
                Field::new(*name, a.data_type().clone(), !required)
            })
            .collect();
        let arrays = cols.into_iter().map(|(_, a)| a).collect();
        // The columns are built row by row together, so lengths and types always agree.
        RecordBatch::try_new(Arc::new(Schema::new(fields)), arrays)
            .expect("columnar: builder columns agree with their schema")
    }
}

/// Per-record context: HTML scratch and the record's strict-sanitizing options.
struct Cx<'c> {
    scratch: &'c mut String,
    sanitize: Option<&'c SanitizeOptions>,
}

type Cols = Vec<(&'static str, ArrayRef)>;

/// A builder of one (possibly nested) column.
trait Col {
    fn finish(&mut self) -> ArrayRef;
}

impl Col for StringBuilder {
    fn finish(&mut self) -> ArrayRef {
        Arc::new(StringBuilder::finish(self))
    }
}

impl Col for Int64Builder {
    fn finish(&mut self) -> ArrayRef {
        Arc::new(Int64Builder::finish(self))
    }
}

fn struct_of(cols: Cols, nulls: Option<NullBuffer>) -> ArrayRef {
    let fields: Fields =
        cols.iter().map(|(n, a)| Field::new(*n, a.data_type().clone(), true)).collect();
    let arrays = cols.into_iter().map(|(_, a)| a).collect();
    Arc::new(StructArray::new(fields, arrays, nulls))
}

fn str_opt(b: &mut StringBuilder, v: Option<&str>) {
    match v {
        Some(v) if !v.is_empty() => b.append_value(v),
        _ => b.append_null(),
    }
}

fn int_opt(b: &mut Int64Builder, v: Option<u64>) {
    b.append_option(v.and_then(|v| i64::try_from(v).ok()));
}

fn bool_opt(b: &mut BooleanBuilder, v: Option<bool>) {
    b.append_option(v);
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

fn ts_builder() -> TimestampMicrosecondBuilder {
    TimestampMicrosecondBuilder::new().with_timezone("UTC")
}

fn ts_opt(b: &mut TimestampMicrosecondBuilder, v: Option<Timestamp>) {
    b.append_option(v.and_then(timestamp_micros));
}

/// A list column of `T` items: the caller appends each item to [`ListB::push`], then
/// [`ListB::close`]s the row.
struct ListB<T> {
    offsets: Vec<i32>,
    len: i32,
    item: T,
}

impl<T: Default> Default for ListB<T> {
    fn default() -> Self {
        ListB { offsets: vec![0], len: 0, item: T::default() }
    }
}

impl<T: Col> ListB<T> {
    fn push(&mut self) -> &mut T {
        self.len += 1;
        &mut self.item
    }

    fn close(&mut self) {
        self.offsets.push(self.len);
    }
}

impl<T: Col> Col for ListB<T> {
    fn finish(&mut self) -> ArrayRef {
        let child = self.item.finish();
        let offsets = std::mem::replace(&mut self.offsets, vec![0]);
        self.len = 0;
        let field = Arc::new(Field::new_list_field(child.data_type().clone(), true));
        let offsets = OffsetBuffer::new(ScalarBuffer::from(offsets));
        Arc::new(ListArray::new(field, offsets, child, None))
    }
}

impl ListB<StringBuilder> {
    fn strs<'s>(&mut self, v: impl IntoIterator<Item = &'s str>) {
        for s in v {
            self.push().append_value(s);
        }
        self.close();
    }
}

/// `<name>` and `<name>_type` of a text value.
#[derive(Default)]
struct TextB {
    value: StringBuilder,
    kind: StringBuilder,
}

impl TextB {
    fn append(&mut self, v: Option<&Text<'_>>, cx: &mut Cx<'_>) {
        match v {
            Some(Text::Plain(s)) if !s.is_empty() => {
                self.value.append_value(s);
                self.kind.append_value("text");
            }
            Some(Text::Html(h)) => {
                let html = match cx.sanitize {
                    None => {
                        cx.scratch.clear();
                        h.write_html(cx.scratch);
                        cx.scratch.as_str()
                    }
                    Some(opts) => {
                        cx.scratch.clear();
                        with_sanitized_html(h, opts, |s| cx.scratch.push_str(s));
                        cx.scratch.as_str()
                    }
                };
                if html.is_empty() {
                    self.value.append_null();
                    self.kind.append_null();
                } else {
                    self.value.append_value(html);
                    self.kind.append_value("html");
                }
            }
            _ => {
                self.value.append_null();
                self.kind.append_null();
            }
        }
    }

    fn finish_into(&mut self, cols: &mut Cols, name: &'static str, type_name: &'static str) {
        cols.push((name, Col::finish(&mut self.value)));
        cols.push((type_name, Col::finish(&mut self.kind)));
    }
}

#[derive(Default)]
struct ImageB {
    valid: NullBufferBuilder0,
    url: StringBuilder,
    width: Int64Builder,
    height: Int64Builder,
}

/// A `NullBufferBuilder` with a `Default`.
struct NullBufferBuilder0(NullBufferBuilder);

impl Default for NullBufferBuilder0 {
    fn default() -> Self {
        NullBufferBuilder0(NullBufferBuilder::new(0))
    }
}

impl NullBufferBuilder0 {
    fn append(&mut self, valid: bool) {
        self.0.append(valid);
    }

    fn finish(&mut self) -> Option<NullBuffer> {
        self.0.finish()
    }
}

impl ImageB {
    fn append(&mut self, v: Option<&Image<'_>>) {
        let i = v.copied().unwrap_or_default();
        self.valid.append(v.is_some());
        str_opt(&mut self.url, i.url);
        int_opt(&mut self.width, i.width);
        int_opt(&mut self.height, i.height);
    }
}

impl Col for ImageB {
    fn finish(&mut self) -> ArrayRef {
        let cols = vec![
            ("url", Col::finish(&mut self.url)),
            ("width", Col::finish(&mut self.width)),
            ("height", Col::finish(&mut self.height)),
        ];
        struct_of(cols, self.valid.finish())
    }
}

#[derive(Default)]
struct PersonB {
    name: StringBuilder,
    email: StringBuilder,
    page_url: StringBuilder,
    icon: ImageB,
}

impl PersonB {
    fn append(&mut self, p: &Person<'_>) {
        str_opt(&mut self.name, p.name);
        str_opt(&mut self.email, p.email);
        str_opt(&mut self.page_url, p.page_url);
        self.icon.append(p.icon.as_ref());
    }
}

impl Col for PersonB {
    fn finish(&mut self) -> ArrayRef {
        let cols = vec![
            ("name", Col::finish(&mut self.name)),
            ("email", Col::finish(&mut self.email)),
            ("page_url", Col::finish(&mut self.page_url)),
            ("icon", self.icon.finish()),
        ];
        struct_of(cols, None)
    }
}

fn persons(l: &mut ListB<PersonB>, v: &[Person<'_>]) {
    for p in v {
        l.push().append(p);
    }
    l.close();
}

#[derive(Default)]
struct CategoryB {
    term: StringBuilder,
    scheme: StringBuilder,
    label: StringBuilder,
}

impl Col for CategoryB {
    fn finish(&mut self) -> ArrayRef {
        let cols = vec![
            ("term", Col::finish(&mut self.term)),
            ("scheme", Col::finish(&mut self.scheme)),
            ("label", Col::finish(&mut self.label)),
        ];
        struct_of(cols, None)
    }
}

fn categories(l: &mut ListB<CategoryB>, v: &[Category<'_>]) {
    for c in v {
        let b = l.push();
        str_opt(&mut b.term, Some(c.term));
        str_opt(&mut b.scheme, c.scheme);
        str_opt(&mut b.label, c.label);
    }
    l.close();
}

#[derive(Default)]
struct PodcastPersonB {
    name: StringBuilder,
    role: StringBuilder,
    group: StringBuilder,
    img: StringBuilder,
    href: StringBuilder,
}

impl Col for PodcastPersonB {
    fn finish(&mut self) -> ArrayRef {
        let cols = vec![
            ("name", Col::finish(&mut self.name)),
            ("role", Col::finish(&mut self.role)),
            ("group", Col::finish(&mut self.group)),
            ("img", Col::finish(&mut self.img)),
            ("href", Col::finish(&mut self.href)),
        ];
        struct_of(cols, None)
    }
}

fn podcast_persons(l: &mut ListB<PodcastPersonB>, v: &[PodcastPerson<'_>]) {
    for p in v {
        let b = l.push();
        str_opt(&mut b.name, Some(p.name));
        str_opt(&mut b.role, p.role);
        str_opt(&mut b.group, p.group);
        str_opt(&mut b.img, p.img);
        str_opt(&mut b.href, p.href);
    }
    l.close();
}

/// `{value, zone_assumed, form}`.
struct LenientB {
    valid: NullBufferBuilder0,
    value: TimestampMicrosecondBuilder,
    zone_assumed: BooleanBuilder,
    form: StringBuilder,
}

impl Default for LenientB {
    fn default() -> Self {
        LenientB {
            valid: NullBufferBuilder0::default(),
            value: ts_builder(),
            zone_assumed: BooleanBuilder::new(),
            form: StringBuilder::new(),
        }
    }
}

impl LenientB {
    fn append(&mut self, v: Option<&LenientDate>) {
        self.valid.append(v.is_some());
        ts_opt(&mut self.value, v.map(|l| l.timestamp));
        bool_opt(&mut self.zone_assumed, v.map(|l| l.zone_assumed));
        str_opt(&mut self.form, v.map(|l| l.form.as_str()));
    }
}

impl Col for LenientB {
    fn finish(&mut self) -> ArrayRef {
        let cols: Cols = vec![
            ("value", Arc::new(self.value.finish())),
            ("zone_assumed", Arc::new(self.zone_assumed.finish())),
            ("form", Col::finish(&mut self.form)),
        ];
        struct_of(cols, self.valid.finish())
    }
}

/// Nullable struct of optional strings (generator, entry source, itunes owner, podcast
/// chapters / episode / locked owner pieces).
struct StrStructB<const N: usize> {
    names: [&'static str; N],
    valid: NullBufferBuilder0,
    cols: [StringBuilder; N],
}

impl<const N: usize> StrStructB<N> {
    fn new(names: [&'static str; N]) -> Self {
        StrStructB {
            names,
            valid: NullBufferBuilder0::default(),
            cols: std::array::from_fn(|_| StringBuilder::new()),
        }
    }

    fn append(&mut self, v: Option<[Option<&str>; N]>) {
        self.valid.append(v.is_some());
        for (i, b) in self.cols.iter_mut().enumerate() {
            str_opt(b, v.and_then(|v| v[i]));
        }
    }
}

impl<const N: usize> Col for StrStructB<N> {
    fn finish(&mut self) -> ArrayRef {
        let cols = self.names.iter().zip(self.cols.iter_mut()).map(|(n, b)| (*n, Col::finish(b)));
        struct_of(cols.collect(), self.valid.finish())
    }
}

/// RSS `image`: `{url, title, link, description, width, height}`.
struct ImageInfoB {
    strs: StrStructB<4>,
    width: Int64Builder,
    height: Int64Builder,
    display_width: Int64Builder,
    display_height: Int64Builder,
}

impl Default for ImageInfoB {
    fn default() -> Self {
        ImageInfoB {
            strs: StrStructB::new(["url", "title", "link", "description"]),
            width: Int64Builder::new(),
            height: Int64Builder::new(),
            display_width: Int64Builder::new(),
            display_height: Int64Builder::new(),
        }
    }
}

impl Col for ImageInfoB {
    fn finish(&mut self) -> ArrayRef {
        let mut cols: Cols = self
            .strs
            .names
            .iter()
            .zip(self.strs.cols.iter_mut())
            .map(|(n, b)| (*n, Col::finish(b)))
            .collect();
        cols.push(("width", Col::finish(&mut self.width)));
        cols.push(("height", Col::finish(&mut self.height)));
        cols.push(("display_width", Col::finish(&mut self.display_width)));
        cols.push(("display_height", Col::finish(&mut self.display_height)));
        struct_of(cols, self.strs.valid.finish())
    }
}

/// Feed-level `itunes`.
struct ItunesFeedB {
    valid: NullBufferBuilder0,
    explicit: BooleanBuilder,
    kind: StringBuilder,
    categories: ListB<ItunesCategoryB>,
    owner: StrStructB<2>,
    block: BooleanBuilder,
    complete: BooleanBuilder,
    new_feed_url: StringBuilder,
    keywords: ListB<StringBuilder>,
}

#[derive(Default)]
struct ItunesCategoryB {
    text: StringBuilder,
    subcategories: ListB<StringBuilder>,
}

impl Col for ItunesCategoryB {
    fn finish(&mut self) -> ArrayRef {
        let cols = vec![
            ("text", Col::finish(&mut self.text)),
            ("subcategories", self.subcategories.finish()),
        ];
        struct_of(cols, None)
    }
}

impl Default for ItunesFeedB {
    fn default() -> Self {
        ItunesFeedB {
            valid: NullBufferBuilder0::default(),
            explicit: BooleanBuilder::new(),
            kind: StringBuilder::new(),
            categories: ListB::default(),
            owner: StrStructB::new(["name", "email"]),
            block: BooleanBuilder::new(),
            complete: BooleanBuilder::new(),
            new_feed_url: StringBuilder::new(),
            keywords: ListB::default(),
        }
    }
}

impl Col for ItunesFeedB {
    fn finish(&mut self) -> ArrayRef {
        let cols: Cols = vec![
            ("explicit", Arc::new(self.explicit.finish())),
            ("type", Col::finish(&mut self.kind)),
            ("categories", self.categories.finish()),
            ("owner", self.owner.finish()),
            ("block", Arc::new(self.block.finish())),
            ("complete", Arc::new(self.complete.finish())),
            ("new_feed_url", Col::finish(&mut self.new_feed_url)),
            ("keywords", self.keywords.finish()),
        ];
        struct_of(cols, self.valid.finish())
    }
}

/// Feed-level `podcast`.
struct PodcastFeedB {
    valid: NullBufferBuilder0,
    guid: StringBuilder,
    locked_valid: NullBufferBuilder0,
    locked: BooleanBuilder,
    locked_owner: StringBuilder,
    funding: ListB<StrStructB<2>>,
    persons: ListB<PodcastPersonB>,
}

impl Default for PodcastFeedB {
    fn default() -> Self {
        PodcastFeedB {
            valid: NullBufferBuilder0::default(),
            guid: StringBuilder::new(),
            locked_valid: NullBufferBuilder0::default(),
            locked: BooleanBuilder::new(),
            locked_owner: StringBuilder::new(),
            funding: ListB { offsets: vec![0], len: 0, item: StrStructB::new(["url", "message"]) },
            persons: ListB::default(),
        }
    }
}

impl Col for PodcastFeedB {
    fn finish(&mut self) -> ArrayRef {
        let locked = struct_of(
            vec![
                ("locked", Arc::new(self.locked.finish())),
                ("owner", Col::finish(&mut self.locked_owner)),
            ],
            self.locked_valid.finish(),
        );
        let cols: Cols = vec![
            ("guid", Col::finish(&mut self.guid)),
            ("locked", locked),
            ("funding", self.funding.finish()),
            ("persons", self.persons.finish()),
        ];
        struct_of(cols, self.valid.finish())
    }
}

/// Entry-level `itunes`.
#[derive(Default)]
struct ItunesEntryB {
    valid: NullBufferBuilder0,
    explicit: BooleanBuilder,
    episode: Int64Builder,
    season: Int64Builder,
    episode_type: StringBuilder,
    block: BooleanBuilder,
    title: StringBuilder,
    keywords: ListB<StringBuilder>,
}

impl Col for ItunesEntryB {
    fn finish(&mut self) -> ArrayRef {
        let cols: Cols = vec![
            ("explicit", Arc::new(self.explicit.finish())),
            ("episode", Col::finish(&mut self.episode)),
            ("season", Col::finish(&mut self.season)),
            ("episode_type", Col::finish(&mut self.episode_type)),
            ("block", Arc::new(self.block.finish())),
            ("title", Col::finish(&mut self.title)),
            ("keywords", self.keywords.finish()),
        ];
        struct_of(cols, self.valid.finish())
    }
}

/// Entry-level `podcast`.
struct PodcastEntryB {
    valid: NullBufferBuilder0,
    transcripts: ListB<StrStructB<4>>,
    chapters: StrStructB<2>,
    persons: ListB<PodcastPersonB>,
    season_valid: NullBufferBuilder0,
    season_number: Int64Builder,
    season_name: StringBuilder,
    episode: StrStructB<2>,
}

impl Default for PodcastEntryB {
    fn default() -> Self {
        PodcastEntryB {
            valid: NullBufferBuilder0::default(),
            transcripts: ListB {
                offsets: vec![0],
                len: 0,
                item: StrStructB::new(["url", "type", "language", "rel"]),
            },
            chapters: StrStructB::new(["url", "type"]),
            persons: ListB::default(),
            season_valid: NullBufferBuilder0::default(),
            season_number: Int64Builder::new(),
            season_name: StringBuilder::new(),
            episode: StrStructB::new(["number", "display"]),
        }
    }
}

impl Col for PodcastEntryB {
    fn finish(&mut self) -> ArrayRef {
        let season = struct_of(
            vec![
                ("number", Col::finish(&mut self.season_number)),
                ("name", Col::finish(&mut self.season_name)),
            ],
            self.season_valid.finish(),
        );
        let cols: Cols = vec![
            ("transcripts", self.transcripts.finish()),
            ("chapters", self.chapters.finish()),
            ("persons", self.persons.finish()),
            ("season", season),
            ("episode", self.episode.finish()),
        ];
        struct_of(cols, self.valid.finish())
    }
}

/// A nullable person (`web_master`).
#[derive(Default)]
struct OptPersonB {
    valid: NullBufferBuilder0,
    person: PersonB,
}

impl OptPersonB {
    fn append(&mut self, p: Option<&Person<'_>>) {
        self.valid.append(p.is_some());
        self.person.append(p.unwrap_or(&Person::default()));
    }
}

impl Col for OptPersonB {
    fn finish(&mut self) -> ArrayRef {
        let cols = vec![
            ("name", Col::finish(&mut self.person.name)),
            ("email", Col::finish(&mut self.person.email)),
            ("page_url", Col::finish(&mut self.person.page_url)),
            ("icon", self.person.icon.finish()),
        ];
        struct_of(cols, self.valid.finish())
    }
}

/// RSS 2.0 `cloud`.
struct CloudB {
    valid: NullBufferBuilder0,
    domain: StringBuilder,
    port: Int64Builder,
    path: StringBuilder,
    register_procedure: StringBuilder,
    protocol: StringBuilder,
}

impl Default for CloudB {
    fn default() -> Self {
        CloudB {
            valid: NullBufferBuilder0::default(),
            domain: StringBuilder::new(),
            port: Int64Builder::new(),
            path: StringBuilder::new(),
            register_procedure: StringBuilder::new(),
            protocol: StringBuilder::new(),
        }
    }
}

impl Col for CloudB {
    fn finish(&mut self) -> ArrayRef {
        let cols = vec![
            ("domain", Col::finish(&mut self.domain)),
            ("port", Col::finish(&mut self.port)),
            ("path", Col::finish(&mut self.path)),
            ("register_procedure", Col::finish(&mut self.register_procedure)),
            ("protocol", Col::finish(&mut self.protocol)),
        ];
        struct_of(cols, self.valid.finish())
    }
}

/// `sy:*` (`syndication`).
struct SyndicationB {
    valid: NullBufferBuilder0,
    update_period: StringBuilder,
    update_frequency: Int64Builder,
    update_base: TimestampMicrosecondBuilder,
}

impl Default for SyndicationB {
    fn default() -> Self {
        SyndicationB {
            valid: NullBufferBuilder0::default(),
            update_period: StringBuilder::new(),
            update_frequency: Int64Builder::new(),
            update_base: ts_builder(),
        }
    }
}

impl Col for SyndicationB {
    fn finish(&mut self) -> ArrayRef {
        let cols: Cols = vec![
            ("update_period", Col::finish(&mut self.update_period)),
            ("update_frequency", Col::finish(&mut self.update_frequency)),
            ("update_base", Arc::new(self.update_base.finish())),
        ];
        struct_of(cols, self.valid.finish())
    }
}

/// `links` items: `{rel, url, type, title, hreflang, length, count}`.
#[derive(Default)]
struct LinkB {
    rel: StringBuilder,
    url: StringBuilder,
    mime_type: StringBuilder,
    title: StringBuilder,
    hreflang: StringBuilder,
    length: Int64Builder,
    count: Int64Builder,
}

impl Col for LinkB {
    fn finish(&mut self) -> ArrayRef {
        let cols = vec![
            ("rel", Col::finish(&mut self.rel)),
            ("url", Col::finish(&mut self.url)),
            ("type", Col::finish(&mut self.mime_type)),
            ("title", Col::finish(&mut self.title)),
            ("hreflang", Col::finish(&mut self.hreflang)),
            ("length", Col::finish(&mut self.length)),
            ("count", Col::finish(&mut self.count)),
        ];
        struct_of(cols, None)
    }
}

fn links(l: &mut ListB<LinkB>, v: &[Link<'_>]) {
    for k in v {
        let b = l.push();
        str_opt(&mut b.rel, Some(k.rel));
        str_opt(&mut b.url, Some(k.url));
        str_opt(&mut b.mime_type, k.mime_type);
        str_opt(&mut b.title, k.title);
        str_opt(&mut b.hreflang, k.hreflang);
        int_opt(&mut b.length, k.length);
        int_opt(&mut b.count, k.count);
    }
    l.close();
}

/// `media.contents` items.
#[derive(Default)]
struct MediaContentB {
    url: StringBuilder,
    mime_type: StringBuilder,
    medium: StringBuilder,
    width: Int64Builder,
    height: Int64Builder,
    file_size: Int64Builder,
    duration: Int64Builder,
    bitrate: Int64Builder,
    lang: StringBuilder,
    is_default: BooleanBuilder,
    expression: StringBuilder,
    group: Int64Builder,
}

impl Col for MediaContentB {
    fn finish(&mut self) -> ArrayRef {
        let cols: Cols = vec![
            ("url", Col::finish(&mut self.url)),
            ("type", Col::finish(&mut self.mime_type)),
            ("medium", Col::finish(&mut self.medium)),
            ("width", Col::finish(&mut self.width)),
            ("height", Col::finish(&mut self.height)),
            ("file_size", Col::finish(&mut self.file_size)),
            ("duration", Col::finish(&mut self.duration)),
            ("bitrate", Col::finish(&mut self.bitrate)),
            ("lang", Col::finish(&mut self.lang)),
            ("is_default", Arc::new(self.is_default.finish())),
            ("expression", Col::finish(&mut self.expression)),
            ("group", Col::finish(&mut self.group)),
        ];
        struct_of(cols, None)
    }
}

/// Entry-level `media`.
struct MediaB {
    valid: NullBufferBuilder0,
    contents: ListB<MediaContentB>,
    description: StringBuilder,
    credits: ListB<StrStructB<3>>,
    ratings: ListB<StrStructB<2>>,
    player_valid: NullBufferBuilder0,
    player_url: StringBuilder,
    player_width: Int64Builder,
    player_height: Int64Builder,
    keywords: ListB<StringBuilder>,
}

impl Default for MediaB {
    fn default() -> Self {
        MediaB {
            valid: NullBufferBuilder0::default(),
            contents: ListB::default(),
            description: StringBuilder::new(),
            credits: ListB {
                offsets: vec![0],
                len: 0,
                item: StrStructB::new(["name", "role", "scheme"]),
            },
            ratings: ListB { offsets: vec![0], len: 0, item: StrStructB::new(["value", "scheme"]) },
            player_valid: NullBufferBuilder0::default(),
            player_url: StringBuilder::new(),
            player_width: Int64Builder::new(),
            player_height: Int64Builder::new(),
            keywords: ListB::default(),
        }
    }
}

impl MediaB {
    fn append(&mut self, m: Option<&MediaEntry<'_>>) {
        let m = m.filter(|m| !m.is_empty());
        self.valid.append(m.is_some());
        let empty = MediaEntry::default();
        let m = m.unwrap_or(&empty);
        for c in &m.contents {
            let b = self.contents.push();
            str_opt(&mut b.url, c.url);
            str_opt(&mut b.mime_type, c.mime_type);
            str_opt(&mut b.medium, c.medium);
            int_opt(&mut b.width, c.width);
            int_opt(&mut b.height, c.height);
            int_opt(&mut b.file_size, c.file_size);
            int_opt(&mut b.duration, c.duration);
            int_opt(&mut b.bitrate, c.bitrate);
            str_opt(&mut b.lang, c.lang);
            bool_opt(&mut b.is_default, c.is_default);
            str_opt(&mut b.expression, c.expression);
            int_opt(&mut b.group, c.group.map(u64::from));
        }
        self.contents.close();
        str_opt(&mut self.description, m.description);
        for c in &m.credits {
            self.credits.push().append(Some([Some(c.name), c.role, c.scheme]));
        }
        self.credits.close();
        for r in &m.ratings {
            self.ratings.push().append(Some([Some(r.value), r.scheme]));
        }
        self.ratings.close();
        self.player_valid.append(m.player.is_some());
        str_opt(&mut self.player_url, m.player.map(|p| p.url));
        int_opt(&mut self.player_width, m.player.and_then(|p| p.width));
        int_opt(&mut self.player_height, m.player.and_then(|p| p.height));
        self.keywords.strs(m.keywords.iter().copied());
    }
}

impl Col for MediaB {
    fn finish(&mut self) -> ArrayRef {
        let player = struct_of(
            vec![
                ("url", Col::finish(&mut self.player_url)),
                ("width", Col::finish(&mut self.player_width)),
                ("height", Col::finish(&mut self.player_height)),
            ],
            self.player_valid.finish(),
        );
        let cols: Cols = vec![
            ("contents", self.contents.finish()),
            ("description", Col::finish(&mut self.description)),
            ("credits", self.credits.finish()),
            ("ratings", self.ratings.finish()),
            ("player", player),
            ("keywords", self.keywords.finish()),
        ];
        struct_of(cols, self.valid.finish())
    }
}

#[derive(Default)]
struct EnclosureB {
    url: StringBuilder,
    mime_type: StringBuilder,
    length: Int64Builder,
}

impl EnclosureB {
    fn append(&mut self, e: &Enclosure<'_>) {
        str_opt(&mut self.url, e.url);
        str_opt(&mut self.mime_type, e.mime_type);
        int_opt(&mut self.length, e.length);
    }
}

impl Col for EnclosureB {
    fn finish(&mut self) -> ArrayRef {
        let cols = vec![
            ("url", Col::finish(&mut self.url)),
            ("type", Col::finish(&mut self.mime_type)),
            ("length", Col::finish(&mut self.length)),
        ];
        struct_of(cols, None)
    }
}

/// The columns of one entry (the `feed.entries` item struct, or the top-level entry columns
/// of the entry layout), in JSON key order.
struct EntryB {
    valid: NullBufferBuilder0,
    title: TextB,
    subtitle: TextB,
    summary: TextB,
    content: TextB,
    page_url: StringBuilder,
    thumbnail: ImageB,
    duration: Int64Builder,
    published: TimestampMicrosecondBuilder,
    updated: TimestampMicrosecondBuilder,
    authors: ListB<PersonB>,
    categories: ListB<StringBuilder>,
    enclosures: ListB<EnclosureB>,
    // Beyond the spec's model.
    id: StringBuilder,
    id_is_permalink: BooleanBuilder,
    comments: StringBuilder,
    source: StrStructB<2>,
    category_details: ListB<CategoryB>,
    contributors: ListB<PersonB>,
    itunes: ItunesEntryB,
    podcast: PodcastEntryB,
    published_lenient: LenientB,
    updated_lenient: LenientB,
    comment_count: Int64Builder,
    comment_feed_url: StringBuilder,
    thread_total: Int64Builder,
    in_reply_to: ListB<StrStructB<4>>,
    topics: ListB<StringBuilder>,
    links: ListB<LinkB>,
    media: MediaB,
    // The spec's computed values.
    computed_authors: ListB<PersonB>,
    computed_updated: TimestampMicrosecondBuilder,
    // Extraction.
    title_text: StringBuilder,
    subtitle_text: StringBuilder,
    summary_text: StringBuilder,
    content_text: StringBuilder,
    body_source: StringBuilder,
    body_text: StringBuilder,
    word_count: Int64Builder,
    canonical_url: StringBuilder,
    dedup_key: StringBuilder,
    dedup_source: StringBuilder,
}

impl Default for EntryB {
    fn default() -> Self {
        EntryB {
            valid: NullBufferBuilder0::default(),
            title: TextB::default(),
            subtitle: TextB::default(),
            summary: TextB::default(),
            content: TextB::default(),
            page_url: StringBuilder::new(),
            thumbnail: ImageB::default(),
            duration: Int64Builder::new(),
            published: ts_builder(),
            updated: ts_builder(),
            authors: ListB::default(),
            categories: ListB::default(),
            enclosures: ListB::default(),
            id: StringBuilder::new(),
            id_is_permalink: BooleanBuilder::new(),
            comments: StringBuilder::new(),
            source: StrStructB::new(["title", "url"]),
            category_details: ListB::default(),
            contributors: ListB::default(),
            itunes: ItunesEntryB::default(),
            podcast: PodcastEntryB::default(),
            published_lenient: LenientB::default(),
            updated_lenient: LenientB::default(),
            comment_count: Int64Builder::new(),
            comment_feed_url: StringBuilder::new(),
            thread_total: Int64Builder::new(),
            in_reply_to: ListB {
                offsets: vec![0],
                len: 0,
                item: StrStructB::new(["id", "url", "type", "source"]),
            },
            topics: ListB::default(),
            links: ListB::default(),
            media: MediaB::default(),
            computed_authors: ListB::default(),
            computed_updated: ts_builder(),
            title_text: StringBuilder::new(),
            subtitle_text: StringBuilder::new(),
            summary_text: StringBuilder::new(),
            content_text: StringBuilder::new(),
            body_source: StringBuilder::new(),
            body_text: StringBuilder::new(),
            word_count: Int64Builder::new(),
            canonical_url: StringBuilder::new(),
            dedup_key: StringBuilder::new(),
            dedup_source: StringBuilder::new(),
        }
    }
}

impl EntryB {
    /// Appends `e` (or, when `None`, a null entry: every column null, lists empty).
    fn append(
        &mut self,
        e: Option<&Entry<'_>>,
        feed: Option<&Feed<'_>>,
        x: Option<&EntryExtraction<'_>>,
        cx: &mut Cx<'_>,
    ) {
        self.valid.append(e.is_some());
        let empty = Entry::default();
        let e = e.unwrap_or(&empty);
        self.title.append(e.title.as_ref(), cx);
        self.subtitle.append(e.subtitle.as_ref(), cx);
        self.summary.append(e.summary.as_ref(), cx);
        self.content.append(e.content.as_ref(), cx);
        str_opt(&mut self.page_url, e.page_url);
        self.thumbnail.append(e.thumbnail.as_ref());
        int_opt(&mut self.duration, e.duration);
        ts_opt(&mut self.published, e.published);
        ts_opt(&mut self.updated, e.updated);
        persons(&mut self.authors, &e.authors);
        self.categories.strs(e.categories.iter().copied().filter(|c| !c.is_empty()));
        for enc in &e.enclosures {
            self.enclosures.push().append(enc);
        }
        self.enclosures.close();
        self.append_ext(&e.ext);
        // The spec's computed values (entry, else feed), without the "now" fallback.
        let no_feed = Feed::default();
        let f = feed.unwrap_or(&no_feed);
        persons(&mut self.computed_authors, f.computed_authors(e));
        ts_opt(&mut self.computed_updated, f.computed_updated_opt(e));
        self.append_extraction(x);
    }

    fn append_ext(&mut self, x: &EntryExt<'_>) {
        str_opt(&mut self.id, x.id);
        bool_opt(&mut self.id_is_permalink, x.id_is_permalink);
        str_opt(&mut self.comments, x.comments);
        self.source.append(x.source.map(|s| [s.title, s.url]));
        categories(&mut self.category_details, &x.categories);
        persons(&mut self.contributors, &x.contributors);

        let it = &x.itunes;
        let i = &mut self.itunes;
        i.valid.append(!it.is_empty());
        bool_opt(&mut i.explicit, it.explicit);
        int_opt(&mut i.episode, it.episode);
        int_opt(&mut i.season, it.season);
        str_opt(&mut i.episode_type, it.episode_type);
        bool_opt(&mut i.block, it.block);
        str_opt(&mut i.title, it.title);
        i.keywords.strs(it.keywords.iter().copied());

        let pc = x.podcast.as_deref().filter(|p| !p.is_empty());
        let p = &mut self.podcast;
        p.valid.append(pc.is_some());
        let empty = Default::default();
        let pc = pc.unwrap_or(&empty);
        for t in &pc.transcripts {
            p.transcripts.push().append(Some([Some(t.url), t.mime_type, t.language, t.rel]));
        }
        p.transcripts.close();
        p.chapters.append(pc.chapters.map(|c| [Some(c.url), c.mime_type]));
        podcast_persons(&mut p.persons, &pc.persons);
        p.season_valid.append(pc.season.is_some());
        int_opt(&mut p.season_number, pc.season.map(|s| s.number));
        str_opt(&mut p.season_name, pc.season.and_then(|s| s.name));
        p.episode.append(pc.episode.map(|e| [Some(e.number), e.display]));

        self.published_lenient.append(x.published_lenient);
        self.updated_lenient.append(x.updated_lenient);
        int_opt(&mut self.comment_count, x.comment_count);
        str_opt(&mut self.comment_feed_url, x.comment_feed_url);
        int_opt(&mut self.thread_total, x.thread_total);
        for t in &x.in_reply_to {
            self.in_reply_to.push().append(Some([Some(t.id), t.url, t.mime_type, t.source]));
        }
        self.in_reply_to.close();
        self.topics.strs(x.topics.iter().copied());
        links(&mut self.links, &x.links);
        self.media.append(x.media.as_deref());
    }

    fn append_extraction(&mut self, x: Option<&EntryExtraction<'_>>) {
        str_opt(&mut self.title_text, x.and_then(|x| x.title_text));
        str_opt(&mut self.subtitle_text, x.and_then(|x| x.subtitle_text));
        str_opt(&mut self.summary_text, x.and_then(|x| x.summary_text));
        str_opt(&mut self.content_text, x.and_then(|x| x.content_text));
        str_opt(&mut self.body_source, x.and_then(|x| x.body_source).map(|s| s.as_str()));
        str_opt(&mut self.body_text, x.and_then(|x| x.body_text));
        int_opt(&mut self.word_count, x.map(|x| x.word_count.into()));
        str_opt(&mut self.canonical_url, x.and_then(|x| x.canonical_url));
        str_opt(&mut self.dedup_key, x.and_then(|x| x.dedup_key));
        str_opt(&mut self.dedup_source, x.and_then(|x| x.dedup_source).map(|s| s.as_str()));
    }

    /// The entry's columns, in JSON key order.
    fn finish_cols(&mut self) -> Cols {
        let mut c: Cols = Vec::with_capacity(48);
        self.title.finish_into(&mut c, "title", "title_type");
        self.subtitle.finish_into(&mut c, "subtitle", "subtitle_type");
        self.summary.finish_into(&mut c, "summary", "summary_type");
        self.content.finish_into(&mut c, "content", "content_type");
        c.push(("page_url", Col::finish(&mut self.page_url)));
        c.push(("thumbnail", self.thumbnail.finish()));
        c.push(("duration", Col::finish(&mut self.duration)));
        c.push(("published", Arc::new(self.published.finish())));
        c.push(("updated", Arc::new(self.updated.finish())));
        c.push(("authors", self.authors.finish()));
        c.push(("categories", self.categories.finish()));
        c.push(("enclosures", self.enclosures.finish()));
        c.push(("id", Col::finish(&mut self.id)));
        c.push(("id_is_permalink", Arc::new(self.id_is_permalink.finish())));
        c.push(("comments", Col::finish(&mut self.comments)));
        c.push(("source", self.source.finish()));
        c.push(("category_details", self.category_details.finish()));
        c.push(("contributors", self.contributors.finish()));
        c.push(("itunes", self.itunes.finish()));
        c.push(("podcast", self.podcast.finish()));
        c.push(("published_lenient", self.published_lenient.finish()));
        c.push(("updated_lenient", self.updated_lenient.finish()));
        c.push(("comment_count", Col::finish(&mut self.comment_count)));
        c.push(("comment_feed_url", Col::finish(&mut self.comment_feed_url)));
        c.push(("thread_total", Col::finish(&mut self.thread_total)));
        c.push(("in_reply_to", self.in_reply_to.finish()));
        c.push(("topics", self.topics.finish()));
        c.push(("links", self.links.finish()));
        c.push(("media", self.media.finish()));
        c.push(("computed_authors", self.computed_authors.finish()));
        c.push(("computed_updated", Arc::new(self.computed_updated.finish())));
        c.push(("title_text", Col::finish(&mut self.title_text)));
        c.push(("subtitle_text", Col::finish(&mut self.subtitle_text)));
        c.push(("summary_text", Col::finish(&mut self.summary_text)));
        c.push(("content_text", Col::finish(&mut self.content_text)));
        c.push(("body_source", Col::finish(&mut self.body_source)));
        c.push(("body_text", Col::finish(&mut self.body_text)));
        c.push(("word_count", Col::finish(&mut self.word_count)));
        c.push(("canonical_url", Col::finish(&mut self.canonical_url)));
        c.push(("dedup_key", Col::finish(&mut self.dedup_key)));
        c.push(("dedup_source", Col::finish(&mut self.dedup_source)));
        c
    }
}

impl Col for EntryB {
    fn finish(&mut self) -> ArrayRef {
        let cols = self.finish_cols();
        struct_of(cols, self.valid.finish())
    }
}

/// The `feed` struct column.
struct FeedB {
    valid: NullBufferBuilder0,
    title: TextB,
    subtitle: TextB,
    description: TextB,
    page_url: StringBuilder,
    feed_url: StringBuilder,
    prev_feed_url: StringBuilder,
    next_feed_url: StringBuilder,
    icon: ImageB,
    logo: ImageB,
    updated: TimestampMicrosecondBuilder,
    authors: ListB<PersonB>,
    // Beyond the spec's model.
    id: StringBuilder,
    language: StringBuilder,
    generator: StrStructB<3>,
    rights: StringBuilder,
    ttl: Int64Builder,
    skip_hours: ListB<Int64Builder>,
    skip_days: ListB<StringBuilder>,
    image: ImageInfoB,
    category_details: ListB<CategoryB>,
    contributors: ListB<PersonB>,
    itunes: ItunesFeedB,
    podcast: PodcastFeedB,
    updated_lenient: LenientB,
    version: StringBuilder,
    pub_date: TimestampMicrosecondBuilder,
    last_build_date: TimestampMicrosecondBuilder,
    updated_from: StringBuilder,
    web_master: OptPersonB,
    docs: StringBuilder,
    cloud: CloudB,
    rating: StringBuilder,
    text_input: StrStructB<4>,
    syndication: SyndicationB,
    topics: ListB<StringBuilder>,
    links: ListB<LinkB>,
    // Extraction.
    title_text: StringBuilder,
    subtitle_text: StringBuilder,
    description_text: StringBuilder,
    canonical_url: StringBuilder,
    entries: ListB<EntryB>,
}

impl Default for FeedB {
    fn default() -> Self {
        FeedB {
            valid: NullBufferBuilder0::default(),
            title: TextB::default(),
            subtitle: TextB::default(),
            description: TextB::default(),
            page_url: StringBuilder::new(),
            feed_url: StringBuilder::new(),
            prev_feed_url: StringBuilder::new(),
            next_feed_url: StringBuilder::new(),
            icon: ImageB::default(),
            logo: ImageB::default(),
            updated: ts_builder(),
            authors: ListB::default(),
            id: StringBuilder::new(),
            language: StringBuilder::new(),
            generator: StrStructB::new(["name", "uri", "version"]),
            rights: StringBuilder::new(),
            ttl: Int64Builder::new(),
            skip_hours: ListB::default(),
            skip_days: ListB::default(),
            image: ImageInfoB::default(),
            category_details: ListB::default(),
            contributors: ListB::default(),
            itunes: ItunesFeedB::default(),
            podcast: PodcastFeedB::default(),
            updated_lenient: LenientB::default(),
            version: StringBuilder::new(),
            pub_date: ts_builder(),
            last_build_date: ts_builder(),
            updated_from: StringBuilder::new(),
            web_master: OptPersonB::default(),
            docs: StringBuilder::new(),
            cloud: CloudB::default(),
            rating: StringBuilder::new(),
            text_input: StrStructB::new(["title", "description", "name", "link"]),
            syndication: SyndicationB::default(),
            topics: ListB::default(),
            links: ListB::default(),
            title_text: StringBuilder::new(),
            subtitle_text: StringBuilder::new(),
            description_text: StringBuilder::new(),
            canonical_url: StringBuilder::new(),
            entries: ListB::default(),
        }
    }
}

impl FeedB {
    fn append(&mut self, f: Option<&Feed<'_>>, x: Option<&FeedExtraction<'_>>, cx: &mut Cx<'_>) {
        self.valid.append(f.is_some());
        let empty = Feed::default();
        let f = f.unwrap_or(&empty);
        self.title.append(f.title.as_ref(), cx);
        self.subtitle.append(f.subtitle.as_ref(), cx);
        self.description.append(f.description.as_ref(), cx);
        str_opt(&mut self.page_url, f.page_url);
        str_opt(&mut self.feed_url, f.feed_url);
        str_opt(&mut self.prev_feed_url, f.prev_feed_url);
        str_opt(&mut self.next_feed_url, f.next_feed_url);
        self.icon.append(f.icon.as_ref());
        self.logo.append(f.logo.as_ref());
        ts_opt(&mut self.updated, f.updated);
        persons(&mut self.authors, &f.authors);
        self.append_ext(&f.ext);
        str_opt(&mut self.title_text, x.and_then(|x| x.title_text));
        str_opt(&mut self.subtitle_text, x.and_then(|x| x.subtitle_text));
        str_opt(&mut self.description_text, x.and_then(|x| x.description_text));
        str_opt(&mut self.canonical_url, x.and_then(|x| x.canonical_url));
        for (i, e) in f.entries.iter().enumerate() {
            let ex = x.and_then(|x| x.entries.get(i));
            self.entries.push().append(Some(e), Some(f), ex, cx);
        }
        self.entries.close();
    }

    fn append_ext(&mut self, x: &FeedExt<'_>) {
        str_opt(&mut self.id, x.id);
        str_opt(&mut self.language, x.language);
        self.generator.append(x.generator.map(|g| [g.name, g.uri, g.version]));
        str_opt(&mut self.rights, x.rights);
        int_opt(&mut self.ttl, x.ttl);
        for h in &x.skip_hours {
            self.skip_hours.push().append_value(i64::from(*h));
        }
        self.skip_hours.close();
        self.skip_days.strs(x.skip_days.iter().copied());
        let img = x.image;
        self.image.strs.append(img.map(|i| [i.url, i.title, i.link, i.description]));
        int_opt(&mut self.image.width, img.and_then(|i| i.width));
        int_opt(&mut self.image.height, img.and_then(|i| i.height));
        int_opt(&mut self.image.display_width, img.and_then(|i| i.display_width));
        int_opt(&mut self.image.display_height, img.and_then(|i| i.display_height));
        categories(&mut self.category_details, &x.categories);
        persons(&mut self.contributors, &x.contributors);

        let it = &x.itunes;
        let i = &mut self.itunes;
        i.valid.append(!it.is_empty());
        bool_opt(&mut i.explicit, it.explicit);
        str_opt(&mut i.kind, it.kind);
        for c in &it.categories {
            let b = i.categories.push();
            str_opt(&mut b.text, Some(c.text));
            b.subcategories.strs(c.subcategories.iter().copied());
        }
        i.categories.close();
        i.owner.append(it.owner.map(|o| [o.name, o.email]));
        bool_opt(&mut i.block, it.block);
        bool_opt(&mut i.complete, it.complete);
        str_opt(&mut i.new_feed_url, it.new_feed_url);
        i.keywords.strs(it.keywords.iter().copied());

        let pc = &x.podcast;
        let p = &mut self.podcast;
        p.valid.append(!pc.is_empty());
        str_opt(&mut p.guid, pc.guid);
        p.locked_valid.append(pc.locked.is_some());
        bool_opt(&mut p.locked, pc.locked.map(|l| l.locked));
        str_opt(&mut p.locked_owner, pc.locked.and_then(|l| l.owner));
        for f in &pc.funding {
            p.funding.push().append(Some([Some(f.url), f.message]));
        }
        p.funding.close();
        podcast_persons(&mut p.persons, &pc.persons);

        self.updated_lenient.append(x.updated_lenient);
        str_opt(&mut self.version, x.version);
        ts_opt(&mut self.pub_date, x.pub_date);
        ts_opt(&mut self.last_build_date, x.last_build_date);
        str_opt(&mut self.updated_from, x.updated_from);
        self.web_master.append(x.web_master.as_ref());
        str_opt(&mut self.docs, x.docs);
        let c = &mut self.cloud;
        c.valid.append(x.cloud.is_some());
        str_opt(&mut c.domain, x.cloud.and_then(|c| c.domain));
        int_opt(&mut c.port, x.cloud.and_then(|c| c.port));
        str_opt(&mut c.path, x.cloud.and_then(|c| c.path));
        str_opt(&mut c.register_procedure, x.cloud.and_then(|c| c.register_procedure));
        str_opt(&mut c.protocol, x.cloud.and_then(|c| c.protocol));
        str_opt(&mut self.rating, x.rating);
        self.text_input.append(x.text_input.map(|t| [t.title, t.description, t.name, t.link]));
        let s = &mut self.syndication;
        s.valid.append(x.syndication.is_some());
        str_opt(&mut s.update_period, x.syndication.and_then(|s| s.update_period));
        int_opt(&mut s.update_frequency, x.syndication.and_then(|s| s.update_frequency));
        ts_opt(&mut s.update_base, x.syndication.and_then(|s| s.update_base));
        self.topics.strs(x.topics.iter().copied());
        links(&mut self.links, &x.links);
    }
}

impl Col for FeedB {
    fn finish(&mut self) -> ArrayRef {
        let mut c: Cols = Vec::with_capacity(40);
        self.title.finish_into(&mut c, "title", "title_type");
        self.subtitle.finish_into(&mut c, "subtitle", "subtitle_type");
        self.description.finish_into(&mut c, "description", "description_type");
        c.push(("page_url", Col::finish(&mut self.page_url)));
        c.push(("feed_url", Col::finish(&mut self.feed_url)));
        c.push(("prev_feed_url", Col::finish(&mut self.prev_feed_url)));
        c.push(("next_feed_url", Col::finish(&mut self.next_feed_url)));
        c.push(("icon", self.icon.finish()));
        c.push(("logo", self.logo.finish()));
        c.push(("updated", Arc::new(self.updated.finish())));
        c.push(("authors", self.authors.finish()));
        c.push(("id", Col::finish(&mut self.id)));
        c.push(("language", Col::finish(&mut self.language)));
        c.push(("generator", self.generator.finish()));
        c.push(("rights", Col::finish(&mut self.rights)));
        c.push(("ttl", Col::finish(&mut self.ttl)));
        c.push(("skip_hours", self.skip_hours.finish()));
        c.push(("skip_days", self.skip_days.finish()));
        c.push(("image", self.image.finish()));
        c.push(("category_details", self.category_details.finish()));
        c.push(("contributors", self.contributors.finish()));
        c.push(("itunes", self.itunes.finish()));
        c.push(("podcast", self.podcast.finish()));
        c.push(("updated_lenient", self.updated_lenient.finish()));
        c.push(("version", Col::finish(&mut self.version)));
        c.push(("pub_date", Arc::new(self.pub_date.finish())));
        c.push(("last_build_date", Arc::new(self.last_build_date.finish())));
        c.push(("updated_from", Col::finish(&mut self.updated_from)));
        c.push(("web_master", self.web_master.finish()));
        c.push(("docs", Col::finish(&mut self.docs)));
        c.push(("cloud", self.cloud.finish()));
        c.push(("rating", Col::finish(&mut self.rating)));
        c.push(("text_input", self.text_input.finish()));
        c.push(("syndication", self.syndication.finish()));
        c.push(("topics", self.topics.finish()));
        c.push(("links", self.links.finish()));
        c.push(("title_text", Col::finish(&mut self.title_text)));
        c.push(("subtitle_text", Col::finish(&mut self.subtitle_text)));
        c.push(("description_text", Col::finish(&mut self.description_text)));
        c.push(("canonical_url", Col::finish(&mut self.canonical_url)));
        c.push(("entries", self.entries.finish()));
        struct_of(c, self.valid.finish())
    }
}

/// `source`, `status`, `error`, `format`, `encoding`: the record's own columns.
#[derive(Default)]
struct HeadB {
    source: StringBuilder,
    status: StringBuilder,
    error: StrStructB2,
    format: StringBuilder,
    encoding: StringBuilder,
}

/// `error {kind, message}` (a named wrapper so `HeadB` can derive `Default`).
struct StrStructB2(StrStructB<2>);

impl Default for StrStructB2 {
    fn default() -> Self {
        StrStructB2(StrStructB::new(["kind", "message"]))
    }
}

impl HeadB {
    fn append(&mut self, rec: &RecordView<'_, '_>) {
        self.source.append_value(rec.source);
        self.status.append_value(rec.status.as_str());
        self.error.0.append(rec.error.map(|p| [Some(p.kind), Some(p.message)]));
        str_opt(&mut self.format, rec.format.map(|f| f.as_str()));
        str_opt(&mut self.encoding, rec.encoding);
    }

    fn finish_into(&mut self, c: &mut Cols) {
        c.push(("source", Col::finish(&mut self.source)));
        c.push(("status", Col::finish(&mut self.status)));
        c.push(("error", self.error.0.finish()));
        c.push(("format", Col::finish(&mut self.format)));
        c.push(("encoding", Col::finish(&mut self.encoding)));
    }
}

#[derive(Default)]
struct DiagnosticB {
    kind: StringBuilder,
    offset: Int64Builder,
    message: StringBuilder,
}

impl DiagnosticB {
    fn append(&mut self, d: &Diagnostic) {
        self.kind.append_value(d.kind.as_str());
        int_opt(&mut self.offset, Some(d.offset as u64));
        self.message.append_value(&d.message);
    }
}

impl Col for DiagnosticB {
    fn finish(&mut self) -> ArrayRef {
        let cols = vec![
            ("kind", Col::finish(&mut self.kind)),
            ("offset", Col::finish(&mut self.offset)),
            ("message", Col::finish(&mut self.message)),
        ];
        struct_of(cols, None)
    }
}

/// A lint finding (`--lint`): the JSON `findings` element, key for key
/// (`crate::lint::write_findings_json`); a parameter that does not apply is null.
#[derive(Default)]
struct FindingB {
    code: StringBuilder,
    severity: StringBuilder,
    message: StringBuilder,
    params: [StringBuilder; FINDING_PARAMS.len()],
    offset: Int64Builder,
    line: Int64Builder,
    column: Int64Builder,
    section: StringBuilder,
}

/// The parameters a finding may have, in the JSON's order. The `message` parameter of
/// `NotHtml` and `RSS20Profile` is not one: their filled `message` is that parameter.
const FINDING_PARAMS: [&str; 8] =
    ["element", "parent", "attr", "value", "core", "ext", "uri", "curi"];

impl FindingB {
    fn append(&mut self, f: &crate::lint::Finding) {
        self.code.append_value(f.code.name());
        self.severity.append_value(f.severity().as_str());
        self.message.append_value(f.message());
        for (b, name) in self.params.iter_mut().zip(FINDING_PARAMS) {
            b.append_option(f.param(name));
        }
        int_opt(&mut self.offset, Some(f.offset as u64));
        int_opt(&mut self.line, Some(u64::from(f.line)));
        int_opt(&mut self.column, Some(u64::from(f.column)));
        str_opt(&mut self.section, Some(f.section));
    }
}

impl Col for FindingB {
    fn finish(&mut self) -> ArrayRef {
        let mut cols = vec![
            ("code", Col::finish(&mut self.code)),
            ("severity", Col::finish(&mut self.severity)),
            ("message", Col::finish(&mut self.message)),
        ];
        for (b, name) in self.params.iter_mut().zip(FINDING_PARAMS) {
            cols.push((name, Col::finish(b)));
        }
        cols.push(("offset", Col::finish(&mut self.offset)));
        cols.push(("line", Col::finish(&mut self.line)));
        cols.push(("column", Col::finish(&mut self.column)));
        cols.push(("section", Col::finish(&mut self.section)));
        struct_of(cols, None)
    }
}

/// `Layout::Records`: head, diagnostics, feed, lint findings.
#[derive(Default)]
struct RecordCols {
    head: HeadB,
    diagnostics: ListB<DiagnosticB>,
    feed: FeedB,
    findings: ListB<FindingB>,
}

impl RecordCols {
    fn append(&mut self, rec: &RecordView<'_, '_>, cx: &mut Cx<'_>) {
        self.head.append(rec);
        for d in rec.diagnostics {
            self.diagnostics.push().append(d);
        }
        self.diagnostics.close();
        self.feed.append(rec.feed, rec.extraction, cx);
        for f in rec.lint.map_or(&[][..], |r| &r.findings[..]) {
            self.findings.push().append(f);
        }
        self.findings.close();
    }

    fn finish(&mut self) -> Cols {
        let mut c = Vec::with_capacity(8);
        self.head.finish_into(&mut c);
        c.push(("diagnostics", self.diagnostics.finish()));
        c.push(("feed", self.feed.finish()));
        c.push(("findings", self.findings.finish()));
        c
    }
}

/// `Layout::Entries`: head, the feed's key columns, `entry_index`, the entry's columns.
struct EntryRowCols {
    head: HeadB,
    feed_title: TextB,
    feed_page_url: StringBuilder,
    feed_url: StringBuilder,
    feed_id: StringBuilder,
    feed_language: StringBuilder,
    feed_updated: TimestampMicrosecondBuilder,
    feed_canonical_url: StringBuilder,
    entry_index: Int64Builder,
    entry: EntryB,
}

impl Default for EntryRowCols {
    fn default() -> Self {
        EntryRowCols {
            head: HeadB::default(),
            feed_title: TextB::default(),
            feed_page_url: StringBuilder::new(),
            feed_url: StringBuilder::new(),
            feed_id: StringBuilder::new(),
            feed_language: StringBuilder::new(),
            feed_updated: ts_builder(),
            feed_canonical_url: StringBuilder::new(),
            entry_index: Int64Builder::new(),
            entry: EntryB::default(),
        }
    }
}

impl EntryRowCols {
    fn append(&mut self, rec: &RecordView<'_, '_>, cx: &mut Cx<'_>) {
        let entries = rec.feed.map_or(&[][..], |f| &f.entries[..]);
        let rows = entries.len().max(1);
        for i in 0..rows {
            self.head.append(rec);
            let f = rec.feed;
            self.feed_title.append(f.and_then(|f| f.title.as_ref()), cx);
            str_opt(&mut self.feed_page_url, f.and_then(|f| f.page_url));
            str_opt(&mut self.feed_url, f.and_then(|f| f.feed_url));
            str_opt(&mut self.feed_id, f.and_then(|f| f.ext.id));
            str_opt(&mut self.feed_language, f.and_then(|f| f.ext.language));
            ts_opt(&mut self.feed_updated, f.and_then(|f| f.updated));
            str_opt(&mut self.feed_canonical_url, rec.extraction.and_then(|x| x.canonical_url));
            let e = entries.get(i);
            self.entry_index.append_option(e.map(|_| i as i64));
            let x = rec.extraction.and_then(|x| x.entries.get(i));
            self.entry.append(e, rec.feed, x, cx);
        }
    }

    fn finish(&mut self) -> Cols {
        let mut c = Vec::with_capacity(64);
        self.head.finish_into(&mut c);
        self.feed_title.finish_into(&mut c, "feed_title", "feed_title_type");
        c.push(("feed_page_url", Col::finish(&mut self.feed_page_url)));
        c.push(("feed_url", Col::finish(&mut self.feed_url)));
        c.push(("feed_id", Col::finish(&mut self.feed_id)));
        c.push(("feed_language", Col::finish(&mut self.feed_language)));
        c.push(("feed_updated", Arc::new(self.feed_updated.finish())));
        c.push(("feed_canonical_url", Col::finish(&mut self.feed_canonical_url)));
        c.push(("entry_index", Col::finish(&mut self.entry_index)));
        // The entry struct's validity is implied by `entry_index`.
        let _ = self.entry.valid.finish();
        // The entry's `source` (RSS/Atom `source` element) would collide with the record's.
        let entry = self.entry.finish_cols().into_iter();
        c.extend(entry.map(|(n, a)| (if n == "source" { "entry_source" } else { n }, a)));
        c
    }
}

/// Writes the schema of `layout` as an indented tree (`name: type`), one column per line;
/// used to document the schema (README) and to pin it in tests.
pub fn describe(layout: Layout) -> String {
    fn walk(out: &mut String, f: &Field, depth: usize) {
        use arrow_schema::DataType as D;
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

/// The bulk pipeline's batch for Arrow output ([`crate::bulk::run_with`]): the
/// [`ArrowStep`] appends each record on the worker thread and finishes the Arrow
/// [`RecordBatch`] there at the end of the batch; the consumer, in input order, takes
/// [`ArrowBatch::take`] and writes it (e.g. to a [`parquet::ParquetSink`]).
#[cfg(feature = "bulk")]
#[derive(Default)]
pub struct ArrowBatch {
    builder: Option<RecordBatchBuilder>,
    done: Option<RecordBatch>,
}

#[cfg(feature = "bulk")]
impl ArrowBatch {
    /// The finished batch of this group of records (`None` once taken, or when empty).
    pub fn take(&mut self) -> Option<RecordBatch> {
        self.done.take()
    }
}

#[cfg(feature = "bulk")]
impl crate::bulk::pipeline::Batch for ArrowBatch {
    fn clear(&mut self) {
        self.builder = None;
        self.done = None;
    }
    fn held_bytes(&self) -> usize {
        self.done.as_ref().map_or(0, RecordBatch::get_array_memory_size)
    }
}

/// The per-worker step for [`ArrowBatch`]es in `layout`.
#[cfg(feature = "bulk")]
#[derive(Clone, Copy, Debug)]
pub struct ArrowStep {
    /// Rows per record or per entry.
    pub layout: Layout,
}

#[cfg(feature = "bulk")]
impl crate::bulk::pipeline::Step<ArrowBatch> for ArrowStep {
    fn record(&mut self, rec: &RecordView<'_, '_>, batch: &mut ArrowBatch) {
        batch.builder.get_or_insert_with(|| RecordBatchBuilder::new(self.layout)).append(rec);
    }
    fn end_batch(&mut self, batch: &mut ArrowBatch) {
        batch.done = batch.builder.take().map(|mut b| b.finish());
    }
}
