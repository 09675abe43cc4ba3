// The window's Turns view: every turn kept in the served workspaces' histories, newest first
// (CLI, session, time, files, +/−, state); opening one shows it in the turn view (turn-view.ts)
// through the past-turn actions, with Undo but no Done/Continue: it is not pending.
import * as ipc from './ipc';
import type { TurnDeps } from './turn-view';
import type { HistoryTurn } from './types';

/** One row's words, as the list shows them. */
export interface HistoryLabel { cli: string; session: string; time: string; files: string; lines: string; state: string }

/** `ms` since the epoch as `YYYY-MM-DD HH:MMZ` (UTC, as `redline turns list`). */
export function when(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')}Z`;
}

export function historyLabel(row: HistoryTurn): HistoryLabel {
  const name = row.workspace.split(/[\\/]/).filter(Boolean).pop() ?? row.workspace;
  return {
    cli: row.cli,
    session: row.session,
    time: when(row.started),
    files: row.running ? '' : row.files === 1 ? '1 file' : `${row.files} files`,
    lines: row.running ? '' : `+${row.added} −${row.removed}`,
    state: row.running ? `running in ${name}` : `turn ${row.turn} of ${name}`,
  };
}

/** The turn view's core calls for past turn `row` (the view's own id is the turn's). */
export function pastTurnDeps(row: HistoryTurn): Required<Pick<TurnDeps, 'files' | 'file' | 'undo'>> {
  return {
    files: () => ipc.pastTurnFiles(row.workspace, row.turn),
    file: (_turn, path) => ipc.pastTurnFile(row.workspace, row.turn, path),
    undo: (_turn, picks) => ipc.pastTurnUndo(row.workspace, row.turn, picks),
  };
}

/** The list, in `holder`: one button per turn (Tab reaches each, Enter opens it). */
export class TurnsHistory {
  rows: HistoryTurn[] = [];

  constructor(
    private readonly holder: HTMLElement,
    private readonly open: (row: HistoryTurn) => void,
    private readonly list: () => Promise<HistoryTurn[]> = ipc.turnsHistory,
  ) {}

  /** Fetches the turns again and shows them; an error is said in the list. */
  async refresh(): Promise<void> {
    try {
      this.rows = await this.list();
      this.render();
    } catch (err) {
      this.holder.replaceChildren(note(`Could not list the turns: ${ipc.toFault(err).message}`));
    }
  }

  private render(): void {
    if (this.rows.length === 0) return void this.holder.replaceChildren(note('No turns kept yet.'));
    this.holder.replaceChildren(...this.rows.map((row) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = `history-row${row.running ? ' running' : ''}`;
      b.disabled = row.running;
      const l = historyLabel(row);
      for (const [cls, text] of Object.entries(l)) {
        const span = document.createElement('span');
        span.className = cls;
        span.textContent = text;
        b.append(span);
      }
      b.title = row.workspace;
      b.addEventListener('click', () => this.open(row));
      return b;
    }));
  }
}

function note(text: string): HTMLElement {
  const p = document.createElement('p');
  p.className = 'history-note';
  p.textContent = text;
  return p;
}

/** The Turns page: its list, and opening a turn in it (the tray's *Recent turns*). */
export interface TurnsPage {
  history: TurnsHistory;
  /** Shows the page with turn `turn` of `workspace` opened (listed or not). */
  openTurn(workspace: string, turn: number): void;
}

/**
 * The Turns page, over the window: a "Turns" button (Tab reaches it; before `buttonBefore`) opens the list; a row opens
 * that turn below it in a turn view of its own; Escape or Close goes back to the reviews.
 */
export function mountTurnsPage(root: HTMLElement, makeView: (section: HTMLElement, row: HistoryTurn, signal: AbortSignal) => void,
  buttonBefore: Element | null = null): TurnsPage {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'turns-open';
  button.textContent = 'Turns';
  button.title = 'Every turn kept, newest first: review one again, undo it';
  const page = document.createElement('section');
  page.className = 'turns-page';
  page.hidden = true;
  page.innerHTML = '<div class="turns-bar"><strong>Turns</strong> <button type="button" class="turns-close">Close</button></div>'
    + '<div class="history-list" role="list"></div><div class="history-turn"></div>';
  // In the top bar beside the settings when there is one (never over it), else at the top.
  if (buttonBefore) buttonBefore.before(button);
  else root.append(button);
  root.append(page);
  let opened: AbortController | null = null;
  const close = () => {
    opened?.abort();
    page.hidden = true;
    button.focus();
  };
  const open = (row: HistoryTurn) => {
    opened?.abort();
    opened = new AbortController();
    const holder = page.querySelector<HTMLElement>('.history-turn')!;
    holder.replaceChildren();
    makeView(holder, row, opened.signal);
  };
  const history = new TurnsHistory(page.querySelector<HTMLElement>('.history-list')!, open);
  const show = () => {
    page.hidden = false;
    return history.refresh();
  };
  button.addEventListener('click', () => void show().then(() => page.querySelector<HTMLElement>('.history-row')?.focus()));
  page.querySelector('.turns-close')!.addEventListener('click', close);
  page.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && !(e.target as HTMLElement).closest('input, textarea')) close();
  });
  return {
    history,
    openTurn(workspace, turn) {
      void show().then(() => {
        const row = history.rows.find((r) => r.workspace === workspace && r.turn === turn);
        open(row ?? { workspace, turn, cli: '', session: '', started: 0, ended: null, running: false, files: 0, added: 0, removed: 0 });
      });
    },
  };
}
