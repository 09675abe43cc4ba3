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
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { privateTmux, tmuxPane, paneCommand } from './lib/tmux.mjs';

export { after } from './lib/tmux.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const CLAUDE_VERSION = '2.1.332';
// The package's postinstall puts the platform binary at bin/claude.exe (on every OS).
export const CLAUDE_BIN = path.join(here, 'node_modules', '@anthropic-ai', 'claude-code', 'bin', 'claude.exe');

export function claudeInstalled() {
  return fs.existsSync(CLAUDE_BIN);
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

/** A private tmux server (its own socket in a temp dir): one window per claude session. */
export async function startTmux({ cols = 180, rows = 50 } = {}) {
  const server = await privateTmux('redline-claude-tmux-');
  let started = false;
  return {
    socket: server.socket,
    /**
     * Starts `claude ARGS` in a new window named `name`, in `cwd`, with exactly `env`; or
     * `command` ([cmd, args], claude some other way: in a simulated container), whose
     * environment is then its own business.
     */
    async claude({ name, cwd, env = {}, args = ['--ide'], command }) {
      const cmd = paneCommand('claude', { env, argv: [CLAUDE_BIN, ...args], command });
      if (!started) {
        await server.tmux(['new-session', '-d', '-s', 'rl', '-n', name, '-x', String(cols), '-y', String(rows), '-c', cwd, cmd]);
        started = true;
      } else {
        await server.tmux(['new-window', '-d', '-t', 'rl', '-n', name, '-c', cwd, cmd]);
      }
      return tmuxPane(server.tmux, `rl:${name}`, { label: 'claude', name, inputLine: /^\s*[>❯]\s/ });
    },
    stop: server.stop,
  };
}
