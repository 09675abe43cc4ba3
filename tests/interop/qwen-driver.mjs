// Drives the real `qwen` binary (@qwen-code/qwen-code, pinned in package.json) under tmux.
//
//   writeQwenSettings(home)                       user settings: API-key auth, IDE mode on
//   const q = await startQwen({ cwd, env, ... })  a private tmux server running qwen in cwd
//   await q.waitForScreen(/Type your message/, 30_000, 'the input prompt');
//   await q.submit('/ide status');
//   await q.stop();
//
// Every wait is bounded and polls the screen (capture-pane): a TUI gives no other signal.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { privateTmux, tmuxPane, paneCommand } from './lib/tmux.mjs';

export { after } from './lib/tmux.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const QWEN_PKG_DIR = path.join(here, 'node_modules', '@qwen-code', 'qwen-code');
export const QWEN_ENTRY = path.join(QWEN_PKG_DIR, 'cli-entry.js');
export const QWEN_VERSION = '0.24.4';

/**
 * Writes `<home>/.qwen/settings.json` (or `<qwenHome>/settings.json`): OpenAI-compatible
 * API-key auth (the key and base URL come from the environment), IDE mode enabled, approval
 * mode "default" so every edit asks for confirmation (which is what opens the IDE diff), and
 * the background chatter that would send extra model requests switched off.
 */
export async function writeQwenSettings(home, { qwenHome, model = 'redline-fake-model' } = {}) {
  const dir = qwenHome ?? path.join(home, '.qwen');
  await fsp.mkdir(dir, { recursive: true });
  const settings = {
    $version: 4,
    security: { auth: { selectedType: 'openai' } },
    model: { name: model, skipNextSpeakerCheck: true },
    ide: { enabled: true, hasSeenNudge: true },
    tools: { approvalMode: 'default', useRipgrep: false },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    ui: { autoModeAcknowledged: true, enableFollowupSuggestions: false, hideTips: true },
  };
  const file = path.join(dir, 'settings.json');
  await fsp.writeFile(file, JSON.stringify(settings, null, 2) + '\n');
  return file;
}

/**
 * Starts qwen in a private tmux server (its own -S socket in a temp dir, so nothing is shared with a
 * developer's tmux). `env` is the COMPLETE environment qwen gets (run through `env -i`).
 */
/**
 * Starts qwen in a private tmux server (its own -S socket in a temp dir, so nothing is shared with a
 * developer's tmux). `env` is the COMPLETE environment qwen gets (run through `env -i`);
 * `command` ([cmd, args]) runs qwen some other way (in a simulated container).
 */
export async function startQwen({ cwd, env, args = ['--approval-mode', 'default'], cols = 200, rows = 50, name = 'qwen', command }) {
  const server = await privateTmux('redline-qwen-tmux-');
  const cmd = paneCommand('qwen', { env, argv: [process.execPath, QWEN_ENTRY, ...args], command });
  try {
    await server.tmux(['new-session', '-d', '-s', name, '-x', String(cols), '-y', String(rows), '-c', cwd, cmd]);
  } catch (err) {
    await server.stop();
    throw err;
  }
  const pane = tmuxPane(server.tmux, `${name}:0.0`, { label: 'qwen', inputLine: /^\s*[>!*]\s/ });
  return { socket: server.socket, ...pane, stop: server.stop };
}

export function qwenInstalled() {
  return fs.existsSync(QWEN_ENTRY);
}
