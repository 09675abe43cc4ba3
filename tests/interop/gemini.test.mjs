// Interop: Redline's Gemini companion server against the real Gemini CLI IdeClient
// (@google/gemini-cli-core 0.61.0). Each client runs in its own Node process (lib/gemini-driver.mjs);
// the user's side is played through the `redline` command line (docs/cli.md).

import assert from 'node:assert/strict';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { startRedline } from './lib/redline.mjs';
import { clientEnv, startGeminiClient } from './lib/gemini.mjs';

const TEST_TIMEOUT_MS = 120_000;

/** A fresh workspace dir (canonical path), removed after the test. */
async function makeWorkspace(t, prefix = 'ws') {
  const dir = fs.realpathSync(await fsp.mkdtemp(path.join(os.tmpdir(), `redline-it-${prefix}-`)));
  t.after(() => fsp.rm(dir, { recursive: true, force: true }));
  return dir;
}

const clientsOf = new WeakMap(); // redline instance -> its test's client processes

/** A Redline instance for this test; after the test its clients end first, then Redline. */
async function redline(t, workspaces, opts = {}) {
  const r = await startRedline({ workspaces, ...opts });
  clientsOf.set(r, []);
  t.after(async () => {
    await Promise.all(clientsOf.get(r).map((g) => g.close()));
    await r.stop();
  });
  return r;
}

async function gemini(t, r, cwd, extraEnv = {}) {
  const g = await startGeminiClient({ cwd, env: clientEnv(r, extraEnv) });
  clientsOf.get(r).push(g);
  return g;
}

/** A client connected from `cwd` (asserted). */
async function connectedGemini(t, r, cwd) {
  const g = await gemini(t, r, cwd);
  const c = await g.connect();
  assert.equal(c.state.status, 'connected', `client did not connect: ${c.state.details}\n${g.output()}`);
  assert.equal(c.diffing, true, `IDE diffing not enabled, tools: ${JSON.stringify(c.tools)}`);
  assert.equal(c.tapped, true, 'could not observe MCP notifications in the driver');
  return g;
}

/**
 * The client never dropped to Disconnected (a transport error, e.g. an empty SSE "priming" event,
 * makes the real CLI drop for good) and still is connected.
 */
async function assertStillConnected(g) {
  const drops = g.events.filter((e) => e.event === 'status' && e.state.status === 'disconnected');
  assert.deepEqual(drops, [], 'the client lost its connection');
  const { state, diffing } = await g.status();
  assert.equal(state.status, 'connected');
  assert.equal(diffing, true);
}

/**
 * One GET stream for the whole session: SDK 1.23 reopens it (with Last-Event-ID) after every POST
 * response that carries SSE `id:` lines, piling up idle streams.
 */
async function assertOneGetStream(g) {
  const reqs = await g.httpRequests();
  assert.ok(reqs.every((q) => q.path === '/mcp'), JSON.stringify(reqs));
  const gets = reqs.filter((q) => q.method === 'GET');
  assert.equal(gets.length, 1, `GET streams opened: ${JSON.stringify(reqs)}`);
  assert.equal(gets[0].lastEventId, null);
  assert.ok(reqs.filter((q) => q.method === 'POST').length >= 4, `too few POSTs to prove anything: ${JSON.stringify(reqs)}`);
}

/** `redline review wait --file PATH`: the pending review for exactly that filePath. */
async function waitReview(r, filePath) {
  const res = await r.run(['review', 'wait', '--file', filePath, '--timeout', '20']);
  assert.equal(res.code, 0, `review wait --file ${filePath} exited ${res.code}: ${res.stderr}`);
  let review;
  assert.doesNotThrow(() => (review = JSON.parse(res.stdout)), `review wait printed no JSON: ${JSON.stringify(res.stdout)}`);
  assert.equal(review.filePath, filePath);
  assert.equal(typeof review.id, 'number', `review id should be a number: ${res.stdout}`);
  return review;
}

async function reviewList(r) {
  const list = await r.json(['review', 'list', '--json']);
  assert.ok(Array.isArray(list), `review list --json is not an array: ${JSON.stringify(list)}`);
  return list;
}

