/**
 * Round trips during a login storm: password logins through `POST /api/v1/auth/login` (as many
 * in flight as the per-IP rule lets one address have: every bench client is 127.0.0.1) while
 * connected players keep sending `think`. Shows whether bcrypt delays connected players.
 */

/** Outcome of a storm: logins done, refused as busy, failed, and how fast. */
export interface StormResult {
  total: number;
  ok: number;
  busy: number;
  failed: number;
  seconds: number;
  perSecond: number;
}

/** Runs `total` password logins with `inFlight` at a time; resolves when all have answered. */
export async function loginStorm(
  base: string,
  names: string[],
  password: string,
  total: number,
  inFlight: number,
): Promise<StormResult> {
  let next = 0;
  const r = { ok: 0, busy: 0, failed: 0 };
  const t0 = performance.now();
  const worker = async () => {
    while (next < total) {
      const i = next++;
      const res = await fetch(`${base}/api/v1/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: names[i % names.length], password }),
      });
      await res.body?.cancel();
      if (res.status === 200) r.ok++;
      else if (res.status === 429) r.busy++;
      else r.failed++;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const seconds = (performance.now() - t0) / 1000;
  return {
    total,
    ...r,
    seconds: Math.round(seconds * 100) / 100,
    perSecond: Math.round(r.ok / seconds),
  };
}
