//! The iTunes podcast module's objects: the feed's and an entry's `itunes`, its categories and
//! owner.

use crate::model::ext::{ItunesCategory, ItunesEntry, ItunesFeed, ItunesOwner};
use crate::record::{key, Visit, Walk};

impl Walk for ItunesFeed<'_> {
    const NAME: &'static str = "itunes_feed";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.bool(key("explicit", "`itunes:explicit`"), self.explicit);
        v.str(key("type", "`itunes:type`: `episodic` | `serial`"), self.kind);
        v.list(key("categories", "`itunes:category`, unique by text"), &self.categories);
        v.object(key("owner", "`itunes:owner`"), self.owner.as_ref());
        v.bool(key("block", "`itunes:block`"), self.block);
        v.bool(key("complete", "`itunes:complete`"), self.complete);
        v.url(key("new_feed_url", "`itunes:new-feed-url`"), self.new_feed_url);
        v.strs(
            key("keywords", "`itunes:keywords`, split at commas, trimmed, unique"),
            &self.keywords,
        );
    }
}

impl Walk for ItunesCategory<'_> {
    const NAME: &'static str = "itunes_category";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("text", "the category"), Some(self.text));
        v.strs(key("subcategories", "nested categories, unique"), &self.subcategories);
    }
}

impl Walk for ItunesOwner<'_> {
    const NAME: &'static str = "itunes_owner";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("name", "`itunes:name`"), self.name);
        v.str(key("email", "`itunes:email`"), self.email);
    }
}

impl Walk for ItunesEntry<'_> {
    const NAME: &'static str = "itunes_entry";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.bool(key("explicit", "`itunes:explicit`"), self.explicit);
        v.uint(key("episode", "`itunes:episode`"), self.episode);
        v.uint(key("season", "`itunes:season`"), self.season);
        v.str(key("episode_type", "`itunes:episodeType`"), self.episode_type);
        v.bool(key("block", "`itunes:block`"), self.block);
        v.str(key("title", "`itunes:title`"), self.title);
        v.strs(key("keywords", "`itunes:keywords`"), &self.keywords);
    }
}
