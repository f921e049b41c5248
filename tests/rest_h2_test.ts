/**
 * HTTP/2 carries many requests on one connection, so the per-address connection cap did not bound
 * how much one client could have the engine do at once: 1,100 scene creations sent together by
 * one player took the engine from 140 to 730 MB and kept every other player waiting up to 11 s.
 * An address now has at most `server.maxConnectionsPerIp` requests under way; more are answered
 * 429 at once, and none reaches a handler.
 */
import { assert, assertEquals } from "./assert.ts";
import { freePort } from "./harness.ts";
import { selfSigned, startSupervisedTls } from "./tls_setup.ts";

Deno.test("rest over HTTP/2: one address's requests under way are capped; the rest get 429", async () => {
  const certs = await Deno.makeTempDir({ prefix: "ursamu-h2-" });
  const pair = await selfSigned(certs, "game");
  if (!pair) {
    console.log("SKIPPED: openssl is not installed here; TLS was not tested");
    await Deno.remove(certs, { recursive: true });
    return;
  }
  const srv = await startSupervisedTls(certs, freePort(), {
    URSAMU_SERVER_MAXCONNECTIONSPERIP: "4",
  });
  const client = Deno.createHttpClient({ caCerts: [pair.cert], http1: false, http2: true });
  const base = `https://127.0.0.1:${srv.http}/api/v1`;
  try {
    const reg = await fetch(`${base}/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Bursty", password: "password123" }),
      client,
    });
    assertEquals(reg.status, 200);
    const { token } = await reg.json();
    // Sixty scene creations at once on the one connection.
    const statuses = await Promise.all(Array.from({ length: 60 }, async (_, i) => {
      const r = await fetch(`${base}/scenes`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ name: `scene ${i}`, location: "1" }),
        client,
      });
      const body = await r.json();
      if (r.status === 429) {
        assertEquals(body.error, "Too many requests at once from your address; try again shortly.");
      }
      return r.status;
    }));
    const count = (s: number) => statuses.filter((x) => x === s).length;
    assert(count(429) > 0, `some were refused: ${statuses.join(",")}`);
    assertEquals(count(201) + count(429), 60, `only 201 and 429: ${statuses.join(",")}`);
    // Once they are answered the address gets its share again.
    const list = await fetch(`${base}/scenes`, {
      headers: { authorization: `Bearer ${token}` },
      client,
    });
    await list.body?.cancel();
    assertEquals(list.status, 200);
  } finally {
    client.close();
    await srv.stop();
    await Deno.remove(certs, { recursive: true });
  }
});
