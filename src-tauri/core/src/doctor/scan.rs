//! One CLI's view of its discovery directory: every file it would consider, why it would skip
//! one, and the file it would pick for a directory.

use super::Facts;
use crate::clients::format::Roots;
use crate::clients::{Order, Served};
use serde::Serialize;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Why the CLI would pass over a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Skip {
    Unreadable {
        error: String,
    },
    NotJson,
    OtherOwner {
        uid: u32,
    },
    /// The CLI deletes it: its process is gone.
    DeadPid {
        pid: u32,
    },
}

impl std::fmt::Display for Skip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Skip::Unreadable { error } => write!(f, "it cannot be read ({error})"),
            Skip::NotJson => f.write_str("it is not valid JSON"),
            Skip::OtherOwner { uid } => write!(f, "it is owned by another user (uid {uid})"),
            Skip::DeadPid { pid } => write!(f, "its process {pid} is not running"),
        }
    }
}

/// One file in the CLI's directory, as the CLI would see it.
#[derive(Debug, Clone)]
pub struct Seen {
    pub path: PathBuf,
    pub port: u16,
    pub pid: Option<u32>,
    pub body: Option<Value>,
    pub ours: bool,
    pub ide: Option<String>,
    pub skip: Option<Skip>,
    /// Its workspace roots, realpath'd.
    pub roots: Vec<PathBuf>,
    /// Its workspace roots contain the directory.
    pub matches: bool,
    mtime: Option<std::time::SystemTime>,
}

impl Seen {
    pub fn token(&self, cli: &Served) -> Option<&str> {
        cli.ide.discovery.format.token(self.body.as_ref()?)
    }

    /// The unix socket the file names, for a CLI that connects to one.
    pub fn socket(&self, cli: &Served) -> Option<PathBuf> {
        cli.ide
            .discovery
            .format
            .socket(self.body.as_ref()?)
            .map(PathBuf::from)
    }

    pub fn label(&self) -> String {
        self.ide.clone().unwrap_or_else(|| "another IDE".into())
    }
}

/// Every file of the CLI's directory that its name rule accepts, oldest decisions first.
pub fn read(cli: &Served, facts: &Facts) -> Vec<Seen> {
    let dir = facts.dirs.discovery(cli);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut seen = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some((name_pid, port)) = name
            .to_str()
            .and_then(|n| cli.ide.discovery.format.parse_name(n))
        else {
            continue;
        };
        seen.push(inspect(cli, facts, entry.path(), name_pid, port));
    }
    seen.sort_by(|a, b| a.path.cmp(&b.path));
    seen
}

fn inspect(cli: &Served, facts: &Facts, path: PathBuf, name_pid: Option<u32>, port: u16) -> Seen {
    let meta = std::fs::metadata(&path).ok();
    let mut s = Seen {
        path,
        port,
        pid: name_pid,
        body: None,
        ours: false,
        ide: None,
        skip: None,
        roots: Vec::new(),
        matches: false,
        mtime: meta.as_ref().and_then(|m| m.modified().ok()),
    };
    if cli.ide.doctor.owner_only {
        if let (Some(own), Some(owner)) = (facts.uid, meta.as_ref().and_then(owner)) {
            if own != owner {
                s.skip = Some(Skip::OtherOwner { uid: owner });
                return s;
            }
        }
    }
    let bytes = match std::fs::read(&s.path) {
        Ok(b) => b,
        Err(e) => {
            s.skip = Some(Skip::Unreadable {
                error: e.to_string(),
            });
            return s;
        }
    };
    let Ok(body) = serde_json::from_slice::<Value>(&bytes) else {
        s.skip = Some(Skip::NotJson);
        return s;
    };
    let format = cli.ide.discovery.format;
    s.ours = format.is_redlines(&body);
    s.ide = format.ide_of(&body);
    s.pid = format.pid_of(name_pid, &body);
    if cli.ide.doctor.skips_dead_pid {
        if let Some(pid) = s.pid {
            if !facts.procs.is_alive(pid) && s.skip.is_none() {
                s.skip = Some(Skip::DeadPid { pid });
            }
        }
    }
    s.roots = roots(format.roots(), &body);
    s.matches = s.roots.iter().any(|r| match cli.ide.doctor.order {
        Order::ExactFolder => same(r, &facts.dir, facts.case_insensitive),
        // Amp matches a lock's folder that holds the directory, or lies in it.
        Order::ExactThenOnlyHolder => {
            contains(r, &facts.dir, facts.case_insensitive)
                || contains(&facts.dir, r, facts.case_insensitive)
        }
        _ => contains(r, &facts.dir, facts.case_insensitive),
    });
    s.body = Some(body);
    s
}

#[cfg(unix)]
fn owner(m: &std::fs::Metadata) -> Option<u32> {
    Some(std::os::unix::fs::MetadataExt::uid(m))
}

