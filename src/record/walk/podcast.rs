//! The Podcasting 2.0 (`podcast:` namespace) module's objects: the feed's and an entry's
//! `podcast`, and one object per element of the namespace that has attributes or children
//! (locked, funding, person, transcript, chapters, season, episode, value and its
//! recipients and time splits, remote items, soundbite, alternate enclosure with its sources
//! and integrity, location, trailer, license, image, txt, block, update frequency, social
//! interact, chat, live item, content link).

use crate::model::ext::{
    PodcastAlternateEnclosure, PodcastBlock, PodcastChapters, PodcastChat, PodcastContentLink,
    PodcastEntry, PodcastEpisode, PodcastFeed, PodcastFunding, PodcastImage, PodcastIntegrity,
    PodcastLicense, PodcastLive, PodcastLocation, PodcastLocked, PodcastPerson, PodcastRemoteItem,
    PodcastSeason, PodcastSocialInteract, PodcastSoundbite, PodcastSource, PodcastTrailer,
    PodcastTranscript, PodcastTxt, PodcastUpdateFrequency, PodcastValue, PodcastValueRecipient,
    PodcastValueTimeSplit,
};
use crate::record::{key, Visit, Walk};

impl Walk for PodcastFeed<'_> {
    const NAME: &'static str = "podcast_feed";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("guid", "`podcast:guid`"), self.guid);
        v.object(key("locked", "`podcast:locked`"), self.locked.as_ref());
        v.list(key("funding", "`podcast:funding`"), &self.funding);
        v.list(key("persons", "`podcast:person`"), &self.persons);
        v.str(key("medium", "`podcast:medium`"), self.medium);
        v.list(key("locations", "`podcast:location`"), &self.locations);
        v.object(key("license", "`podcast:license`"), self.license.as_ref());
        v.list(
            key("images", "`podcast:image`, and each `podcast:images@srcset` candidate"),
            &self.images,
        );
        v.list(key("values", "`podcast:value`"), &self.values);
        v.list(key("txts", "`podcast:txt`"), &self.txts);
        v.list(key("blocks", "`podcast:block`"), &self.blocks);
        v.object(
            key("update_frequency", "`podcast:updateFrequency`"),
            self.update_frequency.as_ref(),
        );
        v.list(key("trailers", "`podcast:trailer`"), &self.trailers);
        v.list(
            key("remote_items", "`podcast:remoteItem` children of the channel"),
            &self.remote_items,
        );
        v.list(key("podroll", "the `podcast:remoteItem`s of `podcast:podroll`"), &self.podroll);
        v.object(
            key("publisher", "the first `podcast:remoteItem` of `podcast:publisher`"),
            self.publisher.as_ref(),
        );
        v.list(key("social_interacts", "`podcast:socialInteract`"), &self.social_interacts);
        v.object(key("chat", "`podcast:chat`"), self.chat.as_ref());
        v.bool(key("podping", "`podcast:podping@usesPodping`"), self.podping);
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
        v.object(
            key("live", "`podcast:liveItem`'s attributes (the entry is a live item)"),
            self.live.as_ref(),
        );
        v.list(key("soundbites", "`podcast:soundbite`"), &self.soundbites);
        v.list(
            key("alternate_enclosures", "`podcast:alternateEnclosure`"),
            &self.alternate_enclosures,
        );
        v.list(key("locations", "`podcast:location`"), &self.locations);
        v.object(key("license", "`podcast:license`"), self.license.as_ref());
        v.list(
            key("images", "`podcast:image`, and each `podcast:images@srcset` candidate"),
            &self.images,
        );
        v.list(key("values", "`podcast:value`"), &self.values);
        v.list(key("txts", "`podcast:txt`"), &self.txts);
        v.list(key("social_interacts", "`podcast:socialInteract`"), &self.social_interacts);
        v.object(key("chat", "`podcast:chat`"), self.chat.as_ref());
        v.list(key("content_links", "`podcast:contentLink`"), &self.content_links);
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

