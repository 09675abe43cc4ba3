// Line endings, BOM and final newline through the real webview: the real Gemini CLI IdeClient
// gets exactly the proposal's bytes when it is accepted unedited, and its endings when edited.

import assert from 'node:assert/strict';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';

import { poll } from './lib/poll.mjs';
import {
  cleanups, desktop, makeWorkspace, SHOTS_DIR, TEST_TIMEOUT_MS, typeAtEnd, UI_TIMEOUT_MS, waitTabs, withAppLog,
} from './lib/fixtures.mjs';
import { reviewWindow, windowShot } from './lib/x11.mjs';

const BOM = '\uFEFF';
// A Windows file: BOM, CRLF, no final newline, trailing spaces.
const ORIGINAL = `${BOM}Public Module Greeter\r\n    Sub Hello()  \r\n    End Sub\r\nEnd Module`;
const PROPOSAL = `${BOM}' Says hello.\r\nPublic Module Greeter\r\n    Sub Hello()  \r\n        Console.WriteLine("hi")\r\n    End Sub\r\nEnd Module`;
// Mixed: CRLF lines and one LF line, with a final newline.
const MIXED = 'a = 1\r\nb = 2\nc = 3\r\n';
const MIXED_PROPOSAL = 'a = 1\r\nb = 2\nc = 3\r\nd = 4\r\n';

test('a CRLF proposal with a BOM: accepted unedited byte for byte, edited in its own endings', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const later = cleanups(t);
  const ws = await makeWorkspace(later, 'winapp', { 'Greeter.vb': ORIGINAL, 'mixed.py': MIXED });
  const d = await desktop(t, later, { workspaces: [ws] });
  await withAppLog(d, async () => {
    const { wd } = d;
    const g = await d.gemini(ws);

    const vb = path.join(ws, 'Greeter.vb');
    const diff = g.openDiff(vb, PROPOSAL);
    await diff.started;
    await waitTabs(wd, ['Greeter.vb']);
    // The editor shows lines alone; the badge says what it does not show.
    const badge = await wd.until(() => wd.execute(
      "const b = document.querySelector('.summary .badge.endings'); return b && b.textContent"),
    { timeoutMs: UI_TIMEOUT_MS, what: 'the line-endings badge' });
    assert.equal(badge, 'CRLF · BOM · no final newline');
    await wd.until(() => wd.execute(`return document.querySelectorAll('.cm-merge-b .cm-line').length === 6
        && document.fonts.status === 'loaded'`), { timeoutMs: UI_TIMEOUT_MS, what: 'the proposal drawn' });
    const win = await poll(() => reviewWindow(d), { timeoutMs: UI_TIMEOUT_MS, what: 'the review window on screen' });
    const shot = await windowShot(d, win, path.join(SHOTS_DIR, 'window-crlf.png'));
    t.diagnostic(`screenshot: ${shot}`);

    await wd.clickOn('.review .actions .accept');
    assert.deepEqual(await diff.result, { status: 'accepted', content: PROPOSAL });
    await waitTabs(wd, []);

    // Edited: the typed line takes the file's usual ending (CRLF); the LF line keeps its own.
    const py = path.join(ws, 'mixed.py');
    const mixed = g.openDiff(py, MIXED_PROPOSAL);
    await mixed.started;
    await waitTabs(wd, ['mixed.py']);
    assert.equal(await wd.execute("return document.querySelector('.summary .badge.endings').textContent"), 'mixed endings');
    await typeAtEnd(wd, ['e = 5']);
    await wd.clickOn('.review .actions .accept');
    assert.deepEqual(await mixed.result, { status: 'accepted', content: `${MIXED_PROPOSAL}e = 5\r\n` });

    // Redline never writes the files: the CLI does.
    assert.equal(await fsp.readFile(vb, 'utf8'), ORIGINAL);
    assert.equal(await fsp.readFile(py, 'utf8'), MIXED);
  });
});

test('a binary original is shown as its size, not as text, and the accepted bytes are the proposal', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const later = cleanups(t);
  const ws = await makeWorkspace(later, 'assets', {});
  // A PNG's signature and header: NUL bytes, so no text.
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0, 0, 4, 0]);
  const logo = path.join(ws, 'logo.png');
  await fsp.writeFile(logo, png);
  const d = await desktop(t, later, { workspaces: [ws] });
  await withAppLog(d, async () => {
    const { wd } = d;
    const g = await d.gemini(ws);
    const proposal = '<svg xmlns="http://www.w3.org/2000/svg"/>\n';
    const diff = g.openDiff(logo, proposal);
    await diff.started;
    await waitTabs(wd, ['logo.png']);
    const shown = await wd.until(() => wd.execute(`const b = document.querySelector('.summary .badge.binary');
        return b && [b.textContent, document.querySelector('.original-label').textContent,
          document.querySelector('.cm-merge-a').textContent]`),
    { timeoutMs: UI_TIMEOUT_MS, what: 'the binary badge' });
    assert.deepEqual(shown.slice(0, 2), ['binary file, 20 bytes', 'Original · binary file, 20 bytes']);
    assert.ok(!shown[2].includes('\uFFFD') && !shown[2].includes('PNG'), `the left side shows the bytes: ${shown[2]}`);
    const win = await poll(() => reviewWindow(d), { timeoutMs: UI_TIMEOUT_MS, what: 'the review window on screen' });
    t.diagnostic(`screenshot: ${await windowShot(d, win, path.join(SHOTS_DIR, 'window-binary.png'))}`);
    await wd.clickOn('.review .actions .accept');
    assert.deepEqual(await diff.result, { status: 'accepted', content: proposal });
    assert.deepEqual(await fsp.readFile(logo), png);
  });
});
