//! A minimal HTTP/1.1 client over one tokio `TcpStream`: keep-alive, requests with a
//! Content-Length body, responses with Content-Length, chunked or read-to-close bodies.
//! Just enough for a loopback MCP Streamable HTTP benchmark; no TLS, no redirects.

use anyhow::{anyhow, bail, Context, Result};
use std::net::SocketAddr;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Largest header block and body accepted (a guard against a runaway server).
const MAX_HEAD: usize = 64 * 1024;
const MAX_BODY: usize = 64 * 1024 * 1024;

pub struct Response {
    pub status: u16,
    /// Header names lower-cased, values trimmed, in order received.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The response as text, for error messages (body cut at `max` bytes).
    pub fn describe(&self, max: usize) -> String {
        let mut s = format!("HTTP {}\n", self.status);
        for (k, v) in &self.headers {
            s.push_str(&format!("{k}: {v}\n"));
        }
        s.push('\n');
        s.push_str(&clip(&self.body, max));
        s
    }
}

/// The server closed the connection before sending any byte of a response.
#[derive(Debug)]
pub struct Closed;

impl std::fmt::Display for Closed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("connection closed by server before any response")
    }
}

impl std::error::Error for Closed {}

pub fn clip(bytes: &[u8], max: usize) -> String {
    if bytes.len() <= max {
        String::from_utf8_lossy(bytes).into_owned()
    } else {
        format!(
            "{}… ({} bytes in all)",
            String::from_utf8_lossy(&bytes[..max]),
            bytes.len()
        )
    }
}

/// One keep-alive connection. Reconnects transparently if the server closed it
/// (counted in `reconnects`).
pub struct Conn {
    addr: SocketAddr,
    stream: Option<TcpStream>,
    buf: Vec<u8>,
    /// Unconsumed bytes are `buf[pos..len]`.
    pos: usize,
    len: usize,
    out: Vec<u8>,
    pub reconnects: u64,
    connected_once: bool,
}

impl Conn {
    pub fn new(addr: SocketAddr) -> Conn {
        Conn {
            addr,
            stream: None,
            buf: vec![0; 64 * 1024],
            pos: 0,
            len: 0,
            out: Vec::with_capacity(8 * 1024),
            reconnects: 0,
            connected_once: false,
        }
    }

    async fn ensure_connected(&mut self) -> Result<()> {
        if self.stream.is_none() {
            let s = TcpStream::connect(self.addr)
                .await
                .with_context(|| format!("connect {}", self.addr))?;
            s.set_nodelay(true)?;
            self.stream = Some(s);
            self.pos = 0;
            self.len = 0;
            if self.connected_once {
                self.reconnects += 1;
            }
            self.connected_once = true;
        }
        Ok(())
    }

