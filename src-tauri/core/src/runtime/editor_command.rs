//! The one-shot editor commands (`redline mention`, `redline context`) for editors without a
//! plugin system: their arguments turned into the editor channel's messages.

use crate::error::{Error, Result};
use crate::review::editor::{Message, OpenFile, Position, Range, MAX_SELECTION_CHARS};
use crate::review::selection::Selection;
use std::path::{Path, PathBuf};

fn bad(what: &str, text: &str) -> Error {
    Error::EditorMessage(format!("{what}: {text:?}"))
}

fn number(text: &str, what: &str) -> Result<u32> {
    match text.trim().parse::<u32>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(bad(&format!("{what} must be a number from 1"), text)),
    }
}

fn absolute(path: &Path, cwd: &Path) -> PathBuf {
    if path.is_absolute() {
        path.to_owned()
    } else {
        cwd.join(path)
    }
}

/// `FILE:L1-L2` or `FILE:L` (1-based, inclusive) as a mention.
pub fn mention(target: &str, cwd: &Path) -> Result<Message> {
    let (file, lines) = target
        .rsplit_once(':')
        .ok_or_else(|| bad("expected FILE:L1-L2", target))?;
    let (a, b) = match lines.split_once('-') {
        Some((a, b)) => (number(a, "a line")?, number(b, "a line")?),
        None => {
            let l = number(lines, "a line")?;
            (l, l)
        }
    };
    if file.is_empty() {
        return Err(bad("expected FILE:L1-L2", target));
    }
    Ok(Message::Mention {
        path: absolute(Path::new(file), cwd),
        start: a.min(b),
        end: a.max(b),
        id: None,
    })
}

/// `L1:C1-L2:C2` (1-based; the end column just past the last selected character).
fn range(text: &str) -> Result<(Position, Position)> {
    let pos = |p: &str| -> Result<Position> {
        let (l, c) = p.split_once(':').ok_or_else(|| bad("expected L:C", p))?;
        Ok(Position {
            line: number(l, "a line")?,
            col: number(c, "a column")?,
        })
    };
    let (a, b) = text
        .split_once('-')
        .ok_or_else(|| bad("expected L1:C1-L2:C2", text))?;
    Ok((pos(a)?, pos(b)?))
}

/// `redline context --file F --line L [--col C] [--selection L1:C1-L2:C2]`: F active, the cursor
/// there, and the selected text read from F as it is on disk.
pub fn context(
    file: &Path,
    line: u32,
    col: Option<u32>,
    selection: Option<&str>,
    cwd: &Path,
) -> Result<Message> {
    let path = absolute(file, cwd);
    let cursor = Position {
        line: number(&line.to_string(), "--line")?,
        col: number(&col.unwrap_or(1).to_string(), "--col")?,
    };
    let selection = match selection {
        None => None,
        Some(text) => {
            let (start, end) = range(text)?;
            let content = std::fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
            let text = Selection {
                start_line: start.line - 1,
                start_character: start.col - 1,
                end_line: end.line - 1,
                end_character: end.col - 1,
            }
            .ordered()
            .text(&content);
            // The CLIs get no more: the request line stays small whatever was selected.
            let text = text.chars().take(MAX_SELECTION_CHARS).collect();
            Some(Range { start, end, text })
        }
    };
    Ok(Message::Context {
        files: vec![OpenFile {
            path,
            active: true,
            cursor: Some(cursor),
            selection,
        }],
        id: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mention_and_context_arguments() {
        let cwd = std::env::temp_dir();
        let cwd = cwd.as_path();
        assert_eq!(
            mention("src/a.rs:9-3", cwd).unwrap(),
            Message::Mention {
                path: cwd.join("src/a.rs"),
                start: 3,
                end: 9,
                id: None
            }
        );
        let elsewhere = cwd.join("x").join("a.rs");
        assert!(matches!(
            mention(&format!("{}:4", elsewhere.display()), cwd).unwrap(),
            Message::Mention { path, start: 4, end: 4, .. } if path == elsewhere
        ));
        for bad in ["a.rs", "a.rs:0-2", "a.rs:x", ":3"] {
            assert!(mention(bad, cwd).is_err(), "{bad}");
        }
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("f"), "one\ntwo\nthree\n").unwrap();
        let Message::Context { files, .. } =
            context(Path::new("f"), 2, Some(2), Some("1:2-2:3"), tmp.path()).unwrap()
        else {
            panic!("not a context")
        };
        assert_eq!(files[0].cursor, Some(Position { line: 2, col: 2 }));
        assert_eq!(files[0].selection.as_ref().unwrap().text, "ne\ntw");
        assert!(context(Path::new("f"), 1, None, Some("1-2"), tmp.path()).is_err());
    }
}
