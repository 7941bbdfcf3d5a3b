//! Loading: reads `.ck` files (and in-memory sources), parses them and follows their imports.
//! Every file is loaded once, by canonical path; the items of all loaded files form one compilation.

use ck_dsl::ast::{self, Item};
use ck_dsl::{Diagnostic, Diagnostics, FileId, SourceMap, Span};
use std::collections::{HashMap, HashSet};
use std::io::Read;
use std::path::{Path, PathBuf};

/// Largest `.ck` file read: the whole library is a few hundred kilobytes, and a larger file is
/// more likely a mistake (`import "/dev/zero";`) than a library.
pub const MAX_SOURCE_BYTES: u64 = 16 << 20;

/// Diagnostic codes of loading (see `docs/diagnostics.md`).
pub mod codes {
    pub const FILE_NOT_FOUND: &str = "CK0101";
    pub const IMPORT_CYCLE: &str = "CK0102";
    pub const NOT_UTF8: &str = "CK0103";
    pub const UNREADABLE: &str = "CK0104";
    pub const IMPORT_OUTSIDE_ROOT: &str = "CK0105";
}

/// One compilation's sources: the source map, the parsed files in load order, and the
/// diagnostics of loading and parsing.
#[derive(Debug, Default)]
pub struct Session {
    sources: SourceMap,
    files: Vec<ast::File>,
    diags: Diagnostics,
    /// Canonical path → file, so each file is loaded once.
    loaded: HashMap<PathBuf, FileId>,
    /// Files whose imports are being followed, outermost first (for cycle reports).
    stack: Vec<(PathBuf, FileId)>,
    /// The folders imports may lead into (canonical): the current directory, and each folder
    /// given to [`Session::add_path`] or [`Session::add_roots`] (a file's own folder).
    roots: Vec<PathBuf>,
    /// Imports may lead anywhere ([`Session::allow_imports_anywhere`]).
    anywhere: bool,
}

impl Session {
    /// A session whose imports stay inside the current directory and the folders it is given:
    /// no absolute path, `..` or symlink that leads out of them, so that compiling an untrusted
    /// `.ck` reads nothing else. The paths given to [`Session::add_path`] are the caller's and
    /// may lie anywhere.
    pub fn new() -> Self {
        let mut s = Self::default();
        s.add_root(Path::new(""));
        s
    }

    /// Lets imports lead anywhere, for trusted sources.
    pub fn allow_imports_anywhere(mut self) -> Self {
        self.anywhere = true;
        self
    }

    fn add_root(&mut self, folder: &Path) {
        if let Ok(c) = dir_or_current(folder).canonicalize()
            && !self.roots.contains(&c)
        {
            self.roots.push(c);
        }
    }

    /// Loads each path as [`Session::add_path`] does, after taking every one's folder as a place
    /// imports may lead into: a file of one may import a file of another (`bwd_weight/x.ck`
    /// importing `../common.ck` when both `bwd_weight` and `common.ck` are given).
    pub fn add_paths<P: AsRef<Path>>(&mut self, paths: &[P]) {
        self.add_roots(paths);
        for p in paths {
            self.add_path(p.as_ref());
        }
    }

    /// Takes each path's folder (itself, or a file's own folder) as a place imports may lead
    /// into, before any is loaded.
    pub fn add_roots<P: AsRef<Path>>(&mut self, paths: &[P]) {
        for p in paths {
            self.add_root_of(p.as_ref());
        }
    }

    /// The folder a path given stands for: itself, or a file's own folder.
    fn add_root_of(&mut self, path: &Path) {
        if path.is_dir() {
            self.add_root(path);
        } else {
            self.add_root(path.parent().unwrap_or(Path::new("")));
        }
    }

