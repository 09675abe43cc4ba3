// The end-of-turn review with the real claude 2.1.332 and gemini 0.61.0 (`redline hooks install
// claude|gemini --turn-review`): the turn's Write recorded by its PreToolUse hook, its Stop hook opening the
// turn's review (the file at the turn's start against now), "Continue with instructions"
// (`redline review reject --reason`) blocking the Stop so the model's next request carries the
// user's words, and the Stop run again (stop_hook_active) with nothing new ending the turn at once.
// Offline: claude talks to a local fake of the Messages API.

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { ok, startRedline } from './lib/redline.mjs';
import { endSession, realTmpDir } from './lib/dirs.mjs';
import { pollUntil } from './lib/wait.mjs';
import { startFakeApi } from './claude-fake-api.mjs';
import { writeClaudeConfig, claudeEnv, startTmux, claudeInstalled } from './claude-driver.mjs';
import { startGeminiFakeModel } from './gemini-fake-model.mjs';
import { GEMINI_BIN, readyGemini, submitUntilSent, writeGeminiHome } from './lib/gemini-tui.mjs';

const STEP_MS = 45_000;
const log = process.env.REDLINE_IT_VERBOSE ? (m) => console.log(m) : () => {};

describe('Claude Code (real claude): the turn\'s changes in one review at its Stop', { skip: !claudeInstalled() && 'claude not installed (npm install in tests/interop)', timeout: 300_000 }, () => {
  const API_KEY = 'sk-ant-api03-redline-turn-0123456789abcdefghijklmnop';
  let ws, home, r, api, tmux, c;

  before(async () => {
    ws = realTmpDir('rl-turn-claude-ws-');
    home = realTmpDir('rl-turn-claude-home-');
    api = await startFakeApi({ log });
    r = await startRedline({ workspaces: [ws] });
    await writeClaudeConfig(home, { workspaces: [ws], apiKey: API_KEY });
    await ok(r, ['hooks', 'install', 'claude', '--turn-review'], { env: { ...r.env, HOME: home } });
    const settings = JSON.parse(fs.readFileSync(path.join(home, '.claude', 'settings.json'), 'utf8'));
    assert.match(settings.hooks.Stop[0].hooks[0].command, / hook claude --turn-review$/);
    assert.match(settings.hooks.PreToolUse[0].hooks[0].command, / --record-turn$/);
    tmux = await startTmux();
    const env = claudeEnv({ home, apiBaseUrl: api.baseURL, apiKey: API_KEY, extra: { XDG_RUNTIME_DIR: r.dirs.runtime } });
    c = await tmux.claude({ name: 'turn', cwd: ws, env, args: [] });
    await c.waitForScreen(/for shortcuts/, STEP_MS, 'claude to be ready');
  });

  after(() => endSession({ cli: tmux, redline: r, api }, ws, home));

  test('Continue with instructions: the Stop blocks, and the model\'s next request carries the words', async (t) => {
    const file = path.join(ws, 'a.txt');
    fs.writeFileSync(file, 'one\n');
    try {
      const trigger = 'REDLINE-TURN-T';
      api.addPlan({ trigger, filePath: file, content: 'one\ntwo\n', final: 'done T' });
      await c.submit(`${trigger} please`);
      // The edit's own review first (PreToolUse), accepted: claude writes it.
      const edit = JSON.parse(await ok(r, ['review', 'wait', '--file', file, '--timeout', String(STEP_MS / 1000)]));
      assert.equal(edit.kind, 'edit');
      await ok(r, ['review', 'accept', String(edit.id)]);
      // The turn ends: its Stop hook opens the turn's review.
      const turn = await pollUntil(async () => {
        const list = await r.json(['review', 'list', '--json']);
        return { ok: list.length === 1 && list[0].kind === 'turn', value: list };
      }, STEP_MS, 'the turn\'s review');
      assert.equal(fs.readFileSync(file, 'utf8'), 'one\ntwo\n');
      const shown = await ok(r, ['review', 'show', String(turn[0].id)]);
      assert.match(shown, /^\+two$/m, shown);
      const words = 'REDLINE-CONTINUE: now add a third line';
      await ok(r, ['review', 'reject', String(turn[0].id), '--reason', words]);
      const next = await api.waitFor((q) => JSON.stringify(q.body.messages ?? []).includes(words), STEP_MS, 'the next request with the user\'s words');
      // claude 2.1.332 passes it on as a system message after the turn:
      // "Stop hook blocking error from command: \"…redline hook claude --turn-review\": <words>".
      const last = next.body.messages[next.body.messages.length - 1];
      assert.equal(last.role, 'system');
      assert.match(JSON.stringify(last.content), /Stop hook blocking error from command: .*REDLINE-CONTINUE: now add a third line/);
      t.diagnostic(`the model's next request ends with (${last.role}): ${JSON.stringify(last.content).slice(0, 300)}`);
      // The fake model just answers "ok": the Stop runs again (stop_hook_active), nothing more
      // changed, so it ends the turn at once, with no review.
      await pollUntil(async () => {
        const list = await r.json(['review', 'list', '--json']);
        return { ok: list.length === 0, value: list };
      }, STEP_MS, 'no review left');
      await c.waitForScreen(/for shortcuts/, STEP_MS, 'claude idle again');
      assert.equal(fs.readFileSync(file, 'utf8'), 'one\ntwo\n', 'Redline writes nothing');
    } catch (err) {
      err.message += `\n--- screen ---\n${await c?.screen().catch(() => '')}\n--- redline ---\n${r?.stderr().slice(-3000)}`;
      throw err;
    }
  });
});

