// The end of a CLI's turn: its files read-only as tabs, answered Done or Continue with instructions.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { detail, fakeBackend, key, mount, reset, settle, tabs } from './helpers';
import type { TurnFileView, TurnFiles } from '../src/types';

afterEach(reset);

const turnOf = (id: number, name: string) => detail(id, {
  relativePath: `src/${name}`, reasonHeard: true, kind: 'turn',
  readOnly: 'What Claude Code changed this turn: the file at the turn\'s start, and now.',
  client: { name: 'Claude Code', version: '2.1.332', process: null },
});

const q = <T extends HTMLElement>(root: HTMLElement, sel: string) => root.querySelector<T>(sel)!;
const dialog = (root: HTMLElement) => q(root, '.reason-backdrop');
const text = (root: HTMLElement) => dialog(root).querySelector<HTMLTextAreaElement>('textarea')!;

describe('turn review', () => {
  test('two files as tabs, read-only, with Done and Continue with instructions… in place of accept and reject', async () => {
    fakeBackend([turnOf(1, 'a.rs'), turnOf(2, 'b.rs')]);
    const { root } = await mount();
    expect(tabs(root)).toHaveLength(2);
    expect(q(root, '.actions .accept').textContent).toContain('Done');
    expect(q(root, '.actions .reject').hidden).toBe(true);
    expect(q(root, '.actions .reject-reason').textContent).toBe('Continue with instructions…');
    expect(q(root, '.original-label').textContent).toBe('At the turn\'s start');
    expect(q(root, '.proposal-label').textContent).toBe('Now · read-only');
    expect(q(root, '.banner.read-only').hidden).toBe(false);
  });

  test('Ctrl+Alt+R asks what to do next, and Enter sends the words as the rejection\'s reason', async () => {
    const backend = fakeBackend([turnOf(1, 'a.rs'), turnOf(2, 'b.rs')]);
    const { root } = await mount();
    key({ key: 'r', code: 'KeyR', ctrlKey: true, altKey: true }, document.body);
    expect(dialog(root).hidden).toBe(false);
    expect(dialog(root).textContent).toContain('Continue Claude Code');
    expect(dialog(root).textContent).toContain('What should it do next?');
    expect(document.activeElement).toBe(text(root));
    text(root).value = 'Also add a test';
    key({ key: 'Enter' }, text(root));
    await vi.waitFor(() => expect(backend.named('review_reject')).toEqual([{ id: 1, reason: 'Also add a test' }]));
    expect(backend.named('review_accept')).toHaveLength(0);
  });

  test('a blank answer keeps the question open; Done and closing a tab accept, never continue without words', async () => {
    const backend = fakeBackend([turnOf(1, 'a.rs'), turnOf(2, 'b.rs')]);
    const { root } = await mount();
    q<HTMLButtonElement>(root, '.actions .reject-reason').click();
    text(root).value = '   ';
    key({ key: 'Enter' }, text(root));
    await settle();
    expect(dialog(root).hidden).toBe(false);
    expect(backend.named('review_reject')).toHaveLength(0);
    key({ key: 'Escape' }, text(root));
    q<HTMLButtonElement>(root, '.tab[data-id="2"] .tab-close').click();
    await vi.waitFor(() => expect(backend.named('review_accept').map((a) => a.id)).toEqual([2]));
    q<HTMLButtonElement>(root, '.actions .accept').click();
    await vi.waitFor(() => expect(backend.named('review_accept').map((a) => a.id)).toEqual([2, 1]));
    expect(backend.named('review_reject')).toHaveLength(0);
  });
});

describe('a whole turn\'s review', () => {
  const whole = detail(1, { relativePath: '.', kind: 'turn', turnId: 7, reasonHeard: true });
  const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 0))));

  test('is reported painted only once its file list and first file are drawn', async () => {
    const backend = fakeBackend([whole]);
    let list: (files: TurnFiles) => void = () => {};
    let file: (view: TurnFileView) => void = () => {};
    backend.answers.set('turn_files', () => new Promise((r) => (list = r)));
    backend.answers.set('turn_file', () => new Promise((r) => (file = r)));
    const { root } = await mount();
    await frames();
    expect(backend.named('review_shown')).toEqual([]);
    list({ turn: 7, unlisted: 0, files: [{ path: 'a.rs', status: 'modified', binary: false, tooLarge: false, added: 1, removed: 1 }] });
    await frames();
    expect(root.querySelectorAll('.turn-row.file')).toHaveLength(1);
    expect(backend.named('review_shown')).toEqual([]);
    file({ path: 'a.rs', from: null, start: 'one\n', end: 'two\n', hunks: [{ before: { first: 1, count: 1 }, after: { first: 1, count: 1 } }], unshown: null });
    await vi.waitFor(() => expect(backend.named('review_shown')).toEqual([{ id: 1 }]));
    expect(root.querySelectorAll('.turn-diff .turn-line')).toHaveLength(2);
  });

  test('whose first file comes with its list is drawn from that one answer, not asked for', async () => {
    const backend = fakeBackend([whole]);
    const first: TurnFileView = { path: 'a.rs', from: null, start: 'one\n', end: 'two\n', hunks: [{ before: { first: 1, count: 1 }, after: { first: 1, count: 1 } }], unshown: null };
    backend.answers.set('turn_files', () => Promise.resolve({ turn: 7, unlisted: 0, first,
      files: [{ path: 'a.rs', status: 'modified', binary: false, tooLarge: false, added: 1, removed: 1 }] }));
    const { root } = await mount();
    await vi.waitFor(() => expect(backend.named('review_shown')).toEqual([{ id: 1 }]));
    expect(root.querySelectorAll('.turn-diff .turn-line')).toHaveLength(2);
    expect(backend.named('turn_file')).toEqual([]);
  });

  test('whose list cannot be fetched is not reported painted', async () => {
    const backend = fakeBackend([whole]);
    backend.failing.set('turn_files', { code: 'internal', message: 'no store' } as never);
    const { root } = await mount();
    await vi.waitFor(() => expect(root.querySelector('.turn-error')?.textContent).toContain('no store'));
    await frames();
    expect(backend.named('review_shown')).toEqual([]);
  });
});

