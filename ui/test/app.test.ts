import { afterEach, describe, expect, test, vi } from 'vitest';
import { EditorSelection } from '@codemirror/state';
import { detail, editableView, fakeBackend, key, mount, reset, settle, tabs, typeAtEnd } from './helpers';

afterEach(reset);

const rust = detail(1, { workspace: '/home/ana/src/redline', relativePath: 'src/queue.rs', added: 4, removed: 2 });
const ts = detail(2, {
  workspace: '/home/ana/src/webapp', relativePath: 'src/lib/retry.ts', filePath: '/home/ana/src/webapp/src/lib/retry.ts',
  client: { name: 'qwen-code', version: '0.0.14', process: null }, newFile: true, original: '',
  proposal: 'export const x = 1;\n', current: 'export const x = 1;\n', added: 1, removed: 0,
});

describe('the list', () => {
  test('shows one tab per pending review with file, workspace, new-file mark and +N −M', async () => {
    fakeBackend([rust, ts]);
    const { root } = await mount();
    const [first, second] = tabs(root);
    expect(tabs(root)).toHaveLength(2);
    expect(first.querySelector('.tab-name')!.textContent).toBe('queue.rs');
    expect(first.querySelector('.tab-ws')!.textContent).toBe('redline');
    expect(first.querySelector('.counts')!.textContent).toBe('+4\u22122');
    expect(first.querySelector('.badge.new')).toBeNull();
    expect(first.getAttribute('aria-selected')).toBe('true');
    expect(second.querySelector('.tab-name')!.textContent).toBe('retry.ts');
    expect(second.querySelector('.tab-ws')!.textContent).toBe('webapp');
    expect(second.querySelector('.badge.new')!.textContent).toBe('new');
    expect(second.title).toContain('from qwen-code 0.0.14');
  });

  test('the summary names workspace, relative path, CLI and version, new file and counts', async () => {
    fakeBackend([rust, ts]);
    const { root } = await mount();
    const summary = root.querySelector('.summary')!;
    expect(summary.querySelector('.ws')!.textContent).toBe('redline');
    expect(summary.querySelector('.rel')!.textContent).toBe('src/queue.rs');
    expect(summary.querySelector('.client')!.textContent).toBe('gemini-cli 0.9.1');
    expect(summary.querySelector('.counts')!.textContent).toBe('+4\u22122');
    expect(summary.textContent).not.toContain('new file');
    expect(summary.textContent).toContain('Rust');

    tabs(root)[1].click();
    expect(summary.querySelector('.rel')!.textContent).toBe('src/lib/retry.ts');
    expect(summary.querySelector('.client')!.textContent).toBe('qwen-code 0.0.14');
    expect(summary.querySelector('.badge.new')!.textContent).toBe('new file');
    expect(summary.textContent).toContain('TypeScript');
  });

  test('a review from a CLI in a container shows the host path and a "container" badge', async () => {
    const inContainer = detail(7, {
      relativePath: 'src/main.rs', filePath: '/workspace/src/main.rs',
      path: '/home/ana/src/redline/src/main.rs', container: true,
    });
    fakeBackend([inContainer, detail(8)]);
    const { root } = await mount();
    const summary = root.querySelector('.summary')!;
    const badge = summary.querySelector('.badge.container')!;
    expect(badge.textContent).toBe('container');
    expect(badge.getAttribute('title')).toContain('/workspace/src/main.rs');
    expect(badge.getAttribute('title')).toContain('/home/ana/src/redline/src/main.rs');
    const rel = summary.querySelector('.rel')!;
    expect(rel.textContent).toBe('src/main.rs');
    expect(rel.getAttribute('title')).toMatch(/^\/home\/ana\/src\/redline\/src\/main\.rs\n/);
    expect(tabs(root)[0].title).toContain('in a container, as /workspace/src/main.rs');

    tabs(root)[1].click();
    expect(summary.querySelector('.badge.container')).toBeNull();
    expect(summary.querySelector('.rel')!.getAttribute('title')).toBe('/home/ana/src/redline/src/file8.rs');
  });

  test('another machine\'s review is labelled with it', async () => {
    const far = detail(9, { relativePath: 'src/main.rs', path: '/home/dev/app/src/main.rs', remote: 'devbox' });
    fakeBackend([far, detail(10)]);
    const { root } = await mount();
    await settle();
    const summary = root.querySelector('.summary')!;
    const badge = summary.querySelector('.badge.remote')!;
    expect(badge.textContent).toBe('devbox');
    expect(badge.getAttribute('title')).toContain('/home/dev/app/src/main.rs');
    expect(tabs(root)[0].title).toContain('on devbox');

    tabs(root)[1].click();
    await settle();
    expect(summary.querySelector('.badge.remote')).toBeNull();
  });

  test('the review editor shows the original read-only on the left and the proposal editable on the right', async () => {
    fakeBackend([rust]);
    const { root } = await mount();
    const a = root.querySelector('.cm-merge-a .cm-content')!;
    const b = root.querySelector('.cm-merge-b .cm-content')!;
    expect(a.textContent).toContain('println!("hello");');
    expect(a.getAttribute('aria-readonly')).toBe('true');
    expect(b.textContent).toContain('println!("hello, world");');
    expect(b.getAttribute('aria-readonly')).toBeNull();
    expect(root.querySelector('.cm-changedText')).not.toBeNull();
  });

  test('a review that arrives later gets a tab but does not take the front', async () => {
    const backend = fakeBackend([rust]);
    const { root } = await mount();
    await backend.emit('review-added', ts);
    expect(tabs(root)).toHaveLength(2);
    expect(tabs(root)[0].getAttribute('aria-selected')).toBe('true');
    expect(tabs(root)[1].classList.contains('fresh')).toBe(true);
  });

  test('a review that arrives into an empty window is shown', async () => {
    const backend = fakeBackend([]);
    const { root } = await mount();
    expect(root.querySelector<HTMLElement>('.empty')!.hidden).toBe(false);
    await backend.emit('review-added', rust);
    expect(root.querySelector<HTMLElement>('.review')!.hidden).toBe(false);
    expect(editableView(root).state.doc.toString()).toBe(rust.proposal);
  });

  test('a new review reports when it is painted, so openDiff → on screen can be timed', async () => {
    const backend = fakeBackend([]);
    await mount();
    await backend.emit('review-added', rust);
    await vi.waitFor(() => expect(backend.named('review_shown')).toEqual([{ id: rust.id }]));
  });

  test('a window opened for reviews already pending reports them painted too', async () => {
    const backend = fakeBackend([rust, ts]);
    await mount();
    await vi.waitFor(() => expect(backend.named('review_shown')).toEqual([{ id: rust.id }, { id: ts.id }]));
  });

  test('the edited text survives switching tabs', async () => {
    fakeBackend([rust, ts]);
    const { root } = await mount();
    typeAtEnd(root, '// mine\n');
    tabs(root)[1].click();
    expect(editableView(root).state.doc.toString()).toBe(ts.proposal);
    tabs(root)[0].click();
    expect(editableView(root).state.doc.toString()).toBe(`${rust.proposal}// mine\n`);
  });
});

