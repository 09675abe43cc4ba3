//! Codex CLI's `apply_patch` format: a patch read into the changes it makes to each file, and
//! changes written back as a patch.

// Read as the pinned codex (0.171, `tests/interop/node_modules`) reads it; `tests/it/codex_apply.rs`
// runs that binary's own apply step on seeded patches and compares byte for byte. Redline never
// lets Codex apply the model's patch: every accept is answered with a patch of Redline's own
// (`replacement`), so what Codex writes is what the review showed even where a reading differs.

use std::fmt;

/// One file's part of a patch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    Add {
        path: String,
        text: String,
    },
    Delete {
        path: String,
    },
    Update {
        path: String,
        move_to: Option<String>,
        chunks: Vec<Chunk>,
    },
}

/// One `@@` hunk: the lines it expects (context and removed) and what replaces them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    /// The text after `@@ `: a line to find first, the hunk applying below it.
    pub context: Option<String>,
    pub old: Vec<String>,
    pub new: Vec<String>,
    /// For each new line, the old line it is when it is context (`' '` or an empty line):
    /// Codex writes the file's own line there (its text and ending), not the patch's.
    pub kept: Vec<Option<usize>>,
    /// Marked `*** End of File`: the old lines end the file.
    pub at_eof: bool,
}

/// Why a patch cannot be read or does not apply; `line` counts from 1 in the patch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PatchError {
    Syntax {
        line: usize,
        why: String,
    },
    NotFound {
        path: String,
        lines: String,
    },
    /// Codex might read or apply it otherwise than Redline: never guessed.
    Unsure {
        path: String,
        why: String,
    },
}

impl fmt::Display for PatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PatchError::Syntax { line, why } => write!(f, "the patch's line {line}: {why}"),
            PatchError::NotFound { path, lines } => write!(
                f,
                "the patch does not apply to {path} as it is on disk: these lines are not in it:\n{lines}"
            ),
            PatchError::Unsure { path, why } => write!(
                f,
                "Redline could not be sure what this edit writes: {path}: {why}"
            ),
        }
    }
}

impl std::error::Error for PatchError {}

const BEGIN: &str = "*** Begin Patch";
const END: &str = "*** End Patch";
const ADD: &str = "*** Add File: ";
const DELETE: &str = "*** Delete File: ";
const UPDATE: &str = "*** Update File: ";
const MOVE_TO: &str = "*** Move to: ";
const EOF_MARK: &str = "*** End of File";

fn syntax(line: usize, why: impl Into<String>) -> PatchError {
    PatchError::Syntax {
        line,
        why: why.into(),
    }
}

/// The changes of a whole patch, in order, read as Codex 0.171's `parse_patch` reads them
/// (lenient mode): the patch trimmed and split into lines (a `\r` before a `\n` dropped); the
/// first and last lines, trimmed, are the markers (or a `<<EOF` here-document around them);
/// each file's header line is trimmed before its path is taken, a `*** Move to: ` line only at
/// its end; the first hunk of a file may leave out its `@@`; blank lines between hunks are skipped,
/// blank lines inside one are empty context; a hunk ends at a line it cannot read.
pub fn parse(patch: &str) -> Result<Vec<Change>, PatchError> {
    let all: Vec<&str> = patch.trim().lines().collect();
    let lines = match boundaries(&all) {
        Ok(lines) => lines,
        Err(e) => match all.as_slice() {
            [first, .., last]
                if ["<<EOF", "<<'EOF'", "<<\"EOF\""].contains(first)
                    && last.ends_with("EOF")
                    && all.len() >= 4 =>
            {
                boundaries(&all[1..all.len() - 1])?
            }
            _ => return Err(e),
        },
    };
    let body = &lines[1..lines.len() - 1];
    let mut changes = Vec::new();
    let mut i = 0;
    while i < body.len() {
        let (change, used) = one_file(&body[i..], i + 2)?;
        changes.push(change);
        i += used;
    }
    Ok(changes)
}

