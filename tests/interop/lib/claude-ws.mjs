// A small stand-in for Claude Code's IDE client: MCP (JSON-RPC 2.0) over a WebSocket, as the real
// `claude` speaks it to ws://127.0.0.1:PORT (subprotocol mcp, X-Claude-Code-Ide-Authorization).
// Node 20 has no WebSocket client, so this is RFC 6455 by hand: enough for text frames, pings and
// close. Used where the real binary would be too heavy (the desktop end-to-end tests).
//
//   const c = await connectClaudeWs({ port, token });
//   await c.initialize();                               // clientInfo claude-code 2.1.330
//   const r = await c.call('openDiff', {...});          // resolves when the user decides
//   c.notifications                                     // at_mentioned, selection_changed, ...
//   c.close();
import crypto from 'node:crypto';
import http from 'node:http';
import { EventEmitter } from 'node:events';
import { waitForEntry } from './wait.mjs';

function frame(opcode, payload) {
  const mask = crypto.randomBytes(4);
  // Bytes, not UTF-16 units: the length is the UTF-8 payload's.
  const body = Buffer.from(payload);
  const len = body.length;
  const head = len < 126 ? Buffer.alloc(2) : len < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
  head[0] = 0x80 | opcode;
  if (len < 126) head[1] = 0x80 | len;
  else if (len < 65536) {
    head[1] = 0x80 | 126;
    head.writeUInt16BE(len, 2);
  } else {
    head[1] = 0x80 | 127;
    head.writeBigUInt64BE(BigInt(len), 2);
  }
  for (let i = 0; i < body.length; i++) body[i] ^= mask[i % 4];
  return Buffer.concat([head, mask, body]);
}

export async function connectClaudeWs({ port, token, host = '127.0.0.1' }) {
  const req = http.request({
    host,
    port,
    path: '/',
    headers: {
      Connection: 'Upgrade',
      Upgrade: 'websocket',
      'Sec-WebSocket-Version': '13',
      'Sec-WebSocket-Key': crypto.randomBytes(16).toString('base64'),
      'Sec-WebSocket-Protocol': 'mcp',
      'X-Claude-Code-Ide-Authorization': token,
    },
  });
  const { res, socket, head } = await new Promise((resolve, reject) => {
    req.on('upgrade', (res, socket, head) => resolve({ res, socket, head }));
    req.on('response', (res) => reject(new Error(`WebSocket upgrade refused: HTTP ${res.statusCode}`)));
    req.on('error', reject);
    req.end();
  });
  if (res.headers['sec-websocket-protocol'] !== 'mcp') throw new Error('the server did not choose the mcp subprotocol');

  const events = new EventEmitter();
  const pending = new Map();
  const notifications = [];
  let buf = head ?? Buffer.alloc(0);
  let fragments = [];
  let closed = false;
  let nextId = 0;

  function onMessage(text) {
    const msg = JSON.parse(text);
    if (msg.id !== undefined && pending.has(msg.id)) {
      pending.get(msg.id)(msg);
      pending.delete(msg.id);
    } else if (msg.method) {
      notifications.push(msg);
      events.emit('notification', msg);
    }
  }

  function parse() {
    for (;;) {
      if (buf.length < 2) return;
      const fin = (buf[0] & 0x80) !== 0;
      const opcode = buf[0] & 0x0f;
      let len = buf[1] & 0x7f;
      let off = 2;
      if (len === 126) {
        if (buf.length < 4) return;
        len = buf.readUInt16BE(2);
        off = 4;
      } else if (len === 127) {
        if (buf.length < 10) return;
        len = Number(buf.readBigUInt64BE(2));
        off = 10;
      }
      if (buf.length < off + len) return;
      const payload = buf.subarray(off, off + len);
      buf = buf.subarray(off + len);
      if (opcode === 0x9) socket.write(frame(0xa, payload));
      else if (opcode === 0x8) {
        closed = true;
        events.emit('close');
        socket.end();
      } else if (opcode === 0x1 || opcode === 0x2 || opcode === 0x0) {
        fragments.push(Buffer.from(payload));
        if (fin) {
          const text = Buffer.concat(fragments).toString('utf8');
          fragments = [];
          onMessage(text);
        }
      }
    }
  }

  socket.on('data', (d) => {
    buf = Buffer.concat([buf, d]);
    parse();
  });
  socket.on('close', () => {
    closed = true;
    events.emit('close');
    for (const [, resolve] of pending) resolve({ error: { code: 0, message: 'connection closed' } });
    pending.clear();
  });
  parse();

  const c = {
    notifications,
    events,
    get closed() {
      return closed;
    },
    send(msg) {
      socket.write(frame(0x1, JSON.stringify(msg)));
    },
    /** A request; resolves with the whole response message. */
    request(method, params = {}) {
      const id = ++nextId;
      const p = new Promise((resolve) => pending.set(id, resolve));
      c.send({ jsonrpc: '2.0', id, method, params });
      return p;
    },
    notify(method, params = {}) {
      c.send({ jsonrpc: '2.0', method, params });
    },
    /** initialize, notifications/initialized and ide_connected, as claude does. */
    async initialize(version = '2.1.330') {
      const init = await c.request('initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'claude-code', version },
      });
      if (init.error) throw new Error(`initialize failed: ${JSON.stringify(init.error)}`);
      c.notify('notifications/initialized');
      c.notify('ide_connected', { pid: process.pid });
      await c.request('tools/list');
      return init.result;
    },
    /** tools/call; resolves with the result (or throws on a JSON-RPC error). */
    async call(name, args) {
      const res = await c.request('tools/call', { name, arguments: args });
      if (res.error) throw new Error(`${name}: ${JSON.stringify(res.error)}`);
      return res.result;
    },
    /** Resolves with the first notification (already received or future) matching pred. */
    waitNotification(pred, timeoutMs, what = 'a notification') {
      return waitForEntry(notifications, events, 'notification', pred, timeoutMs, what);
    },
    close() {
      if (!closed) socket.write(frame(0x8, Buffer.from([0x03, 0xe8])));
      socket.end();
    },
  };
  return c;
}
