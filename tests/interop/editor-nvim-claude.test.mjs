// Interop: headless real Neovim with Redline's plugin (editors/nvim) selects lines and runs
// :RedlineMention; the real `claude` (@anthropic-ai/claude-code 2.1.332) under tmux, connected
// to Redline, shows the selection and sends it with its next request to a local fake of the
// Messages API (claude-fake-api.mjs), and takes the mention into its prompt.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { startRedline } from './lib/redline.mjs';
import { pollUntil } from './lib/wait.mjs';
import { nvimMissing, startNvim } from './lib/nvim.mjs';
import { startFakeApi } from './claude-fake-api.mjs';
import { writeClaudeConfig, claudeEnv, startTmux, claudeInstalled, CLAUDE_VERSION } from './claude-driver.mjs';

const STEP_MS = 60_000;
const API_KEY = 'sk-ant-api03-redline-interop-0123456789abcdefghijklmnop';
const LINES = ['first line', 'second line', 'third línea', 'fourth line', 'fifth line'];
const skip = nvimMissing() || (!claudeInstalled() && 'claude not installed (npm install in tests/interop)') || false;

/** Every text block of a Messages request (system reminders included), joined. */
function textsOf(body) {
  const out = [];
  for (const m of body?.messages ?? []) {
    if (typeof m.content === 'string') out.push(m.content);
    else for (const b of m.content ?? []) if (b?.type === 'text') out.push(b.text ?? '');
  }
  return out.join('\n');
}

test('Neovim selects lines and mentions them: the real claude receives both', { skip, timeout: 300_000 }, async (t) => {
  const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rl-claude-nvim-')));
  t.after(() => fs.rmSync(ws, { recursive: true, force: true }));
  const file = path.join(ws, 'a.txt');
  fs.writeFileSync(file, LINES.join('\n') + '\n');
  const api = await startFakeApi({ log: process.env.REDLINE_IT_VERBOSE ? (m) => console.log(m) : () => {} });
  t.after(() => api.close());
  const r = await startRedline({ workspaces: [ws] });
  t.after(() => r.stop());
  await writeClaudeConfig(r.dirs.home, { workspaces: [ws], apiKey: API_KEY });
  const tmux = await startTmux();
  t.after(() => tmux.stop());
  const c = await tmux.claude({ name: 'one', cwd: ws, env: claudeEnv({ home: r.dirs.home, apiBaseUrl: api.baseURL, apiKey: API_KEY }) });
  const explain = async (fn) => {
    try {
      return await fn();
    } catch (err) {
      err.message += `\n--- claude screen ---\n${await c.screen().catch(() => '(none)')}`;
      throw err;
    }
  };
  await explain(async () => {
    await c.waitForScreen(/for shortcuts/, STEP_MS, 'claude to be ready');
    await pollUntil(async () => {
      const s = await r.json(['status', '--json']);
      const clients = s.workspaces[0].clients;
      return { ok: clients.some((x) => x.name === 'Claude Code' && x.version === CLAUDE_VERSION), value: clients };
    }, STEP_MS, 'claude to connect to Redline');

    const n = await startNvim({ r, cwd: ws, file: 'a.txt' });
    t.after(() => n.stop());
    // A selection: claude shows it, and sends it with the next prompt.
    await n.keys('3GVj');
    await c.waitForScreen(/2 lines selected/, STEP_MS, 'claude to show the selection');
    const before = api.requests.length;
    await c.submit('What is selected? REDLINE-SELECTION');
    const req = await api.waitFor(
      (q) => q.n > before && textsOf(q.body).includes('REDLINE-SELECTION'),
      STEP_MS,
      'the prompt to reach the Messages API',
    );
    const text = textsOf(req.body);
    assert.match(text, /selected the lines 3 to 4/, text);
    assert.ok(text.includes(file), `the file is named:\n${text}`);
    assert.ok(text.includes('third línea\nfourth line'), `the selected text is sent:\n${text}`);
    await c.waitForScreen(/● ok/, STEP_MS, 'the end of the turn');

    // :RedlineMention on lines 2 to 4: claude takes them into its prompt.
    await n.keys('<Esc>:2,4RedlineMention<CR>');
    await c.waitForScreen(/@a\.txt#L2-4/, STEP_MS, 'claude to put the mention in its prompt');
    // Sent, the mention brings those lines to the model.
    const mark = api.requests.length;
    await c.submit(' REDLINE-MENTION');
    const sent = await api.waitFor(
      (q) => q.n > mark && textsOf(q.body).includes('REDLINE-MENTION'),
      STEP_MS,
      'the mention to reach the Messages API',
    );
    assert.ok(JSON.stringify(sent.body).includes('second line'), `the mentioned lines are sent: ${JSON.stringify(sent.body.messages.slice(-1))}`);
  });
});
