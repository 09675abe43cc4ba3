// Interop: Redline's pre-edit hook (`redline hooks install`) in the REAL claude, gemini and qwen.
//
//   cd tests/interop && REDLINE_BIN=/path/to/redline node --test hooks.test.mjs
//
// Each CLI runs under a private tmux server with a throwaway HOME, its IDE mode off (the hook is
// the only review path), and its model API a local fake that proposes one edit per prompt. The
// hook finds Redline through XDG_RUNTIME_DIR, which the CLI passes on to the command it runs.
// Per CLI: accept (the file ends as proposed), accept with the reviewer's text (the file ends as
// that text; Qwen: read-only, refused), reject (the file is unchanged and the model reads why);
// then what the CLI's own approval, folder trust and Esc do around the hook, as observed. What a
// CLI does not do (yet) is a skipped test that says so. Linux: hook processes are found in /proc.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { ok, startRedline } from './lib/redline.mjs';
import { endSession, realTmpDir, removeDirs } from './lib/dirs.mjs';
import { pollUntil } from './lib/wait.mjs';
import { privateTmux, paneCommand, tmuxPane } from './lib/tmux.mjs';
import { startFakeApi } from './claude-fake-api.mjs';
import { writeClaudeConfig, claudeEnv, startTmux, claudeInstalled } from './claude-driver.mjs';
import { startFakeModel } from './qwen-fake-model.mjs';
import { writeQwenSettings, startQwen, qwenInstalled } from './qwen-driver.mjs';
import { startGeminiFakeModel } from './gemini-fake-model.mjs';
import { GEMINI_BIN, readyGemini, startGemini, submitUntilSent, writeGeminiHome } from './lib/gemini-tui.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const STEP_MS = 45_000;
const verbose = !!process.env.REDLINE_IT_VERBOSE;
const log = verbose ? (m) => console.log(m) : () => {};

/**
 * `redline hooks install CLI` run as the CLI's user (its HOME), then the hook it wrote, read back
 * from the CLI's settings: what the CLI will run.
 */
async function installHook(r, cli, home, settingsFile) {
  await ok(r, ['hooks', 'install', cli], { env: { ...r.env, HOME: home } });
  const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
  const groups = Object.values(settings.hooks ?? {}).flat();
  const entry = groups.flatMap((g) => g.hooks ?? []).find((h) => String(h.command).includes(' hook '));
  assert.ok(entry, `hooks install ${cli} wrote a hook into ${settingsFile}: ${JSON.stringify(settings)}`);
  assert.ok(entry.command.includes(r.bin), `the hook runs this redline: ${entry.command}`);
  return { settings, entry };
}

/** The review Redline opened for `filePath` (it waits for it), checked to come from a hook. */
async function reviewOf(r, filePath, cliName) {
  const review = JSON.parse(await ok(r, ['review', 'wait', '--file', filePath, '--timeout', String(STEP_MS / 1000)]));
  assert.equal(review.client.name, cliName, JSON.stringify(review.client));
  return review;
}

/** The pids of running `redline hook CLI` processes (what a CLI started for its hook). */
function hookPids(r, cli) {
  const pids = [];
  for (const pid of fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    let argv;
    try {
      argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue; // gone meanwhile
    }
    if (argv[0] === r.bin && argv[1] === 'hook' && argv[2] === cli) pids.push(Number(pid));
  }
  return pids;
}

/** The text of a tool result as the model API got it (a string or a list of text blocks). */
function textOf(content) {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((b) => (typeof b === 'string' ? b : b?.text ?? textOf(b?.content))).join('\n');
  return content == null ? '' : JSON.stringify(content);
}

/** Adds the failing CLI's screen and Redline's log to an error, for the report. */
async function explain(err, pane, r) {
  err.message += `\n--- screen ---\n${await pane?.screen().catch(() => '')}\n--- redline ---\n${r?.stderr().slice(-3000)}`;
  return err;
}

/**
 * Rejected through a hook that denies (gemini, qwen): the file is unchanged and the model's next
 * request carries the reason, naming the file.
 */
async function rejected({ r, pane, ws, propose, toolResult, tool, args }) {
  const file = path.join(ws, 'c.txt');
  fs.writeFileSync(file, 'keep me\n');
  try {
    const review = await propose('C', file, tool, args);
    await ok(r, ['review', 'reject', String(review.id)]);
    const said = await toolResult('C');
    assert.match(said, /rejected/i, said);
    assert.ok(said.includes(file), `the model is told which file: ${said}`);
    assert.equal(fs.readFileSync(file, 'utf8'), 'keep me\n');
  } catch (err) {
    throw await explain(err, pane, r);
  }
}

/**
 * Esc in a CLI that cancels its turn but leaves its hook running (gemini, qwen): the review stays
 * open, and accepting it later writes nothing and tells the model nothing.
 */
