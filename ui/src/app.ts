// The review window: wires backend events and commands to the tab strip, the editor and the keyboard.
import { CloseDialog } from './dialog';
import { createReviewEditor, type EditorFactory, type ReviewEditor } from './editor';
import * as ipc from './ipc';
import { baseName, type Layout, renderSummary, type Review, ReviewList, ReviewTabs } from './reviews';
import { Toasts } from './toast';
import { WELCOME_HTML, WelcomePage } from './welcome';
import type { Outcome, PopupMode, Resolved, ReviewDetail, Settings } from './types';

export interface AppOptions {
  /** Tests swap in a fake; the real one is CodeMirror. */
  createEditor?: EditorFactory;
  /** Delay before edits are pushed, so typing sends one update per pause, not per key. */
  pushDelayMs?: number;
  storage?: Pick<Storage, 'getItem' | 'setItem'>;
}

const LAYOUT_KEY = 'redline.layout';
const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
const MOD = isMac ? '⌘' : 'Ctrl+';
const ALT = isMac ? '⌥' : 'Alt+';
const ACCEPT_TITLE = `Write the proposal, with your edits, to the file (${MOD}S or ${MOD}Enter)`;
/** Selection changes closer together than this go to the CLI once. */
const SELECT_DELAY_MS = 100;

const LAYOUT = `
<header class="topbar">
  <div class="tabs" role="tablist" aria-label="Pending reviews"></div>
  <button type="button" class="icon settings-toggle" aria-haspopup="true" aria-expanded="false"
    title="Settings" aria-label="Settings">⚙</button>
  <form class="settings" hidden>
    <fieldset>
      <legend>When a CLI proposes an edit</legend>
      <label><input type="radio" name="popup" value="focus"> Show this window and focus it</label>
      <label><input type="radio" name="popup" value="noFocus"> Show this window without focus</label>
      <label><input type="radio" name="popup" value="trayOnly"> Only mark the tray icon</label>
    </fieldset>
    <label><input type="checkbox" name="keepOpen"> Keep the window open when nothing is pending</label>
  </form>
</header>
<section class="review" hidden>
  <div class="summary-bar">
    <div class="summary"></div>
    <div class="actions">
      <div class="segmented" role="group" aria-label="Layout">
        <button type="button" data-layout="split" title="Original and proposal side by side">Side by side</button>
        <button type="button" data-layout="unified" title="One column, removed lines above added ones">Unified</button>
      </div>
      <div class="nav" role="group" aria-label="Changes">
        <button type="button" class="icon" data-nav="-1" title="Previous change (Alt+↑ or Shift+F7)" aria-label="Previous change">↑</button>
        <button type="button" class="icon" data-nav="1" title="Next change (Alt+↓ or F7)" aria-label="Next change">↓</button>
      </div>
      <button type="button" class="ask" hidden title="Send the selected lines to Claude Code, to ask about them (${MOD}${ALT}K)">Ask Claude <kbd>${MOD}${ALT}K</kbd></button>
      <button type="button" class="open-editor" title="Open the file at this change in your editor ($VISUAL or $EDITOR) (${MOD}${ALT}E)">Open in editor</button>
      <button type="button" class="reject" title="Reject this proposal: the file stays as it is">Reject</button>
      <button type="button" class="accept" title="${ACCEPT_TITLE}">Accept <kbd>${MOD}S</kbd></button>
    </div>
  </div>
  <div class="banner disk-changed" role="alert" hidden>
    <strong>This file changed on disk</strong> after the proposal was made. Accepting overwrites those changes.
  </div>
  <div class="banner read-only" role="note" hidden></div>
  <div class="columns" aria-hidden="true"><span>Original</span><span class="proposal-label">Proposal · editable</span></div>
  <div class="editor-host"></div>
</section>
<section class="empty" hidden>
  <p class="empty-title">No pending reviews</p>
  <p class="empty-text">Edits proposed by a connected CLI appear here.</p>
  <p class="welcome-text">Redline shows each edit your AI coding CLI proposes, for you to accept
    (with your changes) or reject. Three steps to start:</p>
  ${WELCOME_HTML}
</section>
<div class="toasts" aria-live="polite"></div>
<div class="backdrop" hidden>
  <div class="dialog" role="dialog" aria-modal="true" aria-labelledby="close-title" aria-describedby="close-text">
    <h2 id="close-title">Close the review window?</h2>
    <p id="close-text"><span class="dialog-text"></span> Reject them now, or keep them pending to answer
      later here or in the terminal?</p>
    <div class="dialog-buttons">
      <button type="button" class="reject" data-answer="reject">Reject all</button>
      <button type="button" class="primary" data-answer="keep">Keep pending</button>
    </div>
  </div>
</div>`;

