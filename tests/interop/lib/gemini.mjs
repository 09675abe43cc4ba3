// Parent side of lib/gemini-driver.mjs: one real Gemini CLI IdeClient in its own Node process.
//
//   const g = await startGeminiClient({ cwd: wsSubdir, env: clientEnv(r) });
//   const { state } = await g.connect();
//   const diff = g.openDiff(filePath, text);   // diff.result: promise of the IdeClient result
//   await g.close();

import { fork, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const DRIVER = path.join(here, 'gemini-driver.mjs');
const REQUEST_TIMEOUT_MS = 30_000;
const START_TIMEOUT_MS = 30_000;

/**
 * The environment of a Gemini CLI in a plain terminal, isolated like the Redline instance `r`:
 * same HOME / TMPDIR / XDG dirs, REMOTE_CONTAINERS=1 (these machines have /.dockerenv), no
 * GEMINI_CLI_IDE_* variables and no IDE terminal markers. `extra` entries override (undefined
 * removes).
 */
export function clientEnv(r, extra = {}) {
  const env = {
    PATH: process.env.PATH,
    HOME: r.dirs.home,
    TMPDIR: r.dirs.tmp,
    XDG_CONFIG_HOME: r.dirs.config,
    XDG_RUNTIME_DIR: r.dirs.runtime,
    REMOTE_CONTAINERS: '1',
    NO_COLOR: '1',
  };
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined || v === null) delete env[k];
    else env[k] = String(v);
  }
  return env;
}

/** The driver script, for a caller that starts it its own way (`wrap`). */
export const GEMINI_DRIVER = DRIVER;

/**
 * `wrap(nodeArgv)` returns the [cmd, args] that run the driver some other way (in a simulated
 * container); the IPC channel stays fd 3 and `env` is then the wrapper's.
 */
export async function startGeminiClient({ cwd, env, name = 'gemini', wrap }) {
  const child = wrap
    ? spawn(...wrap([process.execPath, DRIVER]), { env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] })
    : fork(DRIVER, [], {
        cwd,
        env,
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
        // No inherited --test flags etc.
        execArgv: [],
      });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (output += d));
  child.stderr.setEncoding('utf8').on('data', (d) => (output += d));

  const pending = new Map();
  const events = [];
  const waiters = new Set();
  let nextId = 1;

  let exited = false;
  const exitPromise = once(child, 'exit').then(([code, signal]) => {
    exited = true;
    const err = new Error(`${name} driver exited (code ${code}, signal ${signal})\n${output}`);
    for (const { reject } of pending.values()) reject(err);
    pending.clear();
    for (const w of waiters) w.reject(err);
    waiters.clear();
    return { code, signal };
  });

  child.on('message', (msg) => {
    if (msg && msg.id !== undefined && pending.has(msg.id)) {
      const p = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.ok) p.resolve(msg.value);
      else p.reject(new Error(`${name}: ${p.cmd} failed: ${msg.error}`));
      return;
    }
    if (msg && msg.event) {
      events.push(msg);
      for (const w of [...waiters]) {
        if (w.pred(msg)) {
          waiters.delete(w);
          clearTimeout(w.timer);
          w.resolve(msg);
        }
      }
    }
  });

  /** Resolves with the first event (past or future) matching pred. */
  function waitEvent(pred, { timeoutMs = REQUEST_TIMEOUT_MS, what = 'event', from = 0 } = {}) {
    const seen = events.slice(from).find(pred);
    if (seen) return Promise.resolve(seen);
    if (exited) return Promise.reject(new Error(`${name} driver already exited while waiting for ${what}\n${output}`));
    return new Promise((resolve, reject) => {
      const w = { pred, resolve, reject };
      w.timer = setTimeout(() => {
        waiters.delete(w);
        reject(new Error(`${name}: no ${what} within ${timeoutMs} ms\nevents: ${JSON.stringify(events)}\ndriver output:\n${output}`));
      }, timeoutMs);
      waiters.add(w);
    });
  }

  function request(cmd, args = {}, { timeoutMs = REQUEST_TIMEOUT_MS } = {}) {
    if (exited) return Promise.reject(new Error(`${name} driver has exited\n${output}`));
    const id = nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`${name}: ${cmd} got no answer within ${timeoutMs} ms\ndriver output:\n${output}`));
      }, timeoutMs);
      pending.set(id, {
        cmd,
        resolve: (v) => (clearTimeout(timer), resolve(v)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      });
      child.send({ id, cmd, ...args });
    });
  }

  await waitEvent((e) => e.event === 'started', { timeoutMs: START_TIMEOUT_MS, what: 'driver start' });

  let diffSeq = 0;
  return {
    pid: child.pid,
    events,
    output: () => output,
    waitEvent,
    request,
    info: () => request('info'),
    connect: () => request('connect'),
    status: () => request('status'),
    disconnect: () => request('disconnect'),
    /** HTTP requests the client made so far: [{method, path, lastEventId}]. */
    httpRequests: () => request('httpRequests'),
    /** Notifications received so far (optionally only those after index `from` of events). */
    notifications: (from = 0) => events.slice(from).filter((e) => e.event === 'notification'),
    /**
     * Calls IdeClient.openDiff. Returns {diffId, started, result} where `started` resolves once the
     * driver has issued the call and `result` resolves with the IdeClient's outcome
     * ({status, content}) or rejects with the error the IdeClient surfaced.
     */
    openDiff(filePath, content, { timeoutMs = 60_000 } = {}) {
      const diffId = ++diffSeq;
      const started = request('openDiff', { diffId, filePath, content });
      const result = started.then(() =>
        waitEvent((e) => (e.event === 'diffResult' || e.event === 'diffError') && e.diffId === diffId, {
          timeoutMs,
          what: `openDiff #${diffId} outcome for ${filePath}`,
        }).then((e) => {
          if (e.event === 'diffError') throw Object.assign(new Error(e.error), { ideClientError: e.error });
          return e.result;
        }),
      );
      // Avoid unhandled-rejection noise if a test only inspects `started`.
      result.catch(() => {});
      return { diffId, started, result };
    },
    resolveDiffFromCli: (filePath, outcome) => request('resolveDiffFromCli', { filePath, outcome }),
    async close() {
      if (exited) return;
      if (child.connected) child.disconnect();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exitPromise;
      clearTimeout(timer);
    },
  };
}
