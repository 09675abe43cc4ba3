//! The one command that lets a file outside every enabled workspace in: what `redline propose`
//! and `redline diff --edit` say after "no enabled workspace contains …", offering only a command
//! that `redline workspace` would carry out from there.

use super::config::{too_broad, WorkspaceEntry};
use crate::platform::shell_word::quote;
use std::path::{Path, PathBuf};

/// What makes `file` reviewable, as a sentence ending in the command to run: turn on the
/// workspace that holds it, else add the folder it is in (with `--force`, and why, where a plain
/// `add` would be refused: `/`, the home folder, a folder around other workspaces).
pub fn way_in(file: &Path, home: &Path, workspaces: &[WorkspaceEntry]) -> String {
    let file = dunce::canonicalize(file).unwrap_or_else(|_| file.to_owned());
    let holder = workspaces
        .iter()
        .filter(|w| file.starts_with(&w.path))
        .max_by_key(|w| w.path.as_os_str().len());
    if let Some(w) = holder {
        let ws = quote(&w.path);
        return match w.enabled {
            false => format!(
                "it is in the workspace {ws}, which is off: turn it on with \
                 `redline workspace enable {ws}`"
            ),
            // On, yet not served: its folder is gone, or the instance has not caught up.
            true => format!(
                "it is in the workspace {ws}, which is not served now: see `redline status`"
            ),
        };
    }
    let Some(dir) = folder_of(&file) else {
        return "give a file in a folder that exists, then `redline workspace add` that folder"
            .into();
    };
    let shown = quote(&dir);
    match too_broad(&dir, home, workspaces) {
        None => format!("serve its folder with `redline workspace add {shown}`"),
        Some(why) => format!(
            "its folder {shown} is {why}; add the project folder the file belongs in, or serve \
             this one anyway with `redline workspace add --force {shown}`"
        ),
    }
}

/// The nearest folder that exists holding `file` (a new file's folder may not exist yet).
fn folder_of(file: &Path) -> Option<PathBuf> {
    let mut dir = file.parent()?;
    while !dir.is_dir() {
        dir = dir.parent()?;
    }
    Some(dunce::canonicalize(dir).unwrap_or_else(|_| dir.to_owned()))
}

// Unix paths (`/home/ana`): the Windows run under Wine reads them as relative.
#[cfg(all(test, unix))]
mod tests {
    use super::way_in;
    use crate::workspace::config::WorkspaceEntry;
    use std::path::{Path, PathBuf};

    fn entry(path: &Path, enabled: bool) -> WorkspaceEntry {
        WorkspaceEntry {
            path: path.to_owned(),
            enabled,
            trusted: None,
            containers: None,
        }
    }

    fn tree() -> (tempfile::TempDir, PathBuf) {
        let tmp = tempfile::tempdir().expect("temp dir");
        let root = dunce::canonicalize(tmp.path()).expect("canonical");
        for d in ["home/src/proj", "home/notes", "home/off"] {
            std::fs::create_dir_all(root.join(d)).expect("mkdir");
        }
        (tmp, root)
    }

    #[test]
    fn a_file_in_a_workspace_that_is_off_is_told_to_enable_it() {
        let (_tmp, root) = tree();
        let off = root.join("home/off");
        let said = way_in(&off.join("a.rs"), &root.join("home"), &[entry(&off, false)]);
        assert!(
            said.ends_with(&format!("`redline workspace enable {}`", off.display())),
            "{said}"
        );
    }

    #[test]
    fn a_file_outside_every_workspace_is_told_to_add_its_folder() {
        let (_tmp, root) = tree();
        let notes = root.join("home/notes");
        // A new file in a folder not made yet: the nearest folder that exists.
        let said = way_in(&notes.join("new/a.md"), &root.join("home"), &[]);
        assert!(
            said.ends_with(&format!("`redline workspace add {}`", notes.display())),
            "{said}"
        );
    }

    #[test]
    fn the_home_folder_and_a_folder_around_workspaces_are_offered_only_with_force() {
        let (_tmp, root) = tree();
        let home = root.join("home");
        let said = way_in(&home.join("todo.txt"), &home, &[]);
        assert!(said.contains("your home folder"), "{said}");
        assert!(
            said.ends_with(&format!(
                "`redline workspace add --force {}`",
                home.display()
            )),
            "{said}"
        );
        let src = home.join("src");
        let said = way_in(&src.join("x.rs"), &home, &[entry(&src.join("proj"), true)]);
        assert!(said.contains("around other workspaces"), "{said}");
        assert!(
            said.contains(&format!("add --force {}", src.display())),
            "{said}"
        );
    }
}
