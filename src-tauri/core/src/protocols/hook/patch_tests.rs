//! Codex's patch format read, applied and written back.

use super::*;
use crate::protocols::hook::patched::{apply, outcomes};

fn update(patch: &str) -> Vec<Chunk> {
    match parse(patch).unwrap().remove(0) {
        Change::Update { chunks, .. } => chunks,
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_update_with_context_applies_where_its_lines_are() {
    let patch = "*** Begin Patch\n*** Update File: src/a.rs\n@@ fn two() {\n     let x = 1;\n-    x\n+    x + 1\n }\n*** End Patch\n";
    let original = "fn one() {\n    let x = 1;\n    x\n}\nfn two() {\n    let x = 1;\n    x\n}\n";
    let text = apply("src/a.rs", original, &update(patch)).unwrap();
    assert_eq!(
        text,
        "fn one() {\n    let x = 1;\n    x\n}\nfn two() {\n    let x = 1;\n    x + 1\n}\n"
    );
}

#[test]
fn add_delete_and_move_are_read() {
    let patch = "*** Begin Patch\n*** Add File: new.txt\n+one\n+two\n*** Delete File: old.txt\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n-x\n+y\n*** End Patch";
    let changes = parse(patch).unwrap();
    assert_eq!(
        changes[0],
        Change::Add {
            path: "new.txt".into(),
            text: "one\ntwo\n".into()
        }
    );
    assert_eq!(
        changes[1],
        Change::Delete {
            path: "old.txt".into()
        }
    );
    let Change::Update { path, move_to, .. } = &changes[2] else {
        panic!("{changes:?}")
    };
    assert_eq!(
        (path.as_str(), move_to.as_deref()),
        ("a.txt", Some("b.txt"))
    );
}

#[test]
fn a_hunk_that_is_not_in_the_file_is_an_error_naming_its_lines_never_a_guess() {
    let patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-not there\n+x\n*** End Patch";
    let err = apply("a.txt", "one\ntwo\n", &update(patch)).unwrap_err();
    assert_eq!(
        err,
        PatchError::NotFound {
            path: "a.txt".into(),
            lines: "not there".into()
        }
    );
    assert!(err.to_string().contains("does not apply to a.txt"), "{err}");
}

#[test]
fn trailing_whitespace_is_forgiven_and_the_end_of_file_marker_anchors() {
    let patch =
        "*** Begin Patch\n*** Update File: a.txt\n@@\n-x\n+y\n*** End of File\n*** End Patch";
    // `x  ` twice: the marker picks the last one.
    let text = apply("a.txt", "x  \nmid\nx  \n", &update(patch)).unwrap();
    assert_eq!(text, "x  \nmid\ny\n");
}

#[test]
fn malformed_patches_say_which_line() {
    for (patch, line) in [
        ("*** Update File: a\n*** End Patch", 1),
        ("*** Begin Patch\n*** Update File: a\n@@\n-x", 4),
        ("*** Begin Patch\n*** Frobnicate: a\n*** End Patch", 2),
        (
            "*** Begin Patch\n*** Add File: a\nno plus\n*** End Patch",
            3,
        ),
        (
            "*** Begin Patch\n*** Update File: a\n@@\n*x\n*** End Patch",
            4,
        ),
    ] {
        match parse(patch) {
            Err(PatchError::Syntax { line: l, .. }) => assert_eq!(l, line, "{patch}"),
            other => panic!("{patch}: {other:?}"),
        }
    }
}

#[test]
fn outcomes_read_each_file_and_say_what_it_ends_as() {
    let patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n*** Add File: b.txt\n+new\n*** Delete File: c.txt\n*** End Patch";
    let disk = |p: &str| -> Result<Option<String>, String> {
        Ok(match p {
            "a.txt" => Some("one\ntwo\n".into()),
            "c.txt" => Some("gone\n".into()),
            _ => None,
        })
    };
    let out = outcomes(&parse(patch).unwrap(), disk).unwrap();
    assert_eq!(out[0].after.as_deref(), Some("ONE\ntwo\n"));
    assert_eq!(out[1].before, None);
    assert_eq!(out[1].after.as_deref(), Some("new\n"));
    assert_eq!(out[2].to, None);
    assert_eq!(out[2].before.as_deref(), Some("gone\n"));

    let missing = "*** Begin Patch\n*** Delete File: nope.txt\n*** End Patch";
    let err = outcomes(&parse(missing).unwrap(), disk).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the patch changes nope.txt, which does not exist"
    );
}

#[test]
fn written_lines_end_as_the_first_line_kept_ones_keep_theirs_and_every_file_ends_with_one() {
    let one = |original: &str, patch: &str| {
        let patch = format!("*** Begin Patch\n*** Update File: a\n{patch}\n*** End Patch");
        apply("a", original, &update(&patch)).unwrap()
    };
    assert_eq!(one("one\r\ntwo\r\n", "@@\n-one\n+ONE"), "ONE\r\ntwo\r\n");
    assert_eq!(
        one("one\ntwo\r\nthree\r\n", "@@\n-one\n+ONE"),
        "ONE\ntwo\r\nthree\r\n"
    );
    assert_eq!(
        one("one\r\ntwo\nthree\n", "@@\n-one\n+ONE"),
        "ONE\r\ntwo\nthree\n"
    );
    assert_eq!(one("a\r\nb\nc\n", "@@\n-c\n+C"), "a\r\nb\nC\r\n");
    // A hunk of only new lines goes after the last line, even an empty one.
    assert_eq!(one("a\n\n", "@@\n+B"), "a\n\nB\n");
    assert_eq!(one("one\ntwo", "@@\n-one\n+ONE"), "ONE\ntwo\n");
    assert_eq!(one("one\ntwo\n", "@@\n-one\n-two"), "");
    assert_eq!(
        one("\u{feff}one\ntwo\n", "@@\n-\u{feff}one\n+\u{feff}ONE"),
        "\u{feff}ONE\ntwo\n"
    );
    let bom_left_out = "*** Begin Patch\n*** Update File: a\n@@\n-one\n-two\n+x\n*** End Patch";
    assert!(apply("a", "\u{feff}one\ntwo\n", &update(bom_left_out)).is_err());
    let add = parse("*** Begin Patch\n*** Add File: b\n+x\n+y\n*** End Patch").unwrap();
    assert_eq!(
        add[0],
        Change::Add {
            path: "b".into(),
            text: "x\ny\n".into()
        }
    );
}
