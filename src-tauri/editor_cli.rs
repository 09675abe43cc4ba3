//! The editor commands: `redline editor --stdio` (a plugin's channel) and the one-shot
//! `redline mention` and `redline context` (docs/editors.md).

use crate::request::ask;
use crate::resolve::EditorAction;
use redline_core::platform::dirs::Dirs;
use redline_core::surfaces::action::EditorSend;
use redline_core::{ControlFailure, Error, Result};

/// The editor channel and the one-shot editor commands.
pub async fn run(dirs: &Dirs, action: EditorAction) -> Result<()> {
    use redline_core::runtime::{editor_command, stdio_channel};
    let message = match action {
        EditorAction::Stdio(true) => {
            return stdio_channel::editor(dirs, tokio::io::stdin(), tokio::io::stdout()).await
        }
        EditorAction::Stdio(false) => {
            return Err(Error::Control(ControlFailure::EditorWithoutStdio))
        }
        EditorAction::Mention { target, cwd } => editor_command::mention(&target, &cwd)?,
        EditorAction::Context {
            file,
            line,
            col,
            selection,
            cwd,
        } => editor_command::context(&file, line, col, &selection, &cwd)?,
    };
    ask(dirs, EditorSend { message }).await?;
    Ok(())
}
