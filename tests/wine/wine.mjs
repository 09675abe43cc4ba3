// What the Wine tests share: Linux paths as Wine's Windows processes see them, the prefix's
// Windows folders, `redline.exe` run to completion, and the real Gemini CLI IdeClient on Linux
// set up to find a Windows Redline's discovery file in the prefix's %TEMP%.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { startGeminiClient } from '../interop/lib/gemini.mjs';

const run = promisify(execFile);
export const { WINE, WINEPREFIX, REDLINE_EXE } = process.env;

/** A Linux path as Wine's Windows processes see it (drive Z: is /). */
export const win = (p) => `Z:${p.replaceAll('/', '\\')}`;

/** A Windows environment variable of the prefix, as a Linux path. */
export async function windowsDir(name) {
  const { stdout } = await run(WINE, ['cmd', '/c', `echo %${name}%`]);
  const { stdout: unix } = await run(WINE, ['winepath', '-u', stdout.trim()]);
  return unix.trim();
}

/** `redline.exe ARGS` to completion; rejects with its output if it fails. */
export async function redline(args) {
  const { stdout } = await run(WINE, [REDLINE_EXE, ...args], { env: process.env });
  return stdout;
}

/**
 * A temp folder for test `t` (removed after it) whose `ws` holds `greeting.txt` with `text`, and a
 * fresh config in the prefix with that `ws` as its one workspace.
 */
export async function windowsWorkspace(t, prefix, text) {
  assert.ok(WINE && WINEPREFIX && REDLINE_EXE, 'run through tests/wine');
  const root = fs.realpathSync(await fsp.mkdtemp(path.join(os.tmpdir(), prefix)));
  t.after(() => fsp.rm(root, { recursive: true, force: true }));
  const ws = path.join(root, 'ws');
  await fsp.mkdir(ws);
  const target = path.join(ws, 'greeting.txt');
  await fsp.writeFile(target, text);
  const appdata = await windowsDir('APPDATA');
  await fsp.rm(path.join(appdata, 'redline'), { recursive: true, force: true });
  await redline(['workspace', 'add', win(ws)]);
  return { root, ws, target };
}

/**
 * The real Gemini CLI IdeClient on Linux, connected to the Windows Redline whose discovery file
 * is in the prefix's %TEMP% (`temp`), from a terminal folder made under `root`.
 */
export async function geminiOnLinux(t, root, temp) {
  // The client's terminal. Its workspace check compares its Linux cwd with the Windows path
  // split at ':' (Linux's path delimiter): "Z" resolves in the cwd, where Z leads to /, the
  // drive Wine maps to Z:. On Windows the same check compares two Windows paths.
  const terminal = path.join(root, 'terminal');
  await fsp.mkdir(terminal);
  await fsp.symlink('/', path.join(terminal, 'Z'));
  const home = path.join(root, 'home');
  await fsp.mkdir(home);
  // os.tmpdir() on Windows is %TEMP%: give the Linux client the same folder.
  const env = { PATH: process.env.PATH, HOME: home, TMPDIR: temp, REMOTE_CONTAINERS: '1', NO_COLOR: '1' };
  const g = await startGeminiClient({ cwd: terminal, env });
  t.after(() => g.close());
  const c = await g.connect();
  if (c.state.status !== 'connected') throw new Error(`client did not connect: ${c.state.details}\n${g.output()}`);
  return { g, c };
}
