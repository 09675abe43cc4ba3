//! The signals that stop Redline from outside (Ctrl+C, SIGTERM), listened for from the moment
//! they are installed, so a signal right after `ready` still ends in a clean shutdown.

#[cfg(unix)]
use tokio::signal::unix::{signal, Signal, SignalKind};

pub struct StopSignals {
    #[cfg(unix)]
    term: Signal,
    #[cfg(unix)]
    int: Signal,
}

impl StopSignals {
    /// Must run inside the Tokio runtime that will wait on them.
    pub fn install() -> std::io::Result<Self> {
        Ok(StopSignals {
            #[cfg(unix)]
            term: signal(SignalKind::terminate())?,
            #[cfg(unix)]
            int: signal(SignalKind::interrupt())?,
        })
    }

    /// Resolves at the first stop signal.
    pub async fn recv(&mut self) {
        #[cfg(unix)]
        tokio::select! {
            _ = self.term.recv() => {}
            _ = self.int.recv() => {}
        }
        #[cfg(not(unix))]
        let _ = tokio::signal::ctrl_c().await;
    }
}
