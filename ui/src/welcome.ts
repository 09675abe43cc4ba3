// The welcome page, shown when nothing is pending: add a workspace, enable IDE mode in each CLI,
// and the live `redline doctor` check of the workspace.
import type { DoctorLine, Welcome } from './bindings';
import { CONNECT } from './clis';

export interface WelcomeBackend {
  welcome(): Promise<Welcome>;
  /** Opens the folder picker beside `near`; the path added, or null if cancelled. */
  addWorkspace(near: string | null): Promise<string | null>;
}

const escaped = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Words with `code` in backticks, as HTML: the code spans as `<code>`. */
export function withCode(words: string): string {
  return words.split('`').map((part, i) => (i % 2 ? `<code>${escaped(part)}</code>` : escaped(part))).join('');
}

/** Step 2's rows: every CLI Redline serves (generated from its declarations, ui/src/clis.ts). */
function connectRows(): string {
  return CONNECT.map((c) => `        <tr><td>${escaped(c.name)}</td><td>${withCode(c.how)}</td></tr>`).join('\n');
}

export const WELCOME_HTML = `
<div class="welcome">
  <ol class="steps">
    <li class="step step-workspace">
      <strong>Add your project folder as a workspace.</strong>
      <span class="ws-state"></span>
      <button type="button" class="add-workspace">Add a workspace…</button>
    </li>
    <li class="step">
      <strong>Connect your CLI once</strong>, started in that folder:
      <table class="ide-commands">
${connectRows()}
      </table>
    </li>
    <li class="step step-check">
      <strong>Check</strong> <span class="doctor-for"></span>
      <button type="button" class="recheck">Check again</button>
      <ul class="doctor" aria-live="polite"></ul>
      <p class="doctor-hint">The same check from a terminal: <code>redline doctor</code></p>
    </li>
  </ol>
</div>`;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** One CLI's verdict: a mark, the reason, and the fix if there is one. */
/** The section shown when nothing is pending: the welcome page. */
export const EMPTY_HTML = `
<section class="empty" hidden>
  <p class="empty-title">No pending reviews</p>
  <p class="empty-text">Edits proposed by a connected CLI appear here.</p>
  <p class="welcome-text">Redline shows each edit your AI coding CLI proposes, for you to accept
    (with your changes) or reject. Three steps to start:</p>
  ${WELCOME_HTML}
</section>`;

export function doctorItem(line: DoctorLine): HTMLLIElement {
  const state = !line.installed ? 'absent' : line.ok ? 'ok' : 'bad';
  const li = el('li', `doctor-line ${state}`);
  const mark = { ok: '✓', bad: '✗', absent: '–' }[state];
  const cli = el('span', 'cli', line.name);
  if (line.installed && line.version) cli.append(el('span', 'version', line.version));
  li.append(el('span', 'mark', mark), cli);
  li.append(el('span', 'reason', line.installed ? line.reason : 'not installed (not on PATH)'));
  if (line.installed && line.fix) {
    const fix = el('div', 'fix');
    // Advice is what to do, in words: no command to copy.
    if (line.fixWhere === 'advice') fix.append('Fix: ', line.fix);
    else fix.append(line.fixWhere === 'cli' ? `Fix, typed in ${line.name}: ` : 'Fix: ', el('code', '', line.fix));
    li.append(fix);
  }
  return li;
}

export class WelcomePage {
  private running: Promise<void> | null = null;
  /** Asked again while a check ran: what it answers may be out of date, so one more follows. */
  private again = false;
  /** The last answer; null until the first one. */
  state: Welcome | null = null;

  constructor(private root: HTMLElement, private backend: WelcomeBackend, private onError: (err: unknown) => void) {
    root.querySelector('.add-workspace')!.addEventListener('click', () => void this.add());
    root.querySelector('.recheck')!.addEventListener('click', () => void this.refresh());
  }

  /**
   * Asks the backend again. At most one check is in flight: calls while it runs share it and
   * one more check after it (a burst of changes costs two checks, not one each).
   */
  refresh(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.loadUntilCurrent().finally(() => { this.running = null; });
    return this.running;
  }

  private async loadUntilCurrent(): Promise<void> {
    do {
      this.again = false;
      await this.load();
    } while (this.again);
  }

  private async load(): Promise<void> {
    this.root.classList.add('checking');
    try {
      const state = await this.backend.welcome();
      if (state) this.render(state);
    } catch (e) {
      this.onError(e);
    } finally {
      this.root.classList.remove('checking');
    }
  }

  private async add(): Promise<void> {
    try {
      const added = await this.backend.addWorkspace(this.state?.workspace ?? null);
      if (added) await this.refresh();
    } catch (e) {
      this.onError(e);
    }
  }

  render(state: Welcome): void {
    this.state = state;
    const first = state.workspace === null;
    this.root.classList.toggle('first-run', first);
    const title = this.root.querySelector<HTMLElement>('.empty-title');
    if (title) title.textContent = first ? 'Welcome to Redline' : 'No pending reviews';
    const ws = this.root.querySelector<HTMLElement>('.ws-state')!;
    ws.textContent = first ? '' : `✓ ${state.workspace}`;
    this.root.querySelector<HTMLButtonElement>('.add-workspace')!.textContent = first ? 'Add a workspace…' : 'Add another…';
    this.root.querySelector<HTMLElement>('.doctor-for')!.textContent = first
      ? 'which CLIs will connect, once a workspace is added.'
      : `which CLIs will connect from ${state.workspace}:`;
    const list = this.root.querySelector<HTMLElement>('.doctor')!;
    list.replaceChildren(...state.lines.map(doctorItem));
  }
}
