//! The JSON-lines transport the control, editor and window channels and their clients share:
//! one tokio-util codec (`JsonLines`) whose lines are bounded (a longer one is reported once and
//! dropped up to its newline), one value written as one line, and a deadline on each write.

use futures::{Sink, SinkExt, Stream, StreamExt};
use serde::Serialize;
use std::io;
use std::time::Duration;
use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio_util::bytes::{Bytes, BytesMut};
use tokio_util::codec::{AnyDelimiterCodec, AnyDelimiterCodecError, Decoder, Encoder, Framed};

/// `value` as one JSON line, its newline included: the one way Redline writes a line.
pub(crate) fn json_line<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<Vec<u8>> {
    let mut line = serde_json::to_vec(value)?;
    line.push(b'\n');
    Ok(line)
}

/// Writes `value` as one JSON line on a plain stream: the first line of a connection that then
/// carries bytes it does not frame itself (`redline editor --stdio` joins an editor's pipes).
pub(crate) async fn write_json<W: AsyncWrite + Unpin, T: Serialize + ?Sized>(
    w: &mut W,
    value: &T,
) -> io::Result<()> {
    let line = json_line(value).map_err(io::Error::other)?;
    w.write_all(&line).await
}

/// One line read from a peer.
#[derive(Debug, PartialEq)]
pub(crate) enum PeerLine {
    /// The line, its newline taken off (a last line the peer ended without one counts).
    Text(Bytes),
    /// Longer than the bound: said once, the rest dropped up to its newline.
    TooLong,
    Closed,
}

/// The framing: lines of at most `max` bytes in, JSON values out.
#[derive(Debug)]
pub(crate) struct JsonLines {
    lines: AnyDelimiterCodec,
}

impl JsonLines {
    pub(crate) fn new(max: usize) -> JsonLines {
        JsonLines {
            lines: AnyDelimiterCodec::new_with_max_length(b"\n".to_vec(), b"\n".to_vec(), max),
        }
    }
}

/// A line too long is an item, not an error: a decoder's error ends a framed stream for good,
/// and a peer that sent one line too many is answered, not cut off.
#[derive(Debug, PartialEq)]
pub(crate) enum Frame {
    Line(Bytes),
    TooLong,
}

fn framed(r: Result<Option<Bytes>, AnyDelimiterCodecError>) -> io::Result<Option<Frame>> {
    match r {
        Ok(line) => Ok(line.map(Frame::Line)),
        Err(AnyDelimiterCodecError::MaxChunkLengthExceeded) => Ok(Some(Frame::TooLong)),
        Err(AnyDelimiterCodecError::Io(e)) => Err(e),
    }
}

impl Decoder for JsonLines {
    type Item = Frame;
    type Error = io::Error;

    fn decode(&mut self, buf: &mut BytesMut) -> io::Result<Option<Frame>> {
        framed(self.lines.decode(buf))
    }

    fn decode_eof(&mut self, buf: &mut BytesMut) -> io::Result<Option<Frame>> {
        framed(self.lines.decode_eof(buf))
    }
}

impl<T: Serialize + ?Sized> Encoder<&T> for JsonLines {
    type Error = io::Error;

    fn encode(&mut self, value: &T, dst: &mut BytesMut) -> io::Result<()> {
        dst.extend_from_slice(&json_line(value).map_err(io::Error::other)?);
        Ok(())
    }
}

/// A connection framed as JSON lines, both ways.
pub(crate) type Delimited<S> = Framed<S, JsonLines>;

/// `stream` framed as JSON lines of at most `max` bytes each.
pub(crate) fn delimited<S>(stream: S, max: usize) -> Delimited<S>
where
    S: tokio::io::AsyncRead + AsyncWrite,
{
    Framed::new(stream, JsonLines::new(max))
}

/// The same connection, its lines now bounded by `max` (a channel taking over from the control
/// request that opened it); what was already read stays.
pub(crate) fn rebound<S>(stream: &mut Delimited<S>, max: usize) {
    *stream.codec_mut() = JsonLines::new(max);
}

