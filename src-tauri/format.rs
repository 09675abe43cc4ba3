//! How a command is asked for JSON: `--json`, one flag that every command printing JSON
//! flattens, and the `Format` it resolves to.

/// Whether the user asked for JSON (`--json`) or the text meant to be read.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Format {
    Text,
    Json,
}

impl Format {
    pub(crate) fn json(json: bool) -> Format {
        match json {
            true => Format::Json,
            false => Format::Text,
        }
    }
}

/// `--json`. Each command's help says what it prints (`json_help`), as each did when it declared
/// the flag itself.
#[derive(clap::Args)]
pub struct JsonFlag {
    /// Print it as JSON.
    #[arg(long)]
    pub json: bool,
}

impl JsonFlag {
    pub(crate) fn format(&self) -> Format {
        Format::json(self.json)
    }
}

/// A command's own help for its `--json` (for `mut_arg`), written as a doc comment's first line
/// is shown: without its final period.
pub(crate) fn json_help(help: &'static str) -> impl FnOnce(clap::Arg) -> clap::Arg {
    move |arg| arg.help(help)
}