describe('accept and reject', () => {
  test('Accept sends the edited text and removes the review', async () => {
    const backend = fakeBackend([rust, ts]);
    const { root } = await mount();
    typeAtEnd(root, '// reviewed\n');
    root.querySelector<HTMLButtonElement>('.actions .accept')!.click();
    await vi.waitFor(() => expect(backend.named('review_accept')).toHaveLength(1));
    expect(backend.named('review_accept')[0]).toEqual({ id: 1, revision: 1, content: `${rust.proposal}// reviewed\n` });
    await settle();
    expect(tabs(root).map((t) => t.dataset.id)).toEqual(['2']);
  });

  test.each([
    ['Ctrl+S', { key: 's', ctrlKey: true }],
    ['Ctrl+Enter', { key: 'Enter', ctrlKey: true }],
    ['Cmd+S', { key: 's', metaKey: true }],
    ['Cmd+Enter', { key: 'Enter', metaKey: true }],
  ])('%s in the review editor accepts without touching the text', async (_name, init) => {
    const backend = fakeBackend([rust]);
    const { root } = await mount();
    typeAtEnd(root, 'x');
    const view = editableView(root);
    const event = key(init, view.contentDOM);
    expect(event.defaultPrevented).toBe(true);
    expect(view.state.doc.toString()).toBe(`${rust.proposal}x`);
    await vi.waitFor(() => expect(backend.named('review_accept')).toEqual([{ id: 1, revision: 1, content: `${rust.proposal}x` }]));
  });

  test('plain S or Enter does not accept', async () => {
    const backend = fakeBackend([rust]);
    await mount();
    key({ key: 's' }, document.body);
    key({ key: 'Enter' }, document.body);
    await settle();
    expect(backend.named('review_accept')).toHaveLength(0);
  });

  test('Reject rejects the review in front', async () => {
    const backend = fakeBackend([rust, ts]);
    const { root } = await mount();
    tabs(root)[1].click();
    root.querySelector<HTMLButtonElement>('.actions .reject')!.click();
    await vi.waitFor(() => expect(backend.named('review_reject')).toEqual([{ id: 2 }]));
    await settle();
    expect(tabs(root).map((t) => t.dataset.id)).toEqual(['1']);
  });

  test('closing a tab rejects that review, not the one in front', async () => {
    const backend = fakeBackend([rust, ts]);
    const { root } = await mount();
    tabs(root)[1].querySelector<HTMLButtonElement>('.tab-close')!.click();
    await vi.waitFor(() => expect(backend.named('review_reject')).toEqual([{ id: 2 }]));
    await settle();
    expect(tabs(root).map((t) => t.dataset.id)).toEqual(['1']);
    expect(backend.named('review_accept')).toHaveLength(0);
  });

  test('a failed accept is shown and the review stays', async () => {
    const backend = fakeBackend([rust]);
    backend.failing.set('review_accept', { code: 'io', message: 'permission denied: src/queue.rs' });
    const { root } = await mount();
    const accept = root.querySelector<HTMLButtonElement>('.actions .accept')!;
    accept.click();
    await vi.waitFor(() => expect(root.querySelector('.toast.error')).not.toBeNull());
    expect(root.querySelector('.toast.error')!.textContent).toContain('permission denied: src/queue.rs');
    expect(root.querySelector('.toast.error')!.getAttribute('role')).toBe('alert');
    expect(tabs(root)).toHaveLength(1);
    expect(accept.disabled).toBe(false);
    expect(backend.named('window_hide')).toHaveLength(0);
  });

  test('an error toast is dismissed with its ×', async () => {
    const backend = fakeBackend([rust]);
    backend.failing.set('review_reject', { code: 'no_such_review', message: 'no pending review 1' });
    const { root } = await mount();
    root.querySelector<HTMLButtonElement>('.actions .reject')!.click();
    await vi.waitFor(() => expect(root.querySelector('.toast.error')).not.toBeNull());
    root.querySelector<HTMLButtonElement>('.toast.error .toast-close')!.click();
    expect(root.querySelector('.toast.error')).toBeNull();
  });

  test('a failing reviews_list is shown', async () => {
    const backend = fakeBackend([]);
    backend.failing.set('reviews_list', { code: 'internal', message: 'state poisoned' });
    const { root } = await mount();
    expect(root.querySelector('.toast.error')!.textContent).toContain('state poisoned');
  });
});

