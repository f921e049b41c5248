/** HttpListener: a request's count against its address is released whatever its answer did. */
import { assertEquals } from "../../tests/assert.ts";
import { TrustedProxies } from "./client_address.ts";
import { HttpConnections } from "./http_connections.ts";
import { HttpListener } from "./http_listener.ts";
import { connectionServer } from "./serve_http.ts";

/** Sends one HTTP/1.1 request on `conn` and returns the status of its answer. */
async function statusOf(conn: Deno.Conn): Promise<number> {
  await conn.write(new TextEncoder().encode("GET / HTTP/1.1\r\nhost: t\r\n\r\n"));
  const buf = new Uint8Array(4096);
  let text = "";
  while (!/\r\n\r\n/.test(text) || !/content-length: (\d+)/i.test(text)) {
    const n = await conn.read(buf);
    if (n === null) break;
    text += new TextDecoder().decode(buf.subarray(0, n));
  }
  // Read the body too, so the next answer starts at the next read.
  const length = Number(/content-length: (\d+)/i.exec(text)?.[1] ?? 0);
  while (text.length - text.indexOf("\r\n\r\n") - 4 < length) {
    const n = await conn.read(buf);
    if (n === null) break;
    text += new TextDecoder().decode(buf.subarray(0, n));
  }
  return Number(text.split(" ")[1]);
}

Deno.test("http listener: a handler and onError that both throw answer 500 and free the request", async () => {
  const serveHttp = connectionServer();
  if (typeof serveHttp === "string") throw new Error(serveHttp);
  const connections = new HttpConnections(() => ({
    headerTimeout: 10_000,
    keepAliveTimeout: 10_000,
    // One request under way per address: a request never released refuses the next (429).
    maxConnectionsPerIp: 1,
    trusted: new TrustedProxies([]),
  }), () => {});
  const listener = new HttpListener({
    hostname: "127.0.0.1",
    port: 0,
    label: "test",
    handler: () => {
      throw new Error("the handler fails");
    },
    onError: () => {
      throw new Error("and so does its error page");
    },
    connections,
    trusted: () => new TrustedProxies([]),
    serveHttp,
    log: () => {},
    lost: () => {},
  });
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: listener.addr.port });
  try {
    assertEquals(await statusOf(conn), 500);
    assertEquals(await statusOf(conn), 500, "the first request's count was released");
  } finally {
    conn.close();
    await listener.shutdown(100);
    connections.closeAll();
    connections.stop();
  }
});
