//! Every action a `redline` command or the review window asks of the running instance, declared
//! once (`action/list.rs`): its request, its reply and who may ask it. The control channel's and
//! the window channel's vocabulary, their dispatch, the typed client calls and the review
//! window's TypeScript client functions are all derived from that one list.
//!
//! The model is an LSP request type (`lsp_types::request::Request`): the request struct names
//! its reply type, so `call::<A>()` returns `A::Reply`.

pub(crate) mod declare;
mod list;
pub(crate) mod typescript;

pub use list::*;
pub use typescript::{client, declarations};

use crate::error::Result;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::future::Future;

/// Who may ask an action: each reach also asks everything of the reaches before it is allowed
/// (the control channel asks any action; the window process the page's and its own).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reach {
    /// The review window's page: a TypeScript client function is generated for it, and the
    /// window process forwards it from the page as it is.
    Page,
    /// The window process itself (after its own dialog, or on closing), never the page.
    Window,
    /// Only a `redline` command on the control channel.
    Control,
}

/// One action: a request that names its wire name, its reply and who may ask it.
pub trait Act: Serialize + DeserializeOwned + Into<Call> + Send + 'static {
    /// The `cmd` it is sent under on either channel.
    const NAME: &'static str;
    const REACH: Reach;
    type Reply: Serialize + DeserializeOwned + Send + 'static;
}

/// Carries out action `A`: the running instance implements it once per action, and `Call`'s
/// dispatch picks the implementation.
pub trait Handle<A: Act> {
    fn handle(&self, request: A) -> impl Future<Output = Result<A::Reply>> + Send;
}