describe('a whole turn\'s file diff, drawn a screen at a time', () => {
  // 400 lines, a hunk at line 3 and one at line 380 (each one line changed).
  const text = (tag: string) => Array.from({ length: 400 }, (_, i) => `line ${i + 1}${i === 2 || i === 379 ? tag : ''}\n`).join('');
  const big: TurnFileView = {
    path: 'big.rs', from: null, start: text(''), end: text(' changed'), unshown: null,
    hunks: [{ before: { first: 3, count: 1 }, after: { first: 3, count: 1 } }, { before: { first: 380, count: 1 }, after: { first: 380, count: 1 } }],
  };
  const listed: TurnFiles = { turn: 7, unlisted: 0, first: big,
    files: [{ path: 'big.rs', status: 'modified', binary: false, tooLarge: false, added: 2, removed: 2 }] };

  async function view() {
    const { TurnView, TURN_VIEW_HTML } = await import('../src/turn-view');
    const holder = document.createElement('div');
    holder.innerHTML = TURN_VIEW_HTML;
    document.body.append(holder);
    const undo = vi.fn(() => Promise.resolve({ undo: 'done', files: ['big.rs'] } as never));
    const turn = new TurnView(holder.querySelector<HTMLElement>('.turn-view')!, {
      files: () => Promise.resolve(listed), file: () => Promise.resolve(big), undo,
      done: vi.fn(), continue: vi.fn(), active: () => true,
    });
    expect(await turn.open(1)).toBe(true);
    const diff = holder.querySelector<HTMLElement>('.turn-diff')!;
    const numbers = () => [...diff.querySelectorAll('.turn-line .num')].map((n) => n.textContent).filter((n) => n !== '').map(Number);
    return { turn, diff, numbers, undo, holder };
  }

  test('draws the first screen only, and the rows below it when scrolled to', async () => {
    const { diff, numbers } = await view();
    const first = numbers();
    expect(first.slice(0, 3)).toEqual([1, 2, 3]);
    expect(first.length).toBeGreaterThan(20);
    expect(first.length).toBeLessThan(200);
    expect(diff.querySelector<HTMLElement>('.turn-diff-rest')!.style.height).not.toBe('0px');
    diff.scrollTop = 5000;
    diff.dispatchEvent(new Event('scroll'));
    expect(numbers().length).toBeGreaterThan(first.length);
    diff.scrollTop = 400 * 15;
    diff.dispatchEvent(new Event('scroll'));
    expect(numbers()).toEqual(Array.from({ length: 400 }, (_, i) => i + 1));
    expect(diff.querySelector<HTMLElement>('.turn-diff-rest')!.style.height).toBe('0px');
    expect(diff.lastElementChild!.className).toBe('turn-diff-rest');
  });

  test('a hunk navigated to below the first screen is drawn and scrolled to; its Keep and a line\'s comment work', async () => {
    const scrolled: Element[] = [];
    const was = Element.prototype.scrollIntoView;
    Element.prototype.scrollIntoView = function (this: Element) { scrolled.push(this); };
    try {
      const { turn, diff, numbers, undo, holder } = await view();
      expect(numbers()).not.toContain(380);
      key({ key: 'j' }, document.body);
      const current = diff.querySelector('.hunk.current')!;
      expect(current.textContent).toContain('line 380 changed');
      expect(scrolled.at(-1)).toBe(current);
      expect(numbers()).toContain(380);
      key({ key: 'a' }, document.body);
      expect(diff.querySelector('.hunk.current .hunk-keep')!.textContent).toBe('Kept');
      expect(numbers()).toContain(380);
      diff.querySelector<HTMLButtonElement>('.hunk.current .hunk-undo')!.click();
      await vi.waitFor(() => expect(undo).toHaveBeenCalledWith(1, [{ path: 'big.rs', hunks: [big.hunks[1]] }]));
      key({ key: 'k' }, document.body);
      expect(diff.querySelector('.hunk.current')!.textContent).toContain('line 3 changed');
      [...diff.querySelectorAll<HTMLElement>('.turn-line .num')].find((n) => n.textContent === '2')!.click();
      expect(holder.querySelector('.turn-comment-at')!.textContent).toBe('big.rs:2');
      turn.addComment(2, 'why?');
      expect(turn.comments).toEqual([{ path: 'big.rs', line: 2, quote: 'line 2', text: 'why?' }]);
    } finally {
      Element.prototype.scrollIntoView = was;
    }
  });
});
