use super::*;

fn cmd(editor: &str) -> (Vec<String>, bool) {
    let c = command(editor, Path::new("/ws/src/a.rs"), 12).unwrap();
    let words = c.argv.iter().map(|w| w.to_string_lossy().into_owned());
    (words.collect(), c.needs_terminal)
}

fn words(w: &[&str]) -> Vec<String> {
    w.iter().map(|w| (*w).to_owned()).collect()
}

#[test]
fn each_kind_of_editor_gets_the_line_its_own_way() {
    let window = |w: &[&str]| (words(w), false);
    let terminal = |w: &[&str]| (words(w), true);
    assert_eq!(
        cmd("code --wait"),
        window(&["code", "--wait", "-g", "/ws/src/a.rs:12"])
    );
    assert_eq!(
        cmd("/opt/bin/subl"),
        window(&["/opt/bin/subl", "/ws/src/a.rs:12"])
    );
    assert_eq!(
        cmd("emacsclient -n"),
        window(&["emacsclient", "-n", "+12", "/ws/src/a.rs"])
    );
    assert_eq!(cmd("gvim"), window(&["gvim", "+12", "/ws/src/a.rs"]));
    assert_eq!(cmd("nvim"), terminal(&["nvim", "+12", "/ws/src/a.rs"]));
    assert_eq!(cmd("hx"), terminal(&["hx", "/ws/src/a.rs:12"]));
    assert_eq!(
        cmd("emacs -nw"),
        terminal(&["emacs", "-nw", "+12", "/ws/src/a.rs"])
    );
    assert!(cmd("emacsclient -t").1);
    assert!(command("  ", Path::new("/a"), 1).is_err());
}

/// A review's path is absolute; were one not, a name starting with `-` must stay a file.
#[test]
fn a_relative_path_is_never_read_as_an_option() {
    let c = command("vim", Path::new("-rf"), 1).unwrap();
    let file = Path::new(".").join("-rf").into_os_string();
    assert_eq!(c.argv, [OsString::from("vim"), "+1".into(), file.clone()]);
    let c = command("hx", Path::new("-rf"), 2).unwrap();
    let mut at_line = file;
    at_line.push(":2");
    assert_eq!(c.argv, [OsString::from("hx"), at_line]);
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
    assert!(spawn(&["/nonexistent/editor"]).is_err());
}

/// Names a repository, a CLI or a container may give a file or a folder: each one a shell (or
/// tmux) would read as more than one word, or an editor as an option.
#[cfg(unix)]
const HOSTILE: &[&str] = &[
    "#(touch pwned)",
    "semi;touch pwned",
    "$(touch pwned)",
    "`touch pwned`",
    "it's \"quoted\"",
    "new\nline",
    " with  spaces ",
    "-leading-dash",
    "--",
    "pipe|touch pwned",
    "amp&touch pwned&",
    "ends;",
    "back\\slash",
    "$HOME*?[a]~",
];

/// A temp dir with a fake terminal editor (`vim`, started through `sh` so that no test execs a
/// file another test thread may still hold open for writing) that writes down the directory it
/// started in and each word it was given, NUL-separated.
#[cfg(unix)]
struct Bench {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    out: PathBuf,
    editor: String,
}

#[cfg(unix)]
impl Bench {
    fn new() -> Bench {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        let out = root.join("argv");
        let vim = root.join("vim");
        std::fs::write(
            &vim,
            format!(
                "printf '%s\\0' \"$PWD\" \"$@\" > '{0}.tmp' && mv '{0}.tmp' '{0}'\n",
                out.display()
            ),
        )
        .unwrap();
        let editor = format!("/bin/sh {}", vim.display());
        Bench {
            _tmp: tmp,
            root,
            out,
            editor,
        }
    }

    /// A file named `name` in a folder named `name`.
    fn file(&self, name: &str) -> PathBuf {
        let dir = self.root.join("ws").join(name);
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join(name);
        std::fs::write(&file, "x\n").unwrap();
        file
    }

