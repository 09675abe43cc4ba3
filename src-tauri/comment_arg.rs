//! `--comment PATH:LINE:TEXT` of `redline review reject|continue`: read by clap (it has a line),
//! then made a comment on a line of the review's workspace (the path inside it, the line quoted
//! from the file as it is now).

use redline_core::review::comment::Comment;
use redline_core::{Error, Result};
use std::path::{Component, Path, PathBuf};

/// One `--comment` as typed, with every place it could be split at a `:LINE:`: a file name may
/// hold a colon (even `:12:`), so which one holds is known only once the workspace is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CommentArg {
    raw: String,
    /// `(end of PATH, LINE, start of TEXT)`, left to right.
    splits: Vec<(usize, u32, usize)>,
}

/// clap's parser of `--comment`: a `:LINE:` somewhere, LINE counting from 1.
pub(crate) fn parse(raw: &str) -> std::result::Result<CommentArg, String> {
    let splits = splits(raw);
    if splits.is_empty() {
        return Err(
            "give PATH:LINE:TEXT (LINE a number, from 1), e.g. src/a.rs:12:rename it".into(),
        );
    }
    if splits.iter().all(|&(_, line, _)| line == 0) {
        return Err("lines count from 1".into());
    }
    Ok(CommentArg {
        raw: raw.to_owned(),
        splits: splits.into_iter().filter(|&(_, l, _)| l > 0).collect(),
    })
}

/// Each `:DIGITS:` in `raw` with a path before it.
fn splits(raw: &str) -> Vec<(usize, u32, usize)> {
    let bytes = raw.as_bytes();
    let mut found = Vec::new();
    for (at, _) in raw.match_indices(':').filter(|&(at, _)| at > 0) {
        let digits = bytes[at + 1..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let end = at + 1 + digits;
        if digits == 0 || bytes.get(end) != Some(&b':') {
            continue;
        }
        if let Ok(line) = raw[at + 1..end].parse::<u32>() {
            found.push((at, line, end + 1));
        }
    }
    found
}

impl CommentArg {
    /// The comment on a file of the workspace at `root`: PATH relative to it or absolute inside
    /// it, split at the first `:LINE:` whose PATH names a file there, else at the first. The
    /// line is quoted from the file as it is now; a line past its end is an error.
    pub(crate) fn resolve(&self, root: &Path) -> Result<Comment> {
        let is_file = |&&(end, _, _): &&(usize, u32, usize)| {
            inside(root, &self.raw[..end]).is_some_and(|(_, full)| full.is_file())
        };
        let first = self.splits.first().ok_or_else(|| self.usage("no line"))?;
        let &(end, line, text) = self.splits.iter().find(is_file).unwrap_or(first);
        let typed = &self.raw[..end];
        let (path, full) = inside(root, typed).ok_or_else(|| {
            Error::Usage(format!(
                "{typed:?} is outside the workspace {}; comment on its files only",
                root.display()
            ))
        })?;
        // A link inside that leads out: its line is not read, let alone sent to a model.
        let real = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_owned());
        if full.exists() && !real(&full).starts_with(real(root)) {
            return Err(Error::Usage(format!(
                "{typed:?} leads outside the workspace {}; comment on its files only",
                root.display()
            )));
        }
        Ok(Comment {
            path,
            line,
            quote: quoted(&full, typed, line)?,
            text: self.raw[text..].to_owned(),
        })
    }

    fn usage(&self, why: &str) -> Error {
        Error::Usage(format!("--comment {:?}: {why}", self.raw))
    }
}

