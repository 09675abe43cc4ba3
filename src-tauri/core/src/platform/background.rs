//! The desktop app in the background: its log, a file under the user's state directory (0600 in
//! a 0700 folder, kept under a size bound by turning it into one older file; log lines carry no
//! token), its own session away from the terminal, and its standard output let go.

use crate::platform::private_file;
use std::collections::HashMap;
use std::fs::File;
use std::io::{self, BufRead, Read};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Past this the file becomes `redline.log.1` (replacing the older one) and a new one starts:
/// at most twice this on disk, however long Redline runs.
pub const MAX_BYTES: u64 = 1 << 20;

/// The file this process logs to, once it does: `redline status` and the tray name it.
static IN_USE: OnceLock<PathBuf> = OnceLock::new();

/// Where the log goes, from this process's environment.
pub fn path_from_env() -> PathBuf {
    resolve(&std::env::vars().collect())
}

/// Where the log goes: `$XDG_STATE_HOME/redline/redline.log`, else
/// `~/.local/state/redline/redline.log` on Linux; `~/Library/Logs/Redline/redline.log` on macOS;
/// `%LOCALAPPDATA%\redline\redline.log` on Windows.
pub fn resolve(env: &HashMap<String, String>) -> PathBuf {
    let var = |k: &str| env.get(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    let home_var = if cfg!(windows) { "USERPROFILE" } else { "HOME" };
    let home = var(home_var).unwrap_or_else(|| PathBuf::from("/"));
    let dir = if cfg!(windows) {
        var("LOCALAPPDATA")
            .unwrap_or_else(|| home.join("AppData").join("Local"))
            .join("redline")
    } else if cfg!(target_os = "macos") {
        home.join("Library").join("Logs").join("Redline")
    } else {
        var("XDG_STATE_HOME")
            .unwrap_or_else(|| home.join(".local").join("state"))
            .join("redline")
    };
    dir.join("redline.log")
}

/// Records that this process logs to `path`.
pub fn set_in_use(path: PathBuf) {
    let _ = IN_USE.set(path);
}

/// The file this process logs to; none when it logs to its standard error.
pub fn in_use() -> Option<PathBuf> {
    IN_USE.get().cloned()
}

/// The older file a full log becomes.
pub fn older(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".1");
    PathBuf::from(name)
}

/// Opens the log to append, in a 0700 folder, 0600 even if it was wider; a log already over
/// the bound is moved aside first.
pub fn open(path: &Path) -> io::Result<File> {
    let dir = path.parent().unwrap_or(Path::new("."));
    private_file::ensure_dir(dir).map_err(|e| io::Error::other(e.to_string()))?;
    if std::fs::metadata(path).is_ok_and(|m| m.len() > MAX_BYTES) {
        std::fs::rename(path, older(path))?;
    }
    let mut opts = std::fs::OpenOptions::new();
    opts.create(true).append(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // A link planted at the log's place is refused, never followed: appending through it
        // (and making its target 0600) would change a file the user did not ask for.
        opts.mode(0o600).custom_flags(libc::O_NOFOLLOW);
    }
    let file = opts.open(path)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    }
    Ok(file)
}

/// The last `n` lines of the log written past byte `from`, to say why Redline stopped before
/// it was up.
pub fn tail(path: &Path, from: u64, n: usize) -> Vec<String> {
    use std::io::Seek;
    let Ok(mut file) = File::open(path) else {
        return vec![];
    };
    // Moved aside meanwhile (it was over the bound): the new file is all this run's.
    let from = if file.metadata().is_ok_and(|m| m.len() < from) {
        0
    } else {
        from
    };
    if file.seek(io::SeekFrom::Start(from)).is_err() {
        return vec![];
    }
    let mut last = std::collections::VecDeque::with_capacity(n + 1);
    // Bounded like the file: a line past the bound is cut, never read whole into memory.
    for line in io::BufReader::new(file.take(MAX_BYTES)).lines() {
        let Ok(line) = line else { break };
        if last.len() == n {
            last.pop_front();
        }
        last.push_back(line);
    }
    last.into()
}

/// The log as this process's standard error, so that what is written there (a panic, the review
/// window's own lines passed on) lands in it too, under the same bound.
#[cfg(unix)]
pub struct StderrLog {
    path: PathBuf,
    file: File,
}

#[cfg(unix)]
impl StderrLog {
    /// Opens the log and makes it standard error.
    pub fn take_over(path: &Path) -> io::Result<StderrLog> {
        let file = open(path)?;
        onto_stderr(&file)?;
        Ok(StderrLog {
            path: path.to_owned(),
            file,
        })
    }

    /// Once past the bound: the file becomes the older one and a new one is standard error.
    fn keep_bounded(&mut self) -> io::Result<()> {
        if self.file.metadata()?.len() <= MAX_BYTES {
            return Ok(());
        }
        std::fs::rename(&self.path, older(&self.path))?;
        let file = open(&self.path)?;
        onto_stderr(&file)?;
        self.file = file;
        Ok(())
    }
}

#[cfg(unix)]
impl io::Write for StderrLog {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // A log that cannot be moved aside still takes the line: losing it would hide why.
        let _ = self.keep_bounded();
        io::Write::write(&mut self.file, buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        io::Write::flush(&mut self.file)
    }
}

#[cfg(unix)]
fn onto_stderr(file: &File) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    // SAFETY: dup2 on two descriptors this process owns; fd 2 is replaced atomically.
    if unsafe { libc::dup2(file.as_raw_fd(), libc::STDERR_FILENO) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Points standard output at the null device: once the process that started this one has read
/// what it waited for and gone, a write there (of this process or a child that inherited it)
/// must not fail or kill the writer with SIGPIPE.
#[cfg(unix)]
pub fn stdout_to_null() -> io::Result<()> {
    use std::os::fd::AsRawFd;
    let null = std::fs::OpenOptions::new().write(true).open("/dev/null")?;
    // SAFETY: dup2 on two descriptors this process owns.
    if unsafe { libc::dup2(null.as_raw_fd(), libc::STDOUT_FILENO) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Makes `cmd`'s process the leader of a new session, with no controlling terminal: the
/// terminal's Ctrl+C and hang-up do not reach it.
#[cfg(unix)]
pub fn new_session(cmd: &mut std::process::Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: setsid is async-signal-safe and touches no memory of the parent.
    unsafe {
        cmd.pre_exec(|| {
            if libc::setsid() < 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

#[cfg(test)]
mod tests;
