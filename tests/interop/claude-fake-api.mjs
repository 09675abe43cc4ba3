// A tiny stand-in for the Anthropic Messages API, for the real `claude` binary in tests.
// See claude/README.md.
//
// Deterministic, driven by the conversation claude sends and by plans the test adds
// ({trigger, filePath, content, final}, several at once for several sessions):
//   - a request without tools (a side request: title, topic, quota check) gets a short text;
//   - a request whose last user message contains a plan's trigger gets a `Read` tool_use of
//     plan.filePath (claude refuses to overwrite a file it has not read in the session);
//   - a request whose last message is the result of that Read gets a `Write` tool_use with
//     plan.content (or plan.tool with plan.input: an `Edit`): claude asks for permission and,
//     connected to an IDE, calls `openDiff`;
//   - with plan.then ({tool, input}, e.g. a `Bash` command), the Write's result gets that call,
//     and its result plan.final;
//   - a request whose last message is the result of that Write gets plan.final as text;
//   - anything else gets "ok".
// Answers are streamed (SSE) when asked, plain JSON otherwise. Every request is recorded and
// announced, so tests wait on events instead of sleeping.
import { startFakeServer, sendJson, sendEvents, requestLog } from './lib/fake-server.mjs';

const MODEL = 'claude-redline-fake';

function blocks(content) {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content : [];
}

function textOf(content) {
  return blocks(content)
    .map((b) => (b?.type === 'text' ? b.text ?? '' : ''))
    .join('\n');
}

export async function startFakeApi({ log = () => {}, host = '127.0.0.1' } = {}) {
  const seen = requestLog();
  const plans = [];
  let seq = 0;

  function decide(body) {
    const hasTools = Array.isArray(body?.tools) && body.tools.some((t) => t?.name === 'Write');
    if (!hasTools) return { kind: 'side', text: 'ok' };
    // claude appends system messages after the user's turn: the user's last message decides.
    const msgs = (Array.isArray(body?.messages) ? body.messages : []).filter((m) => m?.role !== 'system');
    const last = msgs[msgs.length - 1];
    if (last?.role !== 'user') return { kind: 'text', text: 'ok' };
    // A new prompt first: after a rejected Write claude ends the turn, and the next prompt
    // arrives in the same user message as that Write's (rejected) result.
    const said = textOf(last.content);
    const i = plans.findIndex((p) => said.includes(p.trigger));
    if (i >= 0) {
      return {
        kind: 'read',
        plan: i,
        call: { id: `toolu_rl_read_${i}_${++seq}`, name: 'Read', input: { file_path: plans[i].filePath } },
      };
    }
    const result = blocks(last.content).find((b) => b?.type === 'tool_result');
    const m = result && /^toolu_rl_(read|write|then)_(\d+)_/.exec(String(result.tool_use_id));
    const plan = m && plans[Number(m[2])];
    if (plan && m[1] === 'read') {
      return {
        kind: 'write',
        plan: Number(m[2]),
        call: {
          id: `toolu_rl_write_${m[2]}_${++seq}`,
          name: plan.tool ?? 'Write',
          input: plan.input ?? { file_path: plan.filePath, content: plan.content },
        },
      };
    }
    // plan.then (e.g. a `Bash` tool_use): one more call after the write, before the final text.
    if (plan && m[1] === 'write' && plan.then) {
      return {
        kind: 'then',
        plan: Number(m[2]),
        call: { id: `toolu_rl_then_${m[2]}_${++seq}`, name: plan.then.tool, input: plan.then.input },
      };
    }
    if (plan && (m[1] === 'write' || m[1] === 'then')) return { kind: 'final', plan: Number(m[2]), text: plan.final, result };
    return { kind: 'text', text: 'ok' };
  }

  function message(d) {
    const content = d.call
      ? [{ type: 'tool_use', id: d.call.id, name: d.call.name, input: d.call.input }]
      : [{ type: 'text', text: d.text }];
    return {
      id: `msg_rl_${++seq}`,
      type: 'message',
      role: 'assistant',
      model: MODEL,
      content,
      stop_reason: d.call ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5 },
    };
  }

  function sse(d) {
    const msg = message(d);
    const out = [];
    const ev = (type, data) => out.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    ev('message_start', { message: { ...msg, content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 1 } } });
    if (d.call) {
      ev('content_block_start', { index: 0, content_block: { type: 'tool_use', id: d.call.id, name: d.call.name, input: {} } });
      ev('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(d.call.input) } });
    } else {
      ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
      ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: d.text } });
    }
    ev('content_block_stop', { index: 0 });
    ev('message_delta', { delta: { stop_reason: msg.stop_reason, stop_sequence: null }, usage: { output_tokens: 5 } });
    ev('message_stop', {});
    return out.join('');
  }

  const server = await startFakeServer({
    host,
    handle(req, res, url, raw) {
      if (req.method !== 'POST' || url.pathname !== '/v1/messages') {
        log(`fake api: 404 ${req.method} ${req.url}`);
        return sendJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: 'not found' } });
      }
      let body;
      try {
        body = JSON.parse(raw);
      } catch {
        return sendJson(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: 'bad json' } });
      }
      const d = decide(body);
      const record = { n: seen.requests.length + 1, body, decision: d, stream: !!body.stream };
      log(`fake api: request #${record.n} stream=${record.stream} -> ${d.kind}${d.call ? ' ' + d.call.name : ''}`);
      if (body.stream) sendEvents(res, sse(d));
      else sendJson(res, 200, message(d));
      seen.add(record);
    },
  });

  return {
    port: server.port,
    baseURL: `http://${host}:${server.port}`,
    requests: seen.requests,
    /** Adds a plan {trigger, filePath, content, final, tool?, input?, then?: {tool, input}}; returns its index. */
    addPlan(p) {
      plans.push(p);
      return plans.length - 1;
    },
    waitFor: (pred, timeoutMs, what = 'a matching API request') => seen.waitFor(pred, timeoutMs, what),
    close: server.close,
  };
}
