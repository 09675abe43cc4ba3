//! The layer table and the file graph, checked: no import up or across the table
//! (tests/layers/table.rs), no cycle between files in the core or the shell, no source file over
//! 400 lines outside tests, no type name with two meanings in the core, no CLI named outside its
//! declaration and adapters (tests/layers/cli_names.rs), and docs/architecture.md's table
//! generated from the same data and its CLI files listed; `impl Instance` written only in
//! runtime/instance.rs (tests/layers/impls.rs).
//! `UPDATE_ARCHITECTURE=1` rewrites that table.

mod cli_names;
mod doc;
mod errors;
mod graph;
mod impls;
mod lex;
mod modules;
mod names;
mod shell;
mod table;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use table::{
    Layer, Part, ERRORS_APART, KNOWN_CYCLES, LAYERS, LONG_FILES, MAX_LINES, PARTS, SAME_MEANING,
    SAME_MODULE, SHELL_SEES,
};

fn core() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn repo() -> PathBuf {
    // Not canonicalized: on Windows that makes a verbatim path, which takes no `/` in a join.
    let core = core();
    core.parent()
        .and_then(Path::parent)
        .unwrap_or(&core)
        .to_path_buf()
}

/// `p` relative to `base`, with `/` between its parts on every OS (as the lists in table.rs are).
fn shown(p: &Path, base: &Path) -> String {
    let rel = p.strip_prefix(base).unwrap_or(p);
    let parts: Vec<String> = rel
        .iter()
        .map(|c| c.to_string_lossy().into_owned())
        .collect();
    parts.join("/")
}

/// What is wrong with the crate under `base` (root `base/src/lib.rs`): imports outside `layers`,
/// and cycles other than `known` (paths relative to `base`).
fn layer_problems(base: &Path, layers: &[Layer], parts: &[Part], known: &[&[&str]]) -> Vec<String> {
    let krate = modules::read(&base.join("src/lib.rs"));
    let layer_of = |file: &PathBuf| krate.files.get(file).and_then(|m| m.first()).cloned();
    let part_of = |file: &PathBuf| krate.files.get(file).and_then(|m| m.get(1)).cloned();
    let mut problems = Vec::new();
    for e in &krate.edges {
        let (Some(from), Some(to)) = (layer_of(&e.from), layer_of(&e.to)) else {
            continue;
        };
        let Some(layer) = layers.iter().find(|l| l.name == from) else {
            problems.push(format!(
                "{}: layer `{from}` is not in the layer table",
                shown(&e.from, base)
            ));
            continue;
        };
        if from == to {
            let (Some(a), Some(b)) = (part_of(&e.from), part_of(&e.to)) else {
                continue;
            };
            let Some(part) = parts.iter().find(|p| p.layer == from && p.name == a) else {
                if parts.iter().any(|p| p.layer == from) {
                    problems.push(format!(
                        "{}: `{from}::{a}` is not in the layer table's parts",
                        shown(&e.from, base)
                    ));
                }
                continue;
            };
            if a != b && !part.imports.contains(&b.as_str()) {
                problems.push(format!(
                    "{}:{}: `{from}::{a}` imports `{from}::{b}` ({}), which the layer table does not allow",
                    shown(&e.from, base),
                    e.line,
                    shown(&e.to, base)
                ));
            }
        } else if from == "error" && is_layer_error_file(&e.to, base) {
            // `Error` composes each layer's own error enum, and nothing else of the layer.
        } else if to != "error" && !layer.imports.contains(&to.as_str()) {
            problems.push(format!(
                "{}:{}: `{from}` imports `{to}` ({}), which the layer table does not allow",
                shown(&e.from, base),
                e.line,
                shown(&e.to, base)
            ));
        }
    }
    problems.extend(cycle_problems(&krate.edges, base, known));
    problems
}

/// A layer's own errors, `src/<layer>/error.rs`: the one file of a layer `error` may import.
fn is_layer_error_file(file: &Path, base: &Path) -> bool {
    let shown = shown(file, base);
    let parts: Vec<&str> = shown.split('/').collect();
    matches!(parts[..], ["src", layer, "error.rs"] if layer != "error")
}

fn cycle_problems(edges: &[modules::Edge], base: &Path, known: &[&[&str]]) -> Vec<String> {
    graph::cycles(edges, |p| shown(p, base))
        .into_iter()
        .filter(|(files, _)| {
            let files: BTreeSet<String> = files.iter().map(|f| shown(f, base)).collect();
            !known
                .iter()
                .any(|k| k.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>() == files)
        })
        .map(|(_, cycle)| format!("files import each other: {cycle}"))
        .collect()
}

