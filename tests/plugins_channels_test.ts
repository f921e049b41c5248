/** Black-box tests of the channels plugin over REST and WebSocket. */
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { api, startServer } from "./harness.ts";
import { PASSWORD, startPluginWorld } from "./plugins_world.ts";
import { connectWs, type WsMessage } from "./ws_client.ts";

const chanMsg = (text: RegExp) => (m: WsMessage) => m.data.type === "channel" && text.test(m.msg);

/** Only Public, and no automatic joins, so a test can count and check joins it makes itself. */
const NO_DEFAULTS = {
  config: { plugins: { channels: { defaultChannels: [{ name: "Public", join: false }] } } },
};

Deno.test("channels plugin: join, talk, history, locks, hidden, masking, staff commands", async () => {
  const w = await startPluginWorld(["Alice", "Bob", "Carol"], NO_DEFAULTS);
  try {
    const base = w.srv.base;
    const list = async (token?: string) =>
      (await api(base, "GET", "/api/v1/channels", undefined, token)).body as {
        name: string;
        header: string;
        members: number;
        joined: boolean;
      }[];

    // A new game has Public; the list needs no token (and then nobody is on it).
    assertEquals(await list(), [{ name: "Public", header: "[Public]", members: 0, joined: false }]);

    const alice = await w.login("Alice");
    const bob = await w.login("Bob");
    const carol = await w.login("Carol");
    const root = await w.login("Root");

    await alice.cmd("+chan/join Public", /You join Public with the alias 'pub'/);
    await bob.cmd("+chan/join public", /alias 'pub'/);
    await alice.ws.expect(chanMsg(/\[Public\].* Bob has joined this channel/));
    assertEquals((await list())[0].members, 2);

    // Talking by alias: say, pose, semipose; and by +<channel>.
    await alice.send("pub Hello there");
    const heard = await bob.ws.expect(chanMsg(/Alice says/));
    assertEquals(heard.msg, `[Public] Alice says, "Hello there"`);
    assertEquals(heard.data.channel, "Public");
    assertEquals(heard.data.sender, "Alice");
    assertEquals(heard.data.text, "Hello there");
    await alice.ws.expect(chanMsg(/Alice says, "Hello there"/));
    await alice.send("pub :waves.");
    assertEquals((await bob.ws.expect(chanMsg(/waves/))).msg, "[Public] Alice waves.");
    await alice.send("PUB ;'s cat purrs.");
    assertEquals((await bob.ws.expect(chanMsg(/purrs/))).msg, "[Public] Alice's cat purrs.");
    await bob.send("+public Hi Alice");
    await alice.ws.expect(chanMsg(/Bob says, "Hi Alice"/));
    await alice.cmd("pub", /What do you want to say on Public/);

    // Non-members cannot talk: the line is not the channel's (a softcoded +public may answer it).
    await carol.cmd("pub sneaky", /Huh\?/);
    await carol.cmd("+public sneaky", /Huh\?/);
    assertEquals(await carol.ws.sees(chanMsg(/sneaky/), 200), false);

    // MUX's comsys functions and @cemit (plugins/channels/functions.ts).
    await root.send("think cemit(Public,Attention [ansi(h,all)])");
    assertEquals(
      (await bob.ws.expect(chanMsg(/Attention/))).msg,
      "[Public] Attention %chall%cn%cn",
    );
    await root.send("@cemit/noheader Public=Plain words");
    assertEquals((await alice.ws.expect(chanMsg(/Plain words/))).msg, "Plain words");
    await alice.cmd("@cemit Public=mine", /Permission denied/);
    await alice.cmd("think cwho(Public)", /^#-1 PERMISSION DENIED$/);
    await root.cmd("think comalias(*Alice,Public)", /^pub$/);
    await alice.cmd("think channels()", /^Public$/);

    // History over REST.
    const hist = (name: string, token?: string, q = "") =>
      api(base, "GET", `/api/v1/channels/${name}/history${q}`, undefined, token);
    assertEquals((await hist("Public")).status, 401);
    const h = await hist("Public", w.tokens.Carol);
    assertEquals(h.status, 200, JSON.stringify(h.body));
    assertEquals(h.body.map((e: { message: string }) => e.message), [
      "Hello there",
      "waves.",
      "'s cat purrs.",
      "Hi Alice",
    ]);
    assertEquals(Object.keys(h.body[0]).sort(), ["kind", "message", "sender", "timestamp"]);
    assertEquals(h.body[0].sender, "Alice");
    // How each was said, so a client shows a pose as a pose.
    assertEquals(h.body.map((e: { kind: string }) => e.kind), ["say", "pose", "semipose", "say"]);
    // Each caller sees whether they are on it (Carol reads an open channel without joining).
    assertEquals(
      (await list(w.tokens.Alice)).find((c) => c.name === "Public")?.joined,
      true,
    );
    assertEquals((await list(w.tokens.Carol)).find((c) => c.name === "Public")?.joined, false);
    assert(typeof h.body[0].timestamp === "number");
    const last = await hist("public", w.tokens.Alice, "?limit=1");
    assertEquals(last.body.map((e: { message: string }) => e.message), ["Hi Alice"]);
    assertEquals((await hist("Public", w.tokens.Alice, "?limit=100000")).status, 200);
    for (const q of ["?limit=abc", "?limit=0", "?limit=-5", "?limit=1.5"]) {
      assertEquals((await hist("Public", w.tokens.Alice, q)).status, 400, q);
    }
    assertEquals((await hist("Nowhere", w.tokens.Alice)).status, 404);
    assertEquals(
      (await api(base, "GET", "/api/v1/channels/Public/other", undefined, w.tokens.Alice)).status,
      404,
    );

    // Staff commands are refused to players.
    await alice.cmd("@chancreate Mine", /Permission denied/);
    await alice.cmd("@chanset Public/header=[X]", /Permission denied/);
    await alice.cmd("@chandestroy Public", /Permission denied/);

    // Bad input gets clear errors.
    await root.cmd("@chancreate bad name!", /Channel names are 1-32 letters/);
    await root.cmd(`@chancreate ${"x".repeat(33)}`, /Channel names are 1-32/);
    await root.cmd("@chancreate public", /already a channel called public/);
    await root.cmd("@chancreate/lock Broken=(((", /Lock syntax error/);
    await root.cmd("@chanset Public/colour=red", /header, lock, hidden or masking/);
    await root.cmd("@chanset Public/hidden=maybe", /Use yes or no/);
    await root.cmd("@chanset Nowhere/hidden=yes", /no channel called Nowhere/);

    // Hidden channels: not listed to outsiders, joinable by name, listed to members.
    await root.cmd("@chancreate/hidden Secret=%ch<Secret>%cn", /Channel Secret created.*hidden/);
    assertEquals((await list()).map((c) => c.name), ["Public"]);
    assertEquals((await list(w.tokens.Alice)).map((c) => c.name), ["Public"]);
    assertEquals((await list(w.tokens.Root)).map((c) => c.name), ["Public", "Secret"]);
    assertEquals((await hist("Secret", w.tokens.Alice)).status, 404);
    await alice.cmd("+chan/join Secret=sec", /You join Secret with the alias 'sec'/);
    assertEquals((await list(w.tokens.Alice)).map((c) => c.name), ["Public", "Secret"]);
    assertEquals((await hist("Secret", w.tokens.Alice)).status, 200);

    // Locks decide who joins, talks and reads history.
    await root.cmd("@chancreate/lock Builders=builder+", /Lock: builder\+/);
    await bob.cmd("+chan/join Builders", /You may not join Builders/);
    assertEquals((await hist("Builders", w.tokens.Bob)).status, 403);
    await root.cmd("@set Bob=builder", /^Set\.$/);
    await bob.cmd("+chan/join Builders", /alias 'bui'/);
    assertEquals((await hist("Builders", w.tokens.Bob)).status, 200);
    await bob.send("bui Brick by brick");
    await bob.ws.expect(chanMsg(/\[Builders\] Bob says, "Brick by brick"/));
    await root.cmd("@set Bob=!builder", /^Cleared\.$/);
    await bob.cmd("bui still here?", /You may not talk on Builders/);

    // Aliases: chosen, clashing, and never a command name.
    await carol.cmd("addcom look=Public", /'look' is a command/);
    await carol.cmd("+chan/join Public=Bad Alias", /Aliases are 1-16/);
    await carol.cmd("addcom pp=Public", /You join Public with the alias 'pp'/);
    await carol.cmd("+chan/join Secret=pp", /already use the alias 'pp' for Public/);
    await carol.send("pp Hello from Carol");
    await alice.ws.expect(chanMsg(/Carol says, "Hello from Carol"/));
    // Carol's alias 'loo' is hers: for Bob, 'loo' is still the prefix of look.
    await carol.cmd("+chan/join Secret=loo", /alias 'loo'/);
    await bob.cmd("loo", (m) => m.data.type === "room");
    await carol.send("loo psst");
    await alice.ws.expect(chanMsg(/<Secret>.* Carol says, "psst"/));

    // Masking hides speakers, except to staff in history.
    await root.cmd("@chanset Public/masking=yes", /masking is now yes/);
    await alice.send("pub Guess who");
    const masked = await bob.ws.expect(chanMsg(/Guess who/));
    assertEquals(masked.msg, `[Public] Someone says, "Guess who"`);
    assertEquals(masked.data.sender, "Someone");
    const playerView = await hist("Public", w.tokens.Bob, "?limit=1");
    assertEquals(playerView.body[0].sender, "Someone");
    const staffView = await hist("Public", w.tokens.Root, "?limit=1");
    assertEquals(staffView.body[0].sender, "Alice");
    await bob.cmd("+chan/who Public", /masked/);
    await root.cmd("@chanset Public/masking=no", /masking is now no/);
    await root.cmd("@chanset Public/header=%cr[Pub]%cn", /header is now/);
    assertEquals((await list()).find((c) => c.name === "Public")?.header, "%cr[Pub]%cn");

    // Who, list, history in game.
    const who = await bob.cmd("+chan/who pub", /online/);
    assertMatch(who.msg, /Alice/);
    assertMatch(who.msg, /Carol/);
    await root.cmd("@chanset Builders/header=%cg[Build]", /header is now/);
    const chans = await alice.cmd("+chan/list", (m) => m.data.type === "channels");
    // A header's colour is closed in the list, so it cannot bleed into the next row.
    assertMatch(chans.msg, /%cg\[Build\]%cn\n/);
    assertEquals(
      chans.data.channels.map((c: { name: string; alias: string | null }) => [c.name, c.alias]),
      [["Builders", null], ["Public", "pub"], ["Secret", "sec"]],
    );
    const inGame = await alice.cmd("+chan/history pub=2", /Recent messages on Public/);
    assertMatch(inGame.msg, /Guess who/);
    // Poses read as poses in the history, says as `Name: text`.
    const all = await alice.cmd("+chan/history pub=20", /Recent messages on Public/);
    assertMatch(all.msg, /\] Alice: Hello there\n/);
    assertMatch(all.msg, /\] Alice waves\.\n/);
    assertMatch(all.msg, /\] Alice's cat purrs\.\n/);

    // Leaving.
    await carol.cmd("delcom pp", /You leave Public/);
    await carol.cmd("pp anyone?", /Huh\?/);
    await carol.cmd("+chan/leave Public", /not on a channel called Public/);
    assertEquals((await list()).find((c) => c.name === "Public")?.members, 2);

    // Destroying removes the channel, its members' aliases and its history.
    await root.cmd("@chandestroy secret", /Channel Secret destroyed/);
    await alice.ws.expect(chanMsg(/destroyed/));
    await alice.cmd("sec hello?", /Huh\?/);
    assertEquals((await hist("Secret", w.tokens.Root)).status, 404);
    assertEquals((await list(w.tokens.Root)).map((c) => c.name), ["Builders", "Public"]);

    // A toaded member is off every channel as soon as @toad answers (nobody is left to leave).
    const count = (l: { name: string; members: number }[], name: string) =>
      l.find((c) => c.name === name)?.members;
    const before = await list(w.tokens.Root);
    assertEquals([count(before, "Public"), count(before, "Builders")], [2, 1]);
    await root.cmd("@toad Bob", /You turned Bob into a toad/);
    const after = await list(w.tokens.Root);
    assertEquals([count(after, "Public"), count(after, "Builders")], [1, 0]);
  } finally {
    await w.stop();
  }
});

