// A tiny OpenAI-compatible chat-completions server that stands in for the model
// when the real `qwen` binary runs in tests. See qwen/README.md.
//
// It is deterministic and driven by the conversation qwen sends:
//   - a request without tools (a side request: title, summary, checks) gets a short text;
//   - a main request whose last message is the user's prompt, while a plan is set,
//     gets a `read_file` tool call for plan.filePath (qwen refuses to overwrite a
//     file it has not read in the session);
//   - a main request whose last tool result answers that read gets a `write_file`
//     tool call with plan.content, or plan.tool with plan.args (this is what makes qwen ask for confirmation
//     and, in IDE mode, call the companion's `openDiff`);
//   - a main request whose last tool result answers the write gets plan.final as text;
//   - with plan.calls (a list of {name, args}) instead: the prompt gets calls[0], the result of
//     each call the next one, the last one's result plan.final (a turn of several tools);
//   - anything else gets "ok".
// Every request is recorded and announced, so tests synchronise on events instead
// of sleeping.
import { startFakeServer, sendJson, sendEvents, requestLog } from './lib/fake-server.mjs';

const MODEL = 'redline-fake-model';

function lastMessage(body) {
  const msgs = Array.isArray(body?.messages) ? body.messages : [];
  return msgs[msgs.length - 1];
}

function textOf(content) {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((p) => (typeof p === 'string' ? p : p?.text ?? '')).join('');
  }
  return '';
}

export async function startFakeModel({ log = () => {}, host = '127.0.0.1' } = {}) {
  const seen = requestLog();
  let plan = null;
  let seq = 0;

  function decide(body) {
    const hasTools = Array.isArray(body?.tools) && body.tools.length > 0;
    if (!hasTools) return { kind: 'side', text: 'ok' };
    const last = lastMessage(body);
    if (!plan) return { kind: 'text', text: 'ok' };
    if (plan.calls) return decideCalls(last);
    if (last?.role === 'user' && textOf(last.content).includes(plan.trigger)) {
      return {
        kind: 'read',
        call: { id: `rl_read_${++seq}`, name: 'read_file', args: { file_path: plan.filePath } },
      };
    }
    if (last?.role === 'tool' && String(last.tool_call_id).startsWith('rl_read_')) {
      return {
        kind: 'write',
        call: {
          id: `rl_write_${++seq}`,
          name: plan.tool ?? 'write_file',
          args: plan.args ?? { file_path: plan.filePath, content: plan.content },
        },
      };
    }
    if (last?.role === 'tool' && String(last.tool_call_id).startsWith('rl_write_')) {
      return { kind: 'final', trigger: plan.trigger, text: plan.final, toolResult: textOf(last.content) };
    }
    return { kind: 'text', text: 'ok' };
  }

  /** The next of plan.calls, as the conversation's last message says. */
  function decideCalls(last) {
    const call = (i) => ({ kind: 'call', call: { id: `rl_call_${i}_${++seq}`, ...plan.calls[i] } });
    if (last?.role === 'user' && textOf(last.content).includes(plan.trigger)) return call(0);
    const done = last?.role === 'tool' && /^rl_call_(\d+)_/.exec(String(last.tool_call_id));
    if (!done) return { kind: 'text', text: 'ok' };
    const next = Number(done[1]) + 1;
    if (next < plan.calls.length) return call(next);
    return { kind: 'final', trigger: plan.trigger, text: plan.final, toolResult: textOf(last.content) };
  }

  function completionJson(d) {
    const message = d.call
      ? {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: d.call.id,
              type: 'function',
              function: { name: d.call.name, arguments: JSON.stringify(d.call.args) },
            },
          ],
        }
      : { role: 'assistant', content: d.text };
    return {
      id: `chatcmpl-${seq}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: MODEL,
      choices: [{ index: 0, message, finish_reason: d.call ? 'tool_calls' : 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    };
  }

  function streamChunks(d) {
    const base = {
      id: `chatcmpl-${seq}`,
      object: 'chat.completion.chunk',
      created: Math.floor(Date.now() / 1000),
      model: MODEL,
    };
    const chunks = [];
    if (d.call) {
      chunks.push({
        ...base,
        choices: [{ index: 0, delta: { role: 'assistant', content: null }, finish_reason: null }],
      });
      chunks.push({
        ...base,
        choices: [
          {
            index: 0,
            delta: {
              tool_calls: [
                {
                  index: 0,
                  id: d.call.id,
                  type: 'function',
                  function: { name: d.call.name, arguments: JSON.stringify(d.call.args) },
                },
              ],
            },
            finish_reason: null,
          },
        ],
      });
      chunks.push({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] });
    } else {
      chunks.push({
        ...base,
        choices: [{ index: 0, delta: { role: 'assistant', content: d.text }, finish_reason: null }],
      });
      chunks.push({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
    }
    chunks.push({
      ...base,
      choices: [],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    });
    return chunks;
  }

  const server = await startFakeServer({
    host,
    handle(req, res, url, raw) {
      if (req.method === 'GET' && url.pathname.endsWith('/models')) {
        return sendJson(res, 200, { object: 'list', data: [{ id: MODEL, object: 'model' }] });
      }
      if (req.method !== 'POST' || !url.pathname.endsWith('/chat/completions')) {
        log(`fake model: 404 ${req.method} ${req.url}`);
        return sendJson(res, 404, { error: { message: 'not found' } });
      }
      let body;
      try {
        body = JSON.parse(raw);
      } catch {
        return sendJson(res, 400, { error: { message: 'bad json' } });
      }
      const d = decide(body);
      const record = { n: seen.requests.length + 1, body, decision: d, stream: !!body.stream };
      log(`fake model: request #${record.n} stream=${record.stream} -> ${d.kind}${d.call ? ' ' + d.call.name : ''}`);
      if (body.stream) {
        const chunks = streamChunks(d).map((c) => `data: ${JSON.stringify(c)}\n\n`);
        sendEvents(res, chunks.join('') + 'data: [DONE]\n\n', { connection: 'keep-alive' });
      } else {
        sendJson(res, 200, completionJson(d));
      }
      seen.add(record);
    },
  });

  return {
    port: server.port,
    baseURL: `http://${host}:${server.port}/v1`,
    model: MODEL,
    requests: seen.requests,
    events: seen.events,
    /** plan = {trigger, filePath, content, final, tool?, args?} or {trigger, calls, final}; null clears it. */
    setPlan(p) {
      plan = p;
    },
    waitFor: (pred, timeoutMs, what = 'a matching model request') => seen.waitFor(pred, timeoutMs, what),
    close: server.close,
  };
}
