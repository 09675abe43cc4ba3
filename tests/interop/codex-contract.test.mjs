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
import { codexHome, codexInstalled, codexTempDir, isolationUnavailable, listHooks, startCodex, trustHooks, CODEX_VERSION } from './codex-driver.mjs';

const HOOK_SCRIPT = `// A PreToolUse hook for the tests: logs its stdin, then does what answer.json says.
import fs from 'node:fs';
import os from 'node:os';
const dir = ${'process.argv[2]'};
const input = fs.readFileSync(0, 'utf8');
// The network it sees: codex's (hooks inherit it).
const record = { ...JSON.parse(input), ifaces: Object.keys(os.networkInterfaces()) };
fs.appendFileSync(dir + '/hook-input.jsonl', JSON.stringify(record) + '\\n');
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
  async function turn(t, { files = {}, patch, answer, hookTimeout = 30, model = 'gpt-5.5', approval = 'never', read = Object.keys(files) }) {
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
    const codex = await startCodex({ cwd: ws, home, api, approval });
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
    return { ws, home, after, hookInputs, told: textAfterCall(rec.body), rec, screen, isolated: codex.isolated };
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
    assert.deepEqual(
      Object.keys(h).filter((k) => k !== 'ifaces').sort(),
      ['cwd', 'hook_event_name', 'model', 'permission_mode', 'session_id', 'tool_input', 'tool_name', 'tool_use_id', 'transcript_path', 'turn_id'],
    );
    assert.equal(h.model, 'gpt-5.5');
    if (isolationUnavailable() === null) {
      assert.ok(r.isolated, 'codex ran in its own network namespace');
      assert.deepEqual(h.ifaces, ['lo'], 'codex and its hook see only loopback');
    } else t.diagnostic(`not isolated: ${isolationUnavailable()}`);
    t.diagnostic(`model told: ${JSON.stringify(r.told)}`);
    // The whole tool output: the reason, then the model's own patch.
    assert.equal(r.told, `Command blocked by PreToolUse hook: use tabs. Command: ${UPDATE_A}`);
  });

  const SUCCESS_A = /^Exit code: 0\nWall time: [\d.]+ seconds\nOutput:\nSuccess\. Updated the following files:\nM a\.txt\n$/;
  const developerNote = (body) => {
    // The note goes in as a developer message right before the tool's output.
    const input = body.input;
    const m = input[input.length - 2];
    return m?.type === 'message' && m.role === 'developer' ? m.content.map((c) => c.text).join('') : null;
  };

  test('allow + updatedInput: the replacement patch is applied; additionalContext reaches the model before the output', async (t) => {
    const edited = replaceAllPatch('a.txt', 'one\ntwo\n', 'one\nEDITED\n');
    const note = 'NOTE-CTX the user edited it';
    const r = await turn(t, { files: { 'a.txt': 'one\ntwo\n' }, patch: UPDATE_A, answer: { stdout: JSON.stringify(allow({ updatedInput: { command: edited }, additionalContext: note })) } });
    assert.equal(r.after['a.txt'].toString(), 'one\nEDITED\n');
    assert.equal(developerNote(r.rec.body), note);
    const output = r.rec.body.input.at(-1);
    assert.equal(output.type, 'custom_tool_call_output');
    assert.match(output.output, SUCCESS_A);
    // The model's own call stays in its history as it proposed it: only the note says otherwise.
    assert.equal(r.rec.body.input.at(-3).input, UPDATE_A);
  });

  test('allow + updatedInput under approval "on-request" (codex\'s other policy): no second prompt in codex, and its screen shows the applied patch', async (t) => {
    const edited = replaceAllPatch('a.txt', 'one\ntwo\n', 'one\nEDITED\n');
    const r = await turn(t, { files: { 'a.txt': 'one\ntwo\n' }, patch: UPDATE_A, answer: { stdout: JSON.stringify(allow({ updatedInput: { command: edited } })) }, approval: 'on-request' });
    assert.equal(r.after['a.txt'].toString(), 'one\nEDITED\n');
    assert.match(r.screen, /Edited a\.txt \(\+1 -1\)/);
    assert.match(r.screen, /\+EDITED/);
  });

  test('allow + updatedInput may change which files the patch touches', async (t) => {
    const other = '*** Begin Patch\n*** Add File: c.txt\n+c\n*** End Patch\n';
    const r = await turn(t, { files: { 'a.txt': 'one\ntwo\n' }, patch: UPDATE_A, answer: { stdout: JSON.stringify(allow({ updatedInput: { command: other } })) }, read: ['a.txt', 'c.txt'] });
    assert.equal(r.after['a.txt'].toString(), 'one\ntwo\n');
    assert.equal(r.after['c.txt'].toString(), 'c\n');
  });

  // What Redline must not print for "accepted unedited": a bare allow is refused as unsupported
  // (the patch then runs its normal way; additionalContext is dropped with it). Printing nothing
  // is the clean answer.
  for (const [name, answer, screen] of [
    ['no output: the normal flow', { stdout: '' }, null],
    ['a bare allow: "unsupported", then the normal flow', { stdout: JSON.stringify(allow()) }, /PreToolUse hook returned unsupported permissionDecision:allow/],
    ['allow + additionalContext only: "unsupported", the note dropped', { stdout: JSON.stringify(allow({ additionalContext: 'NOTE-ONLY' })) }, /PreToolUse hook returned unsupported permissionDecision:allow/],
    ['output that is not JSON: ignored silently, the normal flow', { stdout: 'hello, not json\n' }, null],
  ]) {
    test(`hook answer ${name}`, async (t) => {
      const r = await turn(t, { files: { 'a.txt': 'one\ntwo\n' }, patch: UPDATE_A, answer });
      assert.equal(r.hookInputs.length, 1, 'the hook ran');
      assert.equal(r.after['a.txt'].toString(), 'one\nTWO\n', 'the patch applied');
      assert.match(r.told, SUCCESS_A);
      assert.equal(developerNote(r.rec.body), null, 'no note reached the model');
      if (screen) assert.match(r.screen, screen);
      else assert.doesNotMatch(r.screen, /Hook failed/);
    });
  }

  test('hook exits 2: blocked, its stderr is the reason', async (t) => {
    const r = await turn(t, { files: { 'a.txt': 'one\ntwo\n' }, patch: UPDATE_A, answer: { stderr: 'EXIT2 reason', exit: 2 } });
    assert.equal(r.after['a.txt'].toString(), 'one\ntwo\n');
    assert.equal(r.told, `Command blocked by PreToolUse hook: EXIT2 reason. Command: ${UPDATE_A}`);
    assert.match(r.screen, /Blocked by hook/);
  });

  test('hook times out: codex stops waiting at the timeout and applies the patch', async (t) => {
    const t0 = Date.now();
    const r = await turn(t, { files: { 'a.txt': 'one\ntwo\n' }, patch: UPDATE_A, answer: { hangMs: 20_000 }, hookTimeout: 1 });
    assert.ok(Date.now() - t0 < 15_000, 'the turn ended long before the hook would have');
    assert.equal(r.after['a.txt'].toString(), 'one\nTWO\n');
    assert.match(r.told, SUCCESS_A);
    assert.match(r.screen, /hook timed out after 1s/);
  });

  test('code mode (exec tool): the hook fires as apply_patch; a deny is the script\'s error; an edit applies', async (t) => {
    const r = await turn(t, { files: { 'a.txt': 'one\ntwo\n' }, patch: UPDATE_A, answer: { stdout: JSON.stringify(deny('use tabs')) }, model: 'gpt-6-sol' });
    assert.equal(r.rec.body.input.findLast((i) => i.type === 'custom_tool_call').name, 'exec', 'the model was in code mode');
    assert.equal(r.after['a.txt'].toString(), 'one\ntwo\n');
    assert.equal(r.hookInputs[0].tool_name, 'apply_patch');
    assert.equal(r.hookInputs[0].tool_input.command, UPDATE_A);
    assert.match(r.hookInputs[0].tool_use_id, /^exec-[0-9a-f-]{36}$/);
    assert.match(r.told, /^Script failed\nWall time [\d.]+ seconds\nOutput:\n\nScript error:\nCommand blocked by PreToolUse hook: use tabs\. Command: /);
    assert.ok(r.told.endsWith(`Command: ${UPDATE_A}`), r.told);

    const edited = replaceAllPatch('a.txt', 'one\ntwo\n', 'one\nEDITED\n');
    const r2 = await turn(t, { files: { 'a.txt': 'one\ntwo\n' }, patch: UPDATE_A, answer: { stdout: JSON.stringify(allow({ updatedInput: { command: edited }, additionalContext: 'NOTE-CTX' })) }, model: 'gpt-6-sol' });
    assert.equal(r2.after['a.txt'].toString(), 'one\nEDITED\n');
    assert.equal(developerNote(r2.rec.body), 'NOTE-CTX');
    // tools.apply_patch resolves with an empty object once the patch is applied.
    assert.match(r2.told, /^NOTE-CTX\nScript completed\nWall time [\d.]+ seconds\nOutput:\n\n\{\}$/);
  });

  // How apply_patch writes bytes: Redline answers an edited review with a patch that replaces
  // every line, and it must yield exactly the accepted text. So: codex strips a CR at the end of
  // each patch line and writes every line with the ending of the file's FIRST line (one style
  // for the whole file, whatever the majority; a CRLF file stays CRLF, mixed endings are
  // normalised); every non-empty result ends with a newline; a BOM is part of the first line's
  // text. A text that breaks these rules cannot come out of a patch.
  const P = (body) => `*** Begin Patch\n${body}*** End Patch\n`;
  for (const [name, before, patch, after] of [
    ['CRLF file, context patch without CRs: all CRLF', 'one\r\ntwo\r\nthree\r\n', P('*** Update File: a.txt\n@@\n one\n-two\n+TWO\n three\n'), 'one\r\nTWO\r\nthree\r\n'],
    ['CRLF file, replace-all patch without CRs: all CRLF', 'one\r\ntwo\r\nthree\r\n', replaceAllPatch('a.txt', 'one\ntwo\nthree\n', 'one\nTWO\nthree\n'), 'one\r\nTWO\r\nthree\r\n'],
    ['CRLF file, patch lines with CRs: the same', 'one\r\ntwo\r\n', replaceAllPatch('a.txt', 'one\r\ntwo\r\n', 'one\r\nTWO\r\n'), 'one\r\nTWO\r\n'],
    ['mixed endings, CRLF first: all CRLF', 'one\r\ntwo\nthree\r\n', replaceAllPatch('a.txt', 'one\ntwo\nthree\n', 'one\nTWO\nthree\n'), 'one\r\nTWO\r\nthree\r\n'],
    ['mixed endings, LF first: all LF', 'one\ntwo\r\nthree\n', replaceAllPatch('a.txt', 'one\ntwo\nthree\n', 'one\nTWO\nthree\n'), 'one\nTWO\nthree\n'],
    // Not the majority: the first line decides.
    ['mixed endings, LF first, CRLF the majority: all LF', 'one\ntwo\r\nthree\r\n', replaceAllPatch('a.txt', 'one\ntwo\nthree\n', 'one\nTWO\nthree\n'), 'one\nTWO\nthree\n'],
    ['mixed endings, CRLF first, LF the majority: all CRLF', 'one\r\ntwo\nthree\n', replaceAllPatch('a.txt', 'one\ntwo\nthree\n', 'one\nTWO\nthree\n'), 'one\r\nTWO\r\nthree\r\n'],
    ['one line without an ending: LF', 'one', replaceAllPatch('a.txt', 'one\n', 'ONE\n'), 'ONE\n'],
    ['LF file, added lines with CRs: still LF', 'one\ntwo\n', replaceAllPatch('a.txt', 'one\ntwo\n', 'one\r\nTWO\r\n'), 'one\nTWO\n'],
    ['no final newline, last line replaced: gains one', 'one\ntwo', replaceAllPatch('a.txt', 'one\ntwo\n', 'one\nTWO\n'), 'one\nTWO\n'],
    ['no final newline, only the first line changed: gains one', 'one\ntwo', P('*** Update File: a.txt\n@@\n-one\n+ONE\n two\n'), 'ONE\ntwo\n'],
    ['BOM kept when the patch carries it in the first line', '\uFEFFone\ntwo\n', replaceAllPatch('a.txt', '\uFEFFone\ntwo\n', '\uFEFFone\nTWO\n'), '\uFEFFone\nTWO\n'],
    ['replace-all with no new lines: an empty file', 'one\ntwo\n', replaceAllPatch('a.txt', 'one\ntwo\n', ''), ''],
    ['Add File: gains a final newline', null, P('*** Add File: a.txt\n+x\n+y\n'), 'x\ny\n'],
    ['Add File with CRs: LF', null, P('*** Add File: a.txt\n+x\r\n+y\r\n'), 'x\ny\n'],
    ['Add File with no lines: an empty file', null, P('*** Add File: a.txt\n'), ''],
  ]) {
    test(`apply_patch: ${name}`, async (t) => {
      const r = await turn(t, { files: before === null ? {} : { 'a.txt': before }, patch, read: ['a.txt'] });
      assert.equal(JSON.stringify(r.after['a.txt']?.toString()), JSON.stringify(after));
      assert.match(r.told, /^Exit code: 0\n/);
    });
  }

  test('apply_patch: a BOM file and a patch without the BOM: no match, file unchanged', async (t) => {
    const r = await turn(t, { files: { 'a.txt': '\uFEFFone\ntwo\n' }, patch: replaceAllPatch('a.txt', 'one\ntwo\n', 'one\nTWO\n') });
    assert.equal(r.after['a.txt'].toString(), '\uFEFFone\ntwo\n');
    assert.equal(r.told, `apply_patch verification failed: Failed to find expected lines in ${path.join(r.ws, 'a.txt')}:\none\ntwo`);
  });
});
