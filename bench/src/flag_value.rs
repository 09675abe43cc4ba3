//! Parsers for the bench's flag values that must be in range before a run starts.

use std::time::Duration;

/// A count of at least 1 (calls, connections, rounds, threads, clients).
pub fn count(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(0) => Err("must be at least 1".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("bad number {s:?}")),
    }
}

/// The number of throughput connections: one session each, so bounded well below the
/// server's connection limit.
pub fn connections(s: &str) -> Result<usize, String> {
    match count(s)? {
        n if n > 1024 => Err("at most 1024".into()),
        n => Ok(n),
    }
}

/// Seconds, fractions allowed, more than 0 and at most an hour.
pub fn seconds(s: &str) -> Result<Duration, String> {
    let f: f64 = s.parse().map_err(|_| format!("bad number {s:?}"))?;
    if !(f > 0.0 && f <= 3600.0) {
        return Err("out of range (more than 0, at most 3600)".into());
    }
    Ok(Duration::from_secs_f64(f))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_connections_and_seconds_are_checked() {
        assert_eq!(count("3"), Ok(3));
        assert_eq!(count("0"), Err("must be at least 1".into()));
        assert_eq!(count("x"), Err("bad number \"x\"".into()));
        assert_eq!(connections("1024"), Ok(1024));
        assert_eq!(connections("1025"), Err("at most 1024".into()));
        assert_eq!(seconds("0.5"), Ok(Duration::from_millis(500)));
        assert!(seconds("0").is_err());
        assert!(seconds("-1").is_err());
        assert!(seconds("NaN").is_err());
        assert!(seconds("3601").is_err());
    }
}
