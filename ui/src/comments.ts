// Comments the user writes on lines of a per-edit review, kept per review until a reject sends
// them (the core makes the one message the model reads: review::comment::message).
import type { Comment } from './bindings';

/** The core refuses a longer comment (review::comment::MAX_COMMENT_CHARS): stop the typing there. */
export const MAX_COMMENT_CHARS = 2000;
/** The core refuses more at once (review::comment::MAX_COMMENTS). */
export const MAX_COMMENTS = 200;

/** The comments not yet sent, per review. */
export class PendingComments {
  private readonly byReview = new Map<number, Comment[]>();

  list(id: number): readonly Comment[] {
    return this.byReview.get(id) ?? [];
  }

  /** Adds `comment` in line order (after any on the same line); false, and nothing added, when
   * its text is blank or the review has as many as the core takes. */
  add(id: number, comment: Comment): boolean {
    const text = comment.text.trim();
    const list = this.byReview.get(id) ?? [];
    if (text === '' || list.length >= MAX_COMMENTS) return false;
    const at = list.findIndex((c) => c.line > comment.line);
    list.splice(at < 0 ? list.length : at, 0, { ...comment, text });
    this.byReview.set(id, list);
    return true;
  }

  remove(id: number, index: number): void {
    const list = this.byReview.get(id);
    if (!list) return;
    list.splice(index, 1);
    if (list.length === 0) this.byReview.delete(id);
  }

  /** The review is gone (answered, withdrawn): its comments go with it. */
  forget(id: number): void {
    this.byReview.delete(id);
  }

  /** What a reject sends: undefined when there is nothing, so a plain reject stays one. */
  toSend(id: number): Comment[] | undefined {
    const list = this.byReview.get(id);
    return list && list.length > 0 ? [...list] : undefined;
  }
}

/** Line `line` (0-based) of `text` without its line ending: what a comment on it quotes. */
export function lineOf(text: string, line: number): string {
  return (text.split('\n')[line] ?? '').replace(/\r$/, '');
}

/** The comment on line `line` (0-based) of the proposal `text` of the file at `path`. */
export function commentOn(path: string, text: string, line: number, words: string): Comment {
  return { path, line: line + 1, quote: lineOf(text, line), text: words };
}

/** `path:line`, as the message names the line. */
export function anchor(c: Pick<Comment, 'path' | 'line'>): string {
  return `${c.path}:${c.line}`;
}
