//! Redline's plugin file in a CLI's plugin folder (opencode's): written whole with this
//! `redline`'s path in it and the turn's hooks its review mode needs, known by its first line,
//! removed; a file of anyone else's is left alone.

use super::hook_entry::{Found, HookInstalled, ReviewMode};
use crate::clients::HookCli;
use crate::discovery::DiscoveryError;
use crate::error::{Error, Result};
use std::path::Path;

const TEXT: &str = include_str!("opencode_plugin.js");
/// Where the program's path goes, as a JSON string literal (a valid JavaScript one).
const SLOT: &str = "\"__REDLINE__\"";
const PROGRAM_LINE: &str = "const REDLINE = ";
/// The line that says the review mode, in the turn and both modes' plugin (none: edit).
const MODE_LINE: &str = "const REVIEW = ";
/// A template line that keeps the lines up to the next `END` for the modes it names
/// (`//#if turn both`); the marker lines themselves are never written.
const IF: &str = "//#if ";
const END: &str = "//#end";

/// The first line, which says the file is Redline's.
fn mark() -> &'static str {
    TEXT.lines().next().unwrap_or_default()
}

/// The template's lines for `mode`: one file for the three modes, so the pre-edit review is
/// written once; the edit mode's text is, byte for byte, the plugin Redline wrote before it had
/// turn modes (so an install from then is still current).
fn render(mode: ReviewMode) -> String {
    let mut keep = true;
    let mut out = String::with_capacity(TEXT.len());
    for line in TEXT.split_inclusive('\n') {
        let bare = line.trim_end();
        if let Some(modes) = bare.strip_prefix(IF) {
            keep = modes.split(' ').any(|m| m == mode.word());
        } else if bare == END {
            keep = true;
        } else if keep {
            out.push_str(line);
        }
    }
    out
}

/// The review mode a plugin's text says.
fn mode_of(text: &str) -> ReviewMode {
    let said = text
        .lines()
        .find_map(|l| l.strip_prefix(MODE_LINE))
        .and_then(|l| serde_json::from_str::<String>(l.trim_end_matches(';')).ok());
    match said.as_deref() {
        Some("turn") => ReviewMode::Turn,
        Some("both") => ReviewMode::Both,
        _ => ReviewMode::Edit,
    }
}

/// The plugin that runs `program`, with the hooks `mode` needs. Its path goes in as a JSON
/// string, so no quote or backslash in it can end the literal; a path that is not UTF-8 cannot
/// be written in JavaScript.
pub fn text(file: &Path, program: &Path, mode: ReviewMode) -> Result<String> {
    let program = program.to_str().ok_or_else(|| DiscoveryError::HookConfig {
        path: file.to_owned(),
        why: format!(
            "the path of this redline ({}) is not UTF-8, which a plugin cannot name",
            program.display()
        ),
    })?;
    let literal = serde_json::Value::from(program).to_string();
    Ok(render(mode).replacen(SLOT, &literal, 1))
}

