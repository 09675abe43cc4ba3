//! A line from a peer that may send any number of bytes: kept up to a bound, the rest dropped.

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

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
