// A tiny stand-in for the OpenAI Chat Completions API, for the real `copilot` binary (BYOK) in tests.
// See copilot/README.md.
//
// Deterministic, driven by the conversation copilot sends and by plans the test adds
// ({trigger, path, oldStr, newStr, final}, or {trigger, path, fileText, final} for a `create`;
// several at once for several sessions):
//   - a request without the `edit` tool (a side request: session title, summary) gets "ok";
//   - a request whose last user message contains a plan's trigger gets one `edit` tool call
//     {path, old_str, new_str}: copilot asks permission for it (and, connected to an IDE, sends
//     `open_diff` with the whole new file);
//   - a request whose last message is that call's tool result gets plan.final as text (or, with
//     plan.then = {name, arguments}, that tool call first, and plan.final after its result);
//   - anything else gets "ok".
// Answers are streamed (SSE chunks, then `data: [DONE]`) when asked, plain JSON otherwise. Every
// request is recorded and announced, so tests wait on events instead of sleeping.
import { startFakeServer, sendJson, sendEvents, requestLog } from './lib/fake-server.mjs';

// The tool copilot 1.0.102 offers the model for a file edit (`edit {path, old_str, new_str}`).
export const EDIT_TOOL = 'edit';
// Its tool for a new file (`create {path, file_text}`): a plan with `fileText` calls it.
export const CREATE_TOOL = 'create';

function textOf(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p) => (p?.type === 'text' ? p.text ?? '' : '')).join('\n');
}

function toolNames(body) {
  return (Array.isArray(body?.tools) ? body.tools : []).map((t) => t?.function?.name).filter(Boolean);
}

export async function startFakeApi({ log = () => {}, host = '127.0.0.1' } = {}) {
  const seen = requestLog();
  const plans = [];
  let seq = 0;

  function decide(body) {
    if (!toolNames(body).includes(EDIT_TOOL)) return { kind: 'side', text: 'ok' };
    // copilot may add system/developer messages: the last user or tool message decides. A
    // preToolUse hook's additionalContext comes as a user message after the tool's result.
    const hookNote = (m) => m?.role === 'user' && textOf(m.content).startsWith('Additional context from preToolUse hook');
    const msgs = (Array.isArray(body?.messages) ? body.messages : []).filter((m) => (m?.role === 'user' || m?.role === 'tool') && !hookNote(m));
    const last = msgs[msgs.length - 1];
    if (last?.role === 'user') {
      const said = textOf(last.content);
      const i = plans.findIndex((p) => said.includes(p.trigger));
      if (i < 0) return { kind: 'text', text: 'ok' };
      const p = plans[i];
      return {
        kind: 'edit',
        plan: i,
        call: {
          id: `call_rl_edit_${i}_${++seq}`,
          name: p.fileText === undefined ? EDIT_TOOL : CREATE_TOOL,
          arguments: p.fileText === undefined ? { path: p.path, old_str: p.oldStr, new_str: p.newStr } : { path: p.path, file_text: p.fileText },
        },
      };
    }
    const m = last && /^call_rl_edit_(\d+)_/.exec(String(last.tool_call_id));
    const plan = m && plans[Number(m[1])];
    // A plan's `then` ({name, arguments}): one more tool call after the edit's result.
    if (plan?.then) return { kind: 'then', plan: Number(m[1]), call: { id: `call_rl_then_${m[1]}_${++seq}`, ...plan.then } };
    const t = last && /^call_rl_then_(\d+)_/.exec(String(last.tool_call_id));
    const after = t && plans[Number(t[1])];
    if (after) return { kind: 'final', plan: Number(t[1]), text: after.final, result: textOf(last.content) };
    if (plan) return { kind: 'final', plan: Number(m[1]), text: plan.final, result: textOf(last.content) };
    return { kind: 'text', text: 'ok' };
  }

  function completion(d, model) {
    const message = d.call
      ? {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: d.call.id, type: 'function', function: { name: d.call.name, arguments: JSON.stringify(d.call.arguments) } }],
        }
      : { role: 'assistant', content: d.text };
    return {
      id: `chatcmpl-rl-${++seq}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message, finish_reason: d.call ? 'tool_calls' : 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    };
  }

  function sse(d, model, includeUsage) {
    const id = `chatcmpl-rl-${++seq}`;
    const created = Math.floor(Date.now() / 1000);
    const out = [];
    const chunk = (delta, finish, extra = {}) =>
      out.push(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`,
      );
    if (d.call) {
      chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: d.call.id, type: 'function', function: { name: d.call.name, arguments: '' } }] }, null);
      chunk({ tool_calls: [{ index: 0, function: { arguments: JSON.stringify(d.call.arguments) } }] }, null);
      chunk({}, 'tool_calls');
    } else {
      chunk({ role: 'assistant', content: '' }, null);
      chunk({ content: d.text }, null);
      chunk({}, 'stop');
    }
    if (includeUsage) {
      out.push(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } })}\n\n`,
      );
    }
    out.push('data: [DONE]\n\n');
    return out.join('');
  }

  const server = await startFakeServer({
    host,
    handle(req, res, url, raw) {
      if (req.method !== 'POST' || !url.pathname.endsWith('/chat/completions')) {
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
      const record = { n: seen.requests.length + 1, body, headers: req.headers, decision: d, stream: !!body.stream };
      log(`fake api: request #${record.n} stream=${record.stream} tools=${toolNames(body).length} -> ${d.kind}${d.call ? ' ' + d.call.name : ''}`);
      const model = typeof body.model === 'string' ? body.model : 'redline-fake';
      if (body.stream) sendEvents(res, sse(d, model, !!body.stream_options?.include_usage));
      else sendJson(res, 200, completion(d, model));
      seen.add(record);
    },
  });

  return {
    port: server.port,
    baseURL: `http://${host}:${server.port}/v1`,
    requests: seen.requests,
    /**
     * Adds a plan {trigger, path, oldStr, newStr, final} (or {trigger, path, fileText, final}), with
     * `then` ({name, arguments}) one more tool call after the edit; returns its index.
     */
    addPlan(p) {
      plans.push(p);
      return plans.length - 1;
    },
    waitFor: (pred, timeoutMs, what = 'a matching API request') => seen.waitFor(pred, timeoutMs, what),
    close: server.close,
  };
}