Deno.test("channels plugin: a destroyed Public stays destroyed across restarts", async () => {
  const w = await startPluginWorld([]);
  try {
    const root = await w.login("Root");
    await root.cmd("@chandestroy Public", /destroyed/);
  } finally {
    await w.srv.stop({ keepDir: true });
  }
  const again = await startServer({ dir: w.srv.dir });
  try {
    const names = (await api(again.base, "GET", "/api/v1/channels")).body.map((c: {
      name: string;
    }) => c.name);
    assertEquals(names, ["OOC"]);
  } finally {
    await again.stop();
  }
});

Deno.test("channels plugin: members toaded while it was disabled are dropped when it starts", async () => {
  const w = await startPluginWorld(["Alice"], NO_DEFAULTS);
  const dir = w.srv.dir;
  const publicMembers = async (base: string) =>
    ((await api(base, "GET", "/api/v1/channels")).body as { name: string; members: number }[])
      .find((c) => c.name === "Public")?.members;
  try {
    const alice = await w.login("Alice");
    await alice.cmd("+chan/join Public", /alias 'pub'/);
    assertEquals(await publicMembers(w.srv.base), 1);
    await alice.ws.close();
  } finally {
    await w.srv.stop({ keepDir: true });
  }
  // Restart without the channels plugin and toad Alice: nobody hears of it.
  let srv = await startServer({ dir, env: { URSAMU_PLUGINS_CHANNELS_ENABLED: "false" } });
  try {
    const login = await api(srv.base, "POST", "/api/v1/auth/login", {
      name: "Root",
      password: PASSWORD,
    });
    const root = await connectWs(srv, { token: login.body.token, client: "web" });
    await root.expect((m) => m.data.type === "room");
    root.send("@toad Alice");
    await root.expect(/You turned Alice into a toad/);
    await root.close();
  } finally {
    await srv.stop({ keepDir: true });
  }
  srv = await startServer({ dir });
  try {
    assertEquals(await publicMembers(srv.base), 0);
    assertMatch(srv.output(), /dropped the memberships of 1 removed player/);
  } finally {
    await srv.stop();
  }
});

