/**
 * Clients that open TLS connections and never finish the handshake (send nothing, or half a
 * ClientHello) are closed by the engine (HTTPS and WSS ports) and by the telnet sidecar's TLS
 * port, within the handshake bounds: before, Deno's close() left each socket open for as long as
 * the client liked, past the timeouts and the per-address cap (which refused by closing too), so
 * one address could take every descriptor the engine had.
 */
import { assertEquals } from "./assert.ts";
import { freePort } from "./harness.ts";
import { ADMIN } from "./supervised.ts";
import { TelnetClient } from "./telnet_client.ts";
import { selfSigned, startSupervisedTls } from "./tls_setup.ts";

/** Opens `n` TCP connections to `port`, each sending `first` (if any) and then nothing. */
async function silent(port: number, n: number, first?: Uint8Array): Promise<Deno.Conn[]> {
  const out: Deno.Conn[] = [];
  for (let i = 0; i < n; i++) {
    const c = await Deno.connect({ hostname: "127.0.0.1", port });
    if (first) await c.write(first);
    out.push(c);
  }
  return out;
}

/** How many of `conns` the server has closed (the client read their end) within `ms`. */
async function endedWithin(conns: Deno.Conn[], ms: number): Promise<number> {
  let ended = 0;
  await Promise.all(conns.map(async (c) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const buf = new Uint8Array(1024);
    const read = (async () => {
      try {
        while ((await c.read(buf)) !== null) { /* an alert or a refusal: read on to the end */ }
      } catch { /* reset: ended too */ }
      return true;
    })();
    const done = await Promise.race([
      read,
      new Promise<false>((r) => timer = setTimeout(() => r(false), ms)),
    ]);
    clearTimeout(timer);
    if (done) ended++;
  }));
  return ended;
}

/** Half a ClientHello: a handshake under way that never gets its next byte. */
const HALF_HELLO = Uint8Array.of(0x16, 0x03, 0x01, 0x3e, 0x80, 0x01);

Deno.test("tls: connections that never finish their handshake are closed, beyond the cap too", async () => {
  const certs = await Deno.makeTempDir({ prefix: "ursamu-tls-stall-" });
  const pair = await selfSigned(certs, "game");
  if (!pair) {
    console.log("SKIPPED: openssl is not installed here; TLS was not tested");
    await Deno.remove(certs, { recursive: true });
    return;
  }
  const telnetTls = freePort();
  const srv = await startSupervisedTls(certs, telnetTls, { URSAMU_SERVER_HEADERTIMEOUT: "1" });
  const conns: Deno.Conn[] = [];
  try {
    // 60 at the HTTPS port (its cap is 50 an address), 20 at the WebSocket port, 60 at the
    // telnet TLS port; half of each send half a ClientHello.
    const https = [
      ...await silent(srv.http, 30),
      ...await silent(srv.http, 30, HALF_HELLO),
    ];
    const wss = await silent(srv.ws, 20, HALF_HELLO);
    const telnet = [...await silent(telnetTls, 30), ...await silent(telnetTls, 30, HALF_HELLO)];
    conns.push(...https, ...wss, ...telnet);
    // The engine's bound is server.headerTimeout (1 s here, swept every second or so); the
    // sidecar's is its 10 s handshake timeout.
    const [h, w, t] = await Promise.all([
      endedWithin(https, 8_000),
      endedWithin(wss, 8_000),
      endedWithin(telnet, 16_000),
    ]);
    assertEquals({ https: h, wss: w, telnet: t }, { https: 60, wss: 20, telnet: 60 });
    // And the game still takes a TLS telnet player from that address.
    const player = await TelnetClient.connectTls(telnetTls, [pair.cert]);
    try {
      await player.waitFor(/connect <name>/);
      await player.send(`connect ${ADMIN.name} ${ADMIN.password}`);
      await player.waitFor(/Limbo/);
    } finally {
      await player.close();
    }
  } finally {
    for (const c of conns) {
      try {
        c.close();
      } catch { /* closed */ }
    }
    await srv.stop();
    await Deno.remove(certs, { recursive: true });
  }
});