impl Walk for PodcastValue<'_> {
    const NAME: &'static str = "podcast_value";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("type", "`type`, e.g. `lightning`"), self.kind);
        v.str(key("method", "`method`, e.g. `keysend`"), self.method);
        v.num(key("suggested", "`suggested` (a decimal)"), self.suggested);
        v.list(key("recipients", "`podcast:valueRecipient`"), &self.recipients);
        v.list(key("time_splits", "`podcast:valueTimeSplit`"), &self.time_splits);
    }
}

impl Walk for PodcastValueRecipient<'_> {
    const NAME: &'static str = "podcast_value_recipient";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("name", "`name`"), self.name);
        v.str(key("custom_key", "`customKey`"), self.custom_key);
        v.str(key("custom_value", "`customValue`"), self.custom_value);
        v.str(key("type", "`type`, e.g. `node`"), self.kind);
        v.str(key("address", "`address`"), self.address);
        v.uint(key("split", "`split`"), self.split);
        v.bool(key("fee", "`fee`"), self.fee);
    }
}

impl Walk for PodcastValueTimeSplit<'_> {
    const NAME: &'static str = "podcast_value_time_split";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.num(key("start_time", "`startTime` (seconds)"), self.start_time);
        v.num(key("duration", "`duration` (seconds)"), self.duration);
        v.num(key("remote_start_time", "`remoteStartTime` (seconds)"), self.remote_start_time);
        v.uint(key("remote_percentage", "`remotePercentage`"), self.remote_percentage);
        v.object(key("remote_item", "`podcast:remoteItem`"), self.remote_item.as_ref());
        v.list(key("recipients", "`podcast:valueRecipient`"), &self.recipients);
    }
}

impl Walk for PodcastRemoteItem<'_> {
    const NAME: &'static str = "podcast_remote_item";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("feed_guid", "`feedGuid`"), self.feed_guid);
        v.url(key("feed_url", "`feedUrl` (URL)"), self.feed_url);
        v.str(key("item_guid", "`itemGuid`"), self.item_guid);
        v.str(key("medium", "`medium`"), self.medium);
        v.str(key("title", "the element's text"), self.title);
    }
}

impl Walk for PodcastSoundbite<'_> {
    const NAME: &'static str = "podcast_soundbite";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.num(key("start_time", "`startTime` (seconds)"), self.start_time);
        v.num(key("duration", "`duration` (seconds)"), self.duration);
        v.str(key("title", "the element's text"), self.title);
    }
}

impl Walk for PodcastAlternateEnclosure<'_> {
    const NAME: &'static str = "podcast_alternate_enclosure";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("type", "`type`"), self.mime_type);
        v.uint(key("length", "`length` (bytes)"), self.length);
        v.num(key("bitrate", "`bitrate` (bits per second)"), self.bitrate);
        v.uint(key("height", "`height` (pixels)"), self.height);
        v.str(key("lang", "`lang`"), self.lang);
        v.str(key("title", "`title`"), self.title);
        v.str(key("rel", "`rel`"), self.rel);
        v.str(key("codecs", "`codecs`"), self.codecs);
        v.bool(key("default", "`default`"), self.default);
        v.list(key("sources", "`podcast:source`"), &self.sources);
        v.object(key("integrity", "`podcast:integrity`"), self.integrity.as_ref());
    }
}

impl Walk for PodcastSource<'_> {
    const NAME: &'static str = "podcast_source";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.url(key("uri", "`uri` (URL)"), Some(self.uri));
        v.str(key("content_type", "`contentType`"), self.content_type);
    }
}

impl Walk for PodcastIntegrity<'_> {
    const NAME: &'static str = "podcast_integrity";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("type", "`type`: `sri` or `pgp-signature`"), self.kind);
        v.str(key("value", "`value`"), self.value);
    }
}

