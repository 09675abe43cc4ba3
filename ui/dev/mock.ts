// Dev harness: a fake backend in the page, so the window runs in a plain browser (never in dist/).
import { mockIPC } from '@tauri-apps/api/mocks';
import { emit } from '@tauri-apps/api/event';
import { EditorView } from '@codemirror/view';
import type { IpcError, ReviewDetail, Settings } from '../src/types';
import { bigReview, sampleReviews } from './samples';

// ?big adds a 20,000-line file; ?empty starts with nothing; ?disk=1,2 marks files changed on disk;
// ?fail=review_accept makes that command fail; ?container makes the first review one sent by a CLI
// in a container that sees the workspace at /workspace.
const params = new URLSearchParams(location.search);
const reviews = new Map<number, ReviewDetail>();
if (!params.has('empty')) for (const r of sampleReviews()) reviews.set(r.id, r);
if (params.has('big')) reviews.set(3, bigReview(3));
const first = reviews.get(1);
if (params.has('container') && first) {
  Object.assign(first, { filePath: `/workspace/${first.relativePath}`, container: true });
}
const diskChanged = new Set((params.get('disk') ?? '').split(',').filter(Boolean).map(Number));
const failing = new Set((params.get('fail') ?? '').split(',').filter(Boolean));
let settings: Settings = { popup: 'focus', keepOpen: true };
const calls: { cmd: string; args: unknown }[] = [];

function fail(code: string, message: string): never {
  throw { code, message } satisfies IpcError;
}

function known(id: number): ReviewDetail {
  return reviews.get(id) ?? fail('notFound', `no pending review ${id}`);
}

function resolveLater(id: number, outcome: 'accepted' | 'rejected') {
  reviews.delete(id);
  setTimeout(() => void emit('review-resolved', { id, outcome }), 0);
}

mockIPC((cmd, raw) => {
  const args = (raw ?? {}) as Record<string, unknown>;
  calls.push({ cmd, args });
  if (failing.has(cmd)) fail('ioError', `${cmd} failed: permission denied (mock)`);
  switch (cmd) {
    case 'reviews_list': return [...reviews.values()];
    case 'review_update': {
      const r = known(args.id as number);
      r.current = args.content as string;
      return null;
    }
    case 'review_accept': known(args.id as number); resolveLater(args.id as number, 'accepted'); return null;
    case 'review_reject': known(args.id as number); resolveLater(args.id as number, 'rejected'); return null;
    case 'review_disk_changed': return diskChanged.has(args.id as number);
    case 'settings_get': return settings;
    case 'settings_set': settings = args.settings as Settings; return null;
    case 'window_hide': console.info('[mock] window_hide'); return null;
    case 'window_close_answer': console.info('[mock] window_close_answer', args); return null;
    default: fail('unknownCommand', `mock backend has no command ${cmd}`);
  }
}, { shouldMockEvents: true });

// Handles for scripts driving the page (screenshots, perf): emit events as the backend would, and
// find the editors (the page bundles one EditorView class, so findFromDOM sees the app's views).
Object.assign(window, { __redline: { emit, reviews, calls, bigReview, EditorView } });

await import('../src/main');
