/**
 * Round trips during a login storm: password logins through `POST /api/v1/auth/login` (as many
 * in flight as the per-IP rule lets one address have: every bench client is 127.0.0.1) while
 * connected players keep sending `think`. Shows whether bcrypt delays connected players.
 *
 * Run on its own against a running server (the supervisor's telnet port, the primed game of
 * ../shared/bench), the same storm goes through telnet: `deno run -A bench/storm.ts <port>`.
 * `deno run -A bench/storm.ts rest <http port>` runs the REST storm alone, and
 * `deno run -A bench/storm.ts ceiling` times bcrypt alone: one hash, and every worker busy.
 */

import { HashPool } from "../src/auth/hash_pool.ts";
import { hashPassword } from "../src/auth/passwords.ts";
import { summarize } from "./stats.ts";
import { LeanTelnet } from "./telnet_client.ts";

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

/** A telnet storm's outcome: logins and their rate, and the probes' round trips (ms). */
export interface TelnetStormResult {
  ok: number;
  failed: number;
  seconds: number;
  perSecond: number;
  roundTrips: number[];
  quietRoundTrips: number[];
}

/** Logs a player in over telnet (`connect`, then a `think` marker); resolves when it answered. */
async function telnetLogin(port: number, name: string, password: string): Promise<LeanTelnet> {
  const p = await LeanTelnet.connect(port);
  try {
    const mark = `in-${name}-${crypto.randomUUID().slice(0, 8)}`;
    await p.roundTrip(`connect ${name} ${password}\r\nthink ${mark}`, mark);
    return p;
  } catch (e) {
    await p.close();
    throw e;
  }
}

/**
 * Over telnet: `probes` players log in and take turns sending `think` (one every `gapMs`, so none
 * passes 10 commands a second); `quiet` round trips are timed first, then `names` log in with
 * `inFlight` at a time while the probes keep going. Every player is closed at the end.
 */
export async function telnetStorm(
  port: number,
  probes: string[],
  names: string[],
  password: string,
  inFlight: number,
  quiet = 300,
  gapMs = 5,
): Promise<TelnetStormResult> {
  const players: LeanTelnet[] = [];
  const stormers: LeanTelnet[] = [];
  try {
    // In turns of `inFlight`, as the per-IP rule lets one address have no more at once.
    for (let i = 0; i < probes.length; i += inFlight) {
      const batch = probes.slice(i, i + inFlight).map((n) => telnetLogin(port, n, password));
      const settled = await Promise.allSettled(batch);
      for (const r of settled) if (r.status === "fulfilled") players.push(r.value);
      const failed = settled.find((r) => r.status === "rejected");
      if (failed) throw failed.reason;
    }
    const probe = async (i: number) => {
      const started = performance.now();
      const rt = await players[i % players.length].roundTrip(`think rt${i}x`, `rt${i}x`);
      const wait = gapMs - (performance.now() - started);
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      return rt;
    };
    const quietRoundTrips: number[] = [];
    for (let i = 0; i < quiet + 50; i++) {
      const rt = await probe(i);
      if (i >= 50) quietRoundTrips.push(rt);
    }
    let next = 0;
    let failed = 0;
    const t0 = performance.now();
    const login = async () => {
      while (next < names.length) {
        const name = names[next++];
        try {
          stormers.push(await telnetLogin(port, name, password));
        } catch {
          failed++;
        }
      }
    };
    let done = false;
    const storm = Promise.all(Array.from({ length: inFlight }, login)).then(() => done = true);
    const roundTrips: number[] = [];
    for (let i = quiet + 50; !done; i++) roundTrips.push(await probe(i));
    await storm;
    const seconds = (performance.now() - t0) / 1000;
    return {
      ok: stormers.length,
      failed,
      seconds: Math.round(seconds * 100) / 100,
      perSecond: Math.round(stormers.length / seconds * 10) / 10,
      roundTrips,
      quietRoundTrips,
    };
  } finally {
    await Promise.all([...players, ...stormers].map((p) => p.close()));
  }
}

/** bcrypt alone: one hash's cost (ms, one at a time) and hashes per second with every worker busy. */
export async function bcryptCeiling(
  jobs = 100,
): Promise<{ workers: number; msPerHash: number; perSecond: number }> {
  const pool = new HashPool({ maxWaiting: jobs });
  try {
    await pool.start();
    const hash = await hashPassword("benchpassword");
    await pool.verify("benchpassword", hash);
    let t = performance.now();
    for (let i = 0; i < 10; i++) await pool.verify("benchpassword", hash);
    const msPerHash = (performance.now() - t) / 10;
    t = performance.now();
    await Promise.all(Array.from({ length: jobs }, () => pool.verify("benchpassword", hash)));
    const perSecond = jobs / ((performance.now() - t) / 1000);
    return {
      workers: pool.stats().workers,
      msPerHash: Math.round(msPerHash * 10) / 10,
      perSecond: Math.round(perSecond * 10) / 10,
    };
  } finally {
    pool.close();
  }
}

if (import.meta.main && Deno.args[0] === "ceiling") {
  // deno run -A bench/storm.ts ceiling [jobs]
  const c = await bcryptCeiling(Number(Deno.args[1] ?? 100));
  console.log(JSON.stringify({ ...c, ceiling: Math.round(c.workers * 10_000 / c.msPerHash) / 10 }));
} else if (import.meta.main && Deno.args[0] === "rest") {
  // deno run -A bench/storm.ts rest <http port> [password] [first] [storm] [in flight]
  const [, port, password = "benchpw1", first = "40", storm = "200", inFlight = "10"] = Deno.args;
  const names = Array.from({ length: Number(storm) }, (_, i) => `bench${Number(first) + i}`);
  const base = `http://127.0.0.1:${port}`;
  console.log(JSON.stringify(
    await loginStorm(base, names, password, names.length, Number(inFlight)),
  ));
} else if (import.meta.main) {
  // deno run -A bench/storm.ts <telnet port> [password] [probes] [storm] [in flight]: logs in
  // bench0..bench<probes-1> as probes and the next <storm> bench players as the storm (the
  // primed game of ../shared/bench), and prints the round trips and logins per second.
  const [port, password = "benchpw1", probes = "40", storm = "200", inFlight = "10"] = Deno.args;
  const range = (from: number, n: number) =>
    Array.from({ length: n }, (_, i) => `bench${from + i}`);
  const r = await telnetStorm(
    Number(port),
    range(0, Number(probes)),
    range(Number(probes), Number(storm)),
    password,
    Number(inFlight),
  );
  console.log(JSON.stringify({
    logins: { ok: r.ok, failed: r.failed, seconds: r.seconds, perSecond: r.perSecond },
    quiet: summarize(r.quietRoundTrips),
    duringStorm: summarize(r.roundTrips),
  }));
}
