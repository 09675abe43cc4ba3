// `redline hook codex` under the real Codex CLI: installed by `redline hooks install codex`, each apply_patch a review decided with `redline review`.
//
//   cd tests/interop && npm ci && REDLINE_BIN=/path/to/redline node --test codex-hook.test.mjs
//
// The real `codex` TUI (@openai/codex 0.171.0) under tmux, offline against codex-fake-api.mjs,
// in a loopback-only network namespace when root; `redline serve --headless` from
// lib/redline.mjs. The hook codex runs reaches Redline through the control socket in Redline's
// XDG_RUNTIME_DIR (given to codex, so its hook inherits it). codex-contract.test.mjs holds the
// facts about codex these scenarios rely on. Skipped while `redline hooks` is not a command.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

import { startRedline, runProcess, defaultBin } from './lib/redline.mjs';
import { pollUntil } from './lib/wait.mjs';
import { startFakeApi, itemText } from './codex-fake-api.mjs';
import { codexHome, codexInstalled, codexTempDir, startCodex, trustHooks, CODEX_VERSION } from './codex-driver.mjs';

const STEP_MS = 30_000;
const BIN = process.env.REDLINE_BIN || defaultBin;

async function whySkip() {
  if (!codexInstalled()) return `codex ${CODEX_VERSION} not installed: npm ci in tests/interop`;
  if (!fs.existsSync(BIN)) return `no redline at ${BIN}: build it or set REDLINE_BIN`;
  const res = await runProcess(BIN, ['hooks', '--help'], { timeoutMs: 10_000 });
  if (res.code !== 0) return `this redline has no \`hooks\` command yet (redline hooks --help: ${res.stderr.trim().split('\n')[0]})`;
  return false;
}
const skip = await whySkip();

/** The developer message codex puts right before a tool's output: a hook's additionalContext. */
function developerNote(body) {
  const m = body.input[body.input.length - 2];
  return m?.type === 'message' && m.role === 'developer' ? m.content.map((c) => c.text).join('') : null;
}

const SUCCESS = /^Exit code: 0\nWall time: [\d.]+ seconds\nOutput:\nSuccess\. Updated the following files:\n/;

