// Interop: the real Emacs (Debian's `emacs-nox`) with Redline's package (editors/emacs/redline.el),
// in a terminal (a private tmux), moves the cursor and selects a region; the real Gemini CLI
// IdeClient (@google/gemini-cli-core 0.61.0) receives them as `ide/contextUpdate`;
// M-x redline-mention reaches a connected Claude Code client (lib/claude-ws.mjs, the stand-in
// that speaks claude's IDE WebSocket) as `at_mentioned`; an accepted review of the open file
// shows in Emacs once the CLI writes it. Also the Sublime Text plugin (no Sublime Text runs here):
// it compiles, and through a stand-in `sublime` module its context and mention reach the same.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { repoRoot, runProcess, startRedline } from './lib/redline.mjs';
import { clientEnv, startGeminiClient } from './lib/gemini.mjs';
import { connectClaudeWs } from './lib/claude-ws.mjs';
import { paneCommand, privateTmux, tmuxPane } from './lib/tmux.mjs';
import { waitForEntry } from './lib/wait.mjs';

const STEP_MS = 20_000;
const EMACS = process.env.REDLINE_EMACS || 'emacs';
const emacsVersion = spawnSync(EMACS, ['--version'], { encoding: 'utf8' }).stdout ?? '';
const skip = (!/GNU Emacs (2[7-9]|[3-9]\d)\./.test(emacsVersion) && `${EMACS} 27+ not found (apt install emacs-nox)`) || false;
const LINES = ['first line', 'second line', 'third línea', 'fourth line', 'fifth line'];
const here = path.dirname(fileURLToPath(import.meta.url));
const EL = path.join(repoRoot, 'editors', 'emacs', 'redline.el');

const activeOf = (params) => params?.workspaceState?.openFiles?.find((f) => f.isActive);
const elString = (s) => JSON.stringify(s); // an ASCII path: Lisp and JSON strings agree

/** Claude Code's side of the workspace (its lock file names the port and the token), initialized. */
async function connectClaude(r, ws, name = 'claude-code') {
  const status = await r.json(['status', '--json']);
  const w = status.workspaces.find((x) => x.path === ws) ?? status.workspaces[0];
  const lockFile = w.discoveryFiles.find((f) => f.includes(`${path.sep}.claude${path.sep}`));
  assert.ok(lockFile, `a Claude Code lock file: ${JSON.stringify(w.discoveryFiles)}`);
  const lock = JSON.parse(await fsp.readFile(lockFile, 'utf8'));
  const claude = await connectClaudeWs({ port: w.wsPort, token: lock.authToken });
  if (name === 'claude-code') {
    await claude.initialize('2.1.330');
  } else {
    // What opencode 1.18 sends on connecting, under its name.
    await claude.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name, version: '0.0.0' } });
    claude.notify('notifications/initialized');
  }
  return claude;
}

