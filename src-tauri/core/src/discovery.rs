//! The discovery files that let Gemini CLI, Qwen Code and Claude Code find a workspace's servers.

use crate::container::ContainerDirs;
use crate::dirs::Dirs;
use crate::private_file;
use crate::process::ProcessTable;
use crate::token::Token;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// Our own IDE identity: never claim another IDE's (the CLI would try to install extensions).
pub const IDE_NAME: &str = "redline";
pub const IDE_DISPLAY_NAME: &str = "Redline";

/// What a workspace's server announces.
pub struct Announcement<'a> {
    /// Redline's own live PID: the CLIs drop files whose PID is dead.
    pub pid: u32,
    pub port: u16,
    /// Claude Code's WebSocket port; no lock for it without one.
    pub ws_port: Option<u16>,
    pub workspace_path: &'a str,
    pub roots: &'a [PathBuf],
    pub token: &'a Token,
}

/// Which files were written, and which could not be.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Written {
    pub files: Vec<PathBuf>,
    pub failures: Vec<(PathBuf, String)>,
}

pub fn gemini_file(dirs: &Dirs, pid: u32, port: u16) -> PathBuf {
    dirs.gemini
        .join(format!("gemini-ide-server-{pid}-{port}.json"))
}

/// Qwen Code ignores `<PID>-<PORT>.lock` (the spec's name): it scans `^\d+\.lock$`.
pub fn qwen_file(dirs: &Dirs, port: u16) -> PathBuf {
    dirs.qwen.join(format!("{port}.lock"))
}

/// Claude Code scans `<PORT>.lock` in its config dir's `ide/`.
pub fn claude_file(dirs: &Dirs, port: u16) -> PathBuf {
    dirs.claude.join(format!("{port}.lock"))
}

fn ide_info() -> Value {
    json!({"name": IDE_NAME, "displayName": IDE_DISPLAY_NAME})
}

/// Writes every file (0600, atomically); a failure of one does not stop the others.
pub fn write(dirs: &Dirs, a: &Announcement<'_>) -> Written {
    let mut files = vec![
        (gemini_file(dirs, a.pid, a.port), gemini_body(a)),
        (qwen_file(dirs, a.port), qwen_body(a, true)),
    ];
    if let Some(ws_port) = a.ws_port {
        files.push((claude_file(dirs, ws_port), claude_body(a)));
    }
    write_all(files)
}

/// Writes the files a container's CLIs read into directories made for that container. The Qwen
/// and Claude locks carry no PID: Redline's means nothing in the container's PID namespace and
/// the CLIs would delete the lock; without one Qwen Code keeps a lock whose `workspacePath`
/// exists, Claude Code one it can connect to. Claude's `workspaceFolders` is the container path.
pub fn write_for_container(place: &ContainerDirs, a: &Announcement<'_>) -> Written {
    let mut files = vec![
        (
            place
                .gemini()
                .join(format!("gemini-ide-server-{}-{}.json", a.pid, a.port)),
            gemini_body(a),
        ),
        (
            place.qwen().join(format!("{}.lock", a.port)),
            qwen_body(a, false),
        ),
    ];
    if let Some(ws_port) = a.ws_port {
        let mut body = claude_body(a);
        if let Value::Object(o) = &mut body {
            o.remove("pid");
            o.insert("workspaceFolders".into(), json!([a.workspace_path]));
        }
        files.push((place.claude().join(format!("{ws_port}.lock")), body));
    }
    write_all(files)
}

fn gemini_body(a: &Announcement<'_>) -> Value {
    json!({
        "port": a.port,
        "workspacePath": a.workspace_path,
        "authToken": a.token.expose(),
        "ideInfo": ide_info(),
    })
}

fn qwen_body(a: &Announcement<'_>, with_ppid: bool) -> Value {
    let mut body = json!({
        "port": a.port,
        "workspacePath": a.workspace_path,
        "authToken": a.token.expose(),
        "ideInfo": ide_info(),
    });
    if with_ppid {
        body["ppid"] = json!(a.pid);
    }
    body
}

