/** Black-box tests of the core in-game commands, with several real WebSocket clients. */
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { isType, startWorld } from "./commands_world.ts";
import { connectWs } from "./ws_client.ts";
import { api } from "./harness.ts";

const QUIET_MS = 300;

Deno.test("commands: core commands seen by others in the room", async (t) => {
  const w = await startWorld(["Alice", "Bob", "Carol", "Dave"]);
  try {
    const alice = await w.login("Alice");
    const bob = await w.login("Bob");
    const carol = await w.login("Carol");
    await carol.cmd("north", isType("room"));
    bob.ws.clear();
    alice.ws.clear();

    await t.step("say, pose, semipose and @emit reach the room and not elsewhere", async () => {
      const said = await alice.cmd('"Hello, Bob.', /^You say, "Hello, Bob\./);
      assertEquals(said.data.type, "say");
      const heard = await bob.ws.expect(/^Alice says, "Hello, Bob\./);
      assertEquals(heard.data.from.name, "Alice");
      assertEquals(heard.data.text, "Hello, Bob.");
      await alice.send("say plain words");
      await bob.ws.expect(/^Alice says, "plain words/);
      await alice.send(":waves.");
      assertEquals((await bob.ws.expect(/^Alice waves\.$/)).data.type, "pose");
      await alice.ws.expect(/^Alice waves\.$/);
      await alice.send("pose grins.");
      await bob.ws.expect(/^Alice grins\.$/);
      await alice.send(";'s hat falls off.");
      await bob.ws.expect(/^Alice's hat falls off\.$/);
      await alice.send("@emit Thunder rolls.");
      assertEquals((await bob.ws.expect(/^Thunder rolls\.$/)).data.type, "emit");
      await alice.send("\\A cold wind.");
      await bob.ws.expect(/^A cold wind\.$/);
      assert(!(await carol.ws.sees(/Alice|Thunder|wind/, QUIET_MS)), "Carol is in another room");
    });

    await t.step("think is seen by the thinker alone", async () => {
      await alice.cmd("think %chsecret plan%cn", /secret plan/);
      assert(!(await bob.ws.sees(/secret plan/, QUIET_MS)));
    });

    await t.step(
      "page reaches a player in another room; offline and unknown are clear",
      async () => {
        await alice.cmd("page Carol=Meet me at noon.", /^You paged Carol with 'Meet me at noon\./);
        const got = await carol.ws.expect(/^Alice pages: Meet me at noon\./);
        assertEquals(got.data.type, "page");
        assertEquals(got.data.from.name, "Alice");
        await alice.send("page carol=:nods.");
        await carol.ws.expect(/^From afar, Alice nods\./);
        assert(!(await bob.ws.sees(/noon|nods/, QUIET_MS)), "pages are private");
        await alice.cmd("page Dave=hello", /^Dave is not connected\.$/);
        await alice.cmd("page Nobody=hello", /^I don't recognize a player named 'Nobody'\.$/);
      },
    );

    await t.step("who lists connected players with idle times", async () => {
      const who = await bob.cmd("who", /Player Name/);
      assertMatch(who.msg, /Alice\s+\d\d:\d\d\s+\d+[smhd]/);
      assertMatch(who.msg, /Bob/);
      assertMatch(who.msg, /Carol/);
      assert(!who.msg.includes("Dave"), "offline players are not listed");
      assertMatch(who.msg, /3 players connected\./);
      assertEquals(who.data.players.length, 3);
    });

    await t.step("look shows the room, players, contents and exits", async () => {
      const look = await bob.cmd("look", isType("room"));
      assertMatch(look.msg, /^%chLimbo/);
      assertMatch(look.msg, /Players:.*Alice/);
      assertMatch(look.msg, /Contents:.*Lantern/);
      assertMatch(look.msg, /Exits:.*North/);
      assertEquals(look.data.name, "Limbo");
      assertEquals(look.data.exits.map((e: { name: string }) => e.name), ["North"]);
      assert(look.data.players.some((p: { name: string }) => p.name === "Alice"));
      assert(!look.data.players.some((p: { name: string }) => p.name === "Carol"));
      const lantern = await bob.cmd("look lantern", isType("look"));
      assertMatch(lantern.msg, /A brass lantern\./);
    });

    await t.step("moving through an exit by alias announces departure and arrival", async () => {
      const view = await alice.cmd("n", isType("room"));
      assertEquals(view.data.name, "Garden");
      assertMatch(view.msg, /Roses everywhere\./);
      assertMatch(view.msg, /Players:.*Carol/);
      assertEquals((await bob.ws.expect(/^Alice has left\.$/)).data.type, "leave");
      assertEquals((await carol.ws.expect(/^Alice has arrived\.$/)).data.type, "arrive");
      const look = await bob.cmd("look", isType("room"));
      assert(!look.data.players.some((p: { name: string }) => p.name === "Alice"));
      await alice.send('"Hi Carol');
      await carol.ws.expect(/^Alice says, "Hi Carol/);
      assert(!(await bob.ws.sees(/Hi Carol/, QUIET_MS)), "the hub knows Alice moved");
      await alice.cmd("s", isType("room"));
      await bob.ws.expect(/^Alice has arrived\.$/);
      await alice.cmd("go north", isType("room"));
      const home = await alice.cmd("home", /There's no place like home/);
      assert(home);
      await alice.ws.expect((m) => m.data.type === "room" && m.data.name === "Limbo");
      await bob.ws.expect(/^Alice has arrived\.$/);
    });

    await t.step("get, drop and give", async () => {
      await alice.cmd("get lantern", /^Taken\.$/);
      await alice.cmd("inventory", /Lantern/);
      // As MUX, one takes gifts when set enter_ok.
      await alice.cmd("give bob=lantern", /^Permission denied\.$/);
      await bob.cmd("@set me=enter_ok", /^Set\.$/);
      await alice.cmd("give bob=lantern", /^Given\.$/);
      assertEquals((await bob.ws.expect(/^Alice gave you Lantern\.$/)).data.type, "give");
      await bob.cmd("i", /Lantern/);
      await bob.cmd("drop lantern", /^Dropped\.$/);
      await alice.ws.expect(/^Bob dropped Lantern\.$/);
      await alice.cmd("get bob", /^You can't pick that up\.$/);
    });

    await t.step("@describe, @name and examine", async () => {
      await alice.cmd("@describe me=A woman in a green coat.", /^Set\.$/);
      await bob.cmd("look alice", /A woman in a green coat\./);
      await bob.cmd("@describe alice=Vandalised.", /^Permission denied\.$/);
      await bob.cmd("@name alice=Mallory", /^Permission denied\.$/);
      const pub = await bob.cmd("examine alice", isType("examine"));
      assertMatch(pub.msg, /A woman in a green coat\./);
      assert(!pub.msg.includes("Flags"), "others see only the public part");
      const full = await alice.cmd("examine me", isType("examine"));
      assertMatch(full.msg, /Flags: player/);
      await alice.cmd("@name me=Bob", /already taken/);
      await alice.cmd("@name me=Alicia", /^Name set\.$/);
      const login = await api(w.srv.base, "POST", "/api/v1/auth/login", {
        name: "Alicia",
        password: "password123",
      });
      assertEquals(login.status, 200);
      await alice.cmd("@name me=Alice", /^Name set/);
    });

    await t.step("a plain client gets ANSI text", async () => {
      const r = await api(w.srv.base, "POST", "/api/v1/auth/login", {
        name: "Dave",
        password: "password123",
      });
      const plain = await connectWs(w.srv, { token: r.body.token });
      try {
        await plain.expect(/Limbo/);
        await bob.ws.expect(/^Dave has connected\.$/);
        await bob.send('"Hi Dave');
        const heard = await plain.expect(/Bob says, "Hi Dave/);
        assert(!heard.msg.includes("%c"), "colour codes are rendered for plain clients");
      } finally {
        await plain.close();
      }
    });
  } finally {
    await w.stop();
  }
});

Deno.test("commands: hostile input gets a clear message and changes nothing", async () => {
  const w = await startWorld(["Alice", "Bob"]);
  try {
    const alice = await w.login("Alice");
    const bob = await w.login("Bob");
    await alice.cmd("xyzzy", /^Huh\? Type 'help' for help\.$/);
    await alice.cmd("look/sideways", /^look takes no switches \(got \/sideways\)\.$/);
    await alice.cmd("look red", /^I don't know which one you mean: Red Ball, Red Box\.$/);
    await alice.cmd("look unicorn", /^I don't see that here\.$/);
    await alice.cmd("get .*", /^I don't see that here\.$/);
    await alice.cmd("look #999999", /^I don't see that here\.$/);
    const long = await alice.cmd("say " + "x".repeat(60_000), isType("error"));
    assertMatch(long.msg, /too long/);
    await alice.send("say he\x07l\x00lo\x1b[31m there");
    await bob.ws.expect(/^Alice says, "hello there/);
    await alice.cmd("@set me=" + "(".repeat(5000), /^I do not understand that flag\.$/);
    await alice.cmd("@set me=!player", /^I do not understand that flag\.$/);
    await alice.cmd("@name me=", /^Give it what new name\?$/);
    await alice.cmd("@chown lantern=Alice", /^Permission denied\.$/);
    await alice.cmd("give me=lantern", /^You can't give things to yourself\.$/);
    await alice.cmd("go", /^Go where\? Usage: go <exit>$/);
    await alice.cmd("think still alive", /^still alive$/);
    // A 100,000-character command is over the frame cap: that connection is closed, nobody else's.
    alice.ws.send("say " + "y".repeat(100_000));
    await alice.ws.closed;
    await bob.cmd("think fine", /^fine$/);
    assert(!bob.ws.all.some((m) => m.msg.includes("yyyy")));
    const health = await api(w.srv.base, "GET", "/health");
    assertEquals(health.status, 200);
    const login = await api(w.srv.base, "POST", "/api/v1/auth/login", {
      name: "Alice",
      password: "password123",
    });
    const me = await api(w.srv.base, "GET", "/api/v1/me", undefined, login.body.token);
    assertEquals(me.body.name, "Alice");
    assertEquals(me.body.flags, ["player"]);
    assertEquals(me.body.data.description, "");
  } finally {
    await w.stop();
  }
});
