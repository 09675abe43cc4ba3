//! The review window as the core sees it: a process of its own (started, watched and brought
//! back by `launcher`) that reaches the core over one typed channel (`message`, served by
//! `channel`, joined by the window with `link`), met in the `hub`.

pub mod channel;
pub mod hub;
pub mod launcher;
pub mod link;
pub mod message;
