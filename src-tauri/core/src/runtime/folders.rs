//! The folders CLIs run in, for a CLI that connects by itself only from a folder a discovery file
//! lists exactly (Copilot CLI): each session started in a workspace's subfolder gets a file of
//! its own, written while the session lives.

use crate::clients::{self, Cli};
use crate::platform::dirs::Dirs;
use crate::platform::process::ProcessTable;
use std::collections::{BTreeSet, HashMap};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// How often the session folders are looked at: Copilot CLI connects within a second of a
/// matching lock appearing, so a new session is connected within about two.
pub const POLL: Duration = Duration::from_millis(500);
/// More session folders than this are not looked at (a home with years of sessions).
const MAX_SESSIONS: usize = 10_000;
/// A session folder this young that held no complete record is read again.
const UNSETTLED: Duration = Duration::from_secs(30);
/// A `workspace.yaml` is a few lines; beyond this it is not read.
const MAX_YAML: u64 = 64 * 1024;

/// One session folder as last seen: its modification time and what it held.
struct Entry {
    mtime: Option<SystemTime>,
    live: Option<(u32, PathBuf)>,
}

/// The session folders of every CLI that records them, remembered between scans so that only
/// changed folders are read again.
#[derive(Default)]
pub struct Sessions {
    seen: HashMap<PathBuf, Entry>,
}

impl Sessions {
    /// The folders (real paths) of the running sessions, read off the CLIs' session records.
    pub fn scan(&mut self, dirs: &Dirs, procs: &dyn ProcessTable) -> BTreeSet<PathBuf> {
        let mut present = BTreeSet::new();
        for cli in clients::ALL.iter().filter(|c| c.sessions.is_some()) {
            for dir in entries(&sessions_dir(dirs, cli))
                .into_iter()
                .take(MAX_SESSIONS)
            {
                let mtime = std::fs::metadata(&dir).and_then(|m| m.modified()).ok();
                let entry = self.seen.entry(dir.clone()).or_insert(Entry {
                    mtime: None,
                    live: None,
                });
                // A record read while still being written is read again for a while.
                let young = mtime
                    .and_then(|t| t.elapsed().ok())
                    .is_none_or(|age| age < UNSETTLED);
                if entry.mtime != mtime || (entry.live.is_none() && young) {
                    entry.mtime = mtime;
                    entry.live = read_session(&dir);
                }
                present.insert(dir);
            }
        }
        self.seen.retain(|dir, _| present.contains(dir));
        self.seen
            .values()
            .filter_map(|e| e.live.as_ref())
            .filter(|(pid, _)| procs.is_alive(*pid))
            .map(|(_, cwd)| cwd.clone())
            .collect()
    }
}

fn sessions_dir(dirs: &Dirs, cli: &Cli) -> PathBuf {
    cli.sessions.map(|l| dirs.locate(&l)).unwrap_or_default()
}

fn entries(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| Some(e.ok()?.path())).collect())
        .unwrap_or_default()
}

/// The live process and folder of one session: `inuse.<PID>.lock` and `cwd:` in
/// `workspace.yaml`.
fn read_session(dir: &Path) -> Option<(u32, PathBuf)> {
    let pid = entries(dir).iter().find_map(|p| {
        let name = p.file_name()?.to_str()?;
        name.strip_prefix("inuse.")?
            .strip_suffix(".lock")?
            .parse()
            .ok()
    })?;
    let file = dir.join("workspace.yaml");
    // Only a regular file: opening a FIFO would wait for a writer for ever.
    if !std::fs::symlink_metadata(&file).ok()?.is_file() {
        return None;
    }
    let mut yaml = String::new();
    std::fs::File::open(&file)
        .ok()?
        .take(MAX_YAML)
        .read_to_string(&mut yaml)
        .ok()?;
    Some((pid, cwd(&yaml)?))
}

/// The `cwd:` of a `workspace.yaml`, unquoted.
fn cwd(yaml: &str) -> Option<PathBuf> {
    let value = yaml.lines().find_map(|l| l.strip_prefix("cwd:"))?.trim();
    let unquoted = match value.as_bytes().first() {
        Some(b'"') => unescape(value.strip_prefix('"')?.strip_suffix('"')?),
        Some(b'\'') => value
            .strip_prefix('\'')?
            .strip_suffix('\'')?
            .replace("''", "'"),
        _ => value.to_owned(),
    };
    let path = PathBuf::from(unquoted);
    path.is_absolute().then_some(path)
}

