// Drives the real `codex` binary (@openai/codex, pinned in package.json) under tmux, offline.
//
//   const api = await startFakeApi();                          codex-fake-api.mjs
//   const home = await codexHome({ api, workspaces: [ws] });   throwaway CODEX_HOME (+ HOME)
//   trustHooks(home.codexHome);                                after writing hooks.json
//   const c = await startCodex({ cwd: ws, home, api });
//   await c.waitReady();
//   await c.submit('PATCH a.txt');
//   await c.stop();
//
// Every wait is bounded and polls the screen (capture-pane) or the fake API's request log.
import crypto from 'node:crypto';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { privateTmux, tmuxPane, paneCommand } from './lib/tmux.mjs';
import { isolationUnavailable, unixBridge, isolated } from './lib/netns.mjs';
import { pollUntil } from './lib/wait.mjs';

export { isolationUnavailable };

const here = path.dirname(fileURLToPath(import.meta.url));
export const CODEX_VERSION = '0.171.0';
// The package's launcher (it finds the platform binary and sets the variables codex expects from npm).
export const CODEX_ENTRY = path.join(here, 'node_modules', '@openai', 'codex', 'bin', 'codex.js');
export const API_KEY_VAR = 'REDLINE_FAKE_OPENAI_KEY';
// Sandboxed apply_patch fails ('Failed to write file') when CODEX_HOME lies inside $TMPDIR
// (default /tmp) or $TMPDIR does not exist (observed with 0.171), so each home gets a TMPDIR of
// its own beside .codex; /var/tmp keeps it all off a developer's /tmp.
export const CODEX_TMP = '/var/tmp';

/** The composer line: codex's `›` prompt. */
export const INPUT_LINE = /^\s*›\s/;
const STEP_MS = 30_000;

export function codexInstalled() {
  return fs.existsSync(CODEX_ENTRY);
}

/** A fresh dir under /var/tmp (realpath: codex compares paths resolved). */
export async function codexTempDir(prefix) {
  return fs.realpathSync(await fsp.mkdtemp(path.join(CODEX_TMP, prefix)));
}

/**
 * `[projects."<ws>"]`: TOML basic strings take JSON's escapes for the characters a path may hold.
 */
const tomlKey = (s) => JSON.stringify(s);

/**
 * A throwaway HOME holding CODEX_HOME (`<home>/.codex`, the default layout, so `redline hooks
 * install codex` finds it through HOME alone too), with config.toml: the fake provider, no
 * approvals (the hook is the only gate), the workspace-write sandbox, every workspace trusted,
 * and nothing that would reach the network or stop the TUI with a notice. With `home` (an existing
 * dir, e.g. the HOME `redline serve` got) that dir is used and left to its owner.
 */
export async function codexHome({ api, workspaces = [], model = 'gpt-5.5', home: given, extraConfig = '' }) {
  const home = given ? fs.realpathSync(given) : await codexTempDir('rl-codex-home-');
  const codexHomeDir = path.join(home, '.codex');
  await fsp.mkdir(codexHomeDir, { recursive: true, mode: 0o700 });
  const tmp = path.join(home, 'tmp');
  await fsp.mkdir(tmp, { recursive: true, mode: 0o700 });
  const config = [
    `model = ${tomlKey(model)}`,
    'model_provider = "fake"',
    'approval_policy = "never"',
    'sandbox_mode = "workspace-write"',
    'check_for_update_on_startup = false',
    '',
    '[analytics]',
    'enabled = false',
    '',
    // Marks the bundled "try the newer model" prompt as seen: it would take the first keys.
    '[notice.model_migrations]',
    `${tomlKey(model)} = "gpt-6-sol"`,
    '',
    '[model_providers.fake]',
    'name = "fake"',
    `base_url = ${tomlKey(api.baseURL)}`,
    'wire_api = "responses"',
    `env_key = "${API_KEY_VAR}"`,
    // A failed request is a failed test: no retry loops hiding it.
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
    ...workspaces.flatMap((ws) => [`[projects.${tomlKey(ws)}]`, 'trust_level = "trusted"', '']),
    extraConfig,
  ].join('\n');
  await fsp.writeFile(path.join(codexHomeDir, 'config.toml'), config + '\n');
  return {
    home,
    codexHome: codexHomeDir,
    tmp,
    hooksFile: path.join(codexHomeDir, 'hooks.json'),
    configFile: path.join(codexHomeDir, 'config.toml'),
    stop: () => (given ? Promise.resolve() : fsp.rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 })),
  };
}

