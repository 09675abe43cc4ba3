// Dev harness: a fake backend in the page, so the window runs in a plain browser (never in dist/).
import { mockIPC } from '@tauri-apps/api/mocks';
import { emit } from '@tauri-apps/api/event';
import { EditorView } from '@codemirror/view';
import type { DoctorLine, Fault, FaultCode, ReviewDetail, Settings } from '../src/types';
import { bigReview, sampleReviews, turnSample, type TurnSampleFile } from './samples';
import { lineBlocks } from '../src/linediff';
import type { TurnHunk as Hunk, TurnFile, TurnPick } from '../src/types';

// ?big adds a 20,000-line file; ?empty starts with nothing (the welcome page, with a workspace);
// ?first is a first run (no workspace yet); ?disk=1,2 marks files changed on disk;
// ?fail=reviewAccept makes that action (or window command) fail; ?container makes the first review one sent by a CLI
// in a container that sees the workspace at /workspace.
const params = new URLSearchParams(location.search);
const reviews = new Map<number, ReviewDetail>();
if (!params.has('empty') && !params.has('first')) for (const r of sampleReviews()) reviews.set(r.id, r);
if (params.has('big')) reviews.set(3, bigReview(3));
// ?turn adds a whole turn's review (?turn=500: with 500 more files).
const turn = params.has('turn') ? turnSample(7, Number(params.get('turn') || 0)) : null;
if (turn) reviews.set(7, turn.detail);
const first = reviews.get(1);
if (params.has('container') && first) {
  Object.assign(first, { filePath: `/workspace/${first.relativePath}`, container: true });
}
const diskChanged = new Set((params.get('disk') ?? '').split(',').filter(Boolean).map(Number));
const failing = new Set((params.get('fail') ?? '').split(',').filter(Boolean));
let workspace: string | null = params.has('first') ? null : '/home/ana/src/webapp';
const doctorLines: DoctorLine[] = [
  { name: 'Gemini CLI', installed: true, version: '0.61.0', ok: true, reason: 'Gemini CLI will connect to Redline on port 40123',
    fix: null, fixWhere: 'shell' },
  { name: 'Qwen Code', installed: true, version: '0.24.4', ok: false,
    reason: 'IDE mode is off in Qwen Code (`ide.enabled` in /home/ana/.qwen/settings.json)',
    fix: '/ide enable', fixWhere: 'cli' },
  { name: 'Claude Code', installed: true, version: '2.1.332', ok: true,
    reason: 'Claude Code can connect to Redline on port 40124', fix: null, fixWhere: 'shell' },
  { name: 'Codex CLI (context)', installed: true, version: '0.171.0', ok: true,
    reason: "after `/ide on`, Redline answers on /tmp/codex-ipc/ipc-1000.sock, with your editor's file and selection",
    fix: null, fixWhere: 'shell' },
];
let settings: Settings = { popup: 'focus', keepOpen: true, history: { turns: 200, mib: 1024 } };
const calls: { cmd: string; args: unknown }[] = [];

function fail(code: FaultCode, message: string): never {
  throw { code, message } satisfies Fault;
}

function known(id: number): ReviewDetail {
  return reviews.get(id) ?? fail('no_such_review', `no pending review ${id}`);
}

function resolveLater(id: number, outcome: 'accepted' | 'rejected') {
  reviews.delete(id);
  setTimeout(() => void emit('review-resolved', { id, outcome }), 0);
}

type Answer = (args: Record<string, unknown>) => unknown;

const textLines = (t: string | null) => (t ?? '').split(/(?<=\n)/).filter((l) => l !== '');

/** The file's hunks as the core gives them: each contiguous run of changed lines. */
function turnHunks(f: TurnSampleFile): Hunk[] {
  const intern = new Map<string, number>();
  const ids = (t: string | null) => textLines(t).map((l) => intern.get(l) ?? (intern.set(l, intern.size), intern.size - 1));
  const blocks = lineBlocks(ids(f.start), ids(f.end)) ?? [];
  return blocks.map(([a0, a1, b0, b1]) => ({ before: { first: a0 + 1, count: a1 - a0 }, after: { first: b0 + 1, count: b1 - b0 } }));
}

function turnFileOf(path: string): TurnSampleFile {
  return turn?.files.get(path) ?? fail('bad_request', `${path} was not changed by this turn`);
}

function turnListed(path: string, f: TurnSampleFile): TurnFile {
  const hunks = f.binary ? [] : turnHunks(f);
  const status = f.start === null ? 'added' : f.end === null ? 'deleted' : f.from ? 'renamed' : 'modified';
  return { path, from: f.from, status, binary: f.binary === true, tooLarge: false,
    added: hunks.reduce((n, h) => n + h.after.count, 0), removed: hunks.reduce((n, h) => n + h.before.count, 0) };
}

