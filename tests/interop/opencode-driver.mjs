// Drives the real `opencode` binary (opencode-ai 1.18.33, pinned in package.json) offline:
// `opencode run PROMPT` (one turn, headless; it loads plugins and runs tools as the TUI does) in
// a network namespace that holds only loopback, against opencode-fake-api.mjs.
//
//   const api = await startFakeApi();                        opencode-fake-api.mjs
//   const home = await opencodeHome({ api });                throwaway HOME (~/.config/opencode)
//   const run = runOpencode({ cwd: ws, home, api, prompt: 'TRIGGER please' });
//   const { code, stdout, stderr } = await run.done;
//
// npm does not run opencode-ai's install script, so the platform binary is called directly.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isolationUnavailable, unixBridge, isolated, isolatedWith } from './lib/netns.mjs';
import { defaultBin, runProcess, startRedline } from './lib/redline.mjs';
import { privateTmux, tmuxPane, paneCommand } from './lib/tmux.mjs';
import { startFakeApi } from './opencode-fake-api.mjs';

export { isolationUnavailable };

const here = path.dirname(fileURLToPath(import.meta.url));
export const OPENCODE_VERSION = '1.18.33';
export const OPENCODE_BIN = path.join(here, 'node_modules', 'opencode-linux-x64', 'bin', 'opencode');

export function opencodeInstalled() {
  return process.platform === 'linux' && process.arch === 'x64' && fs.existsSync(OPENCODE_BIN);
}

/** A fresh dir (realpath: opencode reports paths resolved). */
export async function opencodeTempDir(prefix) {
  return fs.realpathSync(await fsp.mkdtemp(path.join(os.tmpdir(), prefix)));
}

/**
 * A throwaway HOME with opencode's global config (`~/.config/opencode/opencode.json`): the fake
 * provider as the model for everything, no autoupdate, no sharing.
 */
export async function opencodeHome({ api, home: given }) {
  const home = given ? fs.realpathSync(given) : await opencodeTempDir('rl-opencode-home-');
  const configDir = path.join(home, '.config', 'opencode');
  await fsp.mkdir(configDir, { recursive: true });
  const config = {
    $schema: 'https://opencode.ai/config.json',
    provider: {
      fake: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Fake',
        options: { baseURL: api.baseURL, apiKey: 'sk-redline-interop-not-a-secret' },
        // opencode offers `write` and `edit` to most models, `apply_patch` instead to a GPT one.
        models: { 'fake-model': { name: 'Fake', tool_call: true }, 'gpt-5.5': { name: 'Fake GPT', tool_call: true } },
      },
    },
    model: 'fake/fake-model',
    small_model: 'fake/fake-model',
    autoupdate: false,
    share: 'disabled',
  };
  await fsp.writeFile(path.join(configDir, 'opencode.json'), JSON.stringify(config, null, 2));
  // opencode installs `@opencode-ai/plugin` (its plugins' types) into each config folder with
  // npm, and waits for that before it loads a plugin: offline that wait never ends. It skips
  // the install when node_modules exists and package-lock.json lists every dependency, so this
  // says so (Redline's plugin imports nothing but node:child_process).
  const dep = { '@opencode-ai/plugin': OPENCODE_VERSION };
  await fsp.mkdir(path.join(configDir, 'node_modules'), { recursive: true });
  await fsp.writeFile(path.join(configDir, 'package.json'), JSON.stringify({ dependencies: dep }));
  await fsp.writeFile(path.join(configDir, 'package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages: { '': { dependencies: dep } } }));
  return {
    home,
    configDir,
    pluginFile: path.join(configDir, 'plugin', 'redline.js'),
    stop: () => (given ? Promise.resolve() : fsp.rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 })),
  };
}

/** The environment opencode runs with (complete): no proxies, no inherited XDG dirs. */
export function opencodeEnv({ home, extra = {} }) {
  return {
    PATH: process.env.PATH,
    HOME: home.home,
    TMPDIR: os.tmpdir(),
    SHELL: '/bin/sh',
    TERM: 'dumb',
    LANG: 'C.UTF-8',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    ...extra,
  };
}

/** The pid of the opencode process among `pid`'s descendants (the namespace wrapper's child). */
export function opencodePid(pid) {
  const queue = [pid];
  while (queue.length) {
    const p = queue.shift();
    try {
      if (fs.readlinkSync(`/proc/${p}/exe`) === fs.realpathSync(OPENCODE_BIN)) return p;
    } catch {}
    for (const t of fs.readdirSync(`/proc/${p}/task`, { withFileTypes: true })) {
      const kids = fs.readFileSync(`/proc/${p}/task/${t.name}/children`, 'utf8').trim();
      if (kids) queue.push(...kids.split(/\s+/).map(Number));
    }
  }
  return null;
}

/**
 * Runs `opencode run PROMPT` in `cwd` with exactly opencodeEnv() plus `env`. With `isolate`
 * (default: when possible) it runs in a network namespace holding only loopback, where
 * 127.0.0.1:<api.port> is the fake API; the plugin's `redline hook` inherits it, so it reaches
 * Redline over the control socket. Resolves `done` with {code, signal, stdout, stderr}.
 */