/** JSON with object keys sorted at every level and no spaces: serde_json's form of a sorted map. */
function canonicalJson(v) {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .filter((k) => v[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(v[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

const EVENT_KEYS = { PreToolUse: 'pre_tool_use', PostToolUse: 'post_tool_use', Stop: 'stop', SessionStart: 'session_start', UserPromptSubmit: 'user_prompt_submit' };

/**
 * The trust entries codex's `/hooks` screen would write for every hook in `hooksFile`:
 * [{key, hash}]. The hash is per handler: SHA-256 of the canonical JSON of its group with only
 * that handler, its defaults filled in (timeout 600, async false), `matcher` left out when absent
 * and `statusMessage` kept when set. Checked against `codex app-server`'s hooks/list currentHash
 * (codex-contract.test.mjs).
 */
export function hookTrustEntries(hooksFile) {
  const file = JSON.parse(fs.readFileSync(hooksFile, 'utf8'));
  const out = [];
  for (const [event, groups] of Object.entries(file.hooks ?? {})) {
    const eventName = EVENT_KEYS[event] ?? event.replace(/[A-Z]/g, (c, i) => (i ? '_' : '') + c.toLowerCase());
    (groups ?? []).forEach((group, i) => {
      (group.hooks ?? []).forEach((h, j) => {
        const handler = { type: h.type ?? 'command', command: h.command, timeout: h.timeout ?? h.timeoutSec ?? 600, async: h.async ?? false, statusMessage: h.statusMessage ?? undefined };
        const identity = { event_name: eventName, matcher: group.matcher ?? undefined, hooks: [handler] };
        const hash = `sha256:${crypto.createHash('sha256').update(canonicalJson(identity)).digest('hex')}`;
        out.push({ key: `${hooksFile}:${eventName}:${i}:${j}`, hash });
      });
    });
  }
  return out;
}

/**
 * Marks every hook in `$codexHome/hooks.json` trusted in `$codexHome/config.toml`, as codex's
 * `/hooks` screen does (`[hooks.state."<key>"] trusted_hash = ...`); earlier entries for that file
 * are replaced. Untrusted hooks are skipped silently by codex, so without this a test would
 * pass with no hook at all. Returns the entries written.
 */
export function trustHooks(codexHome) {
  const hooksFile = path.join(codexHome, 'hooks.json');
  const configFile = path.join(codexHome, 'config.toml');
  const entries = hookTrustEntries(hooksFile);
  // The entries this function wrote before, one 2-line table each, are dropped before appending.
  const prefix = `[hooks.state.${JSON.stringify(hooksFile + ':').slice(0, -1)}`;
  const kept = [];
  const lines = fs.readFileSync(configFile, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].startsWith(prefix)) {
      i++;
      continue;
    }
    kept.push(lines[i]);
  }
  const tables = entries.map((e) => `[hooks.state.${JSON.stringify(e.key)}]\ntrusted_hash = ${JSON.stringify(e.hash)}\n`);
  fs.writeFileSync(configFile, kept.join('\n').replace(/\n*$/, '\n\n') + tables.join('\n'));
  return entries;
}

/** The environment codex runs with (complete: it goes through `env -i`); no proxies, no inherited CODEX_*. */
export function codexEnv({ home, extra = {} }) {
  return {
    PATH: process.env.PATH,
    HOME: home.home,
    CODEX_HOME: home.codexHome,
    // Beside CODEX_HOME, not above it: see CODEX_TMP.
    TMPDIR: home.tmp,
    SHELL: '/bin/sh',
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    [API_KEY_VAR]: 'sk-redline-interop-not-a-secret',
    ...extra,
  };
}

/**
 * Runs `codex app-server` once in `cwd` and asks it `hooks/list`: what codex itself reports
 * about each hook (key, currentHash, trustStatus). For checking trustHooks against codex.
 */
export async function listHooks({ home, cwd }) {
  const lines = [
    { id: 1, method: 'initialize', params: { clientInfo: { name: 'redline-interop', version: '0' } } },
    { method: 'initialized' },
    { id: 2, method: 'hooks/list', params: { cwds: [cwd] } },
  ];
  // app-server answers on stdout and exits at stdin's end, possibly before answering: so stdin
  // stays open until the answer is read.
  const child = spawn(process.execPath, [CODEX_ENTRY, 'app-server'], { cwd, env: codexEnv({ home }), stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d) => (err += d));
  child.stdin.write(lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  try {
    const answer = await pollUntil(
      () => {
        const line = out.split('\n').find((l) => l.startsWith('{"id":2,'));
        return { ok: !!line, value: line ?? `stdout: ${out.slice(-500)} stderr: ${err.slice(-500)}` };
      },
      STEP_MS,
      'codex app-server to answer hooks/list',
    );
    const res = JSON.parse(answer);
    if (res.error) throw new Error(`hooks/list: ${JSON.stringify(res.error)}`);
    return res.result.data.flatMap((d) => d.hooks);
  } finally {
    child.stdin.end();
    child.kill('SIGTERM');
  }
}

/**
 * Starts the codex TUI (`codex --no-daemon -a <approval> -s workspace-write`) in `cwd` in a private
 * tmux server, with exactly codexEnv() plus `env`. With `isolate` (default: when possible) it
 * runs in a network namespace holding only loopback, where 127.0.0.1:<api.port> is the fake API:
 * nothing can leak out. The hook commands codex runs inherit that namespace, so a hook must
 * reach Redline over a unix socket.
 */
export async function startCodex({ cwd, home, api, env = {}, args = [], approval = 'never', cols = 160, rows = 50, isolate = isolationUnavailable() === null }) {
  const server = await privateTmux('redline-codex-tmux-');
  let bridge;
  try {
    const fullEnv = codexEnv({ home, extra: env });
    const argv = [process.execPath, CODEX_ENTRY, '--no-daemon', '-a', approval, '-s', 'workspace-write', ...args];
    let cmd;
    if (isolate) {
      bridge = await unixBridge(api.port);
      const envArgs = Object.entries(fullEnv).map(([k, v]) => `${k}=${v}`);
      cmd = paneCommand('codex', { command: isolated(api.port, bridge.socketPath, ['env', '-i', ...envArgs, ...argv]) });
    } else {
      cmd = paneCommand('codex', { env: fullEnv, argv });
    }
    await server.tmux(['new-session', '-d', '-s', 'codex', '-x', String(cols), '-y', String(rows), '-c', cwd, cmd]);
  } catch (err) {
    await server.stop();
    await bridge?.close();
    throw err;
  }
  const pane = tmuxPane(server.tmux, 'codex:0.0', { label: 'codex', inputLine: INPUT_LINE });
  return {
    ...pane,
    isolated: !!bridge,
    /** Waits until the composer takes input. */
    waitReady: (timeoutMs = STEP_MS) => pane.waitForScreen((s) => s.split('\n').some((l) => INPUT_LINE.test(l)), timeoutMs, 'codex\'s composer'),
    /**
     * Submits `prompt` and waits for the turn's last model request: the one answered with the
     * plan's final text (the fake API's `final` decision), then for that text on screen.
     * Resolves with that request's record.
     */
    async runTurn(prompt, { plan, final, timeoutMs = STEP_MS } = {}) {
      const before = api.requests.length;
      await pane.submit(prompt);
      const rec = await api.waitFor((r) => r.n > before && r.decision.kind === 'final' && (plan === undefined || r.decision.plan === plan), timeoutMs, `the model request after the tool call of "${prompt}"`);
      if (final) await pane.waitForScreen((s) => s.includes(final), timeoutMs, `codex to show "${final}"`);
      return rec;
    },
    async stop() {
      await server.stop();
      await bridge?.close();
    },
  };
}