/** Takes `pick` back to the turn's start, as the core's undo does. */
function turnUndoOne(pick: TurnPick): void {
  const f = turnFileOf(pick.path);
  if (!pick.hunks) {
    f.end = f.start;
    return;
  }
  const before = textLines(f.start), after = textLines(f.end);
  const undone = [...pick.hunks].sort((a, b) => b.after.first - a.after.first);
  for (const h of undone) {
    after.splice(h.after.first - 1, h.after.count, ...before.slice(h.before.first - 1, h.before.first - 1 + h.before.count));
  }
  f.end = after.join('');
}

// The answer to each action (by its wire name, ui/src/actions.ts) and each window command (by its
// Tauri name); one missing fails as the backend would.
const answers: Record<string, Answer> = {
  reviewsList: () => [...reviews.values()],
  reviewUpdate: (a) => { known(a.id as number).current = a.content as string; return null; },
  reviewAccept: (a) => { known(a.id as number); resolveLater(a.id as number, 'accepted'); return null; },
  reviewReject: (a) => { known(a.id as number); resolveLater(a.id as number, 'rejected'); return null; },
  // As review::comment::message makes it (the page only shows and copies it).
  commentsMessage: (a) => {
    const comments = a.comments as { path: string; line: number; quote: string; text: string }[];
    const words = ((a.reason as string | undefined) ?? '').trim();
    if (comments.length === 0) return words || null;
    const each = comments.map((c) => `- ${c.path}:${c.line}\n  > ${c.quote}\n  ${c.text.trim().split('\n').join('\n  ')}`);
    return ['Review comments on your changes:', ...each, ...(words ? [words] : [])].join('\n\n');
  },
  reviewDiskChanged: (a) => diskChanged.has(a.id as number),
  reviewOpenInEditor: () => null,
  reviewMention: () => null,
  reviewSelect: () => null,
  reviewShown: () => null,
  turnFiles: () => ({ turn: 12, unlisted: 0,
    files: [...(turn?.files ?? new Map<string, TurnSampleFile>())].filter(([, f]) => f.start !== f.end || f.from)
      .map(([p, f]) => turnListed(p, f)) }),
  turnFile: (a) => {
    const f = turnFileOf(a.path as string);
    return { path: a.path, from: f.from ?? null, hunks: f.binary ? [] : turnHunks(f), unshown: f.binary ? 'binary' : null,
      start: f.binary ? null : f.start, end: f.binary ? null : f.end };
  },
  turnUndo: (a) => {
    const picks = a.picks as TurnPick[];
    const all = picks.length ? picks : [...(turn?.files.keys() ?? [])].map((path) => ({ path }));
    all.forEach(turnUndoOne);
    return { undo: 'done', files: all.map((p) => p.path) };
  },
  // The Turns view: the sample turn as a past one (its actions are the review's, by workspace).
  turnsHistory: () => {
    const files = (answers.turnFiles({}) as { files: TurnFile[] }).files;
    return turn ? [{ workspace: '/home/ana/src/webapp', turn: 12, cli: 'codex', session: 'mock', started: Date.UTC(2026, 10, 29, 8, 41),
      ended: Date.UTC(2026, 10, 29, 8, 43), running: false, files: files.length,
      added: files.reduce((n, f) => n + f.added, 0), removed: files.reduce((n, f) => n + f.removed, 0) }] : [];
  },
  turnAsked: () => null,
  pastTurnFiles: (a) => answers.turnFiles(a),
  pastTurnFile: (a) => answers.turnFile(a),
  pastTurnUndo: (a) => answers.turnUndo(a),
  settingsGet: () => settings,
  settingsSet: (a) => { settings = a.settings as Settings; return null; },
  welcome: () => ({ workspace, lines: workspace ? doctorLines : [] }),
  workspace_add: () => { workspace = '/home/ana/src/webapp'; return workspace; },
  window_hide: () => { console.info('[mock] window_hide'); return null; },
  window_close_answer: (a) => { console.info('[mock] window_close_answer', a); return null; },
};

mockIPC((cmd, raw) => {
  const given = (raw ?? {}) as Record<string, unknown>;
  // Actions come through the one `call` command: named by their action.
  const [name, args] = cmd === 'call'
    ? [given.action as string, (given.request ?? {}) as Record<string, unknown>]
    : [cmd, given];
  calls.push({ cmd: name, args });
  if (failing.has(name)) fail('io', `${name} failed: permission denied (mock)`);
  const answer = answers[name] ?? fail('internal', `mock backend has no command ${name}`);
  return answer(args);
}, { shouldMockEvents: true });

// Handles for scripts driving the page (screenshots, perf): emit events as the backend would, and
// find the editors (the page bundles one EditorView class, so findFromDOM sees the app's views).
Object.assign(window, { __redline: { emit, reviews, calls, bigReview, EditorView } });

await import('../src/main');
