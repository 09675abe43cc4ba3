//! The parsed command line resolved once into what the commands use (as ripgrep's `HiArgs` is
//! from its parsed arguments): every path argument made absolute against the current directory,
//! `--json` a `Format`. No command makes a path absolute itself.

use crate::args::{
    Command, ContainerCmd, DiffArgs, ProposeArgs, ReviewCmd, TokenCmd, WorkspaceCmd,
};
use crate::comment_arg::CommentArg;
use crate::format::Format;
use crate::here::{utf8, Here};
use crate::hook_args::{HookArgs, HooksCmd};
use crate::turns_args::TurnsCmd;
use redline_core::surfaces::shell::Shell;
use redline_core::workspace::config;
use redline_core::{Error, Result};
use std::net::Ipv4Addr;
use std::path::{Path, PathBuf};

/// A command as it runs: its arguments resolved.
pub(crate) enum Action {
    /// `serve --headless`.
    Serve,
    Doctor {
        dir: PathBuf,
        format: Format,
    },
    Status {
        format: Format,
    },
    Workspace(WorkspaceAction),
    Review(ReviewAction),
    Turns(TurnsAction),
    TokenRotate {
        path: PathBuf,
    },
    Env {
        shell: Shell,
        path: PathBuf,
    },
    Container(ContainerAction),
    Quit,
    Propose(LocalPropose),
    Diff(LocalDiff),
    Hook(HookArgs),
    Hooks(HooksCmd),
    Editor(EditorAction),
    Remote(crate::remote_cli::RemoteAction),
    /// `redline bridge`: stdin and stdout joined to the instance's bridge.
    Bridge {
        start: bool,
    },
    Completions {
        shell: clap_complete::Shell,
    },
    Man,
}

/// `redline turns`: `dir` is the folder that names the workspace (the current one where no
/// DIR is given); a turn's PATH stays as typed, relative to the workspace's root.
pub(crate) enum TurnsAction {
    List {
        dir: PathBuf,
        format: Format,
    },
    Show {
        dir: PathBuf,
        id: u64,
        path: Option<String>,
    },
    Undo {
        dir: PathBuf,
        id: u64,
        picks: Vec<String>,
    },
    Checkpoint {
        dir: PathBuf,
    },
}

pub(crate) enum WorkspaceAction {
    /// `path` is the folder itself, symlinks resolved: what the config holds.
    Add {
        path: PathBuf,
        force: bool,
    },
    Remove {
        path: PathBuf,
    },
    Enable {
        path: PathBuf,
        enabled: bool,
    },
    List {
        format: Format,
    },
}

pub(crate) enum ReviewAction {
    List {
        format: Format,
    },
    Show {
        id: u64,
    },
    /// `content_file` stays as typed: only this process reads it, and its errors name it so.
    Accept {
        id: u64,
        content_file: Option<PathBuf>,
    },
    Reject {
        id: u64,
        reason: Option<String>,
        comments: Vec<CommentArg>,
    },
    /// A turn review's Continue: a reject whose reason is the model's instructions.
    Continue {
        id: u64,
        reason: Option<String>,
        comments: Vec<CommentArg>,
    },
    /// A turn review's Done.
    Done {
        id: u64,
    },
    Wait {
        file: Option<String>,
        timeout: u64,
    },
}

pub(crate) enum ContainerAction {
    Enable {
        path: PathBuf,
        address: Option<Ipv4Addr>,
    },
    Disable {
        path: PathBuf,
    },
    Args {
        path: PathBuf,
        container_path: Option<String>,
        home: String,
        format: Format,
    },
}

/// `redline propose`, its FILE absolute.
pub(crate) struct LocalPropose {
    pub file: PathBuf,
    /// As typed, as `ReviewAction::Accept`'s; `-` is standard input.
    pub content_file: Option<PathBuf>,
    /// The `-` argument was given.
    pub stdin: bool,
    pub wait: bool,
    /// Empty text may be proposed for a file that has some (`--allow-empty`).
    pub allow_empty: bool,
    pub format: Format,
}

/// `redline diff`, LEFT and RIGHT absolute.
pub(crate) struct LocalDiff {
    pub left: PathBuf,
    pub right: PathBuf,
    pub wait: bool,
    pub edit: bool,
    /// The repository `git difftool -d` compares, when RIGHT is one of its temp trees: the
    /// tabs name it and the file's path in it, not `right / src/x`.
    pub shown_as: Option<PathBuf>,
}

/// The editor commands; the core reads FILE (and `mention`'s FILE:L1-L2) against `cwd`.
pub(crate) enum EditorAction {
    Stdio(bool),
    Mention {
        target: String,
        cwd: PathBuf,
    },
    Context {
        file: PathBuf,
        line: u32,
        col: Option<u32>,
        selection: Vec<String>,
        cwd: PathBuf,
    },
}

