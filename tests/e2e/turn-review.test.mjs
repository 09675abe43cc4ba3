// The end of a Codex CLI turn through `redline hook codex --turn-review` in the real webview: the
// turn's two files (recorded by the pre-edit hook with --record-turn) as read-only tabs, the
// file at the turn's start against now, "Done" and "Continue with instructions…"; the words typed
// in the window reach Codex as the Stop hook's block reason (screenshot turn-review.png).

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';

import { poll } from './lib/poll.mjs';
import {
  cleanups, desktop, makeWorkspace, SHOTS_DIR, TEST_TIMEOUT_MS, UI_TIMEOUT_MS, waitTabs, withAppLog,
} from './lib/fixtures.mjs';
import { Key } from './lib/webdriver.mjs';
import { reviewWindow, windowShot } from './lib/x11.mjs';

const CONFIG = 'retries = 3\ntimeout_ms = 500\n';
const CONFIG_NOW = 'retries = 3\ntimeout_ms = 2000\n';
const RETRY = 'pub fn backoff(attempt: u32) -> u64 {\n    100 * 2u64.pow(attempt)\n}\n';
const PATCH = [
  '*** Begin Patch',
  '*** Update File: config.toml',
  '@@',
  ' retries = 3',
  '-timeout_ms = 500',
  '+timeout_ms = 2000',
  '*** Add File: src/retry.rs',
  ...RETRY.trimEnd().split('\n').map((l) => `+${l}`),
  '*** End Patch',
  '',
].join('\n');

const BASE = { session_id: 's', turn_id: 't', transcript_path: null, model: 'gpt-5.5', permission_mode: 'default' };

/** `redline hook codex ARGS` as Codex runs it, fed `input`; resolves with its end. */
function hook(d, cwd, args, input) {
  const child = spawn(d.bin, ['hook', 'codex', ...args], { cwd, env: d.env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b) => (stdout += b));
  child.stderr.on('data', (b) => (stderr += b));
  child.stdin.end(JSON.stringify({ ...BASE, cwd, ...input }));
  const done = new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { child, done, stderr: () => stderr };
}

async function ended(run) {
  return poll(async () => (run.child.exitCode === null ? null : run.done),
    { timeoutMs: UI_TIMEOUT_MS, what: 'redline hook to answer' });
}

test('a two-file turn is one read-only review, and "Continue with instructions…" reaches Codex', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const later = cleanups(t);
  const ws = await makeWorkspace(later, 'service', { 'config.toml': CONFIG });
  const d = await desktop(t, later, { workspaces: [ws] });
  await withAppLog(d, async () => {
    const { wd } = d;
    // The turn's edit, reviewed as every edit is (accepted), then written by Codex.
    const edit = hook(d, ws, ['--record-turn'], {
      hook_event_name: 'PreToolUse', tool_name: 'apply_patch', tool_use_id: 'call_1', tool_input: { command: PATCH },
    });
    later(() => { if (edit.child.exitCode === null) edit.child.kill('SIGTERM'); });
    await waitTabs(wd, ['config.toml', 'retry.rs']);
    for (const left of [['retry.rs'], []]) {
      const content = await wd.waitFor('.cm-merge-b .cm-content');
      await wd.click(content);
      await wd.sendKeys(content, `${Key.Control}${Key.Enter}${Key.Control}`);
      await waitTabs(wd, left);
    }
    assert.equal((await ended(edit)).code, 0);
    await fsp.writeFile(path.join(ws, 'config.toml'), CONFIG_NOW);
    await fsp.mkdir(path.join(ws, 'src'), { recursive: true });
    await fsp.writeFile(path.join(ws, 'src', 'retry.rs'), RETRY);

    // The end of the turn: Codex's Stop hook.
    const stop = hook(d, ws, ['--turn-review'], {
      hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'Raised the timeout.',
    });
    later(() => { if (stop.child.exitCode === null) stop.child.kill('SIGTERM'); });
    await waitTabs(wd, ['config.toml', 'retry.rs']).catch((err) => {
      err.message += `\nredline hook --turn-review: ${stop.stderr()}`;
      throw err;
    });
    const listed = await d.json(['review', 'list', '--json']);
    assert.deepEqual(listed.map((r) => [r.client.name, r.kind === 'turn', typeof r.readOnly]),
      [['Codex CLI', true, 'string'], ['Codex CLI', true, 'string']]);
    const labels = await wd.execute(`return [...document.querySelectorAll('.review .actions button')]
      .filter((b) => !b.hidden).map((b) => b.textContent.trim())`);
    assert.ok(labels.includes('Continue with instructions…'), labels.join(' | '));
    assert.ok(labels.some((l) => l.startsWith('Done')), labels.join(' | '));
    assert.ok(!labels.includes('Reject'), labels.join(' | '));
    assert.equal(await wd.execute("return document.querySelector('.original-label').textContent"), "At the turn's start");
    const editable = await wd.execute("return document.querySelector('.cm-merge-b .cm-content').contentEditable");
    assert.equal(editable, 'false', 'the turn review is read-only');

    await wd.until(() => wd.execute(`return document.fonts.status === 'loaded'
        && document.querySelectorAll('.toasts > *').length === 0`),
    { timeoutMs: UI_TIMEOUT_MS, what: 'the review fully drawn' });
    const win = await poll(() => reviewWindow(d), { timeoutMs: UI_TIMEOUT_MS, what: 'the review window on screen' });
    const shot = path.join(SHOTS_DIR, 'turn-review.png');
    await windowShot(d, win, shot);
    t.diagnostic(`screenshot ${shot}`);

    // "Continue with instructions…" from the keyboard alone, the focus on the selected tab (the
    // read-only diff takes no focus).
    const tab = await wd.waitFor('.tab[aria-selected="true"]');
    await wd.sendKeys(tab, `${Key.Control}${Key.Alt}r${Key.Alt}${Key.Control}`);
    const text = await wd.waitFor('.reason-backdrop textarea');
    const title = await wd.execute("return document.querySelector('.reason-dialog h2').textContent");
    assert.equal(title, 'Continue Codex CLI');
    await wd.sendKeys(text, 'Make the timeout configurable per client, and add a test.');
    await wd.sendKeys(text, Key.Enter);

    const end = await ended(stop);
    assert.equal(end.code, 0, end.stderr);
    assert.deepEqual(JSON.parse(end.stdout),
      { decision: 'block', reason: 'Make the timeout configurable per client, and add a test.' });
    await waitTabs(wd, []);
    assert.equal(await fsp.readFile(path.join(ws, 'config.toml'), 'utf8'), CONFIG_NOW, 'Redline never writes the files');
  });
});
