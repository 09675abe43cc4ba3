//! Tests of `discovery`.

use super::*;
use std::collections::HashSet;
use std::os::unix::fs::PermissionsExt;

fn socket() -> Option<&'static Path> {
    Some(Path::new("/run/r/copilot-5151.sock"))
}

struct Alive(HashSet<u32>);
impl ProcessTable for Alive {
    fn is_alive(&self, pid: u32) -> bool {
        self.0.contains(&pid)
    }
}

/// Where each CLI looks under a test root.
struct Layout {
    gemini: PathBuf,
    qwen: PathBuf,
    claude: PathBuf,
}

fn dirs(root: &Path) -> Dirs {
    Dirs::under(root)
}

fn layout(d: &Dirs) -> Layout {
    Layout {
        gemini: d.discovery(&clients::GEMINI),
        qwen: d.discovery(&clients::QWEN),
        claude: d.discovery(&clients::CLAUDE),
    }
}

#[test]
fn writes_every_file_with_the_fields_the_clis_read() {
    let tmp = tempfile::tempdir().unwrap();
    let d = dirs(tmp.path());
    let l = layout(&d);
    let token = Token::generate();
    let w = write(
        &d,
        &Announcement {
            pid: 4242,
            port: 5151,
            ws_port: Some(6161),
            amp_port: None,
            workspace_path: "/a:/b",
            roots: &["/a".into(), "/b".into()],
            token: &token,
            socket: socket(),
            trusted: false,
            at_ms: 1,
        },
    );
    assert!(w.failures.is_empty());
    let gemini = l.gemini.join("gemini-ide-server-4242-5151.json");
    let qwen = l.qwen.join("5151.lock");
    let claude = l.claude.join("6161.lock");
    let copilot = d
        .discovery(&clients::COPILOT)
        .join("redline-4242-5151.lock");
    assert_eq!(
        w.files,
        vec![
            gemini.clone(),
            qwen.clone(),
            claude.clone(),
            copilot.clone()
        ]
    );
    let p: Value = serde_json::from_slice(&std::fs::read(&copilot).unwrap()).unwrap();
    assert_eq!(
        p,
        json!({"socketPath": "/run/r/copilot-5151.sock", "scheme": "unix",
               "headers": {"Authorization": format!("Bearer {}", token.expose())},
               "pid": 4242, "timestamp": 1, "workspaceFolders": ["/a", "/b"],
               "ideName": "Redline"})
    );
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
    for dir in [&l.gemini, &l.claude] {
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
            amp_port: None,
            workspace_path: "/workspace",
            roots: &[],
            token: &token,
            socket: socket(),
            trusted: false,
            at_ms: 1,
        },
    );
    assert!(w.failures.is_empty());
    let gemini = place
        .dir(&clients::GEMINI)
        .join("gemini-ide-server-77-5151.json");
    let qwen = place.dir(&clients::QWEN).join("5151.lock");
    let claude = place.dir(&clients::CLAUDE).join("6161.lock");
    let copilot = place.dir(&clients::COPILOT).join("redline-77-5151.lock");
    assert_eq!(
        w.files,
        vec![
            gemini.clone(),
            qwen.clone(),
            claude.clone(),
            copilot.clone()
        ]
    );
    let c: Value = serde_json::from_slice(&std::fs::read(&claude).unwrap()).unwrap();
    assert_eq!(
        c,
        json!({"workspaceFolders": ["/workspace"], "ideName": "Redline", "transport": "ws",
               "runningInWindows": false, "authToken": token.expose()})
    );
    // PID 1 lives in every container; the socket is where `container args` mounts it.
    let p: Value = serde_json::from_slice(&std::fs::read(&copilot).unwrap()).unwrap();
    assert_eq!(p["pid"], 1);
    assert_eq!(p["socketPath"], "/tmp/redline/copilot.sock");
    assert_eq!(p["workspaceFolders"], json!(["/workspace"]));
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
    let theirs = place.dir(&clients::QWEN).join("9.lock");
    std::fs::write(&theirs, r#"{"ideInfo":{"name":"other"}}"#).unwrap();
    let theirs_claude = place.dir(&clients::CLAUDE).join("10.lock");
    std::fs::write(&theirs_claude, r#"{"ideName":"Other","transport":"ws"}"#).unwrap();
    let mut swept = sweep_containers(&d);
    swept.sort();
    let mut expected = vec![gemini, qwen, claude, copilot];
    expected.sort();
    assert_eq!(swept, expected);
    assert!(
        theirs.exists()
            && place.dir(&clients::GEMINI).is_dir()
            && place.dir(&clients::QWEN).is_dir()
    );
    assert!(theirs_claude.exists() && place.dir(&clients::CLAUDE).is_dir());
}

/// Every format Redline writes, the CLI's reader (doctor's, and the sweep's) reads back as
/// Redline's, with its port, PID, roots and token.
#[test]
fn every_cli_reads_back_what_is_written_for_it() {
    let tmp = tempfile::tempdir().unwrap();
    let d = dirs(tmp.path());
    let token = Token::generate();
    let a = Announcement {
        pid: 4242,
        port: 5151,
        ws_port: Some(6161),
        amp_port: Some(7171),
        workspace_path: "/a:/b",
        roots: &["/a".into(), "/b".into()],
        token: &token,
        socket: socket(),
        trusted: false,
        at_ms: 1,
    };
    let w = write(&d, &a);
    assert_eq!(w.files.len(), clients::served().count(), "{w:?}");
    for cli in clients::served() {
        let format = cli.ide.discovery.format;
        let port = a.port_for(cli.ide.transport).unwrap();
        let path = file(&d, &cli, a.pid, port);
        assert!(w.files.contains(&path), "{}: {}", cli.id, path.display());
        let (name_pid, body) = read_ours(format, &path).unwrap();
        assert_eq!(
            format.parse_name(path.file_name().unwrap().to_str().unwrap()),
            Some((name_pid, port))
        );
        assert_eq!(format.pid_of(name_pid, &body), Some(4242), "{}", cli.id);
        assert_eq!(format.token(&body), Some(token.expose()), "{}", cli.id);
        assert_eq!(format.ide_of(&body).as_deref(), Some(IDE_DISPLAY_NAME));
        let field = format.roots().field();
        assert!(body.get(field).is_some(), "{}: {field}", cli.id);
    }
    let swept = sweep_stale(&d, &Alive(HashSet::new()), 1);
    assert_eq!(
        swept.len(),
        clients::served().count(),
        "dead PID: all swept"
    );
}

#[test]
fn a_failed_file_does_not_stop_the_other() {
    let tmp = tempfile::tempdir().unwrap();
    let d = dirs(tmp.path());
    let l = layout(&d);
    std::fs::create_dir_all(l.qwen.parent().unwrap()).unwrap();
    std::fs::write(&l.qwen, "a file where the dir should be").unwrap();
    let token = Token::generate();
    let w = write(
        &d,
        &Announcement {
            pid: 1,
            port: 2,
            ws_port: None,
            amp_port: None,
            workspace_path: "/w",
            roots: &["/w".into()],
            token: &token,
            socket: None,
            trusted: false,
            at_ms: 1,
        },
    );
    assert_eq!(w.files.len(), 1);
    assert_eq!(w.failures.len(), 1);
    assert_eq!(w.failures[0].0, l.qwen.join("2.lock"));
}

#[test]
fn no_token_goes_into_a_directory_others_can_touch() {
    let tmp = tempfile::tempdir().unwrap();
    let d = dirs(tmp.path());
    let l = layout(&d);
    std::fs::create_dir_all(&l.gemini).unwrap();
    std::fs::set_permissions(&l.gemini, std::fs::Permissions::from_mode(0o777)).unwrap();
    std::fs::create_dir_all(&l.qwen).unwrap();
    std::fs::set_permissions(&l.qwen, std::fs::Permissions::from_mode(0o770)).unwrap();
    std::fs::create_dir_all(&l.claude).unwrap();
    std::fs::set_permissions(&l.claude, std::fs::Permissions::from_mode(0o707)).unwrap();
    let copilot = d.discovery(&clients::COPILOT);
    std::fs::create_dir_all(&copilot).unwrap();
    std::fs::set_permissions(&copilot, std::fs::Permissions::from_mode(0o775)).unwrap();
    let token = Token::generate();
    let a = Announcement {
        pid: 1,
        port: 2,
        ws_port: Some(3),
        amp_port: None,
        workspace_path: "/w",
        roots: &["/w".into()],
        token: &token,
        socket: socket(),
        trusted: false,
        at_ms: 1,
    };
    let w = write(&d, &a);
    assert!(w.files.is_empty(), "{w:?}");
    assert_eq!(w.failures.len(), 4);
    for (path, why) in &w.failures {
        assert!(!path.exists());
        assert!(why.contains("writable by group or others"), "{why}");
        assert!(why.contains(&*path.parent().unwrap().to_string_lossy()));
    }
    // Owned by someone else (needs root to arrange), even with a private mode.
    std::fs::set_permissions(&l.gemini, std::fs::Permissions::from_mode(0o700)).unwrap();
    if unsafe { libc::geteuid() } == 0 {
        let c = std::ffi::CString::new(l.gemini.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::chown(c.as_ptr(), 65534, 65534) }, 0);
        let w = write(&d, &a);
        assert!(w.failures[0].1.contains("belongs to another user"), "{w:?}");
        assert!(!file(&d, &clients::GEMINI.served().unwrap(), 1, 2).exists());
    }
}

