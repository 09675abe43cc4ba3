import { describe, expect, it } from 'vitest';
import { stepIndex, treeRows, turnKey, visibleRows } from '../src/turn-list';
import type { TurnFile } from '../src/types';

const file = (path: string, status: TurnFile['status'] = 'modified'): TurnFile =>
  ({ path, status, binary: false, tooLarge: false, added: 1, removed: 0 });

describe('the turn review file tree', () => {
  it('lists folders before their files, each folder once, files under it indented', () => {
    const rows = treeRows([file('src/b.ts'), file('README.md', 'added'), file('src/a/x.ts'), file('src/a.ts')]);
    expect(rows.map((r) => `${'  '.repeat(r.depth)}${r.name}`)).toEqual([
      'src/', '  a/', '    x.ts', '  a.ts', '  b.ts', 'README.md',
    ]);
    expect(rows.filter((r) => r.file).length).toBe(4);
  });

  it('filters by any part of the path, in any case, keeping the folders of what is left', () => {
    const rows = treeRows([file('src/Parser.ts'), file('src/lexer.ts'), file('docs/parse.md')], 'PARSE');
    expect(rows.map((r) => r.name)).toEqual(['docs/', 'parse.md', 'src/', 'Parser.ts']);
    expect(treeRows([file('a.ts')], 'nothing')).toEqual([]);
  });
});

describe('the virtualised list', () => {
  it('renders only the rows in view and a few around them, whatever the total', () => {
    expect(visibleRows(0, 440, 22, 500, 8)).toEqual({ start: 0, end: 28 });
    const mid = visibleRows(22 * 250, 440, 22, 500, 8);
    expect(mid).toEqual({ start: 242, end: 278 });
    expect(mid.end - mid.start).toBeLessThan(50);
    expect(visibleRows(22 * 499, 440, 22, 500, 8).end).toBe(500);
    expect(visibleRows(0, 440, 22, 0)).toEqual({ start: 0, end: 0 });
  });
});

describe('the turn review keys', () => {
  it('moves between files and hunks, keeps, undoes, comments and continues', () => {
    const keys = [']', '[', 'j', 'k', 'a', 'u', 'c', 'C'].map((key) => turnKey({ key }));
    expect(keys).toEqual(['nextFile', 'previousFile', 'nextHunk', 'previousHunk', 'keep', 'undo', 'comment', 'continue']);
    expect(turnKey({ key: 'j', ctrlKey: true })).toBeNull();
    expect(turnKey({ key: 'x' })).toBeNull();
  });

  it('steps stay inside the list', () => {
    expect(stepIndex(0, -1, 3)).toBe(0);
    expect(stepIndex(2, 1, 3)).toBe(2);
    expect(stepIndex(-1, 1, 3)).toBe(0);
    expect(stepIndex(0, 1, 0)).toBe(-1);
  });
});
