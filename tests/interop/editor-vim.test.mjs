// Interop: the real Vim 9 (Debian's `vim`) with Redline's plugin (editors/vim), in a terminal
// (a private tmux), moves the cursor and selects lines; the real Gemini CLI IdeClient
// (@google/gemini-cli-core 0.61.0) receives them as `ide/contextUpdate`; an accepted review of
// the open file shows in Vim once the CLI writes it.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { repoRoot, runProcess, startRedline } from './lib/redline.mjs';
import { clientEnv, startGeminiClient } from './lib/gemini.mjs';
import { paneCommand, privateTmux, tmuxPane } from './lib/tmux.mjs';
import { connectClaudeWs } from './lib/claude-ws.mjs';
import { waitForEntry } from './lib/wait.mjs';

const STEP_MS = 20_000;
const VIM = process.env.REDLINE_VIM || 'vim';
const vimVersion = spawnSync(VIM, ['--version'], { encoding: 'utf8' }).stdout ?? '';
const skip = (!/VIM - Vi IMproved (9|[1-9]\d)\./.test(vimVersion) && `${VIM} 9 not found (apt install vim)`) || false;
const LINES = ['first line', 'second line', 'third línea', 'fourth line', 'fifth line'];

const activeOf = (params) => params?.workspaceState?.openFiles?.find((f) => f.isActive);

test('Vim 9 moves the cursor and selects lines: the Gemini CLI IdeClient receives them', { skip, timeout: 120_000 }, async (t) => {
  const ws = fs.realpathSync(await fsp.mkdtemp(path.join(os.tmpdir(), 'redline-it-vim-')));
  t.after(() => fsp.rm(ws, { recursive: true, force: true }));
  const file = path.join(ws, 'a.txt');
  await fsp.writeFile(file, LINES.join('\n') + '\n');
  const r = await startRedline({ workspaces: [ws] });
  t.after(() => r.stop());
  const g = await startGeminiClient({ cwd: ws, env: clientEnv(r) });
  t.after(() => g.close());
  assert.equal((await g.connect()).state.status, 'connected');

  const server = await privateTmux('redline-vim-tmux-');
  t.after(() => server.stop());
  const argv = [
    VIM, '-N', '-u', 'NONE', '-i', 'NONE', '-n',
    '--cmd', `set rtp^=${path.join(repoRoot, 'editors', 'vim')}`,
    '--cmd', `let g:redline_cmd = [${JSON.stringify(r.bin)}, 'editor', '--stdio']`,
    '--cmd', 'let g:redline_debounce_ms = 50',
    '-c', 'runtime plugin/redline.vim',
    'a.txt',
  ];
  const cmd = paneCommand('vim', { env: { ...r.env, TERM: 'xterm-256color', LANG: 'C.UTF-8' }, argv });
  await server.tmux(['new-session', '-d', '-s', 'vim', '-x', '120', '-y', '30', '-c', ws, cmd]);
  const vim = tmuxPane(server.tmux, 'vim:0.0', { label: 'vim', inputLine: /^:/ });
  await vim.waitForScreen(/fifth line/, STEP_MS, 'vim to show a.txt');

  await vim.keys('3G', '0', 'f', 'í');
  const cursor = await g.waitEvent(
    (e) => e.event === 'notification' && e.method === 'ide/contextUpdate' && activeOf(e.params)?.cursor?.line === 3,
    { timeoutMs: STEP_MS, what: 'a contextUpdate with the cursor on line 3' },
  );
  assert.equal(activeOf(cursor.params).path, file);
  assert.deepEqual(activeOf(cursor.params).cursor, { line: 3, character: 8 });

  // Characterwise from the "í" down a line (onto the "l" of "line") to the end of that word.
  await vim.keys('v', 'j', 'e');
  const want = 'ínea\nfourth line';
  const sel = await g.waitEvent(
    (e) => e.event === 'notification' && e.method === 'ide/contextUpdate' && activeOf(e.params)?.selectedText === want,
    { timeoutMs: STEP_MS, what: `a contextUpdate with ${JSON.stringify(want)} selected` },
  );
  assert.deepEqual(activeOf(sel.params).cursor, { line: 4, character: 11 });
  await vim.keys('Escape');

  // A block (CTRL-V) over lines 2 to 4, columns 1 to 3: one range a line to a client that reads
  // several (named opencode, as opencode 1.18 is), the three joined to Gemini CLI.
  const w = (await r.json(['status', '--json'])).workspaces[0];
  const lockFile = w.discoveryFiles.find((f) => f.includes(`${path.sep}.claude${path.sep}`));
  const lock = JSON.parse(await fsp.readFile(lockFile, 'utf8'));
  const opencode = await connectClaudeWs({ port: w.wsPort, token: lock.authToken });
  t.after(() => opencode.close());
  await opencode.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'opencode', version: '0.0.0' } });
  await vim.keys('2', 'G', '0', 'C-v', '2', 'j', '2', 'l');
  await g.waitEvent(
    (e) => e.event === 'notification' && e.method === 'ide/contextUpdate' && activeOf(e.params)?.selectedText === 'sec\nthi\nfou',
    { timeoutMs: STEP_MS, what: 'a contextUpdate with the block selected' },
  );
  const block = await waitForEntry(
    opencode.notifications, opencode.events, 'notification',
    (m) => m.method === 'selection_changed' && m.params.ranges?.length === 3, STEP_MS,
    'a selection_changed with three ranges', () => `; got ${JSON.stringify(opencode.notifications)}`,
  );
  assert.deepEqual(block.params.ranges.map((x) => [x.text, x.selection.start.line]), [['sec', 2], ['thi', 3], ['fou', 4]]);
  await vim.keys('Escape');

  // Accepted and written by the CLI (here the test, as the IdeClient leaves writing to it).
  const diff = g.openDiff(file, LINES.join('\n').replace('second line', 'SECOND LINE') + '\n');
  await diff.started;
  const review = JSON.parse((await r.run(['review', 'wait', '--file', file, '--timeout', '20'])).stdout);
  assert.equal((await r.run(['review', 'accept', String(review.id)])).code, 0);
  const result = await diff.result;
  assert.equal(result.status, 'accepted');
  await fsp.writeFile(file, result.content);
  await vim.waitForScreen(/SECOND LINE/, STEP_MS, 'vim to reload the accepted text');
});