#[test]
fn the_core_keeps_its_layers_and_has_no_cycles() {
    let problems = layer_problems(&core(), LAYERS, PARTS, KNOWN_CYCLES);
    assert!(
        problems.is_empty(),
        "redline-core:\n{}",
        problems.join("\n")
    );
}

/// Each layer below the runtime raises its own errors (`src/<layer>/error.rs`, its `code()`
/// beside it), composed once in `Error`; `Error`'s own variants are what several layers raise,
/// or the runtime's. A layer cannot name a higher layer's enum (the table forbids the import).
#[test]
fn each_layer_raises_its_own_errors() {
    let krate = modules::read(&core().join("src/lib.rs"));
    let files: Vec<(PathBuf, String)> = krate
        .files
        .iter()
        .filter_map(|(f, m)| Some((f.clone(), m.first()?.clone())))
        .collect();
    let problems = errors::problems(&core(), &files, ERRORS_APART);
    assert!(
        problems.is_empty(),
        "redline-core:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_shell_has_no_cycles() {
    let shell = repo().join("src-tauri");
    let mut problems = Vec::new();
    // Two programs: `redline` (CLI, servers, tray) and `redline-window` (the review window).
    for root in ["main.rs", "window/main.rs"] {
        let krate = modules::read(&shell.join(root));
        problems.extend(cycle_problems(&krate.edges, &shell, &[]));
    }
    assert!(
        problems.is_empty(),
        "the shell (src-tauri):\n{}",
        problems.join("\n")
    );
}

/// A test's own files, which may be long: a `tests` dir, `tests.rs`, `*_tests.rs`, `*.test.ts`.
fn is_test(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    path.components().any(|c| c.as_os_str() == "tests")
        || name == "tests.rs"
        || name.ends_with("_tests.rs")
        || name.ends_with(".test.ts")
}

fn sources(dir: &Path, ext: &str, deep: bool, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            if deep {
                sources(&path, ext, deep, out);
            }
        } else if path.extension().is_some_and(|e| e == ext) && !is_test(&path) {
            out.push(path);
        }
    }
}

/// Files over `max` lines under `root` (core, shell, bench, the UI), but for `allowed`.
fn long_files(root: &Path, max: usize, allowed: &[&str]) -> Vec<String> {
    let mut files = Vec::new();
    sources(&root.join("src-tauri/core/src"), "rs", true, &mut files);
    sources(&root.join("src-tauri"), "rs", false, &mut files);
    sources(&root.join("bench/src"), "rs", true, &mut files);
    sources(&root.join("ui/src"), "ts", true, &mut files);
    files
        .iter()
        .filter_map(|f| {
            let lines = std::fs::read_to_string(f)
                .unwrap_or_default()
                .lines()
                .count();
            let name = shown(f, root);
            (lines > max && !allowed.contains(&name.as_str())).then(|| {
                format!("{name}: {lines} lines (at most {max} outside tests: split it by noun)")
            })
        })
        .collect()
}

