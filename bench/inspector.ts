/**
 * Bench-only: a minimal V8 inspector (Chrome DevTools protocol) client for the engine process,
 * started with `--inspect`, so memory is read after a forced full garbage collection. Without
 * it the RSS difference between two moments is mostly garbage not yet collected and heap
 * spaces grown at some moment in between, and "KiB per connection" moves by ±5 KiB per run.
 */
import { sleep } from "./stats.ts";

/** JS heap use of the engine after a forced collection (bytes). */
export interface HeapUsage {
  usedSize: number;
  totalSize: number;
}

/** A V8 CPU profile (the parts read here). */
export interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
  }[];
  samples: number[];
  startTime: number;
  endTime: number;
}

/**
 * The functions that took most samples of a profile (self time), one line each: their share of
 * the samples and, given how many units of work the profile covered, µs per unit.
 */
export function topSelf(profile: CpuProfile, count = 25, units = 0, byFile = false): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const self = new Map<string, number>();
  for (const id of profile.samples) {
    const f = byId.get(id)!;
    const key = byFile
      ? (f.url.includes("/src/") ? f.url.slice(f.url.indexOf("/src/") + 1) : f.functionName)
      : `${f.functionName || "(anon)"} ${f.url.split("/").pop()}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + 1);
  }
  const total = profile.samples.length;
  const usPerSample = (profile.endTime - profile.startTime) / Math.max(1, total);
  return [...self].sort((a, b) => b[1] - a[1]).slice(0, count)
    .map(([k, v]) =>
      `  ${(100 * v / total).toFixed(1).padStart(5)}%` +
      (units ? ` ${(v * usPerSample / units).toFixed(1).padStart(7)} µs` : "") + `  ${k}`
    ).join("\n");
}

/** A sampled heap profile's node (HeapProfiler.stopSampling). */
export interface HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: HeapNode[];
}

/** Bytes sampled in a heap profile's tree, and its largest sites by self size. */
export function heapSites(
  root: HeapNode,
  lines: number,
  count = 15,
): { total: number; top: string } {
  const bySite = new Map<string, number>();
  let total = 0;
  const walk = (n: HeapNode) => {
    total += n.selfSize;
    if (n.selfSize > 0) {
      const f = n.callFrame;
      const k = `${f.functionName || "(anon)"} ${f.url.split("/").pop()}:${f.lineNumber + 1}`;
      bySite.set(k, (bySite.get(k) ?? 0) + n.selfSize);
    }
    for (const c of n.children) walk(c);
  };
  walk(root);
  const top = [...bySite].sort((a, b) => b[1] - a[1]).slice(0, count)
    .map(([k, v]) => `  ${(v / lines).toFixed(0).padStart(7)} B  ${k}`).join("\n");
  return { total, top };
}

/** A connection to the engine's inspector. */
export class Inspector {
  #seq = 0;
  readonly #pending = new Map<number, (result: unknown) => void>();

  private constructor(private readonly ws: WebSocket) {
    ws.onmessage = (e) => {
      const m = JSON.parse(String(e.data));
      const done = typeof m.id === "number" ? this.#pending.get(m.id) : undefined;
      if (!done) return;
      this.#pending.delete(m.id);
      done(m.result ?? null);
    };
  }

  /** Connects to the inspector listening on `port` (retrying while the process starts). */
  static async connect(port: number, timeoutMs = 10_000): Promise<Inspector> {
    const end = Date.now() + timeoutMs;
    while (true) {
      try {
        const list = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
        const ws = new WebSocket(list[0].webSocketDebuggerUrl);
        await new Promise((resolve, reject) => {
          ws.onopen = resolve;
          ws.onerror = reject;
        });
        return new Inspector(ws);
      } catch (e) {
        if (Date.now() > end) throw new Error(`inspector on port ${port}: ${e}`);
        await sleep(100);
      }
    }
  }

  #call(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const id = ++this.#seq;
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      this.ws.send(JSON.stringify({ id, method, params }));
    });
  }

  /** Runs two full collections, waits for the heap to settle, and returns the heap use. */
  async collect(): Promise<HeapUsage> {
    await this.#call("HeapProfiler.collectGarbage");
    await this.#call("HeapProfiler.collectGarbage");
    await sleep(300);
    return await this.#call("Runtime.getHeapUsage") as HeapUsage;
  }

  /** A CPU profile of the process while `work` runs (the V8 profiler's own form). */
  async profile(work: () => Promise<void>, intervalUs = 100): Promise<CpuProfile> {
    await this.#call("Profiler.enable");
    await this.#call("Profiler.setSamplingInterval", { interval: intervalUs });
    await this.#call("Profiler.start");
    await work();
    const r = await this.#call("Profiler.stop") as { profile: CpuProfile };
    return r.profile;
  }

  /** Closes the connection. */
  close(): void {
    this.ws.close();
  }
}
