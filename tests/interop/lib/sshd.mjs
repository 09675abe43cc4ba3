// A private OpenSSH server on 127.0.0.1 for a test (Debian's openssh-server, as
// tests/cli/bridge_ssh.rs runs it): its own host key, key-only login, stopped with the test. The
// command a desktop runs to reach it: no terminal, never a prompt, only this server's host key
// and this test's key.

import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { freePort } from './port.mjs';

const SSHD = '/usr/sbin/sshd';

const keygen = (file) => execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', file]);

/** Starts sshd; resolves once it listens. */
export async function startSshd() {
  if (!fs.existsSync(SSHD)) throw new Error(`no ${SSHD}: \`bash .ci/setup\` installs openssh-server`);
  const dir = fs.realpathSync(await fsp.mkdtemp(path.join(os.tmpdir(), 'rl-sshd-')));
  keygen(path.join(dir, 'host'));
  keygen(path.join(dir, 'id'));
  fs.copyFileSync(path.join(dir, 'id.pub'), path.join(dir, 'authorized_keys'));
  // Taken by another test before sshd binds it: sshd's bind error, not a hang.
  const port = await freePort();
  const config = [
    `ListenAddress 127.0.0.1:${port}`, `HostKey ${path.join(dir, 'host')}`, 'PidFile none',
    `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`, 'PasswordAuthentication no',
    'KbdInteractiveAuthentication no', 'UsePAM no', 'StrictModes no', 'PermitRootLogin prohibit-password',
  ].join('\n');
  fs.writeFileSync(path.join(dir, 'sshd_config'), `${config}\n`);
  // Privilege separation wants its empty directory, as the packaged service makes it.
  if (process.getuid?.() === 0) fs.mkdirSync('/run/sshd', { recursive: true });
  const child = spawn(SSHD, ['-D', '-e', '-f', path.join(dir, 'sshd_config')], { stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise((resolve, reject) => {
    let said = '';
    const onData = (d) => {
      said += d;
      if (said.includes('Server listening on 127.0.0.1')) {
        // Its later lines drained, so sshd never blocks on a full pipe.
        child.stderr.off('data', onData).resume();
        resolve();
      }
    };
    child.stderr.setEncoding('utf8').on('data', onData);
    child.on('exit', (code) => reject(new Error(`sshd exited (${code}): ${said}`)));
  });
  const host = fs.readFileSync(path.join(dir, 'host.pub'), 'utf8');
  fs.writeFileSync(path.join(dir, 'known_hosts'), `[127.0.0.1]:${port} ${host}`);
  return {
    /** `ssh` as a desktop runs it, running `remote` (one string, for the far login shell). */
    ssh: (remote) => [
      'ssh', '-F', '/dev/null', '-T', '-o', 'BatchMode=yes', '-o', 'StrictHostKeyChecking=yes',
      '-o', `UserKnownHostsFile=${path.join(dir, 'known_hosts')}`, '-o', 'IdentitiesOnly=yes',
      '-o', 'ConnectTimeout=10', '-i', path.join(dir, 'id'), '-p', String(port), '127.0.0.1', remote,
    ],
    async stop() {
      child.kill();
      await fsp.rm(dir, { recursive: true, force: true });
    },
  };
}
