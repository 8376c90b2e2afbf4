"""The shapes of feedmill's Python values, as ``TypedDict``s.

``Record`` is a record as ``feedmill.parse`` returns it (and ``parse_file``, ``read_warc(...,
parse=True)``): the row of ``schema("records")`` as Python values. Every key is there on
every record: ``None`` when the feed has no value (an object none of whose keys has a value
is ``None`` too), ``[]`` for an empty list; dates are aware ``datetime``s in UTC
(microseconds); integers ``int``; ``*_type`` keys say whether the text before them is
``"text"`` or ``"html"``.

The classes between the ``generated`` lines are made from the record's one description in
the Rust library (``src/record/walk/``) and checked by its tests (``tests/it/generated.rs``;
``python/tests/test_values.py`` checks them against ``parse`` and ``schema()``); do not edit
them by hand.
"""

from datetime import datetime
from typing import List, Optional, TypedDict


class WarcRecord(TypedDict):
    """A record of ``read_warc`` (without ``parse=True``): what ``parse(**record)`` takes."""

    source: str
    url: Optional[str]
    status: Optional[int]
    content_type: Optional[str]
    body: Optional[bytes]
    error_kind: Optional[str]
    error_message: Optional[str]
    capture: Optional["Capture"]
    notes: List[str]


# <!-- generated:typed-dicts -->


class Record(TypedDict):
    source: str
    url: Optional[str]
    status: str
    error: Optional["Problem"]
    format: Optional[str]
    encoding: Optional[str]
    capture: Optional["Capture"]
    diagnostics: List["Diagnostic"]
    feed: Optional["Feed"]
    findings: List["Finding"]


class Problem(TypedDict):
    kind: Optional[str]
    message: Optional[str]


class Capture(TypedDict):
    record_type: Optional[str]
    date: Optional[datetime]
    date_offset: Optional[int]
    date_raw: Optional[str]
    target_uri: Optional[str]
    record_id: Optional[str]
    payload_digest: Optional[str]
    http_status: Optional[int]
    content_type: Optional[str]
    truncated: Optional[str]
    refers_to: Optional["RefersTo"]


class Diagnostic(TypedDict):
    kind: Optional[str]
    offset: Optional[int]
    message: Optional[str]


class Feed(TypedDict):
    title: Optional[str]
    title_type: Optional[str]
    subtitle: Optional[str]
    subtitle_type: Optional[str]
    description: Optional[str]
    description_type: Optional[str]
    page_url: Optional[str]
    feed_url: Optional[str]
    prev_feed_url: Optional[str]
    next_feed_url: Optional[str]
    icon: Optional["Image"]
    logo: Optional["Image"]
    updated: Optional[datetime]
    updated_offset: Optional[int]
    updated_raw: Optional[str]
    authors: List["Person"]
    id: Optional[str]
    language: Optional[str]
    generator: Optional["Generator"]
    rights: Optional[str]
    ttl: Optional[int]
    skip_hours: List[int]
    skip_days: List[str]
    image: Optional["RssImage"]
    category_details: List["Category"]
    contributors: List["Person"]
    itunes: Optional["ItunesFeed"]
    podcast: Optional["PodcastFeed"]
    updated_lenient: Optional["LenientDate"]
    version: Optional[str]
    pub_date: Optional[datetime]
    pub_date_offset: Optional[int]
    pub_date_raw: Optional[str]
    last_build_date: Optional[datetime]
    last_build_date_offset: Optional[int]
    last_build_date_raw: Optional[str]
    updated_from: Optional[str]
    web_master: Optional["Person"]
    docs: Optional[str]
    cloud: Optional["Cloud"]
    rating: Optional[str]
    text_input: Optional["TextInput"]
    syndication: Optional["Syndication"]
    topics: List[str]
    links: List["Link"]
    extensions: List["Extension"]
    title_text: Optional[str]
    subtitle_text: Optional[str]
    description_text: Optional[str]
    authors_normalized: List["Person"]
    canonical_url: Optional[str]
    categories_normalized: List[str]
    entries: List["Entry"]


