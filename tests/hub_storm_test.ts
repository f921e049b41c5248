/**
 * Reconnect storms against the hub, end to end over WebSocket: a character logging in and out in
 * a loop must not flood the others in its room with its arrivals and departures.
 */
import { assert, assertEquals } from "./assert.ts";
import { register, startServer } from "./harness.ts";
import { connectWs } from "./ws_client.ts";

Deno.test("hub storm: a character's logins are held to game.loginsPerMinute, so its room hears at most that many", async () => {
  // Before: a token login costs no password check, so one player reconnecting in a loop logged
  // in 70 times a second and everyone in the room heard each arrival and departure (twenty such
  // players sent 2,400 lines a second to each of the others).
  const srv = await startServer({ config: { game: { loginsPerMinute: 5 } } });
  try {
    const alice = await connectWs(srv, { token: await register(srv.base, "Alice"), client: "web" });
    await alice.expect((m) => m.data.type === "session");
    const bob = await register(srv.base, "Bob");
    const refusals: string[] = [];
    for (let i = 0; i < 8; i++) {
      const ws = await connectWs(srv, { token: bob, client: "web" });
      const m = await ws.expect((m) => m.data.type === "session" || m.data.type === "error");
      if (m.data.type === "error") refusals.push(m.msg);
      await ws.close();
    }
    assertEquals(refusals, [
      "Too many logins for this character in the last minute; try again in a moment.",
      "Too many logins for this character in the last minute; try again in a moment.",
      "Too many logins for this character in the last minute; try again in a moment.",
    ]);
    alice.send("think end");
    await alice.expect(/^end$/);
    await new Promise((r) => setTimeout(r, 300));
    const heard = alice.all.filter((m) => /^Bob has (connected|disconnected)\.$/.test(m.msg));
    assert(heard.length <= 10, heard.map((m) => m.msg).join("\n"));
    assertEquals(heard.filter((m) => m.msg === "Bob has connected.").length, 5);
    // Another character has logins of its own.
    const cat = await connectWs(srv, { token: await register(srv.base, "Cat"), client: "web" });
    await cat.expect((m) => m.data.type === "session");
    await cat.close();
    await alice.close();
  } finally {
    await srv.stop();
  }
});

Deno.test("hub storm: a login refused because the game is full does not count against game.loginsPerMinute", async () => {
  const srv = await startServer({ config: { game: { loginsPerMinute: 2, maxPlayers: 1 } } });
  try {
    const bob = await register(srv.base, "Bob");
    const alice = await connectWs(srv, { token: await register(srv.base, "Alice"), client: "web" });
    await alice.expect((m) => m.data.type === "session");
    const refusals: string[] = [];
    for (let i = 0; i < 4; i++) {
      const ws = await connectWs(srv, { token: bob, client: "web" });
      refusals.push((await ws.expect((m) => m.data.type === "error")).msg);
      await ws.close();
    }
    assertEquals(refusals, Array(4).fill("The game is full (1 player). Please try again later."));
    await alice.close();
    // Once there is room, Bob logs in: none of the refused tries used up his logins.
    let session = false;
    for (let i = 0; i < 50 && !session; i++) {
      const ws = await connectWs(srv, { token: bob, client: "web" });
      const m = await ws.expect((m) => m.data.type === "session" || m.data.type === "error");
      await ws.close();
      session = m.data.type === "session";
      if (!session) {
        assertEquals(m.msg, "The game is full (1 player). Please try again later.");
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    assert(session, "Bob logged in once Alice left");
  } finally {
    await srv.stop();
  }
});
