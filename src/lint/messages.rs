//! The W3C Feed Validator's message classes the lint reports: class name, parent class,
//! severity and message template (`%(name)s` is a parameter). A class with an empty template
//! uses its nearest ancestor's (e.g. `MissingDescription` → `MissingElement`); the abstract
//! `RSS20Profile` class (the parent of the validator's Profile-only warnings) has none, and its
//! findings carry their message as the `message` parameter, as `NotHtml`'s do.
//!
//! Vendored from the Feed Validator (<https://github.com/rubys/feedvalidator>; the class table
//! with parents, severities and English templates, one row per class used here):
//!
//! Copyright (c) 2002-2006 Sam Ruby, Mark Pilgrim, Joseph Walton, Phil Ringnalda.
//!
//! Permission is hereby granted, free of charge, to any person obtaining a copy of this
//! software and associated documentation files (the "Software"), to deal in the Software
//! without restriction, including without limitation the rights to use, copy, modify, merge,
//! publish, distribute, sublicense, and/or sell copies of the Software, and to permit persons
//! to whom the Software is furnished to do so, subject to the following conditions:
//!
//! The above copyright notice and this permission notice shall be included in all copies or
//! substantial portions of the Software.
//!
//! THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED,
//! INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR
//! PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE
//! FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR
//! OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER
//! DEALINGS IN THE SOFTWARE.

use crate::error::Severity;

