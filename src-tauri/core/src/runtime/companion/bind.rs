//! Each protocol's server bound to its loopback listeners, and to the container bridge's when
//! containers are on: all bound before anything is announced, so the ports in the files are live.

use super::listeners::Listeners;
use super::server::Server;
use super::{amp, copilot, http, websocket};
use crate::error::{Error, Result};
use crate::net::accept;
use crate::platform::dirs::Dirs;
use crate::protocols::copilot::sessions::CopilotSessions;
use crate::protocols::mcp_ws::connections::Connections;
use crate::runtime::bridge::{Bridge, ContainerPlan};
use crate::workspace::Workspace;
use std::sync::Arc;

/// The servers, bound, and what the companion keeps of the binding.
pub(super) struct Bound {
    pub servers: Vec<Box<dyn Server>>,
    /// The container side, when containers are on.
    pub bridge: Option<Bridge>,
    /// The MCP HTTP port, which Gemini CLI and Qwen Code use.
    pub port: u16,
    /// Claude Code's WebSocket port.
    pub ws_port: u16,
}

/// Binds every server's listeners for `workspace`.
pub(super) async fn servers(
    workspace: &Workspace,
    containers: Option<&ContainerPlan>,
    dirs: &Dirs,
) -> Result<Bound> {
    let io = |e| Error::io(workspace.id(), e);
    let (listener, port) = accept::bind_loopback().await.map_err(io)?;
    let (ws_listener, ws_port) = accept::bind_loopback().await.map_err(io)?;
    let (amp_listener, amp_port) = accept::bind_loopback().await.map_err(io)?;
    let mut listeners = vec![listener];
    let mut ws_listeners = vec![ws_listener];
    let mut side = None;
    if let Some(plan) = containers {
        let (bridge, http, ws) = Bridge::bind(plan, port, ws_port).await;
        listeners.extend(http);
        ws_listeners.extend(ws);
        side = Some(bridge);
    }
    let container_port = |f: fn(&Bridge) -> Option<u16>| side.as_ref().and_then(f);
    let http = Listeners::new(listeners, port, container_port(|b| b.port));
    let ws = Listeners::new(ws_listeners, ws_port, container_port(|b| b.ws_port));
    let copilot_server = copilot::CopilotServer::bind(
        Arc::new(CopilotSessions::default()),
        dirs,
        port,
        workspace,
        side.as_mut(),
    );
    let servers: Vec<Box<dyn Server>> = vec![
        Box::new(http::HttpServer::new(http)),
        Box::new(websocket::WebSocketServer::new(
            Arc::new(Connections::default()),
            ws,
        )),
        Box::new(copilot_server),
        Box::new(amp::AmpServer::new(Listeners::new(
            vec![amp_listener],
            amp_port,
            None,
        ))),
    ];
    Ok(Bound {
        servers,
        bridge: side,
        port,
        ws_port,
    })
}
