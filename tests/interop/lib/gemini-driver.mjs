// Child process that drives the real Gemini CLI IdeClient (@google/gemini-cli-core).
// IdeClient is a singleton that reads process.cwd() and the environment, so each client gets its
// own process. Talks to the parent over the IPC channel only (IdeClient's debug logging goes to
// stdout/stderr, which the parent keeps for diagnostics).
//
// Parent -> child: {id, cmd, ...args}. Child -> parent: {id, ok: true, value} | {id, ok: false, error}
// for each command, plus events: {event: 'status', state}, {event: 'notification', method, params},
// {event: 'diffResult', diffId, result} | {event: 'diffError', diffId, error}.

import diagnosticsChannel from 'node:diagnostics_channel';
import { IdeClient } from '@google/gemini-cli-core';

const send = (msg) => {
  if (process.connected) process.send(msg);
};

// IdeClient.openDiff does `promise.finally(release)` without a catch, so every rejected openDiff
// also leaves an unhandled rejection behind (the real CLI installs a global handler). Report it
// instead of letting Node end the process.
process.on('unhandledRejection', (reason) => {
  send({ event: 'unhandledRejection', error: reason instanceof Error ? reason.message : String(reason) });
});

// Every HTTP request the client makes (undici reports them on a diagnostics channel), with the
// headers that matter to the server's session handling.
const httpRequests = [];
diagnosticsChannel.subscribe('undici:request:create', ({ request }) => {
  const headers = {};
  const raw = request.headers;
  const pairs = Array.isArray(raw) ? raw : String(raw ?? '').split('\r\n').filter(Boolean).map((l) => l.split(/:\s*/, 2));
  for (let i = 0; i < pairs.length; i++) {
    const [k, v] = Array.isArray(pairs[i]) ? pairs[i] : [pairs[i], pairs[++i]];
    headers[String(k).toLowerCase()] = String(v);
  }
  httpRequests.push({ method: request.method, path: request.path, lastEventId: headers['last-event-id'] ?? null });
});

const client = await IdeClient.getInstance();

client.addStatusChangeListener((state) => send({ event: 'status', state: { ...state } }));

let wrapped = false;
// Report every notification the MCP client dispatches (after IdeClient registered its handlers),
// so tests can see stray ide/diffAccepted / ide/diffRejected notifications.
function tapNotifications() {
  const mcp = client.client;
  const handlers = mcp?._notificationHandlers;
  if (wrapped || !(handlers instanceof Map)) return false;
  for (const [method, handler] of handlers) {
    handlers.set(method, (notification) => {
      send({ event: 'notification', method: notification.method, params: notification.params });
      return handler(notification);
    });
  }
  const fallback = mcp.fallbackNotificationHandler;
  mcp.fallbackNotificationHandler = async (notification) => {
    send({ event: 'notification', method: notification.method, params: notification.params, unhandled: true });
    return fallback?.(notification);
  };
  wrapped = true;
  return true;
}

const errorText = (err) => (err instanceof Error ? err.message : String(err));

const commands = {
  async info() {
    return {
      pid: process.pid,
      cwd: process.cwd(),
      ide: client.getCurrentIde() ?? null,
      state: { ...client.getConnectionStatus() },
    };
  },
  async connect() {
    await client.connect({ logToConsole: false });
    const tapped = client.getConnectionStatus().status === 'connected' ? tapNotifications() : false;
    return {
      state: { ...client.getConnectionStatus() },
      diffing: client.isDiffingEnabled(),
      tools: [...client.availableTools],
      ide: client.getCurrentIde() ?? null,
      tapped,
    };
  },
  // Starts openDiff and returns at once; the outcome arrives later as a diffResult/diffError event.
  async openDiff({ diffId, filePath, content }) {
    client.openDiff(filePath, content).then(
      (result) => send({ event: 'diffResult', diffId, result }),
      (err) => send({ event: 'diffError', diffId, error: errorText(err) }),
    );
    return { started: true };
  },
  async resolveDiffFromCli({ filePath, outcome }) {
    await client.resolveDiffFromCli(filePath, outcome);
    return { pendingAfter: [...client.diffResponses.keys()] };
  },
  async status() {
    return { state: { ...client.getConnectionStatus() }, diffing: client.isDiffingEnabled() };
  },
  async httpRequests() {
    return httpRequests;
  },
  async disconnect() {
    await client.disconnect();
    return { state: { ...client.getConnectionStatus() } };
  },
};

process.on('message', async (msg) => {
  const fn = commands[msg?.cmd];
  if (!fn) {
    send({ id: msg?.id, ok: false, error: `unknown command ${msg?.cmd}` });
    return;
  }
  try {
    send({ id: msg.id, ok: true, value: await fn(msg) });
  } catch (err) {
    send({ id: msg.id, ok: false, error: errorText(err) });
  }
});

// The parent going away ends this client.
process.on('disconnect', () => process.exit(0));

send({ event: 'started', pid: process.pid });
