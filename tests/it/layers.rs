//! The crate's layers run one way: the file-level import graph of `src/` (which file uses an
//! item defined in which other file) has no cycle, and a layer uses only the layers below it
//! (the order of `src/lib.rs`'s "Layout" table).
//!
//! The graph is read from the source text: `use` declarations and `crate::…` / `super::…`
//! paths, resolved to the file that defines the item named (through `pub use` re-exports).
//! A module's `mod` and `pub use` of its own children are its table of contents, not uses.
//! Test code (`tests.rs` files and `#[cfg(test)]` modules) is left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, lowest first; a file of one may use files of its own layer or lower ones.
const LAYERS: &[&[&str]] = &[
    &["simd"],
    &["error"],
    &["options"],
    &["xml"],
    &["input"],
    &["model"],
    &["html"],
    &["lint"],
    &["format"],
    &["parse"],
    &["extract"],
    &["sanitize"],
    &["record", "discover"],
    &["sink"],
    &["columnar"],
    &["bulk"],
    &["lib", "doctests"],
];

type Module = Vec<String>;

struct Crate {
    /// Module path → the file's source, comments, strings and test code removed.
    files: BTreeMap<Module, String>,
}

fn module_of(root: &Path, path: &Path) -> Module {
    let rel = path.strip_prefix(root).unwrap().with_extension("");
    let mut parts: Module = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// The code of a file: comments and string literals blanked, test modules cut.
fn code(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            i = src[i..].find("*/").map_or(b.len(), |e| i + e + 2);
        } else if b[i] == b'"' && (i == 0 || b[i - 1] != b'\'') {
            // A raw string's hashes are not followed; none of this crate's paths is in one.
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else {
            let c = src[i..].chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    // `#[cfg(test)] mod x;` and the inline test module at the end of a file.
    let mut code = out;
    while let Some(at) = code.find("#[cfg(test)]") {
        let rest = code[at + 12..].trim_start();
        if rest.starts_with("mod ") || rest.starts_with("pub(crate) mod ") {
            let end = rest.find(['{', ';']).unwrap();
            if rest.as_bytes()[end] == b'{' {
                code.truncate(at);
                break;
            }
            let cut = code.len() - rest.len() + end + 1;
            code.replace_range(at..cut, "");
        } else {
            code.replace_range(at..at + 12, "");
        }
    }
    code
}

/// Expands a `use` tree (`a::{b, c::{d, e as f}}`) into its paths.
fn expand(tree: &str) -> Vec<String> {
    let words: Vec<&str> = tree.split_whitespace().collect();
    let tree = words.join(" ").replace(" as ", "\u{1}").replace(' ', "").replace('\u{1}', " as ");
    fn rec(t: &str) -> Vec<String> {
        let Some(open) = t.find('{') else { return vec![t.to_owned()] };
        let prefix = &t[..open];
        let inner = &t[open + 1..t.len() - 1];
        let (mut items, mut depth, mut cur) = (Vec::new(), 0, String::new());
        for c in inner.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => {}
            }
            if c == ',' && depth == 0 {
                items.push(std::mem::take(&mut cur));
            } else {
                cur.push(c);
            }
        }
        items.push(cur);
        let mut out = Vec::new();
        for it in items.iter().filter(|i| !i.is_empty()) {
            for e in rec(it) {
                out.push(if e == "self" {
                    prefix.trim_end_matches(':').to_owned()
                } else {
                    format!("{prefix}{e}")
                });
            }
        }
        out
    }
    rec(&tree)
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The `use` declarations of a file: (its offset, is `pub`, its expanded paths).
fn uses(code: &str) -> Vec<(usize, bool, Vec<String>)> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = code[from..].find("use ").map(|i| from + i) {
        from = at + 4;
        if at > 0 && is_ident(b[at - 1]) {
            continue;
        }
        let before = code[..at].trim_end();
        let public = before.ends_with("pub") || before.ends_with(')') && before.contains("pub(");
        let Some(end) = code[at..].find(';') else { break };
        out.push((at, public, expand(&code[at + 4..at + end])));
    }
    out
}

/// The spans of the inline modules of a file (`mod name { … }`).
fn inline_modules(code: &str) -> Vec<(usize, usize)> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    for (at, _) in code.match_indices("mod ") {
        if at > 0 && is_ident(b[at - 1]) {
            continue;
        }
        let Some(open) = code[at..].find(['{', ';']).map(|i| at + i) else { continue };
        if b[open] != b'{' {
            continue;
        }
        let mut depth = 0;
        for (i, &c) in b.iter().enumerate().skip(open) {
            match c {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        out.push((open, i));
                        break;
                    }
                }
                _ => {}
            }
        }
    }
    out
}

