//! What an edit leaves each file as, whatever the shape its CLI sent it in; an edit the CLI
//! would fail is an error here too, never a guess.

use super::patched::{self, Patched, PatchedError};
use super::ruling::FileChange;

/// Every file of `changes` as the edit leaves it, each read with `read` (`Ok(None)`: missing).
pub fn plan<E: std::fmt::Display>(
    changes: &[FileChange],
    read: impl Fn(&str) -> Result<Option<String>, E>,
) -> Result<Vec<Patched>, String> {
    changes.iter().map(|change| one(change, &read)).collect()
}

/// One file as `change` leaves it.
fn one<E: std::fmt::Display>(
    change: &FileChange,
    read: impl Fn(&str) -> Result<Option<String>, E>,
) -> Result<Patched, String> {
    Ok(match change {
        FileChange::Patch(c) => {
            let mut one =
                patched::outcomes(std::slice::from_ref(c), &read).map_err(|e| match e {
                    PatchedError::Read(e) => e.to_string(),
                    e => e.to_string(),
                })?;
            one.remove(0)
        }
        FileChange::Write { path, text } => Patched {
            path: path.clone(),
            to: Some(path.clone()),
            before: read(path).map_err(|e| e.to_string())?,
            after: Some(text.clone()),
        },
        FileChange::Create { path, text } => created(path, text, read)?,
        FileChange::Replace {
            path,
            old,
            new,
            all,
        } => {
            let before = existing(path, &read)?;
            let after = replaced(path, &before, old, new, *all)?;
            edited(path, before, after)
        }
        FileChange::Insert { path, after, text } => {
            let before = existing(path, &read)?;
            let after = inserted(&before, *after, text);
            edited(path, before, after)
        }
        FileChange::Append { path, text } => {
            let before = existing(path, &read)?;
            edited(path, before.clone(), appended(before, text))
        }
    })
}

/// A new file, refused if there is one already.
fn created<E: std::fmt::Display>(
    path: &str,
    text: &str,
    read: impl Fn(&str) -> Result<Option<String>, E>,
) -> Result<Patched, String> {
    match read(path).map_err(|e| e.to_string())? {
        Some(_) => Err(format!(
            "the edit creates {path}, which already exists: edit it instead"
        )),
        None => Ok(Patched {
            path: path.to_owned(),
            to: Some(path.to_owned()),
            before: None,
            after: Some(text.to_owned()),
        }),
    }
}

/// A file that stays where it is, its text `before` and `after` the edit.
fn edited(path: &str, before: String, after: String) -> Patched {
    Patched {
        path: path.to_owned(),
        to: Some(path.to_owned()),
        after: Some(after),
        before: Some(before),
    }
}

/// `before` with `text` at its end, on a line of its own.
fn appended(mut after: String, text: &str) -> String {
    // As Kiro does: an empty file gets its newline too.
    if !after.ends_with('\n') {
        after.push('\n');
    }
    after.push_str(text);
    after
}

/// The file's text; a file that is not there is the edit's error.
fn existing<E: std::fmt::Display>(
    path: &str,
    read: impl Fn(&str) -> Result<Option<String>, E>,
) -> Result<String, String> {
    read(path)
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("the edit changes {path}, which does not exist"))
}

/// `before` with `text` after its line `after`, as Kiro's `fs_write insert` does it: the line
/// number held to the lines there are, `text` put in as given.
fn inserted(before: &str, after: usize, text: &str) -> String {
    let at: usize = before.split_inclusive('\n').take(after).map(str::len).sum();
    let mut out = String::with_capacity(before.len() + text.len());
    out.push_str(&before[..at]);
    out.push_str(text);
    out.push_str(&before[at..]);
    out
}

