// Test harness: runs an isolated `redline serve --headless` and the `redline` CLI against it.
//
//   const r = await startRedline({ workspaces: ['/abs/ws'], env: { QWEN_HOME: '...' } });
//   r.port(ws); r.token(ws); r.discoveryFile(ws);
//   const { code, stdout, stderr } = await r.run(['review', 'list', '--json']);
//   await r.stop();   // ends serve, then deletes the temp dirs: end clients that use them first
//
// Isolation: HOME, TMPDIR, XDG_CONFIG_HOME and XDG_RUNTIME_DIR (0700) are fresh temp dirs, TMP/TEMP
// and every GEMINI_CLI_IDE_* / QWEN_CODE_IDE_* variable are removed from the inherited environment.
// `env` entries override (a value of `undefined` removes the variable).
// The binary is $REDLINE_BIN, else <repo>/target/debug/redline.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '..', '..', '..');
export const defaultBin = path.join(repoRoot, 'target', 'debug', 'redline');

const READY_TIMEOUT_MS = 30_000;
const RUN_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;

export const GEMINI_FILE_RE = /^gemini-ide-server-(\d+)-(\d+)\.json$/;

/** Environment variables that would pin a client or server to something outside the test. */
function scrubbedEnv() {
  const env = { ...process.env };
  for (const k of Object.keys(env)) {
    if (/^(GEMINI_CLI_IDE_|QWEN_CODE_IDE_|CLAUDE_CODE_)/.test(k)) delete env[k];
  }
  for (const k of ['TMP', 'TEMP', 'QWEN_HOME', 'CLAUDE_CONFIG_DIR', 'TERM_PROGRAM', 'NODE_TEST_CONTEXT']) {
    delete env[k];
  }
  return env;
}

function applyOverrides(env, overrides = {}) {
  for (const [k, v] of Object.entries(overrides)) {
    if (v === undefined || v === null) delete env[k];
    else env[k] = String(v);
  }
  return env;
}

