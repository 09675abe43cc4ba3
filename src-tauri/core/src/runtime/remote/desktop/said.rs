//! What a remote says, made fit to show here: a hostile remote's text reaches the user's
//! terminal (`redline review list`, `remote list`) and the tray, so no control character (an
//! escape sequence could move the cursor or retitle the terminal) and no unbounded length.

/// The longest label shown of a remote's text (a path, who asked, why), in characters.
pub(super) const MAX_LABEL: usize = 4096;

/// `text` without its control characters (a newline too: a label is one line), cut to
/// `MAX_LABEL` characters with `…` when longer.
pub(super) fn label(text: &str) -> String {
    let mut kept: String = (text.chars())
        .filter(|c| !c.is_control())
        .take(MAX_LABEL + 1)
        .collect();
    if kept.chars().count() > MAX_LABEL {
        kept = kept.chars().take(MAX_LABEL - 1).collect();
        kept.push('…');
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_newlines_are_removed_and_length_is_bounded() {
        assert_eq!(label("/ws/a\u{1b}]0;owned\u{7}.rs\n"), "/ws/a]0;owned.rs");
        assert_eq!(label("\u{9b}31mred"), "31mred");
        let long = label(&"é".repeat(MAX_LABEL * 2));
        assert_eq!(long.chars().count(), MAX_LABEL);
        assert!(long.ends_with('…'));
        assert_eq!(label(&"x".repeat(MAX_LABEL)), "x".repeat(MAX_LABEL));
    }
}
