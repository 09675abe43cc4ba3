// The bridge's Windows end under Wine: a Linux Redline (the desktop) adds the Windows build as a
// remote whose command is `wine redline.exe bridge --start` (as a desktop reaches a Windows box
// through its own command), and the real Gemini CLI IdeClient, from Linux, proposes an edit to
// the Windows Redline. The review comes up on the desktop with the remote's name, is accepted
// there with edited bytes, and the client gets exactly those bytes. Run by tests/wine, which sets
// WINE, WINEPREFIX and REDLINE_EXE; REDLINE_BIN is the Linux build.

import assert from 'node:assert/strict';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';

import { ok, startRedline } from '../interop/lib/redline.mjs';
import { pollUntil } from '../interop/lib/wait.mjs';
import { REDLINE_EXE, WINE, WINEPREFIX, geminiOnLinux, redline, win, windowsDir, windowsWorkspace } from './wine.mjs';

const TIMEOUT_MS = 240_000;

test('a Windows Redline under Wine, reached by `redline.exe bridge --start`, reviewed on a Linux desktop: its CLI gets the accepted bytes', { timeout: TIMEOUT_MS }, async (t) => {
  const original = 'hello\r\nworld\r\n';
  const { root, ws, target } = await windowsWorkspace(t, 'redline-wine-bridge-', original);

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
  const said = await ok(desk, ['review', 'wait', '--timeout', '60']);
  const review = JSON.parse(said);
  assert.equal(review.remote, 'winbox', said);
  assert.equal(review.filePath, win(target), said);
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