    /// Loads a `.ck` file, or every `*.ck` file under a folder (recursively, in sorted order),
    /// with their imports.
    pub fn add_path(&mut self, path: &Path) {
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => {
                self.add_root_of(path);
                let mut found = Vec::new();
                self.find_ck_files(path, &mut found, &mut HashSet::new());
                found.sort();
                for file in found {
                    self.load_file(&file, None);
                }
            }
            Ok(_) => {
                self.add_root_of(path);
                self.load_file(path, None);
            }
            Err(err) => self.diags.push(io_error(path, &err, None)),
        }
    }

    /// Parses in-memory text (standard input, a macro body) named `name`; its imports resolve
    /// relative to the current directory.
    pub fn add_source(&mut self, name: &str, text: &str) -> FileId {
        let id = self.sources.add(name, text);
        self.parse_and_follow(id, Path::new(""));
        id
    }

    /// Parses `text` as the contents of the file at `path` (which need not exist): its imports
    /// resolve relative to that file's folder, and an import of `path` itself means this text.
    /// Editors and tests use it to check unsaved text in place.
    pub fn add_source_at(&mut self, path: &Path, text: &str) -> FileId {
        self.add_root_of(path);
        let id = self.sources.add(path.display().to_string(), text);
        let canonical = path.canonicalize().ok();
        if let Some(c) = &canonical {
            self.loaded.insert(c.clone(), id);
            self.stack.push((c.clone(), id));
        }
        self.parse_and_follow(id, path.parent().unwrap_or(Path::new("")));
        if canonical.is_some() {
            self.stack.pop();
        }
        id
    }

    pub fn diagnostics(&self) -> &Diagnostics {
        &self.diags
    }

    pub fn sources(&self) -> &SourceMap {
        &self.sources
    }

    /// The parsed files, in load order.
    pub fn files(&self) -> &[ast::File] {
        &self.files
    }

    /// Every `.ck` file under `dir`, following symlinks; each folder is walked once (by canonical
    /// path), so links that loop back are not followed again.
    fn find_ck_files(&mut self, dir: &Path, found: &mut Vec<PathBuf>, seen: &mut HashSet<PathBuf>) {
        if !dir.canonicalize().is_ok_and(|c| seen.insert(c)) {
            return;
        }
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(err) => return self.diags.push(io_error(dir, &err, None)),
        };
        for entry in entries {
            match entry {
                Ok(entry) => {
                    let path = entry.path();
                    // Follows symlinks to decide; a dangling link reports when read below.
                    if path.is_dir() {
                        self.find_ck_files(&path, found, seen);
                    } else if path.extension().is_some_and(|e| e == "ck") {
                        found.push(path);
                    }
                }
                Err(err) => self.diags.push(io_error(dir, &err, None)),
            }
        }
    }

    /// Loads `path` unless it is loaded already; `import` is the import string that asked for it.
    fn load_file(&mut self, path: &Path, import: Option<Span>) {
        let canonical = match path.canonicalize() {
            Ok(c) => c,
            Err(err) => return self.diags.push(io_error(path, &err, import)),
        };
        // A symlink inside the roots can lead out of them too.
        if let Some(span) = import
            && !self.inside_roots(&canonical)
        {
            return self.diags.push(self.outside_roots(path, span));
        }
        if let Some(i) = self.stack.iter().position(|(p, _)| *p == canonical) {
            let chain: Vec<String> = self.stack[i..]
                .iter()
                .map(|(_, id)| self.sources.name(*id).to_string())
                .chain([path.display().to_string()])
                .collect();
            let mut d = Diagnostic::error(codes::IMPORT_CYCLE, "import cycle")
                .note(format!("the chain: {}", chain.join(" → ")))
                .help("remove one of the imports; every file is loaded once, so the cycle only hides a mistake");
            if let Some(span) = import {
                d = d.at(span, "this import leads back to a file that imports it");
            }
            return self.diags.push(d);
        }
        if self.loaded.contains_key(&canonical) {
            return;
        }
        let bytes = match read_source(path) {
            Ok(b) => b,
            Err(err) => return self.diags.push(io_error(path, &err, import)),
        };
        let name = path.display().to_string();
        let text = match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(err) => {
                // Kept (lossily) in the source map so the label can show where the bad byte is.
                let at = err.utf8_error().valid_up_to();
                let id = self
                    .sources
                    .add(name, String::from_utf8_lossy(err.as_bytes()).into_owned());
                self.loaded.insert(canonical, id);
                let mut d = Diagnostic::error(
                    codes::NOT_UTF8,
                    format!("`{}` is not UTF-8 text", path.display()),
                )
                .at(Span::new(id, at, at + 1), "invalid UTF-8 here")
                .help("save the file as UTF-8");
                if let Some(span) = import {
                    d = d.with(span, "imported here");
                }
                return self.diags.push(d);
            }
        };
        let id = self.sources.add(name, text);
        self.loaded.insert(canonical.clone(), id);
        self.stack.push((canonical, id));
        self.parse_and_follow(id, path.parent().unwrap_or(Path::new("")));
        self.stack.pop();
    }

    /// Parses file `id` and loads its imports, relative to `dir`.
    fn parse_and_follow(&mut self, id: FileId, dir: &Path) {
        let (file, diags) = ck_dsl::parse(id, self.sources.text(id));
        self.diags.extend(diags);
        let imports: Vec<(PathBuf, Span)> = file
            .items
            .iter()
            .filter_map(|item| match item {
                Item::Import(i) => Some((dir.join(&i.path), i.path_span)),
                _ => None,
            })
            .collect();
        self.files.push(file);
        // The importing folder, resolved, so that the written path is judged by name before the
        // file system is touched (`import "/dev/zero";`, `"../../etc/shadow"`).
        let base = dir_or_current(dir).canonicalize().ok();
        for (path, span) in imports {
            let named = base
                .as_ref()
                .map(|b| fold_dots(&b.join(path.strip_prefix(dir).unwrap_or(&path))));
            if named.is_none_or(|n| !self.inside_roots(&n)) {
                self.diags.push(self.outside_roots(&path, span));
                continue;
            }
            self.load_file(&path, Some(span));
        }
    }

    fn inside_roots(&self, path: &Path) -> bool {
        self.anywhere || self.roots.iter().any(|r| path.starts_with(r))
    }

    fn outside_roots(&self, path: &Path, span: Span) -> Diagnostic {
        // Relative to the current directory where they lie under it, as the user named them.
        let here = std::env::current_dir().and_then(|d| d.canonicalize()).ok();
        let roots: Vec<String> = self
            .roots
            .iter()
            .map(
                |r| match here.as_ref().and_then(|h| r.strip_prefix(h).ok()) {
                    Some(rel) if rel.as_os_str().is_empty() => "`.`".to_string(),
                    Some(rel) => format!("`{}`", rel.display()),
                    None => format!("`{}`", r.display()),
                },
            )
            .collect();
        Diagnostic::error(
            codes::IMPORT_OUTSIDE_ROOT,
            format!("import `{}` leads outside the library", path.display()),
        )
        .at(span, "this import")
        .note(format!("imports stay inside {}", roots.join(", ")))
        .help("import the library's own files by relative paths; for trusted sources, `ckc --allow-outside-imports` or `Config::allow_imports_anywhere` lifts this")
    }
}