async function ok(r, args) {
  const res = await r.run(args);
  assert.equal(res.code, 0, `redline ${args.join(' ')} exited ${res.code}\nstdout: ${res.stdout}\nstderr: ${res.stderr}`);
  return res;
}

/**
 * After a terminal-side answer (resolveDiffFromCli), prove no stray ide/diff* notification
 * follows: run one more diff through Redline and check the notifications that arrived since
 * `fromEvent` are exactly that diff's own. Notifications of a session arrive in order, so a
 * stray one sent for the earlier diff would show up before the probe's.
 */
async function probeNoStrayNotifications(r, g, ws, fromEvent) {
  const probePath = path.join(ws, 'probe.txt');
  await fsp.writeFile(probePath, 'probe\n');
  const probe = g.openDiff(probePath, 'probe changed\n');
  await probe.started;
  const review = await waitReview(r, probePath);
  await ok(r, ['review', 'reject', String(review.id)]);
  const result = await probe.result;
  assert.equal(result.status, 'rejected');
  const seen = g
    .notifications(fromEvent)
    .filter((n) => n.method.startsWith('ide/diff'))
    .map((n) => ({ method: n.method, filePath: n.params?.filePath }));
  assert.deepEqual(seen, [{ method: 'ide/diffRejected', filePath: probePath }], 'unexpected diff notifications');
}

test('discovery by file alone: a client in a workspace subdirectory connects', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const ws = await makeWorkspace(t);
  const sub = path.join(ws, 'src', 'deep');
  await fsp.mkdir(sub, { recursive: true });
  const r = await redline(t, [ws]);

  const file = r.discoveryFile(ws);
  const port = r.port(ws);
  assert.equal(path.dirname(file), path.join(r.dirs.tmp, 'gemini', 'ide'));
  assert.equal(path.basename(file), `gemini-ide-server-${r.pid}-${port}.json`, 'file must be named with Redline\'s own PID and the port');
  const disc = r.readDiscovery(ws);
  assert.ok(Number.isInteger(port) && port > 0 && port < 65536, `port: ${port}`);
  assert.ok(disc.workspacePath.split(path.delimiter).includes(ws), `workspacePath ${disc.workspacePath} lacks ${ws}`);
  assert.equal(typeof disc.authToken, 'string');
  assert.ok(disc.authToken.length >= 16, 'token too short');
  assert.ok(disc.ideInfo?.name && disc.ideInfo?.displayName, `ideInfo missing: ${JSON.stringify(disc)}`);
  assert.notEqual(disc.ideInfo.name, 'vscode');
  assert.equal(fs.statSync(file).mode & 0o077, 0, 'discovery file must not be readable by others');

  const g = await gemini(t, r, sub);
  const info = await g.info();
  assert.equal(info.cwd, sub);
  assert.deepEqual(info.ide, { name: disc.ideInfo.name, displayName: disc.ideInfo.displayName });

  const c = await g.connect();
  assert.equal(c.state.status, 'connected', `not connected: ${c.state.details}\n${g.output()}`);
  assert.equal(c.diffing, true);
  assert.ok(c.tools.includes('openDiff') && c.tools.includes('closeDiff'), `tools: ${c.tools}`);

  const status = await r.json(['status', '--json']);
  assert.equal(status.pid, r.pid);
  const w = status.workspaces.find((x) => x.path === ws);
  assert.ok(w, `status lacks workspace ${ws}: ${JSON.stringify(status)}`);
  assert.equal(w.port, port);
  assert.ok(w.discoveryFiles.includes(file), `status discoveryFiles: ${JSON.stringify(w.discoveryFiles)}`);
  assert.equal(w.clients.length, 1, `clients: ${JSON.stringify(w.clients)}`);
  assert.equal(w.clients[0].name, 'streamable-http-client');
});