Deno.test("channels plugin: a fresh game's Public, OOC and Staff; new players join, pub who", async () => {
  const w = await startPluginWorld(["Alice", "Bob"]);
  try {
    const alice = await w.login("Alice");
    const bob = await w.login("Bob");
    const root = await w.login("Root");
    await alice.send("pub Hello, world");
    const heard = await bob.ws.expect(chanMsg(/Alice says, "Hello, world"/));
    assertEquals(heard.data.channel, "Public");
    const list = async (token?: string) =>
      (await api(w.srv.base, "GET", "/api/v1/channels", undefined, token)).body as {
        name: string;
        header: string;
        members: number;
        joined: boolean;
      }[];
    // Staff is hidden from players and locked to staff; the superuser joined it at first run.
    // The joins follow each registration (player:created), one channel after another.
    const end = Date.now() + 10_000;
    while ((await list()).some((c) => c.members < 3) && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assertEquals(await list(), [
      { name: "OOC", header: "[OOC]", members: 3, joined: false },
      { name: "Public", header: "[Public]", members: 3, joined: false },
    ]);
    assertEquals((await list(w.tokens.Root)).map((c) => [c.name, c.members]), [
      ["OOC", 3],
      ["Public", 3],
      ["Staff", 1],
    ]);
    await bob.send("o Anyone up for a scene?");
    await alice.ws.expect(chanMsg(/^\[OOC\] Bob says, "Anyone up for a scene\?"/));
    await root.send("sta Staff only.");
    await root.ws.expect(chanMsg(/^\[Staff\] Root says, "Staff only\."/));
    await alice.cmd("sta hello?", /Huh\?/);
    await alice.cmd("+chan/join Staff", /There is no channel called Staff/);

    // MUX's `pub who` and `pub last <n>`: not said on the channel.
    const who = await alice.cmd("pub who", /online/);
    assertEquals(who.msg, "On Public (3 online): Alice, Bob, Root");
    assertEquals(who.data.type, "chanwho");
    const last = await alice.cmd("pub last 1", /Recent messages on Public/);
    assertMatch(last.msg, /\] Alice: Hello, world$/);
    await alice.cmd("+chan/leave Public", /leave Public/);
    await alice.cmd("pub Still here?", /Huh\?/);
  } finally {
    await w.stop();
  }
});

