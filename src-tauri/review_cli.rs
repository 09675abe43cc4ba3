//! `redline review list|show|accept|reject|continue|done|wait`: the pending reviews, decided
//! from the command line (an edit's accepted or rejected, a turn's Done or Continue).

use crate::comment_arg::CommentArg;
use crate::output::{out, outln, Printer};
use crate::request::ask;
use crate::resolve::ReviewAction;
use crate::text;
use redline_core::platform::dirs::Dirs;
use redline_core::review::comment::Comment;
use redline_core::review::read_only::ReadOnly;
use redline_core::review::{ReviewError, ReviewKind, Summary};
use redline_core::surfaces::action::{
    ReviewAccept, ReviewReject, ReviewShow, ReviewSummaries, ReviewWait,
};
use redline_core::{Error, Result};

pub(crate) async fn run(dirs: &Dirs, p: &mut Printer<'_>, action: ReviewAction) -> Result<()> {
    match action {
        ReviewAction::List { format } => {
            let list = summaries(dirs).await?;
            p.show(format, &list, list_text);
        }
        ReviewAction::Show { id } => {
            let diff: String = ask(dirs, ReviewShow { id }).await?.value;
            out!(p, "{diff}");
        }
        ReviewAction::Accept { id, content_file } => {
            let content = match content_file {
                Some(f) => Some(crate::local::bounded_text(Some(&f))?),
                None => None,
            };
            // Looked up first: once decided, the review and why it is read-only are gone.
            let note = read_only_note(dirs, id).await;
            let accept = ReviewAccept {
                id,
                revision: None,
                content,
            };
            ask(dirs, accept).await?;
            outln!(p, "accepted review {id}{note}");
        }
        ReviewAction::Reject {
            id,
            reason,
            comments,
        } => reject(dirs, p, id, reason, &comments, "rejected").await?,
        ReviewAction::Continue {
            id,
            reason,
            comments,
        } => {
            turn_review(dirs, id, "reject").await?;
            reject(dirs, p, id, reason, &comments, "continued").await?;
        }
        ReviewAction::Done { id } => {
            turn_review(dirs, id, "accept").await?;
            let done = ReviewAccept {
                id,
                revision: None,
                content: None,
            };
            ask(dirs, done).await?;
            outln!(p, "done: review {id}");
        }
        ReviewAction::Wait { file, timeout } => {
            let timeout_ms = timeout.saturating_mul(1000);
            let r = ask(dirs, ReviewWait { file, timeout_ms }).await?;
            outln!(p, "{}", serde_json::to_string(&r.value).unwrap_or_default());
        }
    }
    Ok(())
}

/// Rejects review `id` (a turn's: Continue) with the `comments` and `reason`, and says so as
/// `{done} review ID`, with why they reach nobody when its asker hears none.
async fn reject(
    dirs: &Dirs,
    p: &mut Printer<'_>,
    id: u64,
    reason: Option<String>,
    comments: &[CommentArg],
    done: &str,
) -> Result<()> {
    // Looked up first, as for accept: once decided, the review is gone.
    let (comments, note) = commented(dirs, id, comments, reason.as_deref()).await?;
    ask(
        dirs,
        ReviewReject {
            id,
            reason,
            comments,
        },
    )
    .await?;
    outln!(p, "{done} review {id}{note}");
    Ok(())
}

/// The pending reviews, as `redline review list` prints them.
async fn summaries(dirs: &Dirs) -> Result<Vec<Summary>> {
    Ok(ask(dirs, ReviewSummaries {}).await?.value)
}

fn list_text(p: &mut Printer, list: &Vec<Summary>) {
    if list.is_empty() {
        outln!(p, "no pending reviews");
    }
    for r in list {
        text::summary(p, r);
    }
}

/// Pending review `id`, as `review list` shows it.
async fn pending(dirs: &Dirs, id: u64) -> Result<Summary> {
    let list = summaries(dirs).await?;
    let found = list.into_iter().find(|r| r.id == id);
    found.ok_or_else(|| ReviewError::NoSuchReview(id).into())
}

/// Whether `r` is the review of a CLI's turn rather than of one edit. Read here alone, so what
/// marks a turn's review is named once.
fn is_turn(r: &Summary) -> bool {
    r.kind == ReviewKind::Turn
}

/// Refuses a turn review's answer (`continue`, `done`) on an edit's review, naming `instead`.
async fn turn_review(dirs: &Dirs, id: u64, instead: &str) -> Result<()> {
    if is_turn(&pending(dirs, id).await?) {
        return Ok(());
    }
    Err(Error::Usage(format!(
        "review {id} is of one edit, not of a turn: answer it with `redline review {instead} {id}`"
    )))
}

/// The `--comment`s of review `id` made comments on its workspace's lines (none: nothing
/// asked), and the note that they and the `reason` reach nobody when its asker hears none.
async fn commented(
    dirs: &Dirs,
    id: u64,
    args: &[CommentArg],
    reason: Option<&str>,
) -> Result<(Option<Vec<Comment>>, String)> {
    let says = !args.is_empty() || reason.is_some_and(|r| !r.trim().is_empty());
    if args.is_empty() {
        return Ok((None, unheard_note(dirs, id, says).await));
    }
    let review = pending(dirs, id).await?;
    let comments = args
        .iter()
        .map(|a| a.resolve(&review.workspace))
        .collect::<Result<Vec<_>>>()?;
    let note = if review.reason_heard {
        String::new()
    } else {
        unheard_why(&review)
    };
    Ok((Some(comments), note))
}

/// That what the user says (a reason, comments) reaches nobody, when review `id`'s asker cannot
/// hear it (an IDE protocol's rejection carries none): the user would otherwise think the CLI
/// was told.
async fn unheard_note(dirs: &Dirs, id: u64, says: bool) -> String {
    if !says {
        return String::new();
    }
    let list = summaries(dirs).await.unwrap_or_default();
    match list.iter().find(|r| r.id == id) {
        Some(r) if !r.reason_heard => unheard_why(r),
        _ => String::new(),
    }
}

/// Why review `r`'s asker hears no reason, as the note after `rejected review ID`.
fn unheard_why(r: &Summary) -> String {
    // A `redline propose` without --wait has returned: nobody is there to be told.
    let nobody_waits = ReadOnly::NobodyWaits.to_string();
    if r.read_only.as_deref() == Some(nobody_waits.as_str()) {
        " (nobody is waiting for its decision: the reason was not sent; `redline propose --wait` \
         hears one)"
            .into()
    } else if r.client.command {
        // A command, not a CLI's protocol: `redline diff` prints no reason.
        format!(
            " (`{}` hears no reason: the reason was not sent)",
            r.client.name
        )
    } else {
        " (its CLI's protocol carries no reason: the reason was not sent)".into()
    }
}

/// Why accepting review `id` writes nothing, when it does not (`: nothing is written…`).
async fn read_only_note(dirs: &Dirs, id: u64) -> String {
    let list = summaries(dirs).await.unwrap_or_default();
    list.iter()
        .find(|r| r.id == id)
        .and_then(|r| r.read_only.as_deref())
        .map(|why| format!(" ({})", why.trim_end_matches('.')))
        .unwrap_or_default()
}
