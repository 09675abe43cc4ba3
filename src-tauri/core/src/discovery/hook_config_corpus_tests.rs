//! `hooks install` then `uninstall` over a corpus of real-looking config files for every CLI with
//! a JSON hook config: the file comes back byte for byte, with its mode, owner and link; in
//! between, the CLI reads the user's hooks unchanged and Redline's group of its own beside them.
//! Files the CLI would not read are refused and left. Plus issue 37's reproductions.

use super::*;
use crate::clients::{self, HookCli};

const CLAUDE_HOOK: HookCli = HookCli::of_cli(&clients::CLAUDE);
const CODEX: HookCli = HookCli::of_cli(&clients::CODEX);
const CURSOR: HookCli = HookCli::of_cli(&clients::CURSOR);
const GEMINI_HOOK: HookCli = HookCli::of_cli(&clients::GEMINI);
const KIRO: HookCli = HookCli::of_cli(&clients::KIRO);
const QWEN_HOOK: HookCli = HookCli::of_cli(&clients::QWEN);
use std::os::unix::fs::{MetadataExt, PermissionsExt};

const PROGRAM: &str = "/usr/local/bin/redline";

/// Grouped settings (Claude, Codex, Gemini, Qwen): `{E}` the event, `{M}` Redline's matcher.
const GROUPED: &[&str] = &[
    "{}",
    "{}\n",
    "{\n}\n",
    "{\n  \"theme\": \"dark\"\n}\n",
    "{\"model\":\"x\",\"n\":99999999999999999999,\"f\":1e2,\"g\":-0.0,\"dup\":1,\"dup\":2}",
    "{\r\n  \"theme\": \"dark\",\r\n  \"big\": 1.50E-7\r\n}\r\n",
    "{\n\t\"hooks\": {\n\t\t\"{E}\": [\n\t\t\t{\n\t\t\t\t\"matcher\": \"{M}\",\n\t\t\t\t\"hooks\": [{\"type\": \"command\", \"command\": \"./lint.sh\"}]\n\t\t\t}\n\t\t]\n\t}\n}\n",
    "{\"hooks\": {\"{E}\": []}}",
    "{\n  \"hooks\": {}\n}",
    "{\n  \"hooks\": {\n    \"{E}\": [\n    ]\n  }\n}\n",
    "{\n  \"hooks\": {\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"notify-send done\"}]}],\n    \"{E}\": [\n      {\"matcher\": \"Bash|{M}\", \"hooks\": [\n        {\"type\": \"command\", \"command\": \"~/.claude/hooks/block-rm-rf.sh\"}\n      ]}\n    ]\n  },\n  \"env\": {\"A\": \"1\", \"A\": \"2\"}\n}\n",
    "{\"hooks\":{\"{E}\":[{\"matcher\":\"{M}\",\"hooks\":[{\"type\":\"command\",\"command\":\"echo redline hook claude; echo /usr/bin/redline hook codex >> log\"}]}]}}\n",
    "  {  \"unicode\" : \"é\\u00e9 ✓\" ,\"esc\": \"a\\/b\"  }  \n\n",
];

/// Only for a CLI that strips comments (Gemini CLI, Qwen Code).
const COMMENTED: &[&str] = &[
    "// my settings\n{\n  /* theme */ \"theme\": \"dark\", // yes\n  \"hooks\": {\n    \"{E}\": [\n      // mine\n      {\"matcher\": \"x\", \"hooks\": []} // after\n    ]\n  }\n}\n",
    "{\n  \"a\": 1 /* , \"b\": 2 */\n}\n// end",
];

const CURSOR_FILES: &[&str] = &[
    "{\n  \"version\": 1,\n  \"hooks\": {\n    \"preToolUse\": [\n      {\"command\": \"./hooks/audit.sh\", \"matcher\": \"Shell\"}\n    ],\n    \"afterFileEdit\": [{\"command\": \"./hooks/format.sh\"}]\n  }\n}\n",
    "{\"version\":1,\"hooks\":{}}",
    "{\"version\": 1.0, \"hooks\": {\"stop\": [{\"command\": \"redline hook cursor-ish\", \"timeout\": 1e3}]}}\r\n",
];

const KIRO_FILES: &[&str] = &[
    "{\"version\":\"v1\",\"hooks\":[{\"name\":\"lint\",\"trigger\":\"PostFileSave\",\"action\":{\"type\":\"command\",\"command\":\"npm run lint\"}}]}",
    "{\n  \"version\": \"v1\",\n  \"hooks\": [],\n  \"note\": \"mine\"\n}\n",
];

