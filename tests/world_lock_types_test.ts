/**
 * Every MUX lock type checked where TinyMUX checks it (docs/commands.md, "Lock types"), over
 * telnet (Alice, who builds) and WebSocket (Bob): speech in an auditorium, visible in a room's
 * lists, getfrom out of a room and a container, leave out of a thing, open in an open_ok room,
 * link to a room and a home, teleport into a jump_ok place and telout out of one, with MUX's
 * messages and @-fail attributes; and MUX's attribute locks (`@lock <object>/<attribute>`).
 */
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { api, register } from "./harness.ts";
import { ADMIN, startSupervised, telnetLogin } from "./supervised.ts";
import type { TelnetClient } from "./telnet_client.ts";
import { connectWs, type WsMessage } from "./ws_client.ts";

/** Sends a line over telnet and waits for a reply matching `re` after it. */
async function run(t: TelnetClient, line: string, re: RegExp): Promise<RegExpMatchArray> {
  const from = t.mark();
  await t.send(line);
  return await t.waitFor(re, 10_000, from);
}

/** The names in a room view's `key` list (contents, exits, players). */
function names(m: WsMessage, key: string): string[] {
  const list = (m.data as Record<string, unknown>)[key] as { name: string }[];
  return list.map((o) => o.name);
}

