// Codex CLI's own PreToolUse hook contract and apply_patch behaviour, with a tiny scripted hook: what `redline hook codex` relies on.
//
//   cd tests/interop && npm ci && node --test codex-contract.test.mjs
//
// The real `codex` TUI (@openai/codex 0.171.0) runs under tmux, offline, against
// codex-fake-api.mjs; its hook is a node script written into the temp dir that logs its stdin
// and answers what the test put in a file. No Redline here: these tests fail when codex changes
// the contract under Redline (run them with `tests/interop/run --latest codex-contract.test.mjs`).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

import { startFakeApi, textAfterCall } from './codex-fake-api.mjs';
import { codexHome, codexInstalled, codexTempDir, listHooks, startCodex, trustHooks, CODEX_VERSION } from './codex-driver.mjs';

const HOOK_SCRIPT = `// A PreToolUse hook for the tests: logs its stdin, then does what answer.json says.
import fs from 'node:fs';
const dir = ${'process.argv[2]'};
const input = fs.readFileSync(0, 'utf8');
fs.appendFileSync(dir + '/hook-input.jsonl', JSON.stringify(JSON.parse(input)) + '\\n');
const a = JSON.parse(fs.readFileSync(dir + '/answer.json', 'utf8'));
if (a.stderr) process.stderr.write(a.stderr);
if (a.stdout) process.stdout.write(a.stdout);
// A hook that outlives its timeout: codex must give up on it, not wait.
if (a.hangMs) setTimeout(() => process.exit(a.exit ?? 0), a.hangMs);
else process.exitCode = a.exit ?? 0;
`;

const deny = (reason) => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } });
const allow = (extra = {}) => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', ...extra } });

/** A patch replacing every line of `oldText` with `newText`'s: what Redline sends back for an edited review. */
function replaceAllPatch(file, oldText, newText) {
  const lines = (t) => (t === '' ? [] : t.replace(/\n$/, '').split('\n'));
  return ['*** Begin Patch', `*** Update File: ${file}`, '@@', ...lines(oldText).map((l) => `-${l}`), ...lines(newText).map((l) => `+${l}`), '*** End Patch', ''].join('\n');
}

const skip = !codexInstalled() ? `codex ${CODEX_VERSION} not installed: npm ci in tests/interop` : false;

