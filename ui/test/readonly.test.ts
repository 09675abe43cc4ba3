import { afterEach, describe, expect, test, vi } from 'vitest';
import { detail, editableView, fakeBackend, key, mount, reset, settle, tabs, typeAtEnd } from './helpers';

afterEach(reset);

const reason = "Copilot CLI writes its own proposal: edits here can't be sent back.";
const locked = detail(1, { readOnly: reason });
const open = detail(2);

describe('a read-only proposal', () => {
  test('shows its one-line reason above a proposal that takes no typing', async () => {
    fakeBackend([locked, open]);
    const { root } = await mount();
    const note = root.querySelector<HTMLElement>('.banner.read-only')!;
    expect(note.hidden).toBe(false);
    expect(note.textContent).toBe(reason);
    expect(root.querySelector('.proposal-label')!.textContent).toBe('Proposal · read-only');
    const b = root.querySelector('.cm-merge-b .cm-content')!;
    expect(b.getAttribute('aria-readonly')).toBe('true');
    expect(b.getAttribute('contenteditable')).toBe('false');
    expect(root.querySelector('.rl-revert')).toBeNull();
    // The flag CodeMirror's input handling obeys: keys, paste and drop change nothing.
    expect(editableView(root).state.readOnly).toBe(true);
  });

  test('Accept sends no edited text, and no edit is ever pushed', async () => {
    const backend = fakeBackend([locked, open]);
    const { root } = await mount();
    root.querySelector<HTMLButtonElement>('.actions .accept')!.click();
    await vi.waitFor(() => expect(backend.named('review_accept')).toHaveLength(1));
    expect(backend.named('review_accept')[0]).toEqual({ id: 1, revision: 1, content: null });
    expect(backend.named('review_update')).toHaveLength(0);
    expect(backend.named('review_disk_changed').filter((a) => a.id === 1)).toHaveLength(0);
    await settle();
    expect(tabs(root).map((t) => t.dataset.id)).toEqual(['2']);
  });

  test('the keyboard accept sends no text either', async () => {
    const backend = fakeBackend([locked]);
    await mount();
    key({ key: 's', ctrlKey: true, metaKey: true });
    await vi.waitFor(() => expect(backend.named('review_accept')).toHaveLength(1));
    expect(backend.named('review_accept')[0]).toEqual({ id: 1, revision: 1, content: null });
  });

  test('an editable review beside it stays editable and has no note', async () => {
    const backend = fakeBackend([open, locked]);
    const { root } = await mount();
    expect(root.querySelector<HTMLElement>('.banner.read-only')!.hidden).toBe(true);
    expect(root.querySelector('.proposal-label')!.textContent).toBe('Proposal · editable');
    expect(root.querySelector('.cm-merge-b .cm-content')!.getAttribute('aria-readonly')).toBeNull();
    typeAtEnd(root, '// mine\n');
    root.querySelector<HTMLButtonElement>('.actions .accept')!.click();
    await vi.waitFor(() => expect(backend.named('review_accept')).toHaveLength(1));
    expect(backend.named('review_accept')[0]).toEqual({ id: 2, revision: 1, content: `${open.proposal}// mine\n` });
    // The read-only one comes to the front with its note.
    await settle();
    expect(root.querySelector<HTMLElement>('.banner.read-only')!.hidden).toBe(false);
  });

  test('the unified layout is read-only too, without revert controls', async () => {
    fakeBackend([detail(3, { readOnly: reason, newFile: true, original: '' })]);
    const { root } = await mount();
    const content = root.querySelector('.cm-content')!;
    expect(content.getAttribute('aria-readonly')).toBe('true');
    expect(root.querySelector('.rl-revert')).toBeNull();
  });
});

describe('the selection', () => {
  test('of a read-only Copilot CLI proposal goes to the core, once the user pauses', async () => {
    const backend = fakeBackend([detail(4, { readOnly: reason, client: { name: 'copilot-cli', version: '1.0.102', process: null } })]);
    const { root } = await mount();
    const view = editableView(root);
    view.dispatch({ selection: { anchor: 0, head: 3 } });
    view.dispatch({ selection: { anchor: 0, head: 5 } });
    await vi.waitFor(() => expect(backend.named('review_select')).toHaveLength(1));
    expect(backend.named('review_select')[0]).toMatchObject({ id: 4 });
  });
});
