// The window's side of comments on a per-edit review: started on the cursor's line, kept until
// Reject sends them, an Accept that would drop them held once, and "Copy as prompt" of the
// core's message where the CLI hears no reason.
import type { Comment } from './bindings';
import { PendingComments } from './comments';
import { CommentsPanel } from './comments-panel';
import * as ipc from './ipc';
import type { ReviewEditor } from './review-editor';
import type { Review } from './reviews';
import { reviewTopic, type Toasts } from './toast';

export class ReviewComments {
  readonly pending = new PendingComments();
  private readonly panel: CommentsPanel;
  /** The review shown (a per-edit one), whose comments the panel lists. */
  private shown: number | null = null;
  /** The review whose Accept already warned that its comments are not sent. */
  private acceptWarned: number | null = null;

  /** `root` is the pane's `.comments`. */
  constructor(root: HTMLElement, private toasts: Toasts) {
    this.panel = new CommentsPanel(root, this.pending, {
      changed: () => { this.acceptWarned = null; },
      copyPrompt: () => void this.copyPrompt(),
    });
  }

  /** Sends the comments of review `id` with `send` (none: undefined); once sent they go. */
  async sent(id: number, send: (comments: Comment[] | undefined) => Promise<void>): Promise<void> {
    await send(this.pending.toSend(id));
    this.pending.forget(id);
  }

  /** The panel of `review`; a turn's review takes no comments here. */
  show(review: Review | null | undefined): void {
    const edit = review && review.detail.kind !== 'turn' ? review : null;
    this.shown = edit?.detail.id ?? null;
    this.panel.show(edit ? { id: edit.detail.id, heard: edit.detail.reasonHeard } : null);
  }

  /** "Comment": a comment on the cursor's line of `editor` (the proposal's, or the original's
   * when it was focused last) for `review`. */
  start(review: Review | undefined | null, editor: ReviewEditor | null): void {
    if (!review || review.detail.kind === 'turn' || !editor || this.shown !== review.detail.id) return;
    this.panel.start({ path: review.detail.relativePath, ...editor.commentLine() });
  }

  /** An Accept with comments pending sends none of them: the first one says so and is held, so
   * what the user wrote is not dropped unnoticed; a second Accept goes through without them. */
  holdAccept(id: number): boolean {
    const count = this.pending.list(id).length;
    if (count === 0) return false;
    if (this.acceptWarned === id) {
      this.pending.forget(id);
      return false;
    }
    this.acceptWarned = id;
    const them = count === 1 ? 'Your comment is' : `Your ${count} comments are`;
    this.toasts.info(`${them} not sent with Accept: Reject sends them to the CLI. Accept again to accept without them.`, reviewTopic(id));
    return true;
  }

  /** "Copy as prompt": the message the comments make (the core's, as a reject sends it). */
  private async copyPrompt(): Promise<void> {
    const id = this.shown;
    const comments = id === null ? undefined : this.pending.toSend(id);
    if (id === null || !comments) return;
    try {
      const message = await ipc.commentsMessage(comments);
      if (message === null) return;
      await navigator.clipboard.writeText(message);
      this.toasts.info('Copied: paste it into the CLI\'s prompt', reviewTopic(id));
    } catch (err) {
      this.toasts.error(err, 'Could not copy the comments', reviewTopic(id));
    }
  }
}
