//! The editor commands: `redline editor --stdio` (a plugin's channel) and the one-shot
//! `redline mention` and `redline context` (docs/editors.md).

use crate::args::Command;
use crate::request::{ask, current_dir};
use redline_core::platform::dirs::Dirs;
use redline_core::surfaces::action::EditorSend;
use redline_core::{Error, Result};

/// The editor channel and the one-shot editor commands.
pub async fn run(dirs: &Dirs, command: Command) -> Result<()> {
    use redline_core::runtime::{editor_command, editor_stdio};
    let message = match command {
        Command::Editor { stdio: true } => {
            return editor_stdio::join(dirs, tokio::io::stdin(), tokio::io::stdout()).await
        }
        Command::Editor { stdio: false } => {
            return Err(Error::Control(
                "`redline editor` speaks on stdin and stdout only: give --stdio".into(),
            ))
        }
        Command::Mention { target } => editor_command::mention(&target, &current_dir()?)?,
        Command::Context {
            file,
            line,
            col,
            selection,
        } => editor_command::context(&file, line, col, &selection, &current_dir()?)?,
        _ => return Ok(()),
    };
    ask(dirs, EditorSend { message }).await?;
    Ok(())
}