/// Claude Code deletes a lock whose `pid` is dead: Redline's own live PID.
fn claude_body(a: &Announcement<'_>) -> Value {
    json!({
        "pid": a.pid,
        "workspaceFolders": a.roots.iter().map(|r| r.to_string_lossy()).collect::<Vec<_>>(),
        "ideName": IDE_DISPLAY_NAME,
        "transport": "ws",
        "runningInWindows": cfg!(windows),
        "authToken": a.token.expose(),
    })
}

fn write_all(files: Vec<(PathBuf, Value)>) -> Written {
    let mut written = Written::default();
    for (path, body) in files {
        if let Some(why) = path.parent().and_then(private_file::unsafe_dir) {
            tracing::warn!("discovery file not written: {why}");
            written.failures.push((path, why));
            continue;
        }
        match private_file::write(&path, body.to_string().as_bytes()) {
            Ok(()) => written.files.push(path),
            Err(e) => {
                tracing::warn!("could not write discovery file: {e}");
                written.failures.push((path, e.to_string()));
            }
        }
    }
    written
}

/// Removes every file of ours from the container directories: only one Redline runs per user,
/// so at start they are all left from an earlier run. The directories stay: a running
/// container's bind mounts hold them.
pub fn sweep_containers(dirs: &Dirs) -> Vec<PathBuf> {
    let mut removed = Vec::new();
    for ws in entries(&crate::container::containers_dir(dirs)) {
        for place in entries(&ws) {
            for sub in ["gemini", "qwen"] {
                for path in entries(&place.join(sub)) {
                    if is_ours(&path).is_some() {
                        removed.push(path);
                    }
                }
            }
            for path in entries(&place.join("claude")) {
                if is_qwen_lock(&path) && is_claude_ours(&path).is_some() {
                    removed.push(path);
                }
            }
        }
    }
    remove(&removed);
    removed
}

pub fn remove(files: &[PathBuf]) {
    for f in files {
        if let Err(e) = std::fs::remove_file(f) {
            if e.kind() != std::io::ErrorKind::NotFound {
                tracing::warn!("could not remove {}: {e}", f.display());
            }
        }
    }
}

/// Removes files that Redline left behind: ours by `ideInfo`, with a dead PID or this very
/// PID (nothing is written yet when this runs). Other IDEs' files are never touched.
pub fn sweep_stale(dirs: &Dirs, procs: &dyn ProcessTable, own_pid: u32) -> Vec<PathBuf> {
    let mut removed = Vec::new();
    let stale = |pid: Option<u64>| match pid.and_then(|p| u32::try_from(p).ok()) {
        Some(pid) => pid == own_pid || !procs.is_alive(pid),
        None => true,
    };
    for path in entries(&dirs.gemini) {
        let Some(pid) = gemini_pid(&path) else {
            continue;
        };
        if is_ours(&path).is_some() && stale(Some(pid)) {
            removed.push(path);
        }
    }
    for path in entries(&dirs.qwen) {
        if !is_qwen_lock(&path) {
            continue;
        }
        if let Some(body) = is_ours(&path) {
            if stale(body.get("ppid").and_then(Value::as_u64)) {
                removed.push(path);
            }
        }
    }
    for path in entries(&dirs.claude) {
        if !is_qwen_lock(&path) {
            continue;
        }
        if let Some(body) = is_claude_ours(&path) {
            if stale(body.get("pid").and_then(Value::as_u64)) {
                removed.push(path);
            }
        }
    }
    remove(&removed);
    removed
}

/// The lock's JSON if Redline wrote it (Claude Code's locks carry no `ideInfo`).
fn is_claude_ours(path: &Path) -> Option<Value> {
    let body: Value = serde_json::from_slice(&std::fs::read(path).ok()?).ok()?;
    let ours = body.get("ideName").and_then(Value::as_str) == Some(IDE_DISPLAY_NAME)
        && body.get("transport").and_then(Value::as_str) == Some("ws");
    ours.then_some(body)
}

fn entries(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default()
}

