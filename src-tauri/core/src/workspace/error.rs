//! The workspace layer's errors: a path outside or not inside a workspace, a workspace that is
//! not (or no longer) what a request needs, its config, its containers. Each code is written
//! beside its variant; `crate::error::Error::Workspace` carries them to the edges.

use crate::error::FaultCode;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum WorkspaceError {
    #[error("{path} is outside the workspace ({roots})")]
    OutsideWorkspace { path: String, roots: String },
    #[error("file paths must be absolute: {0}")]
    RelativePath(String),
    #[error("{path} cannot be resolved safely: {reason}")]
    BadPath { path: String, reason: &'static str },
    #[error("{0} is not a workspace")]
    NoSuchWorkspace(PathBuf),
    #[error("{0} is already a workspace")]
    WorkspaceExists(PathBuf),
    #[error("no enabled workspace contains {0}")]
    NotInWorkspace(PathBuf),
    /// `NotInWorkspace` said to a person at a command, with the one command that lets the file
    /// in (`workspace::way_in`).
    #[error("no enabled workspace contains {}; {fix}", path.display())]
    NotInWorkspaceFix { path: PathBuf, fix: String },
    /// The path names a file in a workspace, but a symbolic link on the way leads out of it.
    #[error("{} is in the workspace {}, but a symbolic link on its way leads outside it; Redline reviews only files within the workspace", path.display(), workspace.display())]
    LeadsOutside { path: PathBuf, workspace: PathBuf },
    /// A folder given on the command line that is not there.
    #[error("the folder {} does not exist", .0.display())]
    NoFolder(PathBuf),
    /// A workspace whose folder no longer exists: not served until it is back or removed.
    #[error("the folder of workspace {} is gone: it is not served; remove it with `redline workspace remove {}`", .0.display(), .0.display())]
    FolderGone(PathBuf),
    #[error("workspace {0} is turned off")]
    WorkspaceOff(PathBuf),
    #[error("config file {path} is invalid: {message}")]
    Config { path: PathBuf, message: String },
    #[error("no container bridge found (looked for docker0, podman0, cni-podman0); give the host address containers reach with --address ADDR")]
    NoContainerBridge,
    #[error(
        "{0} cannot be listened on for containers: give one address of this host (never 0.0.0.0)"
    )]
    ContainerAddress(String),
    #[error("{0} is not a usable container path: give an absolute path such as /workspace, other than / and not inside or around the workspace's own path")]
    ContainerPath(String),
    #[error("containers are off for {0}; turn them on with `redline container enable {0}`")]
    ContainersOff(PathBuf),
    /// A setting's value out of its range: nothing saved.
    #[error("{0}; the settings were not saved")]
    BadSetting(String),
    /// A remote's name or command that cannot be used (the message says what to give).
    #[error("{0}")]
    BadRemote(String),
    #[error("there is no remote {0}; `redline remote list` names them")]
    NoSuchRemote(String),
    #[error("there is a remote {0} already; `redline remote remove {0}` first to change it")]
    RemoteExists(String),
}

impl WorkspaceError {
    pub fn code(&self) -> FaultCode {
        match self {
            WorkspaceError::OutsideWorkspace { .. } => FaultCode::OutsideWorkspace,
            WorkspaceError::RelativePath(_) => FaultCode::RelativePath,
            WorkspaceError::BadPath { .. } => FaultCode::BadPath,
            WorkspaceError::NoSuchWorkspace(_) => FaultCode::NoSuchWorkspace,
            WorkspaceError::WorkspaceExists(_) => FaultCode::WorkspaceExists,
            WorkspaceError::NotInWorkspace(_)
            | WorkspaceError::NotInWorkspaceFix { .. }
            | WorkspaceError::LeadsOutside { .. } => FaultCode::NotInWorkspace,
            WorkspaceError::NoFolder(_) => FaultCode::NoFolder,
            WorkspaceError::FolderGone(_) => FaultCode::FolderGone,
            WorkspaceError::WorkspaceOff(_) => FaultCode::WorkspaceOff,
            WorkspaceError::Config { .. } => FaultCode::Config,
            WorkspaceError::NoContainerBridge => FaultCode::NoContainerBridge,
            WorkspaceError::ContainerAddress(_) => FaultCode::ContainerAddress,
            WorkspaceError::ContainerPath(_) => FaultCode::ContainerPath,
            WorkspaceError::ContainersOff(_) => FaultCode::ContainersOff,
            WorkspaceError::BadSetting(_) => FaultCode::BadSetting,
            WorkspaceError::BadRemote(_) => FaultCode::Usage,
            WorkspaceError::NoSuchRemote(_) => FaultCode::NoSuchRemote,
            WorkspaceError::RemoteExists(_) => FaultCode::RemoteExists,
        }
    }
}
