use super::*;
use std::io::Write;

#[cfg(target_os = "linux")]
fn env(pairs: &[(&str, &str)]) -> HashMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[cfg(target_os = "linux")]
#[test]
fn the_log_is_under_the_state_dir_else_local_state() {
    let with = resolve(&env(&[("HOME", "/h"), ("XDG_STATE_HOME", "/s")]));
    assert_eq!(with, Path::new("/s/redline/redline.log"));
    let without = resolve(&env(&[("HOME", "/h"), ("XDG_STATE_HOME", "")]));
    assert_eq!(without, Path::new("/h/.local/state/redline/redline.log"));
}

#[cfg(unix)]
#[test]
fn opens_0600_in_a_0700_dir_even_when_it_was_wider() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("state/redline/redline.log");
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    open(&path).unwrap();
    assert_eq!(mode(&path), 0o600);
    assert_eq!(mode(path.parent().unwrap()), 0o700);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    open(&path).unwrap();
    assert_eq!(mode(&path), 0o600);
}

#[test]
fn a_log_over_the_bound_becomes_the_older_one_and_appends_go_to_a_new_one() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("redline.log");
    std::fs::write(&path, vec![b'x'; MAX_BYTES as usize + 1]).unwrap();
    std::fs::write(older(&path), b"oldest").unwrap();
    open(&path).unwrap().write_all(b"new\n").unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"new\n");
    assert_eq!(
        std::fs::metadata(older(&path)).unwrap().len(),
        MAX_BYTES + 1
    );
    // Under the bound it is appended to.
    open(&path).unwrap().write_all(b"more\n").unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"new\nmore\n");
}

#[test]
fn the_tail_is_the_last_lines() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("redline.log");
    std::fs::write(&path, "a\nb\nc\nd\n").unwrap();
    assert_eq!(tail(&path, 0, 2), ["c", "d"]);
    // Only what was written past `from`.
    assert_eq!(tail(&path, 6, 5), ["d"]);
    assert_eq!(tail(&tmp.path().join("none"), 0, 2), Vec::<String>::new());
}

#[cfg(unix)]
#[test]
fn a_link_at_the_logs_place_is_refused_and_its_target_left_as_it_was() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let target = tmp.path().join("dotfile");
    std::fs::write(&target, b"export A=1\n").unwrap();
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o644)).unwrap();
    let dir = tmp.path().join("state/redline");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    let path = dir.join("redline.log");
    std::os::unix::fs::symlink(&target, &path).unwrap();
    assert!(open(&path).is_err());
    assert_eq!(std::fs::read(&target).unwrap(), b"export A=1\n");
    let mode = std::fs::metadata(&target).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o644);
}
