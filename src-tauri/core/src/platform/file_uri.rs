//! `file://` URIs for the paths the CLIs are told about, escaped as RFC 8089 and the `url` crate
//! say (spaces, `%`, `#`, `?`, non-ASCII), with Windows drive letters as `file:///C:/…`.

use std::path::Path;

/// The URI of an absolute path; a relative one (never sent by Redline) is escaped as if it
/// hung off the root, so the result is still a valid URI.
pub fn of(path: &Path) -> String {
    if let Ok(u) = url::Url::from_file_path(path) {
        return u.into();
    }
    let mut u = url::Url::parse("file:///").expect("a constant URL parses");
    let p = path.to_string_lossy().replace('\\', "/");
    u.set_path(&p);
    u.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn escapes_what_a_uri_cannot_carry() {
        assert_eq!(of(Path::new("/a b/c")), "file:///a%20b/c");
        assert_eq!(of(Path::new("/a%b/c#d?e")), "file:///a%25b/c%23d%3Fe");
        assert_eq!(of(Path::new("/é/ü.txt")), "file:///%C3%A9/%C3%BC.txt");
        assert_eq!(of(Path::new("rel/x")), "file:///rel/x");
    }

    #[cfg(windows)]
    #[test]
    fn windows_paths_keep_their_drive() {
        assert_eq!(of(Path::new(r"C:\a b\c.txt")), "file:///C:/a%20b/c.txt");
    }
}
