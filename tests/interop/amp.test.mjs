// Amp's IDE channel against Redline: the real `amp` TUI (@sourcegraph/amp, the Bun binary of
// @ampcode/cli-linux-x64) finds Redline's lock in ~/.local/share/amp/ide by itself, connects with
// the lock's token, and takes the editor's selection and visible files without a parse error.
//
//   cd tests/interop && npm ci && REDLINE_BIN=/path/to/redline node --test amp.test.mjs
//
// Offline: Amp's API is a local fake that answers `getUserInfo` (all Amp needs to start its TUI);
// in a loopback-only network namespace when root, with the fake API and Redline's Amp port
// relayed in. Amp shows the IDE's selection nowhere on screen and sends it only with a message to
// its servers (which cannot be faked offline), so what is proven is Amp's side of the channel:
// connected to Redline's port, every frame Redline sent accepted by its parser (it logs
// "failed to parse server message" otherwise), and a rotated token followed.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { startRedline } from './lib/redline.mjs';
import { isolationUnavailable, isolated, unixBridge } from './lib/netns.mjs';
import { paneCommand, privateTmux, tmuxPane } from './lib/tmux.mjs';
import { pollUntil } from './lib/wait.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const AMP_VERSION = '0.0.1790142911-g7618fb';
const AMP_BIN = path.join(here, 'node_modules', '@ampcode', 'cli-linux-x64', 'amp');
const NETNS_WRAPPER = path.join(here, 'copilot-netns.mjs');
const STEP_MS = 30_000;
const skip = process.platform !== 'linux' || process.arch !== 'x64'
  ? 'the pinned amp binary is linux-x64'
  : fs.existsSync(AMP_BIN) ? false : `amp ${AMP_VERSION} not installed: npm ci in tests/interop`;

