//! A crate's files as a graph: its module tree followed from the crate root through `mod`
//! declarations, and each file's imports of the crate's own modules resolved to the file that
//! defines what they name (through `use` re-exports, so a facade module is not a false cycle).
//!
//! Test code is left out: a `#[cfg(test)]` item or module (and so `tests.rs`, `*_tests.rs`) is
//! not part of the layered product, may reach up to build a real peer, and nothing outside tests
//! can import it, so it cannot close a cycle among product files.

use crate::lex::{tokens, Tok, Token};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};

type ModPath = Vec<String>;

#[derive(Default)]
struct Module {
    file: PathBuf,
    children: BTreeSet<String>,
    /// Names a `use` brought in: their absolute path, `None` when it is outside the crate.
    aliases: HashMap<String, Option<ModPath>>,
}

/// One path written in a file, as written, in the module (file or inline) it was written in.
struct Written {
    scope: ModPath,
    segments: Vec<String>,
    line: usize,
    is_use: bool,
    /// A named `pub use` of a name the file does not use itself: it lends the name and uses
    /// nothing; importers of the name are resolved through it to where the name is defined, so
    /// a facade and its children form no cycle.
    reexport: bool,
}

/// An import of one file by another, at the first line it appears.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edge {
    pub from: PathBuf,
    pub to: PathBuf,
    pub line: usize,
}

pub struct Crate {
    /// Every product file and its module path (`[]` for the root).
    pub files: BTreeMap<PathBuf, ModPath>,
    pub edges: Vec<Edge>,
}

/// Reads the crate whose root file is `root` (lib.rs or main.rs).
pub fn read(root: &Path) -> Crate {
    let mut modules: HashMap<ModPath, Module> = HashMap::new();
    let mut written = Vec::new();
    let mut files = BTreeMap::new();
    let mut queue = vec![(root.to_path_buf(), ModPath::new())];
    while let Some((file, path)) = queue.pop() {
        let src =
            std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let first = written.len();
        let mut used = HashSet::new();
        let mut walk = Walk {
            toks: tokens(&src),
            i: 0,
            file: &file,
            modules: &mut modules,
            written: &mut written,
            queue: &mut queue,
            used: &mut used,
        };
        walk.module(path.clone(), &[]);
        // A name the file lends and also uses itself is an import of its own.
        for w in &mut written[first..] {
            if w.reexport && w.segments.last().is_some_and(|n| used.contains(n)) {
                w.reexport = false;
            }
        }
        files.insert(file, path);
    }
    let mut edges: Vec<Edge> = Vec::new();
    // Aliases first, in file order per scope: a later `use` may start from an earlier one.
    for w in written.iter().filter(|w| w.is_use) {
        let name = w.segments.last().cloned().unwrap_or_default();
        let target = absolute(&modules, &w.scope, &w.segments[..w.segments.len() - 1]);
        if name == "*" {
            continue;
        }
        if let Some(m) = modules.get_mut(&w.scope) {
            m.aliases.insert(name, target);
        }
    }
    for w in written.iter().filter(|w| !w.reexport) {
        let segs: &[String] = if w.is_use {
            &w.segments[..w.segments.len() - 1]
        } else {
            &w.segments
        };
        let Some(abs) = absolute(&modules, &w.scope, segs) else {
            continue;
        };
        let from = &modules[&w.scope].file;
        let to = file_of(&modules, &abs, 0);
        if &to != from && !edges.iter().any(|e| &e.from == from && e.to == to) {
            edges.push(Edge {
                from: from.clone(),
                to,
                line: w.line,
            });
        }
    }
    Crate { files, edges }
}

