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

fn text_diff<'a>(old: &'a str, new: &'a str) -> TextDiff<'a, 'a, 'a, str> {
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
    fn a_new_file_is_all_additions() {
        assert_eq!(stats("", "x\ny\n").added, 2);
    }
}