test('openDiff, then accept with edited text: the client gets exactly the edited text', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const ws = await makeWorkspace(t);
  await fsp.mkdir(path.join(ws, 'src'));
  const target = path.join(ws, 'src', 'greeting.txt');
  const original = 'hello\nworld\n';
  await fsp.writeFile(target, original);
  const r = await redline(t, [ws]);
  const g = await connectedGemini(t, r, ws);

  const diff = g.openDiff(target, 'hello\nplanet\n');
  await diff.started;
  const review = await waitReview(r, target);
  assert.equal(review.workspace, ws);
  assert.equal(review.newFile, false);
  assert.equal(review.added, 1);
  assert.equal(review.removed, 1);
  assert.equal(review.client?.name, 'streamable-http-client');

  // Unicode (2-, 3- and 4-byte UTF-8), a CRLF, a tab, no trailing newline.
  const edited = 'héllo wörld — ünïcödé ✓ 🚀 𝄞\nzweite Zeile\r\ndritte\tZeile ohne Zeilenende';
  const editDir = await fsp.mkdtemp(path.join(r.dirs.root, 'edit-'));
  const contentFile = path.join(editDir, 'edited.txt');
  await fsp.writeFile(contentFile, edited);
  await ok(r, ['review', 'accept', String(review.id), '--content-file', contentFile]);

  const result = await diff.result;
  assert.deepEqual(result, { status: 'accepted', content: edited });
  const accepted = g.notifications().filter((n) => n.method === 'ide/diffAccepted');
  assert.deepEqual(accepted.map((n) => n.params), [{ filePath: target, content: edited }]);
  assert.equal(await fsp.readFile(target, 'utf8'), original, 'the companion must not write the file (the CLI does)');
  assert.deepEqual(
    (await reviewList(r)).filter((x) => x.id === review.id),
    [],
    'accepted review still listed',
  );

  // Answering the same review again fails and sends nothing.
  const mark = g.events.length;
  const again = await r.run(['review', 'accept', String(review.id), '--content-file', contentFile]);
  assert.equal(again.code, 2, `second accept: exit ${again.code}, stdout ${again.stdout}`);
  assert.match(again.stderr, /^redline: /);
  await probeNoStrayNotifications(r, g, ws, mark);
  await assertStillConnected(g);
  await assertOneGetStream(g);
});

test('openDiff, then reject: the client gets rejected', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const ws = await makeWorkspace(t);
  const target = path.join(ws, 'main.rs');
  const original = 'fn main() {}\n';
  await fsp.writeFile(target, original);
  const r = await redline(t, [ws]);
  const g = await connectedGemini(t, r, ws);

  const diff = g.openDiff(target, 'fn main() { println!("hi"); }\n');
  await diff.started;
  const review = await waitReview(r, target);
  await ok(r, ['review', 'reject', String(review.id)]);

  const result = await diff.result;
  assert.equal(result.status, 'rejected');
  assert.equal(result.content, undefined);
  const diffNotes = g.notifications().filter((n) => n.method.startsWith('ide/diff'));
  assert.deepEqual(diffNotes.map((n) => [n.method, n.params]), [['ide/diffRejected', { filePath: target }]]);
  assert.equal(await fsp.readFile(target, 'utf8'), original);
  assert.deepEqual(await reviewList(r), []);
  await assertStillConnected(g);
});

for (const outcome of ['accepted', 'rejected']) {
  test(`answer in the terminal (resolveDiffFromCli '${outcome}'): closeDiff result, no racing notification`, { timeout: TEST_TIMEOUT_MS }, async (t) => {
    const ws = await makeWorkspace(t);
    const target = path.join(ws, 'notes.md');
    await fsp.writeFile(target, '# Notes\n');
    const proposal = '# Notes\n\n- ünïcödé ✓\n- no trailing newline';
    const r = await redline(t, [ws]);
    const g = await connectedGemini(t, r, ws);

    const diff = g.openDiff(target, proposal);
    await diff.started;
    const review = await waitReview(r, target);
    const mark = g.events.length;

    const res = await g.resolveDiffFromCli(target, outcome);
    assert.deepEqual(res.pendingAfter, [], 'IdeClient still waits for this diff');
    const result = await diff.result;
    if (outcome === 'accepted') {
      // The IdeClient takes closeDiff's {"content": ...} as the user's text: Redline holds the proposal.
      assert.deepEqual(result, { status: 'accepted', content: proposal });
    } else {
      assert.equal(result.status, 'rejected');
      assert.equal(result.content, undefined);
    }
    assert.deepEqual(
      (await reviewList(r)).filter((x) => x.id === review.id),
      [],
      'review closed by closeDiff is still listed',
    );
    await probeNoStrayNotifications(r, g, ws, mark);
    assert.equal(await fsp.readFile(target, 'utf8'), '# Notes\n');
    await assertStillConnected(g);
    await assertOneGetStream(g);
  });
}