fn texts(site: &HookCli) -> Vec<(String, bool)> {
    let fill = |t: &str| t.replace("{E}", site.event).replace("{M}", site.matcher);
    match site.layout {
        Layout::Settings(Entries::Flat) => {
            CURSOR_FILES.iter().map(|t| (t.to_string(), true)).collect()
        }
        Layout::Settings(Entries::Kiro) => {
            KIRO_FILES.iter().map(|t| (t.to_string(), true)).collect()
        }
        _ => {
            let mut all: Vec<_> = GROUPED.iter().map(|t| (fill(t), true)).collect();
            all.extend(COMMENTED.iter().map(|t| (fill(t), site.reads.comments)));
            // A byte-order mark: only Qwen Code drops it before parsing.
            all.push((format!("\u{feff}{}", fill(GROUPED[3])), site.reads.bom));
            all
        }
    }
}

fn lenient(text: &str) -> Value {
    let body = text.trim_start_matches('\u{feff}');
    jsonc_parser::parse_to_serde_value(body, &Default::default())
        .unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// What the CLI reads after the install: the user's file as it was, with Redline's member last in
/// its list.
fn expected(site: &HookCli, original: &str) -> Value {
    let mut doc = match lenient(original) {
        Value::Null => json!({}),
        v => v,
    };
    let program = Path::new(PROGRAM);
    let cmd = command(site, program);
    let (list, member) = match site.layout {
        Layout::Settings(Entries::Kiro) => (&mut doc["hooks"], entry(site, Entries::Kiro, &cmd)),
        Layout::Settings(Entries::Flat) => (
            &mut doc["hooks"][site.event],
            entry(site, Entries::Flat, &cmd),
        ),
        _ => (
            &mut doc["hooks"][site.event],
            hook_groups::group(Some(site.matcher), hook_groups::entry(site, &cmd)),
        ),
    };
    if list.is_null() {
        *list = json!([]);
    }
    list.as_array_mut().unwrap().push(member);
    doc
}

#[test]
fn install_then_uninstall_gives_back_every_file_byte_for_byte_with_its_mode_and_link() {
    let program = Path::new(PROGRAM);
    let mut tried = 0;
    for site in [
        &CLAUDE_HOOK,
        &CODEX,
        &GEMINI_HOOK,
        &QWEN_HOOK,
        &CURSOR,
        &KIRO,
    ] {
        for (text, readable) in texts(site) {
            for mode in [0o644, 0o640, 0o600] {
                for linked in [false, true] {
                    tried += 1;
                    let tmp = tempfile::tempdir().unwrap();
                    let real = tmp.path().join("dotfiles/settings.json");
                    std::fs::create_dir_all(real.parent().unwrap()).unwrap();
                    std::fs::write(&real, &text).unwrap();
                    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(mode)).unwrap();
                    let file = match linked {
                        true => {
                            let link = tmp.path().join("home/settings.json");
                            std::fs::create_dir_all(link.parent().unwrap()).unwrap();
                            std::os::unix::fs::symlink(&real, &link).unwrap();
                            link
                        }
                        false => real.clone(),
                    };
                    let meta = std::fs::metadata(&real).unwrap();
                    let what = format!("{} {mode:o} linked={linked} {text:?}", site.id());
                    let kept = || {
                        let now = std::fs::metadata(&real).unwrap();
                        assert_eq!(now.mode(), meta.mode(), "{what}");
                        assert_eq!((now.uid(), now.gid()), (meta.uid(), meta.gid()), "{what}");
                        assert_eq!(
                            std::fs::symlink_metadata(&file).unwrap().is_symlink(),
                            linked
                        );
                    };
                    if !readable {
                        let err = install(site, &file, program).unwrap_err();
                        assert_eq!(err.code(), crate::error::FaultCode::HookConfig, "{what}");
                        assert!(uninstall(site, &file).is_err(), "{what}");
                        assert_eq!(std::fs::read_to_string(&real).unwrap(), text, "{what}");
                        kept();
                        continue;
                    }
                    assert_eq!(
                        install(site, &file, program).unwrap(),
                        HookInstalled::Added,
                        "{what}"
                    );
                    let installed = std::fs::read_to_string(&real).unwrap();
                    assert_eq!(
                        lenient(&installed),
                        expected(site, &text),
                        "{what}\n{installed}"
                    );
                    assert!(status(site, &file, program).unwrap().current, "{what}");
                    kept();
                    assert_eq!(
                        install(site, &file, program).unwrap(),
                        HookInstalled::Already
                    );
                    assert_eq!(std::fs::read_to_string(&real).unwrap(), installed);
                    assert!(uninstall(site, &file).unwrap(), "{what}");
                    match std::fs::read_to_string(&real) {
                        Ok(back) => assert_eq!(back, text, "{what}\ninstalled:\n{installed}"),
                        Err(e) => panic!("{what}: {e}"),
                    }
                    kept();
                    assert!(!uninstall(site, &file).unwrap(), "{what}");
                }
            }
        }
    }
    assert!(tried > 200, "{tried}");
}

