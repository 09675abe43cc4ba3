// Runs inside `unshare -n` (a network namespace of its own): brings loopback up, relays
// 127.0.0.1:PORT to a unix socket (unix sockets cross network namespaces; TCP cannot), then runs
// the given command (copilot) on this terminal and exits with its status. So copilot reaches the
// fake model API at http://127.0.0.1:PORT/v1 and nothing else on any network.
//
//   unshare -n node copilot-netns.mjs PORT SOCKET -- CMD ARGS...
import { execFileSync, spawn } from 'node:child_process';
import net from 'node:net';

const [port, socketPath, sep, cmd, ...args] = process.argv.slice(2);
if (!/^\d+$/.test(port ?? '') || !socketPath || sep !== '--' || !cmd) {
  console.error('usage: copilot-netns.mjs PORT SOCKET -- CMD ARGS...');
  process.exit(2);
}

execFileSync('ip', ['link', 'set', 'lo', 'up'], { stdio: 'inherit' });
const links = execFileSync('ip', ['-o', 'link', 'show'], { encoding: 'utf8' }).trim().split('\n');
if (links.length !== 1 || !/: lo:/.test(links[0])) {
  // Not a fresh namespace: refuse rather than run copilot with a real network.
  console.error(`copilot-netns: expected only loopback, found:\n${links.join('\n')}`);
  process.exit(2);
}

const relay = net.createServer((client) => {
  const upstream = net.connect({ path: socketPath });
  client.pipe(upstream).pipe(client);
  const drop = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on('error', drop);
  upstream.on('error', drop);
});
// Listening before copilot starts: its first request finds the relay ready.
relay.listen(Number(port), '127.0.0.1', () => {
  const child = spawn(cmd, args, { stdio: 'inherit' });
  const forward = (sig) => child.kill(sig);
  for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(sig, () => forward(sig));
  child.on('error', (err) => {
    console.error(`copilot-netns: ${cmd}: ${err.message}`);
    process.exit(127);
  });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
});
relay.on('error', (err) => {
  console.error(`copilot-netns: relay on 127.0.0.1:${port}: ${err.message}`);
  process.exit(2);
});
