// The REAL settings loader of Gemini CLI or Qwen Code, run on a HOME: `node settings-reader.mjs
// gemini|qwen HOME WS` prints {ok: true, settings} (the user's settings as the CLI read them) or
// {ok: false, error}. One process per read: Gemini CLI fixes its home folder when it loads.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const [cli, home, ws] = process.argv.slice(2);
process.env.HOME = home;
const modules = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'node_modules');
const chunk = {
  gemini: '@google/gemini-cli/bundle/chunk-2YTYPKEZ.js',
  qwen: '@qwen-code/qwen-code/chunks/chunk-LYEINKJD.js',
}[cli];
let out;
try {
  const m = await import(path.join(modules, chunk));
  const loaded = cli === 'qwen' ? m.loadSettings(ws, false) : m.loadSettings(ws);
  const errors = (loaded.errors ?? []).map((e) => e.message);
  out = errors.length ? { ok: false, error: errors.join('; ') } : { ok: true, settings: loaded.user.settings };
} catch (e) {
  out = { ok: false, error: String(e?.message ?? e) };
}
process.stdout.write(JSON.stringify(out));
process.exit(0);