/// The next line from the peer. Cancel-safe: what was read stays in the framed buffer, so a
/// `select!` branch that loses drops nothing.
pub(crate) async fn recv<R>(r: &mut R) -> io::Result<PeerLine>
where
    R: Stream<Item = io::Result<Frame>> + Unpin,
{
    Ok(match r.next().await.transpose()? {
        Some(Frame::Line(line)) => PeerLine::Text(line),
        Some(Frame::TooLong) => PeerLine::TooLong,
        None => PeerLine::Closed,
    })
}

/// Writes `value` as one line and flushes it, within `within`: a peer that stops reading
/// fails the write, never holds the writer.
pub(crate) async fn send<W, T>(w: &mut W, value: &T, within: Duration) -> io::Result<()>
where
    W: for<'a> Sink<&'a T, Error = io::Error> + Unpin,
    T: Serialize + ?Sized,
{
    match tokio::time::timeout(within, w.send(value)).await {
        Ok(sent) => sent,
        Err(_) => Err(io::ErrorKind::TimedOut.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncWriteExt;

    async fn lines_of(input: &[u8], max: usize) -> Vec<PeerLine> {
        let (mut peer, ours) = tokio::io::duplex(64);
        let input = input.to_vec();
        let writer = tokio::spawn(async move {
            peer.write_all(&input).await.unwrap();
            peer.shutdown().await.unwrap();
            // Kept open for reading until the reader is done: only the write side closes.
            peer
        });
        let mut framed = delimited(ours, max);
        let mut got = Vec::new();
        loop {
            let line = recv(&mut framed).await.unwrap();
            let closed = line == PeerLine::Closed;
            got.push(line);
            if closed {
                break;
            }
        }
        drop(writer.await.unwrap());
        got
    }

    fn text(s: &str) -> PeerLine {
        PeerLine::Text(Bytes::copy_from_slice(s.as_bytes()))
    }

    #[tokio::test]
    async fn a_line_over_the_bound_is_said_once_and_the_next_line_still_reads() {
        let long = "x".repeat(300);
        let input = format!("{{\"a\":1}}\n{long}\n{{\"b\":2}}\n");
        let got = lines_of(input.as_bytes(), 100).await;
        assert_eq!(
            got,
            vec![
                text("{\"a\":1}"),
                PeerLine::TooLong,
                text("{\"b\":2}"),
                PeerLine::Closed
            ]
        );
    }

    #[tokio::test]
    async fn a_line_exactly_at_the_bound_is_taken_and_a_last_line_without_newline_counts() {
        let at = "y".repeat(100);
        let input = format!("{at}\nlast");
        let got = lines_of(input.as_bytes(), 100).await;
        assert_eq!(got, vec![text(&at), text("last"), PeerLine::Closed]);
    }

    #[tokio::test]
    async fn a_value_is_written_as_one_line_within_the_deadline() {
        let (ours, theirs) = tokio::io::duplex(1024);
        let mut framed = delimited(ours, 1024);
        send(
            &mut framed,
            &serde_json::json!({"k": "v\nw"}),
            Duration::from_secs(5),
        )
        .await
        .unwrap();
        let mut read = delimited(theirs, 1024);
        assert_eq!(recv(&mut read).await.unwrap(), text(r#"{"k":"v\nw"}"#));
    }

    #[tokio::test]
    async fn a_peer_that_reads_nothing_fails_the_write_at_its_deadline() {
        // A duplex of 8 bytes nobody reads: the line cannot leave.
        let (ours, _theirs) = tokio::io::duplex(8);
        let mut framed = delimited(ours, 1024);
        let big = "z".repeat(4096);
        let sent = send(&mut framed, &big, Duration::from_millis(50)).await;
        assert_eq!(sent.unwrap_err().kind(), io::ErrorKind::TimedOut);
    }
}
