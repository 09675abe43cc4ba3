//! Where Redline's log lines go: standard error (coloured only for a person at a terminal), or,
//! for the app started in the background, its log file. `RUST_LOG` overrides the level. Tokens
//! never reach a log line.

use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::EnvFilter;

/// Logs to standard error.
pub fn to_stderr() {
    use std::io::IsTerminal;
    // Colour escapes only for a person at a terminal who did not opt out (no-color.org): never
    // in a file or a journal.
    let ansi = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    init(std::io::stderr, ansi);
}

/// Logs to the log file, which also becomes standard error; to standard error as it is (the
/// starter pointed it at the same file) if the file cannot be taken over.
#[cfg(feature = "desktop")]
pub fn to_log_file() {
    #[cfg(unix)]
    {
        use redline_core::platform::background::{self, StderrLog};
        let path = background::path_from_env();
        match StderrLog::take_over(&path) {
            Ok(log) => {
                init(std::sync::Mutex::new(log), false);
                background::set_in_use(path);
            }
            Err(e) => {
                to_stderr();
                tracing::warn!("cannot log to {}: {e}", path.display());
            }
        }
    }
    #[cfg(not(unix))]
    to_stderr();
}

fn init<W>(writer: W, ansi: bool)
where
    W: for<'a> MakeWriter<'a> + Send + Sync + 'static,
{
    tracing_subscriber::fmt()
        .with_writer(writer)
        .with_ansi(ansi)
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| "info,rmcp=warn".into()),
        )
        .init();
}
