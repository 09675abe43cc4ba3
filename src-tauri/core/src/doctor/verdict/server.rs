//! The checks on Redline's server: that the CLI would reach it from here, and that it answers
//! `initialize` as Redline with the file's token.

use super::finding::{restart, Check, Finding};
use crate::clients::{ContainerHost, Served, Transport};
use crate::doctor::facts::Facts;
use crate::doctor::probe::{self, Probe};
use crate::doctor::report::{quote, shell, Verdict, WorkspaceFound};
use crate::doctor::scan::Seen;
use std::ops::ControlFlow::{Break, Continue};

pub(super) fn container_host(cli: &Served, facts: &Facts) -> Check {
    match cli.ide.container.host {
        ContainerHost::DockerHostUnless(vars)
            if facts.in_container() && !vars.iter().any(|v| facts.var(v).is_some()) =>
        {
            Break(Finding::new(
                Verdict::ContainerHost,
                format!(
                    "in a container {} connects to host.docker.internal, not to the Redline \
                     running here",
                    cli.name
                ),
                shell("export REMOTE_CONTAINERS=1"),
            ))
        }
        _ => Continue(()),
    }
}

/// Connects to Redline's server as the CLI would, with the file's token.
pub(super) async fn probe(cli: &Served, ours: &Seen) -> Probe {
    let token = ours.token(cli).unwrap_or_default();
    match cli.ide.transport {
        Transport::Http => probe::http_initialize(&probe::Endpoint::Port(ours.port), token).await,
        Transport::UnixHttp => match ours.socket(cli) {
            Some(socket) => probe::http_initialize(&probe::Endpoint::Socket(socket), token).await,
            None => Probe::Unexpected {
                detail: format!("{} names no socket", ours.path.display()),
            },
        },
        Transport::WebSocket => probe::ws_initialize(ours.port, token).await,
        Transport::AmpWebSocket => probe::amp_ping(ours.port, token).await,
    }
}

pub(super) fn answered(probe: Probe, ours: &Seen, ws: &WorkspaceFound, port: u16) -> Check {
    Break(match probe {
        Probe::Answered { server, .. } if server == crate::discovery::IDE_NAME => {
            return Continue(())
        }
        Probe::Answered { server, .. } => Finding::new(
            Verdict::Unexpected,
            format!("port {port} answered as {server:?}, not Redline"),
            restart(ws),
        ),
        Probe::TokenRefused { status } => Finding::new(
            Verdict::TokenRefused,
            format!(
                "Redline refused the token in {} (HTTP {status})",
                ours.path.display()
            ),
            shell(format!("redline token rotate {}", quote(&ws.path))),
        ),
        Probe::Unreachable { error } => Finding::new(
            Verdict::Unreachable,
            format!("nothing answers on port {port}: {error}"),
            restart(ws),
        ),
        Probe::Unexpected { detail } => Finding::new(
            Verdict::Unexpected,
            format!("port {port} did not answer as Redline: {detail}"),
            restart(ws),
        ),
    })
}
