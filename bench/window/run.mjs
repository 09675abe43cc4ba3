// Benchmark of the desktop app: openDiff → review visible and painted (warm), and the memory of
// all the app's processes (RSS and PSS) idle, with the window shown, and after it hides again.
// Runs the real app under its own Xvfb display in temp dirs; prints a markdown table.
//
//   node bench/window/run.mjs [--bin target/release/redline] [--runs 30] [--out FILE]
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, readdirSync, chmodSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const repo = resolve(new URL('../..', import.meta.url).pathname);
const bin = resolve(opt('bin', join(repo, 'target/release/redline')));
const runs = Number(opt('runs', '30'));
const out = opt('out', null);

const root = mkdtempSync(join(tmpdir(), 'redline-bench-window-'));
const dirs = Object.fromEntries(['home', 'tmp', 'config', 'run', 'ws'].map((d) => [d, join(root, d)]));
for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
chmodSync(dirs.run, 0o700);
const display = `:${100 + (process.pid % 800)}`;
const env = {
  PATH: process.env.PATH, HOME: dirs.home, TMPDIR: dirs.tmp, XDG_CONFIG_HOME: dirs.config,
  XDG_RUNTIME_DIR: dirs.run, DISPLAY: display, RUST_LOG: 'info,rmcp=warn',
  REDLINE_WINDOW_IDLE_SECS: '5',
};
const run = (...a) => execFileSync(bin, a, { env, encoding: 'utf8' });
const children = [];
const cleanup = () => { for (const c of children) try { c.kill('SIGTERM'); } catch {} };
process.on('exit', cleanup);

// A realistic file: 300 lines of Rust, and a proposal that changes a few of them.
const original = Array.from({ length: 300 }, (_, i) =>
  i % 10 === 0 ? `fn item_${i}() -> u32 {` : i % 10 === 9 ? '}' : `    let v${i} = ${i} * 2; // work`).join('\n') + '\n';
const proposal = original.replace('let v12 = 12 * 2;', 'let v12 = 12 * 3;').replace('fn item_150()', 'fn item_150_renamed()');
writeFileSync(join(dirs.ws, 'lib.rs'), original);

async function until(what, check, ms = 20000) {
  if (process.env.BENCH_TRACE) console.error(`waiting: ${what}`);
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

function windowVisible() {
  try {
    return execFileSync('xdotool', ['search', '--onlyvisible', '--name', '^Redline — review$'], { env, encoding: 'utf8' }).trim() !== '';
  } catch { return false; }
}

/** RSS and PSS (MiB) summed over the app and every process below it (WebKit's included). */
function memory(pid) {
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
  let rss = 0, pss = 0;
  const names = [];
  for (const p of pids) {
    let status, rollup;
    try {
      status = readFileSync(`/proc/${p}/status`, 'utf8');
      rollup = readFileSync(`/proc/${p}/smaps_rollup`, 'utf8');
    } catch { continue; } // it ended while we looked
    rss += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    pss += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
    names.push(/Name:\s+(\S+)/.exec(status)?.[1]);
  }
  return { rss: rss / 1024, pss: pss / 1024, processes: names };
}

async function main() {
  if (!existsSync(bin)) throw new Error(`no binary at ${bin}: cargo build --release first`);
  const xvfb = spawn('Xvfb', [display, '-screen', '0', '1600x1000x24'], { stdio: 'ignore' });
  children.push(xvfb);
  await until('Xvfb', () => { try { execFileSync('xdpyinfo', ['-display', display], { stdio: 'ignore' }); return true; } catch { return false; } });
  // A desktop has a tray host; trayer gives Xvfb one for the app's icon.
  children.push(spawn('trayer', ['--edge', 'top', '--align', 'right', '--height', '24'], { env, stdio: 'ignore' }));
  run('workspace', 'add', dirs.ws);

  const app = spawn(bin, [], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(app);
  const shown = new Map();
  const waiters = new Map();
  createInterface({ input: app.stderr }).on('line', (line) => {
    const m = /review shown review=(\d+)/.exec(line.replace(/\x1b\[[0-9;]*m/g, ''));
    if (!m) return;
    const id = Number(m[1]);
    shown.set(id, performance.now());
    waiters.get(id)?.();
  });
  const status = await until('the app', () => { try { return JSON.parse(run('status', '--json')); } catch { return null; } });
  const ws = status.workspaces[0];
  const disc = JSON.parse(readFileSync(ws.discoveryFiles[0], 'utf8'));
  const url = `http://127.0.0.1:${disc.port}/mcp`;
  const headers = {
    authorization: `Bearer ${disc.authToken}`, accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
  };
  const init = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } }) });
  headers['mcp-session-id'] = init.headers.get('mcp-session-id');
  headers['mcp-protocol-version'] = '2025-06-18';
  await init.text();
  await (await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();

  // Idle: servers up and the tray, no window yet (it is made for the first review).
  await new Promise((r) => setTimeout(r, 3000));
  const idle = memory(app.pid);

  const latencies = [];
  let cold = null;
  let shownMemory = null;
  let id = 0;
  for (let i = 0; i < runs + 3; i++) {
    await until('the window to hide', () => !windowVisible());
    const t0 = performance.now();
    const resp = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: i + 1,
      method: 'tools/call', params: { name: 'openDiff', arguments: { filePath: join(dirs.ws, 'lib.rs'), newContent: `${proposal}// ${i}\n` } } }) });
    await resp.text();
    id += 1;
    const mine = id;
    await new Promise((res) => { if (shown.has(mine)) res(); else waiters.set(mine, res); });
    const dt = shown.get(mine) - t0;
    if (i === 0) cold = dt;
    if (i >= 3) latencies.push(dt);
    if (i === 3) shownMemory = memory(app.pid);
    run('review', 'reject', String(mine));
  }
  await until('the window to hide', () => !windowVisible());
  await new Promise((r) => setTimeout(r, 1000));
  const after = memory(app.pid);
  // The window is let go after REDLINE_WINDOW_IDLE_SECS hidden: wait for its web process to end.
  await until('the window to be released', () => !memory(app.pid).processes.includes('WebKitWebProces'), 30000);
  await new Promise((r) => setTimeout(r, 1000));
  const released = memory(app.pid);
  run('quit');

  latencies.sort((a, b) => a - b);
  const q = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))];
  const f = (n) => n.toFixed(1);
  const report = [
    `Desktop app, ${bin.replace(repo + '/', '')}, ${runs} warm runs under Xvfb (software rendering), 300-line Rust file.`,
    '',
    '| openDiff → review visible and painted | p50 | p90 | max |',
    '| --- | --- | --- | --- |',
    `| warm (window kept after first use), ms | ${f(q(0.5))} | ${f(q(0.9))} | ${f(latencies[latencies.length - 1])} |`,
    `| cold (first review: window made, page loaded), ms | ${f(cold)} | | |`,
    '',
    `| memory, all processes (${shownMemory.processes.join(', ')}) | RSS MiB | PSS MiB |`,
    '| --- | --- | --- |',
    `| idle at start, no window yet | ${f(idle.rss)} | ${f(idle.pss)} |`,
    `| one review shown | ${f(shownMemory.rss)} | ${f(shownMemory.pss)} |`,
    `| answered, window hidden (kept warm) | ${f(after.rss)} | ${f(after.pss)} |`,
    `| window released after the idle spell | ${f(released.rss)} | ${f(released.pss)} |`,
    '',
  ].join('\n');
  console.log(report);
  if (out) writeFileSync(out, report);
  cleanup();
  process.exit(0);
}

main().catch((e) => { console.error(e); cleanup(); process.exit(1); });
