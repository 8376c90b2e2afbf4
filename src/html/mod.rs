//! STUB — replaced by the HTML helper. Interface only.
use bumpalo::Bump;
use crate::model::Text;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attribute<'a> { pub namespace: &'a str, pub prefix: Option<&'a str>, pub local: &'a str, pub value: &'a str }
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Element<'a> { pub namespace: &'a str, pub prefix: Option<&'a str>, pub local: &'a str, pub attrs: &'a [Attribute<'a>] }
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind<'a> { Element(Element<'a>), Text(&'a str), Comment(&'a str), ProcessingInstruction { target: &'a str, data: &'a str } }
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node<'a> { pub kind: NodeKind<'a>, pub end: u32 }
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Html<'a> { nodes: &'a [Node<'a>] }
impl<'a> Html<'a> {
    pub fn nodes(&self) -> &'a [Node<'a>] { self.nodes }
    pub fn is_equal_node(&self, other: &Html<'_>) -> bool { self.to_xml_string() == other.to_xml_string() }
    pub fn write_xml(&self, _out: &mut String) {}
    pub fn write_html(&self, _out: &mut String) {}
    pub fn to_xml_string(&self) -> String { let mut s = String::new(); self.write_xml(&mut s); s }
    pub fn to_html_string(&self) -> String { let mut s = String::new(); self.write_html(&mut s); s }
}
pub fn parse_escaped_html<'a>(_arena: &'a Bump, text: &'a str) -> Option<Text<'a>> { if text.trim().is_empty() { None } else { Some(Text::Plain(text)) } }
pub fn finish_fragment<'a>(arena: &'a Bump, nodes: &[Node<'a>]) -> Option<Html<'a>> { Some(Html { nodes: arena.alloc_slice_copy(nodes) }) }
