//! The JSON-lines framing the control, editor and window channels share: a line from a peer
//! that may send any number of bytes, kept up to a bound (the rest dropped), and one value
//! written as one line.

use serde::Serialize;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWrite, AsyncWriteExt};

/// `value` as one JSON line, its newline included.
pub(crate) fn json_line<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<Vec<u8>> {
    let mut line = serde_json::to_vec(value)?;
    line.push(b'\n');
    Ok(line)
}

/// Writes `value` as one JSON line (unflushed: a caller that buffers flushes).
pub(crate) async fn write_json<W: AsyncWrite + Unpin, T: Serialize + ?Sized>(
    w: &mut W,
    value: &T,
) -> std::io::Result<()> {
    let line = json_line(value).map_err(std::io::Error::other)?;
    w.write_all(&line).await
}

/// One line read from a peer.
pub(crate) enum PeerLine {
    Text(Vec<u8>),
    /// Longer than `max`: dropped up to its newline.
    TooLong,
    Closed,
}

/// Reads up to the next newline, keeping at most `max` bytes. Each await is a `fill_buf`,
/// so dropping it between two (a `select!` branch losing) loses nothing: `buf` and `over` keep
/// what was taken.
pub(crate) async fn next_line<R: AsyncBufRead + Unpin>(
    r: &mut R,
    buf: &mut Vec<u8>,
    over: &mut bool,
    max: usize,
) -> std::io::Result<PeerLine> {
    loop {
        let chunk = r.fill_buf().await?;
        if chunk.is_empty() {
            return Ok(PeerLine::Closed);
        }
        let (take, done) = match chunk.iter().position(|b| *b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        if !*over {
            if buf.len() + take > max + 1 {
                *over = true;
                buf.clear();
            } else {
                buf.extend_from_slice(&chunk[..take]);
            }
        }
        r.consume(take);
        if done {
            if std::mem::take(over) {
                return Ok(PeerLine::TooLong);
            }
            return Ok(PeerLine::Text(std::mem::take(buf)));
        }
    }
}
