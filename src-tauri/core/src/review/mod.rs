//! Reviews: the queue of proposals waiting for the user's decision, the workspace service that
//! fills it, and the domain values (context, selection, mention) the protocol adapters shape.

pub(crate) mod client;
pub mod comment;
pub(crate) mod context;
pub(crate) mod decision;
pub(crate) mod detail;
pub(crate) mod diff;
pub mod editor;
pub(crate) mod editor_context;
pub mod error;
pub(crate) mod id;
pub mod kind;
pub mod origin;
pub mod original;
pub(crate) mod outcome;
pub(crate) mod pending;
pub(crate) mod queue;
pub(crate) mod quota;
pub mod read_only;
pub mod reason;
pub(crate) mod registry;
pub mod selection;
pub(crate) mod service;
pub(crate) mod summary;
pub mod turn;

pub use client::ClientInfo;
pub use detail::Detail;
pub use error::{QueueBound, ReviewError, Sendable};
pub use id::ReviewId;
pub use kind::ReviewKind;
pub use origin::Origin;
pub use outcome::{Outcome, Resolved};
pub use pending::{OnDisk, Review};
pub use queue::{Proposal, Reply, ReviewEvent, ReviewQueue};
pub use read_only::ReadOnly;
pub use summary::Summary;

#[cfg(test)]
mod tests;
