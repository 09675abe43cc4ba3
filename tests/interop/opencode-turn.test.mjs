// A whole turn of the real opencode TUI (opencode-ai 1.18.33) reviewed in Redline: its plugin
// installed by `redline hooks install opencode --review turn` checkpoints the workspace on
// `chat.message` and, when the session goes idle, runs the end-of-turn review and waits for it;
// a Continue with a comment becomes the session's next prompt (`client.session.prompt`). A
// subagent's session (the task tool's, which has a parent) begins no turn of its own: its work is
// in its parent's one turn and one review (without the plugin's check there are two).
// With `--review both`, each edit is reviewed before it lands too.
//
//   cd tests/interop && REDLINE_BIN=/path/to/redline node --test opencode-turn.test.mjs
//
// The TUI, not `opencode run`: `run` leaves as soon as its session goes idle (its event loop
// breaks on `session.status` idle), so nothing is left to take a Continue; the TUI is where a
// user's session goes on. Offline against opencode-fake-api.mjs, in a loopback-only network
// namespace when root; the plugin's `redline hook` reaches Redline through the control socket in
// Redline's XDG_RUNTIME_DIR (given to opencode, so the hook inherits it).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { pollUntil } from './lib/wait.mjs';
import { endOpencodeWithRedline, opencodeSkip, opencodeWithRedline, startOpencodeTui, OPENCODE_VERSION } from './opencode-driver.mjs';

const STEP_MS = 60_000;

const skip = await opencodeSkip();

