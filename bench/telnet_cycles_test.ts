import assert from "node:assert/strict";
import { runCycles, sampleProcs } from "./telnet_cycles.ts";

/** A stand-in telnet server: a connect screen, and `think X` answered with X. */
function fakeServer(): { port: number; logins: string[]; stop(): Promise<void> } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const logins: string[] = [];
  const enc = new TextEncoder();
  const dec = new TextDecoder();
  const conns = new Set<Promise<void>>();
  const serve = async (conn: Deno.Conn) => {
    try {
      await conn.write(enc.encode("Welcome to the fake game\r\n"));
      const buf = new Uint8Array(1024);
      let text = "";
      for (;;) {
        const n = await conn.read(buf);
        if (n === null) break;
        text += dec.decode(buf.subarray(0, n));
        const lines = text.split("\r\n");
        text = lines.pop() ?? "";
        for (const line of lines) {
          if (line.startsWith("connect ")) logins.push(line.split(" ")[1]);
          if (line.startsWith("think ")) await conn.write(enc.encode(line.slice(6) + "\r\n"));
        }
      }
    } catch { /* the client hung up */ }
    try {
      conn.close();
    } catch { /* closed */ }
  };
  const accepting = (async () => {
    for await (const conn of listener) {
      const p = serve(conn);
      conns.add(p);
      p.finally(() => conns.delete(p));
    }
  })();
  return {
    port: (listener.addr as Deno.NetAddr).port,
    logins,
    async stop() {
      listener.close();
      await accepting.catch(() => {});
      await Promise.all(conns);
    },
  };
}

Deno.test("telnet_cycles: logs each player in and out, round-robin, and samples the server's memory", async () => {
  const server = fakeServer();
  try {
    const r = await runCycles({
      port: server.port,
      pid: Deno.pid,
      cycles: 12,
      warmup: 2,
      players: 5,
      concurrency: 3,
      settleMs: 0,
      sampleEvery: 6,
    });
    assert.equal(r.failed, 0, r.errors.join("; "));
    assert.equal(server.logins.length, 14);
    assert.deepEqual(
      new Set(server.logins),
      new Set(["bench0", "bench1", "bench2", "bench3", "bench4"]),
    );
    assert.equal(r.samples.length, 2);
    const self = r.growth.find((g) => g.startKiB > 0);
    assert.ok(self && self.endKiB > 0 && self.freshKiB !== null && self.ratio > 0);
  } finally {
    await server.stop();
  }
});

Deno.test("telnet_cycles: bare cycles need no login; a server that never answers is a failure, not a hang", async () => {
  const server = fakeServer();
  try {
    const r = await runCycles({
      port: server.port,
      pid: null,
      cycles: 5,
      warmup: 0,
      bare: true,
      settleMs: 0,
    });
    assert.equal(r.failed, 0);
    assert.equal(server.logins.length, 0);
  } finally {
    await server.stop();
  }
  const silent = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const c of silent) held.push(c);
  })();
  try {
    const r = await runCycles({
      port: (silent.addr as Deno.NetAddr).port,
      pid: null,
      cycles: 2,
      warmup: 0,
      settleMs: 0,
      cycleTimeoutMs: 200,
    });
    assert.equal(r.failed, 2);
    assert.match(r.errors[0], /no login marker/);
  } finally {
    silent.close();
    await accepting.catch(() => {});
    for (const c of held) {
      try {
        c.close();
      } catch { /* closed */ }
    }
  }
});

Deno.test("telnet_cycles: sampleProcs names this process and reads its resident memory", () => {
  const procs = sampleProcs(Deno.pid);
  assert.ok(procs.length >= 1);
  assert.ok(procs.every((p) => p.rssKiB > 0 || p.pid !== Deno.pid));
});
