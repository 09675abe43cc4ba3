//! Hunks: split as contiguous runs, and undone byte for byte over generated texts.

use super::*;

/// xorshift64*: the same texts every run, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const ENDINGS: [&[u8]; 3] = [b"\n", b"\r\n", b"\r\n"];

/// A text of lines drawn from `alphabet` words (few: many equal lines), mixed endings, maybe a
/// BOM, maybe no final newline, maybe a byte that is not UTF-8.
fn text(rng: &mut Rng, alphabet: u64) -> Vec<Vec<u8>> {
    let n = rng.below(30);
    let mut out: Vec<Vec<u8>> = (0..n).map(|_| line(rng, alphabet)).collect();
    if let Some(first) = out.first_mut().filter(|_| rng.below(4) == 0) {
        first.splice(0..0, b"\xEF\xBB\xBF".iter().copied());
    }
    if let Some(last) = out.last_mut().filter(|_| rng.below(3) == 0) {
        last.retain(|b| *b != b'\n' && *b != b'\r');
    }
    out
}

fn line(rng: &mut Rng, alphabet: u64) -> Vec<u8> {
    let mut l = format!("word {}", rng.below(alphabet)).into_bytes();
    if rng.below(10) == 0 {
        l.push(0xFF);
    }
    l.extend_from_slice(ENDINGS[rng.below(3) as usize]);
    l
}

/// `before` edited: lines removed, inserted, replaced, their endings changed.
fn edited(rng: &mut Rng, before: &[Vec<u8>], alphabet: u64) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for l in before {
        match rng.below(8) {
            0 => {}
            1 => out.push(line(rng, alphabet)),
            2 => {
                out.push(l.clone());
                out.push(line(rng, alphabet));
            }
            3 if l.ends_with(b"\r\n") => out.push([&l[..l.len() - 2], b"\n"].concat()),
            _ => out.push(l.clone()),
        }
    }
    if rng.below(3) == 0 {
        out.push(line(rng, alphabet));
    }
    out
}

#[test]
fn undoing_every_hunk_gives_before_and_none_gives_after() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for case in 0..2000 {
        let alphabet = if case % 2 == 0 { 4 } else { 1000 };
        let b = text(&mut rng, alphabet);
        let a = edited(&mut rng, &b, alphabet);
        let (before, after) = (b.concat(), a.concat());
        let hs = hunks(&before, &after);
        assert_eq!(undo(&before, &after, &hs), before, "case {case}");
        assert_eq!(undo(&before, &after, &[]), after, "case {case}");
        // In any order.
        let reversed: Vec<Hunk> = hs.iter().rev().copied().collect();
        assert_eq!(undo(&before, &after, &reversed), before, "case {case}");
        assert_eq!(hs.is_empty(), before == after, "case {case}");
        // Runs: an unchanged line between any two, on both sides.
        for w in hs.windows(2) {
            let apart = |a: HunkLines, b: HunkLines| a.first + a.count < b.first;
            assert!(apart(w[0].before, w[1].before), "case {case}: {w:?}");
            assert!(apart(w[0].after, w[1].after), "case {case}: {w:?}");
        }
    }
}

/// With lines that occur once (no run of equal lines a diff could slide along), undoing some
/// hunks changes exactly those hunks' lines: against `after`, nothing outside them differs;
/// against `before`, nothing outside the hunks left differs.
#[test]
fn undoing_some_hunks_touches_only_their_lines() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    for case in 0..1000 {
        let b = unique(text(&mut rng, 1 << 40), "b");
        let a = edited(&mut rng, &b, 1 << 40);
        let (before, after) = (b.concat(), a.concat());
        let hs = hunks(&before, &after);
        let (undone, left): (Vec<Hunk>, Vec<Hunk>) = hs.iter().partition(|_| rng.below(2) == 0);
        let got = undo(&before, &after, &undone);
        for h in hunks(&after, &got) {
            assert!(
                undone.iter().any(|u| within(h.before, u.after)),
                "case {case}: {h:?} outside {undone:?}"
            );
        }
        for h in hunks(&before, &got) {
            assert!(
                left.iter().any(|l| within(h.before, l.before)),
                "case {case}: {h:?} outside {left:?}"
            );
        }
    }
}

/// Each line made distinct (the endings and any BOM kept); the edit's new lines are distinct
/// already, drawn from 2^40 words.
fn unique(lines: Vec<Vec<u8>>, side: &str) -> Vec<Vec<u8>> {
    lines
        .into_iter()
        .enumerate()
        .map(|(i, l)| {
            if !l.starts_with(b"word") && !l.starts_with(b"\xEF") {
                return l;
            }
            let mut out = l.clone();
            let at = out.iter().position(|b| *b == b' ').unwrap_or(0);
            out.splice(at..at, format!("-{side}{i}").into_bytes());
            out
        })
        .collect()
}

/// `inner`'s lines (or gap) lie within `outer`'s lines (or at its gap).
fn within(inner: HunkLines, outer: HunkLines) -> bool {
    inner.first >= outer.first && inner.first + inner.count <= outer.first + outer.count
}

#[test]
fn two_changes_three_lines_apart_are_two_hunks() {
    let before = b"a\nb\nc\nd\ne\nf\ng\n";
    let after = b"a\nB\nc\nd\ne\nF\ng\n";
    let hs = hunks(before, after);
    let one = HunkLines { first: 2, count: 1 };
    let two = HunkLines { first: 6, count: 1 };
    assert_eq!(
        hs,
        vec![
            Hunk {
                before: one,
                after: one
            },
            Hunk {
                before: two,
                after: two
            }
        ]
    );
    assert_eq!(undo(before, after, &hs[1..]), b"a\nB\nc\nd\ne\nf\ng\n");
    assert!(hs[1].covers(6) && !hs[1].covers(5) && !hs[1].covers(7));
}

#[test]
fn line_endings_a_bom_and_a_missing_final_newline_are_changes_of_their_lines() {
    let before = b"\xEF\xBB\xBFone\r\ntwo\r\nthree";
    let after = b"one\r\ntwo\r\nthree\n";
    let hs = hunks(before, after);
    assert_eq!(hs.len(), 2, "{hs:?}");
    assert_eq!(
        undo(before, after, &hs[..1]),
        b"\xEF\xBB\xBFone\r\ntwo\r\nthree\n"
    );
    assert_eq!(undo(before, after, &hs[1..]), b"one\r\ntwo\r\nthree");
    // An ending alone is a change of its line.
    assert_eq!(hunks(b"a\r\nb\n", b"a\nb\n").len(), 1);
}

#[test]
fn a_removal_is_covered_by_the_lines_either_side() {
    let hs = hunks(b"a\nb\nc\n", b"a\nc\n");
    let gap = HunkLines { first: 2, count: 0 };
    assert_eq!(hs[0].after, gap);
    assert_eq!(hs[0].before, HunkLines { first: 2, count: 1 });
    assert!(hs[0].covers(1) && hs[0].covers(2) && !hs[0].covers(3));
    assert_eq!(undo(b"a\nb\nc\n", b"a\nc\n", &hs), b"a\nb\nc\n");
}
