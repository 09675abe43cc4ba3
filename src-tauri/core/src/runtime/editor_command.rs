//! The one-shot editor commands (`redline mention`, `redline context`) for editors without a
//! plugin system: their arguments turned into the editor channel's messages.

use crate::error::{Error, Result};
use crate::review::editor::{Message, OpenFile, Position, Range, MAX_RANGES, MAX_SELECTION_CHARS};
use crate::review::selection::Selection;
use crate::review::ReviewError;
use std::path::{Path, PathBuf};

/// What `redline mention` takes, in the words of its help.
const MENTION_FORM: &str = "give FILE:LINE or FILE:FIRST-LAST, e.g. src/main.rs:12-20";

fn bad(what: &str, text: &str) -> Error {
    // These are command-line arguments: the user reads this, not an editor plugin.
    Error::Usage(format!("{what}: {text:?}"))
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

/// `FILE:L1-L2` or `FILE:L` (1-based, inclusive) as a mention, of lines the file has.
pub fn mention(target: &str, cwd: &Path) -> Result<Message> {
    let Some((file, lines)) = target.rsplit_once(':').filter(|(f, _)| !f.is_empty()) else {
        return Err(bad(MENTION_FORM, target));
    };
    let (a, b) = match lines.split_once('-') {
        Some((a, b)) => (number(a, "a line")?, number(b, "a line")?),
        None => {
            let l = number(lines, "a line")?;
            (l, l)
        }
    };
    let path = absolute(Path::new(file), cwd);
    let (start, end) = (a.min(b), a.max(b));
    let count = line_count(&path, file)?;
    if end > count {
        let lines = if count == 1 { "line" } else { "lines" };
        let asked = match start == end {
            true => format!("line {end} is"),
            false => format!("{start}-{end} goes"),
        };
        return Err(Error::Usage(format!(
            "{file} has {count} {lines}: {asked} past its end"
        )));
    }
    Ok(Message::Mention {
        path,
        start,
        end,
        id: None,
    })
}

/// How many lines `path` has (a last line without a newline counts), read a block at a time;
/// `shown` is how the user named it.
fn line_count(path: &Path, shown: &str) -> Result<u32> {
    use std::io::Read;
    let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => {
            Error::Usage(format!("{shown}: no such file ({MENTION_FORM})"))
        }
        _ => Error::io(path, e),
    })?;
    if meta.is_dir() {
        return Err(ReviewError::IsDirectory(shown.to_owned()).into());
    }
    if !meta.is_file() {
        return Err(ReviewError::NotRegularFile(shown.to_owned()).into());
    }
    let mut file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let mut buf = vec![0u8; 64 * 1024];
    let (mut lines, mut last) = (0u32, b'\n');
    loop {
        let n = file.read(&mut buf).map_err(|e| Error::io(path, e))?;
        if n == 0 {
            break;
        }
        let newlines = buf[..n].iter().filter(|&&c| c == b'\n').count();
        lines = lines.saturating_add(u32::try_from(newlines).unwrap_or(u32::MAX));
        last = buf[n - 1];
    }
    Ok(if last == b'\n' { lines } else { lines + 1 })
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

