//! Cycles in a file graph: its strongly connected components (Tarjan), each shown as one
//! concrete cycle with the line of every import on it.

use crate::modules::Edge;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};

/// Every strongly connected component of more than one file, each as its sorted files and one
/// cycle through them (`a.rs:3 → b.rs:7 → a.rs`).
/// Files are shown by `name`.
pub fn cycles(edges: &[Edge], name: impl Fn(&Path) -> String) -> Vec<(BTreeSet<PathBuf>, String)> {
    let mut next: BTreeMap<&PathBuf, Vec<&Edge>> = BTreeMap::new();
    for e in edges {
        next.entry(&e.from).or_default().push(e);
        next.entry(&e.to).or_default();
    }
    let nodes: Vec<&PathBuf> = next.keys().copied().collect();
    let index_of: BTreeMap<&PathBuf, usize> =
        nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let succ: Vec<Vec<usize>> = nodes
        .iter()
        .map(|n| next[n].iter().map(|e| index_of[&e.to]).collect())
        .collect();
    let comps = tarjan(&succ);
    comps
        .into_iter()
        .filter(|c| c.len() > 1)
        .map(|c| {
            let set: BTreeSet<usize> = c.iter().copied().collect();
            let files = c.iter().map(|&i| nodes[i].clone()).collect();
            (files, show(&nodes, &next, &index_of, &set, &name))
        })
        .collect()
}

/// The shortest cycle through the component's first file, found breadth first inside it.
fn show(
    nodes: &[&PathBuf],
    next: &BTreeMap<&PathBuf, Vec<&Edge>>,
    index_of: &BTreeMap<&PathBuf, usize>,
    comp: &BTreeSet<usize>,
    name: &dyn Fn(&Path) -> String,
) -> String {
    let start = *comp.iter().next().unwrap();
    let mut came: BTreeMap<usize, &Edge> = BTreeMap::new();
    let mut queue = VecDeque::from([start]);
    'bfs: while let Some(n) = queue.pop_front() {
        for e in &next[nodes[n]] {
            let t = index_of[&e.to];
            if !comp.contains(&t) || came.contains_key(&t) {
                continue;
            }
            came.insert(t, e);
            if t == start {
                break 'bfs;
            }
            queue.push_back(t);
        }
    }
    let mut hops = Vec::new();
    let mut at = start;
    while let Some(e) = came.get(&at) {
        hops.push(*e);
        at = index_of[&e.from];
        if at == start {
            break;
        }
    }
    hops.reverse();
    let mut out: Vec<String> = hops
        .iter()
        .map(|e| format!("{}:{}", name(&e.from), e.line))
        .collect();
    out.push(name(nodes[start]));
    out.join(" → ")
}

fn tarjan(succ: &[Vec<usize>]) -> Vec<Vec<usize>> {
    struct State<'a> {
        succ: &'a [Vec<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(s: &mut State, v: usize) {
        s.index[v] = Some(s.next);
        s.low[v] = s.next;
        s.next += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        for &w in &s.succ[v] {
            match s.index[w] {
                None => {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(i) if s.on_stack[w] => s.low[v] = s.low[v].min(i),
                Some(_) => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack[w] = false;
                comp.push(w);
                if w == v {
                    break;
                }
            }
            comp.sort();
            s.out.push(comp);
        }
    }
    let n = succ.len();
    let mut s = State {
        succ,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if s.index[v].is_none() {
            visit(&mut s, v);
        }
    }
    s.out
}
