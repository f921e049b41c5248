/** Black-box tests of the building plugin over REST and WebSocket. */
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { api } from "./harness.ts";
import { isType, startPluginWorld } from "./plugins_world.ts";
import { setOff } from "./race.ts";

Deno.test("building plugin: REST rooms, dig/open/link/lock/destroy/teleport and their refusals", async () => {
  const w = await startPluginWorld(["Alice", "Bob", "Carol"]);
  try {
    const base = w.srv.base;
    const obj = async (id: string) =>
      (await api(base, "GET", `/api/v1/dbobj/${id}`, undefined, w.tokens.Root)).body;

    // REST: builder or higher only.
    const body = { name: "Workshop", description: "Sawdust everywhere." };
    assertEquals((await api(base, "POST", "/api/v1/building/room", body)).status, 401);
    const refused = await api(base, "POST", "/api/v1/building/room", body, w.tokens.Alice);
    assertEquals(refused.status, 403);
    const root = await w.login("Root");
    await root.cmd("@set Alice=builder", /^Set\.$/);
    await root.cmd("@set Bob=builder", /^Set\.$/);
    const made = await api(base, "POST", "/api/v1/building/room", body, w.tokens.Alice);
    assertEquals(made.status, 201, JSON.stringify(made.body));
    assertEquals(made.body.name, "Workshop");
    assert(made.body.flags.includes("room"));
    assertEquals(made.body.owner, w.ids.Alice);
    assertEquals(made.body.data.description, "Sawdust everywhere.");
    const workshop = made.body.id as string;
    for (
      const bad of [{}, { name: "" }, { name: "a=b" }, { name: "#5" }, { name: "x".repeat(65) }, {
        name: "Ok",
        description: 5,
      }]
    ) {
      const r = await api(base, "POST", "/api/v1/building/room", bad, w.tokens.Alice);
      assertEquals(r.status, 400, JSON.stringify(bad));
    }
    assertEquals(
      (await api(base, "GET", "/api/v1/building/room", undefined, w.tokens.Alice)).status,
      404,
    );
    assertEquals(
      (await api(base, "POST", "/api/v1/building/other", body, w.tokens.Alice)).status,
      404,
    );

    // Players without the builder flag cannot build in game.
    const carol = await w.login("Carol");
    for (const line of ["@dig Nope", "@open Nope", "@create Nope", "@destroy me"]) {
      await carol.cmd(line, /Permission denied/);
    }
    // Locking is not building: as in MUX, anyone locks what they control (a page lock).
    await carol.cmd("@lock/page me=#false", /^Locked\.$/);

    // @dig with exits both ways, then walk them.
    const alice = await w.login("Alice");
    const dug = await alice.cmd("@dig Garden=North;n,South;s", isType("dig"));
    const garden = dug.data.room.id as string;
    // MUX's words: the room, then "Opened." and "Linked." for each exit.
    assertEquals(dug.msg, `Garden created as room #${garden}.\nOpened.\nLinked.\nOpened.\nLinked.`);
    const north = (await alice.cmd("think [locate(me,North,e)]", /^#\d+$/)).msg.slice(1);
    assertEquals((await alice.cmd("n", isType("room"))).data.id, garden);
    assertEquals((await alice.cmd("s", isType("room"))).data.id, "1");
    await alice.cmd("@dig Patio=North", /already has an exit called North/);
    // The refused @dig made no room.
    await alice.cmd("@open Gate=Patio", /no room called Patio/);
    await alice.cmd("@dig Bad=;x", /Exit name is required/);

    // @open and @link by name, locks on exits and rooms.
    await alice.cmd("@open Door;d=Workshop", /^Opened\.\nLinked\.$/);
    await alice.cmd("@lock d=#false", /^Locked\.$/);
    await alice.cmd("d", /can't go that way/);
    await alice.cmd("@lock d=((", /Lock syntax error/);
    await alice.cmd("@lock d/sideways=builder", /Lock types: basic, enter/);
    await alice.cmd("@unlock d", /^Unlocked\.$/);
    assertEquals((await alice.cmd("d", isType("room"))).data.id, workshop);
    await alice.cmd(`@lock here/enter=#${w.ids.Alice}`, /^Locked\.$/);
    assertEquals((await obj(workshop)).data.locks, { enter: `#${w.ids.Alice}` });
    await alice.cmd(`@teleport #1`, /You can.t teleport there!/);
    await alice.send("home");
    await alice.ws.expect((m) => m.data.type === "room" && m.data.id === "1");
    await alice.cmd("@open Hatch=Nowhere Land", /no room called Nowhere Land/);
    await alice.cmd("@open Hatch", /^Opened\.$/);
    await alice.cmd("hatch", /doesn't lead anywhere/);
    await alice.cmd(`@link hatch=#${garden}`, /^Linked\.$/);
    await alice.cmd("@unlink hatch", /^Unlinked\.$/);

    // The enter lock keeps Bob out of the workshop.
    const bob = await w.login("Bob");
    await bob.cmd("d", /can't go that way/);
    await bob.cmd(`@lock #${workshop}=#false`, /You can't lock that!/);

    // Things: create, link home, destroy.
    const created = await alice.cmd("@create Widget", isType("create"));
    const widget = created.data.thing.id as string;
    assertEquals((await obj(widget)).location, w.ids.Alice);
    await alice.cmd(
      `@link widget=#${garden}`,
      /^Home of Widget\(#\d+\) changed from Limbo\(#1\) to Garden\(#\d+\)\.$/,
    );
    await bob.cmd(`@destroy #${widget}`, /You don't control Widget/);
    await alice.cmd("@destroy widget", /Destroyed Widget/);
    assertEquals(
      (await api(base, "GET", `/api/v1/dbobj/${widget}`, undefined, w.tokens.Root)).status,
      404,
    );

    // Destroy safety.
    await alice.cmd("@destroy me", /Players cannot be destroyed/);
    await root.cmd("@destroy #1", /starting room cannot be destroyed/);
    await root.cmd(`@teleport Bob=#${garden}`, /^Teleported\.$/);
    await bob.ws.expect((m) => m.data.type === "room" && m.data.id === garden);
    assertEquals((await obj(w.ids.Bob)).location, garden);
    await root.cmd(`@teleport Bob=#1`, /^Teleported\.$/);
    await bob.ws.expect((m) => m.data.type === "room" && m.data.id === "1");
    await alice.send("@create Gnome");
    const gnome = (await alice.ws.expect(isType("create"))).data.thing.id as string;
    await alice.cmd(`@link gnome=#${garden}`, /Home of Gnome/);
    await alice.cmd("@dig/teleport Shed", /^Shed created as room #\d+\.$/);
    await alice.ws.expect((m) => m.data.type === "room" && m.data.name === "Shed");
    await alice.cmd("drop gnome", /drop/i);
    const shed = (await obj(w.ids.Alice)).location as string;
    await alice.cmd("home", /./);
    await alice.ws.expect((m) => m.data.type === "room" && m.data.id === "1");
    await alice.cmd(`@destroy #${shed}`, /cannot be undone/);
    assertEquals(
      (await api(base, "GET", `/api/v1/dbobj/${shed}`, undefined, w.tokens.Root)).status,
      200,
    );
    await alice.cmd(`@destroy #${shed}`, /Destroyed Shed\(#\d+\)\. 1 object\(s\) sent home/);
    assertEquals(
      (await api(base, "GET", `/api/v1/dbobj/${shed}`, undefined, w.tokens.Root)).status,
      404,
    );
    assertEquals((await obj(gnome)).location, garden);
    // Exits elsewhere that led to a destroyed room are unlinked, not left pointing at it.
    const gone = await alice.cmd(`@destroy/confirm #${garden}`, /Destroyed Garden/);
    assertMatch(gone.msg, /1 exit\(s\) that led here unlinked/);
    assertEquals((await obj(north)).data.destination, undefined);
    await alice.cmd("n", /doesn't lead anywhere/);
    assertEquals((await obj(gnome)).location, "1");
  } finally {
    await w.stop();
  }
});

Deno.test("building plugin: rooms made over REST at once stop at the object quota", async () => {
  const w = await startPluginWorld(["Alice"], { env: { URSAMU_GAME_OBJECTQUOTA: "5" } });
  try {
    const root = await w.login("Root");
    await root.cmd("@set Alice=builder", /^Set\.$/);
    // Thirty at once: each used to pass the quota check before any of them was made.
    const made = await Promise.all(
      Array.from(
        { length: 30 },
        (_, i) =>
          api(w.srv.base, "POST", "/api/v1/building/room", { name: `Room ${i}` }, w.tokens.Alice),
      ),
    );
    const statuses = made.map((r) => r.status);
    assertEquals(statuses.filter((s) => s === 201).length, 5, statuses.join(","));
    assertEquals(statuses.filter((s) => s === 403).length, 25, statuses.join(","));
  } finally {
    await w.stop();
  }
});

Deno.test("building: every creator shares one quota-checked create; a REST room and a typed @clone, @create or create() racing for the last place make one", async () => {
  // A quota of 1: each player (who does not count against it) has one place left.
  const names = Array.from({ length: 18 }, (_, i) => `P${i}`);
  const w = await startPluginWorld(names, { env: { URSAMU_GAME_OBJECTQUOTA: "1" } });
  try {
    const root = await w.login("Root");
    const proto = (await root.cmd("@create Proto", /created/)).msg.match(/#(\d+)/)![1];
    await root.cmd(`@set #${proto}=visual`, /Set\./);
    const lines = [`@clone #${proto}`, "think create(T)", "@create T"];
    for (const name of names) await root.cmd(`@set ${name}=builder`, /^Set\.$/);
    const made: string[] = [];
    for (const [i, name] of names.entries()) {
      const p = await w.login(name);
      // Each used to count without the other's create under way, and both passed.
      await Promise.all([
        setOff(2, i % 3).then(() =>
          api(w.srv.base, "POST", "/api/v1/building/room", { name: "R" }, w.tokens[name])
        ),
        setOff(2, Math.floor(i / 3) % 3).then(() => p.ws.send(lines[i % 3])),
      ]);
      const stats = await p.cmd("think [stats(me)]", /^\d+ \d+/);
      made.push(`${name}:${stats.msg.split(" ")[0]}`);
    }
    assertEquals(made.filter((m) => !m.endsWith(":2")), [], made.join(" "));
  } finally {
    await w.stop();
  }
});

Deno.test("building: a home whose room is destroyed leads to the starting room wherever it is used", async () => {
  const w = await startPluginWorld(["Alice"]);
  try {
    const root = await w.login("Root");
    await root.cmd("@set Alice=builder", /^Set\.$/);
    const alice = await w.login("Alice");
    const attic = (await alice.cmd("@dig Attic", /created as room/)).msg.match(/#(\d+)/)![1];
    await alice.cmd(`@link me=#${attic}`, /Home of Alice/);
    await alice.cmd("@create Lamp", /created/);
    await alice.cmd(`@link lamp=#${attic}`, /Home of Lamp/);
    assertEquals(
      (await alice.cmd("think [home(me)] [home(lamp)]", /^#/)).msg,
      `#${attic} #${attic}`,
    );
    await alice.cmd(`@destroy/confirm #${attic}`, /Destroyed Attic/);
    // The homes still name the room; what reads them gets the starting room, as MUX's @dbck
    // resets them to the default home.
    assertEquals((await alice.cmd("think [home(me)] [home(lamp)]", /^#/)).msg, "#1 #1");
    await alice.cmd(
      `@tel me=#${(await alice.cmd("@dig Cellar", /created/)).msg.match(/#(\d+)/)![1]}`,
      /./,
    );
    await alice.cmd("home", /./);
    await alice.ws.expect((m) => m.data.type === "room" && m.data.id === "1");
  } finally {
    await w.stop();
  }
});
