// The review window is a process of its own (docs/window.md). With a review pending, `kill -9`
// of the window process, and separately of WebKit's web process: the real Gemini CLI IdeClient
// stays connected, the review stays pending, the window comes back with it by itself, and an
// accept made in the new window (Ctrl+Enter, typed by xdotool) reaches the client. A window that
// cannot start at all (WebKit's EGL broken, as bench/window found it aborts) leaves the servers
// up and says why once, in the log and in `redline status`, pointing to `redline review`.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { cleanups, desktop, makeWorkspace, TEST_TIMEOUT_MS, UI_TIMEOUT_MS, withAppLog } from './lib/fixtures.mjs';
import { poll } from './lib/poll.mjs';
import { keys, reviewWindow } from './lib/x11.mjs';

const ORIGINAL = 'fn main() {}\n';
const PROPOSAL = 'fn main() {\n    println!("back");\n}\n';

/** Every process below `pid` as {pid, name}, depth first. */
function below(pid) {
  const out = [];
  const walk = (p) => {
    let tasks = [];
    try {
      tasks = fs.readdirSync(`/proc/${p}/task`);
    } catch {
      return; // it ended while we looked
    }
    for (const t of tasks) {
      let kids = '';
      try {
        kids = fs.readFileSync(`/proc/${p}/task/${t}/children`, 'utf8').trim();
      } catch {
        continue;
      }
      for (const k of kids ? kids.split(/\s+/).map(Number) : []) {
        let name = '';
        try {
          name = /Name:\s+(\S+)/.exec(fs.readFileSync(`/proc/${k}/status`, 'utf8'))?.[1] ?? '';
        } catch {
          continue;
        }
        out.push({ pid: k, name });
        walk(k);
      }
    }
  };
  walk(pid);
  return out;
}

const windowProcess = (d) => below(d.pid).find((p) => p.name === 'redline-window') ?? null;
const webProcess = (d) => below(d.pid).find((p) => p.name === 'WebKitWebProces') ?? null;
const plain = (d) => d.driverOutput().replace(/\x1b\[[0-9;]*m/g, '');
const timesShown = (d, id) => plain(d).split('\n').filter((l) => new RegExp(`review shown review=${id}\\b`).test(l)).length;

/** A review pending in a shown window, from the real Gemini CLI client. */
async function pendingReview(t, later, name) {
  const ws = await makeWorkspace(later, name, { 'src/main.rs': ORIGINAL });
  const d = await desktop(t, later, { workspaces: [ws], webdriver: false });
  const g = await d.gemini(ws);
  const diff = g.openDiff(path.join(ws, 'src', 'main.rs'), PROPOSAL);
  await diff.started;
  await poll(() => timesShown(d, 1) === 1, { timeoutMs: UI_TIMEOUT_MS, what: 'the review painted' });
  return { d, diff };
}

/** Accepts the shown review with the keyboard, in whichever window process shows it now. */
async function acceptInWindow(d) {
  const w = await poll(() => reviewWindow(d), { timeoutMs: UI_TIMEOUT_MS, what: 'the review window shown' });
  // No window manager runs under Xvfb: the focus is given directly.
  assert.equal((await d.x('xdotool', ['windowfocus', '--sync', w.id])).code, 0);
  await keys(d, 'ctrl+Return');
}

test('the window process killed with a review pending comes back with it, and its accept reaches the CLI', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const later = cleanups(t);
  const { d, diff } = await pendingReview(t, later, 'window-killed');
  await withAppLog(d, async () => {
    const first = windowProcess(d);
    assert.ok(first, below(d.pid).map((p) => p.name).join(' '));
    const killedAt = performance.now();
    process.kill(first.pid, 'SIGKILL');
    await poll(() => timesShown(d, 1) === 2, { timeoutMs: UI_TIMEOUT_MS, what: 'the review shown again' });
    t.diagnostic(`window killed -> review shown again in ${Math.round(performance.now() - killedAt)} ms`);
    const second = windowProcess(d);
    assert.ok(second && second.pid !== first.pid, 'a new window process');
    const pending = await d.json(['review', 'list', '--json']);
    assert.equal(pending.length, 1, 'the review is still pending');
    await acceptInWindow(d);
    assert.deepEqual(await diff.result, { status: 'accepted', content: PROPOSAL });
  });
});

test("WebKit's web process killed with a review pending: the page comes back with it, and its accept reaches the CLI", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const later = cleanups(t);
  const { d, diff } = await pendingReview(t, later, 'web-killed');
  await withAppLog(d, async () => {
    const window = windowProcess(d);
    const web = webProcess(d);
    assert.ok(web, below(d.pid).map((p) => p.name).join(' '));
    const killedAt = performance.now();
    process.kill(web.pid, 'SIGKILL');
    await poll(() => timesShown(d, 1) === 2, { timeoutMs: UI_TIMEOUT_MS, what: 'the review shown again' });
    t.diagnostic(`web process killed -> review shown again in ${Math.round(performance.now() - killedAt)} ms`);
    assert.equal(windowProcess(d)?.pid, window.pid, 'the same window process reloaded its page');
    await acceptInWindow(d);
    assert.deepEqual(await diff.result, { status: 'accepted', content: PROPOSAL });
  });
});

test('a window that cannot start (EGL broken) leaves the servers up and says why once', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const later = cleanups(t);
  const ws = await makeWorkspace(later, 'no-egl', { 'src/main.rs': ORIGINAL });
  // No EGL vendor at all: Mesa never loads, and WebKitGTK aborts at its first window.
  const d = await desktop(t, later, {
    workspaces: [ws], webdriver: false, env: { __EGL_VENDOR_LIBRARY_FILENAMES: '/nonexistent/egl.json' },
  });
  await withAppLog(d, async () => {
    const g = await d.gemini(ws);
    const file = path.join(ws, 'src', 'main.rs');
    const status = await poll(async () => {
      const s = await d.json(['status', '--json']);
      return s.windowProblem ? s : null;
    }, { timeoutMs: UI_TIMEOUT_MS, what: 'status to say the window cannot start' });
    assert.match(status.windowProblem, /cannot start/);
    assert.match(status.windowProblem, /redline review list/);
    // The servers are up: a review is queued and answered from the command line.
    const diff = g.openDiff(file, PROPOSAL);
    await diff.started;
    const [review] = await poll(async () => {
      const l = await d.json(['review', 'list', '--json']);
      return l.length ? l : null;
    }, { timeoutMs: UI_TIMEOUT_MS, what: 'the review pending' });
    assert.equal((await d.run(['review', 'reject', String(review.id)])).code, 0);
    assert.deepEqual(await diff.result, { status: 'rejected' });
    // The pop-up tried the window again; the same reason is not said twice.
    const said = plain(d).split('\n').filter((l) => l.includes('the review window cannot start'));
    assert.equal(said.length, 1, said.join('\n'));
    const text = await d.run(['status']);
    assert.match(text.stdout, /review window: the review window cannot start/);
  });
});
