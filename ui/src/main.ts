// Entry point: the page loads once, hidden (when a CLI connects, or for the first review), and from
// then on only reacts to events.
import './style.css';
import { startApp } from './app';
import * as ipc from './ipc';
import { warmUpReviewEditor } from './warmup';
import { mountTurnsPage, pastTurnDeps } from './turn-history';
import { TURN_VIEW_HTML, TurnView } from './turn-view';

void startApp(document.getElementById('app')!).then((app) => {
  // Loaded ahead of any review: make the first one as quick as the next. A window made for a
  // review already shows it, and the warm-up would only delay that.
  if (app.list.size === 0) setTimeout(() => warmUpReviewEditor(), 0);
});

// The Turns page (turn-history.ts): a past turn opens in a turn view of its own, undo only.
const turns = mountTurnsPage(document.body, (holder, row, signal) => {
  holder.innerHTML = TURN_VIEW_HTML;
  const section = holder.querySelector<HTMLElement>('.turn-view')!;
  const view = new TurnView(section, {
    ...pastTurnDeps(row), past: true, done: () => {}, continue: () => {},
    active: () => !holder.closest<HTMLElement>('.turns-page')!.hidden,
  }, signal);
  void view.open(row.turn);
}, document.querySelector('.topbar .settings-toggle'));
// A turn the tray's Recent turns asked for: taken when the page loads and each time it is shown.
const openAsked = () => void ipc.turnAsked().then((t) => t && turns.openTurn(t.workspace, t.turn), () => {});
openAsked();
void ipc.on('shown', openAsked);
