//! A bounded, seeded fuzz run against a live server: random and mutated JSON-RPC, with a
//! well-formed request after every few, which must still be answered. No panic, no hang, no 5xx.

use crate::common::{start, Fixture, WAIT};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Fixed, so a failure reproduces; the count keeps the run to a few seconds.
const SEED: u64 = 0x5eed_2026_0008;
const COUNT: usize = 600;
const CHECK_EVERY: usize = 20;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

fn templates(f: &Fixture) -> Vec<Value> {
    let a = f.file("a.txt");
    vec![
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
               "params": {"name": "openDiff", "arguments": {"filePath": a, "newContent": "x\n"}}}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
               "params": {"name": "closeDiff", "arguments": {"filePath": a}}}),
        json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
               "params": {"name": "rejectDiff", "arguments": {"filePath": a}}}),
        json!({"jsonrpc": "2.0", "id": 5, "method": "ping"}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 6, "method": "initialize", "params": {
               "protocolVersion": "2025-06-18", "capabilities": {},
               "clientInfo": {"name": "fuzz", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "id": 7, "result": {}}),
    ]
}

fn random_value(rng: &mut Rng, depth: u32) -> Value {
    match rng.below(if depth > 2 { 5 } else { 7 }) {
        0 => Value::Null,
        1 => json!(rng.below(2) == 0),
        2 => json!(rng.next() as i64),
        3 => json!(-1.5e300),
        4 => {
            let pool = [
                "",
                "tools/call",
                "openDiff",
                "/",
                "../../etc/passwd",
                "2.0",
                "\u{0}",
                "é",
            ];
            json!(rng.pick(&pool))
        }
        5 => Value::Array(
            (0..rng.below(3))
                .map(|_| random_value(rng, depth + 1))
                .collect(),
        ),
        _ => {
            let keys = [
                "jsonrpc",
                "id",
                "method",
                "params",
                "name",
                "arguments",
                "filePath",
                "newContent",
                "_meta",
                "result",
                "error",
            ];
            let mut o = serde_json::Map::new();
            for _ in 0..rng.below(4) {
                o.insert((*rng.pick(&keys)).to_owned(), random_value(rng, depth + 1));
            }
            Value::Object(o)
        }
    }
}

/// Replaces one random node of `v` (at any depth) with a random value.
fn mutate_tree(rng: &mut Rng, v: &mut Value) {
    let mut node = v;
    loop {
        let children: usize = match node {
            Value::Object(o) => o.len(),
            Value::Array(a) => a.len(),
            _ => 0,
        };
        if children == 0 || rng.below(3) == 0 {
            *node = random_value(rng, 0);
            return;
        }
        let i = rng.below(children);
        node = match node {
            Value::Object(o) => o.values_mut().nth(i).unwrap(),
            Value::Array(a) => &mut a[i],
            _ => unreachable!(),
        };
    }
}

fn body(rng: &mut Rng, templates: &[Value]) -> Vec<u8> {
    let mut t = rng.pick(templates).clone();
    match rng.below(4) {
        0 => (0..rng.below(64)).map(|_| rng.next() as u8).collect(),
        1 => {
            let mut b = serde_json::to_vec(&t).unwrap();
            for _ in 0..1 + rng.below(4) {
                if b.is_empty() {
                    break;
                }
                let i = rng.below(b.len());
                match rng.below(3) {
                    0 => b[i] = rng.next() as u8,
                    1 => {
                        b.remove(i);
                    }
                    _ => b.insert(i, *rng.pick(b"{}[]\",:0\\")),
                }
            }
            b
        }
        _ => {
            for _ in 0..1 + rng.below(2) {
                mutate_tree(rng, &mut t);
            }
            serde_json::to_vec(&t).unwrap()
        }
    }
}

/// One POST on its own connection; the status, or a failure if the server hangs.
async fn send(f: &Fixture, session: &str, body: &[u8]) -> u16 {
    let mut s = tokio::net::TcpStream::connect(("127.0.0.1", f.port))
        .await
        .unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:{}\r\nauthorization: Bearer {}\r\nconnection: close\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\nmcp-protocol-version: 2025-06-18\r\nmcp-session-id: {session}\r\ncontent-length: {}\r\n\r\n",
        f.port,
        f.token,
        body.len()
    );
    s.write_all(head.as_bytes()).await.unwrap();
    s.write_all(body).await.unwrap();
    let mut out = Vec::new();
    tokio::time::timeout(WAIT, s.read_to_end(&mut out))
        .await
        .unwrap_or_else(|_| panic!("no answer to {}", String::from_utf8_lossy(body)))
        .unwrap();
    let text = String::from_utf8_lossy(&out);
    text.split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_and_mutated_json_rpc_never_panics_hangs_or_breaks_the_session() {
    let panics = Arc::new(AtomicUsize::new(0));
    let seen = panics.clone();
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        seen.fetch_add(1, Ordering::SeqCst);
        previous(info);
    }));
    let f = start().await;
    let mut c = f.session().await;
    let session = c.session.clone().unwrap();
    let templates = templates(&f);
    let mut rng = Rng(SEED);
    let mut statuses = std::collections::BTreeMap::new();
    for i in 0..COUNT {
        let b = body(&mut rng, &templates);
        let status = send(&f, &session, &b).await;
        *statuses.entry(status).or_insert(0) += 1;
        assert!(
            matches!(status, 200 | 202 | 400 | 404 | 406 | 413 | 429),
            "status {status} for {}",
            String::from_utf8_lossy(&b)
        );
        if i % CHECK_EVERY == CHECK_EVERY - 1 {
            let r = c.rpc("tools/list", json!({})).await;
            assert_eq!(
                r["result"]["tools"].as_array().map(Vec::len),
                Some(4),
                "{r}"
            );
        }
    }
    assert_eq!(panics.load(Ordering::SeqCst), 0, "a handler panicked");
    // Both faults and successes were exercised.
    assert!(
        statuses.get(&400).copied().unwrap_or(0) > 50,
        "{statuses:?}"
    );
    let count = |s: u16| statuses.get(&s).copied().unwrap_or(0);
    assert!(count(200) + count(202) > 20, "{statuses:?}");
}
