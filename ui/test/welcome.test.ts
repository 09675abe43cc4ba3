import { afterEach, describe, expect, test } from 'vitest';
import { detail, fakeBackend, mount, reset, settle } from './helpers';
import type { DoctorLine } from '../src/types';

afterEach(reset);

const gemini: DoctorLine = {
  name: 'Gemini CLI', installed: true, version: '0.61.0', ok: true,
  reason: 'Gemini CLI will connect to Redline on port 4000', fix: null, fixWhere: 'shell',
};
const qwen: DoctorLine = {
  name: 'Qwen Code', installed: true, version: null, ok: false, reason: 'IDE mode is off in Qwen Code',
  fix: '/ide enable', fixWhere: 'cli',
};
const claude: DoctorLine = {
  name: 'Claude Code', installed: false, version: null, ok: true, reason: '`claude` is not on PATH', fix: null,
  fixWhere: 'shell',
};

describe('the welcome page', () => {
  test('first run: welcomes, offers to add a workspace, and the check follows the new one', async () => {
    const backend = fakeBackend([]);
    const { root } = await mount();
    await settle();
    const empty = root.querySelector<HTMLElement>('.empty')!;
    expect(empty.hidden).toBe(false);
    expect(empty.classList.contains('first-run')).toBe(true);
    expect(empty.querySelector('.empty-title')!.textContent).toBe('Welcome to Redline');
    expect(empty.querySelector('.ide-commands')!.textContent).toContain('/ide enable');
    expect(empty.querySelector('.ide-commands')!.textContent).toContain('claude --ide');
    // Each CLI Redline serves has its row in step 2.
    const rows = [...empty.querySelectorAll('.ide-commands tr')].map((r) => r.querySelector('td')!.textContent);
    // All nine, from their declarations (ui/src/clis.ts): Kiro CLI and Cursor CLI were missing.
    expect(rows).toEqual(['Gemini CLI', 'Qwen Code', 'Claude Code', 'Copilot CLI', 'Amp', 'Codex CLI', 'Kiro CLI',
      'Cursor CLI', 'opencode']);
    const kiro = [...empty.querySelectorAll('.ide-commands tr')][6];
    expect(kiro.querySelector('code')!.textContent).toBe('redline hooks install kiro');
    expect(backend.named('welcome')).toHaveLength(1);

    backend.folder = '/home/ana/src/app';
    backend.welcome = { workspace: null, lines: [gemini, qwen, claude] };
    empty.querySelector<HTMLButtonElement>('.add-workspace')!.click();
    await settle();
    // No workspace yet: the dialog opens in the home folder (the window's default).
    expect(backend.named('workspace_add')).toEqual([{ near: null }]);
    expect(empty.classList.contains('first-run')).toBe(false);
    expect(empty.querySelector('.ws-state')!.textContent).toBe('✓ /home/ana/src/app');
    expect(empty.querySelector('.doctor-for')!.textContent).toContain('/home/ana/src/app');
    const lines = [...empty.querySelectorAll('.doctor-line')];
    expect(lines.map((l) => l.className)).toEqual(['doctor-line ok', 'doctor-line bad', 'doctor-line absent']);
    expect(lines[1].querySelector('.fix')!.textContent).toBe('Fix, typed in Qwen Code: /ide enable');
    // The version shows beside an installed CLI's name when its package says.
    expect(lines[0].querySelector('.cli')!.textContent).toBe('Gemini CLI0.61.0');
    expect(lines[1].querySelector('.version')).toBeNull();
    expect(lines[2].querySelector('.reason')!.textContent).toBe('not installed (not on PATH)');
    // Another one: the dialog opens beside the newest workspace.
    empty.querySelector<HTMLButtonElement>('.add-workspace')!.click();
    await settle();
    expect(backend.named('workspace_add')[1]).toEqual({ near: '/home/ana/src/app' });
  });

  test('a cancelled picker adds nothing; "Check again" asks again', async () => {
    const backend = fakeBackend([]);
    backend.welcome = { workspace: '/w', lines: [qwen] };
    const { root } = await mount();
    await settle();
    root.querySelector<HTMLButtonElement>('.add-workspace')!.click();
    await settle();
    expect(backend.named('welcome')).toHaveLength(1);
    backend.welcome = { workspace: '/w', lines: [{ ...qwen, ok: true, fix: null, reason: 'Qwen Code will connect' }] };
    root.querySelector<HTMLButtonElement>('.recheck')!.click();
    await settle();
    expect(backend.named('welcome')).toHaveLength(2);
    expect(root.querySelector('.doctor-line')!.className).toBe('doctor-line ok');
  });

  test('is hidden while a review is pending, and checked again when the last one goes', async () => {
    const backend = fakeBackend([detail(1)]);
    const { root } = await mount();
    await settle();
    expect(root.querySelector<HTMLElement>('.empty')!.hidden).toBe(true);
    expect(backend.named('welcome')).toHaveLength(0);
    await backend.emit('review-resolved', { id: 1, outcome: 'accepted' });
    await settle();
    expect(root.querySelector<HTMLElement>('.empty')!.hidden).toBe(false);
    expect(backend.named('welcome')).toHaveLength(1);
  });

  test('live: a workspace added elsewhere, or the window shown again, checks again without a click', async () => {
    const backend = fakeBackend([]);
    const { root } = await mount();
    await settle();
    expect(backend.named('welcome')).toHaveLength(1);
    // `redline workspace add` in a terminal: the core tells the window.
    backend.welcome = { workspace: '/home/ana/src/app', lines: [qwen] };
    await backend.emit('workspaces-changed', null);
    await settle();
    expect(backend.named('welcome')).toHaveLength(2);
    expect(root.querySelector('.ws-state')!.textContent).toBe('✓ /home/ana/src/app');
    // `hooks install codex`, then `redline` again: the show brings a fresh check.
    backend.welcome = { workspace: '/home/ana/src/app', lines: [{ ...qwen, ok: true, fix: null, reason: 'fixed' }] };
    await backend.emit('shown', null);
    await settle();
    expect(backend.named('welcome')).toHaveLength(3);
    expect(root.querySelector('.doctor-line')!.className).toBe('doctor-line ok');
  });

  test('no check storm: a burst of changes runs one check and one more after it', async () => {
    const backend = fakeBackend([]);
    const { app } = await mount();
    await settle();
    const before = backend.named('welcome').length;
    await Promise.all([app.welcome.refresh(), app.welcome.refresh(), app.welcome.refresh(), app.welcome.refresh()]);
    expect(backend.named('welcome').length - before).toBe(2);
  });

  test('a change while a review is up does not check the hidden page', async () => {
    const backend = fakeBackend([detail(1)]);
    await mount();
    await settle();
    await backend.emit('workspaces-changed', null);
    await settle();
    expect(backend.named('welcome')).toHaveLength(0);
  });

  test('the title names the page: getting started, or the review and how many are pending', async () => {
    const backend = fakeBackend([]);
    await mount();
    await settle();
    expect(document.title).toBe('Redline — getting started');
    await backend.emit('review-added', detail(1));
    await settle();
    expect(document.title).toBe('Redline — review');
    await backend.emit('review-added', detail(2));
    await settle();
    expect(document.title).toBe('Redline — review (2 pending)');
  });
});

describe('a doctor line on the welcome page', () => {
  test('advice is shown as words, a command as code to copy', async () => {
    const { doctorItem } = await import('../src/welcome');
    const advice = doctorItem({
      name: 'Gemini CLI', installed: true, version: null, ok: false, reason: 'no workspace holds your home folder',
      fix: 'cd into your project, then run `redline workspace add .`', fixWhere: 'advice',
    });
    expect(advice.querySelector('.fix code')).toBeNull();
    expect(advice.querySelector('.fix')!.textContent).toBe('Fix: cd into your project, then run `redline workspace add .`');
    const typed = doctorItem(qwen);
    expect(typed.querySelector('.fix')!.textContent).toBe('Fix, typed in Qwen Code: /ide enable');
    expect(typed.querySelector('.fix code')!.textContent).toBe('/ide enable');
  });
});
