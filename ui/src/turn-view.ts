// A whole turn's review: the files the turn changed as a filterable, virtualised tree beside the
// opened file's diff, each hunk kept or undone, file Undo, Undo all, comments on lines, and
// Continue with comments or Done. The core builds a file's diff only when it is opened.
import * as ipc from './ipc';
import { diffBlocks, DiffPane, lines } from './turn-diff';
import { type Row, stepIndex, treeRows, turnKey, type TurnKey, visibleRows } from './turn-list';
import type { Comment, TurnFile, TurnFiles, TurnFileView, TurnHunk as Hunk, TurnPick, TurnUndone } from './types';

/** What the view asks of the core (the window's actions, by default) and of the window. */
export interface TurnDeps {
  files?(id: number): Promise<TurnFiles>;
  file?(id: number, path: string): Promise<TurnFileView>;
  undo?(id: number, picks: TurnPick[]): Promise<TurnUndone>;
  done(): void;
  /** Continue with these instructions (none: `undefined`) and comments. */
  continue(words: string | undefined, comments: Comment[]): void;
  /** Says what went wrong (by default in the view, above the diff). */
  error?(err: unknown, what: string): void;
  /** A whole turn is shown and no dialog is open: the keys are the view's. */
  active(): boolean;
  /** A past turn (the Turns view): undo only, no comments nor Done/Continue. */
  past?: boolean;
}

const ROW_HEIGHT = 22;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

export const TURN_VIEW_HTML = `
<section class="turn-view">
  <aside class="turn-files">
    <input class="turn-filter" type="search" placeholder="Filter files" aria-label="Filter files">
    <div class="turn-note" hidden></div>
    <div class="turn-list" tabindex="0" role="tree" aria-label="Files the turn changed"><div class="turn-rows"></div></div>
    <button type="button" class="turn-undo-all" title="Undo every file of the turn">Undo all</button>
  </aside>
  <div class="turn-main">
    <div class="turn-file-bar"><span class="turn-file-name"></span>
      <button type="button" class="turn-undo-file" title="Undo this file back to the turn's start (u on the file)">Undo file</button></div>
    <div class="turn-error" role="alert" hidden></div>
    <div class="turn-diff" tabindex="0"></div>
    <p class="turn-keys">Keys: <kbd>]</kbd> <kbd>[</kbd> next/previous file · <kbd>j</kbd> <kbd>k</kbd> next/previous hunk ·
      <kbd>a</kbd> keep · <kbd>u</kbd> undo<span class="turn-answer-keys"> · <kbd>c</kbd> comment · <kbd>Shift+C</kbd> continue · a line number: comment on it</span></p>
    <div class="turn-comments"><h3>Comments</h3><ul class="turn-comment-list"></ul>
      <label class="turn-comment-box" hidden><span class="turn-comment-at"></span>
        <input class="turn-comment-input" type="text" placeholder="Your comment (Enter adds it, Escape drops it)"></label>
      <textarea class="turn-instructions" rows="2" placeholder="Instructions for the CLI (optional)"></textarea>
      <div class="turn-answer">
        <button type="button" class="turn-continue" title="Send the comments and instructions: the CLI goes on (Shift+C)">Continue with comments</button>
        <button type="button" class="turn-done primary" title="The turn ends (Ctrl/⌘+S)">Done</button>
      </div>
    </div>
  </div>
</section>`;

/** The view of one whole turn's review, in `section` (TURN_VIEW_HTML's `.turn-view`). */
export class TurnView {
  id: number | null = null;
  private files: TurnFile[] = [];
  private rows: Row[] = [];
  private opened: TurnFileView | null = null;
  private hunk = 0;
  private readonly kept = new Set<string>();
  /** Review `id`'s first showing: true once its file list and opened file are drawn. */
  private loading: Promise<boolean> = Promise.resolve(false);
  readonly comments: Comment[] = [];
  private readonly q: <T extends HTMLElement>(sel: string) => T;
  private readonly diff: DiffPane;

