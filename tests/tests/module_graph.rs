//! The module graph points one way: in every crate, no module imports another that (through
//! others) imports it back. Modules are compared three levels deep (`emit::hip::source`, with
//! `emit::ck_cpp::tile::x` part of `emit::ck_cpp::tile`); a module and its own ancestors do
//! not count as a cycle (a parent re-exports its children, a child reads its parent's items).
//! References are `crate::a::b` and `super::a` paths outside comments and test code.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// How many path components a module is compared at.
const DEPTH: usize = 3;

type Module = Vec<String>;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            if path
                .file_name()
                .is_some_and(|n| n != "tests" && n != "snapshots")
            {
                rust_files(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs")
            && path.file_name().is_some_and(|n| n != "tests.rs")
        {
            out.push(path);
        }
    }
}

/// The module a file defines: its path under the crate's `src`, `mod.rs`, `lib.rs` and
/// `main.rs` standing for their folder.
fn module_of(src: &Path, file: &Path) -> Module {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Module = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts
        .last()
        .is_some_and(|l| ["mod", "lib", "main"].contains(&l.as_str()))
    {
        parts.pop();
    }
    parts
}

/// The lower-case path components after `at` (`a::b::c` of `a::b::c::Item`), up to [`DEPTH`].
fn components(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while out.len() < DEPTH {
        let len = rest
            .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'))
            .unwrap_or(rest.len());
        if len == 0 {
            break;
        }
        out.push(rest[..len].to_string());
        match rest[len..].strip_prefix("::") {
            Some(next) => rest = next,
            None => break,
        }
    }
    out
}

/// The modules `code` (a file of module `me`) refers to, each cut to [`DEPTH`] components.
fn references(me: &Module, code: &str) -> BTreeSet<Module> {
    let mut out = BTreeSet::new();
    for (i, _) in code.match_indices("crate::") {
        let path = components(&code[i + "crate::".len()..]);
        if !path.is_empty() {
            out.insert(path);
        }
    }
    for (i, _) in code.match_indices("super::") {
        // Only the first `super::` of a run counts; the run climbs one level each.
        if code[..i].ends_with("super::") {
            continue;
        }
        let mut rest = &code[i..];
        let mut base = me.clone();
        while let Some(next) = rest.strip_prefix("super::") {
            base.pop();
            rest = next;
        }
        let tail = components(rest);
        if !tail.is_empty() {
            base.extend(tail);
            base.truncate(DEPTH);
            out.insert(base);
        }
    }
    out
}

/// The module graph of the crate whose sources are in `src`, at [`DEPTH`].
fn graph(src: &Path) -> BTreeMap<Module, BTreeSet<Module>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for file in files {
        let me = module_of(src, &file);
        let text = std::fs::read_to_string(&file).unwrap();
        // Test modules come last in a file; comments name paths that are not imports.
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        let code: String = code
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        let node: Module = me.iter().take(DEPTH).cloned().collect();
        for to in references(&me, &code) {
            let related = to.starts_with(&node) || node.starts_with(&to);
            if !related {
                edges.entry(node.clone()).or_default().insert(to);
            }
        }
    }
    edges
}

/// The strongly connected components of more than one module (Tarjan).
fn cycles(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct Walk<'a> {
        edges: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<Module, usize>,
        low: BTreeMap<Module, usize>,
        stack: Vec<Module>,
        found: Vec<Vec<Module>>,
    }
    impl Walk<'_> {
        fn visit(&mut self, v: &Module) {
            let i = self.index.len();
            self.index.insert(v.clone(), i);
            self.low.insert(v.clone(), i);
            self.stack.push(v.clone());
            for w in self.edges.get(v).into_iter().flatten() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let lw = self.low[w];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(lw);
                } else if self.stack.contains(w) {
                    let iw = self.index[w];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(iw);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    let done = &w == v;
                    component.push(w);
                    if done {
                        break;
                    }
                }
                if component.len() > 1 {
                    self.found.push(component);
                }
            }
        }
    }
    let mut walk = Walk {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !walk.index.contains_key(v) {
            walk.visit(v);
        }
    }
    walk.found
}

#[test]
fn no_module_imports_one_that_imports_it_back() {
    for src in ["dsl/src", "compiler/src", "compiler/ckc/src", "runtime/src"] {
        let edges = graph(&root().join(src));
        assert!(!edges.is_empty(), "{src}: no modules read");
        let found = cycles(&edges);
        assert!(found.is_empty(), "{src}: import cycles {found:?}");
    }
}

#[test]
fn the_check_sees_a_cycle() {
    let a: Module = vec!["a".into()];
    let b: Module = vec!["b".into()];
    let mut edges = BTreeMap::new();
    edges.insert(a.clone(), BTreeSet::from([b.clone()]));
    edges.insert(b.clone(), BTreeSet::from([a.clone()]));
    assert_eq!(cycles(&edges).len(), 1);
    // `super::` climbs from the file's module; `crate::` paths stop at the first item.
    let me: Module = vec!["emit".into(), "hip".into(), "config".into()];
    let refs = references(
        &me,
        "use super::tma::x; use crate::ir::Instance; super::super::names",
    );
    assert!(refs.contains(&vec!["emit".to_string(), "hip".into(), "tma".into()]));
    assert!(refs.contains(&vec!["ir".to_string()]));
    assert!(refs.contains(&vec!["emit".to_string(), "names".into()]));
}
