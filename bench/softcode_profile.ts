/**
 * Where the engine's CPU goes when it serves one of bench/softcode.ts's expressions as typed
 * lines (docs/bench.md, issue 36): an engine started alone with the V8 inspector, players on
 * WebSocket typing `think {text}[null(<expression>)]` (unique each time, as the shared driver's
 * lines are), paced under the command rate, and the engine's CPU profile over them, the top
 * functions by self time; then the same for a plain `think {text}`.
 *
 *   DENO_NO_PACKAGE_JSON=1 deno run -A bench/softcode_profile.ts [--only arith] [--lines 2000]
 */
import { parseArgs } from "node:util";
import { freePort, register, startServer, waitHealthy } from "../tests/harness.ts";
import { WsClient } from "../tests/ws_client.ts";
import { Inspector, topSelf } from "./inspector.ts";
import { SOFTCODE_EXPRS } from "./softcode.ts";

const { values } = parseArgs({
  options: {
    only: { type: "string", default: "arith" },
    lines: { type: "string", default: "2000" },
    players: { type: "string", default: "30" },
    "trace-gc": { type: "boolean", default: false },
  },
});
const lines = Number(values.lines);

const inspect = freePort();
const srv = await startServer({
  denoArgs: [
    `--inspect=127.0.0.1:${inspect}`,
    ...(values["trace-gc"] ? ["--v8-flags=--trace-gc"] : []),
  ],
  config: {
    server: { maxConnections: 0, maxConnectionsPerIp: 0 },
    game: { idleTimeout: 0, registrationsPerHour: 0 },
  },
});
const clients: WsClient[] = [];
try {
  await waitHealthy(srv.base, () => false, () => srv.output());
  for (let i = 0; i < Number(values.players); i++) {
    const token = await register(srv.base, `prof${i}`);
    clients.push(await WsClient.connect(srv, { token }));
  }
  let n = 0;
  const last = clients.map(() => 0);
  /** One round trip of `line` (with `{m}` for a unique marker) on the next player, paced. */
  const trip = async (line: (m: string) => string) => {
    const k = n % clients.length;
    const wait = last[k] + 110 - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    last[k] = performance.now();
    const m = `mk${++n}x`;
    clients[k].send(line(m));
    await clients[k].expect((msg) => msg.msg.includes(m), 30_000);
  };
  // The library, made by the first player as bench/softcode.ts makes it.
  const owner = clients[0];
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  /** Runs a command as the owner and waits for it (a marker after it), under the rate. */
  const run = async (cmd: string): Promise<string> => {
    const m = `setup${++n}x`;
    owner.send(cmd);
    await sleep(110);
    owner.send(`think ${m}`);
    await sleep(110);
    return (await owner.expect((msg) => msg.msg.includes(m), 30_000)).msg;
  };
  // The first player holds the library itself (a player may not @create here), its
  // attributes visual so that the others read them.
  const lib = /#\d+/.exec(await run("think [num(me)]") + (await owner.expect(/^#\d+$/)).msg)?.[0];
  if (!lib) throw new Error("no library object");
  const words = Array.from({ length: 1000 }, (_, i) => `w${(i * 7919) % 1000}ka`).join(" ");
  const nums = Array.from({ length: 1000 }, (_, i) => String((i * 7919) % 100000)).join(" ");
  await run(`&WORDS ${lib}=${words}`);
  await run(`&NUMS ${lib}=${nums}`);
  await run(`&TEXT ${lib}=${words.slice(0, 4000)}`);
  for (let i = 0; i < 19; i++) await run(`&U${i} ${lib}=[u(${lib}/U${i + 1},%0)]`);
  await run(`&U19 ${lib}=[add(%0,1)]`);
  for (const a of ["WORDS", "NUMS", "TEXT", ...Array.from({ length: 20 }, (_, i) => `U${i}`)]) {
    await run(`@set ${lib}/${a}=visual`);
  }
  const expr = SOFTCODE_EXPRS.find((e) => e.name.toLowerCase().includes(values.only!))!;
  const x = expr.expr.replaceAll("LIB", lib);
  const ins = await Inspector.connect(inspect);
  try {
    const withExpr = (m: string) => `think ${m}[null(${x})]`;
    const plain = (m: string) => `think ${m}`;
    // Plain, expression, plain, expression: what the first phase meets (a heap still growing
    // after the setup) is not charged to one of them alone.
    for (
      const [name, line] of [
        ["plain think", plain],
        [expr.name, withExpr],
        ["plain think", plain],
        [expr.name, withExpr],
      ] as const
    ) {
      for (let i = 0; i < 200; i++) await trip(line);
      const t0 = performance.now();
      const outFrom = srv.output().length;
      const profile = await ins.profile(async () => {
        for (let i = 0; i < lines; i++) await trip(line);
      });
      const ms = performance.now() - t0;
      const busy = profile.samples.length;
      console.log(`\n${name}: ${lines} lines in ${ms.toFixed(0)} ms, ${busy} samples`);
      console.log(topSelf(profile, 40, lines));
      console.log("by file:\n" + topSelf(profile, 25, lines, true));
      if (values["trace-gc"]) {
        const gcs = srv.output().slice(outFrom).split("\n").filter((l) => /ms: /.test(l));
        console.log(`${gcs.length} collections:\n${gcs.slice(0, 30).join("\n")}`);
      }
    }
  } finally {
    ins.close();
  }
} finally {
  for (const c of clients) await c.close();
  await srv.stop();
}
