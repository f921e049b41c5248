/** Tests of the sidecar's end of its one link: lines the hub hands back at a restart. */
import assert from "node:assert/strict";
import { MuxClient } from "./mux_client.ts";
import { HubLink } from "./hub_link.ts";
import { closePayload, encodeRecord, unreadPayload } from "../../hub/carriers/mux_wire.ts";
import type { HubEvents } from "../client/hub_port.ts";

/**
 * A hub that speaks the link's format: it takes every session it is asked to open, then sends
 * `ending` to the first link once that session is open.
 */
function fakeHub(ending: (sid: number) => string) {
  const ac = new AbortController();
  let told = false;
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    signal: ac.signal,
    onListen: () => {},
  }, (req) => {
    const { socket, response } = Deno.upgradeWebSocket(req);
    socket.onmessage = (e) => {
      const m = /^o (\d+) /.exec(String(e.data));
      if (!m) return;
      socket.send(encodeRecord("a", [Number(m[1])]));
      if (!told) {
        told = true;
        socket.send(ending(Number(m[1])));
      }
    };
    return response;
  });
  return { port: server.addr.port, stop: () => (ac.abort(), server.finished) };
}

/** A player's hub session over a link to `port`; resolves with its first `hubDown`. */
function playerOn(port: number, logged: string[]) {
  const mux = new MuxClient({
    hubUrl: `ws://127.0.0.1:${port}/?client=telnet`,
    headers: {},
    log: (l) => logged.push(l),
  });
  let down!: (v: { wasOpen: boolean; unread: readonly string[] }) => void;
  const downP = new Promise<{ wasOpen: boolean; unread: readonly string[] }>((r) => down = r);
  const events: HubEvents = {
    hubOpened: () => {},
    hubFrame: () => {},
    takeFrame: () => false,
    hubDown: (wasOpen, unread = []) => down({ wasOpen, unread }),
    hubEnded: () => assert.fail("a restart is not final"),
  };
  const link = new HubLink((q, ev) => mux.dial(q, ev), () => null, events, {
    trusted: true,
    maxRetryMs: 60_000,
  });
  link.connect();
  return {
    down: downP,
    stop: () => {
      link.end();
      mux.stop();
    },
  };
}

Deno.test("mux client: lines the hub hands back before its restart close reach the player's client", async () => {
  const lines = ["say one", "pose waves"];
  const hub = fakeHub((sid) =>
    encodeRecord("u", [sid], unreadPayload(lines)) +
    encodeRecord("c", [sid], closePayload(1012, "restart"))
  );
  const logged: string[] = [];
  const player = playerOn(hub.port, logged);
  try {
    assert.deepEqual(await player.down, { wasOpen: true, unread: lines });
    assert.deepEqual(logged, []);
  } finally {
    player.stop();
    await hub.stop();
  }
});

Deno.test("mux client: a malformed record of unrun lines is refused whole; the restart goes on", async () => {
  const hub = fakeHub((sid) =>
    encodeRecord("u", [sid], '["fine", 7]') +
    encodeRecord("c", [sid], closePayload(1012, "restart"))
  );
  const logged: string[] = [];
  const player = playerOn(hub.port, logged);
  try {
    assert.deepEqual(await player.down, { wasOpen: true, unread: [] });
    assert.equal(logged.length, 1);
    assert.match(logged[0], /malformed record of unrun lines; ignored/);
  } finally {
    player.stop();
    await hub.stop();
  }
});
