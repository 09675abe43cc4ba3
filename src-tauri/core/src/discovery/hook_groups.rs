//! Redline's member of a list of hooks in a JSON hook config (`hooks.{event}` groups
//! `{matcher, hooks: [...]}`, Claude Code's shape that Codex, Gemini and Qwen copied; Cursor's
//! flat entries; Kiro's `hooks`), put in, found and taken out by editing the file's text: one
//! splice at a time, the file read again after each, every byte not Redline's kept.
//!
//! Redline's group is a group of its own (`matcher` and `hooks` holding Redline's entry alone),
//! never a user's group: an entry of Redline's the user moved into a group of theirs is taken
//! out of it, leaving the group, its matcher and its other hooks as they are.

use super::hook_entry::{ours, text, HookInstalled};
use super::json_text::{self as jt, Into, List};
use super::keep_file;
use crate::clients::{Entries, HookCli, Reads};
use crate::discovery::DiscoveryError;
use crate::error::Result;
use jsonc_parser::ast::Value as Node;
use serde_json::{json, Map, Value};
use std::path::Path;

/// Where in the file a list of hooks is, and what its members are.
#[derive(Clone)]
pub(super) struct Slot<'s> {
    pub site: &'s HookCli,
    /// Keys from the root to the list: `hooks`, `EVENT`, or `hooks` alone (Kiro).
    pub path: Vec<&'s str>,
    /// The list holds groups `{matcher, hooks: [...]}`; else it holds entries.
    pub grouped: bool,
}

impl Slot<'_> {
    /// A member that is Redline's alone: its entry, or a group holding only its entry.
    fn own(&self, v: &Value) -> bool {
        if !self.grouped {
            return ours(v, self.site);
        }
        let Some(o) = v.as_object() else {
            return false;
        };
        o.keys().all(|k| k == "matcher" || k == "hooks")
            && o.get("hooks")
                .and_then(Value::as_array)
                .is_some_and(|h| h.len() == 1 && ours(&h[0], self.site))
    }
}

/// Where `site`'s pre-edit hook goes in its settings file.
pub(super) fn slot(site: &HookCli, entries: Entries) -> Slot<'_> {
    match entries {
        Entries::Kiro => Slot {
            site,
            path: vec!["hooks"],
            grouped: false,
        },
        Entries::Grouped | Entries::Flat => Slot {
            site,
            path: vec!["hooks", site.event],
            grouped: entries == Entries::Grouped,
        },
    }
}

/// The root of a new file: the schema version these files must name (a file of the user's is
/// never given one it did not have).
pub(super) fn fresh(entries: Entries) -> Map<String, Value> {
    let mut root = Map::new();
    match entries {
        Entries::Grouped => {}
        Entries::Flat => {
            root.insert("version".into(), json!(1));
        }
        Entries::Kiro => {
            root.insert("version".into(), json!("v1"));
        }
    }
    root
}

/// Redline's group in `event`'s list: `matcher` (if any) and `entry` alone.
pub(super) fn group(matcher: Option<&str>, entry: Value) -> Value {
    let mut group = json!({ "hooks": [entry] });
    if let Some(m) = matcher {
        group["matcher"] = json!(m);
    }
    group
}

/// Redline's entry in a group, running `command`.
pub(super) fn entry(site: &HookCli, command: &str) -> Value {
    json!({ "type": "command", "command": command, "timeout": site.timeout_value() })
}