/// A Feed Validator message class (the finding's `code`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Code {
    /// Error (parent class `Error`): `Undefined %(parent)s element: %(element)s`
    UndefinedElement,
    /// Warning (parent class `Warning`): `%(element)s should not contain HTML`
    ContainsHTML,
    /// Warning (parent class `ContainsHTML`):
    /// `Encode "&" and "<" in plain text using hexadecimal character references.`
    CharacterData,
    /// Error (parent class `InvalidValue`): `%(element)s must be an RFC-822 date-time`
    InvalidRFC2822Date,
    /// Warning (parent class `Warning`): `Problematical RFC 822 date-time value`
    ProblematicalRFC822Date,
    /// Error (parent class `InvalidRFC2822Date`): `Incorrect day of week`
    IncorrectDOW,
    /// Warning (parent class `Warning`): `Implausible date`
    ImplausibleDate,
    /// Error (parent class `InvalidValue`): `Invalid email address`
    InvalidContact,
    /// Warning (parent class `RSS20Profile`): `Email address is not in the recommended format`
    EmailFormat,
    /// Warning (parent class `EmailFormat`): `Email address is missing real name`
    MissingRealName,
    /// Error (parent class `InvalidLink`): `%(element)s must be a full and valid URL`
    InvalidFullLink,
    /// Error (parent class `InvalidLink`): `IRI found where URL expected`
    UriNotIri,
    /// Error (parent class `InvalidURIAttribute`): `%(element)s must be a full URL`
    InvalidURLAttribute,
    /// Error (parent class `Error`): `Invalid RSS Version`
    InvalidRSSVersion,
    /// Warning (parent class `Warning`): `This feed is an obsolete version`
    ObsoleteVersion,
    /// Error (parent class `Error`): `Missing %(element)s attribute: %(attr)s`
    MissingAttribute,
    /// Error (parent class `Error`): `Missing %(parent)s element: %(element)s`
    MissingElement,
    /// Error (parent class `MissingElement`): `Missing %(parent)s element: %(element)s`
    MissingDescription,
    /// Error (parent class `MissingElement`): `Missing %(parent)s element: %(element)s`
    MissingLink,
    /// Error (parent class `MissingElement`): `Missing %(parent)s element: %(element)s`
    MissingTitle,
    /// Error (parent class `Error`): `%(parent)s contains more than one %(element)s`
    DuplicateElement,
    /// Warning (parent class `RSS20Profile`): `Misplaced Item`
    MisplacedItem,
    /// Warning (parent class `Warning`): `%(element)s should not be blank`
    NotBlank,
    /// Warning (parent class `Warning`): `Image link doesn't match channel link`
    ImageLinkDoesntMatch,
    /// Warning (parent class `RSS20Profile`): `Image title doesn't match channel title`
    ImageTitleDoesntMatch,
    /// Error (parent class `InvalidValue`): `%(element)s must be between 1 and 400`
    InvalidHeight,
    /// Error (parent class `InvalidValue`): `%(element)s must be between 1 and 144`
    InvalidWidth,
    /// Error (parent class `InvalidValue`): `%(element)s must be an ISO-639 language code`
    InvalidLanguage,
    /// Error (parent class `InvalidValue`):
    /// `%(element)s must be Monday, Tuesday, Wednesday, Thursday, Friday, Saturday, or Sunday`
    InvalidDay,
    /// Error (parent class `InvalidValue`): `%(element)s must be an integer between 0 and 23`
    InvalidHour,
    /// Error (parent class `InvalidValue`):
    /// `%(element)s values must not be duplicated within a feed`
    DuplicateValue,
    /// Error (parent class `Error`): `skipDays can not contain more than 7 day elements`
    EightDaysAWeek,
    /// Error (parent class `Error`): `skipHours can not contain more than 24 hour elements`
    NotEnoughHoursInTheDay,
    /// Warning (parent class `RSS20Profile`): `Use zero for midnight`
    UseZeroForMidnight,
    /// Warning (parent class `RSS20Profile`): `Avoid Text Input`
    AvoidTextInput,
    /// Error (parent class `InvalidValue`): `Invalid form component name`
    InvalidFormComponentName,
    /// Error (parent class `InvalidInteger`): `%(element)s must be a non-negative integer`
    InvalidNonNegativeInteger,
    /// Error (parent class `InvalidValue`):
    /// `%(attr)s attribute of %(element)s must be a positive integer`
    InvalidIntegerAttribute,
    /// Error (parent class `Error`): `Invalid value for %(attr)s`
    InvalidValue,
    /// Error (parent class `MissingElement`): `item must contain either title or description`
    ItemMustContainTitleOrDescription,
    /// Warning (parent class `Warning`): `item contains more than one enclosure`
    DuplicateEnclosure,
    /// Error (parent class `InvalidNonNegativeInteger`): `Use zero for unknown length`
    UseZeroForUnknown,
    /// Error (parent class `InvalidValue`):
    /// `%(attr)s attribute of %(element)s must be a valid MIME type`
    InvalidMIMEAttribute,
    /// Error (parent class `Error`):
    /// `guid must be a full URL, unless isPermaLink attribute is false`
    InvalidPermalink,
    /// Error (parent class `InvalidValue`):
    /// `%(attr)s attribute of %(element)s must be 'true' or 'false'`
    InvalidBooleanAttribute,
    /// Warning (parent class `Warning`): `%(parent)s should contain a %(element)s element`
    MissingGuid,
    /// Warning (parent class `Warning`): `%(element)s should not contain relative URL references`
    ContainsRelRef,
    /// Error (parent class `MissingAttribute`): `%(element)s must have an href attribute`
    MissingHref,
    /// Warning (parent class `MissingSelf`): `Missing atom:link with rel="self"`
    MissingAtomSelfLink,
    /// Warning (parent class `Warning`): `Relative href value on self link`
    RelativeSelf,
    /// Warning (parent class `RSS20Profile`): `Ensure description precedes content:encoded`
    NeedDescriptionBeforeContent,
    /// Warning (parent class `DuplicateSemantics`):
    /// `An item should not include both %(core)s and %(ext)s`
    DuplicateItemSemantics,
    /// Warning (parent class `Warning`): `A channel should not include both %(core)s and %(ext)s`
    DuplicateSemantics,
    /// Warning (parent class `RSS20Profile`):
    /// `Ensure lastBuildDate is present when slash:comments is used`
    SlashDate,
    /// Warning (parent class `Warning`): `%(message)s`
    NotHtml,
    /// Warning (parent class `Warning`):
    /// `Identifier "%(uri)s" is not in canonical form (the canonical form would be "%(curi)s")`
    NonCanonicalURI,
    /// Error (parent class `Error`): `Invalid Media Rating`
    InvalidMediaRating,
    /// Warning: the abstract parent of the RSS Best Practices Profile warnings; its findings
    /// carry their text in the `message` parameter (no template of its own).
    RSS20Profile,
    /// Warning (parent class `Warning`): `%(element)s should not contain %(tag)s tag`
    SecurityRisk,
    /// Warning (parent class `SecurityRisk`): `%(element)s should not contain %(attr)s attribute`
    SecurityRiskAttr,
    /// Warning (parent class `Warning`): `Image not in required format`
    ImageUrlFormat,
    /// Warning (parent class `Warning`): `The specified guid is not sufficiently unique`
    NotSufficientlyUnique,
    /// Error (parent class `Error`): `Unexpected %(attribute)s attribute on %(element)s element`
    /// (the validator's `attribute` parameter is the finding's `attr`).
    UnexpectedAttribute,
    /// Warning (parent class `Warning`): `URI scheme not IANA registered` (`value`: the scheme).
    SchemeNotIANARegistered,
    // Atom 1.0 (RFC 4287).
    /// Warning (parent class `Warning`): `Missing atom:link with rel="self"`
    MissingSelf,
    /// Error (parent class `Error`): `Duplicate alternate links with the same type and hreflang`
    DuplicateAtomLink,
    /// Warning (parent class `Warning`): `Two entries with the same id`
    DuplicateEntries,
    /// Error (parent class `InvalidValue`): `%(element)s must be an RFC-3339 date-time`
    InvalidRFC3339Date,
    /// Error (parent class `InvalidValue`): `type attribute must be "text", "html", or "xhtml"`
    InvalidTextType,
    /// Error (parent class `InvalidMediaRange`): `Not a valid MIME type`
    InvalidMIMEType,
    /// Error (parent class `MissingElement`): `Missing xhtml:div element`
    MissingXhtmlDiv,
    /// Error (parent class `Error`): `Unexpected Text`
    UnexpectedText,
    /// Error (parent class `MissingElement`): `Missing content or alternate link`
    MissingContentOrAlternate,
    /// Error (parent class `Error`): `Missing summary`
    MissingSummary,
    /// Warning (parent class `Warning`): `Missing textual content`
    MissingTextualContent,
    /// Warning (parent class `Warning`): `Unregistered link relationship`
    UnregisteredAtomLinkRel,
    /// Error (parent class `InvalidValue`): `%(element)s must be a valid URI`
    InvalidLink,
    /// Error (parent class `InvalidLink`): `%(attr)s attribute of %(element)s must be a valid URI`
    InvalidURIAttribute,
    // iTunes (Apple Podcasts).
    /// Error (parent class `InvalidValue`):
    /// `%(text)s is not one of the predefined iTunes categories or sub-categories`
    InvalidItunesCategory,
    /// Warning (parent class `Warning`): `%(text)s is an obsolete iTunes category or sub-category`
    ObsoleteItunesCategory,
    /// Error (parent class `InvalidValue`): `%(element)s must be "yes", "no", or "clean"`
    InvalidYesNoClean,
    /// Error (parent class `InvalidValue`): `Invalid duration`
    InvalidDuration,
    /// Warning (parent class `Warning`):
    /// `Missing recommended iTunes %(parent)s element: %(element)s`
    MissingItunesElement,
    // Media RSS (https://www.rssboard.org/media-rss).
    /// Error (parent class `Error`): `Invalid content medium: "%(value)s"`
    InvalidMediaMedium,
    /// Error (parent class `Error`): `Invalid content expression: "%(value)s"`
    InvalidMediaExpression,
    /// Error (parent class `InvalidValue`): `Invalid value for %(attr)s`
    InvalidFloat,
    /// Error (parent class `Error`): `media:restriction must be 'all' or 'none'`
    InvalidMediaRestriction,
    /// Error (parent class `Error`): `relationship must be 'allow' or 'deny'`
    InvalidMediaRestrictionRel,
    /// Error (parent class `Error`): `type must be 'country', 'uri' or 'sharing'`
    InvalidMediaRestrictionType,
    /// Error (parent class `InvalidValue`): `Invalid country code: "%(value)s"`
    InvalidCountryCode,
    /// Error (parent class `Error`): `Invalid Credit Role`
    InvalidCreditRole,
    /// Error (parent class `Error`): `Invalid Media Hash`
    InvalidMediaHash,
    /// Error (parent class `InvalidValue`): `Invalid value for %(attr)s`
    InvalidPriceType,
    /// Error (parent class `Error`): `media:group must have multiple media:content children`
    MediaGroupWithoutAlternatives,
    /// Error (parent class `Error`): `type attribute must be "plain" or "html"`
    InvalidMediaTextType,
    /// Warning (parent class `Warning`): `media:adult is deprecated`
    DeprecatedMediaAdult,
    /// Error (parent class `Error`): `Missing trailing slash in mediaRSS namespace`
    MediaRssNamespace,
    /// Warning (parent class `Warning`): `media:group should have only one media:content with isDefault="true"`
    MultipleMediaDefaults,
    // JSON Feed 1.1 (https://www.jsonfeed.org/version/1.1/): feedmill's classes, in the validator's style.
    /// Error (parent class `Error`): `Missing %(parent)s member: %(element)s`
    MissingJsonMember,
    /// Error (parent class `Error`): `%(element)s must be %(type)s`
    InvalidJsonType,
    /// Error (parent class `Error`): `Unknown JSON Feed version: "%(value)s"`
    UnknownJsonFeedVersion,
    /// Error (parent class `Error`): `%(element)s must be a URL`
    InvalidJsonURL,
    /// Warning (parent class `Warning`): `%(element)s should be an absolute URL`
    RelativeJsonURL,
    /// Error (parent class `InvalidValue`): `%(element)s must be an RFC 3339 date-time`
    InvalidJsonDate,
    /// Error (parent class `Error`): `Two items with the same id`
    DuplicateJsonItemId,
    /// Error (parent class `MissingJsonMember`): `item must contain content_html or content_text`
    MissingJsonContent,
    /// Error (parent class `InvalidValue`): `%(element)s must be a number greater than or equal to 0`
    InvalidJsonNumber,
    /// Error (parent class `Error`): `An author object must have name, url or avatar`
    EmptyJsonAuthor,
    /// Warning (parent class `Warning`): `author is deprecated in JSON Feed 1.1: use authors`
    DeprecatedJsonAuthor,
    /// Warning (parent class `Warning`): `%(element)s is a JSON Feed 1.1 member; the feed's version is 1`
    JsonMemberNotInVersion,
    /// Error (parent class `Error`): `next_url must not be the same as feed_url`
    JsonNextUrlIsFeedUrl,
    /// Warning (parent class `Warning`): `Undefined %(parent)s member: %(element)s`
    UndefinedJsonMember,
    /// Warning (parent class `Warning`): `id should be a string (readers coerce %(value)s)`
    JsonIdNotString,
    // RSS core beyond the Profile, RSS 1.0, iTunes (remaining), Atom 1.0 person constructs.
    /// Error (parent class `InvalidInteger`): `%(element)s must be a positive integer`
    InvalidPositiveInteger,
    /// Error (parent class `InvalidValue`): `%(element)s must be "yes", "no"`
    InvalidYesNo,
    /// Error (parent class `InvalidValue`): no template in the validator's table; feedmill's:
    /// `%(element)s must be "episodic" or "serial"`
    InvalidItunesChannelType,
    /// Error (parent class `InvalidValue`): no template in the validator's table; feedmill's:
    /// `%(element)s must be "full", "trailer" or "bonus"`
    InvalidItunesEpisodeType,
    /// Warning (parent class `Warning`): `The recommended <itunes:email> element is missing`
    MissingItunesEmail,
    /// Warning (parent class `Warning`): `Use commas to separate keywords`
    InvalidKeywords,
    /// Error (parent class `InvalidValue`):
    /// `length of %(len)d exceeds the maximum allowable for %(element)s of %(max)d`
    TooLong,
    /// Error (parent class `InvalidContact`): `%(element)s must be an email address`
    InvalidAddrSpec,
    /// Error (parent class `InvalidLink`): `%(element)s must be a valid IRI`
    InvalidIRI,
}

