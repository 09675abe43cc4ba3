// `redline turns` with the real claude 2.1.332 (offline, a local fake of the Messages API): only
// the turn hooks installed (UserPromptSubmit `--turn-start`, Stop `--turn-review`), the edits let
// through by claude's own permissions. One turn edits a CRLF file with the Write tool, then one
// Bash command creates a file, deletes one with `rm` and renames one with `mv`: `turns list`
// lists all four, and undoing one hunk of the CRLF file gives back exactly its bytes; the turn's
// review Continued with two comments gives the model both. The real gemini 0.61.0 the same way
// (offline, a local fake of the Gemini API; `redline hooks install gemini --review turn`:
// BeforeAgent `--turn-start`, AfterAgent `--turn-review`, in yolo approval mode): its `replace`
// edits the CRLF file, then three `run_shell_command` calls create, `rm` and `mv`. The real
// codex 0.171.0 the same way, its one apply_patch editing, adding, deleting and moving a file.
// The real qwen 0.24.4 the same way (offline, a local fake of the Chat Completions API; `redline
// hooks install qwen --review turn`: UserPromptSubmit `--turn-start`, Stop `--turn-review`, in
// yolo approval mode): its `edit` changes a file, one `run_shell_command` creates one, deletes one
// and renames one; the review Continued with two comments gives the model both; words typed while
// its shell command runs (its mid-turn steering) go on with the same turn. The real copilot
// 1.0.102 the same way (offline, BYOK against a local fake of the Chat Completions API, in a
// loopback-only network namespace; `--review turn`: userPromptSubmitted `--turn-start`, agentStop
// `--turn-review`, its tools allowed by `--allow-all-tools`): `edit`, then one `bash` command.

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';

import { ok, startRedline } from './lib/redline.mjs';
import { endSession, realTmpDir } from './lib/dirs.mjs';
import { pollUntil } from './lib/wait.mjs';
import { startFakeApi } from './claude-fake-api.mjs';
import { writeClaudeConfig, claudeEnv, startTmux, claudeInstalled } from './claude-driver.mjs';
import { startFakeApi as startCodexApi } from './codex-fake-api.mjs';
import { codexHome, codexInstalled, codexTempDir, startCodex, trustHooks, CODEX_VERSION } from './codex-driver.mjs';
import { startGeminiFakeModel } from './gemini-fake-model.mjs';
import { GEMINI_BIN, readyGemini, submitUntilSent, writeGeminiHome } from './lib/gemini-tui.mjs';
import { startFakeModel as startQwenModel } from './qwen-fake-model.mjs';
import { writeQwenSettings, startQwen, qwenInstalled, QWEN_VERSION } from './qwen-driver.mjs';
import { startFakeApi as startCopilotApi } from './copilot-fake-api.mjs';
import { copilotHome, startTmux as startCopilotTmux, copilotInstalled, isolationUnavailable, READY as COPILOT_READY } from './copilot-driver.mjs';

const STEP_MS = 45_000;
const log = process.env.REDLINE_IT_VERBOSE ? (m) => console.log(m) : () => {};
const CRLF = 'one\r\ntwo\r\nthree\r\nfour\r\nfive\r\n';
const CRLF_AFTER = 'one\r\nTWO\r\nthree\r\nfour\r\nFIVE\r\n';

/** The CRLF file the turn edits, and the files its commands delete and rename, in `ws`. */
function writeTurnFiles(ws) {
  const crlf = path.join(ws, 'crlf.txt');
  fs.writeFileSync(crlf, CRLF);
  fs.writeFileSync(path.join(ws, 'gone.txt'), 'bye\n');
  fs.writeFileSync(path.join(ws, 'old.txt'), 'moved along\n');
  return crlf;
}

/** `turns list` once the workspace's one turn has ended. */
function endedTurns(r, ws) {
  return pollUntil(async () => {
    const list = await r.json(['turns', 'list', ws, '--json']);
    return { ok: list.length === 1 && list[0].state === 'ended', value: list };
  }, STEP_MS, 'the turn to end');
}

