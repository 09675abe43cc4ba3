// Codex CLI's `/ide` against Redline: Codex asks `$TMPDIR/codex-ipc/ipc-<uid>.sock` for the IDE
// context before each message, and Redline answers with what the editor (here `redline context`,
// as the Sublime Text plugin sends it) said for the workspace holding Codex's folder.
//
//   cd tests/interop && npm ci && REDLINE_BIN=/path/to/redline node --test codex-ide.test.mjs
//
// The real `codex` TUI (@openai/codex 0.171.0) under tmux, offline against codex-fake-api.mjs,
// in a loopback-only network namespace when root (the unix socket is a path: it crosses it).
// Redline gets codex's TMPDIR (codex-driver.mjs keeps it beside CODEX_HOME, not above it), so
// both name the same socket.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

import net from 'node:net';

import { startRedline } from './lib/redline.mjs';
import { nvimMissing, startNvim } from './lib/nvim.mjs';
import { pollUntil } from './lib/wait.mjs';
import { startFakeApi, itemText } from './codex-fake-api.mjs';
import { codexHome, codexInstalled, codexTempDir, startCodex, CODEX_VERSION } from './codex-driver.mjs';

const STEP_MS = 30_000;
const skip = codexInstalled() ? false : `codex ${CODEX_VERSION} not installed: npm ci in tests/interop`;

/** Codex's IPC frame: a u32 little-endian length, then the JSON. */
function frame(message) {
  const body = Buffer.from(JSON.stringify(message));
  const len = Buffer.alloc(4);
  len.writeUInt32LE(body.length);
  return Buffer.concat([len, body]);
}

/** Calls `onMessage` with each frame `socket` receives. */
function readFrames(socket, onMessage) {
  let buf = Buffer.alloc(0);
  socket.on('data', (chunk) => {
    buf = Buffer.concat([buf, chunk]);
    while (buf.length >= 4 && buf.length >= 4 + buf.readUInt32LE(0)) {
      const len = buf.readUInt32LE(0);
      const body = buf.subarray(4, 4 + len);
      buf = buf.subarray(4 + len);
      onMessage(JSON.parse(body.toString('utf8')));
    }
  });
}

/** One `ide-context` exchange on `socketPath`, as Codex makes it: the answer. */
function askContext(socketPath, root) {
  return new Promise((resolve, reject) => {
    const s = net.connect(socketPath);
    const timer = setTimeout(() => { s.destroy(); reject(new Error('no ide-context answer')); }, 5000);
    s.on('error', (e) => { clearTimeout(timer); reject(e); });
    s.on('connect', () => s.write(frame({ type: 'request', requestId: 'probe', sourceClientId: 'probe',
      version: 0, method: 'ide-context', params: { workspaceRoot: root } })));
    readFrames(s, (m) => {
      if (m.type === 'response' && m.requestId === 'probe') { clearTimeout(timer); s.end(); resolve(m); }
    });
  });
}

/** The last user message of a model request, as codex sent it. */
function userText(body) {
  const users = (body.input ?? []).filter((m) => m.role === 'user');
  return itemText(users[users.length - 1]);
}