test('Vim 9 :RedlineReject rejects the pending review of the file with its reason, and says when there is none', { skip, timeout: 120_000 }, async (t) => {
  const ws = fs.realpathSync(await fsp.mkdtemp(path.join(os.tmpdir(), 'redline-it-vim-')));
  t.after(() => fsp.rm(ws, { recursive: true, force: true }));
  const file = path.join(ws, 'a.txt');
  await fsp.writeFile(file, LINES.join('\n') + '\n');
  const r = await startRedline({ workspaces: [ws] });
  t.after(() => r.stop());

  const server = await privateTmux('redline-vim-tmux-');
  t.after(() => server.stop());
  const argv = [
    VIM, '-N', '-u', 'NONE', '-i', 'NONE', '-n',
    '--cmd', `set rtp^=${path.join(repoRoot, 'editors', 'vim')}`,
    '--cmd', `let g:redline_cmd = [${JSON.stringify(r.bin)}, 'editor', '--stdio']`,
    '-c', 'runtime plugin/redline.vim',
    'a.txt',
  ];
  const cmd = paneCommand('vim', { env: { ...r.env, TERM: 'xterm-256color', LANG: 'C.UTF-8' }, argv });
  await server.tmux(['new-session', '-d', '-s', 'vim', '-x', '160', '-y', '30', '-c', ws, cmd]);
  const vim = tmuxPane(server.tmux, 'vim:0.0', { label: 'vim', inputLine: /^:/ });
  await vim.waitForScreen(/fifth line/, STEP_MS, 'vim to show a.txt');

  await vim.submit(':RedlineReject');
  await vim.waitForScreen(/Redline: reject: no review of .*a\.txt is pending/, STEP_MS, 'the no-review error');

  const proposing = runProcess(r.bin, ['propose', file, '--content-file', '-', '--wait', '--json'], {
    env: r.env, cwd: ws, input: 'all new\n', timeoutMs: 60_000,
  });
  await r.run(['review', 'wait', '--file', file, '--timeout', '20']);
  await vim.submit(':RedlineReject keep the old text');
  const out = await proposing;
  assert.equal(out.code, 1, `propose --wait: ${out.stdout}${out.stderr}`);
  assert.deepEqual(JSON.parse(out.stdout), { decision: 'rejected', content: null, reason: 'keep the old text' });
  await vim.waitForScreen(/Redline: rejected the review of a\.txt/, STEP_MS, 'the confirmation');
});