/**
 * The turn `cli` took: the CRLF file edited, one file made, one deleted and one renamed, all four
 * listed; then the hunk covering the CRLF file's line 2 undone goes back to the start's bytes,
 * the other hunk stays as the CLI left it.
 */
async function fourChangesOneHunkUndone(t, r, ws, { turn, cli, crlf }) {
  const files = turn.files.map((f) => [f.path, f.status]).sort();
  t.diagnostic(JSON.stringify(turn.files));
  assert.deepEqual(files, [['crlf.txt', 'modified'], ['gone.txt', 'deleted'], ['made.txt', 'added'], ['moved.txt', 'renamed']]);
  assert.equal(turn.files.find((f) => f.path === 'moved.txt').from, 'old.txt');
  assert.equal(turn.cli, cli);
  const after = fs.readFileSync(crlf);
  assert.notDeepEqual(after, Buffer.from(CRLF));
  assert.ok(after.includes('TWO\r\n'), `${cli} kept the CRLF line endings: ${JSON.stringify(after.toString())}`);
  await ok(r, ['turns', 'undo', String(turn.id), 'crlf.txt:2'], { cwd: ws });
  const lines = after.toString('latin1').split('\n');
  lines[1] = 'two\r';
  assert.deepEqual(fs.readFileSync(crlf), Buffer.from(lines.join('\n'), 'latin1'));
}

/**
 * The turn's review, Continued with two comments: the model's next request (`nextRequest`:
 * resolves with it as text once it carries `until`) has both anchors, their quotes and texts.
 */
async function continuedWithTwoComments(t, r, turn, nextRequest) {
  const [review] = await r.json(['review', 'list', '--json']);
  assert.equal(review.kind, 'turn');
  assert.equal(review.turnId, turn.id);
  await ok(r, ['review', 'continue', String(review.id),
    '--comment', 'crlf.txt:5:REDLINE-C1 make FIVE lower case again',
    '--comment', 'made.txt:1:REDLINE-C2 name it made.md', '--reason', 'then stop']);
  const said = await nextRequest('REDLINE-C2');
  t.diagnostic(`the model's next request carries: ${said.slice(said.indexOf('Review comments'), said.indexOf('Review comments') + 300)}`);
  for (const want of ['crlf.txt:5', '> FIVE', 'REDLINE-C1 make FIVE lower case again', 'made.txt:1', '> made', 'REDLINE-C2 name it made.md', 'then stop']) {
    assert.ok(said.includes(want), `${want} in ${said.slice(-1500)}`);
  }
}

/**
 * An LF turn of `cli` (its edit, then one shell command that made, removed and moved a file): all
 * four listed; Continued with two comments, the model's next request (`nextRequest(until)`: that
 * request once its messages carry `until`) ends with them as a user message; the prompt hook the
 * CLI runs again with them goes on with the same turn, which ends with nothing more changed and
 * no review.
 */
