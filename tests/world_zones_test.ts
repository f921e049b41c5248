/**
 * MUX's zones over telnet (docs/softcode.md, "Zones"): `@chzone` and its rules, a zone master
 * object's `$-commands` reaching who stands in its rooms or belongs to it (before the master
 * room's), a room as zone master, what a zoned player builds starting in its zone, and
 * `zone()`, `inzone()`, `zwho()`.
 */
import { register } from "./harness.ts";
import { assertEquals } from "./assert.ts";
import { ADMIN, startSupervised, telnetLogin } from "./supervised.ts";
import { TelnetClient } from "./telnet_client.ts";
import { connectWs } from "./ws_client.ts";

/** Sends a line over telnet and waits for a reply matching `re` after it. */
async function run(t: TelnetClient, line: string, re: RegExp): Promise<RegExpMatchArray> {
  const from = t.mark();
  await t.send(line);
  return await t.waitFor(re, 10_000, from);
}

Deno.test("zones: @chzone, zone $-commands, zone(), inzone(), zwho()", async (t) => {
  const srv = await startSupervised();
  const closers: (() => Promise<void>)[] = [];
  try {
    await register(srv.base, "Alice");
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    closers.push(() => admin.close());
    await run(admin, "@set *Alice=builder", /^Set\.\r?$/m);
    const alice = await telnetLogin(srv, "Alice", "password123");
    closers.push(() => alice.close());
    const aliceId = (await run(alice, "think %#", /^#(\d+)\r?$/m))[1];

    const harbour =
      (await run(admin, "@dig/teleport Harbour", /Harbour created as room #(\d+)/))[1];
    const zmo =
      (await run(admin, "@create Harbour Zone", /Harbour Zone created as object #(\d+)/))[1];
    await run(admin, "&CMD_TIDE Harbour Zone=$+tide:@pemit %#=The tide is high.", /Set\./);
    // It @pemits whoever types +tide wherever that is: an inherit object of staff, as a
    // game's global objects are.
    await run(admin, "@set Harbour Zone=inherit", /^Set\.\r?$/m);

    await t.step("a room's zone master offers its $-commands there only", async () => {
      await run(admin, "@chzone here=Harbour Zone", /Zone changed\./);
      await run(admin, "think zone(here)", new RegExp(`^#${zmo}\\r?$`, "m"));
      await run(admin, `@tel Alice=#${harbour}`, /^Teleported\.\r?$/m);
      await run(alice, "+tide", /The tide is high\./);
      await run(admin, "@tel Alice=#1", /^Teleported\.\r?$/m);
      await run(alice, "+tide", /Huh\?/);
      await run(admin, "think inzone(Harbour Zone)", new RegExp(`^#${harbour}\\r?$`, "m"));
    });

    await t.step("who may @chzone what, with MUX's words", async () => {
      await run(alice, `@chzone me=#${zmo}`, /You cannot move that object to that zone\./);
      await run(alice, `@chzone #${harbour}=none`, /You don't have the power to shift reality\./);
      await run(alice, "@chzone me=Nowhere", /I don't see that here/);
      const dock = (await run(admin, "@dig Dock", /Dock created as room #(\d+)/))[1];
      await run(admin, `@chzone Harbour Zone=#${dock}`, /Only rooms may be zoned to other rooms\./);
    });

    await t.step("a player's own zone: its $-commands anywhere, what it builds", async () => {
      const mine =
        (await run(alice, "@create Alice Zone", /Alice Zone created as object #(\d+)/))[1];
      await run(alice, "&CMD_MINE Alice Zone=$+mine:@pemit %#=Mine, all mine.", /Set\./);
      await run(alice, "@chzone me=Alice Zone", /Zone changed\./);
      await run(alice, "think zone(me)", new RegExp(`^#${mine}\\r?$`, "m"));
      await run(alice, "think zwho(Alice Zone)", new RegExp(`^#${aliceId}\\r?$`, "m"));
      await run(admin, `@tel Alice=#${harbour}`, /^Teleported\.\r?$/m);
      // The room's zone answers first, then the player's.
      await run(alice, "+tide", /The tide is high\./);
      await run(alice, "+mine", /Mine, all mine\./);
      await run(alice, "@create Widget", /Widget created as object/);
      await run(alice, "think zone(Widget)", new RegExp(`^#${mine}\\r?$`, "m"));
      await run(alice, "@chzone Widget=none", /Zone changed\./);
      await run(alice, "think zone(Widget)", /^#-1\r?$/m);
      await run(alice, `think inzone(#${zmo})`, /#-1 PERMISSION DENIED/);
    });

    await t.step("a room as zone master (MUX's parent room): what is in it answers", async () => {
      const hall = (await run(admin, "@dig Zone Hall", /Zone Hall created as room #(\d+)/))[1];
      const lane = (await run(admin, "@dig Lane", /Lane created as room #(\d+)/))[1];
      await run(admin, "@create Bell", /Bell created as object/);
      await run(admin, "&CMD_BELL Bell=$+bell:@pemit %#=Ding.", /Set\./);
      await run(admin, "@set Bell=inherit", /^Set\.\r?$/m);
      await run(admin, `@tel Bell=#${hall}`, /^Teleported\.\r?$/m);
      await run(admin, `@chzone #${lane}=#${hall}`, /Zone changed\./);
      await run(admin, `@tel Alice=#${lane}`, /^Teleported\.\r?$/m);
      await run(alice, "+bell", /Ding\./);
    });
  } finally {
    for (const c of closers.reverse()) await c().catch(() => {});
    await srv.stop();
  }
});

Deno.test("zones: whoever passes a zone master's enter lock controls its zone", async (t) => {
  const srv = await startSupervised();
  const closers: (() => Promise<void>)[] = [];
  try {
    await register(srv.base, "Alice");
    const bobToken = await register(srv.base, "Bob");
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    closers.push(() => admin.close());
    const alice = await telnetLogin(srv, "Alice", "password123");
    closers.push(() => alice.close());
    const bob = await telnetLogin(srv, "Bob", "password123");
    closers.push(() => bob.close());
    const aliceId = (await run(alice, "think %#", /^#(\d+)\r?$/m))[1];
    const zmo =
      (await run(admin, "@create Workshop Zone", /Workshop Zone created as object #(\d+)/))[1];
    const lathe = (await run(admin, "@create Lathe", /Lathe created as object #(\d+)/))[1];
    const shed = (await run(admin, "@dig Shed", /Shed created as room #(\d+)/))[1];
    await run(admin, `@chzone #${lathe}=#${zmo}`, /Zone changed\./);
    await run(admin, `@chzone #${shed}=#${zmo}`, /Zone changed\./);

    await t.step("a zone master without an enter lock gives no control", async () => {
      await run(alice, `think controls(me,#${lathe})`, /^0\r?$/m);
      await run(alice, `@describe #${lathe}=Mine now.`, /Permission denied\./);
    });

    await t.step("the enter lock's key controls the zone's things and rooms", async () => {
      await run(admin, `@lock/enter #${zmo}=#${aliceId}`, /Locked/);
      await run(alice, `think controls(me,#${lathe})`, /^1\r?$/m);
      await run(alice, `@describe #${lathe}=A fine lathe.`, /Set\./);
      await run(alice, `&NOTE #${lathe}=oiled`, /Set\./);
      await run(alice, `think get(#${lathe}/NOTE)`, /^oiled\r?$/m);
      await run(alice, `@describe #${shed}=A zoned shed.`, /Set\./);
      await run(alice, `examine #${lathe}`, /NOTE.*oiled/);
      await run(alice, `think zone(#${lathe})`, new RegExp(`^#${zmo}\\r?$`, "m"));
      // Whoever fails the lock gains nothing; the zone master itself is not in its zone.
      await run(bob, `think controls(me,#${lathe})`, /^0\r?$/m);
      await run(bob, `@describe #${lathe}=Bob's.`, /Permission denied\./);
      await run(alice, `think controls(me,#${zmo})`, /^0\r?$/m);
    });

    await t.step("never a player, an inherit object or staff", async () => {
      await run(admin, "@chzone *Bob=Workshop Zone", /Zone changed\./);
      await run(alice, "think controls(me,*Bob)", /^0\r?$/m);
      await run(alice, "@describe *Bob=Puppet.", /Permission denied\./);
      await run(admin, `@set #${lathe}=inherit`, /^Set\.\r?$/m);
      await run(alice, `think controls(me,#${lathe})`, /^0\r?$/m);
      await run(admin, `@set #${lathe}=!inherit`, /^Cleared\.\r?$/m);
      await run(alice, `think controls(me,#${lathe})`, /^1\r?$/m);
      // Nor may the zone's controller set inherit: the wizard's lathe would then run what Alice
      // writes on it with the wizard's powers.
      await run(alice, `@set #${lathe}=inherit`, /Only the owner may set or clear inherit\./);
      await run(alice, `think hasflag(#${lathe},inherit)`, /^0\r?$/m);
    });

    await t.step("through a chain of zone masters, bounded, a cycle too", async () => {
      const inner =
        (await run(admin, "@create Inner Zone", /Inner Zone created as object #(\d+)/))[1];
      const vice = (await run(admin, "@create Vice", /Vice created as object #(\d+)/))[1];
      await run(admin, `@chzone #${vice}=#${inner}`, /Zone changed\./);
      // Inner Zone has no enter lock: its own zone master's is asked.
      await run(alice, `think controls(me,#${vice})`, /^0\r?$/m);
      await run(admin, `@chzone #${inner}=#${zmo}`, /Zone changed\./);
      await run(alice, `think controls(me,#${vice})`, /^1\r?$/m);
      // Two zone masters zoned to each other, neither locked to Alice: refused, at once.
      const a = (await run(admin, "@create Loop A", /Loop A created as object #(\d+)/))[1];
      const b = (await run(admin, "@create Loop B", /Loop B created as object #(\d+)/))[1];
      await run(admin, `@chzone #${a}=#${b}`, /Zone changed\./);
      await run(admin, `@chzone #${b}=#${a}`, /Zone changed\./);
      await run(admin, `@lock/enter #${a}=#1`, /Locked/);
      await run(admin, `@lock/enter #${b}=#1`, /Locked/);
      await run(alice, `think controls(me,#${a})`, /^0\r?$/m);
      // A lock that changes takes effect at once: nothing is cached.
      await run(admin, `@lock/enter #${b}=#${aliceId}`, /Locked/);
      await run(alice, `think controls(me,#${a})`, /^1\r?$/m);
      await run(admin, `@unlock/enter #${zmo}`, /Unlocked/);
      await run(alice, `think controls(me,#${lathe})`, /^0\r?$/m);
    });

    await t.step("zfun() and the zone lists, with MUX's arguments and permissions", async () => {
      const guild = (await run(admin, "@create Guild", /Guild created as object #(\d+)/))[1];
      await run(admin, "&GREET Guild=Hello %0, from [name(me)] to [name(%@)].", /Set\./);
      await run(admin, "@chzone *Alice=Guild", /Zone changed\./);
      // The zone master's attribute is its owner's to read until it is visual (MUX's See_attr).
      await run(alice, "think zfun(greet,Alice)", /^#-1 PERMISSION DENIED\r?$/m);
      await run(admin, "@set Guild/GREET=visual", /Set\./);
      await run(alice, "think zfun(greet,Alice)", /^Hello Alice, from Guild to Alice\.\r?$/m);
      await run(admin, "@chzone *Bob=none", /Zone changed\./);
      await run(bob, "think zfun(greet,Bob)", /^#-1 INVALID ZONE\r?$/m);
      await run(bob, "think zfun(*Alice/greet,Bob)", /^Hello Bob, from Guild to Bob\.\r?$/m);
      await run(alice, "think zfun(greet)", /^#-1 FUNCTION \(ZFUN\) EXPECTS BETWEEN 2 AND 11/m);
      await run(alice, "think [zfun(nosuch,x)]!", /^!\r?$/m);

      const hall = (await run(admin, "@dig Guildhall", /Guildhall created as room #(\d+)/))[1];
      const anvil = (await run(admin, "@create Anvil", /Anvil created as object #(\d+)/))[1];
      await run(admin, "@open Guild Door=#1", /Linked\./);
      const door = (await run(admin, "think [locate(me,Guild Door,e)]", /^#(\d+)\r?$/m))[1];
      for (const id of [hall, anvil, door]) {
        await run(admin, `@chzone #${id}=Guild`, /Zone changed\./);
      }
      const all = [aliceId, hall, anvil, door].sort((a, b) => Number(a) - Number(b));
      const line = (ids: string[]) => new RegExp(`^${ids.map((i) => `#${i}`).join(" ")}\\r?$`, "m");
      await run(admin, "think zchildren(Guild)", line(all));
      await run(admin, "think zrooms(Guild)", line([hall]));
      await run(admin, "think zthings(Guild)", line([anvil]));
      await run(admin, "think zexits(Guild)", line([door]));
      await run(admin, "think zwho(Guild)", line([aliceId]));
      // Only the zone master's controller (or staff) may list its zone.
      await run(alice, `think zchildren(#${guild})`, /^#-1 PERMISSION DENIED\r?$/m);
      await run(alice, `think zexits(#${guild})`, /^#-1 PERMISSION DENIED\r?$/m);
      await run(alice, "think zthings(#99999)", /^#-1/m);
    });

    await t.step("a zone master's @aconnect and @adisconnect, after the player's own", async () => {
      /** Waits until `expr`, thought by the admin, gives `want`. */
      const until = async (expr: string, want: string) => {
        let got = "";
        for (let i = 0; i < 50 && got !== want; i++) {
          if (i) await new Promise((r) => setTimeout(r, 100));
          got = (await run(admin, `think got=${expr}`, /^got=(.*?)\r?$/m))[1];
        }
        assertEquals(got, want);
      };
      // A thing as zone master: its own attributes run.
      await run(admin, "@create Port Zone", /Port Zone created as object/);
      await run(admin, "@aconnect Port Zone=@pemit %#=The port knows [name(%#)].", /Set\./);
      await run(admin, "@adisconnect Port Zone=think [set(me,LEFT:[name(%#)])]", /Set\./);
      // It @pemits whoever connects wherever that is: a staff member's inherit object.
      await run(admin, "@set Port Zone=inherit", /^Set\.\r?$/m);
      const harbour = (await run(admin, "@dig Harbour", /Harbour created as room #(\d+)/))[1];
      await run(admin, `@chzone #${harbour}=Port Zone`, /Zone changed\./);
      // A room as zone master (MUX's parent room): what is in it runs theirs.
      const hall = (await run(admin, "@dig Port Hall", /Port Hall created as room #(\d+)/))[1];
      const quay = (await run(admin, "@dig Quay", /Quay created as room #(\d+)/))[1];
      await run(admin, `@chzone #${quay}=#${hall}`, /Zone changed\./);
      const bell = (await run(admin, "@create Bell", /Bell created as object #(\d+)/))[1];
      await run(admin, "@aconnect Bell=think [set(me,SEEN:[name(%#)])]", /Set\./);
      await run(admin, "@adisconnect Bell=think [set(me,LEFT:[name(%#)])]", /Set\./);
      await run(admin, `@tel Bell=#${hall}`, /^Teleported\.\r?$/m);

      await run(bob, "@aconnect me=@pemit me=Welcome home.", /Set\./);
      await run(admin, `@tel *Bob=#${harbour}`, /^Teleported\.\r?$/m);
      await bob.close();
      await until("[get(Port Zone/LEFT)]", "Bob");
      // Over WebSocket, and a second connection over telnet: the player's own first, then the
      // zone master's, each time.
      const ws = await connectWs(srv.ws, { token: bobToken, client: "web" });
      closers.push(() => ws.close());
      await ws.expect(/^Welcome home\.$/);
      await ws.expect(/^The port knows Bob\.$/);
      const tel = await TelnetClient.connect(srv.telnet);
      closers.push(() => tel.close());
      await tel.waitFor(/connect <name>/);
      await tel.send("connect Bob password123");
      await tel.waitFor(/Welcome home\.[\s\S]*The port knows Bob\./);
      // A room's zone master: nothing of the Port Zone's, the Bell's when the last one goes.
      await run(admin, "&LEFT Port Zone=", /Cleared|Set/);
      await run(admin, `@tel *Bob=#${quay}`, /^Teleported\.\r?$/m);
      await tel.close();
      await ws.close();
      await until(`[get(#${bell}/LEFT)]`, "Bob");
      await run(admin, "think got=[get(Port Zone/LEFT)]", /^got=\r?$/m);
      const again = await connectWs(srv.ws, { token: bobToken, client: "web" });
      closers.push(() => again.close());
      await again.expect(/^Welcome home\.$/);
      await until(`[get(#${bell}/SEEN)]`, "Bob");
    });
  } finally {
    for (const c of closers.reverse()) await c().catch(() => {});
    await srv.stop();
  }
});

Deno.test("zones: a zone lock that asks for control of its own zone ends", async () => {
  const srv = await startSupervised();
  const closers: (() => Promise<void>)[] = [];
  try {
    await register(srv.base, "Alice");
    await register(srv.base, "Bob");
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    closers.push(() => admin.close());
    const alice = await telnetLogin(srv, "Alice", "password123");
    closers.push(() => alice.close());
    const bob = await telnetLogin(srv, "Bob", "password123");
    closers.push(() => bob.close());
    await run(admin, "@set *Bob=builder", /^Set\.\r?$/m);
    // Bob's zone master's lock evaluates CHECK, which asks for control of a thing in the zone,
    // which evaluates the lock again, twenty times a level: ended by the lock nesting limit and
    // the softcode budgets (the lock's owner pays), the engine answering throughout.
    const trap = (await run(bob, "@create Trap Zone", /Trap Zone created as object #(\d+)/))[1];
    const bait = (await run(bob, "@create Bait", /Bait created as object #(\d+)/))[1];
    await run(bob, `@chzone #${bait}=#${trap}`, /Zone changed\./);
    await run(bob, `&CHECK #${trap}=[iter(lnum(20),controls(%#,#${bait}))]`, /Set\./);
    await run(bob, `@lock/enter #${trap}=CHECK/1`, /Locked/);
    await run(alice, `think c=[controls(me,#${bait})]`, /^c=0\r?$/m);
    await run(alice, "think [add(1,1)] still here", /^2 still here\r?$/m);
    await run(admin, "think [add(2,2)] here too", /^4 here too\r?$/m);
  } finally {
    for (const c of closers.reverse()) await c().catch(() => {});
    await srv.stop();
  }
});
