//! How much a CLI may queue: a bound on pending reviews and their text, for every protocol.

use crate::error::Result;
use crate::review::origin::Origin;
use crate::review::queue::ReviewQueue;
use crate::review::QueueBound;
use crate::review::ReviewError;
use std::path::Path;

/// Pending reviews one CLI session may hold (the CLIs open one at a time; a re-proposal of the
/// same file replaces its review and is always let through).
pub const MAX_REVIEWS_PER_SESSION: usize = 16;
/// Pending reviews in one workspace, all sessions together.
pub const MAX_REVIEWS_PER_WORKSPACE: usize = 64;
/// Text held by one workspace's pending reviews (originals, proposals and edits): 256 MiB.
pub const MAX_QUEUED_BYTES: usize = 256 * 1024 * 1024;

/// Refuses a new proposal that would take the queue past a bound. `incoming` is the size of
/// the proposal's original and text.
pub fn admit(
    reviews: &ReviewQueue,
    workspace: &Path,
    origin: &Origin,
    file_path: &str,
    incoming: usize,
) -> Result<(), ReviewError> {
    let (mut in_session, mut in_workspace, mut bytes) = (0, 0, 0usize);
    for r in reviews.list().iter().filter(|r| r.in_workspace(workspace)) {
        if r.origin == *origin && r.file_path == file_path {
            // A replacement: its old text goes as the new one comes.
            continue;
        }
        in_workspace += 1;
        in_session += usize::from(r.origin == *origin);
        bytes = bytes.saturating_add(r.original_text().len() + r.proposal.len() + r.current.len());
    }
    let full = |bound| {
        Err(ReviewError::QueueFull {
            file: file_path.into(),
            bound,
        })
    };
    if in_session >= MAX_REVIEWS_PER_SESSION {
        return full(QueueBound::Session(MAX_REVIEWS_PER_SESSION));
    }
    if in_workspace >= MAX_REVIEWS_PER_WORKSPACE {
        return full(QueueBound::Workspace(MAX_REVIEWS_PER_WORKSPACE));
    }
    // The review keeps the proposal twice (as proposed and as edited).
    if bytes.saturating_add(incoming.saturating_mul(2)) > MAX_QUEUED_BYTES {
        return full(QueueBound::Bytes(MAX_QUEUED_BYTES));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::clock::SystemClock;
    use crate::review::client::ClientInfo;
    use crate::review::queue::Proposal;
    use std::sync::Arc;

    fn cli(session: &str) -> Origin {
        Origin::Cli {
            session: session.into(),
        }
    }

    fn open(q: &ReviewQueue, session: &str, file: &str, text: String) {
        q.open(
            Proposal {
                workspace: "/ws".into(),
                origin: cli(session),
                client: ClientInfo::default(),
                file_path: file.into(),
                path: file.into(),
                original: None,
                proposal: text,
                container: false,
                read_only: None,
                can_mention: false,
                reason_heard: false,
                on_disk: None,
            },
            Box::new(|_, _| {}),
        );
    }

    #[test]
    fn bounds_reviews_per_session_workspace_and_bytes() {
        let q = ReviewQueue::new(Arc::new(SystemClock));
        let ws = Path::new("/ws");
        for i in 0..MAX_REVIEWS_PER_SESSION {
            let f = format!("/ws/{i}");
            admit(&q, ws, &cli("s1"), &f, 1).unwrap();
            open(&q, "s1", &f, "x".into());
        }
        let err = admit(&q, ws, &cli("s1"), "/ws/more", 1).unwrap_err();
        assert_eq!(err.code(), crate::error::FaultCode::Busy);
        assert!(err.to_string().contains("/ws/more"));
        // Re-proposing a file it already has is a replacement, not more.
        admit(&q, ws, &cli("s1"), "/ws/0", 1).unwrap();
        // Another session still has room; another workspace is not counted.
        admit(&q, ws, &cli("s2"), "/ws/0", 1).unwrap();
        for s in 2..(MAX_REVIEWS_PER_WORKSPACE / MAX_REVIEWS_PER_SESSION + 1) {
            for i in 0..MAX_REVIEWS_PER_SESSION {
                open(&q, &format!("s{s}"), &format!("/ws/{i}"), "x".into());
            }
        }
        assert_eq!(
            admit(&q, ws, &cli("s99"), "/ws/a", 1).unwrap_err().code(),
            crate::error::FaultCode::Busy
        );
        admit(&q, Path::new("/other"), &cli("s99"), "/other/a", 1).unwrap();

        let q = ReviewQueue::new(Arc::new(SystemClock));
        open(&q, "s1", "/ws/big", "x".repeat(100 << 20));
        assert_eq!(
            admit(&q, ws, &cli("s2"), "/ws/b", 30 << 20)
                .unwrap_err()
                .code(),
            crate::error::FaultCode::Busy
        );
        admit(&q, ws, &cli("s2"), "/ws/b", 20 << 20).unwrap();
    }
}
