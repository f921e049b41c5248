/**
 * TinyMUX's `@search` over telnet and WebSocket: a player's own objects by class, lists of
 * players, children and flags, an evaluation class, a dbref range, MUX's refusals (a search
 * warrant, an unknown class, type or player), and staff searching anyone's.
 */
import { assert, assertEquals } from "./assert.ts";
import { register } from "./harness.ts";
import { ADMIN, startSupervised, telnetLogin, telnetReply } from "./supervised.ts";
import { connectWs } from "./ws_client.ts";

Deno.test("@search: classes, ranges and refusals as TinyMUX has them", async () => {
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
    await telnetReply(admin, "@set Carol=builder");

    const bobId = await telnetReply(bob, "think [num(me)]");
    const garden = (await telnetReply(bob, "@dig Garden")).match(/#\d+/)![0];
    const shed = (await telnetReply(bob, "@dig Shed")).match(/#\d+/)![0];
    const ball = await telnetReply(bob, "think [create(Ball,10)]");
    const box = await telnetReply(bob, "think [create(Basket,10)]");
    await telnetReply(bob, `@parent ${box}=${ball}`);
    await telnetReply(bob, `@open Gate=${garden}`);
    const exit = await telnetReply(bob, "think [lexits(here)]");
    carol.send("think [create(Carols Cup,10)]");
    const cup = (await carol.expect(/^#\d+$/)).msg;

    // Everything Bob owns, by type, with MUX's headings and count line.
    assertEquals(
      await telnetReply(bob, "@search"),
      [
        "ROOMS:",
        `Garden(${garden})`,
        `Shed(${shed})`,
        "",
        "EXITS:",
        `Gate(${exit}) [from Limbo(#1) to Garden(${garden})]`,
        "",
        "OBJECTS:",
        `Ball(${ball}) [owner: Bob(${bobId})]`,
        `Basket(${box}) [owner: Bob(${bobId})]`,
        "",
        "PLAYERS:",
        `Bob(${bobId})`,
        "",
        "Found:  Rooms...2  Exits...1  Objects...2  Players...1",
      ].join("\r\n"),
    );
    const only = (reply: string) => reply.split("\r\n").filter((l) => /\(#\d+\)/.test(l));
    assertEquals(only(await telnetReply(bob, "@search type=room")), [
      `Garden(${garden})`,
      `Shed(${shed})`,
    ]);
    // Classes may be shortened; a range bounds the dbrefs.
    assertEquals(only(await telnetReply(bob, `@search t=r,${garden},${garden}`)), [
      `Garden(${garden})`,
    ]);
    assertEquals(only(await telnetReply(bob, "@search things=ba")), [
      `Ball(${ball}) [owner: Bob(${bobId})]`,
      `Basket(${box}) [owner: Bob(${bobId})]`,
    ]);
    assertEquals(only(await telnetReply(bob, "@search name=g")), [
      `Garden(${garden})`,
      `Gate(${exit}) [from Limbo(#1) to Garden(${garden})]`,
    ]);
    assertEquals(only(await telnetReply(bob, `@search parent=${ball}`)), [
      `Basket(${box}) [owner: Bob(${bobId})]`,
    ]);
    assertEquals(
      only(await telnetReply(bob, "@search ething=strmatch(name(##),*sk*)")),
      [`Basket(${box}) [owner: Bob(${bobId})]`],
    );
    // Lists of players are anyone's; the connected wizards (the superuser is MUX's wizard).
    const players = only(await telnetReply(bob, "@search type=player"));
    for (const name of [ADMIN.name, "Bob", "Carol"]) {
      assert(players.some((l) => l.startsWith(`${name}(`)), `${name} listed: ${players}`);
    }
    assertEquals(only(await telnetReply(bob, "@search players=car")).length, 1);
    assertEquals(only(await telnetReply(bob, "@search flags=PWc")).map((l) => l.split("(")[0]), [
      ADMIN.name,
    ]);
    assertEquals(await telnetReply(bob, "@search type=exit,1,2"), "Nothing found.");
    // A dark player is connected only to whoever may see it, as in who and lwho().
    await telnetReply(admin, "@set me=dark");
    assertEquals(await telnetReply(bob, "@search flags=PWc"), "Nothing found.");
    assertEquals(await telnetReply(bob, "@search flags=player connected wizard"), "Nothing found.");
    assertEquals(only(await telnetReply(admin, "@search flags=PWc")).map((l) => l.split("(")[0]), [
      ADMIN.name,
    ]);
    await telnetReply(admin, "@set me=!dark");

    // MUX's refusals, and nothing of Carol's shown to Bob.
    assertEquals(await telnetReply(bob, "@search Carol"), "You need a search warrant to do that!");
    assertEquals(await telnetReply(bob, "@search foo=bar"), "foo: unknown class");
    assertEquals(await telnetReply(bob, "@search type=blob"), "blob: unknown type");
    assertEquals(await telnetReply(bob, "@search Nobody"), "nobody: No such player");
    assertEquals(
      await telnetReply(bob, "@search flags=PR"),
      "R: Conflicting type specifications.",
    );
    assertEquals(await telnetReply(bob, `@search parent=${cup}`), "Permission denied.");
    assert(!(await telnetReply(bob, "@search type=thing")).includes("Cup"));

    // Over WebSocket: Carol's own, with the structured list.
    carol.send("@search type=thing");
    const mine = await carol.expect((m) => m.data.type === "search");
    assertEquals(mine.data.found, [{ id: cup.slice(1), name: "Carols Cup", type: "thing" }]);

    // Staff search anyone's, and see where players are.
    const carolId = await telnetReply(admin, `think [owner(${cup})]`);
    assertEquals(only(await telnetReply(admin, "@search Carol type=thing")), [
      `Carols Cup(${cup}) [owner: Carol(${carolId})]`,
    ]);
    assertEquals(only(await telnetReply(admin, "@search players=bob")), [
      `Bob(${bobId}) [location: Limbo(#1)]`,
    ]);

    // search() reads the same query by the same rules: dbrefs, no headings, MUX's #-1.
    assertEquals(await telnetReply(bob, "think search(type=room)"), `${garden} ${shed}`);
    assertEquals(await telnetReply(bob, `think search(me t=r,${shed},)`), shed);
    assertEquals(await telnetReply(bob, `think lsearch(parent=${ball})`), box);
    assertEquals(await telnetReply(bob, "think search(things=ba)"), `${ball} ${box}`);
    const refused = await telnetReply(bob, "think search(Carol)");
    assert(refused.includes("You need a search warrant to do that!"), refused);
    assert(refused.includes("#-1 ERROR DURING SEARCH"), refused);
    assertEquals(await telnetReply(admin, "think search(Carol type=thing)"), cup);
  } finally {
    for (const c of closers) await c().catch(() => {});
    await srv.stop();
  }
});
