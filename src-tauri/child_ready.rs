//! The first line a process started in the background says (`ready`), waited for with a
//! deadline: a blocked read has no timeout of its own.

use std::io::{BufRead, BufReader, Read};
use std::process::ChildStdout;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

/// The first line of `out` (at most 64 bytes: nothing else is read), within `within`; a
/// thread reads it, and this waits on the thread.
pub fn first_line(out: ChildStdout, within: Duration) -> Result<String, RecvTimeoutError> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(out.take(64)).read_line(&mut line);
        let _ = tx.send(line);
    });
    rx.recv_timeout(within)
}
