//! One CLI of the load: its session and stream, opening and deciding its reviews in a loop and
//! checking each decision on the stream.

use super::events::Events;
use crate::mcp::{check_open_diff_result, Endpoint, Session};
use anyhow::{anyhow, bail, Result};
use serde_json::json;
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Default)]
pub struct Tally {
    pub latencies_ns: Vec<u64>,
    pub accepted: u64,
    pub rejected: u64,
}

async fn decide_once(
    s: &mut Session,
    ev: &mut Events,
    file: &str,
    content: &str,
    accept: bool,
    timeout: Duration,
) -> Result<()> {
    let args = json!({"filePath": file, "newContent": content}).to_string();
    let (id, body) = s.next_call("openDiff", &args);
    check_open_diff_result(&s.request_raw(id, &body).await?)?;
    let tool = if accept { "acceptDiff" } else { "rejectDiff" };
    let (id, body) = s.next_call(tool, &json!({"filePath": file}).to_string());
    let r = s.request_raw(id, &body).await?;
    if r["isError"] == true {
        bail!("{tool} failed: {r}");
    }
    let m = tokio::time::timeout(timeout, ev.next_decision())
        .await
        .map_err(|_| anyhow!("LOST: no decision for {file} within {timeout:?}"))??;
    let ok = if accept {
        m["method"] == "ide/diffAccepted"
            && m["params"]["filePath"] == file
            && m["params"]["content"] == content
    } else {
        m["method"] == "ide/diffRejected" && m["params"]["filePath"] == file
    };
    if !ok {
        bail!("LOST OR DUPLICATED: expected the {tool} of {content:?} for {file}, got {m}");
    }
    Ok(())
}

pub async fn client(
    ep: Endpoint,
    ws: PathBuf,
    n: usize,
    until: Instant,
    timeout: Duration,
) -> Result<Tally> {
    let mut s = Session::new(&ep, timeout);
    s.initialize().await?;
    let sid = s.id().ok_or_else(|| anyhow!("no session id"))?.to_owned();
    let mut ev = Events::open(&ep, &sid).await?;
    let path = ws.join(format!("load-{n}.txt"));
    std::fs::write(&path, "the original\n")?;
    let file = path.to_string_lossy().into_owned();
    let mut t = Tally::default();
    let mut i = 0u64;
    while Instant::now() < until {
        // Accept and reject alternate, each content unique: a duplicated or stray decision
        // can never pass for the next one.
        let accept = i.is_multiple_of(2);
        let content = format!("client {n}, proposal {i}\n");
        let t0 = Instant::now();
        decide_once(&mut s, &mut ev, &file, &content, accept, timeout).await?;
        t.latencies_ns.push(t0.elapsed().as_nanos() as u64);
        if accept {
            t.accepted += 1;
        } else {
            t.rejected += 1;
        }
        i += 1;
    }
    // A sentinel: a duplicate of the last decision would arrive before it.
    let sentinel = ws.join(format!("sentinel-{n}.txt"));
    let sentinel = sentinel.to_string_lossy();
    decide_once(&mut s, &mut ev, &sentinel, "sentinel\n", true, timeout).await?;
    s.delete().await?;
    Ok(t)
}
