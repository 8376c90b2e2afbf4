//! The Podcasting 2.0 (`podcast:` namespace) module's objects: the feed's and an entry's
//! `podcast`, and the locked, funding, person, transcript, chapters, season and episode
//! elements.

use crate::model::ext::{
    PodcastChapters, PodcastEntry, PodcastEpisode, PodcastFeed, PodcastFunding, PodcastLocked,
    PodcastPerson, PodcastSeason, PodcastTranscript,
};
use crate::record::{key, Visit, Walk};

impl Walk for PodcastFeed<'_> {
    const NAME: &'static str = "podcast_feed";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("guid", "`podcast:guid`"), self.guid);
        v.object(key("locked", "`podcast:locked`"), self.locked.as_ref());
        v.list(key("funding", "`podcast:funding`"), &self.funding);
        v.list(key("persons", "`podcast:person`"), &self.persons);
    }
}

impl Walk for PodcastLocked<'_> {
    const NAME: &'static str = "podcast_locked";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.bool(key("locked", "`yes` → true, `no` → false"), Some(self.locked));
        v.str(key("owner", "`owner`"), self.owner);
    }
}

impl Walk for PodcastFunding<'_> {
    const NAME: &'static str = "podcast_funding";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.url(key("url", "`url`"), Some(self.url));
        v.str(key("message", "the element's text"), self.message);
    }
}

impl Walk for PodcastPerson<'_> {
    const NAME: &'static str = "podcast_person";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("name", "the element's text"), Some(self.name));
        v.str(key("role", "`role`"), self.role);
        v.str(key("group", "`group`"), self.group);
        v.url(key("img", "`img` (URL)"), self.img);
        v.url(key("href", "`href` (URL)"), self.href);
    }
}

impl Walk for PodcastEntry<'_> {
    const NAME: &'static str = "podcast_entry";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.list(key("transcripts", "`podcast:transcript`"), &self.transcripts);
        v.object(key("chapters", "`podcast:chapters`"), self.chapters.as_ref());
        v.list(key("persons", "`podcast:person`"), &self.persons);
        v.object(key("season", "`podcast:season`"), self.season.as_ref());
        v.object(key("episode", "`podcast:episode`"), self.episode.as_ref());
    }
}

impl Walk for PodcastTranscript<'_> {
    const NAME: &'static str = "podcast_transcript";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.url(key("url", "`url`"), Some(self.url));
        v.str(key("type", "`type`"), self.mime_type);
        v.str(key("language", "`language`"), self.language);
        v.str(key("rel", "`rel`"), self.rel);
    }
}

impl Walk for PodcastChapters<'_> {
    const NAME: &'static str = "podcast_chapters";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.url(key("url", "`url`"), Some(self.url));
        v.str(key("type", "`type`"), self.mime_type);
    }
}

impl Walk for PodcastSeason<'_> {
    const NAME: &'static str = "podcast_season";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.uint(key("number", "the season number"), Some(self.number));
        v.str(key("name", "`name`"), self.name);
    }
}

impl Walk for PodcastEpisode<'_> {
    const NAME: &'static str = "podcast_episode";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("number", "the episode number as written (may be `1.5`)"), Some(self.number));
        v.str(key("display", "`display`"), self.display);
    }
}
