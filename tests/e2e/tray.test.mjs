// The tray icon and its menu, clicked for real: `trayer` is the X tray host on the test's Xvfb
// display (no StatusNotifier host on D-Bus, so the app's tray falls back to an XEmbed icon),
// xdotool moves and clicks the pointer, ImageMagick takes the screenshots.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { poll } from './lib/poll.mjs';
import {
  cleanups, desktop, makeWorkspace, SHOTS_DIR, TEST_TIMEOUT_MS, waitTabs, withAppLog,
} from './lib/fixtures.mjs';
import { backdrop, changedBox, click, keys, moveMouse, reviewWindow, screenshot, visibleWindows } from './lib/x11.mjs';

const SCREEN = { width: 2000, height: 1000 };
const MENU_TIMEOUT_MS = 10_000;

/** The tray icon once trayer has embedded it (a visible window inside the top bar). */
function trayIcon(d) {
  return poll(async () => (await visibleWindows(d, ['--class', '^tray-icon']))
    .find((w) => w.width >= 16 && w.height >= 16 && w.y < 32 && w.x > 0) ?? null,
  { timeoutMs: MENU_TIMEOUT_MS, what: 'the tray icon embedded in trayer' });
}

/** The open tray menu: a GTK popup window of the app (named after it), bigger than the icon. */
function menuWindow(d) {
  return visibleWindows(d, ['--name', '^redline$']).then((ws) => ws.find((w) => w.width > 100 && w.height > 100) ?? null);
}

async function openMenu(d, icon, timeoutMs = MENU_TIMEOUT_MS) {
  await click(d, icon.x + icon.width / 2, icon.y + icon.height / 2);
  const menu = await poll(() => menuWindow(d), { timeoutMs, what: 'the tray menu to open' });
  // The menu drops down below the bar, under the icon.
  assert.ok(menu.y >= icon.y + icon.height - 2, `menu ${JSON.stringify(menu)} is not below the icon ${JSON.stringify(icon)}`);
  assert.ok(menu.x <= icon.x + icon.width && menu.x + menu.width >= icon.x, `menu ${JSON.stringify(menu)} is not under the icon`);
  return menu;
}

/**
 * Clicks a menu item with the pointer. GTK draws no names we could search for, so the item is
 * first found with the keyboard (`keyNames` from the top or bottom of the menu, skipping
 * disabled rows and separators as GTK does): the row it highlights is the only change on
 * screen, and the pointer clicks the middle of that row.
 */
async function clickItem(d, menu, keyNames, tmp) {
  const plain = await screenshot(d, path.join(tmp, 'menu-plain.png'), menu);
  await keys(d, ...keyNames);
  const row = await poll(async () => {
    const box = await changedBox(d, plain, await screenshot(d, path.join(tmp, 'menu-selected.png'), menu));
    return box && box.height >= 12 && box.height <= 60 ? box : null;
  }, { timeoutMs: MENU_TIMEOUT_MS, what: `a highlighted menu row after ${keyNames.join(' ')}` });
  await click(d, menu.x + row.x + row.width / 2, menu.y + row.y + row.height / 2);
  await poll(async () => (await menuWindow(d)) === null, { timeoutMs: MENU_TIMEOUT_MS, what: 'the menu to close after the click' });
}

