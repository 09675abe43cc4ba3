// `redline hooks install|uninstall` against the REAL settings loaders of Gemini CLI 0.61 and Qwen
// Code 0.24.4 (their own `loadSettings`, run by lib/settings-reader.mjs): on a corpus of user
// settings files (comments, CRLF, a byte-order mark, odd numbers, a key twice, a user's group on
// Redline's matcher, a command mentioning `redline hook`), Redline edits exactly the files the CLI
// reads and refuses the others unchanged; after install the CLI reads the user's settings as
// before plus Redline's group of its own; uninstall gives back the file byte for byte.
//
//   cd tests/interop && REDLINE_BIN=/path/to/redline node --test hook-config.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = fs.realpathSync(process.env.REDLINE_BIN ?? path.join(here, '../../target/debug/redline'));
const CLIS = {
  gemini: { dir: '.gemini', event: 'BeforeTool', matcher: 'write_file|replace' },
  qwen: { dir: '.qwen', event: 'PreToolUse', matcher: 'write_file|edit' },
};

const corpus = (e, m) => [
  '{}',
  '{\n  "ui": {"theme": "GitHub"}\n}\n',
  '// mine\n{\n  /* theme */ "ui": {"theme": "GitHub"}, // yes\n  "n": 99999999999999999999,\n  "f": 1e2\n}\n',
  `{\r\n  "hooks": {\r\n    "${e}": [\r\n      {"matcher": "run_shell_command|${m}", "hooks": [{"type": "command", "command": "./block-rm-rf.sh"}]}\r\n    ]\r\n  }\r\n}\r\n`,
  `{"hooks":{"${e}":[{"matcher":"${m}","hooks":[{"type":"command","command":"echo redline hook gemini; echo redline hook qwen"}]}]},"env":"a","env":"b"}`,
  '\uFEFF{\n  "ui": {"theme": "GitHub"}\n}\n',
  '{\n  "ui": {"theme": "GitHub"},\n}\n',
  '{ not json',
];

/** What `cli` reads from `home`'s settings, read from a copy: Qwen Code's loader migrates the
 * file it reads and writes it back (`$version`, mode 0644). */
function read(cli, home, ws) {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-reader-'));
  try {
    fs.cpSync(home, copy, { recursive: true });
    const r = spawnSync(process.execPath, [path.join(here, 'lib/settings-reader.mjs'), cli, copy, ws], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    return JSON.parse(r.stdout);
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
  }
}

function redline(home, args) {
  return spawnSync(BIN, args, {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), TMPDIR: os.tmpdir() },
  });
}

for (const [cli, { dir, event, matcher }] of Object.entries(CLIS)) {
  test(`${cli}: hooks install edits exactly the settings files ${cli} reads, uninstall gives them back`, () => {
    let installed = 0;
    for (const text of corpus(event, matcher)) {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-hookconf-'));
      try {
        const home = path.join(root, 'home');
        const ws = path.join(root, 'ws');
        fs.mkdirSync(path.join(home, dir), { recursive: true });
        fs.mkdirSync(ws);
        const file = path.join(home, dir, 'settings.json');
        fs.writeFileSync(file, text);
        fs.chmodSync(file, 0o640);
        const what = `${cli} ${JSON.stringify(text)}`;
        const before = read(cli, home, ws);
        const res = redline(home, ['hooks', 'install', cli]);
        if (!before.ok) {
          assert.equal(res.status, 2, `${what}: ${cli} does not read it (${before.error}), Redline must refuse`);
          assert.match(res.stderr, /nothing was changed/);
          assert.equal(fs.readFileSync(file, 'utf8'), text, what);
          continue;
        }
        assert.equal(res.status, 0, `${what}: ${cli} reads it, Redline must edit it: ${res.stderr}`);
        installed++;
        const after = read(cli, home, ws);
        assert.ok(after.ok, `${what}: ${cli} no longer reads it: ${after.error}\n${fs.readFileSync(file, 'utf8')}`);
        const { hooks: hooksBefore = {}, ...restBefore } = before.settings;
        const { hooks: hooksAfter = {}, ...restAfter } = after.settings;
        assert.deepEqual(restAfter, restBefore, what);
        const groups = hooksAfter[event];
        const theirs = hooksBefore[event] ?? [];
        assert.deepEqual(groups.slice(0, -1), theirs, `${what}: the user's groups as they were`);
        const ours = groups.at(-1);
        assert.equal(ours.matcher, matcher, what);
        assert.equal(ours.hooks.length, 1, what);
        assert.equal(ours.hooks[0].command, `${BIN} hook ${cli} --deny-after 3540`, what);
        assert.equal(fs.statSync(file).mode & 0o777, 0o640, what);
        const un = redline(home, ['hooks', 'uninstall', cli]);
        assert.equal(un.status, 0, `${what}: ${un.stderr}`);
        assert.equal(fs.readFileSync(file, 'utf8'), text, what);
        assert.equal(fs.statSync(file).mode & 0o777, 0o640, what);
      } finally {
        fs.rmSync(root, { recursive: true, force: true });
      }
    }
    assert.ok(installed >= 4, `${installed} files installed into`);
  });
}
