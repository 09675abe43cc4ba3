//! Redline raises its open-file soft limit to the hard limit at start. In a test binary of its
//! own: lowering the limit would starve tests running beside it.

mod common;
#[cfg(unix)]
use common::start;

#[cfg(unix)]
#[tokio::test]
async fn the_fd_soft_limit_is_raised_to_the_hard_limit() {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    assert_eq!(unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) }, 0);
    if lim.rlim_max <= 256 {
        return;
    }
    let lowered = libc::rlimit {
        rlim_cur: 256,
        rlim_max: lim.rlim_max,
    };
    assert_eq!(unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &lowered) }, 0);
    let _f = start().await;
    let mut now = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    assert_eq!(unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut now) }, 0);
    let want = if cfg!(target_os = "macos") {
        lim.rlim_max.min(10_240)
    } else {
        lim.rlim_max
    };
    assert_eq!(now.rlim_cur, want);
}
