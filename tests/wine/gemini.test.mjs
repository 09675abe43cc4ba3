// The Windows build of Redline, headless under Wine, against the real Gemini CLI IdeClient
// (@google/gemini-cli-core 0.61.0, tests/interop's pinned package) running on Linux. Run by
// tests/wine, which sets WINE, WINEPREFIX and REDLINE_EXE.
//
// The client finds the discovery file where Node's os.tmpdir() points on Windows (%TEMP%, here
// inside the Wine prefix), connects over loopback, proposes an edit and gets back the text the
// user accepted with `redline.exe review accept --content-file`.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';

import { REDLINE_EXE, WINE, geminiOnLinux, redline, win, windowsDir, windowsWorkspace } from './wine.mjs';

const TIMEOUT_MS = 180_000;

/** Resolves when `pred(text so far)` holds for the child's stdout, or rejects at the deadline. */
function untilOutput(child, pred, what, ms = 60_000) {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms: ${out}`)), ms);
    const check = () => {
      if (pred(out)) {
        clearTimeout(timer);
        resolve(out);
      }
    };
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      check();
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redline.exe exited (${code}) before ${what}: ${out}`));
    });
  });
}

test('redline.exe under Wine: the Linux IdeClient finds it in Windows\' temp folder and gets the accepted edit', { timeout: TIMEOUT_MS }, async (t) => {
  // A fresh config in the prefix: this test's workspace only.
  const { root, ws, target } = await windowsWorkspace(t, 'redline-wine-', 'hello\nworld\n');

  const server = spawn(WINE, [REDLINE_EXE, 'serve', '--headless'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let exited = false;
  server.on('exit', () => (exited = true));
  t.after(async () => {
    if (!exited) await redline(['quit']).catch(() => server.kill());
  });
  await untilOutput(server, (out) => out.split('\n').includes('ready'), 'ready');

  const status = JSON.parse(await redline(['status', '--json']));
  const [workspace] = status.workspaces;
  assert.equal(workspace.path, win(ws));
  const temp = await windowsDir('TEMP');
  const file = path.join(temp, 'gemini', 'ide', `gemini-ide-server-${status.pid}-${workspace.port}.json`);
  assert.ok(fs.existsSync(file), `no discovery file at ${file}: ${JSON.stringify(status)}`);
  const announced = JSON.parse(await fsp.readFile(file, 'utf8'));
  assert.equal(announced.workspacePath, win(ws));
  assert.equal(announced.port, workspace.port);

  const { g, c } = await geminiOnLinux(t, root, temp);
  assert.equal(c.diffing, true);

  // What a CLI on Windows sends: the Windows path.
  const diff = g.openDiff(win(target), 'hello\nplanet\n');
  await diff.started;
  const review = JSON.parse(await redline(['review', 'wait', '--file', win(target), '--timeout', '30']));
  assert.equal(review.added, 1);
  assert.equal(review.removed, 1);

  const edited = 'héllo wörld ✓ 🚀\r\nzweite Zeile ohne Zeilenende';
  const contentFile = path.join(root, 'edited.txt');
  await fsp.writeFile(contentFile, edited);
  await redline(['review', 'accept', String(review.id), '--content-file', win(contentFile)]);
  assert.deepEqual(await diff.result, { status: 'accepted', content: edited });
  assert.equal(await fsp.readFile(target, 'utf8'), 'hello\nworld\n', 'Redline never writes the file');

  await redline(['quit']);
  await new Promise((resolve) => (exited ? resolve() : server.on('exit', resolve)));
  assert.ok(!fs.existsSync(file), 'discovery file left after quit');
});