Deno.test("channels plugin: a maker demoted since making it controls it no more", async () => {
  const w = await startPluginWorld(["Carol"], NO_DEFAULTS);
  try {
    const root = await w.login("Root");
    const carol = await w.login("Carol");
    await root.cmd("@set *Carol=wizard", /^Set\.$/);
    await carol.cmd("@chancreate Carols", /Channel Carols created/);
    await carol.cmd("+chan/join Carols", /You join Carols/);
    await carol.send("@cemit Carols=While staff");
    await carol.ws.expect(chanMsg(/While staff/));
    await carol.cmd("think cwho(Carols)", new RegExp(`^#${w.ids.Carol}$`));

    await root.cmd("@set *Carol=!wizard", /^Cleared\.$/);
    await carol.cmd("@cemit Carols=After", /^Permission denied\.$/);
    await carol.cmd("think cwho(Carols)", /^#-1 PERMISSION DENIED$/);
    await carol.cmd("think cemit(Carols,After)", /^#-1 PERMISSION DENIED$/);
    await carol.cmd("@chanset Carols/header=[Mine]", /Huh\?|Permission denied/);
    assertEquals(await carol.ws.sees(chanMsg(/After/), 200), false);
    // Staff still do.
    await root.cmd("think cwho(Carols,all)", new RegExp(`^#${w.ids.Carol}$`));
  } finally {
    await w.stop();
  }
});
