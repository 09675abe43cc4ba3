//! The folders the CLIs' sessions run in, read off the sessions' records (Copilot CLI's
//! `workspace.yaml`), and those that lie inside a workspace.

use crate::clients::{self, Cli};
use crate::platform::dirs::Dirs;
use crate::platform::process::ProcessTable;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

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
pub struct SessionFolders {
    seen: HashMap<PathBuf, Entry>,
}

impl SessionFolders {
    /// The folders (real paths) of the running sessions, read off the CLIs' session records.
    pub fn scan(&mut self, dirs: &Dirs, procs: &dyn ProcessTable) -> BTreeSet<PathBuf> {
        let mut present = BTreeSet::new();
        for cli in clients::served().filter(|c| c.ide.sessions.is_some()) {
            for dir in entries(&sessions_dir(dirs, &cli))
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
    cli.ide
        .and_then(|ide| ide.sessions)
        .map(|l| dirs.locate(&l))
        .unwrap_or_default()
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
    let yaml = read_record(dir)?;
    // Resolved as the OS will (links and `..`), so that where it lies is judged by its components:
    // `/ws/../../etc` is `/etc`, not a folder of `/ws`.
    let cwd = crate::workspace::resolve(&cwd(&yaml)?).ok()?;
    Some((pid, cwd))
}

/// `dir`'s `workspace.yaml`, if it is a regular file of at most `MAX_YAML` bytes, read as any
/// file someone else may have planted: a FIFO or a link swapped in after any earlier look would
/// otherwise hold the open until a writer came, or lead anywhere.
fn read_record(dir: &Path) -> Option<String> {
    let bytes = crate::platform::small_file::read(&dir.join("workspace.yaml"), MAX_YAML).ok()?;
    String::from_utf8(bytes).ok()
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

/// The folders among `running` (resolved, as `SessionFolders::scan` gives them) that lie strictly
/// inside one of `roots`, compared component by component (a root itself is in the workspace's
/// own file already).
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
        // Resolved, as the folders found are (macOS's temp dir is behind a link).
        let base = dunce::canonicalize(tmp.path()).unwrap();
        // Absolute on this OS (`C:\…` under Windows), as copilot writes its cwd there.
        let app = base.join("src").join("app");
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
        let mut s = SessionFolders::default();
        let live = s.scan(&dirs, &Alive(vec![10, 11, 13]));
        let want: BTreeSet<PathBuf> = [&server, &quoted].iter().map(PathBuf::from).collect();
        assert_eq!(live, want);
        // The process ends: its folder goes, whatever the record says.
        assert_eq!(s.scan(&dirs, &Alive(vec![11])).len(), 1);
        let roots = [app.clone()];
        let running: BTreeSet<PathBuf> = [
            app.clone(),
            app.join("x"),
            base.join("src").join("apple"),
            base.join("other"),
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
        mkfifo(&yaml);
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let found = SessionFolders::default().scan(&dirs, &Alive(vec![std::process::id()]));
            let _ = tx.send(found);
        });
        let found = rx
            .recv_timeout(Duration::from_secs(10))
            .expect("the scan returns");
        assert!(found.is_empty());
    }

    #[cfg(unix)]
    fn mkfifo(path: &Path) {
        let c = c_path(path);
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "{path:?}");
    }

    /// Swaps what `a` and `b` name in `dir`, quickly (names relative to an open directory): at
    /// once on Linux (`RENAME_EXCHANGE`), so `a` is always one of the two; elsewhere through a
    /// third name.
    #[cfg(unix)]
    fn exchange(dir: &std::fs::File, a: &str, b: &str) {
        use std::os::fd::AsRawFd;
        let fd = dir.as_raw_fd();
        let (ca, cb) = (c_path(a.as_ref()), c_path(b.as_ref()));
        #[cfg(target_os = "linux")]
        // SAFETY: an open directory and two valid NUL-terminated names.
        let rc =
            unsafe { libc::renameat2(fd, ca.as_ptr(), fd, cb.as_ptr(), libc::RENAME_EXCHANGE) };
        #[cfg(not(target_os = "linux"))]
        // SAFETY: as above.
        let rc = unsafe {
            let spare = c_path("spare".as_ref());
            libc::renameat(fd, ca.as_ptr(), fd, spare.as_ptr());
            libc::renameat(fd, cb.as_ptr(), fd, ca.as_ptr());
            libc::renameat(fd, spare.as_ptr(), fd, cb.as_ptr())
        };
        assert_eq!(rc, 0, "{}", std::io::Error::last_os_error());
    }

    #[cfg(unix)]
    fn c_path(p: &Path) -> std::ffi::CString {
        std::ffi::CString::new(p.to_str().unwrap()).unwrap()
    }

    /// Stops the swapping thread however the test ends.
    #[cfg(unix)]
    struct Stop(std::sync::Arc<std::sync::atomic::AtomicBool>);
    #[cfg(unix)]
    impl Drop for Stop {
        fn drop(&mut self) {
            self.0.store(true, std::sync::atomic::Ordering::SeqCst);
        }
    }

    /// A FIFO swapped in for a record after any look at the path but before the open: the open
    /// itself must not wait for a writer. The follower keeps reading another session's record
    /// scan after scan while one session's `workspace.yaml` flips between a file and a FIFO.
    #[cfg(unix)]
    #[test]
    fn a_fifo_swapped_in_for_a_record_does_not_stall_the_follower() {
        use std::sync::atomic::{AtomicBool, Ordering};
        const SCANS: usize = 3_000;
        let tmp = tempfile::tempdir().unwrap();
        let base = dunce::canonicalize(tmp.path()).unwrap();
        // Deep, so that each lookup of the record's path takes long beside one swap: a look at
        // the path and an open of it are far enough apart for the swap to fall between them.
        let deep = base.join("d/".repeat(1_000));
        std::fs::create_dir_all(&deep).unwrap();
        let dirs = Dirs::under(&deep);
        let pid = std::process::id();
        // A record with no `cwd:` yet is read again at every scan (one being written).
        let flipping = session(&dirs, "a", pid, "id: a\n");
        let steady = base.join("b");
        session(&dirs, "b", pid, &format!("cwd: {}\n", steady.display()));
        mkfifo(&flipping.join("fifo"));
        let stop = Stop(std::sync::Arc::new(AtomicBool::new(false)));
        let stopped = stop.0.clone();
        std::thread::spawn(move || {
            let dir = std::fs::File::open(&flipping).unwrap();
            while !stopped.load(Ordering::SeqCst) {
                exchange(&dir, "workspace.yaml", "fifo");
            }
        });
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut sessions = SessionFolders::default();
            for _ in 0..SCANS {
                let found = sessions.scan(&dirs, &Alive(vec![pid]));
                if tx.send(found).is_err() {
                    return;
                }
            }
        });
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        for n in 0..SCANS {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            let found = rx
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("the follower stalled after {n} scans"));
            assert!(found.contains(&steady), "scan {n}: {found:?}");
        }
        drop(stop);
    }
}
