// Test helpers: a fake backend behind Tauri's IPC mock, and a review window mounted on it.
import { clearMocks, mockIPC } from '@tauri-apps/api/mocks';
import { emit } from '@tauri-apps/api/event';
import { EditorView } from '@codemirror/view';
import { vi } from 'vitest';
import { startApp, type AppOptions, type ReviewWindow } from '../src/app';
import type { Fault, ReviewDetail, Settings, Welcome } from '../src/types';

export interface Call { cmd: string; args: Record<string, unknown> }

export interface FakeBackend {
  calls: Call[];
  settings: Settings;
  /** Commands that fail with the given error. */
  failing: Map<string, Fault>;
  diskChanged: Set<number>;
  /** What the `welcome` command answers; `workspace_add` sets its workspace to `folder`. */
  welcome: Welcome;
  folder: string | null;
  /** Answers of commands the switch below does not know (an action by its old command's name). */
  answers: Map<string, (args: Record<string, unknown>) => unknown>;
  emit: typeof emit;
  named(cmd: string): Record<string, unknown>[];
}

export function detail(id: number, over: Partial<ReviewDetail> = {}): ReviewDetail {
  const original = over.original ?? 'fn main() {\n    println!("hello");\n}\n';
  const proposal = over.proposal ?? 'fn main() {\n    println!("hello, world");\n}\n';
  return {
    id, workspace: '/home/ana/src/redline', relativePath: `src/file${id}.rs`,
    filePath: `/home/ana/src/redline/src/file${id}.rs`, path: `/home/ana/src/redline/src/file${id}.rs`,
    container: false, client: { name: 'gemini-cli', version: '0.9.1', process: null },
    newFile: false, original, originalNotUtf8: false, originalBinary: null, revision: 1, proposal, current: proposal, added: 1, removed: 1,
    createdAt: 1_700_000_000_000 + id, updatedAt: 1_700_000_000_000 + id, readOnly: null, canMention: false,
    reasonHeard: false, kind: 'edit', turnId: null,
    ...over,
  };
}

export function fakeBackend(reviews: ReviewDetail[], settings: Settings = { popup: 'focus', keepOpen: false, history: { turns: 200, mib: 1024 } }): FakeBackend {
  const calls: Call[] = [];
  const backend: FakeBackend = {
    calls, settings, failing: new Map(), diskChanged: new Set(), emit,
    welcome: { workspace: null, lines: [] }, folder: null, answers: new Map(),
    named: (cmd) => calls.filter((c) => c.cmd === cmd).map((c) => c.args),
  };
  mockIPC((command, args) => {
    const given = (args ?? {}) as Record<string, unknown>;
    // An action comes through the one `call` command: recorded under its old command's name
    // (`reviewAccept` as `review_accept`), its request as that command's arguments.
    const cmd = command === 'call' ? snake(given.action as string) : command;
    const a = command === 'call' ? (given.request ?? {}) as Record<string, unknown> : given;
    calls.push({ cmd, args: a });
    const failure = backend.failing.get(cmd);
    if (failure) throw failure;
    switch (cmd) {
      case 'reviews_list': return reviews;
      case 'review_disk_changed': return backend.diskChanged.has(a.id as number);
      case 'settings_get': return backend.settings;
      // The core composes it (review::comment::message); the page only copies what it answers.
      case 'comments_message': return `message of ${(a.comments as unknown[]).length} comments`;
      case 'welcome': return backend.welcome;
      case 'workspace_add':
        if (backend.folder) backend.welcome = { ...backend.welcome, workspace: backend.folder };
        return backend.folder;
      default: return backend.answers.get(cmd)?.(a) ?? null;
    }
  }, { shouldMockEvents: true });
  return backend;
}

function snake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

let mounted: ReviewWindow | null = null;

export async function mount(options: AppOptions = {}): Promise<{ app: ReviewWindow; root: HTMLElement }> {
  document.body.innerHTML = '<main id="app"></main>';
  const root = document.getElementById('app')!;
  const app = await startApp(root, { ...storageOption(), ...options });
  mounted = app;
  return { app, root };
}

function storageOption(): AppOptions {
  const items = new Map<string, string>();
  return { storage: { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => void items.set(k, v) } };
}

/** The editable CodeMirror view (right side, or the single unified one). */
export function editableView(root: HTMLElement): EditorView {
  const dom = root.querySelector<HTMLElement>('.cm-merge-b');
  if (!dom) throw new Error('no editable review editor on screen');
  const view = EditorView.findFromDOM(dom);
  if (!view) throw new Error('review editor DOM without a view');
  return view;
}

/** Types at the end of the editable document, as a user would. */
export function typeAtEnd(root: HTMLElement, text: string): void {
  const view = editableView(root);
  const end = view.state.doc.length;
  view.dispatch({ changes: { from: end, insert: text }, userEvent: 'input.type' });
}

export function key(init: KeyboardEventInit, target: EventTarget = document.activeElement ?? document.body): KeyboardEvent {
  const event = new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init });
  target.dispatchEvent(event);
  return event;
}

export function tabs(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>('.tab')];
}

export const settle = () => new Promise((r) => setTimeout(r, 0));

export function reset(): void {
  mounted?.destroy();
  mounted = null;
  clearMocks();
  vi.restoreAllMocks();
  document.body.innerHTML = '';
}