class Finding(TypedDict):
    code: Optional[str]
    severity: Optional[str]
    message: Optional[str]
    element: Optional[str]
    parent: Optional[str]
    attr: Optional[str]
    value: Optional[str]
    core: Optional[str]
    ext: Optional[str]
    uri: Optional[str]
    curi: Optional[str]
    offset: Optional[int]
    line: Optional[int]
    column: Optional[int]
    section: Optional[str]


class RefersTo(TypedDict):
    record_id: Optional[str]
    target_uri: Optional[str]
    date: Optional[datetime]
    date_offset: Optional[int]
    date_raw: Optional[str]
    source: Optional[str]


class Image(TypedDict):
    url: Optional[str]
    width: Optional[int]
    height: Optional[int]
    rel: Optional[str]


class Person(TypedDict):
    name: Optional[str]
    email: Optional[str]
    page_url: Optional[str]
    icon: Optional["Image"]


class Generator(TypedDict):
    name: Optional[str]
    uri: Optional[str]
    version: Optional[str]


class RssImage(TypedDict):
    url: Optional[str]
    title: Optional[str]
    link: Optional[str]
    description: Optional[str]
    width: Optional[int]
    height: Optional[int]
    display_width: Optional[int]
    display_height: Optional[int]


class Category(TypedDict):
    term: Optional[str]
    scheme: Optional[str]
    label: Optional[str]


class ItunesFeed(TypedDict):
    explicit: Optional[bool]
    type: Optional[str]
    categories: List["ItunesCategory"]
    owner: Optional["ItunesOwner"]
    block: Optional[bool]
    complete: Optional[bool]
    new_feed_url: Optional[str]
    keywords: List[str]


class PodcastFeed(TypedDict):
    guid: Optional[str]
    locked: Optional["PodcastLocked"]
    funding: List["PodcastFunding"]
    persons: List["PodcastPerson"]
    medium: Optional[str]
    locations: List["PodcastLocation"]
    license: Optional["PodcastLicense"]
    images: List["PodcastImage"]
    values: List["PodcastValue"]
    txts: List["PodcastTxt"]
    blocks: List["PodcastBlock"]
    update_frequency: Optional["PodcastUpdateFrequency"]
    trailers: List["PodcastTrailer"]
    remote_items: List["PodcastRemoteItem"]
    podroll: List["PodcastRemoteItem"]
    publisher: Optional["PodcastRemoteItem"]
    social_interacts: List["PodcastSocialInteract"]
    chat: Optional["PodcastChat"]
    podping: Optional[bool]


class LenientDate(TypedDict):
    value: Optional[datetime]
    value_offset: Optional[int]
    value_raw: Optional[str]
    zone_assumed: Optional[bool]
    form: Optional[str]


class Cloud(TypedDict):
    domain: Optional[str]
    port: Optional[int]
    path: Optional[str]
    register_procedure: Optional[str]
    protocol: Optional[str]


class TextInput(TypedDict):
    title: Optional[str]
    description: Optional[str]
    name: Optional[str]
    link: Optional[str]


class Syndication(TypedDict):
    update_period: Optional[str]
    update_frequency: Optional[int]
    update_base: Optional[datetime]
    update_base_offset: Optional[int]
    update_base_raw: Optional[str]


class Link(TypedDict):
    rel: Optional[str]
    url: Optional[str]
    type: Optional[str]
    title: Optional[str]
    hreflang: Optional[str]
    length: Optional[int]
    count: Optional[int]
    updated: Optional[datetime]
    updated_offset: Optional[int]
    updated_raw: Optional[str]


class Extension(TypedDict):
    path: Optional[str]
    parent: Optional[int]
    namespace: Optional[str]
    name: Optional[str]
    attributes: List["ExtensionAttribute"]
    text: Optional[str]


