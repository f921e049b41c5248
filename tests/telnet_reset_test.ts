/**
 * Connections that end with a TCP reset before or as the sidecar accepts them (a client with
 * SO_LINGER 0, a port scanner) must never stop the telnet listener for everyone else.
 */
import net from "node:net";
import { assert, assertEquals } from "./assert.ts";
import { register } from "./harness.ts";
import { startSupervised, telnetLogin } from "./supervised.ts";

/** Opens `n` connections at once and ends each with a reset (RST) as soon as it is up. */
async function resetBurst(port: number, n: number): Promise<number> {
  const sockets = await Promise.all(
    Array.from({ length: n }, () =>
      new Promise<net.Socket | null>((resolve) => {
        const s = net.connect(port, "127.0.0.1", () => resolve(s));
        s.on("error", () => resolve(null));
      })),
  );
  let reset = 0;
  for (const s of sockets) {
    if (s === null) continue;
    // Sends RST instead of FIN: the sidecar may meet the connection already dead in accept().
    s.resetAndDestroy();
    reset++;
  }
  return reset;
}

Deno.test("telnet: connections reset by their clients never stop the listener", async () => {
  const srv = await startSupervised();
  try {
    await register(srv.base, "Alice", "alice-password");
    let sent = 0;
    for (let round = 0; round < 10; round++) sent += await resetBurst(srv.telnet, 40);
    assert(sent >= 200, `${sent} resets sent`);
    // Everyone else still gets in, and nothing had to be restarted to make that so. The resets
    // came from this address too: until the last of them is counted as gone (the engine reports
    // each end to the sidecar), the per-address limit may still turn a login away for a moment.
    let alice: Awaited<ReturnType<typeof telnetLogin>> | null = null;
    for (let attempt = 0; alice === null; attempt++) {
      try {
        alice = await telnetLogin(srv, "Alice", "alice-password");
      } catch (e) {
        if (attempt >= 40 || !/Too many connections/.test(String(e))) throw e;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    try {
      await alice.send("say still here");
      await alice.waitFor(/You say, "still here"/);
    } finally {
      await alice.close();
    }
    const out = srv.output();
    assert(!/listener failed/.test(out), out);
    assertEquals((out.match(/telnet sidecar started/g) ?? []).length, 1, out);
  } finally {
    await srv.stop();
  }
});
