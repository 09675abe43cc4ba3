import { afterEach, describe, expect, test, vi } from 'vitest';
import { EditorSelection } from '@codemirror/state';
import { detail, editableView, fakeBackend, key, mount, reset } from './helpers';

afterEach(reset);

const original = 'a\nb\nc\nd\ne\nf\ng\nh\n';
const proposal = 'a\nB\nc\nd\ne\nf\nG\nh\n';
const two = detail(1, { original, proposal, current: proposal });

describe('open in editor', () => {
  test('the button opens the file at the change under the caret, as a line of the file on disk', async () => {
    const backend = fakeBackend([two]);
    const { root } = await mount();
    const button = root.querySelector<HTMLButtonElement>('.actions .open-editor')!;
    button.click();
    await vi.waitFor(() => expect(backend.named('review_open_in_editor')).toHaveLength(1));
    expect(backend.named('review_open_in_editor')[0]).toEqual({ id: 1, line: 2 });
    // The caret past the first change: the next one.
    const view = editableView(root);
    view.dispatch({ selection: EditorSelection.cursor(view.state.doc.line(5).from) });
    button.click();
    await vi.waitFor(() => expect(backend.named('review_open_in_editor')).toHaveLength(2));
    expect(backend.named('review_open_in_editor')[1]).toEqual({ id: 1, line: 7 });
  });

  test('Ctrl/Cmd+Alt+E does the same, and a failure is shown', async () => {
    const backend = fakeBackend([two]);
    backend.failing.set('review_open_in_editor', { code: 'usage', message: 'no editor: set $VISUAL or $EDITOR' });
    const { root } = await mount();
    key({ key: 'e', code: 'KeyE', ctrlKey: true, altKey: true });
    await vi.waitFor(() => expect(root.querySelector('.toasts')!.textContent).toContain('no editor'));
    expect(backend.named('review_open_in_editor')[0]).toEqual({ id: 1, line: 2 });
  });
});