async function escLeavesTheHook({ r, pane, cli, ws, model, propose }) {
  const file = path.join(ws, 'f.txt');
  fs.writeFileSync(file, 'untouched\n');
  try {
    const review = await propose('F', file, 'write_file', { content: 'never\n' });
    await pane.keys('Escape');
    await pane.waitForScreen(/Request cancelled\./, STEP_MS, `${cli} to cancel the request`);
    assert.equal(hookPids(r, cli).length, 1, 'the hook still runs after the cancel');
    // Still open, so the user can still decide it: Redline was not told.
    await ok(r, ['review', 'accept', String(review.id)]);
    await pollUntil(async () => ({ ok: hookPids(r, cli).length === 0, value: hookPids(r, cli) }), STEP_MS, 'the hook to end once answered');
    assert.equal(fs.readFileSync(file, 'utf8'), 'untouched\n', 'the cancelled write is not made when its review is accepted later');
    assert.ok(!model.requests.some((x) => x.decision.kind === 'final' && x.decision.trigger === 'REDLINE-HOOK-F'), 'no write_file result reaches the model');
  } catch (err) {
    throw await explain(err, pane, r);
  }
}

describe('Claude Code (real claude) with Redline as its PreToolUse hook', { skip: !claudeInstalled() && 'claude not installed (npm install in tests/interop)', timeout: 300_000 }, () => {
  const API_KEY = 'sk-ant-api03-redline-hooks-0123456789abcdefghijklmnop';
  let ws, home, r, api, tmux, c, firstReview;

  before(async () => {
    ws = realTmpDir('rl-hooks-claude-ws-');
    home = realTmpDir('rl-hooks-claude-home-');
    api = await startFakeApi({ log });
    r = await startRedline({ workspaces: [ws] });
    // What a user has: the default permission mode (every edit would ask), no IDE connection.
    await writeClaudeConfig(home, { workspaces: [ws], apiKey: API_KEY });
    const { settings, entry } = await installHook(r, 'claude', home, path.join(home, '.claude', 'settings.json'));
    assert.equal(settings.permissions.defaultMode, 'default', 'install kept the user settings');
    assert.equal(entry.timeout, 3600);
    assert.equal(settings.hooks.PreToolUse.find((g) => g.hooks.includes(entry)).matcher, 'Write|Edit');
    tmux = await startTmux();
    const env = claudeEnv({ home, apiBaseUrl: api.baseURL, apiKey: API_KEY, extra: { XDG_RUNTIME_DIR: r.dirs.runtime } });
    c = await tmux.claude({ name: 'hooks', cwd: ws, env, args: [] });
    await c.waitForScreen(/for shortcuts/, STEP_MS, 'claude to be ready');
  });

  after(() => endSession({ cli: tmux, redline: r, api }, ws, home));

  /**
   * Prompts claude into `tool` on `name` (after the Read it needs); resolves with the hook's
   * review and the plan. claude must not show its own prompt: the hook has not answered yet.
   */
  async function propose(tag, name, tool, input) {
    const filePath = path.join(ws, name);
    const trigger = `REDLINE-HOOK-${tag}`;
    const plan = api.addPlan({ trigger, filePath, tool, input: { file_path: filePath, ...input }, final: `done ${tag}` });
    await submitUntilSent(c, `${trigger} please`, (ms) => api.waitFor((x) => x.decision.plan === plan, ms, `claude to send ${trigger}`));
    const review = await reviewOf(r, filePath, 'Claude Code');
    // The hook runs before claude's permission check: no prompt of its own while Redline asks.
    assert.doesNotMatch(await c.screen(), /Do you want to/, 'claude asked its own permission before the hook answered');
    return { review, plan, filePath };
  }

  /** The request that carries the tool's result back to the model (once the turn is over). */
  async function toolResult(plan, tag) {
    const q = await api.waitFor((q) => q.decision.kind === 'final' && q.decision.plan === plan, STEP_MS, `the ${tag} tool result`);
    await c.waitForScreen(new RegExp(`● done ${tag}`), STEP_MS, `the end of turn ${tag}`);
    return q;
  }

  test('accept: allow, and claude writes exactly the proposal without asking again', async () => {
    const file = path.join(ws, 'a.txt');
    fs.writeFileSync(file, 'one\ntwo\n');
    try {
      const { review, plan } = await propose('A', 'a.txt', 'Write', { content: 'one\ntwo\nthree\n' });
      firstReview = review;
      assert.equal(review.readOnly ?? null, null, 'Claude Code takes the reviewer\'s edits');
      await ok(r, ['review', 'accept', String(review.id)]);
      const { decision: { result } } = await toolResult(plan, 'A');
      assert.doesNotMatch(textOf(result.content), /error|denied|rejected/i, textOf(result.content));
      assert.equal(fs.readFileSync(file, 'utf8'), 'one\ntwo\nthree\n');
      assert.doesNotMatch(await c.screen(), /Do you want to (make this edit|create|overwrite)/, 'claude asked its own permission after allow');
    } catch (err) {
      throw await explain(err, c, r);
    }
  });

  test('accept with the reviewer\'s text (an Edit): the file ends exactly as that text', async () => {
    const file = path.join(ws, 'b.txt');
    fs.writeFileSync(file, 'alpha\nbeta\ngamma\n');
    const edited = path.join(home, 'b.edited');
    fs.writeFileSync(edited, 'alpha\nBETA, as the reviewer wrote it\ngamma\ndelta\n');
    try {
      const { review, plan } = await propose('B', 'b.txt', 'Edit', { old_string: 'beta', new_string: 'BETA', replace_all: false });
      await ok(r, ['review', 'accept', String(review.id), '--content-file', edited]);
      const q = await toolResult(plan, 'B');
      const said = textOf(q.decision.result.content);
      assert.doesNotMatch(said, /error|denied|rejected/i, said);
      // Redline's additionalContext reaches the model, after the tool's result (claude sends it
      // as a system message: "PreToolUse:Edit hook additional context: ...").
      const notes = q.body.messages.filter((m) => m.role === 'system').map((m) => textOf(m.content));
      assert.ok(notes.some((n) => n.includes('changed it before it was written') && n.includes(file)), JSON.stringify(notes));
      assert.equal(fs.readFileSync(file, 'utf8'), fs.readFileSync(edited, 'utf8'));
    } catch (err) {
      throw await explain(err, c, r);
    }
  });

  // claude runs a hook as `/bin/sh -c CMD` in a session of its own, with no terminal: Redline looks
  // past it, up the hook's ancestors, for the CLI itself.
  test('the review names the claude process that asked, its version and its terminal', () => {
    assert.equal(firstReview?.client.name, 'Claude Code');
    assert.equal(firstReview?.client.process?.program, 'Claude Code');
    assert.equal(firstReview?.client.version, firstReview?.client.process?.version);
    assert.match(firstReview?.client.version ?? '', /^2\.1\./);
    assert.ok(firstReview?.client.process?.tmux || firstReview?.client.process?.tty, JSON.stringify(firstReview?.client));
  });

  test('reject: deny; the file is unchanged and the model reads the reason, naming the file', async () => {
    const file = path.join(ws, 'c.txt');
    fs.writeFileSync(file, 'keep me\n');
    try {
      const { review, plan } = await propose('C', 'c.txt', 'Edit', { old_string: 'keep', new_string: 'drop', replace_all: false });
      await ok(r, ['review', 'reject', String(review.id)]);
      const { decision: { result } } = await toolResult(plan, 'C');
      const said = textOf(result.content);
      assert.match(said, /rejected/i, said);
      assert.ok(said.includes(file), `the model is told which file: ${said}`);
      assert.equal(fs.readFileSync(file, 'utf8'), 'keep me\n');
    } catch (err) {
      throw await explain(err, c, r);
    }
  });

  test('Esc while the review is open: claude stops the hook and Redline withdraws the review', async () => {
    const file = path.join(ws, 'd.txt');
    fs.writeFileSync(file, 'untouched\n');
    try {
      await propose('D', 'd.txt', 'Write', { content: 'never\n' });
      assert.equal(hookPids(r, 'claude').length, 1, 'the hook waits for the review');
      await c.keys('Escape');
      await pollUntil(async () => {
        const list = await r.json(['review', 'list', '--json']);
        return { ok: list.length === 0, value: list };
      }, STEP_MS, 'the review to be withdrawn');
      await pollUntil(async () => ({ ok: hookPids(r, 'claude').length === 0, value: hookPids(r, 'claude') }), STEP_MS, 'the hook to end');
      await c.waitForScreen(/Rejected write to d\.txt/, STEP_MS, 'claude to show the write as rejected');
      assert.equal(fs.readFileSync(file, 'utf8'), 'untouched\n');
    } catch (err) {
      throw await explain(err, c, r);
    }
  });

  // Every accept, edited or not, is answered with Redline's own input (the whole reviewed text
  // for the whole accepted one): claude's own matching (CRLF, curly quotes, loose whitespace)
  // never decides what is written. Each case: the file after the accept is, byte for byte, what
  // the review showed.
  test('every accept writes exactly the reviewed bytes: CRLF, curly quotes, trailing spaces, a text found twice, no final newline', async () => {
    const corpus = [
      { name: 'crlf.txt', text: 'one\r\ntwo\r\nthree\r\n', edit: { old_string: 'two', new_string: 'TWO', replace_all: false } },
      { name: 'quotes.txt', text: 'say \u201chi\u201d\nand \'bye\'\n', edit: { old_string: 'say \u201chi\u201d', new_string: 'say \u201chello\u201d', replace_all: false } },
      { name: 'spaces.txt', text: 'x = 1\nx = 1  \n\tx = 1\n', edit: { old_string: 'x = 1  ', new_string: 'x = 2', replace_all: false } },
      { name: 'twice.txt', text: 'k = 0\nk = 0\n', edit: { old_string: 'k = 0', new_string: 'k = 9', replace_all: true } },
      { name: 'nonl.txt', text: 'first\nlast', edit: { old_string: 'last', new_string: 'LAST', replace_all: false } },
    ];
    for (const [n, { name, text, edit }] of corpus.entries()) {
      const file = path.join(ws, name);
      fs.writeFileSync(file, text);
      try {
        const { review, plan } = await propose(`X${n}`, name, 'Edit', edit);
        // What the review shows: the exact text replaced in the file as it is (each old text is
        // there once, or replace_all), as Redline's plan reads it.
        const reviewed = text.split(edit.old_string).join(edit.new_string);
        const diff = await ok(r, ['review', 'show', String(review.id)]);
        assert.ok(diff.includes(`+${reviewed.split('\n').find((l) => l.includes(edit.new_string))}`), `${name}: ${diff}`);
        await ok(r, ['review', 'accept', String(review.id)]);
        const { decision: { result } } = await toolResult(plan, `X${n}`);
        assert.doesNotMatch(textOf(result.content), /error|denied|rejected/i, `${name}: ${textOf(result.content)}`);
        assert.equal(fs.readFileSync(file, 'utf8'), reviewed, `${name}: claude wrote what the review showed`);
      } catch (err) {
        throw await explain(err, c, r);
      }
    }
  });

  // Last: it stops Redline. A review that ends without the user's decision is a deny: claude
  // does not write, and the model reads why (before, the hook passed and claude asked its own).
  test('Redline stopped mid-review: deny; the file is unchanged and the model reads why', async () => {
    const file = path.join(ws, 'e.txt');
    fs.writeFileSync(file, 'untouched\n');
    try {
      const { plan } = await propose('E', 'e.txt', 'Write', { content: 'never\n' });
      await r.stop();
      const { decision: { result } } = await toolResult(plan, 'E');
      const said = textOf(result.content);
      assert.match(said, /Redline did not let this edit through/, said);
      assert.equal(fs.readFileSync(file, 'utf8'), 'untouched\n');
    } catch (err) {
      throw await explain(err, c, r);
    }
  });
});

