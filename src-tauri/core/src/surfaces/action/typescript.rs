//! The review window's client functions, generated from the action list (`ui/src/actions.ts`,
//! kept current by the bindings test): one per `Page` action, named for it, its parameters its
//! request's fields in order, its promise typed with its reply.

use std::collections::BTreeSet;
use std::fmt::Write;

/// What the generator needs of one `Page` action (made by `actions!`).
pub(crate) struct Client {
    pub name: &'static str,
    /// Its request type's TypeScript name, and its declaration.
    pub request: String,
    pub decl: String,
    pub reply: String,
    /// Each field's Rust name, and whether it is an `Option` (a trailing run of them may be
    /// left out by the caller).
    pub fields: Vec<(&'static str, bool)>,
}

/// The request types' declarations, for `ui/src/bindings.ts`.
pub fn declarations() -> Vec<String> {
    let cfg = ts_rs::Config::default();
    super::list::page_clients(&cfg)
        .into_iter()
        .map(|c| c.decl)
        .collect()
}

/// The whole `ui/src/actions.ts`.
pub fn client() -> String {
    let clients = super::list::page_clients(&ts_rs::Config::default());
    let mut out = String::from(
        "// Generated from the action list by `redline_core::surfaces::action`; do not edit.\n\
         // Regenerate: UPDATE_BINDINGS=1 cargo test -p redline-core --test it bindings\n",
    );
    let _ = writeln!(
        out,
        "import type {{ {} }} from './bindings';",
        imports(&clients)
    );
    out.push_str("import { invokeAction } from './invoke';\n\n");
    out.push_str(
        "/** The actions the page may ask, by wire name. */\nexport const PAGE_ACTIONS = [\n",
    );
    for c in &clients {
        let _ = writeln!(out, "  '{}',", c.name);
    }
    out.push_str("] as const;\n");
    for c in &clients {
        out.push('\n');
        out.push_str(&function(c));
    }
    out
}

/// `export const name = (params) => invokeAction<Reply>('name', { fields });`
fn function(c: &Client) -> String {
    let optional_from = c
        .fields
        .iter()
        .rposition(|(_, option)| !option)
        .map_or(0, |last| last + 1);
    let params: Vec<String> = c
        .fields
        .iter()
        .enumerate()
        .map(|(i, (field, _))| {
            let mark = if i >= optional_from { "?" } else { "" };
            format!("{}{mark}: {}['{}']", camel(field), c.request, camel(field))
        })
        .collect();
    let args: Vec<String> = c.fields.iter().map(|(f, _)| camel(f)).collect();
    let args = if args.is_empty() {
        "{}".to_owned()
    } else {
        format!("{{ {} }}", args.join(", "))
    };
    let reply = if c.reply == "null" { "void" } else { &c.reply };
    format!(
        "export const {} = ({}) =>\n  invokeAction<{reply}>('{}', {args});\n",
        c.name,
        params.join(", "),
        c.name,
    )
}

/// Every type the functions name: the requests with fields, and the named types in the replies.
fn imports(clients: &[Client]) -> String {
    let mut names = BTreeSet::new();
    for c in clients {
        if !c.fields.is_empty() {
            names.insert(c.request.clone());
        }
        for word in c.reply.split(|ch: char| !ch.is_ascii_alphanumeric()) {
            if word.starts_with(|ch: char| ch.is_ascii_uppercase()) && word != "Array" {
                names.insert(word.to_owned());
            }
        }
    }
    names.into_iter().collect::<Vec<_>>().join(", ")
}

/// `line_start` as serde's `camelCase` writes it: `lineStart`.
fn camel(snake: &str) -> String {
    let mut out = String::with_capacity(snake.len());
    let mut upper = false;
    for ch in snake.chars() {
        if ch == '_' {
            upper = true;
        } else if upper {
            out.push(ch.to_ascii_uppercase());
            upper = false;
        } else {
            out.push(ch);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_page_action_has_its_client_function() {
        let client = client();
        let clients = super::super::list::page_clients(&ts_rs::Config::default());
        assert!(!clients.is_empty());
        for c in &clients {
            assert!(
                client.contains(&format!("export const {} = (", c.name)),
                "no client function for {}",
                c.name
            );
        }
    }

    #[test]
    fn a_trailing_option_may_be_left_out_and_fields_are_camel_case() {
        let c = Client {
            name: "reviewMention",
            request: "ReviewMention".into(),
            decl: String::new(),
            reply: "null".into(),
            fields: vec![("id", false), ("line_start", false), ("reason", true)],
        };
        assert_eq!(
            function(&c),
            "export const reviewMention = (id: ReviewMention['id'], lineStart: ReviewMention['lineStart'], reason?: ReviewMention['reason']) =>\n  invokeAction<void>('reviewMention', { id, lineStart, reason });\n"
        );
    }
}
