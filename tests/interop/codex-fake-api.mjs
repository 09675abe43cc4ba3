// A tiny stand-in for the OpenAI Responses API, for the real `codex` binary (0.171) in tests.
//
// Deterministic, driven by the conversation codex sends and by plans the test adds
// ({trigger, patch, final}):
//   - a request whose last user message contains a plan's trigger gets an apply_patch call with
//     plan.patch, in the shape the request's `tools` offer: a direct freeform `apply_patch` tool
//     (a custom_tool_call), or, in "code mode" (one JavaScript `exec` tool), an `exec` call whose
//     script runs `await tools.apply_patch(patch)`;
//   - a request whose last input item is that call's output gets plan.final as text;
//   - a structured side request (the TUI's thread title) gets a JSON title;
//   - anything else gets "ok".
// Answers stream as SSE (codex only streams). Every request is recorded and announced, so tests
// wait on events instead of sleeping, and can read what the model was told (outputs, hook notes).
import { startFakeServer, sendJson, sendEvents, requestLog } from './lib/fake-server.mjs';

export const MODEL = 'gpt-5.5';

function textOf(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((c) => (typeof c?.text === 'string' ? c.text : '')).join('\n');
}

/** The text of an input item of any kind (messages, tool outputs), for searching what the model saw. */
export function itemText(item) {
  if (!item || typeof item !== 'object') return '';
  if (item.type === 'message' || item.role) return textOf(item.content);
  if (typeof item.output === 'string') return item.output;
  if (Array.isArray(item.output)) return textOf(item.output);
  if (item.output && typeof item.output === 'object') return JSON.stringify(item.output);
  return '';
}

/** Everything a request put in front of the model after its last assistant tool call, as one string. */
export function textAfterCall(body) {
  const input = Array.isArray(body?.input) ? body.input : [];
  let i = input.length - 1;
  while (i >= 0 && !/_call$/.test(input[i]?.type ?? '')) i--;
  return input.slice(i + 1).map(itemText).join('\n');
}

/**
 * Every tool a request offers, namespaces flattened: the bundled "code mode" models get theirs in
 * an `additional_tools` input item instead of `tools`.
 */
export function offeredTools(body) {
  const out = [];
  const walk = (list) => {
    for (const t of Array.isArray(list) ? list : []) {
      if (t?.type === 'namespace') walk(t.tools);
      else if (t) out.push(t);
    }
  };
  walk(body?.tools);
  for (const item of Array.isArray(body?.input) ? body.input : []) {
    if (item?.type === 'additional_tools') walk(item.tools);
  }
  return out;
}

/** How the request offers apply_patch: 'freeform' (gpt-5.5), 'code' (a JS exec tool: gpt-6-sol) or null. */
export function toolShape(body) {
  const tools = offeredTools(body);
  const named = (n) => tools.find((t) => t?.name === n && t.type === 'custom');
  if (named('apply_patch')) return 'freeform';
  if (named('exec')) return 'code';
  return null;
}

export async function startFakeApi({ log = () => {}, host = '127.0.0.1' } = {}) {
  const seen = requestLog();
  const plans = [];
  let seq = 0;

  function decide(body) {
    // The TUI asks, in parallel with the turn, for a thread title under a JSON schema, with the
    // same input and tools: answered as a plan it would apply the patch a second time.
    if (body?.text?.format?.type === 'json_schema') return { kind: 'side', text: JSON.stringify({ title: 'Redline interop' }) };
    const input = Array.isArray(body?.input) ? body.input : [];
    const last = input[input.length - 1];
    const m = /^call_rl_(\d+)_/.exec(String(last?.call_id ?? ''));
    if (m && /_output$/.test(last?.type ?? '')) {
      return { kind: 'final', plan: Number(m[1]), text: plans[Number(m[1])]?.final ?? 'done', output: itemText(last) };
    }
    if (last?.role === 'user') {
      const said = textOf(last.content);
      const i = plans.findIndex((p) => said.includes(p.trigger));
      if (i >= 0) {
        const shape = toolShape(body);
        if (!shape) return { kind: 'text', text: 'no apply_patch tool offered' };
        return { kind: 'call', plan: i, shape, callId: `call_rl_${i}_${++seq}` };
      }
    }
    return { kind: 'text', text: 'ok' };
  }

  function outputItem(d) {
    if (d.kind !== 'call') {
      return {
        type: 'message',
        id: `msg_rl_${++seq}`,
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: d.text, annotations: [] }],
      };
    }
    const patch = plans[d.plan].patch;
    if (d.shape === 'freeform') {
      return { type: 'custom_tool_call', id: `ctc_rl_${seq}`, status: 'completed', call_id: d.callId, name: 'apply_patch', input: patch };
    }
    // Code mode: the model writes JavaScript; what it passes to text() is the output it reads.
    const js = `const r = await tools.apply_patch(${JSON.stringify(patch)});\ntext(typeof r === 'string' ? r : JSON.stringify(r));\n`;
    return { type: 'custom_tool_call', id: `ctc_rl_${seq}`, status: 'completed', call_id: d.callId, name: 'exec', input: js };
  }

  function sse(d, model) {
    const id = `resp_rl_${++seq}`;
    const item = outputItem(d);
    const out = [];
    const ev = (type, data) => out.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    ev('response.created', { response: { id, object: 'response', status: 'in_progress', model } });
    ev('response.output_item.added', { output_index: 0, item });
    ev('response.output_item.done', { output_index: 0, item });
    ev('response.completed', {
      response: {
        id,
        object: 'response',
        status: 'completed',
        model,
        output: [item],
        usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 },
      },
    });
    return out.join('');
  }

  const server = await startFakeServer({
    host,
    handle(req, res, url, raw) {
      // The model catalogue: 0.171 with a custom provider never asked for it; a later codex
      // might, and an empty list keeps its bundled one.
      if (req.method === 'GET' && url.pathname === '/v1/models') {
        log(`fake api: GET ${req.url}`);
        return sendJson(res, 200, { object: 'list', data: [], models: [] });
      }
      if (req.method !== 'POST' || url.pathname !== '/v1/responses') {
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
      log(`fake api: request #${record.n} -> ${d.kind}${d.shape ? ' ' + d.shape : ''}`);
      sendEvents(res, sse(d, body.model ?? MODEL));
      seen.add(record);
    },
  });

  return {
    port: server.port,
    baseURL: `http://${host}:${server.port}/v1`,
    requests: seen.requests,
    /** Adds a plan {trigger, patch, final}; returns its index. */
    addPlan(p) {
      plans.push(p);
      return plans.length - 1;
    },
    waitFor: (pred, timeoutMs, what = 'a matching API request') => seen.waitFor(pred, timeoutMs, what),
    close: server.close,
  };
}