async function lfTurnThenContinued(t, r, ws, { turn, cli, edited, nextRequest }) {
  t.diagnostic(JSON.stringify(turn.files));
  assert.deepEqual(turn.files.map((f) => [f.path, f.status]).sort(),
    [['crlf.txt', 'modified'], ['gone.txt', 'deleted'], ['made.txt', 'added'], ['moved.txt', 'renamed']]);
  assert.equal(turn.cli, cli);
  assert.equal(fs.readFileSync(edited, 'utf8'), 'one\nTWO\nthree\nfour\nFIVE\n');
  await continuedWithTwoComments(t, r, turn, async (until) => {
    const next = await nextRequest(until);
    const last = next.body.messages[next.body.messages.length - 1];
    assert.equal(last.role, 'user');
    return JSON.stringify(last.content);
  });
  const after = await pollUntil(async () => {
    const list = await r.json(['turns', 'list', ws, '--json']);
    return { ok: list.length >= 2 && list.every((x) => x.state === 'ended'), value: list };
  }, STEP_MS, 'the turn after the Continue to end');
  assert.deepEqual(after.map((x) => [x.id, x.files.length]), [[turn.id + 1, 0], [turn.id, 4]]);
  assert.deepEqual(await r.json(['review', 'list', '--json']), []);
}

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

  after(() => endSession({ cli: tmux, redline: r, api }, ws, home));

  test('edit, create, rm and mv in one turn: all four listed; one CRLF hunk undone byte for byte', async (t) => {
    const crlf = writeTurnFiles(ws);
    try {
      const trigger = 'REDLINE-TURNS-C';
      api.addPlan({
        trigger, filePath: crlf, content: CRLF_AFTER, final: 'done C',
        then: { tool: 'Bash', input: { command: 'printf "made\\n" > made.txt && rm gone.txt && mv old.txt moved.txt', description: 'tidy' } },
      });
      await c.submit(`${trigger} please`);
      const turns = await endedTurns(r, ws);
      await fourChangesOneHunkUndone(t, r, ws, { turn: turns[0], cli: 'claude', crlf });
      // claude passes the Stop hook's block on to the model.
      await continuedWithTwoComments(t, r, turns[0], async (until) => {
        const next = await api.waitFor((q) => JSON.stringify(q.body.messages ?? []).includes(until), STEP_MS, 'the next request with the comments');
        return JSON.stringify(next.body.messages);
      });
    } catch (err) {
      err.message += `\n--- screen ---\n${await c?.screen().catch(() => '')}\n--- redline ---\n${r?.stderr().slice(-3000)}`;
      throw err;
    }
  });
});

describe('Gemini CLI (real gemini 0.61.0): a turn\'s every change in `redline turns`', { skip: !fs.existsSync(GEMINI_BIN) && 'gemini not installed (npm install in tests/interop)', timeout: 300_000 }, () => {
  let ws, home, r, model, g;

  before(async () => {
    ws = realTmpDir('rl-turns-gemini-ws-');
    home = realTmpDir('rl-turns-gemini-home-');
    model = await startGeminiFakeModel({ log });
    r = await startRedline({ workspaces: [ws] });
    const file = writeGeminiHome(home, ws);
    // The turn hooks, the edits only recorded (no per-edit review): gemini's yolo approval mode
    // lets its edits and shell commands run, as a user who lets the turn run and reviews its end.
    await ok(r, ['hooks', 'install', 'gemini', '--review', 'turn'], { env: { ...r.env, HOME: home } });
    const { hooks } = JSON.parse(fs.readFileSync(file, 'utf8'));
    assert.match(hooks.BeforeAgent[0].hooks[0].command, / hook gemini --turn-start$/);
    assert.match(hooks.AfterAgent[0].hooks[0].command, / hook gemini --turn-review$/);
    assert.match(hooks.BeforeTool[0].hooks[0].command, / hook gemini --record-only$/);
    g = await readyGemini({ ws, home, model, r, approvalMode: 'yolo' });
  });

  after(() => endSession({ cli: g, redline: r, api: model }, ws, home));

  test('replace, then shell commands that create, rm and mv, in one turn: all four listed; one CRLF hunk undone byte for byte', async (t) => {
    const crlf = writeTurnFiles(ws);
    try {
      const trigger = 'REDLINE-TURNS-G';
      const shell = (command) => ({ name: 'run_shell_command', args: { command, description: command } });
      model.setPlan({
        trigger,
        calls: [
          // Gemini's replace reads the file with LF and writes it back with its CRLF endings.
          { name: 'replace', args: { file_path: crlf, old_string: 'two\nthree\nfour\nfive\n', new_string: 'TWO\nthree\nfour\nFIVE\n', instruction: 'Capitalise two and five.' } },
          shell('printf "made\\n" > made.txt'),
          shell('rm gone.txt'),
          shell('mv old.txt moved.txt'),
        ],
        final: 'Gemini done G.',
      });
      const before = model.requests.length;
      await submitUntilSent(g, `Please do ${trigger}`, (ms) => model.waitFor((x) => x.decision.kind === 'write' && x.n > before, ms, `gemini to send ${trigger}`));
      const turns = await endedTurns(r, ws);
      await fourChangesOneHunkUndone(t, r, ws, { turn: turns[0], cli: 'gemini', crlf });
      // Gemini sends AfterAgent's block reason to the model as the next user message.
      await continuedWithTwoComments(t, r, turns[0], async (until) => {
        const next = await model.waitFor((q) => q.decision.kind !== 'side' && JSON.stringify(q.body.contents ?? []).includes(until), STEP_MS, 'the next request with the comments');
        const last = next.body.contents[next.body.contents.length - 1];
        assert.equal(last.role, 'user');
        return JSON.stringify(last.parts);
      });
      // Gemini runs BeforeAgent again with the comments as the prompt: the turn the Continue
      // began goes on (no empty turn between). The fake model answers "ok", AfterAgent runs
      // again, nothing more changed: that turn ends at once, with no review.
      const after = await pollUntil(async () => {
        const list = await r.json(['turns', 'list', ws, '--json']);
        return { ok: list.length >= 2 && list.every((x) => x.state === 'ended'), value: list };
      }, STEP_MS, 'the turn after the Continue to end');
      assert.deepEqual(after.map((x) => [x.id, x.files.length]), [[turns[0].id + 1, 0], [turns[0].id, 4]]);
      assert.deepEqual(await r.json(['review', 'list', '--json']), []);
    } catch (err) {
      err.message += `\n--- screen ---\n${await g?.screen().catch(() => '')}\n--- redline ---\n${r?.stderr().slice(-3000)}`;
      throw err;
    }
  });
});

