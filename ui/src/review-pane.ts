// The review pane: the summary bar and its buttons, the banners and column labels around the review
// editor, shown for the selected review.
import { binaryLabel, type Layout, renderSummary, type Review } from './reviews';
import { ALT, isCommentKey, MOD } from './shortcuts';
import { TURN_VIEW_HTML, TurnView } from './turn-view';
import type { Comment } from './types';
import { COMMENTS_HTML } from './comments-panel';
import { ReviewComments } from './review-comments';
import type { Toasts } from './toast';

const ACCEPT_TITLE = `Write the proposal, with your edits, to the file (${MOD}S or ${MOD}Enter)`;
const REASON_TITLE = `Reject this proposal and say why: the CLI is told your reason (${MOD}${ALT}R)`;
const REASON_UNHEARD_TITLE = `Reject this proposal; its CLI's protocol carries no reason, so the reason is not sent (${MOD}${ALT}R)`;
/** A `redline` command asked: nobody is waiting for a reason, no protocol is to blame. */
const REASON_UNHEARD_COMMAND_TITLE = `Reject this proposal; nothing waits for a reason (only \`redline propose --wait\` hears one), so it is not sent (${MOD}${ALT}R)`;
const ACCEPT_AS_IS_TITLE = `Accept the proposal as it is (${MOD}S or ${MOD}Enter)`;
const DONE_TITLE = `Done: the turn ends, and the CLI waits for your next prompt (${MOD}S or ${MOD}Enter)`;
const CONTINUE_TITLE = `Tell the CLI what to do next: it goes on with your words (${MOD}${ALT}R)`;

export const REVIEW_HTML = `
<section class="review" hidden>
  <div class="summary-bar">
    <div class="summary"></div>
    <div class="actions">
      <div class="segmented" role="group" aria-label="Layout">
        <button type="button" data-layout="split" title="Original and proposal side by side">Side by side</button>
        <button type="button" data-layout="unified" title="One column, removed lines above added ones">Unified</button>
      </div>
      <div class="nav" role="group" aria-label="Changes">
        <button type="button" class="icon" data-nav="-1" title="Previous change (Alt+↑ or Shift+F7)" aria-label="Previous change">↑</button>
        <button type="button" class="icon" data-nav="1" title="Next change (Alt+↓ or F7)" aria-label="Next change">↓</button>
      </div>
      <button type="button" class="ask" hidden title="Send the selected lines to Claude Code, to ask about them (${MOD}${ALT}K)">Ask Claude <kbd>${MOD}${ALT}K</kbd></button>
      <button type="button" class="comment" title="Comment on the line of the cursor, in the proposal or the original: Reject sends the comments to the CLI (${MOD}${ALT}M)">Comment</button>
      <button type="button" class="open-editor" title="Open the file at this change in your editor (the one in ⚙ Settings, else $VISUAL or $EDITOR) (${MOD}${ALT}E)">Open in editor</button>
      <button type="button" class="reject-reason" title="${REASON_TITLE}">Reject with reason…</button>
      <button type="button" class="reject" title="Reject this proposal: the file stays as it is">Reject</button>
      <button type="button" class="accept" title="${ACCEPT_TITLE}">Accept <kbd>${MOD}S</kbd></button>
    </div>
  </div>
  <div class="banner disk-changed" role="alert" hidden>
    <strong>This file changed on disk</strong> after the proposal was made. Accepting overwrites those changes.
  </div>
  <div class="banner read-only" role="note" hidden></div>
  <div class="columns" aria-hidden="true"><span class="original-label">Original</span><span class="proposal-label">Proposal · editable</span></div>
  <div class="review-editor-host"></div>${COMMENTS_HTML}
  ${TURN_VIEW_HTML}
</section>`;

/** What the pane's buttons ask of the window. */
export interface PaneActions {
  accept(): void;
  /** `reason` and `comments`: a whole turn's Continue (turn-view.ts). */
  reject(reason?: string, comments?: Comment[]): void;
  rejectWithReason(): void;
  /** A comment on the cursor's line. */
  comment(): void;
  ask(): void;
  openInEditor(): void;
  setLayout(layout: Layout): void;
  moveToChange(step: number): void;
}

function kbd(text: string): HTMLElement {
  const k = document.createElement('kbd');
  k.textContent = text;
  return k;
}

export class ReviewPane {
  /** Where the review editor goes. */
  readonly host: HTMLElement;
  /** A whole turn's review, in place of the review editor. */
  readonly turnView: TurnView;
  /** The comments on the shown review's lines, listed under the review editor. */
  readonly comments: ReviewComments;
  private readonly el: {
    summary: HTMLElement; banner: HTMLElement; readOnly: HTMLElement; proposalLabel: HTMLElement;
    originalLabel: HTMLElement; columns: HTMLElement; accept: HTMLButtonElement; reject: HTMLButtonElement; ask: HTMLButtonElement;
    rejectWithReason: HTMLButtonElement; comment: HTMLButtonElement;
  };