/// Every code, in declaration order (the index is `code as usize`).
pub const ALL: [Code; 122] = [
    Code::UndefinedElement,
    Code::ContainsHTML,
    Code::CharacterData,
    Code::InvalidRFC2822Date,
    Code::ProblematicalRFC822Date,
    Code::IncorrectDOW,
    Code::ImplausibleDate,
    Code::InvalidContact,
    Code::EmailFormat,
    Code::MissingRealName,
    Code::InvalidFullLink,
    Code::UriNotIri,
    Code::InvalidURLAttribute,
    Code::InvalidRSSVersion,
    Code::ObsoleteVersion,
    Code::MissingAttribute,
    Code::MissingElement,
    Code::MissingDescription,
    Code::MissingLink,
    Code::MissingTitle,
    Code::DuplicateElement,
    Code::MisplacedItem,
    Code::NotBlank,
    Code::ImageLinkDoesntMatch,
    Code::ImageTitleDoesntMatch,
    Code::InvalidHeight,
    Code::InvalidWidth,
    Code::InvalidLanguage,
    Code::InvalidDay,
    Code::InvalidHour,
    Code::DuplicateValue,
    Code::EightDaysAWeek,
    Code::NotEnoughHoursInTheDay,
    Code::UseZeroForMidnight,
    Code::AvoidTextInput,
    Code::InvalidFormComponentName,
    Code::InvalidNonNegativeInteger,
    Code::InvalidIntegerAttribute,
    Code::InvalidValue,
    Code::ItemMustContainTitleOrDescription,
    Code::DuplicateEnclosure,
    Code::UseZeroForUnknown,
    Code::InvalidMIMEAttribute,
    Code::InvalidPermalink,
    Code::InvalidBooleanAttribute,
    Code::MissingGuid,
    Code::ContainsRelRef,
    Code::MissingHref,
    Code::MissingAtomSelfLink,
    Code::RelativeSelf,
    Code::NeedDescriptionBeforeContent,
    Code::DuplicateItemSemantics,
    Code::DuplicateSemantics,
    Code::SlashDate,
    Code::NotHtml,
    Code::NonCanonicalURI,
    Code::InvalidMediaRating,
    Code::RSS20Profile,
    Code::SecurityRisk,
    Code::SecurityRiskAttr,
    Code::ImageUrlFormat,
    Code::NotSufficientlyUnique,
    Code::UnexpectedAttribute,
    Code::SchemeNotIANARegistered,
    Code::MissingSelf,
    Code::DuplicateAtomLink,
    Code::DuplicateEntries,
    Code::InvalidRFC3339Date,
    Code::InvalidTextType,
    Code::InvalidMIMEType,
    Code::MissingXhtmlDiv,
    Code::UnexpectedText,
    Code::MissingContentOrAlternate,
    Code::MissingSummary,
    Code::MissingTextualContent,
    Code::UnregisteredAtomLinkRel,
    Code::InvalidLink,
    Code::InvalidURIAttribute,
    Code::InvalidItunesCategory,
    Code::ObsoleteItunesCategory,
    Code::InvalidYesNoClean,
    Code::InvalidDuration,
    Code::MissingItunesElement,
    // Media RSS.
    Code::InvalidMediaMedium,
    Code::InvalidMediaExpression,
    Code::InvalidFloat,
    Code::InvalidMediaRestriction,
    Code::InvalidMediaRestrictionRel,
    Code::InvalidMediaRestrictionType,
    Code::InvalidCountryCode,
    Code::InvalidCreditRole,
    Code::InvalidMediaHash,
    Code::InvalidPriceType,
    Code::MediaGroupWithoutAlternatives,
    Code::InvalidMediaTextType,
    Code::DeprecatedMediaAdult,
    Code::MediaRssNamespace,
    Code::MultipleMediaDefaults,
    // JSON Feed 1.1.
    Code::MissingJsonMember,
    Code::InvalidJsonType,
    Code::UnknownJsonFeedVersion,
    Code::InvalidJsonURL,
    Code::RelativeJsonURL,
    Code::InvalidJsonDate,
    Code::DuplicateJsonItemId,
    Code::MissingJsonContent,
    Code::InvalidJsonNumber,
    Code::EmptyJsonAuthor,
    Code::DeprecatedJsonAuthor,
    Code::JsonMemberNotInVersion,
    Code::JsonNextUrlIsFeedUrl,
    Code::UndefinedJsonMember,
    Code::JsonIdNotString,
    // RSS core beyond the Profile, RSS 1.0, iTunes (remaining), Atom 1.0 person constructs.
    Code::InvalidPositiveInteger,
    Code::InvalidYesNo,
    Code::InvalidItunesChannelType,
    Code::InvalidItunesEpisodeType,
    Code::MissingItunesEmail,
    Code::InvalidKeywords,
    Code::TooLong,
    Code::InvalidAddrSpec,
    Code::InvalidIRI,
];

