//! Each review names the process that really asked: the one on the other end of the HTTP
//! connection (here, this test process), not only the MCP client's name.
#![cfg(target_os = "linux")]

#[tokio::test]
async fn a_review_names_the_process_behind_the_connection() {
    let f = crate::common::start().await;
    let mut client = f.client();
    client.connect("2025-06-18").await;
    let id = f.propose(&mut client, "a.txt", "one\nTWO\n").await;
    let review = f.instance.reviews().review(id).unwrap();
    let process = review.client.process.as_ref().expect("the peer was found");
    assert_eq!(process.pid, std::process::id());
    let exe = std::env::current_exe().unwrap();
    assert_eq!(
        process.program,
        exe.file_name().unwrap().to_string_lossy(),
        "an unknown program is named by its executable"
    );
    assert_eq!(
        process.cwd.as_deref(),
        std::env::current_dir().unwrap().to_str()
    );
    // `redline status` and the summary carry it too.
    let status = f.instance.status().await;
    assert_eq!(
        status.workspaces[0].clients[0]
            .process
            .as_ref()
            .map(|p| p.pid),
        Some(std::process::id())
    );
    assert_eq!(
        review.summary().client.process.unwrap().pid,
        std::process::id()
    );
}

/// The process is looked up when the session starts, not on the first openDiff's path: by the
/// time the CLI proposes an edit, who it is is known already.
#[tokio::test]
async fn the_process_is_known_before_the_first_review() {
    let f = crate::common::start().await;
    let mut client = f.client();
    client.connect("2025-06-18").await;
    crate::common::eventually("the connected CLI's process to be known", || async {
        let status = f.instance.status().await;
        status.workspaces[0]
            .clients
            .first()
            .and_then(|c| c.process.as_ref())
            .map(|p| p.pid)
            == Some(std::process::id())
    })
    .await;
}
