/**
 * Watches the server while the workers run: the process must stay up, `/health` must keep
 * answering, and a new WebSocket and a new telnet connection must keep getting an answer
 * (one broken accept loop would otherwise only show as a hang much later).
 */
import type { FuzzContext } from "./context.ts";
import { connectWs } from "../ws_client.ts";
import { TelnetClient } from "../telnet_client.ts";
import { rawRepro } from "./targets.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function healthOk(ctx: FuzzContext): Promise<string | null> {
  try {
    const r = await fetch(`${ctx.srv.base}/health`, { signal: AbortSignal.timeout(ctx.hangMs) });
    await r.body?.cancel();
    return r.ok ? null : `answered ${r.status}`;
  } catch (e) {
    return (e as Error).message;
  }
}

async function wsOk(ctx: FuzzContext): Promise<string | null> {
  try {
    const ws = await connectWs(ctx.srv, { client: "web", openTimeout: ctx.hangMs });
    try {
      ws.sendJson({ type: "ping", id: "monitor" });
      await ws.expect((m) => m.data.type === "pong", ctx.hangMs);
      return null;
    } finally {
      await ws.close();
    }
  } catch (e) {
    return (e as Error).message.split("\n")[0];
  }
}

async function telnetOk(ctx: FuzzContext): Promise<string | null> {
  let t: TelnetClient | null = null;
  try {
    t = await TelnetClient.connect(ctx.srv.telnet);
    await t.waitFor(/connect <name>/i, ctx.hangMs);
    return null;
  } catch (e) {
    return (e as Error).message.split("\n")[0];
  } finally {
    await t?.close();
  }
}

/** The server's log lines that say something failed (the sidecar logs a dead listener). */
function serverLog(ctx: FuzzContext): string {
  const lines = ctx.srv.output().split("\n").filter((l) => /fail|error|uncaught|panic/i.test(l));
  return lines.length
    ? "\nserver log:\n" + lines.slice(-8).map((l) => `  ${l.slice(0, 300)}`).join("\n")
    : "";
}

/** What the run and the monitor share: `crashed` once the process is gone during the run. */
export interface RunState {
  crashed: boolean;
  /** Set before the run stops the server itself. */
  finishing: boolean;
}

/** Runs until stopped. */
export async function monitor(ctx: FuzzContext, state: RunState): Promise<void> {
  ctx.srv.status.then((s) => {
    if (state.finishing) return;
    state.crashed = true;
    ctx.log.add("crash", {
      kind: "crash",
      target: "engine",
      summary: `the server process exited with code ${s.code} during the run`,
      repro: "output before it ended:\n" + ctx.srv.output().slice(-3000) + "\n" +
        rawRepro(ctx.recentRaw),
    });
  });
  let round = 0;
  while (!ctx.stopped()) {
    await sleep(2000);
    if (ctx.stopped()) break;
    const checks: [string, Promise<string | null>][] = [["health", healthOk(ctx)]];
    if (round % 3 === 0) checks.push(["websocket", wsOk(ctx)], ["telnet", telnetOk(ctx)]);
    round++;
    for (const [what, p] of checks) {
      const problem = await p;
      if (problem && !ctx.stopped()) {
        ctx.log.add(`health ${what}`, {
          kind: "health",
          target: what,
          summary: `a new ${
            what === "health" ? "/health request" : `${what} connection`
          } got no answer: ${problem}`,
          repro: rawRepro(ctx.recentRaw) + serverLog(ctx),
        });
      }
    }
  }
}
