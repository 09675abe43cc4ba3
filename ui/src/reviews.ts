// The pending reviews as the window shows them: order, selection, labels, the tab strip and the summary.
import { bytesNote, notable } from './endings';
import { languageFor, languageNames } from './language';
import type { ClientInfo, ReviewDetail } from './types';

export type Layout = 'split' | 'unified';

export interface Review {
  detail: ReviewDetail;
  /** The user's text as of the last push or tab switch; the open review editor holds the live text. */
  text: string;
  added: number;
  removed: number;
  diskChanged: boolean;
  /** An accept or reject is in flight: its buttons stay disabled until it settles. */
  busy: boolean;
  /** Arrived while another review was in front; cleared once looked at. */
  fresh: boolean;
  /** The layout the user chose for this review, if any. */
  layout?: Layout;
}

export type UpsertResult = 'added' | 'replaced' | 'refreshed';

export class ReviewList {
  private byId = new Map<number, Review>();
  private order: number[] = [];
  selected: number | null = null;

  get size(): number {
    return this.order.length;
  }

  get(id: number | null): Review | undefined {
    return id === null ? undefined : this.byId.get(id);
  }

  get current(): Review | undefined {
    return this.get(this.selected);
  }

  all(): Review[] {
    return this.order.map((id) => this.byId.get(id)!);
  }

  /**
   * Adds a review or refreshes one we have. The user's edits survive a refresh unless the CLI sent a
   * different proposal or original, which makes them meaningless ('replaced'). An `arriving`
   * review is marked fresh when another one is in front, so the user notices its tab.
   */
  upsert(detail: ReviewDetail, arriving = false): UpsertResult {
    const known = this.byId.get(detail.id);
    if (!known) {
      this.byId.set(detail.id, {
        detail, text: detail.current, added: detail.added, removed: detail.removed,
        diskChanged: false, busy: false, fresh: arriving && this.selected !== null,
      });
      this.order.push(detail.id);
      if (this.selected === null) this.selected = detail.id;
      return 'added';
    }
    const replaced = known.detail.proposal !== detail.proposal || known.detail.original !== detail.original;
    known.detail = detail;
    known.added = detail.added;
    known.removed = detail.removed;
    if (replaced) known.text = detail.current;
    return replaced ? 'replaced' : 'refreshed';
  }

  /** Removes a review; if it was in front, its right-hand neighbour (else the left) takes its place. */
  remove(id: number): Review | undefined {
    const review = this.byId.get(id);
    if (!review) return undefined;
    const index = this.order.indexOf(id);
    this.order.splice(index, 1);
    this.byId.delete(id);
    if (this.selected === id) {
      this.selected = this.order[Math.min(index, this.order.length - 1)] ?? null;
    }
    return review;
  }

  select(id: number): boolean {
    const review = this.byId.get(id);
    if (!review) return false;
    this.selected = id;
    review.fresh = false;
    return true;
  }

  /** The id `step` tabs away from the selected one, wrapping around. */
  neighbour(step: number): number | null {
    if (this.order.length === 0) return null;
    const n = this.order.length;
    const at = this.selected === null ? 0 : this.order.indexOf(this.selected);
    return this.order[(((at + step) % n) + n) % n];
  }
}

export function baseName(path: string): string {
  const parts = path.split(/[\\/]/).filter(Boolean);
  return parts[parts.length - 1] ?? path;
}

export function workspaceLabel(workspace: string): string {
  return baseName(workspace);
}

/** A session title longer than this is cut in the label (the tooltip has it whole). */
const TITLE_CHARS = 40;

/** Who asked: the real program (and its tmux pane or terminal) when Redline found the process,
 * and the session's title when the CLI gave one (Copilot CLI). */
export function clientLabel(client: ClientInfo): string {
  const who = programLabel(client);
  const title = client.sessionName;
  if (!title) return who;
  const cut = [...title].length > TITLE_CHARS ? `${[...title].slice(0, TITLE_CHARS - 1).join('')}…` : title;
  return `${who} · “${cut}”`;
}

function programLabel(client: ClientInfo): string {
  const p = client.process;
  // A `redline` command asked; its process only ran it (a shell, a script): as the core's label.
  if (client.command) return p ? `${client.name} (run by ${processLabel(p)})` : client.name;
  if (p) return processLabel(p);
  return client.version ? `${client.name} ${client.version}` : client.name;
}

