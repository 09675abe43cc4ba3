// The end-of-turn review with the real claude 2.1.332 (`redline hooks install claude
// --turn-review`): the turn's Write recorded by its PreToolUse hook, its Stop hook opening the
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
import { realTmpDir, removeDirs } from './lib/dirs.mjs';
import { pollUntil } from './lib/wait.mjs';
import { startFakeApi } from './claude-fake-api.mjs';
import { writeClaudeConfig, claudeEnv, startTmux, claudeInstalled } from './claude-driver.mjs';

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

  after(async () => {
    await tmux?.stop();
    await r?.stop();
    await api?.close();
    await removeDirs(ws, home);
  });

  test('Continue with instructions: the Stop blocks, and the model\'s next request carries the words', async (t) => {
    const file = path.join(ws, 'a.txt');
    fs.writeFileSync(file, 'one\n');
    try {
      const trigger = 'REDLINE-TURN-T';
      api.addPlan({ trigger, filePath: file, content: 'one\ntwo\n', final: 'done T' });
      await c.submit(`${trigger} please`);
      // The edit's own review first (PreToolUse), accepted: claude writes it.
      const edit = JSON.parse(await ok(r, ['review', 'wait', '--file', file, '--timeout', String(STEP_MS / 1000)]));
      assert.equal(edit.turn ?? false, false);
      await ok(r, ['review', 'accept', String(edit.id)]);
      // The turn ends: its Stop hook opens the turn's review.
      const turn = await pollUntil(async () => {
        const list = await r.json(['review', 'list', '--json']);
        return { ok: list.length === 1 && list[0].turn === true, value: list };
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
