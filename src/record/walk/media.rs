//! The Media RSS module's objects: an entry's `media`, its contents, credits, ratings and
//! player.

use crate::model::ext::{MediaContent, MediaCredit, MediaEntry, MediaPlayer, MediaRating};
use crate::record::{key, Visit, Walk};

impl Walk for MediaEntry<'_> {
    const NAME: &'static str = "media";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.list(key("contents", "every `media:content`, direct or in a group"), &self.contents);
        v.str(key("description", "`media:description`"), self.description);
        v.list(key("credits", "`media:credit`"), &self.credits);
        v.list(key("ratings", "`media:rating`"), &self.ratings);
        v.object(key("player", "`media:player`"), self.player.as_ref());
        v.strs(key("keywords", "`media:keywords`, split at commas, unique"), &self.keywords);
    }
}

impl Walk for MediaContent<'_> {
    const NAME: &'static str = "media_content";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.url(key("url", "`url`"), self.url);
        v.str(key("type", "`type`"), self.mime_type);
        v.str(key("medium", "`medium`"), self.medium);
        v.uint(key("width", "`width`"), self.width);
        v.uint(key("height", "`height`"), self.height);
        v.uint(key("file_size", "`fileSize`, bytes"), self.file_size);
        v.uint(key("duration", "`duration`, seconds"), self.duration);
        v.uint(key("bitrate", "`bitrate`, kbit/s"), self.bitrate);
        v.str(key("lang", "`lang`"), self.lang);
        v.bool(key("is_default", "`isDefault`"), self.is_default);
        v.str(key("expression", "`expression`"), self.expression);
        v.uint(
            key("group", "the 0-based position of its `media:group` (none: direct)"),
            self.group.map(u64::from),
        );
    }
}

impl Walk for MediaCredit<'_> {
    const NAME: &'static str = "media_credit";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("name", "the credited entity"), Some(self.name));
        v.str(key("role", "`role`"), self.role);
        v.str(key("scheme", "`scheme`"), self.scheme);
    }
}

impl Walk for MediaRating<'_> {
    const NAME: &'static str = "media_rating";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("value", "the rating"), Some(self.value));
        v.str(key("scheme", "`scheme`"), self.scheme);
    }
}

impl Walk for MediaPlayer<'_> {
    const NAME: &'static str = "media_player";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.url(key("url", "`url`"), Some(self.url));
        v.uint(key("width", "`width`"), self.width);
        v.uint(key("height", "`height`"), self.height);
    }
}
