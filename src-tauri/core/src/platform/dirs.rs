//! Where Redline and the CLIs keep their files, resolved from an injected environment.

use crate::clients::{self, Cli};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// The directories Redline reads and writes, and where the CLIs look for discovery files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dirs {
    /// Holds `config.json`.
    pub config: PathBuf,
    /// Holds what Redline keeps that is no setting: the workspaces' checkpoints and turns.
    pub data: PathBuf,
    /// Holds the control socket; private to the user (0700).
    pub runtime: PathBuf,
    /// The user's home directory.
    pub home: PathBuf,
    /// Node's `os.tmpdir()`, where Gemini CLI looks.
    pub tmp: PathBuf,
    /// The CLIs' home variables that are set (e.g. `QWEN_HOME`, `CLAUDE_CONFIG_DIR`).
    pub vars: BTreeMap<String, PathBuf>,
}

impl Dirs {
    /// Resolves from this process's environment.
    pub fn from_env() -> Self {
        Self::resolve(&std::env::vars().collect())
    }

    /// Resolves from the given environment, so tests isolate a run with temp dirs.
    pub fn resolve(env: &HashMap<String, String>) -> Self {
        let var = |k: &str| env.get(k).filter(|v| !v.is_empty()).map(PathBuf::from);
        let home = home_dir(&var);
        let tmp = node_tmpdir(env);
        let vars = clients::served()
            .filter_map(|c| c.ide.discovery.dir.var)
            .chain(clients::HookCli::all().filter_map(|h| h.config.var))
            .filter_map(|k| Some((k.to_owned(), var(k)?)))
            .collect();
        Dirs {
            config: config_dir(&var, &home),
            data: data_dir(&var, &home),
            runtime: runtime_dir(&var, &tmp),
            home,
            tmp,
            vars,
        }
    }

    /// Every directory under one root, no CLI home variable set: a world of its own for tests.
    pub fn under(root: &Path) -> Self {
        // The runtime dir's name is the control pipe's name on Windows, which is per machine:
        // tests running side by side must not answer each other's requests.
        let tag = root
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        Dirs {
            config: root.join("config"),
            data: root.join("data"),
            runtime: root.join(format!("run-{tag}")),
            home: root.join("home"),
            tmp: root.join("tmp"),
            vars: Default::default(),
        }
    }

    /// The directory where `cli` looks for discovery files: none (empty) for a CLI Redline
    /// serves no IDE protocol.
    pub fn discovery(&self, cli: &Cli) -> PathBuf {
        cli.ide
            .map(|ide| self.locate(&ide.discovery.dir))
            .unwrap_or_default()
    }

    /// Where a CLI's location is on this machine, with the CLI home variables that are set.
    pub fn locate(&self, l: &clients::Location) -> PathBuf {
        l.resolve(&self.home, &self.tmp, &|k| self.vars.get(k).cloned())
    }

    pub fn config_file(&self) -> PathBuf {
        self.config.join("config.json")
    }

    pub fn control_socket(&self) -> PathBuf {
        self.runtime.join("control.sock")
    }
}

fn home_dir(var: &impl Fn(&str) -> Option<PathBuf>) -> PathBuf {
    let found = if cfg!(windows) {
        var("USERPROFILE")
    } else {
        var("HOME")
    };
    found.unwrap_or_else(|| PathBuf::from("/"))
}

fn config_dir(var: &impl Fn(&str) -> Option<PathBuf>, home: &Path) -> PathBuf {
    let base = if cfg!(windows) {
        var("APPDATA").unwrap_or_else(|| home.join("AppData").join("Roaming"))
    } else if cfg!(target_os = "macos") {
        home.join("Library").join("Application Support")
    } else {
        var("XDG_CONFIG_HOME").unwrap_or_else(|| home.join(".config"))
    };
    base.join("redline")
}

fn data_dir(var: &impl Fn(&str) -> Option<PathBuf>, home: &Path) -> PathBuf {
    let base = if cfg!(windows) {
        var("LOCALAPPDATA").unwrap_or_else(|| home.join("AppData").join("Local"))
    } else if cfg!(target_os = "macos") {
        home.join("Library").join("Application Support")
    } else {
        var("XDG_DATA_HOME").unwrap_or_else(|| home.join(".local").join("share"))
    };
    base.join("redline")
}

fn runtime_dir(var: &impl Fn(&str) -> Option<PathBuf>, tmp: &Path) -> PathBuf {
    if cfg!(target_os = "linux") {
        if let Some(dir) = var("XDG_RUNTIME_DIR") {
            return dir.join("redline");
        }
    }
    tmp.join(format!("redline-{}", user_tag()))
}

#[cfg(unix)]
fn user_tag() -> String {
    // SAFETY: getuid cannot fail and touches no memory.
    unsafe { libc::getuid() }.to_string()
}

#[cfg(not(unix))]
fn user_tag() -> String {
    std::env::var("USERNAME").unwrap_or_else(|_| "user".into())
}

