// A whole checkpointed turn in the real webview: Codex's prompt hook (`redline hook codex
// --turn-start`) checkpoints the workspace, plain writes change three files (as a shell command
// would), and its Stop hook (`--turn-review`) opens ONE review of the whole turn: the file tree,
// one hunk kept, one undone (the file on disk gets those lines back), a comment on a line, and
// Continue, whose message reaches Codex with the comment's `path:line` (screenshot
// docs/screenshots/turn-window.png).

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';

import { poll } from './lib/poll.mjs';
import { cleanups, desktop, makeWorkspace, SHOTS_DIR, TEST_TIMEOUT_MS, UI_TIMEOUT_MS, withAppLog } from './lib/fixtures.mjs';
import { Key } from './lib/webdriver.mjs';
import { reviewWindow, windowShot } from './lib/x11.mjs';

const MAIN = 'fn main() {\n    let retries = 3;\n    println!("start");\n    work();\n    println!("done");\n    let timeout = 500;\n}\n';
const MAIN_NOW = 'fn main() {\n    let retries = 5;\n    println!("start");\n    work();\n    println!("done");\n    let timeout = 2000;\n}\n';
/** MAIN_NOW with its second hunk (the timeout) undone. */
const MAIN_UNDONE = 'fn main() {\n    let retries = 5;\n    println!("start");\n    work();\n    println!("done");\n    let timeout = 500;\n}\n';

const BASE = { session_id: 's', turn_id: 't', transcript_path: null, model: 'gpt-5.5', permission_mode: 'default' };

function hook(d, cwd, args, input) {
  const child = spawn(d.bin, ['hook', 'codex', ...args], { cwd, env: d.env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b) => (stdout += b));
  child.stderr.on('data', (b) => (stderr += b));
  child.stdin.end(JSON.stringify({ ...BASE, cwd, ...input }));
  const done = new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { child, done, stderr: () => stderr };
}

const ended = (run) => poll(async () => (run.child.exitCode === null ? null : run.done),
  { timeoutMs: UI_TIMEOUT_MS, what: 'redline hook to answer' });

/** Clicks the `index`th element matching `css`, in the page. */
const clickNth = (wd, css, index = 0) => wd.execute(
  'const e = document.querySelectorAll(arguments[0])[arguments[1]]; if (e) e.click(); return !!e;', [css, index]);

const count = (wd, css) => wd.execute('return document.querySelectorAll(arguments[0]).length', [css]);

test('a whole turn: tree, a hunk kept, a hunk undone, a comment, Continue', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const later = cleanups(t);
  const ws = await makeWorkspace(later, 'service', { 'src/main.rs': MAIN, 'README.md': '# service\n', 'old.txt': 'bye\n' });
  const d = await desktop(t, later, { workspaces: [ws] });
  await withAppLog(d, async () => {
    const { wd } = d;
    const start = hook(d, ws, ['--turn-start'], { hook_event_name: 'UserPromptSubmit', prompt: 'raise the limits' });
    assert.equal((await ended(start)).code, 0);
    // The turn's work, by plain writes: no edit tool, no pre-edit hook.
    await fsp.writeFile(path.join(ws, 'src', 'main.rs'), MAIN_NOW);
    await fsp.writeFile(path.join(ws, 'src', 'limits.rs'), 'pub const RETRIES: u32 = 5;\n');
    await fsp.rm(path.join(ws, 'old.txt'));

    const stop = hook(d, ws, ['--turn-review'], {
      hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'Raised the limits.',
    });
    later(() => { if (stop.child.exitCode === null) stop.child.kill('SIGTERM'); });
    await wd.until(async () => (await count(wd, '.turn-row.file')) === 3,
      { timeoutMs: UI_TIMEOUT_MS, what: 'the turn\'s three files listed' }).catch((err) => {
      err.message += `\nredline hook --turn-review: ${stop.stderr()}`;
      throw err;
    });
    const listed = await d.json(['review', 'list', '--json']);
    assert.deepEqual(listed.map((r) => r.kind), ['turn']);

    // src/main.rs: two hunks; keep the first, undo the second.
    const rows = await wd.execute("return [...document.querySelectorAll('.turn-row.file')].map((r) => r.title)");
    await clickNth(wd, '.turn-row.file', rows.indexOf('src/main.rs'));
    await wd.until(async () => (await count(wd, '.turn-diff .hunk')) === 2, { timeoutMs: UI_TIMEOUT_MS, what: 'two hunks' });
    await clickNth(wd, '.hunk .hunk-keep', 0);
    await wd.until(async () => (await count(wd, '.hunk.kept')) === 1, { timeoutMs: UI_TIMEOUT_MS, what: 'one hunk kept' });
    await clickNth(wd, '.hunk .hunk-undo', 1);
    await poll(async () => (await fsp.readFile(path.join(ws, 'src', 'main.rs'), 'utf8')) === MAIN_UNDONE || null,
      { timeoutMs: UI_TIMEOUT_MS, what: 'the second hunk undone on disk' });
    await wd.until(async () => (await count(wd, '.turn-diff .hunk')) === 1, { timeoutMs: UI_TIMEOUT_MS, what: 'one hunk left' });

    // A comment on line 2 (the kept hunk's line), typed in the comment box.
    await wd.execute("[...document.querySelectorAll('.turn-line.add .num')].find((n) => n.textContent === '2').click()");
    const input = await wd.waitFor('.turn-comment-input');
    await wd.sendKeys(input, 'Read the retries from the config instead.');
    await wd.sendKeys(input, Key.Enter);
    await wd.until(async () => (await count(wd, '.turn-comment')) === 1, { timeoutMs: UI_TIMEOUT_MS, what: 'the comment listed' });
    const words = await wd.waitFor('.turn-instructions');
    await wd.sendKeys(words, 'Then add a test.');

    await wd.until(() => wd.execute(`return document.fonts.status === 'loaded'
        && document.querySelectorAll('.toasts > *').length === 0`),
    { timeoutMs: UI_TIMEOUT_MS, what: 'the review fully drawn' });
    const win = await poll(() => reviewWindow(d), { timeoutMs: UI_TIMEOUT_MS, what: 'the review window on screen' });
    // Its own name: turn-review.test.mjs's shot is the per-file tabs' turn review.
    const shot = path.join(SHOTS_DIR, 'turn-window.png');
    await windowShot(d, win, shot);
    t.diagnostic(`screenshot ${shot}`);

    await clickNth(wd, '.turn-continue');
    const end = await ended(stop);
    assert.equal(end.code, 0, end.stderr);
    const answer = JSON.parse(end.stdout);
    assert.equal(answer.decision, 'block');
    for (const part of ['src/main.rs:2', 'Read the retries from the config instead.', 'Then add a test.']) {
      assert.ok(answer.reason.includes(part), `${part} in ${answer.reason}`);
    }
  });
});
