// "Reject with reason…" in the real webview, from the keyboard alone: a waiting `redline propose`
// is rejected with a reason typed in the window's dialog, and prints that reason
// (screenshot reject-with-reason.png).

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

const NAME = 'pub fn user_name(id: u32) -> String {\n    format!("user-{id}")\n}\n';
const RENAMED = 'pub fn display_name(id: u32) -> String {\n    format!("user-{id}")\n}\n';

/** `redline propose FILE --content-file F --wait` in the app's world; resolves with its end. */
function propose(d, file, contentFile) {
  const child = spawn(d.bin, ['propose', file, '--content-file', contentFile, '--wait'],
    { env: d.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b) => (stdout += b));
  child.stderr.on('data', (b) => (stderr += b));
  const done = new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { child, done, stderr: () => stderr };
}

test('a reason typed in the window reaches the waiting redline propose', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const later = cleanups(t);
  const ws = await makeWorkspace(later, 'accounts', { 'src/name.rs': NAME });
  const d = await desktop(t, later, { workspaces: [ws] });
  await withAppLog(d, async () => {
    const { wd } = d;
    const file = path.join(ws, 'src', 'name.rs');
    const contentFile = path.join(d.dirs.root, 'proposal.rs');
    await fsp.writeFile(contentFile, RENAMED);
    const asker = propose(d, file, contentFile);
    later(() => { if (asker.child.exitCode === null) asker.child.kill('SIGTERM'); });
    await waitTabs(wd, ['name.rs']).catch((err) => {
      err.message += `\nredline propose: ${asker.stderr()}`;
      throw err;
    });
    const [listed] = await d.json(['review', 'list', '--json']);
    assert.equal(listed.reasonHeard, true, JSON.stringify(listed));

    // The keyboard alone: the shortcut from the proposal, the reason typed, Enter to send.
    const content = await wd.waitFor('.cm-merge-b .cm-content');
    await wd.click(content);
    await wd.sendKeys(content, `${Key.Control}${Key.Alt}r${Key.Alt}${Key.Control}`);
    const text = await wd.waitFor('.reason-backdrop textarea');
    assert.equal(await wd.execute('return document.activeElement?.id'), 'reason-text');
    assert.match(await wd.execute(`return document.querySelector('.reason-note').textContent`), /^Told with the rejection to /);
    await wd.sendKeys(text, `Keep user_name: other crates call it.${Key.Shift}${Key.Enter}${Key.Shift}Add display_name beside it instead.`);
    await wd.until(() => wd.execute(`return document.querySelector('.reason-backdrop textarea').value.includes('instead.')`),
      { timeoutMs: UI_TIMEOUT_MS, what: 'the reason typed' });

    await wd.until(() => wd.execute(`return document.fonts.status === 'loaded'
        && document.querySelectorAll('.toasts > *').length === 0`),
    { timeoutMs: UI_TIMEOUT_MS, what: 'the dialog fully drawn' });
    const win = await poll(() => reviewWindow(d), { timeoutMs: UI_TIMEOUT_MS, what: 'the review window on screen' });
    const shot = path.join(SHOTS_DIR, 'reject-with-reason.png');
    await windowShot(d, win, shot);
    t.diagnostic(`screenshot ${shot}`);

    await wd.sendKeys(text, Key.Enter);
    const end = await poll(async () => (asker.child.exitCode === null ? null : asker.done),
      { timeoutMs: UI_TIMEOUT_MS, what: 'redline propose to end' });
    assert.equal(end.code, 1, end.stderr);
    assert.equal(end.stdout, '');
    assert.equal(end.stderr,
      'redline: rejected: Keep user_name: other crates call it.\nAdd display_name beside it instead.\n');
    await waitTabs(wd, []);
    assert.equal(await fsp.readFile(file, 'utf8'), NAME, 'Redline never writes the file');
  });
});

test('a Gemini CLI review: the dialog says the reason is not sent, and Reject still rejects', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const later = cleanups(t);
  const ws = await makeWorkspace(later, 'accounts', { 'src/name.rs': NAME });
  const d = await desktop(t, later, { workspaces: [ws] });
  await withAppLog(d, async () => {
    const { wd } = d;
    const g = await d.gemini(ws);
    const file = path.join(ws, 'src', 'name.rs');
    const diff = g.openDiff(file, RENAMED);
    await diff.started;
    await waitTabs(wd, ['name.rs']);
    const [listed] = await d.json(['review', 'list', '--json']);
    assert.equal(listed.reasonHeard, false, JSON.stringify(listed));
    const button = await wd.waitFor('.review .actions .reject-reason');
    assert.match(await wd.execute(`return document.querySelector('.actions .reject-reason').title`),
      /protocol carries no reason/);

    await wd.click(button);
    const text = await wd.waitFor('.reason-backdrop textarea');
    assert.match(await wd.execute(`return document.querySelector('.reason-note.unheard')?.textContent ?? ''`),
      /^The protocol of .* carries no reason: the proposal is rejected, but the reason is not sent\.$/);
    await wd.sendKeys(text, 'Keep user_name.');
    const win = await poll(() => reviewWindow(d), { timeoutMs: UI_TIMEOUT_MS, what: 'the review window on screen' });
    const shot = path.join(SHOTS_DIR, 'reject-with-reason-unheard.png');
    await windowShot(d, win, shot);
    t.diagnostic(`screenshot ${shot}`);

    await wd.sendKeys(text, `${Key.Control}${Key.Enter}${Key.Control}`);
    assert.deepEqual(await diff.result, { status: 'rejected' });
    await waitTabs(wd, []);
  });
});
