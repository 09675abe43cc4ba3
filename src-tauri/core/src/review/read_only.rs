//! Why a proposal cannot be edited: the core's reason, put into words only where a person reads
//! it (the review window, an error message).

/// Why a review's proposal cannot be edited.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadOnly {
    /// The CLI's protocol carries no edited text: on accept, the CLI named here writes its own
    /// proposal.
    CliWritesItsOwn { cli: String },
    /// A `redline diff` without `--edit`: nothing is written back.
    Diff,
    /// A file a dir diff's RIGHT does not have: there is no text to edit, even with `--edit`.
    DiffRemoved,
    /// A `redline propose` without `--wait`: no one hears the decision, so nothing is written.
    NobodyWaits,
    /// A CLI's edit deletes the file: there is no text to edit, only the deletion to allow.
    Deletion { cli: String },
    /// What a CLI's turn changed, start against now, shown at the end of the turn: nothing is
    /// written; the answers are Done and Continue with instructions. `not_shown`: files the
    /// turn touched past the record's bounds or changed past the tabs one review shows.
    /// `checkpointed`: the turn's id in its workspace's history when the review is the whole
    /// turn's change (its checkpoints, start against end), one review for every file; `None`: a
    /// tab of one file the edit tools touched (no checkpoint was taken).
    Turn {
        cli: String,
        not_shown: usize,
        checkpointed: Option<u64>,
    },
    /// Another machine's review (`runtime::remote`): why it is read-only there, in that
    /// instance's words, whether it is a turn's, and which turn of that machine's workspace a
    /// whole turn's review shows (its files are asked of that machine).
    Remote {
        said: String,
        turn: bool,
        checkpointed: Option<u64>,
    },
}

impl ReadOnly {
    /// A turn review: its answers are Done and Continue with instructions.
    pub fn is_turn(&self) -> bool {
        matches!(
            self,
            ReadOnly::Turn { .. } | ReadOnly::Remote { turn: true, .. }
        )
    }

    /// The turn (its id in the workspace's history) a whole turn's review shows.
    pub fn checkpointed(&self) -> Option<u64> {
        match self {
            ReadOnly::Turn { checkpointed, .. } | ReadOnly::Remote { checkpointed, .. } => {
                *checkpointed
            }
            _ => None,
        }
    }
}

impl std::fmt::Display for ReadOnly {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadOnly::Remote { said, .. } => f.write_str(said),
            ReadOnly::CliWritesItsOwn { cli } => {
                write!(
                    f,
                    "{cli} writes its own proposal: edits here can't be sent back."
                )
            }
            ReadOnly::Diff => f.write_str(
                "A diff from `redline diff`: nothing is written back (`redline diff --edit` makes \
                 it editable).",
            ),
            ReadOnly::DiffRemoved => {
                f.write_str("This file is not in RIGHT: there is nothing to edit.")
            }
            ReadOnly::NobodyWaits => f.write_str(
                "Opened by `redline propose` without --wait: nobody receives the decision, so \
                 nothing is written.",
            ),
            ReadOnly::Deletion { cli } => write!(
                f,
                "{cli} deletes this file: accept lets it, reject keeps the file."
            ),
            ReadOnly::Turn {
                cli,
                checkpointed: Some(_),
                ..
            } => write!(
                f,
                "Everything {cli} changed this turn, by any tool: keep or undo each hunk or \
                 file. Done ends the turn; Continue sends {cli} your comments and words."
            ),
            ReadOnly::Turn { cli, not_shown, .. } => {
                write!(
                    f,
                    "What {cli} changed this turn: the file at the turn's start, and now. Done \
                     ends the turn; Continue with instructions… sends {cli} your words."
                )?;
                match not_shown {
                    0 => Ok(()),
                    n => write!(
                        f,
                        " {n} more file(s) the turn touched are not shown: a turn's review shows \
                         at most {} files, of at most {} (and {} MiB) it records.",
                        crate::review::turn::MAX_TURN_TABS,
                        crate::review::turn::MAX_TURN_FILES,
                        crate::review::turn::MAX_TURN_BYTES / (1024 * 1024)
                    ),
                }
            }
        }
    }
}