#[test]
fn sweeps_only_our_dead_files() {
    let tmp = tempfile::tempdir().unwrap();
    let d = dirs(tmp.path());
    let l = layout(&d);
    std::fs::create_dir_all(&l.gemini).unwrap();
    std::fs::create_dir_all(&l.qwen).unwrap();
    let ours = r#"{"port":1,"ideInfo":{"name":"redline"},"ppid":PID}"#;
    let theirs = r#"{"port":1,"ideInfo":{"name":"vscode"},"ppid":PID}"#;
    let put = |dir: &Path, name: &str, body: &str, pid: u32| {
        let p = dir.join(name);
        std::fs::write(&p, body.replace("PID", &pid.to_string())).unwrap();
        p
    };
    let dead_ours = put(&l.gemini, "gemini-ide-server-100-1.json", ours, 100);
    let live_ours = put(&l.gemini, "gemini-ide-server-200-2.json", ours, 200);
    let own_pid_ours = put(&l.gemini, "gemini-ide-server-300-3.json", ours, 300);
    let dead_theirs = put(&l.gemini, "gemini-ide-server-101-4.json", theirs, 101);
    let dead_qwen_ours = put(&l.qwen, "5.lock", ours, 100);
    let live_qwen_ours = put(&l.qwen, "6.lock", ours, 200);
    let dead_qwen_theirs = put(&l.qwen, "7.lock", theirs, 100);
    let odd_name = put(&l.qwen, "100-8.lock", ours, 100);
    std::fs::create_dir_all(&l.claude).unwrap();
    let claude_ours = r#"{"pid":PID,"ideName":"Redline","transport":"ws"}"#;
    let claude_theirs = r#"{"pid":PID,"ideName":"Visual Studio Code","transport":"ws"}"#;
    let dead_claude_ours = put(&l.claude, "9.lock", claude_ours, 100);
    let own_claude_ours = put(&l.claude, "10.lock", claude_ours, 300);
    let live_claude_ours = put(&l.claude, "11.lock", claude_ours, 200);
    let dead_claude_theirs = put(&l.claude, "12.lock", claude_theirs, 100);
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