/// `command` with its arguments resolved against `here`.
pub(crate) fn resolve(command: Command, here: &Here) -> Result<Action> {
    Ok(match command {
        Command::Serve { .. } => Action::Serve,
        Command::Doctor { dir, output } => Action::Doctor {
            dir: here.or_dir(dir)?,
            format: output.format(),
        },
        Command::Status { output } => Action::Status {
            format: output.format(),
        },
        Command::Workspace(cmd) => Action::Workspace(workspace(cmd, here)?),
        Command::Review(cmd) => Action::Review(review(cmd, here)?),
        Command::Turns(cmd) => Action::Turns(turns(cmd, here)?),
        Command::Remote(cmd) => Action::Remote(crate::remote_cli::resolve(cmd)?),
        Command::Token(TokenCmd::Rotate { workspace }) => Action::TokenRotate {
            path: here.or_dir(workspace)?,
        },
        Command::Env { shell, path } => Action::Env {
            shell,
            path: here.or_dir(path)?,
        },
        Command::Container(cmd) => Action::Container(container(cmd, here)?),
        Command::Quit => Action::Quit,
        Command::Propose(a) => Action::Propose(propose(a, here)?),
        Command::Diff(a) => Action::Diff(diff(a, here)?),
        Command::Hook(a) => Action::Hook(a),
        Command::Hooks(cmd) => Action::Hooks(cmd),
        Command::Completions { shell } => Action::Completions { shell },
        Command::Man => Action::Man,
        Command::Editor { stdio } => Action::Editor(EditorAction::Stdio(stdio)),
        Command::Bridge { start } => Action::Bridge { start },
        Command::Mention { target } => Action::Editor(EditorAction::Mention {
            target,
            cwd: here.dir()?,
        }),
        Command::Context {
            file,
            line,
            col,
            selection,
        } => Action::Editor(EditorAction::Context {
            file,
            line,
            col,
            selection,
            cwd: here.dir()?,
        }),
    })
}

fn turns(cmd: TurnsCmd, here: &Here) -> Result<TurnsAction> {
    Ok(match cmd {
        TurnsCmd::List { dir, output } => TurnsAction::List {
            dir: here.or_dir(dir)?,
            format: output.format(),
        },
        TurnsCmd::Show { id, path } => TurnsAction::Show {
            dir: here.dir()?,
            id,
            path,
        },
        TurnsCmd::Undo { id, picks } => TurnsAction::Undo {
            dir: here.dir()?,
            id,
            picks,
        },
        TurnsCmd::Checkpoint { dir } => TurnsAction::Checkpoint {
            dir: here.or_dir(dir)?,
        },
    })
}

fn workspace(cmd: WorkspaceCmd, here: &Here) -> Result<WorkspaceAction> {
    Ok(match cmd {
        WorkspaceCmd::Add { path, force } => {
            let path = config::canonical_dir(&here.absolute(&path)?)?;
            utf8(&path)?;
            WorkspaceAction::Add { path, force }
        }
        WorkspaceCmd::Remove { path } => WorkspaceAction::Remove {
            path: here.absolute(&path)?,
        },
        WorkspaceCmd::Enable { path } => WorkspaceAction::Enable {
            path: here.absolute(&path)?,
            enabled: true,
        },
        WorkspaceCmd::Disable { path } => WorkspaceAction::Enable {
            path: here.absolute(&path)?,
            enabled: false,
        },
        WorkspaceCmd::List { output } => WorkspaceAction::List {
            format: output.format(),
        },
    })
}

fn review(cmd: ReviewCmd, here: &Here) -> Result<ReviewAction> {
    Ok(match cmd {
        ReviewCmd::List { output } => ReviewAction::List {
            format: output.format(),
        },
        ReviewCmd::Show { id } => ReviewAction::Show { id },
        ReviewCmd::Accept { id, content_file } => ReviewAction::Accept { id, content_file },
        ReviewCmd::Reject {
            id,
            reason,
            comments,
        } => ReviewAction::Reject {
            id,
            reason,
            comments,
        },
        ReviewCmd::Continue {
            id,
            comments,
            reason,
        } => ReviewAction::Continue {
            id,
            reason,
            comments,
        },
        ReviewCmd::Done { id } => ReviewAction::Done { id },
        // As `propose` and `mention` take it: relative to where the command runs.
        ReviewCmd::Wait { file, timeout } => {
            let file = match file {
                Some(f) => Some(utf8(&here.absolute(Path::new(&f))?)?.to_owned()),
                None => None,
            };
            ReviewAction::Wait { file, timeout }
        }
    })
}

fn container(cmd: ContainerCmd, here: &Here) -> Result<ContainerAction> {
    Ok(match cmd {
        ContainerCmd::Enable { path, address } => ContainerAction::Enable {
            path: here.absolute(&path)?,
            address,
        },
        ContainerCmd::Disable { path } => ContainerAction::Disable {
            path: here.absolute(&path)?,
        },
        ContainerCmd::Args {
            path,
            container_path,
            home,
            output,
        } => ContainerAction::Args {
            path: here.or_dir(path)?,
            container_path,
            home,
            format: output.format(),
        },
    })
}

fn propose(a: ProposeArgs, here: &Here) -> Result<LocalPropose> {
    Ok(LocalPropose {
        file: here.absolute(&a.file)?,
        content_file: a.content_file,
        stdin: a.stdin.is_some(),
        wait: a.wait,
        allow_empty: a.allow_empty,
        format: a.output.format(),
    })
}

fn diff(a: DiffArgs, here: &Here) -> Result<LocalDiff> {
    // Before the paths, as it always was: the usage error first.
    if a.edit && !a.wait {
        return Err(Error::Usage(
            "--edit writes RIGHT once you accept: it needs --wait".into(),
        ));
    }
    let right = here.absolute(&a.right)?;
    Ok(LocalDiff {
        left: here.absolute(&a.left)?,
        shown_as: difftool_repository(&right, std::env::var_os("GIT_WORK_TREE")),
        right,
        wait: a.wait,
        edit: a.edit,
    })
}

/// git runs a difftool with `GIT_WORK_TREE` set to the repository's top folder; a RIGHT outside
/// it is a temp tree of git's (`git difftool -d`), known to the user by the repository.
pub(crate) fn difftool_repository(
    right: &std::path::Path,
    work_tree: Option<std::ffi::OsString>,
) -> Option<PathBuf> {
    let work_tree = PathBuf::from(work_tree?);
    (work_tree.is_absolute() && !right.starts_with(&work_tree)).then_some(work_tree)
}

#[cfg(test)]
#[path = "resolve_tests.rs"]
mod tests;
