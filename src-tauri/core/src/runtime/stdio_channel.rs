//! A process's stdin and stdout joined to a channel of the running instance: `redline editor
//! --stdio` (an editor's channel, runtime::editor) and `redline bridge` (a desktop's link to
//! this machine, runtime::remote), for peers that speak to a child process rather than a socket.

use crate::error::{ControlFailure, Error, Result};
use crate::platform::dirs::Dirs;
use crate::runtime::control::{self, Request};
use crate::runtime::line::write_json;
use serde::Serialize;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};

/// `redline editor --stdio`: joins an editor's pipes to the running instance's editor channel
/// until either closes. With no instance, the editor reads why as an error line.
pub async fn editor<I, O>(dirs: &Dirs, input: I, output: O) -> Result<()>
where
    I: AsyncRead + Unpin,
    O: AsyncWrite + Unpin,
{
    let refusal = |e: &Error| crate::runtime::editor::error_line(None, e);
    join(dirs, Request::Editor, refusal, input, output).await
}

/// `redline bridge`: joins a desktop's link (the command's stdio, e.g. over ssh) to the running
/// instance's bridge until either closes. With no instance, the desktop reads why as a `bye`.
pub async fn bridge<I, O>(dirs: &Dirs, input: I, output: O) -> Result<()>
where
    I: AsyncRead + Unpin,
    O: AsyncWrite + Unpin,
{
    let refusal = |e: &Error| {
        let why = match e {
            // Read on the desktop, about this machine: said as what to do here.
            Error::NotRunning => {
                "no Redline runs on this machine: start it there with `redline serve --headless`"
                    .to_owned()
            }
            other => other.to_string(),
        };
        crate::runtime::remote::ToDesktop::<(), ()>::Bye { why }
    };
    join(dirs, Request::Bridge, refusal, input, output).await
}

/// Joins `input` and `output` to the channel `request` opens until either closes; with no
/// instance, `refusal` of why is written as the one line before the error is returned.
async fn join<I, O, R>(
    dirs: &Dirs,
    request: Request,
    refusal: impl FnOnce(&Error) -> R,
    mut input: I,
    mut output: O,
) -> Result<()>
where
    I: AsyncRead + Unpin,
    O: AsyncWrite + Unpin,
    R: Serialize,
{
    let io = |e: std::io::Error| Error::Control(ControlFailure::StdioChannel(e));
    let mut stream = match control::connect(dirs).await {
        Ok(s) => s,
        Err(e) => {
            // Flushed: tokio's stdout hands the bytes to a thread, which must finish first.
            let why = refusal(&e);
            let said = write_json(&mut output, &why);
            let _ = tokio::time::timeout(crate::net::limits::PEER_SEND, said).await;
            let _ = output.flush().await;
            return Err(e);
        }
    };
    write_json(&mut stream, &request).await.map_err(io)?;
    let (mut from, mut to) = tokio::io::split(stream);
    let upstream = async {
        // The peer closed its end: the instance hears it, then closes ours.
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
