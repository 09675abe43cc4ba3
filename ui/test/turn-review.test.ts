// The end of a CLI's turn: its files read-only as tabs, answered Done or Continue with instructions.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { detail, fakeBackend, key, mount, reset, settle, tabs } from './helpers';

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
