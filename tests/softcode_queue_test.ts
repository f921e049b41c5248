/**
 * The command queue end to end, on the whole stack, over telnet and WebSocket: @trigger, @force,
 * @wait (timed and semaphore), @notify, @ps, @halt, @switch/@dolist order; an object's output
 * reaching the room with no connection behind it; a runaway loop stopped and reported; waits of
 * a second or more surviving @reboot and a full stop, and running once.
 */
import { assert, assertEquals } from "./assert.ts";
import { register } from "./harness.ts";
import { startHeldGame } from "./held_restart.ts";
import { ADMIN, count, startSupervised, telnetLogin } from "./supervised.ts";
import { connectWs } from "./ws_client.ts";
import type { TelnetClient } from "./telnet_client.ts";

/** Runs a line over telnet and returns the text after it, up to what matched `want`. */
async function run(t: TelnetClient, line: string, want: RegExp, ms = 10_000): Promise<string> {
  const from = t.mark();
  await t.send(line);
  await t.waitFor(want, ms, from);
  return t.plain.slice(from);
}

Deno.test("queue over telnet and WebSocket: objects act, waits and semaphores, limits", async (t) => {
  const srv = await startSupervised({ config: { queue: { chainLimit: 200 } } });
  const closers: (() => Promise<void>)[] = [];
  try {
    const bobToken = await register(srv.base, "Bob");
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    closers.push(() => admin.close());
    const bob = await connectWs(srv.ws, { token: bobToken, client: "web" });
    closers.push(() => bob.close());
    await bob.expect(/Limbo/);
    const made = await run(admin, "@create Box", /Box created as object #(\d+)/);
    const box = /#(\d+)/.exec(made)![1];
    await run(admin, "drop Box", /Dropped\./);

    await t.step("@trigger runs an attribute as the object; its room hears it", async () => {
      await run(
        admin,
        "&greet box=@pemit %#=Hi %0 from %!.;@remit here=Box chimes for %0.",
        /Set\./,
      );
      await run(admin, "@trigger box/greet=Admin", new RegExp(`Hi Admin from #${box}\\.`));
      const heard = await bob.expect(/Box chimes for Admin\./);
      assertEquals(heard.msg, "Box chimes for Admin.");
    });

    await t.step("@force makes the object act, with no connection behind it", async () => {
      // Evaluated by the forcer first (as MUX does), so the object's own name() is escaped.
      await run(
        admin,
        "@force box=@remit here=Forced \\[name(me)\\] by %n.",
        /Forced Box by Admin\./,
      );
      await bob.expect(/Forced Box by Admin\./);
      // A command of the object's own, with no connection: the room hears the object say it.
      await run(admin, "@force box=say Hello from inside.", /Box says, "Hello from inside\."/);
      await bob.expect(/Box says, "Hello from inside\./);
      bob.send(`@force #${box}=@remit here=Bob's try`);
      await bob.expect(/Permission denied\./);
    });

    await t.step(
      "the queue keeps MUX's order: @switch, @dolist and @wait 0 run after",
      async () => {
        const out = await run(
          admin,
          "@force me={@switch 1=1,think 3rd;think 1st;@dolist a b=think ##;@wait 0=think last}",
          /last/,
        );
        assert(/1st[\s\S]*3rd[\s\S]*a[\s\S]*b[\s\S]*last/.test(out), JSON.stringify(out));
      },
    );

    await t.step("semaphores over WebSocket: @wait, @ps, @notify", async () => {
      bob.send("@wait me=think released");
      bob.send("@ps");
      const ps = await bob.expect(/Semaphore Queue:/);
      assert(/Bob\(#\d+\):think released/.test(ps.msg), ps.msg);
      bob.send("@notify me");
      await bob.expect(/Notified\./);
      await bob.expect(/^released$/);
    });

    await t.step(
      "link_ok: another's object's semaphore is anyone's to use (MUX's rule)",
      async () => {
        bob.send(`@wait #${box}=think linked`);
        await bob.expect(/^Permission denied\.$/);
        // Before: "I do not understand that flag.", though the semaphores asked for it.
        await run(admin, "@set box=link_ok", /Set\./);
        await run(admin, "think [flags(box)]|[hasflag(box,link_ok)]", /^L\|1$/m);
        bob.send(`@wait #${box}=think linked`);
        bob.send(`@notify #${box}`);
        await bob.expect(/Notified\./);
        await bob.expect(/^linked$/);
      },
    );

    await t.step("@halt removes waiting entries at once", async () => {
      await admin.send("@wait 60=think never");
      const ps = await run(admin, "@ps", /Your limit: 1 of \d+\./);
      assert(/\[\d+\]\[\d+\]Admin\(#\d+\):think never/.test(ps), ps);
      await run(admin, "@halt", /1 queue entry removed\./);
      await run(admin, "@ps/summary", /Wait Queue\.\.\.\[0\/0\]/);
      // A wait past any real date is refused with the limit (it was a timer's internal error).
      await run(admin, "@wait 1e308=think never", /A wait may be at most 315360000 seconds/);
      await run(admin, "@ps/summary", /Wait Queue\.\.\.\[0\/0\]/);
    });

    await t.step("each queue command has its help", async () => {
      for (const c of ["@trigger", "@wait", "@notify", "@dolist", "@ps", "@halt", "@break"]) {
        await run(admin, `help ${c}`, new RegExp(`${c}\\[?/?`));
      }
      await run(admin, "help semaphores", /Limits[\s\S]*100 entries waiting/);
      bob.send("help @switch");
      await bob.expect(/<string>=<pattern1>,<action1>/);
    });

    await t.step("a self-triggering loop is stopped and reported; play goes on", async () => {
      await run(admin, "&loop box=@trigger me/loop", /Set\./);
      await run(
        admin,
        "@trigger/quiet box/loop",
        /Run away objects: Box\(#\d+\) ran 200 queue entries in a chain/,
        20_000,
      );
      bob.send("think still here");
      await bob.expect(/still here/);
      await run(admin, "@ps/summary", /Queue\.\.\.\[0\/0\]/);
    });

    await t.step(
      "over WebSocket: @wait 0 in a loop is stopped; @dolist past the limit refused",
      async () => {
        bob.send("&tick me=@wait 0=@trigger me/tick");
        await bob.expect(/^Set\.$/);
        bob.send("@trigger/quiet me/tick");
        await bob.expect(/Run away objects: Bob\(#\d+\) ran 200 queue entries in a chain/, 20_000);
        bob.send("@dolist [lnum(100000)]=think ##");
        await bob.expect(
          /^@dolist: \d+ items would pass your queue limit \(100 entries, 100 free\)/,
        );
        bob.send("@ps");
        await bob.expect(/Your limit: 0 of 100\./);
      },
    );

    await t.step("two objects triggering each other are stopped and reported", async () => {
      const echo =
        /#(\d+)/.exec(await run(admin, "@create Echo", /Echo created as object #\d+/))![1];
      await run(admin, `&ping box=@trigger #${echo}/pong`, /Set\./);
      await run(admin, `&pong #${echo}=@trigger #${box}/ping`, /Set\./);
      await run(
        admin,
        "@trigger/quiet box/ping",
        /Run away objects: (Box|Echo)\(#\d+\) ran 200 queue entries in a chain/,
        20_000,
      );
    });
  } finally {
    for (const c of closers.reverse()) await c().catch(() => {});
    await srv.stop();
  }
});

Deno.test("queue: a wait of a second or more survives @reboot and a full stop, and runs once", async () => {
  let srv = await startSupervised({ args: ["--max-delay", "1000"] });
  let dir = srv.dir;
  try {
    let admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    /** Asks for an attribute until it reads `want` (a wait due at start runs as it starts). */
    const until = async (attr: string, want: string) => {
      const re = new RegExp(`${attr}=(\\d*)(?!\\d)`);
      let got = "";
      for (let i = 0; i < 100 && got !== want; i++) {
        if (i) await new Promise((r) => setTimeout(r, 200));
        got = re.exec(await run(admin, `think ${attr}=[get(me/${attr})]`, re))?.[1] ?? "";
      }
      assertEquals(got, want);
    };
    // Across @reboot: due a few seconds out, after the engine has gone and come back.
    await admin.send("@wait 3=think [set(me,rb:[add(get(me/rb),1)])]");
    await admin.send("@reboot");
    await admin.waitFor(/Your session continues/, 30_000);
    await until("rb", "1");
    await admin.send("@reboot");
    await admin.waitFor(/Your session continues[\s\S]*Your session continues/, 30_000);
    await until("rb", "1");
    assertEquals(count(admin.text, /Your session continues/), 2);

    // Across a full stop: due while nothing runs; it runs once at the next start.
    await run(admin, "&count me=0", /Set\./);
    await admin.send("@wait 2=think [set(me,count:[add(get(me/count),1)])]");
    await run(admin, "@ps", /Wait Queue:[\s\S]*think \[set\(me,count/);
    await admin.close();
    await srv.stop({ keepDir: true });
    await new Promise((r) => setTimeout(r, 2500));
    srv = await startSupervised({ dir, args: ["--max-delay", "1000"] });
    dir = srv.dir;
    admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    await until("count", "1");
    await admin.close();
    await srv.stop({ keepDir: true });
    srv = await startSupervised({ dir, args: ["--max-delay", "1000"] });
    admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    await until("count", "1");
    await admin.close();
  } finally {
    await srv.stop();
  }
});

Deno.test("queue: a wait that comes due during @reboot @pemits a telnet player after the resume", async () => {
  const game = await startHeldGame();
  try {
    const admin = await telnetLogin(game.srv, ADMIN.name, ADMIN.password);
    // Far enough out for a loaded machine's @reboot to reach the sidecar's notice first.
    const due = Date.now() + 8000;
    await admin.send("@wait 8=@pemit me=Woken inside the restart.");
    await game.rebootThrough(admin, due);
    await admin.waitFor(/Your session continues/, 30_000);
    await admin.waitFor(/Woken inside the restart\./, 15_000);
    assertEquals(count(admin.plain, /Woken inside the restart/), 1);
    await admin.close();
  } finally {
    await game.close();
  }
});
