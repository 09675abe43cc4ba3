// A review that came from a CLI in a container, in the real webview: the window shows the host
// path and a "container" badge, and the decision goes back under the container path the CLI sent.
// The client is the real IdeClient on the host, sending the path a container with the workspace
// at /workspace would send (tests/interop/container.test.mjs covers the real container).
// Screenshot: window-container.png in $REDLINE_E2E_SCREENSHOTS (else docs/screenshots).

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';

import { poll } from './lib/poll.mjs';
import {
  cleanups, desktop, makeWorkspace, SHOTS_DIR, summary, TEST_TIMEOUT_MS, UI_TIMEOUT_MS, waitReview, waitTabs, withAppLog,
} from './lib/fixtures.mjs';
import { reviewWindow, windowShot } from './lib/x11.mjs';

test('a review from a container shows the host path and a "container" badge', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const later = cleanups(t);
  const ws = await makeWorkspace(later, 'webshop', { 'src/cart.ts': 'export const total = 0;\n' });
  const d = await desktop(t, later, { workspaces: [ws] });
  await withAppLog(d, async () => {
    const { wd } = d;
    // 127.0.0.1: containers that share the host's loopback (Docker Desktop, --network=host).
    for (const args of [['container', 'enable', ws, '--address', '127.0.0.1'], ['container', 'args', ws, '--path', '/workspace']]) {
      const res = await d.run(args);
      assert.equal(res.code, 0, `redline ${args.join(' ')}: ${res.stderr}`);
    }
    const g = await d.gemini(ws);
    const sent = '/workspace/src/cart.ts';
    const diff = g.openDiff(sent, 'export const total = 42;\n');
    await diff.started;
    await waitTabs(wd, ['cart.ts']);
    const review = await waitReview(d, sent);
    assert.equal(review.path, path.join(ws, 'src', 'cart.ts'));
    assert.equal(review.container, true);

    const s = await summary(wd);
    assert.equal(s.path, 'src/cart.ts');
    assert.ok(s.fullPath.startsWith(path.join(ws, 'src', 'cart.ts')), `the host path in the tooltip: ${s.fullPath}`);
    const badge = await wd.execute(`const b = document.querySelector('.review .summary .badge.container');
      return b && { text: b.textContent, title: b.title, visible: b.getBoundingClientRect().width > 0 }`);
    assert.deepEqual(
      { text: badge?.text, visible: badge?.visible },
      { text: 'container', visible: true },
      JSON.stringify(badge),
    );
    assert.match(badge.title, /\/workspace\/src\/cart\.ts/);
    await wd.until(() => wd.execute(`return document.querySelectorAll('.cm-merge-b .tok-keyword').length > 0
        && document.querySelectorAll('.toasts > *').length === 0 && document.fonts.status === 'loaded'`),
    { timeoutMs: UI_TIMEOUT_MS, what: 'the review fully drawn' });
    const win = await poll(() => reviewWindow(d), { timeoutMs: UI_TIMEOUT_MS, what: 'the review window on screen' });
    const file = path.join(SHOTS_DIR, 'window-container.png');
    await windowShot(d, win, file);
    t.diagnostic(`screenshot ${file}`);

    // The decision reaches the CLI under the path it sent.
    await wd.clickOn('.review .actions .accept');
    assert.deepEqual(await diff.result, { status: 'accepted', content: 'export const total = 42;\n' });
  });
});