/** Amp's API as far as its TUI needs it offline: who the user is; everything else refused. */
async function startFakeAmpApi() {
  const calls = [];
  const server = http.createServer((req, res) => {
    calls.push(`${req.method} ${req.url}`);
    req.resume();
    const body = req.url.includes('getUserInfo')
      ? { ok: true, result: { id: 'u1', email: 'dev@example.invalid', username: 'dev', features: [], enabledFeatureFlags: [] } }
      : { ok: false, error: { code: 'auth-required', message: 'offline' } };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return { port, url: `http://127.0.0.1:${port}`, calls, close: () => new Promise((r) => server.close(r)) };
}

/** The real amp TUI in `cwd` under tmux, logging at debug level to `logFile`. */
async function startAmp({ r, cwd, api, ampPort, logFile }) {
  const tmux = await privateTmux('redline-amp-tmux-');
  const env = {
    HOME: r.env.HOME, TMPDIR: r.env.TMPDIR, PATH: '/usr/bin:/bin', TERM: 'xterm-256color',
    AMP_URL: api.url, AMP_API_KEY: 'offline', AMP_SKIP_UPDATE_CHECK: '1',
  };
  const argv = [AMP_BIN, '--log-level', 'debug', '--log-file', logFile];
  const bridges = [];
  let cmd;
  if (isolationUnavailable() === null) {
    // One namespace, two relays: the fake API's port and Redline's Amp port.
    const apiBridge = await unixBridge(api.port);
    const ideBridge = await unixBridge(ampPort);
    bridges.push(apiBridge, ideBridge);
    const envArgs = Object.entries(env).map(([k, v]) => `${k}=${v}`);
    cmd = paneCommand('amp', {
      command: isolated(api.port, apiBridge.socketPath, [
        process.execPath, NETNS_WRAPPER, String(ampPort), ideBridge.socketPath, '--', 'env', '-i', ...envArgs, ...argv,
      ]),
    });
  } else {
    cmd = paneCommand('amp', { env, argv });
  }
  await tmux.tmux(['new-session', '-d', '-s', 'amp', '-x', '160', '-y', '45', '-c', cwd, cmd]);
  const pane = tmuxPane(tmux.tmux, 'amp:0.0', { label: 'amp', inputLine: /^│/ });
  return {
    ...pane,
    /** Amp's log, one JSON object a line. */
    log() {
      if (!fs.existsSync(logFile)) return [];
      return fs.readFileSync(logFile, 'utf8').split('\n').filter(Boolean).flatMap((l) => {
        try { return [JSON.parse(l)]; } catch { return []; }
      });
    },
    async stop() {
      await tmux.stop();
      for (const b of bridges) await b.close();
    },
  };
}

const ideLines = (amp) => amp.log().filter((e) => String(e.message).startsWith('ide-client:'));
const parseErrors = (amp) => ideLines(amp).filter((e) => /failed to parse|error handling/.test(e.message));

describe(`Amp ${AMP_VERSION} and Redline's Amp channel`, { skip }, () => {
  let api;
  let r;
  let ws;
  let amp;
  let logDir;
  let ampPort;

  before(async () => {
    api = await startFakeAmpApi();
    ws = fs.realpathSync(await fsp.mkdtemp(path.join(os.tmpdir(), 'rl-amp-ws-')));
    await fsp.mkdir(path.join(ws, 'src'));
    await fsp.writeFile(path.join(ws, 'src', 'a.txt'), 'alpha\nbravo charlie\ndelta\n');
    logDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'rl-amp-log-'));
    r = await startRedline({ workspaces: [ws] });
    const status = JSON.parse((await r.run(['status', '--json'])).stdout);
    ampPort = status.workspaces[0].ampPort;
    assert.ok(ampPort, JSON.stringify(status));
    // From a subfolder: Amp takes the one lock whose folder holds it.
    amp = await startAmp({ r, cwd: path.join(ws, 'src'), api, ampPort, logFile: path.join(logDir, 'amp.log') });
  });

  after(async () => {
    await amp?.stop();
    await r?.stop();
    await api?.close();
    for (const d of [ws, logDir]) if (d) await fsp.rm(d, { recursive: true, force: true });
  });

  test('amp connects to Redline by the lock alone, from a subfolder of the workspace', async () => {
    const connected = await pollUntil(() => {
      const c = ideLines(amp).find((e) => e.message === 'ide-client: connected');
      return { ok: !!c, value: c };
    }, STEP_MS, 'amp to log "ide-client: connected"');
    assert.equal(connected.ideName, 'Redline', JSON.stringify(connected));
    assert.equal(connected.port, ampPort, JSON.stringify(connected));
    assert.ok(api.calls.some((c) => c.includes('getUserInfo')), api.calls.join('\n'));
  });

  test('the editor\'s selection and visible files reach amp, and its parser takes every frame', async () => {
    const file = path.join(ws, 'src', 'a.txt');
    const res = await r.run(['context', '--file', file, '--line', '2', '--selection', '2:1-2:6']);
    assert.equal(res.code, 0, res.stderr);
    // Redline says it has a connected Amp; the frames went to it.
    const status = await pollUntil(async () => {
      const s = JSON.parse((await r.run(['status', '--json'])).stdout);
      return { ok: s.workspaces[0].clients.some((c) => c.name === 'Amp'), value: s };
    }, STEP_MS, 'Redline to list amp as a client');
    assert.ok(status.workspaces[0].clients.length >= 1);
    // A second change after the first, so amp has had the first frames to parse.
    const again = await r.run(['context', '--file', file, '--line', '3', '--selection', '3:1-3:5']);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(parseErrors(amp), [], JSON.stringify(ideLines(amp)));
  });

  test('a rotated token: Redline closes amp\'s connection, and amp reconnects with the lock\'s new token', async () => {
    const before = ideLines(amp).filter((e) => e.message === 'ide-client: connected').length;
    const res = await r.run(['token', 'rotate', ws]);
    assert.equal(res.code, 0, res.stderr);
    await pollUntil(() => {
      const n = ideLines(amp).filter((e) => e.message === 'ide-client: connected').length;
      return { ok: n > before, value: n };
    }, STEP_MS, 'amp to reconnect after the rotation');
    const lines = ideLines(amp);
    assert.ok(lines.some((e) => e.message === 'ide-client: disconnected'), JSON.stringify(lines));
    assert.ok(!lines.some((e) => /Authentication failed/.test(JSON.stringify(e))), JSON.stringify(lines));
    assert.deepEqual(parseErrors(amp), []);
  });
});