/// The absolute module path `segments` (as written in `scope`) names; `None`: not this crate.
fn absolute(
    modules: &HashMap<ModPath, Module>,
    scope: &[String],
    segments: &[String],
) -> Option<ModPath> {
    let (first, rest) = segments.split_first()?;
    let mut base: ModPath = scope.to_vec();
    let rest = match first.as_str() {
        "crate" => {
            base.clear();
            rest
        }
        "self" => rest,
        "super" => {
            base.pop();
            let mut rest = rest;
            while rest.first().is_some_and(|s| s == "super") {
                base.pop();
                rest = &rest[1..];
            }
            rest
        }
        name => {
            let m = modules.get(scope)?;
            if m.children.contains(name) {
                base.push(name.to_string());
                rest
            } else {
                base = m.aliases.get(name)?.clone()?;
                rest
            }
        }
    };
    base.extend(rest.iter().filter(|s| *s != "self").cloned());
    Some(base)
}

/// The file defining what `abs` names: its longest module prefix's, or, where the rest starts
/// with a name that module re-exports, the file that name comes from.
fn file_of(modules: &HashMap<ModPath, Module>, abs: &[String], depth: usize) -> PathBuf {
    let k = (0..=abs.len())
        .rev()
        .find(|k| modules.contains_key(&abs[..*k]))
        .unwrap_or(0);
    let m = &modules[&abs[..k]];
    if k < abs.len() && depth < 16 {
        if let Some(Some(target)) = m.aliases.get(&abs[k]) {
            let mut next = target.clone();
            next.extend(abs[k + 1..].iter().cloned());
            if next != abs {
                return file_of(modules, &next, depth + 1);
            }
        }
    }
    m.file.clone()
}

struct Walk<'a> {
    toks: Vec<Token>,
    i: usize,
    file: &'a Path,
    modules: &'a mut HashMap<ModPath, Module>,
    written: &'a mut Vec<Written>,
    queue: &'a mut Vec<(PathBuf, ModPath)>,
    /// Every identifier in the file's product code outside `use` items.
    used: &'a mut HashSet<String>,
}