test('new file: review says newFile, accept gives the proposal, nothing written', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const ws = await makeWorkspace(t);
  const target = path.join(ws, 'new', 'dir', 'created.txt');
  const proposal = 'line one\nline two\n';
  const r = await redline(t, [ws]);
  const g = await connectedGemini(t, r, ws);

  const diff = g.openDiff(target, proposal);
  await diff.started;
  const review = await waitReview(r, target);
  assert.equal(review.newFile, true);
  assert.equal(review.added, 2);
  assert.equal(review.removed, 0);
  const listed = (await reviewList(r)).find((x) => x.id === review.id);
  assert.equal(listed?.newFile, true, `review list --json: ${JSON.stringify(listed)}`);

  const shown = await ok(r, ['review', 'show', String(review.id)]);
  assert.match(shown.stdout, /^\+line one$/m);
  assert.match(shown.stdout, /^\+line two$/m);

  await ok(r, ['review', 'accept', String(review.id)]);
  const result = await diff.result;
  assert.deepEqual(result, { status: 'accepted', content: proposal });
  assert.equal(fs.existsSync(path.join(ws, 'new')), false, 'the companion must not create the file or its dirs');
  assert.deepEqual(await reviewList(r), []);
  await assertStillConnected(g);
});

test('wrong token is refused (discovery file and env fallback), right token connects', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const ws = await makeWorkspace(t);
  const r = await redline(t, [ws]);
  const port = r.port(ws);
  const token = r.token(ws);
  const wrong = `${token.slice(0, -1)}${token.endsWith('x') ? 'y' : 'x'}`;

  // A client-side copy of the discovery file (same name) with a tampered token.
  async function clientTmpWithFile(authToken) {
    const tmp = await fsp.mkdtemp(path.join(r.dirs.root, 'client-tmp-'));
    const dir = path.join(tmp, 'gemini', 'ide');
    await fsp.mkdir(dir, { recursive: true });
    const disc = { ...r.readDiscovery(ws), authToken };
    await fsp.writeFile(path.join(dir, path.basename(r.discoveryFile(ws))), JSON.stringify(disc), { mode: 0o600 });
    return tmp;
  }

  const bad = await gemini(t, r, ws, { TMPDIR: await clientTmpWithFile(wrong) });
  const badConn = await bad.connect();
  assert.equal(badConn.state.status, 'disconnected', 'connected with a wrong token (discovery file)');

  // Env-only discovery (no discovery file visible; env-only needs an IDE terminal, as VS Code's).
  const emptyTmp = await fsp.mkdtemp(path.join(r.dirs.root, 'client-empty-'));
  const envOnly = (authToken) => ({
    TMPDIR: emptyTmp,
    TERM_PROGRAM: 'vscode',
    GEMINI_CLI_IDE_SERVER_PORT: port,
    GEMINI_CLI_IDE_WORKSPACE_PATH: ws,
    GEMINI_CLI_IDE_AUTH_TOKEN: authToken,
  });
  const badEnv = await gemini(t, r, ws, envOnly(wrong));
  const badEnvConn = await badEnv.connect();
  assert.equal(badEnvConn.state.status, 'disconnected', 'connected with a wrong token (env)');

  const noTok = await gemini(t, r, ws, { ...envOnly(undefined) });
  const noTokConn = await noTok.connect();
  assert.equal(noTokConn.state.status, 'disconnected', 'connected with no token at all');

  const status = await r.json(['status', '--json']);
  assert.deepEqual(status.workspaces.find((x) => x.path === ws)?.clients, [], 'refused clients must not be registered');

  // Controls: the same routes with the right token connect.
  const good = await gemini(t, r, ws, { TMPDIR: await clientTmpWithFile(token) });
  const goodConn = await good.connect();
  assert.equal(goodConn.state.status, 'connected', `control (file) failed: ${goodConn.state.details}\n${good.output()}`);
  const goodEnv = await gemini(t, r, ws, envOnly(token));
  const goodEnvConn = await goodEnv.connect();
  assert.equal(goodEnvConn.state.status, 'connected', `control (env) failed: ${goodEnvConn.state.details}\n${goodEnv.output()}`);
});

