// Entry point: the page loads once, hidden (when a CLI connects, or for the first review), and from
// then on only reacts to events.
import './style.css';
import { startApp } from './app';
import { warmUpReviewEditor } from './warmup';

void startApp(document.getElementById('app')!).then((app) => {
  // Loaded ahead of any review: make the first one as quick as the next. A window made for a
  // review already shows it, and the warm-up would only delay that.
  if (app.list.size === 0) setTimeout(() => warmUpReviewEditor(), 0);
});
