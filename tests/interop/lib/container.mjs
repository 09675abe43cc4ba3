// A container without Docker: to a CLI, a container is a network namespace, a mount namespace
// and a PID namespace. This builds one per test, as root:
//
//   network  a named netns with a veth pair to the host namespace: HOST_ADDR on the host side,
//            CTR_ADDR inside (a /30 nobody else uses); loopback up inside. No other route.
//   mounts   a private mount namespace whose / is an overlay of the host's / (writes land in a
//            tmpfs and vanish with the namespace): /.dockerenv, a fresh /tmp and /proc, /etc/hosts
//            with the `--add-host` entry, and every `-v` mount of `redline container args`
//            (read-only ones remounted read-only), then chroot, `-w` as the working directory.
//   PIDs     a PID namespace: Redline's PID does not exist inside, as in a real container.
//
//   const c = await createContainer();
//   const [cmd, args] = c.command({ runArgs, argv: ['node', 'x.mjs'], env: {...} });
//   spawn(cmd, args, ...);
//   await c.destroy();     // the netns (and with it the veth); processes die with their ns
//
// Everything is removed when the test ends, passes or fails: destroy() in `after`, a sync
// fallback on process exit, and a sweep of namespaces left by dead test processes at creation.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PREFIX = 'rlctr';
// This checkout: the drivers and the CLIs' packages (node_modules) run from it.
const CHECKOUT = path.resolve(fileURLToPath(new URL('../../..', import.meta.url)));

function ip(...args) {
  return execFileSync('ip', args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: 10_000 }).toString();
}

