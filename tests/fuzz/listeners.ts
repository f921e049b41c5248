/**
 * A fixed attack on the listeners themselves (issue 31), run after the random phase, while
 * nothing else talks to the server (tests/fuzz/attacks.ts has the others). On every listener
 * (HTTP, WebSocket, telnet): a refused-connection flood (silent connections past
 * `server.maxConnectionsPerIp`, then hundreds more that are refused), and descriptor exhaustion
 * (the process's open-file limit lowered with prlimit to a little above what it holds, then
 * filled with silent connections under the cap). After each, the engine's and the sidecar's
 * descriptors must come back near where they were, and a new /health request, WebSocket (both
 * ports) and telnet connection must be answered. Linux only (/proc, prlimit); elsewhere it notes
 * that it did not run.
 */
import { connectWs } from "../ws_client.ts";
import { TelnetClient } from "../telnet_client.ts";
import type { TestServer } from "../harness.ts";
import type { FuzzContext } from "./context.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Connections the default configuration allows from one address (the fuzz server's). */
const CAP = 50;

/** The pid the supervisor logged last for a child. */
function pidOf(srv: TestServer, what: "engine" | "telnet sidecar"): number | null {
  const all = [...srv.output().matchAll(new RegExp(`${what} started \\(pid (\\d+)\\)`, "g"))];
  return all.length ? Number(all[all.length - 1][1]) : null;
}

function descriptors(pid: number): number {
  try {
    return [...Deno.readDirSync(`/proc/${pid}/fd`)].length;
  } catch {
    return -1;
  }
}

/** A connection to `port`, or null when it does not connect within 2 s. */
async function dial(port: number): Promise<Deno.TcpConn | null> {
  const attempt = Deno.connect({ hostname: "127.0.0.1", port });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const c = await Promise.race([
    attempt.catch(() => null),
    new Promise<null>((r) => timer = setTimeout(() => r(null), 2_000)),
  ]);
  clearTimeout(timer);
  if (c === null) attempt.then((late) => late.close(), () => {});
  return c;
}

/** Opens `n` connections to `port`, 50 at a time; returns those that connected. */
async function silent(port: number, n: number): Promise<Deno.TcpConn[]> {
  const out: Deno.TcpConn[] = [];
  for (let i = 0; i < n; i += 50) {
    const batch = await Promise.all(Array.from({ length: Math.min(50, n - i) }, () => dial(port)));
    for (const c of batch) if (c) out.push(c);
  }
  return out;
}

function release(conns: Deno.Conn[]): void {
  for (const c of conns) {
    try {
      c.close();
    } catch { /* closed by the server */ }
  }
}

/** Connections that each read what the server says (a refusal) for up to 1 s, then hang up. */
async function refused(port: number, n: number): Promise<void> {
  for (let i = 0; i < n; i += 50) {
    await Promise.all(Array.from({ length: Math.min(50, n - i) }, async () => {
      const c = await dial(port);
      if (!c) return;
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        c.read(new Uint8Array(512)).catch(() => null),
        new Promise((r) => timer = setTimeout(r, 1_000)),
      ]);
      clearTimeout(timer);
      release([c]);
    }));
  }
}

/** What does not answer now: /health, a WebSocket on each port, a telnet connection. */
async function unanswered(ctx: FuzzContext, waitMs: number): Promise<string[]> {
  const srv = ctx.srv;
  const checks: [string, () => Promise<void>][] = [
    ["/health", async () => {
      const r = await fetch(`${srv.base}/health`, { signal: AbortSignal.timeout(ctx.hangMs) });
      await r.body?.cancel();
      if (!r.ok) throw new Error(`answered ${r.status}`);
    }],
    ...([["ws port", srv, "/"], ["/ws on the http port", srv.http, "/ws"]] as const).map((
      [what, target, path],
    ) =>
      [what, async () => {
        const ws = await connectWs(target, { client: "web", path, openTimeout: ctx.hangMs });
        try {
          ws.sendJson({ type: "ping", id: "listeners" });
          await ws.expect((m) => m.data.type === "pong", ctx.hangMs);
        } finally {
          await ws.close();
        }
      }] as [string, () => Promise<void>]
    ),
    ["telnet", async () => {
      const t = await TelnetClient.connect(srv.telnet);
      try {
        await t.waitFor(/connect <name>/i, 5_000);
      } finally {
        await t.close();
      }
    }],
  ];
  const problems: string[] = [];
  for (const [what, check] of checks) {
    // Retried for a while: a listener may need a moment (the sidecar's reopens in seconds).
    const end = Date.now() + waitMs;
    let last = "";
    for (;;) {
      try {
        await check();
        last = "";
        break;
      } catch (e) {
        last = (e as Error).message.split("\n")[0];
      }
      if (Date.now() > end) break;
      await sleep(500);
    }
    if (last) problems.push(`${what}: ${last}`);
  }
  return problems;
}