describe(`a whole turn of opencode ${OPENCODE_VERSION} reviewed in Redline (--review turn)`, { skip, timeout: 300_000 }, () => {
  let api;
  let r;
  let ws;
  let home;
  let oc;

  before(async () => {
    // Its own permissions let the edit and the command run, as a user who lets the turn run and
    // reviews its end (Redline asks nothing about an edit in this mode).
    const configure = (h) => {
      const configFile = path.join(h.configDir, 'opencode.json');
      const config = JSON.parse(fs.readFileSync(configFile, 'utf8'));
      config.permission = { edit: 'allow', bash: 'allow' };
      fs.writeFileSync(configFile, JSON.stringify(config, null, 2));
    };
    let installEnv, res;
    ({ api, ws, r, home, installEnv, installed: res } = await opencodeWithRedline({ prefix: 'rl-opencode-turn-ws-', mode: 'turn', configure }));
    assert.equal(res.code, 0, `redline hooks install opencode --review turn: ${res.stderr}`);
    assert.match(res.stdout, /chat\.message: .* hook opencode --turn-start/);
    assert.match(res.stdout, /session\.idle: .* hook opencode --turn-review/);
    const plugin = fs.readFileSync(home.pluginFile, 'utf8');
    assert.ok(plugin.includes('const REVIEW = "turn";'), 'the plugin is the turn mode\'s');
    const status = JSON.parse((await r.run(['hooks', 'status', '--json'], { env: installEnv })).stdout);
    const mine = status.find((s) => s.cli === 'opencode');
    assert.deepEqual([mine.review, mine.current, mine.turnReview], ['turn', true, true]);
    oc = await startOpencodeTui({ cwd: ws, home, api, env: { XDG_RUNTIME_DIR: r.env.XDG_RUNTIME_DIR } });
    await oc.waitForScreen(/Ask anything/, STEP_MS, 'opencode to be ready');
  });

  after(() => endOpencodeWithRedline({ cli: oc, r, home, api, ws }));

  test('write, then a bash command making a file, in one turn: both listed; Continue with a comment reaches the model', async (t) => {
    const file = path.join(ws, 'a.txt');
    fs.writeFileSync(file, 'one\ntwo\n');
    try {
      const trigger = 'REDLINE-OPENCODE-TURN';
      const plan = api.addPlan({
        trigger,
        tool: 'write',
        args: { filePath: file, content: 'one\nTWO\n' },
        then: [{ tool: 'bash', args: { command: 'printf "made\\n" > made.txt', description: 'Make a file' } }],
        final: 'done T',
      });
      await oc.type(`${trigger} please`);
      await oc.waitForScreen(new RegExp(trigger), STEP_MS, 'the prompt typed');
      await oc.keys('Enter');
      await api.waitFor((q) => q.decision.kind === 'final' && q.decision.plan === plan, STEP_MS, 'the turn\'s last request');
      const [turn] = await pollUntil(async () => {
        const list = await r.json(['turns', 'list', ws, '--json']);
        return { ok: list.length === 1 && list[0].state === 'ended', value: list };
      }, STEP_MS, 'the turn to end');
      t.diagnostic(JSON.stringify(turn.files));
      assert.deepEqual(turn.files.map((f) => [f.path, f.status]).sort(), [['a.txt', 'modified'], ['made.txt', 'added']]);
      assert.equal(turn.cli, 'opencode');
      assert.equal(fs.readFileSync(file, 'utf8'), 'one\nTWO\n');
      assert.equal(fs.readFileSync(path.join(ws, 'made.txt'), 'utf8'), 'made\n');

      // The plugin waits on the review: a Continue becomes the session's next prompt.
      const [review] = await pollUntil(async () => {
        const list = await r.json(['review', 'list', '--json']);
        return { ok: list.length === 1, value: list };
      }, STEP_MS, 'the turn\'s review');
      assert.equal(review.kind, 'turn');
      assert.equal(review.turnId, turn.id);
      const mark = api.requests.length;
      const res = await r.run(['review', 'continue', String(review.id), '--comment', 'a.txt:2:REDLINE-C1 keep it lower case', '--reason', 'then stop']);
      assert.equal(res.code, 0, `redline review continue: ${res.stderr}`);
      const next = await api.waitFor(
        (q) => q.n > mark && JSON.stringify(q.body.messages ?? []).includes('REDLINE-C1'),
        STEP_MS,
        'the next request with the comment',
      );
      const last = next.body.messages[next.body.messages.length - 1];
      assert.equal(last.role, 'user');
      const said = JSON.stringify(last.content);
      t.diagnostic(`the model's next request ends with: ${said.slice(0, 300)}`);
      for (const want of ['Review comments', 'a.txt:2', '> TWO', 'REDLINE-C1 keep it lower case', 'then stop']) {
        assert.ok(said.includes(want), `${want} in ${said}`);
      }
      // The prompt the plugin sent runs chat.message again with the Continue's words: the turn
      // the Continue began goes on, and ends (nothing more changed: no review) at the next idle.
      const turns = await pollUntil(async () => {
        const list = await r.json(['turns', 'list', ws, '--json']);
        return { ok: list.length >= 2 && list.every((x) => x.state === 'ended'), value: list };
      }, STEP_MS, 'the turn after the Continue to end');
      assert.deepEqual(turns.map((x) => [x.id, x.files.length]), [[turn.id + 1, 0], [turn.id, 2]]);
      assert.deepEqual(await r.json(['review', 'list', '--json']), []);
    } catch (err) {
      err.message += `\n--- opencode screen ---\n${await oc?.screen().catch(() => '(none)')}\n--- redline ---\n${r?.stderr?.().slice(-3000)}`;
      throw err;
    }
  });

  test('a subagent\'s work (the task tool\'s own session) is its parent\'s turn: one turn, one review', async (t) => {
    const sub = path.join(ws, 'sub.txt');
    const before = (await r.json(['turns', 'list', ws, '--json'])).length;
    try {
      // The parent calls the task tool; the subagent's session gets the child's trigger as its
      // prompt and writes a file.
      const child = api.addPlan({ trigger: 'REDLINE-OPENCODE-CHILD', tool: 'write', args: { filePath: sub, content: 'sub\n' }, final: 'done C' });
      const parent = api.addPlan({
        trigger: 'REDLINE-OPENCODE-PARENT',
        tool: 'task',
        args: { description: 'Make a file', prompt: 'REDLINE-OPENCODE-CHILD go', subagent_type: 'general' },
        final: 'done P',
      });
      await oc.type('REDLINE-OPENCODE-PARENT please');
      await oc.waitForScreen(/REDLINE-OPENCODE-PARENT/, STEP_MS, 'the prompt typed');
      await oc.keys('Enter');
      await api.waitFor((q) => q.decision.kind === 'final' && q.decision.plan === child, STEP_MS, 'the subagent\'s last request');
      await api.waitFor((q) => q.decision.kind === 'final' && q.decision.plan === parent, STEP_MS, 'the parent\'s last request');
      const list = await pollUntil(async () => {
        const all = await r.json(['turns', 'list', ws, '--json']);
        return { ok: all.length > before && all.every((x) => x.state === 'ended'), value: all };
      }, STEP_MS, 'the parent\'s turn to end');
      assert.equal(list.length, before + 1, `one turn, not one for the subagent too: ${JSON.stringify(list)}`);
      assert.deepEqual(list[0].files.map((f) => [f.path, f.status]), [['sub.txt', 'added']]);
      assert.equal(fs.readFileSync(sub, 'utf8'), 'sub\n');
      const reviews = await pollUntil(async () => {
        const open = await r.json(['review', 'list', '--json']);
        return { ok: open.length >= 1, value: open };
      }, STEP_MS, 'the turn\'s review');
      assert.deepEqual(reviews.map((x) => [x.kind, x.turnId]), [['turn', list[0].id]]);
      // Done: the plugin sends nothing, and nothing else opens.
      const mark = api.requests.length;
      const res = await r.run(['review', 'accept', String(reviews[0].id)]);
      assert.equal(res.code, 0, `redline review accept: ${res.stderr}`);
      await pollUntil(async () => {
        const open = await r.json(['review', 'list', '--json']);
        return { ok: open.length === 0, value: open };
      }, STEP_MS, 'the review to close');
      assert.equal(api.requests.length, mark, 'Done sends the model nothing');
      t.diagnostic(`isolated in a loopback-only namespace: ${oc.isolated}`);
    } catch (err) {
      err.message += `\n--- opencode screen ---\n${await oc?.screen().catch(() => '(none)')}\n--- redline ---\n${r?.stderr?.().slice(-3000)}`;
      throw err;
    }
  });
});

