//! The HTTP client against a real loopback server answering in small pieces.

use super::Conn;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// Serves canned responses, one per request received, written in small pieces.
async fn serve(replies: Vec<&'static [u8]>) -> std::net::SocketAddr {
    let l = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = l.local_addr().unwrap();
    tokio::spawn(async move {
        let mut replies = replies.into_iter();
        while let Ok((mut s, _)) = l.accept().await {
            let mut buf = vec![0u8; 4096];
            while let Ok(n) = s.read(&mut buf).await {
                if n == 0 {
                    break;
                }
                let Some(r) = replies.next() else { return };
                for piece in r.chunks(7) {
                    s.write_all(piece).await.unwrap();
                    s.flush().await.unwrap();
                    tokio::task::yield_now().await;
                }
                if r.windows(17)
                    .any(|w| w.eq_ignore_ascii_case(b"connection: close"))
                {
                    break;
                }
            }
        }
    });
    addr
}

#[tokio::test]
async fn chunked_length_and_close() {
    let addr = serve(vec![
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: text/event-stream\r\n\r\n5;x=y\r\nhello\r\n6\r\n world\r\n0\r\n\r\n",
        b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 202 Accepted\r\nContent-Length: 3\r\n\r\nabc",
        b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nuntil close",
        b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n",
    ])
    .await;
    let mut c = Conn::new(addr);
    let r = c
        .request("POST", "/mcp", &[("host", "x")], b"{}")
        .await
        .unwrap();
    assert_eq!((r.status, r.body.as_slice()), (200, &b"hello world"[..]));
    assert_eq!(r.header("content-type"), Some("text/event-stream"));
    let r = c.request("POST", "/mcp", &[], b"{}").await.unwrap();
    assert_eq!((r.status, r.body.as_slice()), (202, &b"abc"[..]));
    let r = c.request("GET", "/mcp", &[], b"").await.unwrap();
    assert_eq!((r.status, r.body.as_slice()), (200, &b"until close"[..]));
    assert_eq!(c.reconnects, 0);
    let r = c.request("DELETE", "/mcp", &[], b"").await.unwrap();
    assert_eq!((r.status, r.body.len()), (404, 0));
    assert_eq!(c.reconnects, 1);
}

#[tokio::test]
async fn retries_once_when_an_idle_connection_was_closed() {
    let l = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = l.local_addr().unwrap();
    tokio::spawn(async move {
        // First connection: answer one request, then close it while idle.
        let (mut s, _) = l.accept().await.unwrap();
        let mut buf = vec![0u8; 4096];
        let _ = s.read(&mut buf).await.unwrap();
        s.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 1\r\n\r\na")
            .await
            .unwrap();
        drop(s);
        // Second connection: answer the retried request.
        let (mut s, _) = l.accept().await.unwrap();
        let _ = s.read(&mut buf).await.unwrap();
        s.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 1\r\n\r\nb")
            .await
            .unwrap();
        let _ = s.read(&mut buf).await;
    });
    let mut c = Conn::new(addr);
    let r = c.request("POST", "/mcp", &[], b"{}").await.unwrap();
    assert_eq!(r.body, b"a");
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    let r = c.request("POST", "/mcp", &[], b"{}").await.unwrap();
    assert_eq!(r.body, b"b");
    assert_eq!(c.reconnects, 1);
}
