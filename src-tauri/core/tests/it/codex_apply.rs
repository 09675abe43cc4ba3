//! Differential test of Redline's Codex hook against the real codex's own apply step: seeded
//! patches read, reviewed and accepted by Redline; Redline's answer applied by the pinned codex
//! (`codex --codex-run-as-apply-patch`) must leave every file as the review showed it.
//!
//! The binary is the native one inside `tests/interop/node_modules` (`npm ci` there, which
//! `.ci/setup` runs). Without it the test fails under `CI` and is skipped otherwise.
//! `REDLINE_CODEX_SEED` and `REDLINE_CODEX_CASES` choose the run (default seed 37, 10,000 cases).

use redline_core::protocols::hook::{self, plan, Accepted, HookCli, HookRuling};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

const VERSION: &str = "codex-cli 0.171.0";

/// The native codex of the pinned npm package, if installed.
fn codex_binary() -> Option<PathBuf> {
    let root =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/interop/node_modules/@openai");
    let entries = std::fs::read_dir(&root).ok()?;
    for pkg in entries.flatten() {
        let vendor = pkg.path().join("vendor");
        let Ok(triples) = std::fs::read_dir(&vendor) else {
            continue;
        };
        for t in triples.flatten() {
            let bin = t.path().join("bin").join("codex");
            if bin.is_file() {
                return Some(bin);
            }
        }
    }
    None
}

/// splitmix64: small, seeded, the same everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    fn pick<'a, T>(&mut self, from: &'a [T]) -> &'a T {
        &from[self.below(from.len())]
    }
}

const WORDS: &[&str] = &[
    "alpha",
    "beta",
    "ALLOW_PROD=0",
    "run_checks",
    "  indented",
    "\ttabbed",
    "trailing  ",
    "it\u{2019}s",
    "a\u{2014}b",
    "\u{201C}quoted\u{201D}",
    "nbsp\u{a0}here",
    "*** not a header",
    "@@ not a hunk",
    "-minus",
    "+plus",
    "",
    "   ",
    "ünïcødé ✓",
    "x = 1",
    "}",
];

const NAMES: &[&str] = &["a.txt", "b.txt", "c.txt", "d/e.txt", "f.rs"];

/// A file's text: lines from `WORDS`, CRLF / LF / mixed endings, maybe a BOM, maybe no final
/// newline, maybe empty.
fn file_text(r: &mut Rng) -> String {
    if r.chance(5) {
        return String::new();
    }
    let n = 1 + r.below(7);
    let style = r.below(4); // 0 LF, 1 CRLF, 2 mixed, 3 LF
    let mut s = String::new();
    if r.chance(5) {
        s.push('\u{feff}');
    }
    for i in 0..n {
        let word = *r.pick(WORDS);
        s.push_str(word);
        let crlf = match style {
            1 => true,
            2 => r.chance(50),
            _ => false,
        };
        if i + 1 < n || !r.chance(15) {
            s.push_str(if crlf { "\r\n" } else { "\n" });
        }
    }
    s
}

fn lines_of(text: &str) -> Vec<String> {
    text.split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l).to_owned())
        .collect()
}

/// A line as a model might misquote it: trailing or leading whitespace changed, typographic
/// punctuation plain.
fn loosely(r: &mut Rng, line: &str) -> String {
    match r.below(6) {
        0 => format!("{line}  "),
        1 => line.trim_end().to_owned(),
        2 => format!(" {}", line.trim()),
        3 => line
            .replace('\u{2019}', "'")
            .replace('\u{2014}', "-")
            .replace('\u{a0}', " "),
        _ => line.to_owned(),
    }
}

fn header(r: &mut Rng, kind: &str, path: &str) -> String {
    let pad = *r.pick(&["", "", "", " ", "\t", "  \t"]);
    let lead = if r.chance(5) { " " } else { "" };
    format!("{lead}*** {kind}: {path}{pad}")
}

