// The bridge's Windows end under Wine: a Linux Redline (the desktop) adds the Windows build as a
// remote whose command is `wine redline.exe bridge --start` (as a desktop reaches a Windows box
// through its own command), and the real Gemini CLI IdeClient, from Linux, proposes an edit to
// the Windows Redline. The review comes up on the desktop with the remote's name, is accepted
// there with edited bytes, and the client gets exactly those bytes. Run by tests/wine, which sets
// WINE, WINEPREFIX and REDLINE_EXE; REDLINE_BIN is the Linux build.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { startRedline } from '../interop/lib/redline.mjs';
import { pollUntil } from '../interop/lib/wait.mjs';
import { REDLINE_EXE, WINE, WINEPREFIX, geminiOnLinux, redline, win, windowsDir, windowsWorkspace } from './wine.mjs';

const TIMEOUT_MS = 240_000;

async function ok(r, args) {
  const res = await r.run(args);
  assert.equal(res.code, 0, `redline ${args.join(' ')} exited ${res.code}\nstdout: ${res.stdout}\nstderr: ${res.stderr}`);
  return res;
}

test('a Windows Redline under Wine, reached by `redline.exe bridge --start`, reviewed on a Linux desktop: its CLI gets the accepted bytes', { timeout: TIMEOUT_MS }, async (t) => {
  assert.ok(WINE && WINEPREFIX && REDLINE_EXE, 'run through tests/wine');
  const root = fs.realpathSync(await fsp.mkdtemp(path.join(os.tmpdir(), 'redline-wine-bridge-')));
  t.after(() => fsp.rm(root, { recursive: true, force: true }));
  const ws = path.join(root, 'ws');
  await fsp.mkdir(ws);
  const target = path.join(ws, 'greeting.txt');
  const original = 'hello\r\nworld\r\n';
  await fsp.writeFile(target, original);
  await windowsWorkspace(ws);

  // The desktop: no Redline runs in the prefix yet; the link's `--start` starts one there.
  const desk = await startRedline({});
  t.after(() => desk.stop());
  // The test's own TMPDIR: wineserver keeps its socket under it, and a Windows process of
  // another wineserver is on another machine as far as named pipes go (the desktop's TMPDIR is
  // its own temp dir).
  const tmpdir = process.env.TMPDIR ? [`TMPDIR=${process.env.TMPDIR}`] : ['-u', 'TMPDIR'];
  const far = ['env', ...tmpdir, `WINEPREFIX=${WINEPREFIX}`, 'WINEDEBUG=-all', 'WINEDLLOVERRIDES=mscoree,mshtml=', WINE, REDLINE_EXE, 'bridge', '--start'];
  t.after(() => redline(['quit']).catch(() => {}));
  await desk.run(['remote', 'add', 'winbox', '--', ...far]);
  const linked = await pollUntil(async () => {
    const [r] = await desk.json(['remote', 'list', '--json']);
    return { ok: r?.state === 'connected', value: r };
  }, 120_000, 'the Windows remote to connect');
  assert.equal(linked.name, 'winbox');

  const status = JSON.parse(await redline(['status', '--json']));
  assert.equal(status.workspaces[0].path, win(ws));
  const { g } = await geminiOnLinux(t, root, await windowsDir('TEMP'));

  const diff = g.openDiff(win(target), 'hello\r\nplanet\r\n');
  await diff.started;
  const res = await ok(desk, ['review', 'wait', '--timeout', '60']);
  const review = JSON.parse(res.stdout);
  assert.equal(review.remote, 'winbox', res.stdout);
  assert.equal(review.filePath, win(target), res.stdout);
  assert.deepEqual([review.added, review.removed], [1, 1]);

  const edited = 'héllo wörld — ✓ 🚀 𝄞\r\nzweite Zeile\nohne Zeilenende';
  const contentFile = path.join(desk.dirs.root, 'edited.txt');
  await fsp.writeFile(contentFile, edited);
  await ok(desk, ['review', 'accept', String(review.id), '--content-file', contentFile]);
  assert.deepEqual(await diff.result, { status: 'accepted', content: edited });
  assert.equal(await fsp.readFile(target, 'utf8'), original, 'Redline never writes the file');
  assert.deepEqual(JSON.parse(await redline(['review', 'list', '--json'])), [], 'decided on the Windows side too');
  await ok(desk, ['remote', 'remove', 'winbox']);
});
