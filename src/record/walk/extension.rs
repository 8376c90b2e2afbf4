//! The captured elements no table reads (`extensions` of a feed or an entry): each element
//! with its attributes, text and children.

use crate::model::ext::{Extension, ExtensionAttribute};
use crate::record::{key, Visit, Walk};

impl Walk for Extension<'_> {
    const NAME: &'static str = "extension";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(
            key("path", "local names from the feed's or entry's child down to this element, `/`"),
            Some(self.path),
        );
        v.uint(
            key("parent", "index in this list of the parent element (absent: a direct child)"),
            self.parent,
        );
        v.str(key("namespace", "namespace URI (absent: no namespace)"), self.namespace);
        v.str(key("name", "local name"), Some(self.name));
        v.list(key("attributes", "attributes, namespace declarations excepted"), &self.attributes);
        v.str(key("text", "the element's own text, trimmed"), self.text);
    }
}

impl Walk for ExtensionAttribute<'_> {
    const NAME: &'static str = "extension_attribute";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("namespace", "namespace URI (absent: no prefix)"), self.namespace);
        v.str(key("name", "local name"), Some(self.name));
        v.str(key("value", "the value, references decoded"), Some(self.value));
    }
}