  /** `section` is REVIEW_HTML's `.review`. */
  constructor(private section: HTMLElement, actions: PaneActions, toasts: Toasts) {
    const q = <T extends HTMLElement>(sel: string) => section.querySelector<T>(sel)!;
    this.host = q('.review-editor-host');
    this.comments = new ReviewComments(q('.comments'), toasts);
    this.el = {
      summary: q('.summary'), banner: q('.disk-changed'), columns: q('.columns'),
      readOnly: q('.banner.read-only'), proposalLabel: q('.proposal-label'), originalLabel: q('.original-label'),
      accept: q('.actions .accept'), reject: q('.actions .reject'), ask: q('.actions .ask'),
      rejectWithReason: q('.actions .reject-reason'), comment: q('.actions .comment'),
    };
    this.turnView = new TurnView(q('.turn-view'), {
      done: () => actions.accept(),
      continue: (words, comments) => actions.reject(words, comments),
      // Its keys while a whole turn shows and no dialog is up.
      active: () => !section.hidden && section.classList.contains('whole')
        && !document.querySelector('.backdrop:not([hidden])'),
    });
    this.el.accept.addEventListener('click', () => actions.accept());
    this.el.reject.addEventListener('click', () => actions.reject());
    this.el.rejectWithReason.addEventListener('click', () => actions.rejectWithReason());
    this.el.ask.addEventListener('click', () => actions.ask());
    this.el.comment.addEventListener('click', () => actions.comment());
    section.addEventListener('keydown', (e) => {
      if (!isCommentKey(e)) return;
      e.preventDefault();
      actions.comment();
    });
    q('.actions .open-editor').addEventListener('click', () => actions.openInEditor());
    q('.segmented').addEventListener('click', (e) => {
      const layout = (e.target as HTMLElement).closest<HTMLElement>('[data-layout]')?.dataset.layout;
      if (layout === 'split' || layout === 'unified') actions.setLayout(layout);
    });
    q('.nav').addEventListener('click', (e) => {
      const step = (e.target as HTMLElement).closest<HTMLElement>('[data-nav]')?.dataset.nav;
      if (step) actions.moveToChange(Number(step));
    });
  }

  get hidden(): boolean {
    return this.section.hidden;
  }

  set hidden(hidden: boolean) {
    this.section.hidden = hidden;
  }

  /** Everything but the review editor, for `review` in `layout`; `canAsk`: the Ask button shows. */
  show(review: Review, layout: Layout, canAsk: boolean): void {
    this.showSummary(review);
    this.showBusy(review.busy);
    this.el.ask.hidden = !canAsk;
    this.showLayout(layout);
    this.showDiskChanged(review.diskChanged);
    const readOnly = review.detail.readOnly;
    this.el.readOnly.hidden = readOnly === null;
    this.el.readOnly.textContent = readOnly ?? '';
    this.el.proposalLabel.textContent = readOnly === null ? 'Proposal · editable' : 'Proposal · read-only';
    this.el.accept.title = readOnly === null ? ACCEPT_TITLE : ACCEPT_AS_IS_TITLE;
    this.el.rejectWithReason.title = review.detail.reasonHeard
      ? REASON_TITLE
      : review.detail.client.command
        ? REASON_UNHEARD_COMMAND_TITLE
        : REASON_UNHEARD_TITLE;
    this.showTurn(review.detail.kind === 'turn');
    // A whole turn's review: its own view (turn-view.ts) in place of the one file's editor.
    this.section.classList.toggle('whole', review.detail.turnId !== null);
    if (review.detail.turnId !== null) this.turnView.show(review.detail.id);
    // A turn's review is answered Done or Continue: comments under the editor are an edit's.
    this.el.comment.hidden = review.detail.kind === 'turn';
    this.comments.show(review);
    const binary = review.detail.originalBinary;
    if (binary !== null) this.el.originalLabel.textContent = `Original · ${binaryLabel(binary)}`;
  }

  /** The end of a CLI's turn: the turn's start against now, answered Done or Continue. */
  private showTurn(turn: boolean): void {
    this.section.classList.toggle('turn', turn);
    this.el.reject.hidden = turn;
    this.el.accept.replaceChildren(turn ? 'Done ' : 'Accept ', kbd(`${MOD}S`));
    this.el.rejectWithReason.textContent = turn ? 'Continue with instructions…' : 'Reject with reason…';
    this.el.originalLabel.textContent = turn ? 'At the turn\'s start' : 'Original';
    if (turn) {
      this.el.proposalLabel.textContent = 'Now · read-only';
      this.el.accept.title = DONE_TITLE;
      this.el.rejectWithReason.title = CONTINUE_TITLE;
    }
  }

  showSummary(review: Review): void {
    renderSummary(this.el.summary, review);
  }

  /** A busy review's Accept and Reject wait for the answer to the last one. */
  showBusy(busy: boolean): void {
    this.el.accept.disabled = busy;
    this.el.reject.disabled = busy;
    this.el.rejectWithReason.disabled = busy;
  }

  showLayout(layout: Layout): void {
    for (const b of this.section.querySelectorAll<HTMLElement>('[data-layout]')) {
      b.setAttribute('aria-pressed', String(b.dataset.layout === layout));
    }
    this.el.columns.hidden = layout === 'unified';
  }

  showDiskChanged(changed: boolean): void {
    this.el.banner.hidden = !changed;
  }
}
