// Bounded waits for tests: on an event with a deadline, or by polling a condition; never a sleep.
import { setTimeout as delay } from 'node:timers/promises';

/**
 * Resolves with the first entry of `list` (already there or emitted later as `event` on
 * `emitter`) matching pred. `detail()` adds to the timeout message what was seen instead.
 */
export function waitForEntry(list, emitter, event, pred, timeoutMs, what, detail = () => '') {
  const found = list.find(pred);
  if (found) return Promise.resolve(found);
  return new Promise((resolve, reject) => {
    const on = (x) => {
      if (!pred(x)) return;
      clearTimeout(timer);
      emitter.off(event, on);
      resolve(x);
    };
    const timer = setTimeout(() => {
      emitter.off(event, on);
      reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}${detail()}`));
    }, timeoutMs);
    emitter.on(event, on);
  });
}

/**
 * Calls fn every 200 ms until it returns {ok: true, value}; resolves with value. The last value
 * goes into the timeout message, to show how far it got.
 */
export async function pollUntil(fn, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    last = await fn();
    if (last.ok) return last.value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last: ${JSON.stringify(last.value)}`);
    await delay(200);
  }
}
