// The first run in the real app: with no workspace the window welcomes the user; once a workspace
// exists, its live check (the doctor's, in the app) says Gemini CLI will connect, after probing
// the real server with the token, and how Codex CLI's hook and context stand. Also the screenshot docs/screenshots/welcome-app.png.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { poll } from './lib/poll.mjs';
import { cleanups, desktop, makeWorkspace, SHOTS_DIR, TEST_TIMEOUT_MS, UI_TIMEOUT_MS, withAppLog } from './lib/fixtures.mjs';
import { reviewWindow, windowShot } from './lib/x11.mjs';

/** A fake npm install of Gemini CLI and Codex CLI: each `bin/NAME` linked into its package, as
 *  npm lays it out. */
async function fakeNpm(onCleanup) {
  const root = await fsp.mkdtemp(path.join(os.tmpdir(), 'redline-e2e-npm-'));
  onCleanup(() => fsp.rm(root, { recursive: true, force: true }));
  await fsp.mkdir(path.join(root, 'bin'));
  for (const [name, scope, dir, version] of [['gemini', '@google', 'gemini-cli', '0.61.0'], ['codex', '@openai', 'codex', '0.171.0']]) {
    const pkg = path.join(root, 'lib', 'node_modules', scope, dir);
    await fsp.mkdir(path.join(pkg, 'dist'), { recursive: true });
    await fsp.writeFile(path.join(pkg, 'package.json'), JSON.stringify({ name: `${scope}/${dir}`, version }));
    await fsp.writeFile(path.join(pkg, 'dist', 'index.js'), '#!/usr/bin/env node\n', { mode: 0o755 });
    await fsp.symlink(path.join(pkg, 'dist', 'index.js'), path.join(root, 'bin', name));
  }
  return path.join(root, 'bin');
}

test('first run: the welcome page, then the live check of the workspace added', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const later = cleanups(t);
  const ws = await makeWorkspace(later, 'shop', { 'README.md': '# shop\n' });
  const bin = await fakeNpm(later);
  const d = await desktop(t, later, { workspaces: [], env: { PATH: `${bin}:${process.env.PATH}` } });
  await withAppLog(d, async () => {
    const { wd } = d;
    // The window as the tray's "Getting started…" shows it (a second launch asks the same).
    const shown = await d.run([]);
    assert.equal(shown.code, 0, shown.stderr);
    const win = await poll(() => reviewWindow(d), { timeoutMs: UI_TIMEOUT_MS, what: 'the window on screen' });
    await wd.until(() => wd.execute("return document.querySelector('.empty.first-run:not([hidden])') !== null"),
      { timeoutMs: UI_TIMEOUT_MS, what: 'the first-run welcome' });
    assert.equal(await wd.execute("return document.querySelector('.empty-title').textContent"), 'Welcome to Redline');
    assert.match(await wd.execute("return document.querySelector('.ide-commands').textContent"), /claude --ide/);

    // The user adds the workspace (from a terminal here: the folder picker is GTK's) and turns
    // IDE mode on in Gemini CLI; "Check again" asks the app's doctor.
    const added = await d.run(['workspace', 'add', ws]);
    assert.equal(added.code, 0, added.stderr);
    await fsp.mkdir(path.join(d.dirs.home, '.gemini'), { recursive: true });
    await fsp.writeFile(path.join(d.dirs.home, '.gemini', 'settings.json'), '{"ide":{"enabled":true}}');
    await wd.clickOn('.recheck');
    await wd.until(() => wd.execute("return document.querySelector('.doctor-line.ok .cli')?.firstChild?.textContent === 'Gemini CLI'"),
      { timeoutMs: UI_TIMEOUT_MS, what: 'Gemini CLI checked as connecting' });
    const port = (await d.json(['status', '--json'])).workspaces[0].port;
    const lines = await wd.execute("return [...document.querySelectorAll('.doctor-line')].map((l) => l.textContent)");
    assert.equal(lines[0], `✓Gemini CLI0.61.0Gemini CLI will connect to Redline on port ${port}`);
    // Codex CLI, reviewed through its hook and served its editor context: both lines, with its
    // version; the hook's says how to add it.
    const codex = lines.filter((l) => l.includes('Codex CLI'));
    assert.equal(codex.length, 2, lines.join('\n'));
    assert.match(codex[0], /^✗Codex CLI0\.171\.0.*Fix: redline hooks install codex/);
    assert.match(codex[1], /^✓Codex CLI \(context\)0\.171\.0after `\/ide on`, Redline answers on /);
    assert.equal(await wd.execute("return document.querySelector('.empty').classList.contains('first-run')"), false);
    assert.equal(await wd.execute("return document.querySelector('.ws-state').textContent"), `✓ ${ws}`);
    // The probe ended its session: no CLI is left connected.
    await poll(async () => (await d.json(['status', '--json'])).workspaces[0].clients.length === 0,
      { timeoutMs: UI_TIMEOUT_MS, what: 'the probe session to end' });

    // For the docs.
    const file = path.join(SHOTS_DIR, 'welcome-app.png');
    await windowShot(d, win, file);
    assert.ok(fs.existsSync(file));
    t.diagnostic(`${file}: ${win.width}x${win.height}`);
  });
});