const outcomeText: Record<Outcome, string> = {
  accepted: 'accepted', rejected: 'rejected', closed: 'closed', dismissed: 'dismissed',
};

export class ReviewWindow {
  readonly list = new ReviewList();
  private readonly createEditor: EditorFactory;
  private readonly pushDelay: number;
  private readonly storage: Pick<Storage, 'getItem' | 'setItem'> | null;
  private editor: ReviewEditor | null = null;
  /** Which review the open editor shows. */
  private editorFor: number | null = null;
  private pushTimer: ReturnType<typeof setTimeout> | null = null;
  private selectTimer: ReturnType<typeof setTimeout> | null = null;
  private pushFor: number | null = null;
  /** Pushes run one after another so the backend never sees an older text after a newer one. */
  private pushes: Promise<void> = Promise.resolve();
  /** Ids already resolved, so a late reviews_list answer cannot bring one back. */
  private resolved = new Set<number>();
  private layout: Layout;
  private el: {
    tabs: HTMLElement; review: HTMLElement; empty: HTMLElement; summary: HTMLElement; host: HTMLElement;
    banner: HTMLElement; readOnly: HTMLElement; proposalLabel: HTMLElement; columns: HTMLElement; accept: HTMLButtonElement; reject: HTMLButtonElement;
    ask: HTMLButtonElement;
    settings: HTMLFormElement; settingsToggle: HTMLButtonElement;
  };
  private tabs: ReviewTabs;
  readonly welcome: WelcomePage;
  readonly toasts: Toasts;
  readonly dialog: CloseDialog;
  /** Ends the window-level listeners on destroy; the page itself never needs it, tests do. */
  private readonly lifetime = new AbortController();
  private unlisten: (() => void)[] = [];

