// The window's title, which the window process copies to the native window: it names the page on
// screen, so a task bar or window switcher says what the window is for right now.

/** The title with `pending` reviews: the review page, or the welcome page when there are none. */
export function pageTitle(pending: number): string {
  if (pending === 0) return 'Redline — getting started';
  return pending === 1 ? 'Redline — review' : `Redline — review (${pending} pending)`;
}