    /// The directory the editor started in and the words it was given, once it has run.
    fn seen(&self, name: &str) -> Vec<Vec<u8>> {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while !self.out.exists() {
            assert!(
                std::time::Instant::now() < deadline,
                "the editor never ran for {name:?}"
            );
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let bytes = std::fs::read(&self.out).unwrap();
        std::fs::remove_file(&self.out).unwrap();
        let mut words: Vec<Vec<u8>> = bytes.split(|b| *b == 0).map(<[u8]>::to_vec).collect();
        assert_eq!(words.pop(), Some(vec![]), "NUL-terminated: {bytes:?}");
        words
    }

    /// Opens each hostile name through `terminals` and checks the editor got exactly `+3` and
    /// the path, started in the file's folder, and that nothing the names hold ran.
    fn check_every_name(&self, terminals: &Terminals, tmux: Option<&str>) {
        use std::os::unix::ffi::OsStrExt;
        for name in HOSTILE {
            let file = self.file(name);
            launch(&self.editor, &file, 3, tmux, terminals)
                .unwrap_or_else(|e| panic!("{name:?}: {e}"));
            let seen = self.seen(name);
            let want = [
                file.parent().unwrap().as_os_str().as_bytes().to_vec(),
                b"+3".to_vec(),
                file.as_os_str().as_bytes().to_vec(),
            ];
            let show = |w: &[Vec<u8>]| {
                w.iter()
                    .map(|a| String::from_utf8_lossy(a).into_owned())
                    .collect::<Vec<_>>()
            };
            self.nothing_ran(name);
            assert_eq!(show(&seen), show(&want), "for the name {name:?}");
        }
    }

    fn nothing_ran(&self, name: &str) {
        let cwd = std::env::current_dir().unwrap();
        for dir in [&self.root, &self.root.join("ws"), &cwd] {
            let marker = dir.join("pwned");
            let ran = marker.exists();
            let _ = std::fs::remove_file(&marker);
            assert!(
                !ran,
                "the name {name:?} ran a command ({})",
                marker.display()
            );
        }
    }
}

/// Terminator with a window already open (and other terminals) joins the words after `-e` with
/// spaces and runs the line with `$SHELL -c`: a file name must still reach the editor as one
/// word, and nothing in it may run.
#[cfg(unix)]
#[test]
fn a_terminal_that_hands_its_command_to_a_shell_runs_nothing_a_file_name_holds() {
    let bench = Bench::new();
    let term = bench.root.join("terminator");
    std::fs::write(
        &term,
        "[ \"$1\" = -e ] || exit 2\nshift\ncd \"$(dirname \"$0\")\" && exec sh -c \"$*\"\n",
    )
    .unwrap();
    let terminals = Terminals {
        tmux: vec!["false".into()],
        desktop: vec!["/bin/sh".into(), term.to_string_lossy().into(), "-e".into()],
        runtime: bench.root.join("run"),
    };
    bench.check_every_name(&terminals, None);
}

/// tmux reads formats (`#()` runs a command) in `new-window -c`, ends a command at an argument
/// ending in `;`, and hands a lone command word to `sh -c`: a real tmux server on a private
/// socket must still give the editor each file name as one word and run nothing it holds.
#[cfg(unix)]
#[test]
fn a_tmux_window_runs_nothing_a_file_name_holds() {
    let bench = Bench::new();
    let socket = bench.root.join("tmux.sock");
    let tmux: Vec<String> = vec!["tmux".into(), "-S".into(), socket.to_string_lossy().into()];
    let started = std::process::Command::new(&tmux[0])
        .args(&tmux[1..])
        .args([
            "-f",
            "/dev/null",
            "new-session",
            "-d",
            "-s",
            "cli",
            "-x",
            "80",
            "-y",
            "24",
        ])
        .current_dir(&bench.root)
        .status()
        .expect("tmux runs");
    assert!(started.success(), "tmux server started");
    struct Server<'a>(&'a [String]);
    impl Drop for Server<'_> {
        fn drop(&mut self) {
            let _ = std::process::Command::new(&self.0[0])
                .args(&self.0[1..])
                .arg("kill-server")
                .status();
        }
    }
    let _server = Server(&tmux);
    let terminals = Terminals {
        tmux: tmux.clone(),
        desktop: vec!["false".into()],
        runtime: bench.root.join("run"),
    };
    bench.check_every_name(&terminals, Some("cli:0.0"));
}

/// The launcher's own path is the one thing a terminal's shell reads: a runtime dir a shell
/// would read as more than a word, or one others may write to, starts no terminal at all.
#[cfg(unix)]
#[test]
fn no_terminal_starts_from_a_runtime_dir_a_shell_would_read_or_others_may_write() {
    use std::os::unix::fs::PermissionsExt;
    let bench = Bench::new();
    let file = bench.file("a.rs");
    let started = bench.root.join("started");
    let terminals = |runtime: PathBuf| Terminals {
        tmux: vec!["false".into()],
        desktop: vec!["touch".into(), started.to_string_lossy().into()],
        runtime,
    };
    for runtime in ["run dir", "run$(x)", "run;x"] {
        let runtime = bench.root.join(runtime);
        let err = launch(&bench.editor, &file, 1, None, &terminals(runtime.clone())).unwrap_err();
        assert!(!runtime.exists(), "nothing written");
        assert!(
            err.to_string()
                .contains("characters a terminal's shell would read"),
            "{err}"
        );
    }
    let shared = bench.root.join("shared");
    std::fs::create_dir(&shared).unwrap();
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o777)).unwrap();
    let err = launch(&bench.editor, &file, 1, None, &terminals(shared.clone())).unwrap_err();
    assert!(
        err.to_string().contains("writable by group or others"),
        "{err}"
    );
    assert!(!started.exists(), "no terminal was started");
    assert_eq!(
        std::fs::read_dir(&shared).unwrap().count(),
        0,
        "nothing written"
    );
}

/// Each launch's folder goes once its editor starts; one whose terminal never ran it goes at a
/// later launch, once it is an hour old.
#[cfg(unix)]
#[test]
fn launch_folders_are_removed_once_run_or_abandoned() {
    let bench = Bench::new();
    let runtime = bench.root.join("run");
    let never_run = runtime.join("editor-launch-0123456789abcdef");
    let recent = runtime.join("editor-launch-fedcba9876543210");
    for dir in [&never_run, &recent] {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("0"), "vim").unwrap();
    }
    let hours_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(2 * 3600);
    std::fs::File::open(&never_run)
        .unwrap()
        .set_modified(hours_ago)
        .unwrap();
    let terminals = Terminals {
        tmux: vec!["false".into()],
        desktop: vec!["env".into()],
        runtime: runtime.clone(),
    };
    let file = bench.file("a.rs");
    launch(&bench.editor, &file, 1, None, &terminals).unwrap();
    bench.seen("a.rs");
    let mut left: Vec<_> = std::fs::read_dir(&runtime)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["editor-launch-fedcba9876543210", "editor-launcher"]);
    // A terminal that cannot start leaves no folder behind.
    let missing = Terminals {
        desktop: vec!["/nonexistent/terminal".into()],
        ..terminals
    };
    assert!(launch(&bench.editor, &file, 1, None, &missing).is_err());
    assert_eq!(std::fs::read_dir(&runtime).unwrap().count(), 2);
}
