//! The record's schema for people and for Python, made from the walk: the key tables of
//! docs/record.md ([`json_key_tables`]) and the `TypedDict`s of the Python package
//! ([`python_typed_dicts`]). Both are pinned by tests that regenerate them and compare, so
//! neither can drift from the writers.

use std::borrow::Borrow;
use std::fmt::Write as _;

use super::{Key, RecordView, Shape, Visit, Walk};
use crate::model::Text;
use crate::Timestamp;

/// How a key's value is written.
enum Kind {
    Str,
    Url,
    Uint,
    Num,
    Bool,
    Date,
    Text,
    Strs,
    Uints,
    Object(&'static str),
    List(&'static str),
}

/// One object shape: its name and keys, in order.
struct ShapeDoc {
    name: &'static str,
    keys: Vec<(Key, Kind)>,
}

/// Collects the shapes of a walk (each named shape once, in order of first use).
#[derive(Default)]
struct Shapes {
    done: Vec<ShapeDoc>,
    /// The shape being collected (the innermost on top).
    open: Vec<ShapeDoc>,
}

impl Shapes {
    fn push(&mut self, k: Key, kind: Kind) {
        self.open.last_mut().expect("a shape is open").keys.push((k, kind));
    }

    fn collect<T: Walk>(&mut self, v: &T) {
        if self.open.iter().chain(&self.done).any(|s| s.name == T::NAME) {
            return;
        }
        self.open.push(ShapeDoc { name: T::NAME, keys: Vec::new() });
        v.walk(self);
        let shape = self.open.pop().expect("pushed above");
        self.done.push(shape);
    }

    fn of<T: Walk>(v: &T) -> Vec<ShapeDoc> {
        let mut s = Shapes::default();
        s.collect(v);
        // `collect` finished each shape after the shapes it uses: the record first reads
        // better, so list them in order of first use.
        let mut order = vec![T::NAME];
        let mut i = 0;
        while i < order.len() {
            let shape = s.done.iter().find(|d| d.name == order[i]).expect("collected");
            for (_, kind) in &shape.keys {
                if let Kind::Object(n) | Kind::List(n) = kind {
                    if !order.contains(n) {
                        order.push(n);
                    }
                }
            }
            i += 1;
        }
        order
            .into_iter()
            .map(|n| {
                let at = s.done.iter().position(|d| d.name == n).expect("collected");
                s.done.swap_remove(at)
            })
            .collect()
    }
}

impl Visit for Shapes {
    fn str(&mut self, k: Key, _: Option<&str>) {
        self.push(k, Kind::Str);
    }
    fn url(&mut self, k: Key, _: Option<&str>) {
        self.push(k, Kind::Url);
    }
    fn uint(&mut self, k: Key, _: Option<u64>) {
        self.push(k, Kind::Uint);
    }
    fn num(&mut self, k: Key, _: Option<f64>) {
        self.push(k, Kind::Num);
    }
    fn bool(&mut self, k: Key, _: Option<bool>) {
        self.push(k, Kind::Bool);
    }
    fn date(&mut self, k: Key, _: Option<Timestamp>, _: Option<&str>) {
        self.push(k, Kind::Date);
    }
    fn text(&mut self, k: Key, _: Option<&Text<'_>>) {
        self.push(k, Kind::Text);
    }
    fn strs(&mut self, k: Key, _: &[&str]) {
        self.push(k, Kind::Strs);
    }
    fn uints<N: Copy + Into<u64>>(&mut self, k: Key, _: &[N]) {
        self.push(k, Kind::Uints);
    }
    fn object<T: Walk + Shape>(&mut self, k: Key, _: Option<&T>) {
        self.push(k, Kind::Object(T::NAME));
        self.collect(&T::shape());
    }
    fn list_with<T: Walk + Shape, R: Borrow<T>>(
        &mut self,
        k: Key,
        _: usize,
        _: impl FnMut(usize) -> R,
    ) {
        self.push(k, Kind::List(T::NAME));
        self.collect(&T::shape());
    }
    fn flatten<T: Walk>(&mut self, _: &'static str, v: &T) {
        v.walk(self);
    }
}

/// The key tables of a JSON Lines record, one per object shape (the record first), as
/// Markdown: `| key | type | value |`. A text value's `<name>_type` key and a date's
/// `<name>_offset` and `<name>_raw` keys are implied.
pub fn json_key_tables() -> String {
    let mut out = String::new();
    for shape in Shapes::of(&RecordView::default()) {
        let _ = writeln!(out, "#### `{}`\n", shape.name);
        out.push_str("| key | type | value |\n|---|---|---|\n");
        for (k, kind) in &shape.keys {
            let ty = match kind {
                Kind::Str => "string".to_owned(),
                Kind::Url => "url".to_owned(),
                Kind::Uint => "integer".to_owned(),
                Kind::Num => "number".to_owned(),
                Kind::Bool => "boolean".to_owned(),
                Kind::Date => "date".to_owned(),
                Kind::Text => "text".to_owned(),
                Kind::Strs => "[string]".to_owned(),
                Kind::Uints => "[integer]".to_owned(),
                Kind::Object(n) => format!("[`{n}`](#{n})"),
                Kind::List(n) => format!("[[`{n}`](#{n})]"),
            };
            // A `|` in a value's doc would end its table cell.
            let _ = writeln!(out, "| `{}` | {ty} | {} |", k.name, k.doc.replace('|', "\\|"));
        }
        out.push('\n');
    }
    out
}

/// The Python class name of a shape: `podcast_person` → `PodcastPerson`.
fn class_name(shape: &str) -> String {
    shape
        .split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next().map_or(String::new(), |f| f.to_ascii_uppercase().to_string() + c.as_str())
        })
        .collect()
}

/// The `TypedDict`s of a record as `feedmill.parse` returns it (its Arrow row as Python
/// values: every key present, `None` when it has no value, `[]` for an empty list, dates as
/// aware `datetime`s), one class per shape, as Python source.
pub fn python_typed_dicts() -> String {
    let mut out = String::new();
    for shape in Shapes::of(&RecordView::default()) {
        let _ = writeln!(out, "\n\nclass {}(TypedDict):", class_name(shape.name));
        for (k, kind) in &shape.keys {
            // A record's `source` and `status` always have a value (the Arrow columns that are
            // never null, `crate::columnar`).
            let required = shape.name == RecordView::NAME && matches!(k.name, "source" | "status");
            let ty = match kind {
                Kind::Str if required => "str".to_owned(),
                Kind::Str | Kind::Url | Kind::Text => "Optional[str]".to_owned(),
                Kind::Date => "Optional[datetime]".to_owned(),
                Kind::Uint => "Optional[int]".to_owned(),
                Kind::Num => "Optional[float]".to_owned(),
                Kind::Bool => "Optional[bool]".to_owned(),
                Kind::Strs => "List[str]".to_owned(),
                Kind::Uints => "List[int]".to_owned(),
                Kind::Object(n) => format!("Optional[\"{}\"]", class_name(n)),
                Kind::List(n) => format!("List[\"{}\"]", class_name(n)),
            };
            let _ = writeln!(out, "    {}: {ty}", k.name);
            if let Kind::Text = kind {
                let _ = writeln!(out, "    {}_type: Optional[str]", k.name);
            }
            if let Kind::Date = kind {
                let _ = writeln!(out, "    {}_offset: Optional[int]", k.name);
                let _ = writeln!(out, "    {}_raw: Optional[str]", k.name);
            }
        }
    }
    out
}
