// The turn review's list and keys as plain data: the file tree's rows (filtered), which rows a
// virtualised list renders, and what each key does; turn-view.ts draws them.
import type { TurnFile } from './types';

/** One row of the file tree: a folder or a file, indented by `depth`. */
export interface Row {
  depth: number;
  /** The folder's or file's own name. */
  name: string;
  /** The file, for a file's row. */
  file?: TurnFile;
}

/** The tree's rows for `files` whose path holds `filter` (any case): folders first, by name. */
export function treeRows(files: TurnFile[], filter = ''): Row[] {
  const wanted = filter.trim().toLowerCase();
  const shown = files.filter((f) => wanted === '' || f.path.toLowerCase().includes(wanted));
  shown.sort((a, b) => comparePaths(a.path, b.path));
  const rows: Row[] = [];
  let open: string[] = [];
  for (const file of shown) {
    const parts = file.path.split('/');
    const dirs = parts.slice(0, -1);
    let same = 0;
    while (same < open.length && same < dirs.length && open[same] === dirs[same]) same++;
    for (let d = same; d < dirs.length; d++) rows.push({ depth: d, name: `${dirs[d]}/` });
    open = dirs;
    rows.push({ depth: dirs.length, name: parts[parts.length - 1], file });
  }
  return rows;
}

/** Paths in tree order: a folder's files after its subfolders' (as a tree lists them). */
function comparePaths(a: string, b: string): number {
  const pa = a.split('/'), pb = b.split('/');
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const lastA = i === pa.length - 1, lastB = i === pb.length - 1;
    if (lastA !== lastB) return lastA ? 1 : -1;
    if (pa[i] !== pb[i]) return pa[i] < pb[i] ? -1 : 1;
  }
  return pa.length - pb.length;
}

/** The rows to render for a list scrolled to `scrollTop`: only those in view, plus `overscan`. */
export function visibleRows(scrollTop: number, height: number, rowHeight: number, total: number, overscan = 8):
  { start: number; end: number } {
  const start = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const end = Math.min(total, Math.ceil((scrollTop + height) / rowHeight) + overscan);
  return { start, end: Math.max(start, end) };
}

/** What a key does in the turn's review. */
export type TurnKey = 'nextFile' | 'previousFile' | 'nextHunk' | 'previousHunk' | 'keep' | 'undo' | 'comment'
  | 'continue';

/** The turn review's keys (docs/window.md), when no text box has the focus. */
export function turnKey(e: { key: string; altKey?: boolean; ctrlKey?: boolean; metaKey?: boolean }): TurnKey | null {
  if (e.altKey || e.ctrlKey || e.metaKey) return null;
  const keys: Record<string, TurnKey> = {
    ']': 'nextFile', '[': 'previousFile', j: 'nextHunk', k: 'previousHunk',
    a: 'keep', u: 'undo', c: 'comment', C: 'continue',
  };
  return keys[e.key] ?? null;
}

/** The next index from `at` by `step` among `count`, staying inside. */
export function stepIndex(at: number, step: number, count: number): number {
  if (count === 0) return -1;
  return Math.min(count - 1, Math.max(0, at + step));
}