class Entry(TypedDict):
    title: Optional[str]
    title_type: Optional[str]
    subtitle: Optional[str]
    subtitle_type: Optional[str]
    summary: Optional[str]
    summary_type: Optional[str]
    content: Optional[str]
    content_type: Optional[str]
    page_url: Optional[str]
    thumbnail: Optional["Image"]
    duration: Optional[int]
    published: Optional[datetime]
    published_offset: Optional[int]
    published_raw: Optional[str]
    updated: Optional[datetime]
    updated_offset: Optional[int]
    updated_raw: Optional[str]
    authors: List["Person"]
    categories: List[str]
    enclosures: List["Enclosure"]
    content_language: Optional[str]
    id: Optional[str]
    id_is_permalink: Optional[bool]
    comments: Optional[str]
    source: Optional["Source"]
    category_details: List["Category"]
    contributors: List["Person"]
    itunes: Optional["ItunesEntry"]
    podcast: Optional["PodcastEntry"]
    published_lenient: Optional["LenientDate"]
    updated_lenient: Optional["LenientDate"]
    comment_count: Optional[int]
    comment_feed_url: Optional[str]
    thread_total: Optional[int]
    in_reply_to: List["InReplyTo"]
    topics: List[str]
    links: List["Link"]
    media: Optional["Media"]
    extensions: List["Extension"]
    computed_authors: List["Person"]
    computed_updated: Optional[datetime]
    computed_updated_offset: Optional[int]
    computed_updated_raw: Optional[str]
    title_text: Optional[str]
    title_source: Optional[str]
    subtitle_text: Optional[str]
    authors_normalized: List["Person"]
    summary_text: Optional[str]
    content_text: Optional[str]
    body_source: Optional[str]
    body_text: Optional[str]
    word_count: Optional[int]
    canonical_url: Optional[str]
    dedup_key: Optional[str]
    dedup_source: Optional[str]
    fingerprint: Optional[str]
    image_url: Optional[str]
    image_source: Optional[str]
    image_width: Optional[int]
    image_height: Optional[int]
    categories_normalized: List[str]
    date_flags: List[str]


class ItunesCategory(TypedDict):
    text: Optional[str]
    subcategories: List[str]


class ItunesOwner(TypedDict):
    name: Optional[str]
    email: Optional[str]


class PodcastLocked(TypedDict):
    locked: Optional[bool]
    owner: Optional[str]


class PodcastFunding(TypedDict):
    url: Optional[str]
    message: Optional[str]


class PodcastPerson(TypedDict):
    name: Optional[str]
    role: Optional[str]
    group: Optional[str]
    img: Optional[str]
    href: Optional[str]


class PodcastLocation(TypedDict):
    name: Optional[str]
    geo: Optional[str]
    osm: Optional[str]
    rel: Optional[str]
    country: Optional[str]


class PodcastLicense(TypedDict):
    name: Optional[str]
    url: Optional[str]


class PodcastImage(TypedDict):
    href: Optional[str]
    alt: Optional[str]
    aspect_ratio: Optional[str]
    width: Optional[int]
    height: Optional[int]
    type: Optional[str]
    purpose: Optional[str]


class PodcastValue(TypedDict):
    type: Optional[str]
    method: Optional[str]
    suggested: Optional[float]
    recipients: List["PodcastValueRecipient"]
    time_splits: List["PodcastValueTimeSplit"]


class PodcastTxt(TypedDict):
    text: Optional[str]
    purpose: Optional[str]


class PodcastBlock(TypedDict):
    blocked: Optional[bool]
    id: Optional[str]


class PodcastUpdateFrequency(TypedDict):
    description: Optional[str]
    complete: Optional[bool]
    dtstart: Optional[datetime]
    dtstart_offset: Optional[int]
    dtstart_raw: Optional[str]
    rrule: Optional[str]


class PodcastTrailer(TypedDict):
    title: Optional[str]
    url: Optional[str]
    pubdate: Optional[datetime]
    pubdate_offset: Optional[int]
    pubdate_raw: Optional[str]
    length: Optional[int]
    type: Optional[str]
    season: Optional[int]


class PodcastRemoteItem(TypedDict):
    feed_guid: Optional[str]
    feed_url: Optional[str]
    item_guid: Optional[str]
    medium: Optional[str]
    title: Optional[str]


class PodcastSocialInteract(TypedDict):
    uri: Optional[str]
    protocol: Optional[str]
    account_id: Optional[str]
    account_url: Optional[str]
    priority: Optional[int]


class PodcastChat(TypedDict):
    server: Optional[str]
    protocol: Optional[str]
    account_id: Optional[str]
    space: Optional[str]


class ExtensionAttribute(TypedDict):
    namespace: Optional[str]
    name: Optional[str]
    value: Optional[str]


class Enclosure(TypedDict):
    url: Optional[str]
    type: Optional[str]
    length: Optional[int]
    title: Optional[str]
    duration: Optional[int]
    source: Optional[str]


