// One isolated desktop for an end-to-end test: a fresh Xvfb display, optionally `trayer` as the
// tray host, tauri-driver, and the real Redline app launched by it through a WebDriver session.
//
//   const d = await startDesktop({ workspaces: [ws], tray: false });
//   d.wd            // WebDriver session attached to the review window's webview
//   d.dirs          // {root, home, tmp, config, runtime}: what lib/gemini.mjs's clientEnv(d) needs
//   await d.json(['review', 'list', '--json']);
//   await d.stop(); // the app (redline quit), the session, tauri-driver (SIGTERM), trayer, Xvfb
//
// Isolation: HOME, TMPDIR, XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_CACHE_HOME and XDG_RUNTIME_DIR
// (0700) are fresh temp dirs; DISPLAY is the test's own Xvfb; a private D-Bus session bus with
// an unlocked gnome-keyring, as on a desktop (no StatusNotifier host on it, so the tray falls
// back to an XEmbed icon, which trayer hosts). tauri-driver launches the app with the
// environment it was started with, so the app gets exactly this environment.

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { freePort } from '../../interop/lib/port.mjs';
import { runProcess } from '../../interop/lib/redline.mjs';
import { poll } from './poll.mjs';
import { WebDriver } from './webdriver.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '..', '..', '..');


const X_TIMEOUT_MS = 15_000;
const DRIVER_TIMEOUT_MS = 15_000;
const SESSION_TIMEOUT_MS = 60_000;
const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;

/**
 * WebKitWebDriver picks the window's inspector port by binding port 0 and closing it, then starts
 * the app, which binds its own servers on port 0 too: once in a while the kernel hands the app
 * that very port, the window's inspector cannot listen, and the session never comes. Not the
 * app's fault and not a user's case (no inspector runs for users): the desktop is started again.
 */
const INSPECTOR_PORT_TAKEN = /Failed to start remote inspector server on (\S+): .*Address already in use/;
const DESKTOP_ATTEMPTS = 3;

class InspectorPortTaken extends Error {}

export function redlineBin() {
  const bin = process.env.REDLINE_BIN || path.join(repoRoot, 'target', 'debug', 'redline');
  if (!fs.existsSync(bin)) throw new Error(`redline binary not found at ${bin} (set REDLINE_BIN)`);
  return bin;
}

export function tauriDriverBin() {
  if (process.env.TAURI_DRIVER) return process.env.TAURI_DRIVER;
  const cargoBin = path.join(process.env.CARGO_HOME || path.join(os.homedir(), '.cargo'), 'bin', 'tauri-driver');
  return fs.existsSync(cargoBin) ? cargoBin : 'tauri-driver';
}

function baseEnv() {
  const env = { ...process.env };
  for (const k of Object.keys(env)) {
    if (/^(GEMINI_CLI_IDE_|QWEN_CODE_IDE_|CLAUDE_CODE_|XDG_|GTK_|GDK_|WAYLAND_)/.test(k)) delete env[k];
  }
  for (const k of ['TMP', 'TEMP', 'QWEN_HOME', 'CLAUDE_CONFIG_DIR', 'TERM_PROGRAM', 'NODE_TEST_CONTEXT',
    'DBUS_SESSION_BUS_ADDRESS', 'DISPLAY', 'XAUTHORITY', 'SESSION_MANAGER', 'DESKTOP_SESSION']) {
    delete env[k];
  }
  return env;
}

/**
 * Desktops not stopped yet. If the test process is told to stop (Ctrl+C, a runner's SIGTERM),
 * they are stopped first: Xvfb, tauri-driver and the app would otherwise outlive it.
 */
const live = new Set();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    Promise.allSettled([...live].map((stop) => stop())).finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  });
}

/** The Gemini and Qwen discovery files in a desktop's temp dirs. */
function discoveryFiles(dirs) {
  const out = [];
  for (const dir of [path.join(dirs.tmp, 'gemini', 'ide'), path.join(dirs.home, '.qwen', 'ide')]) {
    try {
      out.push(...fs.readdirSync(dir).map((n) => path.join(dir, n)));
    } catch {
      // no such dir: nothing written there
    }
  }
  return out;
}

