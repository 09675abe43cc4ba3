//! The discovery file the bench's Redline writes for Gemini CLI: where it is, and the port and
//! token in it, which are the bench's MCP endpoint.

use anyhow::{anyhow, bail, Context, Result};
use std::path::{Path, PathBuf};

/// A discovery file, and the endpoint it gives.
pub struct Found {
    pub file: PathBuf,
    pub port: u16,
    pub token: String,
}

/// The one discovery file Redline (process `pid`) wrote under its temp dir `tmp`, checked:
/// JSON with a port and a token, the port the same as in its name.
pub fn read(tmp: &Path, pid: u32) -> Result<Found> {
    let prefix = format!("gemini-ide-server-{pid}-");
    let file = find(&tmp.join("gemini").join("ide"), &prefix)?;
    let text = std::fs::read_to_string(&file)?;
    let v: serde_json::Value = serde_json::from_str(&text)
        .with_context(|| format!("discovery file {} is not JSON: {text}", file.display()))?;
    let port = v
        .get("port")
        .and_then(|p| p.as_u64())
        .ok_or_else(|| anyhow!("discovery file has no port: {text}"))?;
    let token = v
        .get("authToken")
        .and_then(|p| p.as_str())
        .ok_or_else(|| anyhow!("discovery file has no authToken: {text}"))?;
    let name_port = file.file_name().and_then(|n| n.to_str()).and_then(|n| {
        n.strip_prefix(&prefix)?
            .strip_suffix(".json")?
            .parse::<u64>()
            .ok()
    });
    if name_port != Some(port) {
        bail!(
            "discovery file {} names another port than its content ({port})",
            file.display()
        );
    }
    Ok(Found {
        port: port as u16,
        token: token.to_string(),
        file,
    })
}

/// The only file in `dir` named `PREFIX<PORT>.json`.
fn find(dir: &Path, prefix: &str) -> Result<PathBuf> {
    let mut found = Vec::new();
    for e in std::fs::read_dir(dir).with_context(|| format!("read {}", dir.display()))? {
        let name = e?.file_name().to_string_lossy().into_owned();
        if name.starts_with(prefix) && name.ends_with(".json") {
            found.push(dir.join(name));
        }
    }
    match found.as_slice() {
        [one] => Ok(one.clone()),
        [] => bail!(
            "redline printed `ready` but wrote no {}/{prefix}<PORT>.json",
            dir.display()
        ),
        _ => bail!("several discovery files for one workspace: {found:?}"),
    }
}