fn digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// The PID and port, as digits, of a name Gemini CLI scans: `gemini-ide-server-<PID>-<PORT>.json`.
pub fn gemini_name(file_name: &str) -> Option<(&str, &str)> {
    let middle = file_name
        .strip_prefix("gemini-ide-server-")?
        .strip_suffix(".json")?;
    let (pid, port) = middle.split_once('-')?;
    (digits(pid) && digits(port)).then_some((pid, port))
}

/// The port, as digits, of a name Qwen Code and Claude Code scan: `<PORT>.lock`.
pub fn lock_name(file_name: &str) -> Option<&str> {
    file_name.strip_suffix(".lock").filter(|port| digits(port))
}

fn gemini_pid(path: &Path) -> Option<u64> {
    let (pid, _) = gemini_name(path.file_name()?.to_str()?)?;
    pid.parse().ok()
}

fn is_qwen_lock(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .and_then(lock_name)
        .is_some()
}

/// Whether a Gemini CLI or Qwen Code discovery file's JSON is Redline's: its `ideInfo` says so.
pub fn announced_by_redline(body: &Value) -> bool {
    body.pointer("/ideInfo/name").and_then(Value::as_str) == Some(IDE_NAME)
}

/// The file's JSON if it carries Redline's `ideInfo`.
fn is_ours(path: &Path) -> Option<Value> {
    let body: Value = serde_json::from_slice(&std::fs::read(path).ok()?).ok()?;
    announced_by_redline(&body).then_some(body)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use std::os::unix::fs::PermissionsExt;

    struct Alive(HashSet<u32>);
    impl ProcessTable for Alive {
        fn is_alive(&self, pid: u32) -> bool {
            self.0.contains(&pid)
        }
    }

    fn dirs(root: &Path) -> Dirs {
        Dirs {
            config: root.join("config"),
            runtime: root.join("run"),
            gemini: root.join("tmp/gemini/ide"),
            qwen: root.join("home/.qwen/ide"),
            claude: root.join("home/.claude/ide"),
        }
    }

    #[test]
    fn writes_both_files_with_the_fields_the_clis_read() {
        let tmp = tempfile::tempdir().unwrap();
        let d = dirs(tmp.path());
        let token = Token::generate();
        let w = write(
            &d,
            &Announcement {
                pid: 4242,
                port: 5151,
                ws_port: Some(6161),
                workspace_path: "/a:/b",
                roots: &["/a".into(), "/b".into()],
                token: &token,
            },
        );
        assert!(w.failures.is_empty());
        let gemini = d.gemini.join("gemini-ide-server-4242-5151.json");
        let qwen = d.qwen.join("5151.lock");
        let claude = d.claude.join("6161.lock");
        assert_eq!(w.files, vec![gemini.clone(), qwen.clone(), claude.clone()]);
        let c: Value = serde_json::from_slice(&std::fs::read(&claude).unwrap()).unwrap();
        assert_eq!(
            c,
            json!({"pid": 4242, "workspaceFolders": ["/a", "/b"], "ideName": "Redline",
                   "transport": "ws", "runningInWindows": false, "authToken": token.expose()})
        );
        let g: Value = serde_json::from_slice(&std::fs::read(&gemini).unwrap()).unwrap();
        assert_eq!(
            g,
            json!({"port": 5151, "workspacePath": "/a:/b", "authToken": token.expose(),
                   "ideInfo": {"name": "redline", "displayName": "Redline"}})
        );
        let q: Value = serde_json::from_slice(&std::fs::read(&qwen).unwrap()).unwrap();
        assert_eq!(q["ppid"], 4242);
        assert_eq!(q["authToken"], token.expose());
        assert_eq!(q["workspacePath"], "/a:/b");
        for f in [&gemini, &qwen, &claude] {
            assert_eq!(
                std::fs::metadata(f).unwrap().permissions().mode() & 0o777,
                0o600
            );
        }
        for dir in [&d.gemini, &d.claude] {
            assert_eq!(
                std::fs::metadata(dir).unwrap().permissions().mode() & 0o777,
                0o700
            );
        }
        remove(&w.files);
        assert!(!gemini.exists() && !qwen.exists() && !claude.exists());
    }

    #[test]
    fn container_files_carry_the_container_path_and_no_ppid_and_are_swept_not_their_dirs() {
        let tmp = tempfile::tempdir().unwrap();
        let d = dirs(tmp.path());
        let place = ContainerDirs::new(&d, Path::new("/home/u/p"), "/workspace");
        let token = Token::generate();
        let w = write_for_container(
            &place,
            &Announcement {
                pid: 77,
                port: 5151,
                ws_port: Some(6161),
                workspace_path: "/workspace",
                roots: &[],
                token: &token,
            },
        );
        assert!(w.failures.is_empty());
        let gemini = place.gemini().join("gemini-ide-server-77-5151.json");
        let qwen = place.qwen().join("5151.lock");
        let claude = place.claude().join("6161.lock");
        assert_eq!(w.files, vec![gemini.clone(), qwen.clone(), claude.clone()]);
        let c: Value = serde_json::from_slice(&std::fs::read(&claude).unwrap()).unwrap();
        assert_eq!(
            c,
            json!({"workspaceFolders": ["/workspace"], "ideName": "Redline", "transport": "ws",
                   "runningInWindows": false, "authToken": token.expose()})
        );
        assert_eq!(
            std::fs::metadata(&claude).unwrap().permissions().mode() & 0o777,
            0o600
        );
        let q: Value = serde_json::from_slice(&std::fs::read(&qwen).unwrap()).unwrap();
        assert_eq!(
            q,
            json!({"port": 5151, "workspacePath": "/workspace", "authToken": token.expose(),
                   "ideInfo": {"name": "redline", "displayName": "Redline"}})
        );
        let g: Value = serde_json::from_slice(&std::fs::read(&gemini).unwrap()).unwrap();
        assert_eq!(g["workspacePath"], "/workspace");
        assert_eq!(
            std::fs::metadata(&qwen).unwrap().permissions().mode() & 0o777,
            0o600
        );
        let theirs = place.qwen().join("9.lock");
        std::fs::write(&theirs, r#"{"ideInfo":{"name":"other"}}"#).unwrap();
        let theirs_claude = place.claude().join("10.lock");
        std::fs::write(&theirs_claude, r#"{"ideName":"Other","transport":"ws"}"#).unwrap();
        let mut swept = sweep_containers(&d);
        swept.sort();
        let mut expected = vec![gemini, qwen, claude];
        expected.sort();
        assert_eq!(swept, expected);
        assert!(theirs.exists() && place.gemini().is_dir() && place.qwen().is_dir());
        assert!(theirs_claude.exists() && place.claude().is_dir());
    }

    #[test]
    fn a_failed_file_does_not_stop_the_other() {
        let tmp = tempfile::tempdir().unwrap();
        let d = dirs(tmp.path());
        std::fs::create_dir_all(d.qwen.parent().unwrap()).unwrap();
        std::fs::write(&d.qwen, "a file where the dir should be").unwrap();
        let token = Token::generate();
        let w = write(
            &d,
            &Announcement {
                pid: 1,
                port: 2,
                ws_port: None,
                workspace_path: "/w",
                roots: &["/w".into()],
                token: &token,
            },
        );
        assert_eq!(w.files.len(), 1);
        assert_eq!(w.failures.len(), 1);
        assert_eq!(w.failures[0].0, d.qwen.join("2.lock"));
    }

    #[test]
    fn no_token_goes_into_a_directory_others_can_touch() {
        let tmp = tempfile::tempdir().unwrap();
        let d = dirs(tmp.path());
        std::fs::create_dir_all(&d.gemini).unwrap();
        std::fs::set_permissions(&d.gemini, std::fs::Permissions::from_mode(0o777)).unwrap();
        std::fs::create_dir_all(&d.qwen).unwrap();
        std::fs::set_permissions(&d.qwen, std::fs::Permissions::from_mode(0o770)).unwrap();
        std::fs::create_dir_all(&d.claude).unwrap();
        std::fs::set_permissions(&d.claude, std::fs::Permissions::from_mode(0o707)).unwrap();
        let token = Token::generate();
        let a = Announcement {
            pid: 1,
            port: 2,
            ws_port: Some(3),
            workspace_path: "/w",
            roots: &["/w".into()],
            token: &token,
        };
        let w = write(&d, &a);
        assert!(w.files.is_empty(), "{w:?}");
        assert_eq!(w.failures.len(), 3);
        for (path, why) in &w.failures {
            assert!(!path.exists());
            assert!(why.contains("writable by group or others"), "{why}");
            assert!(why.contains(&*path.parent().unwrap().to_string_lossy()));
        }
        // Owned by someone else (needs root to arrange), even with a private mode.
        std::fs::set_permissions(&d.gemini, std::fs::Permissions::from_mode(0o700)).unwrap();
        if unsafe { libc::geteuid() } == 0 {
            let c = std::ffi::CString::new(d.gemini.to_str().unwrap()).unwrap();
            assert_eq!(unsafe { libc::chown(c.as_ptr(), 65534, 65534) }, 0);
            let w = write(&d, &a);
            assert!(w.failures[0].1.contains("owned by another user"), "{w:?}");
            assert!(!gemini_file(&d, 1, 2).exists());
        }
    }

    #[test]
    fn sweeps_only_our_dead_files() {
        let tmp = tempfile::tempdir().unwrap();
        let d = dirs(tmp.path());
        std::fs::create_dir_all(&d.gemini).unwrap();
        std::fs::create_dir_all(&d.qwen).unwrap();
        let ours = r#"{"port":1,"ideInfo":{"name":"redline"},"ppid":PID}"#;
        let theirs = r#"{"port":1,"ideInfo":{"name":"vscode"},"ppid":PID}"#;
        let put = |dir: &Path, name: &str, body: &str, pid: u32| {
            let p = dir.join(name);
            std::fs::write(&p, body.replace("PID", &pid.to_string())).unwrap();
            p
        };
        let dead_ours = put(&d.gemini, "gemini-ide-server-100-1.json", ours, 100);
        let live_ours = put(&d.gemini, "gemini-ide-server-200-2.json", ours, 200);
        let own_pid_ours = put(&d.gemini, "gemini-ide-server-300-3.json", ours, 300);
        let dead_theirs = put(&d.gemini, "gemini-ide-server-101-4.json", theirs, 101);
        let dead_qwen_ours = put(&d.qwen, "5.lock", ours, 100);
        let live_qwen_ours = put(&d.qwen, "6.lock", ours, 200);
        let dead_qwen_theirs = put(&d.qwen, "7.lock", theirs, 100);
        let odd_name = put(&d.qwen, "100-8.lock", ours, 100);
        std::fs::create_dir_all(&d.claude).unwrap();
        let claude_ours = r#"{"pid":PID,"ideName":"Redline","transport":"ws"}"#;
        let claude_theirs = r#"{"pid":PID,"ideName":"Visual Studio Code","transport":"ws"}"#;
        let dead_claude_ours = put(&d.claude, "9.lock", claude_ours, 100);
        let own_claude_ours = put(&d.claude, "10.lock", claude_ours, 300);
        let live_claude_ours = put(&d.claude, "11.lock", claude_ours, 200);
        let dead_claude_theirs = put(&d.claude, "12.lock", claude_theirs, 100);
        let procs = Alive([200, 300].into_iter().collect());
        let mut removed = sweep_stale(&d, &procs, 300);
        removed.sort();
        let mut expected = vec![
            dead_ours,
            own_pid_ours,
            dead_qwen_ours,
            dead_claude_ours,
            own_claude_ours,
        ];
        expected.sort();
        assert_eq!(removed, expected);
        for p in &expected {
            assert!(!p.exists());
        }
        for p in [
            live_ours,
            dead_theirs,
            live_qwen_ours,
            dead_qwen_theirs,
            odd_name,
            live_claude_ours,
            dead_claude_theirs,
        ] {
            assert!(p.exists(), "{} must stay", p.display());
        }
    }
}
