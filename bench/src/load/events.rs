//! A session's GET /mcp notification stream as the load's CLIs read it: chunked SSE, decoded
//! by hand because the bench's HTTP client reads whole responses.

use crate::mcp::{Endpoint, PROTOCOL};
use anyhow::{bail, Context, Result};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A session's GET /mcp stream: chunked SSE, decoded here.
pub struct Events {
    stream: TcpStream,
    raw: Vec<u8>,
    text: String,
}

impl Events {
    pub async fn open(ep: &Endpoint, session: &str) -> Result<Events> {
        let mut stream = TcpStream::connect(ep.addr).await?;
        stream.set_nodelay(true)?;
        let req = format!(
            "GET /mcp HTTP/1.1\r\nhost: 127.0.0.1:{}\r\nauthorization: Bearer {}\r\naccept: text/event-stream\r\nmcp-protocol-version: {PROTOCOL}\r\nmcp-session-id: {session}\r\n\r\n",
            ep.addr.port(),
            ep.token
        );
        stream.write_all(req.as_bytes()).await?;
        let mut ev = Events {
            stream,
            raw: Vec::new(),
            text: String::new(),
        };
        let end = loop {
            if let Some(i) = ev.raw.windows(4).position(|w| w == b"\r\n\r\n") {
                break i;
            }
            ev.fill().await?;
        };
        let head = String::from_utf8_lossy(&ev.raw[..end]).into_owned();
        if !head.starts_with("HTTP/1.1 200") || !head.to_ascii_lowercase().contains("chunked") {
            bail!("GET /mcp: {head}");
        }
        ev.raw.drain(..end + 4);
        Ok(ev)
    }

    async fn fill(&mut self) -> Result<()> {
        let mut buf = [0u8; 16 * 1024];
        let n = self.stream.read(&mut buf).await?;
        if n == 0 {
            bail!("the notification stream ended");
        }
        self.raw.extend_from_slice(&buf[..n]);
        Ok(())
    }

    /// Moves every complete chunk from `raw` to `text`.
    fn decode(&mut self) -> Result<()> {
        loop {
            let Some(eol) = self.raw.windows(2).position(|w| w == b"\r\n") else {
                return Ok(());
            };
            let size_line = std::str::from_utf8(&self.raw[..eol])?;
            let size = usize::from_str_radix(size_line.split(';').next().unwrap_or("").trim(), 16)
                .with_context(|| format!("bad chunk size {size_line:?}"))?;
            if size == 0 {
                bail!("the notification stream ended");
            }
            if self.raw.len() < eol + 2 + size + 2 {
                return Ok(());
            }
            let data = &self.raw[eol + 2..eol + 2 + size];
            self.text.push_str(std::str::from_utf8(data)?);
            self.raw.drain(..eol + 2 + size + 2);
        }
    }

    /// The next decision notification (context updates and keep-alives skipped).
    pub async fn next_decision(&mut self) -> Result<Value> {
        loop {
            self.decode()?;
            while let Some(i) = self.text.find("\n\n") {
                let block: String = self.text.drain(..i + 2).collect();
                let data: String = block
                    .lines()
                    .filter_map(|l| l.strip_prefix("data:"))
                    .map(str::trim_start)
                    .collect();
                if data.is_empty() {
                    continue;
                }
                let m: Value = serde_json::from_str(&data)?;
                if m["method"] != "ide/contextUpdate" {
                    return Ok(m);
                }
            }
            self.fill().await?;
        }
    }
}