describe(`codex ${CODEX_VERSION}: PreToolUse hook contract and apply_patch`, { skip }, () => {
  let api;
  const cleanups = [];

  before(async () => {
    api = await startFakeApi({ log: process.env.REDLINE_IT_VERBOSE ? (m) => console.error(m) : undefined });
  });
  after(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {});
    await api?.close();
  });

  /**
   * One turn of the real codex: `files` written into a fresh workspace, a hook (if `answer`)
   * answering `answer`, the model proposing `patch` when prompted. Resolves with the files
   * after the turn (as Buffers), the hook's stdin records and the model's next request.
   */
  async function turn(t, { files = {}, patch, answer, hookTimeout = 30, model = 'gpt-5.5', read = Object.keys(files) }) {
    const ws = await codexTempDir('rl-codex-ws-');
    const hookDir = await codexTempDir('rl-codex-hook-');
    cleanups.push(() => fsp.rm(ws, { recursive: true, force: true }), () => fsp.rm(hookDir, { recursive: true, force: true }));
    for (const [name, content] of Object.entries(files)) await fsp.writeFile(path.join(ws, name), content);
    const home = await codexHome({ api, workspaces: [ws], model });
    cleanups.push(home.stop);
    if (answer !== undefined) {
      await fsp.writeFile(path.join(hookDir, 'hook.mjs'), HOOK_SCRIPT);
      await fsp.writeFile(path.join(hookDir, 'answer.json'), JSON.stringify(answer));
      const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(hookDir, 'hook.mjs'))} ${JSON.stringify(hookDir)}`;
      await fsp.writeFile(home.hooksFile, JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'apply_patch', hooks: [{ type: 'command', command, timeout: hookTimeout }] }] } }));
      trustHooks(home.codexHome);
    }
    const trigger = `PATCH-${api.requests.length}-${Date.now()}`;
    const final = `done ${trigger}`;
    const plan = api.addPlan({ trigger, patch, final });
    const codex = await startCodex({ cwd: ws, home, api });
    cleanups.push(codex.stop);
    const t0 = Date.now();
    await codex.waitReady();
    const rec = await codex.runTurn(`${trigger} please`, { plan, final });
    t.diagnostic(`turn took ${Date.now() - t0} ms (${rec.decision.plan === plan ? 'plan' : '?'}; tool shape ${api.requests.find((r) => r.decision.plan === plan && r.decision.kind === 'call')?.decision.shape})`);
    const after = {};
    for (const name of read) after[name] = fs.existsSync(path.join(ws, name)) ? fs.readFileSync(path.join(ws, name)) : null;
    const hookInputs = fs.existsSync(path.join(hookDir, 'hook-input.jsonl'))
      ? fs.readFileSync(path.join(hookDir, 'hook-input.jsonl'), 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l))
      : [];
    const screen = await codex.screen();
    await codex.stop();
    return { ws, home, after, hookInputs, told: textAfterCall(rec.body), rec, screen };
  }

  const UPDATE_A = replaceAllPatch('a.txt', 'one\ntwo\n', 'one\nTWO\n');

  test('trustHooks writes the hash codex computes (app-server hooks/list), for every handler shape', async () => {
    const ws = await codexTempDir('rl-codex-ws-');
    cleanups.push(() => fsp.rm(ws, { recursive: true, force: true }));
    const home = await codexHome({ api, workspaces: [ws] });
    cleanups.push(home.stop);
    await fsp.writeFile(
      home.hooksFile,
      JSON.stringify({
        hooks: {
          PreToolUse: [
            { matcher: 'apply_patch', hooks: [{ type: 'command', command: 'redline hook codex', timeout: 86400 }, { type: 'command', command: 'echo b', statusMessage: 'Reviewing in Redline' }] },
            { hooks: [{ type: 'command', command: 'echo "quoted" \\ c' }] },
          ],
        },
      }),
    );
    const before = await listHooks({ home, cwd: ws });
    assert.deepEqual(before.map((h) => h.trustStatus), ['untrusted', 'untrusted', 'untrusted'], 'hooks start untrusted');
    const written = trustHooks(home.codexHome);
    const listed = await listHooks({ home, cwd: ws });
    assert.deepEqual(
      written.map((e) => [e.key, e.hash]),
      listed.map((h) => [h.key, h.currentHash]),
      'keys and hashes as codex computes them',
    );
    assert.deepEqual(listed.map((h) => h.trustStatus), ['trusted', 'trusted', 'trusted']);
    // Written twice: the old entries replaced, not duplicated (TOML rejects a repeated table).
    trustHooks(home.codexHome);
    assert.deepEqual((await listHooks({ home, cwd: ws })).map((h) => h.trustStatus), ['trusted', 'trusted', 'trusted']);
  });

  test('the hook gets the raw patch and the call ids on stdin; deny keeps the file and tells the model the reason', async (t) => {
    const r = await turn(t, { files: { 'a.txt': 'one\ntwo\n' }, patch: UPDATE_A, answer: { stdout: JSON.stringify(deny('use tabs')) } });
    assert.equal(r.after['a.txt'].toString(), 'one\ntwo\n', 'file unchanged');
    assert.equal(r.hookInputs.length, 1, 'the hook ran once');
    const h = r.hookInputs[0];
    assert.equal(h.hook_event_name, 'PreToolUse');
    assert.equal(h.tool_name, 'apply_patch');
    assert.equal(h.tool_input.command, UPDATE_A, 'tool_input.command is the raw patch');
    assert.equal(h.cwd, r.ws);
    for (const k of ['session_id', 'turn_id', 'tool_use_id']) assert.equal(typeof h[k], 'string', `${k} is a string`);
    assert.equal(h.tool_use_id, r.rec.body.input.findLast((i) => i.type === 'custom_tool_call').call_id, 'tool_use_id is the model\'s call id');
    t.diagnostic(`hook stdin keys: ${Object.keys(h).sort().join(' ')}`);
    t.diagnostic(`model told: ${JSON.stringify(r.told)}`);
    // The whole tool output, the patch with its newlines escaped as \\n.
    assert.equal(r.told, `Command blocked by PreToolUse hook: use tabs. Command: ${UPDATE_A.replace(/\n/g, '\\n')}`);
  });
});