describe('Gemini CLI (real gemini) with Redline as its BeforeTool hook', { skip: !fs.existsSync(GEMINI_BIN) && 'gemini not installed (npm install in tests/interop)', timeout: 300_000 }, () => {
  let ws, home, r, model, g, firstReview;

  before(async () => {
    ws = realTmpDir('rl-hooks-gemini-ws-');
    home = realTmpDir('rl-hooks-gemini-home-');
    model = await startGeminiFakeModel({ log });
    r = await startRedline({ workspaces: [ws] });
    const file = writeGeminiHome(home, ws);
    const { settings, entry } = await installHook(r, 'gemini', home, file);
    assert.equal(entry.timeout, 3_600_000, 'Gemini CLI reads the timeout in ms');
    assert.equal(settings.hooks.BeforeTool.find((grp) => grp.hooks.includes(entry)).matcher, 'write_file|replace');
    assert.equal(settings.ide.enabled, false, 'install kept the user settings');
    // auto_edit: what a Redline user picks, so an edit is asked once (in Redline), not twice.
    g = await readyGemini({ ws, home, model, r, approvalMode: 'auto_edit' });
  });

  after(() => endSession({ cli: g, redline: r, api: model }, ws, home));

  async function propose(tag, filePath, tool, args) {
    const trigger = `REDLINE-HOOK-${tag}`;
    model.setPlan({ trigger, tool, args: { file_path: filePath, ...args }, final: `Gemini done ${tag}.` });
    const before = model.requests.length;
    await submitUntilSent(g, `Please do ${trigger}`, (ms) => model.waitFor((x) => x.decision.kind === 'write' && x.n > before, ms, `gemini to send ${trigger}`));
    return reviewOf(r, filePath, 'Gemini CLI');
  }

  async function toolResult(tag) {
    const q = await model.waitFor((q) => q.decision.kind === 'final' && q.decision.trigger === `REDLINE-HOOK-${tag}`, STEP_MS, `the ${tag} tool result`);
    await g.waitForScreen(new RegExp(`Gemini done ${tag}\\.`), STEP_MS, `the end of turn ${tag}`);
    return q.decision.toolResult;
  }

  test('accept (write_file): the file ends exactly as proposed', async () => {
    const file = path.join(ws, 'a.txt');
    fs.writeFileSync(file, 'one\n');
    try {
      const review = await propose('A', file, 'write_file', { content: 'one\ntwo from gemini\n' });
      firstReview = review;
      assert.equal(review.readOnly ?? null, null, 'Gemini CLI takes the reviewer\'s edits');
      await ok(r, ['review', 'accept', String(review.id)]);
      const said = await toolResult('A');
      assert.doesNotMatch(said, /error|denied|blocked/i, said);
      assert.equal(fs.readFileSync(file, 'utf8'), 'one\ntwo from gemini\n');
    } catch (err) {
      throw await explain(err, g, r);
    }
  });

  test('accept with the reviewer\'s text (replace): the file ends exactly as that text', async () => {
    const file = path.join(ws, 'b.txt');
    fs.writeFileSync(file, 'alpha\nbeta\ngamma\n');
    const edited = path.join(home, 'b.edited');
    fs.writeFileSync(edited, 'alpha\nBETA, as the reviewer wrote it\ngamma\ndelta\n');
    try {
      const review = await propose('B', file, 'replace', { old_string: 'beta', new_string: 'BETA', instruction: 'Capitalise beta.' });
      await ok(r, ['review', 'accept', String(review.id), '--content-file', edited]);
      const said = await toolResult('B');
      assert.doesNotMatch(said, /error|denied|blocked/i, said);
      // Gemini's own note; Redline's additionalContext does not reach the model (skipped below).
      assert.match(said, /Tool input parameters were modified by a hook/, said);
      assert.equal(fs.readFileSync(file, 'utf8'), fs.readFileSync(edited, 'utf8'));
    } catch (err) {
      throw await explain(err, g, r);
    }
  });

  test('the review names the gemini process that asked, and its terminal', () => {
    // Gemini runs the hook without a new session, so Redline finds it above the hook.
    const p = firstReview?.client.process;
    assert.equal(p?.program, 'Gemini CLI', JSON.stringify(firstReview?.client));
    assert.equal(p?.version, '0.61.0');
    assert.equal(p?.cwd, ws);
    assert.match(p?.tty ?? '', /^\/dev\/pts\/\d+$/);
  });

  test('accept with edits: the model reads Redline\'s note that the user changed the text', {
    skip: 'Gemini CLI 0.61.0 reads additionalContext only from AfterTool hooks, not BeforeTool: the model gets only "[System] Tool input parameters were modified by a hook before execution."',
  }, () => {});

  test('approval mode "default": the hook asks first, then gemini asks its own confirmation of the reviewer\'s text', async () => {
    const file = path.join(ws, 'd.txt');
    fs.writeFileSync(file, 'first\n');
    const edited = path.join(home, 'd.edited');
    fs.writeFileSync(edited, 'first\nsecond, from the reviewer\n');
    const d = await startGemini({ ws, home, model, r, approvalMode: 'default' });
    try {
      await d.waitForScreen(/Type your message/, STEP_MS, 'gemini (default mode) to show its input prompt');
      const trigger = 'REDLINE-HOOK-D';
      model.setPlan({ trigger, tool: 'write_file', args: { file_path: file, content: 'first\nsecond, from gemini\n' }, final: 'Gemini done D.' });
      const before = model.requests.length;
      await submitUntilSent(d, `Please do ${trigger}`, (ms) => model.waitFor((x) => x.decision.kind === 'write' && x.n > before, ms, `gemini to send ${trigger}`));
      const review = await reviewOf(r, file, 'Gemini CLI');
      assert.doesNotMatch(await d.screen(), /Apply this change\?/, 'gemini asked before its hook answered');
      await ok(r, ['review', 'accept', String(review.id), '--content-file', edited]);
      // Its confirmation comes after the hook, and shows the text the hook put in.
      const asked = await d.waitForScreen(/Apply this change\?/, STEP_MS, 'gemini to ask its own confirmation after the hook');
      assert.match(asked, /second, from the reviewer/);
      assert.equal(fs.readFileSync(file, 'utf8'), 'first\n', 'nothing written before gemini\'s own confirmation');
      await d.keys('Enter');
      await model.waitFor((x) => x.decision.kind === 'final' && x.decision.trigger === trigger, STEP_MS, 'the D tool result');
      assert.equal(fs.readFileSync(file, 'utf8'), fs.readFileSync(edited, 'utf8'));
    } catch (err) {
      throw await explain(err, d, r);
    } finally {
      await d.stop();
    }
  });

  test('folder trust on (its default) and the folder not trusted: gemini skips every hook, Redline is never asked', async () => {
    // A second home: the same settings and hook, and this workspace marked "do not trust" (what
    // answering no to gemini's trust dialog stores).
    const home2 = realTmpDir('rl-hooks-gemini-untrusted-');
    fs.mkdirSync(path.join(home2, '.gemini'));
    fs.copyFileSync(path.join(home, '.gemini', 'settings.json'), path.join(home2, '.gemini', 'settings.json'));
    fs.writeFileSync(path.join(home2, '.gemini', 'trustedFolders.json'), JSON.stringify({ [ws]: 'DO_NOT_TRUST' }));
    const file = path.join(ws, 'e.txt');
    fs.writeFileSync(file, 'first\n');
    const d = await startGemini({ ws, home: home2, model, r, approvalMode: 'default' });
    try {
      await d.waitForScreen(/Type your message/, STEP_MS, 'gemini (untrusted folder) to show its input prompt');
      const trigger = 'REDLINE-HOOK-E';
      model.setPlan({ trigger, tool: 'write_file', args: { file_path: file, content: 'first\nsecond, from gemini\n' }, final: 'Gemini done E.' });
      const before = model.requests.length;
      await submitUntilSent(d, `Please do ${trigger}`, (ms) => model.waitFor((x) => x.decision.kind === 'write' && x.n > before, ms, `gemini to send ${trigger}`));
      // Gemini's own confirmation is the only question: no hook ran, so no review is open.
      const asked = await d.waitForScreen(/Apply this change\?/, STEP_MS, 'gemini to ask its own confirmation');
      assert.doesNotMatch(asked, /Executing Hook/, 'gemini shows no hook running');
      assert.deepEqual(await r.json(['review', 'list', '--json']), [], 'no review: gemini ran no hook');
      await d.keys('Enter');
      await model.waitFor((x) => x.decision.kind === 'final' && x.decision.trigger === trigger, STEP_MS, 'the E tool result');
      assert.equal(fs.readFileSync(file, 'utf8'), 'first\nsecond, from gemini\n', 'written with no review in Redline');
      assert.deepEqual(await r.json(['review', 'list', '--json']), [], 'still no review after the write');
    } catch (err) {
      throw await explain(err, d, r);
    } finally {
      await d.stop();
      await removeDirs(home2);
    }
  });

  test('reject (write_file): the file is unchanged and the model reads the reason, naming the file', () =>
    rejected({ r, pane: g, ws, propose, toolResult, tool: 'write_file', args: { content: 'dropped\n' } }));

  test('Esc while the review is open: gemini stops the hook and Redline withdraws the review', {
    skip: 'Gemini CLI 0.61.0 does not kill its hook process when the user cancels (Esc): "Request cancelled." but `redline hook` keeps waiting, so the review stays open in Redline until decided (nothing is written) or --deny-after',
  }, () => {});

  test('Esc while the review is open: gemini cancels its turn but leaves the hook running; the review stays open, and accepting it writes nothing', () =>
    escLeavesTheHook({ r, pane: g, cli: 'gemini', ws, model, propose }));

  // As for claude: every accept answers with Redline's own tool_input, so gemini's exact,
  // flexible, regex and fuzzy matching, and its LLM edit fixer, never decide what is written.
  test('every accept writes exactly the reviewed bytes: CRLF, curly quotes, trailing spaces, a text found twice, no final newline', async () => {
    const corpus = [
      { name: 'crlf.txt', text: 'one\r\ntwo\r\nthree\r\n', edit: { old_string: 'two', new_string: 'TWO' } },
      { name: 'quotes.txt', text: 'say \u201chi\u201d\nand \'bye\'\n', edit: { old_string: 'say \u201chi\u201d', new_string: 'say \u201chello\u201d' } },
      { name: 'spaces.txt', text: 'x = 1\nx = 1  \n\tx = 1\n', edit: { old_string: 'x = 1  ', new_string: 'x = 2' } },
      { name: 'twice.txt', text: 'k = 0\nk = 0\n', edit: { old_string: 'k = 0', new_string: 'k = 9', allow_multiple: true } },
      { name: 'nonl.txt', text: 'first\nlast', edit: { old_string: 'last', new_string: 'LAST' } },
    ];
    for (const [n, { name, text, edit }] of corpus.entries()) {
      const file = path.join(ws, name);
      fs.writeFileSync(file, text);
      try {
        const review = await propose(`X${n}`, file, 'replace', { ...edit, instruction: `Change ${name}.` });
        const reviewed = text.split(edit.old_string).join(edit.new_string);
        const diff = await ok(r, ['review', 'show', String(review.id)]);
        assert.ok(diff.includes(`+${reviewed.split('\n').find((l) => l.includes(edit.new_string))}`), `${name}: ${diff}`);
        await ok(r, ['review', 'accept', String(review.id)]);
        const said = await toolResult(`X${n}`);
        assert.doesNotMatch(said, /error|denied|blocked/i, `${name}: ${said}`);
        assert.equal(fs.readFileSync(file, 'utf8'), reviewed, `${name}: gemini wrote what the review showed`);
      } catch (err) {
        throw await explain(err, g, r);
      }
    }
  });

  // Last: it stops Redline. Before, the hook passed and gemini ran the write (auto_edit).
  test('Redline stopped mid-review: deny; the file is unchanged and the model reads why', async () => {
    const file = path.join(ws, 'z.txt');
    fs.writeFileSync(file, 'untouched\n');
    try {
      await propose('Z', file, 'write_file', { content: 'never\n' });
      await r.stop();
      const said = await toolResult('Z');
      assert.match(said, /Redline did not let this edit through/, said);
      assert.equal(fs.readFileSync(file, 'utf8'), 'untouched\n');
    } catch (err) {
      throw await explain(err, g, r);
    }
  });
});

