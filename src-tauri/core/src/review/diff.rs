//! Line statistics and unified text of a review's change, with a time limit.

use serde::Serialize;
use similar::{DiffTag, TextDiff};
use std::time::Duration;

/// Beyond this a diff falls back to a coarser (still correct) result instead of stalling.
const DEADLINE: Duration = Duration::from_millis(250);

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Stats {
    pub added: usize,
    pub removed: usize,
}

const BOM: char = '\u{FEFF}';

/// A BOM both sides share is no change of their first lines: it is left out of the comparison.
/// One side's alone is a change, and stays in.
fn text_diff<'a>(old: &'a str, new: &'a str) -> TextDiff<'a, 'a, 'a, str> {
    let (old, new) = match (old.strip_prefix(BOM), new.strip_prefix(BOM)) {
        (Some(o), Some(n)) => (o, n),
        _ => (old, new),
    };
    TextDiff::configure()
        .algorithm(similar::Algorithm::Myers)
        .timeout(DEADLINE)
        .diff_lines(old, new)
}

pub fn stats(old: &str, new: &str) -> Stats {
    let mut s = Stats::default();
    for op in text_diff(old, new).ops() {
        let (tag, old_range, new_range) = op.as_tag_tuple();
        match tag {
            DiffTag::Equal => {}
            DiffTag::Delete => s.removed += old_range.len(),
            DiffTag::Insert => s.added += new_range.len(),
            DiffTag::Replace => {
                s.removed += old_range.len();
                s.added += new_range.len();
            }
        }
    }
    s
}

/// A unified diff, `a/` and `b/` labelled with `label`.
pub fn unified(old: &str, new: &str, label: &str) -> String {
    text_diff(old, new)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{label}"), &format!("b/{label}"))
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_lines_and_writes_a_unified_diff() {
        let old = "a\nb\nc\n";
        let new = "a\nB\nc\nd\n";
        assert_eq!(
            stats(old, new),
            Stats {
                added: 2,
                removed: 1
            }
        );
        let u = unified(old, new, "x.txt");
        assert!(u.starts_with("--- a/x.txt\n+++ b/x.txt\n@@ -1,3 +1,4 @@"));
        assert!(u.contains("-b\n+B\n"));
        assert_eq!(stats(old, old), Stats::default());
    }

    #[test]
    fn a_shared_bom_is_not_a_change_of_the_first_line() {
        let old = "\u{FEFF}a\r\nb";
        let new = "\u{FEFF}x\r\na\r\nb";
        assert_eq!(
            stats(old, new),
            Stats {
                added: 1,
                removed: 0
            }
        );
        assert!(unified(old, new, "f").contains("@@ -1,2 +1,3 @@\n+x\r\n a\r\n b"));
        // Adding or dropping the BOM changes the first line's bytes.
        assert_eq!(
            stats("a\n", "\u{FEFF}a\n"),
            Stats {
                added: 1,
                removed: 1
            }
        );
    }

    #[test]
    fn a_new_file_is_all_additions() {
        assert_eq!(stats("", "x\ny\n").added, 2);
    }
}