describe('resolved elsewhere', () => {
  test('a resolved review leaves the list at once; the window hides when none is left', async () => {
    const backend = fakeBackend([rust, ts]);
    const { root } = await mount();
    await backend.emit('review-resolved', { id: 1, outcome: 'accepted' });
    expect(tabs(root).map((t) => t.dataset.id)).toEqual(['2']);
    expect(editableView(root).state.doc.toString()).toBe(ts.proposal);
    await settle();
    expect(backend.named('window_hide')).toHaveLength(0);

    await backend.emit('review-resolved', { id: 2, outcome: 'rejected' });
    expect(tabs(root)).toHaveLength(0);
    expect(root.querySelector<HTMLElement>('.empty')!.hidden).toBe(false);
    await vi.waitFor(() => expect(backend.named('window_hide')).toHaveLength(1));
  });

  test('the echo of this window\'s own answer is not said to come from elsewhere', async () => {
    const backend = fakeBackend([rust, ts]);
    const { app, root } = await mount();
    const accepting = app.accept(1);
    await backend.emit('review-resolved', { id: 1, outcome: 'accepted' });
    await accepting;
    expect(tabs(root).map((t) => t.dataset.id)).toEqual(['2']);
    expect(root.querySelector('.toasts')!.textContent).not.toContain('elsewhere');
    await backend.emit('review-resolved', { id: 2, outcome: 'rejected' });
    expect(root.querySelector('.toasts')!.textContent).toContain('was rejected elsewhere');
  });

  test('with keepOpen on, the empty window stays', async () => {
    const backend = fakeBackend([rust], { popup: 'focus', keepOpen: true, history: { turns: 200, mib: 1024 } });
    const { root } = await mount();
    await backend.emit('review-resolved', { id: 1, outcome: 'closed' });
    await vi.waitFor(() => expect(backend.named('settings_get')).toHaveLength(1));
    await settle();
    expect(backend.named('window_hide')).toHaveLength(0);
    expect(root.querySelector<HTMLElement>('.empty')!.hidden).toBe(false);
  });

  test('accepting the last review hides the window', async () => {
    const backend = fakeBackend([rust]);
    const { root } = await mount();
    key({ key: 's', ctrlKey: true }, document.body);
    await vi.waitFor(() => expect(backend.named('window_hide')).toHaveLength(1));
    expect(tabs(root)).toHaveLength(0);
  });

  test('a review resolved before the list arrives does not come back', async () => {
    const backend = fakeBackend([rust]);
    const { root, app } = await mount();
    await backend.emit('review-resolved', { id: 1, outcome: 'accepted' });
    await backend.emit('review-updated', rust);
    expect(tabs(root)).toHaveLength(0);
    expect(app.list.size).toBe(0);
  });
});

