// Runs a CLI (copilot, codex) in a network namespace that holds only loopback, with one local port (a fake API) relayed in.
import { execFileSync } from 'node:child_process';
import fsp from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
// Generic despite its name: it relays PORT to SOCKET inside `unshare -n` and runs the command.
const NETNS_WRAPPER = path.join(here, '..', 'copilot-netns.mjs');

/** Why a namespace cannot be made here (null if it can): needs Linux, root, `unshare` and `ip`. */
export function isolationUnavailable() {
  if (process.platform !== 'linux') return 'network namespaces are Linux only';
  if (process.getuid?.() !== 0) return 'needs root for unshare -n';
  for (const tool of ['unshare', 'ip']) {
    try {
      execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    } catch {
      return `${tool} not installed`;
    }
  }
  return null;
}

/**
 * A unix socket in a fresh temp dir that forwards each connection to 127.0.0.1:`port`: unix
 * sockets cross network namespaces, TCP does not.
 */
export async function unixBridge(port) {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'rl-netns-api-'));
  const socketPath = path.join(dir, 'api.sock');
  const conns = new Set();
  const server = net.createServer((client) => {
    const upstream = net.connect({ host: '127.0.0.1', port });
    conns.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      conns.delete(client);
      conns.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, resolve);
  });
  return {
    socketPath,
    async close() {
      for (const c of conns) c.destroy();
      await new Promise((resolve) => server.close(() => resolve()));
      await fsp.rm(dir, { recursive: true, force: true });
    },
  };
}

/** [cmd, args] running `argv` in a fresh network namespace where 127.0.0.1:`port` reaches `socketPath`. */
export function isolated(port, socketPath, argv) {
  return isolatedWith([[port, socketPath]], argv);
}

/** isolated() with several [port, socketPath] relays. */
export function isolatedWith(relays, argv) {
  return ['unshare', ['-n', '--', process.execPath, NETNS_WRAPPER, ...relays.flatMap(([p, s]) => [String(p), s]), '--', ...argv]];
}