describe(`Codex CLI (real codex ${CODEX_VERSION}): a turn's every change in \`redline turns\``, { skip: !codexInstalled() && 'codex not installed (npm install in tests/interop)', timeout: 300_000 }, () => {
  let api, r, ws, home, codex;

  before(async () => {
    api = await startCodexApi({ log });
    ws = await codexTempDir('rl-turns-codex-ws-');
    r = await startRedline({ workspaces: [ws] });
    home = await codexHome({ api, workspaces: [ws] });
    await ok(r, ['hooks', 'install', 'codex', '--turn-review'], { env: { ...r.env, HOME: home.home, CODEX_HOME: home.codexHome } });
    // The turn hooks alone (no per-edit review; codex runs with no approvals), then trusted.
    const hooks = JSON.parse(fs.readFileSync(home.hooksFile, 'utf8'));
    const stop = hooks.hooks.Stop[0].hooks[0].command;
    assert.match(stop, / hook codex --turn-review$/);
    delete hooks.hooks.PreToolUse;
    hooks.hooks.UserPromptSubmit = [{ hooks: [{ type: 'command', command: stop.replace(/--turn-review$/, '--turn-start') }] }];
    fs.writeFileSync(home.hooksFile, JSON.stringify(hooks, null, 2));
    trustHooks(home.codexHome);
  });

  after(async () => {
    await codex?.stop();
    await r?.stop();
    await home?.stop();
    await api?.close();
    if (ws) fs.rmSync(ws, { recursive: true, force: true });
  });

  test('edit, add, delete and move in one turn: all four listed, one hunk undone', async () => {
    fs.writeFileSync(path.join(ws, 'a.txt'), 'one\ntwo\nthree\nfour\nfive\n');
    fs.writeFileSync(path.join(ws, 'gone.txt'), 'bye\n');
    fs.writeFileSync(path.join(ws, 'old.txt'), 'moved along\n');
    codex = await startCodex({
      cwd: ws, home, api,
      env: { PATH: `${path.dirname(r.bin)}:${process.env.PATH}`, XDG_RUNTIME_DIR: r.env.XDG_RUNTIME_DIR, XDG_CONFIG_HOME: r.env.XDG_CONFIG_HOME },
    });
    try {
      await codex.waitReady();
      const trigger = `TURNS-${Date.now()}`;
      const patch = '*** Begin Patch\n*** Update File: a.txt\n@@\n one\n-two\n+TWO\n three\n four\n-five\n+FIVE\n'
        + '*** Add File: made.txt\n+made\n*** Delete File: gone.txt\n'
        + '*** Update File: old.txt\n*** Move to: moved.txt\n@@\n-moved along\n+moved along\n*** End Patch\n';
      api.addPlan({ trigger, patch, final: `done ${trigger}` });
      await codex.submit(`${trigger} please`);
      const turns = await pollUntil(async () => {
        const list = await r.json(['turns', 'list', ws, '--json']);
        return { ok: list.length === 1 && list[0].state === 'ended', value: list };
      }, STEP_MS, 'the turn to end');
      const files = turns[0].files.map((f) => [f.path, f.status]).sort();
      assert.deepEqual(files, [['a.txt', 'modified'], ['gone.txt', 'deleted'], ['made.txt', 'added'], ['moved.txt', 'renamed']]);
      assert.equal(turns[0].cli, 'codex');
      await ok(r, ['turns', 'undo', String(turns[0].id), 'a.txt:2'], { cwd: ws });
      assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'one\ntwo\nthree\nfour\nFIVE\n');
    } catch (err) {
      err.message += `\n--- screen ---\n${await codex?.screen().catch(() => '')}\n--- redline ---\n${r?.stderr().slice(-3000)}`;
      throw err;
    }
  });
});

