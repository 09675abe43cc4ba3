//! No CLI named outside its declaration: a string literal equal to a CLI's id, name or command,
//! in code outside `clients/` and that CLI's own adapters, is a second declaration of the CLI
//! (a protocol module switching on its name), which the CLI's data should say instead.

use crate::lex::{tokens, Tok, Token};
use redline_core::clients::{self, Cli, ContextRoute, Transport};

/// A CLI as this check sees it: the words it is known by, and where they may be written.
pub struct Known {
    pub words: Vec<&'static str>,
    /// Files, or folders ending in `/`, relative to the repository.
    pub adapters: Vec<String>,
}

/// A literal equal to a CLI's word that names something else, in the file that has it.
pub struct Homonym {
    pub file: &'static str,
    pub word: &'static str,
}

/// The literals outside `#[cfg(test)]` items, with their lines.
fn literals(src: &str) -> Vec<(usize, String)> {
    let toks = tokens(src);
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if is_cfg_test(&toks[i..]) {
            i = after_item(&toks, i + 7);
            continue;
        }
        if let Tok::Str(s) = &toks[i].tok {
            out.push((toks[i].line, s.clone()));
        }
        i += 1;
    }
    out
}

/// Whether `#[cfg(test)]` starts here.
fn is_cfg_test(toks: &[Token]) -> bool {
    let want = [
        Tok::Punct('#'),
        Tok::Punct('['),
        Tok::Ident("cfg".into()),
        Tok::Punct('('),
        Tok::Ident("test".into()),
        Tok::Punct(')'),
        Tok::Punct(']'),
    ];
    toks.len() >= want.len() && toks.iter().zip(&want).all(|(t, w)| &t.tok == w)
}

/// The index after the item starting at `i`: its `;` or its closing brace, further attributes
/// included.
fn after_item(toks: &[Token], mut i: usize) -> usize {
    let mut depth = 0usize;
    while i < toks.len() {
        match toks[i].tok {
            Tok::Punct('{') | Tok::Punct('[') | Tok::Punct('(') => depth += 1,
            Tok::Punct(']') | Tok::Punct(')') => depth = depth.saturating_sub(1),
            Tok::Punct('}') => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            Tok::Punct(';') if depth == 0 => return i + 1,
            _ => {}
        }
        i += 1;
    }
    i
}

fn allowed(file: &str, places: &[String]) -> bool {
    places
        .iter()
        .any(|p| file == p || (p.ends_with('/') && file.starts_with(p.as_str())))
}

/// Each literal naming a CLI in a file (`name`, relative to the repository) it may not be in.
pub fn problems(files: &[(String, String)], clis: &[Known], homonyms: &[Homonym]) -> Vec<String> {
    let mut found = Vec::new();
    for (name, text) in files {
        for (line, lit) in literals(text) {
            let here = |w: &&str| *w == lit;
            let Some(cli) = clis.iter().find(|c| c.words.iter().any(here)) else {
                continue;
            };
            if allowed(name, &cli.adapters)
                || homonyms.iter().any(|h| h.file == name && h.word == lit)
            {
                continue;
            }
            found.push(format!(
                "{name}:{line}: \"{lit}\" names {} outside clients/ and its adapters ({}): \
                 make it a fact of the CLI's declaration",
                cli.words[0],
                cli.adapters.join(", ")
            ));
        }
    }
    found
}

#[test]
fn the_checker_sees_a_cli_named_in_code_and_not_in_tests_or_its_adapter() {
    let clis = [Known {
        words: vec!["opencode", "opencode CLI"],
        adapters: vec![
            "src/clients/".into(),
            "src/protocols/hook/opencode.rs".into(),
        ],
    }];
    let code = "fn f(n: &str) -> bool { n == \"opencode\" }\n\
                #[cfg(test)]\n#[path = \"x.rs\"]\nmod x;\n\
                #[cfg(test)]\nmod tests { const A: &str = \"opencode\"; }\n\
                // \"opencode\"\nconst B: &str = \"opencode CLI\";\n";
    let files = [
        ("src/protocols/mcp_ws/wire.rs".to_string(), code.to_string()),
        ("src/clients/opencode.rs".into(), code.into()),
        ("src/protocols/hook/opencode.rs".into(), code.into()),
        ("src/surfaces/jump.rs".into(), code.into()),
    ];
    let homonyms = [Homonym {
        file: "src/surfaces/jump.rs",
        word: "opencode",
    }];
    let found = problems(&files, &clis, &homonyms);
    assert_eq!(found.len(), 3, "{found:#?}");
    assert!(found[0].starts_with("src/protocols/mcp_ws/wire.rs:1: \"opencode\""));
    assert!(found[1].starts_with("src/protocols/mcp_ws/wire.rs:8: \"opencode CLI\""));
    assert!(found[2].starts_with("src/surfaces/jump.rs:8: \"opencode CLI\""));
}

/// Literals equal to a CLI's word that name something else.
pub const HOMONYMS: &[Homonym] = &[
    // The Cursor editor's command, which the editor jump runs: not Cursor CLI (`cursor-agent`).
    Homonym {
        file: "src-tauri/core/src/surfaces/editor_jump/editor_line.rs",
        word: "cursor",
    },
];

const CORE: &str = "src-tauri/core/src/";

/// The files and folders that may name `cli`: `clients/`, the adapter of the IDE protocol
/// Redline serves it (by its transport), its hook's adapter (by its dialect) and the server of
/// the context it reads (Codex's IDE socket). A CLI reading another's protocol (opencode on
/// Claude Code's) gets none of that one's: what differs is a fact of its declaration.
fn adapters(cli: &Cli) -> Vec<String> {
    let mut places = vec![format!("{CORE}clients/")];
    if let Some(ide) = cli.ide {
        let server = match ide.transport {
            Transport::Http => "mcp_http/",
            Transport::WebSocket => "mcp_ws/",
            Transport::UnixHttp => "copilot/",
            Transport::AmpWebSocket => "amp_ws/",
        };
        places.push(format!("{CORE}protocols/{server}"));
    }
    if let Some(hook) = cli.hook {
        let file = format!("{:?}", hook.dialect).to_lowercase();
        places.push(format!("{CORE}protocols/hook/{file}.rs"));
    }
    if cli.context == Some(ContextRoute::CodexSocket) {
        places.push(format!("{CORE}protocols/codex_ipc/"));
    }
    places
}

/// Every CLI of `clients::ALL`, as the check sees it.
pub fn known() -> Vec<Known> {
    clients::ALL
        .iter()
        .map(|c| Known {
            words: vec![c.id, c.name, c.binary],
            adapters: adapters(c),
        })
        .collect()
}
