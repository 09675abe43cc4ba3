// Drives the real `claude` binary (@anthropic-ai/claude-code, pinned in package.json) under tmux.
//
//   await writeClaudeConfig(home, { workspaces: [ws], apiKey })   onboarding done, ws trusted
//   const t = await startTmux();                                    a private tmux server
//   const c = await t.claude({ name: 'one', cwd: ws, env });       claude --ide in a window
//   await c.waitForScreen(/for shortcuts/, 60_000, 'the prompt');
//   await c.submit('/status');
//   await t.stop();
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
export const CLAUDE_VERSION = '2.1.330';
// The package's postinstall puts the platform binary at bin/claude.exe (on every OS).
export const CLAUDE_BIN = path.join(here, 'node_modules', '@anthropic-ai', 'claude-code', 'bin', 'claude.exe');

const POLL_MS = 150;

export function claudeInstalled() {
  return fs.existsSync(CLAUDE_BIN);
}

function shQuote(s) {
  return `'${String(s).replace(/'/g, `'\\''`)}'`;
}

/**
 * `~/.claude.json` and `~/.claude/settings.json` for a throwaway HOME: onboarding done, the API
 * key approved, each workspace trusted, no extension auto-install, every edit asks.
 */
export async function writeClaudeConfig(home, { workspaces, apiKey, autoConnectIde = false }) {
  const projects = {};
  for (const ws of workspaces) projects[ws] = { hasTrustDialogAccepted: true, allowedTools: [] };
  const config = {
    hasCompletedOnboarding: true,
    theme: 'dark',
    autoInstallIdeExtension: false,
    customApiKeyResponses: { approved: [apiKey.slice(-20)], rejected: [] },
    projects,
    ...(autoConnectIde && { autoConnectIde: true }),
  };
  await fsp.writeFile(path.join(home, '.claude.json'), JSON.stringify(config, null, 2) + '\n');
  await fsp.mkdir(path.join(home, '.claude'), { recursive: true });
  await fsp.writeFile(
    path.join(home, '.claude', 'settings.json'),
    JSON.stringify({ permissions: { defaultMode: 'default', disableAutoMode: 'disable' } }, null, 2) + '\n',
  );
}

/** The environment claude runs with (complete: it goes through `env -i`). */
export function claudeEnv({ home, apiBaseUrl, apiKey, extra = {} }) {
  return {
    PATH: process.env.PATH,
    HOME: home,
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    ANTHROPIC_BASE_URL: apiBaseUrl,
    ANTHROPIC_API_KEY: apiKey,
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    CLAUDE_CODE_IDE_SKIP_AUTO_INSTALL: '1',
    ...extra,
  };
}

function tmuxRunner(socket) {
  return (args, { timeoutMs = 10_000 } = {}) =>
    new Promise((resolve, reject) => {
      execFile('tmux', ['-S', socket, '-f', '/dev/null', ...args], { timeout: timeoutMs }, (err, stdout, stderr) => {
        if (err) {
          err.message += `\ntmux ${args.join(' ')}: ${stderr}`;
          reject(err);
        } else resolve(stdout);
      });
    });
}

/** A private tmux server (its own socket in a temp dir): one window per claude session. */
export async function startTmux({ cols = 180, rows = 50 } = {}) {
  const sockDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'redline-claude-tmux-'));
  const socket = path.join(sockDir, 'tmux.sock');
  const tmux = tmuxRunner(socket);
  let started = false;
  let stopped = false;
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
    /**
     * Starts `claude ARGS` in a new window named `name`, in `cwd`, with exactly `env`; or
     * `command` ([cmd, args], claude some other way: in a simulated container), whose
     * environment is then its own business.
     */
    async claude({ name, cwd, env = {}, args = ['--ide'], command }) {
      const envArgs = Object.entries(env)
        .filter(([, v]) => v !== undefined && v !== null)
        .map(([k, v]) => shQuote(`${k}=${v}`))
        .join(' ');
      // When claude exits, say so on the screen and keep the pane for the test to read.
      const run = command
        ? [command[0], ...command[1]].map(shQuote).join(' ')
        : `env -i ${envArgs} ${shQuote(CLAUDE_BIN)} ${args.map(shQuote).join(' ')}`;
      const cmd = `${run}; echo "[claude exited with status $?]"; exec sleep 3600`;
      if (!started) {
        await tmux(['new-session', '-d', '-s', 'rl', '-n', name, '-x', String(cols), '-y', String(rows), '-c', cwd, cmd]);
        started = true;
      } else {
        await tmux(['new-window', '-d', '-t', 'rl', '-n', name, '-c', cwd, cmd]);
      }
      const target = `rl:${name}`;
      const c = {
        target,
        async screen() {
          return tmux(['capture-pane', '-p', '-J', '-S', '-2000', '-t', target]);
        },
        /** Polls the screen until `test` (RegExp or fn(screen)) matches; resolves with the screen. */
        async waitForScreen(test, timeoutMs, what) {
          const match = typeof test === 'function' ? test : (s) => test.test(s);
          const deadline = Date.now() + timeoutMs;
          let last = '';
          for (;;) {
            last = await c.screen();
            if (match(last)) return last;
            if (/\[claude exited with status \d+\]/.test(last)) {
              throw new Error(`claude (${name}) exited while waiting for ${what}\n--- screen ---\n${last}`);
            }
            if (Date.now() > deadline) {
              throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (${name})\n--- screen ---\n${last}`);
            }
            await delay(POLL_MS);
          }
        },
        async type(text) {
          await tmux(['send-keys', '-t', target, '-l', text]);
        },
        async keys(...keys) {
          await tmux(['send-keys', '-t', target, ...keys]);
        },
        /** Types `text`, waits until the input box shows it, then presses Enter. */
        async submit(text, timeoutMs = 10_000) {
          await c.type(text);
          await c.waitForScreen(
            (s) => s.split('\n').some((l) => /^\s*[>❯]\s/.test(l) && l.includes(text)),
            timeoutMs,
            `the input box to show ${JSON.stringify(text)}`,
          );
          await c.keys('Enter');
        },
      };
      return c;
    },
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

/** The screen text after the last occurrence of `marker`. */
export function after(screen, marker) {
  const i = screen.lastIndexOf(marker);
  return i < 0 ? '' : screen.slice(i + marker.length);
}
