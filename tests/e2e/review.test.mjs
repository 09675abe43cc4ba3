// The review window in the real webview (WebKitGTK under Xvfb, driven through tauri-driver),
// answering the real Gemini CLI IdeClient (@google/gemini-cli-core 0.61.0).

import assert from 'node:assert/strict';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';

import {
  clickTab, cleanups, desktop, GEMINI_CORE_VERSION, makeWorkspace, summary, TEST_TIMEOUT_MS, typeAtEnd,
  UI_TIMEOUT_MS, waitReview, waitTabs, withAppLog, whoAsked,
} from './lib/fixtures.mjs';
import { Key } from './lib/webdriver.mjs';
import { poll } from './lib/poll.mjs';
import { reviewWindow } from './lib/x11.mjs';

const GREET = `pub fn greet(name: &str) -> String {
    format!("Hello, {name}")
}
`;
const GREET_PROPOSAL = `/// Greets \`name\` politely.
pub fn greet(name: &str) -> String {
    format!("Hello, {name}!")
}
`;

async function assertNothingPending(d) {
  assert.deepEqual(await d.json(['review', 'list', '--json']), []);
}

/** The diff decisions a client was sent (ide/contextUpdate left out). */
function diffNotifications(g, from = 0) {
  return g.notifications(from).filter((n) => n.method.startsWith('ide/diff'));
}

/** The window is mapped on the display, or (visible = false) not. */
async function waitWindow(d, visible) {
  return poll(async () => ((await reviewWindow(d)) !== null) === visible,
    { timeoutMs: UI_TIMEOUT_MS, what: `the review window to be ${visible ? 'shown' : 'hidden'}` });
}

test('accept with an edit typed in the proposal: the client gets exactly the edited text', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const later = cleanups(t);
  const ws = await makeWorkspace(later, 'greeter', { 'src/greet.rs': GREET });
  const d = await desktop(t, later, { workspaces: [ws] });
  await withAppLog(d, async () => {
    const { wd } = d;
    assert.equal(await reviewWindow(d), null, 'the window is hidden until a review arrives');
    // The test desktop has a Secret Service, as a user's does.
    assert.equal(d.status.keyring.available, true, JSON.stringify(d.status.keyring));
    assert.equal(d.status.workspaces[0].tokenStore, 'keyring');
    const g = await d.gemini(ws);
    const file = path.join(ws, 'src', 'greet.rs');
    const diff = g.openDiff(file, GREET_PROPOSAL);
    await diff.started;

    await waitWindow(d, true);
    const [tab] = await waitTabs(wd, ['greet.rs']);
    assert.equal(tab.selected, true);
    const pending = await waitReview(d, file);
    assert.equal(pending.client.version, GEMINI_CORE_VERSION);
    // The process behind the connection: the Node process driving IdeClient.
    assert.equal(pending.client.process?.program, 'node', JSON.stringify(pending.client));
    assert.deepEqual(await summary(wd), {
      workspace: 'greeter',
      path: 'src/greet.rs',
      // Who asked: the process behind the connection (here the Node driver of IdeClient).
      client: whoAsked(pending.client),
      fullPath: file,
    });
    assert.equal(await wd.execute('return document.visibilityState'), 'visible');

    const typed = ['// Reviewed in Redline.'];
    await typeAtEnd(wd, typed);
    await wd.clickOn('.review .actions .accept');

    const result = await diff.result;
    assert.deepEqual(result, { status: 'accepted', content: `${GREET_PROPOSAL}${typed.join('\n')}\n` });
    await waitTabs(wd, []);
    await assertNothingPending(d);
    // The last review answered, the window goes away (keepOpen is off by default).
    await waitWindow(d, false);
    // Redline never writes the file: the CLI does.
    assert.equal(await fsp.readFile(file, 'utf8'), GREET);
  });
});

test('closing the tab (its ×) rejects: the client gets {status: rejected}', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const later = cleanups(t);
  const ws = await makeWorkspace(later, 'greeter', { 'src/greet.rs': GREET });
  const d = await desktop(t, later, { workspaces: [ws] });
  await withAppLog(d, async () => {
    const { wd } = d;
    const g = await d.gemini(ws);
    const file = path.join(ws, 'src', 'greet.rs');
    const diff = g.openDiff(file, GREET_PROPOSAL);
    await diff.started;
    await waitTabs(wd, ['greet.rs']);
    await clickTab(wd, 'greet.rs', '.tab-close');
    assert.deepEqual(await diff.result, { status: 'rejected' });
    await waitTabs(wd, []);
    await assertNothingPending(d);
    assert.deepEqual(diffNotifications(g).map((n) => n.method), ['ide/diffRejected']);
  });
});

