// The opened file's diff in a whole turn's review, drawn a screen at a time. A turn's file can be
// hundreds of rows with a Keep/Undo bar per hunk, and the review's first paint waits for them
// (issue 39: the list and the first file within 2× a single review): so only the rows of the first
// screen are made at once, the rest as the diff is scrolled towards them, and a spacer below holds
// their estimated height so the scroll bar is the whole file's.
import type { TurnFileView, TurnHunk as Hunk } from './types';

export interface HunkActions { keep(h: Hunk): void; undo(h: Hunk): void; comment(line: number): void }

/** One piece of the diff, drawn whole: an unchanged line or a hunk (its bar counted as a row). */
export interface Block {
  rows: number;
  /** The hunk's index in the file's hunks; null for an unchanged line. */
  hunk: number | null;
  make(): HTMLElement;
}

/** A row's height before one is measured: a 13px monospace line's, or less (more rows are drawn
 * than fit, never fewer). */
const ROW_GUESS = 15;
/** Rows drawn past the bottom of the view, so a short scroll shows drawn rows at once. */
const OVERSCAN = 20;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

export function lines(text: string | null): string[] {
  if (text === null || text === '') return [];
  const all = text.split(/(?<=\n)/);
  return all.map((l) => l.replace(/\r?\n$/, ''));
}

/** The file as the turn left it, each hunk's removed lines above its added ones, with its buttons;
 * as blocks made only when drawn. */
export function diffBlocks(view: TurnFileView, current: number, kept: (h: Hunk) => boolean, act: HunkActions): Block[] {
  const before = lines(view.start), after = lines(view.end);
  const line = (cls: string, n: number | null, text: string) => {
    const e = el('div', `turn-line ${cls}`);
    const num = el('span', 'num', n === null ? '' : String(n));
    if (n !== null) {
      num.title = 'Comment on this line';
      num.addEventListener('click', () => act.comment(n));
    }
    e.append(num, el('span', 'text', text));
    return e;
  };
  const same = (n: number): Block => ({ rows: 1, hunk: null, make: () => line('same', n, after[n - 1]) });
  const hunk = (h: Hunk, i: number): Block => ({
    rows: 1 + h.before.count + h.after.count,
    hunk: i,
    make: () => {
      const box = el('div', `hunk${i === current ? ' current' : ''}${kept(h) ? ' kept' : ''}`);
      const bar = el('div', 'hunk-bar');
      const keep = el('button', 'hunk-keep', kept(h) ? 'Kept' : 'Keep');
      const undo = el('button', 'hunk-undo', 'Undo');
      keep.addEventListener('click', () => act.keep(h));
      undo.addEventListener('click', () => act.undo(h));
      bar.append(keep, undo);
      box.append(bar);
      for (let b = 0; b < h.before.count; b++) box.append(line('del', null, before[h.before.first - 1 + b] ?? ''));
      for (let a = 0; a < h.after.count; a++) box.append(line('add', h.after.first + a, after[h.after.first - 1 + a] ?? ''));
      return box;
    },
  });
  const out: Block[] = [];
  let at = 1;
  view.hunks.forEach((h, i) => {
    for (; at < h.after.first && at <= after.length; at++) out.push(same(at));
    out.push(hunk(h, i));
    at = h.after.first + h.after.count;
  });
  for (; at <= after.length; at++) out.push(same(at));
  return out;
}

/** The diff's box (`.turn-diff`, scrolling): its blocks drawn from the top as far as needed. */
export class DiffPane {
  private blocks: Block[] = [];
  /** How many blocks are drawn, and their rows. */
  private drawn = 0;
  private rows = 0;
  private total = 0;
  private rowHeight = 0;
  private readonly rest = document.createElement('div');

  constructor(private readonly box: HTMLElement) {
    this.rest.className = 'turn-diff-rest';
    this.rest.setAttribute('aria-hidden', 'true');
    box.addEventListener('scroll', () => this.fill());
  }

  /** How many blocks are drawn (a redraw of the same file keeps as many). */
  get blocksDrawn(): number {
    return this.drawn;
  }

  /** Draws `blocks` in place of what was there: the first `atLeast`, every block through the one
   * of hunk `through` (a hunk navigated to is drawn, to be scrolled to), then a screen more. */
  show(blocks: Block[], atLeast: number, through: number | null): void {
    this.blocks = blocks;
    this.drawn = 0;
    this.rows = 0;
    this.total = blocks.reduce((n, b) => n + b.rows, 0);
    const upTo = through === null ? atLeast : Math.max(atLeast, blocks.findIndex((b) => b.hunk === through) + 1);
    const made = this.draw(upTo, this.screenRows());
    this.box.replaceChildren(...made, this.rest);
    this.sizeRest();
  }

  /** Shows `e` alone (a file not shown as a diff). */
  showOnly(e: HTMLElement | null): void {
    this.blocks = [];
    this.drawn = this.rows = this.total = 0;
    this.box.replaceChildren(...(e ? [e] : []));
  }

  /** Scrolled: draws the rows down to a screen below the view. */
  private fill(): void {
    if (this.drawn >= this.blocks.length) return;
    this.measure();
    const need = Math.ceil((this.box.scrollTop + this.view()) / this.height()) + OVERSCAN;
    if (need <= this.rows) return;
    this.rest.before(...this.draw(0, need - this.rows));
    this.sizeRest();
  }

  /** Makes the blocks up to index `upTo`, then `more` rows' worth past them. */
  private draw(upTo: number, more: number): HTMLElement[] {
    const made: HTMLElement[] = [];
    const push = () => {
      const b = this.blocks[this.drawn++];
      this.rows += b.rows;
      made.push(b.make());
    };
    while (this.drawn < this.blocks.length && this.drawn < upTo) push();
    const until = this.rows + more;
    while (this.drawn < this.blocks.length && this.rows < until) push();
    return made;
  }

  private sizeRest(): void {
    this.rest.style.height = `${(this.total - this.rows) * this.height()}px`;
  }

  private view(): number {
    return this.box.clientHeight || 600;
  }

  private screenRows(): number {
    return Math.ceil(this.view() / this.height()) + OVERSCAN;
  }

  private height(): number {
    return this.rowHeight || ROW_GUESS;
  }

  /** A drawn row's height, once, when scrolled: the rows are laid out by then (reading it as they
   * are first drawn would force a layout before the first paint). */
  private measure(): void {
    if (this.rowHeight > 0) return;
    const h = this.box.querySelector('.turn-line')?.getBoundingClientRect().height ?? 0;
    if (h > 0) this.rowHeight = h;
  }
}
