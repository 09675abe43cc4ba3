// Interop: CLIs inside a container reach Redline on the host, unmodified.
//
// There is no Docker daemon here, so lib/container.mjs builds what a CLI sees of a container:
// its own network namespace joined to the host by a veth pair, a private mount namespace with
// /.dockerenv and `host.docker.internal` in /etc/hosts, its own PID namespace, and the mounts of
// `redline container args`. In it run the real Gemini CLI client (`IdeClient` of
// @google/gemini-cli-core 0.61.0) and the real `qwen` 0.24.4, with no REMOTE_CONTAINERS and no
// SSH_CONNECTION: Gemini CLI then connects to host.docker.internal and nothing else, Qwen Code to
// host.docker.internal because it resolves. Both path modes: the workspace at its own path, and
// at /workspace (`--path /workspace`).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { ok, startRedline } from './lib/redline.mjs';
import { realTmpDir } from './lib/dirs.mjs';
import { startGeminiClient } from './lib/gemini.mjs';
import { createContainer, canCreateContainers } from './lib/container.mjs';
import { startFakeModel } from './qwen-fake-model.mjs';
import { startQwen, writeQwenSettings, after as screenAfter, QWEN_ENTRY } from './qwen-driver.mjs';
import { startGeminiFakeModel } from './gemini-fake-model.mjs';
import { startFakeApi } from './claude-fake-api.mjs';
import { writeClaudeConfig, claudeEnv, startTmux, claudeInstalled, CLAUDE_BIN, CLAUDE_VERSION } from './claude-driver.mjs';
import { startFakeApi as startCopilotApi } from './copilot-fake-api.mjs';
import { copilotInstalled, waitForEditPermission, COPILOT_BIN, COPILOT_MODEL, COPILOT_VERSION, API_KEY as COPILOT_KEY, READY as COPILOT_READY, INPUT_LINE as COPILOT_INPUT } from './copilot-driver.mjs';
import { privateTmux, paneCommand, tmuxPane } from './lib/tmux.mjs';

const here = path.dirname(new URL(import.meta.url).pathname);
const GEMINI_BIN = path.join(here, 'node_modules', '@google', 'gemini-cli', 'bundle', 'gemini.js');

/** Gemini CLI's user settings for an offline run: API-key auth, IDE mode on, no chatter. */
const GEMINI_SETTINGS = {
  security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
  ide: { enabled: true, hasSeenNudge: true },
  general: { disableAutoUpdate: true, disableUpdateNag: true },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  ui: { theme: 'Default' },
};

const STEP_MS = 45_000;
const cannot = canCreateContainers();

/** The environment inside the container: what an image gives a shell, nothing of the test's. */
const containerEnv = (extra = {}) => ({
  PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
  HOME: '/root',
  LANG: 'C.UTF-8',
  NO_COLOR: '1',
  ...extra,
});

/** Runs `node -e SCRIPT` in the container; resolves with its stdout. */
function inContainer(c, runArgs, script, opts = {}) {
  const [cmd, args] = c.command({ runArgs, argv: [process.execPath, '-e', script], env: containerEnv(), ...opts });
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out.trim());
      else reject(new Error(`in-container node exited ${code}: ${out}\n${err}`));
    });
  });
}

