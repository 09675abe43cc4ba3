// Drives the real `qwen` binary (@qwen-code/qwen-code, pinned in package.json) under tmux.
//
//   writeQwenSettings(home)                       user settings: API-key auth, IDE mode on
//   const q = await startQwen({ cwd, env, ... })  a private tmux server running qwen in cwd
//   await q.waitForScreen(/Type your message/, 30_000, 'the input prompt');
//   await q.submit('/ide status');
//   await q.stop();
//
// Every wait is bounded and polls the screen (capture-pane): a TUI gives no other signal.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';

const here = path.dirname(fileURLToPath(import.meta.url));
export const QWEN_PKG_DIR = path.join(here, 'node_modules', '@qwen-code', 'qwen-code');
export const QWEN_ENTRY = path.join(QWEN_PKG_DIR, 'cli-entry.js');
export const QWEN_VERSION = '0.24.4';

const POLL_MS = 150;

function tmux(socket, args, { timeoutMs = 10_000 } = {}) {
  return new Promise((resolve, reject) => {
    execFile('tmux', ['-S', socket, '-f', '/dev/null', ...args], { timeout: timeoutMs }, (err, stdout, stderr) => {
      if (err) {
        err.message += `\ntmux ${args.join(' ')}: ${stderr}`;
        reject(err);
      } else resolve(stdout);
    });
  });
}

function shQuote(s) {
  return `'${String(s).replace(/'/g, `'\\''`)}'`;
}

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
export async function startQwen({ cwd, env, args = ['--approval-mode', 'default'], cols = 200, rows = 50, name = 'qwen', command }) {
  // A private tmux server whose socket lives in a temp dir removed by stop().
  const sockDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'redline-qwen-tmux-'));
  const socket = path.join(sockDir, 'tmux.sock');
  const envArgs = Object.entries(env)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => shQuote(`${k}=${v}`))
    .join(' ');
  // When qwen exits, say so on the screen and keep the pane (and what it printed) for the test.
  // `command` ([cmd, args]) runs qwen some other way (in a simulated container); `env` is then
  // that command's business.
  const run = command
    ? [command[0], ...command[1]].map(shQuote).join(' ')
    : `env -i ${envArgs} ${shQuote(process.execPath)} ${shQuote(QWEN_ENTRY)} ${args.map(shQuote).join(' ')}`;
  const cmd = `${run}; echo "[qwen exited with status $?]"; exec sleep 3600`;
  try {
    await tmux(socket, ['new-session', '-d', '-s', name, '-x', String(cols), '-y', String(rows), '-c', cwd, cmd]);
  } catch (err) {
    await fsp.rm(sockDir, { recursive: true, force: true });
    throw err;
  }
  const target = `${name}:0.0`;

  let stopped = false;
  // Last resort if the test process ends without calling stop(): no qwen left behind.
  const onExit = () => {
    try {
      execFileSync('tmux', ['-S', socket, 'kill-server'], { stdio: 'ignore', timeout: 5000 });
    } catch {
      // already gone
    }
    fs.rmSync(sockDir, { recursive: true, force: true });
  };
  process.once('exit', onExit);
  const q = {
    socket,
    target,
    /** The visible screen plus scrollback, wrapped lines joined. */
    async screen() {
      return tmux(socket, ['capture-pane', '-p', '-J', '-S', '-2000', '-t', target]);
    },
    /** Polls the screen until `test` (RegExp or fn(screen)) matches; resolves with the screen. */
    async waitForScreen(test, timeoutMs, what) {
      const match = typeof test === 'function' ? test : (s) => test.test(s);
      const deadline = Date.now() + timeoutMs;
      let last = '';
      for (;;) {
        last = await q.screen();
        if (match(last)) return last;
        if (/\[qwen exited with status \d+\]/.test(last)) {
          throw new Error(`qwen exited while waiting for ${what}\n--- screen ---\n${last}`);
        }
        if (Date.now() > deadline) {
          throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}\n--- screen ---\n${last}`);
        }
        await delay(POLL_MS);
      }
    },
    async type(text) {
      await tmux(socket, ['send-keys', '-t', target, '-l', text]);
    },
    async keys(...keys) {
      await tmux(socket, ['send-keys', '-t', target, ...keys]);
    },
    /**
     * Types `text` into the input box, waits until the box shows it (so the Enter is not
     * swallowed into a paste), then presses Enter.
     */
    async submit(text, timeoutMs = 10_000) {
      await q.type(text);
      await q.waitForScreen(
        (s) => s.split('\n').some((l) => /^\s*[>!*]\s/.test(l) && l.includes(text)),
        timeoutMs,
        `the input box to show ${JSON.stringify(text)}`,
      );
      await q.keys('Enter');
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      process.off('exit', onExit);
      try {
        await tmux(socket, ['kill-server']);
      } catch {
        // already gone
      }
      await fsp.rm(sockDir, { recursive: true, force: true });
    },
  };
  return q;
}

/** The screen text after the last occurrence of `marker` (to read only what a command printed). */
export function after(screen, marker) {
  const i = screen.lastIndexOf(marker);
  return i < 0 ? '' : screen.slice(i + marker.length);
}

export function qwenInstalled() {
  return fs.existsSync(QWEN_ENTRY);
}
