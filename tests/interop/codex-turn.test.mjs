// The end-of-turn review under the real Codex CLI (`redline hooks install codex --turn-review`):
// the turn's patch recorded by the PreToolUse hook, codex's Stop hook opening the turn's review,
// "Continue with instructions" (`redline review reject --reason`) blocking the Stop so the model's
// next request carries the words, and the Stop run again with nothing new ending the turn.
//
//   cd tests/interop && npm ci && REDLINE_BIN=/path/to/redline node --test codex-turn.test.mjs
//
// As codex-hook.test.mjs: the real `codex` TUI (@openai/codex 0.171.0) under tmux, offline
// against codex-fake-api.mjs, its hooks trusted as `/hooks` would.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

import { startRedline, defaultBin } from './lib/redline.mjs';
import { pollUntil } from './lib/wait.mjs';
import { startFakeApi, itemText } from './codex-fake-api.mjs';
import { codexHome, codexInstalled, codexTempDir, startCodex, trustHooks, CODEX_VERSION } from './codex-driver.mjs';

const STEP_MS = 30_000;
const BIN = process.env.REDLINE_BIN || defaultBin;
const skip = !codexInstalled() ? `codex ${CODEX_VERSION} not installed: npm ci in tests/interop`
  : !fs.existsSync(BIN) ? `no redline at ${BIN}` : false;

describe(`redline hook codex --turn-review under codex ${CODEX_VERSION}`, { skip }, () => {
  let api, r, ws, home, codex;

  before(async () => {
    api = await startFakeApi({ log: process.env.REDLINE_IT_VERBOSE ? (m) => console.error(m) : undefined });
    ws = await codexTempDir('rl-codex-turn-ws-');
    r = await startRedline({ workspaces: [ws] });
    home = await codexHome({ api, workspaces: [ws] });
    const res = await r.run(['hooks', 'install', 'codex', '--turn-review'], { env: { ...r.env, HOME: home.home, CODEX_HOME: home.codexHome } });
    assert.equal(res.code, 0, `redline hooks install codex --turn-review: ${res.stderr}`);
    const hooks = JSON.parse(fs.readFileSync(home.hooksFile, 'utf8'));
    assert.match(hooks.hooks.Stop[0].hooks[0].command, / hook codex --turn-review$/);
    trustHooks(home.codexHome);
  });

  after(async () => {
    await codex?.stop();
    await r?.stop();
    await home?.stop();
    await api?.close();
    if (ws) await fsp.rm(ws, { recursive: true, force: true });
  });

  const ok = async (args) => {
    const res = await r.run(args);
    assert.equal(res.code, 0, `redline ${args.join(' ')}: ${res.stderr}`);
    return res.stdout;
  };

  const listed = (want, what) => pollUntil(async () => {
    const list = await r.json(['review', 'list', '--json']);
    return { ok: want(list), value: list };
  }, STEP_MS, what);

  test('Continue with instructions: codex goes on, and the model\'s next request carries the words', async (t) => {
    fs.writeFileSync(path.join(ws, 'a.txt'), 'one\ntwo\n');
    codex = await startCodex({
      cwd: ws, home, api,
      env: { PATH: `${path.dirname(r.bin)}:${process.env.PATH}`, XDG_RUNTIME_DIR: r.env.XDG_RUNTIME_DIR, XDG_CONFIG_HOME: r.env.XDG_CONFIG_HOME },
    });
    try {
      await codex.waitReady();
      const trigger = `TURN-${Date.now()}`;
      api.addPlan({ trigger, patch: '*** Begin Patch\n*** Update File: a.txt\n@@\n one\n-two\n+TWO\n*** End Patch\n', final: `done ${trigger}` });
      await codex.submit(`${trigger} please`);
      const [edit] = await listed((l) => l.length === 1, 'the patch\'s review');
      assert.equal(edit.kind, 'edit');
      await ok(['review', 'accept', String(edit.id)]);
      const [turn] = await listed((l) => l.length === 1 && l[0].kind === 'turn', 'the turn\'s review at codex\'s Stop');
      assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'one\nTWO\n');
      assert.match(await ok(['review', 'show', String(turn.id)]), /^\+TWO$/m);
      const words = 'REDLINE-CONTINUE: also add a line three';
      await ok(['review', 'reject', String(turn.id), '--reason', words]);
      const next = await api.waitFor((q) => (q.body.input ?? []).some((i) => itemText(i).includes(words)), STEP_MS, 'the next request with the user\'s words');
      const carrying = next.body.input.filter((i) => itemText(i).includes(words));
      // codex 0.171.0 sends them as a user message: <hook_prompt hook_run_id="stop:…">words</hook_prompt>.
      assert.ok(carrying.some((i) => i.role === 'user' && /<hook_prompt hook_run_id="stop:[^"]*">REDLINE-CONTINUE/.test(itemText(i))), JSON.stringify(carrying));
      t.diagnostic(`codex sends the words as: ${JSON.stringify(carrying.map((i) => [i.type, i.role, itemText(i).slice(0, 200)]))}`);
      // The fake model answers "ok": the Stop runs again with nothing new and ends the turn.
      await listed((l) => l.length === 0, 'no review left');
      await codex.waitForScreen((s) => s.includes('ok'), STEP_MS, 'codex to end the continued turn');
      assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'one\nTWO\n', 'Redline writes nothing');
    } catch (err) {
      err.message += `\n--- screen ---\n${await codex?.screen().catch(() => '')}\n--- redline ---\n${r?.stderr().slice(-3000)}`;
      throw err;
    }
  });
});
