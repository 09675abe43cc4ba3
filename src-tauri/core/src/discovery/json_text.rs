//! A CLI's JSON config edited as text: read the way the CLI reads it, and one member spliced in
//! or out of a list or object, every other byte (numbers, key order, duplicate keys, whitespace,
//! comments, a byte-order mark) left as it was.

use crate::clients::Reads;
use jsonc_parser::ast::Value as Node;
use jsonc_parser::common::Ranged;
use jsonc_parser::{CollectOptions, CommentCollectionStrategy, ParseOptions};
use serde_json::Value;
use std::ops::Range;

const BOM: &str = "\u{feff}";

/// The file's text split into the byte-order mark (kept as it is) and the JSON after it.
pub(super) fn split_bom(text: &str, reads: Reads) -> Result<(&'static str, &str), String> {
    match text.strip_prefix(BOM) {
        Some(body) if reads.bom => Ok((BOM, body)),
        Some(_) => Err("it starts with a byte-order mark, which the CLI does not read".into()),
        None => Ok(("", text)),
    }
}

fn options(reads: Reads) -> ParseOptions {
    ParseOptions {
        allow_comments: reads.comments,
        allow_loose_object_property_names: false,
        allow_trailing_commas: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    }
}

/// The JSON as the CLI reads it (`JSON.parse`, after stripping comments where it does), `None`
/// for an empty text; why not, when the CLI could not read it or it is not an object.
pub(super) fn parse(body: &str, reads: Reads) -> Result<Option<Node<'_>>, String> {
    let collect = CollectOptions {
        comments: CommentCollectionStrategy::Separate,
        tokens: false,
    };
    let parsed = jsonc_parser::parse_to_ast(body, &collect, &options(reads))
        .map_err(|e| format!("it is not JSON the CLI reads ({e})"))?;
    // The parser is lenient in places JSON.parse and serde_json are not (control characters in
    // strings, say): the text, its comments blanked as strip-json-comments does, must pass both.
    let mut strict = body.as_bytes().to_vec();
    for comments in parsed.comments.iter().flat_map(|m| m.values()) {
        for c in comments.iter() {
            let r = c.range();
            strict[r.start..r.end].fill(b' ');
        }
    }
    if !body.trim().is_empty() {
        serde_json::from_slice::<serde::de::IgnoredAny>(&strict)
            .map_err(|e| format!("it is not JSON the CLI reads ({e})"))?;
    }
    match parsed.value {
        None => Ok(None),
        Some(v @ Node::Object(_)) => Ok(Some(v)),
        Some(_) => Err("it is not a JSON object".into()),
    }
}

/// An object's or array's range and its members' ranges (a property from its key to its value).
#[derive(Debug, Clone)]
pub(super) struct List {
    pub at: Range<usize>,
    pub members: Vec<Range<usize>>,
}

pub(super) fn list(node: &Node) -> Option<List> {
    let span = |r: jsonc_parser::common::Range| r.start..r.end;
    match node {
        Node::Object(o) => Some(List {
            at: span(o.range),
            members: o.properties.iter().map(|p| span(p.range)).collect(),
        }),
        Node::Array(a) => Some(List {
            at: span(a.range),
            members: a.elements.iter().map(|e| span(e.range())).collect(),
        }),
        _ => None,
    }
}

/// `key`'s property in an object: its index and value; refused when the key appears twice (the
/// CLIs' readers disagree on which one counts).
pub(super) fn prop<'n, 'a>(
    node: &'n Node<'a>,
    key: &str,
) -> Result<Option<(usize, &'n Node<'a>)>, String> {
    let Node::Object(o) = node else {
        return Err("it is not a JSON object".into());
    };
    let mut found = o
        .properties
        .iter()
        .enumerate()
        .filter(|(_, p)| p.name.as_str() == key);
    let first = found.next().map(|(i, p)| (i, &p.value));
    match found.next() {
        Some(_) => Err(format!("its `{key}` appears twice")),
        None => Ok(first),
    }
}

/// A node as a plain JSON value (to compare it, or read a string in it).
pub(super) fn value(body: &str, node: &Node) -> Value {
    let r = node.range();
    jsonc_parser::parse_to_serde_value(&body[r.start..r.end], &ParseOptions::default())
        .unwrap_or(Value::Null)
}

/// The file's line ending and its indentation step.
pub(super) struct Style {
    pub nl: &'static str,
    pub unit: String,
}

pub(super) fn style(body: &str) -> Style {
    let nl = match body.contains("\r\n") {
        true => "\r\n",
        false => "\n",
    };
    // The first indented line's indentation.
    let unit = body
        .lines()
        .skip(1)
        .map(|l| &l[..l.len() - l.trim_start_matches([' ', '\t']).len()])
        .find(|w| !w.is_empty())
        .unwrap_or("  ")
        .to_owned();
    Style { nl, unit }
}

