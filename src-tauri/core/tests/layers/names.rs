//! One meaning per type name: two files of the core may not each define a type of the same name,
//! unless table.rs says the two mean the same thing (one per adapter or per OS).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The types each file lends out at its top level (`pub` in any form: `struct`, `enum`, `trait`,
/// `type`), outside `#[cfg(test)]` code, which starts where a file's `mod tests` starts. A
/// private type is a file's own word and may repeat.
pub fn defined(files: &[PathBuf]) -> BTreeMap<String, Vec<PathBuf>> {
    let mut by_name: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for f in files {
        let src = std::fs::read_to_string(f).unwrap_or_default();
        for line in src.lines() {
            if line.starts_with("#[cfg(test)]") {
                break;
            }
            if let Some(name) = type_name(line) {
                by_name.entry(name).or_default().push(f.clone());
            }
        }
    }
    by_name
}

fn type_name(line: &str) -> Option<String> {
    if !line.starts_with("pub") {
        return None;
    }
    let mut words = line.split_whitespace().skip(1);
    match words.next()? {
        "struct" | "enum" | "trait" | "type" => {}
        _ => return None,
    }
    let name: String = words
        .next()?
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

/// Names defined in more than one file, but for `same` (names that mean one thing everywhere).
pub fn problems(files: &[PathBuf], base: &Path, same: &[&str]) -> Vec<String> {
    defined(files)
        .into_iter()
        .filter(|(name, at)| at.len() > 1 && !same.contains(&name.as_str()))
        .map(|(name, at)| {
            let at: Vec<String> = at.iter().map(|p| super::shown(p, base)).collect();
            format!(
                "`{name}` means different things in {}: give each its own name",
                at.join(" and ")
            )
        })
        .collect()
}

/// Every module name (a file's stem; `mod.rs` and test files aside) with the files that use it.
pub fn modules(files: &[PathBuf]) -> BTreeMap<String, Vec<PathBuf>> {
    let mut by_name: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for f in files {
        let Some(stem) = f.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        if stem == "mod" || stem == "lib" || stem == "tests" || stem.ends_with("_tests") {
            continue;
        }
        by_name.entry(stem.to_owned()).or_default().push(f.clone());
    }
    by_name
}

/// Module names used by more than one file, but for `same` (names that mean one thing).
pub fn module_problems(files: &[PathBuf], base: &Path, same: &[(&str, &str)]) -> Vec<String> {
    modules(files)
        .into_iter()
        .filter(|(name, at)| at.len() > 1 && !same.iter().any(|(n, _)| n == name))
        .map(|(name, at)| {
            let at: Vec<String> = at.iter().map(|p| super::shown(p, base)).collect();
            format!(
                "module `{name}` names different things in {}: give each its own name",
                at.join(" and ")
            )
        })
        .collect()
}
