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
}

impl std::fmt::Display for ReadOnly {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
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
        }
    }
}
