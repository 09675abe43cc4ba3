//! What the bench reads about the machine it runs on: a process tree's CPU time, the load average.

/// CPU time (user+system, clock ticks) of `pid` and all its live descendants.
pub fn proc_cpu_ticks(pid: u32) -> u64 {
    // /proc/PID/stat: "pid (comm) state ppid ...": utime and stime are fields 14 and 15.
    fn stat(pid: u32) -> Option<(u32, u64)> {
        let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        let rest = s.rsplit_once(')')?.1;
        let f: Vec<&str> = rest.split_whitespace().collect();
        // rest starts at field 3 (state), so field N is f[N-3].
        let ppid = f.get(1)?.parse().ok()?;
        let ut: u64 = f.get(11)?.parse().ok()?;
        let st: u64 = f.get(12)?.parse().ok()?;
        Some((ppid, ut + st))
    }
    let mut procs = Vec::new();
    if let Ok(rd) = std::fs::read_dir("/proc") {
        for e in rd.flatten() {
            if let Some(p) = e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) {
                if let Some((ppid, t)) = stat(p) {
                    procs.push((p, ppid, t));
                }
            }
        }
    }
    let mut tree = vec![pid];
    let mut total = 0;
    let mut i = 0;
    while i < tree.len() {
        let cur = tree[i];
        for &(p, ppid, t) in &procs {
            if p == cur {
                total += t;
            }
            if ppid == cur && !tree.contains(&p) {
                tree.push(p);
            }
        }
        i += 1;
    }
    total
}

pub fn ticks_per_sec() -> f64 {
    // Linux's USER_HZ is 100 on every mainstream architecture.
    100.0
}

pub fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into())
}
