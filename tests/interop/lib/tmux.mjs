// A private tmux server for driving a CLI's TUI in tests; every wait polls the screen (capture-pane).
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

// A TUI gives no signal but its screen, so waits poll it.
const POLL_MS = 150;
// How long quit() watches for the exit before pressing its keys again.
const QUIT_LOOK_MS = 1500;

export function shQuote(s) {
  return `'${String(s).replace(/'/g, `'\\''`)}'`;
}

/**
 * The shell command a pane runs: `argv` with exactly `env` (through `env -i`), or `command`
 * ([cmd, args], the CLI some other way: in a simulated container), whose environment is then its
 * own business. When it exits the pane says so and stays, so the test can still read the screen.
 */
export function paneCommand(label, { env = {}, argv, command }) {
  const envArgs = Object.entries(env)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => shQuote(`${k}=${v}`))
    .join(' ');
  const run = command ? [command[0], ...command[1]].map(shQuote).join(' ') : `env -i ${envArgs} ${argv.map(shQuote).join(' ')}`;
  return `${run}; echo "[${label} exited with status $?]"; exec sleep 3600`;
}

/**
 * A socket in a fresh temp dir, so nothing is shared with a developer's tmux; the caller's first
 * `new-session` starts the server on it. stop() kills the server and removes the dir.
 */
export async function privateTmux(prefix) {
  const sockDir = await fsp.mkdtemp(path.join(os.tmpdir(), prefix));
  const socket = path.join(sockDir, 'tmux.sock');
  const tmux = (args, { timeoutMs = 10_000 } = {}) =>
    new Promise((resolve, reject) => {
      execFile('tmux', ['-S', socket, '-f', '/dev/null', ...args], { timeout: timeoutMs }, (err, stdout, stderr) => {
        if (err) {
          err.message += `\ntmux ${args.join(' ')}: ${stderr}`;
          reject(err);
        } else resolve(stdout);
      });
    });
  let stopped = false;
  // Last resort if the test process ends without calling stop(): no CLI left behind.
  const onExit = () => {
    try {
      execFileSync('tmux', ['-S', socket, 'kill-server'], { stdio: 'ignore', timeout: 5000 });
    } catch {
      // already gone
    }
    fs.rmSync(sockDir, { recursive: true, force: true });
  };
  process.once('exit', onExit);
  return {
    socket,
    tmux,
    async stop() {
      if (stopped) return;
      stopped = true;
      process.off('exit', onExit);
      try {
        await tmux(['kill-server']);
      } catch {
        // already gone
      }
      await fsp.rm(sockDir, { recursive: true, force: true });
    },
  };
}

/**
 * The pane `target` of a paneCommand(label, ...): its screen, bounded waits on it, keys.
 * `inputLine` tells the CLI's input box apart; `name` (if several panes) goes into errors.
 */
export function tmuxPane(tmux, target, { label, name, inputLine }) {
  const who = name ? `${label} (${name})` : label;
  const tail = name ? ` (${name})` : '';
  const exited = new RegExp(`\\[${label} exited with status \\d+\\]`);
  const p = {
    target,
    /** The visible screen plus scrollback, wrapped lines joined. */
    async screen() {
      return tmux(['capture-pane', '-p', '-J', '-S', '-2000', '-t', target]);
    },
    /** Polls the screen until `test` (RegExp or fn(screen)) matches; resolves with the screen. */
    async waitForScreen(test, timeoutMs, what) {
      const match = typeof test === 'function' ? test : (s) => test.test(s);
      const deadline = Date.now() + timeoutMs;
      let last = '';
      for (;;) {
        last = await p.screen();
        if (match(last)) return last;
        if (exited.test(last)) {
          throw new Error(`${who} exited while waiting for ${what}\n--- screen ---\n${last}`);
        }
        if (Date.now() > deadline) {
          throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${tail}\n--- screen ---\n${last}`);
        }
        await delay(POLL_MS);
      }
    },
    /**
     * Presses `keys` until the CLI has exited (the pane says so); resolves with the screen. A TUI
     * may want a key twice to quit (Ctrl-C, then Ctrl-C again) and may drop a press that comes
     * while it redraws, so the keys go again after each look that finds it still running.
     */
    async quit(keys, timeoutMs, what = 'to exit') {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const last = await p.screen();
        if (exited.test(last)) return last;
        if (Date.now() > deadline) {
          throw new Error(`timed out after ${timeoutMs} ms waiting for ${who} ${what}\n--- screen ---\n${last}`);
        }
        await p.keys(...keys);
        // Still running after this look: the loop's next look decides.
        await p.waitForScreen((s) => exited.test(s), QUIT_LOOK_MS, 'its exit').catch(() => {});
      }
    },
    async type(text) {
      await tmux(['send-keys', '-t', target, '-l', text]);
    },
    async keys(...keys) {
      await tmux(['send-keys', '-t', target, ...keys]);
    },
    /**
     * Types `text`, waits until the input box shows it (so the Enter is not swallowed into a
     * paste), then presses Enter.
     */
    async submit(text, timeoutMs = 10_000) {
      await p.type(text);
      await p.waitForScreen(
        (s) => s.split('\n').some((l) => inputLine.test(l) && l.includes(text)),
        timeoutMs,
        `the input box to show ${JSON.stringify(text)}`,
      );
      await p.keys('Enter');
    },
  };
  return p;
}

/** The screen text after the last occurrence of `marker` (to read only what a command printed). */
export function after(screen, marker) {
  const i = screen.lastIndexOf(marker);
  return i < 0 ? '' : screen.slice(i + marker.length);
}
