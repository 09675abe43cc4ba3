//! `ssh://[USER@]HOST[:PORT]` and `wsl://DISTRO`, the shorthands of `redline remote add`: the
//! name and the command each stands for, run as git runs ssh (no terminal, no password prompt).

use crate::workspace::remote_entry::RemoteEntry;
use crate::workspace::WorkspaceError;

/// What the far side runs: Redline's own copy if `--install` put one there, else the one on
/// its PATH, started headless if none runs (`redline bridge --start`). `sh -c`, so a login shell
/// of another family (fish, nushell) runs it the same.
pub const FAR_SCRIPT: &str = "p=\"$HOME/.local/share/redline/bin/redline\"; \
     [ -x \"$p\" ] || p=redline; exec \"$p\" bridge --start";

/// ssh's own keepalive: a link that stops answering is dropped after 4 s × 2 (issue 40: noticed
/// within 15 s, with the channel's own heartbeat beside it), and a host that does not answer at
/// all within 10 s is a failure, not a hang.
const SSH_OPTIONS: [&str; 8] = [
    "-o",
    "BatchMode=yes",
    "-o",
    "ServerAliveInterval=4",
    "-o",
    "ServerAliveCountMax=2",
    "-o",
    "ConnectTimeout=10",
];

/// The remote `target` stands for, named `name` if given (else its host or distro); `None`
/// when `target` is no shorthand.
pub fn expand(target: &str, name: Option<&str>) -> Result<Option<RemoteEntry>, WorkspaceError> {
    let Some((default_name, command)) = there(target, FAR_SCRIPT)? else {
        return Ok(None);
    };
    RemoteEntry::new(name.unwrap_or(&default_name), command).map(Some)
}

/// The host or distro `target` names, and the command that runs the POSIX shell `script` there
/// (which must hold no `'`); `None` when `target` is no shorthand.
pub fn there(target: &str, script: &str) -> Result<Option<(String, Vec<String>)>, WorkspaceError> {
    debug_assert!(!script.contains('\''));
    if let Some(rest) = target.strip_prefix("ssh://") {
        ssh(rest, script).map(Some)
    } else if let Some(distro) = target.strip_prefix("wsl://") {
        wsl(distro, script).map(Some)
    } else {
        Ok(None)
    }
}

/// `[USER@]HOST[:PORT]`: the host's name, and ssh's command.
fn ssh(rest: &str, script: &str) -> Result<(String, Vec<String>), WorkspaceError> {
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    let (user, host_port) = match rest.rsplit_once('@') {
        Some((user, hp)) => (Some(user), hp),
        None => (None, rest),
    };
    let (host, port) = match host_port.rsplit_once(':') {
        Some((h, p)) if !h.contains(':') => (h, Some(p)),
        _ => (host_port, None),
    };
    let bad = |what: &str| {
        WorkspaceError::BadRemote(format!(
            "ssh://{rest}: {what}; give ssh://[USER@]HOST[:PORT], or the whole command after `--`"
        ))
    };
    if !word(host) {
        return Err(bad("the host is not a name ssh takes"));
    }
    if user.is_some_and(|u| !word(u)) {
        return Err(bad("the user is not a name ssh takes"));
    }
    if port.is_some_and(|p| p.parse::<u16>().map_or(true, |p| p == 0)) {
        return Err(bad("the port is no number from 1 to 65535"));
    }
    let mut command: Vec<String> = vec!["ssh".into(), "-T".into()];
    command.extend(SSH_OPTIONS.iter().map(|s| s.to_string()));
    if let Some(port) = port {
        command.extend(["-p".into(), port.into()]);
    }
    let destination = match user {
        Some(user) => format!("{user}@{host}"),
        None => host.to_owned(),
    };
    // ssh hands the far side one string for the login shell: `sh -c` in it, the script quoted
    // (it holds no `'`).
    command.extend([destination, format!("sh -c '{script}'")]);
    Ok((host.to_owned(), command))
}

/// `DISTRO`: its name, and wsl.exe's command (`--exec`: no shell of Windows' between).
fn wsl(distro: &str, script: &str) -> Result<(String, Vec<String>), WorkspaceError> {
    if !word(distro) {
        return Err(WorkspaceError::BadRemote(format!(
            "wsl://{distro}: give the distro's name as `wsl.exe -l` lists it"
        )));
    }
    let command = ["wsl.exe", "-d", distro, "--exec", "sh", "-c", script];
    Ok((distro.to_owned(), command.map(str::to_owned).to_vec()))
}

/// A host, user or distro that no program reads as an option or a shell reads twice.
fn word(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with('-')
        && s.len() <= 253
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ssh_runs_without_a_terminal_with_keepalives_and_the_far_redline() {
        let e = expand("ssh://me@dev.box:2222", None).unwrap().unwrap();
        assert_eq!(e.name, "dev.box");
        assert_eq!(&e.command[..2], ["ssh", "-T"]);
        assert!(e.command.contains(&"BatchMode=yes".to_owned()));
        let tail = &e.command[e.command.len() - 4..];
        let far = format!("sh -c '{FAR_SCRIPT}'");
        assert_eq!(tail, ["-p", "2222", "me@dev.box", far.as_str()]);
        assert!(!FAR_SCRIPT.contains('\''));
        let plain = expand("ssh://devbox", Some("gpu")).unwrap().unwrap();
        assert_eq!(plain.name, "gpu");
        assert_eq!(plain.command[plain.command.len() - 2], "devbox");
    }

    #[test]
    fn wsl_execs_sh_in_the_distro() {
        let e = expand("wsl://Ubuntu-24.04", None).unwrap().unwrap();
        assert_eq!(e.name, "Ubuntu-24.04");
        assert_eq!(
            e.command,
            [
                "wsl.exe",
                "-d",
                "Ubuntu-24.04",
                "--exec",
                "sh",
                "-c",
                FAR_SCRIPT
            ]
        );
    }

    #[test]
    fn hosts_that_would_be_options_or_shell_words_are_refused() {
        for bad in [
            "ssh://-oProxyCommand=x",
            "ssh://a;b",
            "ssh://$(id)",
            "ssh://me@",
            "ssh://a b",
            "ssh://h:0",
            "ssh://h:99999",
            "ssh://-l@h",
            "wsl://",
            "wsl://a'b",
        ] {
            let e = expand(bad, None).unwrap_err();
            assert_eq!(e.code(), crate::error::FaultCode::Usage, "{bad}");
        }
        assert_eq!(expand("devbox", None).unwrap(), None);
    }
}
