//! The npm package a file belongs to, found by one walk up to the `package.json`s above it: "who
//! asked" names a CLI by it, doctor reads a CLI's version from it.

use crate::platform::small_file;
use serde_json::Value;
use std::path::Path;

/// How far up a package's root may be from a script inside it.
const DEPTH: usize = 8;

/// The largest `package.json` read: a CLI's is a few KiB. The directories are the peer's own, so
/// what is there is its choice: a bigger one is passed over, not read.
const MANIFEST_CAP: u64 = 64 << 10;

/// A package's name and version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Package {
    pub name: String,
    pub version: String,
}

impl Package {
    fn from_manifest(v: &Value) -> Option<Package> {
        Some(Package {
            name: v["name"].as_str()?.to_owned(),
            version: v["version"].as_str()?.to_owned(),
        })
    }
}

/// The package a script belongs to: the nearest `package.json` above its real path with a name
/// and version.
pub fn of(script: &Path) -> Option<Package> {
    let real = dunce::canonicalize(script).ok()?;
    if !real.is_file() {
        return None;
    }
    let found = manifests(&real).find_map(|v| Package::from_manifest(&v));
    found
}

/// The version of `package` that `command` (on PATH) runs. npm links the command to a script
/// inside the package; a Windows `.cmd` shim sits beside `node_modules` instead.
pub fn version_of(command: &Path, package: &str) -> Option<String> {
    let real = dunce::canonicalize(command).unwrap_or_else(|_| command.to_owned());
    let beside = command
        .parent()
        .and_then(|d| read(&d.join("node_modules").join(package).join("package.json")));
    let named = beside
        .into_iter()
        .chain(manifests(&real))
        .find(|v| v["name"] == package);
    named.and_then(|v| v["version"].as_str().map(str::to_owned))
}

/// The parseable `package.json`s above `real`, nearest first. `real` is canonical, so each
/// directory was symlink-free when resolved; one the peer swaps for a symlink afterwards can only
/// lead to another directory, where the same reader still opens no final symlink, no FIFO or
/// device and nothing over the cap. Nothing found there is beyond what the peer (a process of
/// this same user: `peer::describe` looks into no other) could read itself.
fn manifests(real: &Path) -> impl Iterator<Item = Value> + '_ {
    real.ancestors()
        .skip(1)
        .take(DEPTH)
        .filter_map(|d| read(&d.join("package.json")))
}

fn read(path: &Path) -> Option<Value> {
    serde_json::from_slice(&small_file::read(path, MANIFEST_CAP).ok()?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_nearest_named_package_and_a_named_version() {
        let tmp = tempfile::tempdir().unwrap();
        let pkg = tmp.path().join("lib/node_modules/@google/gemini-cli");
        std::fs::create_dir_all(pkg.join("dist")).unwrap();
        std::fs::write(
            pkg.join("package.json"),
            r#"{"name":"@google/gemini-cli","version":"0.61.0"}"#,
        )
        .unwrap();
        // A nameless manifest nearer the script (as bundles ship) is passed over.
        std::fs::write(pkg.join("dist/package.json"), r#"{"type":"module"}"#).unwrap();
        let script = pkg.join("dist/index.js");
        std::fs::write(&script, "").unwrap();
        assert_eq!(
            of(&script),
            Some(Package {
                name: "@google/gemini-cli".into(),
                version: "0.61.0".into()
            })
        );
        assert_eq!(of(&pkg.join("dist")), None, "a directory is no script");
        assert_eq!(
            version_of(&script, "@google/gemini-cli").as_deref(),
            Some("0.61.0")
        );
        assert_eq!(version_of(&script, "@qwen-code/qwen-code"), None);
        // The Windows layout: the shim beside node_modules.
        let shim = tmp.path().join("lib/gemini.cmd");
        std::fs::write(&shim, "").unwrap();
        assert_eq!(
            version_of(&shim, "@google/gemini-cli").as_deref(),
            Some("0.61.0")
        );
    }
}
