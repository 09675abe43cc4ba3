// Interop harness: the REAL GitHub Copilot CLI (@github/copilot 1.0.102, pinned in package.json),
// offline, no account, in a network namespace that holds only loopback.
//
//   cd tests/interop && npm install --no-audit --no-fund && node --test copilot.test.mjs
//
// copilot runs under a private tmux server with a throwaway HOME and COPILOT_HOME,
// COPILOT_OFFLINE=true and a BYOK provider pointing at a local fake of the OpenAI Chat Completions
// API (copilot-fake-api.mjs) that answers a prompt with one `edit` tool call. These tests prove
// the harness (copilot's own permission prompt, answered by the driver); the IDE scenarios
// against Redline come with the Copilot adapter. See copilot/README.md.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { realTmpDir } from './lib/dirs.mjs';

import { startFakeApi, EDIT_TOOL } from './copilot-fake-api.mjs';
import {
  copilotHome,
  startTmux,
  copilotInstalled,
  isolationUnavailable,
  waitForEditPermission,
  approveEdit,
  rejectEdit,
  rejectEditWithFeedback,
  answerFolderTrust,
  runIsolated,
  READY,
  COPILOT_MODEL,
  API_KEY,
} from './copilot-driver.mjs';

const STEP_MS = 60_000;
const verbose = !!process.env.REDLINE_IT_VERBOSE;

// A reason, or false: node 20 takes any other value (even null) as "skip".
const skip = (!copilotInstalled() && 'copilot not installed (npm install in tests/interop)') || isolationUnavailable() || false;

