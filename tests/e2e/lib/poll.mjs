// The one way these tests wait: ask again until the answer is right or the deadline passes.

/**
 * Polls `probe` (sync or async) until it returns something truthy, and resolves with that.
 * Errors thrown by `probe` count as "not yet"; the last one is in the timeout's message.
 */
export async function poll(probe, { timeoutMs = 10_000, intervalMs = 100, what = 'condition' } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
      last = value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      const detail = last instanceof Error ? last.message : JSON.stringify(last);
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${detail})`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
