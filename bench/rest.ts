/** REST throughput: requests per second for one endpoint with a fixed number of requests in flight. */

/** Result of one REST load run. */
export interface RestResult {
  path: string;
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
}

/** Hammers `base + path` for `seconds` with `concurrency` requests in flight. */
export async function restLoad(
  base: string,
  path: string,
  seconds: number,
  concurrency: number,
  token?: string,
): Promise<RestResult> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  let requests = 0;
  let errors = 0;
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  const worker = async () => {
    while (performance.now() < end) {
      try {
        const r = await fetch(base + path, { headers });
        await r.arrayBuffer();
        if (r.ok) requests++;
        else errors++;
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (performance.now() - t0) / 1000;
  return { path, requests, errors, seconds: elapsed, rps: Math.round(requests / elapsed) };
}
