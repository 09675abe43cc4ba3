//! One link to a remote: its command run without a terminal, the hellos and the snapshot, then
//! the remote's events mirrored here and the decisions written there, with a heartbeat both
//! ways, until the link ends or the remote is removed.

use super::far::Remote;
use super::said::label;
use crate::net::limits::Beat;
use crate::review::{Detail, Resolved, ReviewQueue};
use crate::runtime::line::{self, delimited, Delimited, PeerLine};
use crate::runtime::remote::counted::{counted, last_read, Counted, ReadAt};
use crate::runtime::remote::protocol::{FromDesktop, Hello, ToDesktop, MAX_TO_DESKTOP, PROTOCOL};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader, Join};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::time::{sleep_until, Instant};

/// How long a command may take to bring the remote's hello: ssh's own connect timeout and a
/// headless start there (`bridge --start`) fit in it.
const HELLO_WITHIN: Duration = Duration::from_secs(60);

/// A remote that reads nothing for this long is let go (as the remote lets a desktop go).
const WRITE_DEADLINE: Duration = Duration::from_secs(10);

/// The end of the command's stderr kept to say why a link failed.
const STDERR_KEPT: usize = 2048;

type Up = ToDesktop<Detail, Resolved>;
/// The end of the command's stderr, and the task reading it.
type Said = (Arc<Mutex<String>>, tokio::task::JoinHandle<()>);
type Stream = Delimited<Counted<Join<ChildStdout, ChildStdin>>>;

/// How a link ended.
pub(super) enum LinkEnd {
    /// The remote was removed, or the instance stops.
    Stopped,
    /// It never reached a Redline there: why (the command's own words when it said some).
    Failed(String),
    /// It was up, and dropped: why.
    Dropped(String),
}

/// Runs link number `link` to `remote` until it ends; `up` is called once the remote's reviews
/// are shown.
pub(super) async fn run(
    remote: &Remote,
    queue: &ReviewQueue,
    (beat, desktop_run): (Beat, &str),
    link: u64,
    up: impl FnOnce(),
) -> LinkEnd {
    let (mut child, stream, said) = match spawn(&remote.entry.command) {
        Ok(started) => started,
        Err(e) => {
            let program = remote.entry.command.first().cloned().unwrap_or_default();
            return LinkEnd::Failed(format!("`{program}` could not be run: {e}"));
        }
    };
    let ended = tokio::select! {
        ended = talk(remote, queue, (beat, desktop_run), link, stream, up) => ended,
        () = remote.stop.cancelled() => LinkEnd::Stopped,
    };
    remote.asked.drop_all();
    let _ = child.start_kill();
    let _ = tokio::time::timeout(Duration::from_secs(5), child.wait()).await;
    // Its stderr read to its end (a child of its own may hold it open: not for long) before it
    // is read for why: its last words are the reason.
    let (said, reading) = said;
    let _ = tokio::time::timeout(Duration::from_secs(1), reading).await;
    let tail = said.lock().map(|s| s.clone()).unwrap_or_default();
    match ended {
        LinkEnd::Failed(why) if !tail.trim().is_empty() => {
            LinkEnd::Failed(format!("{why}: {}", last_line(&tail)))
        }
        ended => ended,
    }
}

/// `program` with `args`, its stdio piped, in a session of its own: ssh finds no terminal to
/// ask a password on, and wsl.exe started by the tray app gets no console to show. Killed when
/// dropped.
pub(super) fn without_terminal(program: &str, args: &[String]) -> Command {
    let mut std_cmd = std::process::Command::new(program);
    std_cmd
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    crate::platform::background::new_session(&mut std_cmd);
    #[cfg(windows)]
    {
        use std::os::windows::process::CommandExt;
        // CREATE_NO_WINDOW
        std_cmd.creation_flags(0x0800_0000);
    }
    let mut cmd = Command::from(std_cmd);
    cmd.kill_on_drop(true);
    cmd
}

/// The command started in a session of its own (no terminal for a password prompt), its stdio
/// framed, and its stderr's end kept.
fn spawn(command: &[String]) -> std::io::Result<(Child, (Stream, ReadAt), Said)> {
    let (program, args) = command
        .split_first()
        .ok_or_else(|| std::io::Error::other("no command"))?;
    let mut child = without_terminal(program, args).spawn()?;
    let (Some(stdin), Some(stdout), Some(stderr)) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        return Err(std::io::Error::other("no pipes"));
    };
    let said = Arc::new(Mutex::new(String::new()));
    let reading = tokio::spawn(keep_tail(stderr, said.clone()));
    let stream = delimited(tokio::io::join(stdout, stdin), MAX_TO_DESKTOP as usize);
    Ok((child, counted(stream), (said, reading)))
}

/// Keeps the last `STDERR_KEPT` bytes the command writes on stderr, each line logged.
async fn keep_tail(stderr: impl AsyncRead + Unpin, said: Arc<Mutex<String>>) {
    let mut lines = BufReader::new(stderr).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        let line: String = line.chars().filter(|c| !c.is_control()).take(400).collect();
        tracing::info!("remote command: {line}");
        let mut kept = said.lock().unwrap_or_else(|p| p.into_inner());
        kept.push_str(&line);
        kept.push('\n');
        if kept.len() > STDERR_KEPT {
            let cut = kept.len() - STDERR_KEPT;
            let cut = (cut..kept.len()).find(|&i| kept.is_char_boundary(i));
            kept.drain(..cut.unwrap_or(0));
        }
    }
}

