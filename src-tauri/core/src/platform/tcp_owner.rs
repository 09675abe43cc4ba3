//! Which process holds the client end of a local TCP connection: the kernel's socket table
//! (`/proc/net/tcp{,6}`) gives the socket's inode, the process table its holders, and the
//! eldest holder is the process behind it.

use std::net::SocketAddr;

/// The PID owning the client end of the connection: its socket's inode from `/proc/net/tcp`
/// (and `tcp6`), then the eldest of the processes with that socket among their file descriptors.
#[cfg(target_os = "linux")]
pub fn socket_owner(local: SocketAddr, peer: SocketAddr) -> Option<u32> {
    let inode = ["/proc/net/tcp", "/proc/net/tcp6"]
        .iter()
        .filter_map(|f| std::fs::read_to_string(f).ok())
        .find_map(|table| client_inode(&table, local, peer))?;
    eldest(&socket_holders(inode), super::process::parent)
}

/// Every process with socket `inode` among its file descriptors.
#[cfg(target_os = "linux")]
fn socket_holders(inode: u64) -> Vec<u32> {
    let wanted = format!("socket:[{inode}]");
    let Ok(procs) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    procs
        .flatten()
        .filter_map(|e| {
            let pid: u32 = e.file_name().to_str()?.parse().ok()?;
            let fds = std::fs::read_dir(e.path().join("fd")).ok()?;
            fds.flatten()
                .any(|fd| {
                    std::fs::read_link(fd.path()).is_ok_and(|t| t.as_os_str() == wanted.as_str())
                })
                .then_some(pid)
        })
        .collect()
}

/// Of the processes holding one socket, the one whose parent does not hold it too. A child the
/// owner forks holds every descriptor until it execs (and keeps those not closed on exec), and
/// PIDs wrap, so neither the first found nor the lowest PID is the owner.
#[cfg(target_os = "linux")]
fn eldest(holders: &[u32], parent: impl Fn(u32) -> Option<u32>) -> Option<u32> {
    let held_by_parent =
        |pid: u32| parent(pid).is_some_and(|pp| pp != pid && holders.contains(&pp));
    holders
        .iter()
        .copied()
        .find(|&pid| !held_by_parent(pid))
        .or_else(|| holders.first().copied())
}

#[cfg(not(target_os = "linux"))]
pub fn socket_owner(_local: SocketAddr, _peer: SocketAddr) -> Option<u32> {
    None
}

/// The inode of the socket whose local end is `peer` and remote end is `local`, in a
/// `/proc/net/tcp{,6}` table.
pub fn client_inode(table: &str, local: SocketAddr, peer: SocketAddr) -> Option<u64> {
    table.lines().skip(1).find_map(|line| {
        let f: Vec<&str> = line.split_whitespace().collect();
        let (l, r, inode) = (f.get(1)?, f.get(2)?, f.get(9)?);
        let same = |hex: &str, want: SocketAddr| {
            proc_addr(hex).is_some_and(|a| a.port() == want.port() && same_ip(a, want))
        };
        (same(l, peer) && same(r, local))
            .then(|| inode.parse().ok())
            .flatten()
            .filter(|i| *i != 0)
    })
}

fn same_ip(a: SocketAddr, b: SocketAddr) -> bool {
    let canon = |ip: std::net::IpAddr| match ip {
        std::net::IpAddr::V6(v6) => v6.to_ipv4_mapped().map(std::net::IpAddr::V4).unwrap_or(ip),
        v4 => v4,
    };
    canon(a.ip()) == canon(b.ip())
}

/// An address as the kernel prints it: hex words in host byte order, then `:` and a hex port.
fn proc_addr(hex: &str) -> Option<SocketAddr> {
    let (ip, port) = hex.split_once(':')?;
    let port = u16::from_str_radix(port, 16).ok()?;
    let word = |s: &str| u32::from_str_radix(s, 16).ok().map(u32::to_ne_bytes);
    match ip.len() {
        8 => Some(SocketAddr::from((word(ip)?, port))),
        32 => {
            let mut bytes = [0u8; 16];
            for i in 0..4 {
                bytes[i * 4..i * 4 + 4].copy_from_slice(&word(&ip[i * 8..i * 8 + 8])?);
            }
            Some(SocketAddr::from((bytes, port)))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[test]
    fn the_owner_is_the_holder_whose_parent_does_not_hold_the_socket() {
        // 17237 is 30136's child between fork and exec, given a lower PID after a wrap.
        let parents = |pid| match pid {
            17237 => Some(30136),
            30136 => Some(30000),
            40001 => Some(17237),
            _ => None,
        };
        assert_eq!(eldest(&[17237, 30136], parents), Some(30136));
        assert_eq!(eldest(&[17237, 30136, 40001], parents), Some(30136));
        assert_eq!(eldest(&[30136], parents), Some(30136));
        assert_eq!(eldest(&[], parents), None);
        // Unrelated holders (a socket passed over a unix socket): the first is named.
        assert_eq!(eldest(&[5, 7], |_| Some(1)), Some(5));
    }

    #[cfg(target_endian = "little")]
    #[test]
    fn finds_the_client_end_in_a_proc_table() {
        let table = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n\
   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 111 1 0 100 0 0 10 0\n\
   1: 0100007F:1F90 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 222 1 0 20 4 30 10 -1\n\
   2: 0100007F:C350 0100007F:1F90 01 00000000:00000000 00:00000000 00000000     0        0 333 1 0 20 4 30 10 -1\n";
        let server: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        let client: SocketAddr = "127.0.0.1:50000".parse().unwrap();
        assert_eq!(client_inode(table, server, client), Some(333));
        let other: SocketAddr = "127.0.0.1:50001".parse().unwrap();
        assert_eq!(client_inode(table, server, other), None);
        let v6 = "  sl  local_address                         remote_address ...\n\
   0: 0000000000000000FFFF00000100007F:C350 0000000000000000FFFF00000100007F:1F90 01 00000000:00000000 00:00000000 00000000     0        0 444 1\n";
        assert_eq!(client_inode(v6, server, client), Some(444));
    }
}
