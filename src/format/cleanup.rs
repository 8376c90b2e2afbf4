//! "Cleanup entry" \[262\] and "cleanup feed" \[351\].

use crate::model::{Entry, Feed, Image};

/// Runs the cleanup entry steps, in order (NOTES.md §3, D5).
pub fn cleanup_entry(entry: &mut Entry<'_>) {
    // 1. A page URL that is also an enclosure URL is dropped.
    if let Some(page) = entry.page_url {
        if entry.enclosures.iter().any(|e| e.url == Some(page)) {
            entry.page_url = None;
        }
    }
    // 2. The first image enclosure becomes the thumbnail.
    if entry.page_url.is_some() && entry.thumbnail.is_none() {
        if let Some(i) =
            entry.enclosures.iter().position(|e| is_image_enclosure(e.mime_type, e.url))
        {
            let enclosure = entry.enclosures.remove(i);
            entry.thumbnail = Some(Image { url: enclosure.url, ..Image::default() });
        }
    }
    // 3.–5. Duplicate text constructs.
    if same(&entry.title, &entry.subtitle) {
        entry.subtitle = None;
    }
    if same(&entry.title, &entry.summary) {
        entry.summary = None;
    }
    if same(&entry.summary, &entry.content) {
        entry.content = None;
    }
    // Not a spec step: the extension fields' end-of-entry rule.
    super::ext::finish_entry(entry);
}

fn is_image_enclosure(mime_type: Option<&str>, url: Option<&str>) -> bool {
    match mime_type {
        Some(t) => t.len() >= 6 && t.as_bytes()[..6].eq_ignore_ascii_case(b"image/"),
        None => {
            url.is_some_and(|u| u.ends_with(".jpeg") || u.ends_with(".jpg") || u.ends_with(".png"))
        }
    }
}

fn same(a: &Option<crate::Text<'_>>, b: &Option<crate::Text<'_>>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a.same_text_content(b),
        _ => false,
    }
}

/// Runs the cleanup feed step: an icon identical to the logo is dropped.
pub fn cleanup_feed(feed: &mut Feed<'_>) {
    if let (Some(logo), Some(icon)) = (&feed.logo, &feed.icon) {
        if logo.url == icon.url {
            feed.icon = None;
        }
    }
    // Not a spec step: the extension fields' end-of-feed rule.
    super::ext::finish_feed(feed);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Enclosure, Text};

    fn enc<'a>(url: &'a str, ty: Option<&'a str>) -> Enclosure<'a> {
        Enclosure { url: Some(url), mime_type: ty, ..Enclosure::default() }
    }

    #[test]
    fn page_url_equal_to_an_enclosure_is_dropped() {
        let mut e = Entry { page_url: Some("https://a/x.mp3"), ..Entry::default() };
        e.enclosures.push(enc("https://a/x.mp3", Some("audio/mpeg")));
        cleanup_entry(&mut e);
        assert_eq!(e.page_url, None);
        assert_eq!(e.enclosures.len(), 1);
    }

    #[test]
    fn first_image_enclosure_becomes_thumbnail() {
        let mut e = Entry { page_url: Some("https://a/"), ..Entry::default() };
        e.enclosures.push(enc("https://a/a.mp3", Some("audio/mpeg")));
        e.enclosures.push(enc("https://a/b.gif", Some("IMAGE/gif")));
        e.enclosures.push(enc("https://a/b.gif", Some("IMAGE/gif")));
        cleanup_entry(&mut e);
        assert_eq!(e.thumbnail.unwrap().url, Some("https://a/b.gif"));
        assert_eq!(e.enclosures.len(), 2, "only the first such enclosure is removed");
    }

    #[test]
    fn untyped_image_needs_an_image_extension_and_no_query() {
        let mut e = Entry { page_url: Some("https://a/"), ..Entry::default() };
        e.enclosures.push(enc("https://a/b.png?x=1", None));
        e.enclosures.push(enc("https://a/c.jpg", Some("")));
        cleanup_entry(&mut e);
        assert!(e.thumbnail.is_none());
        e.enclosures.push(enc("https://a/d.jpeg", None));
        cleanup_entry(&mut e);
        assert_eq!(e.thumbnail.unwrap().url, Some("https://a/d.jpeg"));
    }

    #[test]
    fn no_thumbnail_without_page_url() {
        let mut e = Entry::default();
        e.enclosures.push(enc("https://a/b.png", None));
        cleanup_entry(&mut e);
        assert!(e.thumbnail.is_none());
    }

    #[test]
    fn duplicate_texts_are_removed_in_order() {
        let mut e = Entry {
            title: Some(Text::Plain("a")),
            subtitle: Some(Text::Plain("a")),
            summary: Some(Text::Plain("a")),
            content: Some(Text::Plain("a")),
            ..Entry::default()
        };
        cleanup_entry(&mut e);
        assert_eq!(e.subtitle, None);
        assert_eq!(e.summary, None);
        // Step 5 compares with the summary left by step 4 (null), so content stays.
        assert_eq!(e.content, Some(Text::Plain("a")));
    }

    #[test]
    fn equal_logo_and_icon_drop_the_icon() {
        let img = Image { url: Some("https://a/i.png"), ..Image::default() };
        let mut f = Feed {
            logo: Some(img),
            icon: Some(Image { width: Some(3), ..img }),
            ..Feed::default()
        };
        cleanup_feed(&mut f);
        assert!(f.icon.is_none());
        assert!(f.logo.is_some());
    }
}
