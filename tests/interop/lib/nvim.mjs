// A headless real Neovim (Debian's `nvim`) with Redline's plugin (editors/nvim), driven through
// its RPC socket with `nvim --server SOCK --remote-send/--remote-expr` as a user's keys would.
//
//   const n = await startNvim({ r, cwd: ws, file: 'a.txt' });
//   await n.keys('3Gwl'); await n.expr('line(".")'); await n.stop();

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { repoRoot, runProcess } from './redline.mjs';
import { pollUntil } from './wait.mjs';

export const NVIM = process.env.REDLINE_NVIM || 'nvim';
export const pluginDir = path.join(repoRoot, 'editors', 'nvim');

/** Why the real Neovim cannot run here, or null. */
export function nvimMissing() {
  const v = spawnSync(NVIM, ['--version'], { encoding: 'utf8' });
  return v.status === 0 ? null : `${NVIM} not found (apt install neovim)`;
}

/**
 * Starts `nvim --headless` in `cwd` editing `file`, with the plugin set up to run
 * `<r.bin> editor --stdio` in Redline's environment `r.env` (so it reaches that instance).
 */
export async function startNvim({ r, cwd, file, debounceMs = 50 }) {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'redline-nvim-'));
  const sock = path.join(dir, 'nvim.sock');
  const setup = `lua require('redline').setup({ cmd = { ${JSON.stringify(r.bin)}, 'editor', '--stdio' }, debounce_ms = ${debounceMs} })`;
  const args = [
    '--headless', '-u', 'NONE', '-i', 'NONE', '-n', '--listen', sock,
    '--cmd', `set rtp^=${pluginDir}`,
    // As some users have it: the plugin must reload an accepted file without 'autoread'.
    '--cmd', 'set noautoread',
    '-c', 'runtime plugin/redline.lua',
    '-c', setup,
    file,
  ];
  const env = { ...r.env, NVIM_LOG_FILE: path.join(dir, 'nvim.log') };
  const child = spawn(NVIM, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (output += d));
  child.stderr.setEncoding('utf8').on('data', (d) => (output += d));
  let exited = false;
  child.on('exit', () => (exited = true));

  const remote = async (flag, arg) => {
    const res = await runProcess(NVIM, ['--server', sock, flag, arg], { env, timeoutMs: 10_000 });
    if (res.code !== 0) throw new Error(`nvim ${flag} ${arg}: exit ${res.code}\n${res.stderr}\nnvim output:\n${output}`);
    // Neovim 0.7 prints --remote-expr's value on stderr, without a newline.
    return (res.stdout + res.stderr).trim();
  };
  await pollUntil(async () => ({ ok: fs.existsSync(sock) || exited, value: output }), 10_000, 'nvim to listen');
  if (exited) throw new Error(`nvim exited at start:\n${output}`);

  return {
    pid: child.pid,
    output: () => output,
    /** Keys as typed (Vim notation: <Esc>, <C-v>). */
    keys: (k) => remote('--remote-send', k),
    /** A Vimscript expression's value, as text. */
    expr: (e) => remote('--remote-expr', e),
    /** A Lua expression's value (its tostring), as text. */
    lua: (code) => remote('--remote-expr', `luaeval(${JSON.stringify(code)})`),
    async stop() {
      if (!exited) {
        child.kill('SIGTERM');
        await new Promise((res) => (exited ? res() : child.once('exit', res)));
      }
      await fsp.rm(dir, { recursive: true, force: true });
    },
  };
}
