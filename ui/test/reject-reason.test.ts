// "Reject with reason…": the dialog, its keys and focus, and what reaches review_reject.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { reasonNote } from '../src/reason-dialog';
import { detail, editableView, fakeBackend, key, mount, reset, settle, tabs } from './helpers';

afterEach(reset);

const heard = detail(1, {
  relativePath: 'src/name.rs', reasonHeard: true,
  client: { name: 'redline propose', version: '', process: null },
});
const unheard = detail(2, { relativePath: 'src/other.rs', reasonHeard: false });

const dialog = (root: HTMLElement) => root.querySelector<HTMLElement>('.reason-backdrop')!;
const text = (root: HTMLElement) => dialog(root).querySelector<HTMLTextAreaElement>('textarea')!;
const button = (root: HTMLElement) => root.querySelector<HTMLButtonElement>('.actions .reject-reason')!;

describe('reject with reason', () => {
  test('the button asks why, Enter sends the reason to a CLI that hears it, and focus comes back', async () => {
    const backend = fakeBackend([heard, unheard]);
    const { root } = await mount();
    expect(button(root).title).toContain('the CLI is told your reason');
    button(root).focus();
    button(root).click();
    expect(dialog(root).hidden).toBe(false);
    expect(dialog(root).textContent).toContain('Reject name.rs');
    expect(dialog(root).textContent).toContain('Told with the rejection to redline propose.');
    expect(document.activeElement).toBe(text(root));

    text(root).value = 'keep the old name';
    key({ key: 'Enter', shiftKey: true }, text(root));
    expect(dialog(root).hidden).toBe(false);
    const enter = key({ key: 'Enter' }, text(root));
    expect(enter.defaultPrevented).toBe(true);
    await vi.waitFor(() => expect(backend.named('review_reject')).toEqual([{ id: 1, reason: 'keep the old name' }]));
    expect(dialog(root).hidden).toBe(true);
    expect(document.activeElement).toBe(button(root));
    await settle();
    expect(tabs(root).map((t) => t.dataset.id)).toEqual(['2']);
  });

  test('Ctrl+Alt+R opens it, Ctrl+Enter sends and does not accept', async () => {
    const backend = fakeBackend([heard]);
    const { root } = await mount();
    key({ key: 'r', code: 'KeyR', ctrlKey: true, altKey: true }, editableView(root).contentDOM);
    expect(dialog(root).hidden).toBe(false);
    text(root).value = 'use tabs\nnot spaces';
    key({ key: 'Enter', ctrlKey: true }, text(root));
    await vi.waitFor(() => expect(backend.named('review_reject')).toEqual([{ id: 1, reason: 'use tabs\nnot spaces' }]));
    expect(backend.named('review_accept')).toHaveLength(0);
  });

  test('Escape and Cancel reject nothing; the review stays', async () => {
    const backend = fakeBackend([heard]);
    const { root } = await mount();
    button(root).click();
    text(root).value = 'never mind';
    key({ key: 'Escape' }, text(root));
    expect(dialog(root).hidden).toBe(true);
    button(root).click();
    expect(text(root).value).toBe('');
    dialog(root).querySelector<HTMLButtonElement>('[data-answer=cancel]')!.click();
    await settle();
    expect(dialog(root).hidden).toBe(true);
    expect(backend.named('review_reject')).toHaveLength(0);
    expect(tabs(root)).toHaveLength(1);
  });

  test('Tab stays inside the dialog, both ways', async () => {
    fakeBackend([heard]);
    const { root } = await mount();
    button(root).click();
    const [cancel, reject] = dialog(root).querySelectorAll<HTMLButtonElement>('button');
    reject.focus();
    expect(key({ key: 'Tab' }, reject).defaultPrevented).toBe(true);
    expect(document.activeElement).toBe(text(root));
    expect(key({ key: 'Tab', shiftKey: true }, text(root)).defaultPrevented).toBe(true);
    expect(document.activeElement).toBe(reject);
    // Between the first and the last, the browser moves focus as usual.
    cancel.focus();
    expect(key({ key: 'Tab' }, cancel).defaultPrevented).toBe(false);
  });

  test('Enter on Cancel cancels rather than sending', async () => {
    const backend = fakeBackend([heard]);
    const { root } = await mount();
    button(root).click();
    text(root).value = 'typed';
    const cancel = dialog(root).querySelector<HTMLButtonElement>('[data-answer=cancel]')!;
    cancel.focus();
    expect(key({ key: 'Enter' }, cancel).defaultPrevented).toBe(false);
    cancel.click();
    await settle();
    expect(backend.named('review_reject')).toHaveLength(0);
  });

  test('where the protocol carries no reason, it says so and rejects without one', async () => {
    const backend = fakeBackend([unheard]);
    const { root } = await mount();
    expect(button(root).disabled).toBe(false);
    expect(button(root).title).toContain("its CLI's protocol carries no reason");
    button(root).click();
    const note = dialog(root).querySelector<HTMLElement>('.reason-note')!;
    expect(note.textContent).toBe('The protocol of gemini-cli 0.9.1 carries no reason: the proposal is rejected, but the reason is not sent.');
    expect(note.classList.contains('unheard')).toBe(true);
    text(root).value = 'not sent';
    key({ key: 'Enter' }, text(root));
    await vi.waitFor(() => expect(backend.named('review_reject')).toEqual([{ id: 2 }]));
    expect(Object.keys(backend.named('review_reject')[0])).toEqual(['id']);
  });

  test('a redline command that hears no reason is told apart from a protocol that carries none', () => {
    const client = 'redline propose (run by bash · /dev/pts/3)';
    const note = reasonNote({ client, heard: false, command: true });
    expect(note).toContain('No reason reaches redline propose (run by bash · /dev/pts/3)');
    expect(note).toContain('`redline propose --wait`');
    expect(note).not.toContain('protocol');
    expect(reasonNote({ client, heard: true, command: true })).toContain(`Told with the rejection to ${client}.`);
  });

  test("the button's title on a redline command's review blames no protocol", async () => {
    const command = detail(3, {
      relativePath: 'src/cmd.rs', reasonHeard: false,
      client: { name: 'redline propose', version: '', process: null, command: true },
    });
    fakeBackend([command]);
    const { root } = await mount();
    expect(button(root).title).toContain('nothing waits for a reason');
    expect(button(root).title).not.toContain('protocol');
  });

  test('a close request while it is open cancels it and asks the close question', async () => {
    const backend = fakeBackend([heard]);
    const { root } = await mount();
    button(root).click();
    await backend.emit('close-requested', null);
    expect(dialog(root).hidden).toBe(true);
    expect(root.querySelector<HTMLElement>('.backdrop')!.hidden).toBe(false);
    expect(backend.named('review_reject')).toHaveLength(0);
  });
});
