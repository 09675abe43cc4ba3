// Whether a review's file changed on disk since it was proposed, asked of the core: one question
// at a time per review, as a pop-up brings focus and visibility events together.

export interface DiskCheckHooks {
  /** Whether this review's file is worth checking at all. */
  wanted(id: number): boolean;
  answered(id: number, changed: boolean): void;
  failed(err: unknown, id: number): void;
}

export class DiskCheck {
  /** Reviews whose file is being checked now. */
  private readonly asking = new Set<number>();

  constructor(private readonly ask: (id: number) => Promise<boolean>, private readonly hooks: DiskCheckHooks) {}

  check(id: number | null): void {
    if (id === null || this.asking.has(id) || !this.hooks.wanted(id)) return;
    this.asking.add(id);
    this.ask(id).then((changed) => this.hooks.answered(id, changed), (err) => this.hooks.failed(err, id))
      .finally(() => this.asking.delete(id));
  }
}
