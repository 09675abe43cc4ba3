//! Which files write an inherent `impl` block of a type: `Instance` only in
//! runtime/instance.rs, so that its parts keep their own state and no other file reaches it all.

use crate::lex::{tokens, Tok};

/// Whether `src` writes an inherent `impl` block of the type named `ty` (`impl Ty {`,
/// `impl<T> path::Ty<T> where … {`), not a trait's (`impl Trait for Ty`). Comments and strings
/// are no code.
pub fn writes_impl_of(src: &str, ty: &str) -> bool {
    let toks: Vec<Tok> = tokens(src).into_iter().map(|t| t.tok).collect();
    let mut i = 0;
    while i < toks.len() {
        if toks[i] != Tok::Ident("impl".into()) {
            i += 1;
            continue;
        }
        i = skip_generics(&toks, i + 1);
        let mut name = None;
        while let Some(t) = toks.get(i) {
            match t {
                Tok::Ident(n) => name = Some(n.clone()),
                Tok::PathSep => {}
                _ => break,
            }
            i += 1;
        }
        i = skip_generics(&toks, i);
        let trait_impl = toks.get(i) == Some(&Tok::Ident("for".into()));
        if !trait_impl && name.as_deref() == Some(ty) {
            return true;
        }
    }
    false
}

/// The index past a `<…>` starting at `i` (an arrow `->` inside is no closing bracket), or `i`.
fn skip_generics(toks: &[Tok], mut i: usize) -> usize {
    if toks.get(i) != Some(&Tok::Punct('<')) {
        return i;
    }
    let mut depth = 0;
    while let Some(t) = toks.get(i) {
        match t {
            Tok::Punct('-') if toks.get(i + 1) == Some(&Tok::Punct('>')) => i += 1,
            Tok::Punct('<') => depth += 1,
            Tok::Punct('>') => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    i
}
