//! How `redline status` shows the editors connected over `redline editor --stdio`.

use redline_core::api::status::EditorChannel;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// `status`'s lines for the editor channels, one each (or one saying there is none).
pub(crate) fn lines(editors: &[EditorChannel]) -> Vec<String> {
    if editors.is_empty() {
        return vec![
            "no editor connected (`redline help editor` says how a plugin connects one)".into(),
        ];
    }
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_millis() as u64;
    let mut out = Vec::new();
    for e in editors {
        let who = e.editor.as_ref().map_or_else(
            || "an editor".to_owned(),
            |p| format!("{} (pid {})", p.label(), p.pid),
        );
        let age = Duration::from_millis(now.saturating_sub(e.since));
        let files = if e.workspaces.is_empty() {
            "no open file in a workspace".to_owned()
        } else {
            let list: Vec<String> = e
                .workspaces
                .iter()
                .map(|w| w.display().to_string())
                .collect();
            format!("files in {}", list.join(", "))
        };
        out.push(format!(
            "editor  {who}, connected {} ago, {files}",
            ago(age)
        ));
    }
    out
}

/// `42s`, `5m`, `3h 20m`: how long a channel has been open, to the unit that matters.
fn ago(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m", s / 60),
        _ => format!("{}h {}m", s / 3600, s % 3600 / 60),
    }
}
