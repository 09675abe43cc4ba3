// A CLI proposes its next edit right after the user answered the last one (Claude Code and Gemini
// CLI do, edit after edit): the window, about to hide because its list emptied, must pop up with
// the new review. It once hid after the new review's show (the page's hide was decided on an
// answer older than the show; bench/window lost about one pop-up in a hundred), leaving the
// review pending in a hidden window.

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';

import { cleanups, desktop, makeWorkspace, TEST_TIMEOUT_MS, UI_TIMEOUT_MS, withAppLog } from './lib/fixtures.mjs';
import { poll } from './lib/poll.mjs';

const ROUNDS = 90;
const plain = (d) => d.driverOutput().replace(/\x1b\[[0-9;]*m/g, '');
const painted = (d, id) => new RegExp(`review shown review=${id}\\b`).test(plain(d));

test('a review proposed right after the last was answered pops up, every time', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const later = cleanups(t);
  const ws = await makeWorkspace(later, 'back-to-back', { 'a.txt': 'one\n' });
  const d = await desktop(t, later, { workspaces: [ws], webdriver: false });
  const g = await d.gemini(ws);
  await withAppLog(d, async () => {
    for (let id = 1; id <= ROUNDS; id++) {
      const diff = g.openDiff(path.join(ws, 'a.txt'), `one\nround ${id}\n`);
      await diff.started;
      await poll(() => painted(d, id), { timeoutMs: UI_TIMEOUT_MS, what: `review ${id} of ${ROUNDS} painted (its window shown)` });
      assert.equal((await d.run(['review', 'reject', String(id)])).code, 0);
      assert.deepEqual(await diff.result, { status: 'rejected' });
      // The next proposal comes while the window decides to hide (the page asks the settings, then
      // the core whether the queue is empty, then hides): at once, or up to 30 ms on, so that
      // some round lands between the core's answer and the hide. Not a wait for anything.
      const offsetMs = id % 30;
      if (offsetMs) await new Promise((r) => setTimeout(r, offsetMs));
    }
  });
});
