// `redline turns` with the real claude 2.1.332 (offline, a local fake of the Messages API): only
// the turn hooks installed (UserPromptSubmit `--turn-start`, Stop `--turn-review`), the edits let
// through by claude's own permissions. One turn edits a CRLF file with the Write tool, then one
// Bash command creates a file, deletes one with `rm` and renames one with `mv`: `turns list`
// lists all four, and undoing one hunk of the CRLF file gives back exactly its bytes.

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { ok, startRedline } from './lib/redline.mjs';
import { realTmpDir, removeDirs } from './lib/dirs.mjs';
import { pollUntil } from './lib/wait.mjs';
import { startFakeApi } from './claude-fake-api.mjs';
import { writeClaudeConfig, claudeEnv, startTmux, claudeInstalled } from './claude-driver.mjs';

const STEP_MS = 45_000;
const log = process.env.REDLINE_IT_VERBOSE ? (m) => console.log(m) : () => {};
const CRLF = 'one\r\ntwo\r\nthree\r\nfour\r\nfive\r\n';
const CRLF_AFTER = 'one\r\nTWO\r\nthree\r\nfour\r\nFIVE\r\n';

describe('Claude Code (real claude): a turn\'s every change in `redline turns`', { skip: !claudeInstalled() && 'claude not installed (npm install in tests/interop)', timeout: 300_000 }, () => {
  const API_KEY = 'sk-ant-api03-redline-turns-0123456789abcdefghijklmnop';
  let ws, home, r, api, tmux, c;

  before(async () => {
    ws = realTmpDir('rl-turns-claude-ws-');
    home = realTmpDir('rl-turns-claude-home-');
    api = await startFakeApi({ log });
    r = await startRedline({ workspaces: [ws] });
    await writeClaudeConfig(home, { workspaces: [ws], apiKey: API_KEY });
    await ok(r, ['hooks', 'install', 'claude', '--turn-review'], { env: { ...r.env, HOME: home } });
    // The turn hooks alone: no per-edit review (its PreToolUse entry taken out), the prompt hook
    // beside the Stop one, and claude's own permissions letting the edits and the command run.
    const file = path.join(home, '.claude', 'settings.json');
    const settings = JSON.parse(fs.readFileSync(file, 'utf8'));
    const stop = settings.hooks.Stop[0].hooks[0].command;
    assert.match(stop, / hook claude --turn-review$/);
    delete settings.hooks.PreToolUse;
    settings.hooks.UserPromptSubmit = [{ hooks: [{ type: 'command', command: stop.replace(/--turn-review$/, '--turn-start') }] }];
    settings.permissions = { ...settings.permissions, defaultMode: 'acceptEdits', allow: ['Bash'] };
    fs.writeFileSync(file, JSON.stringify(settings, null, 2));
    tmux = await startTmux();
    const env = claudeEnv({ home, apiBaseUrl: api.baseURL, apiKey: API_KEY, extra: { XDG_RUNTIME_DIR: r.dirs.runtime } });
    c = await tmux.claude({ name: 'turns', cwd: ws, env, args: [] });
    await c.waitForScreen(/accept edits on/, STEP_MS, 'claude to be ready (edits accepted by its own setting)');
  });

  after(async () => {
    await tmux?.stop();
    await r?.stop();
    await api?.close();
    await removeDirs(ws, home);
  });

  test('edit, create, rm and mv in one turn: all four listed; one CRLF hunk undone byte for byte', async (t) => {
    const crlf = path.join(ws, 'crlf.txt');
    fs.writeFileSync(crlf, CRLF);
    fs.writeFileSync(path.join(ws, 'gone.txt'), 'bye\n');
    fs.writeFileSync(path.join(ws, 'old.txt'), 'moved along\n');
    try {
      const trigger = 'REDLINE-TURNS-C';
      api.addPlan({
        trigger, filePath: crlf, content: CRLF_AFTER, final: 'done C',
        then: { tool: 'Bash', input: { command: 'printf "made\\n" > made.txt && rm gone.txt && mv old.txt moved.txt', description: 'tidy' } },
      });
      await c.submit(`${trigger} please`);
      const turns = await pollUntil(async () => {
        const list = await r.json(['turns', 'list', ws, '--json']);
        return { ok: list.length === 1 && list[0].state === 'ended', value: list };
      }, STEP_MS, 'the turn to end');
      const files = turns[0].files.map((f) => [f.path, f.status]).sort();
      t.diagnostic(JSON.stringify(turns[0].files));
      assert.deepEqual(files, [['crlf.txt', 'modified'], ['gone.txt', 'deleted'], ['made.txt', 'added'], ['moved.txt', 'renamed']]);
      assert.equal(turns[0].files.find((f) => f.path === 'moved.txt').from, 'old.txt');
      assert.equal(turns[0].cli, 'claude');
      // What claude wrote, CRLF kept or not: the hunk covering line 2 goes back to the start's
      // bytes, the other hunk stays as claude left it.
      const after = fs.readFileSync(crlf);
      assert.notDeepEqual(after, Buffer.from(CRLF));
      assert.ok(after.includes('TWO\r\n'), `claude kept the CRLF line endings: ${JSON.stringify(after.toString())}`);
      await ok(r, ['turns', 'undo', String(turns[0].id), 'crlf.txt:2'], { cwd: ws });
      const lines = after.toString('latin1').split('\n');
      lines[1] = 'two\r';
      assert.deepEqual(fs.readFileSync(crlf), Buffer.from(lines.join('\n'), 'latin1'));
    } catch (err) {
      err.message += `\n--- screen ---\n${await c?.screen().catch(() => '')}\n--- redline ---\n${r?.stderr().slice(-3000)}`;
      throw err;
    }
  });
});
