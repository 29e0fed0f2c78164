/**
 * Polls a condition until it yields a value; errors count as "not yet". Past the deadline the
 * error says what was awaited, the last error, and what `seen` reports when given.
 */
export async function until<T>(
  what: string,
  fn: () => Promise<T | undefined | false>,
  timeoutMs = 60_000,
  intervalMs = 100,
  seen?: () => unknown,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await fn();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      const last = seen ? `; last seen: ${JSON.stringify(seen())}` : '';
      throw new Error(`timed out waiting for ${what}${last}${lastError ? `: ${String(lastError)}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