/// Writes the plugin for `mode` (atomically); a file there that is not Redline's is refused.
pub fn install(
    site: &HookCli,
    file: &Path,
    program: &Path,
    mode: ReviewMode,
) -> Result<HookInstalled> {
    let want = text(file, program, mode)?;
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

/// The command Redline's plugin runs before an edit (with the flag its mode adds), if the file
/// is Redline's plugin.
pub fn find(site: &HookCli, file: &Path) -> Result<Option<Found>> {
    let Some(text) = read(site, file)? else {
        return Ok(None);
    };
    let flag = match mode_of(&text) {
        ReviewMode::Edit => "",
        ReviewMode::Turn => " --record-only",
        ReviewMode::Both => " --record-turn",
    };
    Ok(Some(Found {
        command: format!("{} hook {}{flag}", program_of(&text), site.id()),
        timeout: None,
    }))
}

/// The command Redline's plugin runs on `event` (the CLI's prompt or end-of-turn event), if the
/// file is Redline's plugin with the turn's hooks.
pub fn find_event(site: &HookCli, file: &Path, event: &str) -> Result<Option<Found>> {
    let Some(text) = read(site, file)? else {
        return Ok(None);
    };
    let flag = match event {
        _ if !mode_of(&text).turns() => return Ok(None),
        e if Some(e) == site.turn_event => "--turn-review",
        e if Some(e) == site.start_event => "--turn-start",
        _ => return Ok(None),
    };
    Ok(Some(Found {
        command: format!("{} hook {} {flag}", program_of(&text), site.id()),
        timeout: None,
    }))
}

/// The `redline` a plugin's text runs.
fn program_of(text: &str) -> String {
    text.lines()
        .find_map(|l| l.strip_prefix(PROGRAM_LINE))
        .and_then(|l| serde_json::from_str::<String>(l.trim_end_matches(';')).ok())
        .unwrap_or_default()
}

/// Whether `file` is the plugin for `mode` that runs `program` now.
pub fn current(file: &Path, program: &Path, mode: ReviewMode) -> bool {
    let want = text(file, program, mode).ok();
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
            install(&OPENCODE, &file, odd, ReviewMode::Edit).unwrap(),
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
        assert!(current(&file, odd, ReviewMode::Edit));
        assert!(!current(&file, odd, ReviewMode::Turn));
        assert!(!current(
            &file,
            Path::new("/usr/bin/redline"),
            ReviewMode::Edit
        ));
    }

    #[test]
    fn install_twice_changes_no_byte_and_a_moved_binary_rewrites_it() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("redline.js");
        install(&OPENCODE, &file, Path::new("/a/redline"), ReviewMode::Edit).unwrap();
        let before = std::fs::metadata(&file).unwrap().modified().unwrap();
        let bytes = std::fs::read(&file).unwrap();
        assert_eq!(
            install(&OPENCODE, &file, Path::new("/a/redline"), ReviewMode::Edit).unwrap(),
            HookInstalled::Already
        );
        assert_eq!(std::fs::read(&file).unwrap(), bytes);
        assert_eq!(
            std::fs::metadata(&file).unwrap().modified().unwrap(),
            before
        );
        assert_eq!(
            install(&OPENCODE, &file, Path::new("/b/redline"), ReviewMode::Edit).unwrap(),
            HookInstalled::Replaced
        );
        assert!(current(&file, Path::new("/b/redline"), ReviewMode::Edit));
        assert!(uninstall(&OPENCODE, &file).unwrap());
        assert!(!file.exists());
        assert!(!uninstall(&OPENCODE, &file).unwrap());
        assert_eq!(find(&OPENCODE, &file).unwrap(), None);
    }

    /// The edit mode's plugin is the one Redline wrote before it had turn modes, to the byte
    /// (its sha256 then, with the program's slot unfilled): an install from then stays current.
    #[test]
    fn the_edit_modes_plugin_is_the_one_written_before_turn_modes() {
        use sha2::{Digest, Sha256};
        let sum = Sha256::digest(render(ReviewMode::Edit).as_bytes());
        let hex: String = sum.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(
            hex,
            "3b52ce5be2f40a74c01ff73b333522a6a4fba53c66b8e99dc9c9b1bdc660c8ab"
        );
    }

    #[test]
    fn each_mode_is_written_read_back_and_changed_in_place() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("redline.js");
        let program = Path::new("/a/redline");
        for mode in [ReviewMode::Edit, ReviewMode::Turn, ReviewMode::Both] {
            let text = render(mode);
            assert!(!text.contains(IF) && !text.contains(END), "{text}");
            assert_eq!(text.lines().next(), Some(mark()));
            assert_eq!(mode_of(&text), mode);
            // Only the turn modes hook the turn's start and end.
            assert_eq!(text.contains("\"chat.message\""), mode.turns());
            assert_eq!(text.contains("session.idle"), mode.turns());
        }
        install(&OPENCODE, &file, program, ReviewMode::Edit).unwrap();
        assert_eq!(find_event(&OPENCODE, &file, "session.idle").unwrap(), None);
        assert_eq!(
            install(&OPENCODE, &file, program, ReviewMode::Turn).unwrap(),
            HookInstalled::Replaced
        );
        assert!(current(&file, program, ReviewMode::Turn));
        let pre = find(&OPENCODE, &file).unwrap().unwrap().command;
        assert_eq!(pre, "/a/redline hook opencode --record-only");
        let end = find_event(&OPENCODE, &file, "session.idle")
            .unwrap()
            .unwrap();
        assert_eq!(end.command, "/a/redline hook opencode --turn-review");
        let start = find_event(&OPENCODE, &file, "chat.message")
            .unwrap()
            .unwrap();
        assert_eq!(start.command, "/a/redline hook opencode --turn-start");
        install(&OPENCODE, &file, program, ReviewMode::Both).unwrap();
        let pre = find(&OPENCODE, &file).unwrap().unwrap().command;
        assert_eq!(pre, "/a/redline hook opencode --record-turn");
        assert_eq!(
            install(&OPENCODE, &file, program, ReviewMode::Both).unwrap(),
            HookInstalled::Already
        );
    }

    #[test]
    fn a_plugin_of_someone_else_s_is_refused_and_left_as_it_was() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("redline.js");
        let theirs = "export default { id: \"mine\", server: async () => ({}) };\n";
        std::fs::write(&file, theirs).unwrap();
        let err = install(&OPENCODE, &file, Path::new("/a/redline"), ReviewMode::Edit).unwrap_err();
        assert_eq!(err.code(), crate::error::FaultCode::HookConfig);
        assert!(err.to_string().contains("not Redline's"), "{err}");
        assert!(uninstall(&OPENCODE, &file).is_err());
        assert!(find(&OPENCODE, &file).is_err());
        assert_eq!(std::fs::read_to_string(&file).unwrap(), theirs);
        #[cfg(unix)]
        {
            let link = tmp.path().join("link.js");
            std::os::unix::fs::symlink(&file, &link).unwrap();
            assert!(install(&OPENCODE, &link, Path::new("/a/redline"), ReviewMode::Edit).is_err());
            assert_eq!(std::fs::read_to_string(&file).unwrap(), theirs);
        }
    }
}
