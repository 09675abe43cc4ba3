//! What a Codex patch leaves each file as, worked out the way Codex applies it.

use super::patch::{Change, Chunk, PatchError};
use std::fmt;

/// Where a hunk goes, how many lines it replaces, and its lines: the patch's text, or (a
/// context line) the index of the file's own line.
type Edit = (usize, usize, Vec<Result<String, usize>>);

/// One line of a file: its text and how it ends (`None`: the last line, unterminated).
struct Line {
    text: String,
    crlf: Option<bool>,
}

/// A file's lines as Codex 0.171 splits them: at each `\n`, a `\r` before it part of the
/// ending; an unterminated last line is a line too. A UTF-8 BOM is part of the first line.
fn split(text: &str) -> Vec<Line> {
    let mut lines: Vec<Line> = text
        .split_inclusive('\n')
        .map(|l| match l.strip_suffix('\n') {
            Some(l) => match l.strip_suffix('\r') {
                Some(t) => Line {
                    text: t.to_owned(),
                    crlf: Some(true),
                },
                None => Line {
                    text: l.to_owned(),
                    crlf: Some(false),
                },
            },
            None => Line {
                text: l.to_owned(),
                crlf: None,
            },
        })
        .collect();
    lines.retain(|l| l.crlf.is_some() || !l.text.is_empty());
    lines
}

/// `text`'s lines, each with how it ends (`None`: unterminated, `Some(true)`: CRLF).
pub fn line_ends(text: &str) -> Vec<(String, Option<bool>)> {
    split(text).into_iter().map(|l| (l.text, l.crlf)).collect()
}

/// The texts of `text`'s lines, as Codex matches a hunk against them.
pub fn line_texts(text: &str) -> Vec<String> {
    split(text).into_iter().map(|l| l.text).collect()
}

/// The text `original` ends with once `chunks` are applied, as Codex 0.171 applies them (its
/// `compute_replacements`, `seek_sequence` and `SourceFile`, checked against the real binary
/// by `tests/it/codex_apply.rs`): each hunk's `@@` line, then its old lines, sought from where
/// the last hunk ended (an `*** End of File` hunk only where it would end the file), exactly,
/// then ignoring trailing whitespace, then surrounding whitespace, then with typographic
/// punctuation read as ASCII; old lines ending in an empty one sought again without it; a hunk
/// of only new lines goes at the end. Replaced lines end as the file's first line does (LF if
/// it has none), the lines kept keep their endings, and an unterminated last line gets one.
pub fn apply(path: &str, original: &str, chunks: &[Chunk]) -> Result<String, PatchError> {
    let mut source = split(original);
    let crlf = source.first().and_then(|l| l.crlf).unwrap_or(false);
    let texts: Vec<String> = source.iter().map(|l| l.text.clone()).collect();
    let mut from = 0;
    let mut edits: Vec<Edit> = Vec::new();
    for c in chunks {
        edits.push(locate(path, &texts, c, &mut from)?);
    }
    check_edits(path, texts.len(), chunks, &mut edits)?;
    splice(&mut source, edits, crlf);
    Ok(join(source, crlf))
}

/// Where chunk `c` goes, sought from `from` (moved past it): its `@@` line first, then its old
/// lines; a chunk of only new lines goes at the end.
fn locate(path: &str, texts: &[String], c: &Chunk, from: &mut usize) -> Result<Edit, PatchError> {
    let not_found = |lines: &[String]| PatchError::NotFound {
        path: path.into(),
        lines: lines.join("\n"),
    };
    if let Some(ctx) = &c.context {
        if ctx.trim().is_empty() {
            return Err(unsure(path, "a hunk's `@@` line holds only whitespace"));
        }
        let at = seek(texts, std::slice::from_ref(ctx), *from, false)
            .ok_or_else(|| not_found(std::slice::from_ref(ctx)))?;
        *from = at + 1;
    }
    if c.old.is_empty() {
        return Ok((texts.len(), 0, chunk_lines(c, texts.len(), &c.new)));
    }
    let (mut old, mut new) = (&c.old[..], &c.new[..]);
    let mut found = seek(texts, old, *from, c.at_eof);
    if found.is_none() && old.last().is_some_and(String::is_empty) {
        old = &old[..old.len() - 1];
        if new.last().is_some_and(String::is_empty) {
            new = &new[..new.len() - 1];
        }
        found = seek(texts, old, *from, c.at_eof);
    }
    let at = found.ok_or_else(|| not_found(&c.old))?;
    let new = chunk_lines(c, at, new);
    // A context line past the old lines sought (the empty last one left out): Codex's
    // result there is not pinned down.
    if new
        .iter()
        .any(|l| matches!(l, Err(o) if *o >= at + old.len()))
    {
        return Err(unsure(
            path,
            "a hunk ends in an empty context line the file does not have",
        ));
    }
    *from = at + old.len();
    Ok((at, old.len(), new))
}

/// A chunk's new lines placed at `at`: a context line is the file's own line there.
fn chunk_lines(c: &Chunk, at: usize, new: &[String]) -> Vec<Result<String, usize>> {
    new.iter()
        .enumerate()
        .map(|(i, l)| match c.kept.get(i).copied().flatten() {
            Some(o) => Err(at + o),
            None => Ok(l.clone()),
        })
        .collect()
}

