// The review window's keyboard shortcuts: which key press asks for what, and how titles name the keys.

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
/** The command modifier as a title names it: `⌘` on macOS, `Ctrl+` elsewhere. */
export const MOD = isMac ? '⌘' : 'Ctrl+';
export const ALT = isMac ? '⌥' : 'Alt+';

/** What a key press asks of the review window. */
export type Shortcut =
  | 'accept' | 'rejectWithReason' | 'ask' | 'openInEditor'
  | 'previousChange' | 'nextChange'
  | 'previousTab' | 'nextTab'
  | 'escape';

type Keys = Pick<KeyboardEvent, 'key' | 'code' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>;

/** The shortcut `e` presses, or null for a key the window leaves to the page and CodeMirror. */
export function shortcutOf(e: Keys): Shortcut | null {
  const mod = e.ctrlKey || e.metaKey;
  if (mod && !e.altKey && !e.shiftKey && (e.key === 's' || e.key === 'S' || e.key === 'Enter')) return 'accept';
  if (mod && e.altKey && !e.shiftKey && e.code === 'KeyK') return 'ask';
  // By code where the layout types another letter with Alt (⌥R is ® on macOS), by key where a
  // synthesised event carries no code.
  if (mod && e.altKey && !e.shiftKey && (e.code === 'KeyR' || e.key === 'r' || e.key === 'R')) return 'rejectWithReason';
  if (mod && e.altKey && !e.shiftKey && e.code === 'KeyE') return 'openInEditor';
  if (e.key === 'F7' && !mod && !e.altKey) return e.shiftKey ? 'previousChange' : 'nextChange';
  if (e.altKey && !mod && !e.shiftKey && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
    return e.key === 'ArrowUp' ? 'previousChange' : 'nextChange';
  }
  if (mod && !e.altKey && (e.key === 'PageDown' || e.key === 'PageUp')) {
    return e.key === 'PageUp' ? 'previousTab' : 'nextTab';
  }
  if (e.key === 'Escape') return 'escape';
  return null;
}

/** Ctrl/⌘+Alt+M: a comment on the cursor's line (the review pane listens for it itself). */
export function isCommentKey(e: Keys): boolean {
  return (e.ctrlKey || e.metaKey) && e.altKey && !e.shiftKey && (e.code === 'KeyM' || e.key === 'm' || e.key === 'M');
}

/** What each shortcut does; `escape` says whether it took the key (else the page keeps it). */
export type ShortcutActions = Record<Exclude<Shortcut, 'escape'>, () => void> & { escape(): boolean };

/** While a modal question is open, Escape answers it and every other key goes to the question. */
export interface Modal {
  readonly open: boolean;
  escape(): void;
}

/** Several modal questions as one: open while any is, Escape answering the one that is open. */
export function anyModal(...modals: Modal[]): Modal {
  return {
    get open() { return modals.some((m) => m.open); },
    escape() { modals.find((m) => m.open)?.escape(); },
  };
}

/**
 * Runs `actions` for the shortcuts pressed in `win` until `signal` aborts. Capture phase: these
 * shortcuts must win over CodeMirror's own bindings (Mod-Enter, Alt-Up/Down).
 */
export function listenForShortcuts(win: Window, modal: Modal, actions: ShortcutActions, signal: AbortSignal): void {
  win.addEventListener('keydown', (e) => {
    if (modal.open) {
      if (e.key === 'Escape') {
        e.preventDefault();
        modal.escape();
      }
      return;
    }
    const shortcut = shortcutOf(e);
    if (shortcut === null) return;
    if (shortcut === 'escape') {
      if (!actions.escape()) return;
    } else {
      actions[shortcut]();
    }
    e.preventDefault();
    e.stopPropagation();
  }, { capture: true, signal });
}
