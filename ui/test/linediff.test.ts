import { Chunk } from '@codemirror/merge';
import { Text } from '@codemirror/state';
import { describe, expect, test } from 'vitest';
import { lineBlocks, lineFirstDiff } from '../src/linediff';
import { bigReview } from '../dev/samples';

/** Rebuilds b from a and the changes, checking that unchanged stretches really are equal. */
function apply(a: string, b: string, changes: ReturnType<typeof lineFirstDiff>): string {
  let out = '';
  let posA = 0;
  let posB = 0;
  for (const c of changes) {
    expect(a.slice(posA, c.fromA)).toBe(b.slice(posB, c.fromB));
    out += a.slice(posA, c.fromA) + b.slice(c.fromB, c.toB);
    posA = c.toA;
    posB = c.toB;
  }
  expect(a.slice(posA)).toBe(b.slice(posB));
  return out + a.slice(posA);
}

function lcs(a: number[], b: number[]): number {
  const dp = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      dp[i][j] = a[i - 1] === b[j - 1] ? dp[i - 1][j - 1] + 1 : Math.max(dp[i - 1][j], dp[i][j - 1]);
    }
  }
  return dp[a.length][b.length];
}

function random(seed: number): () => number {
  return () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
}

describe('lineBlocks', () => {
  test('finds a shortest edit script', () => {
    const rnd = random(7);
    for (let round = 0; round < 300; round++) {
      const a = Array.from({ length: Math.floor(rnd() * 15) }, () => Math.floor(rnd() * 4));
      const b = Array.from({ length: Math.floor(rnd() * 15) }, () => Math.floor(rnd() * 4));
      const blocks = lineBlocks(a, b)!;
      const edits = blocks.reduce((sum, [i0, i1, j0, j1]) => sum + (i1 - i0) + (j1 - j0), 0);
      expect(edits, `${a} → ${b}`).toBe(a.length + b.length - 2 * lcs(a, b));
      // Lines outside the blocks pair up equal, in order.
      let i = 0;
      let j = 0;
      for (const [i0, i1, j0, j1] of [...blocks, [a.length, a.length, b.length, b.length]]) {
        expect(i0 - i).toBe(j0 - j);
        for (; i < i0; i++, j++) expect(a[i]).toBe(b[j]);
        i = i1;
        j = j1;
      }
    }
  });

  test('gives up past the limit', () => {
    expect(lineBlocks([1, 2, 3], [4, 5, 6], 2)).toBeNull();
    expect(lineBlocks([1, 2, 3], [4, 5, 6], 6)).toEqual([[0, 3, 0, 3]]);
  });
});

describe('lineFirstDiff', () => {
  test.each([
    ['', ''],
    ['', 'new\nfile\n'],
    ['old\n', ''],
    ['a\nb\nc\n', 'a\nB\nc\n'],
    ['a\nb\nc', 'a\nb\nc\n'],
    ['fn main() {\n    run(1);\n}\n', 'fn main() {\n    run(2);\n    done();\n}\n'],
    ['x\ny\nz\n', 'y\nz\nx\n'],
  ])('turns %j into %j', (a, b) => {
    expect(apply(a, b, lineFirstDiff(a, b))).toBe(b);
  });

  test('marks words, not whole lines, inside a changed line', () => {
    const changes = lineFirstDiff('let total = a + b;\n', 'let total = a - b;\n');
    expect(changes).toHaveLength(1);
    expect(changes[0].toA - changes[0].fromA).toBeLessThan(3);
  });

  test('keeps spread-out edits of a 20,000-line file apart', () => {
    const r = bigReview(1);
    const a = Text.of(r.original.split('\n'));
    const b = Text.of(r.proposal.split('\n'));
    const start = performance.now();
    const chunks = Chunk.build(a, b, { override: lineFirstDiff });
    const ms = performance.now() - start;
    // 14 single-line edits and one two-line insertion, each its own chunk.
    expect(chunks).toHaveLength(15);
    const lines = chunks.map((c) => a.lineAt(c.fromA).number);
    expect(lines.slice(0, 3)).toEqual([101, 1601, 3101]);
    expect(ms).toBeLessThan(1000);
    // The stock configuration of the merge view paints one chunk over almost the whole file.
    expect(Chunk.build(a, b, { scanLimit: 500 })).toHaveLength(1);
  });

  test('stays bounded when two large files share nothing', () => {
    const a = Array.from({ length: 20_000 }, (_, i) => `left ${i}\n`).join('');
    const b = Array.from({ length: 20_000 }, (_, i) => `right ${i}\n`).join('');
    const start = performance.now();
    const changes = lineFirstDiff(a, b);
    expect(performance.now() - start).toBeLessThan(2000);
    expect(apply(a, b, changes)).toBe(b);
  });
});
