// Sample reviews for the dev harness and the screenshots: a Rust edit and a new TypeScript file.
import { Chunk } from '@codemirror/merge';
import { Text } from '@codemirror/state';
import { lineFirstDiff } from '../src/linediff';
import type { ReviewDetail } from '../src/types';

const rustOriginal = `//! Pending reviews, keyed by id, shared by the servers and the window.
use std::collections::HashMap;
use std::sync::Mutex;

use crate::review::{Review, ReviewId};

/// Every review that waits for an answer.
pub struct Queue {
    reviews: Mutex<HashMap<ReviewId, Review>>,
    next_id: Mutex<u64>,
}

impl Queue {
    pub fn new() -> Self {
        Queue {
            reviews: Mutex::new(HashMap::new()),
            next_id: Mutex::new(1),
        }
    }

    /// Adds a review and returns its id.
    pub fn push(&self, review: Review) -> ReviewId {
        let mut next = self.next_id.lock().unwrap();
        let id = ReviewId(*next);
        *next += 1;
        self.reviews.lock().unwrap().insert(id, review);
        id
    }

    pub fn get(&self, id: ReviewId) -> Option<Review> {
        self.reviews.lock().unwrap().get(&id).cloned()
    }

    pub fn len(&self) -> usize {
        self.reviews.lock().unwrap().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Removes a review once it is answered.
    pub fn remove(&self, id: ReviewId) -> Option<Review> {
        let removed = self.reviews.lock().unwrap().remove(&id);
        removed
    }

    pub fn ids(&self) -> Vec<ReviewId> {
        let mut ids: Vec<ReviewId> = self.reviews.lock().unwrap().keys().copied().collect();
        ids.sort();
        ids
    }
}
`;

const rustProposal = `//! Pending reviews, keyed by id, shared by the servers and the window.
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use crate::review::{Review, ReviewId};

/// Every review that waits for an answer, in the order they arrived.
pub struct Queue {
    reviews: Mutex<BTreeMap<ReviewId, Review>>,
    next_id: AtomicU64,
}

impl Queue {
    pub fn new() -> Self {
        Queue {
            reviews: Mutex::new(BTreeMap::new()),
            next_id: AtomicU64::new(1),
        }
    }

    /// Adds a review and returns its id.
    pub fn push(&self, review: Review) -> ReviewId {
        let id = ReviewId(self.next_id.fetch_add(1, Ordering::Relaxed));
        self.reviews.lock().unwrap().insert(id, review);
        id
    }

    pub fn get(&self, id: ReviewId) -> Option<Review> {
        self.reviews.lock().unwrap().get(&id).cloned()
    }

    pub fn len(&self) -> usize {
        self.reviews.lock().unwrap().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Removes a review once it is answered.
    pub fn remove(&self, id: ReviewId) -> Option<Review> {
        self.reviews.lock().unwrap().remove(&id)
    }

    /// Ids in arrival order: a BTreeMap keeps them sorted already.
    pub fn ids(&self) -> Vec<ReviewId> {
        self.reviews.lock().unwrap().keys().copied().collect()
    }
}
`;

const tsProposal = `// Retries a flaky async call with exponential backoff.
export interface RetryOptions {
  attempts: number;
  baseDelayMs: number;
  signal?: AbortSignal;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function retry<T>(call: () => Promise<T>, options: RetryOptions): Promise<T> {
  let lastError: unknown;
  for (let attempt = 0; attempt < options.attempts; attempt++) {
    options.signal?.throwIfAborted();
    try {
      return await call();
    } catch (err) {
      lastError = err;
      await sleep(options.baseDelayMs * 2 ** attempt);
    }
  }
  throw lastError;
}
`;

/** Changed lines as the backend would count them, so the harness shows believable +N −M. */
function lineCounts(a: string, b: string): { added: number; removed: number } {
  const docA = Text.of(a.split('\n'));
  const docB = Text.of(b.split('\n'));
  let added = 0;
  let removed = 0;
  for (const c of Chunk.build(docA, docB, { override: lineFirstDiff })) {
    if (c.toA > c.fromA) removed += docA.lineAt(c.endA).number - docA.lineAt(c.fromA).number + 1;
    if (c.toB > c.fromB) added += docB.lineAt(c.endB).number - docB.lineAt(c.fromB).number + 1;
  }
  return { added, removed };
}

