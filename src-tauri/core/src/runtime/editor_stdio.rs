//! `redline editor --stdio`: an editor's pipes joined to the running instance's editor channel
//! (runtime::editor), for editors that speak to a child process rather than a socket.

use crate::error::{ControlFailure, Error, Result};
use crate::platform::dirs::Dirs;
use crate::runtime::control::{self, Request};
use crate::runtime::editor::error_line;
use crate::runtime::line::write_json;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};

/// `redline editor --stdio`: joins an editor's pipes to the running instance's editor channel
/// until either closes. With no instance, the editor reads why as an error line.
pub async fn join<I, O>(dirs: &Dirs, mut input: I, mut output: O) -> Result<()>
where
    I: AsyncRead + Unpin,
    O: AsyncWrite + Unpin,
{
    let io = |e: std::io::Error| Error::Control(ControlFailure::EditorChannel(e));
    let mut stream = match control::connect(dirs).await {
        Ok(s) => s,
        Err(e) => {
            // Flushed: tokio's stdout hands the bytes to a thread, which must finish first.
            let why = error_line(None, &e);
            let said = write_json(&mut output, &why);
            let _ = tokio::time::timeout(crate::net::limits::PEER_SEND, said).await;
            let _ = output.flush().await;
            return Err(e);
        }
    };
    write_json(&mut stream, &Request::Editor)
        .await
        .map_err(io)?;
    let (mut from, mut to) = tokio::io::split(stream);
    let upstream = async {
        // The editor closed its end: the instance hears it, then closes ours.
        let _ = tokio::io::copy(&mut input, &mut to).await;
        let _ = to.shutdown().await;
        std::future::pending::<()>().await
    };
    tokio::select! {
        copied = tokio::io::copy(&mut from, &mut output) => { copied.map_err(io)?; }
        _ = upstream => {}
    }
    let _ = output.flush().await;
    Ok(())
}
