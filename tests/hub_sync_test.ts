/**
 * Black-box tests of the `sync` frame (answered once everything sent before it has run) and of
 * the keepalive bound: pings and syncs never use up a player's 10 commands a second, and have a
 * bound of their own (20 a second per connection).
 */
import { assert, assertEquals } from "./assert.ts";
import { register, startServer } from "./harness.ts";
import { connectWs, type WsMessage } from "./ws_client.ts";

const isType = (type: string) => (m: WsMessage) => m.data.type === type;

Deno.test("hub: sync answers after earlier commands have run; pings are not commands", async (t) => {
  const srv = await startServer();
  try {
    const token = await register(srv.base, "Alice");

    await t.step("sync is answered after the replies to what came before it", async () => {
      const c = await connectWs(srv, { token, client: "web" });
      try {
        await c.expect(isType("session"));
        // Sent at once with the login still running: the login's own look runs first too.
        c.send("think one");
        c.send("look");
        c.send("think two");
        c.sendJson({ type: "sync", id: "after-two" });
        c.send("think three");
        const sync = await c.expect(isType("sync"));
        assertEquals(sync.msg, "");
        assertEquals(sync.data, { type: "sync", id: "after-two" });
        await c.expect(/^three$/);
        const at = (msg: string) => c.all.findIndex((m) => m.msg === msg);
        const rooms = c.all.flatMap((m, i) => m.data.type === "room" ? [i] : []);
        const synced = c.all.findIndex(isType("sync"));
        assertEquals(rooms.length, 2, "the login's look and ours");
        assert(at("one") < rooms[1] && rooms[1] < at("two"), "commands run in order");
        assert(at("two") < synced && synced < at("three"), "sync between two and three");
        // Without an id the answer has none; a bad id is dropped the same way ping's is.
        c.sendJson({ type: "sync" });
        assertEquals((await c.expect(isType("sync"))).data, { type: "sync" });
      } finally {
        await c.close();
      }
    });

    await t.step("before login too", async () => {
      const c = await connectWs(srv, { client: "web" });
      try {
        await c.expect(isType("connect"));
        c.send("connect Alice password123");
        c.sendJson({ type: "sync", id: 7 });
        await c.expect(isType("sync"));
        // The login (and its look) ran before the answer.
        assert(c.all.some(isType("session")) && c.all.some(isType("room")));
      } finally {
        await c.close();
      }
    });

    // The command rate is per player: each step below has a player of its own.
    await t.step("pings and syncs do not use up the command rate", async () => {
      const c = await connectWs(srv, { token: await register(srv.base, "Bob"), client: "web" });
      try {
        await c.expect(isType("session"));
        await c.expect(isType("room"));
        // One burst, well inside a second: 10 commands among 15 pings and 4 syncs.
        for (let i = 0; i < 10; i++) {
          c.sendJson({ type: "ping", id: i });
          c.send(`think cmd ${i}`);
          if (i % 2 === 0) c.sendJson({ type: "ping", id: 100 + i });
          if (i % 3 === 0) c.sendJson({ type: "sync", id: i });
        }
        await c.expect((m) => m.data.type === "sync" && m.data.id === 9);
        const thinks = c.all.filter((m) => /^cmd \d$/.test(m.msg));
        assertEquals(thinks.length, 10, "every command ran");
        assertEquals(c.all.filter(isType("pong")).length, 15);
      } finally {
        await c.close();
      }
    });

    await t.step("keepalives have a bound of their own, which leaves commands alone", async () => {
      const c = await connectWs(srv, { token: await register(srv.base, "Carol"), client: "web" });
      try {
        await c.expect(isType("session"));
        await c.expect(isType("room"));
        for (let i = 0; i < 40; i++) c.sendJson({ type: "ping", id: i });
        c.send("think still here");
        await c.expect(/^still here$/);
        assertEquals(await c.countAfter(isType("pong"), 300), 20);
      } finally {
        await c.close();
      }
    });
  } finally {
    await srv.stop();
  }
});
