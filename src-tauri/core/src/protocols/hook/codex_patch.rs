//! Codex CLI's `apply_patch` format: the files one patch touches and the text each would end
//! with, applied the way Codex applies it.

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

/// The text `original` ends with once `chunks` are applied, as Codex applies them: each hunk found
/// from where the last one ended (exactly, then ignoring trailing, then surrounding whitespace),
/// and the result ending with a newline.
pub fn apply(path: &str, original: &str, chunks: &[Chunk]) -> Result<String, PatchError> {
    let mut lines: Vec<String> = original.split('\n').map(str::to_string).collect();
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
    let mut text = lines.join("\n");
    text.push('\n');
    Ok(text)
}

/// One file as a patch leaves it: where it was, where it ends up (`None`: deleted), and its text
/// before (`None`: new) and after (`None`: deleted).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
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
) -> Result<Vec<Outcome>, OutcomeError<E>> {
    let mut out = Vec::new();
    for change in changes {
        out.push(match change {
            Change::Add { path, text } => {
                if read(path).map_err(OutcomeError::Read)?.is_some() {
                    return Err(OutcomeError::Exists(path.clone()));
                }
                Outcome {
                    path: path.clone(),
                    to: Some(path.clone()),
                    before: None,
                    after: Some(text.clone()),
                }
            }
            Change::Delete { path } => {
                let before = read(path)
                    .map_err(OutcomeError::Read)?
                    .ok_or_else(|| OutcomeError::Missing(path.clone()))?;
                Outcome {
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
                    .map_err(OutcomeError::Read)?
                    .ok_or_else(|| OutcomeError::Missing(path.clone()))?;
                let after = if chunks.is_empty() {
                    before.clone()
                } else {
                    apply(path, &before, chunks).map_err(OutcomeError::Patch)?
                };
                Outcome {
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
pub enum OutcomeError<E> {
    Read(E),
    Patch(PatchError),
    Missing(String),
    Exists(String),
}

impl<E: fmt::Display> fmt::Display for OutcomeError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OutcomeError::Read(e) => write!(f, "{e}"),
            OutcomeError::Patch(e) => write!(f, "{e}"),
            OutcomeError::Missing(p) => write!(f, "the patch changes {p}, which does not exist"),
            OutcomeError::Exists(p) => write!(f, "the patch adds {p}, which exists already"),
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn update(patch: &str) -> Vec<Chunk> {
        match parse(patch).unwrap().remove(0) {
            Change::Update { chunks, .. } => chunks,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn an_update_with_context_applies_where_its_lines_are() {
        let patch = "*** Begin Patch\n*** Update File: src/a.rs\n@@ fn two() {\n     let x = 1;\n-    x\n+    x + 1\n }\n*** End Patch\n";
        let original =
            "fn one() {\n    let x = 1;\n    x\n}\nfn two() {\n    let x = 1;\n    x\n}\n";
        let text = apply("src/a.rs", original, &update(patch)).unwrap();
        assert_eq!(
            text,
            "fn one() {\n    let x = 1;\n    x\n}\nfn two() {\n    let x = 1;\n    x + 1\n}\n"
        );
    }

    #[test]
    fn add_delete_and_move_are_read() {
        let patch = "*** Begin Patch\n*** Add File: new.txt\n+one\n+two\n*** Delete File: old.txt\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n-x\n+y\n*** End Patch";
        let changes = parse(patch).unwrap();
        assert_eq!(
            changes[0],
            Change::Add {
                path: "new.txt".into(),
                text: "one\ntwo\n".into()
            }
        );
        assert_eq!(
            changes[1],
            Change::Delete {
                path: "old.txt".into()
            }
        );
        let Change::Update { path, move_to, .. } = &changes[2] else {
            panic!("{changes:?}")
        };
        assert_eq!(
            (path.as_str(), move_to.as_deref()),
            ("a.txt", Some("b.txt"))
        );
    }

    #[test]
    fn a_hunk_that_is_not_in_the_file_is_an_error_naming_its_lines_never_a_guess() {
        let patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-not there\n+x\n*** End Patch";
        let err = apply("a.txt", "one\ntwo\n", &update(patch)).unwrap_err();
        assert_eq!(
            err,
            PatchError::NotFound {
                path: "a.txt".into(),
                lines: "not there".into()
            }
        );
        assert!(err.to_string().contains("does not apply to a.txt"), "{err}");
    }

    #[test]
    fn trailing_whitespace_is_forgiven_and_the_end_of_file_marker_anchors() {
        let patch =
            "*** Begin Patch\n*** Update File: a.txt\n@@\n-x\n+y\n*** End of File\n*** End Patch";
        // `x  ` twice: the marker picks the last one.
        let text = apply("a.txt", "x  \nmid\nx  \n", &update(patch)).unwrap();
        assert_eq!(text, "x  \nmid\ny\n");
    }

    #[test]
    fn malformed_patches_say_which_line() {
        for (patch, line) in [
            ("*** Update File: a\n*** End Patch", 1),
            ("*** Begin Patch\n*** Update File: a\n@@\n-x", 4),
            ("*** Begin Patch\n*** Frobnicate: a\n*** End Patch", 2),
            (
                "*** Begin Patch\n*** Add File: a\nno plus\n*** End Patch",
                3,
            ),
            (
                "*** Begin Patch\n*** Update File: a\n@@\n*x\n*** End Patch",
                4,
            ),
        ] {
            match parse(patch) {
                Err(PatchError::Syntax { line: l, .. }) => assert_eq!(l, line, "{patch}"),
                other => panic!("{patch}: {other:?}"),
            }
        }
    }

    #[test]
    fn outcomes_read_each_file_and_say_what_it_ends_as() {
        let patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n*** Add File: b.txt\n+new\n*** Delete File: c.txt\n*** End Patch";
        let disk = |p: &str| -> Result<Option<String>, String> {
            Ok(match p {
                "a.txt" => Some("one\ntwo\n".into()),
                "c.txt" => Some("gone\n".into()),
                _ => None,
            })
        };
        let out = outcomes(&parse(patch).unwrap(), disk).unwrap();
        assert_eq!(out[0].after.as_deref(), Some("ONE\ntwo\n"));
        assert_eq!(out[1].before, None);
        assert_eq!(out[1].after.as_deref(), Some("new\n"));
        assert_eq!(out[2].to, None);
        assert_eq!(out[2].before.as_deref(), Some("gone\n"));

        let missing = "*** Begin Patch\n*** Delete File: nope.txt\n*** End Patch";
        let err = outcomes(&parse(missing).unwrap(), disk).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the patch changes nope.txt, which does not exist"
        );
    }

    #[test]
    fn a_replacing_patch_yields_the_text_it_was_made_for() {
        let before = "fn a() {}\n\nfn b() {}\n";
        let after = "fn a() {\n    edited();\n}\n\nfn b() {}\n";
        let patch = render([replacement("src/x.rs", None, before, after)]);
        assert_eq!(apply("src/x.rs", before, &update(&patch)).unwrap(), after);
    }
}
