//! Who is calling on one MCP-over-HTTP session: its id and its client, found on first use, for
//! any tool set served over this transport. Dropping the caller ends the session.

use crate::platform::peer::{Endpoints, PeerProcess};
use crate::protocols::mcp_http::site::{Audience, Site};
use crate::review::ClientInfo;
use rmcp::RoleServer;
use std::sync::OnceLock;

/// One session's caller. rmcp makes one handler per session and drops it when the session ends
/// (DELETE, or the transport gone), which dismisses the session's reviews.
pub struct Caller<A: Audience> {
    pub ws: Site<A>,
    session: OnceLock<String>,
}

impl<A: Audience> Caller<A> {
    pub fn new(ws: Site<A>) -> Self {
        Caller {
            ws,
            session: OnceLock::new(),
        }
    }

    /// The session id from the HTTP request's header, remembered with the client's identity.
    pub fn session(
        &self,
        extensions: &rmcp::model::Extensions,
        peer: &rmcp::Peer<RoleServer>,
    ) -> String {
        if let Some(id) = self.session.get() {
            return id.clone();
        }
        let id = extensions
            .get::<http::request::Parts>()
            .and_then(|p| p.headers.get("mcp-session-id"))
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        let client = peer
            .peer_info()
            .map(|i| ClientInfo {
                name: i.client_info.name.clone(),
                version: i.client_info.version.clone(),
                ..ClientInfo::default()
            })
            .unwrap_or_default();
        self.ws.table().register(&id, client);
        self.session.get_or_init(|| id).clone()
    }
}

/// The session's client, with the process behind this request's connection looked up on first
/// use (off the runtime: it reads the OS's socket and process tables). Over TCP the process is
/// found from both addresses; over a unix socket the kernel names it.
pub async fn client<A: Audience>(
    ws: &Site<A>,
    session: &str,
    extensions: &rmcp::model::Extensions,
) -> ClientInfo {
    let client = ws.table().client(session).unwrap_or_default();
    if client.process.is_some() {
        return client;
    }
    let Some(parts) = extensions.get::<http::request::Parts>() else {
        return client;
    };
    let found = if let Some(ends) = parts.extensions.get::<Endpoints>().copied() {
        crate::platform::peer::find(ws.service.peers.clone(), ends).await
    } else if let Some(pid) = parts
        .extensions
        .get::<crate::net::accept::SocketPeer>()
        .and_then(|p| p.pid)
    {
        describe(pid).await
    } else {
        None
    };
    if let Some(p) = found {
        ws.table().set_process(session, p);
    }
    ws.table().client(session).unwrap_or(client)
}

async fn describe(pid: u32) -> Option<PeerProcess> {
    use crate::platform::peer;
    peer::off_runtime(peer::LOOKUP, move || peer::describe(pid)).await
}

impl<A: Audience> Drop for Caller<A> {
    fn drop(&mut self) {
        if let Some(id) = self.session.get() {
            self.ws.end_session(id);
        }
    }
}
