// The e2e harness's own race, shown on demand: WebKitWebDriver picks the window's inspector port
// by binding port 0 and closing it, and the app binds its servers on port 0 after that; CI once
// saw the kernel hand the app that very port (the session never came, 60 s). lib/desktop.mjs
// starts the desktop again when the window says the port was taken; here a wrapper of redline
// takes the port itself on the first launch, so the first attempt always meets the collision.

import assert from 'node:assert/strict';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { redlineBin } from './lib/desktop.mjs';
import { cleanups, desktop, TEST_TIMEOUT_MS } from './lib/fixtures.mjs';

// Binds WEBKIT_INSPECTOR_SERVER's address, then forks: the parent returns once the port is held,
// the child holds it until killed (its pid in `held`).
const HOLD = `
import os, signal, socket, sys
host, port = os.environ["WEBKIT_INSPECTOR_SERVER"].rsplit(":", 1)
s = socket.socket()
s.bind((host, int(port)))
s.listen()
pid = os.fork()
if pid:
    open(sys.argv[1], "w").write(f"{pid} {port}")
    os._exit(0)
os.setsid()
null = os.open(os.devnull, os.O_RDWR)
for fd in (0, 1, 2):
    os.dup2(null, fd)
signal.pause()
`;

test('the window\'s inspector port taken by another process: the desktop is started again, and works', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const later = cleanups(t);
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'redline-e2e-harness-'));
  const held = path.join(dir, 'held');
  later(async () => {
    const pid = Number((await fsp.readFile(held, 'utf8').catch(() => '')).split(' ')[0]);
    if (pid) {
      try { process.kill(pid, 'SIGTERM'); } catch { /* gone already */ }
    }
    await fsp.rm(dir, { recursive: true, force: true });
  });
  await fsp.writeFile(path.join(dir, 'hold.py'), HOLD);
  // Only the launch by WebDriver carries WEBKIT_INSPECTOR_SERVER; only the first one holds.
  const wrapper = path.join(dir, 'redline');
  await fsp.writeFile(wrapper, `#!/bin/sh
if [ -n "$WEBKIT_INSPECTOR_SERVER" ] && [ ! -e '${held}' ]; then
  python3 '${path.join(dir, 'hold.py')}' '${held}' || exit 1
fi
exec '${redlineBin()}' "$@"
`, { mode: 0o755 });

  const said = [];
  const d = await desktop(t, later, {
    bin: wrapper,
    log: (m) => { said.push(m); t.diagnostic(m); },
  });
  const [, port] = (await fsp.readFile(held, 'utf8')).split(' ');
  assert.ok(said.some((m) => m.includes(`inspector port 127.0.0.1:${port} was taken`) && m.includes('started again')),
    `the first attempt met the held port ${port}: ${JSON.stringify(said)}`);
  // The second attempt's session drives the page.
  assert.equal(await d.wd.execute("return !!document.querySelector('.review[hidden]')"), true);
});
