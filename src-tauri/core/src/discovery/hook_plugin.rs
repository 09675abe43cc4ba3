//! Redline's plugin file in a CLI's plugin folder (opencode's): written whole with this
//! `redline`'s path in it, known by its first line, removed; a file of anyone else's is left alone.

use super::hook_entry::{Found, HookInstalled};
use crate::clients::HookCli;
use crate::discovery::DiscoveryError;
use crate::error::{Error, Result};
use std::path::Path;

const TEXT: &str = include_str!("opencode_plugin.js");
/// Where the program's path goes, as a JSON string literal (a valid JavaScript one).
const SLOT: &str = "\"__REDLINE__\"";
const PROGRAM_LINE: &str = "const REDLINE = ";

/// The first line, which says the file is Redline's.
fn mark() -> &'static str {
    TEXT.lines().next().unwrap_or_default()
}

/// The plugin that runs `program`. Its path goes in as a JSON string, so no quote or backslash
/// in it can end the literal; a path that is not UTF-8 cannot be written in JavaScript.
pub fn text(file: &Path, program: &Path) -> Result<String> {
    let program = program.to_str().ok_or_else(|| DiscoveryError::HookConfig {
        path: file.to_owned(),
        why: format!(
            "the path of this redline ({}) is not UTF-8, which a plugin cannot name",
            program.display()
        ),
    })?;
    let literal = serde_json::Value::from(program).to_string();
    Ok(TEXT.replacen(SLOT, &literal, 1))
}

/// Writes the plugin (atomically); a file there that is not Redline's is refused.
pub fn install(site: &HookCli, file: &Path, program: &Path) -> Result<HookInstalled> {
    let want = text(file, program)?;
    let done = match read(site, file)? {
        None => HookInstalled::Added,
        Some(have) if have == want => return Ok(HookInstalled::Already),
        Some(_) => HookInstalled::Replaced,
    };
    crate::platform::private_file::write(file, want.as_bytes())?;
    Ok(done)
}

/// Removes Redline's plugin. False: there was none; a file that is not Redline's is refused.
pub fn uninstall(site: &HookCli, file: &Path) -> Result<bool> {
    if read(site, file)?.is_none() {
        return Ok(false);
    }
    std::fs::remove_file(file).map_err(|e| Error::io(file, e))?;
    Ok(true)
}

/// The command Redline's plugin runs, if the file is Redline's plugin.
pub fn find(site: &HookCli, file: &Path) -> Result<Option<Found>> {
    let Some(text) = read(site, file)? else {
        return Ok(None);
    };
    let program = text
        .lines()
        .find_map(|l| l.strip_prefix(PROGRAM_LINE))
        .and_then(|l| serde_json::from_str::<String>(l.trim_end_matches(';')).ok())
        .unwrap_or_default();
    Ok(Some(Found {
        command: format!("{program} hook {}", site.id()),
        timeout: None,
    }))
}

/// Whether `file` is the plugin that runs `program` now.
pub fn current(file: &Path, program: &Path) -> bool {
    let want = text(file, program).ok();
    want.is_some() && std::fs::read_to_string(file).ok() == want
}

/// The file's text if it is Redline's plugin; `None` if there is no file. A file that is not
/// Redline's, or not a regular file, is an error: it is never overwritten or removed.
fn read(site: &HookCli, file: &Path) -> Result<Option<String>> {
    let refuse = |why: String| DiscoveryError::HookConfig {
        path: file.to_owned(),
        why,
    };
    match std::fs::symlink_metadata(file) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io(file, e)),
        Ok(m) if !m.file_type().is_file() => {
            return Err(
                refuse("it is not a regular file, so it is not Redline's plugin".into()).into(),
            )
        }
        Ok(_) => {}
    }
    let text = std::fs::read_to_string(file).map_err(|e| Error::io(file, e))?;
    match text.lines().next() == Some(mark()) {
        true => Ok(Some(text)),
        false => Err(refuse(format!(
            "it is a plugin that is not Redline's; move it away to let `redline hooks install {}` \
             write Redline's there",
            site.id()
        ))
        .into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clients::HookCli;

    const OPENCODE: HookCli = HookCli::of_cli(&crate::clients::OPENCODE);

    #[test]
    fn the_program_path_goes_in_as_a_json_string_and_reads_back() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("plugin/redline.js");
        let odd = Path::new("/opt/my \"apps\"/x\\y/'; process.exit(1); '/redline");
        assert_eq!(
            install(&OPENCODE, &file, odd).unwrap(),
            HookInstalled::Added
        );
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(!text.contains(SLOT), "{text}");
        let line = text.lines().find(|l| l.starts_with(PROGRAM_LINE)).unwrap();
        assert_eq!(
            line,
            r#"const REDLINE = "/opt/my \"apps\"/x\\y/'; process.exit(1); '/redline";"#
        );
        let found = find(&OPENCODE, &file).unwrap().unwrap();
        assert_eq!(found.command, format!("{} hook opencode", odd.display()));
        assert!(current(&file, odd));
        assert!(!current(&file, Path::new("/usr/bin/redline")));
    }

    #[test]
    fn install_twice_changes_no_byte_and_a_moved_binary_rewrites_it() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("redline.js");
        install(&OPENCODE, &file, Path::new("/a/redline")).unwrap();
        let before = std::fs::metadata(&file).unwrap().modified().unwrap();
        let bytes = std::fs::read(&file).unwrap();
        assert_eq!(
            install(&OPENCODE, &file, Path::new("/a/redline")).unwrap(),
            HookInstalled::Already
        );
        assert_eq!(std::fs::read(&file).unwrap(), bytes);
        assert_eq!(
            std::fs::metadata(&file).unwrap().modified().unwrap(),
            before
        );
        assert_eq!(
            install(&OPENCODE, &file, Path::new("/b/redline")).unwrap(),
            HookInstalled::Replaced
        );
        assert!(current(&file, Path::new("/b/redline")));
        assert!(uninstall(&OPENCODE, &file).unwrap());
        assert!(!file.exists());
        assert!(!uninstall(&OPENCODE, &file).unwrap());
        assert_eq!(find(&OPENCODE, &file).unwrap(), None);
    }

    #[test]
    fn a_plugin_of_someone_else_s_is_refused_and_left_as_it_was() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("redline.js");
        let theirs = "export default { id: \"mine\", server: async () => ({}) };\n";
        std::fs::write(&file, theirs).unwrap();
        let err = install(&OPENCODE, &file, Path::new("/a/redline")).unwrap_err();
        assert_eq!(err.code(), crate::error::FaultCode::HookConfig);
        assert!(err.to_string().contains("not Redline's"), "{err}");
        assert!(uninstall(&OPENCODE, &file).is_err());
        assert!(find(&OPENCODE, &file).is_err());
        assert_eq!(std::fs::read_to_string(&file).unwrap(), theirs);
        #[cfg(unix)]
        {
            let link = tmp.path().join("link.js");
            std::os::unix::fs::symlink(&file, &link).unwrap();
            assert!(install(&OPENCODE, &link, Path::new("/a/redline")).is_err());
            assert_eq!(std::fs::read_to_string(&file).unwrap(), theirs);
        }
    }
}