describe('edits pushed to the backend', () => {
  test('typing sends one debounced update with the whole text', async () => {
    const backend = fakeBackend([rust]);
    const { root } = await mount();
    typeAtEnd(root, 'a');
    typeAtEnd(root, 'b');
    typeAtEnd(root, 'c');
    await new Promise((r) => setTimeout(r, 50));
    expect(backend.named('review_update')).toHaveLength(0);
    await vi.waitFor(() => expect(backend.named('review_update')).toHaveLength(1), { timeout: 1000 });
    expect(backend.named('review_update')[0]).toEqual({ id: 1, revision: 1, content: `${rust.proposal}abc` });
    await new Promise((r) => setTimeout(r, 200));
    expect(backend.named('review_update')).toHaveLength(1);
  });

  test('the counts follow the edits', async () => {
    fakeBackend([rust]);
    const { root } = await mount({ pushDelayMs: 0 });
    typeAtEnd(root, 'one\ntwo\n');
    await vi.waitFor(() => expect(root.querySelector('.summary .counts')!.textContent).toBe('+3\u22121'));
    expect(tabs(root)[0].querySelector('.counts')!.textContent).toBe('+3\u22121');
  });

  test('a pending edit is sent before switching tabs', async () => {
    const backend = fakeBackend([rust, ts]);
    const { root } = await mount({ pushDelayMs: 10_000 });
    typeAtEnd(root, 'z');
    tabs(root)[1].click();
    await settle();
    expect(backend.named('review_update')).toEqual([{ id: 1, revision: 1, content: `${rust.proposal}z` }]);
  });

  test('a failed update is shown', async () => {
    const backend = fakeBackend([rust]);
    backend.failing.set('review_update', { code: 'no_such_review', message: 'review 1 is gone' });
    const { root } = await mount({ pushDelayMs: 0 });
    typeAtEnd(root, 'z');
    await vi.waitFor(() => expect(root.querySelector('.toast.error')!.textContent).toContain('review 1 is gone'));
  });

  test('an update refused because the CLI re-proposed is not an error to show, and the new proposal takes over', async () => {
    const backend = fakeBackend([rust]);
    backend.failing.set('review_update', { code: 'superseded', message: 'the CLI proposed a new version' });
    const { root } = await mount({ pushDelayMs: 0 });
    typeAtEnd(root, 'z');
    await vi.waitFor(() => expect(backend.named('review_update')).toHaveLength(1));
    const v2 = { ...rust, revision: 2, proposal: `${rust.proposal}// v2\n`, current: `${rust.proposal}// v2\n` };
    await backend.emit('review-updated', v2);
    await settle();
    expect(root.querySelector('.toast.error')).toBeNull();
    root.querySelector<HTMLButtonElement>('.actions .accept')!.click();
    await vi.waitFor(() => expect(backend.named('review_accept')).toHaveLength(1));
    expect(backend.named('review_accept')[0]).toEqual({ id: 1, revision: 2, content: v2.proposal });
  });

  test('accept does not race a pending update', async () => {
    const backend = fakeBackend([rust]);
    const { root } = await mount({ pushDelayMs: 10_000 });
    typeAtEnd(root, 'q');
    key({ key: 'Enter', ctrlKey: true }, document.body);
    await vi.waitFor(() => expect(backend.named('review_accept')).toHaveLength(1));
    expect(backend.named('review_update')).toHaveLength(0);
    expect(backend.named('review_accept')[0].content).toBe(`${rust.proposal}q`);
  });

  test('an update from the backend keeps the user\'s edits; a new proposal replaces them', async () => {
    const backend = fakeBackend([rust]);
    const { root } = await mount({ pushDelayMs: 10_000 });
    typeAtEnd(root, 'mine');
    await backend.emit('review-updated', { ...rust, added: 9 });
    expect(editableView(root).state.doc.toString()).toBe(`${rust.proposal}mine`);
    expect(tabs(root)[0].querySelector('.counts')!.textContent).toBe('+9\u22122');
    await backend.emit('review-updated', { ...rust, proposal: 'fn main() {}\n', current: 'fn main() {}\n' });
    expect(editableView(root).state.doc.toString()).toBe('fn main() {}\n');
  });
});

