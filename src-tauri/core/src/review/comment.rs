//! Comments the user writes on lines of a diff (a turn's or one edit's), and the one message
//! that carries them to the model: each as `path:line`, the line quoted, and the text.

use crate::review::ReviewError;
use serde::{Deserialize, Serialize};

/// The most comments one answer carries: more is refused, not cut (the user would not know
/// which were dropped).
pub const MAX_COMMENTS: usize = 200;
/// The longest comment, in characters (as a reason: `reason::MAX_REASON_CHARS`).
pub const MAX_COMMENT_CHARS: usize = 2000;
/// The longest quoted line, in characters: a longer line is quoted up to it and marked cut
/// (the anchor still names it exactly).
pub const MAX_QUOTE_CHARS: usize = 300;

/// One comment on a line of a diff.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct Comment {
    /// The file, relative to the workspace root, `/`-separated.
    pub path: String,
    /// 1-based, in the file as the change left it (the right side of the diff); for a line
    /// the change removed, its line in the file as it was.
    pub line: u32,
    /// The line commented on, as the diff shows it.
    pub quote: String,
    /// What the user wrote.
    pub text: String,
}

/// The message the model reads: the comments in the order given, then `instructions` (the
/// user's own words, if any). `None`: there is nothing to say (no comment, no words).
///
/// Each comment is `- path:line`, the line quoted after `> `, and the text indented under it,
/// so a model (or a person reading the transcript) sees what was pointed at without opening
/// the file.
pub fn message(comments: &[Comment], instructions: Option<&str>) -> Option<String> {
    let words = instructions.map(str::trim).filter(|w| !w.is_empty());
    if comments.is_empty() {
        return words.map(str::to_owned);
    }
    let mut out = String::from("Review comments on your changes:\n");
    for c in comments {
        out.push_str(&format!("\n- {}:{}\n", c.path, c.line));
        out.push_str(&format!("  > {}\n", quoted(&c.quote)));
        for line in c.text.trim().lines() {
            out.push_str(&format!("  {line}\n"));
        }
    }
    if let Some(words) = words {
        out.push('\n');
        out.push_str(words);
        out.push('\n');
    }
    Some(out.trim_end().to_owned())
}

/// The message of an answer with `comments` and the user's `reason`, each cleaned and bounded
/// on its own (`reason::clean`, `clean`) rather than the message: with comments it is longer
/// than any one bound, and what the user wrote is refused, never cut. `None`: nothing to say.
pub fn compose(
    comments: Vec<Comment>,
    reason: Option<&str>,
) -> Result<Option<String>, ReviewError> {
    let reason = match reason {
        Some(raw) => crate::review::reason::clean(raw)?,
        None => None,
    };
    Ok(message(&clean(comments)?, reason.as_deref()))
}

/// Checks `comments` before they are sent: within the bounds, each with text and a line.
/// Their text is cleaned as a reason is (`reason::clean`: line endings, control characters).
pub fn clean(comments: Vec<Comment>) -> Result<Vec<Comment>, ReviewError> {
    if comments.len() > MAX_COMMENTS {
        return Err(ReviewError::BadComment(format!(
            "{} comments: at most {MAX_COMMENTS} are sent at once",
            comments.len()
        )));
    }
    comments.into_iter().map(clean_one).collect()
}

fn clean_one(mut c: Comment) -> Result<Comment, ReviewError> {
    let anchor = format!("{}:{}", c.path, c.line);
    if c.line == 0 || c.path.trim().is_empty() {
        return Err(ReviewError::BadComment(format!(
            "the comment on {anchor:?} names no line (lines count from 1)"
        )));
    }
    let chars = c.text.chars().count();
    if chars > MAX_COMMENT_CHARS {
        return Err(ReviewError::BadComment(format!(
            "the comment on {anchor} is {chars} characters; at most {MAX_COMMENT_CHARS}"
        )));
    }
    c.text = crate::review::reason::clean(&c.text)
        .map_err(|e| ReviewError::BadComment(e.to_string()))?
        .ok_or_else(|| ReviewError::BadComment(format!("the comment on {anchor} is empty")))?;
    c.path = no_controls(&c.path);
    c.quote = no_controls(&c.quote);
    Ok(c)
}

/// `s` with control characters (a newline in a file name, an escape sequence) shown as `?`:
/// one comment's anchor and quote stay on their lines.
fn no_controls(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

/// The quote on one line, cut at `MAX_QUOTE_CHARS` with `…`.
fn quoted(line: &str) -> String {
    let line = line.trim_end_matches(['\r', '\n']);
    match line.char_indices().nth(MAX_QUOTE_CHARS) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(path: &str, line: u32, quote: &str, text: &str) -> Comment {
        Comment {
            path: path.into(),
            line,
            quote: quote.into(),
            text: text.into(),
        }
    }

    #[test]
    fn each_comment_is_anchored_quoted_and_followed_by_the_instructions() {
        let m = message(
            &[
                c("src/a.rs", 12, "let x = 1;", "name it count"),
                c("b.txt", 3, "  old\r\n", "keep\ntwo lines"),
            ],
            Some("  then run the tests "),
        )
        .unwrap();
        assert_eq!(
            m,
            "Review comments on your changes:\n\n- src/a.rs:12\n  > let x = 1;\n  name it \
             count\n\n- b.txt:3\n  >   old\n  keep\n  two lines\n\nthen run the tests"
        );
    }

    #[test]
    fn no_comment_is_the_instructions_alone_and_nothing_is_none() {
        assert_eq!(message(&[], Some(" go on ")).as_deref(), Some("go on"));
        assert_eq!(message(&[], Some("  ")), None);
        assert_eq!(message(&[], None), None);
    }

    #[test]
    fn a_long_line_is_quoted_cut() {
        let long = "x".repeat(MAX_QUOTE_CHARS + 5);
        let m = message(&[c("a", 1, &long, "t")], None).unwrap();
        assert!(m.contains(&format!("> {}…\n", "x".repeat(MAX_QUOTE_CHARS))));
    }

    #[test]
    fn bad_comments_are_refused_and_controls_in_names_are_shown_as_marks() {
        assert!(clean(vec![c("a", 0, "", "t")]).is_err());
        assert!(clean(vec![c("a", 1, "", " \n ")]).is_err());
        assert!(clean(vec![c("a", 1, "", &"y".repeat(MAX_COMMENT_CHARS + 1))]).is_err());
        assert!(clean(vec![c("a", 1, "", "t"); MAX_COMMENTS + 1]).is_err());
        let kept = clean(vec![c("a\nb\u{1b}", 2, "q\u{7}", " t\r\n")]).unwrap();
        assert_eq!(kept, vec![c("a?b?", 2, "q?", "t")]);
    }
}
