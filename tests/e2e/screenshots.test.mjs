// The docs' screenshots of the review window, light and dark, with a realistic review open:
// docs/screenshots/window-light.png and window-dark.png (or $REDLINE_E2E_SCREENSHOTS).
// WebKitGTK answers `prefers-color-scheme: dark` when the GTK theme is a dark one, so the dark
// run starts the app with GTK_THEME=Adwaita:dark, as a user with a dark desktop theme would.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

import { poll } from './lib/poll.mjs';
import {
  cleanups, desktop, makeWorkspace, SHOTS_DIR, summary, TEST_TIMEOUT_MS, UI_TIMEOUT_MS, waitTabs, withAppLog,
} from './lib/fixtures.mjs';
import { brightness, reviewWindow, windowShot } from './lib/x11.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = (name) => fs.readFileSync(path.join(here, 'fixtures', 'acme-api', name), 'utf8');

const README = `# acme-api

The order service behind the shop.

## Run

    npm install
    npm start
`;
const README_PROPOSAL = README.replace('## Run', '## Run\n\nNeeds Node 20 and a running Postgres (see `docker-compose.yml`).');

for (const [theme, gtkTheme, dark] of [['light', undefined, false], ['dark', 'Adwaita:dark', true]]) {
  test(`screenshot of the review window, ${theme}`, { timeout: TEST_TIMEOUT_MS }, async (t) => {
    const later = cleanups(t);
    const ws = await makeWorkspace(later, 'acme-api', {
      'src/routes/orders.ts': fixture('orders.ts'),
      'README.md': README,
    });
    const d = await desktop(t, later, { workspaces: [ws], env: { GTK_THEME: gtkTheme } });
    await withAppLog(d, async () => {
      const { wd } = d;
      assert.equal(await wd.execute("return matchMedia('(prefers-color-scheme: dark)').matches"), dark);

      // Two CLIs, one proposal each: two tabs, the first in front.
      const [a, b] = [await d.gemini(path.join(ws, 'src'), 'gemini-a'), await d.gemini(ws, 'gemini-b')];
      const orders = a.openDiff(path.join(ws, 'src', 'routes', 'orders.ts'), fixture('orders.proposal.ts'));
      await orders.started;
      await waitTabs(wd, ['orders.ts']);
      const readme = b.openDiff(path.join(ws, 'README.md'), README_PROPOSAL);
      await readme.started;
      await waitTabs(wd, ['orders.ts', 'README.md']);
      assert.equal((await summary(wd)).path, 'src/routes/orders.ts');

      // Everything drawn: both editors, the syntax colours (the language loads lazily), the
      // collapsed unchanged lines, and no toast.
      await wd.until(() => wd.execute(`return document.querySelectorAll('.cm-merge-a .cm-line').length > 5
          && document.querySelectorAll('.cm-merge-b .tok-keyword').length > 0
          && document.querySelector('.cm-collapsedLines') !== null
          && document.querySelectorAll('.toasts > *').length === 0
          && document.fonts.status === 'loaded'`),
      { timeoutMs: UI_TIMEOUT_MS, what: 'the review fully drawn' });

      const win = await poll(() => reviewWindow(d), { timeoutMs: UI_TIMEOUT_MS, what: 'the review window on screen' });
      const file = path.join(SHOTS_DIR, `window-${theme}.png`);
      await windowShot(d, win, file);
      const light = await brightness(d, file);
      t.diagnostic(`${file}: ${win.width}x${win.height}, mean brightness ${light.toFixed(2)}`);
      assert.ok(dark ? light < 0.35 : light > 0.65, `a ${theme} window has mean brightness ${light}`);

      // Leave nothing pending for the clients.
      await wd.clickOn('.review .actions .reject');
      await wd.until(async () => (await summary(wd)).path === 'README.md', { timeoutMs: UI_TIMEOUT_MS, what: 'README.md in front' });
      await wd.clickOn('.review .actions .reject');
      assert.deepEqual(await orders.result, { status: 'rejected' });
      assert.deepEqual(await readme.result, { status: 'rejected' });
    });
  });
}
