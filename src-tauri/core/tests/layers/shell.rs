//! What the shell (`src-tauri/*.rs`, `src-tauri/window/*.rs`) takes from the core, and the
//! core's servers: read from the code, checked against table.rs and shown in
//! docs/architecture.md, so that the doc's words about them cannot drift.

use crate::lex::{tokens, Tok};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The core's top-level modules `src` names through `redline_core::…` (grouped uses expanded),
/// with the first line of each; the crate root's re-exports (`Error`, `Result`) are `error`'s.
pub fn core_modules(src: &str) -> BTreeMap<String, usize> {
    let toks = tokens(src);
    let at = |i: usize| toks.get(i).map(|t| &t.tok);
    let mut found = BTreeMap::new();
    let mut note = |name: &str, line: usize| {
        let module = if name.starts_with(char::is_uppercase) {
            "error"
        } else {
            name
        };
        found.entry(module.to_string()).or_insert(line);
    };
    for (i, t) in toks.iter().enumerate() {
        if t.tok != Tok::Ident("redline_core".into()) || at(i + 1) != Some(&Tok::PathSep) {
            continue;
        }
        match at(i + 2) {
            Some(Tok::Ident(name)) => note(name, t.line),
            Some(Tok::Punct('{')) => {
                // Each tree's first segment, at the group's own depth.
                let mut depth = 0;
                let mut first = true;
                for tok in &toks[i + 2..] {
                    match &tok.tok {
                        Tok::Punct('{') => {
                            depth += 1;
                            first = depth == 1;
                        }
                        Tok::Punct('}') => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        Tok::Punct(',') if depth == 1 => first = true,
                        Tok::Ident(name) if depth == 1 && first => {
                            note(name, tok.line);
                            first = false;
                        }
                        _ => first = false,
                    }
                }
            }
            _ => {}
        }
    }
    found
}

/// The shell's source files (both programs), tests excluded.
pub fn shell_files(shell: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in [shell.to_path_buf(), shell.join("window")] {
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.unwrap().path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let test = name == "tests.rs" || name.ends_with("_tests.rs");
            if path.extension().is_some_and(|e| e == "rs") && !test && name != "build.rs" {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The servers a companion runs: `impl Server for X` in `runtime/companion/*.rs`, as
/// (file name, type).
pub fn servers(companion: &Path) -> BTreeSet<(String, String)> {
    let mut found = BTreeSet::new();
    let entries =
        std::fs::read_dir(companion).unwrap_or_else(|e| panic!("{}: {e}", companion.display()));
    for entry in entries {
        let path = entry.unwrap().path();
        let Ok(src) = std::fs::read_to_string(&path) else {
            continue;
        };
        let toks: Vec<Tok> = tokens(&src).into_iter().map(|t| t.tok).collect();
        for w in toks.windows(4) {
            if let [Tok::Ident(a), Tok::Ident(b), Tok::Ident(c), Tok::Ident(ty)] = w {
                if a == "impl" && b == "Server" && c == "for" {
                    let file = path.file_name().unwrap().to_string_lossy().into_owned();
                    found.insert((file, ty.clone()));
                }
            }
        }
    }
    found
}