describe(`Qwen Code (real qwen ${QWEN_VERSION}): a turn's every change in \`redline turns\``, { skip: !qwenInstalled() && 'qwen not installed (npm install in tests/interop)', timeout: 300_000 }, () => {
  let ws, home, r, model, q;

  before(async () => {
    ws = realTmpDir('rl-turns-qwen-ws-');
    home = realTmpDir('rl-turns-qwen-home-');
    model = await startQwenModel({ log });
    r = await startRedline({ workspaces: [ws] });
    const file = await writeQwenSettings(home);
    const base = JSON.parse(fs.readFileSync(file, 'utf8'));
    base.ide.enabled = false;
    fs.writeFileSync(file, JSON.stringify(base, null, 2));
    // The turn hooks, the edits only recorded: qwen's yolo approval mode lets its edits and
    // shell commands run, as a user who lets the turn run and reviews its end.
    await ok(r, ['hooks', 'install', 'qwen', '--review', 'turn'], { env: { ...r.env, HOME: home } });
    const { hooks } = JSON.parse(fs.readFileSync(file, 'utf8'));
    assert.match(hooks.UserPromptSubmit[0].hooks[0].command, / hook qwen --turn-start$/);
    assert.match(hooks.Stop[0].hooks[0].command, / hook qwen --turn-review$/);
    assert.match(hooks.PreToolUse[0].hooks[0].command, / hook qwen --record-only$/);
    const env = {
      PATH: process.env.PATH,
      HOME: home,
      TMPDIR: path.join(home, 'tmp'),
      TERM: 'xterm-256color',
      LANG: 'C.UTF-8',
      OPENAI_API_KEY: 'dummy-key-for-the-fake-model',
      OPENAI_BASE_URL: model.baseURL,
      OPENAI_MODEL: model.model,
      XDG_RUNTIME_DIR: r.dirs.runtime,
    };
    fs.mkdirSync(env.TMPDIR, { recursive: true });
    q = await startQwen({ cwd: ws, env, args: ['--approval-mode', 'yolo'], name: 'qwen-turns' });
    await q.waitForScreen(/Type your message/, STEP_MS, 'qwen to show its input prompt');
  });

  after(() => endSession({ cli: q, redline: r, api: model }, ws, home));

  test('edit, then a shell command that creates, rm and mv, in one turn: all listed; Continue with two comments reaches the model', async (t) => {
    const edited = path.join(ws, 'crlf.txt');
    writeTurnFiles(ws);
    // An LF file: what is proved here is the turn's every change, not qwen's line endings.
    fs.writeFileSync(edited, 'one\ntwo\nthree\nfour\nfive\n');
    try {
      const trigger = 'REDLINE-TURNS-Q';
      model.setPlan({
        trigger,
        calls: [
          // Qwen edits only a file read in the session.
          { name: 'read_file', args: { file_path: edited } },
          { name: 'edit', args: { file_path: edited, old_string: 'two\nthree\nfour\nfive\n', new_string: 'TWO\nthree\nfour\nFIVE\n' } },
          { name: 'run_shell_command', args: { command: 'printf "made\\n" > made.txt && rm gone.txt && mv old.txt moved.txt', description: 'tidy' } },
        ],
        final: 'Qwen done Q.',
      });
      const before = model.requests.length;
      await submitUntilSent(q, `Please do ${trigger}`, (ms) => model.waitFor((x) => x.decision.kind === 'call' && x.n > before, ms, `qwen to send ${trigger}`));
      const [turn] = await endedTurns(r, ws);
      // Qwen sends the Stop hook's block reason to the model as the next user message, and runs
      // UserPromptSubmit again with it as the prompt.
      await lfTurnThenContinued(t, r, ws, {
        turn, cli: 'qwen', edited,
        nextRequest: (until) => model.waitFor((x) => x.decision.kind !== 'side' && JSON.stringify(x.body.messages ?? []).includes(until), STEP_MS, 'the next request with the comments'),
      });
    } catch (err) {
      err.message += `\n--- screen ---\n${await q?.screen().catch(() => '')}\n--- redline ---\n${r?.stderr().slice(-3000)}`;
      throw err;
    }
  });

  test('words typed while qwen works ride on its tool\'s result and go on with the same turn: one turn, one review', async () => {
    // The shell command waits on a FIFO the test opens once the words are queued, so they are
    // typed while the tool runs: qwen sends them with the tool's result (its mid-turn steering).
    const fifo = path.join(home, 'tmp', 'steer.fifo');
    execFileSync('mkfifo', [fifo]);
    const before = await r.json(['turns', 'list', ws, '--json']);
    const words = 'REDLINE-STEER keep the tests';
    try {
      const trigger = 'REDLINE-TURNS-STEER';
      model.setPlan({
        trigger,
        calls: [{ name: 'run_shell_command', args: { command: `cat '${fifo}' > steered.txt`, description: 'wait' } }],
        final: 'Qwen steered.',
      });
      const sent = model.requests.length;
      await submitUntilSent(q, `Please do ${trigger}`, (ms) => model.waitFor((x) => x.decision.kind === 'call' && x.n > sent, ms, `qwen to send ${trigger}`));
      await pollUntil(async () => ({ ok: readerOf(fifo) }), STEP_MS, 'the shell command to wait on the FIFO');
      await q.type(words);
      await q.keys('Enter');
      // Queued: shown on the screen, no longer in the input line.
      await q.waitForScreen((screen) => screen.includes(words) && !/>\s*REDLINE-STEER/.test(screen), STEP_MS, 'the words to be queued');
      fs.writeFileSync(fifo, 'go\n');
      const steered = await model.waitFor((x) => JSON.stringify(x.body.messages ?? []).includes(words), STEP_MS, 'the words to reach the model');
      const last = JSON.stringify(steered.body.messages.slice(-2));
      assert.ok(last.includes('tool'), `the words ride on the tool's result: ${last}`);
      const list = await pollUntil(async () => {
        const turns = await r.json(['turns', 'list', ws, '--json']);
        const reviews = await r.json(['review', 'list', '--json']);
        return { ok: turns.length > before.length && turns[0].state === 'ended' && reviews.length === 1, value: { turns, reviews } };
      }, STEP_MS, 'the turn to end with its review');
      assert.deepEqual(list.turns.slice(0, list.turns.length - before.length).map((x) => [x.state, x.files.map((f) => f.path)]), [['ended', ['steered.txt']]],
        `one turn for the prompt and its steering: ${JSON.stringify(list.turns)}`);
      assert.equal(list.reviews[0].turnId, list.turns[0].id);
      await ok(r, ['review', 'accept', String(list.reviews[0].id)]);
      assert.equal(fs.readFileSync(path.join(ws, 'steered.txt'), 'utf8'), 'go\n');
    } catch (err) {
      err.message += `\n--- screen ---\n${await q?.screen().catch(() => '')}\n--- redline ---\n${r?.stderr().slice(-3000)}`;
      throw err;
    } finally {
      fs.rmSync(fifo, { force: true });
    }
  });
});

