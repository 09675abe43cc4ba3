// A tiny Gemini API (generateContent / streamGenerateContent / countTokens) that stands in for the
// model when the real `gemini` binary runs in tests, offline: GOOGLE_GEMINI_BASE_URL points here.
//
// Driven by the conversation, given a plan {trigger, filePath, content, final}:
//   - a request without tools (a side request: routing, next-speaker checks, titles) gets a JSON
//     text that answers those schemas ("the user speaks next");
//   - a main request whose last user text contains the trigger gets a `write_file` call;
//   - a main request whose last part answers that call gets plan.final as text (the function
//     response is kept for the test);
//   - anything else gets "ok".
// Every request is recorded and announced, so tests wait on events, never on time.
import http from 'node:http';
import { EventEmitter } from 'node:events';

const SIDE_JSON = JSON.stringify({ reasoning: 'the turn is complete', next_speaker: 'user', model_choice: 'flash' });

function partsOf(body) {
  const contents = Array.isArray(body?.contents) ? body.contents : [];
  return contents[contents.length - 1]?.parts ?? [];
}

export async function startGeminiFakeModel({ host = '127.0.0.1', log = () => {} } = {}) {
  const events = new EventEmitter();
  const requests = [];
  let plan = null;
  let seq = 0;

  function decide(body) {
    const hasTools = Array.isArray(body?.tools) && body.tools.some((t) => t.functionDeclarations?.length);
    if (!hasTools) return { kind: 'side', text: SIDE_JSON };
    const parts = partsOf(body);
    const text = parts.map((p) => p.text ?? '').join('');
    const response = parts.find((p) => p.functionResponse)?.functionResponse;
    if (plan && response?.name === 'write_file') {
      return { kind: 'final', text: plan.final, toolResult: JSON.stringify(response.response) };
    }
    if (plan && text.includes(plan.trigger)) {
      return { kind: 'write', call: { name: 'write_file', args: { file_path: plan.filePath, content: plan.content } } };
    }
    return { kind: 'text', text: 'ok' };
  }

  function answer(d) {
    const part = d.call ? { functionCall: { name: d.call.name, args: d.call.args } } : { text: d.text };
    return {
      candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
      modelVersion: 'redline-fake',
      responseId: `rl-${++seq}`,
    };
  }

  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const url = new URL(req.url, 'http://x');
      const json = (status, v) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(v));
      };
      if (url.pathname.endsWith(':countTokens')) return json(200, { totalTokens: 10 });
      const stream = url.pathname.endsWith(':streamGenerateContent');
      if (req.method !== 'POST' || !(stream || url.pathname.endsWith(':generateContent'))) {
        log(`gemini fake model: 404 ${req.method} ${req.url}`);
        return json(404, { error: { code: 404, message: 'not found', status: 'NOT_FOUND' } });
      }
      let body;
      try {
        body = JSON.parse(raw);
      } catch {
        return json(400, { error: { code: 400, message: 'bad json', status: 'INVALID_ARGUMENT' } });
      }
      const d = decide(body);
      const record = { n: requests.length + 1, body, decision: d, stream };
      requests.push(record);
      log(`gemini fake model: #${record.n} ${stream ? 'stream' : 'plain'} -> ${d.kind}`);
      if (stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.end(`data: ${JSON.stringify(answer(d))}\r\n\r\n`);
      } else {
        json(200, answer(d));
      }
      events.emit('request', record);
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  const { port } = server.address();
  return {
    port,
    baseURL: `http://${host}:${port}`,
    requests,
    setPlan(p) {
      plan = p;
    },
    /** Resolves with the first request (past or future) matching pred. */
    waitFor(pred, timeoutMs, what = 'a matching model request') {
      const found = requests.find(pred);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const onReq = (r) => {
          if (!pred(r)) return;
          clearTimeout(timer);
          events.off('request', onReq);
          resolve(r);
        };
        const timer = setTimeout(() => {
          events.off('request', onReq);
          reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}; requests: ${requests.map((r) => r.decision.kind).join(' ')}`));
        }, timeoutMs);
        events.on('request', onReq);
      });
    },
    close() {
      server.closeAllConnections?.();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
