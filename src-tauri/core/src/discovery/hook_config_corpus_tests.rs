//! `hooks install` then `uninstall` over a corpus of real-looking config files for every CLI with
//! a JSON hook config: the file comes back byte for byte, with its mode, owner and link; in
//! between, the CLI reads the user's hooks unchanged and Redline's group of its own beside them.
//! Files the CLI would not read are refused and left. Plus issue 37's reproductions.

use super::*;
use crate::clients::{CLAUDE_HOOK, CODEX, CURSOR, GEMINI_HOOK, KIRO, QWEN_HOOK};
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

fn texts(site: &HookSite) -> Vec<(String, bool)> {
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
fn expected(site: &HookSite, original: &str) -> Value {
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
                    let what = format!("{} {mode:o} linked={linked} {text:?}", site.id);
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
                        assert_eq!(err.code(), "hook_config", "{what}");
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
