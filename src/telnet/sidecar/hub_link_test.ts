/** Tests of a player's reconnecting hub session in the sidecar: backoff, final closes. */
import assert from "node:assert/strict";
import { HubLink, isFinalClose, reconnectDelay } from "./hub_link.ts";

Deno.test("close codes: quit, boot and abuse are final; restarts and lost sockets are not", () => {
  for (const code of [1000, 1008, 1009, 4001]) assert.ok(isFinalClose(code), String(code));
  for (const code of [1001, 1005, 1006, 1011, 1012, 1013]) {
    assert.ok(!isFinalClose(code), String(code));
  }
});

Deno.test("reconnect delay doubles from 100 ms to the cap, with at most 25% jitter", () => {
  const none = () => 0;
  assert.deepEqual([0, 1, 2, 3, 4, 5, 40].map((a) => reconnectDelay(a, 2000, none)), [
    100,
    200,
    400,
    800,
    1600,
    2000,
    2000,
  ]);
  assert.equal(reconnectDelay(0, 2000, () => 0.999), 125);
});

Deno.test("a link to a hub that is not there keeps retrying and reports down once", async () => {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  let downs = 0;
  let attempts = 0;
  const link = new HubLink(() => {
    attempts++;
    return `ws://127.0.0.1:${port}/`;
  }, {
    onOpen: () => assert.fail("nothing listens"),
    onFrame: () => {},
    onDown: (wasOpen) => {
      assert.equal(wasOpen, false);
      downs++;
    },
    onFinal: () => assert.fail("not final"),
  }, { maxRetryMs: 50, random: () => 0 });
  link.connect();
  await new Promise((r) => setTimeout(r, 400));
  link.close();
  assert.equal(downs, 1);
  assert.ok(attempts >= 3, `attempts ${attempts}`);
  assert.equal(link.send("x"), false);
});

Deno.test("a link comes back when the hub does, and stops on a final close", async () => {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  const events: string[] = [];
  let opened!: () => void;
  let final!: () => void;
  const openedP = new Promise<void>((r) => opened = r);
  const finalP = new Promise<void>((r) => final = r);
  const link = new HubLink(() => `ws://127.0.0.1:${port}/`, {
    onOpen: (re) => {
      events.push(`open ${re}`);
      opened();
    },
    onFrame: (t) => events.push(`frame ${t}`),
    onDown: (w) => events.push(`down ${w}`),
    onFinal: (code) => {
      events.push(`final ${code}`);
      final();
    },
  }, { maxRetryMs: 50, random: () => 0 });
  link.connect();
  await new Promise((r) => setTimeout(r, 150));
  const server = Deno.serve({ hostname: "127.0.0.1", port, onListen: () => {} }, (req) => {
    const { socket, response } = Deno.upgradeWebSocket(req);
    socket.onopen = () => {
      socket.send("hello");
      setTimeout(() => socket.close(1000, "bye"), 50);
    };
    return response;
  });
  await openedP;
  await finalP;
  assert.equal(link.open, false);
  await server.shutdown();
  assert.deepEqual(events, ["down false", "open false", "frame hello", "final 1000"]);
});

Deno.test("retrySoon: a link waiting out a long retry dials at once when told the hub is back", async () => {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  let down!: () => void;
  let opened!: () => void;
  const downP = new Promise<void>((r) => down = r);
  const openedP = new Promise<void>((r) => opened = r);
  const link = new HubLink(() => `ws://127.0.0.1:${port}/`, {
    onOpen: () => opened(),
    onFrame: () => {},
    onDown: () => down(),
    onFinal: () => {},
  }, { maxRetryMs: 60_000, random: () => 0 });
  link.connect();
  await downP;
  // Attempts at 0, 100, 300 and 700 ms fail; left alone, the next would come at 1500 ms.
  await new Promise((r) => setTimeout(r, 800));
  const server = Deno.serve({ hostname: "127.0.0.1", port, onListen: () => {} }, (req) => {
    const { socket, response } = Deno.upgradeWebSocket(req);
    socket.onopen = () => socket.send("hi");
    return response;
  });
  const asked = performance.now();
  link.retrySoon(0);
  link.retrySoon(0);
  await openedP;
  assert.ok(performance.now() - asked < 500, "dialled on the hint, not at the next retry");
  link.retrySoon(0); // ignored while open
  assert.equal(link.open, true);
  link.close();
  await server.shutdown();
});

/**
 * A bare WebSocket server on a raw TCP listener: completes the handshake, sends one text frame,
 * then drops the connection without a close frame (Deno reports code 0, as it does when a
 * close crosses the client's own send).
 */
function sendThenDrop(text: string): { port: number; done: Promise<void> } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  const done = (async () => {
    const conn = await listener.accept();
    listener.close();
    const buf = new Uint8Array(4096);
    const n = await conn.read(buf) ?? 0;
    const key =
      /Sec-WebSocket-Key: (.+)\r\n/i.exec(new TextDecoder().decode(buf.subarray(0, n)))![1];
    const digest = await crypto.subtle.digest(
      "SHA-1",
      new TextEncoder().encode(key.trim() + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"),
    );
    const accept = btoa(String.fromCharCode(...new Uint8Array(digest)));
    const payload = new TextEncoder().encode(text);
    await conn.write(new TextEncoder().encode(
      "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
        `Sec-WebSocket-Accept: ${accept}\r\n\r\n`,
    ));
    await conn.write(Uint8Array.from([0x81, payload.length, ...payload]));
    await new Promise((r) => setTimeout(r, 50));
    conn.close();
  })();
  return { port, done };
}

Deno.test("a session the hub announced as ended is over even if its close has no final code", async () => {
  for (const announce of [true, false]) {
    const server = sendThenDrop('{"msg":"Bye","data":{"type":"disconnect"}}');
    const events: string[] = [];
    let settled!: () => void;
    const settledP = new Promise<void>((r) => settled = r);
    const link = new HubLink(() => `ws://127.0.0.1:${server.port}/`, {
      onOpen: () => events.push("open"),
      onFrame: () => {
        events.push("frame");
        if (announce) link.expectEnd();
      },
      onDown: (wasOpen) => {
        events.push(`down ${wasOpen}`);
        settled();
      },
      onFinal: () => {
        events.push("final");
        settled();
      },
    }, { maxRetryMs: 60_000, random: () => 0 });
    link.connect();
    await settledP;
    link.close();
    await server.done;
    assert.deepEqual(events, ["open", "frame", announce ? "final" : "down true"]);
  }
});