impl Crate {
    fn read(root: &Path) -> Crate {
        fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
            for e in std::fs::read_dir(dir).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    walk(&p, out);
                } else if p.extension().is_some_and(|x| x == "rs") {
                    out.push(p);
                }
            }
        }
        let mut paths = Vec::new();
        walk(root, &mut paths);
        let files = paths
            .iter()
            .map(|p| (module_of(root, p), p))
            .filter(|(m, _)| m.last().is_none_or(|n| n != "tests"))
            .map(|(m, p)| (m, code(&std::fs::read_to_string(p).unwrap())))
            .collect();
        Crate { files }
    }

    fn defines(&self, m: &Module, name: &str) -> bool {
        let Some(src) = self.files.get(m) else { return false };
        ["struct ", "enum ", "trait ", "type ", "fn ", "const ", "static ", "union ", "mod "]
            .iter()
            .any(|kw| {
                let pat = format!("{kw}{name}");
                src.match_indices(&pat).any(|(i, _)| {
                    let after = src.as_bytes().get(i + pat.len()).copied().unwrap_or(b' ');
                    let before = if i > 0 { src.as_bytes()[i - 1] } else { b' ' };
                    !is_ident(after) && !is_ident(before)
                })
            })
            || src.contains(&format!("macro_rules! {name}"))
    }

    /// The absolute module path a path written in `m` names (`None`: another crate), written
    /// `inline` modules deep inside the file (the first that many `super`s leave them).
    fn absolute(&self, m: &Module, path: &str, inline: usize) -> Option<Module> {
        let parts: Vec<&str> = path.split("::").filter(|p| !p.is_empty()).collect();
        let (mut base, mut rest) = (m.clone(), &parts[..]);
        match rest.first() {
            Some(&"crate") => {
                base.clear();
                rest = &rest[1..];
            }
            _ => {
                let mut inline = inline;
                while let Some(&p) = rest.first().filter(|p| **p == "super" || **p == "self") {
                    if p == "super" {
                        if inline > 0 {
                            inline -= 1;
                        } else {
                            base.pop();
                        }
                    }
                    rest = &rest[1..];
                }
                let Some(first) = rest.first() else { return Some(base) };
                let mut child = base.clone();
                child.push(first.to_string());
                if parts[0] != "super"
                    && parts[0] != "self"
                    && !self.files.contains_key(&child)
                    && !self.defines(&base, first)
                {
                    return None;
                }
            }
        }
        base.extend(rest.iter().map(|s| s.to_string()));
        Some(base)
    }

    /// The `pub use` re-exports of `m`: name → absolute path.
    fn reexports(&self, m: &Module) -> BTreeMap<String, Module> {
        let mut out = BTreeMap::new();
        let src = self.files.get(m).map_or("", String::as_str);
        let inline = inline_modules(src);
        for (at, _, paths) in uses(src) {
            if inline.iter().any(|(s, e)| *s < at && at < *e) {
                continue; // an inline module's own names
            }
            for p in paths {
                let (path, name) = match p.split_once(" as ") {
                    Some((path, alias)) => (path.to_owned(), alias.to_owned()),
                    None => (p.clone(), p.rsplit("::").next().unwrap().to_owned()),
                };
                if name == "*" {
                    continue;
                }
                if let Some(abs) = self.absolute(m, &path, 0) {
                    out.insert(name, abs);
                }
            }
        }
        out
    }

    /// The file defining the item at `path` (following re-exports).
    fn file_of(&self, path: &Module, depth: usize) -> Option<Module> {
        if depth > 16 {
            return None;
        }
        for n in (0..=path.len()).rev() {
            let m: Module = path[..n].to_vec();
            if !self.files.contains_key(&m) {
                continue;
            }
            let rest = &path[n..];
            let Some(name) = rest.first() else { return Some(m) };
            if self.defines(&m, name) {
                return Some(m);
            }
            if let Some(target) = self.reexports(&m).get(name.as_str()) {
                let mut next = target.clone();
                next.extend(rest[1..].iter().cloned());
                if &next != path {
                    return self.file_of(&next, depth + 1);
                }
            }
            return Some(m);
        }
        None
    }

    /// Which files each file uses.
    fn edges(&self) -> BTreeMap<Module, BTreeSet<Module>> {
        let mut edges = BTreeMap::new();
        for (m, src) in &self.files {
            let inline = inline_modules(src);
            let depth = |at: usize| inline.iter().filter(|(s, e)| *s < at && at < *e).count();
            let mut refs = BTreeSet::new();
            for (at, public, paths) in uses(src) {
                for p in paths {
                    let p = p.split(" as ").next().unwrap().trim_end_matches("::*").to_owned();
                    let local = !p.starts_with("crate") && !p.starts_with("super");
                    if public && local {
                        continue; // re-export of a child: table of contents
                    }
                    refs.extend(self.absolute(m, &p, depth(at)));
                }
            }
            for kw in ["crate::", "super::"] {
                for (i, _) in src.match_indices(kw) {
                    if i > 0 && is_ident(src.as_bytes()[i - 1]) {
                        continue;
                    }
                    let end = src[i..]
                        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                        .map_or(src.len(), |e| i + e);
                    let path = src[i..end].trim_end_matches(':');
                    if path != "crate" && path != "super" {
                        refs.extend(self.absolute(m, path, depth(i)));
                    }
                }
            }
            // Test code (a `tests` module's items, used under `#[cfg(test)]`) is left out.
            refs.retain(|r| !r.iter().any(|p| p == "tests"));
            let targets: BTreeSet<Module> =
                refs.iter().filter_map(|r| self.file_of(r, 0)).filter(|f| f != m).collect();
            if std::env::var_os("LAYERS_DUMP").is_some() {
                for r in &refs {
                    eprintln!("  {}: {} -> {:?}", name(m), r.join("::"), self.file_of(r, 0));
                }
            }
            edges.insert(m.clone(), targets);
        }
        edges
    }
}