/// A YAML double-quoted scalar's `\\` and `\"` (a Windows path has the first).
fn unescape(quoted: &str) -> String {
    let mut out = String::with_capacity(quoted.len());
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match (c, chars.clone().next()) {
            ('\\', Some(next @ ('\\' | '"'))) => {
                out.push(next);
                chars.next();
            }
            _ => out.push(c),
        }
    }
    out
}

/// The folders among `running` that lie strictly inside one of `roots` (a root itself is in the
/// workspace's own file already).
pub fn inside(running: &BTreeSet<PathBuf>, roots: &[PathBuf]) -> BTreeSet<PathBuf> {
    running
        .iter()
        .filter(|f| roots.iter().any(|r| f.starts_with(r) && *f != r))
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Alive(Vec<u32>);
    impl ProcessTable for Alive {
        fn is_alive(&self, pid: u32) -> bool {
            self.0.contains(&pid)
        }
    }

    fn session(dirs: &Dirs, id: &str, pid: u32, yaml: &str) -> PathBuf {
        let dir = sessions_dir(dirs, &clients::COPILOT).join(id);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("workspace.yaml"), yaml).unwrap();
        std::fs::write(dir.join(format!("inuse.{pid}.lock")), "").unwrap();
        dir
    }

    #[test]
    fn live_sessions_folders_only_and_quoted_paths_unquoted() {
        let tmp = tempfile::tempdir().unwrap();
        let dirs = Dirs::under(tmp.path());
        // Absolute on this OS (`C:\…` under Windows), as copilot writes its cwd there.
        let app = tmp.path().join("src").join("app");
        let at = |rel: &str| app.join(rel).to_string_lossy().into_owned();
        let server = at("server");
        let quoted = at("it's \"q\"");
        session(
            &dirs,
            "a",
            10,
            &format!("id: a\ncwd: {server}\ncreated_at: x\n"),
        );
        let escaped = quoted.replace('\\', "\\\\").replace('"', "\\\"");
        session(&dirs, "b", 11, &format!("id: b\ncwd: \"{escaped}\"\n"));
        session(&dirs, "c", 12, &format!("cwd: {}\n", at("dead")));
        session(&dirs, "d", 13, "cwd: relative/path\n");
        let closed = sessions_dir(&dirs, &clients::COPILOT).join("e");
        std::fs::create_dir_all(&closed).unwrap();
        std::fs::write(
            closed.join("workspace.yaml"),
            format!("cwd: {}\n", at("closed")),
        )
        .unwrap();
        let mut s = Sessions::default();
        let live = s.scan(&dirs, &Alive(vec![10, 11, 13]));
        let want: BTreeSet<PathBuf> = [&server, &quoted].iter().map(PathBuf::from).collect();
        assert_eq!(live, want);
        // The process ends: its folder goes, whatever the record says.
        assert_eq!(s.scan(&dirs, &Alive(vec![11])).len(), 1);
        let roots = [app.clone()];
        let running: BTreeSet<PathBuf> = [
            app.clone(),
            app.join("x"),
            tmp.path().join("src").join("apple"),
            tmp.path().join("other"),
        ]
        .into_iter()
        .collect();
        assert_eq!(inside(&running, &roots), BTreeSet::from([app.join("x")]));
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_for_a_record_is_skipped_not_waited_on() {
        let tmp = tempfile::tempdir().unwrap();
        let dirs = Dirs::under(tmp.path());
        let dir = session(&dirs, "f", std::process::id(), "");
        let yaml = dir.join("workspace.yaml");
        std::fs::remove_file(&yaml).unwrap();
        let c = std::ffi::CString::new(yaml.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let found = Sessions::default().scan(&dirs, &Alive(vec![std::process::id()]));
            let _ = tx.send(found);
        });
        let found = rx
            .recv_timeout(Duration::from_secs(10))
            .expect("the scan returns");
        assert!(found.is_empty());
    }
}
