// Interop: the REAL GitHub Copilot CLI (@github/copilot 1.0.102, pinned in package.json) against
// `redline serve --headless`, offline, no account, in a network namespace that holds only loopback.
//
//   cd tests/interop && npm install --no-audit --no-fund && REDLINE_BIN=/path/to/redline node --test copilot-ide.test.mjs
//
// Redline and copilot share one HOME, so Redline's lock lands in the ~/.copilot/ide/ copilot scans;
// nothing else tells copilot where Redline is. copilot reaches Redline's unix socket from its
// namespace (unix sockets cross network namespaces). The decisions are made with
// `redline review accept|reject` or in copilot's own prompt. See copilot/README.md.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { startRedline } from './lib/redline.mjs';
import { realTmpDir } from './lib/dirs.mjs';
import { pollUntil } from './lib/wait.mjs';
import { startFakeApi } from './copilot-fake-api.mjs';
import {
  copilotHome,
  startTmux,
  copilotInstalled,
  isolationUnavailable,
  waitForEditPermission,
  approveEdit,
  READY,
  COPILOT_VERSION,
} from './copilot-driver.mjs';

const STEP_MS = 60_000;
const CONNECTED = /Connected to IDE MCP server: Redline/;
const verbose = !!process.env.REDLINE_IT_VERBOSE;

const skip = (!copilotInstalled() && 'copilot not installed (npm install in tests/interop)') || isolationUnavailable() || false;

