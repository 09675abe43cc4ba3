// The question asked when the window is closed with reviews still pending.

export const DIALOG_HTML = `
<div class="backdrop" hidden>
  <div class="dialog" role="dialog" aria-modal="true" aria-labelledby="close-title" aria-describedby="close-text">
    <h2 id="close-title">Close the review window?</h2>
    <p id="close-text"><span class="dialog-text"></span> Reject them now, or keep them pending to answer
      later here or in the terminal?</p>
    <div class="dialog-buttons">
      <button type="button" class="reject" data-answer="reject">Reject all</button>
      <button type="button" class="primary" data-answer="keep">Keep pending</button>
    </div>
  </div>
</div>`;

/**
 * An in-page dialog rather than a native one: it must not block the webview, and the backend waits
 * for the answer as a command anyway. Resolves true to reject the pending reviews.
 */
export class CloseDialog {
  private resolve: ((reject: boolean) => void) | null = null;
  private keep: HTMLButtonElement;

  constructor(private backdrop: HTMLElement) {
    this.keep = backdrop.querySelector<HTMLButtonElement>('[data-answer=keep]')!;
    backdrop.addEventListener('click', (e) => {
      const answer = (e.target as HTMLElement).closest<HTMLElement>('[data-answer]')?.dataset.answer;
      if (answer) this.answer(answer === 'reject');
    });
  }

  get open(): boolean {
    return this.resolve !== null;
  }

  ask(pending: number): Promise<boolean> {
    // A second close request while asking is the same question: keep the first one's answer.
    if (this.resolve) return new Promise((res) => {
      const first = this.resolve!;
      this.resolve = (v) => { first(v); res(v); };
    });
    const text = this.backdrop.querySelector<HTMLElement>('.dialog-text')!;
    text.textContent = pending === 1
      ? 'One review is still pending.'
      : `${pending} reviews are still pending.`;
    this.backdrop.hidden = false;
    this.keep.focus();
    return new Promise((res) => { this.resolve = res; });
  }

  /** Escape keeps the reviews: the choice that loses nothing. */
  escape(): void {
    this.answer(false);
  }

  private answer(reject: boolean): void {
    const resolve = this.resolve;
    if (!resolve) return;
    this.resolve = null;
    this.backdrop.hidden = true;
    resolve(reject);
  }
}