test('directory mismatch: a client outside the workspace does not connect', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const ws = await makeWorkspace(t);
  const sibling = `${ws}-sibling`; // shares the workspace path as a string prefix
  await fsp.mkdir(sibling);
  t.after(() => fsp.rm(sibling, { recursive: true, force: true }));
  const elsewhere = await makeWorkspace(t, 'elsewhere');
  const r = await redline(t, [ws]);

  for (const cwd of [sibling, elsewhere, path.dirname(ws)]) {
    const g = await gemini(t, r, cwd);
    const c = await g.connect();
    assert.equal(c.state.status, 'disconnected', `client in ${cwd} connected`);
    assert.match(c.state.details ?? '', /Directory mismatch/, `details: ${c.state.details}`);
    await g.close();
  }
  const status = await r.json(['status', '--json']);
  assert.deepEqual(status.workspaces.find((x) => x.path === ws)?.clients, []);

  // Control: inside the workspace it connects.
  await connectedGemini(t, r, ws);
});

test('openDiff for a path outside the workspace is refused and queues no review', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const ws = await makeWorkspace(t);
  const outside = await makeWorkspace(t, 'outside');
  await fsp.writeFile(path.join(outside, 'victim.txt'), 'keep me\n');
  await fsp.symlink(outside, path.join(ws, 'link'));
  const sibling = `${ws}-sibling`;
  await fsp.mkdir(sibling);
  t.after(() => fsp.rm(sibling, { recursive: true, force: true }));
  const r = await redline(t, [ws]);
  const g = await connectedGemini(t, r, ws);

  const cases = {
    'absolute path elsewhere': path.join(outside, 'victim.txt'),
    'dot-dot out of the workspace': `${ws}/../${path.basename(outside)}/victim.txt`,
    'symlink inside the workspace pointing out': path.join(ws, 'link', 'victim.txt'),
    'new file under a symlink pointing out': path.join(ws, 'link', 'planted.txt'),
    'sibling dir sharing the prefix': path.join(sibling, 'x.txt'),
    'relative path': 'victim.txt',
  };
  for (const [label, filePath] of Object.entries(cases)) {
    // Refused means: the openDiff tool answers isError (IdeClient rejects the promise with its
    // text), or, at least, the diff ends rejected at once. Never accepted, never left pending.
    const diff = g.openDiff(filePath, 'pwned\n', { timeoutMs: 15_000 });
    let outcome;
    try {
      outcome = { resolved: await diff.result };
    } catch (err) {
      outcome = err.ideClientError !== undefined ? { ideError: err.ideClientError } : { failure: err.message };
    }
    t.diagnostic(`${label}: ${JSON.stringify(outcome)}`);
    const refused = outcome.ideError !== undefined || outcome.resolved?.status === 'rejected';
    assert.ok(refused, `${label}: openDiff ${JSON.stringify(filePath)} was not refused: ${JSON.stringify(outcome)}; reviews: ${JSON.stringify(await reviewList(r))}`);
    assert.deepEqual(await reviewList(r), [], `${label}: a review was queued for ${filePath}`);
  }
  assert.equal(await fsp.readFile(path.join(outside, 'victim.txt'), 'utf8'), 'keep me\n');
  assert.equal(fs.existsSync(path.join(outside, 'planted.txt')), false);

  // Control: the same client can still open a diff inside the workspace.
  const inside = path.join(ws, 'ok.txt');
  const diff = g.openDiff(inside, 'fine\n');
  await diff.started;
  const review = await waitReview(r, inside);
  await ok(r, ['review', 'reject', String(review.id)]);
  assert.equal((await diff.result).status, 'rejected');
});

