//! The core over real sockets, in one test binary: each file is a module (fd_limit.rs stays
//! apart: it lowers the process's open-file limit, which would starve the tests beside it).

#[path = "../common/mod.rs"]
mod common;

mod amp_ws;
mod bindings;
#[cfg(unix)]
mod codex_apply;
#[cfg(unix)]
mod codex_ipc;
#[cfg(windows)]
mod codex_pipe;
#[cfg(unix)]
mod codex_router;
mod codex_wire;
#[cfg(unix)]
mod copilot;
#[cfg(windows)]
mod copilot_pipe;
#[cfg(unix)]
mod discovery_dirs;
mod doctor;
mod editor;
mod editor_state;
mod hook_comments;
mod hook_undecided;
mod http_container;
mod http_fuzz;
mod http_guard;
mod http_hostile;
mod http_lifecycle;
mod http_mcp;
mod http_peer;
mod instance;
mod jsonrpc_faults;
mod keyring;
mod peer;
mod peer_hostile;
mod reject;
mod remote_bridge;
mod sessions_started;
mod settings;
mod turn;
// Takes checkpoints, as turn_whole below: Unix only.
#[cfg(unix)]
mod turn_continue;
mod turn_modes;
// Checkpoints need the `git` program, which Wine (the Windows tests here) lacks.
#[cfg(unix)]
mod turn_past;
#[cfg(unix)]
mod turn_whole;
mod window;
mod ws_claude;
mod ws_container;
