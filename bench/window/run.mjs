// Benchmark of the desktop app: openDiff → review visible and painted, for the first review after
// a CLI connects (the window was prepared hidden meanwhile), the truly cold one (the window was
// released after the idle spell while the CLI stayed connected), warm ones (a 300-line file and a
// 5,000-line file with 200 changes), a whole turn's review of 200 files and 20,000 changed lines
// (Codex's end-of-turn hook → its file list and first file painted, on the warm window), and the
// memory (PSS and RSS) of all the app's processes.
// Runs the real app under its own Xvfb display in temp dirs, `--launches` times; prints markdown,
// with the CPU time each process spent per warm review. With `--vs-bin`, a baseline build is
// launched as many times, the two taking turns launch by launch, and their medians are compared.
//
// Then the cost of one command (`redline review list`, `redline review reject`: wall and CPU time
// per call), against a `serve --headless` of the same build, alternating with the baseline.
//
//   node bench/window/run.mjs [--bin target/release/redline] [--launches 5] [--warm 10] [--big 5]
//     [--turns 5] [--cli-runs 20] [--vs-bin OLD_BUILD/redline]
//     [--out FILE] [--readme README.md]   (--readme rewrites the figures between its bench-window markers)
import { spawn, execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, mkdirSync, writeFileSync, readFileSync, readdirSync, chmodSync, existsSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';

import { measureCalls, proposer } from './cli.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const repo = resolve(new URL('../..', import.meta.url).pathname);
const bin = resolve(opt('bin', join(repo, 'target/release/redline')));
const launches = Number(opt('launches', '5'));
const warmRuns = Number(opt('warm', '10'));
const bigRuns = Number(opt('big', '5'));
const turnRuns = Number(opt('turns', '5'));
const cliRuns = Number(opt('cli-runs', '20'));
const vsBin = opt('vs-bin', null);
const out = opt('out', null);
const readme = opt('readme', null);
// How long a CLI works between connecting and its first openDiff, at the least: here, until the
// prepared page has loaded, then this much more (real CLIs take seconds: a model answers first).
const THINK_MS = 500;
const IDLE_SECS = 5;

/** A path as a committed report prints it: relative to the repository, never this machine's. */
function shown(p) {
  const r = relative(repo, p);
  if (!r.startsWith('..')) return r;
  const target = process.env.CARGO_TARGET_DIR;
  if (target && !relative(target, p).startsWith('..')) return join('$CARGO_TARGET_DIR', relative(target, p));
  return p.split('/').pop();
}

const root = mkdtempSync(join(tmpdir(), 'redline-bench-window-'));
const dirs = Object.fromEntries(['home', 'tmp', 'config', 'run', 'ws'].map((d) => [d, join(root, d)]));
for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
chmodSync(dirs.run, 0o700);
const display = `:${100 + (process.pid % 800)}`;
const env = {
  PATH: process.env.PATH, HOME: dirs.home, TMPDIR: dirs.tmp, XDG_CONFIG_HOME: dirs.config,
  XDG_RUNTIME_DIR: dirs.run, DISPLAY: display, RUST_LOG: 'info,rmcp=warn',
  REDLINE_WINDOW_IDLE_SECS: String(IDLE_SECS), NO_AT_BRIDGE: '1',
  // Experiments: more variables for the app, e.g. BENCH_APP_ENV='{"GDK_GL":"disable"}'.
  ...JSON.parse(process.env.BENCH_APP_ENV ?? '{}'),
};
// The build under test at the moment: launches alternate between `--bin` and `--vs-bin`, so a
// drift in the machine's speed touches both.
let appBin = bin;
const run = (...a) => execFileSync(appBin, a, { env, encoding: 'utf8' });
const children = [];
const cleanup = () => { for (const c of children) try { c.kill('SIGTERM'); } catch {} };
process.on('exit', cleanup);

// A realistic file: 300 lines of Rust, and a proposal that changes a few of them.
const rustFile = (n) => Array.from({ length: n }, (_, i) =>
  i % 10 === 0 ? `fn item_${i}() -> u32 {` : i % 10 === 9 ? '}' : `    let v${i} = ${i} * 2; // work`).join('\n') + '\n';
const small = rustFile(300);
const smallProposal = small.replace('let v12 = 12 * 2;', 'let v12 = 12 * 3;').replace('fn item_150()', 'fn item_150_renamed()');
// 5,000 lines, 200 changes spread through it (every 25th line).
const big = rustFile(5000);
const bigProposal = big.split('\n').map((l, i) => (i % 25 === 12 ? l.replace('* 2', '* 7') : l)).join('\n');
writeFileSync(join(dirs.ws, 'lib.rs'), small);
writeFileSync(join(dirs.ws, 'big.rs'), big);
// A whole turn: 200 files of 200 lines in 10 folders (there from the start, as a project's are);
// the turn changes 100 lines of each, in blocks of 5 (20 hunks a file): 20,000 in all.
const TURN_FILES = 200;
const turnPath = (i) => join(dirs.ws, 'turn', `m${i % 10}`, `f${String(i).padStart(3, '0')}.rs`);
const turnStart = rustFile(200);
const turnEnd = turnStart.split('\n').map((l, i) => (i % 10 >= 2 && i % 10 <= 6 ? `${l} // turn` : l)).join('\n');
const turnChanged = turnStart.split('\n').filter((l, i) => (i % 10 >= 2 && i % 10 <= 6 && i < 200)).length * TURN_FILES;
const writeTurn = (text) => {
  for (let i = 0; i < TURN_FILES; i++) {
    mkdirSync(join(turnPath(i), '..'), { recursive: true });
    writeFileSync(turnPath(i), text);
  }
};
writeTurn(turnStart);

async function until(what, check, ms = 30000) {
  if (process.env.BENCH_TRACE) console.error(`waiting: ${what}`);
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
const pause = (ms) => new Promise((r) => setTimeout(r, ms));

/** `redline hook codex ARGS` as Codex runs it in the workspace, `input` on its stdin; `done`:
 * its exit code and output. */
function codexHook(hookArgs, input) {
  const child = spawn(appBin, ['hook', 'codex', ...hookArgs], { cwd: dirs.ws, env, stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  let stdout = '', stderr = '';
  child.stdout.on('data', (b) => (stdout += b));
  child.stderr.on('data', (b) => (stderr += b));
  child.stdin.end(JSON.stringify({ session_id: 'bench', transcript_path: null, model: 'gpt-5.5',
    permission_mode: 'default', cwd: dirs.ws, ...input }));
  return new Promise((res) => child.on('close', (code) => res({ code, stdout, stderr })));
}

/** The build has the prompt hook that checkpoints a turn (a baseline from before issue 39 has not). */
const hasTurns = (b) => execFileSync(b, ['hook', '--help'], { env, encoding: 'utf8' }).includes('--turn-start');

function windowVisible() {
  try {
    return execFileSync('xdotool', ['search', '--onlyvisible', '--name', '^Redline — review'], { env, encoding: 'utf8' }).trim() !== '';
  } catch { return false; }
}

/** `pid` and every process below it. */
function tree(pid) {
  const pids = [];
  const walk = (p) => {
    pids.push(p);
    let tasks = [];
    try { tasks = readdirSync(`/proc/${p}/task`); } catch { return; }
    for (const t of tasks) {
      let kids = '';
      try { kids = readFileSync(`/proc/${p}/task/${t}/children`, 'utf8').trim(); } catch { continue; }
      for (const k of kids ? kids.split(/\s+/) : []) walk(Number(k));
    }
  };
  walk(pid);
  return pids;
}

/** RSS and PSS (MiB) summed over the app and every process below it (WebKit's included). */
function memory(pid) {
  const pids = tree(pid);
  let rss = 0, pss = 0;
  const names = [];
  const byProcess = {};
  for (const p of pids) {
    let status, rollup;
    try {
      status = readFileSync(`/proc/${p}/status`, 'utf8');
      rollup = readFileSync(`/proc/${p}/smaps_rollup`, 'utf8');
    } catch { continue; } // it ended while we looked
    rss += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    pss += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
    const name = /Name:\s+(\S+)/.exec(status)?.[1];
    names.push(name);
    byProcess[name] = (byProcess[name] ?? 0) + Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0) / 1024;
  }
  return { rss: rss / 1024, pss: pss / 1024, processes: names, byProcess };
}

/** CPU time (ms, user + system) by process name: the app and every process below it, Xvfb, trayer. */
const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
const displayPids = [];
function cpu(pid) {
  const pids = tree(pid);
  const byProcess = {};
  for (const p of [...pids, ...displayPids]) {
    let stat;
    try { stat = readFileSync(`/proc/${p}/stat`, 'utf8'); } catch { continue; }
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    byProcess[name] = (byProcess[name] ?? 0) + (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  }
  return byProcess;
}

/** Starts the app, hands `onLine` each line of its log (colours stripped), waits for its status. */
// The app's last log lines, for the error when a launch fails.
const logTail = [];

/** `--foreground` where the build has it (a baseline from before it stays there anyway): the app
 * must stay our child, logging to us. */
const foregroundArgs = (b) => (execFileSync(b, ['--help'], { env, encoding: 'utf8' }).includes('--foreground') ? ['--foreground'] : []);

async function startApp(onLine) {
  const app = spawn(appBin, foregroundArgs(appBin), { env, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(app);
  logTail.length = 0;
  createInterface({ input: app.stderr }).on('line', (raw) => {
    const line = raw.replace(/\x1b\[[0-9;]*m/g, '');
    logTail.push(line);
    if (logTail.length > 40) logTail.shift();
    // Tracing: every line of the app's log, stamped with the bench's clock, in that file.
    if (process.env.BENCH_LOG) appendFileSync(process.env.BENCH_LOG, `${performance.now().toFixed(1)} ${line}\n`);
    onLine(line);
  });
  const status = await until('the app', () => { try { return JSON.parse(run('status', '--json')); } catch { return null; } });
  return { app, status };
}

async function quitApp(app) {
  run('quit');
  await new Promise((res) => (app.exitCode !== null ? res() : app.on('exit', res)));
}

/** One launch of the app: every figure once (warm ones `warmRuns`/`bigRuns` times). */
async function launch(n) {
  const shownAt = new Map();
  const waiters = new Map();
  const seen = { loaded: 0, released: 0, madeMs: [], loadedMs: [] };
  const { app, status } = await startApp((line) => {
    if (line.includes('review window loaded')) seen.loaded += 1;
    const made = /review window made ms=(\d+)/.exec(line);
    if (made) seen.madeMs.push(Number(made[1]));
    const loaded = /review window loaded ms=(\d+)/.exec(line);
    if (loaded) seen.loadedMs.push(Number(loaded[1]));
    if (line.includes('review window idle:')) seen.released += 1;
    // A whole turn's steps, in the core: its end checkpointed, its review opened.
    if (/turn \d+ ended/.test(line)) seen.turnEnded = performance.now();
    if (/turn \d+ in .*file\(s\) to review/.test(line)) seen.turnOpened = performance.now();
    const m = /review shown review=(\d+)/.exec(line);
    if (!m) return;
    const id = Number(m[1]);
    shownAt.set(id, performance.now());
    waiters.get(id)?.();
  });
  const ws = status.workspaces[0];
  const disc = JSON.parse(readFileSync(ws.discoveryFiles[0], 'utf8'));
  const url = `http://127.0.0.1:${disc.port}/mcp`;
  const headers = {
    authorization: `Bearer ${disc.authToken}`, accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
  };
  const r = {};

  // Idle: servers and the tray, no CLI, no window.
  await pause(3000);
  r.idle = memory(app.pid);
  if (r.idle.processes.length !== 1) throw new Error(`a window before any CLI: ${r.idle.processes}`);

  // A CLI connects: the window is prepared hidden while it thinks.
  const init = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } }) });
  headers['mcp-session-id'] = init.headers.get('mcp-session-id');
  headers['mcp-protocol-version'] = '2025-06-18';
  await init.text();
  await (await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();
  await until('the prepared window to load', () => seen.loaded >= 1);
  await pause(THINK_MS);
  if (windowVisible()) throw new Error('the prepared window is visible before any review');
  r.prepared = memory(app.pid);

  let id = 0;
  let rpc = 0;
  /** openDiff → painted, in ms; the review is rejected and the window hidden again after. */
  const review = async (file, content, atShown) => {
    await until('the window to hide', () => !windowVisible());
    const t0 = performance.now();
    const resp = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: ++rpc,
      method: 'tools/call', params: { name: 'openDiff', arguments: { filePath: join(dirs.ws, file), newContent: content } } }) });
    await resp.text();
    const mine = ++id;
    try {
      await until(`review ${mine} painted`, () => shownAt.has(mine));
    } catch (e) {
      throw new Error(`${e.message} (the window is ${windowVisible() ? 'visible' : 'hidden'})`);
    }
    const dt = shownAt.get(mine) - t0;
    if (atShown) atShown();
    run('review', 'reject', String(mine));
    return dt;
  };

  /**
   * A whole turn's review, warm: the prompt hook checkpoints the workspace (the 200 files as at
   * the start), the turn changes them all, then the end-of-turn hook → the review's file list and
   * first file painted (the page reports a whole turn's review once both are drawn), in ms. The
   * review is answered Done (the hook ends) and the files go back to the start's text.
   */
  const turnReview = async (turn, mine) => {
    await until('the window to hide', () => !windowVisible());
    writeTurn(turnStart);
    const begun = await codexHook(['--turn-start'], { hook_event_name: 'UserPromptSubmit', turn_id: turn, prompt: 'bench' });
    if (begun.code !== 0 || begun.stderr.includes('not checkpointed')) throw new Error(`the prompt hook: ${begun.stderr}`);
    writeTurn(turnEnd);
    seen.turnEnded = seen.turnOpened = NaN;
    const t0 = performance.now();
    if (process.env.BENCH_LOG) appendFileSync(process.env.BENCH_LOG, `${t0.toFixed(1)} bench: the end-of-turn hook starts\n`);
    const stop = codexHook(['--turn-review'], { hook_event_name: 'Stop', turn_id: turn, stop_hook_active: false,
      last_assistant_message: 'Changed the files.' });
    try {
      await until(`turn review ${mine} painted`, () => shownAt.has(mine), 60000);
    } catch (e) {
      throw new Error(`${e.message} (the window is ${windowVisible() ? 'visible' : 'hidden'})`);
    }
    const dt = shownAt.get(mine) - t0;
    r.turnSteps.push({ ended: seen.turnEnded - t0, opened: seen.turnOpened - seen.turnEnded, page: shownAt.get(mine) - seen.turnOpened });
    run('review', 'done', String(mine));
    const ended = await stop;
    if (ended.code !== 0) throw new Error(`the end-of-turn hook: ${ended.code} ${ended.stderr}`);
    return dt;
  };

  if (seen.released) throw new Error('the prepared window was released before the first review');
  r.afterConnect = await review('lib.rs', `${smallProposal}// first\n`);
  r.warm = [];
  const cpuBefore = cpu(app.pid);
  for (let i = 0; i < warmRuns; i++) {
    r.warm.push(await review('lib.rs', `${smallProposal}// ${i}\n`, i === 0 ? () => { r.shown = memory(app.pid); } : null));
  }
  const cpuAfter = cpu(app.pid);
  // The reject command's own process has ended by now: not counted, only what it asked for.
  r.cpuPerWarm = Object.fromEntries(Object.keys(cpuAfter).map((k) => [k, (cpuAfter[k] - (cpuBefore[k] ?? 0)) / warmRuns]));
  r.big = [];
  for (let i = 0; i < bigRuns; i++) r.big.push(await review('big.rs', `${bigProposal}// ${i}\n`));
  r.turn = [];
  r.turnSteps = [];
  if (hasTurns(appBin)) {
    for (let i = 0; i < turnRuns; i++) {
      r.turn.push(await turnReview(`${n}.${i}`, ++id));
      if (seen.released) throw new Error('the window was released between the turn reviews: they were not warm');
    }
  }
  await until('the window to hide', () => !windowVisible());
  await pause(1000);
  r.hidden = memory(app.pid);

  // The idle spell passes with the CLI still connected: the window is released.
  await until('the window to be released', () => seen.released >= 1 && !memory(app.pid).processes.some((p) => p === 'WebKitWebProces' || p === 'redline-window'));
  await pause(1000);
  r.released = memory(app.pid);
  // Truly cold: no window at all when openDiff comes.
  r.cold = await review('lib.rs', `${smallProposal}// cold\n`);
  // Where the cold pop-up's time went: the window made (the show waits for it), its page loaded.
  r.coldMade = seen.madeMs.at(-1);
  r.coldLoaded = seen.loadedMs.at(-1);
  r.processes = r.shown.processes;
  await quitApp(app);
  if (process.env.BENCH_TRACE) console.error(`launch ${n}: ${JSON.stringify({ ...r, processes: undefined })}`);
  return r;
}