function sh(s) {
  return `'${String(s).replace(/'/g, `'\\''`)}'`;
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/** Namespaces named `rlctr-<pid>-<n>` and state dirs `rl-ctr-state-<pid>-*` whose test process
 * is gone: left by a killed run. */
function sweepLeftovers() {
  for (const d of fs.readdirSync(os.tmpdir())) {
    const m = /^rl-ctr-state-(\d+)-/.exec(d);
    if (m && !alive(Number(m[1]))) fs.rmSync(path.join(os.tmpdir(), d), { recursive: true, force: true });
  }
  let names = [];
  try {
    names = ip('netns', 'list').split('\n').map((l) => l.split(/\s/)[0]).filter((n) => n.startsWith(`${PREFIX}-`));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(name.split('-')[1]);
    if (!alive(pid)) {
      try {
        ip('netns', 'del', name);
      } catch {
        // someone else removed it
      }
    }
  }
}

export function canCreateContainers() {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return 'needs root on Linux';
  for (const bin of ['ip', 'unshare', 'chroot', 'mount']) {
    try {
      execFileSync('sh', ['-c', `command -v ${bin}`], { stdio: 'ignore' });
    } catch {
      return `needs ${bin}`;
    }
  }
  return null;
}

let seq = 0;

export async function createContainer() {
  sweepLeftovers();
  const n = ++seq;
  const name = `${PREFIX}-${process.pid}-${n}`;
  // A /30 of 10.251.0.0/16 picked from the PID, so two test processes do not collide.
  const third = (process.pid * 7 + n * 13) % 250;
  const hostAddr = `10.251.${third}.1`;
  const ctrAddr = `10.251.${third}.2`;
  const hostIf = `rlh${process.pid % 100000}${n}`.slice(0, 15);
  const ctrIf = `rlc${process.pid % 100000}${n}`.slice(0, 15);
  const state = await fsp.mkdtemp(path.join(os.tmpdir(), `rl-ctr-state-${process.pid}-`));

  const destroySync = () => {
    try {
      ip('netns', 'del', name);
    } catch {
      // already gone
    }
    try {
      ip('link', 'del', hostIf);
    } catch {
      // went with the netns
    }
    fs.rmSync(state, { recursive: true, force: true });
  };
  process.once('exit', destroySync);

  try {
    ip('netns', 'add', name);
    ip('link', 'add', hostIf, 'type', 'veth', 'peer', 'name', ctrIf);
    ip('link', 'set', ctrIf, 'netns', name);
    // No IPv6 on the pair: no router solicitations, only the traffic the tests make.
    for (const [ns, dev] of [[null, hostIf], [name, ctrIf]]) {
      const cmd = ['sysctl', '-qw', `net.ipv6.conf.${dev}.disable_ipv6=1`];
      try {
        if (ns) ip('netns', 'exec', ns, ...cmd);
        else execFileSync(cmd[0], cmd.slice(1), { stdio: 'ignore' });
      } catch {
        // no IPv6 in this kernel: nothing to turn off
      }
    }
    ip('addr', 'add', `${hostAddr}/30`, 'dev', hostIf);
    ip('link', 'set', hostIf, 'up');
    ip('-n', name, 'addr', 'add', `${ctrAddr}/30`, 'dev', ctrIf);
    ip('-n', name, 'link', 'set', ctrIf, 'up');
    ip('-n', name, 'link', 'set', 'lo', 'up');
  } catch (err) {
    destroySync();
    process.off('exit', destroySync);
    throw err;
  }

  let runs = 0;
  return {
    name,
    state,
    hostAddr,
    ctrAddr,
    hostIf,
    /**
     * The [cmd, args] that run `argv` in the container. `runArgs` is `redline container args
     * --json` (add-host, mounts, workdir, env); `env` is the complete environment inside (plus
     * the run args' env); `files` are [hostFile, containerPath] copied in before the start;
     * `ipc`: keep Node's IPC channel (fd 3) for a forked driver; `user`: 'UID:GID' to run as
     * (`docker run --user`), else root; `podman`: Podman's marker instead of Docker's.
     */
    command({ runArgs, argv, env = {}, files = [], cwd, ipc = false, user, podman = false }) {
      const dir = path.join(state, `run-${++runs}`);
      fs.mkdirSync(dir);
      const R = `${dir}/root`;
      const lines = [
        'set -eu',
        `mount -t tmpfs -o mode=755 rlctr ${sh(dir)}`,
        `mkdir ${sh(`${dir}/upper`)} ${sh(`${dir}/work`)} ${sh(R)}`,
        `mount -t overlay overlay -o ${sh(`lowerdir=/,upperdir=${dir}/upper,workdir=${dir}/work`)} ${sh(R)}`,
        `mount --rbind /dev ${sh(`${R}/dev`)}`,
        `mount --rbind /sys ${sh(`${R}/sys`)}`,
        `mount -t proc proc ${sh(`${R}/proc`)}`,
        `mount -t tmpfs -o mode=1777 tmp ${sh(`${R}/tmp`)}`,
        // A checkout under /tmp (a CI clone, say) would be hidden by that fresh /tmp: put it back.
        ...(CHECKOUT.startsWith('/tmp/')
          ? [`mkdir -p ${sh(`${R}${CHECKOUT}`)}`, `mount --bind ${sh(CHECKOUT)} ${sh(`${R}${CHECKOUT}`)}`]
          : []),
        // Docker marks its containers with /.dockerenv, Podman with /run/.containerenv.
        podman ? `rm -f ${sh(`${R}/.dockerenv`)}` : `touch ${sh(`${R}/.dockerenv`)}`,
        podman ? `mkdir -p ${sh(`${R}/run`)} && touch ${sh(`${R}/run/.containerenv`)}` : `rm -f ${sh(`${R}/run/.containerenv`)}`,
        `printf '127.0.0.1 localhost\\n' > ${sh(`${R}/etc/hosts`)}`,
      ];
      const [hostName, hostTarget] = runArgs.addHost.split(':');
      if (hostTarget === 'host-gateway') throw new Error('the simulated container needs an address, not host-gateway');
      lines.push(`printf '%s %s\\n' ${sh(hostTarget)} ${sh(hostName)} >> ${sh(`${R}/etc/hosts`)}`);
      for (const m of runArgs.mounts) {
        const target = `${R}${m.target}`;
        lines.push(`mkdir -p ${sh(target)}`);
        lines.push(`mount --bind ${sh(m.source)} ${sh(target)}`);
        if (m.readOnly) lines.push(`mount -o remount,bind,ro ${sh(target)}`);
      }
      for (const [from, to] of files) {
        lines.push(`mkdir -p ${sh(path.dirname(`${R}${to}`))}`);
        lines.push(`cp ${sh(from)} ${sh(`${R}${to}`)}`);
      }
      const inside = { ...Object.fromEntries(runArgs.env ?? []), ...env };
      if (ipc) Object.assign(inside, { NODE_CHANNEL_FD: '3', NODE_CHANNEL_SERIALIZATION_MODE: 'json' });
      const vars = Object.entries(inside)
        .filter(([, v]) => v !== undefined && v !== null)
        .map(([k, v]) => sh(`${k}=${v}`))
        .join(' ');
      const workdir = cwd ?? runArgs.workdir;
      lines.push(
        `exec chroot ${user ? `--userspec=${sh(user)} ` : ''}${sh(R)} /usr/bin/env -i ${vars} /bin/sh -c 'cd "$1" && shift && exec "$@"' sh ${sh(workdir)} ${argv.map(sh).join(' ')}`,
      );
      const script = path.join(state, `run-${runs}.sh`);
      fs.writeFileSync(script, lines.join('\n') + '\n');
      return [
        'ip',
        ['netns', 'exec', name, 'unshare', '--mount', '--propagation', 'private', '--pid', '--fork', '--kill-child', '--', '/bin/sh', script],
      ];
    },
    async destroy() {
      process.off('exit', destroySync);
      destroySync();
    },
  };
}
