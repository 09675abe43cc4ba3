// What a new user met in the first hour (issue 41), in the real window: an error toast goes with
// the review it was about and never covers its text; the welcome page's check follows a
// workspace added from a terminal and a second `redline` without a click. Screenshots
// window-toast.png and welcome-live.png.

import assert from 'node:assert/strict';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { poll } from './lib/poll.mjs';
import { cleanups, desktop, makeWorkspace, SHOTS_DIR, TEST_TIMEOUT_MS, UI_TIMEOUT_MS, waitTabs, withAppLog } from './lib/fixtures.mjs';
import { reviewWindow, windowShot } from './lib/x11.mjs';

const LONG = Array.from({ length: 60 }, (_, i) => `fn f${i}() -> u32 { ${i} }`).join('\n') + '\n';

test('an error toast sits above the review, not over its text, and goes with the review', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const later = cleanups(t);
  const ws = await makeWorkspace(later, 'shop', { 'src/long.rs': LONG });
  // No editor set: "Open in editor" fails, as it did for the user.
  const d = await desktop(t, later, { workspaces: [ws], env: { VISUAL: null, EDITOR: null } });
  await withAppLog(d, async () => {
    const { wd } = d;
    const g = await d.gemini(ws);
    const diff = g.openDiff(path.join(ws, 'src', 'long.rs'), LONG.replace('{ 0 }', '{ 42 }'));
    await diff.started;
    await waitTabs(wd, ['long.rs']);
    assert.equal(await wd.execute('return document.title'), 'Redline — review');
    await wd.clickOn('.review .actions .open-editor');
    const toast = await wd.until(() => wd.execute("return document.querySelector('.toast.error')?.textContent ?? null"),
      { timeoutMs: UI_TIMEOUT_MS, what: 'the error toast' });
    assert.match(toast, /^Could not open long\.rs in your editor: no editor/);
    // The toast pushes the review down: nothing of it lies over the diff.
    const [toasts, editor] = await wd.execute(`return ['.toasts', '.review .cm-merge-b']
      .map((s) => document.querySelector(s).getBoundingClientRect()).map((r) => ({ top: r.top, bottom: r.bottom }))`);
    assert.ok(toasts.bottom <= editor.top, `the toasts ${JSON.stringify(toasts)} overlap the diff ${JSON.stringify(editor)}`);
    const win = await poll(() => reviewWindow(d), { timeoutMs: UI_TIMEOUT_MS, what: 'the window on screen' });
    const file = await windowShot(d, win, path.join(SHOTS_DIR, 'window-toast.png'));
    t.diagnostic(`${file}: ${win.width}x${win.height}`);

    // The review answered: the error about it goes with it, not over the next page.
    await wd.clickOn('.review .actions .reject');
    assert.deepEqual(await diff.result, { status: 'rejected' });
    await wd.until(() => wd.execute("return !document.querySelector('.empty').hidden"),
      { timeoutMs: UI_TIMEOUT_MS, what: 'the welcome page after the review' });
    assert.equal(await wd.execute("return document.querySelectorAll('.toast.error').length"), 0);
    assert.equal(await wd.execute('return document.title'), 'Redline — getting started');
  });
});

/** A fake npm install of Codex CLI: `bin/codex` linked into its package, as npm lays it out. */
async function fakeCodex(onCleanup) {
  const root = await fsp.mkdtemp(path.join(os.tmpdir(), 'redline-e2e-npm-'));
  onCleanup(() => fsp.rm(root, { recursive: true, force: true }));
  const pkg = path.join(root, 'lib', 'node_modules', '@openai', 'codex');
  await fsp.mkdir(path.join(pkg, 'dist'), { recursive: true });
  await fsp.mkdir(path.join(root, 'bin'));
  await fsp.writeFile(path.join(pkg, 'package.json'), JSON.stringify({ name: '@openai/codex', version: '0.171.0' }));
  await fsp.writeFile(path.join(pkg, 'dist', 'index.js'), '#!/usr/bin/env node\n', { mode: 0o755 });
  await fsp.symlink(path.join(pkg, 'dist', 'index.js'), path.join(root, 'bin', 'codex'));
  return path.join(root, 'bin');
}


/** The Codex CLI hook's line on the welcome page (not its "(context)" line). */
const codexLine = "return [...document.querySelectorAll('.doctor-line')].map((l) => l.textContent).find((l) => /^.Codex CLI(?! \\(context\\))/.test(l)) ?? null";

test('the welcome page is live: a workspace added in a terminal, a hook installed and `redline` run again, no click', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const later = cleanups(t);
  const ws = await makeWorkspace(later, 'shop', { 'README.md': '# shop\n' });
  const bin = await fakeCodex(later);
  const d = await desktop(t, later, { workspaces: [], env: { PATH: `${bin}:${process.env.PATH}` } });
  await withAppLog(d, async () => {
    const { wd } = d;
    const shown = await d.run([]);
    assert.equal(shown.code, 0, shown.stderr);
    const win = await poll(() => reviewWindow(d), { timeoutMs: UI_TIMEOUT_MS, what: 'the window on screen' });
    await wd.until(() => wd.execute("return document.querySelector('.empty.first-run:not([hidden])') !== null"),
      { timeoutMs: UI_TIMEOUT_MS, what: 'the first-run welcome' });
    assert.equal(await wd.execute('return document.title'), 'Redline — getting started');

    // From a terminal, while the page is up: the page follows without "Check again".
    const added = await d.run(['workspace', 'add', ws]);
    assert.equal(added.code, 0, added.stderr);
    await wd.until(() => wd.execute("return document.querySelector('.ws-state').textContent === arguments[0]", [`✓ ${ws}`]),
      { timeoutMs: UI_TIMEOUT_MS, what: 'the workspace added in a terminal on the page, no click' });
    const before = await wd.until(() => wd.execute(codexLine), { timeoutMs: UI_TIMEOUT_MS, what: "Codex CLI's hook line" });
    assert.match(before, /^✗Codex CLI.*Fix: redline hooks install codex/);

    // The fix, then `redline` again (as the user reopened the page): the check is fresh.
    const hooked = await d.run(['hooks', 'install', 'codex']);
    assert.equal(hooked.code, 0, hooked.stderr);
    const again = await d.run([]);
    assert.equal(again.code, 0, again.stderr);
    const after = await wd.until(async () => {
      const line = await wd.execute(codexLine);
      return line?.startsWith('✓') ? line : null;
    }, { timeoutMs: UI_TIMEOUT_MS, what: "Codex CLI's hook line checked again after `redline`, no click" });
    t.diagnostic(`Codex CLI: ${before} -> ${after}`);
    const file = await windowShot(d, win, path.join(SHOTS_DIR, 'welcome-live.png'));
    t.diagnostic(`${file}: ${win.width}x${win.height}`);
  });
});
