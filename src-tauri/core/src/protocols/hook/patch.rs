//! Codex CLI's `apply_patch` format: a patch read into the changes it makes to each file, and
//! changes written back as a patch.

// Still to check against the real codex (npm, the pinned version) before a hook answers with an
// edited patch: recent codex sources write a file's line endings as its original bytes have them
// (CRLF when CRLF lines are the majority; `APPLY_PATCH_ASSUME_EOL`; .gitattributes for new
// files) and say a final newline's presence is kept; `apply` here joins with `\n` and always ends
// with one, as older sources did. The accepted text must come out byte for byte (issue 23), so
// the answer for a text codex cannot reproduce is a deny with the reason, never a near miss.

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
    /// Marked `*** End of File`: the old lines end the file.
    pub at_eof: bool,
}

/// Why a patch cannot be read or does not apply; `line` counts from 1 in the patch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PatchError {
    Syntax { line: usize, why: String },
    NotFound { path: String, lines: String },
}

impl fmt::Display for PatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PatchError::Syntax { line, why } => write!(f, "the patch's line {line}: {why}"),
            PatchError::NotFound { path, lines } => write!(
                f,
                "the patch does not apply to {path} as it is on disk: these lines are not in it:\n{lines}"
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

/// The changes of a whole patch, in order.
pub fn parse(patch: &str) -> Result<Vec<Change>, PatchError> {
    let lines: Vec<&str> = patch.trim().lines().collect();
    if lines.first().map(|l| l.trim()) != Some(BEGIN) {
        return Err(syntax(1, format!("it must start with `{BEGIN}`")));
    }
    if lines.last().map(|l| l.trim()) != Some(END) {
        return Err(syntax(lines.len(), format!("it must end with `{END}`")));
    }
    let body = &lines[1..lines.len() - 1];
    let mut changes = Vec::new();
    let mut i = 0;
    while i < body.len() {
        let n = i + 2; // the patch's own line number
        let line = body[i];
        if let Some(path) = line.strip_prefix(ADD) {
            i += 1;
            let mut text = String::new();
            while i < body.len() && !body[i].starts_with("*** ") {
                let Some(added) = body[i].strip_prefix('+') else {
                    return Err(syntax(i + 2, "a line of an added file must start with `+`"));
                };
                text.push_str(added);
                text.push('\n');
                i += 1;
            }
            changes.push(Change::Add {
                path: path.into(),
                text,
            });
        } else if let Some(path) = line.strip_prefix(DELETE) {
            changes.push(Change::Delete { path: path.into() });
            i += 1;
        } else if let Some(path) = line.strip_prefix(UPDATE) {
            i += 1;
            let mut move_to = None;
            if let Some(to) = body.get(i).and_then(|l| l.strip_prefix(MOVE_TO)) {
                move_to = Some(to.to_string());
                i += 1;
            }
            let mut chunks = Vec::new();
            while i < body.len() && !is_file_header(body[i]) {
                let (chunk, next) = chunk(body, i, chunks.is_empty())?;
                chunks.push(chunk);
                i = next;
            }
            if chunks.is_empty() && move_to.is_none() {
                return Err(syntax(n, format!("`{line}` changes nothing")));
            }
            changes.push(Change::Update {
                path: path.into(),
                move_to,
                chunks,
            });
        } else {
            return Err(syntax(
                n,
                format!("`{line}` is no `{ADD}`, `{DELETE}` or `{UPDATE}` line"),
            ));
        }
    }
    Ok(changes)
}

fn is_file_header(line: &str) -> bool {
    [ADD, DELETE, UPDATE].iter().any(|h| line.starts_with(h))
}

/// One hunk from `body[i]`; the first of a file may leave out its `@@` line.
fn chunk(body: &[&str], mut i: usize, first: bool) -> Result<(Chunk, usize), PatchError> {
    let mut context = None;
    match body[i] {
        "@@" => i += 1,
        l if l.starts_with("@@ ") => {
            context = Some(l["@@ ".len()..].to_string());
            i += 1;
        }
        _ if first => {}
        l => return Err(syntax(i + 2, format!("`{l}`: a hunk must start with `@@`"))),
    }
    let (mut old, mut new, mut at_eof) = (Vec::new(), Vec::new(), false);
    let start = i;
    while i < body.len() {
        let line = body[i];
        if line == EOF_MARK {
            at_eof = true;
            i += 1;
            break;
        }
        if line.starts_with("@@") || is_file_header(line) {
            break;
        }
        match line.chars().next() {
            // An empty line is an empty context line (models drop the space).
            None => {
                old.push(String::new());
                new.push(String::new());
            }
            Some(' ') => {
                old.push(line[1..].to_string());
                new.push(line[1..].to_string());
            }
            Some('-') => old.push(line[1..].to_string()),
            Some('+') => new.push(line[1..].to_string()),
            Some(_) => {
                return Err(syntax(
                    i + 2,
                    format!("`{line}`: a hunk's line starts with ` `, `-` or `+`"),
                ))
            }
        }
        i += 1;
    }
    if i == start {
        return Err(syntax(i + 1, "an empty hunk"));
    }
    Ok((
        Chunk {
            context,
            old,
            new,
            at_eof,
        },
        i,
    ))
}

/// The change that turns `before` into `after` for `path` (moved to `to`): every old line
/// removed, every new one added (Codex takes such a patch). For an answer that carries the
/// user's edited text.
pub fn replacement(path: &str, to: Option<&str>, before: &str, after: &str) -> Change {
    let old: Vec<String> = before.lines().map(str::to_owned).collect();
    let new: Vec<String> = after.lines().map(str::to_owned).collect();
    let chunks = match old.is_empty() && new.is_empty() {
        true => Vec::new(),
        false => vec![Chunk {
            context: None,
            old,
            new,
            at_eof: false,
        }],
    };
    Change::Update {
        path: path.to_owned(),
        move_to: to.map(str::to_owned),
        chunks,
    }
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
                    c.old.iter().for_each(|l| line("-", l));
                    c.new.iter().for_each(|l| line("+", l));
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
