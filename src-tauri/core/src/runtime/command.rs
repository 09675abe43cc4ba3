//! The one path every `redline` command takes: its request goes to the running instance over the
//! control channel, or, when none runs, is carried out on the stored config and keyring.

use crate::api::remote_info::{LinkState, RemoteInfo};
use crate::api::status::{ContainerStatus, Status};
use crate::doctor;
use crate::error::{ControlFailure, Error, Result};
use crate::platform::dirs::Dirs;
use crate::runtime::control::{self, ContainersOn, Request};
use crate::runtime::instance::World;
use crate::surfaces::action::{
    Act, Call, ContainerArgs, ContainerDisable, ContainerEnable, RemoteAdd, RemoteRemove,
    StatusGet, WorkspaceAdd, WorkspaceEnable, WorkspaceRemove,
};
use crate::workspace::config::{self, Config};
use crate::workspace::container::{self};
use serde::de::DeserializeOwned;
use serde_json::{json, Value};
use std::path::PathBuf;

/// Who carried the request out; the wording differs ("starts with the next `redline serve`").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    Instance,
    /// No instance runs: the stored config (and keyring) changed, for the next start.
    Stored,
}

/// An action's reply, and who gave it.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer<T> {
    pub via: Via,
    pub value: T,
}

fn decode<T: DeserializeOwned>(v: Value) -> Result<T> {
    serde_json::from_value(v).map_err(|e| Error::Control(ControlFailure::UnexpectedAnswer(e)))
}

/// Sends action `req` to the running instance; with none, does it on the stored state of the
/// machine `world` makes (made only then: it probes the keyring). What needs a running server
/// (status, reviews, tokens, pins, quit) fails with `Error::NotRunning`.
pub async fn send<A: Act>(
    dirs: &Dirs,
    req: A,
    world: impl FnOnce() -> World,
) -> Result<Answer<A::Reply>> {
    let call: Call = req.into();
    let value = match control::call(dirs, &Request::Action(call.clone())).await {
        Ok(value) => {
            return Ok(Answer {
                via: Via::Instance,
                value: control::decode::<A>(value)?,
            })
        }
        Err(Error::NotRunning) if works_stored(&call) => stored(&world(), call).await?,
        Err(e) => return Err(e),
    };
    Ok(Answer {
        via: Via::Stored,
        value: decode(value)?,
    })
}

fn works_stored(call: &Call) -> bool {
    matches!(
        call,
        Call::WorkspaceAdd(_)
            | Call::WorkspaceRemove(_)
            | Call::WorkspaceEnable(_)
            | Call::WorkspaceList(_)
            | Call::ContainerEnable(_)
            | Call::ContainerDisable(_)
            | Call::ContainerArgs(_)
            | Call::RemoteAdd(_)
            | Call::RemoteRemove(_)
    )
}

/// `call` on the config file, answered as the instance would answer it: the same change of the
/// stored workspaces (`workspace::config_change`), without servers to start or stop.
async fn stored(world: &World, call: Call) -> Result<Value> {
    let file = world.dirs.config_file();
    let mut c = Config::load(&file)?;
    let (answer, changed) = match call {
        Call::WorkspaceAdd(WorkspaceAdd { path, force }) => {
            (json!(c.add_folder(&path, force, &world.dirs.home)?), true)
        }
        Call::WorkspaceRemove(WorkspaceRemove { path }) => {
            let path = c.remove_named(&path)?;
            c.save(&file)?;
            world.forget_token(&path);
            return Ok(json!(path));
        }
        Call::WorkspaceEnable(WorkspaceEnable { path, enabled }) => {
            c.set_enabled(&path, enabled)?;
            (Value::Null, true)
        }
        Call::WorkspaceList(_) => (json!(c.workspaces), false),
        Call::ContainerEnable(ContainerEnable { path, address }) => {
            let (path, next) = c
                .containers_turned(&path, true, address, world.interfaces.as_ref())
                .await?;
            let status = next
                .as_ref()
                .map(|on| ContainerStatus::not_listening(on.address, on.paths.clone()));
            let changed = c.set_containers(&path, next);
            let on = ContainersOn {
                path,
                running: false,
                containers: status,
            };
            (json!(on), changed)
        }
        Call::ContainerDisable(ContainerDisable { path }) => {
            let (path, next) = c
                .containers_turned(&path, false, None, world.interfaces.as_ref())
                .await?;
            let changed = c.set_containers(&path, next);
            (json!(path), changed)
        }
        Call::ContainerArgs(args) => stored_args(world, &mut c, args)?,
        Call::RemoteAdd(_) | Call::RemoteRemove(_) => stored_remote(&mut c, call)?,
        _ => return Err(Error::NotRunning),
    };
    if changed {
        c.save(&file)?;
    }
    Ok(answer)
}