test('Emacs moves the cursor, selects a region and mentions lines: the CLIs receive them', { skip, timeout: 120_000 }, async (t) => {
  const ws = fs.realpathSync(await fsp.mkdtemp(path.join(os.tmpdir(), 'redline-it-emacs-')));
  t.after(() => fsp.rm(ws, { recursive: true, force: true }));
  const file = path.join(ws, 'a.txt');
  await fsp.writeFile(file, LINES.join('\n') + '\n');
  const r = await startRedline({ workspaces: [ws] });
  t.after(() => r.stop());
  const g = await startGeminiClient({ cwd: ws, env: clientEnv(r) });
  t.after(() => g.close());
  assert.equal((await g.connect()).state.status, 'connected');

  const claude = await connectClaude(r, ws);
  t.after(() => claude.close());

  const server = await privateTmux('redline-emacs-tmux-');
  t.after(() => server.stop());
  // Lines that are no message come first: the package skips them.
  const garbage = `printf 'not json\\n[1]\\n{"type":7}\\n'; exec "$0" editor --stdio`;
  const setup = `(progn (setq redline-command (list "sh" "-c" ${elString(garbage)} ${elString(r.bin)}) redline-debounce 0.05) (redline-mode 1))`;
  const argv = [EMACS, '-nw', '-Q', '-l', EL, '--eval', setup, 'a.txt'];
  const cmd = paneCommand('emacs', { env: { ...r.env, TERM: 'xterm-256color', LANG: 'C.UTF-8' }, argv });
  await server.tmux(['new-session', '-d', '-s', 'emacs', '-x', '120', '-y', '30', '-c', ws, cmd]);
  const emacs = tmuxPane(server.tmux, 'emacs:0.0', { label: 'emacs' });
  await emacs.waitForScreen(/fifth line/, STEP_MS, 'emacs to show a.txt');

  // Line 3, before the "í" (the 8th character, the 9th byte).
  await emacs.keys('M-<', 'C-n', 'C-n', 'C-a', 'C-f', 'C-f', 'C-f', 'C-f', 'C-f', 'C-f', 'C-f');
  const cursor = await g.waitEvent(
    (e) => e.event === 'notification' && e.method === 'ide/contextUpdate' && activeOf(e.params)?.cursor?.line === 3,
    { timeoutMs: STEP_MS, what: 'a contextUpdate with the cursor on line 3' },
  );
  assert.equal(activeOf(cursor.params).path, file);
  assert.deepEqual(activeOf(cursor.params).cursor, { line: 3, character: 8 });

  // The region from the "í" down a line (onto the "l" of "line") to the end of that word.
  await emacs.keys('C-Space', 'C-n', 'M-f');
  const want = 'ínea\nfourth line';
  const sel = await g.waitEvent(
    (e) => e.event === 'notification' && e.method === 'ide/contextUpdate' && activeOf(e.params)?.selectedText === want,
    { timeoutMs: STEP_MS, what: `a contextUpdate with ${JSON.stringify(want)} selected` },
  );
  assert.deepEqual(activeOf(sel.params).cursor, { line: 4, character: 12 });
  await emacs.keys('C-g');

  // M-x redline-mention on the region of lines 2 to 4.
  await emacs.keys('M-<', 'C-n', 'C-Space', 'C-n', 'C-n', 'C-e', 'M-x');
  await emacs.type('redline-mention');
  await emacs.waitForScreen(/M-x redline-mention/, STEP_MS, 'the minibuffer to show the command');
  await emacs.keys('Enter');
  const mention = await waitForEntry(
    claude.notifications, claude.events, 'notification', (m) => m.method === 'at_mentioned', STEP_MS,
    'an at_mentioned from M-x redline-mention', () => `; got ${JSON.stringify(claude.notifications.map((m) => m.method))}`,
  ).catch(async (err) => {
    err.message += `\n--- screen ---\n${await emacs.screen()}`;
    throw err;
  });
  assert.deepEqual(mention.params, { filePath: file, lineStart: 1, lineEnd: 3 });
  await emacs.keys('C-g');

  // A rectangle (C-x SPC) over lines 2 to 4, columns 1 to 3: one range a line to a client that
  // reads several (opencode), the text of all three to Gemini CLI.
  const opencode = await connectClaude(r, ws, 'opencode');
  t.after(() => opencode.close());
  await emacs.keys('M-<', 'C-n', 'C-x', 'Space', 'C-n', 'C-n', 'C-f', 'C-f', 'C-f');
  await g.waitEvent(
    (e) => e.event === 'notification' && e.method === 'ide/contextUpdate' && activeOf(e.params)?.selectedText === 'sec\nthi\nfou',
    { timeoutMs: STEP_MS, what: 'a contextUpdate with the rectangle selected' },
  );
  const rect = await waitForEntry(
    opencode.notifications, opencode.events, 'notification',
    (m) => m.method === 'selection_changed' && m.params.ranges?.length === 3, STEP_MS,
    'a selection_changed with three ranges', () => `; got ${JSON.stringify(opencode.notifications)}`,
  );
  assert.deepEqual(rect.params.ranges.map((x) => [x.text, x.selection.start.line]), [['sec', 2], ['thi', 3], ['fou', 4]]);
  await emacs.keys('C-g');

  // Accepted and written by the CLI (here the test, as the IdeClient leaves writing to it).
  const diff = g.openDiff(file, LINES.join('\n').replace('second line', 'SECOND LINE') + '\n');
  await diff.started;
  const review = JSON.parse((await r.run(['review', 'wait', '--file', file, '--timeout', '20'])).stdout);
  assert.equal((await r.run(['review', 'accept', String(review.id)])).code, 0);
  const result = await diff.result;
  assert.equal(result.status, 'accepted');
  await fsp.writeFile(file, result.content);
  await emacs.waitForScreen(/SECOND LINE/, STEP_MS, 'emacs to revert the accepted text');
});

