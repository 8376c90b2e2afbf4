//! Arms for the fields beyond the spec's model ([`crate::model::ext`]), shared by the format
//! state machines. Each `fn` taking the reader right after a child's start tag consumes that
//! child completely, like the spec steps in [`super::common`].
//!
//! Cost: these arms run only for elements the spec tables do not match (or, for shared
//! elements like RSS `category`, as a few extra attribute reads); absent elements cost nothing
//! but the extra match arms.

mod atom;
mod capture;
mod itunes;
mod media;
mod modules;
mod podcast;
mod read;
mod rss;

pub use atom::*;
pub use capture::*;
pub use itunes::*;
pub use media::*;
pub use modules::*;
pub use podcast::*;
pub use read::*;
pub use rss::*;

use crate::model::{Entry, Feed};

/// End-of-entry step for the extension fields: a lenient date is kept only when its spec
/// field stayed null.
pub fn finish_entry(entry: &mut Entry<'_>) {
    if entry.updated.is_some() {
        entry.updated_lenient = None;
    }
    if entry.published.is_some() {
        entry.published_lenient = None;
    }
}

/// End-of-feed step for the extension fields.
pub fn finish_feed(feed: &mut Feed<'_>) {
    if feed.updated.is_some() {
        feed.updated_lenient = None;
    }
}