describe('closing the window', () => {
  test('with reviews pending, asks; "Keep pending" answers rejectPending false', async () => {
    const backend = fakeBackend([rust, ts]);
    const { root } = await mount();
    await backend.emit('close-requested', null);
    const backdrop = root.querySelector<HTMLElement>('.backdrop')!;
    expect(backdrop.hidden).toBe(false);
    expect(backdrop.textContent).toContain('2 reviews are still pending.');
    expect(backend.named('window_close_answer')).toHaveLength(0);
    backdrop.querySelector<HTMLButtonElement>('[data-answer=keep]')!.click();
    await vi.waitFor(() => expect(backend.named('window_close_answer')).toEqual([{ rejectPending: false }]));
    expect(backdrop.hidden).toBe(true);
  });

  test('"Reject all" answers rejectPending true', async () => {
    const backend = fakeBackend([rust]);
    const { root } = await mount();
    await backend.emit('close-requested', null);
    expect(root.querySelector('.backdrop')!.textContent).toContain('One review is still pending.');
    root.querySelector<HTMLButtonElement>('[data-answer=reject]')!.click();
    await vi.waitFor(() => expect(backend.named('window_close_answer')).toEqual([{ rejectPending: true }]));
  });

  test('Escape keeps the reviews pending, and shortcuts do not reach the review meanwhile', async () => {
    const backend = fakeBackend([rust]);
    const { root } = await mount();
    await backend.emit('close-requested', null);
    key({ key: 's', ctrlKey: true }, document.body);
    key({ key: 'Escape' }, document.body);
    await vi.waitFor(() => expect(backend.named('window_close_answer')).toEqual([{ rejectPending: false }]));
    expect(backend.named('review_accept')).toHaveLength(0);
    expect(root.querySelector<HTMLElement>('.backdrop')!.hidden).toBe(true);
  });

  test('with nothing pending, answers at once without asking', async () => {
    const backend = fakeBackend([]);
    const { root } = await mount();
    await backend.emit('close-requested', null);
    await vi.waitFor(() => expect(backend.named('window_close_answer')).toEqual([{ rejectPending: false }]));
    expect(root.querySelector<HTMLElement>('.backdrop')!.hidden).toBe(true);
  });

  test('pending edits are pushed before answering', async () => {
    const backend = fakeBackend([rust]);
    const { root } = await mount({ pushDelayMs: 10_000 });
    typeAtEnd(root, 'late');
    await backend.emit('close-requested', null);
    root.querySelector<HTMLButtonElement>('[data-answer=keep]')!.click();
    await vi.waitFor(() => expect(backend.named('window_close_answer')).toHaveLength(1));
    const order = backend.calls.map((c) => c.cmd).filter((c) => c === 'review_update' || c === 'window_close_answer');
    expect(order).toEqual(['review_update', 'window_close_answer']);
  });
});

