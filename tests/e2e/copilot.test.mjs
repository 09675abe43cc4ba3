// A Copilot CLI review in the real webview: the blocking open_diff over Redline's unix socket
// (driven by ../interop/lib/copilot-http.mjs, speaking what the real `copilot` 1.0.102 speaks),
// shown read-only with its reason, the selection sent as selection_changed, accepted from the
// window: open_diff answers SAVED and Copilot CLI writes its own proposal.

import assert from 'node:assert/strict';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';

import { connectCopilot } from '../interop/lib/copilot-http.mjs';
import { poll } from './lib/poll.mjs';
import {
  cleanups, desktop, makeWorkspace, SHOTS_DIR, summary, TEST_TIMEOUT_MS, UI_TIMEOUT_MS, waitReview, waitTabs, whoAsked,
  withAppLog,
} from './lib/fixtures.mjs';
import { reviewWindow, windowShot } from './lib/x11.mjs';

const NOTES = 'first\nsecond\nthird\n';
const NOTES_PROPOSAL = 'first\nsecond, as Copilot CLI proposes\nthird\n';
const READ_ONLY = "Copilot CLI writes its own proposal: edits here can't be sent back.";

test('a Copilot CLI review: shown read-only with its reason, the selection sent, accepted as SAVED', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const later = cleanups(t);
  const ws = await makeWorkspace(later, 'notes', { 'notes.md': NOTES });
  const d = await desktop(t, later, { workspaces: [ws] });
  await withAppLog(d, async () => {
    const { wd } = d;
    const w = d.status.workspaces[0];
    const lockFile = w.discoveryFiles.find((f) => f.includes(`${path.sep}.copilot${path.sep}ide${path.sep}`));
    assert.ok(lockFile, JSON.stringify(w.discoveryFiles));
    const copilot = connectCopilot(JSON.parse(await fsp.readFile(lockFile, 'utf8')));
    later(() => copilot.close());
    await copilot.initialize('1.0.102');
    await copilot.call('update_session_name', { name: 'Tidy the notes' });

    const file = path.join(ws, 'notes.md');
    const answer = copilot.call('open_diff', {
      original_file_path: file, new_file_contents: NOTES_PROPOSAL, tab_name: '[Copilot CLI] - notes.md (4e08e3)',
    });
    const [tab] = await waitTabs(wd, ['notes.md']);
    assert.equal(tab.selected, true);
    const pending = await waitReview(d, file);
    assert.equal(pending.client.name, 'copilot-cli');
    assert.equal(pending.readOnly, READ_ONLY);
    // Who asked, with the session's title.
    assert.equal(pending.client.sessionName, 'Tidy the notes');
    assert.deepEqual(await summary(wd), { workspace: 'notes', path: 'notes.md', client: whoAsked(pending.client), fullPath: file });
    assert.match(whoAsked(pending.client), /“Tidy the notes”$/);

    // Read-only, and saying why, in the window itself.
    const note = await wd.waitFor('.banner.read-only');
    assert.equal(await wd.execute(`return document.querySelector('.banner.read-only').hidden`), false);
    assert.equal(await wd.execute(`return document.querySelector('.banner.read-only').textContent`), READ_ONLY);
    assert.ok(note);
    assert.equal(await wd.execute(`return document.querySelector('.cm-merge-b .cm-content').getAttribute('contenteditable')`), 'false');

    // A click on the second line of the proposal: its caret goes to Copilot CLI.
    await wd.clickOn('.cm-merge-b .cm-line:nth-child(2)');
    const selection = await copilot.waitNotification((m) => m.method === 'selection_changed', UI_TIMEOUT_MS, 'selection_changed');
    assert.equal(selection.params.filePath, file);
    assert.equal(selection.params.selection.start.line, 1);

    await wd.until(() => wd.execute(`return document.querySelectorAll('.cm-merge-b .cm-line').length > 0
        && document.querySelectorAll('.toasts > *').length === 0 && document.fonts.status === 'loaded'`),
    { timeoutMs: UI_TIMEOUT_MS, what: 'the review fully drawn' });
    const win = await poll(() => reviewWindow(d), { timeoutMs: UI_TIMEOUT_MS, what: 'the review window on screen' });
    const shot = path.join(SHOTS_DIR, 'window-copilot.png');
    await windowShot(d, win, shot);
    t.diagnostic(`screenshot ${shot}`);

    await wd.clickOn('.review .actions .accept');
    const { json } = await answer;
    assert.equal(json.success, true);
    assert.equal(json.result, 'SAVED');
    assert.equal(typeof json.trigger, 'string');
    assert.equal(typeof json.message, 'string');
    await waitTabs(wd, []);
    assert.deepEqual(await d.json(['review', 'list', '--json']), []);
    // Redline never writes the file: Copilot CLI does, with its own proposal.
    assert.equal(await fsp.readFile(file, 'utf8'), NOTES);
  });
});
