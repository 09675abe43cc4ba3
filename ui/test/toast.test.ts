import { afterEach, describe, expect, test, vi } from 'vitest';
import { ERROR_MS, INFO_MS, MAX_VISIBLE, Toasts } from '../src/toast';
import { detail, fakeBackend, mount, reset, settle } from './helpers';

afterEach(() => {
  vi.useRealTimers();
  reset();
});

function box(): { toasts: Toasts; el: HTMLElement } {
  document.body.innerHTML = '<div class="toasts"></div>';
  const el = document.querySelector<HTMLElement>('.toasts')!;
  return { toasts: new Toasts(el), el };
}

const texts = (el: HTMLElement) => [...el.querySelectorAll('.toast-text')].map((t) => t.textContent);

describe('toasts', () => {
  test('an error goes after a while, later than news', () => {
    vi.useFakeTimers();
    const { toasts, el } = box();
    toasts.error({ code: 'io', message: 'disk full' }, 'Could not accept a.rs');
    toasts.info('a.rs was accepted elsewhere');
    vi.advanceTimersByTime(INFO_MS);
    expect(texts(el)).toEqual(['Could not accept a.rs: disk full']);
    expect(ERROR_MS).toBeGreaterThan(INFO_MS);
    vi.advanceTimersByTime(ERROR_MS - INFO_MS);
    expect(texts(el)).toEqual([]);
  });

  test('a click on the toast or its × dismisses it', () => {
    const { toasts, el } = box();
    toasts.error('one');
    toasts.error('two');
    el.querySelector<HTMLElement>('.toast-text')!.click();
    expect(texts(el)).toEqual(['two']);
    el.querySelector<HTMLButtonElement>('.toast-close')!.click();
    expect(texts(el)).toEqual([]);
  });

  test('no pile: at most a few, the oldest go, the same words are shown once', () => {
    const { toasts, el } = box();
    for (let i = 0; i < MAX_VISIBLE + 2; i++) toasts.error(`failure ${i}`);
    expect(texts(el)).toHaveLength(MAX_VISIBLE);
    expect(texts(el)[MAX_VISIBLE - 1]).toBe(`failure ${MAX_VISIBLE + 1}`);
    toasts.error('failure 4');
    toasts.error('failure 4');
    expect(texts(el).filter((t) => t === 'failure 4')).toHaveLength(1);
  });

  test('clearing a topic removes only the toasts about it', () => {
    const { toasts, el } = box();
    toasts.error('about the page', undefined, 'welcome');
    toasts.error('about review 1', undefined, 'review:1');
    toasts.error('about nothing');
    toasts.clear('welcome');
    expect(texts(el)).toEqual(['about review 1', 'about nothing']);
    toasts.clear('review:1');
    expect(texts(el)).toEqual(['about nothing']);
  });
});

describe('toasts in the window', () => {
  test('the welcome page\'s error goes when a review comes; a review\'s error goes with the review', async () => {
    const backend = fakeBackend([]);
    backend.failing.set('welcome', { code: 'usage', message: '/home/ana is your home folder' });
    const { root } = await mount();
    await settle();
    expect(root.querySelector('.toast.error')!.textContent).toContain('home folder');
    backend.failing.delete('welcome');

    const review = detail(1, { relativePath: 'src/long.rs' });
    await backend.emit('review-added', review);
    await settle();
    expect(root.querySelector('.toast.error')).toBeNull();

    backend.failing.set('review_open_in_editor', { code: 'io', message: 'no editor found' });
    root.querySelector<HTMLButtonElement>('.actions .open-editor')!.click();
    await vi.waitFor(() => expect(root.querySelector('.toast.error')!.textContent).toContain('long.rs'));
    await backend.emit('review-resolved', { id: 1, outcome: 'accepted' });
    await settle();
    expect(root.querySelector('.toast.error')).toBeNull();
  });

  test('toasts sit above the review, in the flow, so they never cover its text', async () => {
    fakeBackend([detail(1)]);
    const { root } = await mount();
    const toasts = root.querySelector('.toasts')!;
    const review = root.querySelector('.review')!;
    expect(toasts.compareDocumentPosition(review) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});
