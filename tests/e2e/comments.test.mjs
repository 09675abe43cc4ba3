// Comments on lines of a per-edit review in the real webview: two comments written on lines of
// the proposal (the Comment button, then Ctrl+Alt+M on the cursor line) and one on a line of the
// original (the line in the file as it was), listed under the editor, and Reject sends them: the waiting `redline propose` prints the one message the model would
// read, each comment anchored `path:line` with its line quoted (screenshot comments.png).

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
const RENAMED = 'pub fn display_name(id: u32) -> String {\n    format!("user:{id}")\n}\n';

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

/** Writes `words` as a comment on line `n` (1-based) of `side` (`b` the proposal, `a` the
 * original), opened by `open`. */
async function comment(wd, n, words, open, side = 'b') {
  await wd.clickOn(`.cm-merge-${side} .cm-line`, { index: n - 1 });
  await open();
  const text = await wd.waitFor('.comment-form textarea');
  await wd.until(() => wd.execute(`return document.activeElement?.id === 'comment-text'`),
    { timeoutMs: UI_TIMEOUT_MS, what: 'the comment box focused' });
  await wd.sendKeys(text, `${words}${Key.Enter}`);
  await wd.until(() => wd.execute(`return document.querySelector('.comment-form').hidden`),
    { timeoutMs: UI_TIMEOUT_MS, what: 'the comment added' });
}

test('two comments written in the window reach the waiting redline propose with the reject', { timeout: TEST_TIMEOUT_MS }, async (t) => {
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
    await wd.waitFor('.cm-merge-b .cm-content');

    const button = await wd.waitFor('.review .actions .comment');
    await comment(wd, 1, 'Keep user_name: other crates call it.', () => wd.click(button));
    const content = await wd.find('.cm-merge-b .cm-content');
    await comment(wd, 2, 'Keep the dash.',
      () => wd.sendKeys(content, `${Key.Control}${Key.Alt}m${Key.Alt}${Key.Control}`));
    await comment(wd, 1, 'Why rename it at all?', () => wd.click(button), 'a');
    assert.deepEqual(
      await wd.execute(`return [...document.querySelectorAll('.comment-list .comment-where')].map((e) => e.textContent)`),
      ['src/name.rs:1', 'src/name.rs:1', 'src/name.rs:2']);

    await wd.until(() => wd.execute(`return document.fonts.status === 'loaded'
        && document.querySelectorAll('.toasts > *').length === 0`),
    { timeoutMs: UI_TIMEOUT_MS, what: 'the pane fully drawn' });
    const win = await poll(() => reviewWindow(d), { timeoutMs: UI_TIMEOUT_MS, what: 'the review window on screen' });
    const shot = path.join(SHOTS_DIR, 'comments.png');
    await windowShot(d, win, shot);
    t.diagnostic(`screenshot ${shot}`);

    await wd.clickOn('.review .actions .reject');
    const end = await poll(async () => (asker.child.exitCode === null ? null : asker.done),
      { timeoutMs: UI_TIMEOUT_MS, what: 'redline propose to end' });
    assert.equal(end.code, 1, end.stderr);
    assert.equal(end.stderr,
      'redline: rejected: Review comments on your changes:\n\n'
      + '- src/name.rs:1\n  > pub fn display_name(id: u32) -> String {\n  Keep user_name: other crates call it.\n\n'
      + '- src/name.rs:1\n  > pub fn user_name(id: u32) -> String {\n  Why rename it at all?\n\n'
      + '- src/name.rs:2\n  >     format!("user:{id}")\n  Keep the dash.\n');
    await waitTabs(wd, []);
    assert.equal(await fsp.readFile(file, 'utf8'), NAME, 'Redline never writes the file');
  });
});