async function pollUntil(fn, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await fn()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const PROBE = (host, port) => `
  const s = require('net').connect(${port}, ${JSON.stringify(host)});
  s.on('connect', () => { console.log('connected'); s.destroy(); });
  s.on('error', (e) => console.log(e.code));`;

describe('CLIs in a container reach Redline on the host', { skip: cannot ?? false, timeout: 600_000 }, () => {
  let ws;
  let scratch;
  let r;
  let c;
  let model;

  before(async () => {
    ws = realTmpDir('rl-ctr-ws-');
    scratch = realTmpDir('rl-ctr-scratch-');
    for (const f of ['g-same.txt', 'g-mapped.txt', 'q-same.txt', 'q-mapped.txt', 'g-binary.txt', 'c-binary.txt']) {
      fs.writeFileSync(path.join(ws, f), `original ${f}\n`);
    }
    c = await createContainer();
    r = await startRedline({ workspaces: [ws] });
  });

  let restarted;

  after(async () => {
    if (restarted && restarted.exitCode === null) {
      restarted.kill('SIGTERM');
      await new Promise((resolve) => restarted.once('exit', resolve));
    }
    await r?.stop();
    await model?.close();
    await c?.destroy();
    if (ws) await fsp.rm(ws, { recursive: true, force: true });
    if (scratch) await fsp.rm(scratch, { recursive: true, force: true });
  });

  async function runArgs(extra = []) {
    return JSON.parse(await ok(r, ['container', 'args', ws, '--json', ...extra]));
  }

  test('containers off: nothing answers on the bridge address, from the container or the host', async () => {
    const port = r.port(ws);
    const res = await r.run(['container', 'args', ws]);
    assert.equal(res.code, 2);
    assert.match(res.stderr, /containers are off/);
    const st = JSON.parse(await ok(r, ['status', '--json']));
    assert.equal(st.workspaces[0].containers, null);
    // A hand-made container setup (what the args would be) finds nothing on the bridge.
    const plan = { addHost: `host.docker.internal:${c.hostAddr}`, mounts: [], env: [], workdir: '/' };
    assert.equal(await inContainer(c, plan, PROBE('host.docker.internal', port)), 'ECONNREFUSED');
    assert.equal(await inContainer(c, plan, PROBE('127.0.0.1', port)), 'ECONNREFUSED', "the container's own loopback is not the host's");
  });

  test('redline container enable --address: the host side of the veth answers, status says so', async () => {
    const out = await ok(r, ['container', 'enable', ws, '--address', c.hostAddr]);
    assert.match(out, new RegExp(`containers on for .*: ${c.hostAddr.replace(/\./g, '\\.')}:\\d+`));
    const st = JSON.parse(await ok(r, ['status', '--json']));
    const w = st.workspaces[0];
    assert.equal(w.containers.address, c.hostAddr);
    assert.equal(w.containers.port, w.port, 'one port on both sides');
    assert.equal(w.containers.wsPort, w.wsPort, "and for Claude Code's server");
    const text = await ok(r, ['status']);
    assert.match(text, new RegExp(`containers\\s+on\\s+${c.hostAddr.replace(/\./g, '\\.')}:${w.port}`));
    const args = (await ok(r, ['container', 'args', ws])).trimEnd().split('\n');
    assert.deepEqual(args.slice(0, 2), ['--add-host', `host.docker.internal:${c.hostAddr}`]);
    const plan = await runArgs();
    assert.equal(await inContainer(c, plan, PROBE('host.docker.internal', w.port)), 'connected');
  });

  /** The Gemini CLI client in the container: connects, proposes, gets the edited text back. */
  async function geminiRound({ mode, file }) {
    const mapped = mode === 'mapped';
    const args = await runArgs(mapped ? ['--path', '/workspace'] : []);
    const seen = mapped ? '/workspace' : ws;
    assert.equal(args.workdir, seen);
    const g = await startGeminiClient({
      name: `gemini-${mode}`,
      env: { PATH: process.env.PATH },
      wrap: (argv) => c.command({ runArgs: args, argv, env: containerEnv(), ipc: true }),
    });
    try {
      const info = await g.info();
      assert.equal(info.cwd, seen, 'the CLI runs in the workspace as the container sees it');
      const conn = await g.connect();
      assert.equal(conn.state.status, 'connected', `${JSON.stringify(conn)}\n${g.output()}`);
      assert.equal(conn.ide?.name, 'redline');
      assert.ok(conn.diffing);
      const filePath = `${seen}/${file}`;
      const diff = g.openDiff(filePath, 'the proposal\n');
      await diff.started;
      const review = JSON.parse(await ok(r, ['review', 'wait', '--file', filePath, '--timeout', '30']));
      assert.equal(review.filePath, filePath, 'filePath exactly as the CLI sent it');
      assert.equal(review.path, path.join(ws, file), 'the host file');
      assert.equal(review.container, mapped);
      const shown = await ok(r, ['review', 'show', String(review.id)]);
      assert.match(shown, new RegExp(`^-original ${file.replace('.', '\\.')}$`, 'm'), 'the original is the host file');
      assert.match(shown, /^\+the proposal$/m);
      const edited = `edited in review ${mode}\r\nwith ünïcode and a trailing space \n`;
      const contentFile = path.join(scratch, `${mode}.txt`);
      fs.writeFileSync(contentFile, edited);
      await ok(r, ['review', 'accept', String(review.id), '--content-file', contentFile]);
      const result = await diff.result;
      assert.deepEqual(result, { status: 'accepted', content: edited }, 'byte-exact');
      assert.equal(fs.readFileSync(path.join(ws, file), 'utf8'), `original ${file}\n`, 'Redline wrote nothing');
    } finally {
      await g.close();
    }
  }

  test('Gemini CLI client, workspace at its own path: connects via host.docker.internal, accept with edits', async () => {
    await geminiRound({ mode: 'same', file: 'g-same.txt' });
  });

  test('Gemini CLI client, workspace at /workspace: the container path maps to the host file', async () => {
    await geminiRound({ mode: 'mapped', file: 'g-mapped.txt' });
    const st = JSON.parse(await ok(r, ['status', '--json']));
    assert.deepEqual(st.workspaces[0].containers.paths, ['/workspace']);
  });

  async function qwenRound({ mode, file }) {
    const mapped = mode === 'mapped';
    const args = await runArgs(mapped ? ['--path', '/workspace'] : []);
    const seen = mapped ? '/workspace' : ws;
    model ??= await startFakeModel({ host: c.hostAddr, log: process.env.REDLINE_IT_VERBOSE ? (s) => console.error(s) : undefined });
    const home = realTmpDir('rl-ctr-qwen-home-');
    const settings = await writeQwenSettings(home);
    const filePath = `${seen}/${file}`;
    const trigger = `REDLINE-CTR-${mode.toUpperCase()}`;
    const edited = `reviewed in ${mode}\nsecond line\n`;
    model.setPlan({ trigger, filePath, content: 'qwen proposal\n', final: `Container ${mode} finished.` });
    const command = c.command({
      runArgs: args,
      argv: [process.execPath, QWEN_ENTRY, '--approval-mode', 'default'],
      env: containerEnv({
        TERM: 'xterm-256color',
        OPENAI_API_KEY: 'dummy-key-for-the-fake-model',
        OPENAI_BASE_URL: model.baseURL,
        OPENAI_MODEL: model.model,
      }),
      files: [[settings, '/root/.qwen/settings.json']],
    });
    const q = await startQwen({ cwd: scratch, env: {}, command, name: `qwen-${mode}` });
    try {
      await q.waitForScreen(/Type your message/, 60_000, 'qwen to show its input prompt');
      await q.submit('/ide status');
      const screen = await q.waitForScreen(
        (s) => /✓ Connected to|✗ Disconnected|◐ Connecting/.test(screenAfter(s, '/ide status')),
        STEP_MS,
        'the /ide status answer',
      );
      assert.match(screenAfter(screen, '/ide status'), /✓ Connected to Redline/);
      await q.submit(`Please do ${trigger}`);
      const review = JSON.parse(await ok(r, ['review', 'wait', '--file', filePath, '--timeout', '40']));
      assert.equal(review.path, path.join(ws, file));
      assert.equal(review.container, mapped);
      await q.waitForScreen((s) => /Apply this change\?/.test(screenAfter(s, trigger)), STEP_MS, 'qwen to ask for confirmation');
      const contentFile = path.join(scratch, `q-${mode}.txt`);
      fs.writeFileSync(contentFile, edited);
      await ok(r, ['review', 'accept', String(review.id), '--content-file', contentFile]);
      const done = await model.waitFor((x) => x.decision.kind === 'final' && x.decision.toolResult.includes(filePath), STEP_MS, 'qwen to report its write');
      assert.match(done.decision.toolResult, /Successfully overwrote file/);
      assert.equal(fs.readFileSync(path.join(ws, file), 'utf8'), edited, "qwen's write in the container landed on the host, exactly");
    } catch (err) {
      err.message += `\n--- qwen screen ---\n${await q.screen().catch(() => '')}\n--- redline ---\n${r.stderr().slice(-3000)}`;
      throw err;
    } finally {
      await q.stop();
      await fsp.rm(home, { recursive: true, force: true });
    }
  }

  test('qwen, workspace at its own path: finds the lock, connects, writes the edited text', { timeout: 180_000 }, async () => {
    await qwenRound({ mode: 'same', file: 'q-same.txt' });
  });

  test('qwen, workspace at /workspace: the lock carries /workspace, the write lands on the host', { timeout: 180_000 }, async () => {
    await qwenRound({ mode: 'mapped', file: 'q-mapped.txt' });
  });

  test('the real gemini binary under tmux in the container, end to end: its write lands on the host', { timeout: 180_000 }, async () => {
    const args = await runArgs(['--path', '/workspace']);
    const gm = await startGeminiFakeModel({ host: c.hostAddr, log: process.env.REDLINE_IT_VERBOSE ? (s) => console.error(s) : undefined });
    const settings = path.join(scratch, 'gemini-settings.json');
    fs.writeFileSync(settings, JSON.stringify(GEMINI_SETTINGS));
    const filePath = '/workspace/g-binary.txt';
    const edited = 'written by gemini in the container\nwith the reviewer\'s edit\n';
    gm.setPlan({ trigger: 'REDLINE-GEMINI-BINARY', filePath, content: 'gemini proposal\n', final: 'Gemini binary finished.' });
    const command = c.command({
      runArgs: args,
      argv: [process.execPath, GEMINI_BIN],
      env: containerEnv({ TERM: 'xterm-256color', GEMINI_API_KEY: 'dummy-key-for-the-fake-model', GOOGLE_GEMINI_BASE_URL: gm.baseURL }),
      files: [[settings, '/root/.gemini/settings.json']],
    });
    const q = await startQwen({ cwd: scratch, env: {}, command, name: 'gemini-binary' });
    try {
      await q.waitForScreen(/Type your message/, 60_000, 'gemini to show its input prompt');
      // Gemini CLI connects to the IDE at start: Redline lists it as a client. No slash command: typed while it is still busy (at start,
      // or just after a turn), 0.61.0 may queue it, and later input, for good; a prompt queued at
      // start is sent once it is ready.
      await pollUntil(async () => {
        const st = JSON.parse(await ok(r, ['status', '--json']));
        return st.workspaces[0].clients.some((x) => x.version === '0.61.0');
      }, STEP_MS, 'gemini to connect to Redline');
      await q.submit('Please do REDLINE-GEMINI-BINARY');
      const review = JSON.parse(await ok(r, ['review', 'wait', '--file', filePath, '--timeout', '40']));
      assert.equal(review.path, path.join(ws, 'g-binary.txt'));
      assert.equal(review.container, true);
      assert.equal(review.client.version, '0.61.0');
      await q.waitForScreen((s) => /Apply this change\?/.test(screenAfter(s, 'REDLINE-GEMINI-BINARY')), STEP_MS, 'gemini to ask for confirmation');
      const contentFile = path.join(scratch, 'g-binary.txt');
      fs.writeFileSync(contentFile, edited);
      await ok(r, ['review', 'accept', String(review.id), '--content-file', contentFile]);
      const done = await gm.waitFor((x) => x.decision.kind === 'final', STEP_MS, 'gemini to send the write_file result');
      assert.match(done.decision.toolResult, /g-binary\.txt/);
      assert.equal(fs.readFileSync(path.join(ws, 'g-binary.txt'), 'utf8'), edited, "gemini's write landed in the host's workspace, exactly");
      await q.waitForScreen(/Gemini binary finished\./, STEP_MS, 'the final answer on screen');
    } catch (err) {
      err.message += `\n--- gemini screen ---\n${await q.screen().catch(() => '')}\n--- redline ---\n${r.stderr().slice(-3000)}`;
      throw err;
    } finally {
      await q.stop();
      await gm.close();
    }
  });

  // Claude Code 2.1.332 connects to 127.0.0.1 (the container itself) unless
  // CLAUDE_CODE_IDE_HOST_OVERRIDE names the host: `redline container args` sets it to
  // host.docker.internal and mounts a lock made for containers (no pid, the container path).
  test('the real claude binary under tmux in the container: container lock, host.docker.internal, edited write lands on the host', {
    timeout: 240_000,
    skip: !claudeInstalled() && 'claude not installed (npm install in tests/interop)',
  }, async () => {
    const args = await runArgs(['--path', '/workspace']);
    assert.deepEqual(args.env, [['CLAUDE_CODE_IDE_HOST_OVERRIDE', 'host.docker.internal']]);
    const mount = args.mounts.find((m) => m.target === '/root/.claude/ide');
    assert.ok(mount?.readOnly, JSON.stringify(args.mounts));
    const st = JSON.parse(await ok(r, ['status', '--json']));
    const wsPort = st.workspaces[0].containers.wsPort;
    assert.ok(wsPort, JSON.stringify(st.workspaces[0].containers));
    const lock = JSON.parse(fs.readFileSync(path.join(mount.source, `${wsPort}.lock`), 'utf8'));
    assert.deepEqual(lock.workspaceFolders, ['/workspace']);
    assert.equal(lock.pid, undefined, 'no pid: the container has its own PID namespace');

    const apiKey = 'sk-ant-api03-redline-container-0123456789abcdefghijklmnop';
    const api = await startFakeApi({ host: c.hostAddr, log: process.env.REDLINE_IT_VERBOSE ? (m) => console.error(m) : () => {} });
    const home = realTmpDir('rl-ctr-claude-home-');
    await writeClaudeConfig(home, { workspaces: ['/workspace'], apiKey });
    const env = claudeEnv({ home: '/root', apiBaseUrl: api.baseURL, apiKey });
    delete env.PATH;
    const filePath = '/workspace/c-binary.txt';
    const edited = 'written by claude in the container\nwith the reviewer\'s edit ✓\n';
    const plan = api.addPlan({ trigger: 'REDLINE-CLAUDE-CTR', filePath, content: 'claude proposal\n', final: 'done CTR' });
    const tmux = await startTmux();
    let cl;
    try {
      cl = await tmux.claude({
        name: 'claude-ctr',
        cwd: scratch,
        command: c.command({
          runArgs: args,
          argv: [CLAUDE_BIN, '--ide'],
          env: containerEnv(env),
          files: [
            [path.join(home, '.claude.json'), '/root/.claude.json'],
            [path.join(home, '.claude', 'settings.json'), '/root/.claude/settings.json'],
          ],
        }),
      });
      await cl.waitForScreen(/for shortcuts/, 60_000, 'claude to be ready');
      await pollUntil(async () => {
        const s = JSON.parse(await ok(r, ['status', '--json']));
        return s.workspaces[0].clients.some((x) => x.name === 'Claude Code' && x.version === CLAUDE_VERSION);
      }, STEP_MS, 'claude in the container to connect to Redline');
      await cl.submit('REDLINE-CLAUDE-CTR please');
      await cl.waitForScreen(/Opened changes in Redline/, STEP_MS, 'claude to open the diff in Redline');
      const review = JSON.parse(await ok(r, ['review', 'wait', '--file', filePath, '--timeout', '40']));
      assert.equal(review.path, path.join(ws, 'c-binary.txt'), 'the host file');
      assert.equal(review.container, true);
      assert.equal(review.client.name, 'Claude Code');
      assert.equal(review.client.version, CLAUDE_VERSION);
      // Its socket lives in the container's network namespace, out of sight of the host's
      // socket table: the review names the CLI by what it said in initialize.
      assert.equal(review.client.process, null);
      const shown = await ok(r, ['review', 'show', String(review.id)]);
      assert.match(shown, /^-original c-binary\.txt$/m, 'the original is the host file');
      const contentFile = path.join(scratch, 'c-binary.txt');
      fs.writeFileSync(contentFile, edited);
      await ok(r, ['review', 'accept', String(review.id), '--content-file', contentFile]);
      const done = await api.waitFor((x) => x.decision.kind === 'final' && x.decision.plan === plan, STEP_MS, "claude's Write result");
      assert.ok(done);
      await pollUntil(async () => fs.readFileSync(path.join(ws, 'c-binary.txt'), 'utf8') === edited, STEP_MS, "claude's write on the host");
      assert.equal(fs.readFileSync(path.join(ws, 'c-binary.txt'), 'utf8'), edited, "claude's write in the container landed on the host, exactly");
    } catch (err) {
      err.message += `\n--- claude screen ---\n${await cl?.screen().catch(() => '')}\n--- redline ---\n${r.stderr().slice(-3000)}`;
      throw err;
    } finally {
      await tmux.stop();
      await api.close();
      await fsp.rm(home, { recursive: true, force: true });
    }
  });

  // Copilot CLI reaches its companion by a socket path only, and drops a lock whose PID is not
  // alive in its own PID namespace: `container args` mounts a lock naming PID 1 and the
  // workspace's socket directory.
  test('the real copilot binary under tmux in the container: PID 1 lock, mounted socket, the write lands on the host', {
    timeout: 240_000,
    skip: !copilotInstalled() && 'copilot not installed (npm install in tests/interop)',
  }, async () => {
    const args = await runArgs(['--path', '/workspace']);
    const ide = args.mounts.find((m) => m.target === '/root/.copilot/ide');
    assert.ok(ide?.readOnly, JSON.stringify(args.mounts));
    const sockets = args.mounts.find((m) => m.target === '/tmp/redline');
    assert.deepEqual(fs.readdirSync(sockets.source), ['copilot.sock'], 'the socket and nothing else');
    const [lockName] = fs.readdirSync(ide.source);
    const lock = JSON.parse(fs.readFileSync(path.join(ide.source, lockName), 'utf8'));
    assert.equal(lock.pid, 1);
    assert.deepEqual(lock.workspaceFolders, ['/workspace']);

    const api = await startCopilotApi({ host: c.hostAddr, log: process.env.REDLINE_IT_VERBOSE ? (m) => console.error(m) : () => {} });
    const config = path.join(scratch, 'copilot-config.json');
    fs.writeFileSync(config, JSON.stringify({ trustedFolders: ['/workspace'] }));
    const filePath = '/workspace/p-binary.txt';
    fs.writeFileSync(path.join(ws, 'p-binary.txt'), 'original p-binary.txt\n');
    const plan = api.addPlan({ trigger: 'REDLINE-COPILOT-CTR', path: filePath, oldStr: 'original', newStr: 'proposed by copilot in the container', final: 'done CTR' });
    const tmux = await privateTmux('redline-ctr-copilot-');
    let pane;
    try {
      const command = c.command({
        runArgs: args,
        argv: [COPILOT_BIN, '--log-level', 'all'],
        env: containerEnv({
          HOME: '/root',
          TERM: 'xterm-256color',
          LANG: 'C.UTF-8',
          COPILOT_OFFLINE: 'true',
          COPILOT_PROVIDER_BASE_URL: api.baseURL,
          COPILOT_PROVIDER_TYPE: 'openai',
          COPILOT_PROVIDER_API_KEY: COPILOT_KEY,
          COPILOT_MODEL,
          COPILOT_AUTO_UPDATE: 'false',
        }),
        files: [[config, '/root/.copilot/config.json']],
      });
      await tmux.tmux(['new-session', '-d', '-s', 'rl', '-n', 'copilot-ctr', '-x', '160', '-y', '50', '-c', scratch, paneCommand('copilot', { command })]);
      pane = tmuxPane(tmux.tmux, 'rl:copilot-ctr', { label: 'copilot', name: 'copilot-ctr', inputLine: COPILOT_INPUT });
      await pane.waitForScreen(COPILOT_READY, 60_000, 'copilot to be ready in the container');
      await pollUntil(async () => {
        const s = JSON.parse(await ok(r, ['status', '--json']));
        return s.workspaces[0].clients.some((x) => x.name === 'copilot-cli' && x.version === COPILOT_VERSION);
      }, STEP_MS, 'copilot in the container to connect to Redline');
      await pane.submit('REDLINE-COPILOT-CTR please');
      await waitForEditPermission(pane, filePath);
      const review = JSON.parse(await ok(r, ['review', 'wait', '--file', filePath, '--timeout', '40']));
      assert.equal(review.path, path.join(ws, 'p-binary.txt'), 'the host file');
      assert.equal(review.container, true);
      await ok(r, ['review', 'accept', String(review.id)]);
      await api.waitFor((x) => x.decision.kind === 'final' && x.decision.plan === plan, STEP_MS, "copilot's edit result");
      await pollUntil(async () => fs.readFileSync(path.join(ws, 'p-binary.txt'), 'utf8') === 'proposed by copilot in the container p-binary.txt\n', STEP_MS, "copilot's write on the host");
    } catch (err) {
      err.message += `\n--- copilot screen ---\n${await pane?.screen().catch(() => '')}\n--- redline ---\n${r.stderr().slice(-3000)}`;
      throw err;
    } finally {
      await tmux.stop();
      await api.close();
    }
  });

  // Docker (rootful) keeps the host's uids on a bind mount: the files belong to the user running
  // Redline. Gemini CLI skips discovery files not owned by its own uid, so a CLI running as root
  // in the container finds nothing; run as the Redline user's uid (`docker run --user`), it
  // connects. Simulated by handing the files to uid 1000, as if a user 1000 ran Redline.
  test("Gemini CLI's uid rule: files of another uid are skipped; --user with Redline's uid connects", async () => {
    const args = await runArgs(['--path', '/workspace']);
    const gemini = args.mounts.find((m) => m.target === '/tmp/gemini/ide').source;
    const files = fs.readdirSync(gemini).map((f) => path.join(gemini, f));
    assert.equal(files.length, 1, `one discovery file: ${files}`);
    const connectAs = async (user) => {
      const g = await startGeminiClient({
        name: `gemini-${user ?? 'root'}`,
        env: { PATH: process.env.PATH },
        wrap: (argv) => c.command({ runArgs: args, argv, env: containerEnv({ HOME: '/tmp' }), ipc: true, user }),
      });
      try {
        return await g.connect();
      } finally {
        await g.close();
      }
    };
    const wsMode = fs.statSync(ws).mode & 0o777;
    try {
      for (const p of [gemini, ...files]) fs.chownSync(p, 1000, 1000);
      fs.chmodSync(ws, 0o755);
      const asRoot = await connectAs(undefined);
      assert.equal(asRoot.state.status, 'disconnected');
      assert.equal(asRoot.ide, null, 'no file it owns: no IDE detected');
      const asUser = await connectAs('1000:1000');
      assert.equal(asUser.state.status, 'connected', JSON.stringify(asUser));
      assert.equal(asUser.ide?.name, 'redline');
    } finally {
      for (const p of [gemini, ...files]) fs.chownSync(p, 0, 0);
      fs.chmodSync(ws, wsMode);
    }
  });

  // VS Code sets REMOTE_CONTAINERS in a dev container's terminals; Gemini CLI then connects to
  // 127.0.0.1, the container's own loopback. An empty value (devcontainer.json `remoteEnv`)
  // reads as unset.
  test('REMOTE_CONTAINERS=true sends Gemini CLI to the wrong loopback; set empty, it connects', async () => {
    const args = await runArgs(['--path', '/workspace']);
    const connectWith = async (extra) => {
      const g = await startGeminiClient({
        name: 'gemini-devcontainer',
        env: { PATH: process.env.PATH },
        wrap: (argv) => c.command({ runArgs: args, argv, env: containerEnv(extra), ipc: true }),
      });
      try {
        return await g.connect();
      } finally {
        await g.close();
      }
    };
    const devcontainer = await connectWith({ REMOTE_CONTAINERS: 'true' });
    assert.equal(devcontainer.state.status, 'disconnected', JSON.stringify(devcontainer));
    const emptied = await connectWith({ REMOTE_CONTAINERS: '', VSCODE_REMOTE_CONTAINERS_SESSION: '' });
    assert.equal(emptied.state.status, 'connected', JSON.stringify(emptied));
  });

  test('Gemini CLI client in a Podman container (/run/.containerenv, no /.dockerenv) connects too', async () => {
    const args = await runArgs(['--path', '/workspace']);
    const markers = "const fs = require('fs'); console.log(['/.dockerenv', '/run/.containerenv'].filter((f) => fs.existsSync(f)).join(' '))";
    assert.equal(await inContainer(c, args, markers, { podman: true }), '/run/.containerenv');
    assert.equal(await inContainer(c, args, markers), '/.dockerenv');
    const client = await startGeminiClient({
      name: 'gemini-podman',
      env: { PATH: process.env.PATH },
      wrap: (argv) => c.command({ runArgs: args, argv, env: containerEnv(), ipc: true, podman: true }),
    });
    try {
      const conn = await client.connect();
      assert.equal(conn.state.status, 'connected', JSON.stringify(conn));
    } finally {
      await client.close();
    }
  });

  // Redline starts at login, Docker later (and Podman makes its bridge when a container needs
  // it): the address saved at enable is listened on before it exists, and answers once it does.
  test('the bridge address may come up after Redline starts', async () => {
    await ok(r, ['quit']);
    await r.waitExit();
    execFileSync('ip', ['addr', 'del', `${c.hostAddr}/30`, 'dev', c.hostIf]);
    try {
      restarted = spawn(r.bin, ['serve', '--headless'], { env: r.env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      await new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`redline serve not ready: ${out}`)), 30_000);
        restarted.stdout.on('data', (d) => {
          out += d;
          if (out.includes('ready')) {
            clearTimeout(timer);
            resolve();
          }
        });
        restarted.once('exit', (code) => reject(new Error(`redline serve exited ${code}: ${out}`)));
      });
      const w = JSON.parse(await ok(r, ['status', '--json'])).workspaces[0];
      assert.equal(w.containers.address, c.hostAddr);
      assert.equal(w.containers.error, null);
      assert.equal(w.containers.port, w.port);
    } finally {
      execFileSync('ip', ['addr', 'add', `${c.hostAddr}/30`, 'dev', c.hostIf]);
    }
    const port = JSON.parse(await ok(r, ['status', '--json'])).workspaces[0].port;
    assert.equal(await inContainer(c, await runArgs(), PROBE('host.docker.internal', port)), 'connected');
  });

  test('redline container disable: back to loopback only', async () => {
    await ok(r, ['container', 'disable', ws]);
    const st = JSON.parse(await ok(r, ['status', '--json']));
    assert.equal(st.workspaces[0].containers, null);
    const port = st.workspaces[0].port;
    const plan = { addHost: `host.docker.internal:${c.hostAddr}`, mounts: [], env: [], workdir: '/' };
    assert.equal(await inContainer(c, plan, PROBE('host.docker.internal', port)), 'ECONNREFUSED');
  });
});