fn name(m: &Module) -> String {
    if m.is_empty() {
        "lib".to_owned()
    } else {
        m.join("/")
    }
}

/// The strongly connected components of more than one file (Tarjan).
fn cycles(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<String>> {
    struct T<'e> {
        edges: &'e BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'e Module, usize>,
        low: BTreeMap<&'e Module, usize>,
        stack: Vec<&'e Module>,
        out: Vec<Vec<String>>,
    }
    fn strong<'e>(t: &mut T<'e>, v: &'e Module) {
        let i = t.index.len();
        t.index.insert(v, i);
        t.low.insert(v, i);
        t.stack.push(v);
        for w in t.edges.get(v).into_iter().flatten() {
            if !t.index.contains_key(w) {
                strong(t, w);
                let lw = t.low[w];
                t.low.entry(v).and_modify(|l| *l = (*l).min(lw));
            } else if t.stack.contains(&w) {
                let iw = t.index[w];
                t.low.entry(v).and_modify(|l| *l = (*l).min(iw));
            }
        }
        if t.low[v] == t.index[v] {
            let mut comp = Vec::new();
            loop {
                let w = t.stack.pop().unwrap();
                comp.push(name(w));
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                t.out.push(comp);
            }
        }
    }
    let mut t = T {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !t.index.contains_key(v) {
            strong(&mut t, v);
        }
    }
    t.out
}

fn layer(m: &Module) -> usize {
    let top = m.first().map_or("lib", String::as_str);
    LAYERS
        .iter()
        .position(|l| l.contains(&top))
        .unwrap_or_else(|| panic!("src/{top}: not in LAYERS (tests/it/layers.rs)"))
}

#[test]
fn the_import_graph_has_no_cycle_and_layers_run_one_way() {
    let krate = Crate::read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    let edges = krate.edges();
    assert!(edges.len() > 50, "read {} files", edges.len());
    // The resolver works: a known use is found.
    assert!(
        edges[&vec!["sink".to_owned(), "json".to_owned()]].contains(&vec!["record".to_owned()]),
        "sink/json uses record"
    );
    if std::env::var_os("LAYERS_DUMP").is_some() {
        for (a, bs) in &edges {
            let bs: Vec<String> = bs.iter().map(name).collect();
            eprintln!("{} -> {}", name(a), bs.join(", "));
        }
    }
    let cycles = cycles(&edges);
    let mut upward = Vec::new();
    for (a, bs) in &edges {
        for b in bs {
            if layer(b) > layer(a) {
                upward.push(format!("{} -> {}", name(a), name(b)));
            }
        }
    }
    assert!(
        cycles.is_empty() && upward.is_empty(),
        "import cycles: {cycles:#?}\nuses of a higher layer: {upward:#?}"
    );
}
