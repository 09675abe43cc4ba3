// Interop: headless real Neovim with Redline's plugin (editors/nvim) selects lines and runs
// :RedlineMention; the real opencode TUI (opencode-ai 1.18.33) under tmux, connected to Redline
// by Claude Code's lock alone (~/.claude/ide/<port>.lock, HOME pointing at Redline's), sends the
// selection with its next prompt to a local fake of the chat completions API
// (opencode-fake-api.mjs) and takes the mention into its prompt, on the lines Neovim shows; a
// blockwise selection reaches it as several ranges, each rendered in its prompt.
// In a loopback-only network namespace when root: the fake API and Redline's WebSocket are
// relayed in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { startRedline } from './lib/redline.mjs';
import { pollUntil } from './lib/wait.mjs';
import { nvimMissing, startNvim } from './lib/nvim.mjs';
import { startFakeApi, userText } from './opencode-fake-api.mjs';
import { opencodeHome, opencodeInstalled, opencodeTempDir, startOpencodeTui, OPENCODE_VERSION } from './opencode-driver.mjs';

const STEP_MS = 60_000;
const LINES = ['first line', 'second line', 'third línea', 'fourth line', 'fifth line'];
const skip = nvimMissing() || (!opencodeInstalled() && `opencode ${OPENCODE_VERSION} (linux x64) not installed: npm ci in tests/interop`) || false;

test('Neovim selects lines and mentions them: the real opencode receives both on the right lines', { skip, timeout: 300_000 }, async (t) => {
  const ws = await opencodeTempDir('rl-opencode-ide-');
  t.after(() => fs.rmSync(ws, { recursive: true, force: true }));
  const file = path.join(ws, 'a.txt');
  fs.writeFileSync(file, LINES.join('\n') + '\n');
  const api = await startFakeApi({ log: process.env.REDLINE_IT_VERBOSE ? (m) => console.log(m) : () => {} });
  t.after(() => api.close());
  const r = await startRedline({ workspaces: [ws] });
  t.after(() => r.stop());
  // opencode reads ~/.claude/ide whatever CLAUDE_CONFIG_DIR says: its HOME is Redline's.
  const home = await opencodeHome({ api, home: r.dirs.home });
  const lockDir = path.join(r.dirs.home, '.claude', 'ide');
  const lock = await pollUntil(async () => {
    const found = fs.existsSync(lockDir) ? fs.readdirSync(lockDir).filter((n) => n.endsWith('.lock')) : [];
    return { ok: found.length === 1, value: found };
  }, STEP_MS, 'Redline\'s Claude Code lock');
  const port = Number(lock[0].replace(/\.lock$/, ''));
  const oc = await startOpencodeTui({ cwd: ws, home, api, ports: [port] });
  t.after(() => oc.stop());
  const explain = async (fn) => {
    try {
      return await fn();
    } catch (err) {
      err.message += `\n--- opencode screen ---\n${await oc.screen().catch(() => '(none)')}`;
      throw err;
    }
  };
  await explain(async () => {
    await oc.waitForScreen(/Ask anything/, STEP_MS, 'opencode to be ready');
    await pollUntil(async () => {
      const s = await r.json(['status', '--json']);
      const clients = s.workspaces[0].clients;
      return { ok: clients.length === 1 && clients[0].name === 'opencode' && clients[0].version === '0.0.0', value: clients };
    }, STEP_MS, 'opencode to connect to Redline (as opencode 0.0.0)');

    const n = await startNvim({ r, cwd: ws, file: 'a.txt' });
    t.after(() => n.stop());
    // Lines 3 and 4 selected: opencode sends them with the next prompt.
    await n.keys('3GVj');
    const sel = await n.expr('line("v") . "-" . line(".")');
    assert.equal(String(sel).trim(), '3-4', 'Neovim selected lines 3 to 4');
    // Its label (the file's name under the prompt) turns up once the selection arrived.
    const before = api.requests.length;
    await oc.waitForScreen(/a\.txt\s+tab agents/, STEP_MS, 'opencode to show the selection');
    await oc.type('What is selected? REDLINE-SELECTION');
    await oc.waitForScreen(/REDLINE-SELECTION/, STEP_MS, 'the prompt typed');
    await oc.keys('Enter');
    const req = await api.waitFor(
      (q) => q.n > before && userText(q.body).includes('REDLINE-SELECTION'),
      STEP_MS,
      'the prompt to reach the model',
    );
    const text = userText(req.body);
    assert.match(text, /The user selected #3-4 from "[^"]*a\.txt"/, text);
    assert.ok(text.includes('third línea\nfourth line'), `the selected text is sent:\n${text}`);

    // :RedlineMention on lines 2 to 4: opencode puts @a.txt#2-4 in its prompt.
    await n.keys('<Esc>:2,4RedlineMention<CR>');
    await oc.waitForScreen(/@a\.txt#2-4/, STEP_MS, 'opencode to put the mention in its prompt');
    const mark = api.requests.length;
    await oc.type(' REDLINE-MENTION');
    await oc.waitForScreen(/REDLINE-MENTION/, STEP_MS, 'the prompt typed');
    await oc.keys('Enter');
    const sent = await api.waitFor(
      (q) => q.n > mark && JSON.stringify(q.body.messages).includes('REDLINE-MENTION'),
      STEP_MS,
      'the mention to reach the model',
    );
    const body = JSON.stringify(sent.body.messages.slice(-3));
    assert.ok(body.includes('second line') && body.includes('fourth line'), `the mentioned lines are sent: ${body}`);

    // A block (CTRL-V) over lines 2 to 4, columns 1 to 3: one range a line, which opencode
    // reads from selection_changed's `ranges` and renders as "Selection 1: #2 …" each.
    await n.keys('<Esc>2G0<C-v>2j2l');
    const block = await n.expr('(mode() ==# "\\<C-v>" ? "block " : mode()) . line("v") . "-" . line(".")');
    assert.equal(String(block).trim(), 'block 2-4', 'Neovim selected a block over lines 2 to 4');
    const start = api.requests.length;
    // Its label names the first range and counts the others.
    await oc.waitForScreen(/a\.txt#2 \+2/, STEP_MS, 'opencode to show the block\'s three ranges');
    await oc.type('What is in the block? REDLINE-BLOCK');
    await oc.waitForScreen(/REDLINE-BLOCK/, STEP_MS, 'the prompt typed');
    await oc.keys('Enter');
    const asked = await api.waitFor(
      (q) => q.n > start && userText(q.body).includes('REDLINE-BLOCK'),
      STEP_MS,
      'the block to reach the model',
    );
    const said = userText(asked.body);
    // opencode's own words (1.18.33, its editor-context reminder): one note a range, each
    // ending in two newlines, joined by a third.
    const note = (i, line, text) =>
      `Note: The user selected Selection ${i}: #${line} from "[^"]*a\\.txt"\\. \`\`\`${text}\`\`\`\n\n`;
    const reminder = new RegExp(
      `<system-reminder>${[note(1, 2, 'sec'), note(2, 3, 'thi'), note(3, 4, 'fou')].join('\n')} This may or may not be relevant`,
    );
    assert.match(said, reminder, JSON.stringify(said));
  });
});