test('Emacs M-x redline-reject asks for a reason and rejects the pending review of the file with it', { skip, timeout: 120_000 }, async (t) => {
  const ws = fs.realpathSync(await fsp.mkdtemp(path.join(os.tmpdir(), 'redline-it-emacs-')));
  t.after(() => fsp.rm(ws, { recursive: true, force: true }));
  const file = path.join(ws, 'a.txt');
  await fsp.writeFile(file, LINES.join('\n') + '\n');
  const r = await startRedline({ workspaces: [ws] });
  t.after(() => r.stop());
  const server = await privateTmux('redline-emacs-tmux-');
  t.after(() => server.stop());
  const setup = `(progn (setq redline-command (list ${elString(r.bin)} "editor" "--stdio")) (redline-mode 1))`;
  const argv = [EMACS, '-nw', '-Q', '-l', EL, '--eval', setup, 'a.txt'];
  const cmd = paneCommand('emacs', { env: { ...r.env, TERM: 'xterm-256color', LANG: 'C.UTF-8' }, argv });
  await server.tmux(['new-session', '-d', '-s', 'emacs', '-x', '160', '-y', '30', '-c', ws, cmd]);
  const emacs = tmuxPane(server.tmux, 'emacs:0.0', { label: 'emacs' });
  await emacs.waitForScreen(/fifth line/, STEP_MS, 'emacs to show a.txt');
  const reject = async (reason) => {
    await emacs.keys('M-x');
    await emacs.type('redline-reject');
    await emacs.waitForScreen(/M-x redline-reject/, STEP_MS, 'the minibuffer to show the command');
    await emacs.keys('Enter');
    await emacs.waitForScreen(/Reject; reason \(optional\):/, STEP_MS, 'the reason prompt');
    if (reason) await emacs.type(reason);
    await emacs.keys('Enter');
  };

  await reject('');
  await emacs.waitForScreen(/Redline: reject: no review of .*a\.txt is pending/, STEP_MS, 'the no-review error');

  const proposing = runProcess(r.bin, ['propose', file, '--content-file', '-', '--wait', '--json'], {
    env: r.env, cwd: ws, input: 'all new\n', timeoutMs: 60_000,
  });
  await r.run(['review', 'wait', '--file', file, '--timeout', '20']);
  await reject('not this way');
  const out = await proposing;
  assert.equal(out.code, 1, `propose --wait: ${out.stdout}${out.stderr}\n--- screen ---\n${await emacs.screen()}`);
  assert.deepEqual(JSON.parse(out.stdout), { decision: 'rejected', content: null, reason: 'not this way' });
  await emacs.waitForScreen(/Redline: rejected the review of .*a\.txt/, STEP_MS, 'the confirmation');
});