/** Runs the attacks (see the module's comment). */
export async function listenerAttack(ctx: FuzzContext): Promise<void> {
  const srv = ctx.srv;
  const engine = pidOf(srv, "engine");
  const sidecar = pidOf(srv, "telnet sidecar");
  if (Deno.build.os !== "linux" || engine === null || sidecar === null) {
    ctx.log.note("listener attack: not run (needs Linux and the supervisor's pid lines)");
    return;
  }
  const base = { engine: descriptors(engine), sidecar: descriptors(sidecar) };
  const fail = (target: string, summary: string, repro: string) =>
    ctx.log.add(`listeners ${target} ${summary.slice(0, 40)}`, {
      kind: "attack",
      target,
      summary,
      repro: repro + "\nserver log (last lines):\n" +
        srv.output().split("\n").slice(-12).map((l) => `  ${l.slice(0, 200)}`).join("\n"),
    });
  const settled = async (what: string) => {
    const end = Date.now() + 20_000;
    let now = { engine: descriptors(engine), sidecar: descriptors(sidecar) };
    while (
      Date.now() < end && (now.engine > base.engine + 30 || now.sidecar > base.sidecar + 30)
    ) {
      await sleep(250);
      now = { engine: descriptors(engine), sidecar: descriptors(sidecar) };
    }
    for (const p of ["engine", "sidecar"] as const) {
      if (now[p] > base[p] + 30) {
        fail(p, `${now[p] - base[p]} descriptors more than before, 20 s after ${what}`, what);
      }
    }
    for (const problem of await unanswered(ctx, 30_000)) {
      fail(problem.split(":")[0], `no answer after ${what}: ${problem}`, what);
    }
  };
  const ports = { http: srv.http, ws: srv.ws, telnet: srv.telnet };
  for (const [name, port] of Object.entries(ports)) {
    // Past the cap: the first 50 are held, the rest (and 200 more) are refused and must leave
    // nothing open behind them.
    const held = await silent(port, CAP + 10);
    await refused(port, 200);
    ctx.counts.listeners = (ctx.counts.listeners ?? 0) + held.length + 200;
    release(held);
    await settled(`a refused-connection flood on the ${name} port (${CAP + 210} connections)`);
  }
  // Out of descriptors: each process's limit a little above what it holds, then filled.
  for (
    const [who, pid, targets] of [
      ["engine", engine, [srv.http, srv.ws]],
      ["sidecar", sidecar, [srv.telnet]],
    ] as const
  ) {
    const open = descriptors(pid);
    const soft = /Max open files\s+(\d+)/.exec(Deno.readTextFileSync(`/proc/${pid}/limits`))?.[1];
    const lowered = await new Deno.Command("prlimit", {
      args: ["--pid", String(pid), `--nofile=${open + 30}:`],
    }).output().catch(() => null);
    if (!lowered?.success || !soft) {
      ctx.log.note(`listener attack: the ${who}'s descriptor limit could not be lowered (prlimit)`);
      continue;
    }
    const held: Deno.TcpConn[] = [];
    for (const port of targets) {
      held.push(...await silent(port, Math.floor((CAP - 5) / targets.length)));
    }
    ctx.counts.listeners = (ctx.counts.listeners ?? 0) + held.length;
    await sleep(2_000);
    release(held);
    await new Deno.Command("prlimit", { args: ["--pid", String(pid), `--nofile=${soft}:`] })
      .output().catch(() => null);
    await settled(`the ${who} ran out of descriptors (limit ${open + 30}, ${held.length} held)`);
  }
}
