import net from "node:net";
import { assert, assertEquals } from "../../tests/assert.ts";
import { NodeListenerWatch } from "./node_listener_watch.ts";

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function listening(server: net.Server): Promise<number> {
  await new Promise<void>((r) => server.listen({ host: "127.0.0.1", port: 0 }, () => r()));
  return (server.address() as net.AddressInfo).port;
}

/** One client connection that reads what comes; resolves with it when the server closes. */
async function talk(port: number): Promise<string> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const buf = new Uint8Array(100);
  const n = await conn.read(buf).catch(() => null);
  conn.close();
  return n === null ? "" : new TextDecoder().decode(buf.subarray(0, n));
}

Deno.test("listener watch: its own dials are dropped by the handler, and nothing is reopened", async () => {
  const lines: string[] = [];
  const seen: string[] = [];
  const server = net.createServer({ pauseOnConnect: true });
  let watch: NodeListenerWatch | null = null;
  server.on("connection", (s) => {
    if (watch?.isOwnDial(s)) return;
    seen.push("client");
    s.end("hi\n", () => s.destroy());
  });
  const port = await listening(server);
  watch = new NodeListenerWatch(server, {
    everyMs: 100,
    acceptMs: 500,
    label: "t",
    log: (l) => lines.push(l),
  });
  try {
    await wait(700);
    assertEquals(await talk(port), "hi\n");
    assertEquals(seen, ["client"], "the dials never reached the handler's clients");
    assertEquals(lines, []);
  } finally {
    watch.stop();
    server.close();
    await wait(50);
  }
});

Deno.test("listener watch: a listener whose dials are not accepted is reopened and serves again", async () => {
  const lines: string[] = [];
  const server = net.createServer({ pauseOnConnect: true });
  // A handler that never sees the dials stands for an accept loop that stalled.
  let stalled = true;
  let watch: NodeListenerWatch | null = null;
  server.on("connection", (s) => {
    if (!stalled && watch?.isOwnDial(s)) return;
    s.end("hi\n", () => s.destroy());
  });
  const port = await listening(server);
  watch = new NodeListenerWatch(server, {
    everyMs: 100,
    acceptMs: 200,
    label: "t",
    log: (l) => lines.push(l),
  });
  try {
    for (let i = 0; i < 50 && !lines.some((l) => /listening again/.test(l)); i++) await wait(50);
    stalled = false;
    assert(
      lines.some((l) => /t: the listener on 127\.0\.0\.1:\d+ stopped accepting/.test(l)),
      lines.join("\n"),
    );
    assert(lines.some((l) => /t: listening again on 127\.0\.0\.1/.test(l)), lines.join("\n"));
    assertEquals(await talk(port), "hi\n", "the same port serves after the reopening");
  } finally {
    watch.stop();
    server.close();
    await wait(50);
  }
});
