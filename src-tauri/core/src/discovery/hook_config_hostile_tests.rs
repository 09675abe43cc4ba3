//! What a careless or hostile home puts where a CLI's hook config goes: a FIFO, a link to an
//! endless device, a link into the user's dotfiles.

use super::*;
use crate::clients::HookCli;
use std::sync::mpsc;
use std::time::Duration;

/// Runs `f` on its own thread: a read that blocks (a FIFO nobody writes) must fail this test,
/// not hang it.
fn within<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(20))
        .unwrap_or_else(|_| panic!("{what} did not return: it blocked on the file"))
}

#[test]
fn a_fifo_or_a_link_to_dev_zero_at_the_config_path_is_refused_without_blocking_and_left() {
    let program = Path::new("/usr/bin/redline");
    for site in HookCli::all() {
        let tmp = tempfile::tempdir().unwrap();
        let fifo = tmp.path().join("fifo.json");
        nix_mkfifo(&fifo);
        let zero = tmp.path().join("zero.json");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        for file in [fifo.clone(), zero.clone()] {
            let f = file.clone();
            let status = within(&format!("{}'s status of {f:?}", site.id()), move || {
                status(&site, &f, program).map(|_| ())
            });
            assert!(status.is_err(), "{}: {file:?} read as a config", site.id());
            let f = file.clone();
            let installed = within(&format!("{}'s install into {f:?}", site.id()), move || {
                install(&site, &f, program).map(|_| ())
            });
            assert!(installed.is_err(), "{}: installed into {file:?}", site.id());
            let f = file.clone();
            let removed = within(&format!("{}'s uninstall of {f:?}", site.id()), move || {
                uninstall(&site, &f).map(|_| ())
            });
            assert!(
                removed.is_err(),
                "{}: {file:?} taken for Redline's",
                site.id()
            );
        }
        let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
        assert!(
            std::os::unix::fs::FileTypeExt::is_fifo(&kind),
            "{}",
            site.id()
        );
        assert_eq!(std::fs::read_link(&zero).unwrap(), Path::new("/dev/zero"));
    }
}

#[test]
fn a_settings_file_linked_from_dotfiles_gets_the_hook_through_the_link_which_stays() {
    let tmp = tempfile::tempdir().unwrap();
    let dotfiles = tmp.path().join("dotfiles/claude-settings.json");
    std::fs::create_dir_all(dotfiles.parent().unwrap()).unwrap();
    std::fs::write(&dotfiles, r#"{"theme": "dark"}"#).unwrap();
    let file = tmp.path().join("home/.claude/settings.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(&dotfiles, &file).unwrap();
    let site = &HookCli::of_cli(&crate::clients::CLAUDE);
    let program = Path::new("/usr/bin/redline");

    assert_eq!(install(site, &file, program).unwrap(), HookInstalled::Added);
    assert!(std::fs::symlink_metadata(&file).unwrap().is_symlink());
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&dotfiles).unwrap()).unwrap();
    assert_eq!(doc["theme"], "dark");
    assert!(status(site, &file, program).unwrap().current);
    assert!(uninstall(site, &file).unwrap());
    assert!(std::fs::symlink_metadata(&file).unwrap().is_symlink());
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&dotfiles).unwrap()).unwrap();
    assert_eq!(doc, json!({"theme": "dark"}));
}

fn nix_mkfifo(path: &Path) {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}
