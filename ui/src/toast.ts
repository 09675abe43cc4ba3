// Messages to the user: every failed backend call ends up here, so no error goes unseen, and
// none stays past its use: each goes after a while, on a click, or with what it was about.
import { toFault } from './ipc';

/** More than a few at once is a pile nobody reads: the oldest goes first. */
export const MAX_VISIBLE = 3;
export const INFO_MS = 5000;
/** Errors stay longer than news: one may explain why an accept did not happen. */
export const ERROR_MS = 20000;

/**
 * What a toast is about: a review (`review:ID`) or the welcome page. When that is gone (the
 * review answered, the page left) the toast goes with it; a toast about nothing in particular
 * only times out.
 */
export type Topic = `review:${number}` | 'welcome';

export const reviewTopic = (id: number): Topic => `review:${id}`;

export class Toasts {
  constructor(private box: HTMLElement) {
    // A click anywhere on a toast dismisses it: the × is only the obvious place.
    box.addEventListener('click', (e) => {
      (e.target as HTMLElement).closest('.toast')?.remove();
    });
  }

  error(err: unknown, context?: string, topic?: Topic): void {
    const { code, message } = toFault(err);
    const toast = this.add('error', context ? `${context}: ${message}` : message, ERROR_MS, topic);
    toast.setAttribute('role', 'alert');
    toast.title = `Error code: ${code}`;
  }

  info(message: string, topic?: Topic): void {
    this.add('info', message, INFO_MS, topic);
  }

  /** Removes the toasts about `topic`: what they were about is gone. */
  clear(topic: Topic): void {
    for (const toast of this.box.querySelectorAll<HTMLElement>('.toast')) {
      if (toast.dataset.topic === topic) toast.remove();
    }
  }

  private add(kind: 'error' | 'info', message: string, ms: number, topic?: Topic): HTMLElement {
    // The same words again replace the old toast, so a repeated failure is one line, not a pile.
    for (const old of this.box.querySelectorAll<HTMLElement>('.toast')) {
      if (old.querySelector('.toast-text')?.textContent === message) old.remove();
    }
    const toast = document.createElement('div');
    toast.className = `toast ${kind}`;
    if (topic) toast.dataset.topic = topic;
    const text = document.createElement('span');
    text.className = 'toast-text';
    text.textContent = message;
    const close = document.createElement('button');
    close.type = 'button';
    close.className = 'toast-close';
    close.setAttribute('aria-label', 'Dismiss');
    close.textContent = '×';
    toast.append(text, close);
    this.box.append(toast);
    while (this.box.childElementCount > MAX_VISIBLE) this.box.firstElementChild?.remove();
    setTimeout(() => toast.remove(), ms);
    return toast;
  }
}
