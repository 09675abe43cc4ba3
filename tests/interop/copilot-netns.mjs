// Runs inside `unshare -n` (a network namespace of its own): brings loopback up, relays
// 127.0.0.1:PORT to a unix socket (unix sockets cross network namespaces; TCP cannot), then runs
// the given command (copilot) on this terminal and exits with its status. So copilot reaches the
// fake model API at http://127.0.0.1:PORT/v1 and nothing else on any network.
//
//   unshare -n node copilot-netns.mjs PORT SOCKET -- CMD ARGS...
import { execFileSync, spawn } from 'node:child_process';
import net from 'node:net';

// PORT SOCKET pairs (one or more) before `--`: each port relayed to its socket.
const argv = process.argv.slice(2);
const sepAt = argv.indexOf('--');
const pairs = [];
for (let i = 0; sepAt > 0 && i + 1 < sepAt; i += 2) pairs.push([argv[i], argv[i + 1]]);
const [cmd, ...args] = sepAt > 0 ? argv.slice(sepAt + 1) : [];
if (!pairs.length || sepAt % 2 !== 0 || pairs.some(([p, s]) => !/^\d+$/.test(p) || !s) || !cmd) {
  console.error('usage: copilot-netns.mjs PORT SOCKET [PORT SOCKET...] -- CMD ARGS...');
  process.exit(2);
}

execFileSync('ip', ['link', 'set', 'lo', 'up'], { stdio: 'inherit' });
const links = execFileSync('ip', ['-o', 'link', 'show'], { encoding: 'utf8' }).trim().split('\n');
if (links.length !== 1 || !/: lo:/.test(links[0])) {
  // Not a fresh namespace: refuse rather than run copilot with a real network.
  console.error(`copilot-netns: expected only loopback, found:\n${links.join('\n')}`);
  process.exit(2);
}

/** Relays 127.0.0.1:port inside the namespace to `socketPath`; resolves once listening. */
function relay(port, socketPath) {
  const server = net.createServer((client) => {
    const upstream = net.connect({ path: socketPath });
    client.pipe(upstream).pipe(client);
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop);
    upstream.on('error', drop);
  });
  return new Promise((resolve) => {
    server.on('error', (err) => {
      console.error(`copilot-netns: relay on 127.0.0.1:${port}: ${err.message}`);
      process.exit(2);
    });
    server.listen(Number(port), '127.0.0.1', resolve);
  });
}

// Listening before the command starts: its first request finds every relay ready.
await Promise.all(pairs.map(([port, socketPath]) => relay(port, socketPath)));
const child = spawn(cmd, args, { stdio: 'inherit' });
const forward = (sig) => child.kill(sig);
for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(sig, () => forward(sig));
child.on('error', (err) => {
  console.error(`copilot-netns: ${cmd}: ${err.message}`);
  process.exit(127);
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
