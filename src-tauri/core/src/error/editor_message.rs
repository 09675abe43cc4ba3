//! Why a line an editor sent on the editor channel is refused (`Error::EditorMessage`).

#[derive(Debug, thiserror::Error)]
pub enum BadEditorMessage {
    /// Not JSON, or not a message of the channel (serde's words).
    #[error("{0}")]
    Unreadable(#[source] serde_json::Error),
    /// A line over the channel's bound, refused before it is read.
    #[error("line longer than {limit} bytes")]
    TooLong { limit: usize },
    /// A context with more than one file marked active.
    #[error("more than one active file")]
    TwoActive,
    #[error("lines are 1-based")]
    LineZero,
    #[error("lines and columns are 1-based")]
    PositionZero,
}