/// What to do to a slot: put Redline's member in (in place of any there), or take it out.
pub(super) enum Op<'s> {
    Put(Slot<'s>, Value),
    Take(Slot<'s>),
}

/// The file's text after `ops`, each op's outcome (a take that removed something is
/// `Replaced`), and whether the text changed; nothing is written. `fresh` is the root of a new
/// file (its schema version).
pub(super) struct Edited {
    pub bom: &'static str,
    pub body: String,
    pub outcomes: Vec<HookInstalled>,
    pub changed: bool,
}

pub(super) fn edit(
    file: &Path,
    reads: Reads,
    fresh: &Map<String, Value>,
    ops: &[Op],
) -> Result<Edited> {
    let original = text(file)?.unwrap_or_default();
    edit_text(file, &original, reads, fresh, ops)
}

/// `edit` of `original`, the text of `file` (named in errors), or of a file not there yet ("").
pub(super) fn edit_text(
    file: &Path,
    original: &str,
    reads: Reads,
    fresh: &Map<String, Value>,
    ops: &[Op],
) -> Result<Edited> {
    let refuse = |why: String| DiscoveryError::HookConfig {
        path: file.to_owned(),
        why,
    };
    let (bom, body) = jt::split_bom(original, reads).map_err(refuse)?;
    let mut body = body.to_owned();
    let mut outcomes = Vec::new();
    for op in ops {
        let mut done = HookInstalled::Already;
        // Each step changes one member; a file needing more than this is not one to edit.
        for _ in 0..64 {
            let step = match op {
                Op::Put(slot, want) => put_step(slot, &body, reads, want, fresh),
                Op::Take(slot) => {
                    take_step(slot, &body, reads).map(|t| t.map(|t| (t, HookInstalled::Replaced)))
                }
            };
            match step.map_err(refuse)? {
                None => break,
                Some((next, did)) => {
                    body = next;
                    if done != HookInstalled::Added {
                        done = did;
                    }
                }
            }
        }
        outcomes.push(done);
    }
    // Redline's own edit must leave a file the CLI reads, holding what was asked.
    jt::parse(&body, reads)
        .map_err(|why| refuse(format!("Redline's edit would leave it unreadable ({why})")))?;
    for op in ops {
        let left = match op {
            Op::Put(slot, want) => put_step(slot, &body, reads, want, fresh),
            Op::Take(slot) => {
                take_step(slot, &body, reads).map(|t| t.map(|t| (t, HookInstalled::Replaced)))
            }
        };
        if !matches!(left, Ok(None)) {
            return Err(refuse("Redline could not edit it in place".into()).into());
        }
    }
    let changed = body != original[bom.len()..];
    Ok(Edited {
        bom,
        body,
        outcomes,
        changed,
    })
}

/// Writes the edited text over the file (its mode, owner and link kept).
pub(super) fn save(file: &Path, edited: &Edited) -> Result<()> {
    keep_file::write(file, format!("{}{}", edited.bom, edited.body).as_bytes())
}

/// Where the slot's list is in the parsed file.
enum At<'n, 'a> {
    /// No JSON at all (an empty or missing file).
    Empty,
    /// `path[depth]` is missing from `parent`, an object.
    Missing { parent: List, depth: usize },
    /// The list, and the objects above it with the index of the member holding it (innermost
    /// first), for taking out what Redline made for its member.
    List {
        node: &'n Node<'a>,
        above: Vec<(List, usize)>,
    },
}

fn walk<'n, 'a>(
    root: Option<&'n Node<'a>>,
    path: &[&str],
) -> std::result::Result<At<'n, 'a>, String> {
    let Some(mut node) = root else {
        return Ok(At::Empty);
    };
    let mut above = Vec::new();
    for (depth, key) in path.iter().enumerate() {
        let here = jt::list(node).ok_or("it is not a JSON object")?;
        let Some((i, child)) = jt::prop(node, key)? else {
            return Ok(At::Missing {
                parent: here,
                depth,
            });
        };
        let want_object = depth + 1 < path.len();
        match (child, want_object) {
            (Node::Object(_), true) | (Node::Array(_), false) => {}
            (_, true) => {
                return Err(format!(
                    "its `{}` is not an object",
                    path[..=depth].join(".")
                ))
            }
            (_, false) => return Err(format!("its `{}` is not a list", path.join("."))),
        }
        above.push((here, i));
        node = child;
    }
    above.reverse();
    Ok(At::List { node, above })
}

/// One change towards the file holding `want` as its slot's only member of Redline's; `None`
/// when it does.
fn put_step(
    slot: &Slot,
    body: &str,
    reads: Reads,
    want: &Value,
    fresh: &Map<String, Value>,
) -> std::result::Result<Option<(String, HookInstalled)>, String> {
    let root = jt::parse(body, reads)?;
    let style = jt::style(body);
    let path = &slot.path;
    // The value at `path[depth]` holding a list of `want` alone.
    let nest = |depth: usize| {
        path[depth + 1..]
            .iter()
            .rev()
            .fold(json!([want]), |v, key| json!({ *key: v }))
    };
    let (node, above) = match walk(root.as_ref(), path)? {
        At::Empty => {
            let mut doc = fresh.clone();
            doc.insert(path[0].to_owned(), nest(0));
            let text = format!(
                "{}{}",
                jt::pretty(&Value::Object(doc), &style, ""),
                style.nl
            );
            return Ok(Some((text, HookInstalled::Added)));
        }
        At::Missing { parent, depth } => {
            let into = match depth {
                0 => Into::Lined,
                _ => Into::Flush,
            };
            let v = nest(depth);
            let text = jt::append(body, &parent, into, &style, |base| {
                format!("{}: {}", json!(path[depth]), jt::pretty(&v, &style, base))
            });
            return Ok(Some((text, HookInstalled::Added)));
        }
        At::List { node, above } => (node, above),
    };
    let _ = above;
    let (Node::Array(array), Some(list)) = (node, jt::list(node)) else {
        return Err(format!("its `{}` is not a list", path.join(".")));
    };
    if let Some(text) = take_stray(slot, body, &array.elements)? {
        return Ok(Some((text, HookInstalled::Replaced)));
    }
    let values: Vec<Value> = array.elements.iter().map(|e| jt::value(body, e)).collect();
    let own: Vec<usize> = (0..values.len())
        .filter(|&i| slot.own(&values[i]))
        .collect();
    Ok(match own.as_slice() {
        [] => Some((
            jt::append(body, &list, Into::Flush, &style, |base| {
                jt::pretty(want, &style, base)
            }),
            HookInstalled::Added,
        )),
        [_, .., extra] => Some((jt::remove(body, &list, *extra), HookInstalled::Replaced)),
        [one] if values[*one] == *want => None,
        [one] => {
            let at = list.members[*one].clone();
            let with = jt::pretty(want, &style, jt::indent_at(body, at.start));
            Some((jt::replace(body, at, &with), HookInstalled::Replaced))
        }
    })
}

/// One change towards the slot holding nothing of Redline's; `None` when it holds nothing.
fn take_step(slot: &Slot, body: &str, reads: Reads) -> std::result::Result<Option<String>, String> {
    let root = jt::parse(body, reads)?;
    let At::List { node, above } = walk(root.as_ref(), &slot.path)? else {
        return Ok(None);
    };
    let (Node::Array(array), Some(list)) = (node, jt::list(node)) else {
        return Ok(None);
    };
    if let Some(text) = take_stray(slot, body, &array.elements)? {
        return Ok(Some(text));
    }
    let own = array
        .elements
        .iter()
        .position(|e| slot.own(&jt::value(body, e)));
    let Some(i) = own else {
        return Ok(None);
    };
    let mut chain = vec![(list, i)];
    chain.extend(above);
    Ok(Some(remove_chain(body, &chain)))
}

/// Redline's entry taken out of a group that is not Redline's alone (the group stays, with its
/// matcher and the user's hooks).
fn take_stray(
    slot: &Slot,
    body: &str,
    groups: &[Node],
) -> std::result::Result<Option<String>, String> {
    if !slot.grouped {
        return Ok(None);
    }
    for group in groups {
        if !matches!(group, Node::Object(_)) || slot.own(&jt::value(body, group)) {
            continue;
        }
        let Some((_, hooks)) = jt::prop(group, "hooks")? else {
            continue;
        };
        let (Node::Array(entries), Some(list)) = (hooks, jt::list(hooks)) else {
            continue;
        };
        let at = entries
            .elements
            .iter()
            .position(|e| ours(&jt::value(body, e), slot.site));
        if let Some(i) = at {
            return Ok(Some(jt::remove(body, &list, i)));
        }
    }
    Ok(None)
}

/// Takes member `i` out of the innermost list, and with it each list above that Redline made
/// for it alone (the inverse of `put_step`'s making them); the root object always stays.
fn remove_chain(body: &str, chain: &[(List, usize)]) -> String {
    let last = chain.len() - 1;
    for (k, (list, i)) in chain.iter().enumerate() {
        if k < last && jt::made_for(body, list) {
            continue;
        }
        if k == last && list.members.len() == 1 {
            return jt::remove_only_lined(body, list);
        }
        return jt::remove(body, list, *i);
    }
    body.to_owned()
}

/// Redline's entry in the slot, if it is there (anywhere in it).
pub(super) fn find(slot: &Slot, file: &Path, reads: Reads) -> Result<Option<Value>> {
    let refuse = |why: String| DiscoveryError::HookConfig {
        path: file.to_owned(),
        why,
    };
    let original = text(file)?.unwrap_or_default();
    let (_, body) = jt::split_bom(&original, reads).map_err(refuse)?;
    let root = jt::parse(body, reads).map_err(refuse)?;
    let At::List { node, .. } = walk(root.as_ref(), &slot.path).map_err(refuse)? else {
        return Ok(None);
    };
    let list = jt::value(body, node);
    let members = list.as_array().into_iter().flatten();
    Ok(members
        .flat_map(|m| match slot.grouped {
            true => m
                .get("hooks")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default(),
            false => vec![m.clone()],
        })
        .find(|h| ours(h, slot.site)))
}
