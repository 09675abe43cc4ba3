//! A real Secret Service (gnome-keyring in a private D-Bus session) that answers but cannot keep
//! Redline's tokens: what `serve` and `status` say about it must be true.

use super::{have, Env, BIN};
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

#[test]
fn a_secret_service_without_a_default_keyring_is_named_as_such() {
    if !have("dbus-run-session") || !have("gnome-keyring-daemon") {
        assert!(
            std::env::var_os("REDLINE_REQUIRE_KEYRING").is_none(),
            "REDLINE_REQUIRE_KEYRING is set but dbus-run-session or gnome-keyring-daemon is missing"
        );
        eprintln!("skipped: no dbus-run-session or gnome-keyring-daemon");
        return;
    }
    let env = Env::new();
    env.ok(&["workspace", "add", env.ws().to_str().unwrap()]);
    // Unlocked with an empty password, gnome-keyring answers but makes no login keyring: the
    // Secret Service has no default collection.
    let script = "printf '' | gnome-keyring-daemon --unlock --components=secrets >/dev/null \
                  && exec \"$0\" serve --headless";
    let mut serve = Command::new("dbus-run-session")
        .args(["--", "sh", "-c", script, BIN])
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", env.root.join("home"))
        .env("TMPDIR", env.root.join("tmp"))
        .env("XDG_CONFIG_HOME", env.root.join("config"))
        .env("XDG_RUNTIME_DIR", env.root.join("run"))
        .env("XDG_DATA_HOME", env.root.join("data"))
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(serve.stdout.as_mut().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert_eq!(line, "ready\n");
    let status: Value = env.json(&["status", "--json"]);
    env.ok(&["quit"]);
    let out = serve.wait_with_output().unwrap();
    let log = String::from_utf8_lossy(&out.stderr);
    let detail = status["keyring"]["detail"].as_str().unwrap();
    assert_eq!(status["keyring"]["available"], false);
    for said in [detail, &log] {
        assert!(!said.contains("no OS keyring"), "{said}");
        assert!(!said.contains("no result found"), "{said}");
        assert!(said.contains("has no default keyring"), "{said}");
    }
}
