//! Paths made absolute against an injected current directory.

use super::Here;
use redline_core::Error;
use std::path::{Path, PathBuf};

fn at(dir: &Path) -> Here {
    let dir = dir.to_owned();
    Here::at(move || Ok(dir.clone()))
}

fn nowhere() -> Here {
    Here::at(|| Err(std::io::ErrorKind::NotFound.into()))
}

#[test]
fn a_relative_path_is_below_the_injected_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let here = at(tmp.path());
    assert_eq!(
        here.absolute(Path::new("a/b")).unwrap(),
        tmp.path().join("a/b")
    );
    assert_eq!(
        here.absolute(Path::new("./a/./b")).unwrap(),
        tmp.path().join("a/b")
    );
}

#[test]
fn a_detour_through_a_real_directory_is_taken_out() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir(tmp.path().join("d")).unwrap();
    let here = at(tmp.path());
    assert_eq!(
        here.absolute(Path::new("d/../f")).unwrap(),
        tmp.path().join("f")
    );
    // `x` is no directory: whatever `x/..` names, it stays as written.
    assert_eq!(
        here.absolute(Path::new("x/../f")).unwrap(),
        tmp.path().join("x/../f")
    );
}

#[cfg(unix)]
#[test]
fn a_detour_through_a_symlink_stays_as_written() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir(tmp.path().join("d")).unwrap();
    std::os::unix::fs::symlink(tmp.path().join("d"), tmp.path().join("l")).unwrap();
    let here = at(tmp.path());
    assert_eq!(
        here.absolute(Path::new("l/../f")).unwrap(),
        tmp.path().join("l/../f")
    );
}

#[test]
fn an_absolute_path_needs_no_current_directory() {
    let root = std::path::absolute("/").unwrap();
    let p = root.join("a").join("b");
    assert_eq!(nowhere().absolute(&p).unwrap(), p);
}

#[test]
fn without_a_current_directory_a_relative_path_is_an_error_naming_it() {
    let e = nowhere().absolute(Path::new("rel")).unwrap_err();
    assert!(matches!(e, Error::Io { .. }), "{e:?}");
    assert!(e.to_string().contains("rel"), "{e}");
    assert!(nowhere().dir().is_err());
}

#[test]
fn no_path_is_the_current_directory_itself() {
    let tmp = tempfile::tempdir().unwrap();
    let here = at(tmp.path());
    assert_eq!(here.or_dir(None).unwrap(), tmp.path());
    assert_eq!(
        here.or_dir(Some(PathBuf::from("x"))).unwrap(),
        tmp.path().join("x")
    );
}

#[test]
fn an_empty_path_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    assert!(at(tmp.path()).absolute(Path::new("")).is_err());
}

#[cfg(unix)]
#[test]
fn a_name_that_is_not_utf8_is_a_usage_error() {
    use std::os::unix::ffi::OsStrExt;
    let tmp = tempfile::tempdir().unwrap();
    let name = std::ffi::OsStr::from_bytes(b"bad\xff");
    let e = at(tmp.path()).absolute(Path::new(name)).unwrap_err();
    assert!(matches!(e, Error::Usage(_)), "{e:?}");
    assert!(e.to_string().contains("not valid UTF-8"), "{e}");
}