describe('GitHub Copilot CLI (real copilot binary) against Redline', { skip, timeout: 900_000 }, () => {
  let ws;
  let r;
  let api;
  let home;
  let tmux;
  let one;

  before(async () => {
    ws = realTmpDir('rl-copilot-ide-ws-');
    api = await startFakeApi({ log: verbose ? (m) => console.log(m) : () => {} });
    r = await startRedline({ workspaces: [ws] });
    // Trusted by copilot's own config: the lock claims no trust (docs/security.md).
    home = await copilotHome({ home: r.dirs.home, trustedFolders: [ws] });
    tmux = await startTmux();
  });

  after(async () => {
    await tmux?.stop();
    await r?.stop();
    await api?.close();
    if (ws) fs.rmSync(ws, { recursive: true, force: true });
  });

  async function reviews() {
    return r.json(['review', 'list', '--json']);
  }

  /** The log lines of copilot process `pid` (its own `process-<ms>-<pid>.log`). */
  function logOf(pid) {
    const names = fs.readdirSync(home.logsDir).filter((n) => n.endsWith(`-${pid}.log`));
    return names.map((n) => fs.readFileSync(path.join(home.logsDir, n), 'utf8')).join('\n');
  }

  /** The pid of the copilot running in `pane`, from Redline's view of its clients. */
  async function connected(what) {
    return pollUntil(
      async () => {
        const s = await r.json(['status', '--json']);
        const clients = s.workspaces[0].clients.filter((c) => c.name === 'copilot-cli');
        return { ok: clients.length > 0, value: clients };
      },
      STEP_MS,
      what,
    );
  }

  /**
   * Prompts `pane` (copilot in `dir`) to edit `name` from `before` to a proposal; resolves with the
   * Redline review once it is open and copilot's own dialog shows.
   */
  async function proposeEdit(pane, { dir = ws, name, before: text, oldStr, newStr, tag }) {
    const filePath = path.join(dir, name);
    fs.writeFileSync(filePath, text);
    const trigger = `REDLINE-EDIT-${tag}`;
    const plan = api.addPlan({ trigger, path: filePath, oldStr, newStr, final: `done ${tag}` });
    await pane.submit(`${trigger} please`);
    await waitForEditPermission(pane, filePath);
    const review = await pollUntil(
      async () => {
        const list = await reviews();
        const found = list.find((x) => x.filePath === filePath);
        return { ok: !!found, value: found ?? list };
      },
      STEP_MS,
      `Redline to list the review of ${name}`,
    );
    assert.equal(fs.readFileSync(filePath, 'utf8'), text, 'nothing is written before the answer');
    return { review, plan, filePath, proposal: text.replace(oldStr, newStr) };
  }

  test('copilot connects by the lock alone: its log says so and Redline lists it', async () => {
    const st = await r.json(['status', '--json']);
    const w = st.workspaces.find((x) => x.path === ws);
    const lockFile = w.discoveryFiles.find((f) => f.startsWith(home.ideDir + path.sep));
    assert.ok(lockFile, `a lock in ${home.ideDir}: ${JSON.stringify(w.discoveryFiles)}`);
    assert.equal((fs.statSync(lockFile).mode & 0o777).toString(8), '600');
    const lock = JSON.parse(fs.readFileSync(lockFile, 'utf8'));
    assert.equal(lock.pid, st.pid);
    assert.deepEqual(lock.workspaceFolders, [ws]);
    assert.equal(lock.isTrusted, undefined);
    assert.equal((fs.statSync(path.dirname(lock.socketPath)).mode & 0o777).toString(8), '700');

    one = await tmux.copilot({ name: 'one', cwd: ws, home, api });
    await one.waitForScreen(READY, STEP_MS, 'copilot to be ready');
    await home.waitForLog(CONNECTED, STEP_MS, 'copilot to log its connection to Redline');
    const clients = await connected('redline status to list copilot as a client');
    assert.equal(clients[0].version, COPILOT_VERSION);
    assert.equal(clients[0].process?.program, 'Copilot CLI', JSON.stringify(clients[0]));
  });

  test('accept in Redline: copilot writes its proposal, and the review named who asked', async () => {
    const { review, plan, filePath, proposal } = await proposeEdit(one, {
      name: 'accept.txt',
      before: 'first line\nsecond line ✓\nthird line\n',
      oldStr: 'second line ✓',
      newStr: 'second line, accepted in Redline ✓',
      tag: 'ACCEPT',
    });
    assert.equal(review.client.process?.program, 'Copilot CLI', JSON.stringify(review.client));
    assert.equal(review.client.process?.cwd, ws);
    // The session's title is the first prompt's text (update_session_name).
    assert.match(review.client.sessionName ?? '', /REDLINE-EDIT-ACCEPT/, JSON.stringify(review.client));
    const shown = await r.run(['review', 'show', String(review.id)]);
    assert.match(shown.stdout, /\+second line, accepted in Redline ✓/);
    assert.equal((await r.run(['review', 'accept', String(review.id)])).code, 0);
    const q = await api.waitFor((x) => x.decision.kind === 'final' && x.decision.plan === plan, STEP_MS, 'the edit result sent to the model');
    assert.match(q.decision.result, /updated with changes/);
    await one.waitForScreen(/● done ACCEPT/, STEP_MS, 'the end of the ACCEPT turn');
    assert.equal(fs.readFileSync(filePath, 'utf8'), proposal);
    assert.deepEqual(await reviews(), []);
  });

  test('reject in Redline: the file is unchanged and copilot cancels the edit', async () => {
    const text = 'keep me\nas I am\n';
    const { review, filePath } = await proposeEdit(one, { name: 'reject.txt', before: text, oldStr: 'as I am', newStr: 'changed', tag: 'REJECT' });
    assert.equal((await r.run(['review', 'reject', String(review.id)])).code, 0);
    await one.waitForScreen(/Operation cancelled by user/, STEP_MS, 'copilot to show the edit cancelled');
    await one.waitForScreen(READY, STEP_MS, 'the prompt back');
    assert.equal(fs.readFileSync(filePath, 'utf8'), text);
  });

  test('the user answers in copilot\'s own prompt first: the review leaves Redline', async () => {
    const { plan, filePath, proposal } = await proposeEdit(one, {
      name: 'terminal.txt',
      before: 'a\nb\n',
      oldStr: 'b',
      newStr: 'B from the terminal',
      tag: 'TERMINAL',
    });
    await approveEdit(one);
    await pollUntil(
      async () => {
        const list = await reviews();
        return { ok: !list.some((x) => x.filePath === filePath), value: list };
      },
      STEP_MS,
      'close_diff to take the review out of Redline',
    );
    await api.waitFor((x) => x.decision.kind === 'final' && x.decision.plan === plan, STEP_MS, 'the TERMINAL edit result');
    await one.waitForScreen(/● done TERMINAL/, STEP_MS, 'the end of the TERMINAL turn');
    assert.equal(fs.readFileSync(filePath, 'utf8'), proposal);
  });

  test('two copilot sessions: each gets its own decision', async () => {
    const two = await tmux.copilot({ name: 'two', cwd: ws, home, api });
    await two.waitForScreen(READY, STEP_MS, 'the second copilot to be ready');
    await pollUntil(
      async () => {
        const s = await r.json(['status', '--json']);
        const n = s.workspaces[0].clients.filter((c) => c.name === 'copilot-cli').length;
        return { ok: n >= 2, value: n };
      },
      STEP_MS,
      'both copilots connected',
    );
    const a = await proposeEdit(one, { name: 'one.txt', before: 'one\n', oldStr: 'one', newStr: 'ONE', tag: 'ONE' });
    const b = await proposeEdit(two, { name: 'two.txt', before: 'two\n', oldStr: 'two', newStr: 'TWO', tag: 'TWO' });
    assert.notEqual(a.review.client.process?.pid, b.review.client.process?.pid, 'two processes asked');
    assert.equal((await r.run(['review', 'reject', String(b.review.id)])).code, 0);
    assert.equal((await r.run(['review', 'accept', String(a.review.id)])).code, 0);
    await one.waitForScreen(/● done ONE/, STEP_MS, 'the end of the ONE turn');
    await two.waitForScreen(/Operation cancelled by user/, STEP_MS, 'the second copilot to cancel its edit');
    assert.equal(fs.readFileSync(a.filePath, 'utf8'), 'ONE\n');
    assert.equal(fs.readFileSync(b.filePath, 'utf8'), 'two\n');
  });

  test('copilot started in a subfolder of the workspace connects with nothing done by hand', async () => {
    const sub = path.join(ws, 'server');
    fs.mkdirSync(sub, { recursive: true });
    const three = await tmux.copilot({ name: 'sub', cwd: sub, home, api });
    await three.waitForScreen(READY, STEP_MS, 'copilot in the subfolder to be ready');
    // Redline saw the session's folder and wrote it a lock of its own; copilot's watcher connects.
    const clients = await pollUntil(
      async () => {
        const s = await r.json(['status', '--json']);
        const found = s.workspaces[0].clients.filter((c) => c.process?.cwd === sub);
        return { ok: found.length === 1, value: s.workspaces[0].clients };
      },
      STEP_MS,
      'redline status to list the copilot started in the subfolder',
    );
    assert.equal(clients.filter((c) => c.process?.cwd === sub)[0].name, 'copilot-cli');
    const st = await r.json(['status', '--json']);
    const folderLock = st.workspaces[0].discoveryFiles
      .filter((f) => f.startsWith(home.ideDir + path.sep))
      .find((f) => JSON.parse(fs.readFileSync(f, 'utf8')).workspaceFolders[0] === sub);
    assert.ok(folderLock, 'a lock lists the subfolder');
    const { review, filePath, proposal } = await proposeEdit(three, { dir: sub, name: 'sub.txt', before: 'x\n', oldStr: 'x', newStr: 'from a subfolder', tag: 'SUB' });
    assert.equal((await r.run(['review', 'accept', String(review.id)])).code, 0);
    await three.waitForScreen(/● done SUB/, STEP_MS, 'the end of the SUB turn');
    assert.equal(fs.readFileSync(filePath, 'utf8'), proposal);
    // The session ends: its lock goes, the workspace's stays.
    await three.quit(['C-c'], STEP_MS, 'to exit on Ctrl-C');
    await pollUntil(
      async () => ({ ok: !fs.existsSync(folderLock), value: fs.readdirSync(home.ideDir) }),
      STEP_MS,
      'the subfolder lock to go with its session',
    );
  });

  test('a lock with a wrong secret: copilot is refused (401) and does not connect', async () => {
    const other = realTmpDir('rl-copilot-wrong-');
    const st = await r.json(['status', '--json']);
    const ours = st.workspaces[0].discoveryFiles.find((f) => f.startsWith(home.ideDir + path.sep));
    const lock = JSON.parse(fs.readFileSync(ours, 'utf8'));
    // Redline's socket, a folder of its own, and a secret that is not the workspace's.
    const forged = path.join(home.ideDir, 'forged.lock');
    fs.writeFileSync(forged, JSON.stringify({ ...lock, workspaceFolders: [other], headers: { Authorization: 'Bearer not-the-token' } }), { mode: 0o600 });
    try {
      const three = await tmux.copilot({ name: 'wrong', cwd: other, home, api, env: {} });
      await three.waitForScreen(/Confirm folder trust|\/ commands/, STEP_MS, 'copilot in the forged folder to start');
      const pid = await pollUntil(
        async () => {
          const names = fs.readdirSync(home.logsDir).map((n) => n.match(/-(\d+)\.log$/)?.[1]).filter(Boolean);
          const failed = names.find((p) => /Failed to connect to IDE MCP server: .*Unauthorized/.test(logOf(p)));
          return { ok: !!failed, value: failed };
        },
        STEP_MS,
        'copilot to log the refused connection',
      );
      assert.doesNotMatch(logOf(pid), CONNECTED);
    } finally {
      fs.rmSync(forged, { force: true });
      fs.rmSync(other, { recursive: true, force: true });
    }
  });
});
