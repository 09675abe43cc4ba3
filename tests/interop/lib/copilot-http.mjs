// A Copilot CLI IDE client, speaking what the real `copilot` 1.0.102 speaks to a companion: MCP
// over Streamable HTTP on the unix socket a lock names, with the lock's headers on every request
// (shared/specs/copilot-cli-ide-protocol.md). For tests that drive Redline's Copilot server
// without the 197 MB binary (the e2e window tests); the interop suite runs the real one.
import http from 'node:http';

/** The JSON-RPC messages of a POST answer: plain JSON, or SSE `data:` lines. */
function messages(contentType, body) {
  if (!body.trim()) return [];
  if (!/text\/event-stream/.test(contentType ?? '')) return [JSON.parse(body)];
  return body
    .split('\n\n')
    .map((ev) => ev.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart()).join(''))
    .filter(Boolean)
    .map((d) => JSON.parse(d));
}

/**
 * `lock`: the parsed lock file (socketPath, headers). Resolves with a client after nothing: call
 * initialize() first, as copilot does.
 */
export function connectCopilot(lock) {
  let session = null;
  let nextId = 1;
  const notes = [];
  const waiters = [];
  let stream = null;

  function request(method, body) {
    return new Promise((resolve, reject) => {
      const headers = {
        ...lock.headers,
        Host: 'localhost',
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'X-Copilot-PID': String(process.pid),
        ...(session ? { 'Mcp-Session-Id': session } : {}),
      };
      const req = http.request({ socketPath: lock.socketPath, path: '/mcp', method, headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => { text += d; });
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
  }

  async function rpc(method, params) {
    const id = nextId++;
    const res = await request('POST', { jsonrpc: '2.0', id, method, params });
    if (res.status !== 200) throw new Error(`${method}: HTTP ${res.status} ${res.text}`);
    if (res.headers['mcp-session-id']) session = res.headers['mcp-session-id'];
    const reply = messages(res.headers['content-type'], res.text).find((m) => m.id === id);
    if (!reply) throw new Error(`${method}: no answer in ${res.text}`);
    if (reply.error) throw new Error(`${method}: ${JSON.stringify(reply.error)}`);
    return reply.result;
  }

  function deliver(msg) {
    notes.push(msg);
    for (const w of waiters.splice(0)) {
      if (w.match(msg)) w.resolve(msg);
      else waiters.push(w);
    }
  }

  return {
    async initialize(version = '1.0.102') {
      const result = await rpc('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'copilot-cli', version } });
      const done = await request('POST', { jsonrpc: '2.0', method: 'notifications/initialized' });
      if (done.status !== 202) throw new Error(`notifications/initialized: HTTP ${done.status}`);
      // The notification stream, as copilot opens it at once.
      stream = http.request({
        socketPath: lock.socketPath, path: '/mcp', method: 'GET',
        headers: { ...lock.headers, Host: 'localhost', Accept: 'text/event-stream', 'Mcp-Session-Id': session },
      }, (res) => {
        let buf = '';
        res.setEncoding('utf8');
        res.on('data', (d) => {
          buf += d;
          let i;
          while ((i = buf.indexOf('\n\n')) >= 0) {
            const ev = buf.slice(0, i);
            buf = buf.slice(i + 2);
            const data = ev.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart()).join('');
            if (data) deliver(JSON.parse(data));
          }
        });
      });
      stream.on('error', () => {});
      stream.end();
      return result;
    },
    /** A tool call; resolves with the parsed JSON of its first text block (open_diff blocks). */
    async call(name, args) {
      const result = await rpc('tools/call', { name, arguments: args });
      const text = result.content?.find((c) => c.type === 'text')?.text;
      return { result, json: text === undefined ? undefined : JSON.parse(text) };
    },
    /** Resolves with the first notification (seen or to come) that `match`es, within `timeoutMs`. */
    waitNotification(match, timeoutMs, what) {
      const seen = notes.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs);
        waiters.push({ match, resolve: (m) => { clearTimeout(timer); resolve(m); } });
      });
    },
    close() {
      stream?.destroy();
    },
  };
}