  private readonly say: (err: unknown, what: string) => void;
  private readonly core: Required<Pick<TurnDeps, 'files' | 'file' | 'undo'>>;

  constructor(section: HTMLElement, private deps: TurnDeps, signal?: AbortSignal) {
    this.core = { files: deps.files ?? ipc.turnFiles, file: deps.file ?? ipc.turnFile, undo: deps.undo ?? ipc.turnUndo };
    window.addEventListener('keydown', (e) => this.onKey(e), { signal });
    section.classList.toggle('past', deps.past === true);
    this.say = deps.error ?? ((err, what) => {
      const box = this.q('.turn-error');
      box.hidden = false;
      box.textContent = `${what}: ${err instanceof Error ? err.message : (err as { message?: string })?.message ?? String(err)}`;
    });
    this.q = <T extends HTMLElement>(sel: string) => section.querySelector<T>(sel)!;
    this.diff = new DiffPane(this.q('.turn-diff'));
    this.q<HTMLInputElement>('.turn-filter').addEventListener('input', () => this.renderList());
    this.q('.turn-list').addEventListener('scroll', () => this.renderRows());
    this.q('.turn-undo-all').addEventListener('click', () => void this.undo([]));
    this.q('.turn-undo-file').addEventListener('click', () => {
      if (this.opened) void this.undo([{ path: this.opened.path }]);
    });
    this.q('.turn-continue').addEventListener('click', () => this.answer(false));
    this.q<HTMLInputElement>('.turn-comment-input').addEventListener('keydown', (e) => this.onCommentKey(e));
    this.q('.turn-done').addEventListener('click', () => this.answer(true));
  }

  /** Shows review `id`, fetched when it is not the one shown. */
  show(id: number): void {
    if (this.id !== id) this.loading = this.open(id);
  }

  /** Review `id`'s first showing, when it is the view's: resolves true once its file list and
   * opened file are drawn (false: they could not be fetched); `null`: the view shows another. */
  drawn(id: number): Promise<boolean> | null {
    return this.id === id ? this.loading : null;
  }

  /** The view's keys (`turnKey`), while it is active and no text box has the focus. */
  private onKey(e: KeyboardEvent): void {
    const target = e.target as HTMLElement | null;
    if (!this.deps.active() || target?.closest?.('input, textarea, [contenteditable="true"]')) return;
    const key = turnKey(e);
    if (key === null || (this.deps.past && (key === 'comment' || key === 'continue'))) return;
    e.preventDefault();
    this.act(key);
  }

  /** Shows review `id` (a new one: from its first file, its comments cleared); true once its
   * list and file are drawn. */
  async open(id: number): Promise<boolean> {
    if (this.id !== id) {
      this.id = id;
      this.comments.length = 0;
      this.kept.clear();
      this.opened = null;
      this.renderComments();
    }
    return this.refresh();
  }

  /** Fetches the file list again, and the opened file (or the first); true once both are drawn. */
  async refresh(): Promise<boolean> {
    const id = this.id;
    if (id === null) return false;
    try {
      const listed = await this.core.files(id);
      this.files = listed.files;
      const path = this.opened?.path ?? this.files[0]?.path;
      const still = this.files.find((f) => f.path === path) ?? this.files[0];
      // The first file may come with the list (opened ahead by the core): drawn with it, no
      // second round trip. Else asked before the list is drawn: the core reads it meanwhile.
      const first = still && listed.first?.path === still.path ? listed.first : undefined;
      const opening = still && !first ? this.openFile(still.path) : null;
      const note = this.q('.turn-note');
      note.hidden = listed.unlisted === 0;
      note.textContent = `${listed.unlisted} more changed file(s) are not listed.`;
      // With its first file, the list's rows are drawn once, with that file selected.
      this.renderList(!first);
      if (first) this.shown(first);
      if (opening) return await opening;
      if (!still) this.showFile(null);
      return true;
    } catch (err) {
      this.say(err, 'Could not list the turn\'s files');
      return false;
    }
  }