/// `redline remote add|remove` with no instance running: the config alone (the next instance
/// makes the link).
fn stored_remote(c: &mut Config, call: Call) -> Result<(Value, bool)> {
    Ok(match call {
        Call::RemoteAdd(RemoteAdd { remote }) => {
            // Its link is made by the next instance that starts: not connected yet.
            let info = RemoteInfo {
                name: remote.name.clone(),
                command: remote.command.clone(),
                state: LinkState::Connecting,
                reason: None,
                pending: 0,
                last_decision: None,
            };
            c.add_remote(remote)?;
            (json!(info), true)
        }
        Call::RemoteRemove(RemoteRemove { name }) => {
            c.remove_remote(&name)?;
            (Value::Null, true)
        }
        _ => return Err(Error::NotRunning),
    })
}

/// `redline container args` with no instance running: a newly mapped container path is the only
/// change to the config.
fn stored_args(world: &World, c: &mut Config, a: ContainerArgs) -> Result<(Value, bool)> {
    let ws = c.innermost(&a.path)?;
    let (args, added) = container::run_args(
        c.containers_mut(&ws)?,
        &world.dirs,
        world.interfaces.as_ref(),
        &ws,
        a.container_path.as_deref(),
        &a.home,
        None,
    )?;
    Ok((json!(args), added.is_some()))
}