/** A child process that is ended (signal, then SIGKILL after a bound) when the desktop stops. */
function child(cmd, args, opts) {
  const proc = spawn(cmd, args, opts);
  let output = '';
  const watchers = new Set();
  const add = (d) => {
    output += d;
    for (const w of watchers) w();
  };
  proc.stdout?.setEncoding('utf8').on('data', add);
  proc.stderr?.setEncoding('utf8').on('data', add);
  const exited = once(proc, 'exit').then(([code, signal]) => ({ code, signal }));
  proc.on('error', (err) => add(`\n${cmd}: ${err.message}`));
  return {
    proc,
    exited,
    output: () => output,
    /**
     * Resolves with the match once the output matches `re`; never, if it does not before `signal`
     * aborts (the output is then no longer read for it).
     */
    saying(re, signal) {
      return new Promise((resolve) => {
        const w = () => {
          const m = re.exec(output);
          if (m) {
            watchers.delete(w);
            resolve(m);
          }
        };
        watchers.add(w);
        signal.addEventListener('abort', () => watchers.delete(w), { once: true });
        w();
      });
    },
    running: () => proc.exitCode === null && proc.signalCode === null,
    async stop(signal = 'SIGTERM') {
      if (proc.exitCode !== null || proc.signalCode !== null || proc.pid === undefined) return exited;
      proc.kill(signal);
      const timer = setTimeout(() => proc.kill('SIGKILL'), STOP_TIMEOUT_MS);
      const res = await exited;
      clearTimeout(timer);
      return res;
    },
  };
}