Deno.test("lock types: each checked where MUX checks it", async (t) => {
  const srv = await startSupervised();
  const closers: (() => Promise<void>)[] = [];
  try {
    const bobToken = await register(srv.base, "Bob");
    await register(srv.base, "Alice");
    const bobId = (await api(srv.base, "GET", "/api/v1/me", undefined, bobToken)).body.id;
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    closers.push(() => admin.close());
    await run(admin, "@set *Alice=builder", /^Set\.\r?$/m);
    await run(admin, "@set *Bob=builder", /^Set\.\r?$/m);
    const alice = await telnetLogin(srv, "Alice", "password123");
    closers.push(() => alice.close());
    const bob = await connectWs(srv.ws, { token: bobToken, client: "web" });
    closers.push(() => bob.close());
    await bob.expect(/Limbo/);
    /**
     * Bob sends a line over WebSocket and waits for a message matching `re`; paced under the
     * command rate (10 a second), which drops what goes over it.
     */
    const bobDoes = async (line: string, re: RegExp) => {
      await new Promise((r) => setTimeout(r, 120));
      bob.send(line);
      return (await bob.expect(re, 10_000)).msg;
    };
    /** What Bob is shown when he looks where he is. */
    const bobLooks = async () => {
      await new Promise((r) => setTimeout(r, 120));
      bob.send("look");
      return await bob.expect((m) => (m.data as { type?: string })?.type === "room", 10_000);
    };

    await run(alice, "@dig Hall=Hall Door;hd,Out;o", /Opened\.[\s\S]*Opened\./);
    await run(alice, "hd", /Hall/);
    await bobDoes("hd", /Hall/);

    await t.step("speech: an auditorium hears only who passes its speech lock", async () => {
      await run(alice, "@set here=auditorium", /^Set\.\r?$/m);
      await run(alice, "@lock/speech here=me", /^Locked\.\r?$/m);
      await bobDoes("say hi", /Sorry, you may not speak in this place\./);
      await bobDoes(":waves", /Sorry, you may not speak in this place\./);
      await bobDoes("@emit boo", /Sorry, you may not speak in this place\./);
      await run(alice, "say welcome", /You say, "welcome"/);
      await bob.expect(/Alice says, "welcome/);
      // The lock counts only where the place is an auditorium (MUX's sp_ok).
      await run(alice, "@set here=!auditorium", /^Cleared\.\r?$/m);
      await bobDoes("say hi", /You say, "hi/);
    });

    await t.step("visible: contents and exits are listed for who passes", async () => {
      await run(alice, "@create Ghost", /Ghost created as object/);
      await run(alice, "drop Ghost", /Dropped\./);
      await run(alice, "@lock/visible Ghost=me", /^Locked\.\r?$/m);
      await run(alice, "@lock/visible Out=me", /^Locked\.\r?$/m);
      const seen = await bobLooks();
      assert(!names(seen, "contents").includes("Ghost"), seen.msg);
      assert(!names(seen, "exits").includes("Out"), seen.msg);
      assert(!/Ghost/.test(seen.msg), seen.msg);
      // Its owner sees what it controls, as MUX's see_own_dark has it.
      await run(alice, "look", /Contents:.*Ghost/s);
      await run(alice, "@unlock/visible Ghost", /^Unlocked\.\r?$/m);
      await run(alice, "@unlock/visible Out", /^Unlocked\.\r?$/m);
      const again = await bobLooks();
      assert(names(again, "contents").includes("Ghost"), again.msg);
      assert(names(again, "exits").includes("Out"), again.msg);
    });

    await t.step("getfrom: taking out of a container and out of the room", async () => {
      await run(alice, "@create Chest", /Chest created as object/);
      await run(alice, "drop Chest", /Dropped\./);
      await run(alice, "@set Chest=enter_ok", /^Set\.\r?$/m);
      await run(alice, "@create Coin", /Coin created as object/);
      await run(alice, "@tel Coin=Chest", /^Teleported\.\r?$/m);
      await bobDoes("get Chest's Coin", /Taken\./);
      await bobDoes("drop Coin", /Dropped\./);
      await run(alice, "@tel Coin=Chest", /^Teleported\.\r?$/m);
      await run(alice, "@lock/getfrom Chest=me", /^Locked\.\r?$/m);
      await bobDoes("get Chest's Coin", /Permission denied\./);
      await run(alice, "get Chest's Coin", /Taken\./);
      await run(alice, "drop Coin", /Dropped\./);
      await run(alice, "@lock/getfrom here=me", /^Locked\.\r?$/m);
      await bobDoes("get Coin", /Permission denied\./);
      await run(alice, "@unlock/getfrom here", /^Unlocked\.\r?$/m);
      await bobDoes("get Coin", /Taken\./);
    });

    await t.step("leave: a thing's leave lock keeps who fails it inside", async () => {
      await run(alice, "@create Barrel", /Barrel created as object/);
      await run(alice, "drop Barrel", /Dropped\./);
      await run(alice, "@set Barrel=enter_ok", /^Set\.\r?$/m);
      await run(alice, "@lock/leave Barrel=me", /^Locked\.\r?$/m);
      await run(alice, "@lfail Barrel=The lid is stuck.", /Set\./);
      await bobDoes("enter Barrel", /Barrel/);
      await bobDoes("leave", /The lid is stuck\./);
      await run(alice, "@unlock/leave Barrel", /^Unlocked\.\r?$/m);
      await bobDoes("leave", /Hall/);
    });

    await t.step("open: an open_ok room lets who passes its open lock open exits", async () => {
      await bobDoes("@open Hatch", /You don't control Hall\./);
      await run(alice, "@set here=open_ok", /^Set\.\r?$/m);
      await bobDoes("@open Hatch", /Opened\./);
      await run(alice, "@lock/open here=me", /^Locked\.\r?$/m);
      await bobDoes("@open Trapdoor", /You don't control Hall\./);
    });

    await t.step("link: a room's link lock for exits and homes", async () => {
      await run(alice, "@lock/link here=me", /^Locked\.\r?$/m);
      await bobDoes("o", /Limbo/);
      await bobDoes(
        "@open Portal=Hall",
        /Opened\.\r?\nYou can't link to there\./,
      );
      await bobDoes("@link Portal=Hall", /Permission denied\./);
      await bobDoes("@create Toy", /Toy created as object/);
      await bobDoes("@link Toy=Hall", /Permission denied\./);
      // Its owner links to it; the lock binds controllers too, as in MUX, so Alice passes it.
      await run(alice, "@open Mirror=Hall", /Opened\.\r?\nLinked\./);
      await run(alice, "@unlock/link here", /^Unlocked\.\r?$/m);
      await bobDoes("@link Portal=Hall", /Linked\./);
    });

    await t.step("teleport: into a jump_ok place by its teleport lock, @tfail", async () => {
      // Bob stands in Limbo, which nobody owns.
      await bobDoes("@tel Hall", /You can't teleport there!/);
      await run(alice, "&TFAIL here=The hall is warded.", /Set\./);
      await run(alice, "&OTFAIL here=bounces off the wards.", /Set\./);
      await bobDoes("@tel Hall", /The hall is warded\./);
      await run(alice, "@set here=jump_ok", /^Set\.\r?$/m);
      await bobDoes("@tel Hall", /Hall/);
      await run(alice, "look", /Bob/);
      await bobDoes("o", /Limbo/);
      await run(alice, "@lock/teleport here=me", /^Locked\.\r?$/m);
      await bobDoes("@tel Hall", /The hall is warded\./);
      await run(alice, "@unlock/teleport here", /^Unlocked\.\r?$/m);
      await bobDoes("@tel Hall", /Hall/);
      // Another's player may not be teleported by who controls neither it nor where it is.
      await bobDoes("@dig Den", /Den created as room #\d+/);
      await bobDoes("@tel Alice=Den", /Permission denied\./);
    });

    await t.step("telout: who may teleport out of a place, @tofail", async () => {
      await run(alice, "@lock/telout here=me", /^Locked\.\r?$/m);
      await bobDoes("@tel Den", /You can't teleport out!/);
      await run(alice, "&TOFAIL here=The wards hold you.", /Set\./);
      await bobDoes("@tel Den", /The wards hold you\./);
      // Walking out is no teleport.
      await bobDoes("o", /Limbo/);
      await bobDoes("@tel Den", /Den/);
      await bobDoes("@tel Limbo", /You can't teleport there!/);
    });

    await t.step("user: stored for softcode, read by elock()", async () => {
      await run(alice, "@lock/user Ghost=me", /^Locked\.\r?$/m);
      await run(alice, `think [elock(Ghost/user,me)][elock(Ghost/user,#${bobId})]`, /^10\r?$/m);
    });

    await t.step("an attribute lock: @lock <object>/<attribute> and @unlock", async () => {
      await run(alice, "&NOTE me=mine", /Set\./);
      await run(alice, "@lock me/note", /Attribute locked\./);
      await run(alice, "examine me/note", /NOTE \[\+\]: mine/);
      await run(alice, "&NOTE me=changed", /NOTE is locked; its owner unlocks it with @unlock/);
      await run(alice, "think get(me/note)", /^mine\r?$/m);
      await run(alice, "@unlock me/note", /Attribute unlocked\./);
      await run(alice, "&NOTE me=changed", /Set\./);
      // MUX: the attribute must be there; a key after = changes nothing of that.
      await run(alice, "@lock me/nothing", /Attribute not present on object/);
      await run(alice, "@lock me/note=me", /Attribute locked\./);
      // Only the attribute's owner (or staff) locks or unlocks it.
      await bobDoes(`&GIFT me=from Bob`, /Set\./);
      await run(alice, `@lock *Bob/gift`, /Permission denied/);
      await bobDoes("@lock me/gift", /Attribute locked\./);
    });
  } finally {
    for (const c of closers.reverse()) await c().catch(() => {});
    await srv.stop();
  }
});

Deno.test("lock keys by name through REST and plugin commands, as @lock takes them", async (t) => {
  const srv = await startSupervised();
  const closers: (() => Promise<void>)[] = [];
  try {
    const b = srv.base;
    const aliceToken = await register(b, "Alice");
    const aliceId = (await api(b, "GET", "/api/v1/me", undefined, aliceToken)).body.id;
    const adminToken = (await api(b, "POST", "/api/v1/auth/login", ADMIN)).body.token as string;
    const adminId = (await api(b, "GET", "/api/v1/me", undefined, adminToken)).body.id;
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    closers.push(() => admin.close());
    const badge = (await run(admin, "@create Badge", /Badge created as object #(\d+)/))[1];

    await t.step("REST: a board's locks take names as the caller sees them", async () => {
      const made = await api(b, "POST", "/api/v1/boards", {
        name: "Secret",
        readLock: "me | *Alice",
        postLock: "+Badge",
      }, adminToken);
      assertEquals(made.status, 201, JSON.stringify(made.body));
      assertEquals(made.body.readLock, `#${adminId}|#${aliceId}`);
      assertEquals(made.body.postLock, `+#${badge}`);
      const changed = await api(
        b,
        "PATCH",
        `/api/v1/boards/${made.body.id}`,
        { readLock: "=*Alice | admin+" },
        adminToken,
      );
      assertEquals(changed.status, 200, JSON.stringify(changed.body));
      assertEquals(changed.body.readLock, `=#${aliceId}|admin+`);
      // Alice passes the read lock by name.
      const read = await api(b, "GET", `/api/v1/boards/${made.body.id}`, undefined, aliceToken);
      assertEquals(read.status, 200);
    });

    await t.step("REST: bad keys are a 400 naming the field, and nothing changes", async () => {
      const none = await api(b, "POST", "/api/v1/boards", {
        name: "Nowhere",
        readLock: "Nobody Here",
      }, adminToken);
      assertEquals(none.status, 400);
      assertMatch(none.body.error, /readLock: I don't see that here\. \(Nobody Here\)/);
      const bad = await api(
        b,
        "POST",
        "/api/v1/boards",
        { name: "Broken", postLock: "((" },
        adminToken,
      );
      assertEquals(bad.status, 400);
      assertMatch(bad.body.error, /postLock: Lock syntax error/);
      const notText = await api(
        b,
        "POST",
        "/api/v1/boards",
        { name: "Odd", readLock: 12 },
        adminToken,
      );
      assertEquals(notText.status, 400);
      const list = await api(b, "GET", "/api/v1/boards", undefined, adminToken);
      const names = (list.body.items ?? list.body).map((x: { name: string }) => x.name);
      assert(!names.includes("Nowhere") && !names.includes("Broken") && !names.includes("Odd"));
    });

    await t.step("plugin commands: +bblock and @chanset take names too", async () => {
      await run(
        admin,
        "+bblock/post Secret=*Alice|me",
        new RegExp(`set to #${aliceId}\\|#${adminId}`),
      );
      await run(admin, "@chanset Public/lock=!*Alice", new RegExp(`lock is now '!#${aliceId}'`));
      await run(
        admin,
        "@chanset Public/lock=Nobody Here",
        /I don't see that here\. \(Nobody Here\)/,
      );
      await run(admin, "@chanset Public/lock=", /lock is now none/);
    });
  } finally {
    for (const c of closers.reverse()) await c().catch(() => {});
    await srv.stop();
  }
});
