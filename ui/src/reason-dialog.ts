// "Reject with reason…": the question that asks why, before a review is rejected.
import { baseName, clientLabel, type Review } from './reviews';

/** The core refuses a longer reason (review::reason::MAX_REASON_CHARS): stop the typing there. */
export const MAX_REASON_CHARS = 2000;

export const REASON_DIALOG_HTML = `
<div class="backdrop reason-backdrop" hidden>
  <div class="dialog reason-dialog" role="dialog" aria-modal="true" aria-labelledby="reason-title" aria-describedby="reason-note">
    <h2 id="reason-title"><span class="reason-verb">Reject</span> <span class="reason-file"></span></h2>
    <label for="reason-text" class="reason-label">Why? Say what to do instead:</label>
    <textarea id="reason-text" rows="4" maxlength="${MAX_REASON_CHARS}" spellcheck="true"></textarea>
    <p id="reason-note" class="reason-note"></p>
    <div class="dialog-buttons">
      <button type="button" data-answer="cancel">Cancel</button>
      <button type="button" class="reject" data-answer="reject">Reject</button>
    </div>
  </div>
</div>`;

/** What the dialog says of the review it asks about. */
export interface ReasonAsk {
  /** The file's name, for the title. */
  file: string;
  /** Who asked, as the summary names it. */
  client: string;
  /** Whoever asked hears the reason (`reasonHeard`); if not, the dialog says it is not sent. */
  heard: boolean;
  /** The end of a CLI's turn: the text is the CLI's next instruction, not a rejection's reason. */
  turn?: boolean;
  /** A `redline` command asked (`ClientInfo.command`): no protocol is to blame when it hears none. */
  command?: boolean;
}

/** What the dialog says of `review`. */
export function reasonAsk(review: Review): ReasonAsk {
  const d = review.detail;
  // A turn is continued by the CLI itself, named as its hook's site names it.
  const client = d.kind === 'turn' ? d.client.name : clientLabel(d.client);
  return { file: baseName(d.relativePath), client, heard: d.reasonHeard, turn: d.kind === 'turn', command: d.client.command };
}

/** The note under the text: where the reason goes, or that it goes nowhere. */
export function reasonNote({ client, heard, turn, command }: Pick<ReasonAsk, 'client' | 'heard' | 'turn' | 'command'>): string {
  if (turn) return `Sent to ${client} as your next instruction: it goes on with this turn. Enter sends, Shift+Enter starts a new line.`;
  // A propose without --wait has returned, and a diff prints no reason: nobody hears one.
  if (!heard && command) return `No reason reaches ${client} (only \`redline propose --wait\` hears one): the proposal is rejected, but the reason is not sent.`;
  return heard
    ? `Told with the rejection to ${client}. Enter rejects, Shift+Enter starts a new line.`
    : `The protocol of ${client} carries no reason: the proposal is rejected, but the reason is not sent.`;
}

/**
 * In the page, as the close question is (dialog.ts), so it never blocks the webview. Resolves with
 * the reason to reject with (possibly blank), or null when cancelled. Focus stays inside while it
 * is open and goes back where it was when it closes.
 */
export class ReasonDialog {
  private resolve: ((reason: string | null) => void) | null = null;
  /** Asking what a CLI's turn goes on with: only words can send it on. */
  private turn = false;
  private returnFocus: HTMLElement | null = null;
  private readonly text: HTMLTextAreaElement;
  private readonly box: HTMLElement;

  constructor(private backdrop: HTMLElement) {
    this.text = backdrop.querySelector<HTMLTextAreaElement>('textarea')!;
    this.box = backdrop.querySelector<HTMLElement>('.dialog')!;
    backdrop.addEventListener('click', (e) => {
      const answer = (e.target as HTMLElement).closest<HTMLElement>('[data-answer]')?.dataset.answer;
      if (answer) this.send(answer === 'reject' ? this.text.value : null);
    });
    backdrop.addEventListener('keydown', (e) => this.onKey(e));
  }

  get open(): boolean {
    return this.resolve !== null;
  }

  ask(about: ReasonAsk): Promise<string | null> {
    // Asked again while open (the shortcut pressed twice): one question, one answer.
    if (this.resolve) return new Promise((res) => {
      const first = this.resolve!;
      this.resolve = (v) => { first(v); res(v); };
    });
    const turn = this.turn = about.turn === true;
    this.backdrop.querySelector<HTMLElement>('.reason-file')!.textContent = turn ? about.client : about.file;
    this.backdrop.querySelector<HTMLElement>('.reason-verb')!.textContent = turn ? 'Continue' : 'Reject';
    this.backdrop.querySelector<HTMLElement>('.reason-label')!.textContent = turn
      ? 'What should it do next?' : 'Why? Say what to do instead:';
    const send = this.backdrop.querySelector<HTMLElement>('[data-answer="reject"]')!;
    send.textContent = turn ? 'Continue' : 'Reject';
    send.classList.toggle('reject', !turn);
    send.classList.toggle('accept', turn);
    const note = this.backdrop.querySelector<HTMLElement>('.reason-note')!;
    note.textContent = reasonNote(about);
    note.classList.toggle('unheard', !about.heard);
    this.text.value = '';
    this.returnFocus = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    this.backdrop.hidden = false;
    this.text.focus();
    return new Promise((res) => { this.resolve = res; });
  }

  /** Escape cancels: nothing is rejected. */
  escape(): void {
    this.answer(null);
  }

  private onKey(e: KeyboardEvent): void {
    if (!this.open) return;
    // Enter in the text sends (Shift+Enter is a new line); Ctrl/⌘+Enter sends from anywhere,
    // while Enter on a button presses that button.
    const mod = e.ctrlKey || e.metaKey;
    const send = e.key === 'Enter' && !e.altKey && (mod || (e.target === this.text && !e.shiftKey));
    if (send && !e.isComposing) {
      e.preventDefault();
      this.send(this.text.value);
    } else if (e.key === 'Tab') {
      this.trapTab(e);
    }
  }

  /** Tab from the last control goes to the first, Shift+Tab from the first to the last. */
  private trapTab(e: KeyboardEvent): void {
    const stops = [...this.box.querySelectorAll<HTMLElement>('textarea, button')];
    const first = stops[0];
    const last = stops[stops.length - 1];
    const at = document.activeElement;
    if (e.shiftKey && at === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && at === last) {
      e.preventDefault();
      first.focus();
    }
  }

  /** A blank answer to a turn keeps the question open: the turn is only continued with words. */
  private send(reason: string | null): void {
    if (this.turn && reason !== null && reason.trim() === '') {
      this.text.focus();
      return;
    }
    this.answer(reason);
  }

  private answer(reason: string | null): void {
    const resolve = this.resolve;
    if (!resolve) return;
    this.resolve = null;
    this.backdrop.hidden = true;
    const back = this.returnFocus;
    this.returnFocus = null;
    if (back?.isConnected) back.focus();
    resolve(reason);
  }
}