/**
 * A new app's first review, nothing connected before it (`redline propose`, as an editor's
 * `redline diff` or a script sends one): the process makes its first window, WebKit's one-time
 * set-up included. Timed by the app, from the review's arrival to painted (its `review shown`).
 */
async function fresh() {
  let shownReview = null;
  const { app } = await startApp((line) => {
    const m = /review shown review=(\d+) ms=(\d+)/.exec(line);
    if (m) shownReview = { id: m[1], ms: Number(m[2]) };
  });
  await pause(1000);
  if (memory(app.pid).processes.length !== 1) throw new Error('a window before any review');
  const propose = spawn(appBin, ['propose', join(dirs.ws, 'lib.rs'), '-'], { env, stdio: ['pipe', 'ignore', 'inherit'] });
  propose.stdin.end(`${smallProposal}// fresh\n`);
  await until('the first review painted', () => shownReview);
  run('review', 'reject', shownReview.id);
  await quitApp(app);
  return shownReview.ms;
}

/** Wall and CPU ms per command call, this build against `--vs-bin`, on a headless instance. */
async function commandCosts() {
  const server = spawn(bin, ['serve', '--headless'], { env, stdio: ['ignore', 'pipe', 'ignore'] });
  children.push(server);
  await until('the headless instance', () => { try { return JSON.parse(run('status', '--json')); } catch { return null; } });
  const bins = [{ name: 'this build', path: bin }];
  if (vsBin) bins.push({ name: 'baseline', path: resolve(vsBin) });
  const calls = measureCalls({ bins, env, runs: cliRuns, propose: proposer(bin, env, join(dirs.ws, 'calls.rs')) });
  run('quit');
  await new Promise((res) => (server.exitCode !== null ? res() : server.on('exit', res)));
  return { bins, calls };
}