test('answered in the terminal (resolveDiffFromCli): the tab leaves at once, the client gets the edited text', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const later = cleanups(t);
  const ws = await makeWorkspace(later, 'greeter', { 'src/greet.rs': GREET });
  const d = await desktop(t, later, { workspaces: [ws] });
  await withAppLog(d, async () => {
    const { wd } = d;
    const g = await d.gemini(ws);
    const file = path.join(ws, 'src', 'greet.rs');
    const diff = g.openDiff(file, GREET_PROPOSAL);
    await diff.started;
    await waitTabs(wd, ['greet.rs']);
    const { id } = await waitReview(d, file);

    // An edit in the window reaches Redline (pushed after a pause in typing), then the user
    // answers "Allow" in the terminal: the CLI takes Redline's current text.
    const typed = ['// Edited in the window, allowed in the terminal.'];
    await typeAtEnd(wd, typed);
    await poll(async () => (await d.run(['review', 'show', String(id)])).stdout.includes(`+${typed[0]}`),
      { timeoutMs: UI_TIMEOUT_MS, what: 'the edit to reach Redline (redline review show)' });

    const from = g.events.length;
    await g.resolveDiffFromCli(file, 'accepted');
    const answeredAt = Date.now();
    await waitTabs(wd, [], 5_000);
    t.diagnostic(`tab gone ${Date.now() - answeredAt} ms after the terminal's answer`);
    assert.deepEqual(await diff.result, { status: 'accepted', content: `${GREET_PROPOSAL}${typed[0]}\n` });
    await assertNothingPending(d);
    // closeDiff carries the answer: no notification may race it.
    assert.deepEqual(diffNotifications(g, from), []);
    await waitWindow(d, false);
  });
});

test('two clients, two files, two tabs: one accepted with an edit, one rejected, each client gets its own answer', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const later = cleanups(t);
  const ws = await makeWorkspace(later, 'shop', {
    'src/cart.py': 'def total(items):\n    return sum(i.price for i in items)\n',
    'README.md': '# Shop\n\nA small shop.\n',
  });
  const d = await desktop(t, later, { workspaces: [ws] });
  await withAppLog(d, async () => {
    const { wd } = d;
    const [a, b] = [await d.gemini(ws, 'gemini-a'), await d.gemini(ws, 'gemini-b')];
    const cart = path.join(ws, 'src', 'cart.py');
    const readme = path.join(ws, 'README.md');
    const cartProposal = 'def total(items):\n    """The sum of the prices."""\n    return sum(i.price for i in items)\n';
    const readmeProposal = '# Shop\n\nA small shop, now with a cart.\n';

    const diffA = a.openDiff(cart, cartProposal);
    await diffA.started;
    await waitTabs(wd, ['cart.py']);
    const diffB = b.openDiff(readme, readmeProposal);
    await diffB.started;
    const both = await waitTabs(wd, ['cart.py', 'README.md']);
    assert.deepEqual(both.map((x) => x.selected), [true, false], 'the first review stays in front');
    assert.equal((await d.json(['review', 'list', '--json'])).length, 2);

    // The second tab, then back to the first: the editor follows the selected tab.
    await clickTab(wd, 'README.md');
    await wd.until(async () => (await summary(wd)).path === 'README.md', { timeoutMs: UI_TIMEOUT_MS, what: 'README.md in front' });
    await clickTab(wd, 'cart.py');
    await wd.until(async () => (await summary(wd)).path === 'src/cart.py', { timeoutMs: UI_TIMEOUT_MS, what: 'cart.py in front' });

    // Accept cart.py with an edit, from the keyboard (Ctrl+S).
    const typed = ['', 'MAX_ITEMS = 100'];
    await typeAtEnd(wd, typed);
    const editor = await wd.waitFor('.cm-merge-b .cm-content');
    await wd.sendKeys(editor, `${Key.Control}s${Key.Control}`);
    const resultA = await diffA.result;
    assert.equal(resultA.status, 'accepted');
    assert.equal(resultA.content, `${cartProposal}\nMAX_ITEMS = 100\n`);

    const [left] = await waitTabs(wd, ['README.md']);
    assert.equal(left.selected, true);
    await wd.until(async () => (await summary(wd)).path === 'README.md', { timeoutMs: UI_TIMEOUT_MS, what: 'README.md in front' });
    await wd.clickOn('.review .actions .reject');
    assert.deepEqual(await diffB.result, { status: 'rejected' });

    await waitTabs(wd, []);
    await assertNothingPending(d);
    // Each answer went to its own client only.
    assert.deepEqual(diffNotifications(a).map((n) => [n.method, n.params.filePath]), [['ide/diffAccepted', cart]]);
    assert.deepEqual(diffNotifications(b).map((n) => [n.method, n.params.filePath]), [['ide/diffRejected', readme]]);
  });
});