fn last_line(text: &str) -> &str {
    text.lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
}

async fn talk(
    remote: &Remote,
    queue: &ReviewQueue,
    (beat, desktop_run): (Beat, &str),
    link: u64,
    (mut stream, read_at): (Stream, ReadAt),
    up: impl FnOnce(),
) -> LinkEnd {
    // Theirs first (the remote speaks first): a command that says something else and ends is
    // told by what it said, not by the write that found it gone.
    let run = match their_hello(&mut stream).await {
        Ok(hello) => hello.instance,
        Err(why) => return LinkEnd::Failed(why),
    };
    let ours = FromDesktop::Hello(Hello::ours(desktop_run));
    if line::send(&mut stream, &ours, WRITE_DEADLINE)
        .await
        .is_err()
    {
        return LinkEnd::Failed("the command ended after Redline there said hello".into());
    }
    match tokio::time::timeout(HELLO_WITHIN, next(&mut stream)).await {
        Ok(Ok(Up::Snapshot { reviews })) => remote.mirror.reconcile(queue, &run, reviews),
        Ok(Ok(Up::Bye { why })) => return LinkEnd::Failed(why),
        Ok(Ok(_)) => return LinkEnd::Failed("Redline there sent no list of its reviews".into()),
        Ok(Err(why)) => return LinkEnd::Failed(why),
        Err(_) => {
            return LinkEnd::Failed("Redline there sent no list of its reviews in time".into())
        }
    }
    up();
    let mut wrote = Instant::now();
    loop {
        let (mut lines, gone) = remote.unsettled.to_write(link, &run);
        remote.told(queue, gone);
        lines.extend(remote.asked.unsent());
        for l in &lines {
            if line::send(&mut stream, l, WRITE_DEADLINE).await.is_err() {
                return LinkEnd::Dropped("Redline there stopped reading".into());
            }
            wrote = Instant::now();
        }
        let silent_until = last_read(&read_at) + beat.dead;
        let reply = tokio::select! {
            heard = next(&mut stream) => match heard {
                Ok(up) => heard_up(remote, queue, up),
                Err(why) => return LinkEnd::Dropped(why),
            },
            () = remote.unsettled.added() => None,
            () = remote.asked.added() => None,
            () = sleep_until(wrote + beat.idle) => Some(FromDesktop::Ping),
            () = sleep_until(silent_until) => {
                if last_read(&read_at) + beat.dead <= Instant::now() {
                    return LinkEnd::Dropped(format!("nothing heard for {} s", beat.dead.as_secs()));
                }
                None
            }
        };
        if let Some(reply) = reply {
            if line::send(&mut stream, &reply, WRITE_DEADLINE)
                .await
                .is_err()
            {
                return LinkEnd::Dropped("Redline there stopped reading".into());
            }
            wrote = Instant::now();
        }
    }
}

/// What a line from the remote changes here; the answer it needs, if any.
fn heard_up(remote: &Remote, queue: &ReviewQueue, up: Up) -> Option<FromDesktop> {
    match up {
        Up::Added { review } | Up::Updated { review } => remote.mirror.show(queue, review),
        Up::Resolved { resolved } => remote.mirror.ended(queue, resolved.id, resolved.outcome),
        Up::Decided { decision, fate } => {
            let answered = remote.unsettled.settle(&decision, fate);
            remote.told(queue, answered.into_iter().collect());
        }
        Up::Ping => return Some(FromDesktop::Pong),
        Up::Reply { id, answer } => remote.asked.answered(id, answer),
        Up::Pong | Up::WorkspacesChanged => {}
        Up::Hello(_) | Up::Snapshot { .. } => {
            tracing::warn!(remote = %remote.entry.name, "a second hello or snapshot, ignored")
        }
        Up::Bye { why } => {
            let why = label(&why);
            tracing::warn!(remote = %remote.entry.name, "the remote says: {why}")
        }
    }
    None
}

/// The remote's hello, within `HELLO_WITHIN`; why not (its `bye`, another protocol, nothing).
async fn their_hello(stream: &mut Stream) -> Result<Hello, String> {
    match tokio::time::timeout(HELLO_WITHIN, next(stream)).await {
        Ok(Ok(Up::Hello(h))) if h.protocol == PROTOCOL => Ok(h),
        Ok(Ok(Up::Hello(h))) => Err(format!(
            "Redline {} there speaks bridge protocol {}, this one {PROTOCOL}: install the same version on both",
            h.redline, h.protocol
        )),
        Ok(Ok(Up::Bye { why })) => Err(why),
        Ok(Ok(_)) => Err("the command's first line was no hello from Redline".into()),
        Ok(Err(why)) => Err(why),
        Err(_) => Err(format!(
            "no answer from Redline there within {} s",
            HELLO_WITHIN.as_secs()
        )),
    }
}

/// The next line from the remote; why the link is over, when it is.
async fn next(stream: &mut Stream) -> Result<Up, String> {
    loop {
        match line::recv(stream).await {
            Ok(PeerLine::Text(bytes)) => match serde_json::from_slice::<Up>(&bytes) {
                Ok(up) => return Ok(up),
                Err(e) => tracing::warn!("remote: a line that is no message: {e}"),
            },
            Ok(PeerLine::TooLong) => {
                tracing::warn!("remote: a line over {MAX_TO_DESKTOP} bytes, dropped")
            }
            Ok(PeerLine::Closed) => return Err("the command ended".into()),
            Err(e) => return Err(format!("the link failed: {e}")),
        }
    }
}
