//! Rust source as the tokens an import check needs: identifiers, `::`, punctuation and string
//! contents, with comments dropped and literals never mistaken for paths.

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tok {
    Ident(String),
    /// `::`
    PathSep,
    Punct(char),
    /// A string literal's raw text (a `#[path = "…"]` needs it).
    Str(String),
    /// A number, char or lifetime: kept as a token so it separates what is around it.
    Other,
}

#[derive(Debug, Clone)]
pub struct Token {
    pub tok: Tok,
    pub line: usize,
}

pub fn tokens(src: &str) -> Vec<Token> {
    let c: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    let at = |i: usize| c.get(i).copied().unwrap_or('\0');
    while i < c.len() {
        let start_line = line;
        let ch = c[i];
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && at(i + 1) == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && at(i + 1) == '*' {
            // Block comments nest.
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    line += usize::from(c[i] == '\n');
                    i += 1;
                }
            }
        } else if let Some(open) = raw_string_start(&c, i) {
            // r"…", r#"…"#, br#"…"#, cr"…": no escapes, ends at `"` and as many `#`.
            let (quote, hashes) = open;
            let mut j = quote + 1;
            let text_start = j;
            loop {
                if j >= c.len() {
                    break;
                }
                if c[j] == '"' && (0..hashes).all(|h| at(j + 1 + h) == '#') {
                    break;
                }
                line += usize::from(c[j] == '\n');
                j += 1;
            }
            let text: String = c[text_start..j.min(c.len())].iter().collect();
            out.push(Token {
                tok: Tok::Str(text),
                line: start_line,
            });
            i = j + 1 + hashes;
        } else if ch == '"' || ((ch == 'b' || ch == 'c') && at(i + 1) == '"') {
            let mut j = if ch == '"' { i + 1 } else { i + 2 };
            let text_start = j;
            while j < c.len() && c[j] != '"' {
                if c[j] == '\\' {
                    j += 1;
                }
                line += usize::from(at(j) == '\n');
                j += 1;
            }
            let text: String = c[text_start..j.min(c.len())].iter().collect();
            out.push(Token {
                tok: Tok::Str(text),
                line: start_line,
            });
            i = j + 1;
        } else if ch == '\'' || (ch == 'b' && at(i + 1) == '\'') {
            let q = if ch == '\'' { i } else { i + 1 };
            if at(q + 1) == '\\' {
                // An escaped char: '\n', '\'', '\u{…}'.
                let mut j = q + 3;
                while j < c.len() && c[j] != '\'' {
                    j += 1;
                }
                i = j + 1;
            } else if at(q + 2) == '\'' {
                i = q + 3;
            } else {
                // A lifetime or label: the quote, then an identifier.
                i = q + 1;
                while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                    i += 1;
                }
            }
            out.push(Token {
                tok: Tok::Other,
                line: start_line,
            });
        } else if ch.is_ascii_digit() {
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_' || c[i] == '.') {
                // `1..2` is a range, not a number.
                if c[i] == '.' && at(i + 1) == '.' {
                    break;
                }
                i += 1;
            }
            out.push(Token {
                tok: Tok::Other,
                line: start_line,
            });
        } else if ch.is_alphabetic() || ch == '_' {
            if ch == 'r' && at(i + 1) == '#' {
                i += 2;
            }
            let s = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            let word: String = c[s..i].iter().collect();
            out.push(Token {
                tok: Tok::Ident(word),
                line: start_line,
            });
        } else if ch == ':' && at(i + 1) == ':' {
            out.push(Token {
                tok: Tok::PathSep,
                line: start_line,
            });
            i += 2;
        } else {
            out.push(Token {
                tok: Tok::Punct(ch),
                line: start_line,
            });
            i += 1;
        }
    }
    out
}

/// Where a raw string's opening quote is and how many `#` it has, if one starts at `i`.
fn raw_string_start(c: &[char], i: usize) -> Option<(usize, usize)> {
    let mut j = i;
    if matches!(c.get(j), Some('b' | 'c')) {
        j += 1;
    }
    if c.get(j) != Some(&'r') {
        return None;
    }
    // An identifier ending in r (`bar"` cannot occur) is not a prefix: only at a word start.
    if i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_') {
        return None;
    }
    j += 1;
    let hashes = c[j..].iter().take_while(|&&h| h == '#').count();
    (c.get(j + hashes) == Some(&'"')).then_some((j + hashes, hashes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn idents(src: &str) -> Vec<String> {
        tokens(src)
            .into_iter()
            .filter_map(|t| match t.tok {
                Tok::Ident(w) => Some(w),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn comments_strings_chars_and_lifetimes_hide_nothing_else() {
        let src = "a // crate::x\n/* /* crate::y */ */ b \"crate::z\" r#\"crate::w\"# 'c' '\\'' \
                   c::<'a> br\"q\" d";
        assert_eq!(idents(src), ["a", "b", "c", "d"]);
        let lines: Vec<usize> = tokens("a\n/*\n*/\nb").iter().map(|t| t.line).collect();
        assert_eq!(lines, [1, 4]);
    }
}
