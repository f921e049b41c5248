/**
 * TlsAborter: a TLS connection closed before its handshake is really gone (the client reads the
 * end), where Deno's close() alone leaves the socket open for as long as the client is silent.
 */
import { assertEquals } from "../../tests/assert.ts";
import { selfSigned } from "../../tests/tls_setup.ts";
import { TlsAborter } from "./tls_abort.ts";

/** Resolves "end" when `c` reads the end of the stream, "open" when nothing came in `ms`. */
async function endsWithin(c: Deno.Conn, ms: number): Promise<"end" | "open"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const read = c.read(new Uint8Array(256)).then(() => "end" as const, () => "end" as const);
  const out = await Promise.race([
    read,
    new Promise<"open">((r) => timer = setTimeout(() => r("open"), ms)),
  ]);
  clearTimeout(timer);
  return out;
}

/** A TLS listener on loopback and `n` silent TCP clients of it, with the accepted ends. */
async function silentClients(n: number, dir: string) {
  const pair = await selfSigned(dir, "t");
  if (!pair) return null;
  const listener = Deno.listenTls({ hostname: "127.0.0.1", port: 0, ...pair });
  const port = (listener.addr as Deno.NetAddr).port;
  const clients: Deno.Conn[] = [], accepted: Deno.TlsConn[] = [];
  for (let i = 0; i < n; i++) {
    clients.push(await Deno.connect({ hostname: "127.0.0.1", port }));
    accepted.push(await listener.accept());
  }
  // Half a ClientHello from the first: a handshake under way, not only one not begun.
  await clients[0].write(Uint8Array.of(0x16, 0x03, 0x01, 0x3e, 0x80, 0x01));
  return { listener, clients, accepted };
}

/** Runs `fn` with an aborter and `n` silent clients of a loopback TLS listener, then ends them all. */
async function withSilentClients(
  n: number,
  delayMs: number,
  fn: (
    aborter: TlsAborter,
    set: NonNullable<Awaited<ReturnType<typeof silentClients>>>,
  ) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-tls-abort-" });
  const aborter = new TlsAborter({ delayMs });
  try {
    const set = await silentClients(n, dir);
    if (!set) {
      console.log("SKIPPED: openssl is not installed here; TLS was not tested");
      return;
    }
    try {
      await fn(aborter, set);
    } finally {
      set.listener.close();
      for (const c of set.clients) {
        try {
          c.close();
        } catch { /* closed */ }
      }
    }
  } finally {
    aborter.stop();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("tls abort: a silent client's connection ends; close() alone leaves it open", () =>
  withSilentClients(3, 10, async (aborter, set) => {
    // Why the module exists: Deno's close() before the handshake does not end the socket.
    set.accepted[2].close();
    assertEquals(
      await endsWithin(set.clients[2], 500),
      "open",
      "Deno closes it now: drop tls_abort.ts",
    );
    aborter.abort(set.accepted[0]);
    aborter.abort(set.accepted[1]);
    assertEquals(await endsWithin(set.clients[0], 3_000), "end");
    assertEquals(await endsWithin(set.clients[1], 3_000), "end");
    // The one closed without the aborter is still open: the pass shut down only the two asked.
    assertEquals(await endsWithin(set.clients[2], 200), "open");
  }));

Deno.test("tls abort: one pass shuts down every connection dropped before it", () =>
  withSilentClients(20, 60_000, async (aborter, set) => {
    for (const a of set.accepted) aborter.abort(a);
    assertEquals(aborter.pass(), 20);
    for (const c of set.clients) assertEquals(await endsWithin(c, 3_000), "end");
    assertEquals(aborter.pass(), 0, "nothing waits after a pass");
  }));