/// The indentation of the line `at` is on.
pub(super) fn indent_at(body: &str, at: usize) -> &str {
    let start = body[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = &body[start..];
    &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
}

/// `value` written in the file's style, its lines indented by `base`.
pub(super) fn pretty(value: &Value, style: &Style, base: &str) -> String {
    let mut out = Vec::new();
    let fmt = serde_json::ser::PrettyFormatter::with_indent(style.unit.as_bytes());
    let mut ser = serde_json::Serializer::with_formatter(&mut out, fmt);
    let text = match serde::Serialize::serialize(value, &mut ser) {
        Ok(()) => String::from_utf8_lossy(&out).into_owned(),
        Err(_) => value.to_string(),
    };
    text.replace('\n', &format!("{}{base}", style.nl))
}

fn splice(body: &str, cut: Range<usize>, with: &str) -> String {
    format!("{}{with}{}", &body[..cut.start], &body[cut.end..])
}

/// Where a comma sits between `from` and `to`, outside comments.
fn comma(body: &str, from: usize, to: usize) -> Option<usize> {
    let gap = &body.as_bytes()[from..to];
    let mut i = 0;
    while i < gap.len() {
        match (gap[i], gap.get(i + 1)) {
            (b',', _) => return Some(from + i),
            (b'/', Some(b'/')) => {
                while i < gap.len() && gap[i] != b'\n' {
                    i += 1;
                }
            }
            (b'/', Some(b'*')) => {
                i += 2;
                while i + 1 < gap.len() && !(gap[i] == b'*' && gap[i + 1] == b'/') {
                    i += 1;
                }
                i += 1;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// A gap holding only whitespace and at most one comma.
fn plain(gap: &str) -> bool {
    gap.chars().all(|c| c.is_whitespace() || c == ',') && gap.matches(',').count() <= 1
}

/// How a member goes into a list that has none: `Flush`, right after the bracket (so that taking
/// it out again gives back the list as it was), or `Lined`, on a line of its own.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Into {
    Flush,
    Lined,
}

/// `list` with `member` (given the indentation it starts at) put last.
pub(super) fn append(
    body: &str,
    list: &List,
    into: Into,
    style: &Style,
    member: impl Fn(&str) -> String,
) -> String {
    let open = list.at.start + 1;
    match list.members.last() {
        Some(last) => {
            let base = indent_at(body, last.start);
            let own_line = body[..last.start].ends_with(base)
                && body[..last.start - base.len()].ends_with('\n');
            let sep = match own_line {
                true => format!("{}{base}", style.nl),
                false => " ".to_owned(),
            };
            let at = last.end;
            splice(body, at..at, &format!(",{sep}{}", member(base)))
        }
        None => {
            let base = format!("{}{}", indent_at(body, list.at.start), style.unit);
            let text = match into {
                Into::Flush => member(&base),
                Into::Lined => format!("{}{base}{}", style.nl, member(&base)),
            };
            splice(body, open..open, &text)
        }
    }
}

/// `list` without its member `i`, with the comma and whitespace that went with it (the inverse of
/// [`append`]); comments beside it stay.
pub(super) fn remove(body: &str, list: &List, i: usize) -> String {
    let ms = &list.members;
    let this = ms[i].clone();
    let close = list.at.end - 1;
    if i > 0 {
        let prev = ms[i - 1].end;
        return match (
            plain(&body[prev..this.start]),
            comma(body, prev, this.start),
        ) {
            (true, _) | (false, None) => splice(body, prev..this.end, ""),
            (false, Some(c)) => splice(&splice(body, this.clone(), ""), c..c + 1, ""),
        };
    }
    let next = ms.get(1).map_or(close, |n| n.start);
    let after = comma(body, this.end, next);
    match (ms.len() > 1 && plain(&body[this.end..next]), after) {
        (true, _) => splice(body, this.start..next, ""),
        (false, Some(c)) => splice(&splice(body, c..c + 1, ""), this, ""),
        (false, None) => splice(body, this, ""),
    }
}

/// Whether the only member of `list` went in on a line of its own, with nothing but whitespace
/// around it: the list was made for it, and goes with it.
pub(super) fn made_for(body: &str, list: &List) -> bool {
    let [only] = list.members.as_slice() else {
        return false;
    };
    let lead = &body[list.at.start + 1..only.start];
    let tail = &body[only.end..list.at.end - 1];
    !lead.is_empty() && lead.trim().is_empty() && tail.trim().is_empty()
}

/// The root object without its only member, put in on a line of its own (the inverse of
/// `append(.., Into::Lined, ..)` into an empty root).
pub(super) fn remove_only_lined(body: &str, list: &List) -> String {
    let only = list.members[0].clone();
    let lead = &body[list.at.start + 1..only.start];
    match lead.trim().is_empty() {
        true => splice(body, list.at.start + 1..only.end, ""),
        false => remove(body, list, 0),
    }
}

/// `range` of the text replaced by `with`.
pub(super) fn replace(body: &str, range: Range<usize>, with: &str) -> String {
    splice(body, range, with)
}

#[cfg(test)]
#[path = "json_text_tests.rs"]
mod tests;