/// `redline context --file F --line L [--col C] [--selection L1:C1-L2:C2]...`: F active, the
/// cursor there, and each selection's text read from F as it is on disk; several selections are
/// the file's ranges, the first its selection.
pub fn context(
    file: &Path,
    line: u32,
    col: Option<u32>,
    selections: &[String],
    cwd: &Path,
) -> Result<Message> {
    let path = absolute(file, cwd);
    let cursor = Position {
        line: number(&line.to_string(), "--line")?,
        col: number(&col.unwrap_or(1).to_string(), "--col")?,
    };
    let mut ranges = Vec::new();
    if let Some(first) = selections.first() {
        range(first)?;
        let content = std::fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
        // Redline keeps no more: the request line stays small whatever was selected.
        for text in selections.iter().take(MAX_RANGES) {
            let (start, end) = range(text)?;
            let text = Selection {
                start_line: start.line - 1,
                start_character: start.col - 1,
                end_line: end.line - 1,
                end_character: end.col - 1,
            }
            .ordered()
            .text(&content);
            let text = text.chars().take(MAX_SELECTION_CHARS).collect();
            ranges.push(Range { start, end, text });
        }
    }
    let selection = ranges.first().cloned();
    if ranges.len() < 2 {
        ranges.clear();
    }
    Ok(Message::Context {
        files: vec![OpenFile {
            path,
            active: true,
            cursor: Some(cursor),
            selection,
            ranges,
        }],
        id: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mention_and_context_arguments() {
        let tmp = tempfile::tempdir().unwrap();
        let cwd = tmp.path();
        std::fs::create_dir_all(cwd.join("src")).unwrap();
        std::fs::write(cwd.join("src/a.rs"), "1\n".repeat(9)).unwrap();
        std::fs::write(cwd.join("f"), "one\ntwo\nthree\n").unwrap();
        std::fs::write(cwd.join("g"), "one\ntwo").unwrap();
        assert_eq!(
            mention("src/a.rs:9-3", cwd).unwrap(),
            Message::Mention {
                path: cwd.join("src/a.rs"),
                start: 3,
                end: 9,
                id: None
            }
        );
        let elsewhere = cwd.join("f");
        assert!(matches!(
            mention(&format!("{}:3", elsewhere.display()), cwd).unwrap(),
            Message::Mention { path, start: 3, end: 3, .. } if path == elsewhere
        ));
        // A last line without a newline is a line.
        assert!(mention("g:2", cwd).is_ok());
        let said = |target: &str| mention(target, cwd).unwrap_err().to_string();
        for bad in ["a.rs:0-2", "f:x", ":3"] {
            assert!(mention(bad, cwd).is_err(), "{bad}");
        }
        assert!(
            said("f").contains("give FILE:LINE or FILE:FIRST-LAST"),
            "{}",
            said("f")
        );
        assert!(!said("f").contains("editor message"), "{}", said("f"));
        assert!(said("nofile.rs:1").contains("nofile.rs: no such file"));
        assert_eq!(said("f:1-999"), "f has 3 lines: 1-999 goes past its end");
        assert_eq!(said("g:3"), "g has 2 lines: line 3 is past its end");
        assert!(said(".:1").contains("is a directory"), "{}", said(".:1"));
        // `f:1-2:3` is the file `f:1-2`, which is not there.
        assert!(
            said("f:1-2:3").contains("no such file"),
            "{}",
            said("f:1-2:3")
        );
        let Message::Context { files, .. } =
            context(Path::new("f"), 2, Some(2), &["1:2-2:3".into()], tmp.path()).unwrap()
        else {
            panic!("not a context")
        };
        assert_eq!(files[0].cursor, Some(Position { line: 2, col: 2 }));
        assert_eq!(files[0].selection.as_ref().unwrap().text, "ne\ntw");
        assert!(files[0].ranges.is_empty(), "one selection is no ranges");
        assert!(context(Path::new("f"), 1, None, &["1-2".into()], tmp.path()).is_err());
        // Several: each one a range with its text, the first the selection too.
        let several = ["1:1-1:3".to_string(), "3:2-3:4".to_string()];
        let Message::Context { files, .. } =
            context(Path::new("f"), 1, None, &several, tmp.path()).unwrap()
        else {
            panic!("not a context")
        };
        let texts: Vec<&str> = files[0].ranges.iter().map(|r| r.text.as_str()).collect();
        assert_eq!(texts, ["on", "hr"]);
        assert_eq!(files[0].selection.as_ref().unwrap().text, "on");
        let bad = ["1:1-1:3".to_string(), "x".to_string()];
        assert!(context(Path::new("f"), 1, None, &bad, tmp.path()).is_err());
    }
}