fn boundaries<'a>(lines: &'a [&'a str]) -> Result<&'a [&'a str], PatchError> {
    let first = lines.first().map(|l| l.trim());
    let last = lines.last().map(|l| l.trim());
    if first != Some(BEGIN) {
        return Err(syntax(1, format!("it must start with `{BEGIN}`")));
    }
    if last != Some(END) || lines.len() < 2 {
        return Err(syntax(lines.len(), format!("it must end with `{END}`")));
    }
    Ok(lines)
}

/// One file's part from the start of `lines` (line `n` of the patch), and how many lines it
/// took.
fn one_file(lines: &[&str], n: usize) -> Result<(Change, usize), PatchError> {
    let header = lines[0].trim();
    if let Some(path) = header.strip_prefix(ADD) {
        return Ok(added_file(path, &lines[1..]));
    }
    if let Some(path) = header.strip_prefix(DELETE) {
        return Ok((
            Change::Delete {
                path: path.to_owned(),
            },
            1,
        ));
    }
    let Some(path) = header.strip_prefix(UPDATE) else {
        return Err(syntax(
            n,
            format!("`{header}` is no `{ADD}`, `{DELETE}` or `{UPDATE}` line"),
        ));
    };
    updated_file(header, path, lines, n)
}

/// An `Add File` part: its `+` lines after the header are the new file's text.
fn added_file(path: &str, body: &[&str]) -> (Change, usize) {
    let mut text = String::new();
    let mut used = 1;
    for line in body {
        let Some(added) = line.strip_prefix('+') else {
            break;
        };
        text.push_str(added);
        text.push('\n');
        used += 1;
    }
    let path = path.to_owned();
    (Change::Add { path, text }, used)
}

/// An `Update File` part (`header`, line `n`): an optional `Move to`, then its hunks.
fn updated_file(
    header: &str,
    path: &str,
    lines: &[&str],
    n: usize,
) -> Result<(Change, usize), PatchError> {
    let mut used = 1;
    // Trailing whitespace goes, as the real codex 0.171 does; a line with leading whitespace
    // is no `Move to` but a context line.
    let move_to = lines
        .get(1)
        .and_then(|l| l.trim_end().strip_prefix(MOVE_TO));
    if move_to.is_some() {
        used += 1;
    }
    let mut chunks = Vec::new();
    while used < lines.len() {
        let line = lines[used];
        if line.trim().is_empty() {
            used += 1;
            continue;
        }
        if line.starts_with('*') {
            break;
        }
        let (c, took) = chunk(&lines[used..], n + used, chunks.is_empty())?;
        chunks.push(c);
        used += took;
    }
    if chunks.is_empty() {
        return Err(syntax(n, format!("`{header}` changes nothing")));
    }
    Ok((
        Change::Update {
            path: path.to_owned(),
            move_to: move_to.map(str::to_owned),
            chunks,
        },
        used,
    ))
}

/// One hunk from the start of `lines` (line `n` of the patch), and how many lines it took;
/// the first of a file may leave out its `@@` line.
fn chunk(lines: &[&str], n: usize, first: bool) -> Result<(Chunk, usize), PatchError> {
    let (context, start) = match lines[0] {
        "@@" => (None, 1),
        // `@@ ` with nothing after it is a bare `@@` to the real codex 0.171.
        "@@ " => (None, 1),
        l if l.starts_with("@@ ") => (Some(l["@@ ".len()..].to_string()), 1),
        _ if first => (None, 0),
        l => return Err(syntax(n, format!("`{l}`: a hunk must start with `@@`"))),
    };
    if start >= lines.len() {
        return Err(syntax(n + 1, "an empty hunk"));
    }
    let (mut old, mut new, mut at_eof) = (Vec::new(), Vec::new(), false);
    let mut kept = Vec::new();
    let mut used = 0;
    for line in &lines[start..] {
        if *line == EOF_MARK {
            if used == 0 {
                return Err(syntax(n + 1, "an empty hunk"));
            }
            at_eof = true;
            used += 1;
            break;
        }
        match line.chars().next() {
            // An empty line is an empty context line (models drop the space).
            None => {
                kept.push(Some(old.len()));
                old.push(String::new());
                new.push(String::new());
            }
            Some(' ') => {
                kept.push(Some(old.len()));
                old.push(line[1..].to_string());
                new.push(line[1..].to_string());
            }
            Some('-') => old.push(line[1..].to_string()),
            Some('+') => {
                kept.push(None);
                new.push(line[1..].to_string());
            }
            Some(_) if used == 0 => {
                return Err(syntax(
                    n + 1,
                    format!("`{line}`: a hunk's line starts with ` `, `-` or `+`"),
                ))
            }
            // The next hunk, or the next file.
            Some(_) => break,
        }
        used += 1;
    }
    Ok((
        Chunk {
            context,
            old,
            new,
            kept,
            at_eof,
        },
        start + used,
    ))
}

/// A whole patch of `changes`, as `parse` reads it back.
pub fn render(changes: impl IntoIterator<Item = Change>) -> String {
    let mut out = format!("{BEGIN}\n");
    let mut line = |prefix: &str, text: &str| {
        out.push_str(prefix);
        out.push_str(text);
        out.push('\n');
    };
    for change in changes {
        match change {
            Change::Add { path, text } => {
                line(ADD, &path);
                text.lines().for_each(|l| line("+", l));
            }
            Change::Delete { path } => line(DELETE, &path),
            Change::Update {
                path,
                move_to,
                chunks,
            } => {
                line(UPDATE, &path);
                if let Some(to) = move_to {
                    line(MOVE_TO, &to);
                }
                for c in chunks {
                    match &c.context {
                        Some(ctx) => line("@@ ", ctx),
                        None => line("@@", ""),
                    }
                    // Context lines where they stand, each old line before them removed.
                    let mut next_old = 0;
                    for (i, l) in c.new.iter().enumerate() {
                        match c.kept.get(i).copied().flatten() {
                            Some(o) => {
                                c.old[next_old.min(o)..o].iter().for_each(|l| line("-", l));
                                line(" ", l);
                                next_old = o + 1;
                            }
                            None => line("+", l),
                        }
                    }
                    c.old[next_old.min(c.old.len())..]
                        .iter()
                        .for_each(|l| line("-", l));
                    if c.at_eof {
                        line(EOF_MARK, "");
                    }
                }
            }
        }
    }
    out.push_str(END);
    out.push('\n');
    out
}

#[cfg(test)]
#[path = "patch_tests.rs"]
mod tests;
