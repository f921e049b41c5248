/**
 * Where the engine's CPU goes when players type SGP's `+who` (docs/bench.md, issue 38 item 10):
 * an engine started alone with the V8 inspector, SGP pasted by the superuser over telnet as
 * bench/sgp_who.ts does, 30 players connected, then the engine's CPU profile over `--rounds`
 * rounds of `+who` and `think <marker>` (after as many unprofiled ones): the functions with the
 * most self time, and with the most total time.
 *
 *   DENO_NO_PACKAGE_JSON=1 deno run -A bench/sgp_who_profile.ts \
 *     [--sgp tests/fixtures/softcode-packages/SGP-Installer.txt] [--rounds 500] [--top 40]
 *     [--out <file.cpuprofile>]
 */
import { parseArgs } from "node:util";
import { ADMIN, startSupervised } from "../tests/supervised.ts";
import { connectPlayers, defineSgpFunctions, install, Player, sampleWho } from "./sgp_who.ts";
import { type Profile, summary } from "./cpu_profile.ts";

/** A minimal Chrome DevTools protocol client: one request at a time. */
async function devtools(port: number): Promise<{
  call: (method: string, params?: object) => Promise<Record<string, unknown>>;
  close: () => void;
}> {
  const list = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
  const ws = new WebSocket(list[0].webSocketDebuggerUrl);
  await new Promise((ok, fail) => {
    ws.onopen = ok;
    ws.onerror = fail;
  });
  let seq = 0;
  const pending = new Map<number, (r: Record<string, unknown>) => void>();
  ws.onmessage = (e) => {
    const m = JSON.parse(String(e.data));
    pending.get(m.id)?.(m.result);
    pending.delete(m.id);
  };
  return {
    call: (method, params = {}) =>
      new Promise((ok) => {
        const id = ++seq;
        pending.set(id, ok);
        ws.send(JSON.stringify({ id, method, params }));
      }),
    // An open socket would keep this process alive after the run.
    close: () => ws.close(),
  };
}

const { values } = parseArgs({
  options: {
    sgp: { type: "string", default: "tests/fixtures/softcode-packages/SGP-Installer.txt" },
    rounds: { type: "string", default: "500" },
    top: { type: "string", default: "40" },
    out: { type: "string" },
  },
});
// The supervisor passes URSAMU_RUN_FLAGS to the engine and the sidecar alike: each inspector
// takes a port of its own, and the engine's is the one whose target runs main.ts.
const srv = await startSupervised({
  env: { URSAMU_RUN_FLAGS: "--inspect=127.0.0.1:0" },
  config: {
    server: { maxConnections: 0, maxConnectionsPerIp: 0 },
    game: { idleTimeout: 0, registrationsPerHour: 0 },
    scripts: { disabled: ["+who", "+finger"] },
    softcode: { masterRoom: "#3", actorMs: 10_000, actorWindowMs: 10_000, gameMs: 1e9 },
  },
});

/** The engine's inspector port, from the debugger addresses the children printed. */
async function enginePort(): Promise<number> {
  for (const m of srv.output().matchAll(/ws:\/\/127\.0\.0\.1:(\d+)\//g)) {
    const port = Number(m[1]);
    const list = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
    if (String(list[0]?.url ?? "").endsWith("main.ts")) return port;
  }
  throw new Error(`no engine inspector in:\n${srv.output().slice(-2000)}`);
}
const players: Player[] = [];
try {
  const w = await Player.login(srv.telnet, ADMIN.name, ADMIN.password, false);
  players.push(w);
  await w.run("@dig Master Room");
  const errors = await install(w, "#3", "#1", await Deno.readTextFile(values.sgp!));
  for (const e of errors) console.error(`install: ${e}`);
  console.error(`SGP's functions ${await defineSgpFunctions(w, "#3", "#1")}`);
  players.push(...await connectPlayers(srv.telnet, 30));
  await sampleWho(players[1], 30);
  const round = async (i: number) => {
    const p = players[1 + (i % 30)];
    const m = `mk${i}-${crypto.randomUUID().slice(0, 6)}`;
    p.text = "";
    await p.t.send(`+who\r\nthink ${m}`);
    await p.waitFor(
      () => p.text.includes(m) && /players connected[^\n]*\n[^\n]*\n/.test(p.text),
      30_000,
    );
    // Under the typed-command rate: 30 players, one round each every 300 ms at most.
    await new Promise((r) => setTimeout(r, 10));
  };
  const n = Number(values.rounds);
  for (let i = 0; i < n; i++) await round(i);
  const { call, close } = await devtools(await enginePort());
  await call("Profiler.enable");
  await call("Profiler.setSamplingInterval", { interval: 200 });
  await call("Profiler.start");
  for (let i = 0; i < n; i++) await round(i);
  const { profile } = await call("Profiler.stop");
  close();
  if (values.out) await Deno.writeTextFile(values.out, JSON.stringify(profile));
  console.log(summary(profile as Profile, Number(values.top)));
} finally {
  for (const p of players) await p.close().catch(() => {});
  await srv.stop();
}