describe('Gemini CLI (real gemini): the turn\'s changes in one review at its AfterAgent', { skip: !fs.existsSync(GEMINI_BIN) && 'gemini not installed (npm install in tests/interop)', timeout: 300_000 }, () => {
  let ws, home, r, model, g;

  before(async () => {
    ws = realTmpDir('rl-turn-gemini-ws-');
    home = realTmpDir('rl-turn-gemini-home-');
    model = await startGeminiFakeModel({ log });
    r = await startRedline({ workspaces: [ws] });
    const file = writeGeminiHome(home, ws);
    await ok(r, ['hooks', 'install', 'gemini', '--turn-review'], { env: { ...r.env, HOME: home } });
    const settings = JSON.parse(fs.readFileSync(file, 'utf8'));
    assert.match(settings.hooks.AfterAgent[0].hooks[0].command, / hook gemini --turn-review$/);
    assert.match(settings.hooks.BeforeTool[0].hooks[0].command, / --record-turn$/);
    g = await readyGemini({ ws, home, model, r, approvalMode: 'auto_edit' });
  });

  after(() => endSession({ cli: g, redline: r, api: model }, ws, home));

  test('Continue with instructions: AfterAgent blocks, and the model\'s next request carries the words', async (t) => {
    const file = path.join(ws, 'a.txt');
    fs.writeFileSync(file, 'one\n');
    try {
      const trigger = 'REDLINE-TURN-G';
      model.setPlan({ trigger, filePath: file, content: 'one\ntwo\n', final: 'Gemini done G.' });
      const before = model.requests.length;
      await submitUntilSent(g, `Please do ${trigger}`, (ms) => model.waitFor((x) => x.decision.kind === 'write' && x.n > before, ms, `gemini to send ${trigger}`));
      // The edit's own review first (BeforeTool), accepted: gemini writes it.
      const edit = JSON.parse(await ok(r, ['review', 'wait', '--file', file, '--timeout', String(STEP_MS / 1000)]));
      assert.equal(edit.kind, 'edit');
      await ok(r, ['review', 'accept', String(edit.id)]);
      // The turn ends: its AfterAgent hook opens the turn's review.
      const turn = await pollUntil(async () => {
        const list = await r.json(['review', 'list', '--json']);
        return { ok: list.length === 1 && list[0].kind === 'turn', value: list };
      }, STEP_MS, 'the turn\'s review');
      assert.equal(fs.readFileSync(file, 'utf8'), 'one\ntwo\n');
      const shown = await ok(r, ['review', 'show', String(turn[0].id)]);
      assert.match(shown, /^\+two$/m, shown);
      const words = 'REDLINE-CONTINUE: now add a third line';
      await ok(r, ['review', 'reject', String(turn[0].id), '--reason', words]);
      const next = await model.waitFor((q) => q.decision.kind !== 'side' && JSON.stringify(q.body.contents ?? []).includes(words), STEP_MS, 'the next request with the user\'s words');
      const last = next.body.contents[next.body.contents.length - 1];
      t.diagnostic(`the model's next request ends with (${last.role}): ${JSON.stringify(last.parts).slice(0, 300)}`);
      assert.equal(last.role, 'user');
      assert.ok(JSON.stringify(last.parts).includes(words), JSON.stringify(last.parts));
      // The fake model answers "ok": AfterAgent runs again, nothing more changed, so the turn
      // ends at once, with no review.
      await pollUntil(async () => {
        const list = await r.json(['review', 'list', '--json']);
        return { ok: list.length === 0, value: list };
      }, STEP_MS, 'no review left');
      assert.equal(fs.readFileSync(file, 'utf8'), 'one\ntwo\n', 'Redline writes nothing');
    } catch (err) {
      err.message += `\n--- screen ---\n${await g?.screen().catch(() => '')}\n--- redline ---\n${r?.stderr().slice(-3000)}`;
      throw err;
    }
  });
});
