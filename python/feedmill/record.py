"""The shape of a record as `feedmill.parse` returns it: a ``TypedDict`` per object of the
JSON Lines record (every key optional: null and empty values are left out).

The classes below are generated from the record's one description in the Rust library
(``src/record/walk.rs``) and checked by its tests (``tests/it/generated.rs``); do not edit
them by hand.
"""

from typing import List, TypedDict

# <!-- generated:typed-dicts -->


class Record(TypedDict, total=False):
    source: str
    status: str
    error: "Problem"
    format: str
    encoding: str
    capture: "Capture"
    diagnostics: List["Diagnostic"]
    feed: "Feed"
    findings: List["Finding"]


class Problem(TypedDict, total=False):
    kind: str
    message: str


class Capture(TypedDict, total=False):
    record_type: str
    date: str
    target_uri: str
    record_id: str
    payload_digest: str
    http_status: int
    content_type: str
    truncated: str
    refers_to: "RefersTo"


class Diagnostic(TypedDict, total=False):
    kind: str
    offset: int
    message: str


class Feed(TypedDict, total=False):
    title: str
    title_type: str
    subtitle: str
    subtitle_type: str
    description: str
    description_type: str
    page_url: str
    feed_url: str
    prev_feed_url: str
    next_feed_url: str
    icon: "Image"
    logo: "Image"
    updated: str
    authors: List["Person"]
    id: str
    language: str
    generator: "Generator"
    rights: str
    ttl: int
    skip_hours: List[int]
    skip_days: List[str]
    image: "RssImage"
    category_details: List["Category"]
    contributors: List["Person"]
    itunes: "ItunesFeed"
    podcast: "PodcastFeed"
    updated_lenient: "LenientDate"
    version: str
    pub_date: str
    last_build_date: str
    updated_from: str
    web_master: "Person"
    docs: str
    cloud: "Cloud"
    rating: str
    text_input: "TextInput"
    syndication: "Syndication"
    topics: List[str]
    links: List["Link"]
    title_text: str
    subtitle_text: str
    description_text: str
    canonical_url: str
    entries: List["Entry"]


class Finding(TypedDict, total=False):
    code: str
    severity: str
    message: str
    element: str
    parent: str
    attr: str
    value: str
    core: str
    ext: str
    uri: str
    curi: str
    offset: int
    line: int
    column: int
    section: str


class RefersTo(TypedDict, total=False):
    record_id: str
    target_uri: str
    date: str
    source: str


class Image(TypedDict, total=False):
    url: str
    width: int
    height: int


class Person(TypedDict, total=False):
    name: str
    email: str
    page_url: str
    icon: "Image"


class Generator(TypedDict, total=False):
    name: str
    uri: str
    version: str


class RssImage(TypedDict, total=False):
    url: str
    title: str
    link: str
    description: str
    width: int
    height: int
    display_width: int
    display_height: int


class Category(TypedDict, total=False):
    term: str
    scheme: str
    label: str


class ItunesFeed(TypedDict, total=False):
    explicit: bool
    type: str
    categories: List["ItunesCategory"]
    owner: "ItunesOwner"
    block: bool
    complete: bool
    new_feed_url: str
    keywords: List[str]


class PodcastFeed(TypedDict, total=False):
    guid: str
    locked: "PodcastLocked"
    funding: List["PodcastFunding"]
    persons: List["PodcastPerson"]


class LenientDate(TypedDict, total=False):
    value: str
    zone_assumed: bool
    form: str


class Cloud(TypedDict, total=False):
    domain: str
    port: int
    path: str
    register_procedure: str
    protocol: str


class TextInput(TypedDict, total=False):
    title: str
    description: str
    name: str
    link: str


class Syndication(TypedDict, total=False):
    update_period: str
    update_frequency: int
    update_base: str


class Link(TypedDict, total=False):
    rel: str
    url: str
    type: str
    title: str
    hreflang: str
    length: int
    count: int


class Entry(TypedDict, total=False):
    title: str
    title_type: str
    subtitle: str
    subtitle_type: str
    summary: str
    summary_type: str
    content: str
    content_type: str
    page_url: str
    thumbnail: "Image"
    duration: int
    published: str
    updated: str
    authors: List["Person"]
    categories: List[str]
    enclosures: List["Enclosure"]
    id: str
    id_is_permalink: bool
    comments: str
    source: "Source"
    category_details: List["Category"]
    contributors: List["Person"]
    itunes: "ItunesEntry"
    podcast: "PodcastEntry"
    published_lenient: "LenientDate"
    updated_lenient: "LenientDate"
    comment_count: int
    comment_feed_url: str
    thread_total: int
    in_reply_to: List["InReplyTo"]
    topics: List[str]
    links: List["Link"]
    media: "Media"
    computed_authors: List["Person"]
    computed_updated: str
    title_text: str
    subtitle_text: str
    summary_text: str
    content_text: str
    body_source: str
    body_text: str
    word_count: int
    canonical_url: str
    dedup_key: str
    dedup_source: str
    fingerprint: str


class ItunesCategory(TypedDict, total=False):
    text: str
    subcategories: List[str]


class ItunesOwner(TypedDict, total=False):
    name: str
    email: str


class PodcastLocked(TypedDict, total=False):
    locked: bool
    owner: str


class PodcastFunding(TypedDict, total=False):
    url: str
    message: str


class PodcastPerson(TypedDict, total=False):
    name: str
    role: str
    group: str
    img: str
    href: str


class Enclosure(TypedDict, total=False):
    url: str
    type: str
    length: int
    title: str
    duration: int


class Source(TypedDict, total=False):
    title: str
    url: str


class ItunesEntry(TypedDict, total=False):
    explicit: bool
    episode: int
    season: int
    episode_type: str
    block: bool
    title: str
    keywords: List[str]


class PodcastEntry(TypedDict, total=False):
    transcripts: List["PodcastTranscript"]
    chapters: "PodcastChapters"
    persons: List["PodcastPerson"]
    season: "PodcastSeason"
    episode: "PodcastEpisode"


class InReplyTo(TypedDict, total=False):
    id: str
    url: str
    type: str
    source: str


class Media(TypedDict, total=False):
    contents: List["MediaContent"]
    description: str
    credits: List["MediaCredit"]
    ratings: List["MediaRating"]
    player: "MediaPlayer"
    keywords: List[str]


class PodcastTranscript(TypedDict, total=False):
    url: str
    type: str
    language: str
    rel: str


class PodcastChapters(TypedDict, total=False):
    url: str
    type: str


class PodcastSeason(TypedDict, total=False):
    number: int
    name: str


class PodcastEpisode(TypedDict, total=False):
    number: str
    display: str


class MediaContent(TypedDict, total=False):
    url: str
    type: str
    medium: str
    width: int
    height: int
    file_size: int
    duration: int
    bitrate: int
    lang: str
    is_default: bool
    expression: str
    group: int


class MediaCredit(TypedDict, total=False):
    name: str
    role: str
    scheme: str


class MediaRating(TypedDict, total=False):
    value: str
    scheme: str


class MediaPlayer(TypedDict, total=False):
    url: str
    width: int
    height: int
# <!-- /generated:typed-dicts -->
