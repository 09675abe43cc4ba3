// What every end-to-end test needs: a workspace on disk, an isolated desktop running the app,
// real Gemini CLI IdeClients (tests/interop/lib, @google/gemini-cli-core 0.61.0) and the review
// window's DOM. Cleanup runs in one t.after hook, last in first out: clients end before the app,
// the app before tauri-driver and the X server, the workspace dirs last.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { clientEnv, startGeminiClient } from '../../interop/lib/gemini.mjs';
import { repoRoot, startDesktop } from './desktop.mjs';
import { Key } from './webdriver.mjs';

export const TEST_TIMEOUT_MS = 180_000;
/** How long the window may take to react to a review arriving or leaving. */
export const UI_TIMEOUT_MS = 15_000;

/** The version of the pinned client package, which IdeClient sends as its clientInfo version. */
export const GEMINI_CORE_VERSION = JSON.parse(fs.readFileSync(
  path.join(repoRoot, 'tests', 'interop', 'node_modules', '@google', 'gemini-cli-core', 'package.json'), 'utf8')).version;

/** A LIFO cleanup stack for one test, run by a single t.after hook. */
export function cleanups(t) {
  const stack = [];
  t.after(async () => {
    const errors = [];
    while (stack.length) {
      const fn = stack.pop();
      try {
        await fn();
      } catch (err) {
        errors.push(err);
      }
    }
    if (errors.length) throw new AggregateError(errors, `cleanup: ${errors.map((e) => e.message).join('; ')}`);
  });
  return (fn) => stack.push(fn);
}

/** A workspace dir (canonical path) holding `files` ({relative path: text}). */
export async function makeWorkspace(onCleanup, name, files = {}) {
  const parent = fs.realpathSync(await fsp.mkdtemp(path.join(os.tmpdir(), 'redline-e2e-ws-')));
  onCleanup(() => fsp.rm(parent, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }));
  const dir = path.join(parent, name);
  for (const [rel, text] of Object.entries(files)) {
    await fsp.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await fsp.writeFile(path.join(dir, rel), text);
  }
  await fsp.mkdir(dir, { recursive: true });
  return dir;
}

/**
 * An isolated desktop with the app (lib/desktop.mjs), plus `d.gemini(cwd)`: a real IdeClient,
 * connected (asserted), ended before the app stops.
 */
export async function desktop(t, onCleanup, opts) {
  const d = await startDesktop({ log: (m) => t.diagnostic(m), ...opts });
  const clients = [];
  onCleanup(async () => {
    const t0 = Date.now();
    await Promise.all(clients.map((g) => g.close()));
    const t1 = Date.now();
    const retries = d.wd?.retries;
    await d.stop();
    t.diagnostic(`cleanup: clients ${t1 - t0} ms, app and desktop ${Date.now() - t1} ms`);
    if (retries) t.diagnostic(`webdriver requests sent again after a dropped connection: ${retries}`);
  });
  d.gemini = async (cwd, name = 'gemini') => {
    const g = await startGeminiClient({ cwd, env: clientEnv(d), name });
    clients.push(g);
    const c = await g.connect();
    assert.equal(c.state.status, 'connected', `client did not connect: ${c.state.details}\n${g.output()}`);
    assert.equal(c.diffing, true, `IDE diffing is off; tools: ${JSON.stringify(c.tools)}`);
    return g;
  };
  return d;
}

/** Adds the app's log (tauri-driver relays its stderr) to a failing test's error. */
export async function withAppLog(d, fn) {
  try {
    return await fn();
  } catch (err) {
    const log = d?.driverOutput?.() ?? '';
    err.message += `\n--- app and driver log (last 4000 chars) ---\n${log.slice(-4000)}`;
    throw err;
  }
}

// ---- the review window's DOM (ui/src/app.ts, review-pane.ts, reviews.ts, review-editor.ts) ----

/** The tabs as [{id, name}] in order, and which one is selected. */
export async function tabs(wd) {
  return wd.execute(`return [...document.querySelectorAll('.tabs .tab')].map((t) => ({
    id: Number(t.dataset.id),
    name: t.querySelector('.tab-name')?.textContent,
    selected: t.getAttribute('aria-selected') === 'true',
  }))`);
}

/** Waits until the tab strip shows exactly `names` (in order). */
export function waitTabs(wd, names, timeoutMs = UI_TIMEOUT_MS) {
  let last;
  return wd.until(async () => {
    last = await tabs(wd);
    return JSON.stringify(last.map((t) => t.name)) === JSON.stringify(names) ? last : null;
  }, { timeoutMs, what: `tabs ${JSON.stringify(names)}` }).catch((err) => {
    throw new Error(`${err.message}; tabs were ${JSON.stringify(last)}`);
  });
}

/** The labels of the selected review: workspace, relative path, client. */
export function summary(wd) {
  return wd.execute(`const q = (s) => document.querySelector('.review .summary ' + s);
    return { workspace: q('.ws')?.textContent, path: q('.rel')?.textContent, client: q('.client')?.textContent,
             fullPath: q('.rel')?.title }`);
}

/**
 * Clicks `selector` inside the tab named `name` (the tab itself without one). By selector, not by
 * element: the strip is drawn anew on each change, so an element found a moment ago can be gone.
 */
export async function clickTab(wd, name, selector = '') {
  const id = await wd.until(async () => {
    const all = await tabs(wd);
    return all.find((t) => t.name === name)?.id;
  }, { timeoutMs: UI_TIMEOUT_MS, what: `a tab named ${name}` });
  return wd.clickOn(`.tabs .tab[data-id="${id}"] ${selector}`.trim());
}

/**
 * Types into the proposal (the right-hand CodeMirror editor) through real key events: a click
 * puts the caret in the text, Ctrl+End moves it to the end, then `lines` are typed, each ended
 * with Enter. Resolves once the last typed line is on screen.
 */
export async function typeAtEnd(wd, lines) {
  const content = await wd.waitFor('.cm-merge-b .cm-content');
  await wd.click(content);
  await wd.sendKeys(content, Key.Control + Key.End + Key.Control + lines.map((l) => l + Key.Enter).join(''));
  const last = lines[lines.length - 1];
  await wd.until(() => wd.execute(`return [...document.querySelectorAll('.cm-merge-b .cm-line')]
      .some((l) => l.textContent.trim() === arguments[0].trim())`, [last]),
  { timeoutMs: UI_TIMEOUT_MS, what: `the typed line ${JSON.stringify(last)} in the editor` });
}

/** `redline review wait --file P`: the pending review of exactly that filePath. */
export async function waitReview(d, filePath) {
  const res = await d.run(['review', 'wait', '--file', filePath, '--timeout', '20']);
  assert.equal(res.code, 0, `redline review wait --file ${filePath}: ${res.stderr}`);
  return JSON.parse(res.stdout);
}

/** Where the docs' screenshots go: docs/screenshots, or $REDLINE_E2E_SCREENSHOTS. */
export const SHOTS_DIR = process.env.REDLINE_E2E_SCREENSHOTS || path.join(repoRoot, 'docs', 'screenshots');

/** The window's label of who asked: program, version, then the tmux pane or the terminal. */
export function whoAsked(client) {
  const p = client.process;
  let who = `${client.name} ${client.version}`;
  if (p) {
    const name = p.version ? `${p.program} ${p.version}` : p.program;
    who = p.tmux ? `${name} · tmux ${p.tmux}` : p.tty ? `${name} · ${p.tty}` : name;
  }
  return client.sessionName ? `${who} · “${client.sessionName}”` : who;
}
