/**
 * More of what a new player meets in the first hour, as TinyMUX 2.12 has it, over telnet and
 * WebSocket: sending a thing or oneself home (`@teleport <x>=home`, `tel(<x>,home)`), what
 * `@lock` and `@unlock` tell one who does not control the object; `@list`,
 * what the game knows of itself (no longer taken by the prefix rule for `@listen`); `version`,
 * `@stats` and `news`.
 */
import { assertEquals, assertMatch } from "./assert.ts";
import { register } from "./harness.ts";
import { ADMIN, startSupervised, telnetLogin, telnetReply } from "./supervised.ts";
import { connectWs } from "./ws_client.ts";

Deno.test("first hour: @teleport <x>=home and tel(<x>,home) send it home; @lock and @chown refusals", async () => {
  const srv = await startSupervised({});
  const closers: (() => Promise<void>)[] = [];
  try {
    await register(srv.base, "Bob");
    const carolToken = await register(srv.base, "Carol");
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    closers.push(() => admin.close());
    const bob = await telnetLogin(srv, "Bob", "password123");
    closers.push(() => bob.close());
    const carol = await connectWs(srv.ws, { token: carolToken, client: "web" });
    closers.push(() => carol.close());
    await carol.expect((m) => m.data.type === "session");
    await telnetReply(admin, "@set Bob=builder");

    // Bob's ball is at home in Limbo, where he made it; he takes it to his garden, whose telout
    // lock keeps it in (going home asks no lock).
    const limbo = await telnetReply(bob, "think [loc(me)]");
    const ball = await telnetReply(bob, "think [create(Ball,10)]");
    await telnetReply(bob, "drop Ball");
    const room = (await telnetReply(bob, "@dig Garden")).match(/#\d+/)![0];
    const shed = (await telnetReply(bob, "@dig Shed")).match(/#\d+/)![0];
    await telnetReply(bob, `@tel ${ball}=${room}`);
    await telnetReply(bob, `@lock/telout ${room}=!${ball}`);
    assertEquals(await telnetReply(bob, `think [loc(${ball})]`), room);
    assertEquals(await telnetReply(bob, `@tel ${ball}=${shed}`), "You can't teleport that out!");
    assertEquals(await telnetReply(bob, `think [loc(${ball})]`), room);

    // Carol may not send home what is not hers, and nothing moves.
    carol.send(`@tel ${ball}=home`);
    await carol.expect(/^Permission denied\.$/);
    carol.send(`think [tel(${ball},home)]`);
    await carol.expect(/^Permission denied\.$/);
    assertEquals(await telnetReply(bob, `think [loc(${ball})]`), room);
    // Nor lock or unlock it: MUX's words, asked before the key is read.
    for (
      const [line, said] of [
        [`@lock ${ball}=me`, "You can't lock that!"],
        [`@lock/use ${ball}=(((`, "You can't lock that!"],
        [`@unlock/telout ${room}`, "Permission denied."],
      ]
    ) {
      carol.send(line);
      await carol.expect((m) => m.msg === said);
    }
    // The telout lock is still there.
    assertEquals(await telnetReply(bob, `@tel ${ball}=${shed}`), "You can't teleport that out!");

    // Bob sends it home by command, and by function (the word in any case); as MUX, sending
    // something home says nothing.
    assertEquals(await telnetReply(bob, `@tel ${ball}=home`), "");
    assertEquals(await telnetReply(bob, `think [loc(${ball})]`), limbo);
    // Bob, in the room it leaves, hears it go.
    assertEquals(await telnetReply(bob, `@tel ${ball}=${room}`), "Ball has left.\r\nTeleported.");
    assertEquals(await telnetReply(bob, `think [tel(${ball},HOME)][loc(${ball})]`), limbo);

    // Sent home when home already: as MUX, it goes home (nothing moves), never "already there".
    assertEquals(await telnetReply(bob, `@tel ${ball}=home`), "");
    assertEquals(await telnetReply(bob, `think [tel(${ball},home)][loc(${ball})]`), limbo);

    // A player goes home too, and sees it; again when home already.
    await telnetReply(bob, `@tel me=${room}`);
    const back = await telnetReply(bob, "@tel me=home");
    assertMatch(back, /^Limbo\(#1\)\r\n/);
    assertEquals(await telnetReply(bob, "think [loc(me)]"), limbo);
    assertMatch(await telnetReply(bob, "@tel me=home"), /^Limbo\(#1\)\r\n/);

    // MUX's own words for what matches nothing: @lock's, @chown's (@unlock's is the usual one).
    for (
      const [line, said] of [
        ["@lock nosuch=me", "I don't see what you want to lock!"],
        ["@lock nosuch/colour", "I don't see what you want to lock!"],
        ["@unlock nosuch", "I don't see that here."],
      ]
    ) assertEquals(await telnetReply(bob, line), said);
    assertEquals(await telnetReply(admin, "@chown nosuch=Bob"), "You don't have that!");
    assertEquals(await telnetReply(admin, `@chown ${ball}=Nobody`), "I couldn't find that player.");
  } finally {
    for (const c of closers) await c().catch(() => {});
    await srv.stop();
  }
});

Deno.test("first hour: @list is MUX's @list, not a prefix of @listen", async () => {
  const srv = await startSupervised({});
  const closers: (() => Promise<void>)[] = [];
  try {
    const carolToken = await register(srv.base, "Carol");
    await register(srv.base, "Bob");
    const bob = await telnetLogin(srv, "Bob", "password123");
    closers.push(() => bob.close());
    const carol = await connectWs(srv.ws, { token: carolToken, client: "web" });
    closers.push(() => carol.close());
    await carol.expect((m) => m.data.type === "session");

    const options = "Unknown option.  Use one of: commands costs flags functions options switches";
    assertEquals(await telnetReply(bob, "@list"), options);
    assertEquals(await telnetReply(bob, "@list nonsense"), options);
    // What a player may run, not staff's; an option is known by its start.
    const cmds = (await telnetReply(bob, "@list com")).split(" ");
    assertEquals(cmds[0], "Commands:");
    for (const c of ["@list", "@listen", "look", "@teleport", "page"]) {
      assertEquals(cmds.includes(c), true, c);
    }
    for (const c of ["@commands", "@shutdown"]) assertEquals(cmds.includes(c), false, c);
    const fns = await telnetReply(bob, "@list fu");
    assertMatch(fns, /^Functions: .*\bADD\b.*\bTEL\b.*\r\nUser-Functions: ?$/);
    assertMatch(await telnetReply(bob, "@list flags"), /^Flags: .*\bjump_ok\b/);
    assertMatch(await telnetReply(bob, "@list sw"), /(^|\n)@lock: .*\bpage\b/);
    // The game's limits and quotas, in MUX's words where it has them, from the configuration.
    assertMatch(
      await telnetReply(bob, "@list options"),
      /^Players may have at most 100 commands in the queue at one time \(staff: 1000\)\.\r\n.*Timeouts: Idle\.\.\.3600 {2}Connect\.\.\.600\r\n/s,
    );
    assertMatch(await telnetReply(bob, "@list cos"), /^Nothing costs money here/);
    // @listen is still itself.
    assertEquals(await telnetReply(bob, "@listen me=*hello*"), "Set.");
    carol.send("@list");
    await carol.expect((m) => m.msg === options);
  } finally {
    for (const c of closers) await c().catch(() => {});
    await srv.stop();
  }
});

Deno.test("first hour: version and @stats, MUX's counts from the indexes", async () => {
  const srv = await startSupervised({});
  const closers: (() => Promise<void>)[] = [];
  try {
    await register(srv.base, "Bob");
    const carolToken = await register(srv.base, "Carol");
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    closers.push(() => admin.close());
    const bob = await telnetLogin(srv, "Bob", "password123");
    closers.push(() => bob.close());
    const carol = await connectWs(srv.ws, { token: carolToken, client: "web" });
    closers.push(() => carol.close());
    await carol.expect((m) => m.data.type === "session");
    await telnetReply(admin, "@set Bob=builder");

    const version = await telnetReply(bob, "think version()");
    assertMatch(version, /^MUX 2\.12\.0\.10 #1 \[UrsaMU \d+\.\d+\.\d+\]$/);
    assertEquals(await telnetReply(bob, "version"), version);
    assertEquals(await telnetReply(bob, "@version"), version);

    const counts = async (t: typeof bob, line: string) => {
      const m = (await telnetReply(t, line)).match(
        /^(\d+) objects = (\d+) rooms, (\d+) exits, (\d+) things, (\d+) players\. \(0 garbage\)$/,
      );
      if (!m) throw new Error(`${line}: no counts`);
      return m.slice(1).map(Number);
    };
    const before = await counts(bob, "@stats/all");
    assertEquals(before[0], before[1] + before[2] + before[3] + before[4]);
    await telnetReply(bob, "@dig Den");
    const thing = (await telnetReply(bob, "think [create(Lamp,10)]")).slice(1);
    const after = await counts(bob, "@stats/all");
    assertEquals(after, [before[0] + 2, before[1] + 1, before[2], before[3] + 1, before[4]]);
    assertEquals(
      await telnetReply(bob, "@stats"),
      `The universe contains ${after[0]} objects (next free is #${Number(thing) + 1}).`,
    );
    // What one owns: Bob himself, his room and his lamp; others' only for staff.
    assertEquals(await counts(bob, "@stats/me"), [3, 1, 0, 1, 1]);
    assertEquals(await counts(admin, "@stats Bob"), [3, 1, 0, 1, 1]);
    assertEquals(await telnetReply(bob, "@stats Carol"), "Permission denied.");
    assertEquals(await telnetReply(bob, "@stats Nobody"), "Not found.");
    assertEquals(await telnetReply(bob, "@stats/all/me"), "Illegal combination of switches.");
    carol.send("@stats/me");
    await carol.expect((m) =>
      m.msg === "1 objects = 0 rooms, 0 exits, 0 things, 1 players. (0 garbage)"
    );
  } finally {
    for (const c of closers) await c().catch(() => {});
    await srv.stop();
  }
});

Deno.test("first hour: news reads the game's news folder as MUX's news.txt", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-news-" });
  await Deno.writeTextFile(`${dir}/news.md`, "Welcome! Read **news events** for what is on.");
  await Deno.writeTextFile(`${dir}/events.md`, "---\naliases: [plots]\n---\nA ball on Friday.");
  await Deno.writeTextFile(`${dir}/elections.txt`, "Vote for the mayor.");
  const srv = await startSupervised({ config: { server: { newsDir: dir } } });
  const closers: (() => Promise<void>)[] = [];
  try {
    const carolToken = await register(srv.base, "Carol");
    await register(srv.base, "Bob");
    const bob = await telnetLogin(srv, "Bob", "password123");
    closers.push(() => bob.close());
    const carol = await connectWs(srv.ws, { token: carolToken, client: "web" });
    closers.push(() => carol.close());
    await carol.expect((m) => m.data.type === "session");

    assertMatch(await telnetReply(bob, "news"), /news: news.*\r\nWelcome! Read news events/s);
    assertMatch(await telnetReply(bob, "news ev"), /news: events.*\r\nA ball on Friday\./s);
    assertMatch(await telnetReply(bob, "news PLOTS"), /news: events/);
    assertEquals(
      await telnetReply(bob, "news e"),
      "Here are the entries which match 'e':\r\nelections  events",
    );
    assertEquals(await telnetReply(bob, "news dragons"), "No entry for 'dragons'.");
    carol.send("news elections");
    await carol.expect((m) => m.data.type === "news" && m.data.content === "Vote for the mayor.");

    // Staff add a topic: +help/reload reads it (news is never read from disk per command).
    await Deno.writeTextFile(`${dir}/dragons.md`, "Here be dragons.");
    assertEquals(await telnetReply(bob, "news dragons"), "No entry for 'dragons'.");
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    closers.push(() => admin.close());
    assertMatch(await telnetReply(admin, "+help/reload"), /4 news topics\.$/);
    assertMatch(await telnetReply(bob, "news dragons"), /Here be dragons\./);
  } finally {
    for (const c of closers) await c().catch(() => {});
    await srv.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
