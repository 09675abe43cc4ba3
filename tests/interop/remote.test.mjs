// Interop: the real Gemini CLI IdeClient (@google/gemini-cli-core 0.61.0) on a far machine (a
// headless Redline with its own home, config and runtime dirs), reviewed on a desktop Redline
// that reaches it through the real OpenSSH, `redline remote add far -- ssh … 127.0.0.1 'env …
// redline bridge'` (a private sshd on loopback, key-only: lib/sshd.mjs; tests/cli/remote_ssh.rs
// also runs the far side as a second user). The desktop decides; the far client gets
// exactly the accepted bytes, or the rejection; the far file is never written by Redline. Then
// the real codex TUI (offline, codex-fake-api.mjs) with Redline's hook on the far machine: its
// apply_patch waits for the desktop's accept and lands as accepted. Then the real claude TUI
// (offline, claude-fake-api.mjs) in the far machine's HOME, connected to the far Redline by its
// lock alone: its Write accepted on the desktop with edits lands exactly; a second one rejected
// there leaves the file as it was.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { clientEnv, startGeminiClient } from './lib/gemini.mjs';
import { realTmpDir, endSession } from './lib/dirs.mjs';
import { startRedline } from './lib/redline.mjs';
import { startSshd } from './lib/sshd.mjs';
import { pollUntil } from './lib/wait.mjs';
import { startFakeApi } from './codex-fake-api.mjs';
import { startFakeApi as startClaudeApi } from './claude-fake-api.mjs';
import { writeClaudeConfig, claudeEnv, startTmux, claudeInstalled, CLAUDE_VERSION } from './claude-driver.mjs';
import { codexHome, codexInstalled, codexTempDir, startCodex, trustHooks, CODEX_VERSION } from './codex-driver.mjs';

const TEST_TIMEOUT_MS = 120_000;

async function ok(r, args) {
  const res = await r.run(args);
  assert.equal(res.code, 0, `redline ${args.join(' ')} exited ${res.code}\nstdout: ${res.stdout}\nstderr: ${res.stderr}`);
  return res;
}

/**
 * The command that reaches `far`'s instance: the real ssh to a private sshd on loopback (stopped
 * with the test `t`), whose login shell runs `redline bridge` with the far side's own dirs (its
 * home, temp, config and runtime dir: another machine's, as far as Redline and the CLIs go).
 */
async function bridgeTo(t, far) {
  const sshd = await startSshd();
  t.after(() => sshd.stop());
  const keep = ['PATH', 'HOME', 'TMPDIR', 'XDG_CONFIG_HOME', 'XDG_RUNTIME_DIR'];
  const quoted = (v) => `'${String(v).replaceAll("'", "'\\''")}'`;
  const vars = keep.map((k) => `${k}=${quoted(far.env[k])}`);
  return sshd.ssh(`env -i ${vars.join(' ')} ${quoted(far.bin)} bridge`);
}

/** The desktop's next pending review, which must be `far`'s. */
async function farReview(desk, filePath) {
  const res = await ok(desk, ['review', 'wait', '--timeout', '20']);
  const review = JSON.parse(res.stdout);
  assert.equal(review.remote, 'far', res.stdout);
  assert.equal(review.filePath, filePath, res.stdout);
  return review;
}

