/**
 * link(), wipe(), destroy() and entrances() end to end, over telnet on the whole stack: a
 * builder's link() sets a home that `examine`, home() and entrances() see at once, and says what
 * @link says; another player's link(), lock() and destroy() are refused; wipe() clears as
 * @wipe; lock() sets a lock as @lock, kept through @reboot;
 * destroy() destroys as @destroy, a room on the second call; entrances() follows @open, link()
 * and destroy() through the world's indexes, and again after @reboot (read from the database).
 */
import { assertEquals } from "./assert.ts";
import { register } from "./harness.ts";
import { ADMIN, startSupervised, telnetLogin } from "./supervised.ts";

Deno.test("softcode link(), wipe(), destroy() and entrances() over telnet", async () => {
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

    /** Runs a line over telnet and answers the first match after it. */
    const run = async (who: typeof alice, line: string, want: RegExp) => {
      const from = who.mark();
      await who.send(line);
      return await who.waitFor(want, 10_000, from);
    };

    await run(admin, "@set Alice=builder", /^Set\.\r?$/m);
    const garden = (await run(alice, "@dig Garden", /Garden created as room #(\d+)/))[1];
    const widget = (await run(alice, "@create widget", /widget created as object #(\d+)/))[1];
    // link(): @link's words, and the rest of the line sees the new home.
    const linked = await run(
      alice,
      `think [link(widget,#${garden})]home [home(widget)] [entrances(#${garden})].`,
      /Home of widget\(#\d+\) changed from .* to Garden\(#\d+\)\.[\s\S]*home (#\d+) ([^.]*)\./,
    );
    assertEquals(linked.slice(1), [`#${garden}`, `#${widget}`]);
    await run(alice, `examine #${widget}`, new RegExp(`home: ${garden}\\r?$`, "m"));
    // An exit from her Porch into the garden: entrances() lists it by the destination index.
    const porch = (await run(alice, "@dig Porch", /Porch created as room #(\d+)/))[1];
    await run(alice, `@tel #${porch}`, /Porch/);
    await run(alice, `@open Gate=#${garden}`, /Opened\.\r?\nLinked\./);
    const door = (await run(alice, "think [lexits(here)]x", /(#\d+)x/))[1];
    await run(alice, `think [entrances(#${garden},e)]x`, new RegExp(`^${door}x`, "m"));
    // Bob is no builder: link() is refused before anything is matched, and nothing changes.
    await run(bob, `think [link(#${widget},here)]x`, /^#-1 PERMISSION DENIEDx/m);
    await run(alice, `think [home(#${widget})]x`, new RegExp(`^#${garden}x`, "m"));

    // wipe(): clears what matches, as @wipe; what Alice may not change of Bob's is refused.
    await run(alice, `&TEMP_A #${widget}=1`, /Set\./);
    await run(alice, `&TEMP_B #${widget}=2`, /Set\./);
    await run(alice, `&KEEP #${widget}=3`, /Set\./);
    await run(alice, `think [wipe(#${widget}/temp_*)][lattr(#${widget})]`, /Wiped\.\r?\nKEEP/);
    await run(bob, `think [wipe(#${widget})]x`, /Permission denied\.\r?\nx/);
    await run(alice, `think [lattr(#${widget})]x`, /^KEEPx/m);

    // lock() with a key sets the lock as @lock does (names become dbrefs); Bob may not.
    const aliceRef = (await run(alice, "think [num(me)]x", /(#\d+)x/))[1];
    await run(alice, `think [lock(#${widget}/enter,me)]x`, new RegExp(`^${aliceRef}x`, "m"));
    await run(bob, `think [lock(#${widget}/enter,me)]x`, /^#-1 PERMISSION DENIEDx/m);
    await run(alice, `think [lock(#${widget}/enter,nobody)]x`, /I DON'T UNDERSTAND THAT KEYx/);

    // After @reboot the indexes are built again from the database.
    await admin.send("@reboot");
    await admin.waitFor(/Your session continues/, 30_000);
    await run(
      alice,
      `think [entrances(#${garden})]x`,
      new RegExp(`^#${widget} ${door}x`, "m"),
    );
    await run(alice, `think [lock(#${widget}/enter)]x`, new RegExp(`^${aliceRef}x`, "m"));
    // destroy() is @destroy's, done after the evaluation: the widget leaves the home index.
    await run(bob, `think [destroy(${door})]x`, /^#-1 PERMISSION DENIEDx/m);
    const told = alice.mark();
    await run(alice, `think [destroy(#${widget})]x`, /^x/m);
    await alice.waitFor(/Destroyed widget\(#\d+\)\./, 10_000, told);
    await run(alice, `think [entrances(#${garden})]x`, new RegExp(`^${door}x`, "m"));
    // A room needs destroy() again within a minute; its entrances are unlinked then.
    await run(alice, `think [destroy(#${garden})]`, /cannot be undone[^\n]*repeat destroy\(\)/);
    await run(alice, `think [type(#${garden})]x`, /^ROOMx/m);
    await run(alice, `think [destroy(#${garden})]`, /Destroyed Garden\(#\d+\)\. 1 exit\(s\)/);
    await run(alice, `think [type(#${garden})]x`, /^#-1 NOT FOUNDx/m);
    await run(alice, `think [entrances(#${garden})]x`, /^#-1x/m);
    // destroy() is the building plugin's: its help is there with the built-ins'.
    await run(alice, "help destroy()", /destroy\(<object>\)[\s\S]*as @destroy does/);
  } finally {
    for (const c of closers) await c().catch(() => {});
    await srv.stop();
  }
});
