/**
 * Paced `think` round trips over telnet (bench/telnet.ts), in the bench's process or in one of
 * their own (bench/telnet_probe.ts): a process that holds 10,000 client sockets pauses for its
 * own major collections (13 to 15 ms measured), which would be timed as the server's.
 */
import { join } from "node:path";
import type { LeanTelnet } from "./telnet_client.ts";
import { sleep, summarize, type Summary } from "./stats.ts";

/** Gap between paced round trips: each of 40 probes sends every 40 × 5 ms = 200 ms. */
export const PACE_MS = 5;

/**
 * A full collection of this process's heap (with `--expose-gc`, as `deno task bench` runs), so
 * the round trips that follow time the server rather than the bench's garbage.
 */
function collectOwnGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** Sequential paced round trips over `clients` until `n` samples (after `warm`) or `stop()`. */
export async function roundTrips(
  clients: LeanTelnet[],
  tag: string,
  n: number,
  warm = 50,
  stop?: () => boolean,
): Promise<Summary> {
  const samples: number[] = [];
  collectOwnGarbage();
  for (let i = 0; stop ? !stop() : i < n + warm; i++) {
    const started = performance.now();
    const rt = await clients[i % clients.length].roundTrip(`think ${tag}${i}x`, `${tag}${i}x`);
    if (stop || i >= warm) samples.push(rt);
    const wait = PACE_MS - (performance.now() - started);
    if (wait > 0) await sleep(wait);
  }
  return summarize(samples);
}

/**
 * `roundTrips` from a child process (bench/telnet_probe.ts) whose players log in again there
 * (a second connection each), so nothing else this process holds or does is in the timing:
 * `n` samples, or with `n` 0 from the moment the probes are in until `during` settles.
 */
export async function roundTripsApart(
  port: number,
  names: readonly string[],
  arrived: string,
  n: number,
  tag: string,
  during?: (started: Promise<void>) => Promise<void>,
): Promise<Summary> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--v8-flags=--expose-gc",
      join(import.meta.dirname!, "telnet_probe.ts"),
      JSON.stringify({ port, names, arrived, n, tag }),
    ],
    env: { DENO_NO_PACKAGE_JSON: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  const line = async (): Promise<string> => {
    for (;;) {
      const nl = text.indexOf("\n");
      if (nl >= 0) {
        const l = text.slice(0, nl);
        text = text.slice(nl + 1);
        return l;
      }
      const { value, done } = await lines.read();
      if (done) throw new Error("the probe process ended without an answer");
      text += value;
    }
  };
  const stderr = new Response(child.stderr).text();
  try {
    // "ready" once its players are in; then the summary, after n samples or the end of stdin.
    const ready = line().then((l) => {
      if (l !== "ready") throw new Error(`probe process said ${l.slice(0, 200)}`);
    });
    if (during) await during(ready);
    else await ready;
    await child.stdin.close();
    return JSON.parse(await line()) as Summary;
  } catch (e) {
    throw new Error(`probe process: ${(e as Error).message} ${(await stderr).slice(-500)}`);
  } finally {
    await lines.cancel().catch(() => {});
    await child.status;
  }
}
