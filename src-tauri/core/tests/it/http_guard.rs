//! Every guard on a real socket: token, Host, Origin, body size, and refusals that leak nothing.

use crate::common::{raw, raw_post as request, start, INIT};

#[tokio::test]
async fn the_right_token_and_host_get_through() {
    let f = start().await;
    let host = format!("host: 127.0.0.1:{}", f.port);
    let auth = format!("authorization: Bearer {}", f.token);
    let (status, body) = raw(f.port, &request(&[host, auth.clone()], INIT)).await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains(r#""serverInfo""#));
    // localhost is as good as 127.0.0.1, the scheme word in any case.
    let host = format!("host: localhost:{}", f.port);
    let auth = format!("authorization: bearer {}", f.token);
    let (status, _) = raw(f.port, &request(&[host, auth], INIT)).await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn a_missing_wrong_or_partial_token_is_401_and_says_nothing_more() {
    let f = start().await;
    let host = format!("host: 127.0.0.1:{}", f.port);
    let wrong = "0".repeat(64);
    let prefix = &f.token[..63];
    let longer = format!("{}0", f.token);
    for auth in [
        None,
        Some(format!("authorization: Bearer {wrong}")),
        Some(format!("authorization: Bearer {prefix}")),
        Some(format!("authorization: Bearer {longer}")),
        Some(format!("authorization: {}", f.token)),
        Some("authorization: Bearer ".to_owned()),
    ] {
        let mut headers = vec![host.clone()];
        headers.extend(auth.clone());
        let (status, body) = raw(f.port, &request(&headers, INIT)).await;
        assert_eq!(status, 401, "{auth:?}");
        assert_eq!(
            body.trim_end_matches("\r\n0\r\n\r\n").trim(),
            "Unauthorized"
        );
    }
}

#[tokio::test]
async fn a_wrong_host_or_any_origin_is_403_even_with_the_token() {
    let f = start().await;
    let auth = format!("authorization: Bearer {}", f.token);
    let other_port = f.port.wrapping_add(1);
    for host in [
        format!("host: evil.example:{}", f.port),
        format!("host: 127.0.0.1:{other_port}"),
        "host: 127.0.0.1".to_owned(),
        format!("host: 0.0.0.0:{}", f.port),
    ] {
        let (status, body) = raw(f.port, &request(&[host.clone(), auth.clone()], INIT)).await;
        assert_eq!(status, 403, "{host}");
        assert!(body.contains("Forbidden"));
    }
    let (status, _) = raw(f.port, &request(std::slice::from_ref(&auth), INIT)).await;
    assert_eq!(status, 403, "no Host at all");
    let host = format!("host: 127.0.0.1:{}", f.port);
    for origin in [
        "origin: http://evil.example",
        "origin: null",
        "origin: http://127.0.0.1",
    ] {
        let headers = [host.clone(), auth.clone(), origin.to_owned()];
        let (status, _) = raw(f.port, &request(&headers, INIT)).await;
        assert_eq!(status, 403, "{origin}");
    }
}

#[tokio::test]
async fn a_body_over_the_limit_is_413() {
    let f = start().await;
    let host = format!("host: 127.0.0.1:{}", f.port);
    let auth = format!("authorization: Bearer {}", f.token);
    let req = format!(
        "POST /mcp HTTP/1.1\r\nconnection: close\r\n{host}\r\n{auth}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
        redline_core::protocols::mcp_http::guard::MAX_BODY_BYTES + 1
    );
    let (status, body) = raw(f.port, &req).await;
    assert_eq!(status, 413);
    assert!(body.contains("Payload Too Large"));
}

#[tokio::test]
async fn the_guard_covers_events_and_unknown_paths() {
    let f = start().await;
    let host = format!("host: 127.0.0.1:{}", f.port);
    let get = |path: &str, extra: &str| {
        format!("GET {path} HTTP/1.1\r\nconnection: close\r\n{host}\r\n{extra}\r\n")
    };
    assert_eq!(raw(f.port, &get("/events", "")).await.0, 401);
    assert_eq!(raw(f.port, &get("/nope", "")).await.0, 401);
    let auth = format!("authorization: Bearer {}\r\n", f.token);
    assert_eq!(raw(f.port, &get("/nope", &auth)).await.0, 404);
}
