//! `redline turns list|show|undo|checkpoint`: a workspace's turns from the command line. Exit
//! status 0 done, 1 an undo refused because a file changed since the turn (named on standard
//! error), 2 an error.

use crate::output::{errln, out, outln, Printer};
use crate::request::ask;
use crate::resolve::TurnsAction;
use redline_core::api::turns::{TurnState, TurnSummary, TurnUndone};
use redline_core::platform::dirs::Dirs;
use redline_core::surfaces::action::{TurnsCheckpoint, TurnsList, TurnsShow, TurnsUndo};
use redline_core::Result;

/// Runs one `redline turns` command; `Ok(false)`: an undo was refused (exit status 1).
pub(crate) async fn run(dirs: &Dirs, p: &mut Printer<'_>, action: TurnsAction) -> Result<bool> {
    match action {
        TurnsAction::List { dir, format } => {
            let list: Vec<TurnSummary> = ask(dirs, TurnsList { dir }).await?.value;
            p.show(format, &list, list_text);
        }
        TurnsAction::Show { dir, id, path } => {
            let diff: String = ask(dirs, TurnsShow { dir, id, path }).await?.value;
            out!(p, "{diff}");
        }
        TurnsAction::Undo { dir, id, picks } => {
            match ask(dirs, TurnsUndo { dir, id, picks }).await?.value {
                TurnUndone::Done { files } => {
                    for f in files {
                        outln!(p, "undone {}", f.display());
                    }
                }
                TurnUndone::Refused { why } => {
                    errln!(p, "redline: {why}");
                    return Ok(false);
                }
                // Only the window's past-turn undo answers so; said as undone and refused.
                TurnUndone::Partly { files, left } => {
                    for f in files {
                        outln!(p, "undone {}", f.display());
                    }
                    for l in left {
                        errln!(p, "redline: {}", l.why);
                    }
                    return Ok(false);
                }
            }
        }
        TurnsAction::Checkpoint { dir } => {
            let made = ask(dirs, TurnsCheckpoint { dir }).await?.value;
            outln!(
                p,
                "checkpoint {} of {}",
                made.commit,
                made.workspace.display()
            );
        }
    }
    Ok(true)
}

/// Each turn on a line, its files under it.
fn list_text(p: &mut Printer, list: &Vec<TurnSummary>) {
    if list.is_empty() {
        outln!(
            p,
            "no turns yet: a CLI's prompt hook (`redline hook CLI --turn-start`) begins one"
        );
    }
    for t in list {
        let end = match (t.state, t.ended) {
            (TurnState::Ended, Some(ms)) => utc(ms),
            _ => "running".into(),
        };
        let session = match t.session.as_str() {
            "" => String::new(),
            s => format!(" session {s}"),
        };
        outln!(
            p,
            "{}  {}{session}  {} → {end}  {} file(s)",
            t.id,
            t.cli,
            utc(t.started),
            t.files.len() as u64 + t.unlisted
        );
        for f in &t.files {
            let lines = match (&f.not_a_file, f.too_large, f.binary) {
                (Some(kind), _, _) => format!("{kind}, not a regular file: never read or undone"),
                (None, true, _) => "too large to keep or undo".to_owned(),
                (None, false, true) => "binary".to_owned(),
                (None, false, false) => format!("+{} −{}", f.added, f.removed),
            };
            let from = match &f.from {
                Some(from) => format!(" (from {})", from.display()),
                None => String::new(),
            };
            outln!(
                p,
                "    {} {}{from}  {lines}",
                f.status.letter(),
                f.path.display()
            );
        }
        if t.unlisted > 0 {
            outln!(
                p,
                "    … and {} more file(s), not listed: a turn lists at most {}",
                t.unlisted,
                t.files.len()
            );
        }
    }
}

/// `ms` since the Unix epoch as a UTC time, `2026-11-29 08:41:12Z`.
fn utc(ms: u64) -> String {
    let secs = ms / 1000;
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil(days as i64);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// The date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::utc;

    #[test]
    fn times_are_utc_dates() {
        assert_eq!(utc(0), "1970-01-01 00:00:00Z");
        assert_eq!(utc(951_782_400_000), "2000-02-29 00:00:00Z");
        assert_eq!(utc(1_795_941_672_000), "2026-11-29 08:41:12Z");
    }
}