describe('file changed on disk', () => {
  test('a banner shows when the review is shown', async () => {
    const backend = fakeBackend([rust, ts]);
    backend.diskChanged.add(2);
    const { root } = await mount();
    const banner = root.querySelector<HTMLElement>('.disk-changed')!;
    await settle();
    expect(backend.named('review_disk_changed')).toEqual([{ id: 1 }]);
    expect(banner.hidden).toBe(true);
    tabs(root)[1].click();
    await vi.waitFor(() => expect(banner.hidden).toBe(false));
    expect(banner.textContent).toContain('changed on disk');
    tabs(root)[0].click();
    await settle();
    expect(banner.hidden).toBe(true);
  });

  test('the check runs again when the window gains focus', async () => {
    const backend = fakeBackend([rust]);
    const { root } = await mount();
    await settle();
    const banner = root.querySelector<HTMLElement>('.disk-changed')!;
    expect(banner.hidden).toBe(true);
    backend.diskChanged.add(1);
    window.dispatchEvent(new Event('focus'));
    await vi.waitFor(() => expect(banner.hidden).toBe(false));
    expect(backend.named('review_disk_changed')).toHaveLength(2);
  });

  test('focus and visibility arriving together ask once', async () => {
    const backend = fakeBackend([rust]);
    await mount();
    await settle();
    expect(backend.named('review_disk_changed')).toHaveLength(1);
    // A pop-up: the window becomes visible and takes focus, twice over as WebKit reports it.
    for (let i = 0; i < 2; i++) {
      document.dispatchEvent(new Event('visibilitychange'));
      window.dispatchEvent(new Event('focus'));
    }
    await settle();
    expect(backend.named('review_disk_changed')).toHaveLength(2);
  });
});

describe('the diff view', () => {
  const twoChanges = detail(3, {
    original: Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n'),
    proposal: Array.from({ length: 40 }, (_, i) => (i === 5 || i === 30 ? `LINE ${i}` : `line ${i}`)).join('\n'),
  });
  twoChanges.current = twoChanges.proposal;

  test('switches to a unified view and back, keeping the text', async () => {
    fakeBackend([rust]);
    const { root } = await mount();
    typeAtEnd(root, '// kept');
    root.querySelector<HTMLButtonElement>('[data-layout=unified]')!.click();
    expect(root.querySelector('.cm-mergeView')).toBeNull();
    expect(root.querySelector('.cm-deletedChunk')).not.toBeNull();
    expect(root.querySelector<HTMLElement>('.columns')!.hidden).toBe(true);
    expect(editableView(root).state.doc.toString()).toBe(`${rust.proposal}// kept`);
    root.querySelector<HTMLButtonElement>('[data-layout=split]')!.click();
    expect(root.querySelector('.cm-mergeView')).not.toBeNull();
    expect(editableView(root).state.doc.toString()).toBe(`${rust.proposal}// kept`);
  });

  test('unchanged stretches are collapsed', async () => {
    fakeBackend([twoChanges]);
    const { root } = await mount();
    expect(root.querySelector('.cm-collapsedLines')).not.toBeNull();
  });

  test('Alt+Down / F7 and Alt+Up / Shift+F7 move between changes', async () => {
    fakeBackend([twoChanges]);
    const { root } = await mount();
    const view = editableView(root);
    const lineOfHead = () => view.state.doc.lineAt(view.state.selection.main.head).number;
    expect(key({ key: 'ArrowDown', altKey: true }, view.contentDOM).defaultPrevented).toBe(true);
    expect(lineOfHead()).toBe(6);
    key({ key: 'F7' }, view.contentDOM);
    expect(lineOfHead()).toBe(31);
    key({ key: 'ArrowUp', altKey: true }, view.contentDOM);
    expect(lineOfHead()).toBe(6);
    key({ key: 'F7', shiftKey: true }, view.contentDOM);
    expect(lineOfHead()).toBe(31);
    // Alt+Up moved the cursor, not the line: the text is untouched.
    expect(view.state.doc.toString()).toBe(twoChanges.proposal);
  });

  test('a new file opens in the unified view', async () => {
    fakeBackend([ts]);
    const { root } = await mount();
    expect(root.querySelector('.cm-mergeView')).toBeNull();
    expect(root.querySelector('[data-layout=unified]')!.getAttribute('aria-pressed')).toBe('true');
  });
});