/// `before` with `old` replaced by `new`, as the CLIs' edit tools do it.
fn replaced(path: &str, before: &str, old: &str, new: &str, all: bool) -> Result<String, String> {
    if old.is_empty() {
        return Err(format!("the edit of {path} replaces an empty text"));
    }
    // The CLIs read a CRLF file with its CRLF as LF and write CRLF back: a bare LF in the new
    // text would be shown here as it is and written otherwise.
    let bare_lf = new
        .match_indices('\n')
        .any(|(i, _)| !new[..i].ends_with('\r'));
    if before.contains("\r\n") && bare_lf {
        return Err(format!(
            "Redline could not be sure what this edit writes: {path} has CRLF line endings and \
             the new text has a bare LF, which the tool may write as CRLF. Give the new text \
             the file's line endings, or write the whole file"
        ));
    }
    match before.matches(old).count() {
        0 => Err(format!(
            "the edit does not apply to {path} as it is on disk: the text it replaces is not in it"
        )),
        1 => Ok(before.replacen(old, new, 1)),
        _ if all => Ok(before.replace(old, new)),
        n => Err(format!(
            "the edit of {path} replaces a text found {n} times there: it must be unique"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn disk(p: &str) -> Result<Option<String>, String> {
        Ok((p == "a.txt").then(|| "x = 1\ny = 1\n".to_owned()))
    }

    fn replace(old: &str, all: bool) -> FileChange {
        FileChange::Replace {
            path: "a.txt".into(),
            old: old.into(),
            new: "2".into(),
            all,
        }
    }

    #[test]
    fn a_replace_must_find_its_text_once_unless_all_and_a_write_reads_what_it_replaces() {
        let out = plan(&[replace("x = 1", false)], disk).unwrap();
        assert_eq!(out[0].after.as_deref(), Some("2\ny = 1\n"));
        let out = plan(&[replace("1", true)], disk).unwrap();
        assert_eq!(out[0].after.as_deref(), Some("x = 2\ny = 2\n"));
        assert!(plan(&[replace("1", false)], disk)
            .unwrap_err()
            .contains("2 times"));
        assert!(plan(&[replace("zzz", false)], disk)
            .unwrap_err()
            .contains("not in it"));
        let write = FileChange::Write {
            path: "a.txt".into(),
            text: "new\n".into(),
        };
        let out = plan(&[write], disk).unwrap();
        assert_eq!(out[0].before.as_deref(), Some("x = 1\ny = 1\n"));
        let missing = FileChange::Replace {
            path: "b.txt".into(),
            old: "x".into(),
            new: "y".into(),
            all: false,
        };
        assert!(plan(&[missing], disk)
            .unwrap_err()
            .contains("does not exist"));
    }

    #[test]
    fn a_bare_lf_in_the_new_text_of_a_crlf_file_is_refused_as_not_sure() {
        let crlf = |p: &str| Ok::<_, String>((p == "a.txt").then(|| "x\r\ny\r\n".to_owned()));
        let replace = |new: &str| FileChange::Replace {
            path: "a.txt".into(),
            old: "x".into(),
            new: new.into(),
            all: false,
        };
        assert!(plan(&[replace("x\nz")], crlf)
            .unwrap_err()
            .starts_with("Redline could not be sure what this edit writes"));
        let out = plan(&[replace("x\r\nz")], crlf).unwrap();
        assert_eq!(out[0].after.as_deref(), Some("x\r\nz\r\ny\r\n"));
    }

    #[test]
    fn an_insert_goes_after_its_line_held_to_the_file_and_an_append_starts_a_line() {
        let insert = |after: usize| FileChange::Insert {
            path: "a.txt".into(),
            after,
            text: "z\n".into(),
        };
        let after = |c: FileChange| plan(&[c], disk).unwrap().remove(0).after.unwrap();
        assert_eq!(after(insert(0)), "z\nx = 1\ny = 1\n");
        assert_eq!(after(insert(1)), "x = 1\nz\ny = 1\n");
        assert_eq!(after(insert(9)), "x = 1\ny = 1\nz\n");
        let append = FileChange::Append {
            path: "a.txt".into(),
            text: "end".into(),
        };
        assert_eq!(after(append), "x = 1\ny = 1\nend");
        let no_newline = |p: &str| Ok::<_, String>((p == "b").then(|| "last".to_owned()));
        let append = FileChange::Append {
            path: "b".into(),
            text: "more".into(),
        };
        let out = plan(&[append], no_newline).unwrap();
        assert_eq!(out[0].after.as_deref(), Some("last\nmore"));
        let missing = FileChange::Append {
            path: "none".into(),
            text: "x".into(),
        };
        assert!(plan(&[missing], disk)
            .unwrap_err()
            .contains("does not exist"));
    }

    #[test]
    fn a_create_makes_a_new_file_and_is_refused_on_one_that_is_there() {
        let create = |path: &str| FileChange::Create {
            path: path.into(),
            text: "new\n".into(),
        };
        let out = plan(&[create("b.txt")], disk).unwrap();
        assert_eq!(
            (out[0].before.as_deref(), out[0].after.as_deref()),
            (None, Some("new\n"))
        );
        assert!(plan(&[create("a.txt")], disk)
            .unwrap_err()
            .contains("a.txt, which already exists"));
    }
}