test('Emacs without a running Redline says so and keeps working', { skip, timeout: 60_000 }, async (t) => {
  const dir = fs.realpathSync(await fsp.mkdtemp(path.join(os.tmpdir(), 'redline-it-emacs-none-')));
  t.after(() => fsp.rm(dir, { recursive: true, force: true }));
  const runtime = path.join(dir, 'runtime');
  await fsp.mkdir(runtime, { mode: 0o700 });
  await fsp.writeFile(path.join(dir, 'a.txt'), LINES.join('\n') + '\n');
  const bin = process.env.REDLINE_BIN || path.join(repoRoot, 'target', 'debug', 'redline');
  const server = await privateTmux('redline-emacs-tmux-');
  t.after(() => server.stop());
  const setup = `(progn (setq redline-command (list ${elString(bin)} "editor" "--stdio")) (redline-mode 1))`;
  const env = { HOME: dir, TMPDIR: dir, XDG_RUNTIME_DIR: runtime, XDG_CONFIG_HOME: dir, TERM: 'xterm-256color', LANG: 'C.UTF-8', PATH: process.env.PATH };
  const cmd = paneCommand('emacs', { env, argv: [EMACS, '-nw', '-Q', '-l', EL, '--eval', setup, 'a.txt'] });
  await server.tmux(['new-session', '-d', '-s', 'emacs', '-x', '120', '-y', '30', '-c', dir, cmd]);
  const emacs = tmuxPane(server.tmux, 'emacs:0.0', { label: 'emacs' });
  const notRunning = /Redline: not connected \(no running Redline/;
  await emacs.waitForScreen(notRunning, STEP_MS, 'emacs to say Redline is not running');
  // Moving on is quiet; a mention asks again and says so again.
  await emacs.keys('C-n', 'C-n', 'C-g');
  await emacs.waitForScreen((s) => !notRunning.test(s) && /Quit/.test(s), STEP_MS, 'the message to go');
  await emacs.keys('M-x');
  await emacs.type('redline-mention');
  await emacs.waitForScreen(/M-x redline-mention/, STEP_MS, 'the minibuffer to show the command');
  await emacs.keys('Enter');
  await emacs.waitForScreen(notRunning, STEP_MS, 'redline-mention to say Redline is not running');
  // Still editing.
  await emacs.type('typed-after');
  await emacs.waitForScreen(/typed-after/, STEP_MS, 'emacs to go on editing');
});

// The revert rule on its own (Emacs in batch mode, no Redline needed): after `accepted`, an
// unmodified buffer takes the CLI's write, one with unsaved changes keeps them.
test('Emacs reverts an accepted file only where the buffer has no unsaved changes', { skip, timeout: 60_000 }, async (t) => {
  const dir = fs.realpathSync(await fsp.mkdtemp(path.join(os.tmpdir(), 'redline-it-emacs-revert-')));
  t.after(() => fsp.rm(dir, { recursive: true, force: true }));
  const a = path.join(dir, 'a.txt');
  const b = path.join(dir, 'b.txt');
  await fsp.writeFile(a, 'old a\n');
  await fsp.writeFile(b, 'old b\n');
  const lisp = `
(let* ((ba (find-file-noselect ${elString(a)}))
       (bb (find-file-noselect ${elString(b)}))
       (deadline (+ (float-time) 15)))
  (with-current-buffer bb (goto-char (point-max)) (insert "unsaved\n"))
  ;; Visited ten seconds ago, so the CLI's write surely changes the modification time.
  (set-file-times ${elString(a)} (time-subtract nil 10))
  (set-file-times ${elString(b)} (time-subtract nil 10))
  (with-current-buffer ba (set-visited-file-modtime))
  (with-current-buffer bb (set-visited-file-modtime))
  (with-temp-file ${elString(a)} (insert "new a\n"))
  (with-temp-file ${elString(b)} (insert "new b\n"))
  (let ((timers (length timer-list)))
    (redline--on-line ${elString(JSON.stringify({ type: 'accepted', path: a }))})
    (redline--on-line ${elString(JSON.stringify({ type: 'accepted', path: b }))})
    ;; Until both watches have ended (each is one timer).
    (while (and (< (float-time) deadline) (> (length timer-list) timers))
      (sit-for 0.1)))
  (princ (json-encode (list (cons 'a (with-current-buffer ba (buffer-string)))
                            (cons 'b (with-current-buffer bb (buffer-string)))
                            (cons 'bModified (and (buffer-modified-p bb) t)))))
  (terpri))`;
  const res = spawnSync(EMACS, ['--batch', '-Q', '-l', EL, '--eval', lisp], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(res.status, 0, res.stderr);
  assert.deepEqual(JSON.parse(res.stdout.trim().split('\n').pop()), { a: 'new a\n', b: 'old b\nunsaved\n', bModified: true });
});

// Sublime Text is not in Debian: its plugin compiles, and runs through a stand-in of the
// `sublime` module (tests/interop/sublime) against the real Redline and the real IdeClient.
test('the Sublime Text plugin compiles, sends the context, mentions lines and rejects with a reason', { timeout: 120_000 }, async (t) => {
  const py = spawnSync('python3', ['--version'], { encoding: 'utf8' });
  if (py.status !== 0) return t.skip('python3 not found');
  const plugin = path.join(repoRoot, 'editors', 'sublime', 'Redline.py');
  const cache = await fsp.mkdtemp(path.join(os.tmpdir(), 'redline-it-sublime-'));
  t.after(() => fsp.rm(cache, { recursive: true, force: true }));
  const compiled = spawnSync('python3', ['-m', 'py_compile', plugin], { encoding: 'utf8', env: { ...process.env, PYTHONPYCACHEPREFIX: cache } });
  assert.equal(compiled.status, 0, compiled.stderr);
  const commands = JSON.parse(await fsp.readFile(path.join(repoRoot, 'editors', 'sublime', 'Default.sublime-commands'), 'utf8'));
  assert.deepEqual(commands.map((c) => c.command).sort(), ['redline_context', 'redline_mention', 'redline_reject']);

  const ws = fs.realpathSync(await fsp.mkdtemp(path.join(os.tmpdir(), 'redline-it-sublime-ws-')));
  t.after(() => fsp.rm(ws, { recursive: true, force: true }));
  const file = path.join(ws, 'a.txt');
  const text = LINES.join('\n') + '\n';
  await fsp.writeFile(file, text);
  const r = await startRedline({ workspaces: [ws] });
  t.after(() => r.stop());
  const g = await startGeminiClient({ cwd: ws, env: clientEnv(r) });
  t.after(() => g.close());
  assert.equal((await g.connect()).state.status, 'connected');
  const claude = await connectClaude(r, ws);
  t.after(() => claude.close());

  const drive = (what, a, b, ...more) => {
    const res = spawnSync('python3', ['-B', path.join(here, 'sublime', 'drive.py'), plugin, file, what, String(a), String(b), ...more.map(String)], {
      encoding: 'utf8', cwd: ws, timeout: 60_000, env: { ...r.env, REDLINE_BIN: r.bin },
    });
    assert.equal(res.status, 0, `drive.py ${what}: ${res.stdout}${res.stderr}`);
    return res.stdout;
  };
  // From the "í" of line 3 to the end of line 4, the caret at the end (offsets in characters).
  const from = text.indexOf('ínea');
  const to = text.indexOf('fourth line') + 'fourth line'.length;
  drive('context', from, to);
  const want = 'ínea\nfourth line';
  const sel = await g.waitEvent(
    (e) => e.event === 'notification' && e.method === 'ide/contextUpdate' && activeOf(e.params)?.selectedText === want,
    { timeoutMs: STEP_MS, what: `a contextUpdate with ${JSON.stringify(want)} selected` },
  );
  assert.equal(activeOf(sel.params).path, file);
  assert.deepEqual(activeOf(sel.params).cursor, { line: 4, character: 12 });

  // Lines 2 to 4.
  const out = drive('mention', text.indexOf('second'), to);
  assert.match(out, /Redline: mentioned a\.txt:2-4/);
  const mention = await waitForEntry(
    claude.notifications, claude.events, 'notification', (m) => m.method === 'at_mentioned', STEP_MS,
    'an at_mentioned from redline_mention', () => `; got ${JSON.stringify(claude.notifications.map((m) => m.method))}`,
  );
  assert.deepEqual(mention.params, { filePath: file, lineStart: 1, lineEnd: 3 });

  // Two selections (Sublime's multiple cursors): a client reading ranges (opencode) gets both,
  // Claude Code the first.
  const opencode = await connectClaude(r, ws, 'opencode');
  t.after(() => opencode.close());
  const first = text.indexOf('second');
  const second = text.indexOf('fifth');
  drive('context', first, first + 3, second, second + 4);
  const ranges = await waitForEntry(
    opencode.notifications, opencode.events, 'notification',
    (m) => m.method === 'selection_changed' && m.params.ranges?.length === 2, STEP_MS,
    'a selection_changed with two ranges', () => `; got ${JSON.stringify(opencode.notifications)}`,
  );
  assert.deepEqual(ranges.params.ranges.map((x) => [x.text, x.selection.start.line]), [['sec', 2], ['fift', 5]]);
  const one = await waitForEntry(
    claude.notifications, claude.events, 'notification',
    (m) => m.method === 'selection_changed' && m.params.text === 'sec', STEP_MS,
    'a selection_changed with the first selection', () => `; got ${JSON.stringify(claude.notifications)}`,
  );
  assert.equal(one.params.ranges, undefined, 'Claude Code reads one range');

  // "Redline: Reject": no review yet, then one a waiting `redline propose` hears the reason of.
  const reject = (reason) => {
    const res = spawnSync('python3', ['-B', path.join(here, 'sublime', 'drive.py'), plugin, file, 'reject', '0', '0'], {
      encoding: 'utf8', cwd: ws, timeout: 60_000, env: { ...r.env, REDLINE_BIN: r.bin, REDLINE_REASON: reason },
    });
    assert.equal(res.status, 0, `drive.py reject: ${res.stdout}${res.stderr}`);
    return res.stdout;
  };
  assert.match(reject(''), /Redline: reject: no review of .*a\.txt is pending/);
  const proposing = runProcess(r.bin, ['propose', file, '--content-file', '-', '--wait', '--json'], {
    env: r.env, cwd: ws, input: 'all new\n', timeoutMs: 60_000,
  });
  await r.run(['review', 'wait', '--file', file, '--timeout', '20']);
  assert.match(reject('typed in the panel'), /Redline: rejected the review of a\.txt/);
  const proposed = await proposing;
  assert.equal(proposed.code, 1, `propose --wait: ${proposed.stdout}${proposed.stderr}`);
  assert.deepEqual(JSON.parse(proposed.stdout), { decision: 'rejected', content: null, reason: 'typed in the panel' });
});
