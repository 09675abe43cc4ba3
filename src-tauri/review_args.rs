//! The arguments of `redline review`: the pending reviews listed, shown and answered (an edit's
//! accepted or rejected, a turn's Done or Continue), with comments on lines.

use crate::comment_arg::CommentArg;
use crate::format::{json_help, JsonFlag};
use clap::Subcommand;
use std::path::PathBuf;

#[derive(Subcommand)]
pub enum ReviewCmd {
    /// List the pending reviews: id, file, the CLI that proposed it.
    #[command(
        after_long_help = "Example:\n  redline review list --json",
        mut_arg("json", json_help("Print them as a JSON array"))
    )]
    List {
        #[command(flatten)]
        output: JsonFlag,
    },
    /// A unified diff of the original and the current text.
    #[command(after_long_help = "Example:\n  redline review show 3 | less")]
    Show {
        /// The review's id, from `redline review list`.
        id: u64,
    },
    /// Accept with the current text, or with a file's text as the edited result.
    #[command(after_long_help = "Example:\n  redline review accept 3\n  \
        redline review accept 3 --content-file edited.rs")]
    Accept {
        /// The review's id, from `redline review list`.
        id: u64,
        /// Accept this file's text instead of the proposal (the CLI writes it).
        #[arg(long, value_name = "F")]
        content_file: Option<PathBuf>,
    },
    /// Reject the proposal: the CLI is told and the file stays as it is.
    #[command(after_long_help = "Examples:\n  redline review reject 3\n  \
        redline review reject 3 --reason 'keep the public name; add an alias instead'")]
    Reject {
        /// The review's id, from `redline review list`.
        id: u64,
        /// Why, told to whoever asked where it can hear it (a waiting `redline propose`, a
        /// CLI's hook; see `reasonHeard` in `redline review list --json`): at most 2000
        /// characters, control characters removed.
        #[arg(long, value_name = "TEXT")]
        reason: Option<String>,
        /// A comment on a line, sent before the reason: PATH relative to the workspace's root
        /// (or absolute inside it), LINE 1-based in the file as it is now (it is quoted from
        /// it), TEXT what to say. Repeatable.
        #[arg(long = "comment", value_name = "PATH:LINE:TEXT", value_parser = crate::comment_arg::parse)]
        comments: Vec<CommentArg>,
    },
    /// Answer a turn's review with Continue: the CLI's model goes on with the comments and the
    /// reason (an edit's review: use `reject`).
    #[command(
        after_long_help = "Examples:\n  redline review continue 7 --reason 'add a test'\n  \
        redline review continue 7 --comment 'src/a.rs:12:name it count' --comment 'b.md:3:typo'"
    )]
    Continue {
        /// The turn review's id, from `redline review list`.
        id: u64,
        /// A comment on a line, as `reject --comment` takes it. Repeatable.
        #[arg(long = "comment", value_name = "PATH:LINE:TEXT", value_parser = crate::comment_arg::parse)]
        comments: Vec<CommentArg>,
        /// Instructions after the comments: at most 2000 characters, control characters
        /// removed.
        #[arg(long, value_name = "TEXT")]
        reason: Option<String>,
    },
    /// Answer a turn's review with Done: the turn ends as it is (an edit's review: use
    /// `accept`).
    #[command(after_long_help = "Example:\n  redline review done 7")]
    Done {
        /// The turn review's id, from `redline review list`.
        id: u64,
    },
    /// Wait for a pending review and print it as JSON.
    #[command(after_long_help = "Example:\n  \
        id=$(redline review wait --file src/main.rs --timeout 60 | jq .id)")]
    Wait {
        /// Only a review of this file path (as the CLI sent it).
        #[arg(long)]
        file: Option<String>,
        /// Seconds to wait before giving up.
        #[arg(long, default_value_t = 30)]
        timeout: u64,
    },
}
