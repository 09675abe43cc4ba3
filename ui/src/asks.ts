// What a review asks of the world outside the window: the CLI that proposed it, about some of its
// lines; the user's own editor, to open its file.
import * as ipc from './ipc';
import type { ReviewEditor } from './review-editor';
import { baseName, type Review } from './reviews';
import { reviewTopic, type Toasts } from './toast';

/** The selected lines go to the CLI session that proposed the edit, if the core says it can take
 * them (`canMention`). `editor` is the one showing this review, if any. */
export async function askAbout(review: Review, editor: ReviewEditor | null, toasts: Toasts): Promise<void> {
  if (!review.detail.canMention || !editor) return;
  const { startLine, endLine } = editor.selection();
  const { id, client, relativePath } = review.detail;
  try {
    await ipc.reviewMention(id, startLine, endLine);
    const lines = startLine === endLine ? `line ${startLine + 1}` : `lines ${startLine + 1}–${endLine + 1}`;
    toasts.info(`Sent ${lines} of ${baseName(relativePath)} to ${client.name}`);
  } catch (err) {
    toasts.error(err, `Could not ask ${client.name}`, reviewTopic(id));
  }
}

/** Opens the file on disk in the user's own editor, at the change under the caret of `editor`
 * (the one showing this review, if any), else at its first line. */
export async function openInEditor(review: Review, editor: ReviewEditor | null, toasts: Toasts): Promise<void> {
  const { id, relativePath } = review.detail;
  try {
    await ipc.reviewOpenInEditor(id, editor ? editor.hunkLine() : 1);
  } catch (err) {
    toasts.error(err, `Could not open ${baseName(relativePath)} in your editor`, reviewTopic(id));
  }
}