describe(`opencode ${OPENCODE_VERSION} with --review both: each edit, then the turn`, { skip, timeout: 300_000 }, () => {
  let api;
  let r;
  let ws;
  let home;
  let oc;

  before(async () => {
    let res;
    ({ api, ws, r, home, installed: res } = await opencodeWithRedline({ prefix: 'rl-opencode-both-ws-', mode: 'both' }));
    assert.equal(res.code, 0, `redline hooks install opencode --review both: ${res.stderr}`);
    assert.ok(fs.readFileSync(home.pluginFile, 'utf8').includes('const REVIEW = "both";'));
    oc = await startOpencodeTui({ cwd: ws, home, api, env: { XDG_RUNTIME_DIR: r.env.XDG_RUNTIME_DIR } });
    await oc.waitForScreen(/Ask anything/, STEP_MS, 'opencode to be ready');
  });

  after(() => endOpencodeWithRedline({ cli: oc, r, home, api, ws }));

  test('the write is reviewed before it lands, then the turn at its end; Done sends nothing', async () => {
    const file = path.join(ws, 'b.txt');
    fs.writeFileSync(file, 'one\n');
    try {
      const plan = api.addPlan({ trigger: 'REDLINE-OPENCODE-BOTH', tool: 'write', args: { filePath: file, content: 'ONE\n' }, final: 'done B' });
      await oc.type('REDLINE-OPENCODE-BOTH please');
      await oc.waitForScreen(/REDLINE-OPENCODE-BOTH/, STEP_MS, 'the prompt typed');
      await oc.keys('Enter');
      const [edit] = await pollUntil(async () => {
        const open = await r.json(['review', 'list', '--json']);
        return { ok: open.length === 1 && open[0].filePath === file, value: open };
      }, STEP_MS, 'the write\'s own review');
      // opencode awaits the plugin: nothing written before the decision.
      assert.equal(fs.readFileSync(file, 'utf8'), 'one\n');
      let res = await r.run(['review', 'accept', String(edit.id)]);
      assert.equal(res.code, 0, `redline review accept: ${res.stderr}`);
      await api.waitFor((q) => q.decision.kind === 'final' && q.decision.plan === plan, STEP_MS, 'the turn\'s last request');
      const [turnReview] = await pollUntil(async () => {
        const open = await r.json(['review', 'list', '--json']);
        return { ok: open.length === 1 && open[0].kind === 'turn', value: open };
      }, STEP_MS, 'the turn\'s review');
      const [turn] = await r.json(['turns', 'list', ws, '--json']);
      assert.equal(turnReview.turnId, turn.id);
      assert.deepEqual(turn.files.map((f) => [f.path, f.status]), [['b.txt', 'modified']]);
      assert.equal(fs.readFileSync(file, 'utf8'), 'ONE\n');
      const mark = api.requests.length;
      res = await r.run(['review', 'accept', String(turnReview.id)]);
      assert.equal(res.code, 0, `redline review accept: ${res.stderr}`);
      await pollUntil(async () => {
        const open = await r.json(['review', 'list', '--json']);
        return { ok: open.length === 0, value: open };
      }, STEP_MS, 'the turn\'s review to close');
      assert.equal(api.requests.length, mark, 'Done sends the model nothing');
    } catch (err) {
      err.message += `\n--- opencode screen ---\n${await oc?.screen().catch(() => '(none)')}\n--- redline ---\n${r?.stderr?.().slice(-3000)}`;
      throw err;
    }
  });
});
