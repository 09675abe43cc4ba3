//! docs/architecture.md's generated blocks: each lies between `<!-- NAME:begin -->` and
//! `<!-- NAME:end -->`, is made from the code or the tables, and fails the test when stale.
//! `UPDATE_ARCHITECTURE=1` rewrites them.

use std::path::Path;

/// Checks (or, with `UPDATE_ARCHITECTURE`, rewrites) the block `name` of the doc at `path`.
pub fn check_block(path: &Path, name: &str, generated: &str) {
    let (begin, end) = (
        format!("<!-- {name}:begin -->"),
        format!("<!-- {name}:end -->"),
    );
    let doc = std::fs::read_to_string(path).unwrap();
    let (Some(b), Some(e)) = (doc.find(&begin), doc.find(&end)) else {
        panic!(
            "{} has no block between `{begin}` and `{end}`",
            path.display()
        );
    };
    let whole = format!("{}{begin}\n{generated}{}", &doc[..b], &doc[e..]);
    if std::env::var_os("UPDATE_ARCHITECTURE").is_some() {
        std::fs::write(path, &whole).unwrap();
    }
    let committed = std::fs::read_to_string(path).unwrap();
    assert!(
        committed == whole,
        "{}'s `{name}` block is stale; run \
         UPDATE_ARCHITECTURE=1 cargo test -p redline-core --test layers\n--- generated ---\n{generated}",
        path.display()
    );
}
