//! How values read in a committed report: paths, times, counts, ratios and percentiles.

/// A path as a committed report prints it: relative to the repository, else to the working
/// directory, else its file name alone (never this machine's absolute path).
pub fn shown(p: &std::path::Path) -> String {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent();
    let relative = repo
        .and_then(|r| p.strip_prefix(r).ok().map(|r| r.to_path_buf()))
        .or_else(|| {
            let cwd = std::env::current_dir().ok()?;
            p.strip_prefix(cwd).ok().map(|r| r.to_path_buf())
        });
    match relative {
        Some(r) => r.display().to_string(),
        None if p.is_relative() => p.display().to_string(),
        None => p.file_name().map_or_else(
            || p.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        ),
    }
}

pub fn percentile(sorted: &[u64], p: f64) -> u64 {
    // nearest-rank
    let n = sorted.len();
    let rank = ((p / 100.0) * n as f64).ceil() as usize;
    sorted[rank.clamp(1, n) - 1]
}

/// "2.0× faster" for x = 2, "2.0× slower" for x = 0.5.
pub fn compare(x: f64, better: &str, worse: &str) -> String {
    if !x.is_finite() || x <= 0.0 {
        "n/a".into()
    } else if x >= 1.0 {
        format!("{x:.1}× {better}")
    } else {
        format!("{:.1}× {worse}", 1.0 / x)
    }
}

/// Unix seconds as "YYYY-MM-DD HH:MM UTC".
pub fn utc(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Howard Hinnant's civil_from_days
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        rem / 3600,
        rem % 3600 / 60
    )
}

pub fn thousands(x: f64) -> String {
    let n = x.round() as u64;
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn reports_print_no_absolute_path_of_this_machine() {
        let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let repo = repo.canonicalize().unwrap();
        assert_eq!(
            super::shown(&repo.join("target/release/redline")),
            "target/release/redline"
        );
        assert_eq!(
            super::shown(std::path::Path::new("/opt/x/redline")),
            "redline"
        );
        assert_eq!(
            super::shown(std::path::Path::new("bench/reference")),
            "bench/reference"
        );
    }

    #[test]
    fn utc_and_compare() {
        assert_eq!(super::utc(0), "1970-01-01 00:00 UTC");
        assert_eq!(super::utc(1_709_210_096), "2024-02-29 12:34 UTC");
        assert_eq!(super::compare(2.0, "faster", "slower"), "2.0× faster");
        assert_eq!(super::compare(0.5, "faster", "slower"), "2.0× slower");
        assert_eq!(super::compare(f64::INFINITY, "a", "b"), "n/a");
        assert_eq!(super::percentile(&[1, 2, 3, 4], 50.0), 2);
        assert_eq!(super::percentile(&[1, 2, 3, 4], 99.0), 4);
    }
}
