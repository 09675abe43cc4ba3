// The settings menu under the ⚙ button: read from the core when it opens, saved on every change.
import * as ipc from './ipc';
import type { Toasts } from './toast';
import type { PopupMode, Settings } from './types';

export const SETTINGS_HTML = `
  <button type="button" class="icon settings-toggle" aria-haspopup="true" aria-expanded="false"
    title="Settings" aria-label="Settings">⚙</button>
  <form class="settings" hidden>
    <fieldset>
      <legend>When a CLI proposes an edit</legend>
      <label><input type="radio" name="popup" value="focus"> Show this window and focus it</label>
      <label><input type="radio" name="popup" value="noFocus"> Show this window without focus</label>
      <label><input type="radio" name="popup" value="trayOnly"> Only mark the tray icon</label>
    </fieldset>
    <label><input type="checkbox" name="keepOpen"> Keep the window open when nothing is pending</label>
    <label class="editor-setting">Open files in
      <input type="text" name="editor" placeholder="$VISUAL, else $EDITOR" spellcheck="false" autocomplete="off">
    </label>
    <p class="editor-hint">A command, e.g. <code>code --wait</code> or <code>nvim</code>; empty: <code>$VISUAL</code>, else <code>$EDITOR</code>.</p>
    <fieldset class="history-setting">
      <legend>Turn history, per workspace</legend>
      <label>Keep the last <input type="number" name="historyTurns" min="1" max="100000" step="1" required> turns</label>
      <label>within <input type="number" name="historyMib" min="1" max="1048576" step="1" required> MiB</label>
    </fieldset>
  </form>`;

export class SettingsMenu {
  private readonly form: HTMLFormElement;
  private readonly toggleButton: HTMLButtonElement;

  /** `root` holds SETTINGS_HTML; `signal` ends the page-wide click listener. */
  constructor(root: HTMLElement, private toasts: Toasts, signal: AbortSignal) {
    this.form = root.querySelector<HTMLFormElement>('.settings')!;
    this.toggleButton = root.querySelector<HTMLButtonElement>('.settings-toggle')!;
    this.toggleButton.addEventListener('click', () => void this.toggle());
    this.form.addEventListener('change', () => void this.save());
    // Enter in the editor's field saves it; a form's own submit would reload the page.
    this.form.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.save();
    });
    // A click anywhere else closes the menu, as menus do.
    document.addEventListener('mousedown', (e) => {
      const target = e.target as Node;
      if (this.open && !this.form.contains(target) && !this.toggleButton.contains(target)) this.hide();
    }, { signal });
  }

  private get editorInput(): HTMLInputElement {
    return this.form.elements.namedItem('editor') as HTMLInputElement;
  }

  private number(name: string): HTMLInputElement {
    return this.form.elements.namedItem(name) as HTMLInputElement;
  }

  get open(): boolean {
    return !this.form.hidden;
  }

  private async toggle(): Promise<void> {
    const form = this.form;
    if (!form.hidden) {
      this.hide();
      return;
    }
    try {
      const s = await ipc.settingsGet();
      (form.elements.namedItem('keepOpen') as HTMLInputElement).checked = s.keepOpen;
      this.editorInput.value = s.editor ?? '';
      this.number('historyTurns').value = String(s.history.turns);
      this.number('historyMib').value = String(s.history.mib);
      for (const input of form.querySelectorAll<HTMLInputElement>('input[name=popup]')) {
        input.checked = input.value === s.popup;
      }
      form.hidden = false;
      this.toggleButton.setAttribute('aria-expanded', 'true');
    } catch (err) {
      this.toasts.error(err, 'Could not read the settings');
    }
  }

  /** Closes the menu; false if it was not open. */
  close(): boolean {
    if (!this.open) return false;
    this.hide();
    return true;
  }

  private hide(): void {
    this.form.hidden = true;
    this.toggleButton.setAttribute('aria-expanded', 'false');
  }

  private async save(): Promise<void> {
    const form = this.form;
    const popup = form.querySelector<HTMLInputElement>('input[name=popup]:checked')?.value as PopupMode | undefined;
    const editor = this.editorInput.value.trim();
    const settings: Settings = {
      popup: popup ?? 'focus',
      keepOpen: (form.elements.namedItem('keepOpen') as HTMLInputElement).checked,
      // Out of range (or empty: 0) the core refuses it, saying the range, and saves nothing.
      history: { turns: this.number('historyTurns').valueAsNumber || 0, mib: this.number('historyMib').valueAsNumber || 0 },
      // Empty: none chosen, so `$VISUAL`/`$EDITOR` again.
      ...(editor ? { editor } : {}),
    };
    try {
      await ipc.settingsSet(settings);
    } catch (err) {
      this.toasts.error(err, 'Could not save the settings');
    }
  }
}
