//! The app's bundle identifier, and the review window's web storage carried over from a former one.
//
// Only the webview's data directory is named after the identifier: Redline's config dir and
// keyring service are "redline", and the start-at-login entry is named after the product. So a
// changed identifier would lose the window's own storage (its layout choice) and nothing else.

use std::collections::HashMap;
use std::path::PathBuf;

/// `identifier` in tauri.conf.json. Not ending in `.app`: macOS reads that as a bundle extension.
pub const IDENTIFIER: &str = "dev.redline.desktop";

/// Identifiers earlier releases used, newest first.
pub const FORMER: &[&str] = &["dev.redline.app"];

/// Where the webview keeps its data for `identifier`, as Tauri and WebKit resolve it here: the
/// app's local data dir on Linux and Windows (Tauri passes it to WebKitGTK and WebView2), WebKit's
/// per-bundle store on macOS.
pub fn data_dir(env: &HashMap<String, String>, identifier: &str) -> Option<PathBuf> {
    let var = |k: &str| env.get(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    let base = if cfg!(windows) {
        var("LOCALAPPDATA")?
    } else if cfg!(target_os = "macos") {
        var("HOME")?.join("Library").join("WebKit")
    } else {
        var("XDG_DATA_HOME").or_else(|| var("HOME").map(|h| h.join(".local").join("share")))?
    };
    Some(base.join(identifier))
}

/// Moves a former identifier's webview data to the current one's place, unless the current one
/// already has some. Returns where it moved from. Runs before the webview is created.
pub fn carry_over(env: &HashMap<String, String>) -> std::io::Result<Option<PathBuf>> {
    let Some(current) = data_dir(env, IDENTIFIER) else {
        return Ok(None);
    };
    if current.exists() {
        return Ok(None);
    }
    for former in FORMER {
        let Some(old) = data_dir(env, former) else {
            continue;
        };
        if old.is_dir() {
            // Same parent, so a rename: atomic, and nothing is left half-copied.
            std::fs::rename(&old, &current)?;
            return Ok(Some(old));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(root: &std::path::Path) -> HashMap<String, String> {
        let root = root.to_string_lossy().into_owned();
        [
            ("HOME", root.clone()),
            ("XDG_DATA_HOME", format!("{root}/share")),
            ("LOCALAPPDATA", format!("{root}/local")),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
    }

    #[test]
    fn the_identifier_is_the_one_tauri_builds_with_and_no_bundle_extension() {
        let conf = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tauri.conf.json");
        let conf: serde_json::Value =
            serde_json::from_slice(&std::fs::read(conf).unwrap()).unwrap();
        assert_eq!(conf["identifier"], IDENTIFIER);
        assert!(!IDENTIFIER.ends_with(".app"));
        assert!(!FORMER.contains(&IDENTIFIER));
    }

    #[test]
    fn the_former_identifiers_web_storage_moves_once_and_never_over_newer_data() {
        let tmp = tempfile::tempdir().unwrap();
        let env = env(tmp.path());
        let old = data_dir(&env, "dev.redline.app").unwrap();
        let new = data_dir(&env, IDENTIFIER).unwrap();
        let stored = std::path::Path::new("localstorage").join("app.db");
        std::fs::create_dir_all(old.join("localstorage")).unwrap();
        std::fs::write(old.join(&stored), "layout=unified").unwrap();

        assert_eq!(carry_over(&env).unwrap(), Some(old.clone()));
        assert_eq!(
            std::fs::read_to_string(new.join(&stored)).unwrap(),
            "layout=unified"
        );
        assert!(!old.exists());
        // Once moved, later starts leave it alone.
        assert_eq!(carry_over(&env).unwrap(), None);

        // Data of the current identifier is never replaced by a former one's.
        std::fs::create_dir_all(old.join("localstorage")).unwrap();
        std::fs::write(old.join(&stored), "layout=split").unwrap();
        assert_eq!(carry_over(&env).unwrap(), None);
        assert_eq!(
            std::fs::read_to_string(new.join(&stored)).unwrap(),
            "layout=unified"
        );
    }

    #[test]
    fn a_first_install_has_nothing_to_carry_over() {
        let tmp = tempfile::tempdir().unwrap();
        assert_eq!(carry_over(&env(tmp.path())).unwrap(), None);
        assert_eq!(carry_over(&HashMap::new()).unwrap(), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn linux_follows_xdg_data_home_as_tauri_does() {
        let e: HashMap<String, String> = [("HOME".to_string(), "/h".to_string())].into();
        assert_eq!(
            data_dir(&e, IDENTIFIER),
            Some(PathBuf::from("/h/.local/share/dev.redline.desktop"))
        );
    }
}