#[cfg(not(unix))]
fn owner(_: &std::fs::Metadata) -> Option<u32> {
    None
}

fn roots(rule: Roots, body: &Value) -> Vec<PathBuf> {
    let delimiter = if cfg!(windows) { ';' } else { ':' };
    let raw: Vec<String> = match rule {
        Roots::Joined(field) => body
            .get(field)
            .and_then(Value::as_str)
            .map(|s| {
                s.split(delimiter)
                    .filter(|r| !r.is_empty())
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default(),
        Roots::Array(field) => body
            .get(field)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default(),
    };
    // The CLIs compare realpaths: a root that no longer exists matches nothing.
    raw.iter()
        .filter_map(|r| dunce::canonicalize(r).ok())
        .collect()
}

/// Whether `dir` is `root` or lies under it; case-insensitively where the file system is.
pub fn contains(root: &Path, dir: &Path, case_insensitive: bool) -> bool {
    if case_insensitive {
        let lower = |p: &Path| PathBuf::from(p.to_string_lossy().to_lowercase());
        lower(dir).starts_with(lower(root))
    } else {
        dir.starts_with(root)
    }
}

/// Whether `dir` is `root` itself.
pub fn same(root: &Path, dir: &Path, case_insensitive: bool) -> bool {
    contains(root, dir, case_insensitive) && contains(dir, root, case_insensitive)
}

/// The files the CLI would try for the directory, best first: the first one is its choice.
pub fn ranked<'a>(cli: &Served, facts: &Facts, seen: &'a [Seen]) -> Vec<&'a Seen> {
    let var_port: Option<u16> = cli
        .ide
        .port_var()
        .and_then(|name| facts.var(name))
        .and_then(|v| v.parse().ok());
    let mut usable: Vec<&Seen> = seen
        .iter()
        .filter(|s| s.skip.is_none())
        .filter(|s| {
            s.matches || (cli.ide.doctor.port_var_makes_eligible && Some(s.port) == var_port)
        })
        .collect();
    match cli.ide.doctor.order {
        Order::ProcessTree { pid_var } => {
            let tree: Vec<u32> = match facts.var(pid_var).and_then(|v| v.parse().ok()) {
                Some(pid) => vec![pid],
                None => facts.ancestors.clone(),
            };
            usable.sort_by_key(|s| {
                let pid = s.pid.unwrap_or(0);
                (
                    !tree.contains(&pid),
                    !facts.procs.is_alive(pid),
                    std::cmp::Reverse(pid),
                )
            });
            // Among several matches, the port variable decides; else the first in order.
            if usable.len() > 1 {
                if let Some(i) = usable.iter().position(|s| Some(s.port) == var_port) {
                    let chosen = usable.remove(i);
                    usable.insert(0, chosen);
                }
            }
        }
        // Directory order, which `read` approximates by name.
        Order::ExactFolder => {}
        // The folder equal to the directory first, then the deepest.
        Order::ExactThenOnlyHolder => usable.sort_by_key(|s| {
            let exact = s
                .roots
                .iter()
                .any(|r| same(r, &facts.dir, facts.case_insensitive));
            let depth = s.roots.iter().map(|r| r.components().count()).max();
            (!exact, std::cmp::Reverse(depth))
        }),
        Order::PortVarThenNewest => {
            usable.sort_by_key(|s| {
                (
                    Some(s.port) != var_port,
                    std::cmp::Reverse(s.mtime),
                    s.path.clone(),
                )
            });
        }
    }
    usable
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn containment_is_by_component_and_case_only_where_asked() {
        let root = Path::new("/Src/App");
        assert!(contains(root, Path::new("/Src/App/lib"), false));
        assert!(!contains(root, Path::new("/src/app/lib"), false));
        assert!(contains(root, Path::new("/src/app/lib"), true));
        assert!(!contains(root, Path::new("/Src/Apple"), true));
    }

    /// macOS and Windows file systems ignore case, and so do the CLIs there.
    #[cfg(any(windows, target_os = "macos"))]
    #[test]
    fn paths_match_without_regard_to_case_on_this_os() {
        let facts = Facts::from_os(
            PathBuf::from("."),
            None,
            crate::workspace::config::Config::default(),
        );
        assert!(facts.case_insensitive);
        let tmp = tempfile::tempdir().unwrap();
        let dir = dunce::canonicalize(tmp.path()).unwrap();
        let upper = dir.to_string_lossy().to_uppercase();
        let body = serde_json::json!({ "workspacePath": upper });
        let found = roots(Roots::Joined("workspacePath"), &body);
        assert_eq!(
            found.len(),
            1,
            "{upper} resolves on a case-insensitive disk"
        );
        assert!(contains(&found[0], &dir.join("sub"), true));
    }
}
