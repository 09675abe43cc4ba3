//! Errors per layer: each layer below the runtime raises its own errors from its own enum
//! (`src/<layer>/error.rs`, with its `code()` beside it), and the core's `Error` (src/error.rs)
//! composes them once. What `Error` writes directly is what several layers raise, or the
//! runtime's (or the shell's) own: a direct variant that one lower layer alone names is that
//! layer's, and fails here.

use super::lex::{tokens, Tok};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// `Error`'s variants, as written in src/error.rs: each one's name, and the type it composes
/// when it is `#[error(transparent)]` around a `#[from]` type.
pub struct Variant {
    pub name: String,
    pub composes: Option<String>,
}

/// The variants of `pub enum Error` in `src`.
pub fn variants(src: &str) -> Vec<Variant> {
    let toks: Vec<Tok> = tokens(src).into_iter().map(|t| t.tok).collect();
    let ident = |i: usize, s: &str| matches!(toks.get(i), Some(Tok::Ident(x)) if x == s);
    let Some(start) = (0..toks.len()).find(|&i| ident(i, "enum") && ident(i + 1, "Error")) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let (mut depth, mut transparent) = (0usize, false);
    let mut i = start + 2;
    while i < toks.len() {
        match &toks[i] {
            Tok::Punct('{') | Tok::Punct('(') | Tok::Punct('[') => depth += 1,
            Tok::Punct('}') | Tok::Punct(')') | Tok::Punct(']') => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            Tok::Ident(x) if x == "transparent" => transparent = true,
            Tok::Ident(name) if depth == 1 => {
                // `Name(#[from] Type)`: the type is the last identifier before the `)`.
                let composes = (transparent && toks.get(i + 1) == Some(&Tok::Punct('(')))
                    .then(|| {
                        toks[i + 1..]
                            .iter()
                            .take_while(|t| **t != Tok::Punct(')'))
                            .filter_map(|t| match t {
                                Tok::Ident(x) => Some(x.clone()),
                                _ => None,
                            })
                            .last()
                    })
                    .flatten();
                out.push(Variant {
                    name: name.clone(),
                    composes,
                });
                transparent = false;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// The variants named `Error::V` (or `crate::error::Error::V`) in `src`'s code before its tests.
pub fn named(src: &str) -> BTreeSet<String> {
    let product = src.split("\n#[cfg(test)]").next().unwrap_or("");
    let toks: Vec<Tok> = tokens(product).into_iter().map(|t| t.tok).collect();
    let mut out = BTreeSet::new();
    for i in 0..toks.len().saturating_sub(2) {
        let (Tok::Ident(e), Tok::PathSep, Tok::Ident(v)) = (&toks[i], &toks[i + 1], &toks[i + 2])
        else {
            continue;
        };
        // `keyring::Error::…` is another crate's `Error`; `crate::Error`, `error::Error` are ours.
        let ours = i < 2
            || toks[i - 1] != Tok::PathSep
            || matches!(&toks[i - 2], Tok::Ident(m) if m == "crate" || m == "error");
        if e == "Error" && ours {
            out.insert(v.clone());
        }
    }
    out
}

/// Each layer's own error enum: the `pub enum …Error` of `src/<layer>/error.rs`, by layer.
pub fn layer_enums(src_dir: &Path) -> BTreeMap<String, (PathBuf, String)> {
    let mut out = BTreeMap::new();
    let Ok(dirs) = std::fs::read_dir(src_dir) else {
        return out;
    };
    for d in dirs.flatten() {
        let file = d.path().join("error.rs");
        let layer = d.file_name().to_string_lossy().into_owned();
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        if layer == "error" {
            continue;
        }
        if enum_name(&text).is_some() {
            out.insert(layer, (file, text));
        }
    }
    out
}

/// The enum a layer's error file defines.
pub fn enum_name(text: &str) -> Option<String> {
    text.lines().find_map(|l| {
        let rest = l.strip_prefix("pub enum ")?;
        let name: String = rest.chars().take_while(|c| c.is_alphanumeric()).collect();
        name.ends_with("Error").then_some(name)
    })
}

/// What is wrong with the errors of the crate at `base`: `files` are its product files, each with
/// its layer; the layers `apart` keep their errors to themselves (table.rs, `ERRORS_APART`).
pub fn problems(base: &Path, files: &[(PathBuf, String)], apart: &[&str]) -> Vec<String> {
    let top = std::fs::read_to_string(base.join("src/error.rs")).unwrap_or_default();
    let variants = variants(&top);
    let mut problems = Vec::new();
    let enums = layer_enums(&base.join("src"));
    let composed: BTreeSet<String> = variants.iter().filter_map(|v| v.composes.clone()).collect();
    for (layer, (file, text)) in &enums {
        let Some(name) = enum_name(text) else {
            continue;
        };
        if apart.contains(&layer.as_str()) {
            continue;
        }
        if !composed.contains(&name) {
            problems.push(format!(
                "{}: `{name}` is not composed in `Error` (src/error.rs): `{name}`s reach no edge",
                super::shown(file, base)
            ));
        }
        if !text.contains(&format!("impl {name} {{"))
            || !text.contains("fn code(&self) -> FaultCode")
        {
            problems.push(format!(
                "{}: `{name}` has no `code()` beside it (layer `{layer}`)",
                super::shown(file, base)
            ));
        }
    }
    let layer_names: BTreeSet<&String> = enums.keys().collect();
    for v in variants.iter().filter(|v| v.composes.is_some()) {
        let ty = v.composes.as_deref().unwrap_or_default();
        let own = enums
            .values()
            .any(|(_, t)| enum_name(t).as_deref() == Some(ty));
        // `ControlFailure` is the error layer's own (src/error/control.rs), raised by the runtime.
        if !own && ty.ends_with("Error") {
            problems.push(format!(
                "`Error::{}` composes `{ty}`, which no layer's error.rs ({layer_names:?}) defines",
                v.name
            ));
        }
    }
    let mut by_variant: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (file, layer) in files {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        for v in named(&text) {
            if let Some(var) = variants
                .iter()
                .find(|x| x.name == v && x.composes.is_none())
            {
                by_variant.entry(&var.name).or_default().insert(layer);
            }
        }
    }
    for (variant, layers) in by_variant {
        let below: Vec<&&str> = layers
            .iter()
            .filter(|l| **l != "runtime" && **l != "error")
            .collect();
        if layers.len() == 1 && below.len() == 1 {
            let layer = below[0];
            problems.push(format!(
                "`Error::{variant}` is raised only in `{layer}`: it belongs in {layer}'s own error enum (src/{layer}/error.rs)"
            ));
        }
    }
    problems
}