impl Walk<'_> {
    fn tok(&self, at: usize) -> Option<&Tok> {
        self.toks.get(at).map(|t| &t.tok)
    }

    fn ident(&self, at: usize) -> Option<&str> {
        match self.tok(at) {
            Some(Tok::Ident(w)) => Some(w),
            _ => None,
        }
    }

    /// Walks the items of module `path` (a file, or an inline `mod x { … }` of one, named by
    /// `inline` relative to the file) up to its closing brace or the end of the file.
    fn module(&mut self, path: ModPath, inline: &[String]) {
        self.modules.entry(path.clone()).or_default().file = self.file.to_path_buf();
        let (mut test, mut path_attr) = (false, None::<String>);
        while self.i < self.toks.len() {
            let line = self.toks[self.i].line;
            match self.tok(self.i).cloned() {
                Some(Tok::Punct('}')) => {
                    self.i += 1;
                    return;
                }
                Some(Tok::Punct('#')) => {
                    let (is_test, p) = self.attribute();
                    test |= is_test;
                    path_attr = p.or(path_attr);
                    continue;
                }
                _ if test => {
                    self.skip_item();
                    test = false;
                    path_attr = None;
                    continue;
                }
                Some(Tok::Ident(w)) if w == "mod" => {
                    if let Some(name) = self.ident(self.i + 1).map(str::to_string) {
                        self.modules
                            .entry(path.clone())
                            .or_default()
                            .children
                            .insert(name.clone());
                        let mut child = path.clone();
                        child.push(name.clone());
                        if self.tok(self.i + 2) == Some(&Tok::Punct('{')) {
                            self.i += 3;
                            let mut inner = inline.to_vec();
                            inner.push(name);
                            self.module(child, &inner);
                        } else {
                            self.i += 2;
                            let file = self.child_file(inline, &name, path_attr.take());
                            self.queue.push((file, child));
                        }
                        continue;
                    }
                }
                Some(Tok::Ident(w)) if w == "use" => {
                    let reexport = self.visible();
                    self.i += 1;
                    let mut leaves = Vec::new();
                    self.use_tree(Vec::new(), &mut leaves);
                    for mut segments in leaves {
                        // The name it binds: `as` renames; `x::self` binds `x`.
                        let alias = segments.pop().unwrap_or_default();
                        if segments.last().is_some_and(|s| s == "self") {
                            segments.pop();
                        }
                        segments.push(alias);
                        if segments.len() > 1 {
                            let reexport = reexport && segments.last().is_some_and(|s| s != "*");
                            self.written.push(Written {
                                scope: path.clone(),
                                segments,
                                line,
                                is_use: true,
                                reexport,
                            });
                        }
                    }
                    continue;
                }
                // `pub(in crate::x)` names where an item is seen, not something it uses.
                Some(Tok::Ident(w))
                    if w == "in"
                        && self.tok(self.i.wrapping_sub(1)) == Some(&Tok::Punct('('))
                        && self.i.checked_sub(2).and_then(|b| self.ident(b)) == Some("pub") =>
                {
                    self.i += 1;
                    self.path();
                    continue;
                }
                Some(Tok::Ident(_)) if self.path_starts() => {
                    let segments = self.path();
                    self.used.extend(segments.iter().cloned());
                    self.written.push(Written {
                        scope: path.clone(),
                        segments,
                        line,
                        is_use: false,
                        reexport: false,
                    });
                    continue;
                }
                Some(Tok::Punct('{')) => {
                    // A block that is not a module: its items are this module's.
                    self.i += 1;
                    self.module_block(&path, inline);
                    continue;
                }
                Some(Tok::Ident(w)) => {
                    self.used.insert(w);
                }
                _ => {}
            }
            // Visibility (`pub(crate)`) may stand between an attribute and its `mod`.
            if self.tok(self.i) == Some(&Tok::Punct(';')) {
                path_attr = None;
            }
            self.i += 1;
        }
    }

    /// Whether the `use` here is `pub` or `pub(…)`.
    fn visible(&self) -> bool {
        let back = |n: usize| self.i.checked_sub(n).and_then(|b| self.ident(b));
        back(1) == Some("pub")
            || (self.tok(self.i.wrapping_sub(1)) == Some(&Tok::Punct(')'))
                && back(4) == Some("pub"))
    }

    /// Whether a path starts here: an identifier before `::`, not itself after `::` or `$`.
    fn path_starts(&self) -> bool {
        let before = self.i.checked_sub(1).and_then(|b| self.tok(b));
        self.tok(self.i + 1) == Some(&Tok::PathSep)
            && !matches!(before, Some(Tok::PathSep | Tok::Punct('$')))
    }

    /// The inside of a non-module block, up to its closing brace, as part of module `path`.
    fn module_block(&mut self, path: &ModPath, inline: &[String]) {
        // Same walk; its closing brace ends it. Inline module names do not change.
        self.module(path.clone(), inline);
    }

    /// `IDENT (:: IDENT)*`, stopping before generics or anything else.
    fn path(&mut self) -> Vec<String> {
        let mut segments = Vec::new();
        while let Some(w) = self.ident(self.i).map(str::to_string) {
            segments.push(w);
            self.i += 1;
            if self.tok(self.i) == Some(&Tok::PathSep)
                && matches!(self.tok(self.i + 1), Some(Tok::Ident(_)))
            {
                self.i += 1;
            } else {
                break;
            }
        }
        segments
    }

    /// A use tree from the current token; each leaf's segments end with the name it binds
    /// (`*` for a glob).
    fn use_tree(&mut self, prefix: Vec<String>, leaves: &mut Vec<Vec<String>>) {
        let mut segs = prefix;
        loop {
            match self.tok(self.i).cloned() {
                Some(Tok::PathSep) => self.i += 1,
                Some(Tok::Ident(w)) if w == "as" => {
                    self.i += 1;
                    let alias = self.ident(self.i).unwrap_or("_").to_string();
                    self.i += 1;
                    let mut leaf = segs.clone();
                    leaf.push(alias);
                    leaves.push(leaf);
                    return;
                }
                Some(Tok::Ident(w)) => {
                    segs.push(w);
                    self.i += 1;
                }
                Some(Tok::Punct('*')) => {
                    self.i += 1;
                    segs.push("*".into());
                    leaves.push(segs);
                    return;
                }
                Some(Tok::Punct('{')) => {
                    self.i += 1;
                    loop {
                        match self.tok(self.i) {
                            Some(Tok::Punct('}')) | None => {
                                self.i += 1;
                                break;
                            }
                            Some(Tok::Punct(',')) => self.i += 1,
                            _ => self.use_tree(segs.clone(), leaves),
                        }
                    }
                    return;
                }
                _ => {
                    // `;`, `,` or `}`: the leaf binds its last segment.
                    if let Some(last) = segs.last().cloned() {
                        let name = if last == "self" && segs.len() > 1 {
                            segs[segs.len() - 2].clone()
                        } else {
                            last
                        };
                        let mut leaf = segs;
                        leaf.push(name);
                        leaves.push(leaf);
                    }
                    if self.tok(self.i) == Some(&Tok::Punct(';')) {
                        self.i += 1;
                    }
                    return;
                }
            }
        }
    }

    /// Reads `#[…]` or `#![…]`: whether it is `cfg(test)`, and a `path = "…"` it gives.
    fn attribute(&mut self) -> (bool, Option<String>) {
        self.i += 1;
        if self.tok(self.i) == Some(&Tok::Punct('!')) {
            self.i += 1;
        }
        if self.tok(self.i) != Some(&Tok::Punct('[')) {
            return (false, None);
        }
        let end = self.matching(self.i);
        let inner: Vec<Tok> = self.toks[self.i + 1..end]
            .iter()
            .map(|t| t.tok.clone())
            .collect();
        self.i = end + 1;
        let word = |s: &str| Tok::Ident(s.into());
        let is_test = inner == [word("cfg"), Tok::Punct('('), word("test"), Tok::Punct(')')];
        let path = match inner.as_slice() {
            [Tok::Ident(p), Tok::Punct('='), Tok::Str(s)] if p == "path" => Some(s.clone()),
            _ => None,
        };
        (is_test, path)
    }

    /// The index of the bracket closing the one at `open`.
    fn matching(&self, open: usize) -> usize {
        let mut depth = 0i32;
        for j in open..self.toks.len() {
            match self.tok(j) {
                Some(Tok::Punct('(' | '[' | '{')) => depth += 1,
                Some(Tok::Punct(')' | ']' | '}')) => {
                    depth -= 1;
                    if depth == 0 {
                        return j;
                    }
                }
                _ => {}
            }
        }
        self.toks.len().saturating_sub(1)
    }

    /// Skips one item: up to a `;` outside brackets, or the end of its first braced block.
    fn skip_item(&mut self) {
        while self.i < self.toks.len() {
            match self.tok(self.i) {
                Some(Tok::Punct(';')) => {
                    self.i += 1;
                    return;
                }
                Some(Tok::Punct('{')) => {
                    self.i = self.matching(self.i) + 1;
                    return;
                }
                Some(Tok::Punct('(' | '[')) => self.i = self.matching(self.i) + 1,
                Some(Tok::Punct('}')) => return,
                _ => self.i += 1,
            }
        }
    }

    /// The file of `mod name;` written in this file (inside inline modules `inline`).
    fn child_file(&self, inline: &[String], name: &str, path_attr: Option<String>) -> PathBuf {
        let dir = self.file.parent().unwrap_or(Path::new("."));
        if let Some(p) = path_attr {
            return dir.join(p);
        }
        let stem = self.file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        let mut dir = if matches!(stem, "lib" | "main" | "mod") {
            dir.to_path_buf()
        } else {
            dir.join(stem)
        };
        for m in inline {
            dir.push(m);
        }
        let flat = dir.join(format!("{name}.rs"));
        if flat.exists() {
            flat
        } else {
            dir.join(name).join("mod.rs")
        }
    }
}
