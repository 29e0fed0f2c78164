/** Sample statistics shared by the benches. */

/** Nearest-rank percentile of ascending samples (NaN when there are none). */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** p50, p95, p99, min and max of unsorted samples. */
export function summary(samples: readonly number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99), min: sorted[0]!, max: sorted.at(-1)! };
}
