/**
 * Black-box tests of what the hub remembers of connected players (name, moniker, flags): `look`,
 * `who`, `page` and the disconnect line read it from memory, so every writer (commands, REST)
 * must keep it current.
 */
import { assert, assertEquals } from "./assert.ts";
import { isType, startWorld } from "./commands_world.ts";
import { api } from "./harness.ts";
import type { WsMessage } from "./ws_client.ts";

type Listed = { id: string; name: string; moniker: string };
const names = (m: WsMessage) => (m.data.players as Listed[]).map((p) => p.name).sort();
const monikerOf = (m: WsMessage, id: string) =>
  (m.data.players as Listed[]).find((p) => p.id === id)?.moniker;

Deno.test("hub: renames, monikers and flags of connected players show at once", async () => {
  const w = await startWorld(["Alice", "Bob"]);
  try {
    const root = await w.login("Root");
    const alice = await w.login("Alice");
    const bob = await w.login("Bob");
    const token = (await api(w.srv.base, "POST", "/api/v1/auth/login", {
      name: "Alice",
      password: "password123",
    })).body.token;
    const patch = (body: unknown) =>
      api(w.srv.base, "PATCH", `/api/v1/dbobj/${alice.id}`, body, token);

    // A rename over REST reaches look, who, page and the room's disconnect line.
    assertEquals((await patch({ name: "Alicia" })).status, 200);
    let look = await bob.cmd("look", isType("room"));
    assertEquals(names(look), ["Alicia", "Bob", "Root"]);
    assert(/Players:.*Alicia/.test(look.msg));
    const who = await bob.cmd("who", isType("who"));
    assert(/Alicia/.test(who.msg) && !/Alice\b/.test(who.msg), who.msg);
    await bob.cmd("page Alicia=found you", /^You paged Alicia/);
    await alice.ws.expect(/^Bob pages: found you/);

    // A moniker set in-game shows in the next look; a rename that no longer spells it drops it.
    await root.cmd("@moniker Alicia=%crAli%cgcia", /^Moniker for Alicia set/);
    look = await bob.cmd("look", isType("room"));
    assertEquals(monikerOf(look, alice.id), "%crAli%cgcia");
    assertEquals((await patch({ name: "Ally" })).status, 200);
    look = await bob.cmd("look", isType("room"));
    assertEquals(monikerOf(look, alice.id), "Ally", "the moniker spelling Alicia is gone");
    const obj = await api(w.srv.base, "GET", `/api/v1/dbobj/${alice.id}`, undefined, token);
    assertEquals(obj.body.data.moniker, undefined);

    // Flags follow too: a dark player leaves who and look for others, not for staff.
    await alice.cmd("@set me=dark", /^Set\.$/);
    assertEquals(names(await bob.cmd("look", isType("room"))), ["Bob", "Root"]);
    const bobWho = await bob.cmd("who", isType("who"));
    assert(!bobWho.data.players.some((p: { id: string }) => p.id === alice.id));
    assertEquals(names(await root.cmd("look", isType("room"))), ["Ally", "Bob", "Root"]);
    await alice.cmd("@set me=!dark", /^Cleared\.$/);

    await alice.ws.close();
    await bob.ws.expect(/^Ally has disconnected\.$/);
  } finally {
    await w.stop();
  }
});