/// Refuses edits whose result Codex does not pin down, and sorts the rest by where they go.
fn check_edits(
    path: &str,
    len: usize,
    chunks: &[Chunk],
    edits: &mut [Edit],
) -> Result<(), PatchError> {
    // A hunk of only new lines beside one that reaches the end: Codex splits a hunk into
    // smaller edits around its context lines and puts the new lines between them.
    let end_reached = edits.iter().any(|(at, n, _)| *n > 0 && at + n == len);
    if end_reached && chunks.iter().any(|c| c.old.is_empty()) {
        return Err(unsure(
            path,
            "a hunk of only added lines goes at its end, where another hunk ends too",
        ));
    }
    edits.sort_by_key(|e| e.0);
    // Hunks that overlap (an end-of-file hunk found before where the last one ended): Codex's
    // own result then depends on details no test pins down.
    let mut end = 0;
    for (at, n, _) in edits.iter() {
        if *at < end {
            return Err(unsure(path, "two of its hunks change the same lines"));
        }
        end = at + n;
    }
    Ok(())
}

/// Applies sorted, disjoint edits: new lines end as the first line does, kept lines keep theirs.
fn splice(source: &mut Vec<Line>, edits: Vec<Edit>, crlf: bool) {
    let own: Vec<(String, Option<bool>)> =
        source.iter().map(|l| (l.text.clone(), l.crlf)).collect();
    for (at, len, new) in edits.into_iter().rev() {
        let new = new.into_iter().map(|l| match l {
            Ok(text) => Line {
                text,
                crlf: Some(crlf),
            },
            Err(o) => Line {
                text: own[o].0.clone(),
                crlf: own[o].1,
            },
        });
        source.splice(at..at + len, new);
    }
}

/// The lines as one text, an unterminated last line given the file's ending.
fn join(source: Vec<Line>, crlf: bool) -> String {
    let mut text = String::new();
    for line in source {
        text.push_str(&line.text);
        text.push_str(match line.crlf.unwrap_or(crlf) {
            true => "\r\n",
            false => "\n",
        });
    }
    text
}

/// A patch whose result Codex does not pin down.
fn unsure(path: &str, why: &str) -> PatchError {
    PatchError::Unsure {
        path: path.into(),
        why: why.into(),
    }
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
                // Codex writes the destination blindly, then removes the source: onto an
                // existing file that file's text is lost unseen (and onto itself, both go).
                if let Some(to) = move_to {
                    if read(to).map_err(PatchedError::Read)?.is_some() {
                        return Err(PatchedError::MovesOnto(path.clone(), to.clone()));
                    }
                }
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
    MovesOnto(String, String),
}

impl<E: fmt::Display> fmt::Display for PatchedError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PatchedError::Read(e) => write!(f, "{e}"),
            PatchedError::Patch(e) => write!(f, "{e}"),
            PatchedError::Missing(p) => write!(f, "the patch changes {p}, which does not exist"),
            PatchedError::Exists(p) => write!(
                f,
                "the patch adds {p}, which exists already (Codex would overwrite it unseen): \
                 update it instead"
            ),
            PatchedError::MovesOnto(p, to) => write!(
                f,
                "the patch moves {p} onto {to}, which exists already (its text would be lost \
                 unseen): delete or update {to} in a patch of its own first"
            ),
        }
    }
}

/// Where `want` starts in `lines` at or after `from` (an end-of-file hunk: only where it would
/// end the file), matched ever more loosely, as Codex's `seek_sequence`.
fn seek(lines: &[String], want: &[String], from: usize, at_eof: bool) -> Option<usize> {
    if want.is_empty() {
        return Some(from);
    }
    if want.len() > lines.len() {
        return None;
    }
    let last = lines.len() - want.len();
    let start = if at_eof { last } else { from };
    let rules: [fn(&str, &str) -> bool; 4] = [
        |a, b| a == b,
        |a, b| a.trim_end() == b.trim_end(),
        |a, b| a.trim() == b.trim(),
        |a, b| ascii_punctuation(a) == ascii_punctuation(b),
    ];
    for same in rules {
        let fits = |at: usize| {
            lines[at..at + want.len()]
                .iter()
                .zip(want)
                .all(|(a, b)| same(a, b))
        };
        if let Some(at) = (start..=last).find(|&at| fits(at)) {
            return Some(at);
        }
    }
    None
}

/// `s` trimmed, its typographic dashes, quotes and spaces read as ASCII (Codex's last resort).
fn ascii_punctuation(s: &str) -> String {
    s.trim()
        .chars()
        .map(|c| match c {
            '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2014}' | '\u{2015}'
            | '\u{2212}' => '-',
            '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' => '\'',
            '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' => '"',
            '\u{00A0}' | '\u{2002}' | '\u{2003}' | '\u{2004}' | '\u{2005}' | '\u{2006}'
            | '\u{2007}' | '\u{2008}' | '\u{2009}' | '\u{200A}' | '\u{202F}' | '\u{205F}'
            | '\u{3000}' => ' ',
            other => other,
        })
        .collect()
}