/// One hunk against `text`'s lines.
fn hunk(r: &mut Rng, text: &str, first: bool) -> Vec<String> {
    let mut lines = lines_of(text);
    if lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    let mut out = Vec::new();
    if lines.is_empty() || r.chance(8) {
        out.push("@@".into());
        out.push(format!("+{}", r.pick(WORDS)));
        return out;
    }
    let start = r.below(lines.len());
    let len = 1 + r.below((lines.len() - start).min(3));
    let eof = r.chance(20);
    match r.below(4) {
        0 if start > 0 => out.push(format!("@@ {}", loosely(r, &lines[start - 1]))),
        1 if first => {}
        _ => out.push("@@".into()),
    }
    for (i, l) in lines[start..start + len].iter().enumerate() {
        let l = loosely(r, l);
        if i == 0 || r.chance(50) {
            out.push(format!("-{l}"));
        } else if l.is_empty() && r.chance(50) {
            out.push(String::new());
        } else {
            out.push(format!(" {l}"));
        }
    }
    for _ in 0..r.below(3) {
        out.push(format!("+{}", r.pick(WORDS)));
    }
    if eof {
        out.push("*** End of File".into());
    }
    out
}

/// A workspace and a patch for it.
fn case(r: &mut Rng) -> (BTreeMap<String, String>, String) {
    let mut files = BTreeMap::new();
    for name in NAMES {
        if r.chance(60) {
            files.insert((*name).to_owned(), file_text(r));
        }
    }
    let mut body: Vec<String> = Vec::new();
    let mut moved: Vec<String> = Vec::new();
    for _ in 0..1 + r.below(2) {
        let name = (*r.pick(NAMES)).to_owned();
        match r.below(10) {
            0 | 1 => {
                body.push(header(r, "Add File", &name));
                for _ in 0..r.below(3) {
                    body.push(format!("+{}", r.pick(WORDS)));
                }
            }
            2 => body.push(header(r, "Delete File", &name)),
            _ => {
                body.push(header(r, "Update File", &name));
                if r.chance(20) {
                    let to = match r.below(4) {
                        0 => format!("./{name}"),
                        1 => moved.first().cloned().unwrap_or_else(|| "moved.txt".into()),
                        2 => (*r.pick(NAMES)).to_owned(),
                        _ => "moved.txt".into(),
                    };
                    moved.push(to.clone());
                    let pad = *r.pick(&["", "", " ", "\t"]);
                    let lead = *r.pick(&["", "", "", " "]);
                    let inner = *r.pick(&["", "", "", " "]);
                    body.push(format!("{lead}*** Move to: {inner}{to}{pad}"));
                }
                let text = files.get(&name).cloned().unwrap_or_default();
                for i in 0..1 + r.below(2) {
                    body.extend(hunk(r, &text, i == 0));
                    if r.chance(5) {
                        body.push(String::new());
                    }
                }
            }
        }
    }
    let patch = format!(
        "*** Begin Patch\n{}\n*** End Patch{}",
        body.join("\n"),
        if r.chance(50) { "\n" } else { "" }
    );
    (files, patch)
}

fn write_tree(dir: &Path, files: &BTreeMap<String, String>) {
    for (name, text) in files {
        let p = dir.join(name);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(p, text).unwrap();
    }
}

/// Every file under `dir`, by path from it, as bytes.
fn read_tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// `patch` applied by codex in a copy of `files`: whether it succeeded, and the files after.
fn run_codex(
    bin: &Path,
    files: &BTreeMap<String, String>,
    patch: &str,
) -> (bool, BTreeMap<String, Vec<u8>>) {
    let dir = tempfile::tempdir().unwrap();
    write_tree(dir.path(), files);
    let out = Command::new(bin)
        .arg("--codex-run-as-apply-patch")
        .arg(patch)
        .current_dir(dir.path())
        .output()
        .unwrap();
    (out.status.success(), read_tree(dir.path()))
}

/// A path as codex names it in the tree (`./a` is `a`).
fn key(p: &str) -> String {
    p.trim_start_matches("./").to_owned()
}

#[derive(Default)]
struct Tally {
    cases: AtomicUsize,
    allowed: AtomicUsize,
    edited: AtomicUsize,
    denied_codex_applies: AtomicUsize,
    denied_codex_fails: AtomicUsize,
    reading_differs: AtomicUsize,
    /// Why Redline denied patches codex would have applied, with how often.
    denied_why: Mutex<BTreeMap<String, usize>>,
    divergences: Mutex<Vec<String>>,
}