describe(`redline hook codex under codex ${CODEX_VERSION}`, { skip }, () => {
  let api;
  let r;
  let ws;
  let home;
  let codex;

  before(async () => {
    api = await startFakeApi({ log: process.env.REDLINE_IT_VERBOSE ? (m) => console.error(m) : undefined });
    ws = await codexTempDir('rl-codex-ws-');
    r = await startRedline({ workspaces: [ws] });
    home = await codexHome({ api, workspaces: [ws] });
    const res = await r.run(['hooks', 'install', 'codex'], { env: { ...r.env, HOME: home.home, CODEX_HOME: home.codexHome } });
    assert.equal(res.code, 0, `redline hooks install codex: ${res.stderr}`);
    const hooks = JSON.parse(fs.readFileSync(home.hooksFile, 'utf8'));
    const commands = hooks.hooks.PreToolUse.flatMap((g) => g.hooks.map((h) => h.command));
    assert.ok(commands.some((c) => /\bhook codex\b/.test(c)), `hooks.json runs redline hook codex: ${JSON.stringify(hooks)}`);
    // Codex skips untrusted hooks silently; the user trusts it once in /hooks, this does the same.
    trustHooks(home.codexHome);
  });

  after(async () => {
    await codex?.stop();
    await r?.stop();
    await home?.stop();
    await api?.close();
    if (ws) await fsp.rm(ws, { recursive: true, force: true });
  });

  /** Codex's environment: Redline's runtime and config dirs (its control socket), redline on PATH. */
  function env(extra = {}) {
    return {
      PATH: `${path.dirname(r.bin)}:${process.env.PATH}`,
      XDG_RUNTIME_DIR: r.env.XDG_RUNTIME_DIR,
      XDG_CONFIG_HOME: r.env.XDG_CONFIG_HOME,
      ...extra,
    };
  }

  /**
   * Starts a fresh codex TUI (so each test reads only its own screen) and makes the model
   * propose `patch` on the next prompt. Resolves {plan, final, submit()}.
   */
  async function propose(patch, { model, extraEnv } = {}) {
    await codex?.stop();
    if (model) {
      // The model is in config.toml: a code-mode scenario gets its own CODEX_HOME copy.
      const cfg = fs.readFileSync(home.configFile, 'utf8').replace(/^model = .*$/m, `model = ${JSON.stringify(model)}`);
      fs.writeFileSync(home.configFile, cfg);
    }
    codex = await startCodex({ cwd: ws, home, api, env: env(extraEnv) });
    await codex.waitReady();
    // Reviews an earlier (failed) test left pending are not this turn's.
    const earlier = new Set((await r.json(['review', 'list', '--json'])).map((x) => x.id));
    const trigger = `PATCH-${api.requests.length}-${Date.now()}`;
    const final = `done ${trigger}`;
    const plan = api.addPlan({ trigger, patch, final });
    await codex.submit(`${trigger} please`);
    return { plan, final, earlier };
  }

  /** This turn's pending reviews. */
  async function pending(p) {
    return (await r.json(['review', 'list', '--json'])).filter((x) => !p.earlier.has(x.id));
  }

  /** The model request carrying the tool's result, and that result (a note before it is separate: developerNote). */
  async function resultOf({ plan, final }) {
    const rec = await api.waitFor((q) => q.decision.kind === 'final' && q.decision.plan === plan, STEP_MS, 'the model request with the patch\'s result');
    await codex.waitForScreen((s) => s.includes(final), STEP_MS, 'codex to end the turn');
    return { rec, told: itemText(rec.body.input.at(-1)) };
  }

  /** Polls until this turn's pending reviews are exactly one per name in `names`; resolves {name: review}. */
  function reviewsOf(p, names) {
    return pollUntil(
      async () => {
        const list = await pending(p);
        const found = Object.fromEntries(names.map((n) => [n, list.find((x) => x.filePath === path.join(ws, n) || x.filePath.endsWith(`/${n}`))]));
        const ok = list.length === names.length && names.every((n) => found[n]);
        return { ok, value: ok ? found : list };
      },
      STEP_MS,
      `Redline to show reviews of ${names.join(', ')}`,
    );
  }

  const ok = async (args) => {
    const res = await r.run(args);
    assert.equal(res.code, 0, `redline ${args.join(' ')}: ${res.stderr}`);
  };

  test('(a) accepted as proposed: the file ends exactly as proposed, no note to the model', async () => {
    fs.writeFileSync(path.join(ws, 'a.txt'), 'one\ntwo\nthree\n');
    const patch = '*** Begin Patch\n*** Update File: a.txt\n@@\n one\n-two\n+TWO\n three\n*** End Patch\n';
    const p = await propose(patch);
    const { 'a.txt': review } = await reviewsOf(p, ['a.txt']);
    // Codex waits on the hook: nothing written before the decision.
    assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'one\ntwo\nthree\n');
    await ok(['review', 'accept', String(review.id)]);
    const { rec, told } = await resultOf(p);
    assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'one\nTWO\nthree\n');
    assert.match(told, SUCCESS);
    assert.equal(developerNote(rec.body), null);
    // Redline answered with its own patch (allow + updatedInput), which codex took.
    assert.doesNotMatch(await codex.screen(), /Hook failed|unsupported permissionDecision/);
    assert.deepEqual(await pending(p), []);
  });

  test('(b) accepted with an edit: the file ends as edited and the model is told', async () => {
    fs.writeFileSync(path.join(ws, 'b.txt'), 'alpha\nbeta\n');
    const p = await propose('*** Begin Patch\n*** Update File: b.txt\n@@\n alpha\n-beta\n+BETA\n*** End Patch\n');
    const { 'b.txt': review } = await reviewsOf(p, ['b.txt']);
    const edited = path.join(r.dirs.root, 'b-edited.txt');
    const text = 'alpha\nbeta, as the user wants it ✓\ngamma\n';
    fs.writeFileSync(edited, text);
    await ok(['review', 'accept', String(review.id), '--content-file', edited]);
    const { rec, told } = await resultOf(p);
    assert.equal(fs.readFileSync(path.join(ws, 'b.txt'), 'utf8'), text);
    assert.match(told, SUCCESS);
    const note = developerNote(rec.body);
    assert.ok(note && note.includes('b.txt'), `the model's next request carries a note naming b.txt: ${JSON.stringify(note)}`);
  });

  test('(c) rejected with a reason: the file is unchanged and the model reads the reason', async () => {
    fs.writeFileSync(path.join(ws, 'c.txt'), 'keep\n');
    const p = await propose('*** Begin Patch\n*** Update File: c.txt\n@@\n-keep\n+    spaces\n*** End Patch\n');
    const { 'c.txt': review } = await reviewsOf(p, ['c.txt']);
    await ok(['review', 'reject', String(review.id), '--reason', 'use tabs']);
    const { told } = await resultOf(p);
    assert.equal(fs.readFileSync(path.join(ws, 'c.txt'), 'utf8'), 'keep\n');
    assert.match(told, /^Command blocked by PreToolUse hook: .*use tabs/s);
    assert.deepEqual(await pending(p), []);
  });

  test('(d) a multi-file patch: one review per file, both accepted, both files as proposed', async () => {
    fs.writeFileSync(path.join(ws, 'd1.txt'), 'x\ny\n');
    const patch = '*** Begin Patch\n*** Update File: d1.txt\n@@\n x\n-y\n+Y\n*** Add File: sub/d2.txt\n+new file\n+second line\n*** End Patch\n';
    const p = await propose(patch);
    const reviews = await reviewsOf(p, ['d1.txt', 'sub/d2.txt']);
    assert.ok(!fs.existsSync(path.join(ws, 'sub', 'd2.txt')), 'nothing written before the decisions');
    await ok(['review', 'accept', String(reviews['d1.txt'].id)]);
    await ok(['review', 'accept', String(reviews['sub/d2.txt'].id)]);
    const { told } = await resultOf(p);
    assert.match(told, SUCCESS);
    assert.equal(fs.readFileSync(path.join(ws, 'd1.txt'), 'utf8'), 'x\nY\n');
    assert.equal(fs.readFileSync(path.join(ws, 'sub', 'd2.txt'), 'utf8'), 'new file\nsecond line\n');
  });

  /** The model's patch refused before any review: nothing written, the model reads `why`. */
  async function refused(patch, files, why) {
    const before = Object.fromEntries(files.map((f) => [f, fs.readFileSync(path.join(ws, f))]));
    const p = await propose(patch);
    const { told } = await resultOf(p);
    assert.match(told, /^Command blocked by PreToolUse hook: /, `the hook denied: ${told}`);
    assert.match(told, why);
    for (const f of files) assert.deepEqual(fs.readFileSync(path.join(ws, f)), before[f], `${f} unchanged`);
    assert.deepEqual(await pending(p), [], 'no review was opened');
    return told;
  }

  // Issue 37, finding 1: codex trims the header, so `config.py ` is config.py and codex would
  // overwrite it blindly; Redline read a new file `config.py ` and showed it as one.
  test('(i) `*** Add File: config.py ` (a trailing space) over an existing config.py: refused, config.py unchanged', async () => {
    fs.writeFileSync(path.join(ws, 'config.py'), 'SECRET = "keep me"\n');
    await refused('*** Begin Patch\n*** Add File: config.py \n+SECRET = "gone"\n*** End Patch\n', ['config.py'], /adds config\.py, which exists already/);
  });

  // Finding 2: a move's destination was never read; onto itself codex writes, then removes it.
  test('(j) `*** Move to:` onto an existing file, or onto itself: refused, both files unchanged', async () => {
    fs.writeFileSync(path.join(ws, 'notes.txt'), 'notes\n');
    fs.writeFileSync(path.join(ws, 'main.rs'), 'fn main() {}\n');
    await refused('*** Begin Patch\n*** Update File: notes.txt\n*** Move to: main.rs\n@@\n-notes\n+moved notes\n*** End Patch\n', ['notes.txt', 'main.rs'], /moves notes\.txt onto main\.rs, which exists already/);
    await refused('*** Begin Patch\n*** Update File: notes.txt\n*** Move to: ./notes.txt\n@@\n-notes\n+renamed\n*** End Patch\n', ['notes.txt', 'main.rs'], /moves notes\.txt onto itself/);
  });

  // Finding 3: an end-of-file hunk matches only where it ends the file (loosely: line 3 has
  // trailing spaces); Redline showed line 1 changed while codex changed line 3.
  test('(k) an `*** End of File` hunk: the review shows the line codex changes, and the file ends as reviewed', async () => {
    fs.writeFileSync(path.join(ws, 'env.sh'), 'ALLOW_PROD=0\nrun_checks\nALLOW_PROD=0   \n');
    const p = await propose('*** Begin Patch\n*** Update File: env.sh\n@@\n-ALLOW_PROD=0\n+ALLOW_PROD=1\n*** End of File\n*** End Patch\n');
    const { 'env.sh': review } = await reviewsOf(p, ['env.sh']);
    const shown = await r.run(['review', 'show', String(review.id)]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /^-ALLOW_PROD=0   $/m, `the review removes line 3 (with its spaces): ${shown.stdout}`);
    assert.match(shown.stdout, /^ ALLOW_PROD=0$/m, `line 1 stays: ${shown.stdout}`);
    await ok(['review', 'accept', String(review.id)]);
    const { told } = await resultOf(p);
    assert.match(told, SUCCESS);
    assert.equal(fs.readFileSync(path.join(ws, 'env.sh'), 'utf8'), 'ALLOW_PROD=0\nrun_checks\nALLOW_PROD=1\n');
  });

  // Finding 4: the second change's review replaced the first's, and the hook read "closed" as
  // no decision and passed.
  test('(l) a patch that changes one file twice: refused with the reason, the file unchanged', async () => {
    fs.writeFileSync(path.join(ws, 'twice.txt'), 'one\ntwo\n');
    await refused('*** Begin Patch\n*** Update File: twice.txt\n@@\n-one\n+ONE\n*** Update File: twice.txt\n@@\n-two\n+TWO\n*** End Patch\n', ['twice.txt'], /touches twice\.txt and twice\.txt, the same file, twice/);
  });

  test('(e) Redline not running: codex\'s own flow applies the patch, nothing hangs', async () => {
    fs.writeFileSync(path.join(ws, 'e.txt'), 'old\n');
    // A runtime dir no Redline ever served from: the hook finds no control socket.
    const lonely = await codexTempDir('rl-codex-noredline-');
    await fsp.chmod(lonely, 0o700);
    try {
      const t0 = Date.now();
      const p = await propose('*** Begin Patch\n*** Update File: e.txt\n@@\n-old\n+new\n*** End Patch\n', { extraEnv: { XDG_RUNTIME_DIR: lonely } });
      const { told } = await resultOf(p);
      assert.ok(Date.now() - t0 < STEP_MS, 'the turn ended without waiting on a review');
      assert.equal(fs.readFileSync(path.join(ws, 'e.txt'), 'utf8'), 'new\n');
      assert.match(told, SUCCESS);
      assert.doesNotMatch(await codex.screen(), /Hook failed|Blocked by hook/);
      assert.deepEqual(await pending(p), [], 'no review reached the running Redline');
    } finally {
      await fsp.rm(lonely, { recursive: true, force: true });
    }
  });

  test('(f) code mode (the model\'s exec tool calls apply_patch): an edit comes back the same way', async () => {
    fs.writeFileSync(path.join(ws, 'f.txt'), 'one\ntwo\n');
    const p = await propose('*** Begin Patch\n*** Update File: f.txt\n@@\n one\n-two\n+TWO\n*** End Patch\n', { model: 'gpt-6-sol' });
    try {
      const { 'f.txt': review } = await reviewsOf(p, ['f.txt']);
      const edited = path.join(r.dirs.root, 'f-edited.txt');
      fs.writeFileSync(edited, 'one\nthe user\'s two\n');
      await ok(['review', 'accept', String(review.id), '--content-file', edited]);
      const { rec } = await resultOf(p);
      assert.equal(rec.body.input.findLast((i) => i.type === 'custom_tool_call').name, 'exec', 'the model was in code mode');
      assert.equal(fs.readFileSync(path.join(ws, 'f.txt'), 'utf8'), 'one\nthe user\'s two\n');
      assert.ok(developerNote(rec.body)?.includes('f.txt'), 'the note reached the model');
    } finally {
      const cfg = fs.readFileSync(home.configFile, 'utf8').replace(/^model = .*$/m, 'model = "gpt-5.5"');
      fs.writeFileSync(home.configFile, cfg);
    }
  });

  test('(g) the turn interrupted (Esc) while the review is open: the review is withdrawn, the file unchanged', async () => {
    fs.writeFileSync(path.join(ws, 'g.txt'), 'same\n');
    const p = await propose('*** Begin Patch\n*** Update File: g.txt\n@@\n-same\n+changed\n*** End Patch\n');
    await reviewsOf(p, ['g.txt']);
    // Codex kills the hook it is waiting on when the user interrupts the turn.
    await codex.keys('Escape');
    await codex.waitForScreen(/Conversation interrupted/, STEP_MS, 'codex to interrupt the turn');
    await pollUntil(async () => {
      const left = await pending(p);
      return { ok: left.length === 0, value: left };
    }, STEP_MS, 'Redline to withdraw the review');
    assert.equal(fs.readFileSync(path.join(ws, 'g.txt'), 'utf8'), 'same\n');
  });

  // Codex 0.171 starts its hook in a session of its own (setsid) and does not kill it when it is
  // itself killed (its terminal closed: SIGHUP): `redline hook` notices its parent is gone and
  // ends, which withdraws the review.
  test('(h) codex killed while the review is open: the review is withdrawn', async () => {
    fs.writeFileSync(path.join(ws, 'h.txt'), 'same\n');
    const p = await propose('*** Begin Patch\n*** Update File: h.txt\n@@\n-same\n+changed\n*** End Patch\n');
    await reviewsOf(p, ['h.txt']);
    await codex.stop();
    codex = undefined;
    await pollUntil(async () => {
      const left = await pending(p);
      return { ok: left.length === 0, value: left };
    }, 5_000, 'Redline to withdraw the review of a killed codex');
    assert.equal(fs.readFileSync(path.join(ws, 'h.txt'), 'utf8'), 'same\n');
  });
});
