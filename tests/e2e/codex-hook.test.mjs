// A Codex CLI patch through `redline hook codex` in the real webview: one tab per file, the first
// accepted with Ctrl+Enter, the second rejected with a reason typed in the window; the hook
// answers Codex with a deny carrying that reason (screenshot codex-hook.png).

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
const PATCH = [
  '*** Begin Patch',
  '*** Update File: config.toml',
  '@@',
  ' retries = 3',
  '-timeout_ms = 500',
  '+timeout_ms = 2000',
  '*** Add File: src/retry.rs',
  '+pub fn backoff(attempt: u32) -> u64 {',
  '+    100 * 2u64.pow(attempt)',
  '+}',
  '*** End Patch',
  '',
].join('\n');

/** `redline hook codex` as Codex runs it, fed Codex's PreToolUse input; resolves with its end. */
function hook(d, cwd) {
  const child = spawn(d.bin, ['hook', 'codex'], { cwd, env: d.env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b) => (stdout += b));
  child.stderr.on('data', (b) => (stderr += b));
  child.stdin.end(JSON.stringify({
    session_id: 's', turn_id: 't', transcript_path: null, cwd, hook_event_name: 'PreToolUse',
    model: 'gpt-5.5', permission_mode: 'default', tool_name: 'apply_patch', tool_use_id: 'call_1',
    tool_input: { command: PATCH },
  }));
  const done = new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { child, done, stderr: () => stderr };
}

test('a Codex patch is one tab per file, and a reason typed in the window reaches Codex', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const later = cleanups(t);
  const ws = await makeWorkspace(later, 'service', { 'config.toml': CONFIG });
  const d = await desktop(t, later, { workspaces: [ws] });
  await withAppLog(d, async () => {
    const { wd } = d;
    const codex = hook(d, ws);
    later(() => { if (codex.child.exitCode === null) codex.child.kill('SIGTERM'); });
    await waitTabs(wd, ['config.toml', 'retry.rs']).catch((err) => {
      err.message += `\nredline hook: ${codex.stderr()}`;
      throw err;
    });
    const listed = await d.json(['review', 'list', '--json']);
    assert.deepEqual(listed.map((r) => [r.client.name, r.reasonHeard]), [['Codex CLI', true], ['Codex CLI', true]]);

    await wd.until(() => wd.execute(`return document.fonts.status === 'loaded'
        && document.querySelectorAll('.toasts > *').length === 0`),
    { timeoutMs: UI_TIMEOUT_MS, what: 'the review fully drawn' });
    const win = await poll(() => reviewWindow(d), { timeoutMs: UI_TIMEOUT_MS, what: 'the review window on screen' });
    const shot = path.join(SHOTS_DIR, 'codex-hook.png');
    await windowShot(d, win, shot);
    t.diagnostic(`screenshot ${shot}`);

    // The first tab (config.toml) accepted from the keyboard; the other is left.
    let content = await wd.waitFor('.cm-merge-b .cm-content');
    await wd.click(content);
    await wd.sendKeys(content, `${Key.Control}${Key.Enter}${Key.Control}`);
    await waitTabs(wd, ['retry.rs']);
    content = await wd.waitFor('.cm-merge-b .cm-content');
    await wd.click(content);
    await wd.sendKeys(content, `${Key.Control}${Key.Alt}r${Key.Alt}${Key.Control}`);
    const text = await wd.waitFor('.reason-backdrop textarea');
    await wd.sendKeys(text, 'Put backoff in src/net/retry.rs, next to the client.');
    await wd.sendKeys(text, Key.Enter);

    const end = await poll(async () => (codex.child.exitCode === null ? null : codex.done),
      { timeoutMs: UI_TIMEOUT_MS, what: 'redline hook to answer' });
    assert.equal(end.code, 0, end.stderr);
    const answer = JSON.parse(end.stdout).hookSpecificOutput;
    assert.equal(answer.permissionDecision, 'deny');
    assert.equal(answer.permissionDecisionReason, 'Put backoff in src/net/retry.rs, next to the client.');
    await waitTabs(wd, []);
    assert.equal(await fsp.readFile(path.join(ws, 'config.toml'), 'utf8'), CONFIG, 'Redline never writes the files');
    await assert.rejects(fsp.access(path.join(ws, 'src', 'retry.rs')));
  });
});
