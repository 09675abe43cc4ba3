//! The settings a review window saves, read back from the config file by a new instance: the
//! editor to open files in (chosen over `$VISUAL`/`$EDITOR`) and the first launch's welcome.

use crate::common::start;
use redline_core::runtime::instance::{Instance, World};
use redline_core::surfaces::editor_jump;
use redline_core::workspace::config::Config;
use redline_core::workspace::settings::{HistoryBounds, PopupMode, Settings};
use std::sync::Arc;

/// A second instance on the same config file: what the next start of the app reads.
async fn restart(dirs: &redline_core::platform::dirs::Dirs) -> Arc<Instance> {
    Instance::start(World::isolated(dirs.clone()))
        .await
        .unwrap()
}

#[tokio::test]
async fn the_editor_setting_is_saved_read_back_and_chosen_over_editor() {
    let f = start().await;
    let env = |k: &str| match k {
        "VISUAL" => Some("gvim".to_owned()),
        "EDITOR" => Some("vi".to_owned()),
        _ => None,
    };
    // Unset: the environment's, `$VISUAL` first.
    let unset = f.instance.workspaces().settings().await;
    assert_eq!(unset.editor, None);
    assert_eq!(editor_jump::chosen(&unset, env).as_deref(), Some("gvim"));

    let chosen = Settings {
        popup: PopupMode::TrayOnly,
        keep_open: true,
        editor: Some("code --wait".into()),
        history: HistoryBounds { turns: 7, mib: 64 },
    };
    f.instance
        .workspaces()
        .set_settings(chosen.clone())
        .await
        .unwrap();
    f.instance.shutdown().await;
    // On disk, beside the other settings, and what the next start reads.
    let on_disk = Config::load(&f.dirs.config_file()).unwrap();
    assert_eq!(on_disk.settings, chosen);
    let again = restart(&f.dirs).await;
    let read_back = again.workspaces().settings().await;
    assert_eq!(read_back, chosen);
    assert_eq!(
        editor_jump::chosen(&read_back, env).as_deref(),
        Some("code --wait")
    );
    // The command it gives opens the file in that editor, at the line.
    let command = editor_jump::command(
        &editor_jump::chosen(&read_back, env).unwrap(),
        &f.ws.join("a.txt"),
        2,
    )
    .unwrap();
    let words: Vec<String> = command
        .argv
        .iter()
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    let at = format!("{}:2", f.ws.join("a.txt").display());
    assert_eq!(words, ["code", "--wait", "-g", at.as_str()]);

    // A blank editor is no choice: the environment's again.
    let blank = Settings {
        editor: Some("  ".into()),
        ..chosen
    };
    again.workspaces().set_settings(blank).await.unwrap();
    let blank = again.workspaces().settings().await;
    assert_eq!(editor_jump::chosen(&blank, env).as_deref(), Some("gvim"));
    again.shutdown().await;
}

#[tokio::test]
async fn the_first_launch_is_welcomed_once_and_remembered_in_the_config() {
    let f = start().await;
    assert!(
        f.instance.workspaces().first_launch().await.unwrap(),
        "a fresh home"
    );
    assert!(
        !f.instance.workspaces().first_launch().await.unwrap(),
        "the same run"
    );
    f.instance.shutdown().await;
    assert!(Config::load(&f.dirs.config_file()).unwrap().welcomed);
    let again = restart(&f.dirs).await;
    assert!(
        !again.workspaces().first_launch().await.unwrap(),
        "a second start"
    );
    again.shutdown().await;
}
