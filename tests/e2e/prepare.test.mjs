// The review window prepared ahead of the first review: the app launched as a user's session
// launches it (no WebDriver, which would make the window at start), the real Gemini CLI
// IdeClient connects, and the window is made and its page loaded hidden, without taking the
// keyboard from the window that has it, and shown only when a review arrives.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { cleanups, desktop, makeWorkspace, TEST_TIMEOUT_MS, UI_TIMEOUT_MS, withAppLog } from './lib/fixtures.mjs';
import { poll } from './lib/poll.mjs';
import { reviewWindow, visibleWindows } from './lib/x11.mjs';

/** The names of the app's process and every process below it (WebKit's helpers). */
function processTree(pid) {
  const names = [];
  const walk = (p) => {
    let status;
    try {
      status = fs.readFileSync(`/proc/${p}/status`, 'utf8');
    } catch {
      return; // it ended while we looked
    }
    names.push(/Name:\s+(\S+)/.exec(status)?.[1]);
    for (const t of fs.readdirSync(`/proc/${p}/task`, { withFileTypes: false })) {
      let kids = '';
      try {
        kids = fs.readFileSync(`/proc/${p}/task/${t}/children`, 'utf8').trim();
      } catch {
        continue;
      }
      for (const k of kids ? kids.split(/\s+/) : []) walk(Number(k));
    }
  };
  walk(pid);
  return names;
}

async function focusedWindow(d) {
  const res = await d.x('xdotool', ['getwindowfocus']);
  assert.equal(res.code, 0, res.stderr);
  return res.stdout.trim();
}

test('a CLI connecting prepares the window hidden; it shows, unfocused, only for a review', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const later = cleanups(t);
  const ws = await makeWorkspace(later, 'prepared', { 'src/main.rs': 'fn main() {}\n' });
  const d = await desktop(t, later, { workspaces: [ws], webdriver: false });
  await withAppLog(d, async () => {
    // Another program has the keyboard (the terminal, on a desktop); with the default setting
    // ("show without focus") nothing Redline does may take it.
    const other = spawn('xmessage', ['-name', 'terminal', 'the terminal'], { env: d.env, stdio: 'ignore' });
    later(() => other.kill());
    const [term] = await poll(async () => {
      const ws_ = await visibleWindows(d, ['--classname', '^terminal$']);
      return ws_.length ? ws_ : null;
    }, { timeoutMs: UI_TIMEOUT_MS, what: 'the other program\'s window' });
    assert.equal((await d.x('xdotool', ['windowfocus', '--sync', term.id])).code, 0);
    const focus = await focusedWindow(d);

    // Before any CLI: no window, no web process.
    assert.deepEqual(processTree(d.pid).filter((n) => n.startsWith('WebKit')), []);
    assert.equal(await reviewWindow(d), null);

    const g = await d.gemini(ws);
    await poll(() => d.driverOutput().includes('review window loaded'),
      { timeoutMs: UI_TIMEOUT_MS, what: 'the prepared window\'s page to load' });
    assert.ok(processTree(d.pid).includes('WebKitWebProces'), processTree(d.pid).join(' '));
    assert.equal(await reviewWindow(d), null, 'prepared, the window stays hidden');
    assert.equal(await focusedWindow(d), focus, 'preparing the window took the focus');

    const diff = g.openDiff(path.join(ws, 'src', 'main.rs'), 'fn main() {\n    println!("hi");\n}\n');
    await diff.started;
    await poll(() => reviewWindow(d), { timeoutMs: UI_TIMEOUT_MS, what: 'the review window to show' });
    await poll(() => /review shown review=1\b/.test(d.driverOutput().replace(/\x1b\[[0-9;]*m/g, '')),
      { timeoutMs: UI_TIMEOUT_MS, what: 'the review painted' });
    // The page that shows it is the prepared one: no second load.
    assert.equal(d.driverOutput().split('review window loaded').length - 1, 1);
    assert.equal(await focusedWindow(d), focus, 'the review took the focus');

    assert.equal((await d.run(['review', 'reject', '1'])).code, 0);
    assert.deepEqual(await diff.result, { status: 'rejected' });
    await poll(async () => (await reviewWindow(d)) === null, { timeoutMs: UI_TIMEOUT_MS, what: 'the window to hide' });
    // Preparing runs on a runtime worker and must hand GTK work to the main thread: a debug
    // build asserts it, and `d.stop()` fails the scenario on any panic in the app's log.
  });
});