export async function runOpencode({ cwd, home, api, prompt, env = {}, args: extraArgs = [], isolate = isolationUnavailable() === null }) {
  const fullEnv = opencodeEnv({ home, extra: env });
  const argv = [OPENCODE_BIN, 'run', '--print-logs', ...extraArgs, prompt];
  let bridge;
  let cmd = argv[0];
  let args = argv.slice(1);
  if (isolate) {
    bridge = await unixBridge(api.port);
    [cmd, args] = isolated(api.port, bridge.socketPath, argv);
  }
  const child = spawn(cmd, args, { cwd, env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
  const done = new Promise((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  }).finally(() => bridge?.close());
  return {
    child,
    isolated: !!bridge,
    done,
    output: () => ({ stdout, stderr }),
    /** The opencode process's pid (inside the namespace wrapper, if any). */
    pid: () => opencodePid(child.pid),
    /** Kills opencode outright (SIGKILL), then what ran it; a `redline hook` it ran is left to notice. */
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const oc = opencodePid(child.pid);
        if (oc) process.kill(oc, 'SIGKILL');
        child.kill('SIGKILL');
      }
      await done;
    },
  };
}

/**
 * Starts the opencode TUI in `cwd` in a private tmux server, with exactly opencodeEnv() plus
 * `env`. Isolated (default: when possible) in a loopback-only namespace where 127.0.0.1:<api.port>
 * is the fake API and 127.0.0.1:<port> reaches the host's for each of `ports` (Redline's
 * WebSocket, which opencode finds through `~/.claude/ide/<port>.lock`).
 */
export async function startOpencodeTui({ cwd, home, api, env = {}, ports = [], cols = 160, rows = 50, isolate = isolationUnavailable() === null }) {
  const server = await privateTmux('redline-opencode-tmux-');
  const bridges = [];
  try {
    const fullEnv = opencodeEnv({ home, extra: { TERM: 'xterm-256color', ...env } });
    const argv = [OPENCODE_BIN];
    let cmd;
    if (isolate) {
      for (const port of [api.port, ...ports]) bridges.push([port, await unixBridge(port)]);
      const envArgs = Object.entries(fullEnv).map(([k, v]) => `${k}=${v}`);
      cmd = paneCommand('opencode', { command: isolatedWith(bridges.map(([p, b]) => [p, b.socketPath]), ['env', '-i', ...envArgs, ...argv]) });
    } else {
      cmd = paneCommand('opencode', { env: fullEnv, argv });
    }
    await server.tmux(['new-session', '-d', '-s', 'opencode', '-x', String(cols), '-y', String(rows), '-c', cwd, cmd]);
  } catch (err) {
    await server.stop();
    for (const [, b] of bridges) await b.close();
    throw err;
  }
  const pane = tmuxPane(server.tmux, 'opencode:0.0', { label: 'opencode', inputLine: /./ });
  return {
    ...pane,
    isolated: bridges.length > 0,
    async stop() {
      await server.stop();
      for (const [, b] of bridges) await b.close();
    },
  };
}

/**
 * What an opencode session with Redline needs: the fake API, a workspace, a Redline serving it,
 * an opencode home, and Redline's plugin installed there (`mode`: `--review MODE`, none for the
 * default) through HOME alone, as a user's would be. `configure(home)` runs before the install.
 * Resolves with them, the install's environment and its answer ({code, stdout, stderr}).
 */
export async function opencodeWithRedline({ prefix, mode, configure = () => {} }) {
  const api = await startFakeApi({ log: process.env.REDLINE_IT_VERBOSE ? (m) => console.error(m) : undefined });
  const ws = await opencodeTempDir(prefix);
  const r = await startRedline({ workspaces: [ws] });
  const home = await opencodeHome({ api });
  configure(home);
  const installEnv = { ...r.env, HOME: home.home };
  delete installEnv.XDG_CONFIG_HOME;
  const review = mode ? ['--review', mode] : [];
  const installed = await r.run(['hooks', 'install', 'opencode', ...review], { env: installEnv });
  return { api, ws, r, home, installEnv, installed };
}

/** Ends what `opencodeWithRedline` made, opencode itself (`cli`: a run or the TUI) first. */
export async function endOpencodeWithRedline({ cli, r, home, api, ws }) {
  await cli?.stop();
  await r?.stop();
  await home?.stop();
  await api?.close();
  if (ws) await fsp.rm(ws, { recursive: true, force: true });
}

/** Why the opencode tests cannot run here (false: they can): opencode, or this redline's plugin. */
export async function opencodeSkip() {
  const bin = process.env.REDLINE_BIN || defaultBin;
  if (!opencodeInstalled()) return `opencode ${OPENCODE_VERSION} (linux x64) not installed: npm ci in tests/interop`;
  if (!fs.existsSync(bin)) return `no redline at ${bin}: build it or set REDLINE_BIN`;
  const res = await runProcess(bin, ['hooks', 'install', '--help'], { timeoutMs: 10_000 });
  if (res.code !== 0 || !/opencode/.test(res.stdout)) return 'this redline has no `redline hooks install opencode`';
  return false;
}