/** Whether a `cat` of `fifo` runs (blocked in its open until the test writes: not yet in its fds). */
function readerOf(fifo) {
  return fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)).some((pid) => {
    try {
      const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      return argv[0] === 'cat' && argv[1] === fifo;
    } catch { return false; }
  });
}

const copilotSkip = (!copilotInstalled() && 'copilot not installed (npm install in tests/interop)') || isolationUnavailable() || false;

describe('GitHub Copilot CLI (real copilot 1.0.102): a turn\'s every change in `redline turns`', { skip: copilotSkip, timeout: 300_000 }, () => {
  let ws, home, r, api, tmux, c;

  before(async () => {
    ws = realTmpDir('rl-turns-copilot-ws-');
    api = await startCopilotApi({ log });
    r = await startRedline({ workspaces: [ws] });
    home = await copilotHome({ trustedFolders: [ws], settings: { ide: { autoConnect: false } } });
    // The turn hooks, the edits only recorded: copilot's own tool permissions (--allow-all-tools)
    // let its edit and its shell command run, as a user who lets the turn run and reviews its end.
    await ok(r, ['hooks', 'install', 'copilot', '--review', 'turn'], { env: { ...r.env, HOME: home.home, COPILOT_HOME: home.copilotDir } });
    const { hooks } = JSON.parse(fs.readFileSync(path.join(home.copilotDir, 'hooks', 'redline.json'), 'utf8'));
    assert.match(hooks.userPromptSubmitted[0].bash, / hook copilot --turn-start$/);
    assert.match(hooks.agentStop[0].bash, / hook copilot --turn-review$/);
    assert.match(hooks.preToolUse[0].bash, / hook copilot --record-only$/);
    tmux = await startCopilotTmux();
    c = await tmux.copilot({ name: 'turns', cwd: ws, home, api, env: { XDG_RUNTIME_DIR: r.dirs.runtime }, args: ['--log-level', 'all', '--allow-all-tools'] });
    await c.waitForScreen(COPILOT_READY, STEP_MS, 'copilot to be ready');
  });

  after(async () => {
    await tmux?.stop();
    await r?.stop();
    await api?.close();
    await home?.stop();
    if (ws) fs.rmSync(ws, { recursive: true, force: true });
  });

  test('edit, then a bash command that creates, rm and mv, in one turn: all listed; Continue with two comments reaches the model', async (t) => {
    const edited = path.join(ws, 'crlf.txt');
    writeTurnFiles(ws);
    // An LF file: what is proved here is the turn's every change, not copilot's line endings.
    fs.writeFileSync(edited, 'one\ntwo\nthree\nfour\nfive\n');
    try {
      const trigger = 'REDLINE-TURNS-P';
      const n = api.addPlan({
        trigger, path: edited, oldStr: 'two\nthree\nfour\nfive', newStr: 'TWO\nthree\nfour\nFIVE', final: 'done P',
        then: { name: 'bash', arguments: { command: 'printf "made\\n" > made.txt && rm gone.txt && mv old.txt moved.txt', description: 'tidy', mode: 'sync' } },
      });
      await c.submit(`${trigger} please`);
      await api.waitFor((q) => q.decision.kind === 'final' && q.decision.plan === n, STEP_MS, 'the turn\'s last request');
      const [turn] = await endedTurns(r, ws);
      // Copilot sends agentStop's block reason to the model as the next user message, and runs
      // userPromptSubmitted again with it as the prompt.
      await lfTurnThenContinued(t, r, ws, {
        turn, cli: 'copilot', edited,
        nextRequest: (until) => api.waitFor((q) => q.decision.kind !== 'side' && JSON.stringify(q.body.messages ?? []).includes(until), STEP_MS, 'the next request with the comments'),
      });
    } catch (err) {
      err.message += `\n--- screen ---\n${await c?.screen().catch(() => '')}\n--- redline ---\n${r?.stderr().slice(-3000)}`;
      throw err;
    }
  });
});