test('two workspaces: each has its own server; a client of one cannot open diffs in the other', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const ws1 = await makeWorkspace(t, 'one');
  const ws2 = await makeWorkspace(t, 'two');
  await fsp.writeFile(path.join(ws1, 'a.txt'), 'a\n');
  const r = await redline(t, [ws1, ws2]);
  assert.notEqual(r.port(ws1), r.port(ws2));
  assert.notEqual(r.discoveryFile(ws1), r.discoveryFile(ws2));

  const g = await connectedGemini(t, r, ws2);
  const status = await r.json(['status', '--json']);
  const clientsIn = (ws) => status.workspaces.find((x) => x.path === ws)?.clients;
  assert.equal(clientsIn(ws2)?.length, 1, JSON.stringify(status));
  assert.deepEqual(clientsIn(ws1), []);

  const foreign = path.join(ws1, 'a.txt');
  const diff = g.openDiff(foreign, 'b\n', { timeoutMs: 15_000 });
  await assert.rejects(diff.result, (err) => err.ideClientError !== undefined, 'openDiff into the other workspace was not refused');
  assert.deepEqual(await reviewList(r), []);

  const own = path.join(ws2, 'b.txt');
  const ok2 = g.openDiff(own, 'b\n');
  await ok2.started;
  const review = await waitReview(r, own);
  assert.equal(review.workspace, ws2);
  await ok(r, ['review', 'accept', String(review.id)]);
  assert.deepEqual(await ok2.result, { status: 'accepted', content: 'b\n' });
});

test('the CLI disabling IDE mode (closeDiff without suppressNotification) closes its pending review', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const ws = await makeWorkspace(t);
  const target = path.join(ws, 'x.txt');
  await fsp.writeFile(target, 'x\n');
  const r = await redline(t, [ws]);
  const g = await connectedGemini(t, r, ws);

  const diff = g.openDiff(target, 'y\n');
  await diff.started;
  const review = await waitReview(r, target);
  const after = await g.disconnect(); // IdeClient.disconnect(): closeDiff for each pending diff, then close
  assert.equal(after.state.status, 'disconnected');
  assert.deepEqual(
    (await reviewList(r)).filter((x) => x.id === review.id),
    [],
    'review still pending after the CLI closed the diff',
  );
  const rej = await r.run(['review', 'reject', String(review.id)]);
  assert.equal(rej.code, 2, 'rejecting a review the CLI already closed should fail (an error: 2)');
});

test('token rotate: the new token works, the old one is refused, also for an open session', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const ws = await makeWorkspace(t);
  const r = await redline(t, [ws]);
  const oldToken = r.token(ws);
  const oldFile = r.discoveryFile(ws);
  const oldDisc = r.readDiscovery(ws);
  const before = await connectedGemini(t, r, ws);

  await ok(r, ['token', 'rotate', ws]);
  const newToken = r.token(ws);
  assert.notEqual(newToken, oldToken, 'discovery file still has the old token');
  assert.equal(r.port(ws), oldDisc.port);

  // The session opened with the old token cannot queue a review any more.
  const target = path.join(ws, 'x.txt');
  const stale = before.openDiff(target, 'x\n', { timeoutMs: 15_000 });
  let staleOutcome;
  try {
    staleOutcome = { resolved: await stale.result };
  } catch (err) {
    staleOutcome = { error: err.message.split('\n')[0] };
  }
  t.diagnostic(`old session after rotate: ${JSON.stringify(staleOutcome)}`);
  assert.ok(staleOutcome.error !== undefined, `old session still works: ${JSON.stringify(staleOutcome)}`);
  assert.deepEqual(await reviewList(r), [], 'old session queued a review after rotate');

  // A new client with the old token (a stale copy of the file) is refused.
  const tmp = await fsp.mkdtemp(path.join(r.dirs.root, 'client-tmp-'));
  await fsp.mkdir(path.join(tmp, 'gemini', 'ide'), { recursive: true });
  await fsp.writeFile(path.join(tmp, 'gemini', 'ide', path.basename(oldFile)), JSON.stringify(oldDisc), { mode: 0o600 });
  const staleClient = await gemini(t, r, ws, { TMPDIR: tmp });
  assert.equal((await staleClient.connect()).state.status, 'disconnected', 'old token accepted after rotate');

  // A client reading the rewritten file connects and works.
  const fresh = await connectedGemini(t, r, ws);
  const diff = fresh.openDiff(target, 'y\n');
  await diff.started;
  const review = await waitReview(r, target);
  await ok(r, ['review', 'reject', String(review.id)]);
  assert.equal((await diff.result).status, 'rejected');
});

