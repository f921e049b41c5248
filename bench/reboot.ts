/**
 * Reboot benchmark: runs the whole stack under the supervisor, logs telnet players in, and times
 * `@reboot` until /health answers again (downtime) and until every telnet session has resumed;
 * reports the share of telnet sessions preserved. Called by bench/main.ts (`runRebootBench`),
 * or on its own: `deno run --unstable-kv -A bench/reboot.ts [--sessions N] [--reboots N]`.
 */
import { parseArgs } from "node:util";
import { startServer, type TestServer, waitHealthy } from "../tests/harness.ts";
import { TelnetClient } from "../tests/telnet_client.ts";
import { round, sleep, summarize, type Summary, table } from "./stats.ts";
import { healthy } from "./health.ts";

/** What one reboot benchmark measured. */
export interface RebootResult {
  /** Telnet sessions logged in when each reboot started. */
  sessions: number;
  reboots: number;
  /** From sending `@reboot` to /health answering 200 from the new engine (ms). */
  downtime: Summary;
  /** From sending `@reboot` to the last telnet session resumed (ms). */
  allResumed: Summary;
  /** Sessions resumed without a new login, over sessions × reboots (1 = none lost). */
  preservedShare: number;
}

/** Settings for {@linkcode runRebootBench}. */
export interface RebootOptions {
  /** Telnet players besides the admin (default 50). */
  sessions?: number;
  /** Reboots to time (default 3). */
  reboots?: number;
  log?: (line: string) => void;
}

const ADMIN = { name: "BenchAdmin", password: "bench-admin-password" };
const RESUMED = /Your session continues/g;

function resumedCount(c: TelnetClient): number {
  return (c.plain.match(RESUMED) ?? []).length;
}

/** Runs the benchmark and returns its numbers. */
export async function runRebootBench(opts: RebootOptions = {}): Promise<RebootResult> {
  const sessions = Math.max(1, opts.sessions ?? 50);
  const reboots = Math.max(1, opts.reboots ?? 3);
  const log = opts.log ?? ((l: string) => console.log(`bench: ${l}`));
  let srv: TestServer | null = null;
  const clients: TelnetClient[] = [];
  try {
    srv = await startServer({
      entry: "src/supervisor/main.ts",
      env: { URSAMU_SUPERUSER_NAME: ADMIN.name, URSAMU_SUPERUSER_PASSWORD: ADMIN.password },
      config: {
        server: { maxConnections: 0, maxConnectionsPerIp: 0 },
        game: { idleTimeout: 0, maxPlayers: 0, registrationsPerHour: 0 },
      },
    });
    await waitHealthy(srv.base, () => false, () => srv!.output());
    await srv.waitFor(/telnet: listening on/);
    log(`reboot: logging in ${sessions} telnet players`);
    const login = async (line: string) => {
      const c = await TelnetClient.connect(srv!.telnet, { mccp: true });
      clients.push(c);
      await c.waitFor(/connect <name>/, 30_000);
      await c.send(line);
      await c.waitFor(/Limbo/, 60_000);
      return c;
    };
    const admin = await login(`connect ${ADMIN.name} ${ADMIN.password}`);
    // A few at a time: each create hashes a password (bcrypt) on the engine's two cores.
    for (let i = 0; i < sessions; i += 10) {
      await Promise.all(
        Array.from(
          { length: Math.min(10, sessions - i) },
          (_, k) => login(`create RebootBench${i + k} bench-password-${i + k}`),
        ),
      );
    }
    const players = clients.filter((c) => c !== admin);
    const downtimes: number[] = [];
    const resumes: number[] = [];
    let preserved = 0;
    for (let r = 1; r <= reboots; r++) {
      // Runs shorter than 5 s double the restart delay (SPEC §7); wait so each reboot is typical.
      await sleep(5_500);
      log(`reboot: @reboot ${r}/${reboots}`);
      const t0 = performance.now();
      await admin.send("@reboot");
      while (await healthy(srv.base)) await sleep(10);
      while (!(await healthy(srv.base))) await sleep(10);
      downtimes.push(performance.now() - t0);
      const end = performance.now() + 30_000;
      while (
        performance.now() < end &&
        players.some((c) => !c.closed && resumedCount(c) < r)
      ) await sleep(10);
      resumes.push(performance.now() - t0);
      preserved += players.filter((c) => !c.closed && resumedCount(c) >= r).length;
    }
    return {
      sessions: players.length,
      reboots,
      downtime: summarize(downtimes),
      allResumed: summarize(resumes),
      preservedShare: round(preserved / (players.length * reboots), 4),
    };
  } finally {
    for (const c of clients) await c.close();
    if (srv) await srv.stop();
  }
}

/** Table rows (header first) for the benchmark's summary. */
export function rebootRows(r: RebootResult): string[][] {
  return [
    ["reboot", "p50 ms", "max ms", "note"],
    [
      "downtime",
      String(round(r.downtime.p50, 0)),
      String(round(r.downtime.max, 0)),
      "@reboot → /health (1 s delay)",
    ],
    [
      "all resumed",
      String(round(r.allResumed.p50, 0)),
      String(round(r.allResumed.max, 0)),
      `${r.sessions} telnet sessions`,
    ],
    ["preserved", `${round(r.preservedShare * 100, 2)}%`, "", `${r.reboots} reboots`],
  ];
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: { sessions: { type: "string" }, reboots: { type: "string" } },
  });
  const result = await runRebootBench({
    sessions: values.sessions ? Number(values.sessions) : undefined,
    reboots: values.reboots ? Number(values.reboots) : undefined,
  });
  console.log("\n" + table(rebootRows(result)));
  console.log(JSON.stringify(result, null, 2));
}
