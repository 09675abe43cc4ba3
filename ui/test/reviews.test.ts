import { describe, expect, test } from 'vitest';
import { baseName, clientLabel, clientTitle, countsLabel, describe as describeReview, ReviewList, workspaceLabel } from '../src/reviews';
import { detail } from './helpers';

describe('labels', () => {
  test('counts use a real minus sign', () => {
    expect(countsLabel(3, 1)).toBe('+3 \u22121');
  });
  test('client shows name and version', () => {
    expect(clientLabel({ name: 'gemini-cli', version: '0.9.1', process: null })).toBe('gemini-cli 0.9.1');
    expect(clientLabel({ name: 'qwen-code', version: '', process: null })).toBe('qwen-code');
    // Copilot CLI titles its session: the label says which one, cut to stay one line.
    expect(clientLabel({ name: 'copilot-cli', version: '1.0.102', process: null, sessionName: 'Fix the parser' }))
      .toBe('copilot-cli 1.0.102 · “Fix the parser”');
    expect(clientLabel({ name: 'copilot-cli', version: '', process: null, sessionName: 'x'.repeat(60) }))
      .toBe(`copilot-cli · “${'x'.repeat(39)}…”`);
    const process = { pid: 42, program: 'Qwen Code', version: '0.24.4', cwd: '/src/app', tty: '/dev/pts/3', tmux: null };
    const asked = { name: 'streamable-http-client', version: '1.0.0', process };
    expect(clientLabel(asked)).toBe('Qwen Code 0.24.4 · /dev/pts/3');
    expect(clientLabel({ ...asked, process: { ...process, tmux: 'main:1.0' } })).toBe('Qwen Code 0.24.4 · tmux main:1.0');
    expect(clientTitle(asked)).toContain('pid 42');
    expect(clientTitle(asked)).toContain('in /src/app');
  });
  test('a redline command is named as such, with what ran it, never as the shell alone', () => {
    const shell = { pid: 7, program: 'bash', version: null, cwd: '/src/app', tty: '/dev/pts/3', tmux: null };
    const propose = { name: 'redline propose', version: '0.1.0', process: shell, command: true };
    expect(clientLabel(propose)).toBe('redline propose (run by bash · /dev/pts/3)');
    expect(clientLabel({ ...propose, process: null })).toBe('redline propose');
  });
  test('workspace and file names are the last path segment', () => {
    expect(workspaceLabel('/home/ana/src/redline/')).toBe('redline');
    expect(workspaceLabel('C:\\Users\\ana\\webapp')).toBe('webapp');
    expect(baseName('src/lib/retry.ts')).toBe('retry.ts');
  });
  test('a description names everything a tab stands for', () => {
    const list = new ReviewList();
    list.upsert(detail(1, { newFile: true, added: 20, removed: 0 }));
    expect(describeReview(list.get(1)!)).toBe(
      'src/file1.rs in /home/ana/src/redline, from gemini-cli 0.9.1, new file, +20 \u22120');
  });
});

describe('ReviewList', () => {
  test('the first review is selected; later arrivals are marked fresh, not selected', () => {
    const list = new ReviewList();
    expect(list.upsert(detail(1), true)).toBe('added');
    expect(list.upsert(detail(2), true)).toBe('added');
    expect(list.selected).toBe(1);
    expect(list.get(1)!.fresh).toBe(false);
    expect(list.get(2)!.fresh).toBe(true);
    list.select(2);
    expect(list.get(2)!.fresh).toBe(false);
  });

  test('reviews listed at start are not fresh', () => {
    const list = new ReviewList();
    list.upsert(detail(1));
    list.upsert(detail(2));
    expect(list.get(2)!.fresh).toBe(false);
  });

  test('a refresh keeps the user\'s text; a new proposal replaces it', () => {
    const list = new ReviewList();
    list.upsert(detail(1));
    list.get(1)!.text = 'edited';
    expect(list.upsert(detail(1, { added: 5, removed: 2 }))).toBe('refreshed');
    expect(list.get(1)!.text).toBe('edited');
    expect(list.get(1)!.added).toBe(5);
    expect(list.upsert(detail(1, { proposal: 'other', current: 'other' }))).toBe('replaced');
    expect(list.get(1)!.text).toBe('other');
  });

  test('removing the selected review selects its right neighbour, else the left one', () => {
    const list = new ReviewList();
    for (const id of [1, 2, 3]) list.upsert(detail(id));
    list.select(2);
    list.remove(2);
    expect(list.selected).toBe(3);
    list.remove(3);
    expect(list.selected).toBe(1);
    list.remove(1);
    expect(list.selected).toBeNull();
    expect(list.size).toBe(0);
  });

  test('neighbour wraps around', () => {
    const list = new ReviewList();
    for (const id of [1, 2, 3]) list.upsert(detail(id));
    expect(list.neighbour(1)).toBe(2);
    expect(list.neighbour(-1)).toBe(3);
    list.select(3);
    expect(list.neighbour(1)).toBe(1);
  });
});
