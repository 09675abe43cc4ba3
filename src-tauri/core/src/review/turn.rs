//! A CLI session's turn: each file its edits touched, as it was when the turn first touched it,
//! so the end of the turn can show the whole turn's changes in one review.

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::Mutex;

/// The most files one turn records; the rest are counted and named as not shown.
pub const MAX_TURN_FILES: usize = 100;
/// The most text one turn keeps of its files' starts (64 MiB); a file past it is not shown.
pub const MAX_TURN_BYTES: usize = 64 * 1024 * 1024;
/// The most tabs one turn's review opens (no more than a session may queue: `quota`); the rest
/// are counted in its banner.
pub const MAX_TURN_TABS: usize = 16;
/// The most sessions with a turn recorded at once; a new one drops the longest untouched.
pub const MAX_TURN_SESSIONS: usize = 16;
/// The most text all sessions' turns keep together (128 MiB): a file past it is not shown.
pub const MAX_TURNS_BYTES: usize = 128 * 1024 * 1024;
/// The most names of files not recorded kept for the message saying how many there were.
const MAX_UNRECORDED_NAMES: usize = 10_000;

/// Whose turn: a CLI's session, as its hook names it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TurnKey {
    pub cli: String,
    pub session: String,
}

/// What one turn touched so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Turn {
    /// The CLI's id of the turn, where its hook gives one (Codex); `None`: the turn runs until
    /// the session's next end of turn.
    pub turn: Option<String>,
    /// The folder the CLI runs in: the workspace the turn is reviewed in.
    pub cwd: PathBuf,
    /// Each file (absolute, as its edit named it) and its text at the turn's start (`None`: it
    /// did not exist), in the order the turn first touched them.
    pub files: Vec<(String, Option<String>)>,
    /// Files the turn touched past the bounds: not recorded, and not shown.
    pub unrecorded: BTreeSet<String>,
    bytes: usize,
    touched: u64,
}

/// One file the turn changed: its text at the turn's start and now (`None`: absent).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnChange {
    pub path: String,
    pub start: Option<String>,
    pub now: Option<String>,
}

impl Turn {
    /// The files whose text `now` gives differs from their start; a file `now` lacks (it could
    /// not be read) is left out.
    pub fn changes(&self, now: &HashMap<String, Option<String>>) -> Vec<TurnChange> {
        self.files
            .iter()
            .filter_map(|(path, start)| {
                let now = now.get(path)?;
                (now != start).then(|| TurnChange {
                    path: path.clone(),
                    start: start.clone(),
                    now: now.clone(),
                })
            })
            .collect()
    }
}

/// What `Turns::touch` did beyond recording.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Touched {
    /// A session dropped to make room: its turn will show nothing.
    pub evicted: Option<TurnKey>,
    /// Files of this edit past the bounds: not recorded.
    pub unrecorded: Vec<String>,
}

/// Every session's turn in progress, bounded in files, bytes and sessions.
#[derive(Debug, Default)]
pub struct Turns {
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    turns: HashMap<TurnKey, Turn>,
    tick: u64,
}

impl Turns {
    /// Records `files` (each with its text as the edit is about to change it) for `key`'s turn
    /// `turn`: a file the turn touched already keeps its first text. A record of another turn
    /// of the session (it ended with no end-of-turn hook: interrupted) starts over.
    pub fn touch(
        &self,
        key: TurnKey,
        turn: Option<&str>,
        cwd: PathBuf,
        files: impl IntoIterator<Item = (String, Option<String>)>,
    ) -> Touched {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        inner.tick += 1;
        let tick = inner.tick;
        let mut done = Touched::default();
        let stale = inner
            .turns
            .get(&key)
            .is_some_and(|t| turn.is_some() && t.turn.as_deref() != turn);
        if stale {
            inner.turns.remove(&key);
        }
        if !inner.turns.contains_key(&key) && inner.turns.len() >= MAX_TURN_SESSIONS {
            let oldest = inner
                .turns
                .iter()
                .min_by_key(|(_, t)| t.touched)
                .map(|(k, _)| k.clone());
            if let Some(k) = oldest {
                inner.turns.remove(&k);
                done.evicted = Some(k);
            }
        }
        let key_of = key.clone();
        let record = inner.turns.entry(key).or_insert_with(|| Turn {
            turn: turn.map(str::to_owned),
            cwd,
            files: Vec::new(),
            unrecorded: BTreeSet::new(),
            bytes: 0,
            touched: tick,
        });
        record.touched = tick;
        let others = inner
            .turns
            .iter()
            .filter(|(k, _)| **k != key_of)
            .map(|(_, t)| t.bytes)
            .sum::<usize>();
        let Some(record) = inner.turns.get_mut(&key_of) else {
            return done;
        };
        for (path, start) in files {
            if record.files.iter().any(|(p, _)| *p == path) {
                continue;
            }
            let size = start.as_ref().map_or(0, String::len);
            let full = record.files.len() >= MAX_TURN_FILES
                || record.bytes.saturating_add(size) > MAX_TURN_BYTES
                || others.saturating_add(record.bytes + size) > MAX_TURNS_BYTES;
            if full {
                if record.unrecorded.len() < MAX_UNRECORDED_NAMES {
                    record.unrecorded.insert(path.clone());
                }
                done.unrecorded.push(path);
                continue;
            }
            record.bytes += size;
            record.files.push((path, start));
        }
        done
    }

    /// Takes `key`'s turn out, for its end: it is answered once. `None`: nothing recorded for
    /// this turn (a record of another turn of the session is dropped: it ended unreviewed).
    pub fn take(&self, key: &TurnKey, turn: Option<&str>) -> Option<Turn> {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let t = inner.turns.remove(key)?;
        match (&t.turn, turn) {
            (Some(had), Some(now)) if had != now => None,
            _ => Some(t),
        }
    }

    /// How many sessions have a turn recorded.
    pub fn len(&self) -> usize {
        let inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        inner.turns.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
#[path = "turn_tests.rs"]
mod tests;
