/**
 * The sidecar's TLS telnet listener: a renewed certificate is served without a moment in which
 * the port is closed (the old listener's port was still bound when the new one opened, so every
 * renewal was refused once and the port stayed closed until the next check, 2 s later).
 */
import { join } from "node:path";
import { assert, assertEquals } from "../../../tests/assert.ts";
import { freePort } from "../../../tests/harness.ts";
import { selfSigned } from "../../../tests/tls_setup.ts";
import { TlsTelnetListener } from "./tls_listener.ts";

Deno.test("tls listener: a renewal reopens the port at once, with the new certificate", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-tls-listener-" });
  const first = await selfSigned(dir, "first");
  if (!first) {
    console.log("SKIPPED: openssl is not installed here; TLS was not tested");
    return;
  }
  const second = (await selfSigned(dir, "second"))!;
  const keyFile = join(dir, "game.key"), certFile = join(dir, "game.crt");
  await Deno.writeTextFile(keyFile, first.key);
  await Deno.writeTextFile(certFile, first.cert);
  const logs: string[] = [];
  const admitted: Deno.TlsConn[] = [];
  const listener = new TlsTelnetListener({
    hostname: "127.0.0.1",
    port: freePort(),
    read: async () => ({
      key: await Deno.readTextFile(keyFile),
      cert: await Deno.readTextFile(certFile),
    }),
    watch: [keyFile, certFile],
    admit: (conn) => admitted.push(conn),
    log: (line) => logs.push(line),
    pollMs: 50,
    maxHandshakesPerIp: 0,
  });
  try {
    const { port } = await listener.start();
    await Deno.writeTextFile(keyFile, second.key);
    await Deno.writeTextFile(certFile, second.cert);
    const end = Date.now() + 10_000;
    while (Date.now() < end && !logs.some((l) => /renewed/.test(l))) {
      await new Promise((r) => setTimeout(r, 20));
    }
    assertEquals(logs.filter((l) => /refused|gone/.test(l)), [], "no failed reopen");
    assert(logs.some((l) => /TLS certificate renewed/.test(l)), logs.join("\n"));
    // A client trusting only the new certificate gets in at once.
    const conn = await Deno.connectTls({ hostname: "127.0.0.1", port, caCerts: [second.cert] });
    await conn.handshake();
    conn.close();
  } finally {
    listener.stop();
    for (const c of admitted) {
      try {
        c.close();
      } catch { /* closed */ }
    }
    await Deno.remove(dir, { recursive: true });
  }
});