  /** Opens `path`; true once it is drawn. */
  async openFile(path: string): Promise<boolean> {
    if (this.id === null) return false;
    try {
      this.shown(await this.core.file(this.id, path));
      return true;
    } catch (err) {
      this.say(err, `Could not open ${path}`);
      return false;
    }
  }

  /** Shows `view`, opened (from its first hunk when it is another file). */
  private shown(view: TurnFileView): void {
    if (this.opened?.path !== view.path) this.hunk = 0;
    this.showFile(view);
  }

  /** Runs what `key` names. */
  act(key: TurnKey): void {
    const at = this.files.findIndex((f) => f.path === this.opened?.path);
    const hunks = this.opened?.hunks ?? [];
    if (key === 'nextFile' || key === 'previousFile') {
      const next = this.files[stepIndex(at, key === 'nextFile' ? 1 : -1, this.files.length)];
      if (next) void this.openFile(next.path);
    } else if (key === 'nextHunk' || key === 'previousHunk') {
      this.hunk = stepIndex(this.hunk, key === 'nextHunk' ? 1 : -1, hunks.length);
      this.renderDiff();
    } else if (key === 'keep' && hunks[this.hunk]) {
      this.keep(hunks[this.hunk]);
    } else if (key === 'undo' && hunks[this.hunk] && this.opened) {
      void this.undo([{ path: this.opened.path, hunks: [hunks[this.hunk]] }]);
    } else if (key === 'comment' && hunks[this.hunk]) {
      this.comment(hunks[this.hunk].after.first);
    } else if (key === 'continue') {
      this.answer(false);
    }
  }

  private hunkKey(h: Hunk): string {
    return `${this.opened?.path}\u0000${h.after.first}:${h.after.count}:${h.before.first}`;
  }

  private keep(h: Hunk): void {
    this.kept.add(this.hunkKey(h));
    this.renderDiff();
  }

  private async undo(picks: TurnPick[]): Promise<void> {
    if (this.id === null) return;
    this.q('.turn-error').hidden = true;
    try {
      const done = await this.core.undo(this.id, picks);
      if (done.undo === 'refused') this.say(new Error(done.why), 'Nothing was undone');
      if (done.undo === 'partly') this.say(new Error(done.left.map((l) => l.why).join('; ')), `Undid ${done.files.length} file(s); left as they are`);
      await this.refresh();
    } catch (err) {
      this.say(err, 'Could not undo');
    }
  }

  private answer(done: boolean): void {
    if (done) return this.deps.done();
    const words = this.q<HTMLTextAreaElement>('.turn-instructions').value.trim();
    this.deps.continue(words === '' ? undefined : words, [...this.comments]);
  }

  /** The line the comment box is for. */
  private commentLine = 0;

  /** Opens the comment box for `line` (1-based, in the file as the turn left it). */
  comment(line: number): void {
    const file = this.opened;
    if (!file) return;
    this.commentLine = line;
    this.q('.turn-comment-at').textContent = `${file.path}:${line}`;
    this.q('.turn-comment-box').hidden = false;
    this.q<HTMLInputElement>('.turn-comment-input').focus();
  }

  private onCommentKey(e: KeyboardEvent): void {
    const input = e.target as HTMLInputElement;
    if (e.key === 'Escape') {
      e.stopPropagation();
      this.q('.turn-comment-box').hidden = true;
    }
    if (e.key !== 'Enter') return;
    e.preventDefault();
    this.addComment(this.commentLine, input.value);
    input.value = '';
    this.q('.turn-comment-box').hidden = true;
  }

  /** Adds `text` as a comment on `line` of the opened file (nothing for empty words). */
  addComment(line: number, text: string): void {
    const file = this.opened;
    if (!file || text.trim() === '') return;
    const quote = lines(file.end)[line - 1] ?? '';
    this.comments.push({ path: file.path, line, quote, text: text.trim() });
    this.renderComments();
  }

