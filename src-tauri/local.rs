//! `redline propose` and `redline diff`: local reviews opened through the running instance, what
//! they print, and their exit status (0 accepted, 1 rejected, 2 error or no decision).

use crate::format::Format;
use crate::output::{errln, out, outln, Printer};
use crate::resolve::{LocalDiff, LocalPropose};
use redline_core::platform::dirs::Dirs;
use redline_core::review::Outcome;
use redline_core::review::ReviewError;
use redline_core::runtime::control::{self, Request};
use redline_core::runtime::instance::local::{
    Diff, LocalAnswer, Propose, Settled, MAX_PROPOSAL_BYTES,
};
use redline_core::surfaces::diff_pair;
use redline_core::surfaces::diff_write::{self, Landed};
use redline_core::surfaces::SurfaceError;
use redline_core::{ControlFailure, Error, Result};
use std::collections::HashMap;
use std::io::{IsTerminal, Read};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// How a local review command ended, as its exit status.
pub enum Ending {
    Accepted,
    Rejected,
    /// Files differ but none could be shown (not text): "no" to "are they the same?".
    Differ,
    /// Nobody decided (the workspace was turned off, the instance stopped).
    Undecided,
}

impl From<Ending> for ExitCode {
    fn from(v: Ending) -> ExitCode {
        match v {
            Ending::Accepted => ExitCode::SUCCESS,
            Ending::Rejected | Ending::Differ => ExitCode::from(1),
            Ending::Undecided => ExitCode::from(2),
        }
    }
}

/// All accepted, else any rejected, else undecided.
fn ending(settled: &[Settled]) -> Ending {
    if settled.iter().all(|s| s.decision == Outcome::Accepted) {
        Ending::Accepted
    } else if settled.iter().any(|s| s.decision == Outcome::Rejected) {
        Ending::Rejected
    } else {
        Ending::Undecided
    }
}

async fn send(dirs: &Dirs, req: Request) -> Result<LocalAnswer> {
    let value = control::call(dirs, &req).await?;
    serde_json::from_value(value).map_err(|e| Error::Control(ControlFailure::UnexpectedAnswer(e)))
}

pub async fn propose(dirs: &Dirs, p: &mut Printer<'_>, a: LocalPropose) -> Result<Ending> {
    let content = proposed_text(&a)?;
    let req = Request::Propose(Propose {
        file: a.file,
        content,
        wait: a.wait,
    });
    let answer = send(dirs, req).await?;
    let Some(settled) = answer.settled else {
        let id = answer.opened.first().copied().unwrap_or_default();
        match a.format {
            Format::Json => outln!(p, "{}", serde_json::json!({ "id": id })),
            Format::Text => outln!(
                p,
                "review {id} opened; `redline propose --wait` waits for the decision"
            ),
        }
        return Ok(Ending::Accepted);
    };
    let Some(s) = settled.first() else {
        return Ok(Ending::Undecided);
    };
    print_settled(p, a.format, s);
    Ok(ending(&settled))
}

/// The decision on a proposal: as one JSON line, or said on stderr with the final text on stdout.
fn print_settled(p: &mut Printer, format: Format, s: &Settled) {
    if format == Format::Json {
        let mut out = serde_json::json!({ "decision": s.decision, "content": s.content });
        // Only when given: a plain rejection's line stays as it always was.
        if let Some(reason) = &s.reason {
            out["reason"] = reason.as_str().into();
        }
        outln!(p, "{out}");
        return;
    }
    match &s.reason {
        Some(reason) => errln!(p, "redline: {}: {reason}", said(s.decision)),
        None => errln!(p, "redline: {}", said(s.decision)),
    }
    if let Some(text) = &s.content {
        out!(p, "{text}");
    }
}

fn said(o: Outcome) -> &'static str {
    match o {
        Outcome::Accepted => "accepted",
        Outcome::Rejected => "rejected",
        Outcome::Closed => "closed without a decision",
        Outcome::Dismissed => "dismissed without a decision (its workspace or Redline stopped)",
    }
}

/// The proposal's text: from `--content-file F`, or standard input (`-`, or piped), bounded as a
/// CLI's message is.
fn proposed_text(a: &LocalPropose) -> Result<String> {
    let from_file = a.content_file.as_deref().filter(|f| *f != Path::new("-"));
    if from_file.is_none() {
        let asked = a.content_file.is_some() || a.stdin;
        if !asked && std::io::stdin().is_terminal() {
            return Err(Error::Usage(
                "give the proposed text: --content-file F, or - to read standard input".into(),
            ));
        }
    }
    let text = bounded_text(from_file)?;
    if text.is_empty() && !a.allow_empty && has_text(&a.file) {
        let from = match from_file {
            Some(f) => f.display().to_string(),
            None => "standard input".into(),
        };
        return Err(Error::Usage(format!(
            "{from} is empty: that would propose deleting all of {}; give the new text, or \
             add --allow-empty to propose emptying it",
            a.file.display()
        )));
    }
    Ok(text)
}