test('a far Gemini CLI\'s openDiff is accepted with edits and rejected on the desktop', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const ws = fs.realpathSync(await fsp.mkdtemp(path.join(os.tmpdir(), 'redline-it-far-')));
  t.after(() => fsp.rm(ws, { recursive: true, force: true }));
  const target = path.join(ws, 'greeting.txt');
  const original = 'hello\nworld\n';
  await fsp.writeFile(target, original);
  const far = await startRedline({ workspaces: [ws] });
  t.after(() => far.stop());
  const desk = await startRedline({});
  t.after(() => desk.stop());
  await ok(desk, ['remote', 'add', 'far', '--', ...(await bridgeTo(t, far))]);
  const linked = await pollUntil(async () => {
    const [far0] = await desk.json(['remote', 'list', '--json']);
    return { ok: far0?.state === 'connected', value: far0 };
  }, 15_000, 'the remote connected');
  assert.equal(linked.command[0], 'ssh', JSON.stringify(linked));

  const g = await startGeminiClient({ cwd: ws, env: clientEnv(far) });
  t.after(() => g.close());
  const c = await g.connect();
  assert.equal(c.state.status, 'connected', `client did not connect: ${c.state.details}\n${g.output()}`);

  const diff = g.openDiff(target, 'hello\nplanet\n');
  await diff.started;
  const review = await farReview(desk, target);
  assert.deepEqual([review.added, review.removed], [1, 1]);
  // Unicode (2-, 3- and 4-byte UTF-8), a CRLF, a tab, no trailing newline.
  const edited = 'héllo wörld — ✓ 🚀 𝄞\nzweite Zeile\r\ndritte\tZeile ohne Zeilenende';
  const contentFile = path.join(desk.dirs.root, 'edited.txt');
  await fsp.writeFile(contentFile, edited);
  await ok(desk, ['review', 'accept', String(review.id), '--content-file', contentFile]);
  assert.deepEqual(await diff.result, { status: 'accepted', content: edited });
  assert.equal(await fsp.readFile(target, 'utf8'), original, 'Redline never writes the file (the CLI does)');
  assert.deepEqual(await far.json(['review', 'list', '--json']), [], 'decided on the far side too');

  const again = g.openDiff(target, 'bye\n');
  await again.started;
  const second = await farReview(desk, target);
  await ok(desk, ['review', 'reject', String(second.id)]);
  assert.equal((await again.result).status, 'rejected');
  assert.deepEqual(await desk.json(['review', 'list', '--json']), []);
});

const codexSkip = !codexInstalled() ? `codex ${CODEX_VERSION} not installed: npm ci in tests/interop` : false;

test(`the real codex ${CODEX_VERSION} on the far machine: its apply_patch, accepted on the desktop, lands exactly`, { timeout: TEST_TIMEOUT_MS, skip: codexSkip }, async (t) => {
  const api = await startFakeApi({});
  t.after(() => api.close());
  const ws = await codexTempDir('rl-remote-codex-');
  t.after(() => fsp.rm(ws, { recursive: true, force: true }));
  const file = path.join(ws, 'a.txt');
  fs.writeFileSync(file, 'one\r\ntwo\r\nthree\r\n');
  const far = await startRedline({ workspaces: [ws] });
  t.after(() => far.stop());
  const home = await codexHome({ api, workspaces: [ws] });
  t.after(() => home.stop());
  await ok({ run: (args) => far.run(args, { env: { ...far.env, HOME: home.home, CODEX_HOME: home.codexHome } }) },
    ['hooks', 'install', 'codex']);
  trustHooks(home.codexHome);
  const desk = await startRedline({});
  t.after(() => desk.stop());
  await ok(desk, ['remote', 'add', 'far', '--', ...(await bridgeTo(t, far))]);

  const env = { PATH: `${path.dirname(far.bin)}:${process.env.PATH}`, XDG_RUNTIME_DIR: far.env.XDG_RUNTIME_DIR, XDG_CONFIG_HOME: far.env.XDG_CONFIG_HOME };
  const codex = await startCodex({ cwd: ws, home, api, env });
  t.after(() => codex.stop());
  await codex.waitReady();
  const trigger = `PATCH-${Date.now()}`;
  const final = `done ${trigger}`;
  const patch = '*** Begin Patch\n*** Update File: a.txt\n@@\n one\n-two\n+TWO\n three\n*** End Patch\n';
  api.addPlan({ trigger, patch, final });
  await codex.submit(`${trigger} please`);

  const review = await pollUntil(async () => {
    const list = await desk.json(['review', 'list', '--json']);
    const found = list.find((x) => x.remote === 'far' && x.filePath.endsWith('a.txt'));
    return { ok: Boolean(found), value: found ?? list };
  }, 30_000, 'the far codex\'s review on the desktop');
  assert.equal(fs.readFileSync(file, 'utf8'), 'one\r\ntwo\r\nthree\r\n', 'codex waits on the hook');
  await ok(desk, ['review', 'accept', String(review.id)]);
  await codex.waitForScreen((s) => s.includes(final), 30_000, 'codex to end the turn');
  assert.equal(fs.readFileSync(file, 'utf8'), 'one\r\nTWO\r\nthree\r\n', 'the patch as accepted, its CRLF kept');
});