/**
 * The real `qwen` in a private tmux, `home` holding its settings (with Redline's hook) and IDE
 * mode off; `approvalMode` is its own approval, which runs before its PreToolUse hooks.
 */
async function startQwenHooked({ ws, home, model, r, approvalMode }) {
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    TMPDIR: path.join(home, 'tmp'),
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    OPENAI_API_KEY: 'dummy-key-for-the-fake-model',
    OPENAI_BASE_URL: model.baseURL,
    OPENAI_MODEL: model.model,
    XDG_RUNTIME_DIR: r.dirs.runtime,
  };
  fs.mkdirSync(env.TMPDIR, { recursive: true });
  const q = await startQwen({ cwd: ws, env, args: ['--approval-mode', approvalMode], name: `qwen-${approvalMode}` });
  await q.waitForScreen(/Type your message/, STEP_MS, 'qwen to show its input prompt');
  return q;
}

describe('Qwen Code (real qwen) with Redline as its PreToolUse hook', { skip: !qwenInstalled() && 'qwen not installed (npm install in tests/interop)', timeout: 300_000 }, () => {
  let ws, home, r, model, q, firstReview;

  before(async () => {
    ws = realTmpDir('rl-hooks-qwen-ws-');
    home = realTmpDir('rl-hooks-qwen-home-');
    model = await startFakeModel({ log });
    r = await startRedline({ workspaces: [ws] });
    const file = await writeQwenSettings(home);
    const base = JSON.parse(fs.readFileSync(file, 'utf8'));
    base.ide.enabled = false;
    fs.writeFileSync(file, JSON.stringify(base, null, 2));
    const { settings, entry } = await installHook(r, 'qwen', home, file);
    assert.equal(entry.timeout, 3_600_000, 'Qwen Code reads a timeout of 1000 or more in ms');
    assert.equal(settings.hooks.PreToolUse.find((grp) => grp.hooks.includes(entry)).matcher, 'write_file|edit');
    assert.equal(settings.ide.enabled, false, 'install kept the user settings');
    // auto-edit: Qwen's own approval would ask first and then the hook; a Redline user lets
    // Redline be the one question.
    q = await startQwenHooked({ ws, home, model, r, approvalMode: 'auto-edit' });
  });

  after(() => endSession({ cli: q, redline: r, api: model }, ws, home));

  async function propose(tag, filePath, tool, args) {
    const trigger = `REDLINE-HOOK-${tag}`;
    model.setPlan({ trigger, filePath, tool, args: { file_path: filePath, ...args }, final: `Qwen done ${tag}.` });
    const before = model.requests.length;
    await submitUntilSent(q, `Please do ${trigger}`, (ms) => model.waitFor((x) => x.decision.kind === 'read' && x.n > before, ms, `qwen to send ${trigger}`));
    return reviewOf(r, filePath, 'Qwen Code');
  }

  async function toolResult(tag) {
    const x = await model.waitFor((x) => x.decision.kind === 'final' && x.decision.trigger === `REDLINE-HOOK-${tag}`, STEP_MS, `the ${tag} tool result`);
    await q.waitForScreen(new RegExp(`Qwen done ${tag}\\.`), STEP_MS, `the end of turn ${tag}`);
    return x.decision.toolResult;
  }

  test('accept (write_file): the file ends exactly as proposed', async () => {
    const file = path.join(ws, 'a.txt');
    fs.writeFileSync(file, 'one\n');
    try {
      const review = await propose('A', file, 'write_file', { content: 'one\ntwo from qwen\n' });
      firstReview = review;
      await ok(r, ['review', 'accept', String(review.id)]);
      const said = await toolResult('A');
      assert.doesNotMatch(said, /error|denied|blocked/i, said);
      assert.equal(fs.readFileSync(file, 'utf8'), 'one\ntwo from qwen\n');
    } catch (err) {
      throw await explain(err, q, r);
    }
  });

  test('the review is read-only: accepting with the reviewer\'s text is refused, a plain accept writes the proposal', async () => {
    const file = path.join(ws, 'b.txt');
    fs.writeFileSync(file, 'alpha\nbeta\n');
    const edited = path.join(home, 'b.edited');
    fs.writeFileSync(edited, 'the reviewer\'s text\n');
    try {
      const review = await propose('B', file, 'edit', { old_string: 'beta', new_string: 'BETA' });
      assert.match(review.readOnly ?? '', /Qwen Code/, JSON.stringify(review));
      const refused = await r.run(['review', 'accept', String(review.id), '--content-file', edited]);
      assert.notEqual(refused.code, 0, `accept --content-file of a read-only review: ${refused.stdout} ${refused.stderr}`);
      assert.equal(fs.readFileSync(file, 'utf8'), 'alpha\nbeta\n', 'nothing written while the review is open');
      await ok(r, ['review', 'accept', String(review.id)]);
      const said = await toolResult('B');
      assert.doesNotMatch(said, /error|denied|blocked/i, said);
      assert.equal(fs.readFileSync(file, 'utf8'), 'alpha\nBETA\n');
    } catch (err) {
      throw await explain(err, q, r);
    }
  });

  test('approval mode "default": qwen asks its own confirmation first, and only then runs the hook', async () => {
    const file = path.join(ws, 'd.txt');
    fs.writeFileSync(file, 'first\n');
    const d = await startQwenHooked({ ws, home, model, r, approvalMode: 'default' });
    try {
      const trigger = 'REDLINE-HOOK-D';
      model.setPlan({ trigger, filePath: file, tool: 'write_file', args: { file_path: file, content: 'first\nsecond, from qwen\n' }, final: 'Qwen done D.' });
      const before = model.requests.length;
      await submitUntilSent(d, `Please do ${trigger}`, (ms) => model.waitFor((x) => x.decision.kind === 'read' && x.n > before, ms, `qwen to send ${trigger}`));
      await d.waitForScreen(/Apply this change\?/, STEP_MS, 'qwen to ask its own confirmation');
      assert.deepEqual(await r.json(['review', 'list', '--json']), [], 'no review while qwen asks: its hook has not run');
      await d.keys('Enter');
      const review = await reviewOf(r, file, 'Qwen Code');
      await ok(r, ['review', 'reject', String(review.id)]);
      const x = await model.waitFor((x) => x.decision.kind === 'final' && x.decision.trigger === trigger, STEP_MS, 'the D tool result');
      assert.ok(x.decision.toolResult.includes(file), x.decision.toolResult);
      assert.equal(fs.readFileSync(file, 'utf8'), 'first\n', 'rejected in Redline after qwen\'s own yes: not written');
    } catch (err) {
      throw await explain(err, d, r);
    } finally {
      await d.stop();
    }
  });

  // qwen starts the hook itself as the head of a session of its own: Redline looks past it.
  test('the review names the qwen process that asked, and its version', () => {
    assert.equal(firstReview?.client.name, 'Qwen Code');
    assert.equal(firstReview?.client.process?.program, 'Qwen Code');
    assert.equal(firstReview?.client.version, '0.24.4');
  });

  test('reject (edit): the file is unchanged and the model reads the reason, naming the file', () =>
    rejected({ r, pane: q, ws, propose, toolResult, tool: 'edit', args: { old_string: 'keep', new_string: 'drop' } }));

  test('Esc while the review is open: qwen stops the hook and Redline withdraws the review', {
    skip: 'Qwen Code 0.24.4 does not kill its hook process when the user cancels (Esc): "Request cancelled." but `redline hook` keeps waiting, so the review stays open in Redline until decided (nothing is written) or --deny-after',
  }, () => {});

  test('Esc while the review is open: qwen cancels its turn but leaves the hook running; the review stays open, and accepting it writes nothing', () =>
    escLeavesTheHook({ r, pane: q, cli: 'qwen', ws, model, propose }));

  // Last: it stops Redline. Before, the hook passed and qwen (auto-edit) wrote the file.
  // Qwen's PreToolUse cannot take a replaced input, so Redline's reading of its `edit` must be
  // Qwen's own: for each hostile input the real qwen either writes exactly the bytes the review
  // showed (the review's own diff, applied by `git apply` to the original), or Redline denied it
  // up front as "could not be sure" and the file is untouched.
  test('every edit qwen writes after an accept is byte for byte the review; what Redline cannot be sure of is denied', async () => {
    const corpus = [
      { name: 'crlf.txt', text: 'one\r\ntwo\r\nthree\r\n', edit: { old_string: 'two', new_string: 'TWO' } },
      { name: 'crlf-lf.txt', text: 'one\r\ntwo\r\n', edit: { old_string: 'two', new_string: 'two\nmore' } },
      { name: 'cr-in-old.txt', text: 'a\r\nb\r\n', edit: { old_string: 'a\r\nb', new_string: 'ab' } },
      { name: 'quotes.txt', text: 'say \u201chi\u201d\n', edit: { old_string: 'say \u201chi\u201d', new_string: 'say \u201chello\u201d' } },
      { name: 'spaces.txt', text: 'x = 1\nx = 1  \n', edit: { old_string: 'x = 1  ', new_string: 'x = 2' } },
      { name: 'twice.txt', text: 'k = 0\nk = 0\n', edit: { old_string: 'k = 0', new_string: 'k = 9', replace_all: true } },
      { name: 'nonl.txt', text: 'first\nlast', edit: { old_string: 'last', new_string: 'LAST' } },
      { name: 'delete-line.txt', text: 'keep\ndrop\nkeep too\n', edit: { old_string: 'drop', new_string: '' } },
      { name: 'bom.txt', text: '\ufeffhead\nbody\n', edit: { old_string: 'body', new_string: 'BODY' } },
      { name: 'dollar.txt', text: 'cost\n', edit: { old_string: 'cost', new_string: "$& $1 $$ $'" } },
    ];
    const [written, denied] = [[], []];
    for (const [n, { name, text, edit }] of corpus.entries()) {
      const file = path.join(ws, name);
      fs.writeFileSync(file, text);
      const tag = `Q${n}`;
      try {
        const trigger = `REDLINE-HOOK-${tag}`;
        model.setPlan({ trigger, filePath: file, tool: 'edit', args: { file_path: file, ...edit }, final: `Qwen done ${tag}.` });
        const before = model.requests.length;
        await submitUntilSent(q, `Please do ${trigger}`, (ms) => model.waitFor((x) => x.decision.kind === 'read' && x.n > before, ms, `qwen to send ${trigger}`));
        // A review opens, or Redline denies before asking anyone: whichever comes first.
        const review = ok(r, ['review', 'wait', '--file', file, '--timeout', String(STEP_MS / 1000)]).then(JSON.parse);
        const result = toolResult(tag);
        review.catch(() => {});
        result.catch(() => {});
        const first = await Promise.race([review.then((v) => ({ review: v })), result.then((said) => ({ said }))]);
        if (first.said !== undefined) {
          assert.match(first.said, /could not be sure what this edit/, `${name}: ${first.said}`);
          assert.equal(fs.readFileSync(file, 'utf8'), text, `${name}: denied, so untouched`);
          denied.push(name);
          continue;
        }
        const shown = reviewedBytes(text, await ok(r, ['review', 'show', String(first.review.id)]));
        await ok(r, ['review', 'accept', String(first.review.id)]);
        const said = await result;
        assert.doesNotMatch(said, /error|denied|blocked|failed/i, `${name}: ${said}`);
        assert.equal(fs.readFileSync(file, 'latin1'), shown.toString('latin1'), `${name}: qwen wrote what the review showed`);
        written.push(name);
      } catch (err) {
        throw await explain(err, q, r);
      }
    }
    log(`qwen corpus: written as reviewed ${written.join(', ')}; denied up front ${denied.join(', ')}`);
    assert.ok(written.length >= 5, `most of the corpus is reviewed and written, not denied: ${written}`);
  });

  test('Redline stopped mid-review: deny; the file is unchanged and the model reads why', async () => {
    const file = path.join(ws, 'z.txt');
    fs.writeFileSync(file, 'untouched\n');
    try {
      await propose('Z', file, 'write_file', { content: 'never\n' });
      await r.stop();
      const said = await toolResult('Z');
      assert.match(said, /Redline did not let this edit through/, said);
      assert.equal(fs.readFileSync(file, 'utf8'), 'untouched\n');
    } catch (err) {
      throw await explain(err, q, r);
    }
  });
});

/**
 * `original` with the review's unified diff (`redline review show`) applied by `git apply`. A
 * BOM both sides share is left out of that diff (`review::diff`), so it is put back around it.
 */
function reviewedBytes(original, diff) {
  const bom = original.startsWith('\ufeff') && !diff.includes('\ufeff') ? '\ufeff' : '';
  original = original.slice(bom.length);
  const label = /^--- a\/(.*)$/m.exec(diff)?.[1];
  assert.ok(label, `a diff with a/ b/ labels: ${diff}`);
  const dir = realTmpDir('rl-qwen-apply-');
  try {
    const file = path.join(dir, label);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, original);
    const applied = spawnSync('git', ['apply', '--whitespace=nowarn', '-'], { cwd: dir, input: diff });
    assert.equal(applied.status, 0, `git apply: ${applied.stderr}\n${diff}`);
    return Buffer.concat([Buffer.from(bom), fs.readFileSync(file)]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