impl Walk for PodcastLocation<'_> {
    const NAME: &'static str = "podcast_location";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("name", "the element's text"), self.name);
        v.str(key("geo", "`geo` (a `geo:` URI, as written)"), self.geo);
        v.str(key("osm", "`osm`"), self.osm);
        v.str(key("rel", "`rel`: `subject` or `creator`"), self.rel);
        v.str(key("country", "`country`"), self.country);
    }
}

impl Walk for PodcastTrailer<'_> {
    const NAME: &'static str = "podcast_trailer";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("title", "the element's text"), self.title);
        v.url(key("url", "`url` (URL)"), self.url);
        v.date(key("pubdate", "`pubdate`"), self.pubdate, self.pubdate_raw);
        v.uint(key("length", "`length` (bytes)"), self.length);
        v.str(key("type", "`type`"), self.mime_type);
        v.uint(key("season", "`season`"), self.season);
    }
}

impl Walk for PodcastLicense<'_> {
    const NAME: &'static str = "podcast_license";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("name", "the element's text"), self.name);
        v.url(key("url", "`url` (URL)"), self.url);
    }
}

impl Walk for PodcastImage<'_> {
    const NAME: &'static str = "podcast_image";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.url(key("href", "`href`, or the `srcset` candidate's URL"), Some(self.href));
        v.str(key("alt", "`alt`"), self.alt);
        v.str(key("aspect_ratio", "`aspect-ratio`"), self.aspect_ratio);
        v.uint(key("width", "`width`, or the candidate's `w` descriptor"), self.width);
        v.uint(key("height", "`height`"), self.height);
        v.str(key("type", "`type`"), self.mime_type);
        v.str(key("purpose", "`purpose` (space-separated tokens)"), self.purpose);
    }
}

impl Walk for PodcastTxt<'_> {
    const NAME: &'static str = "podcast_txt";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("text", "the element's text"), Some(self.text));
        v.str(key("purpose", "`purpose`"), self.purpose);
    }
}

impl Walk for PodcastBlock<'_> {
    const NAME: &'static str = "podcast_block";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.bool(key("blocked", "`yes` → true, `no` → false"), Some(self.blocked));
        v.str(key("id", "`id`: the platform"), self.id);
    }
}

impl Walk for PodcastUpdateFrequency<'_> {
    const NAME: &'static str = "podcast_update_frequency";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("description", "the element's text"), self.description);
        v.bool(key("complete", "`complete`"), self.complete);
        v.date(key("dtstart", "`dtstart`"), self.dtstart, self.dtstart_raw);
        v.str(key("rrule", "`rrule` (as written)"), self.rrule);
    }
}

impl Walk for PodcastSocialInteract<'_> {
    const NAME: &'static str = "podcast_social_interact";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.url(key("uri", "`uri` (URL)"), self.uri);
        v.str(key("protocol", "`protocol`"), self.protocol);
        v.str(key("account_id", "`accountId`"), self.account_id);
        v.url(key("account_url", "`accountUrl` (URL)"), self.account_url);
        v.uint(key("priority", "`priority`"), self.priority);
    }
}

impl Walk for PodcastChat<'_> {
    const NAME: &'static str = "podcast_chat";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("server", "`server`"), self.server);
        v.str(key("protocol", "`protocol`"), self.protocol);
        v.str(key("account_id", "`accountId`"), self.account_id);
        v.str(key("space", "`space`"), self.space);
    }
}

impl Walk for PodcastLive<'_> {
    const NAME: &'static str = "podcast_live";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.str(key("status", "`status`: `pending`, `live` or `ended`"), self.status);
        v.date(key("start", "`start`"), self.start, self.start_raw);
        v.date(key("end", "`end`"), self.end, self.end_raw);
    }
}

impl Walk for PodcastContentLink<'_> {
    const NAME: &'static str = "podcast_content_link";
    fn walk<V: Visit>(&self, v: &mut V) {
        v.url(key("href", "`href` (URL)"), self.href);
        v.str(key("text", "the element's text"), self.text);
    }
}
