// The real `gemini` TUI for hook tests, offline: its settings, its launch in a private tmux against
// a fake model, and typing a prompt until the model has it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { privateTmux, paneCommand, tmuxPane } from './tmux.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const GEMINI_BIN = path.join(here, '..', 'node_modules', '@google', 'gemini-cli', 'bundle', 'gemini.js');
const STEP_MS = 45_000;

/**
 * Gemini CLI's user settings for an offline run: API-key auth, IDE mode off, no chatter; folder
 * trust at its default (on), so each test's home says whether the workspace is trusted.
 */
export const GEMINI_SETTINGS = {
  security: { auth: { selectedType: 'gemini-api-key' } },
  ide: { enabled: false, hasSeenNudge: true },
  general: { disableAutoUpdate: true, disableUpdateNag: true },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  ui: { theme: 'Default' },
};

/**
 * A home for gemini: GEMINI_SETTINGS, and `ws` trusted (what answering "trust this folder" to its
 * first-run dialog stores). Returns the settings file's path, for `redline hooks install` to add to.
 */
export function writeGeminiHome(home, ws) {
  const file = path.join(home, '.gemini', 'settings.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(GEMINI_SETTINGS, null, 2));
  fs.writeFileSync(path.join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [ws]: 'TRUST_FOLDER' }));
  return file;
}

/**
 * The real `gemini` in a private tmux: `home` holds its settings (with Redline's hook), the model
 * is `model`, and XDG_RUNTIME_DIR leads its hook to Redline.
 */
export async function startGemini({ ws, home, model, r, approvalMode }) {
  const server = await privateTmux('redline-hooks-gemini-');
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    TMPDIR: path.join(home, 'tmp'),
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    GEMINI_API_KEY: 'dummy-key-for-the-fake-model',
    GOOGLE_GEMINI_BASE_URL: model.baseURL,
    XDG_RUNTIME_DIR: r.dirs.runtime,
  };
  fs.mkdirSync(env.TMPDIR, { recursive: true });
  const cmd = paneCommand('gemini', { env, argv: [process.execPath, GEMINI_BIN, '--approval-mode', approvalMode] });
  await server.tmux(['new-session', '-d', '-s', 'g', '-x', '200', '-y', '50', '-c', ws, cmd]);
  const pane = tmuxPane(server.tmux, 'g:0.0', { label: 'gemini', inputLine: /^\s*[>!*]\s/ });
  return { ...pane, stop: server.stop };
}

/** `startGemini`, then waits for its input prompt: a session ready for its first message. */
export async function readyGemini(options, stepMs = STEP_MS) {
  const g = await startGemini(options);
  await g.waitForScreen(/Type your message/, stepMs, 'gemini to show its input prompt');
  return g;
}

/**
 * Types `text` into `pane` and presses Enter until the model API has it (`sent(ms)` resolves):
 * a TUI busy redrawing (gemini just after a turn) may drop an Enter, and its screen cannot tell
 * a submitted prompt from one still in the input box.
 */
export async function submitUntilSent(pane, text, sent, stepMs = STEP_MS) {
  await pane.submit(text);
  const deadline = Date.now() + stepMs;
  for (;;) {
    try {
      return await sent(2000);
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await pane.keys('Enter');
    }
  }
}
