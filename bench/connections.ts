/**
 * New connections a second, the accept path alone (issue 31: the engine's own accept loop).
 * Starts an engine without caps and, 16 at a time for 5 s each: `GET /health` with
 * `Connection: close` on a fresh socket every time, then WebSocket open and close on the hub's
 * port. A warm-up round of each comes first. Run alone, beside another build for a ratio:
 * `deno run --unstable-kv -A bench/connections.ts` (docs/bench.md, "Issue 31: the engine's
 * own accept loop").
 */
import { startServer } from "../tests/harness.ts";

/** Requests or sockets in flight at once. */
const IN_FLIGHT = 16;
/** Seconds of each phase. */
const SECONDS = 5;

const HEALTH = new TextEncoder().encode(
  "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
);

/** Runs `once` from IN_FLIGHT loops for SECONDS; successes a second, and failures. */
async function rate(once: () => Promise<boolean>): Promise<{ perSecond: number; errors: number }> {
  let ok = 0;
  let errors = 0;
  const t0 = performance.now();
  const end = t0 + SECONDS * 1000;
  await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
    while (performance.now() < end) (await once().catch(() => false)) ? ok++ : errors++;
  }));
  return { perSecond: Math.round(ok / ((performance.now() - t0) / 1000)), errors };
}

/** One `GET /health` on a connection of its own, read to the server's close. */
async function healthOnce(port: number): Promise<boolean> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    await conn.write(HEALTH);
    const buf = new Uint8Array(4096);
    let head = "";
    for (;;) {
      const n = await conn.read(buf);
      if (n === null) break;
      if (head.length < 16) head += new TextDecoder().decode(buf.subarray(0, n));
    }
    return head.startsWith("HTTP/1.1 200");
  } finally {
    try {
      conn.close();
    } catch { /* closed by the server */ }
  }
}

/** One WebSocket opened on the hub's port and closed again. */
function webSocketOnce(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/`);
    ws.onopen = () => ws.close();
    ws.onclose = (e) => resolve(e.code === 1000 || e.code === 1005);
    ws.onerror = () => resolve(false);
  });
}

const srv = await startServer({
  config: {
    server: { maxConnections: 0, maxConnectionsPerIp: 0 },
    game: { idleTimeout: 0, maxPlayers: 0, registrationsPerHour: 0 },
    logging: { level: "warn" },
  },
});
try {
  await rate(() => healthOnce(srv.http));
  await rate(() => webSocketOnce(srv.ws));
  const http = await rate(() => healthOnce(srv.http));
  const ws = await rate(() => webSocketOnce(srv.ws));
  console.log(JSON.stringify({ httpNewConnection: http, webSocketOpenClose: ws }));
} finally {
  await srv.stop();
}
