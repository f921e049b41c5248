/**
 * The game's state as softcode reads it, end to end on the whole stack (supervisor, engine,
 * sidecar) over telnet: restarts() counts the supervisor's restarts of the engine while
 * starttime() stays at the first start; stats() counts what @stats counts; config() shows a
 * mortal MUX's public parameters and not the wizard ones; motd() is the login message @site sets
 * (docs/softcode.md, "Differences from MUX 2.12").
 */
import { assert, assertEquals } from "./assert.ts";
import { register } from "./harness.ts";
import { ADMIN, startSupervised, telnetLogin, telnetReply } from "./supervised.ts";

Deno.test("game state: restarts(), stats(), config() and motd() through a real @reboot", async () => {
  const srv = await startSupervised({ args: ["--max-delay", "1000"] });
  const closers: (() => Promise<void>)[] = [];
  try {
    await register(srv.base, "Bob", "bob-password-1");
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    closers.push(() => admin.close());
    const state = async () => {
      const line = await telnetReply(
        admin,
        "think state=[restarts()] [startsecs()] [restartsecs()] [dumping()]",
      );
      const m = /state=(\d+) (\d+) (\d+) ([01])/.exec(line);
      assert(m, line);
      return { restarts: +m[1], start: +m[2], restart: +m[3], dumping: m[4] };
    };
    const first = await state();
    assertEquals(first.restarts, 0);
    assertEquals(first.restart, first.start, "the first run's start is the game's");
    assertEquals(first.dumping, "0");

    // stats() is @stats/all's count, by the same code.
    await telnetReply(admin, "@create Widget");
    const statsLine = await telnetReply(admin, "@stats/all");
    const m = /(\d+) objects = (\d+) rooms, (\d+) exits, (\d+) things, (\d+) players/.exec(
      statsLine,
    );
    assert(m, statsLine);
    assertEquals(
      await telnetReply(admin, "think stats(all)"),
      `${m[1]} ${m[2]} ${m[3]} ${m[4]} ${m[5]} 0`,
    );

    await telnetReply(admin, "@site game.loginMessage=Back at noon.");
    await new Promise((r) => setTimeout(r, 1100)); // so the next start is a later second
    await admin.send("@reboot");
    await admin.waitFor(/Your session continues/, 30_000);
    const second = await state();
    assertEquals(second.restarts, 1);
    assertEquals(second.start, first.start, "starttime() stays at the first start");
    assert(second.restart > first.restart, `restartsecs() moved: ${JSON.stringify(second)}`);

    const bob = await telnetLogin(srv, "Bob", "bob-password-1");
    closers.push(() => bob.close());
    assertEquals(await telnetReply(bob, "think motd()"), "Back at noon.");
    assertEquals(
      await telnetReply(
        bob,
        "think [config(mud_name)]|[config(master_room)]|[config(sql_password)]",
      ),
      `${await telnetReply(bob, "think mudname()")}|#-1 PERMISSION DENIED|#-1 NO MATCH`,
    );
    assertEquals(await telnetReply(bob, "think stats(me)"), "1 0 0 0 1 0");
    assert(/^Permission denied\.\r?\n#-1 ERROR GETTING STATS$/.test(
      await telnetReply(bob, `think stats(${ADMIN.name})`),
    ));
    assertEquals(await telnetReply(bob, "think restarts()"), "1");
  } finally {
    for (const c of closers) await c().catch(() => {});
    await srv.stop();
  }
});
