// What the review window sends the core while the user works in the review editor: the edits, one
// push per pause in typing and strictly in order; the selection, once per pause and best effort.
import * as ipc from './ipc';
import type { Selection } from './types';

/** One edit to send: a review's text as of now, against the revision it edits. */
export interface Push {
  id: number;
  revision: number;
  content: string;
  /** The review's file, for the message when the push fails. */
  path: string;
}

export interface OutboxSource {
  /** Review `id`'s text to push, read now; null when the review is gone. */
  edit(id: number): Push | null;
  /** The selection in review `id`, or null when the review editor no longer shows it. */
  selection(id: number): Selection | null;
  /** A push the core refused. */
  failed(push: Push, err: unknown): void;
}

export class Outbox {
  private pushTimer: ReturnType<typeof setTimeout> | null = null;
  private pushFor: number | null = null;
  /** Pushes run one after another so the backend never sees an older text after a newer one. */
  private pushes: Promise<void> = Promise.resolve();
  private selectTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private source: OutboxSource, private pushDelayMs: number, private selectDelayMs: number) {}

  /** Every push so far answered. */
  get sent(): Promise<void> {
    return this.pushes;
  }

  /** Review `id` was edited: its push waits for a pause; another review's waiting push goes now. */
  edited(id: number): void {
    if (this.pushTimer !== null && this.pushFor !== id) void this.flush();
    if (this.pushTimer !== null) clearTimeout(this.pushTimer);
    this.pushFor = id;
    this.pushTimer = setTimeout(() => void this.flush(), this.pushDelayMs);
  }

  /** Whether review `id` has a push waiting for a pause in typing. */
  waiting(id: number | null): boolean {
    return id !== null && this.pushFor === id;
  }

  /** Drops review `id`'s waiting push: its decision or a new proposal makes it moot. */
  cancel(id: number): void {
    if (this.pushFor === id && this.pushTimer !== null) {
      clearTimeout(this.pushTimer);
      this.pushTimer = null;
      this.pushFor = null;
    }
  }

  /** Sends the waiting push now, if there is one. The text is read here, once per pause in typing. */
  flush(): Promise<void> {
    const id = this.pushFor;
    if (this.pushTimer !== null) clearTimeout(this.pushTimer);
    this.pushTimer = null;
    this.pushFor = null;
    const push = id === null ? null : this.source.edit(id);
    if (!push) return this.pushes;
    this.pushes = this.pushes
      .then(() => ipc.reviewUpdate(push.id, push.revision, push.content))
      .catch((err) => this.source.failed(push, err));
    return this.pushes;
  }

  /** The selection in review `id` changed: it goes to the CLI once the user pauses. */
  selected(id: number): void {
    if (this.selectTimer !== null) clearTimeout(this.selectTimer);
    this.selectTimer = setTimeout(() => {
      this.selectTimer = null;
      const selection = this.source.selection(id);
      // A selection is a hint to the CLI: failing to send one is not worth a message.
      if (selection) ipc.reviewSelect(id, selection).catch(() => {});
    }, this.selectDelayMs);
  }

  /** Drops whatever waits for a pause, sending nothing. */
  stop(): void {
    if (this.pushTimer !== null) clearTimeout(this.pushTimer);
    this.pushTimer = null;
    if (this.selectTimer !== null) clearTimeout(this.selectTimer);
    this.selectTimer = null;
  }
}