fn one(bin: &Path, seed: u64, i: u64, tally: &Tally) {
    let mut r = Rng(seed ^ i.wrapping_mul(0xD1B5_4A32_D192_ED03));
    let (files, patch) = case(&mut r);
    tally.cases.fetch_add(1, Ordering::Relaxed);
    let input = serde_json::json!({
        "session_id": "s", "turn_id": "t", "cwd": "/w", "hook_event_name": "PreToolUse",
        "tool_name": "apply_patch", "tool_use_id": "u", "tool_input": { "command": patch },
    });
    let (model_ok, model_tree) = run_codex(bin, &files, &patch);
    let diverge = |why: String| {
        tally.divergences.lock().unwrap().push(format!(
            "case {i} (seed {seed}): {why}\nfiles: {files:?}\npatch: {patch:?}"
        ));
    };
    let mut edited_case = false;
    let ruling = match hook::read(HookCli::of("codex").unwrap(), &input) {
        Err(v) => v,
        Ok(edit) => {
            let read = |p: &str| Ok::<_, String>(files.get(&key(p)).cloned());
            match plan::plan(&edit.changes, read) {
                Err(reason) => HookRuling::Deny { reason },
                Ok(outcomes) => {
                    // Some accepts carry the user's edit: a line added, or the final newline
                    // taken away (which Codex cannot write).
                    let edit_one = r.chance(15);
                    let accepted: Vec<Accepted> = outcomes
                        .iter()
                        .enumerate()
                        .map(|(n, o)| {
                            let mut after = o.after.clone();
                            if edit_one && n == 0 {
                                if let Some(a) = after.as_mut() {
                                    match r.below(3) {
                                        0 => a.push_str("edited\n"),
                                        1 => {
                                            a.pop();
                                        }
                                        _ => a.insert_str(0, "first\r\n"),
                                    }
                                }
                            }
                            Accepted {
                                path: o.path.clone(),
                                to: o.to.clone(),
                                before: o.before.clone(),
                                edited: after != o.after,
                                after,
                            }
                        })
                        .collect();
                    // What Redline read the model's patch as, checked against codex's own
                    // application of it (not a safety matter: the answer decides what is
                    // written, but the review should show what the model meant).
                    if !edit_one {
                        let mut want: BTreeMap<String, Vec<u8>> = files
                            .iter()
                            .map(|(k, v)| (k.clone(), v.clone().into_bytes()))
                            .collect();
                        for o in &outcomes {
                            want.remove(&key(&o.path));
                        }
                        for o in &outcomes {
                            if let (Some(to), Some(after)) = (&o.to, &o.after) {
                                want.insert(key(to), after.clone().into_bytes());
                            }
                        }
                        if !model_ok || model_tree != want {
                            tally.reading_differs.fetch_add(1, Ordering::Relaxed);
                            diverge(format!(
                                "Redline read the patch as {want:?}; codex (ok: {model_ok}) wrote {model_tree:?}"
                            ));
                        }
                    }
                    if accepted.iter().any(|a| a.edited) {
                        edited_case = true;
                    }
                    let files_accepted = accepted.clone();
                    let v = hook::settle(HookCli::of("codex").unwrap(), accepted);
                    if let HookRuling::AllowEdited { .. } = &v {
                        check_answer(bin, &files, &input, &v, &files_accepted, &diverge);
                    }
                    v
                }
            }
        }
    };
    match ruling {
        HookRuling::AllowEdited { .. } => {
            tally.allowed.fetch_add(1, Ordering::Relaxed);
            if edited_case {
                tally.edited.fetch_add(1, Ordering::Relaxed);
            }
        }
        HookRuling::Deny { reason } if model_ok => {
            tally.denied_codex_applies.fetch_add(1, Ordering::Relaxed);
            let why: String = match reason
                .strip_prefix("Redline could not be sure what this edit writes: ")
            {
                // The path, then why.
                Some(rest) => format!("unsure: {}", rest.split_once(": ").map_or(rest, |(_, w)| w)),
                None => reason
                    .split(['/', ':', '(', '`'])
                    .take(2)
                    .collect::<Vec<_>>()
                    .join("…"),
            };
            let mut why = why.replace("d…e.txt", "d/e.txt");
            for name in NAMES.iter().chain(&["moved.txt"]) {
                why = why.replace(name, "F");
            }
            let why = if edited_case {
                format!("(accepted edited) {why}")
            } else {
                why
            };
            *tally.denied_why.lock().unwrap().entry(why).or_default() += 1;
        }
        HookRuling::Deny { .. } => {
            tally.denied_codex_fails.fetch_add(1, Ordering::Relaxed);
        }
        other => diverge(format!(
            "neither allowed with a patch nor denied: {other:?}"
        )),
    }
}

