/** Polls a condition until it yields a value; errors count as "not yet". */
export async function until<T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs = 60_000, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await fn();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${lastError ? `: ${String(lastError)}` : ''}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
