// The first launch of the desktop app in a fresh home, with no tray host (GNOME without the
// AppIndicator extension): the app says on the terminal that it started and where its menu is,
// and shows its window with the welcome page; the second launch starts in the tray, no window.
// Also the screenshots first-launch.png and settings.png (its ⚙ menu open).

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { cleanups, desktop, SHOTS_DIR, TEST_TIMEOUT_MS, UI_TIMEOUT_MS, withAppLog } from './lib/fixtures.mjs';
import { poll } from './lib/poll.mjs';
import { changedBox, click, reviewWindow, windowShot } from './lib/x11.mjs';

const STARTED = /^redline: started; its menu is the Redline icon in the system tray .*`redline quit` stops it\)$/m;

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function quit(d, pid) {
  const res = await d.run(['quit']);
  assert.equal(res.code, 0, res.stderr);
  await poll(() => !alive(pid), { timeoutMs: UI_TIMEOUT_MS, what: `the app (pid ${pid}) to exit` });
}

test('the first launch welcomes with the window, once; the next starts in the tray', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const later = cleanups(t);
  const d = await desktop(t, later, { workspaces: [], webdriver: false, firstLaunch: true });
  await withAppLog(d, async () => {
    const win = await poll(() => reviewWindow(d), { timeoutMs: UI_TIMEOUT_MS, what: 'the welcome window on screen' });
    await poll(() => STARTED.test(d.driverOutput()), { timeoutMs: UI_TIMEOUT_MS, what: 'the "started" line' });
    const file = path.join(SHOTS_DIR, 'first-launch.png');
    await windowShot(d, win, file);
    assert.ok(fs.existsSync(file));
    t.diagnostic(`${file}: ${win.width}x${win.height}`);
    // The ⚙ menu (top right) drops down with the settings, the editor to open files in among
    // them: the region below the button changes (settings.png, to look at).
    await click(d, win.x + win.width - 24, win.y + 19);
    const settings = path.join(SHOTS_DIR, 'settings.png');
    const box = await poll(async () => {
      await windowShot(d, win, settings);
      return changedBox(d, file, settings);
    }, { timeoutMs: UI_TIMEOUT_MS, what: 'the settings menu to open' });
    assert.ok(box.x + box.width > win.width / 2 && box.y < 200, `the menu is not under ⚙: ${JSON.stringify(box)}`);
    const config = JSON.parse(fs.readFileSync(path.join(d.dirs.config, 'redline', 'config.json'), 'utf8'));
    assert.equal(config.welcomed, true);
    await quit(d, d.pid);
  });

  // The second launch, in the same home: the same line, and no window.
  const again = spawn(d.bin, ['--foreground'], { env: { RUST_LOG: 'info,rmcp=warn', ...d.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  again.stdout.setEncoding('utf8').on('data', (s) => (log += s));
  again.stderr.setEncoding('utf8').on('data', (s) => (log += s));
  later(() => { if (again.exitCode === null) again.kill('SIGTERM'); });
  try {
    // The line is printed once the app is built, after its setup made (or did not make) the window.
    await poll(() => STARTED.test(log), { timeoutMs: UI_TIMEOUT_MS, what: 'the second launch\'s "started" line' });
    assert.equal(log.match(new RegExp(STARTED.source, 'gm')).length, 1, log);
    assert.doesNotMatch(log, /review window made/);
    assert.equal(await reviewWindow(d), null);
    // Still there on demand: a third `redline` shows the window of the running one.
    const shown = await d.run([]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.ok(await poll(() => reviewWindow(d), { timeoutMs: UI_TIMEOUT_MS, what: 'the window on request' }));
    await quit(d, again.pid);
  } catch (err) {
    err.message += `\n--- second launch log ---\n${log.slice(-4000)}`;
    throw err;
  }
});
