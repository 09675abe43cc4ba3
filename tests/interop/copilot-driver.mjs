// Drives the real `copilot` binary (@github/copilot, pinned in package.json) under tmux, offline,
// in a network namespace that holds only loopback.
//
//   const api = await startFakeApi();                             copilot-fake-api.mjs
//   const home = await copilotHome({ trustedFolders: [ws] });     throwaway HOME + COPILOT_HOME
//   const t = await startTmux();                                  a private tmux server
//   const c = await t.copilot({ name: 'one', cwd: ws, home, api });
//   await c.waitForScreen(READY, 60_000, 'the prompt');
//   await c.submit('hello');
//   await t.stop();
//
// Every wait is bounded and polls the screen (capture-pane): a TUI gives no other signal.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { privateTmux, tmuxPane, paneCommand } from './lib/tmux.mjs';
import { pollUntil } from './lib/wait.mjs';
import { isolationUnavailable, unixBridge, isolated } from './lib/netns.mjs';

export { isolationUnavailable };

export { after } from './lib/tmux.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const COPILOT_VERSION = '1.0.102';
// npm-loader.js (the package's bin) only spawnSyncs this platform binary (a Node SEA); running
// it directly saves a Node process in between.
export const COPILOT_BIN = path.join(here, 'node_modules', '@github', `copilot-${process.platform}-${process.arch}`, 'copilot');
// Any model name works with BYOK; this one has a known context window in copilot's catalog.
export const COPILOT_MODEL = 'gpt-4.1';
export const API_KEY = 'sk-redline-interop-not-a-secret';

/** The input box: a line starting with copilot's `❯` prompt. */
export const INPUT_LINE = /^\s*❯\s/;
/** The footer copilot shows once its prompt takes input. */
export const READY = /\/ commands · \? help/;
const STEP_MS = 60_000;

export function copilotInstalled() {
  return fs.existsSync(COPILOT_BIN);
}

/**
 * A throwaway HOME with COPILOT_HOME = HOME/.copilot (the default layout), `config.json` trusting
 * `trustedFolders` (so copilot does not open its folder-trust dialog) and `settings.json` holding
 * `settings` (e.g. `{ ide: { autoConnect: false } }`). stop() removes it. With `home` (an existing
 * dir, e.g. the HOME the Redline harness gives `redline serve`, so both see one ~/.copilot/ide/),
 * that dir is used and left to its owner.
 */
export async function copilotHome({ trustedFolders = [], settings = {}, home: given } = {}) {
  const home = given ? fs.realpathSync(given) : fs.realpathSync(await fsp.mkdtemp(path.join(os.tmpdir(), 'rl-copilot-home-')));
  const copilotDir = path.join(home, '.copilot');
  await fsp.mkdir(copilotDir, { recursive: true, mode: 0o700 });
  await fsp.writeFile(path.join(copilotDir, 'config.json'), JSON.stringify({ trustedFolders }, null, 2) + '\n');
  await fsp.writeFile(path.join(copilotDir, 'settings.json'), JSON.stringify(settings, null, 2) + '\n');
  /** Every copilot process log (`logs/process-<ms>-<pid>.log`), concatenated. */
  const logs = async () => {
    let names = [];
    try {
      names = (await fsp.readdir(path.join(copilotDir, 'logs'))).filter((n) => n.endsWith('.log')).sort();
    } catch {
      return '';
    }
    const parts = await Promise.all(names.map((n) => fsp.readFile(path.join(copilotDir, 'logs', n), 'utf8')));
    return parts.join('\n');
  };
  return {
    home,
    copilotDir,
    ideDir: path.join(copilotDir, 'ide'),
    logsDir: path.join(copilotDir, 'logs'),
    logs,
    /**
     * Polls copilot's logs until `re` matches (e.g. /Connected to IDE MCP server: Redline/, which
     * copilot writes even at its default log level); resolves with the matching line.
     */
    async waitForLog(re, timeoutMs, what) {
      return pollUntil(
        async () => {
          const line = (await logs()).split('\n').find((l) => re.test(l));
          return { ok: line !== undefined, value: line ?? `no line matching ${re}` };
        },
        timeoutMs,
        what,
      );
    },
    stop: () => (given ? Promise.resolve() : fsp.rm(home, { recursive: true, force: true })),
  };
}