describe('settings', () => {
  test('the settings form reads and writes the backend settings', async () => {
    const backend = fakeBackend([rust], { popup: 'noFocus', keepOpen: true, history: { turns: 7, mib: 64 } });
    const { root } = await mount();
    root.querySelector<HTMLButtonElement>('.settings-toggle')!.click();
    const form = root.querySelector<HTMLFormElement>('.settings')!;
    await vi.waitFor(() => expect(form.hidden).toBe(false));
    expect(form.querySelector<HTMLInputElement>('input[value=noFocus]')!.checked).toBe(true);
    expect(form.querySelector<HTMLInputElement>('input[name=keepOpen]')!.checked).toBe(true);
    const trayOnly = form.querySelector<HTMLInputElement>('input[value=trayOnly]')!;
    trayOnly.checked = true;
    trayOnly.dispatchEvent(new Event('change', { bubbles: true }));
    await vi.waitFor(() => expect(backend.named('settings_set')).toEqual([
      { settings: { popup: 'trayOnly', keepOpen: true, history: { turns: 7, mib: 64 } } },
    ]));
  });

  test('the turn history kept: shown, saved, and an empty field sent as 0 for the core to refuse', async () => {
    const backend = fakeBackend([rust], { popup: 'focus', keepOpen: false, history: { turns: 7, mib: 64 } });
    const { root } = await mount();
    root.querySelector<HTMLButtonElement>('.settings-toggle')!.click();
    const form = root.querySelector<HTMLFormElement>('.settings')!;
    await vi.waitFor(() => expect(form.hidden).toBe(false));
    const turns = form.querySelector<HTMLInputElement>('input[name=historyTurns]')!;
    const mib = form.querySelector<HTMLInputElement>('input[name=historyMib]')!;
    expect([turns.value, mib.value]).toEqual(['7', '64']);
    turns.value = '50';
    turns.dispatchEvent(new Event('change', { bubbles: true }));
    await vi.waitFor(() => expect(backend.named('settings_set')).toHaveLength(1));
    expect(backend.named('settings_set')[0]).toEqual({ settings: { popup: 'focus', keepOpen: false, history: { turns: 50, mib: 64 } } });
    mib.value = '';
    mib.dispatchEvent(new Event('change', { bubbles: true }));
    await vi.waitFor(() => expect(backend.named('settings_set')).toHaveLength(2));
    expect(backend.named('settings_set')[1]).toEqual({ settings: { popup: 'focus', keepOpen: false, history: { turns: 50, mib: 0 } } });
  });
});