#[test]
fn the_end_of_turn_review_goes_in_and_out_of_every_file_byte_for_byte() {
    let program = Path::new(PROGRAM);
    for site in [&CLAUDE_HOOK, &CODEX, &GEMINI_HOOK, &QWEN_HOOK] {
        let event = site.turn_event.unwrap();
        for (text, readable) in texts(site) {
            // The user's groups moved to the end-of-turn event, beside which Redline's goes.
            let with_stop = text.replace(&format!("\"{}\"", site.event), &format!("\"{event}\""));
            assert!(text == with_stop || with_stop.contains(event));
            for text in [text, with_stop] {
                let tmp = tempfile::tempdir().unwrap();
                let file = tmp.path().join("settings.json");
                std::fs::write(&file, &text).unwrap();
                let what = format!("{} {text:?}", site.id());
                // Two `Stop` keys: which one the CLI reads is not Redline's to guess.
                let twice = text.matches(&format!("\"{event}\"")).count() > 1;
                if !readable || twice {
                    let err = install_for(site, &file, program, true).unwrap_err();
                    assert!(!twice || err.to_string().contains("appears twice"), "{err}");
                    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
                    continue;
                }
                assert_eq!(
                    install_for(site, &file, program, true).unwrap(),
                    HookInstalled::Added,
                    "{what}"
                );
                let installed = std::fs::read_to_string(&file).unwrap();
                let doc = lenient(&installed);
                let stop = doc["hooks"][event].as_array().unwrap();
                let before = lenient(&text);
                let theirs = before["hooks"][event]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
                assert_eq!(stop[..stop.len() - 1], theirs[..], "{what}\n{installed}");
                assert_eq!(
                    stop.last().unwrap(),
                    &hook_groups::group(
                        None,
                        hook_groups::entry(site, &turn_command(site, program))
                    ),
                    "{what}"
                );
                let st = status(site, &file, program).unwrap();
                assert!(st.current && st.turn_review, "{what}");
                assert_eq!(
                    install_for(site, &file, program, true).unwrap(),
                    HookInstalled::Already
                );
                // Installed again without it: back to the pre-edit hook alone.
                install_for(site, &file, program, false).unwrap();
                assert_eq!(
                    find(site, &file).unwrap().unwrap().command,
                    command(site, program)
                );
                assert!(hook_turn::find(site, &file).unwrap().is_none(), "{what}");
                assert!(uninstall(site, &file).unwrap());
                assert_eq!(std::fs::read_to_string(&file).unwrap(), text, "{what}");
                install_for(site, &file, program, true).unwrap();
                assert!(uninstall(site, &file).unwrap());
                assert_eq!(std::fs::read_to_string(&file).unwrap(), text, "{what}");
            }
        }
    }
}

#[test]
fn copilots_and_opencodes_files_of_redlines_own_come_and_go_leaving_the_folder_as_it_was() {
    let program = Path::new(PROGRAM);
    for site in [
        &HookCli::of_cli(&clients::COPILOT),
        &HookCli::of_cli(&clients::OPENCODE),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("hooks");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("mine.json"), "{\"version\": 1, \"hooks\": {}}").unwrap();
        let file = dir.join("redline.json");
        assert_eq!(install(site, &file, program).unwrap(), HookInstalled::Added);
        assert!(
            status(site, &file, program).unwrap().current,
            "{}",
            site.id()
        );
        assert!(uninstall(site, &file).unwrap());
        let left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left, ["mine.json"], "{}", site.id());
        assert_eq!(
            std::fs::read_to_string(dir.join("mine.json")).unwrap(),
            "{\"version\": 1, \"hooks\": {}}"
        );
    }
}

#[test]
fn a_settings_file_of_another_owner_keeps_its_owner() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("settings.json");
    let text = "{\n  \"theme\": \"dark\"\n}\n";
    std::fs::write(&file, text).unwrap();
    // Root (these test machines) can hand the file to `nobody`; anyone else keeps their own.
    let root = crate::platform::own_user::own_uid() == 0;
    if root {
        std::os::unix::fs::chown(&file, Some(65534), Some(65534)).unwrap();
    }
    let owner = |f: &Path| {
        let m = std::fs::metadata(f).unwrap();
        (m.uid(), m.gid())
    };
    let before = owner(&file);
    assert_eq!(before.0 == 65534, root);
    install(&CLAUDE_HOOK, &file, Path::new(PROGRAM)).unwrap();
    assert_eq!(owner(&file), before);
    assert!(uninstall(&CLAUDE_HOOK, &file).unwrap());
    assert_eq!(owner(&file), before);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
}
