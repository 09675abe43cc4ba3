//! Why the user rejected a review, made fit for where it goes: into a model's prompt (a hook's
//! deny) and onto a terminal (`redline propose --wait` prints it).

use crate::error::Result;
use crate::review::ReviewError;

/// The longest reason passed on, in characters (not bytes, so a reason in any script gets the
/// same room): a few paragraphs, well under what a CLI's hook output or a prompt takes.
pub const MAX_REASON_CHARS: usize = 2000;

/// The reason as it is passed on: line endings made `\n`, other control characters removed, and
/// trimmed; `None` when nothing is left (a plain rejection). Past `MAX_REASON_CHARS` it is
/// refused rather than cut, so the user never has a reason sent that says less than they wrote.
///
/// Control characters are removed, not refused: a pasted reason may carry a stray one that
/// means nothing to a model, and the user could not see it to take it out. Removed, an escape
/// sequence can no longer move the cursor or recolour the terminal that prints the reason.
pub fn clean(raw: &str) -> Result<Option<String>, ReviewError> {
    let unified = raw.replace("\r\n", "\n").replace('\r', "\n");
    let kept: String = unified
        .chars()
        .filter(|&c| c == '\n' || c == '\t' || !c.is_control())
        .collect();
    let trimmed = kept.trim();
    let chars = trimmed.chars().count();
    if chars > MAX_REASON_CHARS {
        return Err(ReviewError::ReasonTooLong {
            chars,
            limit: MAX_REASON_CHARS,
        });
    }
    Ok((!trimmed.is_empty()).then(|| trimmed.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reason_is_trimmed_and_an_empty_one_is_none() {
        assert_eq!(clean("  use tabs \n").unwrap().as_deref(), Some("use tabs"));
        assert_eq!(clean("").unwrap(), None);
        assert_eq!(clean(" \n\t \r\n").unwrap(), None);
    }

    #[test]
    fn line_endings_become_newlines_and_tabs_and_inner_newlines_stay() {
        assert_eq!(
            clean("one\r\ntwo\rthree\n\tfour").unwrap().as_deref(),
            Some("one\ntwo\nthree\n\tfour")
        );
    }

    #[test]
    fn control_characters_are_removed_so_no_escape_sequence_reaches_a_terminal() {
        let raw = "\u{1b}[2J\u{1b}]0;title\u{7}keep\u{0}\u{8}\u{7f}\u{9b}31m it";
        assert_eq!(
            clean(raw).unwrap().as_deref(),
            Some("[2J]0;titlekeep31m it")
        );
        assert_eq!(clean("\u{1b}\u{0}").unwrap(), None);
    }

    #[test]
    fn a_reason_at_the_bound_passes_and_one_past_it_is_refused_with_its_length() {
        let at = "é".repeat(MAX_REASON_CHARS);
        assert_eq!(clean(&at).unwrap().as_deref(), Some(at.as_str()));
        // Surrounding blanks and removed characters do not count.
        assert!(clean(&format!("  {at}\u{1b}\n")).unwrap().is_some());
        let past = "é".repeat(MAX_REASON_CHARS + 1);
        match clean(&past) {
            Err(e @ ReviewError::ReasonTooLong { chars, limit }) => {
                assert_eq!((chars, limit), (MAX_REASON_CHARS + 1, MAX_REASON_CHARS));
                assert_eq!(e.code(), crate::error::FaultCode::ReasonTooLong);
                assert!(e.to_string().contains("2001"), "{e}");
            }
            other => panic!("expected ReasonTooLong, got {other:?}"),
        }
    }
}