/** Starts Xvfb on a free display (-displayfd) and waits until xdpyinfo can talk to it. */
async function startXvfb(env, screen) {
  const x = child('Xvfb', ['-displayfd', '3', '-screen', '0', `${screen.width}x${screen.height}x24`,
    '-nolisten', 'tcp', '-noreset'], { env, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
  let buf = '';
  const display = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Xvfb gave no display number within ${X_TIMEOUT_MS} ms\n${x.output()}`)), X_TIMEOUT_MS);
    x.proc.stdio[3].setEncoding('utf8').on('data', (d) => {
      buf += d;
      if (buf.includes('\n')) {
        clearTimeout(timer);
        resolve(`:${buf.trim()}`);
      }
    });
    x.exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`Xvfb exited (code ${code}, signal ${signal})\n${x.output()}`));
    });
  });
  await poll(async () => (await runProcess('xdpyinfo', ['-display', display], { env, timeoutMs: 5_000 })).code === 0,
    { timeoutMs: X_TIMEOUT_MS, what: `xdpyinfo -display ${display}` });
  return { ...x, display };
}

/**
 * A private session bus (dbus-daemon in the foreground, ended by SIGTERM) with gnome-keyring's
 * Secret Service unlocked on it. gnome-keyring-daemon forks away, and exits with the bus.
 */
async function startSessionBus(env) {
  const bus = child('dbus-daemon', ['--session', '--nofork', '--nopidfile', '--print-address=1'],
    { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const address = await poll(() => {
    if (!bus.running()) throw new Error(`dbus-daemon exited\n${bus.output()}`);
    return bus.output().split('\n').find((l) => l.startsWith('unix:')) ?? null;
  }, { timeoutMs: X_TIMEOUT_MS, what: 'the D-Bus session address' });
  const busEnv = { ...env, DBUS_SESSION_BUS_ADDRESS: address.trim() };
  const keyring = await runProcess('gnome-keyring-daemon', ['--unlock', '--components=secrets'],
    { env: busEnv, input: 'redline-e2e', timeoutMs: X_TIMEOUT_MS });
  if (keyring.code !== 0) throw new Error(`gnome-keyring-daemon --unlock: exit ${keyring.code}\n${keyring.stderr}`);
  return { ...bus, address: address.trim() };
}

/** The ids of the X windows an `xdotool search` finds (e.g. ['--onlyvisible', '--class', 'trayer']). */
export async function xWindows(env, args) {
  const res = await runProcess('xdotool', ['search', ...args], { env, timeoutMs: 5_000 });
  return res.stdout.split('\n').map((s) => s.trim()).filter(Boolean);
}

/**
 * `webdriver: false` launches the app itself, as a user's session does (no WebDriver session, so
 * no window made at start: what the window's own timing does is seen); `d.wd` is then absent.
 * `firstLaunch: true` leaves the config empty, so the app welcomes the user with its window;
 * otherwise the config says the welcome was shown, as after a user's first launch.
 */
export async function startDesktop(opts = {}) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startDesktopOnce(opts);
    } catch (err) {
      if (!(err instanceof InspectorPortTaken) || attempt === DESKTOP_ATTEMPTS) throw err;
      (opts.log ?? (() => {}))(`${err.message}; the desktop is started again (attempt ${attempt + 1})`);
    }
  }
}

/** `bin`: the program the session launches as the app (a test's wrapper of redline). */
async function startDesktopOnce({
  workspaces = [], env: extra = {}, tray = false, screen = { width: 1600, height: 1000 }, log = () => {},
  webdriver = true, firstLaunch = false, bin = redlineBin(),
} = {}) {
  const root = await fsp.mkdtemp(path.join(os.tmpdir(), 'redline-e2e-'));
  const dirs = { root };
  for (const name of ['home', 'tmp', 'config', 'runtime']) dirs[name] = await fsp.mkdtemp(path.join(root, `${name}-`));
  await fsp.chmod(dirs.runtime, 0o700);
  if (!firstLaunch) {
    await fsp.mkdir(path.join(dirs.config, 'redline'), { recursive: true });
    await fsp.writeFile(path.join(dirs.config, 'redline', 'config.json'), '{"welcomed":true}\n', { mode: 0o600 });
  }

  const env = Object.assign(baseEnv(), {
    HOME: dirs.home,
    TMPDIR: dirs.tmp,
    XDG_CONFIG_HOME: dirs.config,
    XDG_DATA_HOME: path.join(dirs.home, '.local', 'share'),
    XDG_CACHE_HOME: path.join(dirs.home, '.cache'),
    XDG_RUNTIME_DIR: dirs.runtime,
    REMOTE_CONTAINERS: '1',
    GDK_BACKEND: 'x11',
    // No accessibility bridge: nothing listens.
    NO_AT_BRIDGE: '1',
  });
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined || v === null) delete env[k];
    else env[k] = String(v);
  }

  const parts = []; // what to stop, in reverse order
  const run = (args, opts = {}) => runProcess(bin, args, { env, timeoutMs: 30_000, ...opts });
  const state = { stopped: false };
  let wd;
  let driver;
  let app;

  /**
   * Stops everything, in reverse order of start. Throws (after stopping all) when the app did
   * not quit cleanly: `redline quit` must end it and remove its discovery files.
   */
  async function stop() {
    if (state.stopped) return;
    state.stopped = true;
    live.delete(stop);
    const problems = [];
    if (driver || app) {
      const quit = await run(['quit'], { timeoutMs: 10_000 }).catch((err) => ({ code: -1, stderr: err.message }));
      if (quit.code !== 0 && !/no running Redline/.test(quit.stderr)) problems.push(`redline quit: exit ${quit.code} ${quit.stderr}`);
      const gone = () => {
        try {
          process.kill(state.appPid, 0);
          return false;
        } catch {
          return true;
        }
      };
      if (state.appPid) {
        await poll(gone, { timeoutMs: STOP_TIMEOUT_MS, what: `the app (pid ${state.appPid}) to exit after redline quit` })
          .catch(async (err) => {
            problems.push(err.message);
            process.kill(state.appPid, 'SIGTERM');
            await poll(gone, { timeoutMs: STOP_TIMEOUT_MS, what: 'the app to exit on SIGTERM' })
              .catch(() => process.kill(state.appPid, 'SIGKILL'));
          });
        const left = discoveryFiles(dirs);
        if (left.length) problems.push(`discovery files left after quit: ${left.join(', ')}`);
      }
      // A panic in a task ends that task only, and the app carries on without it: the scenario
      // may still pass, so every one fails on it here (debug builds assert GTK's thread, too).
      const panic = /^.*panicked at.*$/m.exec(state.output?.().replace(/\x1b\[[0-9;]*m/g, '') ?? '');
      if (panic) problems.push(`the app panicked: ${panic[0]}`);
      await wd?.deleteSession().catch(() => {});
    }
    for (const p of parts.reverse()) {
      // SIGTERM, never SIGKILL first: a killed tauri-driver leaves WebKitWebDriver running.
      const res = await p.stop('SIGTERM');
      if (res.signal === 'SIGKILL') problems.push(`${p.name} needed SIGKILL`);
    }
    await fsp.rm(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }).catch(() => {});
    if (problems.length) throw new Error(`desktop stop: ${problems.join('; ')}`);
  }

  live.add(stop);
  try {
    const x = await startXvfb(env, screen);
    parts.push({ name: 'Xvfb', ...x });
    env.DISPLAY = x.display;

    const bus = await startSessionBus(env);
    parts.push({ name: 'dbus-daemon', ...bus });
    env.DBUS_SESSION_BUS_ADDRESS = bus.address;

    if (tray) {
      // A dark top bar across the screen, icons on the right, as on many desktops.
      const tr = child('trayer', ['--edge', 'top', '--align', 'right', '--widthtype', 'percent', '--width', '100', '--height', '32',
        '--SetDockType', 'true', '--SetPartialStrut', 'false', '--transparent', 'true', '--alpha', '0', '--tint', '0x2b2b2b',
        '--expand', 'true', '--padding', '4'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      parts.push({ name: 'trayer', ...tr });
      // trayer owns the XEmbed tray selection once its panel window is mapped.
      await poll(async () => (await xWindows(env, ['--onlyvisible', '--class', 'trayer'])).length > 0,
        { timeoutMs: X_TIMEOUT_MS, what: 'the trayer panel' });
    }

    for (const ws of workspaces) {
      const res = await run(['workspace', 'add', ws]);
      if (res.code !== 0) throw new Error(`redline workspace add ${ws}: exit ${res.code}\n${res.stderr}`);
    }

    let output;
    if (webdriver) {
      const port = await freePort();
      const nativePort = await freePort();
      const td = child(tauriDriverBin(), ['--port', String(port), '--native-port', String(nativePort)],
        { env, stdio: ['ignore', 'pipe', 'pipe'] });
      parts.push({ name: 'tauri-driver', ...td });
      driver = td;
      output = td.output;
      wd = new WebDriver(`http://127.0.0.1:${port}`, { log });
      await poll(async () => td.running() && (await wd.status()), { timeoutMs: DRIVER_TIMEOUT_MS, what: 'tauri-driver /status' })
        .catch((err) => { throw new Error(`${err.message}\n${td.output()}`); });
      const session = wd.newSession({ 'tauri:options': { application: bin, args: ['--foreground'] } }, { timeoutMs: SESSION_TIMEOUT_MS })
        .catch((err) => { throw new Error(`${err.message}\n${td.output()}`); });
      const asked = new AbortController();
      const taken = td.saying(INSPECTOR_PORT_TAKEN, asked.signal).then(([, at]) => {
        throw new InspectorPortTaken(`the window's inspector port ${at} was taken before the window could listen on it`);
      });
      session.catch(() => {}); // the race below reports whichever comes first
      await Promise.race([session, taken]).finally(() => asked.abort());
    } else {
      // In the foreground: its log is read here, and it is the process stopped at the end.
      app = child(bin, ['--foreground'], { env: { RUST_LOG: 'info,rmcp=warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      output = app.output;
    }
    state.output = output;

    // The app is up once its control socket answers and every workspace is served.
    const status = await poll(async () => {
      const res = await run(['status', '--json'], { timeoutMs: 5_000 });
      if (res.code !== 0) return null;
      const s = JSON.parse(res.stdout);
      return s.workspaces.length === workspaces.length && s.workspaces.every((w) => w.port && w.discoveryFiles.length) ? s : null;
    }, { timeoutMs: READY_TIMEOUT_MS, what: 'redline status: every workspace served' });
    state.appPid = status.pid;
    // The page has subscribed to the backend's events once its layout is in the DOM and the
    // first reviews_list answered (the empty state is shown then).
    if (wd) await wd.until(() => wd.execute("return !!document.querySelector('.review[hidden]') && !document.querySelector('.empty').hidden"),
      { timeoutMs: READY_TIMEOUT_MS, what: 'the review page to start' });

    return {
      bin,
      env,
      dirs,
      appPid: () => state.appPid,
      display: x.display,
      wd,
      pid: status.pid,
      status,
      run,
      async json(args) {
        const res = await run(args);
        if (res.code !== 0) throw new Error(`redline ${args.join(' ')}: exit ${res.code}\n${res.stderr}`);
        return JSON.parse(res.stdout);
      },
      /** Runs an X11 tool (xdotool, xwininfo, import…) on this display. */
      x: (cmd, args, opts = {}) => runProcess(cmd, args, { env, timeoutMs: 15_000, ...opts }),
      driverOutput: () => output(),
      stop,
    };
  } catch (err) {
    await stop().catch((stopErr) => log(stopErr.message));
    throw err;
  }
}
