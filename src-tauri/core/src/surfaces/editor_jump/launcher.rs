//! The launcher a terminal editor starts through: the editor's words reach it as files in the
//! private runtime dir, so no terminal, shell or tmux ever reads a file name as a command.

use crate::error::{Error, Result};
use crate::platform::private_file;
use std::ffi::OsString;
use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// The launcher, fixed: nothing of a launch is ever written into it. It reads each word of the
/// command from its own file (a shell variable holds any byte but NUL, which no path holds), so
/// a word is data to it, never code; the `.` keeps the trailing newlines `$()` would strip.
const SCRIPT: &str = r#"# Redline's editor launcher: runs the command whose words are the files 0, 1, ... of the
# folder it is given, from the folder its file cwd names, after removing that folder.
launch=$1
word() {
	w=$(cat -- "$launch/$1" && printf .) || exit 1
	w=${w%.}
}
[ -f "$launch/0" ] || { echo "redline: $launch holds no command to run" >&2; exit 1; }
cwd=
if [ -f "$launch/cwd" ]; then word cwd; cwd=$w; fi
set --
i=0
while [ -f "$launch/$i" ]; do
	word "$i"
	set -- "$@" "$w"
	i=$((i + 1))
done
rm -rf -- "$launch"
[ -z "$cwd" ] || cd -- "$cwd" || echo "redline: the editor starts in $PWD" >&2
exec "$@"
"#;

/// The launcher's file in the runtime dir.
const NAME: &str = "editor-launcher";

/// The start of each launch's folder's name.
const PREFIX: &str = "editor-launch-";

/// A launch's folder older than this was never run (its terminal failed): it is removed.
const STALE: Duration = Duration::from_secs(3600);

/// One launch, written: the command that runs it, and its folder.
#[derive(Debug)]
pub(super) struct Launch {
    /// `/bin/sh <launcher> <folder>`: words every shell and tmux read as themselves.
    pub command: Vec<String>,
    folder: PathBuf,
}

impl Launch {
    /// Removes the launch's folder, when the terminal that would have run it did not start.
    pub fn abandon(self) {
        let _ = std::fs::remove_dir_all(&self.folder);
    }
}

/// Writes `argv` (and `cwd`, the folder to start in) to a new private folder under `runtime`,
/// the launcher beside it, and returns the command that runs them.
pub(super) fn prepare(runtime: &Path, argv: &[OsString], cwd: Option<&Path>) -> Result<Launch> {
    let launcher = runtime.join(NAME);
    let folder = runtime.join(format!("{PREFIX}{}", random_tag(runtime)?));
    let command = vec!["/bin/sh".to_owned(), plain(&launcher)?, plain(&folder)?];
    // Checked once it exists: one another user made first (in a shared /tmp) is refused.
    if let Err(why) = crate::platform::safe_dir::prepare(runtime) {
        return Err(Error::Usage(why.to_string()));
    }
    sweep(runtime);
    private_file::write(&launcher, SCRIPT.as_bytes())?;
    let mut dir = std::fs::DirBuilder::new();
    std::os::unix::fs::DirBuilderExt::mode(&mut dir, 0o700);
    dir.create(&folder).map_err(|e| Error::io(&folder, e))?;
    let launch = Launch { command, folder };
    let words = argv
        .iter()
        .enumerate()
        .map(|(i, w)| (i.to_string(), w.as_os_str()));
    let cwd = cwd.map(|c| ("cwd".to_owned(), c.as_os_str()));
    for (name, word) in cwd.into_iter().chain(words) {
        if let Err(e) = write_new(&launch.folder.join(name), word.as_bytes()) {
            launch.abandon();
            return Err(e);
        }
    }
    Ok(launch)
}

/// `path` as a word that a shell (the one a terminal may hand its command line to) and tmux
/// read as itself, else why Redline will not hand it to them.
fn plain(path: &Path) -> Result<String> {
    let text = path.to_str().filter(|t| {
        t.starts_with('/')
            && t.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"/._-+,:@%".contains(&b))
    });
    text.map(str::to_owned).ok_or_else(|| {
        Error::Usage(format!(
            "{} holds characters a terminal's shell would read, so no terminal editor is \
             started from it; set XDG_RUNTIME_DIR (or TMPDIR) to a plain absolute path",
            path.display()
        ))
    })
}

fn write_new(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create_new(true);
    std::os::unix::fs::OpenOptionsExt::mode(&mut opts, 0o600);
    opts.open(path)
        .and_then(|mut f| f.write_all(bytes))
        .map_err(|e| Error::io(path, e))
}

fn random_tag(runtime: &Path) -> Result<String> {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes)
        .map_err(|e| Error::io(runtime, std::io::Error::other(e.to_string())))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Removes the launch folders whose terminal never ran them.
fn sweep(runtime: &Path) {
    let Ok(entries) = std::fs::read_dir(runtime) else {
        return;
    };
    let now = SystemTime::now();
    for entry in entries.flatten() {
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|t| now.duration_since(t).is_ok_and(|age| age > STALE));
        let ours = entry.file_name().to_string_lossy().starts_with(PREFIX);
        if ours && old {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}
