// The review window: wires backend events and commands to the tab strip, the review pane, the review
// editor and the keyboard.
import { CloseDialog, DIALOG_HTML } from './dialog';
import { REASON_DIALOG_HTML, ReasonDialog, reasonAsk } from './reason-dialog';
import * as ipc from './ipc';
import { createReviewEditor, type ReviewEditor, type ReviewEditorFactory } from './review-editor';
import { Outbox, type Push } from './outbox';
import { REVIEW_HTML, ReviewPane } from './review-pane';
import { LayoutChoice } from './layout';
import { baseName, type Layout, type Review, ReviewList, ReviewTabs } from './reviews';
import { SETTINGS_HTML, SettingsMenu } from './settings';
import { anyModal, listenForShortcuts } from './shortcuts';
import { reviewTopic, Toasts } from './toast';
import { DiskCheck } from './disk-check';
import { askAbout, openInEditor } from './asks';
import { EMPTY_HTML, WelcomePage } from './welcome';
import { pageTitle } from './title';
import type { Comment, Resolved, ReviewDetail } from './types';

export interface AppOptions {
  /** Tests swap in a fake; the real one is CodeMirror. */
  createReviewEditor?: ReviewEditorFactory;
  /** Delay before edits are pushed, so typing sends one update per pause, not per key. */
  pushDelayMs?: number;
  storage?: Pick<Storage, 'getItem' | 'setItem'>;
}

/** Selection changes closer together than this go to the CLI once. */
const SELECT_DELAY_MS = 100;

const LAYOUT = `
<header class="topbar">
  <div class="tabs" role="tablist" aria-label="Pending reviews"></div>${SETTINGS_HTML}
</header>
<div class="toasts" aria-live="polite"></div>${REVIEW_HTML}${EMPTY_HTML}${DIALOG_HTML}${REASON_DIALOG_HTML}`;

export class ReviewWindow {
  readonly list = new ReviewList();
  private readonly createReviewEditor: ReviewEditorFactory;
  private reviewEditor: ReviewEditor | null = null;
  /** Which review the open review editor shows. */
  private reviewEditorFor: number | null = null;
  private readonly outbox: Outbox;
  /** Ids already resolved, so a late reviews_list answer cannot bring one back. */
  private resolved = new Set<number>();
  private readonly disk = new DiskCheck(ipc.reviewDiskChanged, {
    // Nothing is written for a read-only proposal, so a change on disk is nothing to warn of.
    wanted: (id) => this.list.get(id)?.detail.readOnly === null,
    answered: (id, changed) => {
      const review = this.list.get(id);
      if (review) review.diskChanged = changed;
      if (id === this.list.selected) this.pane.showDiskChanged(changed);
    },
    failed: (err, id) => this.toasts.error(err, 'Could not check the file on disk', reviewTopic(id)),
  });
  private readonly layout: LayoutChoice;
  private readonly empty: HTMLElement;
  private readonly pane: ReviewPane;
  private readonly settings: SettingsMenu;
  private tabs: ReviewTabs;
  readonly welcome: WelcomePage;
  readonly toasts: Toasts;
  readonly dialog: CloseDialog;
  readonly reasonDialog: ReasonDialog;
  /** Ends the window-level listeners on destroy; the page itself never needs it, tests do. */
  private readonly lifetime = new AbortController();
  private unlisten: (() => void)[] = [];

