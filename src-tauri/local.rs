//! `redline propose` and `redline diff`: local reviews opened through the running instance, what
//! they print, and their exit status (0 accepted, 1 rejected, 2 error or no decision).

use crate::args::{DiffArgs, ProposeArgs};
use crate::request::absolute;
use redline_core::platform::dirs::Dirs;
use redline_core::review::Outcome;
use redline_core::runtime::control::{self, Request};
use redline_core::runtime::instance::local::{
    Diff, LocalAnswer, Propose, Settled, MAX_PROPOSAL_BYTES,
};
use redline_core::surfaces::diff_pair;
use redline_core::surfaces::diff_write::{self, Landed};
use redline_core::{Error, Result};
use std::collections::HashMap;
use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// How a local review command ended, as its exit status.
pub enum Verdict {
    Accepted,
    Rejected,
    /// Nobody decided (the workspace was turned off, the instance stopped).
    Undecided,
}

impl From<Verdict> for ExitCode {
    fn from(v: Verdict) -> ExitCode {
        match v {
            Verdict::Accepted => ExitCode::SUCCESS,
            Verdict::Rejected => ExitCode::from(1),
            Verdict::Undecided => ExitCode::from(2),
        }
    }
}

/// All accepted, else any rejected, else undecided.
fn verdict(settled: &[Settled]) -> Verdict {
    if settled.iter().all(|s| s.decision == Outcome::Accepted) {
        Verdict::Accepted
    } else if settled.iter().any(|s| s.decision == Outcome::Rejected) {
        Verdict::Rejected
    } else {
        Verdict::Undecided
    }
}

async fn send(dirs: &Dirs, req: Request) -> Result<LocalAnswer> {
    let value = control::call(dirs, &req).await?;
    serde_json::from_value(value).map_err(|e| Error::Control(format!("unexpected answer: {e}")))
}

pub async fn propose(dirs: &Dirs, a: ProposeArgs) -> Result<Verdict> {
    let file = absolute(&a.file)?;
    let content = proposed_text(&a)?;
    let req = Request::Propose(Propose {
        file,
        content,
        wait: a.wait,
    });
    let answer = send(dirs, req).await?;
    let Some(settled) = answer.settled else {
        let id = answer.opened.first().copied().unwrap_or_default();
        if a.json {
            println!("{}", serde_json::json!({ "id": id }));
        } else {
            println!("review {id} opened; `redline propose --wait` waits for the decision");
        }
        return Ok(Verdict::Accepted);
    };
    let Some(s) = settled.first() else {
        return Ok(Verdict::Undecided);
    };
    if a.json {
        let out = serde_json::json!({ "decision": s.decision, "content": s.content });
        println!("{out}");
    } else {
        eprintln!("redline: {}", said(s.decision));
        if let Some(text) = &s.content {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())
                .and_then(|()| out.flush())
                .map_err(|e| Error::io("<stdout>", e))?;
        }
    }
    Ok(verdict(&settled))
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
fn proposed_text(a: &ProposeArgs) -> Result<String> {
    let from_file = a.content_file.as_deref().filter(|f| *f != Path::new("-"));
    let (mut reader, name): (Box<dyn Read>, PathBuf) = match from_file {
        Some(f) => {
            let file = std::fs::File::open(f).map_err(|e| Error::io(f, e))?;
            (Box::new(file), f.to_owned())
        }
        None => {
            let asked = a.content_file.is_some() || a.stdin.is_some();
            if !asked && std::io::stdin().is_terminal() {
                return Err(Error::Usage(
                    "give the proposed text: --content-file F, or - to read standard input".into(),
                ));
            }
            (Box::new(std::io::stdin()), PathBuf::from("<stdin>"))
        }
    };
    let mut bytes = Vec::new();
    reader
        .by_ref()
        .take(MAX_PROPOSAL_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(&name, e))?;
    if bytes.len() > MAX_PROPOSAL_BYTES {
        return Err(Error::TooLarge {
            path: name.to_string_lossy().into_owned(),
            size: bytes.len() as u64,
            limit: MAX_PROPOSAL_BYTES as u64,
        });
    }
    String::from_utf8(bytes).map_err(|_| Error::NotText(name.to_string_lossy().into_owned()))
}

pub async fn diff(dirs: &Dirs, a: DiffArgs) -> Result<Verdict> {
    if a.edit && !a.wait {
        return Err(Error::Usage(
            "--edit writes RIGHT once you accept: it needs --wait".into(),
        ));
    }
    let pair = diff_pair::read(&absolute(&a.left)?, &absolute(&a.right)?)?;
    for s in &pair.skipped {
        eprintln!("redline: skipped {} (not text)", s.display());
    }
    if pair.files.is_empty() {
        eprintln!("redline: no differences");
        return Ok(Verdict::Accepted);
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
        files: pair.files,
        edit: a.edit,
        wait: a.wait,
    });
    let answer = send(dirs, req).await?;
    let Some(settled) = answer.settled else {
        println!("opened {} review(s)", answer.opened.len());
        return Ok(Verdict::Accepted);
    };
    for s in &settled {
        println!("{}  {}", said(s.decision), s.path.display());
    }
    let mut wrote_all = true;
    // Where accepted text goes when RIGHT cannot take it and no file beside it can either.
    let spare = dirs.config.join("accepted");
    for s in settled.iter().filter(|_| a.edit) {
        let (Some(text), Some(Some(before))) = (&s.content, sent.get(&s.path)) else {
            continue;
        };
        // Accepted as it was shown: nothing of the user's to write, whatever RIGHT holds now.
        if text == before {
            continue;
        }
        let target = s.target.as_ref();
        match diff_write::write(target, &s.path, before.as_bytes(), text.as_bytes(), &spare) {
            Ok(Landed::Wrote(path)) => println!("wrote {}", path.display()),
            Ok(Landed::AlreadyThere) => {}
            Err(e @ Error::NotKept { .. }) => {
                // The last place left for the user's text is the terminal.
                eprintln!("redline: {e}; here it is on standard output");
                let mut out = std::io::stdout().lock();
                out.write_all(text.as_bytes())
                    .and_then(|()| out.flush())
                    .map_err(|e| Error::io("<stdout>", e))?;
                wrote_all = false;
            }
            Err(e) => {
                eprintln!("redline: {e}");
                wrote_all = false;
            }
        }
    }
    match verdict(&settled) {
        Verdict::Accepted if !wrote_all => Ok(Verdict::Undecided),
        v => Ok(v),
    }
}