/** The environment copilot runs with (complete: it goes through `env -i`). */
export function copilotEnv({ home, apiBaseURL, extra = {} }) {
  return {
    PATH: process.env.PATH,
    HOME: home.home,
    COPILOT_HOME: home.copilotDir,
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    COPILOT_OFFLINE: 'true',
    COPILOT_PROVIDER_BASE_URL: apiBaseURL,
    COPILOT_PROVIDER_TYPE: 'openai',
    COPILOT_PROVIDER_API_KEY: API_KEY,
    COPILOT_MODEL,
    COPILOT_AUTO_UPDATE: 'false',
    ...extra,
  };
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/** `roots` and every process below them (Linux /proc), read once. */
function descendants(roots) {
  const children = new Map();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat;
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    // The command name (field 2) may hold spaces and parentheses: fields resume after the last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid).push(Number(name));
  }
  const all = [];
  const queue = [...roots];
  while (queue.length) {
    const pid = queue.shift();
    all.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return all;
}

/**
 * Runs `argv` (not under tmux) in the network namespace copilot gets, with the fake API `api` at
 * 127.0.0.1:<api.port>; resolves with its stdout. To check what copilot's namespace can reach.
 */
export async function runIsolated(api, argv) {
  const bridge = await unixBridge(api.port);
  try {
    const [cmd, args] = isolated(api.port, bridge.socketPath, argv);
    return await new Promise((resolve, reject) => {
      execFile(cmd, args, { timeout: STEP_MS }, (err, stdout, stderr) => {
        if (err) {
          err.message += `\n${stderr}`;
          reject(err);
        } else resolve(stdout);
      });
    });
  } finally {
    await bridge.close();
  }
}

/** A private tmux server (its own socket in a temp dir): one window per copilot session. */
export async function startTmux({ cols = 160, rows = 50 } = {}) {
  const server = await privateTmux('redline-copilot-tmux-');
  const bridges = [];
  let started = false;
  return {
    socket: server.socket,
    /**
     * Starts `copilot ARGS` in a new window named `name`, in `cwd`, with `home` (copilotHome())
     * and exactly copilotEnv() plus `env`, in a network namespace of its own where
     * http://127.0.0.1:<api.port>/v1 is the fake API `api` and nothing else answers.
     */
    async copilot({ name, cwd, home, api, env = {}, args = ['--log-level', 'all'] }) {
      const bridge = await unixBridge(api.port);
      bridges.push(bridge);
      const fullEnv = copilotEnv({ home, apiBaseURL: api.baseURL, extra: env });
      const envArgs = Object.entries(fullEnv).map(([k, v]) => `${k}=${v}`);
      const command = isolated(api.port, bridge.socketPath, ['env', '-i', ...envArgs, COPILOT_BIN, ...args]);
      const cmd = paneCommand('copilot', { command });
      if (!started) {
        await server.tmux(['new-session', '-d', '-s', 'rl', '-n', name, '-x', String(cols), '-y', String(rows), '-c', cwd, cmd]);
        started = true;
      } else {
        await server.tmux(['new-window', '-d', '-t', 'rl', '-n', name, '-c', cwd, cmd]);
      }
      return tmuxPane(server.tmux, `rl:${name}`, { label: 'copilot', name, inputLine: INPUT_LINE });
    },
    /** Kills every copilot and waits until all their processes are gone (they write to HOME). */
    async stop() {
      let pids = [];
      if (started) {
        try {
          const panes = await server.tmux(['list-panes', '-s', '-t', 'rl', '-F', '#{pane_pid}']);
          pids = descendants(panes.split('\n').filter(Boolean).map(Number));
        } catch {
          // the server is already gone
        }
      }
      await server.stop();
      await pollUntil(
        async () => {
          const alive = pids.filter(isAlive);
          return { ok: alive.length === 0, value: alive };
        },
        20_000,
        'the copilot processes to exit',
      );
      await Promise.all(bridges.splice(0).map((b) => b.close()));
    },
  };
}

/**
 * Presses `key` until the screen satisfies `done`: a dialog can drop keys sent while it is still
 * being drawn. Each press waits up to 1 s for its effect, all of them STEP_MS at most.
 */
async function pressUntil(pane, key, done, what) {
  const match = typeof done === 'function' ? done : (s) => done.test(s);
  const deadline = Date.now() + STEP_MS;
  for (;;) {
    // Checked first: a key taken late must not be pressed again (a second Down would overshoot).
    const screen = await pane.screen();
    if (match(screen)) return screen;
    await pane.keys(key);
    try {
      return await pane.waitForScreen(done, 1000, what);
    } catch (err) {
      if (Date.now() > deadline) throw err;
    }
  }
}

const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Waits for copilot's own permission dialog for an edit of `filePath`; resolves with the screen. */
export function waitForEditPermission(pane, filePath) {
  return pane.waitForScreen(new RegExp(`Do you want to edit ${escapeRe(filePath)}\\?`), STEP_MS, `copilot to ask permission to edit ${filePath}`);
}

const dialogGone = (s) => !/Do you want to (edit|create)/.test(s);

/** Answers the open permission dialog "1. Yes" (approve once; the default choice). */
export async function approveEdit(pane) {
  await pane.waitForScreen(/❯ 1\. Yes\s/, STEP_MS, 'the dialog to have "1. Yes" selected');
  await pressUntil(pane, 'Enter', dialogGone, 'the permission dialog to take "Yes"');
}

/** Answers the open permission dialog with Esc: rejected, the turn stops, the model is not asked again. */
export async function rejectEdit(pane) {
  await pressUntil(pane, 'Escape', dialogGone, 'the permission dialog to take Esc');
}

/**
 * Answers the open permission dialog "3. No, and tell Copilot what to do differently" with
 * `feedback`: rejected, and the feedback goes back to the model in the tool result.
 */
export async function rejectEditWithFeedback(pane, feedback) {
  await pressUntil(pane, 'Down', /❯ 2\. Yes, and/, 'the dialog to select choice 2');
  await pressUntil(pane, 'Down', /❯ 3\. No/, 'the dialog to select choice 3');
  await pane.type(feedback);
  await pane.waitForScreen((s) => s.includes(feedback), STEP_MS, 'the dialog to show the feedback typed');
  await pressUntil(pane, 'Enter', dialogGone, 'the permission dialog to take the feedback');
}

/**
 * Answers copilot's first-run "Confirm folder trust" dialog (shown when the folder is in neither
 * `trustedFolders` nor a lock with `isTrusted: true`) with "1. Yes" (this session only), and waits
 * for the prompt.
 */
export async function answerFolderTrust(pane) {
  await pane.waitForScreen(/Confirm folder trust[\s\S]*❯ 1\. Yes\s/, STEP_MS, 'the folder trust dialog with "1. Yes" selected');
  await pressUntil(pane, 'Enter', (s) => !/Confirm folder trust/.test(s) && READY.test(s), 'the trust dialog to take "Yes" and the prompt');
}
