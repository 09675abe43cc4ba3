//! The help texts made at run time: what names the CLIs Redline serves takes them from
//! `clients::ALL`, and what bare `redline` does depends on the build.

use redline_core::clients::words;

/// What bare `redline` does differs by build: the help says which one this is. The CLIs are
/// named from `clients::ALL` (`clients::words`), so the help names every one Redline serves.
pub(crate) fn long_about() -> String {
    let what = if cfg!(feature = "desktop") {
        "Redline shows each edit an AI coding CLI proposes in a review window: accept it (with \
         your edits) or reject it, and the CLI is told.\n\n\
         `redline` alone starts the app: the tray, the review window and the servers of the \
         enabled workspaces (a second `redline` reaches the running one). `redline serve \
         --headless` runs the servers without a window."
    } else {
        "Redline lets you accept or reject each edit an AI coding CLI proposes.\n\n\
         This build is headless: it has no window, so `redline` alone only says so (exit 2); \
         `redline serve --headless` runs the servers, and reviews are decided with `redline \
         review`."
    };
    format!(
        "Diff review for AI coding CLIs.\n\n{what}\n\n{}.\n\n\
         Every other command talks to the running instance, or edits the config when none \
         runs.\n\n{MORE}",
        words::served_sentence()
    )
}

/// Where the rest is: the man page is installed only by the Linux packages, and `redline man`
/// prints it anywhere.
const MORE: &str = "More: `redline help COMMAND`; the manual: `redline man | man -l -` (or \
                    `man redline` where a package installed it).";

/// `redline doctor --help`: the CLIs it checks, named from `clients::ALL`.
pub(crate) fn doctor_about() -> String {
    format!(
        "Whether {} started in DIR would connect, and if not, why and the one command that \
         fixes it; also which CLIs have Redline's pre-edit hook ({}). Exits 1 if an installed \
         CLI would not connect.",
        words::ide_names(),
        words::hook_names()
    )
}

/// `redline hooks --help`: the CLIs with a hook, named from `clients::ALL`.
pub(crate) fn hooks_about() -> String {
    format!(
        "Install, remove or check Redline's pre-edit hook in a CLI's own config: {}. {} \
         connect to Redline's IDE servers too: with a hook as well, each edit is asked twice.",
        words::hook_names(),
        words::hook_and_ide_names()
    )
}
