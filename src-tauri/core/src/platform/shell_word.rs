//! A path written into a command line the user copies into a POSIX shell: bare when plain, else
//! single-quoted, so `;`, `$()`, spaces and quotes in it stay part of the path.

use std::path::Path;

/// `p` as the shell reads it back. `~` is not plain: bare at a word's start, the shell expands it.
pub fn quote(p: &Path) -> String {
    let s = p.to_string_lossy();
    if s.bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"/._-+:@".contains(&b))
    {
        s.into_owned()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}