describe('GitHub Copilot CLI (real copilot binary), offline, harness', { skip, timeout: 300_000 }, () => {
  let ws;
  let api;
  let home;
  let tmux;
  let one;

  before(async () => {
    ws = realTmpDir('rl-copilot-ws-');
    api = await startFakeApi({ log: verbose ? (m) => console.log(m) : () => {} });
    home = await copilotHome({ trustedFolders: [ws] });
    tmux = await startTmux();
    one = await tmux.copilot({ name: 'one', cwd: ws, home, api });
    await one.waitForScreen(READY, STEP_MS, 'copilot to be ready (no first-run dialog left)');
  });

  after(async () => {
    await tmux?.stop();
    await api?.close();
    await home?.stop();
    if (ws) fs.rmSync(ws, { recursive: true, force: true });
  });

  /**
   * Writes `name` with `before`, prompts copilot with a plan replacing `oldStr` by `newStr`, and
   * resolves once copilot's own permission dialog for it is on screen.
   */
  async function proposeEdit({ name, before: text, oldStr, newStr, tag }) {
    const filePath = path.join(ws, name);
    fs.writeFileSync(filePath, text);
    const trigger = `REDLINE-EDIT-${tag}`;
    const plan = api.addPlan({ trigger, path: filePath, oldStr, newStr, final: `done ${tag}` });
    await one.submit(`${trigger} please`);
    const q = await api.waitFor((r) => r.decision.kind === 'edit' && r.decision.plan === plan, STEP_MS, `the model request of ${tag}`);
    // What copilot sent: the BYOK settings reached the fake, with the edit tool among the tools.
    assert.equal(q.body.model, COPILOT_MODEL);
    assert.equal(q.headers.authorization, `Bearer ${API_KEY}`);
    assert.ok(q.body.tools.some((t) => t.function?.name === EDIT_TOOL), 'copilot offers the edit tool');
    await waitForEditPermission(one, filePath);
    assert.equal(fs.readFileSync(filePath, 'utf8'), text, 'nothing is written before the answer');
    return { filePath, plan, proposal: text.replace(oldStr, newStr) };
  }

  test('copilot\'s network namespace: loopback only, the fake API at its port, nothing else reachable', async () => {
    const probe = `
      import { execFileSync } from 'node:child_process';
      import net from 'node:net';
      const port = process.argv[1];
      const links = execFileSync('ip', ['-o', 'link', 'show'], { encoding: 'utf8' }).trim().split('\\n').map((l) => l.split(':')[1].trim());
      const res = await fetch('http://127.0.0.1:' + port + '/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'isolation probe' }] }),
      });
      const answer = (await res.json()).choices[0].message.content;
      // 192.0.2.1 (TEST-NET-1): with any route out this would hang or connect instead.
      const outside = await new Promise((resolve) => {
        const s = net.connect({ host: '192.0.2.1', port: 80 });
        s.on('connect', () => { s.destroy(); resolve('connected'); });
        s.on('error', (e) => resolve(e.code));
      });
      console.log(JSON.stringify({ links, answer, outside }));
    `;
    const before = api.requests.length;
    const out = JSON.parse(await runIsolated(api, [process.execPath, '--input-type=module', '-e', probe, String(api.port)]));
    assert.deepEqual(out, { links: ['lo'], answer: 'ok', outside: 'ENETUNREACH' });
    assert.equal(api.requests.length, before + 1, 'the probe request reached the fake API');
  });

  test('the driver approves in copilot\'s prompt: the file holds exactly the proposal', async () => {
    const { filePath, plan, proposal } = await proposeEdit({
      name: 'approve.txt',
      before: 'first line\nsecond line ✓\nthird line\n',
      oldStr: 'second line ✓',
      newStr: 'second line, approved ✓\nan added line',
      tag: 'APPROVE',
    });
    // The CLI-side evidence the IDE scenarios read (`--log-level all`): copilot's own log.
    await home.waitForLog(/Permission request \(kind=write\)/, STEP_MS, 'copilot to log the write permission request');
    await approveEdit(one);
    const q = await api.waitFor((r) => r.decision.kind === 'final' && r.decision.plan === plan, STEP_MS, 'the edit result sent to the model');
    assert.match(q.decision.result, /updated with changes/);
    await one.waitForScreen(/● done APPROVE/, STEP_MS, 'the end of the APPROVE turn');
    assert.equal(fs.readFileSync(filePath, 'utf8'), proposal);
  });

  test('the driver rejects (Esc) in copilot\'s prompt: the file is unchanged, the turn ends', async () => {
    const text = 'keep me\nas I am\n';
    const { filePath, plan } = await proposeEdit({ name: 'reject.txt', before: text, oldStr: 'as I am', newStr: 'changed', tag: 'REJECT' });
    await rejectEdit(one);
    await one.waitForScreen(/Operation cancelled by user/, STEP_MS, 'copilot to show the edit cancelled');
    await one.waitForScreen(READY, STEP_MS, 'the prompt back');
    assert.equal(fs.readFileSync(filePath, 'utf8'), text);
    // Esc stops the turn: copilot does not tell the model (a later prompt would carry it).
    assert.ok(!api.requests.some((r) => r.decision.plan === plan && r.decision.kind === 'final'), 'no tool result after Esc');
  });

  test('the driver rejects with feedback: the file is unchanged, the model gets the feedback', async () => {
    const text = 'alpha\nbeta\n';
    const { filePath, plan } = await proposeEdit({ name: 'feedback.txt', before: text, oldStr: 'beta', newStr: 'BETA', tag: 'FEEDBACK' });
    await rejectEditWithFeedback(one, 'keep it lowercase');
    const q = await api.waitFor((r) => r.decision.kind === 'final' && r.decision.plan === plan, STEP_MS, 'the rejection sent to the model');
    assert.match(q.decision.result, /The user rejected this tool call\. User feedback: keep it lowercase/);
    await one.waitForScreen(/● done FEEDBACK/, STEP_MS, 'the end of the FEEDBACK turn');
    assert.equal(fs.readFileSync(filePath, 'utf8'), text);
  });

  test('an untrusted folder: the driver answers copilot\'s folder-trust dialog, then edits are asked as usual', async () => {
    const other = realTmpDir('rl-copilot-untrusted-');
    try {
      const two = await tmux.copilot({ name: 'untrusted', cwd: other, home, api });
      await answerFolderTrust(two);
      const filePath = path.join(other, 'u.txt');
      fs.writeFileSync(filePath, 'x\n');
      const plan = api.addPlan({ trigger: 'REDLINE-EDIT-UNTRUSTED', path: filePath, oldStr: 'x', newStr: 'y', final: 'done UNTRUSTED' });
      await two.submit('REDLINE-EDIT-UNTRUSTED please');
      await waitForEditPermission(two, filePath);
      await approveEdit(two);
      await api.waitFor((r) => r.decision.kind === 'final' && r.decision.plan === plan, STEP_MS, 'the edit result of UNTRUSTED');
      await two.waitForScreen(/● done UNTRUSTED/, STEP_MS, 'the end of the UNTRUSTED turn');
      assert.equal(fs.readFileSync(filePath, 'utf8'), 'y\n');
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  });
});
