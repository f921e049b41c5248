/**
 * TLS (issue 16, item 4) with a self-signed certificate made at test time by openssl (a visible
 * skip without it): HTTPS and WSS on the HTTP and hub ports, telnet over TLS on server.telnetTls
 * and plain telnet on its port; a renewed certificate is used by the sidecar for new connections at
 * once without dropping a connected player, and by the engine after @reboot.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { freePort } from "./harness.ts";
import { ADMIN } from "./supervised.ts";
import { TelnetClient } from "./telnet_client.ts";
import { selfSigned, startSupervisedTls } from "./tls_setup.ts";

/** GET over HTTPS trusting only `ca`; the status, or the error's message. */
async function httpsGet(url: string, ca: string): Promise<number | string> {
  const client = Deno.createHttpClient({ caCerts: [ca] });
  try {
    const r = await fetch(url, { client });
    await r.body?.cancel();
    return r.status;
  } catch (e) {
    return (e as Error).message;
  } finally {
    client.close();
  }
}

/** Opens a WSS connection trusting only `ca`; resolves with the first message. */
function wssFirst(url: string, ca: string): Promise<string> {
  const client = Deno.createHttpClient({ caCerts: [ca] });
  return new Promise((resolve, reject) => {
    // @ts-ignore: Deno's WebSocket takes an HTTP client for its TLS settings.
    const ws = new WebSocket(url, { client });
    ws.onmessage = (e) => {
      resolve(String(e.data));
      ws.close();
    };
    ws.onerror = () => reject(new Error("wss failed"));
    ws.onclose = () => client.close();
  });
}

Deno.test("tls: HTTPS, WSS and telnet over TLS; a renewed certificate without dropping players", async () => {
  const certs = await Deno.makeTempDir({ prefix: "ursamu-tls-" });
  const first = await selfSigned(certs, "first");
  if (!first) {
    console.log("SKIPPED: openssl is not installed here; TLS was not tested");
    await Deno.remove(certs, { recursive: true });
    return;
  }
  // The files the game reads; a renewal replaces their contents.
  await Deno.writeTextFile(join(certs, "game.key"), first.key);
  await Deno.writeTextFile(join(certs, "game.crt"), first.cert);
  const telnetTls = freePort();
  const srv = await startSupervisedTls(certs, telnetTls);
  const open: TelnetClient[] = [];
  try {
    const https = `https://127.0.0.1:${srv.http}`;
    assertEquals(await httpsGet(`${https}/health`, first.cert), 200);
    // Plain HTTP on the TLS port does not work.
    const plain = await fetch(`http://127.0.0.1:${srv.http}/health`).then((r) => r.status).catch(
      () => "refused",
    );
    assert(plain !== 200, "no plain HTTP on the HTTPS port");
    assertMatch(await wssFirst(`wss://127.0.0.1:${srv.ws}/`, first.cert), /connect|\S/);
    assertMatch(await wssFirst(`wss://127.0.0.1:${srv.http}/ws`, first.cert), /\S/);
    // Telnet over TLS, and plain telnet on its own port, both log in.
    const secure = await TelnetClient.connectTls(telnetTls, [first.cert]);
    open.push(secure);
    await secure.waitFor(/connect <name>/);
    await secure.send(`connect ${ADMIN.name} ${ADMIN.password}`);
    await secure.waitFor(/Limbo/);
    const clear = await TelnetClient.connect(srv.telnet);
    open.push(clear);
    await clear.waitFor(/connect <name>/);
    // Renewal: new files; the sidecar serves the new certificate at once.
    const second = (await selfSigned(certs, "second"))!;
    await Deno.writeTextFile(join(certs, "game.key"), second.key);
    await Deno.writeTextFile(join(certs, "game.crt"), second.cert);
    await srv.waitFor(/TLS certificate renewed/, 15_000);
    const renewed = await TelnetClient.connectTls(telnetTls, [second.cert]);
    open.push(renewed);
    await renewed.waitFor(/connect <name>/);
    // The player connected before the renewal is still there.
    const mark = secure.mark();
    await secure.send("think still here");
    await secure.waitFor(/still here/, 10_000, mark);
    // The engine uses the new certificate after @reboot; its players stay connected meanwhile.
    assert(
      (await httpsGet(`${https}/health`, second.cert)) !== 200,
      "before @reboot the engine still presents the first certificate",
    );
    assertEquals(await httpsGet(`${https}/health`, first.cert), 200);
    await secure.send("@reboot");
    const end = Date.now() + 30_000;
    let status: number | string = "";
    while (Date.now() < end && status !== 200) {
      status = await httpsGet(`${https}/health`, second.cert);
      if (status !== 200) await new Promise((r) => setTimeout(r, 200));
    }
    assertEquals(status, 200, "HTTPS with the renewed certificate after @reboot");
    const after = secure.mark();
    await secure.send("think back again");
    await secure.waitFor(/back again/, 20_000, after);
    assert(!secure.closed, "the TLS telnet player stayed connected through @reboot");
  } finally {
    for (const c of open) await c.close();
    await srv.stop();
    await Deno.remove(certs, { recursive: true });
  }
});
