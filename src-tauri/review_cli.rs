//! `redline review list|show|accept|reject|wait`: the pending reviews, decided from the command
//! line.

use crate::output::{out, outln, Printer};
use crate::request::ask;
use crate::resolve::ReviewAction;
use crate::text;
use redline_core::platform::dirs::Dirs;
use redline_core::review::read_only::ReadOnly;
use redline_core::review::Summary;
use redline_core::surfaces::action::{
    ReviewAccept, ReviewReject, ReviewShow, ReviewSummaries, ReviewWait,
};
use redline_core::Result;

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
        ReviewAction::Reject { id, reason } => {
            // Looked up first, as for accept: once decided, the review is gone.
            let note = unheard_note(dirs, id, reason.as_deref()).await;
            ask(
                dirs,
                ReviewReject {
                    id,
                    reason,
                    comments: None,
                },
            )
            .await?;
            outln!(p, "rejected review {id}{note}");
        }
        ReviewAction::Wait { file, timeout } => {
            let timeout_ms = timeout.saturating_mul(1000);
            let r = ask(dirs, ReviewWait { file, timeout_ms }).await?;
            outln!(p, "{}", serde_json::to_string(&r.value).unwrap_or_default());
        }
    }
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

/// That `reason` reaches nobody, when review `id`'s asker cannot hear one (an IDE protocol's
/// rejection carries none): the user would otherwise think the CLI was told.
async fn unheard_note(dirs: &Dirs, id: u64, reason: Option<&str>) -> String {
    if reason.is_none_or(|r| r.trim().is_empty()) {
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
