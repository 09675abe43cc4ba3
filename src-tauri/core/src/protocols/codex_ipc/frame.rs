//! Codex's IPC frames: a u32 little-endian length, then that many bytes of JSON. The length is
//! checked before anything is read or allocated, and each frame must arrive within a deadline.

use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// The longest frame a peer may send before it says who it is: Codex's requests are a few
/// hundred bytes.
pub const MAX_FRAME: usize = 64 * 1024;
/// The longest frame from a peer on the router as a client (`initialize`d: an IDE extension or
/// Codex's desktop app, whose thread snapshots pass through) or from the router Redline joined.
pub const MAX_CLIENT_FRAME: usize = 8 * 1024 * 1024;
/// A frame (and the wait for the next one on an open connection) must arrive within this; Codex
/// itself gives up on a request after about five seconds.
pub const READ_DEADLINE: Duration = Duration::from_secs(5);
/// An answer must be taken by the peer within this, or the connection is dropped.
pub const WRITE_DEADLINE: Duration = Duration::from_secs(5);

/// Why no frame was read; every one of them ends the connection.
#[derive(Debug)]
pub enum FrameError {
    /// The peer closed the connection between frames.
    Closed,
    /// The length named more than `MAX_FRAME`; nothing of the body was read.
    TooLong(u32),
    /// No whole frame within `READ_DEADLINE`.
    TimedOut,
    Io(std::io::Error),
}

/// Reads one frame's bytes: at most `MAX_FRAME`, all of it within `READ_DEADLINE`.
pub async fn read<R: AsyncRead + Unpin>(r: &mut R) -> Result<Vec<u8>, FrameError> {
    tokio::time::timeout(READ_DEADLINE, async {
        let len = read_len(r, MAX_FRAME).await?;
        read_body(r, len).await
    })
    .await
    .unwrap_or(Err(FrameError::TimedOut))
}

/// Reads one frame's bytes on a connection that may rest between frames (a client of the
/// router): at most `MAX_CLIENT_FRAME`; once its length has come, the body within `READ_DEADLINE`.
pub async fn read_resting<R: AsyncRead + Unpin>(r: &mut R) -> Result<Vec<u8>, FrameError> {
    let len = read_len(r, MAX_CLIENT_FRAME).await?;
    tokio::time::timeout(READ_DEADLINE, read_body(r, len))
        .await
        .unwrap_or(Err(FrameError::TimedOut))
}

async fn read_len<R: AsyncRead + Unpin>(r: &mut R, max: usize) -> Result<usize, FrameError> {
    let mut len = [0u8; 4];
    match r.read_exact(&mut len).await {
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Err(FrameError::Closed),
        Err(e) => return Err(FrameError::Io(e)),
    }
    let len = u32::from_le_bytes(len);
    if len as usize > max {
        return Err(FrameError::TooLong(len));
    }
    Ok(len as usize)
}

async fn read_body<R: AsyncRead + Unpin>(r: &mut R, len: usize) -> Result<Vec<u8>, FrameError> {
    let mut body = vec![0u8; len];
    r.read_exact(&mut body).await.map_err(FrameError::Io)?;
    Ok(body)
}

/// Writes one frame, within `WRITE_DEADLINE`.
pub async fn write<W: AsyncWrite + Unpin>(w: &mut W, body: &[u8]) -> std::io::Result<()> {
    let len = u32::try_from(body.len()).map_err(|_| std::io::Error::other("frame too long"))?;
    let send = async {
        w.write_all(&len.to_le_bytes()).await?;
        w.write_all(body).await?;
        w.flush().await
    };
    tokio::time::timeout(WRITE_DEADLINE, send)
        .await
        .unwrap_or_else(|_| Err(std::io::ErrorKind::TimedOut.into()))
}
