//! Redline's own answer to a Codex hook: a patch that can only make Codex write the text the
//! review showed, for each file.

use super::patch::{Change, Chunk};
use super::patched;

/// The change that turns `before` into `after` for `path` (moved to `to`), as Redline answers
/// Codex: one hunk whose old lines are every line of `before` and that ends the file, so Codex
/// finds it only where the whole file is (and fails, writing nothing, once a line was added or
/// removed since). Lines `after` keeps from `before` (same text, same ending) are context, which
/// Codex writes as the file has them; the others are removed and added (Codex ends an added
/// line as the file's first line ends).
pub fn replacement(path: &str, to: Option<&str>, before: &str, after: &str) -> Change {
    use similar::{capture_diff_slices, Algorithm, DiffOp};
    let (old, new) = (patched::line_ends(before), patched::line_ends(after));
    let mut chunk = Chunk {
        context: None,
        old: Vec::new(),
        new: Vec::new(),
        kept: Vec::new(),
        at_eof: !old.is_empty(),
    };
    let removed = |c: &mut Chunk, i: usize| c.old.push(old[i].0.clone());
    for op in capture_diff_slices(Algorithm::Myers, &old, &new) {
        match op {
            DiffOp::Equal { old_index, len, .. } => {
                for (text, _) in &old[old_index..old_index + len] {
                    chunk.kept.push(Some(chunk.old.len()));
                    chunk.new.push(text.clone());
                    chunk.old.push(text.clone());
                }
            }
            DiffOp::Delete {
                old_index, old_len, ..
            } => (old_index..old_index + old_len).for_each(|i| removed(&mut chunk, i)),
            DiffOp::Insert {
                new_index, new_len, ..
            } => (new_index..new_index + new_len).for_each(|i| {
                chunk.kept.push(None);
                chunk.new.push(new[i].0.clone());
            }),
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => {
                (old_index..old_index + old_len).for_each(|i| removed(&mut chunk, i));
                (new_index..new_index + new_len).for_each(|i| {
                    chunk.kept.push(None);
                    chunk.new.push(new[i].0.clone());
                });
            }
        }
    }
    Change::Update {
        path: path.to_owned(),
        move_to: to.map(str::to_owned),
        chunks: vec![chunk],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocols::hook::patch::{parse, render};
    use crate::protocols::hook::patched::apply;

    fn update(patch: &str) -> Vec<Chunk> {
        match parse(patch).unwrap().remove(0) {
            Change::Update { chunks, .. } => chunks,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_replacing_patch_yields_the_text_it_was_made_for() {
        let before = "fn a() {}\n\nfn b() {}\n";
        let after = "fn a() {\n    edited();\n}\n\nfn b() {}\n";
        let patch = render([replacement("src/x.rs", None, before, after)]);
        assert_eq!(apply("src/x.rs", before, &update(&patch)).unwrap(), after);
    }

    /// What the real codex 0.171 writes, byte for byte (`codex --codex-run-as-apply-patch`; the
    /// differential test `tests/it/codex_apply.rs` checks thousands more): lines it writes end as
    /// the first line does, lines it keeps keep their endings, the last line always gets one.

    #[test]
    fn redlines_answer_keeps_unchanged_lines_as_context_so_mixed_endings_survive() {
        let before = "one\r\ntwo\nthree\r\nfour";
        let after = "one\r\nTWO\r\nthree\r\nfour\r\n";
        let patch = render([replacement("a", None, before, after)]);
        assert_eq!(
            patch,
            "*** Begin Patch\n*** Update File: a\n@@\n one\n+TWO\n-two\n three\n+four\n-four\n*** End of File\n*** End Patch\n"
        );
        assert_eq!(apply("a", before, &update(&patch)).unwrap(), after);
    }
}