export function review(
  id: number, workspace: string, relativePath: string, client: [string, string], original: string,
  proposal: string, newFile = false,
): ReviewDetail {
  const now = Date.now();
  return {
    id, workspace, relativePath, filePath: `${workspace}/${relativePath}`, path: `${workspace}/${relativePath}`,
    container: false,
    client: { name: client[0], version: client[1], process: null }, newFile, original, originalNotUtf8: false, originalBinary: null, revision: 1, proposal,
    current: proposal,
    ...lineCounts(original, proposal), createdAt: now - 60_000 * id, updatedAt: now - 60_000 * id, readOnly: null,
    // As the core says of Claude Code's sessions (the only protocol here with `at_mentioned`).
    canMention: client[0] === 'Claude Code',
    // As the core says of the IDE protocols: none carries a rejection's reason.
    reasonHeard: false,
    kind: 'edit',
    turnId: null,
  };
}

export function sampleReviews(): ReviewDetail[] {
  const rust = review(1, '/home/ana/src/redline', 'src-tauri/core/src/queue.rs', ['streamable-http-client', '1.0.0'], rustOriginal, rustProposal);
  rust.client.process = { pid: 48213, program: 'Gemini CLI', version: '0.61.0', cwd: '/home/ana/src/redline', tty: '/dev/pts/3', tmux: 'main:1.0' };
  const ts = review(2, '/home/ana/src/webapp', 'src/lib/retry.ts', ['streamable-http-client', '1.0.0'], '', tsProposal, true);
  ts.client.process = { pid: 50117, program: 'Qwen Code', version: '0.24.4', cwd: '/home/ana/src/webapp', tty: '/dev/pts/5', tmux: null };
  return [rust, ts];
}

/** A long Rust-looking file with a few edits spread through it, to feel out scrolling and typing. */
export function bigReview(id: number, lines = 20_000): ReviewDetail {
  const original: string[] = [];
  for (let i = 0; i < lines; i++) {
    original.push(i % 40 === 0 ? `fn item_${i}() -> u64 {` : i % 40 === 39 ? '}' : `    let v${i} = ${i} * 2; // line ${i}`);
  }
  const proposal = original.slice();
  for (let i = 100; i < lines; i += 1500) proposal[i] = `    let v${i} = ${i} * 3; // changed`;
  proposal.splice(5000, 0, '    // inserted line', '    let extra = 1;');
  return review(id, '/home/ana/src/big', 'src/generated.rs', ['gemini-cli', '0.9.1'],
    original.join('\n') + '\n', proposal.join('\n') + '\n');
}

/** One file of the mock's turn: its text at the turn's start and now (`null`: not there). */
export interface TurnSampleFile { start: string | null; end: string | null; from?: string; binary?: boolean }

/** A whole turn's review (`?turn`; `?turn=500` adds that many generated files) and its files. */
export function turnSample(id: number, extra = 0): { detail: ReviewDetail; files: Map<string, TurnSampleFile> } {
  const detail = review(id, '/home/ana/src/webapp', '', ['Claude Code', '2.1.332'], '', '');
  Object.assign(detail, {
    kind: 'turn', turnId: 12, reasonHeard: true, added: 0, removed: 0,
    readOnly: 'Everything Claude Code changed this turn, by any tool: keep or undo each hunk or file. Done ends the turn; Continue sends Claude Code your comments and words.',
  });
  const retry = 'export async function retry(f, times = 3) {\n  for (let i = 0; i < times; i++) {\n    try {\n      return await f();\n    } catch (e) {\n      if (i === times - 1) throw e;\n    }\n  }\n}\n';
  const retryNow = 'export async function retry(f, times = 5, delay = 100) {\n  for (let i = 0; i < times; i++) {\n    try {\n      return await f();\n    } catch (e) {\n      if (i === times - 1) throw e;\n      await sleep(delay * 2 ** i);\n    }\n  }\n}\n';
  const files = new Map<string, TurnSampleFile>([
    ['src/lib/retry.ts', { start: retry, end: retryNow }],
    ['src/lib/sleep.ts', { start: null, end: 'export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));\n' }],
    ['src/old-retry.ts', { start: 'export {};\n', end: null }],
    ['docs/retry.md', { start: '# Retry\n\nThree tries.\n', end: '# Retry\n\nThree tries.\n', from: 'RETRY.md' }],
    ['assets/logo.png', { start: '\u0000PNG', end: '\u0000PNG2', binary: true }],
  ]);
  for (let i = 0; i < extra; i++) {
    files.set(`gen/part${Math.floor(i / 50)}/file${i}.ts`, { start: `export const n = ${i};\n`, end: `export const n = ${i + 1};\n` });
  }
  return { detail, files };
}
