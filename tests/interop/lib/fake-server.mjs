// The HTTP plumbing the fake model APIs share: a loopback server, JSON and SSE answers, a request log.
import http from 'node:http';
import { EventEmitter } from 'node:events';
import { waitForEntry } from './wait.mjs';

export function sendJson(res, status, value) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

/** Answers with a whole event stream at once: the fakes know the full answer up front. */
export function sendEvents(res, text, headers = {}) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...headers });
  res.end(text);
}

/**
 * Listens on `host` (an ephemeral port) and calls handle(req, res, url, raw) once the whole body
 * has arrived. Resolves once listening, so the CLI can be pointed at it straight away.
 */
export async function startFakeServer({ host, handle }) {
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (raw += c));
    req.on('end', () => handle(req, res, new URL(req.url, 'http://x'), raw));
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  return {
    port: server.address().port,
    close() {
      // The CLIs keep connections alive; without this close() would wait for them.
      server.closeAllConnections?.();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Every request a fake answered, in order, each announced once answered, so tests wait on
 * events instead of time. Records carry `decision.kind`, listed when a wait times out.
 */
export function requestLog() {
  const events = new EventEmitter();
  const requests = [];
  return {
    requests,
    events,
    add(record) {
      requests.push(record);
      events.emit('request', record);
    },
    /** Resolves with the first request (already received or future) matching pred. */
    waitFor(pred, timeoutMs, what) {
      return waitForEntry(requests, events, 'request', pred, timeoutMs, what, () => `; requests: ${requests.map((r) => r.decision.kind).join(' ')}`);
    },
  };
}
