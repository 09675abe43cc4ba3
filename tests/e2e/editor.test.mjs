// Neovim beside the review window, as a user has them: a real `nvim` with Redline's plugin in a
// real terminal (xterm) on the same X display as the app, a line selected in it, and the review
// window showing a proposal for the file open there. The Gemini CLI client on that workspace gets
// Neovim's selection as its IDE context; the screenshot is docs/screenshots/editor-nvim.png.

import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

import { poll } from './lib/poll.mjs';
import { repoRoot } from './lib/desktop.mjs';
import { cleanups, desktop, makeWorkspace, SHOTS_DIR, TEST_TIMEOUT_MS, UI_TIMEOUT_MS, waitTabs, withAppLog } from './lib/fixtures.mjs';
import { reviewWindow, screenshot } from './lib/x11.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const ORDERS = fs.readFileSync(path.join(here, 'fixtures', 'acme-api', 'orders.ts'), 'utf8');
const TERM = { x: 0, y: 0, width: 880 };
const SCREEN = { width: 2170, height: 820 };

function have(cmd) {
  return (process.env.PATH ?? '').split(path.delimiter).some((d) => fs.existsSync(path.join(d, cmd)));
}

const skip = (!have('xterm') && 'xterm is not installed (bash .ci/setup)') || (!have('nvim') && 'nvim is not installed (bash .ci/setup)') || false;

test('Neovim beside the review window: its selection reaches the CLI, the review shows beside it', { timeout: TEST_TIMEOUT_MS, skip }, async (t) => {
  const later = cleanups(t);
  const ws = await makeWorkspace(later, 'acme-api', { 'src/routes/orders.ts': ORDERS });
  const d = await desktop(t, later, { workspaces: [ws], screen: SCREEN });
  await withAppLog(d, async () => {
    const file = path.join(ws, 'src', 'routes', 'orders.ts');
    const gemini = await d.gemini(ws);

    // Neovim in xterm, with the plugin reaching this app (its environment, its binary).
    const sock = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'redline-e2e-nvim-')), 'nvim.sock');
    const setup = `lua require('redline').setup({ cmd = { ${JSON.stringify(d.bin)}, 'editor', '--stdio' }, debounce_ms = 50 })`;
    const nvim = spawn('xterm', [
      '-geometry', `151x67+${TERM.x}+${TERM.y}`, '-fa', 'DejaVu Sans Mono', '-fs', '10', '-bg', '#1e1e2e', '-fg', '#cdd6f4',
      '-title', 'nvim', '-e', 'nvim', '-u', 'NONE', '-i', 'NONE', '-n', '--listen', sock,
      '--cmd', `set rtp^=${path.join(repoRoot, 'editors', 'nvim')}`, '--cmd', 'set number termguicolors', '--cmd', 'syntax on',
      '-c', 'runtime plugin/redline.lua', '-c', setup, file,
    ], { cwd: ws, env: { ...d.env, TERM: 'xterm-256color' }, stdio: 'ignore' });
    later(() => nvim.kill('SIGKILL'));

    // Keys as the user types them, through Neovim's own socket (xterm ignores synthetic X keys).
    await poll(() => fs.existsSync(sock), { timeoutMs: UI_TIMEOUT_MS, what: 'nvim to listen' });
    execFileSync('nvim', ['--server', sock, '--remote-send', '13GV4j'], { env: d.env });
    // Neovim's selection (lines 13-17, the loop) is the IDE context the CLI gets.
    const ctx = await gemini.waitEvent(
      (e) => e.event === 'notification' && e.method === 'ide/contextUpdate'
        && e.params?.workspaceState?.openFiles?.some((f) => f.path === file && f.isActive && f.selectedText),
      { timeoutMs: UI_TIMEOUT_MS * 2, what: "a contextUpdate with Neovim's selection" },
    );
    const active = ctx.params.workspaceState.openFiles.find((f) => f.isActive);
    assert.equal(active.path, file);
    assert.equal(active.selectedText, ORDERS.split('\n').slice(12, 17).join('\n'));

    // The CLI proposes an edit of that file: the review window shows it beside Neovim.
    const loop = ORDERS.split('\n').slice(12, 17).join('\n');
    const proposal = ORDERS.replace(loop, '  return items.reduce((sum, item) => sum + (prices.get(item.sku) ?? 0) * item.quantity, 0);');
    assert.notEqual(proposal, ORDERS, 'the fixture has the line the proposal changes');
    gemini.openDiff(file, proposal);
    await waitTabs(d.wd, ['orders.ts']);
    const win = await poll(() => reviewWindow(d), { timeoutMs: UI_TIMEOUT_MS, what: 'the review window on screen' });
    await d.x('xdotool', ['windowmove', String(win.id), String(TERM.width + 10), '0']);
    await poll(async () => {
      const moved = await reviewWindow(d);
      return moved && moved.x >= TERM.width ? moved : null;
    }, { timeoutMs: UI_TIMEOUT_MS, what: 'the review window beside the terminal' });
    await d.wd.until(() => d.wd.execute(`return document.querySelectorAll('.cm-merge-b .cm-line').length > 0
        && document.querySelectorAll('.toasts > *').length === 0 && document.fonts.status === 'loaded'`),
    { timeoutMs: UI_TIMEOUT_MS, what: 'the review fully drawn' });
    const shot = path.join(SHOTS_DIR, 'editor-nvim.png');
    await screenshot(d, shot, { x: 0, y: 0, width: SCREEN.width, height: SCREEN.height });
    t.diagnostic(`screenshot ${shot}`);
    assert.ok(fs.statSync(shot).size > 10_000, 'the screenshot holds both windows');
  });
});
