//! The discovery files that let each CLI find a workspace's servers: written in the format
//! `clients` names for it, swept when Redline left them behind.

use crate::clients::{self, Format, Served, Transport};
use crate::platform::dirs::Dirs;
use crate::platform::private_file;
use crate::platform::process::ProcessTable;
use crate::platform::token::Token;
use crate::workspace::container::ContainerDirs;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub use crate::clients::format::{IDE_DISPLAY_NAME, IDE_NAME};
pub use error::DiscoveryError;

pub mod error;
pub mod hook_config;
pub mod hook_created;
mod hook_entry;
mod hook_file;
mod hook_groups;
mod hook_plugin;
mod hook_turn;
mod json_text;
mod keep_file;

/// What a workspace's server announces.
pub struct Announcement<'a> {
    /// Redline's own live PID: the CLIs drop files whose PID is dead.
    pub pid: u32,
    pub port: u16,
    /// Claude Code's WebSocket port; no lock for it without one.
    pub ws_port: Option<u16>,
    /// Amp's WebSocket port; no lock for it without one.
    pub amp_port: Option<u16>,
    /// Copilot CLI's unix socket (on Windows its named pipe, `\\.\pipe\…`); no lock for it
    /// without one.
    pub socket: Option<&'a Path>,
    pub workspace_path: &'a str,
    pub roots: &'a [PathBuf],
    pub token: &'a Token,
    /// The user said this workspace is trusted: only then may a lock claim it (Copilot CLI then
    /// skips its own folder-trust question).
    pub trusted: bool,
    /// When the files are written (ms since the epoch): Copilot CLI retries a fresh lock's socket.
    pub at_ms: u64,
}

impl Announcement<'_> {
    /// The port of the server a CLI of this transport connects to.
    fn port_for(&self, transport: Transport) -> Option<u16> {
        match transport {
            Transport::Http => Some(self.port),
            Transport::WebSocket => self.ws_port,
            Transport::AmpWebSocket => self.amp_port,
            // Names a socket, not a port: the HTTP port only keeps the lock names apart.
            Transport::UnixHttp => self.socket.map(|_| self.port),
        }
    }
}

/// Which files were written, and which could not be.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Written {
    pub files: Vec<PathBuf>,
    pub failures: Vec<(PathBuf, String)>,
    /// What each file was just after it was written: the file at that path later is the one
    /// Redline wrote only while it still is this.
    ids: BTreeMap<PathBuf, FileId>,
}

/// A file's identity: its device and inode (on Windows, only that it exists).
type FileId = (u64, u64);

fn file_id(path: &Path) -> Option<FileId> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Some((meta.dev(), meta.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        Some((0, 0))
    }
}

impl Written {
    /// Adds what another write did.
    pub fn extend(&mut self, other: Written) {
        self.files.extend(other.files);
        self.failures.extend(other.failures);
        self.ids.extend(other.ids);
    }

    /// The files still there as Redline wrote them, and why each of the others is not listed
    /// (removed, or replaced by another file).
    pub fn present(&self) -> (Vec<PathBuf>, Vec<(PathBuf, String)>) {
        let (mut here, mut gone) = (Vec::new(), Vec::new());
        for f in &self.files {
            match (file_id(f), self.ids.get(f)) {
                (Some(now), Some(then)) if now == *then => here.push(f.clone()),
                (None, _) => gone.push((f.clone(), "removed since Redline wrote it".into())),
                _ => gone.push((
                    f.clone(),
                    "replaced by another file since Redline wrote it".into(),
                )),
            }
        }
        (here, gone)
    }

    /// Removes the files still there as Redline wrote them; another's file in their place stays.
    pub fn remove(&self) {
        remove(&self.present().0);
    }
}

/// The file announcing a server on `port` to `cli`, in the directory `dirs` resolves for it.
pub fn file(dirs: &Dirs, cli: &Served, pid: u32, port: u16) -> PathBuf {
    dirs.discovery(cli)
        .join(cli.ide.discovery.format.file_name(pid, port))
}

/// Whom a file is for: the host's CLIs, or a container's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reader {
    Host,
    Container,
}

/// Writes every file (0600, atomically); a failure of one does not stop the others.
pub fn write(dirs: &Dirs, a: &Announcement<'_>) -> Written {
    let files = clients::served()
        .filter_map(|cli| {
            let port = a.port_for(cli.ide.transport)?;
            let body = body(cli.ide.discovery.format, a, port, Reader::Host);
            Some((file(dirs, &cli, a.pid, port), body))
        })
        .collect();
    write_all(files)
}