test('tray: the icon opens the menu; "Start at login", a workspace check mark and a workspace added by a command', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const later = cleanups(t);
  const ws = await makeWorkspace(later, 'webshop', { 'src/cart.ts': 'export const total = 0;\n' });
  const d = await desktop(t, later, { workspaces: [ws], tray: true, screen: SCREEN });
  await withAppLog(d, async () => {
    const tmp = path.join(d.dirs.root, 'shots');
    await backdrop(d, SCREEN, path.join(d.dirs.root, 'backdrop.png'));

    // A pending review: the icon gets its badge and the menu's first item offers to open it.
    const g = await d.gemini(ws);
    const diff = g.openDiff(path.join(ws, 'src', 'cart.ts'), 'export const total = 42;\n');
    await diff.started;
    await waitTabs(d.wd, ['cart.ts']);

    const icon = await trayIcon(d);
    const area = { x: SCREEN.width - 600, y: 0, width: 600, height: 500 };
    const before = await screenshot(d, path.join(tmp, 'before.png'), area);
    let menu = await openMenu(d, icon);
    assert.ok(menu.x >= area.x && menu.y + menu.height <= area.height, `the menu ${JSON.stringify(menu)} lies outside ${JSON.stringify(area)}`);
    // Let GTK paint the whole menu: the screen changes where the menu is, nowhere else.
    const changed = await poll(async () => {
      const box = await changedBox(d, before, await screenshot(d, path.join(tmp, 'open.png'), area));
      return box && box.width >= menu.width - 2 && box.height >= menu.height - 2 ? box : null;
    }, { timeoutMs: MENU_TIMEOUT_MS, what: 'the menu painted on screen' });
    assert.ok(changed.x + area.x <= menu.x + 1 && changed.y <= menu.y + 1, `changes ${JSON.stringify(changed)}, menu ${JSON.stringify(menu)}`);
    assert.ok(changed.x + area.x + changed.width <= SCREEN.width && changed.y + changed.height <= menu.y + menu.height + 1,
      `changes ${JSON.stringify(changed)} outside the menu ${JSON.stringify(menu)}`);
    // For the docs: the menu, the top bar with the icon, a margin of desktop.
    const margin = 40;
    const shot = await screenshot(d, path.join(SHOTS_DIR, 'tray-menu.png'), {
      x: menu.x - margin, y: 0, width: SCREEN.width - menu.x + margin, height: menu.y + menu.height + margin,
    });
    t.diagnostic(`tray menu at ${menu.x},${menu.y} ${menu.width}x${menu.height}; screenshot ${shot}`);

    // "Start at login", the second item from the bottom (above "Quit Redline").
    const autostart = path.join(d.dirs.home, '.config', 'autostart', 'Redline.desktop');
    assert.equal(fs.existsSync(autostart), false);
    await clickItem(d, menu, ['Up', 'Up'], tmp);
    await poll(() => fs.existsSync(autostart), { timeoutMs: MENU_TIMEOUT_MS, what: `${autostart} to be written` });
    const entry = fs.readFileSync(autostart, 'utf8');
    assert.match(entry, /^\[Desktop Entry\]/);
    assert.ok(entry.split('\n').some((l) => l.trim() === `Exec=${d.bin}`), entry);

    // Again: off, the file goes.
    menu = await openMenu(d, icon);
    await clickItem(d, menu, ['Up', 'Up'], tmp);
    await poll(() => !fs.existsSync(autostart), { timeoutMs: MENU_TIMEOUT_MS, what: `${autostart} to be removed` });

    // The review answered, the first item is a disabled note and the workspace's check mark is
    // the first enabled item. Off: its server stops and its discovery files go.
    await d.wd.clickOn('.review .actions .reject');
    assert.deepEqual(await diff.result, { status: 'rejected' });
    const [files] = (await d.json(['status', '--json'])).workspaces.map((w) => w.discoveryFiles);
    assert.ok(files.length >= 1 && files.every((f) => fs.existsSync(f)), JSON.stringify(files));
    menu = await openMenu(d, icon);
    await clickItem(d, menu, ['Down'], tmp);
    const off = await poll(async () => {
      const [w] = (await d.json(['status', '--json'])).workspaces;
      return w.port === null ? w : null;
    }, { timeoutMs: MENU_TIMEOUT_MS, what: 'the workspace to be off in redline status' });
    assert.equal(off.enabled, false);
    assert.deepEqual(off.discoveryFiles, []);
    for (const f of files) assert.equal(fs.existsSync(f), false, `${f} is still there`);

    // A workspace added from a terminal shows in the menu too: one more row, a taller menu.
    const closed = async () => {
      await keys(d, 'Escape');
      await poll(async () => (await menuWindow(d)) === null, { timeoutMs: MENU_TIMEOUT_MS, what: 'the menu to close' });
      // Off the icon: xdotool's --sync waits for a move, and the next click is on the icon.
      await moveMouse(d, icon.x - 200, icon.y + 300);
    };
    menu = await openMenu(d, icon);
    const rows = menu.height;
    await closed();
    const second = await makeWorkspace(later, 'blog', { 'index.md': '# blog\n' });
    const added = await d.run(['workspace', 'add', second]);
    assert.equal(added.code, 0, added.stderr);
    // A click as the new menu replaces the old opens neither (a user clicks again; so does this).
    await poll(async () => {
      const m = await openMenu(d, icon, 2_000).catch(() => null);
      if (m) await closed();
      else await moveMouse(d, icon.x - 200, icon.y + 300);
      return m && m.height > rows ? m : null;
    }, { timeoutMs: 3 * MENU_TIMEOUT_MS, what: `the menu to grow past ${rows} px with the workspace added by a command` });
  });
});

test('tray: with a workspace and nothing pending, "Getting started…" opens the window on the welcome page', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const later = cleanups(t);
  const ws = await makeWorkspace(later, 'webshop', { 'src/cart.ts': 'export const total = 0;\n' });
  const d = await desktop(t, later, { workspaces: [ws], tray: true, screen: SCREEN });
  await withAppLog(d, async () => {
    const tmp = path.join(d.dirs.root, 'shots');
    assert.equal(await reviewWindow(d), null, 'the window is not on screen before the click');
    const icon = await trayIcon(d);
    const menu = await openMenu(d, icon);
    const margin = 40;
    const shot = await screenshot(d, path.join(SHOTS_DIR, 'tray-menu-set-up.png'), {
      x: menu.x - margin, y: 0, width: SCREEN.width - menu.x + margin, height: menu.y + menu.height + margin,
    });
    t.diagnostic(`tray menu with a workspace: ${shot}`);
    // Third from the bottom: above "Start at login" and "Quit Redline".
    await clickItem(d, menu, ['Up', 'Up', 'Up'], tmp);
    await poll(() => reviewWindow(d), { timeoutMs: MENU_TIMEOUT_MS, what: 'the window opened by "Getting started…"' });
    await d.wd.until(() => d.wd.execute("return !document.querySelector('.empty').hidden"),
      { timeoutMs: MENU_TIMEOUT_MS, what: 'the welcome page' });
    assert.equal(await d.wd.execute('return document.title'), 'Redline — getting started');
  });
});
