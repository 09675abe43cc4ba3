// A past turn in the real webview's Turns page: Codex's prompt hook checkpoints the workspace,
// plain writes change two files, its Stop hook's review is answered Done; one file then changes
// again. `redline` run again shows the window, whose Turns button lists the turn; opened, Undo all
// takes back the file still as the turn left it and names the other, left as it is on disk
// (screenshot docs/screenshots/turn-history.png).
// Then the settings menu keeps 20 turns: saved in the config file.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';

import { poll } from './lib/poll.mjs';
import { cleanups, desktop, makeWorkspace, SHOTS_DIR, TEST_TIMEOUT_MS, UI_TIMEOUT_MS, withAppLog } from './lib/fixtures.mjs';
import { reviewWindow, windowShot } from './lib/x11.mjs';

const BASE = { session_id: 's', turn_id: 't', transcript_path: null, model: 'gpt-5.5', permission_mode: 'default' };
const CONFIG = 'retries = 3\ntimeout = 500\n';
const NOTES = '# notes\n\nfirst\n';
const SINCE = '# notes\n\nwritten after the turn\n';

function hook(d, cwd, args, input) {
  const child = spawn(d.bin, ['hook', 'codex', ...args], { cwd, env: d.env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (b) => (stderr += b));
  child.stdout.resume();
  child.stdin.end(JSON.stringify({ ...BASE, cwd, ...input }));
  const done = new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
  return { child, done };
}

const ended = (run) => poll(async () => (run.child.exitCode === null ? null : run.done),
  { timeoutMs: UI_TIMEOUT_MS, what: 'redline hook to answer' });

const click = (wd, css, index = 0) => wd.execute(
  'const e = document.querySelectorAll(arguments[0])[arguments[1]]; if (e) e.click(); return !!e;', [css, index]);

const count = (wd, css) => wd.execute('return document.querySelectorAll(arguments[0]).length', [css]);

test('a past turn: listed, opened, undone where it still applies', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const later = cleanups(t);
  const ws = await makeWorkspace(later, 'service', { 'config.toml': CONFIG, 'NOTES.md': NOTES });
  const d = await desktop(t, later, { workspaces: [ws] });
  await withAppLog(d, async () => {
    const { wd } = d;
    const start = hook(d, ws, ['--turn-start'], { hook_event_name: 'UserPromptSubmit', prompt: 'tune it' });
    assert.equal((await ended(start)).code, 0);
    await fsp.writeFile(path.join(ws, 'config.toml'), 'retries = 5\ntimeout = 2000\n');
    await fsp.writeFile(path.join(ws, 'NOTES.md'), '# notes\n\nfirst\nsecond\n');
    const stop = hook(d, ws, ['--turn-review'], {
      hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'Tuned.',
    });
    later(() => { if (stop.child.exitCode === null) stop.child.kill('SIGTERM'); });
    await wd.until(async () => (await count(wd, '.review-pane .turn-row.file, .turn-row.file')) >= 2,
      { timeoutMs: UI_TIMEOUT_MS, what: 'the turn\'s review' });
    await click(wd, '.turn-done');
    assert.equal((await ended(stop)).code, 0);
    await fsp.writeFile(path.join(ws, 'NOTES.md'), SINCE);

    // Nothing waits, so the window went away: `redline` run again brings it back, as the
    // started line tells a user without a tray, and its Turns button lists the past turn.
    const again = spawn(d.bin, [], { env: d.env, stdio: 'ignore' });
    const shown = await new Promise((resolve) => again.on('close', resolve));
    assert.equal(shown, 0);
    await poll(() => reviewWindow(d), { timeoutMs: UI_TIMEOUT_MS, what: 'the window back on screen' });
    await click(wd, '.turns-open');
    await wd.until(async () => (await count(wd, '.turns-page .history-row:not(.running)')) >= 1,
      { timeoutMs: UI_TIMEOUT_MS, what: 'the turn listed' });
    const label = await wd.execute("return document.querySelector('.turns-page .history-row:not(.running)').textContent");
    assert.match(label, /codex/);
    assert.match(label, /2 files/);
    await click(wd, '.turns-page .history-row:not(.running)');
    await wd.until(async () => (await count(wd, '.history-turn .turn-row.file')) === 2,
      { timeoutMs: UI_TIMEOUT_MS, what: 'the past turn\'s two files' });
    // On screen, not only in the page: the tree and the diff have room under the list.
    const box = await wd.execute(`const r = (s) => document.querySelector(s).getBoundingClientRect();
      return { view: r('.history-turn .turn-view').height, row: r('.history-turn .turn-row.file').height,
        diff: r('.history-turn .turn-diff').height, page: innerHeight }`);
    assert.ok(box.view > box.page / 3 && box.row > 0 && box.diff > 0, JSON.stringify(box));
    assert.equal(await wd.execute(
      "return getComputedStyle(document.querySelector('.history-turn .turn-comments')).display"), 'none');
    assert.doesNotMatch(await wd.execute("return document.querySelector('.history-turn .turn-keys').innerText"), /comment|continue/);

    await click(wd, '.history-turn .turn-undo-all');
    await poll(async () => (await fsp.readFile(path.join(ws, 'config.toml'), 'utf8')) === CONFIG || null,
      { timeoutMs: UI_TIMEOUT_MS, what: 'config.toml back as the turn found it' });
    await wd.until(() => wd.execute(
      "const e = document.querySelector('.history-turn .turn-error'); return !e.hidden && e.textContent.includes('NOTES.md') && e.textContent.startsWith('Undid 1 file(s); left as they are')"),
    { timeoutMs: UI_TIMEOUT_MS, what: 'NOTES.md named as left' });
    assert.equal(await fsp.readFile(path.join(ws, 'NOTES.md'), 'utf8'), SINCE);

    await wd.until(() => wd.execute("return document.fonts.status === 'loaded'"),
      { timeoutMs: UI_TIMEOUT_MS, what: 'the page drawn' });
    const win = await poll(() => reviewWindow(d), { timeoutMs: UI_TIMEOUT_MS, what: 'the window on screen' });
    const shot = path.join(SHOTS_DIR, 'turn-history.png');
    await windowShot(d, win, shot);
    t.diagnostic(`screenshot ${shot}`);

    // How many turns are kept: the settings menu's field, saved to the config file.
    await click(wd, '.turns-close');
    await click(wd, '.settings-toggle');
    await wd.until(() => wd.execute(
      "const i = document.querySelector('input[name=historyTurns]'); return !!i && i.offsetParent !== null && i.value === '200'"),
    { timeoutMs: UI_TIMEOUT_MS, what: 'the turns kept shown in the settings' });
    await wd.execute(`const i = document.querySelector('input[name=historyTurns]');
      i.value = '20'; i.dispatchEvent(new Event('change', { bubbles: true }));`);
    const config = path.join(d.dirs.config, 'redline', 'config.json');
    const saved = await poll(async () => {
      const c = JSON.parse(await fsp.readFile(config, 'utf8'));
      return c.settings?.history?.turns === 20 ? c.settings.history : null;
    }, { timeoutMs: UI_TIMEOUT_MS, what: 'the turns kept saved' });
    assert.deepEqual(saved, { turns: 20, mib: 1024 });
    await windowShot(d, win, path.join(SHOTS_DIR, 'settings-history.png'));
  });
});
