//! The common-entity shortcut agrees with markup5ever's full table. (The fast builder itself is tested
//! against html5ever in `html::tests`.

use markup5ever::data::NAMED_ENTITIES;

use super::refs::common_entity;

#[test]
fn common_entities_agree_with_the_table() {
    for name in [
        "amp", "lt", "gt", "quot", "apos", "nbsp", "copy", "ndash", "mdash", "lsquo", "rsquo",
        "ldquo", "rdquo", "hellip",
    ] {
        let c = common_entity(name).unwrap();
        let key = format!("{name};");
        assert_eq!(NAMED_ENTITIES.get(key.as_str()), Some(&(c as u32, 0)), "{name}");
    }
    assert_eq!(common_entity("ampx"), None);
}
