//! Inline SVG: element and attribute names adjusted as html5ever adjusts them
//! (`adjust_svg_tag_name`, `adjust_svg_attributes`, `adjust_foreign_attributes`).

use bumpalo::Bump;

use crate::model::fragment::{Attribute, XLINK_NS, XMLNS_NS, XML_NS};

/// An SVG element's name: the lowercased tag name, camel-cased where SVG says so (html5ever's
/// `adjust_svg_tag_name`).
pub(super) fn svg_element_name(name: &str) -> &str {
    match name {
        "altglyph" => "altGlyph",
        "altglyphdef" => "altGlyphDef",
        "altglyphitem" => "altGlyphItem",
        "animatecolor" => "animateColor",
        "animatemotion" => "animateMotion",
        "animatetransform" => "animateTransform",
        "clippath" => "clipPath",
        "feblend" => "feBlend",
        "fecolormatrix" => "feColorMatrix",
        "fecomponenttransfer" => "feComponentTransfer",
        "fecomposite" => "feComposite",
        "feconvolvematrix" => "feConvolveMatrix",
        "fediffuselighting" => "feDiffuseLighting",
        "fedisplacementmap" => "feDisplacementMap",
        "fedistantlight" => "feDistantLight",
        "fedropshadow" => "feDropShadow",
        "feflood" => "feFlood",
        "fefunca" => "feFuncA",
        "fefuncb" => "feFuncB",
        "fefuncg" => "feFuncG",
        "fefuncr" => "feFuncR",
        "fegaussianblur" => "feGaussianBlur",
        "feimage" => "feImage",
        "femerge" => "feMerge",
        "femergenode" => "feMergeNode",
        "femorphology" => "feMorphology",
        "feoffset" => "feOffset",
        "fepointlight" => "fePointLight",
        "fespecularlighting" => "feSpecularLighting",
        "fespotlight" => "feSpotLight",
        "fetile" => "feTile",
        "feturbulence" => "feTurbulence",
        "foreignobject" => "foreignObject",
        "glyphref" => "glyphRef",
        "lineargradient" => "linearGradient",
        "radialgradient" => "radialGradient",
        "textpath" => "textPath",
        other => other,
    }
}

/// (namespace, prefix, local name) of an SVG element's attribute given its lowercased name,
/// where html5ever adjusts it (`adjust_svg_attributes`, then `adjust_foreign_attributes`).
pub(super) fn svg_attribute_name(
    name: &str,
) -> Option<(&'static str, Option<&'static str>, &'static str)> {
    let local = match name {
        "attributename" => "attributeName",
        "attributetype" => "attributeType",
        "basefrequency" => "baseFrequency",
        "baseprofile" => "baseProfile",
        "calcmode" => "calcMode",
        "clippathunits" => "clipPathUnits",
        "diffuseconstant" => "diffuseConstant",
        "edgemode" => "edgeMode",
        "filterunits" => "filterUnits",
        "glyphref" => "glyphRef",
        "gradienttransform" => "gradientTransform",
        "gradientunits" => "gradientUnits",
        "kernelmatrix" => "kernelMatrix",
        "kernelunitlength" => "kernelUnitLength",
        "keypoints" => "keyPoints",
        "keysplines" => "keySplines",
        "keytimes" => "keyTimes",
        "lengthadjust" => "lengthAdjust",
        "limitingconeangle" => "limitingConeAngle",
        "markerheight" => "markerHeight",
        "markerunits" => "markerUnits",
        "markerwidth" => "markerWidth",
        "maskcontentunits" => "maskContentUnits",
        "maskunits" => "maskUnits",
        "numoctaves" => "numOctaves",
        "pathlength" => "pathLength",
        "patterncontentunits" => "patternContentUnits",
        "patterntransform" => "patternTransform",
        "patternunits" => "patternUnits",
        "pointsatx" => "pointsAtX",
        "pointsaty" => "pointsAtY",
        "pointsatz" => "pointsAtZ",
        "preservealpha" => "preserveAlpha",
        "preserveaspectratio" => "preserveAspectRatio",
        "primitiveunits" => "primitiveUnits",
        "refx" => "refX",
        "refy" => "refY",
        "repeatcount" => "repeatCount",
        "repeatdur" => "repeatDur",
        "requiredextensions" => "requiredExtensions",
        "requiredfeatures" => "requiredFeatures",
        "specularconstant" => "specularConstant",
        "specularexponent" => "specularExponent",
        "spreadmethod" => "spreadMethod",
        "startoffset" => "startOffset",
        "stddeviation" => "stdDeviation",
        "stitchtiles" => "stitchTiles",
        "surfacescale" => "surfaceScale",
        "systemlanguage" => "systemLanguage",
        "tablevalues" => "tableValues",
        "targetx" => "targetX",
        "targety" => "targetY",
        "textlength" => "textLength",
        "viewbox" => "viewBox",
        "viewtarget" => "viewTarget",
        "xchannelselector" => "xChannelSelector",
        "ychannelselector" => "yChannelSelector",
        "zoomandpan" => "zoomAndPan",
        "xlink:actuate" => return Some((XLINK_NS, Some("xlink"), "actuate")),
        "xlink:arcrole" => return Some((XLINK_NS, Some("xlink"), "arcrole")),
        "xlink:href" => return Some((XLINK_NS, Some("xlink"), "href")),
        "xlink:role" => return Some((XLINK_NS, Some("xlink"), "role")),
        "xlink:show" => return Some((XLINK_NS, Some("xlink"), "show")),
        "xlink:title" => return Some((XLINK_NS, Some("xlink"), "title")),
        "xlink:type" => return Some((XLINK_NS, Some("xlink"), "type")),
        "xml:lang" => return Some((XML_NS, Some("xml"), "lang")),
        "xml:space" => return Some((XML_NS, Some("xml"), "space")),
        "xmlns" => return Some((XMLNS_NS, None, "xmlns")),
        "xmlns:xlink" => return Some((XMLNS_NS, Some("xmlns"), "xlink")),
        _ => return None,
    };
    Some(("", None, local))
}

/// The attributes of an SVG element with their names adjusted (see [`svg_attribute_name`]);
/// the same slice when none is.
pub(super) fn adjust_svg_attributes<'a>(
    arena: &'a Bump,
    attrs: &'a [Attribute<'a>],
) -> &'a [Attribute<'a>] {
    if !attrs.iter().any(|a| svg_attribute_name(a.local).is_some()) {
        return attrs;
    }
    arena.alloc_slice_fill_iter(attrs.iter().map(|a| match svg_attribute_name(a.local) {
        Some((namespace, prefix, local)) => Attribute { namespace, prefix, local, value: a.value },
        None => *a,
    }))
}
