//! The local control channel between `redline` commands and the running instance: one JSON
//! request line, one JSON response line, over a socket no other user and no browser can reach.
//!
//! The channel itself is a Unix socket (`socket.rs`), or on Windows a named pipe (`pipe.rs`).

mod connection;
#[cfg(windows)]
mod pipe;
mod request;
#[cfg(unix)]
mod socket;
#[cfg(test)]
mod tests;

pub use crate::api::status::ContainersOn;
#[cfg(windows)]
pub use pipe::{bind, call, connect, serve, Listener};
pub use request::{decode, Request, MAX_REPLY_BYTES, MAX_REQUEST_BYTES};
#[cfg(unix)]
pub use socket::{bind, call, connect, serve, Listener};

/// Sends action `request` to the running instance and reads its reply as the action's type.
pub async fn ask<A: crate::surfaces::action::Act>(
    dirs: &crate::platform::dirs::Dirs,
    request: A,
) -> crate::error::Result<A::Reply> {
    decode::<A>(call(dirs, &Request::from(request)).await?)
}