test('redline env: its exports let the real client connect without a discovery file', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const ws = await makeWorkspace(t);
  const sub = path.join(ws, 'pkg');
  await fsp.mkdir(sub);
  const r = await redline(t, [ws]);

  const res = await ok(r, ['env', '--shell', 'sh', sub]);
  const vars = {};
  for (const line of res.stdout.split('\n').filter(Boolean)) {
    const m = /^export ([A-Z_]+)='((?:[^']|'\\'')*)'$/.exec(line);
    assert.ok(m, `not an sh export line: ${JSON.stringify(line)}`);
    vars[m[1]] = m[2].replaceAll("'\\''", "'");
  }
  assert.equal(vars.GEMINI_CLI_IDE_SERVER_PORT, String(r.port(ws)));
  assert.equal(vars.GEMINI_CLI_IDE_WORKSPACE_PATH, ws);
  assert.equal(vars.GEMINI_CLI_IDE_AUTH_TOKEN, r.token(ws));

  // No discovery file visible: the env alone (in an IDE-type terminal; without a file there is no
  // ideInfo, so the client only runs IDE mode in such terminals).
  const emptyTmp = await fsp.mkdtemp(path.join(r.dirs.root, 'client-empty-'));
  const g = await gemini(t, r, sub, { ...vars, TMPDIR: emptyTmp, TERM_PROGRAM: 'vscode' });
  const c = await g.connect();
  assert.equal(c.state.status, 'connected', `${c.state.details}\n${g.output()}`);
  assert.equal(c.diffing, true);
});

// The contract: once `ready` is printed, SIGTERM or `redline quit` stops cleanly. A signal sent
// right after `ready` is the edge case, so each way is tried a few times, each time at once.
for (const how of ['quit', 'SIGTERM']) {
  test(`stopping (${how}) right after ready exits 0 and removes the discovery file`, { timeout: TEST_TIMEOUT_MS }, async (t) => {
    const ws = await makeWorkspace(t);
    for (let round = 1; round <= 3; round++) {
      const r = await redline(t, [ws]);
      const file = r.discoveryFile(ws);
      assert.ok(fs.existsSync(file));
      if (how === 'quit') await ok(r, ['quit']);
      else r.process.kill('SIGTERM');
      const exit = await r.waitExit();
      assert.deepEqual(exit, { code: 0, signal: null }, `round ${round}: serve exit ${JSON.stringify(exit)}\n${r.stderr()}`);
      assert.equal(fs.existsSync(file), false, `round ${round}: discovery file left behind`);
      const st = await r.run(['status', '--json']);
      assert.equal(st.code, 3, 'status should say no instance runs (3)');
      assert.match(st.stderr, /^redline: /);
      await r.stop();
    }
  });
}

// undici cuts a response body after 300 s without bytes; the GET stream must carry keep-alive
// traffic or the CLI drops to Disconnected. Idling IS the scenario here, so this test waits
// 320 s: opt in with REDLINE_IT_LONG=1.
test('an idle session survives 320 s (keep-alive on the GET stream)', { skip: !process.env.REDLINE_IT_LONG && 'set REDLINE_IT_LONG=1', timeout: 420_000 }, async (t) => {
  const ws = await makeWorkspace(t);
  const r = await redline(t, [ws]);
  const g = await connectedGemini(t, r, ws);
  const idleMs = 320_000;
  const drop = g.waitEvent((e) => e.event === 'status' && e.state.status === 'disconnected', { timeoutMs: idleMs, what: 'disconnect' }).then(
    (e) => e,
    () => null,
  );
  const dropped = await drop;
  assert.equal(dropped, null, `the client dropped while idle: ${JSON.stringify(dropped)}`);

  const target = path.join(ws, 'after-idle.txt');
  const diff = g.openDiff(target, 'still here\n');
  await diff.started;
  const review = await waitReview(r, target);
  await ok(r, ['review', 'accept', String(review.id)]);
  assert.deepEqual(await diff.result, { status: 'accepted', content: 'still here\n' });
  await assertStillConnected(g);
});