impl Code {
    /// The class name (`MissingDescription`).
    pub fn name(self) -> &'static str {
        self.row().0
    }

    /// The parent class name.
    pub fn parent(self) -> &'static str {
        self.row().1
    }

    /// The class's severity (the validator's `Error` or `Warning`; no class here is `Info`).
    pub fn severity(self) -> Severity {
        self.row().2
    }

    /// The message template (inherited from the nearest ancestor when the class has none).
    pub fn template(self) -> &'static str {
        self.row().3
    }

    /// The rule set the class was added for (`RSS Best Practices Profile`, `Atom 1.0 (RFC
    /// 4287)`, `iTunes (Apple Podcasts)`, `Media RSS`, `JSON Feed 1.1`); a class several rule
    /// sets report (`MissingAttribute`) is the first one's. A finding's own rule set is its
    /// `section`'s.
    pub fn family(self) -> &'static str {
        family(self).0
    }

    /// The reference document of [`Code::family`] (the Profile, RFC 4287, Apple's
    /// requirements, the Media RSS specification, JSON Feed 1.1).
    pub fn reference(self) -> &'static str {
        family(self).1
    }

    /// Whether the class is one of the W3C Feed Validator's (with a page at
    /// `validator.w3.org/feed/docs/`); the JSON Feed classes and `MultipleMediaDefaults` are
    /// feedmill's, in its style.
    pub fn is_validator_class(self) -> bool {
        family(self).0 != JSON_FEED.0 && self != Code::MultipleMediaDefaults
    }

    fn row(self) -> (&'static str, &'static str, Severity, &'static str) {
        match self {
            Code::UndefinedElement => ("UndefinedElement", "Error", Severity::Error, "Undefined %(parent)s element: %(element)s"),
            Code::ContainsHTML => ("ContainsHTML", "Warning", Severity::Warning, "%(element)s should not contain HTML"),
            Code::CharacterData => ("CharacterData", "ContainsHTML", Severity::Warning, "Encode \"&\" and \"<\" in plain text using hexadecimal character references."),
            Code::InvalidRFC2822Date => ("InvalidRFC2822Date", "InvalidValue", Severity::Error, "%(element)s must be an RFC-822 date-time"),
            Code::ProblematicalRFC822Date => ("ProblematicalRFC822Date", "Warning", Severity::Warning, "Problematical RFC 822 date-time value"),
            Code::IncorrectDOW => ("IncorrectDOW", "InvalidRFC2822Date", Severity::Error, "Incorrect day of week"),
            Code::ImplausibleDate => ("ImplausibleDate", "Warning", Severity::Warning, "Implausible date"),
            Code::InvalidContact => ("InvalidContact", "InvalidValue", Severity::Error, "Invalid email address"),
            Code::EmailFormat => ("EmailFormat", "RSS20Profile", Severity::Warning, "Email address is not in the recommended format"),
            Code::MissingRealName => ("MissingRealName", "EmailFormat", Severity::Warning, "Email address is missing real name"),
            Code::InvalidFullLink => ("InvalidFullLink", "InvalidLink", Severity::Error, "%(element)s must be a full and valid URL"),
            Code::UriNotIri => ("UriNotIri", "InvalidLink", Severity::Error, "IRI found where URL expected"),
            Code::InvalidURLAttribute => ("InvalidURLAttribute", "InvalidURIAttribute", Severity::Error, "%(element)s must be a full URL"),
            Code::InvalidRSSVersion => ("InvalidRSSVersion", "Error", Severity::Error, "Invalid RSS Version"),
            Code::ObsoleteVersion => ("ObsoleteVersion", "Warning", Severity::Warning, "This feed is an obsolete version"),
            Code::MissingAttribute => ("MissingAttribute", "Error", Severity::Error, "Missing %(element)s attribute: %(attr)s"),
            Code::MissingElement => ("MissingElement", "Error", Severity::Error, "Missing %(parent)s element: %(element)s"),
            Code::MissingDescription => ("MissingDescription", "MissingElement", Severity::Error, "Missing %(parent)s element: %(element)s"),
            Code::MissingLink => ("MissingLink", "MissingElement", Severity::Error, "Missing %(parent)s element: %(element)s"),
            Code::MissingTitle => ("MissingTitle", "MissingElement", Severity::Error, "Missing %(parent)s element: %(element)s"),
            Code::DuplicateElement => ("DuplicateElement", "Error", Severity::Error, "%(parent)s contains more than one %(element)s"),
            Code::MisplacedItem => ("MisplacedItem", "RSS20Profile", Severity::Warning, "Misplaced Item"),
            Code::NotBlank => ("NotBlank", "Warning", Severity::Warning, "%(element)s should not be blank"),
            Code::ImageLinkDoesntMatch => ("ImageLinkDoesntMatch", "Warning", Severity::Warning, "Image link doesn't match channel link"),
            Code::ImageTitleDoesntMatch => ("ImageTitleDoesntMatch", "RSS20Profile", Severity::Warning, "Image title doesn't match channel title"),
            Code::InvalidHeight => ("InvalidHeight", "InvalidValue", Severity::Error, "%(element)s must be between 1 and 400"),
            Code::InvalidWidth => ("InvalidWidth", "InvalidValue", Severity::Error, "%(element)s must be between 1 and 144"),
            Code::InvalidLanguage => ("InvalidLanguage", "InvalidValue", Severity::Error, "%(element)s must be an ISO-639 language code"),
            Code::InvalidDay => ("InvalidDay", "InvalidValue", Severity::Error, "%(element)s must be Monday, Tuesday, Wednesday, Thursday, Friday, Saturday, or Sunday"),
            Code::InvalidHour => ("InvalidHour", "InvalidValue", Severity::Error, "%(element)s must be an integer between 0 and 23"),
            Code::DuplicateValue => ("DuplicateValue", "InvalidValue", Severity::Error, "%(element)s values must not be duplicated within a feed"),
            Code::EightDaysAWeek => ("EightDaysAWeek", "Error", Severity::Error, "skipDays can not contain more than 7 day elements"),
            Code::NotEnoughHoursInTheDay => ("NotEnoughHoursInTheDay", "Error", Severity::Error, "skipHours can not contain more than 24 hour elements"),
            Code::UseZeroForMidnight => ("UseZeroForMidnight", "RSS20Profile", Severity::Warning, "Use zero for midnight"),
            Code::AvoidTextInput => ("AvoidTextInput", "RSS20Profile", Severity::Warning, "Avoid Text Input"),
            Code::InvalidFormComponentName => ("InvalidFormComponentName", "InvalidValue", Severity::Error, "Invalid form component name"),
            Code::InvalidNonNegativeInteger => ("InvalidNonNegativeInteger", "InvalidInteger", Severity::Error, "%(element)s must be a non-negative integer"),
            Code::InvalidIntegerAttribute => ("InvalidIntegerAttribute", "InvalidValue", Severity::Error, "%(attr)s attribute of %(element)s must be a positive integer"),
            Code::InvalidValue => ("InvalidValue", "Error", Severity::Error, "Invalid value for %(attr)s"),
            Code::ItemMustContainTitleOrDescription => ("ItemMustContainTitleOrDescription", "MissingElement", Severity::Error, "item must contain either title or description"),
            Code::DuplicateEnclosure => ("DuplicateEnclosure", "Warning", Severity::Warning, "item contains more than one enclosure"),
            Code::UseZeroForUnknown => ("UseZeroForUnknown", "InvalidNonNegativeInteger", Severity::Error, "Use zero for unknown length"),
            Code::InvalidMIMEAttribute => ("InvalidMIMEAttribute", "InvalidValue", Severity::Error, "%(attr)s attribute of %(element)s must be a valid MIME type"),
            Code::InvalidPermalink => ("InvalidPermalink", "Error", Severity::Error, "guid must be a full URL, unless isPermaLink attribute is false"),
            Code::InvalidBooleanAttribute => ("InvalidBooleanAttribute", "InvalidValue", Severity::Error, "%(attr)s attribute of %(element)s must be 'true' or 'false'"),
            Code::MissingGuid => ("MissingGuid", "Warning", Severity::Warning, "%(parent)s should contain a %(element)s element"),
            Code::ContainsRelRef => ("ContainsRelRef", "Warning", Severity::Warning, "%(element)s should not contain relative URL references"),
            Code::MissingHref => ("MissingHref", "MissingAttribute", Severity::Error, "%(element)s must have an href attribute"),
            Code::MissingAtomSelfLink => ("MissingAtomSelfLink", "MissingSelf", Severity::Warning, "Missing atom:link with rel=\"self\""),
            Code::RelativeSelf => ("RelativeSelf", "Warning", Severity::Warning, "Relative href value on self link"),
            Code::NeedDescriptionBeforeContent => ("NeedDescriptionBeforeContent", "RSS20Profile", Severity::Warning, "Ensure description precedes content:encoded"),
            Code::DuplicateItemSemantics => ("DuplicateItemSemantics", "DuplicateSemantics", Severity::Warning, "An item should not include both %(core)s and %(ext)s"),
            Code::DuplicateSemantics => ("DuplicateSemantics", "Warning", Severity::Warning, "A channel should not include both %(core)s and %(ext)s"),
            Code::SlashDate => ("SlashDate", "RSS20Profile", Severity::Warning, "Ensure lastBuildDate is present when slash:comments is used"),
            Code::NotHtml => ("NotHtml", "Warning", Severity::Warning, "%(message)s"),
            Code::NonCanonicalURI => ("NonCanonicalURI", "Warning", Severity::Warning, "Identifier \"%(uri)s\" is not in canonical form (the canonical form would be \"%(curi)s\")"),
            Code::InvalidMediaRating => ("InvalidMediaRating", "Error", Severity::Error, "Invalid Media Rating"),
            Code::RSS20Profile => ("RSS20Profile", "Warning", Severity::Warning, ""),
            Code::SecurityRisk => ("SecurityRisk", "Warning", Severity::Warning, "%(element)s should not contain %(tag)s tag"),
            Code::ImageUrlFormat => ("ImageUrlFormat", "Warning", Severity::Warning, "Image not in required format"),
            Code::NotSufficientlyUnique => ("NotSufficientlyUnique", "Warning", Severity::Warning, "The specified guid is not sufficiently unique"),
            Code::UnexpectedAttribute => ("UnexpectedAttribute", "Error", Severity::Error, "Unexpected %(attr)s attribute on %(element)s element"),
            Code::SchemeNotIANARegistered => ("SchemeNotIANARegistered", "Warning", Severity::Warning, "URI scheme not IANA registered"),
            Code::SecurityRiskAttr => ("SecurityRiskAttr", "SecurityRisk", Severity::Warning, "%(element)s should not contain %(attr)s attribute"),
            Code::MissingSelf => ("MissingSelf", "Warning", Severity::Warning, "Missing atom:link with rel=\"self\""),
            Code::DuplicateAtomLink => ("DuplicateAtomLink", "Error", Severity::Error, "Duplicate alternate links with the same type and hreflang"),
            Code::DuplicateEntries => ("DuplicateEntries", "Warning", Severity::Warning, "Two entries with the same id"),
            Code::InvalidRFC3339Date => ("InvalidRFC3339Date", "InvalidValue", Severity::Error, "%(element)s must be an RFC-3339 date-time"),
            Code::InvalidTextType => ("InvalidTextType", "InvalidValue", Severity::Error, "type attribute must be \"text\", \"html\", or \"xhtml\""),
            Code::InvalidMIMEType => ("InvalidMIMEType", "InvalidMediaRange", Severity::Error, "Not a valid MIME type"),
            Code::MissingXhtmlDiv => ("MissingXhtmlDiv", "MissingElement", Severity::Error, "Missing xhtml:div element"),
            Code::UnexpectedText => ("UnexpectedText", "Error", Severity::Error, "Unexpected Text"),
            Code::MissingContentOrAlternate => ("MissingContentOrAlternate", "MissingElement", Severity::Error, "Missing content or alternate link"),
            Code::MissingSummary => ("MissingSummary", "Error", Severity::Error, "Missing summary"),
            Code::MissingTextualContent => ("MissingTextualContent", "Warning", Severity::Warning, "Missing textual content"),
            Code::UnregisteredAtomLinkRel => ("UnregisteredAtomLinkRel", "Warning", Severity::Warning, "Unregistered link relationship"),
            Code::InvalidLink => ("InvalidLink", "InvalidValue", Severity::Error, "%(element)s must be a valid URI"),
            Code::InvalidURIAttribute => ("InvalidURIAttribute", "InvalidLink", Severity::Error, "%(attr)s attribute of %(element)s must be a valid URI"),
            Code::InvalidItunesCategory => ("InvalidItunesCategory", "InvalidValue", Severity::Error, "%(text)s is not one of the predefined iTunes categories or sub-categories"),
            Code::ObsoleteItunesCategory => ("ObsoleteItunesCategory", "Warning", Severity::Warning, "%(text)s is an obsolete iTunes category or sub-category"),
            Code::InvalidYesNoClean => ("InvalidYesNoClean", "InvalidValue", Severity::Error, "%(element)s must be \"yes\", \"no\", or \"clean\""),
            Code::InvalidDuration => ("InvalidDuration", "InvalidValue", Severity::Error, "Invalid duration"),
            Code::MissingItunesElement => ("MissingItunesElement", "Warning", Severity::Warning, "Missing recommended iTunes %(parent)s element: %(element)s"),
            // Media RSS.
            Code::InvalidMediaMedium => ("InvalidMediaMedium", "Error", Severity::Error, "Invalid content medium: \"%(value)s\""),
            Code::InvalidMediaExpression => ("InvalidMediaExpression", "Error", Severity::Error, "Invalid content expression: \"%(value)s\""),
            Code::InvalidFloat => ("InvalidFloat", "InvalidValue", Severity::Error, "Invalid value for %(attr)s"),
            Code::InvalidMediaRestriction => ("InvalidMediaRestriction", "Error", Severity::Error, "media:restriction must be 'all' or 'none'"),
            Code::InvalidMediaRestrictionRel => ("InvalidMediaRestrictionRel", "Error", Severity::Error, "relationship must be 'allow' or 'deny'"),
            Code::InvalidMediaRestrictionType => ("InvalidMediaRestrictionType", "Error", Severity::Error, "type must be 'country', 'uri' or 'sharing'"),
            Code::InvalidCountryCode => ("InvalidCountryCode", "InvalidValue", Severity::Error, "Invalid country code: \"%(value)s\""),
            Code::InvalidCreditRole => ("InvalidCreditRole", "Error", Severity::Error, "Invalid Credit Role"),
            Code::InvalidMediaHash => ("InvalidMediaHash", "Error", Severity::Error, "Invalid Media Hash"),
            Code::InvalidPriceType => ("InvalidPriceType", "InvalidValue", Severity::Error, "Invalid value for %(attr)s"),
            Code::MediaGroupWithoutAlternatives => ("MediaGroupWithoutAlternatives", "Error", Severity::Error, "media:group must have multiple media:content children"),
            Code::InvalidMediaTextType => ("InvalidMediaTextType", "Error", Severity::Error, "type attribute must be \"plain\" or \"html\""),
            Code::DeprecatedMediaAdult => ("DeprecatedMediaAdult", "Warning", Severity::Warning, "media:adult is deprecated"),
            Code::MediaRssNamespace => ("MediaRssNamespace", "Error", Severity::Error, "Missing trailing slash in mediaRSS namespace"),
            Code::MultipleMediaDefaults => ("MultipleMediaDefaults", "Warning", Severity::Warning, "media:group should have only one media:content with isDefault=\"true\""),
            // JSON Feed 1.1.
            Code::MissingJsonMember => ("MissingJsonMember", "Error", Severity::Error, "Missing %(parent)s member: %(element)s"),
            Code::InvalidJsonType => ("InvalidJsonType", "Error", Severity::Error, "%(element)s must be %(type)s"),
            Code::UnknownJsonFeedVersion => ("UnknownJsonFeedVersion", "Error", Severity::Error, "Unknown JSON Feed version: \"%(value)s\""),
            Code::InvalidJsonURL => ("InvalidJsonURL", "Error", Severity::Error, "%(element)s must be a URL"),
            Code::RelativeJsonURL => ("RelativeJsonURL", "Warning", Severity::Warning, "%(element)s should be an absolute URL"),
            Code::InvalidJsonDate => ("InvalidJsonDate", "InvalidValue", Severity::Error, "%(element)s must be an RFC 3339 date-time"),
            Code::DuplicateJsonItemId => ("DuplicateJsonItemId", "Error", Severity::Error, "Two items with the same id"),
            Code::MissingJsonContent => ("MissingJsonContent", "MissingJsonMember", Severity::Error, "item must contain content_html or content_text"),
            Code::InvalidJsonNumber => ("InvalidJsonNumber", "InvalidValue", Severity::Error, "%(element)s must be a number greater than or equal to 0"),
            Code::EmptyJsonAuthor => ("EmptyJsonAuthor", "Error", Severity::Error, "An author object must have name, url or avatar"),
            Code::DeprecatedJsonAuthor => ("DeprecatedJsonAuthor", "Warning", Severity::Warning, "author is deprecated in JSON Feed 1.1: use authors"),
            Code::JsonMemberNotInVersion => ("JsonMemberNotInVersion", "Warning", Severity::Warning, "%(element)s is a JSON Feed 1.1 member; the feed's version is 1"),
            Code::JsonNextUrlIsFeedUrl => ("JsonNextUrlIsFeedUrl", "Error", Severity::Error, "next_url must not be the same as feed_url"),
            Code::UndefinedJsonMember => ("UndefinedJsonMember", "Warning", Severity::Warning, "Undefined %(parent)s member: %(element)s"),
            Code::JsonIdNotString => ("JsonIdNotString", "Warning", Severity::Warning, "id should be a string (readers coerce %(value)s)"),
            // RSS core beyond the Profile, RSS 1.0, iTunes (remaining), Atom 1.0 person constructs.
            Code::InvalidPositiveInteger => ("InvalidPositiveInteger", "InvalidInteger", Severity::Error, "%(element)s must be a positive integer"),
            Code::InvalidYesNo => ("InvalidYesNo", "InvalidValue", Severity::Error, "%(element)s must be \"yes\", \"no\""),
            Code::InvalidItunesChannelType => ("InvalidItunesChannelType", "InvalidValue", Severity::Error, "%(element)s must be \"episodic\" or \"serial\""),
            Code::InvalidItunesEpisodeType => ("InvalidItunesEpisodeType", "InvalidValue", Severity::Error, "%(element)s must be \"full\", \"trailer\" or \"bonus\""),
            Code::MissingItunesEmail => ("MissingItunesEmail", "Warning", Severity::Warning, "The recommended <itunes:email> element is missing"),
            Code::InvalidKeywords => ("InvalidKeywords", "Warning", Severity::Warning, "Use commas to separate keywords"),
            Code::TooLong => ("TooLong", "InvalidValue", Severity::Error, "length of %(len)d exceeds the maximum allowable for %(element)s of %(max)d"),
            Code::InvalidAddrSpec => ("InvalidAddrSpec", "InvalidContact", Severity::Error, "%(element)s must be an email address"),
            Code::InvalidIRI => ("InvalidIRI", "InvalidLink", Severity::Error, "%(element)s must be a valid IRI"),
        }
    }
}

