//! How the command line writes: the `Printer` every command is given (standard output and error,
//! or any writer in a test), where a closed pipe (`redline status | head -0`) ends a write quietly
//! instead of in a panic, and where `--json` chooses between JSON and a command's own text.

use crate::format::Format;
use std::io::{ErrorKind, Write};

/// Where a command's output and messages go. Held by `cli::main` and passed to every command, so
/// a test can print to a buffer.
pub(crate) struct Printer<'a> {
    out: &'a mut dyn Write,
    err: &'a mut dyn Write,
    /// Output failed other than by its reader leaving (a full disk): the exit status says so.
    out_failed: bool,
}

impl<'a> Printer<'a> {
    pub(crate) fn new(out: &'a mut dyn Write, err: &'a mut dyn Write) -> Printer<'a> {
        Printer {
            out,
            err,
            out_failed: false,
        }
    }

    /// Writes to the output. A reader that went away (`| head`) is no error: what it did not
    /// want is dropped and the command still finishes (a `diff --edit` still writes its file).
    pub(crate) fn out(&mut self, text: std::fmt::Arguments) {
        let written = self.out.write_fmt(text).and_then(|()| self.out.flush());
        if let Err(e) = written {
            if e.kind() != ErrorKind::BrokenPipe && !self.out_failed {
                self.out_failed = true;
                self.err(format_args!(
                    "redline: cannot write to standard output: {e}\n"
                ));
            }
        }
    }

    /// Whether something meant for the output was lost (not to a closed pipe).
    pub(crate) fn out_failed(&self) -> bool {
        self.out_failed
    }

    /// Writes to the error stream; with nowhere to say it, there is nothing left to do.
    pub(crate) fn err(&mut self, text: std::fmt::Arguments) {
        let _ = self.err.write_fmt(text);
    }

    /// `v` as pretty JSON in `Format::Json`, else as `text` shows it.
    pub(crate) fn show<T: serde::Serialize>(
        &mut self,
        format: Format,
        v: &T,
        text: impl FnOnce(&mut Self, &T),
    ) {
        match format {
            Format::Json => self.json(v),
            Format::Text => text(self, v),
        }
    }

    /// `v` as pretty JSON, one value.
    pub(crate) fn json<T: serde::Serialize>(&mut self, v: &T) {
        let text = serde_json::to_string_pretty(v).unwrap_or_default();
        self.out(format_args!("{text}\n"));
    }
}

/// `print!` to a `Printer`, that never panics (see `Printer::out`).
macro_rules! out {
    ($p:expr, $($t:tt)*) => { $p.out(format_args!($($t)*)) };
}

/// `println!` to a `Printer`, that never panics (see `Printer::out`).
macro_rules! outln {
    ($p:expr, $($t:tt)*) => { $p.out(format_args!("{}\n", format_args!($($t)*))) };
}

/// `eprintln!` to a `Printer`, that never panics.
macro_rules! errln {
    ($p:expr, $($t:tt)*) => { $p.err(format_args!("{}\n", format_args!($($t)*))) };
}

pub(crate) use {errln, out, outln};

#[cfg(test)]
#[path = "output_tests.rs"]
mod tests;
