//! Lookups of who is behind a connection, run off the async runtime a bounded few at a time.

use std::time::Duration;

/// Lookups on the blocking pool at once, at most, counting the ones given up on that still run.
/// Each takes a thread of the pool while it runs. Unbounded, a burst of connections (3,000 MCP
/// sessions in a row) grew the pool by a thread per lookup in flight, and lookups given up at
/// their deadline went on running while new ones started: hundreds of threads, which the work
/// Redline runs there every second then kept alive (tokio wakes its idle threads in turn, so
/// none stays idle the 10 s that would end it), each with its own malloc arena and cache:
/// memory that never came back (issue 37, finding 7). A lookup that never ends (a peer's FUSE)
/// keeps its turn: past this many, a new connection goes on unnamed instead of taking a thread.
pub const LOOKUPS_AT_ONCE: usize = 4;
static LOOKUPS: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(LOOKUPS_AT_ONCE);

/// Runs `lookup` on the blocking pool, at most `LOOKUPS_AT_ONCE` at a time, and waits for it
/// (its turn included) at most `deadline`.
pub(crate) async fn off_runtime<T: Send + 'static>(
    deadline: Duration,
    lookup: impl FnOnce() -> T + Send + 'static,
) -> Option<T> {
    let run = async {
        let turn = LOOKUPS.acquire().await.ok()?;
        // The turn goes with the thread: it is free again when the lookup ends, not before.
        let lookup = move || {
            let _turn = turn;
            lookup()
        };
        tokio::task::spawn_blocking(lookup).await.ok()
    };
    tokio::time::timeout(deadline, run).await.ok().flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_lookup_that_never_ends_is_given_up_at_the_deadline() {
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let waited = tokio::time::timeout(
            Duration::from_secs(10),
            off_runtime(Duration::from_millis(100), move || rx.recv().ok()),
        )
        .await;
        assert_eq!(waited, Ok(None), "given up, not waited on");
        // It keeps its turn while it runs: with every turn stuck, a new lookup is given up
        // without running; once one ends, lookups run again.
        let mut stuck = vec![tx];
        for _ in 1..LOOKUPS_AT_ONCE {
            let (tx, rx) = std::sync::mpsc::channel::<()>();
            stuck.push(tx);
            let given_up = off_runtime(Duration::from_millis(100), move || rx.recv().ok()).await;
            assert_eq!(given_up, None);
        }
        let ran = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = ran.clone();
        let none = off_runtime(Duration::from_millis(200), move || {
            flag.store(true, std::sync::atomic::Ordering::SeqCst)
        })
        .await;
        assert_eq!(none, None);
        assert!(
            !ran.load(std::sync::atomic::Ordering::SeqCst),
            "ran past the bound"
        );
        stuck.pop();
        let done = off_runtime(Duration::from_secs(10), || 7).await;
        assert_eq!(done, Some(7));
        drop(stuck);
    }
}