/// The RSS Best Practices Profile family.
const PROFILE: (&str, &str) =
    ("RSS Best Practices Profile", "https://www.rssboard.org/rss-profile");
/// Atom 1.0.
const ATOM: (&str, &str) = ("Atom 1.0 (RFC 4287)", "https://www.rfc-editor.org/rfc/rfc4287");
/// iTunes.
const ITUNES: (&str, &str) =
    ("iTunes (Apple Podcasts)", "https://podcasters.apple.com/support/823-podcast-requirements");
/// RSS 1.0 (RDF Site Summary).
const RSS1: (&str, &str) = ("RSS 1.0", "https://web.resource.org/rss/1.0/spec");
/// Media RSS.
const MEDIA: (&str, &str) = ("Media RSS", "https://www.rssboard.org/media-rss");
/// JSON Feed 1.1.
const JSON_FEED: (&str, &str) = ("JSON Feed 1.1", "https://www.jsonfeed.org/version/1.1/");

/// The reference of the rule set a finding's `section` names (`None`: a Profile section, or
/// one no rule set prefix names).
pub(crate) fn section_reference(section: &str) -> Option<&'static str> {
    [ATOM, ITUNES, RSS1, MEDIA, JSON_FEED, PROFILE]
        .iter()
        .zip(["RFC 4287", "Apple Podcasts", "RSS 1.0", "Media RSS", "JSON Feed", ""])
        .find(|(_, prefix)| {
            if prefix.is_empty() {
                section.starts_with(|c: char| c.is_ascii_digit())
            } else {
                section.starts_with(prefix)
            }
        })
        .map(|(f, _)| f.1)
}

