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

import { startRedline } from './lib/redline.mjs';
import { pollUntil } from './lib/wait.mjs';
import { startFakeApi, itemText } from './codex-fake-api.mjs';
import { codexHome, codexInstalled, codexTempDir, startCodex, CODEX_VERSION } from './codex-driver.mjs';

const STEP_MS = 30_000;
const skip = codexInstalled() ? false : `codex ${CODEX_VERSION} not installed: npm ci in tests/interop`;

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
