/** Tests of a player's reconnecting hub session in the sidecar: backoff, final closes. */
import assert from "node:assert/strict";
import { HubLink, isFinalClose, reconnectDelay } from "./hub_link.ts";
import type { HubEvents } from "../client/hub_port.ts";
import { webSocketWires, type WireDialer } from "./wire.ts";

/** Events that record nothing unless given. */
function events(on: Partial<HubEvents>): HubEvents {
  return {
    hubOpened: () => {},
    hubFrame: () => {},
    takeFrame: () => false,
    hubDown: () => {},
    hubEnded: () => {},
    ...on,
  };
}

/** A link to `ws://127.0.0.1:<port>/` that reconnects fast and without jitter. */
function linkTo(port: number, on: Partial<HubEvents>, maxRetryMs = 50, wires?: WireDialer) {
  return new HubLink(wires ?? webSocketWires(`ws://127.0.0.1:${port}/`), () => null, events(on), {
    trusted: true,
    maxRetryMs,
    random: () => 0,
  });
}

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
  const dial = webSocketWires(`ws://127.0.0.1:${port}/`);
  const link = linkTo(
    port,
    {
      hubOpened: () => assert.fail("nothing listens"),
      hubDown: (wasOpen) => {
        assert.equal(wasOpen, false);
        downs++;
      },
      hubEnded: () => assert.fail("not final"),
    },
    50,
    (query, ev) => {
      attempts++;
      return dial(query, ev);
    },
  );
  link.connect();
  await new Promise((r) => setTimeout(r, 400));
  link.end();
  assert.equal(downs, 1);
  assert.ok(attempts >= 3, `attempts ${attempts}`);
  assert.equal(link.line("x", 1), "failed");
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
  const link = linkTo(port, {
    hubOpened: () => {
      events.push("open");
      opened();
    },
    hubFrame: (t) => events.push(`frame ${t}`),
    hubDown: (w) => events.push(`down ${w}`),
    hubEnded: (code) => {
      events.push(`final ${code}`);
      final();
    },
  });
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
  assert.deepEqual(events, ["down false", "open", "frame hello", "final 1000"]);
});

Deno.test("retrySoon: a link waiting out a long retry dials at once when told the hub is back", async () => {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  let down!: () => void;
  let opened!: () => void;
  const downP = new Promise<void>((r) => down = r);
  const openedP = new Promise<void>((r) => opened = r);
  const link = linkTo(port, { hubOpened: () => opened(), hubDown: () => down() }, 60_000);
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
  link.end();
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
    const link: HubLink = linkTo(server.port, {
      hubOpened: () => events.push("open"),
      hubFrame: () => {
        events.push("frame");
        if (announce) link.expectEnd();
      },
      hubDown: (wasOpen) => {
        events.push(`down ${wasOpen}`);
        settled();
      },
      hubEnded: () => {
        events.push("final");
        settled();
      },
    }, 60_000);
    link.connect();
    await settledP;
    link.end();
    await server.done;
    assert.deepEqual(events, ["open", "frame", announce ? "final" : "down true"]);
  }
});

/** A wire dialer that opens at once (after the call) and records what went over each wire. */
function recordingWires() {
  const dialed: { query: string; sent: string[] }[] = [];
  const dial: WireDialer = (query, ev) => {
    const wire = { query, sent: [] as string[] };
    dialed.push(wire);
    queueMicrotask(() => ev.open());
    return { send: (text) => void wire.sent.push(text), close: () => {} };
  };
  return { dialed, dial };
}

Deno.test("a link sends lines and pings as frames, reports only as far as the hub believes them, and resumes with the token", async () => {
  for (const trusted of [true, false]) {
    const { dialed, dial } = recordingWires();
    let token: string | null = null;
    const link = new HubLink(dial, () => token, events({}), { trusted, query: "client=telnet" });
    link.connect();
    assert.equal(link.line("early", 1), "failed", "not open yet");
    await Promise.resolve();
    assert.equal(link.line("look", 1), "sent", "its ack comes as a frame");
    assert.equal(link.ping(2), "sent");
    link.report({ ip: "203.0.113.4", connectedAt: 5, lastInput: 6, ttype: "MUDLET" });
    link.report({ width: 100, height: 40 });
    const sent = dialed[0].sent.map((t) => JSON.parse(t));
    assert.deepEqual(sent.slice(0, 2), [{ msg: "look", ack: 1 }, { type: "ping", id: 2 }]);
    assert.deepEqual(
      sent.slice(2).map((f) => f.type),
      trusted ? ["client", "window"] : ["window"],
      "without the secret the hub would refuse a client frame",
    );
    assert.equal(dialed[0].query, "client=telnet");
    token = "tok";
    link.end();
    const again = new HubLink(dial, () => token, events({}), { trusted, query: "client=telnet" });
    again.connect();
    assert.equal(
      new URLSearchParams(dialed[1].query).toString(),
      "client=telnet&token=tok&resume=1",
    );
    again.end();
  }
});
