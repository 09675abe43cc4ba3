//! The drain of a connection Redline closes: its calls' answers reach the peer before the close
//! frame, all within `DRAIN` whatever the peer does.

use super::dispatch::Requests;
use crate::net::limits::DRAIN;
use axum::extract::ws::{CloseFrame, Message, WebSocket};
use tokio::sync::mpsc;
use tokio::time::Instant;

/// Sends `unsent`, then every answer until no request is left (or `DRAIN` is up), then the close
/// frame. The requests were settled (rejected) just before, so their tasks finish at once.
pub(super) async fn drain(
    socket: &mut WebSocket,
    outbox: &mut mpsc::Receiver<String>,
    requests: &mut Requests,
    mut unsent: Option<Message>,
) {
    let deadline = Instant::now() + DRAIN;
    loop {
        if let Some(msg) = unsent.take() {
            if !send_by(socket, msg, deadline).await {
                break;
            }
        }
        tokio::select! {
            Some(msg) = outbox.recv() => {
                if !send_by(socket, Message::Text(msg.into()), deadline).await {
                    break;
                }
            }
            joined = requests.join_next() => {
                if joined.is_none() {
                    while let Ok(msg) = outbox.try_recv() {
                        if !send_by(socket, Message::Text(msg.into()), deadline).await {
                            break;
                        }
                    }
                    break;
                }
            }
            _ = tokio::time::sleep_until(deadline) => break,
        }
    }
    let close = Message::Close(Some(CloseFrame {
        code: axum::extract::ws::close_code::AWAY,
        reason: "Redline stopped serving this workspace".into(),
    }));
    send_by(socket, close, deadline).await;
}

/// Sends one frame of the final flush, which ends at `deadline` whatever the peer does.
async fn send_by(socket: &mut WebSocket, msg: Message, deadline: Instant) -> bool {
    matches!(
        tokio::time::timeout_at(deadline, socket.send(msg)).await,
        Ok(Ok(()))
    )
}