class Source(TypedDict):
    title: Optional[str]
    url: Optional[str]


class ItunesEntry(TypedDict):
    explicit: Optional[bool]
    episode: Optional[int]
    season: Optional[int]
    episode_type: Optional[str]
    block: Optional[bool]
    title: Optional[str]
    keywords: List[str]


class PodcastEntry(TypedDict):
    transcripts: List["PodcastTranscript"]
    chapters: Optional["PodcastChapters"]
    persons: List["PodcastPerson"]
    season: Optional["PodcastSeason"]
    episode: Optional["PodcastEpisode"]
    live: Optional["PodcastLive"]
    soundbites: List["PodcastSoundbite"]
    alternate_enclosures: List["PodcastAlternateEnclosure"]
    locations: List["PodcastLocation"]
    license: Optional["PodcastLicense"]
    images: List["PodcastImage"]
    values: List["PodcastValue"]
    txts: List["PodcastTxt"]
    social_interacts: List["PodcastSocialInteract"]
    chat: Optional["PodcastChat"]
    content_links: List["PodcastContentLink"]


class InReplyTo(TypedDict):
    id: Optional[str]
    url: Optional[str]
    type: Optional[str]
    source: Optional[str]


class Media(TypedDict):
    contents: List["MediaContent"]
    description: Optional[str]
    credits: List["MediaCredit"]
    ratings: List["MediaRating"]
    player: Optional["MediaPlayer"]
    keywords: List[str]


class PodcastValueRecipient(TypedDict):
    name: Optional[str]
    custom_key: Optional[str]
    custom_value: Optional[str]
    type: Optional[str]
    address: Optional[str]
    split: Optional[int]
    fee: Optional[bool]


class PodcastValueTimeSplit(TypedDict):
    start_time: Optional[float]
    duration: Optional[float]
    remote_start_time: Optional[float]
    remote_percentage: Optional[int]
    remote_item: Optional["PodcastRemoteItem"]
    recipients: List["PodcastValueRecipient"]


class PodcastTranscript(TypedDict):
    url: Optional[str]
    type: Optional[str]
    language: Optional[str]
    rel: Optional[str]


class PodcastChapters(TypedDict):
    url: Optional[str]
    type: Optional[str]


class PodcastSeason(TypedDict):
    number: Optional[int]
    name: Optional[str]


class PodcastEpisode(TypedDict):
    number: Optional[str]
    display: Optional[str]


class PodcastLive(TypedDict):
    status: Optional[str]
    start: Optional[datetime]
    start_offset: Optional[int]
    start_raw: Optional[str]
    end: Optional[datetime]
    end_offset: Optional[int]
    end_raw: Optional[str]


class PodcastSoundbite(TypedDict):
    start_time: Optional[float]
    duration: Optional[float]
    title: Optional[str]


class PodcastAlternateEnclosure(TypedDict):
    type: Optional[str]
    length: Optional[int]
    bitrate: Optional[float]
    height: Optional[int]
    lang: Optional[str]
    title: Optional[str]
    rel: Optional[str]
    codecs: Optional[str]
    default: Optional[bool]
    sources: List["PodcastSource"]
    integrity: Optional["PodcastIntegrity"]


class PodcastContentLink(TypedDict):
    href: Optional[str]
    text: Optional[str]


class MediaContent(TypedDict):
    url: Optional[str]
    type: Optional[str]
    medium: Optional[str]
    width: Optional[int]
    height: Optional[int]
    file_size: Optional[int]
    duration: Optional[int]
    bitrate: Optional[int]
    lang: Optional[str]
    is_default: Optional[bool]
    expression: Optional[str]
    group: Optional[int]


class MediaCredit(TypedDict):
    name: Optional[str]
    role: Optional[str]
    scheme: Optional[str]


class MediaRating(TypedDict):
    value: Optional[str]
    scheme: Optional[str]


class MediaPlayer(TypedDict):
    url: Optional[str]
    width: Optional[int]
    height: Optional[int]


class PodcastSource(TypedDict):
    uri: Optional[str]
    content_type: Optional[str]


class PodcastIntegrity(TypedDict):
    type: Optional[str]
    value: Optional[str]
# <!-- /generated:typed-dicts -->