/// A file with something in it: proposing empty text for it deletes all of it.
fn has_text(file: &Path) -> bool {
    std::fs::metadata(file).is_ok_and(|m| m.is_file() && m.len() > 0)
}

/// UTF-8 text of at most `MAX_PROPOSAL_BYTES` from `file`, else standard input: what a proposal
/// or an accepted text may be, refused here before anything is sent.
pub(crate) fn bounded_text(file: Option<&Path>) -> Result<String> {
    let (mut reader, name, size): (Box<dyn Read>, PathBuf, Option<u64>) = match file {
        Some(f) => {
            let file = std::fs::File::open(f).map_err(|e| Error::io(f, e))?;
            let size = file.metadata().ok().map(|m| m.len());
            (Box::new(file), f.to_owned(), size)
        }
        None => (Box::new(std::io::stdin()), PathBuf::from("<stdin>"), None),
    };
    let mut bytes = Vec::new();
    reader
        .by_ref()
        .take(MAX_PROPOSAL_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(&name, e))?;
    if bytes.len() > MAX_PROPOSAL_BYTES {
        return Err(ReviewError::TooLarge {
            path: name.to_string_lossy().into_owned(),
            // A file's own size; of a stream only that it goes past the bound.
            size: size.unwrap_or(bytes.len() as u64),
            limit: MAX_PROPOSAL_BYTES as u64,
        }
        .into());
    }
    String::from_utf8(bytes)
        .map_err(|_| ReviewError::NotText(name.to_string_lossy().into_owned()).into())
}

pub async fn diff(dirs: &Dirs, p: &mut Printer<'_>, a: LocalDiff) -> Result<Ending> {
    let pair = diff_pair::read(&a.left, &a.right).map_err(absent_side)?;
    for s in &pair.skipped {
        errln!(
            p,
            "redline: skipped {} (differs, but is not text)",
            s.display()
        );
    }
    if pair.files.is_empty() && !pair.skipped.is_empty() {
        // As diff(1) answers "Binary files differ": a difference, though none can be shown.
        errln!(p, "redline: they differ, but not as text: nothing to show");
        return Ok(Ending::Differ);
    }
    if pair.files.is_empty() {
        errln!(p, "redline: no differences");
        return Ok(Ending::Accepted);
    }
    // What RIGHT held when read: only that is overwritten.
    let sent: HashMap<PathBuf, Option<String>> = match a.edit {
        true => pair
            .files
            .iter()
            .map(|f| (f.path.clone(), f.right.clone()))
            .collect(),
        false => HashMap::new(),
    };
    let req = Request::Diff(Diff {
        root: pair.root,
        shown_as: a.shown_as,
        files: pair.files,
        edit: a.edit,
        wait: a.wait,
    });
    let answer = send(dirs, req).await?;
    let Some(settled) = answer.settled else {
        outln!(p, "opened {} review(s)", answer.opened.len());
        return Ok(Ending::Accepted);
    };
    for s in &settled {
        outln!(p, "{}  {}", said(s.decision), s.path.display());
    }
    // Where accepted text goes when RIGHT cannot take it and no file beside it can either.
    let spare = dirs.config.join("accepted");
    let wrote_all = !a.edit || write_accepted(p, &settled, &sent, &spare);
    match ending(&settled) {
        Ending::Accepted if !wrote_all => Ok(Ending::Undecided),
        v => Ok(v),
    }
}

/// A side of `redline diff` that is not there, with what to give instead (git passes /dev/null).
fn absent_side(e: Error) -> Error {
    match e {
        Error::Io { path, source } if source.kind() == std::io::ErrorKind::NotFound => {
            Error::Usage(format!(
                "{}: there is no such file or folder; for a side that does not exist, give \
                 /dev/null",
                path.display()
            ))
        }
        e => e,
    }
}

/// Writes each accepted text the user changed to RIGHT (or beside it, or into `spare`); whether
/// every one landed. What RIGHT held when `sent` is the only text it overwrites.
fn write_accepted(
    p: &mut Printer,
    settled: &[Settled],
    sent: &HashMap<PathBuf, Option<String>>,
    spare: &Path,
) -> bool {
    let mut wrote_all = true;
    for s in settled {
        let (Some(text), Some(Some(before))) = (&s.content, sent.get(&s.path)) else {
            continue;
        };
        // Accepted as it was shown: nothing of the user's to write, whatever RIGHT holds now.
        if text == before {
            continue;
        }
        let target = s.target.as_ref();
        match diff_write::write(target, &s.path, before.as_bytes(), text.as_bytes(), spare) {
            Ok(Landed::Wrote(path)) => outln!(p, "wrote {}", path.display()),
            Ok(Landed::AlreadyThere) => {}
            Err(e @ SurfaceError::NotKept { .. }) => {
                // The last place left for the user's text is the terminal.
                errln!(p, "redline: {e}; here it is on standard output");
                out!(p, "{text}");
                wrote_all = false;
            }
            Err(e) => {
                errln!(p, "redline: {e}");
                wrote_all = false;
            }
        }
    }
    wrote_all
}