/// `typed` inside `root`: its path relative to `root` (`/`-separated) and on disk. `None` when it
/// leads out of it (an absolute path elsewhere, a `..` past the root).
fn inside(root: &Path, typed: &str) -> Option<(String, PathBuf)> {
    let given = Path::new(typed);
    let rest = if given.is_absolute() {
        given.strip_prefix(root).ok()?
    } else {
        given
    };
    let mut parts: Vec<&str> = Vec::new();
    for c in rest.components() {
        match c {
            Component::Normal(p) => parts.push(p.to_str()?),
            Component::CurDir => {}
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    if parts.is_empty() {
        return None;
    }
    let full = parts
        .iter()
        .fold(root.to_path_buf(), |p, part| p.join(part));
    Some((parts.join("/"), full))
}

/// The most of a file read for a quote: a line past it is said to be past the end, so a huge
/// file costs at most this much (the checkpoint store's bound for a file it reads).
const QUOTE_READ_LIMIT: u64 = 32 * 1024 * 1024;

/// Line `line` (1-based) of the file at `full`, without its line ending. Only a regular file is
/// read (a FIFO would hold the command forever, a device never end), and at most
/// `QUOTE_READ_LIMIT` of it.
fn quoted(full: &Path, typed: &str, line: u32) -> Result<String> {
    use std::io::BufRead;
    let io = |source| Error::Io {
        path: full.to_owned(),
        source,
    };
    if !std::fs::metadata(full).map_err(io)?.is_file() {
        return Err(Error::Usage(format!(
            "{typed} is not a regular file: Redline quotes no line of it"
        )));
    }
    let file = std::fs::File::open(full).map_err(io)?;
    let mut lines = 0;
    for read in std::io::BufReader::new(std::io::Read::take(file, QUOTE_READ_LIMIT)).split(b'\n') {
        let bytes = read.map_err(io)?;
        lines += 1;
        if lines == line {
            let text = String::from_utf8_lossy(&bytes);
            return Ok(text.strip_suffix('\r').unwrap_or(&text).to_owned());
        }
    }
    Err(Error::Usage(format!(
        "{typed} has {lines} lines: line {line} is past its end"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ws() -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir(d.path().join("src")).unwrap();
        std::fs::write(d.path().join("src/a.rs"), "one\r\ntwo\n").unwrap();
        std::fs::write(d.path().join("a:2:b"), "x\ny\n").unwrap();
        d
    }

    #[test]
    fn the_text_keeps_its_colons_and_a_bad_line_is_refused_by_clap() {
        let d = ws();
        let c = parse("src/a.rs:2:see: here")
            .unwrap()
            .resolve(d.path())
            .unwrap();
        assert_eq!(
            (c.path.as_str(), c.line, c.quote.as_str(), c.text.as_str()),
            ("src/a.rs", 2, "two", "see: here")
        );
        assert!(parse("src/a.rs:x:t").is_err());
        assert!(parse("src/a.rs:0:t").unwrap_err().contains("from 1"));
        assert!(parse(":3:t").is_err());
    }

    #[test]
    fn a_name_with_a_colon_is_split_where_it_names_a_file() {
        let d = ws();
        let c = parse("a:2:b:1:the x").unwrap().resolve(d.path()).unwrap();
        assert_eq!(
            (c.path.as_str(), c.line, c.quote.as_str()),
            ("a:2:b", 1, "x")
        );
        assert_eq!(c.text, "the x");
        // No file by either name: the first split, and the missing file named.
        let e = parse("no:2:pe:1:t").unwrap().resolve(d.path()).unwrap_err();
        assert!(e.to_string().contains("no"), "{e}");
    }

    #[test]
    fn a_path_is_relative_to_the_root_or_absolute_inside_it_and_a_line_past_the_end_refused() {
        let d = ws();
        let abs = format!("{}/src/a.rs:1:t", d.path().display());
        let c = parse(&abs).unwrap().resolve(d.path()).unwrap();
        assert_eq!((c.path.as_str(), c.quote.as_str()), ("src/a.rs", "one"));
        let e = parse("/etc/passwd:1:t")
            .unwrap()
            .resolve(d.path())
            .unwrap_err();
        assert!(e.to_string().contains("\"/etc/passwd\" is outside"), "{e}");
        let e = parse("../x:1:t").unwrap().resolve(d.path()).unwrap_err();
        assert!(e.to_string().contains("outside"), "{e}");
        let e = parse("src/a.rs:3:t")
            .unwrap()
            .resolve(d.path())
            .unwrap_err();
        assert!(e.to_string().contains("has 2 lines: line 3"), "{e}");
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/etc/passwd", d.path().join("out")).unwrap();
            let e = parse("out:1:t").unwrap().resolve(d.path()).unwrap_err();
            assert!(e.to_string().contains("\"out\" leads outside"), "{e}");
        }
    }

    /// A FIFO held the command forever (its line was read with fs::read): now refused at once.
    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_not_read() {
        let d = ws();
        let made = std::process::Command::new("mkfifo")
            .arg(d.path().join("pipe"))
            .status()
            .unwrap();
        assert!(made.success());
        let root = d.path().to_owned();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(parse("pipe:1:t").unwrap().resolve(&root).map(|_| ()));
        });
        let done = rx.recv_timeout(std::time::Duration::from_secs(20));
        let e = done
            .expect("resolving a comment on a FIFO hung")
            .unwrap_err();
        assert!(e.to_string().contains("pipe is not a regular file"), "{e}");
    }
}
