// Reference MCP server for the bench: the official TypeScript SDK's
// StreamableHTTPServerTransport in stateful mode, answering the same tools as
// Redline (openDiff, closeDiff). Used only by bench/ as a yardstick.
//
// - Node's own http server on 127.0.0.1, port 0 (or $REF_PORT).
// - Guards like Redline's: Origin header -> 403, Host other than
//   127.0.0.1:PORT / localhost:PORT -> 403, missing or wrong bearer token
//   ($REF_TOKEN) -> 401 (constant-time compare).
// - Stateful sessions exactly as the SDK's simpleStreamableHttp example: a
//   transport (sessionIdGenerator: randomUUID) and an McpServer per session,
//   kept in a Map by session id; POST/GET/DELETE /mcp.
// - SDK default response mode: POST requests are answered with an SSE stream
//   (enableJsonResponse: false), no event store (so no priming events, no ids).
//   REF_JSON_RESPONSE=1 switches to plain JSON responses (enableJsonResponse: true).
// - No per-request logging.
// Prints {"port": N} as one JSON line on stdout once listening.
import http from 'node:http';
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const TOKEN = process.env.REF_TOKEN;
if (!TOKEN) {
    console.error('server.mjs: REF_TOKEN must be set');
    process.exit(2);
}
const TOKEN_BUF = Buffer.from(`Bearer ${TOKEN}`);
const MAX_BODY = 16 * 1024 * 1024;
const JSON_RESPONSE = process.env.REF_JSON_RESPONSE === '1';

/** @type {Map<string, StreamableHTTPServerTransport>} */
const transports = new Map();

function getServer() {
    const server = new McpServer({ name: 'redline-bench-reference', version: '0.0.0' });
    server.registerTool(
        'openDiff',
        {
            description: 'Open a diff view to create or modify a file.',
            inputSchema: { filePath: z.string(), newContent: z.string() }
        },
        async () => ({ content: [] })
    );
    server.registerTool(
        'closeDiff',
        {
            description: 'Close a diff view for a specific file.',
            inputSchema: { filePath: z.string(), suppressNotification: z.boolean().optional() }
        },
        async () => ({ content: [{ type: 'text', text: JSON.stringify({ content: null }) }] })
    );
    return server;
}

function sendJson(res, status, body) {
    const data = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) });
    res.end(data);
}

function rpcError(res, status, code, message) {
    sendJson(res, status, { jsonrpc: '2.0', error: { code, message }, id: null });
}

function authorized(req) {
    const h = req.headers.authorization;
    if (typeof h !== 'string') return false;
    const b = Buffer.from(h);
    return b.length === TOKEN_BUF.length && timingSafeEqual(b, TOKEN_BUF);
}

function readBody(req) {
    return new Promise((resolve, reject) => {
        const chunks = [];
        let size = 0;
        req.on('data', c => {
            size += c.length;
            if (size > MAX_BODY) {
                reject(new Error('body too large'));
                req.destroy();
                return;
            }
            chunks.push(c);
        });
        req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        req.on('error', reject);
    });
}

let allowedHosts = [];

async function handle(req, res) {
    const url = req.url || '';
    if (url !== '/mcp' && !url.startsWith('/mcp?')) {
        res.writeHead(404).end();
        return;
    }
    if (req.headers.origin !== undefined || !allowedHosts.includes(req.headers.host)) {
        res.writeHead(403).end();
        return;
    }
    if (!authorized(req)) {
        res.writeHead(401).end();
        return;
    }
    const sid = req.headers['mcp-session-id'];
    if (req.method === 'POST') {
        let body;
        try {
            body = JSON.parse(await readBody(req));
        } catch {
            rpcError(res, 400, -32700, 'Parse error');
            return;
        }
        let transport = sid ? transports.get(sid) : undefined;
        if (!transport) {
            if (sid) {
                rpcError(res, 404, -32001, 'Session not found');
                return;
            }
            if (!isInitializeRequest(body)) {
                rpcError(res, 400, -32000, 'Bad Request: No valid session ID provided');
                return;
            }
            const t = new StreamableHTTPServerTransport({
                sessionIdGenerator: () => randomUUID(),
                enableJsonResponse: JSON_RESPONSE,
                onsessioninitialized: id => {
                    transports.set(id, t);
                }
            });
            t.onclose = () => {
                if (t.sessionId) transports.delete(t.sessionId);
            };
            await getServer().connect(t);
            transport = t;
        }
        await transport.handleRequest(req, res, body);
        return;
    }
    if (req.method === 'GET' || req.method === 'DELETE') {
        if (!sid) {
            rpcError(res, 400, -32000, 'Missing session ID');
            return;
        }
        const transport = transports.get(sid);
        if (!transport) {
            rpcError(res, 404, -32001, 'Session not found');
            return;
        }
        await transport.handleRequest(req, res);
        return;
    }
    res.writeHead(405, { allow: 'GET, POST, DELETE' }).end();
}

const httpServer = http.createServer((req, res) => {
    handle(req, res).catch(err => {
        console.error('server.mjs: request failed:', err);
        if (!res.headersSent) rpcError(res, 500, -32603, 'Internal server error');
        else res.destroy();
    });
});
// Node's default keep-alive timeout is 5 s; the bench holds connections idle
// between phases, so keep them a little longer.
httpServer.keepAliveTimeout = 60_000;

httpServer.listen(Number(process.env.REF_PORT || 0), '127.0.0.1', () => {
    const { port } = httpServer.address();
    allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`];
    process.stdout.write(JSON.stringify({ port }) + '\n');
});

async function shutdown() {
    for (const t of transports.values()) {
        try {
            await t.close();
        } catch {
            // ignore
        }
    }
    httpServer.close();
    httpServer.closeAllConnections();
    process.exit(0);
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
