// Messages to the user: every failed backend call ends up here, so no error goes unseen.
import { toFault } from './ipc';

const MAX_VISIBLE = 5;
const INFO_MS = 5000;

export class Toasts {
  constructor(private box: HTMLElement) {
    box.addEventListener('click', (e) => {
      const close = (e.target as HTMLElement).closest('.toast-close');
      close?.closest('.toast')?.remove();
    });
  }

  /** Shows a failure until the user dismisses it: it may explain why an accept did not happen. */
  error(err: unknown, context?: string): void {
    const { code, message } = toFault(err);
    const toast = this.add('error', context ? `${context}: ${message}` : message);
    toast.setAttribute('role', 'alert');
    toast.title = `Error code: ${code}`;
  }

  info(message: string): void {
    const toast = this.add('info', message);
    setTimeout(() => toast.remove(), INFO_MS);
  }

  private add(kind: 'error' | 'info', message: string): HTMLElement {
    const toast = document.createElement('div');
    toast.className = `toast ${kind}`;
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
    return toast;
  }
}
