//! What a new user sees first where the desktop app cannot open: one line saying so and naming
//! the headless command, a failing exit status, and no GTK panic.

#![cfg(target_os = "linux")]

use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_redline");

/// `redline` (the desktop app) in an isolated environment with the given display variables.
fn launch(args: &[&str], display: &[(&str, &str)]) -> Output {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let mut cmd = Command::new(BIN);
    cmd.args(args)
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", root)
        .env("TMPDIR", root)
        .env("XDG_CONFIG_HOME", root.join("config"))
        .env("XDG_RUNTIME_DIR", root.join("run"));
    for (k, v) in display {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

fn assert_one_line_pointing_to_headless(out: &Output, why: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{why}: exited 0: {err}");
    assert_eq!(out.status.code(), Some(2), "{why}: {err}");
    assert_eq!(err.lines().count(), 1, "{why}: {err}");
    assert!(err.contains("redline serve --headless"), "{why}: {err}");
    assert!(!err.contains("panicked"), "{why}: {err}");
}

#[test]
fn without_a_display_it_says_so_in_one_line_and_names_the_headless_server() {
    for args in [&[][..], &["serve"][..]] {
        let out = launch(args, &[]);
        assert_one_line_pointing_to_headless(&out, "no DISPLAY");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("no display"), "{err}");
        // Empty is as unset as missing.
        let out = launch(args, &[("DISPLAY", ""), ("WAYLAND_DISPLAY", "")]);
        assert_one_line_pointing_to_headless(&out, "empty DISPLAY");
    }
}

#[test]
fn a_display_that_cannot_be_opened_is_said_the_same_way() {
    // A display number no X server serves here: GTK's own initialisation fails.
    let out = launch(&[], &[("DISPLAY", ":7391")]);
    assert_one_line_pointing_to_headless(&out, "unreachable DISPLAY");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot open the display"), "{err}");
}
