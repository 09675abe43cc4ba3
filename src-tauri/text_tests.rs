//! The text shown for the core's answers, printed to a buffer.

use super::{containers_on, status, summary};
use crate::output::Printer;
use redline_core::api::status::{ContainerStatus, KeyringStatus, Status, WorkspaceStatus};
use redline_core::runtime::command::Via;
use redline_core::runtime::control::ContainersOn;
use std::path::PathBuf;

/// What `show` printed to the output (the error stream must stay empty).
fn printed(show: impl FnOnce(&mut Printer)) -> String {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    show(&mut Printer::new(&mut out, &mut err));
    assert!(err.is_empty(), "{}", String::from_utf8_lossy(&err));
    String::from_utf8(out).unwrap()
}

fn workspace(path: &str, port: Option<u16>) -> WorkspaceStatus {
    WorkspaceStatus {
        path: PathBuf::from(path),
        enabled: port.is_some(),
        missing: false,
        port,
        ws_port: None,
        amp_port: None,
        token_store: "keyring".into(),
        discovery_files: vec![PathBuf::from("/run/d.json")],
        discovery_failures: Vec::new(),
        discovery_gone: Vec::new(),
        clients: Vec::new(),
        pending_reviews: 2,
        containers: None,
    }
}

fn status_of(workspaces: Vec<WorkspaceStatus>) -> Status {
    Status {
        pid: 7,
        keyring: KeyringStatus {
            available: true,
            detail: String::new(),
        },
        workspaces,
        editors: Vec::new(),
        window_problem: None,
        log_file: None,
        remotes: vec![],
        codex_ide: None,
    }
}

#[test]
fn the_status_lists_each_workspace_and_what_it_serves() {
    let mut gone = workspace("/ws/gone", None);
    gone.missing = true;
    let text = printed(|p| {
        status(
            p,
            &status_of(vec![
                workspace("/ws/a", Some(4000)),
                gone,
                workspace("/ws/b", None),
            ]),
        )
    });
    assert_eq!(
        text,
        "Redline (pid 7), tokens in the OS keyring\n\
         /ws/a  on  127.0.0.1:4000\n  \
         discovery file  /run/d.json\n  \
         pending reviews 2\n\
         /ws/gone  MISSING: the folder is gone; not served\n  \
         remove it with  redline workspace remove /ws/gone\n\
         /ws/b  off\n  \
         discovery file  /run/d.json\n\
         no editor connected (`redline help editor` says how a plugin connects one)\n"
    );
}

#[test]
fn without_a_keyring_the_first_line_says_the_state_and_the_why_comes_last() {
    let mut s = status_of(Vec::new());
    s.keyring = KeyringStatus {
        available: false,
        detail: format!(
            "unavailable ({}): tokens are kept in memory",
            "why ".repeat(60)
        ),
    };
    let text = printed(|p| status(p, &s));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "Redline (pid 7), tokens in memory only (no OS keyring: see the last line)"
    );
    assert!(lines[0].len() < 100, "{}", lines[0]);
    assert!(
        lines[lines.len() - 1].starts_with("keyring unavailable ("),
        "{text}"
    );
}

#[test]
fn no_workspaces_says_how_to_add_one() {
    let text = printed(|p| status(p, &status_of(Vec::new())));
    assert!(
        text.contains("\nno workspaces; add one with `redline workspace add PATH`\n"),
        "{text}"
    );
}

#[test]
fn unreachable_containers_say_why() {
    let mut w = workspace("/ws/a", Some(4000));
    w.containers = Some(ContainerStatus {
        address: None,
        port: None,
        ws_port: None,
        paths: vec!["/workspace".into()],
        discovery_files: Vec::new(),
        error: Some("no bridge".into()),
    });
    let text = printed(|p| status(p, &status_of(vec![w])));
    assert!(
        text.contains("  containers      NOT REACHABLE   no bridge\n"),
        "{text}"
    );
    assert!(text.contains("  container path  /workspace\n"), "{text}");
}

#[test]
fn containers_on_says_where_and_from_when() {
    let on = ContainersOn {
        path: PathBuf::from("/ws/a"),
        running: false,
        containers: None,
    };
    assert_eq!(
        printed(|p| containers_on(p, Via::Stored, &on)),
        "containers on for /ws/a (starts with the next `redline serve`)\n"
    );
    assert_eq!(
        printed(|p| containers_on(p, Via::Instance, &on)),
        "containers on for /ws/a (the workspace is off; they apply when it is on)\n"
    );
}

#[test]
fn a_summary_is_one_line() {
    let r: redline_core::review::Summary = serde_json::from_value(serde_json::json!({
        "id": 3, "workspace": "/ws", "filePath": "/ws/a.rs", "path": "/ws/a.rs",
        "container": false, "client": { "name": "gemini-cli", "version": "1" },
        "added": 2, "removed": 1, "newFile": true, "createdAt": 0
    }))
    .unwrap();
    let text = printed(|p| summary(p, &r));
    assert!(
        text.starts_with("   3  +2 -1  /ws/a.rs (new file)  ["),
        "{text}"
    );
    assert!(text.ends_with("]\n"), "{text}");
}