    /// Sends one request and reads the whole response. `headers` must not contain
    /// Content-Length (added here when a body is given).
    pub async fn request(
        &mut self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Result<Response> {
        let reused = self.stream.is_some();
        match self.request_once(method, path, headers, body).await {
            // A server may close an idle keep-alive connection just as we reuse it: the
            // request then meets a closed socket before any byte of a response came back.
            // Retry once on a fresh connection, as HTTP clients do.
            Err(e) if reused && e.downcast_ref::<Closed>().is_some() => {
                self.request_once(method, path, headers, body).await
            }
            r => r,
        }
    }

    async fn request_once(
        &mut self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Result<Response> {
        self.ensure_connected().await?;
        self.out.clear();
        self.out
            .extend_from_slice(format!("{method} {path} HTTP/1.1\r\n").as_bytes());
        for (k, v) in headers {
            self.out.extend_from_slice(k.as_bytes());
            self.out.extend_from_slice(b": ");
            self.out.extend_from_slice(v.as_bytes());
            self.out.extend_from_slice(b"\r\n");
        }
        if !body.is_empty() || method == "POST" {
            self.out
                .extend_from_slice(format!("content-length: {}\r\n", body.len()).as_bytes());
        }
        self.out.extend_from_slice(b"\r\n");
        self.out.extend_from_slice(body);
        let stream = self.stream.as_mut().expect("connected");
        if let Err(e) = stream.write_all(&self.out).await {
            self.stream = None;
            return Err(anyhow::Error::new(Closed).context(format!("write request: {e}")));
        }
        match self.read_response(method == "HEAD").await {
            Ok((resp, keep)) => {
                if !keep {
                    self.stream = None;
                }
                Ok(resp)
            }
            Err(e) => {
                self.stream = None;
                Err(e)
            }
        }
    }

    /// Reads more bytes into the buffer; errors on EOF.
    async fn fill(&mut self) -> Result<()> {
        if self.pos == self.len {
            self.pos = 0;
            self.len = 0;
        } else if self.len == self.buf.len() {
            if self.pos > 0 {
                self.buf.copy_within(self.pos..self.len, 0);
                self.len -= self.pos;
                self.pos = 0;
            } else {
                let n = self.buf.len();
                self.buf.resize(n * 2, 0);
            }
        }
        let stream = self.stream.as_mut().expect("connected");
        let n = stream.read(&mut self.buf[self.len..]).await?;
        if n == 0 {
            bail!("connection closed by server");
        }
        self.len += n;
        Ok(())
    }

    /// Returns the next CRLF-terminated line (without CRLF), consuming it.
    async fn line(&mut self, limit: usize) -> Result<String> {
        let mut scanned = self.pos;
        loop {
            if let Some(i) = self.buf[scanned..self.len].iter().position(|&b| b == b'\n') {
                let end = scanned + i;
                let mut line = &self.buf[self.pos..end];
                if line.last() == Some(&b'\r') {
                    line = &line[..line.len() - 1];
                }
                let s = String::from_utf8_lossy(line).into_owned();
                self.pos = end + 1;
                return Ok(s);
            }
            if self.len - self.pos > limit {
                bail!("line longer than {limit} bytes");
            }
            scanned = self.len;
            let before = self.pos;
            self.fill().await?;
            // fill() may have moved the data to the buffer start.
            scanned = scanned - before + self.pos;
        }
    }

    async fn take(&mut self, n: usize, into: &mut Vec<u8>) -> Result<()> {
        let mut left = n;
        while left > 0 {
            if self.pos == self.len {
                self.fill().await?;
            }
            let k = left.min(self.len - self.pos);
            into.extend_from_slice(&self.buf[self.pos..self.pos + k]);
            self.pos += k;
            left -= k;
        }
        Ok(())
    }

    /// Returns the response and whether the connection may be reused.
    async fn read_response(&mut self, head: bool) -> Result<(Response, bool)> {
        if self.pos == self.len {
            self.fill_first().await?;
        }
        loop {
            let (version, status, headers) = self.read_head().await?;
            if (100..200).contains(&status) && status != 101 {
                continue; // 100 Continue and friends: the real response follows
            }
            let mut resp = Response {
                status,
                headers,
                body: Vec::new(),
            };
            let mut keep = keep_alive(&version, &resp);
            let chunked = resp
                .header("transfer-encoding")
                .map(|v| v.to_ascii_lowercase().contains("chunked"))
                .unwrap_or(false);
            if head || status == 204 || status == 304 {
                // no body
            } else if chunked {
                resp.body = self.read_chunked().await?;
            } else if let Some(cl) = resp.header("content-length") {
                let n: usize = cl
                    .parse()
                    .map_err(|_| anyhow!("bad content-length {cl:?}"))?;
                if n > MAX_BODY {
                    bail!("response body larger than {MAX_BODY} bytes");
                }
                let mut body = Vec::with_capacity(n);
                self.take(n, &mut body).await?;
                resp.body = body;
            } else {
                // Body delimited by connection close.
                keep = false;
                resp.body = self.read_to_close().await?;
            }
            return Ok((resp, keep));
        }
    }

    /// The first bytes of a response. Nothing of the response yet: an EOF or reset here means
    /// the server had closed the connection before reading the request.
    async fn fill_first(&mut self) -> Result<()> {
        let Err(e) = self.fill().await else {
            return Ok(());
        };
        let closed = e.to_string().contains("closed by server")
            || e.downcast_ref::<std::io::Error>().is_some_and(|io| {
                matches!(
                    io.kind(),
                    std::io::ErrorKind::ConnectionReset | std::io::ErrorKind::BrokenPipe
                )
            });
        if closed {
            return Err(anyhow::Error::new(Closed).context(e.to_string()));
        }
        Err(e)
    }

    /// The status line and the headers (names lowercased), within `MAX_HEAD` bytes.
    async fn read_head(&mut self) -> Result<(String, u16, Vec<(String, String)>)> {
        let status_line = self.line(MAX_HEAD).await.context("read status line")?;
        let mut parts = status_line.splitn(3, ' ');
        let version = parts.next().unwrap_or("").to_owned();
        let status: u16 = parts
            .next()
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| anyhow!("bad status line {status_line:?}"))?;
        if !version.starts_with("HTTP/1.") {
            bail!("bad status line {status_line:?}");
        }
        let mut headers = Vec::new();
        let mut head_bytes = 0;
        loop {
            let l = self.line(MAX_HEAD).await.context("read header")?;
            if l.is_empty() {
                break;
            }
            head_bytes += l.len();
            if head_bytes > MAX_HEAD {
                bail!("response head larger than {MAX_HEAD} bytes");
            }
            let (k, v) = l
                .split_once(':')
                .ok_or_else(|| anyhow!("bad header line {l:?}"))?;
            headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
        Ok((version, status, headers))
    }

    /// A chunked body, within `MAX_BODY` bytes; its trailers are read and dropped.
    async fn read_chunked(&mut self) -> Result<Vec<u8>> {
        let mut body = Vec::new();
        loop {
            let size_line = self.line(1024).await.context("read chunk size")?;
            let hex = size_line.split(';').next().unwrap_or("").trim();
            let size = usize::from_str_radix(hex, 16)
                .map_err(|_| anyhow!("bad chunk size line {size_line:?}"))?;
            if size == 0 {
                // trailers, then the empty line
                while !self.line(MAX_HEAD).await?.is_empty() {}
                return Ok(body);
            }
            if body.len() + size > MAX_BODY {
                bail!("response body larger than {MAX_BODY} bytes");
            }
            self.take(size, &mut body).await?;
            let crlf = self.line(2).await?;
            if !crlf.is_empty() {
                bail!("chunk not followed by CRLF");
            }
        }
    }

    /// A body that ends when the server closes the connection.
    async fn read_to_close(&mut self) -> Result<Vec<u8>> {
        let mut body = self.buf[self.pos..self.len].to_vec();
        self.pos = self.len;
        let stream = self.stream.as_mut().expect("connected");
        stream.read_to_end(&mut body).await?;
        Ok(body)
    }
}

/// Whether the connection may carry another request: HTTP/1.1's default, unless the response's
/// `Connection` header says otherwise.
fn keep_alive(version: &str, resp: &Response) -> bool {
    let mut keep = version == "HTTP/1.1";
    if let Some(c) = resp.header("connection") {
        let c = c.to_ascii_lowercase();
        if c.contains("close") {
            keep = false;
        } else if c.contains("keep-alive") {
            keep = true;
        }
    }
    keep
}

#[cfg(test)]
mod tests;
