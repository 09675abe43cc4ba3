// Temporary folders for a test: made with their real path (the CLIs and Redline resolve links),
// and removed with retries, as a CLI killed with its tmux may still be writing there.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { pollUntil } from './wait.mjs';

export function realTmpDir(prefix) {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

export async function removeDirs(...dirs) {
  for (const d of dirs.filter(Boolean)) {
    await pollUntil(() => {
      try {
        fs.rmSync(d, { recursive: true, force: true });
        return { ok: true };
      } catch (err) {
        return { ok: false, value: err.message };
      }
    }, 10_000, `${d} to be removed`);
  }
}

/**
 * Ends a CLI's test session, each part only if it started: the CLI (its tmux), then Redline,
 * then the fake model API, then the test's folders.
 */
export async function endSession({ cli, redline, api }, ...dirs) {
  await cli?.stop();
  await redline?.stop();
  await api?.close();
  await removeDirs(...dirs);
}