async function main() {
  if (!existsSync(bin)) throw new Error(`no binary at ${bin}: cargo build --release first`);
  const xvfb = spawn('Xvfb', [display, '-screen', '0', '1600x1000x24'], { stdio: 'ignore' });
  children.push(xvfb);
  displayPids.push(xvfb.pid);
  await until('Xvfb', () => { try { execFileSync('xdpyinfo', ['-display', display], { stdio: 'ignore' }); return true; } catch { return false; } });
  // A desktop has a tray host; trayer gives Xvfb one for the app's icon.
  const trayer = spawn('trayer', ['--edge', 'top', '--align', 'right', '--height', '24'], { env, stdio: 'ignore' });
  children.push(trayer);
  displayPids.push(trayer.pid);
  run('workspace', 'add', dirs.ws);
  // As after a user's first launch: the welcome page was shown (else every launch opens it).
  const config = join(dirs.config, 'redline', 'config.json');
  writeFileSync(config, JSON.stringify({ ...JSON.parse(readFileSync(config, 'utf8')), welcomed: true }), { mode: 0o600 });
  const loadBefore = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  // Each build's launches and first reviews, alternating launch by launch with the baseline.
  const builds = [{ name: 'this build', path: bin, results: [], firsts: [] }];
  if (vsBin) builds.push({ name: 'baseline', path: resolve(vsBin), results: [], firsts: [] });
  for (let n = 0; n < launches; n++) {
    for (const b of builds) {
      appBin = b.path;
      try {
        b.results.push(await launch(n));
      } catch (e) {
        throw new Error(`${b.name} (${shown(b.path)}), launch ${n}: ${e.message}\nits log's last lines:\n${logTail.join('\n')}`);
      }
    }
  }
  for (let n = 0; n < launches; n++) {
    for (const b of builds) {
      appBin = b.path;
      b.firsts.push(await fresh());
    }
  }
  appBin = bin;
  const calls = await commandCosts();
  const loadAfter = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const f = (x) => x.toFixed(1);
  const stats = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return { min: s[0], median: s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2, max: s[s.length - 1], n: s.length };
  };
  const row = (label, xs) => {
    const s = stats(xs);
    return `| ${label} | ${f(s.min)} | ${f(s.median)} | ${f(s.max)} | ${s.n} |`;
  };
  // A build's samples of one figure over its launches; its CPU per warm review, all processes.
  const all = (build, k) => build.results.flatMap((r) => r[k]);
  const mem = (build, k, m) => build.results.map((r) => r[k][m]);
  const cpuAll = (r) => Object.values(r.cpuPerWarm).reduce((a, b) => a + b, 0);
  /** A whole turn's review against the warm single review of the same launches (none: the build
   * has no turns). */
  const turnTable = (build) => {
    const turn = all(build, 'turn');
    if (!turn.length) return [];
    const t = stats(turn), w = stats(all(build, 'warm'));
    return [
      `| a whole turn's review, warm (${TURN_FILES} files, ${turnChanged.toLocaleString('en')} changed lines), ms | median | max | samples |`,
      '| --- | --- | --- | --- |',
      `| end-of-turn hook → the file list and the first file's diff painted | ${f(t.median)} | ${f(t.max)} | ${t.n} |`,
      `| openDiff → a warm 300-line review painted (above) | ${f(w.median)} | ${f(w.max)} | ${w.n} |`,
      `| ratio (target: at most 2×) | ${(t.median / w.median).toFixed(2)}× | ${(t.max / w.max).toFixed(2)}× | |`,
      '',
      '| where a whole turn\'s review\'s time goes, ms (from the app\'s log lines as they reach the bench) | min | median | max | samples |',
      '| --- | --- | --- | --- | --- |',
      row('the hook starts, asks, and the turn\'s end is checkpointed (git add, write-tree, commits)', build.results.flatMap((r) => r.turnSteps.map((x) => x.ended))),
      row('its review opened: what changed, every file counted (git diff-tree)', build.results.flatMap((r) => r.turnSteps.map((x) => x.opened))),
      row('the window: the review, its file list, the first file\'s sides and hunks, painted', build.results.flatMap((r) => r.turnSteps.map((x) => x.page))),
      '',
    ];
  };
  /** The tables for one build's launches. */
  const tables = (build) => {
    const { name, path, results, firsts } = build;
    const memRow = (label, k) => {
      const p = stats(mem(build, k, 'pss'));
      const s = stats(mem(build, k, 'rss'));
      return `| ${label} | ${f(p.min)} | ${f(p.median)} | ${f(p.max)} | ${f(s.median)} |`;
    };
    const names = results[0].processes;
    const cpuNames = Object.keys(results[0].cpuPerWarm);
    return [
      `#### ${name}: \`${shown(path)}\``,
      '',
      '| openDiff → review visible and painted, ms | min | median | max | samples |',
      '| --- | --- | --- | --- | --- |',
      row('warm, 300 lines (window kept after use)', all(build, 'warm')),
      row('warm, 5,000 lines, 200 changes', all(build, 'big')),
      row('first review after a CLI connected (window prepared hidden)', all(build, 'afterConnect')),
      row('truly cold (no window: made, page loaded, for the review)', all(build, 'cold')),
      row('a new app\'s first review, nothing connected before (its first window; timed by the app)', firsts),
      '',
      ...turnTable(build),
      `| memory, all processes (${names.join(', ')}), MiB | PSS min | PSS median | PSS max | RSS median |`,
      '| --- | --- | --- | --- | --- |',
      memRow('idle at start, no window', 'idle'),
      memRow('a CLI connected: window prepared, hidden', 'prepared'),
      memRow('one review shown', 'shown'),
      memRow('answered, window hidden (kept warm)', 'hidden'),
      memRow('window released after the idle spell', 'released'),
      '',
      `| PSS by process, median, MiB | ${names.join(' | ')} |`,
      `| --- |${names.map(() => ' --- |').join('')}`,
      ...[['idle at start, no window', 'idle'], ['a CLI connected: window prepared, hidden', 'prepared'],
        ['one review shown', 'shown'], ['window released after the idle spell', 'released']].map(([label, k]) =>
        `| ${label} | ${names.map((p) => f(stats(results.map((r) => r[k].byProcess[p] ?? 0)).median)).join(' | ')} |`),
      '',
      `| CPU per warm 300-line review (shown, then rejected), median, ms | ${cpuNames.join(' | ')} | all |`,
      `| --- |${cpuNames.map(() => ' --- |').join('')} --- |`,
      `| | ${cpuNames.map((p) => f(stats(results.map((r) => r.cpuPerWarm[p] ?? 0)).median)).join(' | ')} | ${f(stats(results.map(cpuAll)).median)} |`,
      '',
      '| where a truly cold pop-up\'s time goes, ms | min | median | max | samples |',
      '| --- | --- | --- | --- | --- |',
      row('making the window (GTK window, webview, WebKit processes started)', results.map((r) => r.coldMade)),
      row('its page loaded (HTML, scripts, styles), from the start of making it', results.map((r) => r.coldLoaded)),
      row('the rest: the page starts, lists the review, builds the editor, paints', results.map((r) => r.cold - r.coldLoaded)),
      '',
    ];
  };
  /** Medians side by side: this build against the baseline, measured in the same run. */
  const versus = ([a, b]) => {
    const med = (xs) => stats(xs).median;
    const line = (label, pick, unit) => {
      const x = med(pick(a)), y = med(pick(b));
      return `| ${label} | ${f(x)} ${unit} | ${f(y)} ${unit} | ${(x / y).toFixed(2)}× |`;
    };
    return [
      '| medians, same run, launches alternating | this build | baseline | ratio |',
      '| --- | --- | --- | --- |',
      line('warm, 300 lines', (c) => all(c, 'warm'), 'ms'),
      line('warm, 5,000 lines, 200 changes', (c) => all(c, 'big'), 'ms'),
      line('first review after a CLI connected', (c) => all(c, 'afterConnect'), 'ms'),
      line('truly cold', (c) => all(c, 'cold'), 'ms'),
      line('a new app\'s first review', (c) => c.firsts, 'ms'),
      ...(all(a, 'turn').length && all(b, 'turn').length ? [line('a whole turn\'s review, warm', (c) => all(c, 'turn'), 'ms')] : []),
      ...[['idle, no window', 'idle'], ['a CLI connected, window prepared', 'prepared'], ['one review shown', 'shown'],
        ['window released after the idle spell', 'released']].map(([label, k]) =>
        line(`memory (PSS, all processes): ${label}`, (c) => mem(c, k, 'pss'), 'MiB')),
      line('CPU per warm review, all processes', (c) => c.results.map(cpuAll), 'ms'),
      '',
    ];
  };
  const report = [
    `Desktop app, ${launches} launches of each build under Xvfb (software rendering) on ${cpus().length} CPUs, load average ${loadBefore} at the start and ${loadAfter} at the end.`,
    `Each launch: idle, a CLI connects (MCP \`initialize\`), its first openDiff ${THINK_MS} ms after the prepared page loaded, ${warmRuns} warm reviews of a 300-line Rust file, ${bigRuns} of a 5,000-line file with 200 changed lines, ${turnRuns} whole turns' reviews (Codex's prompt hook checkpoints ${TURN_FILES} files of 200 lines, all are changed, 100 lines each, then its end-of-turn hook; answered Done), the window released after the idle spell (${IDLE_SECS} s here) with the CLI still connected, then one truly cold review. Then ${launches} more launches, each sent one review (\`redline propose\`) 1 s after it started.${builds.length > 1 ? ' The builds take turns, launch by launch.' : ''}`,
    '',
    ...(builds.length > 1 ? versus(builds) : []),
    ...builds.flatMap(tables),
    `| one command against a running Redline, ms per call (${cliRuns} calls each, alternating) | wall min | wall median | wall max | CPU median |`,
    '| --- | --- | --- | --- | --- |',
    ...calls.bins.flatMap(({ name, path }) => ['list', 'reject'].map((c) => {
      const w = stats(calls.calls[name][c].map((x) => x.wall));
      const cpu = stats(calls.calls[name][c].map((x) => x.cpu));
      return `| \`redline review ${c}\`, ${name} (\`${shown(path)}\`) | ${f(w.min)} | ${f(w.median)} | ${f(w.max)} | ${f(cpu.median)} |`;
    })),
    '',
  ].join('\n');
  const mine = builds[0];
  console.log(report);
  if (out) writeFileSync(out, report);
  if (readme) {
    const med = (xs) => f(stats(xs).median);
    const table = [
      '<!-- bench-window: generated by bench/window/run.mjs --readme; do not edit -->',
      `| the review window (\`bench/window\`, 2-core machine, Xvfb; medians of ${launches} launches) | |`,
      '| --- | --- |',
      `| openDiff → painted, warm (300 lines / 5,000 lines with 200 changes) | ${med(all(mine, 'warm'))} ms / ${med(all(mine, 'big'))} ms |`,
      `| openDiff → painted, first review after a CLI connected | ${med(all(mine, 'afterConnect'))} ms |`,
      `| openDiff → painted, truly cold (no window yet) | ${med(all(mine, 'cold'))} ms |`,
      `| a new app's first review, nothing connected before | ${med(mine.firsts)} ms |`,
      ...(all(mine, 'turn').length ? [`| end-of-turn hook → a whole turn's review painted, warm (${TURN_FILES} files, ${turnChanged.toLocaleString('en')} changed lines) | ${med(all(mine, 'turn'))} ms (${(stats(all(mine, 'turn')).median / stats(all(mine, 'warm')).median).toFixed(2)}× warm) |`] : []),
      `| memory (PSS, all processes): idle, no window / one review shown | ${med(mem(mine, 'idle', 'pss'))} MiB / ${med(mem(mine, 'shown', 'pss'))} MiB |`,
      '<!-- /bench-window -->',
    ].join('\n');
    const text = readFileSync(readme, 'utf8');
    const block = /<!-- bench-window[^>]*-->[\s\S]*?<!-- \/bench-window -->/;
    if (!block.test(text)) throw new Error(`${readme} has no bench-window markers`);
    writeFileSync(readme, text.replace(block, table));
  }
  cleanup();
  process.exit(0);
}

main().catch((e) => { console.error(e); cleanup(); process.exit(1); });
