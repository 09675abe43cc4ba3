//! The open editor channels, and what an editor's messages do to the running workspaces: each
//! file goes to the workspace that contains it, and that workspace's CLIs hear of it in their own
//! terms.

use super::reviews::Reviews;
use super::workspaces::{not_held, Workspaces};
use crate::api::status::EditorChannel;
use crate::error::{Error, Result};
use crate::platform::clock::Clock;
use crate::platform::peer::PeerProcess;
use crate::review::editor::{EditorState, Message, OpenFile};
use crate::review::editor_context::Owner;
use crate::review::selection::Mention;
use crate::review::service::Service;
use crate::review::ReviewError;
use crate::workspace::WorkspaceError;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What an applied editor message adds to its `ok`.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Applied {
    /// A `reject` gave a reason that some CLI's protocol cannot carry: it was not sent there.
    pub reason_unsent: bool,
}

/// The open editor channels (`runtime::editor`), as the status lists them.
pub struct Editors {
    /// By id (ids grow, so oldest first).
    channels: std::sync::Mutex<BTreeMap<u64, EditorChannel>>,
    clock: Arc<dyn Clock>,
}

impl Editors {
    pub(super) fn new(clock: Arc<dyn Clock>) -> Editors {
        Editors {
            channels: Default::default(),
            clock,
        }
    }

    /// Applies one editor message to `workspaces`. `owner` is the editor channel, or none for a
    /// one-shot command; `show` asks a surface to show the reviews (false: none listens).
    pub(super) async fn message(
        &self,
        (workspaces, reviews): (&Workspaces, &Reviews),
        owner: Owner,
        mut message: Message,
        show: impl FnOnce() -> bool,
    ) -> Result<Applied> {
        message.check()?;
        let services = workspaces.services().await;
        let done = Applied::default();
        match message {
            Message::Context { files, .. } => {
                context(&services, owner, files, self.now()).map(|()| done)
            }
            Message::Mention {
                path, start, end, ..
            } => {
                let (service, path) = locate(&services, &path)?;
                service.mention_all(&Mention {
                    path,
                    start: start - 1,
                    end: end - 1,
                });
                Ok(done)
            }
            // Only a surface that listens (the desktop's window) can show them: a headless
            // instance says so rather than answer `ok` for a window that never opens.
            Message::Review { .. } if show() => Ok(done),
            Message::Review { .. } => Err(Error::NoWindow),
            Message::Reject { path, reason, .. } => {
                let (service, path) = locate(&services, &path)?;
                reject_file(reviews, &service, &path, reason)
            }
        }
    }

    /// Editor channel `owner` opened now.
    pub fn opened(&self, owner: u64) {
        let channel = EditorChannel {
            id: owner,
            editor: None,
            since: self.now(),
            workspaces: vec![],
        };
        self.channels().insert(owner, channel);
    }

    /// The program behind editor channel `owner`, once found.
    pub fn named(&self, owner: u64, editor: PeerProcess) {
        if let Some(c) = self.channels().get_mut(&owner) {
            c.editor = Some(editor);
        }
    }

    /// The editor channel `owner` closed: what it said goes from every workspace.
    pub(super) async fn closed(&self, owner: u64, workspaces: &Workspaces) {
        for s in workspaces.services().await {
            s.clear_editor(owner);
        }
        self.channels().remove(&owner);
    }

    /// The open editor channels, oldest first, each with the workspaces its files are in.
    pub(super) async fn list(&self, workspaces: &Workspaces) -> Vec<EditorChannel> {
        let services = workspaces.services().await;
        let mut channels: Vec<EditorChannel> = self.channels().values().cloned().collect();
        for c in &mut channels {
            c.workspaces = services
                .iter()
                .filter(|s| s.editor.owner() == Some(Some(c.id)))
                .map(|s| s.workspace.id().to_owned())
                .collect();
        }
        channels
    }

    fn channels(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, EditorChannel>> {
        self.channels.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn now(&self) -> u64 {
        self.clock.now_ms()
    }
}

/// Rejects every pending review of `path` in `service`'s workspace (two CLIs may propose one
/// file; the editor names the file, not a review), each CLI told `reason` where its protocol
/// carries one. The reason is cleaned and bounded first, as `redline review reject --reason`
/// does: one too long rejects nothing.
fn reject_file(
    reviews: &Reviews,
    service: &Service,
    path: &Path,
    reason: Option<String>,
) -> Result<Applied> {
    let reason = match reason {
        Some(raw) => crate::review::reason::clean(&raw)?,
        None => None,
    };
    let pending: Vec<_> = service
        .pending()
        .into_iter()
        .filter(|r| r.path == path)
        .collect();
    if pending.is_empty() {
        return Err(ReviewError::NoReviewOf(path.to_owned()).into());
    }
    let applied = Applied {
        reason_unsent: reason.is_some() && pending.iter().any(|r| !r.reason_heard),
    };
    for r in pending {
        match reviews.queue().reject(r.id, reason.clone()) {
            // Decided meanwhile (in the window, by its CLI): nothing left to reject there.
            Ok(_) | Err(ReviewError::NoSuchReview(_)) => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(applied)
}

/// Which running workspace holds `path` (its index), and the path as resolved there. Services
/// come in path order, so walking them backwards finds a nested workspace before its parent.
fn holder(services: &[Arc<Service>], path: &std::path::Path) -> Option<(usize, PathBuf)> {
    let text = path.to_string_lossy();
    services
        .iter()
        .enumerate()
        .rev()
        .find_map(|(i, s)| s.resolve(&text).ok().map(|(p, _)| (i, p)))
}

/// The running workspace that contains `path`, and the path as resolved there.
fn locate(services: &[Arc<Service>], path: &std::path::Path) -> Result<(Arc<Service>, PathBuf)> {
    holder(services, path)
        .map(|(i, p)| (services[i].clone(), p))
        .ok_or_else(|| {
            let roots: Vec<PathBuf> = services
                .iter()
                .flat_map(|s| s.workspace.roots.clone())
                .collect();
            not_held(path, &roots)
        })
}

/// Splits the editor's files by workspace. Files outside every workspace are left out (an editor
/// shows help pages and scratch buffers too), but an active one outside is an error: the CLIs
/// would otherwise follow a file the user no longer looks at.
fn context(services: &[Arc<Service>], owner: Owner, files: Vec<OpenFile>, at: u64) -> Result<()> {
    let mut per: Vec<Vec<OpenFile>> = vec![Vec::new(); services.len()];
    let mut outside = None;
    for f in files {
        match holder(services, &f.path) {
            Some((i, path)) => per[i].push(OpenFile { path, ..f }),
            None if f.active => {
                return Err(locate(services, &f.path)
                    .err()
                    .unwrap_or(WorkspaceError::NotInWorkspace(f.path).into()))
            }
            None => outside = outside.or(Some(f.path)),
        }
    }
    if per.iter().all(Vec::is_empty) {
        if let Some(path) = outside {
            return Err(WorkspaceError::NotInWorkspace(path).into());
        }
    }
    for (service, files) in services.iter().zip(per) {
        if !files.is_empty() {
            service.set_editor(owner, EditorState { files, at });
        } else if let Some(owner) = owner {
            service.clear_editor(owner);
        }
    }
    Ok(())
}