const claudeSkip = !claudeInstalled() ? `claude ${CLAUDE_VERSION} not installed (npm install in tests/interop)` : false;
const CLAUDE_STEP_MS = 60_000;
const CLAUDE_KEY = 'sk-ant-api03-redline-interop-0123456789abcdefghijklmnop';

test(`the real claude ${CLAUDE_VERSION} on the far machine: its Write accepted with edits and rejected on the desktop`, { timeout: 240_000, skip: claudeSkip }, async (t) => {
  const ws = realTmpDir('rl-remote-claude-');
  let api;
  let far;
  let desk;
  let tmux;
  let claude;
  t.after(async () => {
    // claude first, and waited for: it still writes to its HOME (the far Redline's, removed by
    // far.stop()) while it exits.
    await claude?.quit(['C-c', 'C-c'], 20_000).catch(() => {});
    await desk?.stop();
    await endSession({ cli: tmux, redline: far, api }, ws);
  });
  api = await startClaudeApi({ log: process.env.REDLINE_IT_VERBOSE ? (m) => console.log(m) : () => {} });
  far = await startRedline({ workspaces: [ws] });
  // claude runs in the far machine's HOME: the far Redline's ~/.claude/ide/<PORT>.lock is all
  // that tells it where Redline is.
  await writeClaudeConfig(far.dirs.home, { workspaces: [ws], apiKey: CLAUDE_KEY });
  desk = await startRedline({});
  await ok(desk, ['remote', 'add', 'far', '--', ...(await bridgeTo(t, far))]);
  await pollUntil(async () => {
    const [far0] = await desk.json(['remote', 'list', '--json']);
    return { ok: far0?.state === 'connected', value: far0 };
  }, 15_000, 'the remote connected');

  tmux = await startTmux();
  claude = await tmux.claude({ name: 'far', cwd: ws, env: claudeEnv({ home: far.dirs.home, apiBaseUrl: api.baseURL, apiKey: CLAUDE_KEY }) });
  try {
    await claude.waitForScreen(/for shortcuts/, CLAUDE_STEP_MS, 'claude to be ready');
    await pollUntil(async () => {
      const clients = (await far.json(['status', '--json'])).workspaces[0].clients;
      return { ok: clients.some((c) => c.name === 'Claude Code' && c.version === CLAUDE_VERSION), value: clients };
    }, CLAUDE_STEP_MS, 'the far Redline to list claude as a client');

    /** Prompts claude to write `content` to `name`; resolves with the desktop's review of it. */
    async function propose(name, content, tag) {
      const filePath = path.join(ws, name);
      const trigger = `REDLINE-FAR-${tag}`;
      const plan = api.addPlan({ trigger, filePath, content, final: `done ${tag}` });
      await claude.submit(`${trigger} please`);
      await claude.waitForScreen(/Opened changes in Redline/, CLAUDE_STEP_MS, `claude to open the diff in Redline (${tag})`);
      const review = await farReview(desk, filePath);
      // The desktop shows who asked as the far side said it: claude, its version, its terminal.
      assert.match(review.client.name, new RegExp(`^Claude Code ${CLAUDE_VERSION.replace(/\./g, '\\.')} · /dev/pts/\\d+$`), JSON.stringify(review.client));
      const [there] = await far.json(['review', 'list', '--json']);
      assert.equal(there?.filePath, filePath, JSON.stringify(there));
      assert.equal(there.client.process?.program, 'Claude Code', JSON.stringify(there.client));
      assert.equal(there.client.process?.cwd, ws);
      assert.equal(there.reasonHeard, false, 'the IDE protocol carries no reason');
      return { review, plan, filePath };
    }

    const original = 'hello\nworld\n';
    fs.writeFileSync(path.join(ws, 'greeting.txt'), original);
    const a = await propose('greeting.txt', 'hello\nplanet\n', 'ACCEPT');
    assert.deepEqual([a.review.added, a.review.removed], [1, 1]);
    // Unicode (2-, 3- and 4-byte UTF-8), a CRLF, a tab, no trailing newline.
    const edited = 'héllo wörld — ✓ 🚀 𝄞\nzweite Zeile\r\ndritte\tZeile ohne Zeilenende';
    const contentFile = path.join(desk.dirs.root, 'edited.txt');
    fs.writeFileSync(contentFile, edited);
    await ok(desk, ['review', 'accept', String(a.review.id), '--content-file', contentFile]);
    await api.waitFor((q) => q.decision.kind === 'final' && q.decision.plan === a.plan, CLAUDE_STEP_MS, "the accepted Write's result");
    await claude.waitForScreen(/● done ACCEPT/, CLAUDE_STEP_MS, 'the end of the accepted turn');
    await pollUntil(async () => {
      const now = fs.readFileSync(a.filePath);
      return { ok: now.equals(Buffer.from(edited)), value: now.toString('utf8') };
    }, CLAUDE_STEP_MS, 'claude to write the accepted bytes');
    assert.deepEqual(await far.json(['review', 'list', '--json']), [], 'decided on the far side too');

    const b = await propose('greeting.txt', 'bye\n', 'REJECT');
    const res = await ok(desk, ['review', 'reject', String(b.review.id), '--reason', 'keep the greeting']);
    // Claude Code's IDE protocol carries no reason (DIFF_REJECTED alone), and the desktop says so.
    assert.equal(b.review.reasonHeard, false, JSON.stringify(b.review));
    assert.match(res.stdout + res.stderr, /its CLI's protocol carries no reason/);
    // A rejected Write ends claude's turn: no result goes back to the model.
    await claude.waitForScreen(/Rejected write to greeting\.txt/, CLAUDE_STEP_MS, 'claude to show the rejection');
    await claude.waitForScreen((s) => !/Do you want to/.test(s), CLAUDE_STEP_MS, 'claude to drop its prompt');
    assert.ok(!api.requests.some((q) => q.decision.kind === 'final' && q.decision.plan === b.plan), 'no Write result');
    assert.deepEqual(await desk.json(['review', 'list', '--json']), []);
    assert.deepEqual(await far.json(['review', 'list', '--json']), []);
    assert.ok(fs.readFileSync(b.filePath).equals(Buffer.from(edited)), 'the file as accepted before');
    // The model hears the rejection with the next prompt: the Write's result, an error.
    await claude.submit('REDLINE-FAR-NEXT please');
    const next = await api.waitFor(
      (q) => q.decision.kind !== 'side' && JSON.stringify(q.body.messages ?? []).includes('REDLINE-FAR-NEXT'),
      CLAUDE_STEP_MS,
      'the next prompt',
    );
    const results = next.body.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((x) => x?.type === 'tool_result');
    const rejected = results.find((x) => String(x.tool_use_id).startsWith(`toolu_rl_write_${b.plan}_`));
    assert.equal(rejected?.is_error, true, JSON.stringify(results));
    assert.match(String(rejected.content), /^The user doesn't want to proceed with this tool use\. The tool use was rejected/);
  } catch (err) {
    err.message += `\n--- claude screen ---\n${await claude.screen().catch(() => '')}\n--- far redline ---\n${far.stderr().slice(-3000)}`;
    throw err;
  }
});
