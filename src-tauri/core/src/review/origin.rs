//! Who proposed a review and is told its outcome: a CLI's session, or one of Redline's own
//! commands.

/// Where a review came from. Reviews of one origin share a quota, and one re-proposing a file it
/// already proposed replaces its review.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Origin {
    /// A CLI's session, by the id its protocol's adapter gave it.
    Cli { session: String },
    /// One `redline diff` command: RIGHT is what it shows on disk, and every file of it shares
    /// this run.
    Diff {
        run: u64,
        /// The folder the user knows RIGHT by, when that is not RIGHT's own (`git difftool -d`
        /// compares temp trees: the repository's top folder): what the tabs name.
        shown_as: Option<std::path::PathBuf>,
    },
    /// One `redline propose` command.
    Propose { run: u64 },
    /// One run of a CLI's pre-edit hook (`redline hook`): every file of its edit.
    Hook { run: u64 },
    /// Review `id` of another machine's Redline, run `run`, shown here (`runtime::remote`): its
    /// paths are labels only, never read or opened on this machine.
    Remote {
        remote: String,
        run: String,
        id: crate::review::id::ReviewId,
    },
}

impl Origin {
    /// The CLI session, if a CLI proposed it.
    /// The folder a review is shown under, when it is not the review's own root.
    pub fn shown_as(&self) -> Option<&std::path::Path> {
        match self {
            Origin::Diff { shown_as, .. } => shown_as.as_deref(),
            Origin::Cli { .. }
            | Origin::Propose { .. }
            | Origin::Hook { .. }
            | Origin::Remote { .. } => None,
        }
    }

    /// The remote machine's name, for another machine's review.
    pub fn remote(&self) -> Option<&str> {
        match self {
            Origin::Remote { remote, .. } => Some(remote),
            _ => None,
        }
    }

    pub fn session(&self) -> Option<&str> {
        match self {
            Origin::Cli { session } => Some(session),
            Origin::Diff { .. }
            | Origin::Propose { .. }
            | Origin::Hook { .. }
            | Origin::Remote { .. } => None,
        }
    }

    /// Whether it is CLI session `session`.
    pub fn is_session(&self, session: &str) -> bool {
        self.session() == Some(session)
    }
}