  private renderComments(): void {
    const list = this.q('.turn-comment-list');
    list.replaceChildren(...this.comments.map((c, i) => {
      const item = el('li', 'turn-comment', `${c.path}:${c.line} ${c.text}`);
      const remove = el('button', 'icon', '×');
      remove.type = 'button';
      remove.title = 'Remove this comment';
      remove.addEventListener('click', () => {
        this.comments.splice(i, 1);
        this.renderComments();
      });
      item.append(remove);
      return item;
    }));
  }

  private renderList(draw = true): void {
    this.rows = treeRows(this.files, this.q<HTMLInputElement>('.turn-filter').value);
    this.q('.turn-rows').style.height = `${this.rows.length * ROW_HEIGHT}px`;
    if (draw) this.renderRows();
  }

  /** Only the rows in view are in the page: 500 files stay responsive. */
  private renderRows(): void {
    const list = this.q('.turn-list');
    const { start, end } = visibleRows(list.scrollTop, list.clientHeight || 400, ROW_HEIGHT, this.rows.length);
    const holder = this.q('.turn-rows');
    holder.replaceChildren(...this.rows.slice(start, end).map((row, i) => this.rowElement(row, start + i)));
  }

  private rowElement(row: Row, index: number): HTMLElement {
    const e = el('div', row.file ? 'turn-row file' : 'turn-row dir');
    e.style.top = `${index * ROW_HEIGHT}px`;
    e.style.paddingLeft = `${8 + row.depth * 14}px`;
    const f = row.file;
    if (!f) {
      e.textContent = row.name;
      return e;
    }
    e.classList.toggle('selected', f.path === this.opened?.path);
    e.append(el('span', `status ${f.status}`, statusLetter(f.status)), el('span', 'name', row.name));
    e.append(el('span', 'counts', f.notAFile ?? (f.tooLarge ? 'too large' : f.binary ? 'binary' : `+${f.added} −${f.removed}`)));
    e.title = f.from ? `${f.from} → ${f.path}` : f.path;
    e.addEventListener('click', () => void this.openFile(f.path));
    return e;
  }

  private showFile(view: TurnFileView | null): void {
    const same = view !== null && view.path === this.opened?.path;
    this.opened = view;
    this.q('.turn-file-name').textContent = view ? (view.from ? `${view.from} → ${view.path}` : view.path) : '';
    this.renderRows();
    this.renderDiff(same);
  }

  /** Draws the opened file's diff, its current hunk scrolled to; `same`: the file drawn before,
   * again (as far down as it was drawn), else from its top. */
  private renderDiff(same = true): void {
    const view = this.opened;
    if (!view) return this.diff.showOnly(null);
    if (view.unshown) {
      return this.diff.showOnly(el('p', 'turn-unshown', view.unshown === 'binary'
        ? 'Binary file: not shown. Undo file takes it back whole.'
        : view.unshown === 'notAFile'
          ? 'Not a regular file (a FIFO, a socket or a device): never opened, not undone.'
          : 'Too large to show: Undo file takes it back whole.'));
    }
    const blocks = diffBlocks(view, this.hunk, (h) => this.kept.has(this.hunkKey(h)), {
      keep: (h) => this.keep(h),
      undo: (h) => void this.undo([{ path: view.path, hunks: [h] }]),
      comment: (line) => this.comment(line),
    });
    this.diff.show(blocks, same ? this.diff.blocksDrawn : 0, view.hunks.length > 0 ? this.hunk : null);
    this.q('.turn-diff').querySelector('.hunk.current')?.scrollIntoView?.({ block: 'nearest' });
  }
}

function statusLetter(status: TurnFile['status']): string {
  return { added: 'A', deleted: 'D', modified: 'M', renamed: 'R', typeChanged: 'T' }[status];
}
