// A tiny stand-in for an OpenAI-compatible chat completions API, for the real `opencode` binary
// (opencode-ai 1.18.33, provider `@ai-sdk/openai-compatible`) in tests.
//
// Deterministic, driven by the conversation opencode sends and by plans the test adds
// ({trigger, tool, args, final}):
//   - a request whose last user message contains a plan's trigger gets one call of plan.tool
//     with plan.args;
//   - a request whose last message is that call's result gets the next of plan.then's calls
//     ([{tool, args}], one a request: a turn of several tools), then plan.final as text;
//   - anything else (the session title opencode asks for on the side) gets "ok".
// Answers stream as SSE. Every request is recorded and announced, so tests wait on events
// instead of sleeping, and can read what the model was told (tool results, the prompt).
import { startFakeServer, sendJson, sendEvents, requestLog } from './lib/fake-server.mjs';

export const MODEL = 'fake-model';

/** The text of a chat message's content, whatever its shape. */
export function contentText(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((c) => (typeof c?.text === 'string' ? c.text : '')).join('\n');
}

/** Every user message's text in a request, joined: what opencode put in front of the model. */
export function userText(body) {
  return (body?.messages ?? []).filter((m) => m.role === 'user').map((m) => contentText(m.content)).join('\n');
}

export async function startFakeApi({ log = () => {}, host = '127.0.0.1' } = {}) {
  const seen = requestLog();
  const plans = [];
  let seq = 0;

  function decide(body) {
    const messages = Array.isArray(body?.messages) ? body.messages : [];
    const last = messages[messages.length - 1];
    const m = /^call_rl_(\d+)_(?:s(\d+)_)?/.exec(String(last?.tool_call_id ?? ''));
    if (last?.role === 'tool' && m) {
      const step = Number(m[2] ?? 0);
      const next = plans[Number(m[1])]?.then?.[step];
      if (next) return { kind: 'call', plan: Number(m[1]), step: step + 1, callId: `call_rl_${m[1]}_s${step + 1}_${++seq}` };
      return { kind: 'final', plan: Number(m[1]), text: plans[Number(m[1])]?.final ?? 'done', output: contentText(last.content) };
    }
    if (last?.role === 'user') {
      const said = contentText(last.content);
      const i = plans.findIndex((p) => said.includes(p.trigger));
      if (i >= 0) {
        const offered = (body.tools ?? []).map((t) => t?.function?.name);
        if (!offered.includes(plans[i].tool)) return { kind: 'text', text: `no ${plans[i].tool} tool offered: ${offered.join(' ')}` };
        return { kind: 'call', plan: i, callId: `call_rl_${i}_${++seq}` };
      }
    }
    return { kind: 'text', text: 'ok' };
  }

  function sse(d, model) {
    const id = `chatcmpl_rl_${++seq}`;
    const out = [];
    const chunk = (delta, finish = null) =>
      out.push(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
    if (d.kind === 'call') {
      const p = d.step ? plans[d.plan].then[d.step - 1] : plans[d.plan];
      chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: d.callId, type: 'function', function: { name: p.tool, arguments: JSON.stringify(p.args) } }] });
      chunk({}, 'tool_calls');
    } else {
      chunk({ role: 'assistant', content: d.text });
      chunk({}, 'stop');
    }
    out.push(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model, choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } })}\n\n`);
    out.push('data: [DONE]\n\n');
    return out.join('');
  }

  const server = await startFakeServer({
    host,
    handle(req, res, url, raw) {
      if (req.method === 'GET' && url.pathname === '/v1/models') {
        return sendJson(res, 200, { object: 'list', data: [{ id: MODEL, object: 'model' }] });
      }
      if (req.method !== 'POST' || url.pathname !== '/v1/chat/completions') {
        log(`fake api: 404 ${req.method} ${req.url}`);
        return sendJson(res, 404, { error: { message: 'not found', type: 'invalid_request_error' } });
      }
      let body;
      try {
        body = JSON.parse(raw);
      } catch {
        return sendJson(res, 400, { error: { message: 'bad json', type: 'invalid_request_error' } });
      }
      const d = decide(body);
      const record = { n: seen.requests.length + 1, body, decision: d };
      log(`fake api: request #${record.n} -> ${d.kind}`);
      sendEvents(res, sse(d, body.model ?? MODEL));
      seen.add(record);
    },
  });

  return {
    port: server.port,
    baseURL: `http://${host}:${server.port}/v1`,
    requests: seen.requests,
    /** Adds a plan {trigger, tool, args, final}; returns its index. */
    addPlan(p) {
      plans.push(p);
      return plans.length - 1;
    },
    waitFor: (pred, timeoutMs, what = 'a matching API request') => seen.waitFor(pred, timeoutMs, what),
    close: server.close,
  };
}
