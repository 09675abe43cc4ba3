// A free TCP port on 127.0.0.1, for a server a test starts with an explicit port.

import net from 'node:net';

/**
 * A port nobody listens on now. Only now: another process can take it before the caller binds it
 * (then the caller's bind fails, or, for a port handed to a child, see tests/e2e/lib/desktop.mjs).
 */
export async function freePort() {
  const server = net.createServer();
  await new Promise((resolve, reject) => {
    server.on('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}