/// Writes the files a container's CLIs read into directories made for that container. The Qwen
/// and Claude locks carry no PID: Redline's means nothing in the container's PID namespace and
/// the CLIs would delete the lock; without one Qwen Code keeps a lock whose `workspacePath`
/// exists, Claude Code one it can connect to. Claude's `workspaceFolders` is the container path.
/// Copilot CLI's lock needs a live PID (1) and names the mounted socket; written only when the
/// announcement has a socket for containers.
pub fn write_for_container(place: &ContainerDirs, a: &Announcement<'_>) -> Written {
    let files = clients::served()
        .filter(|cli| cli.ide.reaches_host_from_containers())
        .filter_map(|cli| {
            let port = a.port_for(cli.ide.transport)?;
            let format = cli.ide.discovery.format;
            let path = place.dir(&cli).join(format.file_name(a.pid, port));
            Some((path, body(format, a, port, Reader::Container)))
        })
        .collect();
    write_all(files)
}

/// A file's JSON, as `format`'s CLI reads it; `clients::format` reads it back.
fn body(format: Format, a: &Announcement<'_>, port: u16, reader: Reader) -> Value {
    match format {
        Format::GeminiJson => gemini_json(a, port),
        Format::QwenLock => {
            let mut body = gemini_json(a, port);
            if reader == Reader::Host {
                body["ppid"] = json!(a.pid);
            }
            body
        }
        Format::ClaudeLock => claude_lock(a, reader),
        // Amp deletes a lock whose `pid` is dead, and connects to `localhost` only: nothing for
        // a container (its Amp could not reach the host).
        Format::AmpJson => json!({
            "workspaceFolders": a.roots.iter().map(|r| r.to_string_lossy()).collect::<Vec<_>>(),
            "port": port,
            "ideName": IDE_DISPLAY_NAME,
            "authToken": a.token.expose(),
            "pid": a.pid,
        }),
        Format::CopilotLock => copilot_for(a, reader),
    }
}

/// Gemini CLI's file, which Qwen Code's lock extends.
fn gemini_json(a: &Announcement<'_>, port: u16) -> Value {
    json!({
        "port": port,
        "workspacePath": a.workspace_path,
        "authToken": a.token.expose(),
        "ideInfo": {"name": IDE_NAME, "displayName": IDE_DISPLAY_NAME},
    })
}

/// Claude Code's lock. Claude Code deletes a lock whose `pid` is dead: Redline's own live PID,
/// and none in a container's.
fn claude_lock(a: &Announcement<'_>, reader: Reader) -> Value {
    let folders: Vec<String> = match reader {
        Reader::Host => a
            .roots
            .iter()
            .map(|r| r.to_string_lossy().into_owned())
            .collect(),
        Reader::Container => vec![a.workspace_path.to_owned()],
    };
    let mut body = json!({
        "workspaceFolders": folders,
        "ideName": IDE_DISPLAY_NAME,
        "transport": "ws",
        "runningInWindows": cfg!(windows),
        "authToken": a.token.expose(),
    });
    if reader == Reader::Host {
        body["pid"] = json!(a.pid);
    }
    body
}

/// Copilot CLI's lock for the host, or for a container.
fn copilot_for(a: &Announcement<'_>, reader: Reader) -> Value {
    match reader {
        Reader::Host => copilot_lock(a, a.roots.iter().map(|r| r.as_path()).collect()),
        // PID 1 is alive in every container (Copilot CLI drops a lock whose PID is not);
        // the socket is where the container sees it mounted.
        Reader::Container => {
            let mut body = copilot_lock(a, vec![Path::new(a.workspace_path)]);
            body["pid"] = json!(1);
            body["socketPath"] = json!(format!(
                "{}/{}",
                crate::workspace::container::CONTAINER_SOCKET_DIR,
                crate::workspace::container::SOCKET_NAME
            ));
            body
        }
    }
}

/// A Copilot CLI lock naming the workspace's socket, for `folders`: Copilot CLI connects by
/// itself only from a directory a lock lists exactly.
pub fn copilot_lock(a: &Announcement<'_>, folders: Vec<&Path>) -> Value {
    let folders: Vec<String> = folders
        .iter()
        .map(|f| f.to_string_lossy().into_owned())
        .collect();
    let mut body = json!({
        "socketPath": a.socket.map(|s| s.to_string_lossy().into_owned()),
        // Never read by Copilot CLI (its schema only requires it); "pipe" is what VS Code writes.
        "scheme": if cfg!(windows) { "pipe" } else { "unix" },
        "headers": {"Authorization": format!("Bearer {}", a.token.expose())},
        "pid": a.pid,
        "timestamp": a.at_ms,
        "workspaceFolders": folders,
        "ideName": IDE_DISPLAY_NAME,
    });
    if a.trusted {
        body["isTrusted"] = json!(true);
    }
    body
}

