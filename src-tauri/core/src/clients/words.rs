//! The CLIs Redline serves, said in words for help texts, the man page and doctor: made from
//! `clients::ALL`, so a CLI added there is named everywhere these are used.

use super::views::HookCli;
use super::{served, ALL};

/// `a`, `a and b`, `a, b and c`.
pub fn joined<'a>(words: impl IntoIterator<Item = &'a str>, last: &str) -> String {
    let words: Vec<&str> = words.into_iter().collect();
    match words.split_last() {
        None => String::new(),
        Some((only, [])) => (*only).to_owned(),
        Some((end, rest)) => format!("{} {last} {end}", rest.join(", ")),
    }
}

/// The CLIs that connect to Redline's IDE servers: "Gemini CLI, Qwen Code, … and Amp".
pub fn ide_names() -> String {
    joined(served().map(|s| s.cli.name), "and")
}

/// The CLIs Redline reviews only through their pre-edit hook (no IDE protocol).
pub fn hook_only_names() -> String {
    joined(
        ALL.iter().filter(|c| c.ide.is_none()).map(|c| c.name),
        "and",
    )
}

/// Every CLI, said as how it is served: for the top of `redline --help` and README.
pub fn served_sentence() -> String {
    format!(
        "{} connect to its IDE servers; {} are reviewed through their pre-edit hook \
         (`redline hooks install CLI`)",
        ide_names(),
        hook_only_names()
    )
}

/// The CLIs with a pre-edit hook, in the order `redline hooks` reports them.
pub fn hook_names() -> String {
    joined(HookCli::all().map(HookCli::name), "and")
}

/// The CLIs with both a hook and an IDE protocol: Redline hears their edits either way.
pub fn hook_and_ide_names() -> String {
    joined(
        HookCli::all()
            .filter(|h| h.cli.ide.is_some())
            .map(HookCli::name),
        "and",
    )
}

/// The `CLI` argument of `redline hook` and `redline hooks`: "codex, claude, … or opencode".
pub fn hook_ids() -> String {
    joined(HookCli::all().map(HookCli::id), "or")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cli_is_named_once_in_the_served_sentence() {
        let said = served_sentence();
        for c in ALL {
            assert_eq!(said.matches(c.name).count(), 1, "{}: {said}", c.name);
        }
        assert_eq!(joined(["a"], "and"), "a");
        assert_eq!(joined(["a", "b", "c"], "or"), "a, b or c");
    }

    #[test]
    fn every_hook_id_is_offered() {
        let ids = hook_ids();
        for h in HookCli::all() {
            assert!(ids.contains(h.id()), "{ids}");
        }
    }
}
