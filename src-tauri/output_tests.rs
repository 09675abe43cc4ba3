//! The printer writing to buffers: what a command prints, and a failed output said once.

use super::Printer;
use crate::format::Format;
use std::io::{ErrorKind, Write};

#[test]
fn output_and_errors_go_to_their_own_writers() {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let mut p = Printer::new(&mut out, &mut err);
    out!(p, "a{}", 1);
    outln!(p, "b");
    errln!(p, "c {}", "d");
    assert!(!p.out_failed());
    assert_eq!(out, b"a1b\n");
    assert_eq!(err, b"c d\n");
}

#[test]
fn show_prints_pretty_json_or_the_text() {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let mut p = Printer::new(&mut out, &mut err);
    let v = serde_json::json!({ "a": [1] });
    p.show(Format::Json, &v, |p, _| outln!(p, "text"));
    p.show(Format::Text, &v, |p, v| outln!(p, "text {}", v["a"][0]));
    assert_eq!(
        String::from_utf8_lossy(&out),
        "{\n  \"a\": [\n    1\n  ]\n}\ntext 1\n"
    );
    assert!(err.is_empty());
}

/// A writer that fails every write with `kind`.
struct Failing(ErrorKind);

impl Write for Failing {
    fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
        Err(self.0.into())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_closed_pipe_is_no_failure() {
    let (mut out, mut err) = (Failing(ErrorKind::BrokenPipe), Vec::new());
    let mut p = Printer::new(&mut out, &mut err);
    outln!(p, "lost");
    assert!(!p.out_failed());
    assert!(err.is_empty());
}

#[test]
fn a_failed_output_is_said_once_and_remembered() {
    let (mut out, mut err) = (Failing(ErrorKind::StorageFull), Vec::new());
    let mut p = Printer::new(&mut out, &mut err);
    outln!(p, "one");
    outln!(p, "two");
    assert!(p.out_failed());
    let err = String::from_utf8_lossy(&err);
    assert_eq!(
        err.matches("cannot write to standard output").count(),
        1,
        "{err}"
    );
    assert!(
        err.starts_with("redline: cannot write to standard output: "),
        "{err}"
    );
}
