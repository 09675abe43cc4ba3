//! The loopback floor: the same client against an in-process HTTP server (on its own thread)
//! that answers every request at once with a canned JSON body. What no server can beat on
//! this machine with this client.

use crate::http::Conn;
use anyhow::{bail, Result};
use std::time::Instant;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

const ANSWER: &[u8] = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 48\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[]}}";

async fn serve_conn(mut s: tokio::net::TcpStream) {
    let _ = s.set_nodelay(true);
    let mut buf = vec![0u8; 64 * 1024];
    let mut len = 0;
    loop {
        // Complete request in buf[..len]?
        if let Some(h) = buf[..len].windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..h]).to_ascii_lowercase();
            let cl: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(0);
            let total = h + 4 + cl;
            if len >= total {
                if s.write_all(ANSWER).await.is_err() {
                    return;
                }
                buf.copy_within(total..len, 0);
                len -= total;
                continue;
            }
        }
        if len == buf.len() {
            buf.resize(len * 2, 0);
        }
        match s.read(&mut buf[len..]).await {
            Ok(0) | Err(_) => return,
            Ok(n) => len += n,
        }
    }
}

/// Starts the canned server on a thread of its own; returns its address.
pub fn start() -> Result<std::net::SocketAddr> {
    let std_listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    std_listener.set_nonblocking(true)?;
    let addr = std_listener.local_addr()?;
    std::thread::Builder::new()
        .name("floor-server".into())
        .spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime");
            rt.block_on(async move {
                let l = TcpListener::from_std(std_listener).expect("listener");
                while let Ok((s, _)) = l.accept().await {
                    tokio::spawn(serve_conn(s));
                }
            });
        })?;
    Ok(addr)
}

/// `calls` sequential POSTs (after `warmup`) with `body`; per-call round trips in ns.
pub async fn latency(
    addr: std::net::SocketAddr,
    body: &[u8],
    warmup: usize,
    calls: usize,
) -> Result<Vec<u64>> {
    let mut c = Conn::new(addr);
    let host = format!("127.0.0.1:{}", addr.port());
    let headers = [
        ("host", host.as_str()),
        ("content-type", "application/json"),
        ("accept", "application/json, text/event-stream"),
    ];
    let mut out = Vec::with_capacity(calls);
    for i in 0..warmup + calls {
        let start = Instant::now();
        let r = c.request("POST", "/mcp", &headers, body).await?;
        let v: serde_json::Value = serde_json::from_slice(&r.body)?;
        if r.status != 200 || v.get("result").is_none() {
            bail!("floor server answered {}", r.status);
        }
        if i >= warmup {
            out.push(start.elapsed().as_nanos() as u64);
        }
    }
    Ok(out)
}
