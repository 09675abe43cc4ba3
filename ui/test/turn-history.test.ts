import { describe, expect, test, vi } from 'vitest';
import { historyLabel, TurnsHistory, when } from '../src/turn-history';
import type { HistoryTurn } from '../src/types';

const row = (turn: number, started: number, over: Partial<HistoryTurn> = {}): HistoryTurn => ({
  workspace: '/home/u/proj', turn, cli: 'codex', session: 's1', started, ended: started + 1000,
  running: false, files: 3, added: 12, removed: 4, ...over,
});

describe('the Turns view', () => {
  test('says each turn: CLI, session, time, files, +/− and state', () => {
    expect(when(Date.UTC(2026, 10, 29, 8, 41))).toBe('2026-11-29 08:41Z');
    expect(historyLabel(row(7, Date.UTC(2026, 10, 29, 8, 41)))).toEqual({
      cli: 'codex', session: 's1', time: '2026-11-29 08:41Z', files: '3 files', lines: '+12 −4', state: 'turn 7 of proj',
    });
    const running = historyLabel(row(8, 0, { running: true, files: 0 }));
    expect([running.files, running.lines, running.state]).toEqual(['', '', 'running in proj']);
    expect(historyLabel(row(9, 0, { files: 1 })).files).toBe('1 file');
  });

  test('lists the turns in the order the core gives (newest first), opening one on click', async () => {
    const holder = document.createElement('div');
    const open = vi.fn();
    const rows = [row(9, 3000), row(8, 2000, { running: true }), row(2, 1000, { workspace: '/w/other' })];
    const history = new TurnsHistory(holder, open, () => Promise.resolve(rows));
    await history.refresh();
    const buttons = [...holder.querySelectorAll<HTMLButtonElement>('.history-row')];
    expect(buttons.map((b) => b.querySelector('.state')!.textContent)).toEqual(['turn 9 of proj', 'running in proj', 'turn 2 of other']);
    expect(buttons[1].disabled).toBe(true);
    buttons[2].click();
    expect(open).toHaveBeenCalledWith(rows[2]);
  });

  test('says when there is no turn, or the list failed', async () => {
    const holder = document.createElement('div');
    await new TurnsHistory(holder, vi.fn(), () => Promise.resolve([])).refresh();
    expect(holder.textContent).toBe('No turns kept yet.');
    await new TurnsHistory(holder, vi.fn(), () => Promise.reject(new Error('gone'))).refresh();
    expect(holder.textContent).toContain('Could not list the turns');
  });
});

describe('the Turns page', () => {
  test('opens a turn asked for by workspace and id, listed or not', async () => {
    const { mountTurnsPage } = await import('../src/turn-history');
    const root = document.createElement('div');
    const made = vi.fn();
    const page = mountTurnsPage(root, made);
    page.history.refresh = () => Promise.resolve();
    page.history.rows = [row(4, 1000)];
    page.openTurn('/home/u/proj', 4);
    await vi.waitFor(() => expect(made).toHaveBeenCalledTimes(1));
    expect(made.mock.calls[0][1]).toBe(page.history.rows[0]);
    expect(root.querySelector<HTMLElement>('.turns-page')!.hidden).toBe(false);
    page.openTurn('/w/other', 9);
    await vi.waitFor(() => expect(made).toHaveBeenCalledTimes(2));
    expect(made.mock.calls[1][1]).toMatchObject({ workspace: '/w/other', turn: 9 });
  });

  test('the Turns button goes in the top bar before the settings, never over them', async () => {
    const { mountTurnsPage } = await import('../src/turn-history');
    const root = document.createElement('div');
    root.innerHTML = '<header class="topbar"><div class="tabs"></div><button class="settings-toggle"></button></header>';
    const gear = root.querySelector('.settings-toggle')!;
    mountTurnsPage(root, vi.fn(), gear);
    expect(gear.previousElementSibling!.className).toBe('turns-open');
    expect(root.querySelector('.turns-page')!.parentElement).toBe(root);
  });
});
