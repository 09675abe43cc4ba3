use super::*;

fn cmd(editor: &str, tmux: Option<&str>) -> Vec<String> {
    command(
        editor,
        Path::new("/ws/src/a.rs"),
        12,
        tmux,
        &Terminals::os("/run".into()),
    )
    .unwrap()
}

#[test]
fn each_kind_of_editor_gets_the_line_its_own_way() {
    assert_eq!(
        cmd("code --wait", None),
        ["code", "--wait", "-g", "/ws/src/a.rs:12"]
    );
    assert_eq!(
        cmd("/opt/bin/subl", None),
        ["/opt/bin/subl", "/ws/src/a.rs:12"]
    );
    assert_eq!(
        cmd("emacsclient -n", None),
        ["emacsclient", "-n", "+12", "/ws/src/a.rs"]
    );
    assert_eq!(cmd("gvim", None), ["gvim", "+12", "/ws/src/a.rs"]);
    // Terminal editors get a terminal: the CLI's tmux session, else the desktop's.
    assert_eq!(
        cmd("nvim", Some("work:2.1")),
        [
            "tmux",
            "new-window",
            "-t",
            "work:",
            "-c",
            "/ws/src",
            "nvim",
            "+12",
            "/ws/src/a.rs"
        ]
    );
    assert_eq!(
        cmd("hx", None),
        ["x-terminal-emulator", "-e", "hx", "/ws/src/a.rs:12"]
    );
    assert_eq!(
        cmd("emacs -nw", None)[..3],
        ["x-terminal-emulator", "-e", "emacs"]
    );
    assert_eq!(
        cmd("emacsclient -t", Some("s:0.0"))[..4],
        ["tmux", "new-window", "-t", "s:"]
    );
    assert!(command("  ", Path::new("/a"), 1, None, &Terminals::os("/run".into())).is_err());
}

#[test]
fn visual_comes_before_editor_and_empty_is_unset() {
    let env = |pairs: &'static [(&str, &str)]| {
        move |k: &str| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    };
    assert_eq!(
        from_env(env(&[("EDITOR", "vi"), ("VISUAL", "code")])).as_deref(),
        Some("code")
    );
    assert_eq!(
        from_env(env(&[("EDITOR", "vi"), ("VISUAL", " ")])).as_deref(),
        Some("vi")
    );
    assert_eq!(from_env(env(&[])), None);
}

/// The real thing: a GUI-style editor (a script here) is started with the file and line.
#[cfg(unix)]
#[test]
fn spawn_starts_the_editor_with_the_file_at_the_line() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("args");
    let editor = tmp.path().join("code");
    std::fs::write(
        &editor,
        format!(
            "#!/bin/sh\nprintf '%s\\n' \"$@\" > '{}.tmp' && mv '{0}.tmp' '{0}'\n",
            out.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&editor, std::fs::Permissions::from_mode(0o755)).unwrap();
    let file = std::path::PathBuf::from("/ws/notes.md");
    launch(
        &editor.to_string_lossy(),
        &file,
        7,
        None,
        &Terminals::os(tmp.path().into()),
    )
    .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !out.exists() {
        assert!(std::time::Instant::now() < deadline, "the editor never ran");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "-g\n/ws/notes.md:7\n"
    );
    assert!(spawn(&["/nonexistent/editor".into()]).is_err());
}