/// The family (name, reference URL) of each class: the rule set it was added for.
fn family(code: Code) -> (&'static str, &'static str) {
    use Code::*;
    match code {
        MissingSelf
        | DuplicateAtomLink
        | DuplicateEntries
        | InvalidRFC3339Date
        | InvalidTextType
        | InvalidMIMEType
        | MissingXhtmlDiv
        | UnexpectedText
        | MissingContentOrAlternate
        | MissingSummary
        | MissingTextualContent
        | UnregisteredAtomLinkRel
        | InvalidLink
        | InvalidURIAttribute
        | InvalidAddrSpec
        | InvalidIRI => ATOM,
        InvalidItunesCategory
        | ObsoleteItunesCategory
        | InvalidYesNoClean
        | InvalidDuration
        | MissingItunesElement
        | InvalidPositiveInteger
        | InvalidYesNo
        | InvalidItunesChannelType
        | InvalidItunesEpisodeType
        | MissingItunesEmail
        | InvalidKeywords
        | TooLong => ITUNES,
        // Media RSS.
        InvalidMediaMedium
        | InvalidMediaExpression
        | InvalidFloat
        | InvalidMediaRestriction
        | InvalidMediaRestrictionRel
        | InvalidMediaRestrictionType
        | InvalidCountryCode
        | InvalidCreditRole
        | InvalidMediaHash
        | InvalidPriceType
        | MediaGroupWithoutAlternatives
        | InvalidMediaTextType
        | DeprecatedMediaAdult
        | MediaRssNamespace
        | MultipleMediaDefaults => MEDIA,
        // JSON Feed 1.1.
        MissingJsonMember
        | InvalidJsonType
        | UnknownJsonFeedVersion
        | InvalidJsonURL
        | RelativeJsonURL
        | InvalidJsonDate
        | DuplicateJsonItemId
        | MissingJsonContent
        | InvalidJsonNumber
        | EmptyJsonAuthor
        | DeprecatedJsonAuthor
        | JsonMemberNotInVersion
        | JsonNextUrlIsFeedUrl
        | UndefinedJsonMember
        | JsonIdNotString => JSON_FEED,
        _ => PROFILE,
    }
}
