//! The shell completion scripts and the man page, generated from the command line's grammar.

use crate::args::Cli;
use clap::CommandFactory;
use redline_core::{Error, Result};
use std::io::Write;

/// The completion script for `shell`, on standard output.
pub fn completions(shell: clap_complete::Shell) -> Result<()> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "redline", &mut script);
    emit(&script)
}

/// `redline(1)`: the top level, then every command with its synopsis, description and options,
/// so that `man redline` alone documents the whole command line.
pub fn man() -> Result<()> {
    emit(&page().map_err(|e| Error::io("the man page", e))?)
}

fn page() -> std::io::Result<Vec<u8>> {
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd.clone()).render(&mut out)?;
    out.extend_from_slice(b".SH COMMANDS\n");
    for sub in cmd.get_subcommands() {
        command(sub, &mut out)?;
    }
    Ok(out)
}

/// One command as a subsection: its sections rendered by clap_mangen, their headings demoted.
fn command(cmd: &clap::Command, out: &mut Vec<u8>) -> std::io::Result<()> {
    let name = cmd
        .get_display_name()
        .unwrap_or(cmd.get_name())
        .replace('-', " ");
    out.extend_from_slice(format!(".SS \"{name}\"\n").as_bytes());
    let man = clap_mangen::Man::new(cmd.clone());
    let mut part = Vec::new();
    man.render_synopsis_section(&mut part)?;
    man.render_description_section(&mut part)?;
    if cmd.get_arguments().any(|a| !a.is_hide_set()) {
        man.render_options_section(&mut part)?;
    }
    if cmd.get_after_long_help().is_some() {
        man.render_extra_section(&mut part)?;
    }
    for line in String::from_utf8_lossy(&part).lines() {
        // Within a command, a section heading would end the COMMANDS section: a paragraph.
        if line.starts_with(".SH ") {
            out.extend_from_slice(b".PP\n");
        } else {
            out.extend_from_slice(line.as_bytes());
            out.push(b'\n');
        }
    }
    for sub in cmd.get_subcommands() {
        command(sub, out)?;
    }
    Ok(())
}

/// A reader that went away (`| head`) has all it wanted: not an error.
fn emit(bytes: &[u8]) -> Result<()> {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(Error::io("standard output", e))
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_man_page_documents_every_command_with_its_example() {
        let page = String::from_utf8(super::page().expect("render")).expect("utf-8");
        assert!(
            page.starts_with(".ie") || page.contains(".TH redline 1"),
            "{page}"
        );
        for name in [
            "workspace add",
            "review accept",
            "container args",
            "completions",
            "man",
        ] {
            assert!(
                page.contains(&format!(".SS \"redline {name}\"")),
                "no {name}"
            );
        }
        assert!(
            page.contains("\\-\\-content\\-file"),
            "options are rendered"
        );
        assert!(
            page.contains("redline review accept 3"),
            "examples are rendered"
        );
        assert_eq!(page.matches(".SH COMMANDS").count(), 1);
    }

    #[test]
    fn the_man_page_names_every_cli_redline_serves() {
        let page = String::from_utf8(super::page().expect("render")).expect("utf-8");
        for cli in redline_core::clients::ALL {
            assert!(
                page.contains(cli.name),
                "the man page names no {}",
                cli.name
            );
        }
    }
}
