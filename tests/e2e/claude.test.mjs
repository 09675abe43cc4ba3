// A Claude Code review in the real webview: the blocking openDiff over Redline's WebSocket server
// (driven by ../interop/lib/claude-ws.mjs, speaking what the real `claude` 2.1.330 speaks),
// answered from the review window with an edit typed in the editor; "Ask Claude" sends lines.

import assert from 'node:assert/strict';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';

import { connectClaudeWs } from '../interop/lib/claude-ws.mjs';
import { poll } from './lib/poll.mjs';
import {
  cleanups, desktop, makeWorkspace, SHOTS_DIR, summary, TEST_TIMEOUT_MS, typeAtEnd, UI_TIMEOUT_MS, waitReview, waitTabs,
  whoAsked, withAppLog,
} from './lib/fixtures.mjs';
import { reviewWindow, windowShot } from './lib/x11.mjs';

const NOTES = 'first\nsecond\nthird\n';
const NOTES_PROPOSAL = 'first\nsecond, improved\nthird\n';

test('a Claude Code review accepted with a typed edit: openDiff answers FILE_SAVED and the edited text', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const later = cleanups(t);
  const ws = await makeWorkspace(later, 'notes', { 'notes.md': NOTES });
  const d = await desktop(t, later, { workspaces: [ws] });
  await withAppLog(d, async () => {
    const { wd } = d;
    const w = d.status.workspaces[0];
    const lock = JSON.parse(await fsp.readFile(w.discoveryFiles.find((f) => f.includes(`${path.sep}.claude${path.sep}`)), 'utf8'));
    const claude = await connectClaudeWs({ port: w.wsPort, token: lock.authToken });
    later(() => claude.close());
    await claude.initialize('2.1.330');

    const file = path.join(ws, 'notes.md');
    const answer = claude.call('openDiff', {
      old_file_path: file, new_file_path: file, new_file_contents: NOTES_PROPOSAL, tab_name: '✻ [Claude Code] notes.md ⧉',
    });
    const [tab] = await waitTabs(wd, ['notes.md']);
    assert.equal(tab.selected, true);
    const pending = await waitReview(d, file);
    assert.equal(pending.client.name, 'Claude Code');
    assert.equal(pending.client.version, '2.1.330');
    // The process behind the WebSocket: here this test's own Node process.
    assert.equal(pending.client.process?.pid, process.pid, JSON.stringify(pending.client));
    assert.deepEqual(await summary(wd), { workspace: 'notes', path: 'notes.md', client: whoAsked(pending.client), fullPath: file });

    // "Ask Claude": the caret's line goes to this Claude Code as at_mentioned (0-based).
    const ask = await wd.waitFor('.review .actions .ask');
    assert.equal(await wd.execute(`return document.querySelector('.review .actions .ask').hidden`), false);
    await wd.clickOn('.cm-merge-b .cm-line:nth-child(2)');
    await wd.click(ask);
    const mention = await claude.waitNotification((m) => m.method === 'at_mentioned', UI_TIMEOUT_MS, 'at_mentioned');
    assert.deepEqual(mention.params, { filePath: file, lineStart: 1, lineEnd: 1 });
    const selection = await claude.waitNotification((m) => m.method === 'selection_changed', UI_TIMEOUT_MS, 'selection_changed');
    assert.equal(selection.params.filePath, file);
    assert.equal(selection.params.selection.start.line, 1);

    await wd.until(() => wd.execute(`return document.querySelectorAll('.cm-merge-b .cm-line').length > 0
        && document.querySelectorAll('.toasts > *').length === 0 && document.fonts.status === 'loaded'`),
    { timeoutMs: UI_TIMEOUT_MS, what: 'the review fully drawn' });
    const win = await poll(() => reviewWindow(d), { timeoutMs: UI_TIMEOUT_MS, what: 'the review window on screen' });
    const shot = path.join(SHOTS_DIR, 'window-claude.png');
    await windowShot(d, win, shot);
    t.diagnostic(`screenshot ${shot}`);

    const typed = ['Reviewed in Redline.'];
    await typeAtEnd(wd, typed);
    await wd.clickOn('.review .actions .accept');
    const result = await answer;
    assert.deepEqual(result, {
      content: [{ type: 'text', text: 'FILE_SAVED' }, { type: 'text', text: `${NOTES_PROPOSAL}${typed.join('\n')}\n` }],
    });
    await waitTabs(wd, []);
    assert.deepEqual(await d.json(['review', 'list', '--json']), []);
    // Redline never writes the file: Claude Code does, with the text it was given.
    assert.equal(await fsp.readFile(file, 'utf8'), NOTES);
  });
});