  constructor(private root: HTMLElement, options: AppOptions = {}) {
    this.createEditor = options.createEditor ?? createReviewEditor;
    this.pushDelay = options.pushDelayMs ?? 150;
    this.storage = options.storage ?? (typeof localStorage !== 'undefined' ? localStorage : null);
    this.layout = this.storage?.getItem(LAYOUT_KEY) === 'unified' ? 'unified' : 'split';
    root.innerHTML = LAYOUT;
    const q = <T extends HTMLElement>(sel: string) => root.querySelector<T>(sel)!;
    this.el = {
      tabs: q('.tabs'), review: q('.review'), empty: q('.empty'), summary: q('.summary'),
      host: q('.editor-host'), banner: q('.disk-changed'), columns: q('.columns'),
      readOnly: q('.banner.read-only'), proposalLabel: q('.proposal-label'),
      accept: q('.actions .accept'), reject: q('.actions .reject'), ask: q('.actions .ask'),
      settings: q('.settings'), settingsToggle: q('.settings-toggle'),
    };
    this.toasts = new Toasts(q('.toasts'));
    this.welcome = new WelcomePage(this.el.empty, { welcome: ipc.welcome, addWorkspace: ipc.workspaceAdd },
      (message) => this.toasts.error({ code: 'welcome', message }));
    this.dialog = new CloseDialog(q('.backdrop'));
    this.tabs = new ReviewTabs(this.el.tabs, {
      select: (id) => this.select(id),
      close: (id) => void this.reject(id),
    });
    this.el.accept.addEventListener('click', () => void this.accept());
    this.el.reject.addEventListener('click', () => void this.reject());
    this.el.ask.addEventListener('click', () => void this.askClaude());
    q('.actions .open-editor').addEventListener('click', () => void this.openInEditor());
    q('.segmented').addEventListener('click', (e) => {
      const layout = (e.target as HTMLElement).closest<HTMLElement>('[data-layout]')?.dataset.layout;
      if (layout === 'split' || layout === 'unified') this.setLayout(layout);
    });
    q('.nav').addEventListener('click', (e) => {
      const step = (e.target as HTMLElement).closest<HTMLElement>('[data-nav]')?.dataset.nav;
      if (step) this.moveToChange(Number(step));
    });
    this.el.settingsToggle.addEventListener('click', () => void this.toggleSettings());
    this.el.settings.addEventListener('change', () => void this.saveSettings());
    const signal = this.lifetime.signal;
    document.addEventListener('mousedown', (e) => {
      const target = e.target as Node;
      if (!this.el.settings.hidden && !this.el.settings.contains(target) && !this.el.settingsToggle.contains(target)) {
        this.hideSettings();
      }
    }, { signal });
    // Capture phase: these shortcuts must win over CodeMirror's own bindings (Mod-Enter, Alt-Up/Down).
    window.addEventListener('keydown', (e) => this.onKey(e), { capture: true, signal });
    const onShown = () => {
      this.checkDisk();
      if (!this.el.empty.hidden) void this.welcome.refresh();
    };
    window.addEventListener('focus', onShown, { signal });
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') onShown();
    }, { signal });
  }

  destroy(): void {
    this.lifetime.abort();
    for (const stop of this.unlisten) stop();
    this.unlisten = [];
    if (this.pushTimer !== null) clearTimeout(this.pushTimer);
    this.pushTimer = null;
    if (this.selectTimer !== null) clearTimeout(this.selectTimer);
    this.selectTimer = null;
    this.editor?.destroy();
    this.editor = null;
    this.editorFor = null;
  }

  /** Subscribes before listing, so a review that arrives in between is not missed. */
  async start(): Promise<void> {
    try {
      this.unlisten = await Promise.all([
        ipc.on('review-added', (d) => this.onAdded(d)),
        ipc.on('review-updated', (d) => this.onUpdated(d)),
        ipc.on('review-resolved', (r) => this.onResolved(r)),
        ipc.on('close-requested', () => void this.onCloseRequested()),
      ]);
    } catch (err) {
      this.toasts.error(err, 'Could not listen to the backend');
    }
    try {
      const reviews = await ipc.reviewsList();
      for (const d of reviews) if (!this.resolved.has(d.id)) this.list.upsert(d);
      // A window made for its first review learns of it here, not from an event.
      this.reportPainted(reviews.map((d) => d.id));
    } catch (err) {
      this.toasts.error(err, 'Could not load the pending reviews');
    }
    this.render();
  }

  // ---- events from the backend ----

  private onAdded(detail: ReviewDetail): void {
    this.onUpdated(detail, true);
    this.reportPainted([detail.id]);
  }

  /** Two frames later the reviews are on screen: the backend times openDiff → painted from this. */
  private reportPainted(ids: number[]): void {
    requestAnimationFrame(() => requestAnimationFrame(() => {
      if (this.lifetime.signal.aborted) return;
      for (const id of ids) ipc.reviewShown(id).catch(() => {});
    }));
  }

  private onUpdated(detail: ReviewDetail, arriving = false): void {
    if (this.resolved.has(detail.id)) return;
    const result = this.list.upsert(detail, arriving);
    if (result === 'replaced' && detail.id === this.editorFor) {
      this.cancelPush(detail.id);
      this.closeEditor(false);
      this.toasts.info(`${baseName(detail.relativePath)}: the CLI sent a new proposal`);
    }
    this.render();
  }

  private onResolved({ id, outcome }: Resolved): void {
    this.resolved.add(id);
    const review = this.list.get(id);
    if (!review) return;
    this.toasts.info(`${baseName(review.detail.relativePath)} was ${outcomeText[outcome]} elsewhere`);
    this.drop(id);
  }

  private async onCloseRequested(): Promise<void> {
    const pending = this.list.size;
    const reject = pending > 0 ? await this.dialog.ask(pending) : false;
    // The CLI's terminal-side answer should carry the latest edits when reviews stay pending.
    await this.flushPush();
    try {
      await ipc.windowCloseAnswer(reject);
    } catch (err) {
      this.toasts.error(err, 'Could not close the window');
    }
  }

  // ---- user actions ----

  select(id: number): void {
    if (id === this.list.selected && this.editorFor === id) return;
    if (!this.list.select(id)) return;
    this.render();
  }

  /** "Ask about this part": the selected lines go to the Claude Code that proposed the edit. */
  async askClaude(): Promise<void> {
    const review = this.list.current;
    if (!review || !review.detail.canMention || !this.editor || this.editorFor !== review.detail.id) return;
    const { startLine, endLine } = this.editor.selection();
    try {
      await ipc.reviewMention(review.detail.id, startLine, endLine);
      const lines = startLine === endLine ? `line ${startLine + 1}` : `lines ${startLine + 1}–${endLine + 1}`;
      this.toasts.info(`Sent ${lines} of ${baseName(review.detail.relativePath)} to Claude Code`);
    } catch (err) {
      this.toasts.error(err, 'Could not ask Claude Code');
    }
  }

  /** Opens the file on disk at the change under the caret in the user's own editor. */
  async openInEditor(): Promise<void> {
    const review = this.list.current;
    if (!review) return;
    const line = this.editor && this.editorFor === review.detail.id ? this.editor.hunkLine() : 1;
    try {
      await ipc.reviewOpenInEditor(review.detail.id, line);
    } catch (err) {
      this.toasts.error(err, `Could not open ${baseName(review.detail.relativePath)} in your editor`);
    }
  }

  /** The selection goes to the CLI that asked once the user pauses: the core sends it to the
   * CLIs that follow one (Claude Code, Copilot CLI) and refuses it for the others. */
  private onSelect(): void {
    const id = this.editorFor;
    const review = this.list.get(id);
    if (id === null || !review) return;
    if (this.selectTimer !== null) clearTimeout(this.selectTimer);
    this.selectTimer = setTimeout(() => {
      this.selectTimer = null;
      if (this.editorFor !== id || !this.editor) return;
      // A selection is a hint to the CLI: failing to send one is not worth a message.
      ipc.reviewSelect(id, this.editor.selection()).catch(() => {});
    }, SELECT_DELAY_MS);
  }

  async accept(id = this.list.selected): Promise<void> {
    const review = this.list.get(id);
    if (!review || review.busy || id === null) return;
    // A read-only proposal goes back as it came: there is no edited text to send.
    const content = review.detail.readOnly !== null ? null
      : id === this.editorFor && this.editor ? this.editor.getText() : review.text;
    const { revision } = review.detail;
    this.cancelPush(id);
    review.busy = true;
    this.renderButtons();
    try {
      await this.pushes;
      await ipc.reviewAccept(id, revision, content);
      this.resolved.add(id);
      this.drop(id);
    } catch (err) {
      review.busy = false;
      this.renderButtons();
      this.toasts.error(err, `Could not accept ${baseName(review.detail.relativePath)}`);
    }
  }

  async reject(id = this.list.selected): Promise<void> {
    const review = this.list.get(id);
    if (!review || review.busy || id === null) return;
    this.cancelPush(id);
    review.busy = true;
    this.renderButtons();
    try {
      await this.pushes;
      await ipc.reviewReject(id);
      this.resolved.add(id);
      this.drop(id);
    } catch (err) {
      review.busy = false;
      this.renderButtons();
      this.toasts.error(err, `Could not reject ${baseName(review.detail.relativePath)}`);
    }
  }

  setLayout(layout: Layout): void {
    this.layout = layout;
    this.storage?.setItem(LAYOUT_KEY, layout);
    const review = this.list.current;
    if (review) review.layout = layout;
    this.editor?.setUnified(layout === 'unified');
    this.renderLayout();
  }

  moveToChange(step: number): void {
    if (step < 0) this.editor?.previousChange();
    else this.editor?.nextChange();
  }

  private onKey(e: KeyboardEvent): void {
    if (this.dialog.open) {
      if (e.key === 'Escape') {
        e.preventDefault();
        this.dialog.answer(false);
      }
      return;
    }
    const mod = e.ctrlKey || e.metaKey;
    let handled = true;
    if (mod && !e.altKey && !e.shiftKey && (e.key === 's' || e.key === 'S' || e.key === 'Enter')) {
      void this.accept();
    } else if (mod && e.altKey && !e.shiftKey && e.code === 'KeyK') {
      void this.askClaude();
    } else if (mod && e.altKey && !e.shiftKey && e.code === 'KeyE') {
      void this.openInEditor();
    } else if (e.key === 'F7' && !mod && !e.altKey) {
      this.moveToChange(e.shiftKey ? -1 : 1);
    } else if (e.altKey && !mod && !e.shiftKey && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
      this.moveToChange(e.key === 'ArrowUp' ? -1 : 1);
    } else if (mod && !e.altKey && (e.key === 'PageDown' || e.key === 'PageUp')) {
      const next = this.list.neighbour(e.key === 'PageUp' ? -1 : 1);
      if (next !== null) this.select(next);
    } else if (e.key === 'Escape' && !this.el.settings.hidden) {
      this.hideSettings();
    } else {
      handled = false;
    }
    if (handled) {
      e.preventDefault();
      e.stopPropagation();
    }
  }

  // ---- edits pushed to the backend ----

  private onEdit(): void {
    const id = this.editorFor;
    if (id === null) return;
    if (this.pushTimer !== null && this.pushFor !== id) void this.flushPush();
    if (this.pushTimer !== null) clearTimeout(this.pushTimer);
    this.pushFor = id;
    this.pushTimer = setTimeout(() => void this.flushPush(), this.pushDelay);
  }

  private cancelPush(id: number): void {
    if (this.pushFor === id && this.pushTimer !== null) {
      clearTimeout(this.pushTimer);
      this.pushTimer = null;
      this.pushFor = null;
    }
  }

  /** Sends the pending edit now, if there is one. The text is read here, once per pause in typing. */
  private flushPush(): Promise<void> {
    const id = this.pushFor;
    if (this.pushTimer !== null) clearTimeout(this.pushTimer);
    this.pushTimer = null;
    this.pushFor = null;
    const review = this.list.get(id);
    if (id === null || !review) return this.pushes;
    if (id === this.editorFor && this.editor) {
      review.text = this.editor.getText();
      Object.assign(review, this.editor.counts());
      this.renderTabs();
      if (id === this.list.selected) renderSummary(this.el.summary, review);
    }
    const content = review.text;
    const { revision } = review.detail;
    this.pushes = this.pushes.then(() => ipc.reviewUpdate(id, revision, content)).catch((err) => {
      // The CLI re-proposed the file: its new proposal replaces these edits in the window anyway.
      if (this.resolved.has(id) || ipc.toIpcError(err).code === 'superseded') return;
      this.toasts.error(err, `Could not send your edits of ${baseName(review.detail.relativePath)}`);
    });
    return this.pushes;
  }

  // ---- disk state ----

  private checkDisk(id = this.list.selected): void {
    const review = this.list.get(id);
    // Nothing is written for a read-only proposal, so a change on disk is nothing to warn of.
    if (!review || id === null || review.detail.readOnly !== null) return;
    ipc.reviewDiskChanged(id).then((changed) => {
      review.diskChanged = changed;
      if (id === this.list.selected) this.el.banner.hidden = !changed;
    }, (err) => this.toasts.error(err, 'Could not check the file on disk'));
  }

  // ---- settings ----

  private async toggleSettings(): Promise<void> {
    const form = this.el.settings;
    if (!form.hidden) {
      this.hideSettings();
      return;
    }
    try {
      const s = await ipc.settingsGet();
      (form.elements.namedItem('keepOpen') as HTMLInputElement).checked = s.keepOpen;
      for (const input of form.querySelectorAll<HTMLInputElement>('input[name=popup]')) {
        input.checked = input.value === s.popup;
      }
      form.hidden = false;
      this.el.settingsToggle.setAttribute('aria-expanded', 'true');
    } catch (err) {
      this.toasts.error(err, 'Could not read the settings');
    }
  }

  private hideSettings(): void {
    this.el.settings.hidden = true;
    this.el.settingsToggle.setAttribute('aria-expanded', 'false');
  }

  private async saveSettings(): Promise<void> {
    const form = this.el.settings;
    const popup = form.querySelector<HTMLInputElement>('input[name=popup]:checked')?.value as PopupMode | undefined;
    const settings: Settings = {
      popup: popup ?? 'focus',
      keepOpen: (form.elements.namedItem('keepOpen') as HTMLInputElement).checked,
    };
    try {
      await ipc.settingsSet(settings);
    } catch (err) {
      this.toasts.error(err, 'Could not save the settings');
    }
  }

  // ---- rendering ----

  /** Removes a review from the window; hides the window when none is left (unless keepOpen). */
  private drop(id: number): void {
    this.cancelPush(id);
    if (id === this.editorFor) this.closeEditor(false);
    this.list.remove(id);
    this.render();
    if (this.list.size === 0) void this.hideIfIdle();
  }

  private async hideIfIdle(): Promise<void> {
    try {
      const settings = await ipc.settingsGet();
      if (!settings.keepOpen && this.list.size === 0) await ipc.windowHide();
    } catch (err) {
      this.toasts.error(err, 'Could not hide the window');
    }
  }

  private closeEditor(keepText: boolean): void {
    if (!this.editor) return;
    const review = this.list.get(this.editorFor);
    if (review && this.pushFor === this.editorFor) void this.flushPush();
    else if (keepText && review) review.text = this.editor.getText();
    this.editor.destroy();
    this.editor = null;
    this.editorFor = null;
  }

  private render(): void {
    const review = this.list.current;
    document.title = this.list.size ? `Redline · ${this.list.size} pending` : 'Redline';
    this.el.review.hidden = !review;
    const wasHidden = this.el.empty.hidden;
    this.el.empty.hidden = !!review;
    this.renderTabs();
    if (!review) {
      this.closeEditor(true);
      // The welcome page's check is live: run it whenever the page comes into view.
      if (wasHidden) void this.welcome.refresh();
      return;
    }
    renderSummary(this.el.summary, review);
    this.renderButtons();
    this.el.ask.hidden = !review.detail.canMention;
    if (this.editorFor !== review.detail.id) {
      this.closeEditor(true);
      this.openEditor(review);
      this.checkDisk(review.detail.id);
    }
    this.renderLayout();
    this.el.banner.hidden = !review.diskChanged;
    const readOnly = review.detail.readOnly;
    this.el.readOnly.hidden = readOnly === null;
    this.el.readOnly.textContent = readOnly ?? '';
    this.el.proposalLabel.textContent = readOnly === null ? 'Proposal · editable' : 'Proposal · read-only';
    this.el.accept.title = readOnly === null ? ACCEPT_TITLE : `Accept the proposal as it is (${MOD}S or ${MOD}Enter)`;
  }

  private renderTabs(): void {
    this.tabs.render(this.list);
  }

  private renderButtons(): void {
    const busy = this.list.current?.busy ?? true;
    this.el.accept.disabled = busy;
    this.el.reject.disabled = busy;
  }

  private effectiveLayout(review: Review): Layout {
    // A new file has nothing on the left: one column shows it better.
    return review.layout ?? (review.detail.newFile ? 'unified' : this.layout);
  }

  private renderLayout(): void {
    const review = this.list.current;
    if (!review) return;
    const layout = this.effectiveLayout(review);
    for (const b of this.root.querySelectorAll<HTMLElement>('[data-layout]')) {
      b.setAttribute('aria-pressed', String(b.dataset.layout === layout));
    }
    this.el.columns.hidden = layout === 'unified';
  }

  private openEditor(review: Review): void {
    const id = review.detail.id;
    this.editorFor = id;
    this.editor = this.createEditor(this.el.host, {
      original: review.detail.original,
      text: review.text,
      path: review.detail.relativePath,
      unified: this.effectiveLayout(review) === 'unified',
      highlightChanges: !review.detail.newFile,
      readOnly: review.detail.readOnly !== null,
    }, () => this.onEdit(), () => this.onSelect());
  }
}

export async function startApp(root: HTMLElement, options?: AppOptions): Promise<ReviewWindow> {
  const app = new ReviewWindow(root, options);
  await app.start();
  return app;
}
