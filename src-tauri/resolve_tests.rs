//! The command line resolved against an injected current directory: every path absolute, the
//! `--json` flag a format.

use super::{resolve, Action, ContainerAction, EditorAction, ReviewAction, WorkspaceAction};
use crate::args::Cli;
use crate::format::Format;
use crate::here::Here;
use clap::Parser;
use redline_core::Error;
use std::path::{Path, PathBuf};

/// `words` after `redline`, resolved in `dir`.
fn resolved(dir: &Path, words: &[&str]) -> redline_core::Result<Action> {
    let cli = Cli::try_parse_from(std::iter::once("redline").chain(words.iter().copied()))
        .unwrap_or_else(|e| panic!("{words:?}: {e}"));
    let dir = dir.to_owned();
    let here = Here::at(move || Ok(dir.clone()));
    resolve(cli.command.unwrap(), &here)
}

fn cwd() -> PathBuf {
    std::path::absolute("/work/here").unwrap()
}

#[test]
fn path_arguments_are_absolute_against_the_current_directory() {
    let dir = cwd();
    let Ok(Action::Workspace(WorkspaceAction::Remove { path })) =
        resolved(&dir, &["workspace", "remove", "ws"])
    else {
        panic!("not a workspace removal");
    };
    assert_eq!(path, dir.join("ws"));
    let Ok(Action::Workspace(WorkspaceAction::Enable { path, enabled })) =
        resolved(&dir, &["workspace", "disable", "./ws"])
    else {
        panic!("not a workspace switch");
    };
    assert_eq!((path, enabled), (dir.join("ws"), false));
    let Ok(Action::Container(ContainerAction::Enable { path, .. })) =
        resolved(&dir, &["container", "enable", "ws"])
    else {
        panic!("not containers on");
    };
    assert_eq!(path, dir.join("ws"));
}

#[test]
fn an_optional_path_defaults_to_the_current_directory() {
    let dir = cwd();
    let Ok(Action::Doctor { dir: d, format }) = resolved(&dir, &["doctor"]) else {
        panic!("not doctor");
    };
    assert_eq!((d, format), (dir.clone(), Format::Text));
    let Ok(Action::TokenRotate { path }) = resolved(&dir, &["token", "rotate", "sub"]) else {
        panic!("not a token rotation");
    };
    assert_eq!(path, dir.join("sub"));
    let Ok(Action::Env { path, .. }) = resolved(&dir, &["env"]) else {
        panic!("not env");
    };
    assert_eq!(path, dir);
}

#[test]
fn json_is_one_flag_read_the_same_by_every_command() {
    let dir = cwd();
    let format = |words: &[&str]| match resolved(&dir, words) {
        Ok(Action::Status { format })
        | Ok(Action::Doctor { format, .. })
        | Ok(Action::Workspace(WorkspaceAction::List { format }))
        | Ok(Action::Review(ReviewAction::List { format }))
        | Ok(Action::Container(ContainerAction::Args { format, .. })) => format,
        Ok(Action::Propose(a)) => a.format,
        _ => panic!("{words:?}: no format"),
    };
    for words in [
        &["status"][..],
        &["doctor"],
        &["workspace", "list"],
        &["review", "list"],
        &["container", "args"],
        &["propose", "f", "-"],
    ] {
        assert_eq!(format(words), Format::Text, "{words:?}");
        let json: Vec<&str> = words.iter().copied().chain(["--json"]).collect();
        assert_eq!(format(&json), Format::Json, "{json:?}");
    }
}

#[test]
fn a_local_review_s_files_are_absolute_and_its_content_file_as_typed() {
    let dir = cwd();
    let Ok(Action::Propose(a)) = resolved(&dir, &["propose", "f.rs", "--content-file", "new"])
    else {
        panic!("not propose");
    };
    assert_eq!(a.file, dir.join("f.rs"));
    assert_eq!(a.content_file, Some(PathBuf::from("new")));
    assert!(!a.stdin);
    let Ok(Action::Diff(d)) = resolved(&dir, &["diff", "a", "b"]) else {
        panic!("not diff");
    };
    assert_eq!((d.left, d.right), (dir.join("a"), dir.join("b")));
}

#[test]
fn diff_edit_without_wait_is_a_usage_error_before_any_path_is_looked_at() {
    let here = Here::at(|| Err(std::io::ErrorKind::NotFound.into()));
    let cli = Cli::try_parse_from(["redline", "diff", "a", "b", "--edit"]).unwrap();
    let Err(Error::Usage(why)) = resolve(cli.command.unwrap(), &here) else {
        panic!("no usage error");
    };
    assert!(why.contains("needs --wait"), "{why}");
}

#[test]
fn review_wait_s_file_is_absolute_text() {
    let dir = cwd();
    let Ok(Action::Review(ReviewAction::Wait { file, timeout })) =
        resolved(&dir, &["review", "wait", "--file", "src/../src/a.rs"])
    else {
        panic!("not review wait");
    };
    let want = dir.join("src/../src/a.rs");
    assert_eq!(file.as_deref(), want.to_str());
    assert_eq!(timeout, 30);
}

#[test]
fn the_editor_commands_carry_the_current_directory_for_the_core() {
    let dir = cwd();
    let Ok(Action::Editor(EditorAction::Context { file, cwd, .. })) =
        resolved(&dir, &["context", "--file", "a.rs", "--line", "1"])
    else {
        panic!("not context");
    };
    assert_eq!((file, cwd), (PathBuf::from("a.rs"), dir.clone()));
    let Ok(Action::Editor(EditorAction::Mention { target, cwd })) =
        resolved(&dir, &["mention", "a.rs:1-2"])
    else {
        panic!("not mention");
    };
    assert_eq!((target.as_str(), cwd), ("a.rs:1-2", dir));
}

#[test]
fn a_command_without_paths_never_asks_for_the_current_directory() {
    let here = Here::at(|| Err(std::io::ErrorKind::NotFound.into()));
    for words in [&["status"][..], &["quit"], &["review", "list", "--json"]] {
        let cli =
            Cli::try_parse_from(std::iter::once("redline").chain(words.iter().copied())).unwrap();
        assert!(resolve(cli.command.unwrap(), &here).is_ok(), "{words:?}");
    }
}
