// Line-first diff for the merge view: exact on large files, where the stock character diff gives up.
import { Change, diff } from '@codemirror/merge';

// @codemirror/merge's own diff treats any differing stretch longer than 64 × scanLimit characters
// (32,000 with the merge view's default) as one change. In a large file with edits spread through
// it, that paints everything between the first and the last edit as changed. Diffing lines first
// (lines compared as interned numbers) keeps each edit its own chunk; the character diff then runs
// only inside the changed line blocks, for the word-level highlights.

/** Beyond this many changed lines, one block is shown instead of searching further. */
const MAX_EDIT_LINES = 1000;
const INNER = { scanLimit: 500 };

interface Lines {
  ids: Int32Array;
  /** Start offset of each line, plus the text's length at the end. */
  starts: number[];
}

function lines(text: string, intern: Map<string, number>): Lines {
  const starts = [0];
  const ids: number[] = [];
  let from = 0;
  while (from < text.length) {
    const nl = text.indexOf('\n', from);
    const to = nl < 0 ? text.length : nl + 1;
    const line = text.slice(from, to);
    let id = intern.get(line);
    if (id === undefined) intern.set(line, (id = intern.size));
    ids.push(id);
    starts.push(to);
    from = to;
  }
  return { ids: Int32Array.from(ids), starts };
}

type Block = [fromA: number, toA: number, fromB: number, toB: number];

/**
 * Myers' O(ND) search over line ids, giving the blocks of lines that differ; null when more than
 * `maxD` lines differ (the caller then shows the whole range as one block).
 */
export function lineBlocks(a: ArrayLike<number>, b: ArrayLike<number>, maxD = MAX_EDIT_LINES): Block[] | null {
  const n = a.length;
  const m = b.length;
  const off = maxD + 1;
  const v = new Int32Array(2 * maxD + 3);
  // trace[d] holds v[-d..d] as it was before step d, for walking back the path.
  const trace: Int32Array[] = [];
  for (let d = 0; d <= maxD; d++) {
    trace.push(v.slice(off - d, off + d + 1));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1] < v[off + k + 1]) ? v[off + k + 1] : v[off + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[off + k] = x;
      if (x >= n && y >= m) return blocksFromTrace(trace, d, n, m);
    }
  }
  return null;
}

function blocksFromTrace(trace: Int32Array[], depth: number, n: number, m: number): Block[] {
  const deleted = new Uint8Array(n);
  const inserted = new Uint8Array(m);
  let x = n;
  let y = m;
  for (let d = depth; d > 0; d--) {
    const prev = trace[d];
    const vAt = (k: number) => prev[k + d];
    const k = x - y;
    const down = k === -d || (k !== d && vAt(k - 1) < vAt(k + 1));
    const prevX = vAt(down ? k + 1 : k - 1);
    const prevY = prevX - (down ? k + 1 : k - 1);
    // Step d went down (a line of b inserted) or right (a line of a deleted), then along a diagonal.
    if (down) inserted[prevY] = 1;
    else deleted[prevX] = 1;
    x = prevX;
    y = prevY;
  }
  const blocks: Block[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if ((i < n && deleted[i]) || (j < m && inserted[j])) {
      const i0 = i;
      const j0 = j;
      while ((i < n && deleted[i]) || (j < m && inserted[j])) {
        while (i < n && deleted[i]) i++;
        while (j < m && inserted[j]) j++;
      }
      blocks.push([i0, i, j0, j]);
    } else {
      i++;
      j++;
    }
  }
  return blocks;
}

/** A `diffConfig.override` for MergeView and unifiedMergeView. */
export function lineFirstDiff(a: string, b: string): readonly Change[] {
  if (a === b) return [];
  const intern = new Map<string, number>();
  const la = lines(a, intern);
  const lb = lines(b, intern);
  const n = la.ids.length;
  const m = lb.ids.length;
  let pre = 0;
  while (pre < n && pre < m && la.ids[pre] === lb.ids[pre]) pre++;
  let suf = 0;
  while (suf < n - pre && suf < m - pre && la.ids[n - 1 - suf] === lb.ids[m - 1 - suf]) suf++;
  const midA = la.ids.subarray(pre, n - suf);
  const midB = lb.ids.subarray(pre, m - suf);
  const blocks = lineBlocks(midA, midB) ?? [[0, midA.length, 0, midB.length] as Block];
  const changes: Change[] = [];
  for (const [i0, i1, j0, j1] of blocks) {
    const fromA = la.starts[pre + i0];
    const toA = la.starts[pre + i1];
    const fromB = lb.starts[pre + j0];
    const toB = lb.starts[pre + j1];
    if (fromA === toA || fromB === toB) {
      changes.push(new Change(fromA, toA, fromB, toB));
      continue;
    }
    for (const c of diff(a.slice(fromA, toA), b.slice(fromB, toB), INNER)) {
      changes.push(new Change(c.fromA + fromA, c.toA + fromA, c.fromB + fromB, c.toB + fromB));
    }
  }
  return changes;
}
