// Order statistics for the suites' samples.

/** The value below which a share `q` (0–1) of `values` lies (nearest rank, unsorted input); NaN when empty. */
export function percentile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

/** The median of `values` (the upper one of an even count); NaN when empty. */
export const median = (values) => percentile(values, 0.5);