  constructor(root: HTMLElement, options: AppOptions = {}) {
    this.createReviewEditor = options.createReviewEditor ?? createReviewEditor;
    this.outbox = new Outbox({
      edit: (id) => this.takeEdit(id),
      selection: (id) => this.reviewEditorFor === id && this.reviewEditor ? this.reviewEditor.selection() : null,
      failed: (push, err) => this.pushFailed(push, err),
    }, options.pushDelayMs ?? 150, SELECT_DELAY_MS);
    this.layout = new LayoutChoice(options.storage ?? (typeof localStorage !== 'undefined' ? localStorage : null));
    root.innerHTML = LAYOUT;
    const q = <T extends HTMLElement>(sel: string) => root.querySelector<T>(sel)!;
    const signal = this.lifetime.signal;
    this.empty = q('.empty');
    this.toasts = new Toasts(q('.toasts'));
    this.welcome = new WelcomePage(this.empty, { welcome: ipc.welcome, addWorkspace: ipc.workspaceAdd },
      (err) => this.toasts.error(err, undefined, 'welcome'));
    this.dialog = new CloseDialog(q('.backdrop'));
    this.reasonDialog = new ReasonDialog(q('.reason-backdrop'));
    this.tabs = new ReviewTabs(q('.tabs'), {
      select: (id) => this.select(id),
      close: (id) => void (this.list.get(id)?.detail.kind === 'turn' ? this.accept(id) : this.reject(id)),
    });
    this.pane = new ReviewPane(q('.review'), {
      accept: () => void this.accept(),
      reject: (reason, comments) => void this.reject(undefined, reason, comments),
      rejectWithReason: () => void this.rejectWithReason(),
      comment: () => this.pane.comments.start(this.list.current, this.reviewEditorFor === this.list.selected ? this.reviewEditor : null),
      ask: () => void this.askAbout(),
      openInEditor: () => void this.openInEditor(),
      setLayout: (layout) => this.setLayout(layout),
      moveToChange: (step) => this.moveToChange(step),
    }, this.toasts);
    this.settings = new SettingsMenu(q('.topbar'), this.toasts, signal);
    listenForShortcuts(window, anyModal(this.dialog, this.reasonDialog), {
      accept: () => void this.accept(),
      rejectWithReason: () => void this.rejectWithReason(),
      ask: () => void this.askAbout(),
      openInEditor: () => void this.openInEditor(),
      previousChange: () => this.moveToChange(-1),
      nextChange: () => this.moveToChange(1),
      previousTab: () => this.selectNeighbour(-1),
      nextTab: () => this.selectNeighbour(1),
      escape: () => this.settings.close(),
    }, signal);
    window.addEventListener('focus', () => this.onShown(), { signal });
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') this.onShown();
    }, { signal });
  }

  /** Back in view: what it shows may have changed meanwhile (a file on disk, a CLI's set-up). */
  private onShown(): void {
    this.disk.check(this.list.selected);
    this.refreshWelcome();
  }

  /** The welcome page's check is live, but only while the page is up. */
  private refreshWelcome(): void {
    if (!this.empty.hidden) void this.welcome.refresh();
  }

  destroy(): void {
    this.lifetime.abort();
    for (const stop of this.unlisten) stop();
    this.unlisten = [];
    this.outbox.stop();
    this.reviewEditor?.destroy();
    this.reviewEditor = null;
    this.reviewEditorFor = null;
  }

  /** Subscribes before listing, so a review that arrives in between is not missed. */
  async start(): Promise<void> {
    try {
      this.unlisten = await Promise.all([
        ipc.on('review-added', (d) => this.onAdded(d)),
        ipc.on('review-updated', (d) => this.onUpdated(d)),
        ipc.on('review-resolved', (r) => this.onResolved(r)),
        ipc.on('close-requested', () => void this.onCloseRequested()),
        ipc.on('shown', () => this.onShown()),
        ipc.on('workspaces-changed', () => this.refreshWelcome()),
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

  /** Two frames after a review (a whole turn's: its list and first file) is drawn it is on screen: the backend times from this. */
  private reportPainted(ids: number[]): void {
    for (const id of ids) void Promise.resolve().then(() => this.pane.turnView.drawn(id) ?? true).then((yes) => yes
      && requestAnimationFrame(() => requestAnimationFrame(() => {
        if (!this.lifetime.signal.aborted) ipc.reviewShown(id).catch(() => {});
      })));
  }

  private onUpdated(detail: ReviewDetail, arriving = false): void {
    if (this.resolved.has(detail.id)) return;
    const result = this.list.upsert(detail, arriving);
    if (result === 'replaced' && detail.id === this.reviewEditorFor) {
      this.outbox.cancel(detail.id);
      this.closeReviewEditor(false);
      this.toasts.info(`${baseName(detail.relativePath)}: the CLI sent a new proposal`);
    }
    this.render();
  }

  private onResolved({ id, outcome }: Resolved): void {
    this.resolved.add(id);
    const review = this.list.get(id);
    if (!review) return;
    // Busy: this window's own answer is on its way, and the event is its echo.
    if (!review.busy) this.toasts.info(`${baseName(review.detail.relativePath)} was ${outcome} elsewhere`);
    this.drop(id);
  }

  private async onCloseRequested(): Promise<void> {
    this.reasonDialog.escape();
    const pending = this.list.size;
    const reject = pending > 0 ? await this.dialog.ask(pending) : false;
    // The CLI's terminal-side answer should carry the latest edits when reviews stay pending.
    await this.outbox.flush();
    try {
      await ipc.windowCloseAnswer(reject);
    } catch (err) {
      this.toasts.error(err, 'Could not close the window');
    }
  }

  // ---- user actions ----

  select(id: number): void {
    if (id === this.list.selected && this.reviewEditorFor === id) return;
    if (!this.list.select(id)) return;
    this.render();
  }

  /** "Ask about this part": the selected lines go to the CLI session that proposed the edit. */
  async askAbout(): Promise<void> {
    const review = this.list.current;
    if (review && this.reviewEditorFor === review.detail.id) await askAbout(review, this.reviewEditor, this.toasts);
  }

  /** Opens the file on disk at the change under the caret in the user's own editor. */
  async openInEditor(): Promise<void> {
    const review = this.list.current;
    if (review) await openInEditor(review, this.reviewEditorFor === review.detail.id ? this.reviewEditor : null, this.toasts);
  }

  /** The selection goes to the CLI that asked once the user pauses: the core sends it to the
   * CLIs that follow one (Claude Code, Copilot CLI) and refuses it for the others. */
  private onSelect(): void {
    const id = this.reviewEditorFor;
    if (id === null || !this.list.get(id)) return;
    this.outbox.selected(id);
  }

  async accept(id = this.list.selected): Promise<void> {
    const review = this.list.get(id);
    if (!review || review.busy || id === null || this.pane.comments.holdAccept(id)) return;
    // A read-only proposal goes back as it came: there is no edited text to send.
    const content = review.detail.readOnly !== null ? null
      : id === this.reviewEditorFor && this.reviewEditor ? this.reviewEditor.getText() : review.text;
    const { revision } = review.detail;
    await this.decide(review, 'accept', () => ipc.reviewAccept(id, revision, content));
  }

  async reject(id = this.list.selected, reason?: string, comments?: Comment[]): Promise<void> {
    const review = this.list.get(id);
    if (!review || review.busy || id === null) return;
    if (review.detail.kind === 'turn' && reason === undefined && !comments?.length) return this.rejectWithReason(id); // only with words
    await this.decide(review, 'reject', () => this.pane.comments.sent(id, (edits) => ipc.reviewReject(id, reason, comments ?? edits)));
  }

  /** "Reject with reason…": asks why first; the reason is sent only where it is heard. */
  async rejectWithReason(id = this.list.selected): Promise<void> {
    const review = this.list.get(id);
    if (!review || review.busy) return;
    const reason = await this.reasonDialog.ask(reasonAsk(review));
    if (reason !== null) await this.reject(id, review.detail.reasonHeard ? reason : undefined);
  }

  /** Sends the decision after the edits before it; the review leaves the window once it is taken. */
  private async decide(review: Review, verb: string, send: () => Promise<void>): Promise<void> {
    const id = review.detail.id;
    this.outbox.cancel(id);
    review.busy = true;
    this.pane.showBusy(this.list.current?.busy ?? true);
    try {
      await this.outbox.sent;
      await send();
      this.resolved.add(id);
      this.drop(id);
    } catch (err) {
      review.busy = false;
      this.pane.showBusy(this.list.current?.busy ?? true);
      this.toasts.error(err, `Could not ${verb} ${baseName(review.detail.relativePath)}`, reviewTopic(id));
    }
  }

  setLayout(layout: Layout): void {
    this.layout.choose(layout);
    const review = this.list.current;
    if (review) review.layout = layout;
    this.reviewEditor?.setUnified(layout === 'unified');
    if (review) this.pane.showLayout(this.layout.of(review));
  }

  moveToChange(step: number): void {
    if (step < 0) this.reviewEditor?.previousChange();
    else this.reviewEditor?.nextChange();
  }

  /** The tab before (-1) or after (1) the selected one, if there is one. */
  private selectNeighbour(step: -1 | 1): void {
    const next = this.list.neighbour(step);
    if (next !== null) this.select(next);
  }

  // ---- edits pushed to the backend ----

  private onEdit(): void {
    const id = this.reviewEditorFor;
    if (id !== null) this.outbox.edited(id);
  }

  /** The review's text to push: read from the review editor once per pause in typing. */
  private takeEdit(id: number): Push | null {
    const review = this.list.get(id);
    if (!review) return null;
    if (id === this.reviewEditorFor && this.reviewEditor) {
      review.text = this.reviewEditor.getText();
      Object.assign(review, this.reviewEditor.counts());
      this.tabs.render(this.list);
      if (id === this.list.selected) this.pane.showSummary(review);
    }
    return { id, revision: review.detail.revision, content: review.text, path: review.detail.relativePath };
  }

  private pushFailed(push: Push, err: unknown): void {
    // The CLI re-proposed the file: its new proposal replaces these edits in the window anyway.
    if (this.resolved.has(push.id) || ipc.toFault(err).code === 'superseded') return;
    this.toasts.error(err, `Could not send your edits of ${baseName(push.path)}`, reviewTopic(push.id));
  }

  // ---- rendering ----

  /** Removes a review from the window; hides the window when none is left (unless keepOpen). */
  private drop(id: number): void {
    this.outbox.cancel(id);
    if (id === this.reviewEditorFor) this.closeReviewEditor(false);
    this.list.remove(id);
    // What was said about it is moot now: an error left up would sit over the next review.
    this.toasts.clear(reviewTopic(id));
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

  private closeReviewEditor(keepText: boolean): void {
    if (!this.reviewEditor) return;
    const review = this.list.get(this.reviewEditorFor);
    if (review && this.outbox.waiting(this.reviewEditorFor)) void this.outbox.flush();
    else if (keepText && review) review.text = this.reviewEditor.getText();
    this.reviewEditor.destroy();
    this.reviewEditor = null;
    this.reviewEditorFor = null;
  }

  private render(): void {
    const review = this.list.current;
    document.title = pageTitle(this.list.size);
    this.pane.hidden = !review;
    const wasHidden = this.empty.hidden;
    this.empty.hidden = !!review;
    // The welcome page's errors were about the page: they go when it does.
    if (review) this.toasts.clear('welcome');
    this.tabs.render(this.list);
    // No review: the welcome page's check is live, run whenever it comes into view. A whole
    // turn: the pane shows it, with no review editor.
    if (!review || review.detail.turnId !== null) this.closeReviewEditor(true);
    if (!review) return void (wasHidden && this.welcome.refresh());
    this.pane.show(review, this.layout.of(review), review.detail.canMention);
    if (review.detail.turnId !== null) return;
    if (this.reviewEditorFor !== review.detail.id) {
      this.closeReviewEditor(true);
      this.openReviewEditor(review);
      this.disk.check(review.detail.id);
    }
  }

  private openReviewEditor(review: Review): void {
    const id = review.detail.id;
    this.reviewEditorFor = id;
    this.reviewEditor = this.createReviewEditor(this.pane.host, {
      original: review.detail.original,
      text: review.text,
      path: review.detail.relativePath,
      unified: this.layout.of(review) === 'unified',
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