describe('the editor setting', () => {
  test('shows the saved editor, saves a new one with the other settings, and empty is none', async () => {
    const backend = fakeBackend([rust], { popup: 'focus', keepOpen: false, editor: 'nvim', history: { turns: 200, mib: 1024 } });
    const { root } = await mount();
    root.querySelector<HTMLButtonElement>('.settings-toggle')!.click();
    const form = root.querySelector<HTMLFormElement>('.settings')!;
    await vi.waitFor(() => expect(form.hidden).toBe(false));
    const editor = form.querySelector<HTMLInputElement>('input[name=editor]')!;
    expect(editor.value).toBe('nvim');
    expect(form.textContent).toContain('$EDITOR');

    editor.value = '  code --wait ';
    editor.dispatchEvent(new Event('change', { bubbles: true }));
    await vi.waitFor(() => expect(backend.named('settings_set')).toEqual([
      { settings: { popup: 'focus', keepOpen: false, editor: 'code --wait', history: { turns: 200, mib: 1024 } } },
    ]));
    // Enter saves too, without the form's own submit (which would reload the page).
    editor.value = 'hx';
    const submit = new Event('submit', { bubbles: true, cancelable: true });
    form.dispatchEvent(submit);
    expect(submit.defaultPrevented).toBe(true);
    await vi.waitFor(() => expect(backend.named('settings_set')).toHaveLength(2));
    expect(backend.named('settings_set')[1]).toEqual({ settings: { popup: 'focus', keepOpen: false, editor: 'hx', history: { turns: 200, mib: 1024 } } });

    editor.value = '   ';
    editor.dispatchEvent(new Event('change', { bubbles: true }));
    await vi.waitFor(() => expect(backend.named('settings_set')).toHaveLength(3));
    expect(backend.named('settings_set')[2]).toStrictEqual({ settings: { popup: 'focus', keepOpen: false, history: { turns: 200, mib: 1024 } } });
  });
});

describe('asking Claude Code about a part', () => {
  const claude = detail(7, {
    client: { name: 'Claude Code', version: '2.1.330', process: null }, canMention: true,
    proposal: 'zero\none\ntwo\nthree\n', current: 'zero\none\ntwo\nthree\n',
  });

  test('the selected lines go to the Claude Code that asked; the selection follows, debounced', async () => {
    const backend = fakeBackend([claude]);
    const { root } = await mount();
    const ask = root.querySelector<HTMLButtonElement>('.actions .ask')!;
    expect(ask.hidden).toBe(false);
    const view = editableView(root);
    const line = (n: number) => view.state.doc.line(n + 1);
    view.dispatch({ selection: EditorSelection.range(line(1).from + 1, line(2).from + 2) });
    view.dispatch({ selection: EditorSelection.range(line(1).from, line(2).to) });
    await vi.waitFor(() => expect(backend.named('review_select')).toHaveLength(1));
    expect(backend.named('review_select')[0]).toEqual({
      id: 7, selection: { startLine: 1, startCharacter: 0, endLine: 2, endCharacter: 3 },
    });
    ask.click();
    await vi.waitFor(() => expect(backend.named('review_mention')).toEqual([{ id: 7, lineStart: 1, lineEnd: 2 }]));
    await vi.waitFor(() => expect(root.querySelector('.toast.info')!.textContent).toContain('lines 2–3'));
    view.dispatch({ selection: EditorSelection.cursor(line(3).from) });
    key({ key: 'k', ctrlKey: true, altKey: true, code: 'KeyK' });
    await vi.waitFor(() => expect(backend.named('review_mention')).toHaveLength(2));
    expect(backend.named('review_mention')[1]).toEqual({ id: 7, lineStart: 3, lineEnd: 3 });
  });

  // The button follows what the core says the session can take, never the CLI's name.
  const unreachable = detail(8, { client: { name: 'Claude Code', version: '2.1.330', process: null }, canMention: false });
  test.each([['Gemini CLI or Qwen Code', rust], ['a session that cannot take one', unreachable]])('no button and no mention for %s', async (_, review) => {
    const backend = fakeBackend([review]);
    const { root } = await mount();
    expect(root.querySelector<HTMLButtonElement>('.actions .ask')!.hidden).toBe(true);
    editableView(root).dispatch({ selection: EditorSelection.range(0, 5) });
    key({ key: 'k', ctrlKey: true, altKey: true, code: 'KeyK' });
    await settle();
    expect(backend.named('review_mention')).toHaveLength(0);
  });
});