/// Writes the Copilot CLI lock listing `folder` only (0600, atomically), for a session running
/// there: `tag` keeps its name apart from the workspace's own lock.
pub fn write_folder_lock(dirs: &Dirs, a: &Announcement<'_>, folder: &Path) -> Written {
    let cli = &clients::COPILOT;
    let name = Format::CopilotLock.file_name(a.pid, a.port);
    let tagged = name.replace(".lock", &format!("-{}.lock", folder_tag(folder)));
    let path = dirs.discovery(cli).join(tagged);
    write_all(vec![(path, copilot_lock(a, vec![folder]))])
}

/// A short stable name for a folder.
fn folder_tag(folder: &Path) -> String {
    format!(
        "{:08x}",
        crate::workspace::container::fnv(&folder.to_string_lossy())
    )
}

fn write_all(files: Vec<(PathBuf, Value)>) -> Written {
    let mut written = Written::default();
    for (path, body) in files {
        // The folder and every one above it: another user able to move it away could put
        // their own in its place, holding a file that names their port.
        #[cfg(unix)]
        if let Some(Err(why)) = path.parent().map(crate::platform::safe_dir::prepare) {
            tracing::warn!("discovery file not written: {why}");
            written.failures.push((path, why.to_string()));
            continue;
        }
        match private_file::write(&path, body.to_string().as_bytes()) {
            Ok(()) => {
                if let Some(id) = file_id(&path) {
                    written.ids.insert(path.clone(), id);
                }
                written.files.push(path)
            }
            Err(e) => {
                tracing::warn!("could not write discovery file: {e}");
                written.failures.push((path, e.to_string()));
            }
        }
    }
    written
}

/// Removes every file of ours from the container directories: only one Redline runs per user,
/// so at start they are all left from an earlier run. The directories stay: a running
/// container's bind mounts hold them.
pub fn sweep_containers(dirs: &Dirs) -> Vec<PathBuf> {
    let mut removed = Vec::new();
    for ws in entries(&crate::workspace::container::containers_dir(dirs)) {
        for place in entries(&ws) {
            for cli in clients::served() {
                for path in entries(&place.join(cli.id)) {
                    if read_ours(cli.ide.discovery.format, &path).is_some() {
                        removed.push(path);
                    }
                }
            }
        }
    }
    remove(&removed);
    removed
}

pub fn remove(files: &[PathBuf]) {
    for f in files {
        if let Err(e) = std::fs::remove_file(f) {
            if e.kind() != std::io::ErrorKind::NotFound {
                tracing::warn!("could not remove {}: {e}", f.display());
            }
        }
    }
}

/// Removes files that Redline left behind: ours by what the body says, with a dead PID or this
/// very PID (nothing is written yet when this runs). Other IDEs' files are never touched.
pub fn sweep_stale(dirs: &Dirs, procs: &dyn ProcessTable, own_pid: u32) -> Vec<PathBuf> {
    let mut removed = Vec::new();
    let stale = |pid: Option<u32>| match pid {
        Some(pid) => pid == own_pid || !procs.is_alive(pid),
        None => true,
    };
    for cli in clients::served() {
        let format = cli.ide.discovery.format;
        for path in entries(&dirs.discovery(&cli)) {
            let Some((name_pid, body)) = read_ours(format, &path) else {
                continue;
            };
            if stale(format.pid_of(name_pid, &body)) {
                removed.push(path);
            }
        }
    }
    remove(&removed);
    removed
}

/// The PID in the name (if any) and the JSON of a file that `format`'s CLI would read and that
/// Redline wrote.
fn read_ours(format: Format, path: &Path) -> Option<(Option<u32>, Value)> {
    let (name_pid, _) = format.parse_name(path.file_name()?.to_str()?)?;
    let body: Value = serde_json::from_slice(&std::fs::read(path).ok()?).ok()?;
    format.is_redlines(&body).then_some((name_pid, body))
}

fn entries(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default()
}

#[cfg(all(test, unix))]
mod tests;
