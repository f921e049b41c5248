/**
 * What a fresh engine does in its first minutes (docs/bench.md, "The round trip and fan-out by
 * interleaved blocks"): this checkout's supervisor started as the interleaved bench starts it
 * (bench/telnet_interleave.ts: caps lifted, the shipped scripts, pinned to `--server-cpus`), its
 * CPU read every second for `--seconds`, by process and by the busiest threads (their names from
 * /proc: V8's workers, the runtime's, the main thread). With `--logins N` it logs N players in at
 * `--login-at` seconds by `create`, as a fresh round of the shared driver does (full bcrypt cost),
 * and keeps them on.
 *
 *   DENO_NO_PACKAGE_JSON=1 taskset -c 1 deno run --unstable-kv -A bench/start_cpu.ts \
 *     [--seconds 240] [--logins 40] [--login-at 20] [--json out.json]
 */
import { parseArgs } from "node:util";
import { startServer, waitHealthy } from "../tests/harness.ts";
import { LeanTelnet } from "./telnet_client.ts";
import { readProcs, serverPids } from "./line_cpu.ts";
import { sleep } from "./stats.ts";

/** A thread's CPU so far (ns) and its name. */
interface ThreadCpu {
  key: string;
  ns: number;
}

/** Which of the engine's processes a command line is. */
function role(pid: number): string {
  try {
    const cmd = Deno.readTextFileSync(`/proc/${pid}/cmdline`).split("\0").join(" ");
    if (cmd.includes("supervisor/main.ts")) return "supervisor";
    if (cmd.includes("telnet.ts")) return "sidecar";
    if (cmd.includes("main.ts")) return "engine";
    return cmd.split(" ")[0].split("/").pop() ?? "?";
  } catch {
    return "?";
  }
}

/** Every thread of the server's processes: `role/thread-name` and its CPU ns. */
function threads(root: number): ThreadCpu[] {
  const out: ThreadCpu[] = [];
  for (const pid of serverPids(root, readProcs())) {
    const r = role(pid);
    try {
      for (const t of Deno.readDirSync(`/proc/${pid}/task`)) {
        try {
          const ns = Number(
            Deno.readTextFileSync(`/proc/${pid}/task/${t.name}/schedstat`).split(" ")[0],
          );
          const name = Deno.readTextFileSync(`/proc/${pid}/task/${t.name}/comm`).trim();
          out.push({ key: `${r}:${pid}/${name}:${t.name}`, ns });
        } catch { /* thread ended */ }
      }
    } catch { /* process ended */ }
  }
  return out;
}

/** Starts the engine, samples it every second, and prints a line a second. */
async function main(): Promise<void> {
  const { values: v } = parseArgs({
    args: Deno.args,
    options: {
      seconds: { type: "string", default: "240" },
      logins: { type: "string", default: "0" },
      "login-at": { type: "string", default: "20" },
      "server-cpus": { type: "string", default: "0" },
      json: { type: "string" },
    },
  });
  const seconds = Math.min(3600, Math.max(1, Number(v.seconds)));
  const logins = Math.min(200, Math.max(0, Number(v.logins)));
  const loginAt = Math.max(0, Number(v["login-at"]));
  const t0 = performance.now();
  const srv = await startServer({
    entry: "src/supervisor/main.ts",
    cpus: String(v["server-cpus"]),
    config: {
      server: { maxConnections: 0, maxConnectionsPerIp: 0 },
      game: { idleTimeout: 0, maxPlayers: 0, registrationsPerHour: 0, loginsPerMinute: 0 },
      scripts: { dir: "system/scripts" },
    },
  });
  const clients: LeanTelnet[] = [];
  const rows: { s: number; ms: number; byRole: Record<string, number>; top: [string, number][] }[] =
    [];
  try {
    await waitHealthy(srv.base, () => false, () => srv.output(), 60_000);
    await srv.waitFor(/telnet: listening on/, 30_000);
    console.log(`ready ${((performance.now() - t0) / 1000).toFixed(1)} s after the start`);
    let last = new Map(threads(srv.child.pid).map((t) => [t.key, t.ns]));
    let loggedIn: Promise<void> | null = null;
    for (let s = 1; s <= seconds; s++) {
      await sleep(Math.max(0, t0 + s * 1000 - performance.now()));
      if (logins > 0 && !loggedIn && s >= loginAt) {
        loggedIn = (async () => {
          const id = crypto.randomUUID().slice(0, 4);
          for (let i = 0; i < logins; i += 10) {
            await Promise.all(Array.from({ length: Math.min(10, logins - i) }, async (_, k) => {
              const c = await LeanTelnet.connect(srv.telnet);
              clients.push(c);
              const m = `in-${i + k}-ok`;
              const got = c.until(m, 60_000);
              await c.send(`create st${id}${i + k} benchpw1\r\nthink ${m}`);
              await got;
            }));
          }
          console.log(`${logins} logins done at ${((performance.now() - t0) / 1000).toFixed(1)} s`);
        })();
      }
      const now = threads(srv.child.pid);
      const byRole: Record<string, number> = {};
      const per: [string, number][] = [];
      let total = 0;
      for (const t of now) {
        const d = (t.ns - (last.get(t.key) ?? 0)) / 1e6;
        if (d <= 0) continue;
        total += d;
        const r = t.key.split(":")[0];
        byRole[r] = (byRole[r] ?? 0) + d;
        per.push([`${r}/${t.key.split("/")[1].split(":")[0]}`, d]);
      }
      last = new Map(now.map((t) => [t.key, t.ns]));
      per.sort((a, b) => b[1] - a[1]);
      const top = per.slice(0, 3).map(([k, d]) => [k, Math.round(d * 10) / 10] as [string, number]);
      rows.push({ s, ms: Math.round(total * 10) / 10, byRole, top });
      const roles = Object.entries(byRole).map(([r, d]) => `${r} ${d.toFixed(1)}`).join(", ");
      console.log(
        `${String(s).padStart(4)} s ${total.toFixed(1).padStart(7)} ms  (${roles})  top ${
          top.map(([k, d]) => `${k} ${d}`).join(", ")
        }`,
      );
    }
    await loggedIn;
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await srv.stop();
    if (v.json) await Deno.writeTextFile(v.json, JSON.stringify(rows) + "\n");
  }
}

if (import.meta.main) await main();
