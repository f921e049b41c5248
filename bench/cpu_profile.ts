/** V8 CPU profiles as the inspector gives them, summed up for the benches (bench/sgp_who_*.ts). */

/** One node of a profile's call tree. */
export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
/** What `Profiler.stop` gives: the call tree and which node each sample was in. */
export interface Profile {
  nodes: ProfileNode[];
  samples: number[];
}

/** The functions with the most self and total time, one line each. */
export function summary(p: Profile, n: number): string {
  const byId = new Map(p.nodes.map((x) => [x.id, x]));
  const parent = new Map<number, number>();
  for (const x of p.nodes) for (const c of x.children ?? []) parent.set(c, x.id);
  const key = (id: number) => {
    const f = byId.get(id)!.callFrame;
    const where = f.url.replace(/^.*\/(src|bench|plugins)\//, "$1/");
    return `${f.functionName || "(anon)"} ${where}:${f.lineNumber + 1}`;
  };
  const self = new Map<string, number>(), total = new Map<string, number>();
  let idle = 0;
  for (const id of p.samples) {
    const k = key(id);
    if (k.startsWith("(idle)")) {
      idle++;
      continue;
    }
    self.set(k, (self.get(k) ?? 0) + 1);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const kk = key(at);
      if (!seen.has(kk)) total.set(kk, (total.get(kk) ?? 0) + 1);
      seen.add(kk);
    }
  }
  const busy = p.samples.length - idle;
  const show = (m: Map<string, number>) =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, n)
      .map(([k, c]) => `${(100 * c / busy).toFixed(1).padStart(5)}%  ${k}`).join("\n");
  return `busy samples: ${busy} (idle ${idle})\nself:\n${show(self)}\ntotal:\n${show(total)}`;
}