/// Redline's answer applied by codex leaves every file as accepted, and no other changed.
fn check_answer(
    bin: &Path,
    files: &BTreeMap<String, String>,
    input: &serde_json::Value,
    ruling: &HookRuling,
    accepted: &[Accepted],
    diverge: &impl Fn(String),
) {
    let out = hook::answer(HookCli::of("codex").unwrap(), input, ruling);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let specific = &v["hookSpecificOutput"];
    assert_eq!(specific["permissionDecision"], "allow");
    let Some(answer) = specific["updatedInput"]["command"].as_str() else {
        return diverge(format!("no updatedInput.command in {v}"));
    };
    let mut want: BTreeMap<String, Vec<u8>> = files
        .iter()
        .map(|(k, v)| (k.clone(), v.clone().into_bytes()))
        .collect();
    for a in accepted {
        want.remove(&key(&a.path));
    }
    for a in accepted {
        if let Some(after) = &a.after {
            let to = a.to.as_deref().unwrap_or(&a.path);
            want.insert(key(to), after.clone().into_bytes());
        }
    }
    let (ok, got) = run_codex(bin, files, answer);
    if !ok || got != want {
        diverge(format!(
            "Redline's answer {answer:?} (codex ok: {ok}) wrote {got:?}; the review showed {want:?}"
        ));
    }
}

#[test]
fn codex_writes_exactly_what_the_review_showed() {
    let Some(bin) = codex_binary() else {
        let why = "the pinned codex is not installed (npm ci in tests/interop)";
        if std::env::var_os("CI").is_some() {
            panic!("{why}");
        }
        eprintln!("skipped: {why}");
        return;
    };
    let version = Command::new(&bin).arg("--version").output().unwrap();
    assert_eq!(String::from_utf8_lossy(&version.stdout).trim(), VERSION);
    let seed: u64 = std::env::var("REDLINE_CODEX_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(37);
    let cases: u64 = std::env::var("REDLINE_CODEX_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000);
    let tally = Tally::default();
    let next = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get()) * 2;
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed) as u64;
                if i >= cases {
                    break;
                }
                one(&bin, seed, i, &tally);
            });
        }
    });
    let divergences = tally.divergences.lock().unwrap();
    eprintln!(
        "codex differential, seed {seed}: {} cases, {} allowed with Redline's patch ({} edited), \
         {} denied where codex fails too, {} denied where codex would apply, {} read otherwise \
         than codex, {} divergences",
        tally.cases.load(Ordering::Relaxed),
        tally.allowed.load(Ordering::Relaxed),
        tally.edited.load(Ordering::Relaxed),
        tally.denied_codex_fails.load(Ordering::Relaxed),
        tally.denied_codex_applies.load(Ordering::Relaxed),
        tally.reading_differs.load(Ordering::Relaxed),
        divergences.len(),
    );
    for (why, n) in tally.denied_why.lock().unwrap().iter() {
        eprintln!("  denied, codex would apply: {n} × {why}");
    }
    for d in divergences.iter().take(5) {
        eprintln!("{d}\n");
    }
    assert!(divergences.is_empty(), "{} divergences", divergences.len());
    assert!(
        tally.allowed.load(Ordering::Relaxed) > cases as usize / 10,
        "too few cases allowed to prove anything"
    );
}
