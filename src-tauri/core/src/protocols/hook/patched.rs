//! What a Codex patch leaves each file as, worked out the way Codex applies it.

use super::patch::{Change, Chunk, PatchError};
use std::fmt;

/// The text `original` ends with once `chunks` are applied, as Codex 0.171 applies them (seen in
/// `tests/interop/codex-contract.test.mjs`): each hunk found from where the last one ended
/// (exactly, then ignoring trailing, then surrounding whitespace); every line then ends as the
/// original's first line does (CRLF or LF), the last one too. A UTF-8 BOM is part of the first
/// line's text.
pub fn apply(path: &str, original: &str, chunks: &[Chunk]) -> Result<String, PatchError> {
    let eol = match original.split_once('\n') {
        Some((first, _)) if first.ends_with('\r') => "\r\n",
        _ => "\n",
    };
    let mut lines: Vec<String> = original
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l).to_string())
        .collect();
    // A final newline leaves an empty last element that is no line.
    if lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    let mut from = 0;
    let mut edits: Vec<(usize, usize, Vec<String>)> = Vec::new();
    for c in chunks {
        if let Some(ctx) = &c.context {
            let at = seek(&lines, std::slice::from_ref(ctx), from, false).ok_or_else(|| {
                PatchError::NotFound {
                    path: path.into(),
                    lines: ctx.clone(),
                }
            })?;
            from = at + 1;
        }
        if c.old.is_empty() {
            // Only additions: they go at the end.
            edits.push((lines.len(), 0, c.new.clone()));
            continue;
        }
        let at = seek(&lines, &c.old, from, c.at_eof).ok_or_else(|| PatchError::NotFound {
            path: path.into(),
            lines: c.old.join("\n"),
        })?;
        edits.push((at, c.old.len(), c.new.clone()));
        from = at + c.old.len();
    }
    // Back to front, so earlier indices hold.
    edits.sort_by_key(|e| e.0);
    for (at, len, new) in edits.into_iter().rev() {
        lines.splice(at..at + len, new);
    }
    let mut text = String::new();
    for line in &lines {
        text.push_str(line);
        text.push_str(eol);
    }
    Ok(text)
}

/// One file as a patch leaves it: where it was, where it ends up (`None`: deleted), and its text
/// before (`None`: new) and after (`None`: deleted).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Patched {
    pub path: String,
    pub to: Option<String>,
    pub before: Option<String>,
    pub after: Option<String>,
}

/// What each file of `changes` ends as, reading each file's text with `read` (`Ok(None)`: the
/// file does not exist). An Update or Delete of a missing file, or an Add over an existing one,
/// is an error, as Codex would fail it.
pub fn outcomes<E>(
    changes: &[Change],
    read: impl Fn(&str) -> Result<Option<String>, E>,
) -> Result<Vec<Patched>, PatchedError<E>> {
    let mut out = Vec::new();
    for change in changes {
        out.push(match change {
            Change::Add { path, text } => {
                if read(path).map_err(PatchedError::Read)?.is_some() {
                    return Err(PatchedError::Exists(path.clone()));
                }
                Patched {
                    path: path.clone(),
                    to: Some(path.clone()),
                    before: None,
                    after: Some(text.clone()),
                }
            }
            Change::Delete { path } => {
                let before = read(path)
                    .map_err(PatchedError::Read)?
                    .ok_or_else(|| PatchedError::Missing(path.clone()))?;
                Patched {
                    path: path.clone(),
                    to: None,
                    before: Some(before),
                    after: None,
                }
            }
            Change::Update {
                path,
                move_to,
                chunks,
            } => {
                let before = read(path)
                    .map_err(PatchedError::Read)?
                    .ok_or_else(|| PatchedError::Missing(path.clone()))?;
                let after = if chunks.is_empty() {
                    before.clone()
                } else {
                    apply(path, &before, chunks).map_err(PatchedError::Patch)?
                };
                Patched {
                    path: path.clone(),
                    to: Some(move_to.clone().unwrap_or_else(|| path.clone())),
                    before: Some(before),
                    after: Some(after),
                }
            }
        });
    }
    Ok(out)
}

/// Why a patch's outcome cannot be worked out.
#[derive(Debug, PartialEq, Eq)]
pub enum PatchedError<E> {
    Read(E),
    Patch(PatchError),
    Missing(String),
    Exists(String),
}

impl<E: fmt::Display> fmt::Display for PatchedError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PatchedError::Read(e) => write!(f, "{e}"),
            PatchedError::Patch(e) => write!(f, "{e}"),
            PatchedError::Missing(p) => write!(f, "the patch changes {p}, which does not exist"),
            PatchedError::Exists(p) => write!(f, "the patch adds {p}, which exists already"),
        }
    }
}

/// Where `want` starts in `lines` at or after `from`, matched ever more loosely.
fn seek(lines: &[String], want: &[String], from: usize, at_eof: bool) -> Option<usize> {
    if want.len() > lines.len() {
        return None;
    }
    let last = lines.len() - want.len();
    let rules: [fn(&str, &str) -> bool; 3] = [
        |a, b| a == b,
        |a, b| a.trim_end() == b.trim_end(),
        |a, b| a.trim() == b.trim(),
    ];
    for same in rules {
        let fits = |at: usize| {
            lines[at..at + want.len()]
                .iter()
                .zip(want)
                .all(|(a, b)| same(a, b))
        };
        if at_eof && last >= from && fits(last) {
            return Some(last);
        }
        if let Some(at) = (from..=last).find(|&at| fits(at)) {
            return Some(at);
        }
    }
    None
}