/// `redline doctor DIR`: what the running instance (if any) and the stored config say about the
/// CLIs started in `dir`.
pub async fn diagnose(dirs: &Dirs, dir: PathBuf) -> Result<doctor::Report> {
    let dir = config::canonical_dir(&dir)?;
    let status: Option<Status> = match control::ask(dirs, StatusGet {}).await {
        Ok(v) => Some(v),
        Err(Error::NotRunning) => None,
        Err(e) => return Err(e),
    };
    let config = Config::load(&dirs.config_file())?;
    Ok(doctor::diagnose(&doctor::Facts::from_os(dir, status, config)).await)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::runtime::instance::Instance;
    use crate::surfaces::action::WorkspaceList;
    use crate::workspace::container::Interfaces;
    use std::net::Ipv4Addr;
    use std::sync::Arc;

    struct Loopback;
    impl Interfaces for Loopback {
        fn ipv4(&self) -> Vec<(String, Ipv4Addr)> {
            vec![("docker0".into(), Ipv4Addr::LOCALHOST)]
        }
    }

    fn world(dirs: &Dirs) -> World {
        World {
            pid: 4242,
            interfaces: Arc::new(Loopback),
            ..World::isolated(dirs.clone())
        }
    }

    fn dirs(root: &std::path::Path) -> Dirs {
        Dirs::under(root)
    }

    /// `send` as a command sends it, with the test's machine when none runs.
    async fn sent<A: Act>(dirs: &Dirs, req: A) -> Result<Answer<A::Reply>> {
        send(dirs, req, || world(dirs)).await
    }

    #[tokio::test]
    async fn the_same_requests_edit_the_stored_config_or_reach_the_running_instance() {
        let tmp = tempfile::tempdir().unwrap();
        let dirs = dirs(tmp.path());
        let ws = dunce::canonicalize(tmp.path()).unwrap().join("ws");
        std::fs::create_dir(&ws).unwrap();

        let added = sent(
            &dirs,
            WorkspaceAdd {
                path: ws.clone(),
                force: false,
            },
        )
        .await
        .unwrap();
        assert_eq!(added.via, Via::Stored);
        assert_eq!(added.value, ws);
        let on = sent(
            &dirs,
            ContainerEnable {
                path: ws.clone(),
                address: None,
            },
        )
        .await
        .unwrap();
        assert_eq!(on.via, Via::Stored);
        let on: ContainersOn = on.value;
        assert_eq!(on.containers.unwrap().address, Some(Ipv4Addr::LOCALHOST));
        let args: container::RunArgs = sent(
            &dirs,
            ContainerArgs {
                path: ws.clone(),
                container_path: Some("/workspace".into()),
                home: "/root".into(),
            },
        )
        .await
        .unwrap()
        .value;
        assert!(
            args.args.iter().any(|a| a.contains("/workspace")),
            "{args:?}"
        );
        let stored = Config::load(&dirs.config_file()).unwrap();
        let entry = stored.find(&ws).unwrap();
        assert_eq!(entry.containers.as_ref().unwrap().paths, ["/workspace"]);
        assert!(matches!(
            sent(&dirs, crate::surfaces::action::ReviewsList {}).await,
            Err(Error::NotRunning)
        ));

        // The same requests, with an instance answering: it carries them out.
        let listener = control::bind(&dirs).await.unwrap();
        let instance = Instance::start(world(&dirs)).await.unwrap();
        tokio::spawn(control::serve(instance.clone(), listener));
        let list = sent(&dirs, WorkspaceList {}).await.unwrap();
        assert_eq!(list.via, Via::Instance);
        let on: ContainersOn = sent(
            &dirs,
            ContainerEnable {
                path: ws.clone(),
                address: None,
            },
        )
        .await
        .unwrap()
        .value;
        assert!(on.running);
        assert!(on.containers.unwrap().port.is_some());
        let removed = sent(&dirs, WorkspaceRemove { path: ws.clone() })
            .await
            .unwrap();
        assert_eq!(removed.via, Via::Instance);
        assert!(instance.workspaces().list().await.is_empty());
        assert!(Config::load(&dirs.config_file())
            .unwrap()
            .workspaces
            .is_empty());
        instance.shutdown().await;
    }

    #[tokio::test]
    async fn a_change_to_what_is_already_so_leaves_the_stored_config_untouched() {
        let tmp = tempfile::tempdir().unwrap();
        let dirs = dirs(tmp.path());
        let ws = dunce::canonicalize(tmp.path()).unwrap().join("ws");
        std::fs::create_dir(&ws).unwrap();
        sent(
            &dirs,
            WorkspaceAdd {
                path: ws.clone(),
                force: false,
            },
        )
        .await
        .unwrap();
        // The user's own spelling of the same config.
        let file = dirs.config_file();
        let theirs = format!(
            "{{ \"workspaces\" : [ {{ \"path\": {}, \"enabled\": true }} ] }}\n",
            serde_json::to_string(&ws).unwrap()
        );
        std::fs::write(&file, &theirs).unwrap();
        let off = sent(&dirs, ContainerDisable { path: ws.clone() })
            .await
            .unwrap();
        assert_eq!(off.via, Via::Stored);
        assert_eq!(std::fs::read_to_string(&file).unwrap(), theirs);
        let listed = sent(&dirs, WorkspaceList {}).await.unwrap();
        assert_eq!(listed.via, Via::Stored);
        assert_eq!(std::fs::read_to_string(&file).unwrap(), theirs);
        // A real change is written.
        sent(
            &dirs,
            WorkspaceEnable {
                path: ws.clone(),
                enabled: false,
            },
        )
        .await
        .unwrap();
        let stored = Config::load(&file).unwrap();
        assert!(!stored.find(&ws).unwrap().enabled);
    }
}
