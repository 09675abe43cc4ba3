// Comments on lines of a per-edit review: the pending state, the pane's list, and what Reject,
// Accept and "Copy as prompt" do with them.
import { EditorView } from '@codemirror/view';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { anchor, commentOn, lineOf, MAX_COMMENTS, PendingComments } from '../src/comments';
import { detail, editableView, fakeBackend, key, mount, reset, settle, tabs } from './helpers';

afterEach(reset);

const c = (line: number, text: string) => ({ path: 'src/a.rs', line, quote: `line ${line}`, text });

describe('pending comments', () => {
  test('kept per review in line order, blank ones refused, removed and forgotten', () => {
    const p = new PendingComments();
    expect(p.add(1, c(5, ' five '))).toBe(true);
    expect(p.add(1, c(2, 'two'))).toBe(true);
    expect(p.add(1, c(5, 'five again'))).toBe(true);
    expect(p.add(1, c(3, ' \n '))).toBe(false);
    expect(p.add(2, c(1, 'other'))).toBe(true);
    expect(p.list(1).map((x) => [x.line, x.text])).toEqual([[2, 'two'], [5, 'five'], [5, 'five again']]);
    p.remove(1, 1);
    expect(p.toSend(1)?.map((x) => x.text)).toEqual(['two', 'five again']);
    p.forget(1);
    expect(p.toSend(1)).toBeUndefined();
    expect(p.list(2)).toHaveLength(1);
  });

  test('at most as many as the core takes', () => {
    const p = new PendingComments();
    for (let i = 0; i < MAX_COMMENTS; i++) expect(p.add(1, c(i + 1, 't'))).toBe(true);
    expect(p.add(1, c(1, 't'))).toBe(false);
  });

  test('a comment quotes its line without the line ending, and is anchored path:line', () => {
    expect(lineOf('a\r\nb\r\n', 1)).toBe('b');
    expect(lineOf('a', 4)).toBe('');
    const made = commentOn('src/a.rs', 'one\ntwo\n', 1, 'rename');
    expect(made).toEqual({ path: 'src/a.rs', line: 2, quote: 'two', text: 'rename' });
    expect(anchor(made)).toBe('src/a.rs:2');
  });
});

const heard = detail(1, {
  relativePath: 'src/a.rs', reasonHeard: true,
  proposal: 'fn main() {\n    println!("hello, world");\n}\n',
});
const unheard = detail(2, { relativePath: 'src/b.rs', reasonHeard: false });

const panel = (root: HTMLElement) => root.querySelector<HTMLElement>('.comments')!;
const text = (root: HTMLElement) => panel(root).querySelector<HTMLTextAreaElement>('textarea')!;
const items = (root: HTMLElement) => [...panel(root).querySelectorAll<HTMLElement>('.comment-list li')];

/** Puts the cursor on `line` (0-based) of the proposal and writes a comment there. */
function commentAt(root: HTMLElement, line: number, words: string): void {
  const view = editableView(root);
  view.focus(); // as a key pressed in it
  view.dispatch({ selection: { anchor: view.state.doc.line(line + 1).from } });
  key({ key: 'm', code: 'KeyM', ctrlKey: true, altKey: true }, view.contentDOM);
  text(root).value = words;
  key({ key: 'Enter' }, text(root));
}

describe('comments in the review pane', () => {
  test('Ctrl+Alt+M comments on the cursor line, the list shows and removes them, Reject sends them', async () => {
    const backend = fakeBackend([heard]);
    const { root } = await mount();
    expect(panel(root).hidden).toBe(true);
    commentAt(root, 1, 'say hello to whom?');
    root.querySelector<HTMLButtonElement>('.actions .comment')!.click();
    text(root).value = 'drop';
    key({ key: 'Escape' }, text(root));
    commentAt(root, 0, 'keep main');
    commentAt(root, 2, 'remove me');
    expect(items(root).map((li) => li.querySelector('.comment-where')!.textContent))
      .toEqual(['src/a.rs:1', 'src/a.rs:2', 'src/a.rs:3']);
    expect(items(root)[1].querySelector('.comment-quote')!.textContent).toBe('println!("hello, world");');
    items(root)[2].querySelector<HTMLButtonElement>('[data-remove]')!.click();
    expect(items(root)).toHaveLength(2);
    expect(panel(root).querySelector<HTMLElement>('.comments-unheard')!.hidden).toBe(true);

    root.querySelector<HTMLButtonElement>('.actions .reject')!.click();
    await vi.waitFor(() => expect(backend.named('review_reject')).toEqual([{
      id: 1,
      comments: [
        { path: 'src/a.rs', line: 1, quote: 'fn main() {', text: 'keep main' },
        { path: 'src/a.rs', line: 2, quote: '    println!("hello, world");', text: 'say hello to whom?' },
      ],
    }]));
  });

  test('a comment on the original side is on its line in the file as it was, also from the button', async () => {
    const backend = fakeBackend([detail(1, {
      relativePath: 'src/a.rs', reasonHeard: true,
      original: 'fn main() {\r\n    old();\r\n    gone();\r\n}\r\n', proposal: 'fn main() {\r\n    new();\r\n}\r\n',
    })]);
    const { root } = await mount();
    const original = EditorView.findFromDOM(root.querySelector<HTMLElement>('.cm-merge-a')!)!;
    original.focus();
    original.dispatch({ selection: { anchor: original.state.doc.line(3).from } });
    root.querySelector<HTMLButtonElement>('.actions .comment')!.click();
    text(root).value = 'why remove it?';
    key({ key: 'Enter' }, text(root));
    commentAt(root, 1, 'and this?');
    root.querySelector<HTMLButtonElement>('.actions .reject')!.click();
    await vi.waitFor(() => expect(backend.named('review_reject')).toEqual([{
      id: 1,
      comments: [
        { path: 'src/a.rs', line: 2, quote: '    new();', text: 'and this?' },
        { path: 'src/a.rs', line: 3, quote: '    gone();', text: 'why remove it?' },
      ],
    }]));
  });

  test('Accept with comments pending warns first and accepts on the second press', async () => {
    const backend = fakeBackend([heard]);
    const { root } = await mount();
    commentAt(root, 0, 'not sent');
    const accept = root.querySelector<HTMLButtonElement>('.actions .accept')!;
    accept.click();
    await settle();
    expect(backend.named('review_accept')).toHaveLength(0);
    expect(root.querySelector('.toasts')!.textContent).toContain('Your comment is not sent with Accept');
    accept.click();
    await vi.waitFor(() => expect(backend.named('review_accept')).toHaveLength(1));
  });

  test('where the CLI hears no reason the pane says so and copies the message as a prompt', async () => {
    const backend = fakeBackend([unheard]);
    const written: string[] = [];
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: async (t: string) => { written.push(t); } }, configurable: true,
    });
    const { root } = await mount();
    commentAt(root, 1, 'why?');
    const note = panel(root).querySelector<HTMLElement>('.comments-unheard')!;
    expect(note.hidden).toBe(false);
    expect(note.textContent).toContain('not sent with Reject');
    note.querySelector<HTMLButtonElement>('.copy-prompt')!.click();
    await vi.waitFor(() => expect(backend.named('comments_message')).toEqual([{
      comments: [{ path: 'src/b.rs', line: 2, quote: '    println!("hello, world");', text: 'why?' }],
    }]));
    await vi.waitFor(() => expect(written).toEqual(['message of 1 comments']));
    expect(root.querySelector('.toasts')!.textContent).toContain('Copied: paste it');
    expect(tabs(root)).toHaveLength(1);
  });
});
