//! A bridge's stream with the time its last byte was read kept beside it: the heartbeat's
//! silence is bytes, not lines, so a large review crossing a slow link is not taken for it.

use crate::runtime::line::{Delimited, JsonLines};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Instant;
use tokio_util::codec::{Framed, FramedParts};

pub(crate) type ReadAt = Arc<Mutex<Instant>>;

pub(crate) fn last_read(at: &ReadAt) -> Instant {
    *at.lock().unwrap_or_else(|p| p.into_inner())
}

/// `stream` with the time its last byte was read kept beside it; what was buffered stays.
pub(crate) fn counted<S: AsyncRead + AsyncWrite>(
    stream: Delimited<S>,
) -> (Delimited<Counted<S>>, ReadAt) {
    let at: ReadAt = Arc::new(Mutex::new(Instant::now()));
    let parts = stream.into_parts();
    let io = Counted {
        inner: parts.io,
        at: at.clone(),
    };
    let mut counted = FramedParts::new::<&()>(io, parts.codec);
    counted.read_buf = parts.read_buf;
    counted.write_buf = parts.write_buf;
    (Framed::<_, JsonLines>::from_parts(counted), at)
}

/// A stream that notes when it last read a byte.
pub(crate) struct Counted<S> {
    inner: S,
    at: ReadAt,
}

impl<S: AsyncRead + Unpin> AsyncRead for Counted<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if buf.filled().len() > before {
            *self.at.lock().unwrap_or_else(|p| p.into_inner()) = Instant::now();
        }
        polled
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Counted<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}
