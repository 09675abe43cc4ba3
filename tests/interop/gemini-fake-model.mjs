// A tiny Gemini API (generateContent / streamGenerateContent / countTokens) that stands in for the
// model when the real `gemini` binary runs in tests, offline: GOOGLE_GEMINI_BASE_URL points here.
//
// Driven by the conversation, given a plan {trigger, filePath, content, final} (or, for another
// tool such as `replace`, {trigger, tool, args, final}; or, for several calls one after the
// other, {trigger, calls: [{name, args}, ...], final}):
//   - a request without tools (a side request: routing, next-speaker checks, titles) gets a JSON
//     text that answers those schemas ("the user speaks next");
//   - a main request whose last user text contains the trigger gets a `write_file` call (or
//     plan.tool with plan.args, or the first of plan.calls): kind `write`;
//   - a main request whose last part answers a call gets the plan's next call (kind `call`),
//     and after the last one plan.final as text (the function response is kept for the test);
//   - anything else gets "ok".
// Every request is recorded and announced, so tests wait on events, never on time.
import { startFakeServer, sendJson, sendEvents, requestLog } from './lib/fake-server.mjs';

const SIDE_JSON = JSON.stringify({ reasoning: 'the turn is complete', next_speaker: 'user', model_choice: 'flash' });

function partsOf(body) {
  const contents = Array.isArray(body?.contents) ? body.contents : [];
  return contents[contents.length - 1]?.parts ?? [];
}

/** The calls a plan makes, in order. */
function callsOf(plan) {
  if (plan.calls) return plan.calls;
  if (plan.tool) return [{ name: plan.tool, args: plan.args }];
  return [{ name: 'write_file', args: { file_path: plan.filePath, content: plan.content } }];
}

/** How many calls the model made since the user's last message with `trigger`. */
function callsSince(body, trigger) {
  const contents = Array.isArray(body?.contents) ? body.contents : [];
  const textOf = (c) => (c.parts ?? []).map((p) => p.text ?? '').join('');
  let from = contents.length;
  while (from > 0 && !(contents[from - 1].role === 'user' && textOf(contents[from - 1]).includes(trigger))) from -= 1;
  return contents.slice(from).flatMap((c) => (c.role === 'model' ? c.parts ?? [] : [])).filter((p) => p.functionCall).length;
}

export async function startGeminiFakeModel({ host = '127.0.0.1', log = () => {} } = {}) {
  const seen = requestLog();
  let plan = null;
  let seq = 0;

  function decide(body) {
    const hasTools = Array.isArray(body?.tools) && body.tools.some((t) => t.functionDeclarations?.length);
    if (!hasTools) return { kind: 'side', text: SIDE_JSON };
    const parts = partsOf(body);
    const text = parts.map((p) => p.text ?? '').join('');
    const response = parts.find((p) => p.functionResponse)?.functionResponse;
    const calls = plan ? callsOf(plan) : [];
    const made = plan && response ? callsSince(body, plan.trigger) : 0;
    if (made > 0 && response.name === calls[made - 1]?.name) {
      if (made < calls.length) return { kind: 'call', call: calls[made], toolResult: JSON.stringify(response.response) };
      return { kind: 'final', trigger: plan.trigger, text: plan.final, toolResult: JSON.stringify(response.response) };
    }
    if (plan && text.includes(plan.trigger)) return { kind: 'write', call: calls[0] };
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

  const server = await startFakeServer({
    host,
    handle(req, res, url, raw) {
      if (url.pathname.endsWith(':countTokens')) return sendJson(res, 200, { totalTokens: 10 });
      const stream = url.pathname.endsWith(':streamGenerateContent');
      if (req.method !== 'POST' || !(stream || url.pathname.endsWith(':generateContent'))) {
        log(`gemini fake model: 404 ${req.method} ${req.url}`);
        return sendJson(res, 404, { error: { code: 404, message: 'not found', status: 'NOT_FOUND' } });
      }
      let body;
      try {
        body = JSON.parse(raw);
      } catch {
        return sendJson(res, 400, { error: { code: 400, message: 'bad json', status: 'INVALID_ARGUMENT' } });
      }
      const d = decide(body);
      const record = { n: seen.requests.length + 1, body, decision: d, stream };
      log(`gemini fake model: #${record.n} ${stream ? 'stream' : 'plain'} -> ${d.kind}`);
      if (stream) sendEvents(res, `data: ${JSON.stringify(answer(d))}\r\n\r\n`);
      else sendJson(res, 200, answer(d));
      seen.add(record);
    },
  });
  return {
    port: server.port,
    baseURL: `http://${host}:${server.port}`,
    requests: seen.requests,
    setPlan(p) {
      plan = p;
    },
    waitFor: (pred, timeoutMs, what = 'a matching model request') => seen.waitFor(pred, timeoutMs, what),
    close: server.close,
  };
}
