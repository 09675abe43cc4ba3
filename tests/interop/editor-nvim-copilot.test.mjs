// Interop: headless real Neovim with Redline's plugin (editors/nvim) selects lines; the real
// GitHub Copilot CLI (@github/copilot 1.0.102) under tmux, offline in a network namespace holding
// only loopback (copilot-driver.mjs), connected to Redline, shows the selection on its status line
// and sends it with its next request to a local fake of the Chat Completions API; :RedlineMention
// puts the lines in its prompt.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { startRedline } from './lib/redline.mjs';
import { nvimMissing, startNvim } from './lib/nvim.mjs';
import { startFakeApi } from './copilot-fake-api.mjs';
import { copilotHome, startTmux, copilotInstalled, isolationUnavailable, READY } from './copilot-driver.mjs';

const STEP_MS = 60_000;
const CONNECTED = /Connected to IDE MCP server: Redline/;
const LINES = ['first line', 'second line', 'third línea', 'fourth line', 'fifth line'];
const skip = nvimMissing() || (!copilotInstalled() && 'copilot not installed (npm install in tests/interop)') || isolationUnavailable() || false;

test('Neovim selects and mentions lines: the real copilot shows them and sends them with the next prompt', { skip, timeout: 300_000 }, async (t) => {
  const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rl-copilot-nvim-')));
  t.after(() => fs.rmSync(ws, { recursive: true, force: true }));
  fs.writeFileSync(path.join(ws, 'a.txt'), LINES.join('\n') + '\n');
  const api = await startFakeApi({ log: process.env.REDLINE_IT_VERBOSE ? (m) => console.log(m) : () => {} });
  t.after(() => api.close());
  const r = await startRedline({ workspaces: [ws] });
  t.after(() => r.stop());
  const home = await copilotHome({ home: r.dirs.home, trustedFolders: [ws] });
  const tmux = await startTmux();
  t.after(() => tmux.stop());
  const c = await tmux.copilot({ name: 'one', cwd: ws, home, api });
  const explain = async (fn) => {
    try {
      return await fn();
    } catch (err) {
      err.message += `\n--- copilot screen ---\n${await c.screen().catch(() => '(none)')}`;
      throw err;
    }
  };
  await explain(async () => {
    await c.waitForScreen(READY, STEP_MS, 'copilot to be ready');
    await home.waitForLog(CONNECTED, STEP_MS, 'copilot to log its connection to Redline');

    const n = await startNvim({ r, cwd: ws, file: 'a.txt' });
    t.after(() => n.stop());
    await n.keys('3GVj');
    await c.waitForScreen(/@a\.txt:3/, STEP_MS, 'copilot to show the selection on its status line');
    const before = api.requests.length;
    await c.submit('What is selected? REDLINE-SELECTION');
    const req = await api.waitFor(
      (q) => q.n > before && JSON.stringify(q.body).includes('REDLINE-SELECTION'),
      STEP_MS,
      'the prompt to reach the model',
    );
    const body = JSON.stringify(req.body);
    assert.match(body, /ide_selection/, body);
    assert.ok(body.includes('third línea\\nfourth line'), `the selected text is sent: ${body}`);
    await c.waitForScreen(/● ok/, STEP_MS, 'the end of the turn');

    // :RedlineMention on lines 2 to 4: copilot takes them into its prompt (add_selection) and
    // tags those lines of the file in its request.
    await n.keys('<Esc>:2,4RedlineMention<CR>');
    await c.waitForScreen(/@a\.txt:2-4/, STEP_MS, 'copilot to put the mention in its prompt');
    const mark = api.requests.length;
    await c.submit(' REDLINE-MENTION');
    const sent = await api.waitFor(
      (q) => q.n > mark && JSON.stringify(q.body).includes('REDLINE-MENTION'),
      STEP_MS,
      'the mention to reach the model',
    );
    const asked = JSON.stringify(sent.body.messages.at(-1));
    assert.ok(asked.includes(`${path.join(ws, 'a.txt')} (lines 2-4 of`), `the lines are tagged: ${asked}`);
  });
});