/// Node's `os.tmpdir()`, which is where Gemini CLI looks; Rust's `temp_dir()` differs.
pub fn node_tmpdir(env: &HashMap<String, String>) -> PathBuf {
    let var = |k: &str| env.get(k).filter(|v| !v.is_empty()).cloned();
    if cfg!(windows) {
        let dir = var("TEMP")
            .or_else(|| var("TMP"))
            .or_else(|| var("SystemRoot").map(|r| format!("{r}\\temp")))
            .or_else(|| var("windir").map(|r| format!("{r}\\temp")))
            .unwrap_or_else(|| "C:\\Windows\\temp".into());
        let trimmed = if dir.len() > 1 && dir.ends_with('\\') && !dir.ends_with(":\\") {
            &dir[..dir.len() - 1]
        } else {
            &dir
        };
        PathBuf::from(trimmed)
    } else {
        let dir = var("TMPDIR")
            .or_else(|| var("TMP"))
            .or_else(|| var("TEMP"))
            .unwrap_or_else(|| "/tmp".into());
        let trimmed = if dir.len() > 1 && dir.ends_with('/') {
            &dir[..dir.len() - 1]
        } else {
            &dir
        };
        PathBuf::from(trimmed)
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use crate::clients::{CLAUDE, GEMINI, QWEN};

    fn env(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn follows_node_tmpdir_order_and_strips_trailing_slash() {
        assert_eq!(node_tmpdir(&env(&[])), PathBuf::from("/tmp"));
        assert_eq!(
            node_tmpdir(&env(&[("TEMP", "/c"), ("TMP", "/b/")])),
            PathBuf::from("/b")
        );
        assert_eq!(
            node_tmpdir(&env(&[("TMPDIR", "/a/"), ("TMP", "/b")])),
            PathBuf::from("/a")
        );
        assert_eq!(node_tmpdir(&env(&[("TMPDIR", "/")])), PathBuf::from("/"));
    }

    #[test]
    fn linux_dirs_follow_xdg_qwen_home_and_claude_config_dir() {
        let d = Dirs::resolve(&env(&[
            ("HOME", "/h"),
            ("TMPDIR", "/t"),
            ("XDG_CONFIG_HOME", "/c"),
            ("XDG_RUNTIME_DIR", "/r"),
        ]));
        assert_eq!(d.config, PathBuf::from("/c/redline"));
        assert_eq!(d.runtime, PathBuf::from("/r/redline"));
        assert_eq!(d.discovery(&GEMINI), PathBuf::from("/t/gemini/ide"));
        assert_eq!(d.discovery(&QWEN), PathBuf::from("/h/.qwen/ide"));
        assert_eq!(d.discovery(&CLAUDE), PathBuf::from("/h/.claude/ide"));
        let d = Dirs::resolve(&env(&[
            ("HOME", "/h"),
            ("QWEN_HOME", "/q"),
            ("CLAUDE_CONFIG_DIR", "/cc"),
        ]));
        assert_eq!(d.discovery(&CLAUDE), PathBuf::from("/cc/ide"));
        assert_eq!(d.config, PathBuf::from("/h/.config/redline"));
        assert_eq!(d.discovery(&QWEN), PathBuf::from("/q/ide"));
        assert!(d.runtime.starts_with("/tmp"));
    }
}

#[cfg(all(test, windows))]
mod windows_tests {
    use super::*;
    use crate::clients::{CLAUDE, GEMINI, QWEN};

    fn env(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    /// Node's os.tmpdir() on Windows: %TEMP%, %TMP%, %SystemRoot%\temp, %windir%\temp; a
    /// trailing backslash goes unless it is a drive root.
    #[test]
    fn follows_node_tmpdir_on_windows() {
        assert_eq!(
            node_tmpdir(&env(&[("TEMP", r"C:\t\"), ("TMP", r"D:\x")])),
            PathBuf::from(r"C:\t")
        );
        assert_eq!(
            node_tmpdir(&env(&[("TMP", r"D:\x")])),
            PathBuf::from(r"D:\x")
        );
        assert_eq!(
            node_tmpdir(&env(&[("SystemRoot", r"C:\Windows")])),
            PathBuf::from(r"C:\Windows\temp")
        );
        assert_eq!(
            node_tmpdir(&env(&[("windir", r"E:\Win")])),
            PathBuf::from(r"E:\Win\temp")
        );
        assert_eq!(
            node_tmpdir(&env(&[("TEMP", r"C:\")])),
            PathBuf::from(r"C:\")
        );
        assert_eq!(node_tmpdir(&env(&[])), PathBuf::from(r"C:\Windows\temp"));
    }

    #[test]
    fn windows_dirs_use_appdata_and_userprofile() {
        let d = Dirs::resolve(&env(&[
            ("USERPROFILE", r"C:\Users\me"),
            ("APPDATA", r"C:\Users\me\AppData\Roaming"),
            ("TEMP", r"C:\Users\me\AppData\Local\Temp"),
        ]));
        assert_eq!(
            d.config,
            PathBuf::from(r"C:\Users\me\AppData\Roaming\redline")
        );
        assert_eq!(
            d.discovery(&GEMINI),
            PathBuf::from(r"C:\Users\me\AppData\Local\Temp\gemini\ide")
        );
        assert_eq!(d.discovery(&QWEN), PathBuf::from(r"C:\Users\me\.qwen\ide"));
        assert_eq!(
            d.discovery(&CLAUDE),
            PathBuf::from(r"C:\Users\me\.claude\ide")
        );
    }
}

#[cfg(all(test, target_os = "macos"))]
mod macos_tests {
    use super::*;

    #[test]
    fn macos_dirs_use_application_support_and_tmpdir() {
        let env: HashMap<String, String> = [("HOME", "/Users/me"), ("TMPDIR", "/var/folders/x/T/")]
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let d = Dirs::resolve(&env);
        assert_eq!(
            d.config,
            PathBuf::from("/Users/me/Library/Application Support/redline")
        );
        // Node strips the trailing slash of macOS's per-user TMPDIR.
        assert_eq!(
            d.discovery(&crate::clients::GEMINI),
            PathBuf::from("/var/folders/x/T/gemini/ide")
        );
        assert_eq!(d.runtime.parent(), Some(Path::new("/var/folders/x/T")));
    }
}
