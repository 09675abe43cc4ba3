// Under a per-edit review's editor: the comment being written on a line, the comments pending
// (each removable), and, where the review's CLI hears no reason, that they are not sent and a
// "Copy as prompt" of the message they make.
import { anchor, MAX_COMMENT_CHARS, type PendingComments } from './comments';
import type { Comment } from './bindings';

export const COMMENTS_HTML = `
<div class="comments" hidden>
  <form class="comment-form" hidden>
    <label for="comment-text" class="comment-anchor"></label>
    <textarea id="comment-text" rows="2" maxlength="${MAX_COMMENT_CHARS}" spellcheck="true"
      placeholder="What should change here? Enter adds, Shift+Enter starts a new line, Escape cancels"></textarea>
    <div class="comment-buttons">
      <button type="button" data-comment="cancel">Cancel</button>
      <button type="submit">Add comment</button>
    </div>
  </form>
  <ul class="comment-list" aria-label="Comments, sent with Reject"></ul>
  <p class="comments-unheard" role="note" hidden>
    <span></span> <button type="button" class="copy-prompt">Copy as prompt</button>
  </p>
</div>`;

/** What the panel asks of the window. */
export interface CommentsActions {
  /** The pending comments of the review changed (added, removed). */
  changed(): void;
  /** "Copy as prompt": the message of the review's comments to the clipboard. */
  copyPrompt(): void;
}

/** Where the review's comments are read, as the panel says it. */
export interface CommentsAbout {
  id: number;
  /** Whoever asked hears a rejection's reason (`reasonHeard`), so the comments reach the model. */
  heard: boolean;
}

export class CommentsPanel {
  private readonly form: HTMLFormElement;
  private readonly text: HTMLTextAreaElement;
  private readonly list: HTMLElement;
  private readonly unheard: HTMLElement;
  private about: CommentsAbout | null = null;
  /** The comment being written, without its text. */
  private draft: Omit<Comment, 'text'> | null = null;

  /** `root` is COMMENTS_HTML's `.comments`. */
  constructor(private root: HTMLElement, private pending: PendingComments, private actions: CommentsActions) {
    const q = <T extends HTMLElement>(sel: string) => root.querySelector<T>(sel)!;
    this.form = q('.comment-form');
    this.text = q('textarea');
    this.list = q('.comment-list');
    this.unheard = q('.comments-unheard');
    this.form.addEventListener('submit', (e) => { e.preventDefault(); this.add(); });
    q('[data-comment="cancel"]').addEventListener('click', () => this.cancel());
    q('.copy-prompt').addEventListener('click', () => actions.copyPrompt());
    this.text.addEventListener('keydown', (e) => this.onKey(e));
    this.list.addEventListener('click', (e) => {
      const index = (e.target as HTMLElement).closest<HTMLElement>('[data-remove]')?.dataset.remove;
      if (index !== undefined && this.about) {
        this.pending.remove(this.about.id, Number(index));
        this.render();
        actions.changed();
      }
    });
  }

  /** The panel of review `about` (null: no review shown, or one comments are not taken on). */
  show(about: CommentsAbout | null): void {
    if (about?.id !== this.about?.id) this.cancel();
    this.about = about;
    this.render();
  }

  /** Starts a comment on `at` (its path, line and quote): the text is asked under the editor. */
  start(at: Omit<Comment, 'text'>): void {
    if (!this.about) return;
    this.draft = at;
    this.form.querySelector<HTMLElement>('.comment-anchor')!.textContent = `Comment on ${anchor(at)}`;
    this.text.value = '';
    this.form.hidden = false;
    this.render();
    this.text.focus();
  }

  get writing(): boolean {
    return this.draft !== null;
  }

  private add(): void {
    if (!this.about || !this.draft) return;
    if (!this.pending.add(this.about.id, { ...this.draft, text: this.text.value })) {
      this.text.focus();
      return;
    }
    this.cancel();
    this.actions.changed();
  }

  private cancel(): void {
    this.draft = null;
    this.form.hidden = true;
    this.text.value = '';
    this.render();
  }

  private onKey(e: KeyboardEvent): void {
    if (e.key === 'Escape') {
      e.preventDefault();
      this.cancel();
    } else if (e.key === 'Enter' && !e.shiftKey && !e.ctrlKey && !e.metaKey && !e.altKey && !e.isComposing) {
      e.preventDefault();
      this.add();
    }
  }

  private render(): void {
    const comments = this.about ? this.pending.list(this.about.id) : [];
    this.root.hidden = this.about === null || (comments.length === 0 && this.draft === null);
    this.list.replaceChildren(...comments.map((c, i) => item(c, i)));
    this.unheard.hidden = !this.about || this.about.heard || comments.length === 0;
    this.unheard.querySelector('span')!.textContent =
      'This CLI does not hear a rejection\'s reason: the comments are not sent with Reject.';
  }
}

function item(c: Comment, index: number): HTMLElement {
  const li = document.createElement('li');
  const where = document.createElement('code');
  where.className = 'comment-where';
  where.textContent = anchor(c);
  const quote = document.createElement('span');
  quote.className = 'comment-quote';
  quote.textContent = c.quote.trim();
  const text = document.createElement('span');
  text.className = 'comment-text';
  text.textContent = c.text;
  const remove = document.createElement('button');
  remove.type = 'button';
  remove.className = 'icon';
  remove.dataset.remove = String(index);
  remove.title = `Remove the comment on ${anchor(c)}`;
  remove.setAttribute('aria-label', remove.title);
  remove.textContent = '×';
  li.append(where, quote, text, remove);
  return li;
}