/** Run a command to completion with a bounded timeout. Resolves {code, signal, stdout, stderr}. */
export function runProcess(cmd, args, { env, cwd, input, timeoutMs = RUN_TIMEOUT_MS } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (timedOut) {
        reject(new Error(`${cmd} ${args.join(' ')}: killed after ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
      } else {
        resolve({ code, signal, stdout, stderr });
      }
    });
    child.stdin.on('error', () => {});
    child.stdin.end(input ?? '');
  });
}

function realpathOr(p) {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/** `redline ARGS` run with `r.run` that must succeed; resolves with its stdout. */
export async function ok(r, args, opts) {
  const res = await r.run(args, opts);
  assert.equal(res.code, 0, `redline ${args.join(' ')} exited ${res.code}\nstdout: ${res.stdout}\nstderr: ${res.stderr}`);
  return res.stdout;
}

export async function startRedline({ workspaces = [], env: envOverrides = {}, readyTimeoutMs = READY_TIMEOUT_MS } = {}) {
  const bin = process.env.REDLINE_BIN || defaultBin;
  if (!fs.existsSync(bin)) throw new Error(`redline binary not found at ${bin} (set REDLINE_BIN)`);

  const root = await fsp.mkdtemp(path.join(os.tmpdir(), 'redline-it-'));
  const dirs = {
    root,
    home: await fsp.mkdtemp(path.join(root, 'home-')),
    tmp: await fsp.mkdtemp(path.join(root, 'tmp-')),
    config: await fsp.mkdtemp(path.join(root, 'config-')),
    runtime: await fsp.mkdtemp(path.join(root, 'runtime-')),
  };
  await fsp.chmod(dirs.runtime, 0o700);

  const env = applyOverrides(
    Object.assign(scrubbedEnv(), {
      HOME: dirs.home,
      TMPDIR: dirs.tmp,
      XDG_CONFIG_HOME: dirs.config,
      XDG_RUNTIME_DIR: dirs.runtime,
    }),
    envOverrides,
  );

  const run = (args, opts = {}) => runProcess(bin, args, { env, ...opts });

  let child;
  let stderrText = '';
  let exited = false;
  let exitInfo;
  let exitPromise;

  // Retries: a client sharing HOME/TMPDIR may still be writing there while it exits.
  const removeDirs = () => fsp.rm(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }).catch(() => {});

  async function stop() {
    if (child && !exited) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exitPromise;
      clearTimeout(timer);
    }
    await removeDirs();
    return exitInfo;
  }

  try {
    for (const ws of workspaces) {
      const res = await run(['workspace', 'add', ws]);
      if (res.code !== 0) {
        throw new Error(`redline workspace add ${ws} exited ${res.code}\nstdout: ${res.stdout}\nstderr: ${res.stderr}`);
      }
    }

    child = spawn(bin, ['serve', '--headless'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    exitPromise = once(child, 'exit').then(([code, signal]) => {
      exited = true;
      exitInfo = { code, signal };
      return exitInfo;
    });
    child.stderr.setEncoding('utf8').on('data', (d) => {
      stderrText += d;
      if (process.env.REDLINE_IT_VERBOSE) process.stderr.write(`[redline ${child.pid}] ${d}`);
    });
    const lines = readline.createInterface({ input: child.stdout });
    const stdoutLines = [];

    await new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`redline serve did not print "ready" within ${readyTimeoutMs} ms\nstdout: ${stdoutLines.join('\n')}\nstderr: ${stderrText}`)),
        readyTimeoutMs,
      );
      lines.on('line', (line) => {
        stdoutLines.push(line);
        if (line.trim() === 'ready') {
          clearTimeout(timer);
          resolve();
        }
      });
      child.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      exitPromise.then(({ code, signal }) => {
        clearTimeout(timer);
        reject(new Error(`redline serve exited (code ${code}, signal ${signal}) before "ready"\nstdout: ${stdoutLines.join('\n')}\nstderr: ${stderrText}`));
      });
    });
  } catch (err) {
    await stop();
    throw err;
  }

  const geminiDir = path.join(dirs.tmp, 'gemini', 'ide');

  /** Discovery file path for a workspace: a gemini-ide-server-*.json whose workspacePath lists it. */
  function discoveryFile(wsPath) {
    const want = realpathOr(wsPath);
    let names = [];
    try {
      names = fs.readdirSync(geminiDir).filter((n) => GEMINI_FILE_RE.test(n));
    } catch {
      names = [];
    }
    // Prefer files named with the server's own PID.
    names.sort((a, b) => Number(b.includes(`-${child.pid}-`)) - Number(a.includes(`-${child.pid}-`)));
    for (const name of names) {
      const file = path.join(geminiDir, name);
      let data;
      try {
        data = JSON.parse(fs.readFileSync(file, 'utf8'));
      } catch {
        continue;
      }
      const roots = String(data.workspacePath ?? '').split(path.delimiter).filter(Boolean).map(realpathOr);
      if (roots.includes(want)) return file;
    }
    throw new Error(`no Gemini discovery file in ${geminiDir} lists workspace ${want} (files: ${names.join(', ') || 'none'})`);
  }

  function readDiscovery(wsPath) {
    return JSON.parse(fs.readFileSync(discoveryFile(wsPath), 'utf8'));
  }

  return {
    bin,
    env,
    dirs,
    get pid() {
      return child.pid;
    },
    process: child,
    stderr: () => stderrText,
    /** Resolves {code, signal} when `redline serve` exits (for whatever reason). */
    waitExit: () => exitPromise,
    port: (wsPath) => readDiscovery(wsPath).port,
    token: (wsPath) => readDiscovery(wsPath).authToken,
    discoveryFile,
    readDiscovery,
    run,
    /** `redline ARGS...` expected to succeed with JSON on stdout. */
    async json(args, opts) {
      const res = await run(args, opts);
      if (res.code !== 0) {
        throw new Error(`redline ${args.join(' ')} exited ${res.code}\nstdout: ${res.stdout}\nstderr: ${res.stderr}`);
      }
      try {
        return JSON.parse(res.stdout);
      } catch (err) {
        throw new Error(`redline ${args.join(' ')}: stdout is not JSON (${err.message}): ${JSON.stringify(res.stdout)}`);
      }
    },
    stop,
  };
}
