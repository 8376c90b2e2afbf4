//! `serde::Serialize` for the record and the model (feature `serde`), made from the record's
//! walk: what any serde serializer writes is the JSON Lines record, key for key —
//! `serde_json::to_string(&record)` gives the very bytes of its JSON line, and a [`Feed`]
//! serializes as the record's `feed` object, an [`Entry`] as an element of its `entries`
//! (without `computed_*`, which need the entry's feed).
//!
//! ```
//! let mut parser = feedmill::Parser::new(feedmill::Options::default());
//! let parsed = parser.parse_str("<rss><channel><title>Hi</title></channel></rss>", None)?;
//! let json = serde_json::to_string(parsed.feed.as_ref().unwrap()).unwrap();
//! assert_eq!(json, r#"{"title":"Hi","title_type":"text"}"#);
//! # Ok::<(), feedmill::Error>(())
//! ```

use std::borrow::Borrow;
use std::cell::RefCell;
use std::marker::PhantomData;

use serde::ser::{Error as _, SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};

use super::walk::FeedRecord;
use super::{write_text_str, Key, RecordView, Shape, Visit, Walk};
use crate::model::date::RFC3339_MAX_LEN;
use crate::sanitize::SanitizeOptions;
use crate::{Entry, Feed, Text, Timestamp};

/// The record; its HTML values strictly sanitized when it says so (`sanitize`), as in JSON
/// Lines.
impl Serialize for RecordView<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Object(self, self.sanitize).serialize(s)
    }
}

impl Serialize for Feed<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Object(&FeedRecord::of(self), None).serialize(s)
    }
}

impl Serialize for Entry<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Object(self, None).serialize(s)
    }
}

/// A walked value as a serde map, with the record's strict-sanitizing options.
struct Object<'v, T>(&'v T, Option<&'v SanitizeOptions>);

impl<T: Walk> Serialize for Object<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut v = Entries { map: Some(s.serialize_map(None)?), error: None, sanitize: self.1 };
        self.0.walk(&mut v);
        if let Some(e) = v.error {
            return Err(e);
        }
        v.map.expect("taken only on error").end()
    }
}

/// Whether a walked value writes any key (an object none of whose keys has a value is left
/// out, as in JSON Lines).
struct HasValue<'s>(bool, Option<&'s SanitizeOptions>);

impl Visit for HasValue<'_> {
    fn str(&mut self, _: Key, v: Option<&str>) {
        self.0 |= v.is_some_and(|v| !v.is_empty());
    }
    fn uint(&mut self, _: Key, v: Option<u64>) {
        self.0 |= v.is_some();
    }
    fn num(&mut self, _: Key, v: Option<f64>) {
        self.0 |= v.is_some();
    }
    fn bool(&mut self, _: Key, v: Option<bool>) {
        self.0 |= v.is_some();
    }
    fn date(&mut self, _: Key, v: Option<Timestamp>, raw: Option<&str>) {
        self.0 |= v.is_some() || raw.is_some_and(|r| !r.is_empty());
    }
    fn text(&mut self, _: Key, v: Option<&Text<'_>>) {
        self.0 |= v.is_some_and(|t| !text_string(t, self.1).is_empty());
    }
    fn strs(&mut self, k: Key, v: &[&str]) {
        self.0 |= !v.is_empty() || k.always;
    }
    fn uints<N: Copy + Into<u64>>(&mut self, _: Key, v: &[N]) {
        self.0 |= !v.is_empty();
    }
    fn object<T: Walk + Shape>(&mut self, _: Key, v: Option<&T>) {
        if let Some(v) = v.filter(|_| !self.0) {
            v.walk(self);
        }
    }
    fn list_with<T: Walk + Shape, R: Borrow<T>>(
        &mut self,
        k: Key,
        n: usize,
        _: impl FnMut(usize) -> R,
    ) {
        self.0 |= n > 0 || k.always;
    }
    fn flatten<T: Walk>(&mut self, _: &'static str, v: &T) {
        v.walk(self);
    }
}

fn has_value<T: Walk>(v: &T, sanitize: Option<&SanitizeOptions>) -> bool {
    let mut h = HasValue(false, sanitize);
    v.walk(&mut h);
    h.0
}

