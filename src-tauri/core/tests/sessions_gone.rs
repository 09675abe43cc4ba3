//! MCP sessions leave nothing behind once gone: hundreds opened at once over real sockets, with
//! and without DELETE, and afterwards no session listed, no task left, and no more threads than
//! a few (each thread keeps its own malloc arena and cache: finding 7 of issue 37). In a test
//! binary of its own: it counts the process's threads.

mod common;

#[cfg(target_os = "linux")]
mod linux {
    use super::common::{start_with, Mcp};
    use redline_core::net::limits::Limits;
    use std::time::Duration;

    fn threads() -> usize {
        std::fs::read_dir("/proc/self/task").unwrap().count()
    }

    /// Polls `check` until it holds, for at most 30 s.
    async fn eventually(what: &str, mut check: impl AsyncFnMut() -> bool) {
        let limit = tokio::time::Instant::now() + Duration::from_secs(30);
        while !check().await {
            assert!(tokio::time::Instant::now() < limit, "never: {what}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn sessions_opened_at_once_leave_no_session_task_or_thread_behind() {
        let f = start_with(Limits {
            streamless_session: Duration::from_secs(1),
            // Room for every session at once: none is ended between its two requests.
            max_sessions: 256,
            ..Limits::default()
        })
        .await;
        let http = reqwest::Client::new();
        let url = format!("http://127.0.0.1:{}/mcp", f.port);
        let open = |delete: bool| {
            let mut c = Mcp::new(http.clone(), url.clone(), f.token.clone());
            async move {
                c.connect("2025-06-18").await;
                if delete {
                    let r = c.request(reqwest::Method::DELETE).send().await.unwrap();
                    assert!(r.status().is_success(), "{}", r.status());
                }
            }
        };
        let clients = async || f.instance.status().await.workspaces[0].clients.len();
        open(true).await;
        eventually("the first session ends", async || clients().await == 0).await;
        let metrics = tokio::runtime::Handle::current().metrics();
        let (tasks, threads_before) = (metrics.num_alive_tasks(), threads());
        for delete in [false, true, false, true] {
            futures::future::join_all((0..64).map(|_| open(delete))).await;
        }
        eventually("every session ends", async || clients().await == 0).await;
        eventually("every session's tasks end", async || {
            metrics.num_alive_tasks() <= tasks
        })
        .await;
        // Lookups of who connected run LOOKUPS_AT_ONCE at a time; the instance's own polls
        // take a thread or two besides. Unbounded, the 64 lookups at once took a thread each.
        let most = threads_before + redline_core::platform::peer::LOOKUPS_AT_ONCE + 2;
        let now = threads();
        assert!(
            now <= most,
            "{now} threads after the sessions, {threads_before} before (at most {most})"
        );
        f.instance.shutdown().await;
    }
}