describe(`Codex CLI ${CODEX_VERSION}'s /ide context from Redline`, { skip }, () => {
  let api;
  let r;
  let ws;
  let home;
  let codex;

  before(async () => {
    api = await startFakeApi({ log: process.env.REDLINE_IT_VERBOSE ? (m) => console.error(m) : undefined });
    ws = await codexTempDir('rl-codex-ide-ws-');
    await fsp.writeFile(path.join(ws, 'a.txt'), 'alpha\nbravo charlie\ndelta\n');
    await fsp.writeFile(path.join(ws, 'b.txt'), 'b\n');
    home = await codexHome({ api, workspaces: [ws] });
    r = await startRedline({ workspaces: [ws], env: { TMPDIR: home.tmp } });
    const socket = path.join(home.tmp, 'codex-ipc', `ipc-${process.getuid()}.sock`);
    await pollUntil(() => ({ ok: fs.existsSync(socket), value: socket }), STEP_MS, `Redline's Codex socket at ${socket}`);
    codex = await startCodex({ cwd: ws, home, api });
    await codex.waitReady();
  });

  after(async () => {
    await codex?.stop();
    await r?.stop();
    await home?.stop();
    await api?.close();
    if (ws) await fsp.rm(ws, { recursive: true, force: true });
  });

  test('/ide on before any editor context: codex connects, and the message goes without context', async () => {
    await codex.submit('/ide on');
    // An error answer would leave /ide off ("IDE context could not be enabled"): Redline answers
    // an empty context instead.
    await codex.waitForScreen(/Connected to your IDE|IDE context is on/, STEP_MS, 'codex to connect to the IDE');
    const screen = await codex.screen();
    assert.ok(!/could not be enabled/.test(screen), screen);
    const before = api.requests.length;
    await codex.submit('first without context');
    const rec = await api.waitFor((q) => q.n > before && userText(q.body).includes('first without context'), STEP_MS, 'the model request of the first message');
    assert.ok(!userText(rec.body).includes('# Context from my IDE setup:'), userText(rec.body));
  });

  test('after `redline context`, the next message carries the active file, its selection and the open tabs', async () => {
    const res = await r.run(['context', '--file', path.join(ws, 'a.txt'), '--line', '2', '--selection', '2:1-2:6']);
    assert.equal(res.code, 0, res.stderr);
    const before = api.requests.length;
    await codex.submit('explain the selection');
    const rec = await api.waitFor((q) => q.n > before && userText(q.body).includes('explain the selection'), STEP_MS, 'the model request with the IDE context');
    const text = userText(rec.body);
    assert.match(text, /# Context from my IDE setup:/, text);
    assert.match(text, /## Active file: a\.txt\n/, text);
    assert.match(text, /## Active selection of the file:\nbravo\n/, text);
    assert.match(text, /## Open tabs:\n- a\.txt: a\.txt\n/, text);
    assert.match(text, /## My request for Codex:\nexplain the selection/, text);
  });

  test('a Neovim selection (editors/nvim) reaches codex\'s next model request', { skip: nvimMissing() ?? false }, async () => {
    const n = await startNvim({ r, cwd: ws, file: 'b.txt' });
    try {
      await n.keys(':edit a.txt<CR>');
      await n.keys('2G0vee');
      // Codex asks only when a message is sent: wait until Redline has the selection to give.
      const socket = path.join(home.tmp, 'codex-ipc', `ipc-${process.getuid()}.sock`);
      const answer = await pollUntil(async () => {
        const a = await askContext(socket, ws);
        const active = a.result?.ideContext?.activeFile;
        return { ok: active?.activeSelectionContent === 'bravo charlie', value: a };
      }, STEP_MS, "Neovim's selection in Redline's answer");
      assert.equal(answer.result.ideContext.activeFile.path, 'a.txt');
      const before = api.requests.length;
      await codex.submit('what does the selection do');
      const rec = await api.waitFor((q) => q.n > before && userText(q.body).includes('what does the selection do'), STEP_MS, 'the model request with the Neovim selection');
      const text = userText(rec.body);
      assert.match(text, /## Active file: a\.txt\n/, text);
      assert.match(text, /## Active selection of the file:\nbravo charlie\n/, text);
    } finally {
      await n.keys('<Esc>').catch(() => {});
      await n.stop();
    }
  });

  test('a folder in no workspace: /ide on is refused with codex\'s own hint', async () => {
    const elsewhere = await codexTempDir('rl-codex-ide-out-');
    const other = await startCodex({ cwd: elsewhere, home, api });
    try {
      await other.waitReady();
      await other.submit('/ide on');
      const screen = await other.waitForScreen(/could not be enabled/, STEP_MS, 'codex to refuse /ide on');
      assert.match(screen, /Open this project in VS Code or Cursor/, screen);
    } finally {
      await other.stop();
      await fsp.rm(elsewhere, { recursive: true, force: true });
    }
  });
});

/**
 * A Codex desktop app's router, as Codex's IPC protocol has it (read from codex's source and the
 * clients written against it): clients `initialize` and get an id; a request is offered to the
 * other clients (`client-discovery-request`) and forwarded to the first that can answer.
 */
async function startRouter(socketPath) {
  const clients = new Map();
  const waiting = new Map();
  const log = [];
  let n = 0;
  const ask = (socket, message) => new Promise((resolve) => {
    waiting.set(message.requestId, resolve);
    socket.write(frame(message));
    setTimeout(() => { waiting.delete(message.requestId); resolve(null); }, 3000);
  });
  const route = async (from, m) => {
    for (const [id, c] of clients) {
      if (c.socket === from) continue;
      const d = await ask(c.socket, { type: 'client-discovery-request', requestId: `d${++n}`, request: m });
      log.push({ discovery: c.type, canHandle: d?.response?.canHandle });
      if (d?.response?.canHandle !== true) continue;
      const answer = await ask(c.socket, { ...m, requestId: `f${++n}` });
      if (answer) return { ...answer, requestId: m.requestId, handledByClientId: id };
    }
    return { type: 'response', requestId: m.requestId, method: m.method, resultType: 'error', error: 'no-client-found' };
  };
  const server = net.createServer((socket) => {
    socket.on('error', () => {});
    readFrames(socket, async (m) => {
      if (m.type === 'response' || m.type === 'client-discovery-response') {
        waiting.get(m.requestId)?.(m);
        waiting.delete(m.requestId);
      } else if (m.type === 'request' && m.method === 'initialize') {
        const clientId = `client-${++n}`;
        clients.set(clientId, { socket, type: m.params?.clientType });
        socket.on('close', () => clients.delete(clientId));
        socket.write(frame({ type: 'response', requestId: m.requestId, method: 'initialize',
          handledByClientId: 'router', resultType: 'success', result: { clientId } }));
      } else if (m.type === 'request') {
        socket.write(frame(await route(socket, m)));
      }
    });
  });
  await fsp.mkdir(path.dirname(socketPath), { recursive: true, mode: 0o700 });
  await new Promise((resolve) => server.listen(socketPath, resolve));
  return {
    log,
    clientTypes: () => [...clients.values()].map((c) => c.type),
    close: () => new Promise((resolve) => { for (const c of clients.values()) c.socket.destroy(); server.close(resolve); }),
  };
}

describe(`Codex CLI ${CODEX_VERSION}'s /ide through a Codex app's router, Redline behind it`, { skip }, () => {
  let api;
  let r;
  let ws;
  let home;
  let codex;
  let router;

  before(async () => {
    api = await startFakeApi({ log: process.env.REDLINE_IT_VERBOSE ? (m) => console.error(m) : undefined });
    ws = await codexTempDir('rl-codex-router-ws-');
    await fsp.writeFile(path.join(ws, 'a.txt'), 'alpha\nbravo charlie\ndelta\n');
    home = await codexHome({ api, workspaces: [ws] });
    router = await startRouter(path.join(home.tmp, 'codex-ipc', `ipc-${process.getuid()}.sock`));
    r = await startRedline({ workspaces: [ws], env: { TMPDIR: home.tmp } });
    await pollUntil(() => ({ ok: router.clientTypes().includes('redline'), value: router.clientTypes() }), STEP_MS, 'Redline to join the router');
    codex = await startCodex({ cwd: ws, home, api });
    await codex.waitReady();
  });

  after(async () => {
    await codex?.stop();
    await r?.stop();
    await router?.close();
    await home?.stop();
    await api?.close();
    if (ws) await fsp.rm(ws, { recursive: true, force: true });
  });

  test('the router forwards codex\'s ide-context to Redline, and the selection reaches the model', async () => {
    const res = await r.run(['context', '--file', path.join(ws, 'a.txt'), '--line', '2', '--selection', '2:1-2:6']);
    assert.equal(res.code, 0, res.stderr);
    await codex.submit('/ide on');
    await codex.waitForScreen(/Connected to your IDE|IDE context is on/, STEP_MS, 'codex to connect through the router');
    const before = api.requests.length;
    await codex.submit('explain it');
    const rec = await api.waitFor((q) => q.n > before && userText(q.body).includes('explain it'), STEP_MS, 'the model request with the IDE context');
    const text = userText(rec.body);
    assert.match(text, /## Active selection of the file:\nbravo\n/, text);
    assert.ok(router.log.some((e) => e.discovery === 'redline' && e.canHandle === true), JSON.stringify(router.log));
  });
});