function processLabel(p: NonNullable<ClientInfo['process']>): string {
  const name = p.version ? `${p.program} ${p.version}` : p.program;
  if (p.tmux) return `${name} · tmux ${p.tmux}`;
  if (p.tty) return `${name} · ${p.tty}`;
  return name;
}

/** The details behind the label: PID, working directory, terminal. */
export function clientTitle(client: ClientInfo): string {
  const p = client.process;
  if (!p) return `The CLI that proposed this edit (it named itself ${client.name})`;
  const lines = [`${p.program}${p.version ? ' ' + p.version : ''}, pid ${p.pid}`];
  if (p.cwd) lines.push(`in ${p.cwd}`);
  if (p.tmux) lines.push(`tmux pane ${p.tmux}`);
  if (p.tty) lines.push(`terminal ${p.tty}`);
  lines.push(`MCP client: ${client.name} ${client.version}`.trim());
  if (client.sessionName) lines.push(`session: ${client.sessionName}`);
  return lines.join('\n');
}

// U+2212 MINUS SIGN: a hyphen looks like a dash next to a number.
export function countsLabel(added: number, removed: number): string {
  return `+${added} \u2212${removed}`;
}

/** One line describing a review, for tooltips and screen readers. */
export function describe(review: Review): string {
  const d = review.detail;
  const parts = [`${d.relativePath} in ${d.workspace}`, `from ${clientLabel(d.client)}`];
  if (d.container) parts.push(`in a container, as ${d.filePath}`);
  if (d.remote) parts.push(`on ${d.remote}`);
  if (d.newFile) parts.push('new file');
  parts.push(countsLabel(review.added, review.removed));
  return parts.join(', ');
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function counts(added: number, removed: number): HTMLElement {
  const box = el('span', 'counts');
  box.setAttribute('aria-label', `${added} lines added, ${removed} removed`);
  box.append(el('span', 'add', `+${added}`), el('span', 'del', `\u2212${removed}`));
  return box;
}

export interface TabActions {
  select(id: number): void;
  close(id: number): void;
}

/** The tab strip: one tab per review; its close button rejects the review. */
export class ReviewTabs {
  constructor(private strip: HTMLElement, actions: TabActions) {
    strip.addEventListener('click', (e) => {
      const target = e.target as HTMLElement;
      const tab = target.closest<HTMLElement>('[data-id]');
      if (!tab) return;
      const id = Number(tab.dataset.id);
      if (target.closest('.tab-close')) actions.close(id);
      else actions.select(id);
    });
    // Middle-click closes, as in browsers and editors.
    strip.addEventListener('auxclick', (e) => {
      const tab = (e.target as HTMLElement).closest<HTMLElement>('[data-id]');
      if (tab && e.button === 1) actions.close(Number(tab.dataset.id));
    });
  }

  render(list: ReviewList): void {
    // Labels that would collide get their workspace shown, so two main.rs tabs stay distinguishable.
    const names = new Map<string, number>();
    for (const r of list.all()) {
      const name = baseName(r.detail.relativePath);
      names.set(name, (names.get(name) ?? 0) + 1);
    }
    const multiWorkspace = new Set(list.all().map((r) => r.detail.workspace)).size > 1;
    const tabs = list.all().map((review) => {
      const d = review.detail;
      const selected = d.id === list.selected;
      const tab = el('div', 'tab');
      tab.dataset.id = String(d.id);
      tab.setAttribute('role', 'tab');
      tab.setAttribute('aria-selected', String(selected));
      tab.tabIndex = selected ? 0 : -1;
      tab.title = describe(review);
      if (review.fresh) tab.classList.add('fresh');
      // A whole turn's review is of the workspace, not of one file.
      const name = d.turnId !== null ? `Turn ${d.turnId}` : baseName(d.relativePath);
      const label = el('span', 'tab-label');
      label.append(el('span', 'tab-name', name));
      if (multiWorkspace || (names.get(name) ?? 0) > 1) label.append(el('span', 'tab-ws', workspaceLabel(d.workspace)));
      if (d.newFile && d.turnId === null) label.append(el('span', 'badge new', 'new'));
      const close = el('button', 'tab-close', '×');
      close.type = 'button';
      close.tabIndex = -1;
      // A turn's tab closes as Done: a rejection would continue the turn without words.
      close.title = d.kind === 'turn' ? 'Done: the turn ends' : 'Reject and close';
      close.setAttribute('aria-label', d.kind === 'turn' ? `Done with the turn (${d.relativePath})` : `Reject ${d.relativePath}`);
      tab.append(label, ...(d.turnId === null ? [counts(review.added, review.removed)] : []), close);
      return tab;
    });
    this.strip.replaceChildren(...tabs);
  }
}

/** The line above the diff: where the file is, who asked, and how big the change is. */
/** What the review editor does not show of the bytes: line endings, BOM, final newline, and whether the
 * proposal changes them. Nothing for the common case (LF both sides). */
function bytesBadge(d: ReviewDetail): HTMLElement | null {
  const proposal = bytesNote(d.proposal);
  // A binary original has no lines to end: only the proposal's endings are worth a word.
  const original = d.newFile || d.originalBinary !== null ? proposal : bytesNote(d.original);
  let badge: HTMLElement;
  if (original !== proposal) {
    badge = el('span', 'badge endings changed', `${original || 'no line break'} → ${proposal || 'no line break'}`);
    badge.title = 'The proposal changes the file\'s line endings, BOM or final newline (the editor shows '
      + 'lines alone). Accepting writes them as proposed; your edits keep them.';
  } else if (notable(proposal)) {
    badge = el('span', 'badge endings', proposal);
    badge.title = 'The file\'s line endings, BOM and final newline: accepting keeps them, with or without your edits.';
  } else {
    return null;
  }
  return badge;
}

/** "binary file, 1,234 bytes": what a review shows of an original that is not text. */
export function binaryLabel(size: number): string {
  return `binary file, ${size.toLocaleString('en-US')} byte${size === 1 ? '' : 's'}`;
}

export function renderSummary(box: HTMLElement, review: Review): void {
  const d = review.detail;
  const path = el('div', 'path');
  const ws = el('span', 'ws', workspaceLabel(d.workspace));
  ws.title = d.workspace;
  const rel = el('span', 'rel', d.turnId !== null ? `turn ${d.turnId}` : d.relativePath);
  // The host's file; a CLI in a container named it by its own path.
  rel.title = d.container ? `${d.path}\n(the CLI in the container sent ${d.filePath})` : d.filePath;
  path.append(ws, el('span', 'sep', '/'), rel);

  const meta = el('div', 'meta');
  const client = el('span', 'client', clientLabel(d.client));
  client.title = clientTitle(d.client);
  meta.append(client);
  if (d.container) {
    const badge = el('span', 'badge container', 'container');
    badge.title = `Proposed by a CLI in a container, as ${d.filePath}; this is ${d.path} on this machine`;
    meta.append(badge);
  }
  if (d.remote) {
    const badge = el('span', 'badge remote', d.remote);
    badge.title = `On ${d.remote}: ${d.path} is that machine's file. Your decision goes to Redline there, `
      + 'and its CLI writes what you accept.';
    meta.append(badge);
  }
  if (d.turnId !== null) return void box.replaceChildren(path, meta);
  if (d.newFile) meta.append(el('span', 'badge new', 'new file'));
  if (d.originalBinary !== null) {
    const badge = el('span', 'badge binary', binaryLabel(d.originalBinary));
    badge.title = 'The file on disk is not text (it holds NUL bytes, or is mostly not UTF-8), so it is not '
      + 'shown: the proposal is compared with nothing. Accepting gives the CLI the proposal as it is.';
    meta.append(badge);
  } else if (d.originalNotUtf8) {
    const badge = el('span', 'badge not-utf8', 'original not UTF-8');
    badge.title = 'The file on disk is not UTF-8 text: the original is shown with \uFFFD where its bytes '
      + 'are not. Accepting gives the CLI the proposal, which is UTF-8.';
    meta.append(badge);
  }
  const bytes = bytesBadge(d);
  if (bytes) meta.append(bytes);
  meta.append(counts(review.added, review.removed));
  const lang = languageFor(d.relativePath, d.proposal.slice(0, 200).split('\n', 1)[0]);
  if (lang) meta.append(el('span', 'lang', languageNames[lang]));
  box.replaceChildren(path, meta);
}
