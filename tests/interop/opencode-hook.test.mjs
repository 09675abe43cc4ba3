// `redline hook opencode` under the real opencode: its plugin installed by `redline hooks install
// opencode`, each write/edit a review decided with `redline review`.
//
//   cd tests/interop && REDLINE_BIN=/path/to/redline node --test opencode-hook.test.mjs
//
// The real `opencode run` (opencode-ai 1.18.33) offline against opencode-fake-api.mjs, in a
// loopback-only network namespace when root; `redline serve --headless` from lib/redline.mjs.
// The plugin's `redline hook opencode` reaches Redline through the control socket in Redline's
// XDG_RUNTIME_DIR (given to opencode, so the hook inherits it).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

import { pollUntil } from './lib/wait.mjs';
import { contentText } from './opencode-fake-api.mjs';
import { endOpencodeWithRedline, opencodeSkip, opencodeTempDir, opencodeWithRedline, runOpencode, OPENCODE_VERSION } from './opencode-driver.mjs';

const STEP_MS = 60_000;

const skip = await opencodeSkip();

describe(`redline hook opencode under opencode ${OPENCODE_VERSION}`, { skip }, () => {
  let api;
  let r;
  let ws;
  let home;
  let run;

  before(async () => {
    // opencode's global config through HOME alone, as a user's would be.
    let installEnv, res;
    ({ api, ws, r, home, installEnv, installed: res } = await opencodeWithRedline({ prefix: 'rl-opencode-ws-' }));
    assert.equal(res.code, 0, `redline hooks install opencode: ${res.stderr}`);
    const plugin = fs.readFileSync(home.pluginFile, 'utf8');
    assert.ok(plugin.includes(`const REDLINE = ${JSON.stringify(fs.realpathSync(r.bin))};`), 'the plugin runs this redline');
    const again = await r.run(['hooks', 'install', 'opencode'], { env: installEnv });
    assert.match(again.stdout, /already in/);
  });

  after(() => endOpencodeWithRedline({ cli: run, r, home, api, ws }));

  /** Starts `opencode run` with a prompt that makes the model call `tool` with `args`. */
  async function propose(tool, args, { extraEnv = {}, model } = {}) {
    await run?.stop();
    const earlier = new Set((await r.json(['review', 'list', '--json'])).map((x) => x.id));
    const trigger = `EDIT-${api.requests.length}-${Date.now()}`;
    const final = `done ${trigger}`;
    const plan = api.addPlan({ trigger, tool, args, final });
    run = await runOpencode({
      cwd: ws,
      home,
      api,
      prompt: `${trigger} please`,
      env: { XDG_RUNTIME_DIR: r.env.XDG_RUNTIME_DIR, ...extraEnv },
      args: model ? ['--model', model] : [],
    });
    return { plan, final, earlier };
  }

  async function pending(p) {
    return (await r.json(['review', 'list', '--json'])).filter((x) => !p.earlier.has(x.id));
  }

  function reviewOf(p, name) {
    return pollUntil(
      async () => {
        const list = await pending(p);
        const found = list.find((x) => x.filePath === path.join(ws, name));
        return { ok: list.length === 1 && !!found, value: found ?? list };
      },
      STEP_MS,
      `Redline to show the review of ${name}`,
    ).catch((e) => {
      throw new Error(`${e.message}; opencode's stderr: ${run?.output().stderr.slice(-1500)}`);
    });
  }

  /** The tool's result as the model's next request carries it, once opencode ends the turn. */
  async function resultOf({ plan, final }) {
    const rec = await api.waitFor((q) => q.decision.kind === 'final' && q.decision.plan === plan, STEP_MS, 'the model request with the tool\'s result');
    const out = await run.done;
    assert.equal(out.code, 0, `opencode run: ${out.stderr.slice(-2000)}`);
    assert.ok(out.stdout.includes(final), `opencode printed the model's last text: ${out.stdout}`);
    return { rec, told: rec.decision.output, out };
  }

  const ok = async (args) => {
    const res = await r.run(args);
    assert.equal(res.code, 0, `redline ${args.join(' ')}: ${res.stderr}`);
  };

  test('(a) write accepted as proposed: the file ends exactly as proposed, no note', async () => {
    const file = path.join(ws, 'a.txt');
    fs.writeFileSync(file, 'one\ntwo\n');
    const p = await propose('write', { filePath: file, content: 'one\nTWO\n' });
    const review = await reviewOf(p, 'a.txt');
    // opencode awaits the plugin: nothing written before the decision.
    assert.equal(fs.readFileSync(file, 'utf8'), 'one\ntwo\n');
    await ok(['review', 'accept', String(review.id)]);
    const { told } = await resultOf(p);
    assert.equal(fs.readFileSync(file, 'utf8'), 'one\nTWO\n');
    assert.equal(told, 'Wrote file successfully.');
    assert.deepEqual(await pending(p), []);
  });

  test('(b) edit accepted with the user\'s changes: the file ends as edited and the model is told', async () => {
    const file = path.join(ws, 'b.txt');
    fs.writeFileSync(file, 'alpha\nbeta\ngamma\n');
    const p = await propose('edit', { filePath: file, oldString: 'beta', newString: 'BETA' });
    const review = await reviewOf(p, 'b.txt');
    const edited = path.join(r.dirs.root, 'b-edited.txt');
    const text = 'alpha\nbeta, as the user wants it ✓\ngamma\ndelta\n';
    fs.writeFileSync(edited, text);
    await ok(['review', 'accept', String(review.id), '--content-file', edited]);
    const { told } = await resultOf(p);
    assert.equal(fs.readFileSync(file, 'utf8'), text);
    assert.match(told, /^Edit applied successfully\./);
    assert.match(told, /changed it before it was written: .*b\.txt/s);
  });

  test('(c) rejected with a reason: the file is unchanged and the model reads the reason', async () => {
    const file = path.join(ws, 'c.txt');
    fs.writeFileSync(file, 'keep\n');
    const p = await propose('edit', { filePath: file, oldString: 'keep', newString: '    spaces' });
    const review = await reviewOf(p, 'c.txt');
    await ok(['review', 'reject', String(review.id), '--reason', 'use tabs']);
    const { told } = await resultOf(p);
    assert.equal(fs.readFileSync(file, 'utf8'), 'keep\n');
    assert.match(told, /use tabs/);
    assert.deepEqual(await pending(p), []);
  });

  test('(d) Redline not running: opencode writes as it would, with one line saying why', async () => {
    const file = path.join(ws, 'd.txt');
    fs.writeFileSync(file, 'old\n');
    const lonely = await opencodeTempDir('rl-opencode-noredline-');
    await fsp.chmod(lonely, 0o700);
    try {
      const p = await propose('write', { filePath: file, content: 'new\n' }, { extraEnv: { XDG_RUNTIME_DIR: lonely } });
      const { told, out } = await resultOf(p);
      assert.equal(fs.readFileSync(file, 'utf8'), 'new\n');
      assert.equal(told, 'Wrote file successfully.');
      assert.match(out.stderr, /redline: Redline is not running/);
      assert.deepEqual(await pending(p), [], 'no review reached the running Redline');
    } finally {
      await fsp.rm(lonely, { recursive: true, force: true });
    }
  });

  test('(e) opencode killed while the review is open: the review is withdrawn, the file unchanged', async () => {
    const file = path.join(ws, 'e.txt');
    fs.writeFileSync(file, 'same\n');
    const p = await propose('write', { filePath: file, content: 'changed\n' });
    await reviewOf(p, 'e.txt');
    await run.stop();
    run = undefined;
    await pollUntil(async () => {
      const left = await pending(p);
      return { ok: left.length === 0, value: left };
    }, 10_000, 'Redline to withdraw the review of a killed opencode');
    assert.equal(fs.readFileSync(file, 'utf8'), 'same\n');
  });

  test('(f) the plugin\'s redline gone: the edit fails and nothing is written', async () => {
    // A plugin installed by a redline that was since removed.
    const gone = path.join(await opencodeTempDir('rl-opencode-gone-'), 'redline');
    const plugin = fs.readFileSync(home.pluginFile, 'utf8');
    fs.writeFileSync(home.pluginFile, plugin.replace(/^const REDLINE = .*;$/m, `const REDLINE = ${JSON.stringify(gone)};`));
    try {
      const file = path.join(ws, 'f.txt');
      fs.writeFileSync(file, 'same\n');
      const p = await propose('write', { filePath: file, content: 'unreviewed\n' });
      const { told } = await resultOf(p);
      assert.equal(fs.readFileSync(file, 'utf8'), 'same\n');
      assert.match(told, /Redline could not review this edit .*so it was not made/s);
    } finally {
      fs.writeFileSync(home.pluginFile, plugin);
      await fsp.rm(path.dirname(gone), { recursive: true, force: true });
    }
  });

  test('(g) apply_patch (a GPT model) accepted with the user\'s changes: the file ends as edited and the model is told', async () => {
    const file = path.join(ws, 'g.txt');
    fs.writeFileSync(file, 'one\ntwo\nthree\n');
    const patchText = '*** Begin Patch\n*** Update File: g.txt\n@@\n one\n-two\n+TWO\n three\n*** End Patch';
    const p = await propose('apply_patch', { patchText }, { model: 'fake/gpt-5.5' });
    const review = await reviewOf(p, 'g.txt');
    const edited = path.join(r.dirs.root, 'g-edited.txt');
    const text = 'one\ntwo, the user\'s way\nthree\nfour\n';
    fs.writeFileSync(edited, text);
    await ok(['review', 'accept', String(review.id), '--content-file', edited]);
    const { told } = await resultOf(p);
    assert.equal(fs.readFileSync(file, 'utf8'), text);
    assert.match(told, /^Success\. Updated the following files:/);
    assert.match(told, /changed it before it was written: .*g\.txt/s);
  });

  // Every accept carries Redline's own args (the whole reviewed text for the whole accepted
  // one): opencode's loose replacers never decide what is written.
  for (const [i, { name, text, oldString, newString }] of [
    { name: 'crlf.txt', text: 'one\r\ntwo\r\nthree\r\n', oldString: 'two', newString: 'TWO' },
    { name: 'quotes.txt', text: 'say \u201chi\u201d\nand \'bye\'\n', oldString: 'say \u201chi\u201d', newString: 'say \u201chello\u201d' },
    { name: 'spaces.txt', text: 'x = 1\nx = 1  \n\tx = 1\n', oldString: 'x = 1  ', newString: 'x = 2' },
    { name: 'nonl.txt', text: 'first\nlast', oldString: 'last', newString: 'LAST' },
  ].entries()) {
    test(`(x${i}) every accept writes exactly the reviewed bytes: ${name}`, async () => {
      const file = path.join(ws, name);
      fs.writeFileSync(file, text);
      const p = await propose('edit', { filePath: file, oldString, newString });
      const review = await reviewOf(p, name);
      await ok(['review', 'accept', String(review.id)]);
      const { told } = await resultOf(p);
      assert.doesNotMatch(told, /error|denied|fail/i, told);
      assert.equal(fs.readFileSync(file, 'utf8'), text.split(oldString).join(newString));
    });
  }

  // Last: it stops Redline. The review ends undecided: a deny the model reads, nothing written
  // (before, the hook passed and opencode, whose edit permission is `allow`, wrote the file).
  test('(h) Redline stopped mid-review: the edit fails with why and nothing is written', async () => {
    const file = path.join(ws, 'h.txt');
    fs.writeFileSync(file, 'untouched\n');
    const p = await propose('write', { filePath: file, content: 'never\n' });
    await reviewOf(p, 'h.txt');
    await r.stop();
    const { told } = await resultOf(p);
    assert.match(told, /Redline did not let this edit through/, told);
    assert.equal(fs.readFileSync(file, 'utf8'), 'untouched\n');
  });
});