/// A text value as records write it (an HTML value serialized, strictly sanitized with
/// `sanitize`).
fn text_string(t: &Text<'_>, sanitize: Option<&SanitizeOptions>) -> String {
    let mut s = String::new();
    write_text_str(t, sanitize, &mut s);
    s
}

/// The walk writing a serde map's entries (the first error is kept; later keys are skipped).
struct Entries<'s, M: SerializeMap> {
    map: Option<M>,
    error: Option<M::Error>,
    sanitize: Option<&'s SanitizeOptions>,
}

impl<M: SerializeMap> Entries<'_, M> {
    fn entry<V: Serialize + ?Sized>(&mut self, key: &str, value: &V) {
        if let Some(map) = self.map.as_mut().filter(|_| self.error.is_none()) {
            if let Err(e) = map.serialize_entry(key, value) {
                self.error = Some(e);
            }
        }
    }
}

/// A list of walked values as a serde sequence.
struct List<'s, T, F>(usize, RefCell<F>, Option<&'s SanitizeOptions>, PhantomData<fn() -> T>);

impl<T: Walk, R: Borrow<T>, F: FnMut(usize) -> R> Serialize for List<'_, T, F> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0))?;
        let mut item =
            self.1.try_borrow_mut().map_err(|_| S::Error::custom("list walked twice"))?;
        for i in 0..self.0 {
            seq.serialize_element(&Object(item(i).borrow(), self.2))?;
        }
        seq.end()
    }
}

impl<M: SerializeMap> Visit for Entries<'_, M> {
    fn str(&mut self, k: Key, v: Option<&str>) {
        if let Some(v) = v.filter(|v| !v.is_empty()) {
            self.entry(k.name, v);
        }
    }
    fn uint(&mut self, k: Key, v: Option<u64>) {
        if let Some(v) = v {
            self.entry(k.name, &v);
        }
    }
    fn num(&mut self, k: Key, v: Option<f64>) {
        if let Some(v) = v {
            self.entry(k.name, &v);
        }
    }
    fn bool(&mut self, k: Key, v: Option<bool>) {
        if let Some(v) = v {
            self.entry(k.name, &v);
        }
    }
    fn date(&mut self, k: Key, v: Option<Timestamp>, raw: Option<&str>) {
        if let Some(t) = v {
            self.entry(k.name, t.format_rfc3339(&mut [0; RFC3339_MAX_LEN]));
            if let Some(m) = t.offset_minutes() {
                self.entry(&format!("{}_offset", k.name), &m);
            }
        }
        if let Some(raw) = raw.filter(|r| !r.is_empty()) {
            self.entry(&format!("{}_raw", k.name), raw);
        }
    }
    fn text(&mut self, k: Key, v: Option<&Text<'_>>) {
        let Some(t) = v else { return };
        let s = text_string(t, self.sanitize);
        if !s.is_empty() {
            self.entry(k.name, &*s);
            let kind = if let Text::Plain(_) = t { "text" } else { "html" };
            self.entry(&format!("{}_type", k.name), kind);
        }
    }
    fn strs(&mut self, k: Key, v: &[&str]) {
        if !v.is_empty() || k.always {
            self.entry(k.name, v);
        }
    }
    fn uints<N: Copy + Into<u64>>(&mut self, k: Key, v: &[N]) {
        if !v.is_empty() || k.always {
            let v: Vec<u64> = v.iter().map(|n| (*n).into()).collect();
            self.entry(k.name, &v);
        }
    }
    fn object<T: Walk + Shape>(&mut self, k: Key, v: Option<&T>) {
        if let Some(v) = v.filter(|v| has_value(*v, self.sanitize)) {
            self.entry(k.name, &Object(v, self.sanitize));
        }
    }
    fn list_with<T: Walk + Shape, R: Borrow<T>>(
        &mut self,
        k: Key,
        n: usize,
        item: impl FnMut(usize) -> R,
    ) {
        if n > 0 || k.always {
            self.entry(k.name, &List::<T, _>(n, RefCell::new(item), self.sanitize, PhantomData));
        }
    }
    fn flatten<T: Walk>(&mut self, _: &'static str, v: &T) {
        v.walk(self);
    }
}