#[test]
fn a_type_name_means_one_thing_in_the_core() {
    let mut files = Vec::new();
    sources(&core().join("src"), "rs", true, &mut files);
    let found = names::problems(&files, &core(), SAME_MEANING);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn a_module_name_means_one_thing_in_the_core() {
    let mut files = Vec::new();
    sources(&core().join("src"), "rs", true, &mut files);
    let found = names::module_problems(&files, &core(), SAME_MODULE);
    assert!(found.is_empty(), "{}", found.join("\n"));
    // The check itself: two unrelated `answer` modules are reported, a listed name is not.
    let two = [
        PathBuf::from("src/a/answer.rs"),
        PathBuf::from("src/b/answer.rs"),
    ];
    assert_eq!(
        names::module_problems(&two, Path::new(""), SAME_MODULE).len(),
        1
    );
    assert!(names::module_problems(&two, Path::new(""), &[("answer", "")]).is_empty());
}

#[test]
fn no_source_file_is_over_400_lines_outside_tests() {
    let long = long_files(&repo(), MAX_LINES, LONG_FILES);
    assert!(long.is_empty(), "{}", long.join("\n"));
}

/// README and docs/cli.md name the CLIs Redline serves as `clients::words` says them, as the
/// help texts do: a CLI added to `clients::ALL` makes this block stale until regenerated.
#[test]
fn the_readme_and_the_cli_doc_name_every_cli_from_the_one_list() {
    let said = format!(
        "The CLIs Redline serves: {}.\n",
        redline_core::clients::words::served_sentence()
    );
    for doc in ["README.md", "docs/cli.md"] {
        doc::check_block(&repo().join(doc), "clis", &said);
    }
}

#[test]
fn the_architecture_doc_shows_the_layer_table() {
    doc::check_block(
        &repo().join("docs/architecture.md"),
        "layers",
        &table::markdown(),
    );
}

#[test]
fn the_shell_takes_from_the_core_only_what_the_table_says() {
    let shell = repo().join("src-tauri");
    let mut used: BTreeMap<String, String> = BTreeMap::new();
    for file in shell::shell_files(&shell) {
        let src = std::fs::read_to_string(&file).unwrap();
        for (module, line) in shell::core_modules(&src) {
            used.entry(module)
                .or_insert_with(|| format!("{}:{line}", shown(&file, &repo())));
        }
    }
    let allowed: BTreeSet<&str> = SHELL_SEES.iter().map(|(m, _)| *m).collect();
    let mut problems: Vec<String> = used
        .iter()
        .filter(|(m, _)| !allowed.contains(m.as_str()))
        .map(|(m, at)| format!("{at}: the shell uses `redline_core::{m}`, which table.rs's SHELL_SEES does not list"))
        .collect();
    problems.extend(
        allowed
            .iter()
            .filter(|m| !used.contains_key(**m))
            .map(|m| format!("SHELL_SEES lists `{m}`, which the shell no longer uses")),
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    doc::check_block(
        &repo().join("docs/architecture.md"),
        "shell",
        &table::shell_markdown(),
    );
}

#[test]
fn the_architecture_doc_lists_every_server() {
    let found = shell::servers(&core().join("src/runtime/companion"));
    assert!(found.len() >= 4, "no `impl Server for` found: {found:?}");
    let list: String = found
        .iter()
        .map(|(file, ty)| format!("- `runtime/companion/{file}`: `{ty}`\n"))
        .collect();
    doc::check_block(&repo().join("docs/architecture.md"), "servers", &list);
}

#[test]
fn the_shell_check_reads_grouped_and_plain_uses() {
    let src = "use redline_core::{api::status::{self, X}, runtime, Error};\n\
               // use redline_core::doctor;\n\
               fn f() { let _ = redline_core::surfaces::menu::Item; let s = \"redline_core::clients\"; }\n";
    let found: Vec<String> = shell::core_modules(src).into_keys().collect();
    assert_eq!(found, ["api", "error", "runtime", "surfaces"]);
}

/// The checker itself: a crate with an upward import, a sideways one, one between two protocols,
/// a cycle, a long file and a re-exporting facade, each where a check must see it (or, for the
/// facade and test code, not).
#[test]
fn the_checker_reports_an_upward_import_a_cycle_and_a_long_file() {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path();
    let write = |rel: &str, text: &str| {
        let p = base.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    write("src/lib.rs", "mod error;\npub mod clients;\npub mod platform;\npub mod doctor;\npub mod surfaces;\npub mod runtime;\npub mod protocols;\npub mod workspace;\npub use error::Error;\n");
    write("src/error.rs", "pub struct Error;\n");
    // Upward, in a grouped use; the same path in a comment, a string and test code is no import.
    write(
        "src/clients.rs",
        "// use crate::runtime::Up;\nuse crate::{error::Error, runtime::{Up, self}};\nconst S: &str = \"crate::doctor::X\";\n\
         #[cfg(test)]\nmod tests { use crate::doctor::X; }\n",
    );
    // Sideways, as a path in code.
    write(
        "src/doctor.rs",
        "pub struct X;\nfn f() { let _ = crate::surfaces::Y; }\n",
    );
    // A visibility path is no import.
    write(
        "src/surfaces.rs",
        "pub struct Y;\npub(in crate::runtime) struct Z;\n",
    );
    // A cycle of three files, closed through `super::` and through the re-export in mod.rs.
    write(
        "src/platform/mod.rs",
        "mod a;\nmod b;\nmod c;\npub use a::A;\n",
    );
    write("src/platform/a.rs", "use super::b::B;\npub struct A;\n");
    write(
        "src/platform/b.rs",
        "pub struct B;\nfn f() { super::c::C; }\n",
    );
    write(
        "src/platform/c.rs",
        "pub struct C;\nfn f() -> crate::platform::A { todo!() }\n",
    );
    // A facade re-exporting its children is no cycle: e.rs's `super::D` is d.rs's, and d.rs may
    // use what runtime.rs itself defines.
    write(
        "src/runtime.rs",
        "mod d;\nmod e;\npub use d::D;\npub struct Up;\n",
    );
    write("src/runtime/d.rs", "pub struct D;\nfn f(_: super::Up) {}\n");
    write("src/runtime/e.rs", "use super::D;\nuse crate::clients;\n");
    // A name lent by `pub use` and used by the lender too is an import: mod.rs ↔ w.rs.
    write(
        "src/workspace/mod.rs",
        "mod w;\npub use w::W;\npub struct Root;\nconst ALL: [W; 0] = [];\n",
    );
    write(
        "src/workspace/w.rs",
        "pub struct W;\nfn f(_: super::Root) {}\n",
    );
    // Inside protocols, an adapter reaching another: only copilot may, and only mcp_http.
    write(
        "src/protocols/mod.rs",
        "pub mod copilot;\npub mod mcp_http;\npub mod mcp_ws;\n",
    );
    write("src/protocols/mcp_http.rs", "pub struct App;\n");
    write(
        "src/protocols/mcp_ws.rs",
        "use crate::protocols::mcp_http::App;\n",
    );
    write("src/protocols/copilot.rs", "use super::mcp_http::App;\n");
    let problems = layer_problems(base, LAYERS, PARTS, &[]);
    let text = problems.join("\n");
    assert!(
        text.contains("src/clients.rs:2: `clients` imports `runtime` (src/runtime.rs)"),
        "{text}"
    );
    assert!(
        text.contains("src/doctor.rs:2: `doctor` imports `surfaces` (src/surfaces.rs)"),
        "{text}"
    );
    assert!(
        text.contains("files import each other: src/platform/a.rs:1 → src/platform/b.rs:2 → src/platform/c.rs:2 → src/platform/a.rs"),
        "{text}"
    );
    assert!(
        text.contains("src/protocols/mcp_ws.rs:1: `protocols::mcp_ws` imports `protocols::mcp_http` (src/protocols/mcp_http.rs)"),
        "{text}"
    );
    assert!(
        text.contains("files import each other: src/workspace/mod.rs:2 → src/workspace/w.rs:2 → src/workspace/mod.rs"),
        "{text}"
    );
    assert_eq!(problems.len(), 5, "{text}");
    // The same cycle, listed as known, is let through.
    let known: &[&[&str]] = &[&[
        "src/platform/a.rs",
        "src/platform/b.rs",
        "src/platform/c.rs",
    ]];
    assert_eq!(layer_problems(base, LAYERS, PARTS, known).len(), 4);

    write("src-tauri/core/src/long.rs", &"//\n".repeat(401));
    write("src-tauri/core/src/long_tests.rs", &"//\n".repeat(401));
    write("src-tauri/main.rs", &"//\n".repeat(400));
    write("bench/src/main.rs", "");
    write("ui/src/app.ts", &"//\n".repeat(401));
    assert_eq!(
        long_files(base, 400, &["ui/src/app.ts"]),
        ["src-tauri/core/src/long.rs: 401 lines (at most 400 outside tests: split it by noun)"]
    );

    // Two files lending out a type of one name is a problem, unless the name means one thing; a
    // private type, a type in test code, or a word that is no definition is not one.
    write("src/review.rs", "pub struct Reply;\npub(crate) enum Shared {}\nstruct Own;\n#[cfg(test)]\npub struct Probe;\n");
    write(
        "src/control.rs",
        "pub(super) enum Reply { Ok }\npub type Shared = u8;\nstruct Own;\npub struct Probe;\n",
    );
    write("src/note.rs", "// struct Reply\nlet structure = 1;\n");
    let files: Vec<PathBuf> = ["review", "control", "note"]
        .iter()
        .map(|f| base.join(format!("src/{f}.rs")))
        .collect();
    assert_eq!(
        names::problems(&files, base, &["Shared"]),
        ["`Reply` means different things in src/review.rs and src/control.rs: give each its own name"]
    );
}

/// The core's and the shell's code, each file with its path relative to the repository.
fn product_sources() -> Vec<(String, String)> {
    let mut files = Vec::new();
    sources(&core().join("src"), "rs", true, &mut files);
    sources(&repo().join("src-tauri"), "rs", false, &mut files);
    files
        .iter()
        .map(|f| {
            (
                shown(f, &repo()),
                std::fs::read_to_string(f).unwrap_or_default(),
            )
        })
        .collect()
}

#[test]
fn no_cli_is_named_outside_its_declaration_and_adapters() {
    let found = cli_names::problems(&product_sources(), &cli_names::known(), cli_names::HOMONYMS);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// docs/architecture.md's CLI section names every file of `clients/` (tests aside), so that it
/// cannot fall behind the CLIs again.
#[test]
fn the_architecture_doc_names_every_cli_file() {
    let doc = std::fs::read_to_string(repo().join("docs/architecture.md")).unwrap();
    let start = "**Each CLI is declared once";
    let Some(section) = doc.find(start).map(|at| &doc[at..]) else {
        panic!("docs/architecture.md has no paragraph starting `{start}`");
    };
    let section = section.split("Adding a CLI").next().unwrap_or(section);
    let mut files = Vec::new();
    sources(&core().join("src/clients"), "rs", false, &mut files);
    let missing: Vec<String> = files
        .iter()
        .filter_map(|f| f.file_name()?.to_str().map(str::to_owned))
        .filter(|name| name != "mod.rs" && !section.contains(&format!("`{name}`")))
        .filter(|name| !section.contains(&format!("`clients/{name}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/architecture.md's CLI section does not name clients/{}",
        missing.join(", clients/")
    );
}

/// `Instance` is split by what it owns: each part is a type of its own, and only
/// runtime/instance.rs, which holds and wires the parts, writes `impl Instance`.
#[test]
fn no_file_but_instance_rs_writes_impl_instance() {
    const HOME: &str = "src-tauri/core/src/runtime/instance.rs";
    let sources = product_sources();
    let elsewhere: Vec<&str> = sources
        .iter()
        .filter(|(path, src)| path != HOME && impls::writes_impl_of(src, "Instance"))
        .map(|(path, _)| path.as_str())
        .collect();
    assert!(
        elsewhere.is_empty(),
        "`impl Instance` outside {HOME}: {} (give the state a part of its own, or a function \
         that takes only the parts it needs)",
        elsewhere.join(", ")
    );
    let home = sources.iter().find(|(path, _)| path == HOME);
    assert!(
        home.is_some_and(|(_, src)| impls::writes_impl_of(src, "Instance")),
        "{HOME} has no `impl Instance`: the check reads nothing"
    );

    // The checker itself: inherent impls, plain or by path, generic or not, are seen; a trait's
    // impl, another type, a comment and a string are not.
    for written in [
        "impl Instance {\n}",
        "impl crate::runtime::instance::Instance { fn f(&self) {} }",
        "impl<F: Fn() -> u8> Instance<F> where F: Send {}",
    ] {
        assert!(impls::writes_impl_of(written, "Instance"), "{written}");
    }
    for not in [
        "impl Handle<ReviewsList> for Instance {}",
        "impl<T> From<T> for crate::Instance {}",
        "impl Instances {}",
        "// impl Instance {}\nconst S: &str = \"impl Instance {}\";",
    ] {
        assert!(!impls::writes_impl_of(not, "Instance"), "{not}");
    }
}

#[test]
fn the_error_check_reports_a_lone_layers_variant_and_an_enum_not_composed() {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path();
    let write = |rel: &str, text: &str| {
        let p = base.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
        p
    };
    write(
        "src/error.rs",
        "use crate::review::ReviewError;\npub enum Error {\n    #[error(transparent)]\n    Review(#[from] ReviewError),\n    \
         #[error(\"{0}\")]\n    Lone(String),\n    Shared,\n    Own { at: u32 },\n}\n",
    );
    write(
        "src/review/error.rs",
        "use crate::error::FaultCode;\npub enum ReviewError { Gone }\nimpl ReviewError {\n    pub fn code(&self) -> FaultCode { todo!() }\n}\n",
    );
    write(
        "src/workspace/error.rs",
        "pub enum WorkspaceError { Off }\n",
    );
    let files = vec![
        // Named in a comment and in tests only: not raised there.
        (write("src/review/a.rs", "fn f() -> Error { Error::Lone(String::new()) }\n// Error::Shared\n"), "review".to_string()),
        (write("src/workspace/b.rs", "fn f() -> Error { keyring::Error::Shared }\n#[cfg(test)]\nmod t { fn g() { Error::Shared; } }\n"), "workspace".to_string()),
        (write("src/net/c.rs", "fn f() { crate::error::Error::Shared; }\n"), "net".to_string()),
        (write("src/review/d.rs", "fn f() { Error::Shared; }\n"), "review".to_string()),
        (write("src/runtime/e.rs", "fn f() { Error::Own { at: 1 }; }\n"), "runtime".to_string()),
    ];
    let problems = errors::problems(base, &files, &["apart"]);
    assert_eq!(
        problems,
        [
            "src/workspace/error.rs: `WorkspaceError` is not composed in `Error` (src/error.rs): `WorkspaceError`s reach no edge",
            "src/workspace/error.rs: `WorkspaceError` has no `code()` beside it (layer `workspace`)",
            "`Error::Lone` is raised only in `review`: it belongs in review's own error enum (src/review/error.rs)",
        ]
    );
}
