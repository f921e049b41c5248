/** Small statistics and formatting helpers for the benchmark. */

/** Summary of a set of samples (milliseconds unless said otherwise). */
export interface Summary {
  n: number;
  p50: number;
  p99: number;
  max: number;
  mean: number;
}

/** The q-quantile (0..1) of sorted samples, nearest-rank. */
export function quantile(sorted: readonly number[], q: number): number {
  if (!sorted.length) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i];
}

/** n, p50, p99, max and mean of samples, rounded to 3 decimals. */
export function summarize(samples: readonly number[]): Summary {
  const s = [...samples].sort((a, b) => a - b);
  const mean = s.reduce((a, b) => a + b, 0) / (s.length || 1);
  return {
    n: s.length,
    p50: round(quantile(s, 0.5)),
    p99: round(quantile(s, 0.99)),
    max: round(s[s.length - 1] ?? NaN),
    mean: round(mean),
  };
}

/** Rounds to `digits` decimals. */
export function round(x: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** A plain-text table with a header row. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const line = (r: readonly string[]) => r.map((v, c) => v.padEnd(widths[c])).join("  ");
  return [line(rows[0]), widths.map((w) => "-".repeat(w)).join("  "), ...rows.slice(1).map(line)]
    .join("\n");
}

/** Resident set size of a process in KiB, from /proc/<pid>/status (null where unavailable). */
export async function rssKiB(pid: number): Promise<number | null> {
  try {
    const status = await Deno.readTextFile(`/proc/${pid}/status`);
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** Resolves after `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