describe('the simulated container cleans up after itself', { skip: cannot ?? false, timeout: 60_000 }, () => {
  const lib = new URL('./lib/container.mjs', import.meta.url).href;
  const exists = (kind, name) => {
    const args = kind === 'netns' ? ['netns', 'list'] : ['-br', 'link'];
    return execFileSync('ip', args).toString().split('\n').some((l) => l.split(/[\s@]/)[0] === name);
  };

  test('a run that fails leaves no namespace, veth or state dir', () => {
    const script = `const { createContainer } = await import(${JSON.stringify(lib)});
      const c = await createContainer();
      console.log(JSON.stringify({ name: c.name, hostIf: c.hostIf, state: c.state }));
      throw new Error('a failing test');`;
    const res = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
    assert.notEqual(res.status, 0);
    const { name, hostIf, state } = JSON.parse(res.stdout.trim().split('\n')[0]);
    assert.equal(exists('netns', name), false, `${name} is gone`);
    assert.equal(exists('link', hostIf), false, `${hostIf} is gone`);
    assert.equal(fs.existsSync(state), false, `${state} is gone`);
  });

  test('a run killed outright is swept by the next one', async () => {
    const script = `const { createContainer } = await import(${JSON.stringify(lib)});
      const c = await createContainer();
      console.log(JSON.stringify({ name: c.name, hostIf: c.hostIf, state: c.state }));
      process.kill(process.pid, 'SIGKILL');`;
    const res = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(res.signal, 'SIGKILL');
    const { name, hostIf, state } = JSON.parse(res.stdout.trim().split('\n')[0]);
    assert.equal(exists('netns', name), true, 'SIGKILL runs no handler');
    const next = await createContainer();
    await next.destroy();
    assert.equal(exists('netns', name), false, `${name} swept`);
    assert.equal(exists('link', hostIf), false, `${hostIf} went with it`);
    assert.equal(fs.existsSync(state), false, `${state} swept`);
  });
});
