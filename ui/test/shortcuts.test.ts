// Which key press is which shortcut, and which keys the window leaves to the page and CodeMirror.
import { describe, expect, test } from 'vitest';
import { type Shortcut, shortcutOf } from '../src/shortcuts';

type Press = Partial<Pick<KeyboardEvent, 'key' | 'code' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>>;
const press = (p: Press) => shortcutOf({ key: '', code: '', ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...p });

describe('shortcutOf', () => {
  test.each<[string, Press, Shortcut]>([
    ['Ctrl+S', { key: 's', ctrlKey: true }, 'accept'],
    ['Ctrl+Shift-less capital S', { key: 'S', ctrlKey: true }, 'accept'],
    ['⌘S', { key: 's', metaKey: true }, 'accept'],
    ['Ctrl+Enter', { key: 'Enter', ctrlKey: true }, 'accept'],
    ['Ctrl+Alt+K (by code, whatever the layout types)', { key: '˚', code: 'KeyK', ctrlKey: true, altKey: true }, 'ask'],
    ['Ctrl+Alt+E', { key: 'e', code: 'KeyE', ctrlKey: true, altKey: true }, 'openInEditor'],
    ['Ctrl+Alt+R', { key: 'r', code: 'KeyR', ctrlKey: true, altKey: true }, 'rejectWithReason'],
    ['⌘⌥R (by code: macOS types ®)', { key: '®', code: 'KeyR', metaKey: true, altKey: true }, 'rejectWithReason'],
    ['F7', { key: 'F7' }, 'nextChange'],
    ['Shift+F7', { key: 'F7', shiftKey: true }, 'previousChange'],
    ['Alt+↓', { key: 'ArrowDown', altKey: true }, 'nextChange'],
    ['Alt+↑', { key: 'ArrowUp', altKey: true }, 'previousChange'],
    ['Ctrl+PageDown', { key: 'PageDown', ctrlKey: true }, 'nextTab'],
    ['Ctrl+Shift+PageUp', { key: 'PageUp', ctrlKey: true, shiftKey: true }, 'previousTab'],
    ['Escape', { key: 'Escape' }, 'escape'],
  ])('%s', (_name, p, want) => {
    expect(press(p)).toBe(want);
  });

  test.each<[string, Press]>([
    ['S alone (typing)', { key: 's' }],
    ['Ctrl+Shift+S', { key: 'S', ctrlKey: true, shiftKey: true }],
    ['Ctrl+Alt+S', { key: 's', ctrlKey: true, altKey: true }],
    ['Ctrl+K without Alt', { key: 'k', code: 'KeyK', ctrlKey: true }],
    ['Ctrl+R (the page keeps it)', { key: 'r', code: 'KeyR', ctrlKey: true }],
    ['Ctrl+Alt+Shift+R', { key: 'R', code: 'KeyR', ctrlKey: true, altKey: true, shiftKey: true }],
    ['Ctrl+F7', { key: 'F7', ctrlKey: true }],
    ['Alt+Shift+↓ (a selection gesture)', { key: 'ArrowDown', altKey: true, shiftKey: true }],
    ['Ctrl+Alt+↓', { key: 'ArrowDown', altKey: true, ctrlKey: true }],
    ['PageDown alone (scrolling)', { key: 'PageDown' }],
    ['Ctrl+Alt+PageDown', { key: 'PageDown', ctrlKey: true, altKey: true }],
  ])('%s is left alone', (_name, p) => {
    expect(press(p)).toBeNull();
  });
});