fn dir_or_current(dir: &Path) -> &Path {
    if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    }
}

/// `path` with `.` and `..` folded away by name (an absolute `path` stays absolute).
fn fold_dots(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

/// A regular file's bytes, at most [`MAX_SOURCE_BYTES`]: a FIFO, a device or an endless file is
/// an error, never a hang or an exhausted memory.
fn read_source(path: &Path) -> std::io::Result<Vec<u8>> {
    // Checked before opening: opening a FIFO for reading waits for a writer.
    if !std::fs::metadata(path)?.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    file.take(MAX_SOURCE_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_SOURCE_BYTES {
        return Err(std::io::Error::other(format!(
            "larger than {} MiB",
            MAX_SOURCE_BYTES >> 20
        )));
    }
    Ok(bytes)
}

fn io_error(path: &Path, err: &std::io::Error, import: Option<Span>) -> Diagnostic {
    let (code, message) = if err.kind() == std::io::ErrorKind::NotFound {
        (
            codes::FILE_NOT_FOUND,
            format!("file not found: `{}`", path.display()),
        )
    } else {
        (
            codes::UNREADABLE,
            format!("cannot read `{}`: {err}", path.display()),
        )
    };
    let d = Diagnostic::error(code, message);
    match import {
        Some(span) => d
            .at(span, "imported here")
            .help("import paths are relative to the importing file"),
        None => d,
    }
}

/// A fresh folder under the system temp dir, named for the `prefix`'s tests and `test`, holding
/// `files` (relative path, contents): the loader's and the build API's tests read such trees.
/// It is removed when the test drops it.
#[cfg(test)]
pub(crate) fn test_folder<T: AsRef<[u8]>>(
    prefix: &str,
    test: &str,
    files: &[(&str, T)],
) -> TestFolder {
    let dir = std::env::temp_dir().join(format!("{prefix}-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, contents) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, contents).unwrap();
    }
    TestFolder(dir)
}

/// A test's temporary folder ([`test_folder`]), read as its path.
#[cfg(test)]
pub(crate) struct TestFolder(PathBuf);

#[cfg(test)]
impl std::ops::Deref for TestFolder {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

#[cfg(test)]
impl AsRef<Path> for TestFolder {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

#[cfg(test)]
impl Drop for TestFolder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(test: &str, files: &[(&str, &[u8])]) -> TestFolder {
        test_folder("ck-load", test, files)
    }

    fn codes(s: &Session) -> Vec<&'static str> {
        s.diagnostics().iter().map(|d| d.code).collect()
    }

    fn file_names(s: &Session) -> Vec<String> {
        s.files()
            .iter()
            .map(|f| {
                Path::new(s.sources().name(f.file))
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect()
    }

    #[test]
    fn folder_is_searched_recursively_in_sorted_order_and_imports_load_once() {
        let dir = folder(
            "folder",
            &[
                ("b.ck", b"import \"sub/common.ck\";\ninstance b {}\n"),
                ("a.ck", b"import \"sub/common.ck\";\n"),
                ("sub/common.ck", b"defaults common {}\n"),
                ("sub/z.ck", b"instance z {}\n"),
                ("notes.txt", b"not a ck file"),
            ],
        );
        let mut s = Session::new();
        s.add_path(&dir);
        assert!(
            codes(&s).is_empty(),
            "{}",
            s.diagnostics().render(s.sources())
        );
        assert_eq!(file_names(&s), ["a.ck", "common.ck", "b.ck", "z.ck"]);
    }

    #[test]
    fn devices_fifos_and_symlink_loops_are_errors_not_hangs() {
        let dir = folder("hostile", &[("a.ck", b"import \"/dev/zero\";\n")]);
        let mut s = Session::new();
        s.add_path(&dir.join("a.ck"));
        assert_eq!(codes(&s), [codes::IMPORT_OUTSIDE_ROOT]);
        // Allowed to leave the library, a device is still not read.
        let mut s = Session::new().allow_imports_anywhere();
        s.add_path(&dir.join("a.ck"));
        assert_eq!(codes(&s), [codes::UNREADABLE]);
        #[cfg(unix)]
        {
            // A FIFO no one writes to, and two folders linked into each other.
            let fifo = dir.join("pipe.ck");
            let made = std::process::Command::new("mkfifo").arg(&fifo).status();
            std::fs::create_dir_all(dir.join("x/y")).unwrap();
            std::os::unix::fs::symlink(dir.join("x"), dir.join("x/y/back")).unwrap();
            std::os::unix::fs::symlink(dir.join("x/y"), dir.join("x/down")).unwrap();
            let mut s = Session::new();
            s.add_path(&dir);
            let expected: &[&str] = if made.is_ok_and(|m| m.success()) {
                &[codes::IMPORT_OUTSIDE_ROOT, codes::UNREADABLE]
            } else {
                &[codes::IMPORT_OUTSIDE_ROOT]
            };
            assert_eq!(codes(&s), expected);
        }
    }

    #[test]
    fn missing_import_is_labelled_at_the_string() {
        let mut s = Session::new();
        s.add_source("main.ck", "import \"does/not/exist.ck\";\n");
        assert_eq!(codes(&s), [codes::FILE_NOT_FOUND]);
        let span = s.diagnostics().0[0].primary_span().unwrap();
        assert_eq!(s.sources().snippet(span), "\"does/not/exist.ck\"");
        let mut s = Session::new();
        s.add_path(Path::new("/does/not/exist.ck"));
        assert_eq!(codes(&s), [codes::FILE_NOT_FOUND]);
    }

    #[test]
    fn import_cycle_is_reported_with_the_chain() {
        let dir = folder(
            "cycle",
            &[
                ("a.ck", b"import \"b.ck\";\n"),
                ("b.ck", b"import \"a.ck\";\n"),
            ],
        );
        let mut s = Session::new();
        s.add_path(&dir.join("a.ck"));
        assert_eq!(codes(&s), [codes::IMPORT_CYCLE]);
        let note = &s.diagnostics().0[0].notes[0];
        assert!(
            note.contains("a.ck → ") && note.contains("b.ck → "),
            "{note}"
        );
        assert_eq!(s.files().len(), 2);
    }

    #[test]
    fn non_utf8_and_unreadable_files() {
        let dir = folder(
            "bytes",
            &[("bad.ck", b"instance a {}\n\xff\xfe"), ("sub/x.ck", b"")],
        );
        let mut s = Session::new();
        s.add_path(&dir.join("bad.ck"));
        assert_eq!(codes(&s), [codes::NOT_UTF8]);
        let span = s.diagnostics().0[0].primary_span().unwrap();
        assert_eq!(span.start, 14);
        let mut s = Session::new();
        s.add_roots(&[&dir]);
        s.add_source(
            "main.ck",
            &format!("import \"{}\";\n", dir.join("sub").display()),
        );
        assert_eq!(codes(&s), [codes::UNREADABLE]);
        // Outside every root, the same import is refused before anything is read.
        let mut s = Session::new();
        s.add_source(
            "main.ck",
            &format!("import \"{}\";\n", dir.join("sub").display()),
        );
        assert_eq!(codes(&s), [codes::IMPORT_OUTSIDE_ROOT]);
    }

    #[test]
    fn parse_errors_are_collected() {
        let mut s = Session::new();
        s.add_source("a.ck", "instance a { k = ; }\n");
        assert_eq!(codes(&s), [ck_dsl::parse::codes::UNEXPECTED_TOKEN]);
    }
}
