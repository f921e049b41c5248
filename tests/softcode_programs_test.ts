/**
 * $-commands and listening on the whole stack, over telnet and WebSocket (docs/softcode.md,
 * "$-commands and listening"): the master room's commands work everywhere unless a local one
 * matched; built-ins come first and a unique prefix last; no_command, halt and regexp; the line
 * is matched as evaluated; a $-command that runs itself and two objects answering each other are
 * stopped by the queue; a ^-listen never hears its own output; @listen and @ahear; all of it
 * again after @reboot.
 */
import { assert, assertEquals } from "./assert.ts";
import { join } from "node:path";
import { register } from "./harness.ts";
import { ADMIN, startSupervised, telnetLogin, telnetReply } from "./supervised.ts";
import { connectWs, pacedSender } from "./ws_client.ts";

Deno.test("$-commands and listening over telnet and WebSocket", async (t) => {
  const srv = await startSupervised({ config: { queue: { chainLimit: 40 } } });
  const closers: (() => Promise<void>)[] = [];
  try {
    const bobToken = await register(srv.base, "Bob");
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    closers.push(() => admin.close());
    const ws = await connectWs(srv.ws, { token: bobToken, client: "web" });
    closers.push(() => ws.close());
    await ws.expect(/Limbo/);
    const bob = pacedSender(ws);
    const run = async (line: string, want: RegExp) => {
      const from = admin.mark();
      await admin.send(line);
      return (await admin.waitFor(want, 10_000, from))[0];
    };
    /** Bob types a line and waits for what it shows him. */
    const bobSees = async (line: string, want: RegExp) => {
      await bob(line);
      return (await ws.expect(want)).msg;
    };

    let globals = "";
    await t.step("the master room's $-commands work everywhere", async () => {
      const dug = await run("@dig Master Room", /Master Room created as room #\d+/);
      const master = /#(\d+)/.exec(dug)![1];
      const file = join(srv.dir, "config.json");
      const config = JSON.parse(await Deno.readTextFile(file));
      config.softcode = { ...config.softcode, masterRoom: `#${master}` };
      await Deno.writeTextFile(file, JSON.stringify(config));
      await run("@reload/config", /config/);
      globals = /#(\d+)/.exec(await run("@create Globals", /Globals created as object #\d+/))![1];
      await run("&cmd.ping Globals=$+ping *:@pemit %#=pong %0", /Set/);
      // As on MUX, a staff member's global object inherits its owner's powers to reach anyone.
      await run("@set Globals=inherit", /./);
      await run(`@teleport Globals=#${master}`, /./);
      await bobSees("+ping hi there", /^pong hi there$/);
      await run("+ping x", /pong x/);
    });

    await t.step(
      "a local $-command wins over the master room's; built-ins come first",
      async () => {
        await run("@create Pinger", /Pinger/);
        await run("&cmd Pinger=$+ping *:@pemit %#=local %0", /Set/);
        await run("&look Pinger=$look:@pemit %#=soft look", /Set/);
        await run("&exa Pinger=$exa:@pemit %#=soft exa", /Set/);
        await run("&sum Pinger=$+sum *:@pemit %#=sum %0", /Set/);
        await run("drop Pinger", /Dropped\./);
        await bobSees("+ping a", /^local a$/);
        assert(!(await ws.sees(/^pong a$/, 300)), "the master room answered too");
        // A built-in before a $-command, a $-command before a unique prefix (exa → examine).
        await bobSees("look", /Limbo/);
        await bobSees("exa", /^soft exa$/);
        // Matched as evaluated, as MUX does.
        await bobSees("+sum [add(1,2)]", /^sum 3$/);
      },
    );

    await t.step("no_command, halt and regexp", async () => {
      await run("@set Pinger/cmd=no_command", /./);
      await bobSees("+ping b", /^pong b$/);
      await run(`@set #${globals}=halt`, /./);
      await bobSees("+ping c", /Huh\?/);
      await run(`@set #${globals}=!halt`, /./);
      await bobSees("+ping d", /^pong d$/);
      await run("&re Pinger=$^[+]throw ([0-9]+)d([0-9]+)$:@pemit %#=dice %1 of %2", /Set/);
      await run("@set Pinger/re=regexp", /./);
      await bobSees("+throw 2d6", /^dice 2 of 6$/);
    });

    await t.step("a $-command that runs itself is stopped by the queue; others go on", async () => {
      await run("&loop Pinger=$+loop:+loop", /Set/);
      await bob("+loop");
      await admin.waitFor(/Run away objects/, 20_000);
      await bobSees("+ping e", /^pong e$/);
    });

    await t.step("listening: ^-patterns on monitor objects, not their own output", async () => {
      await run("@create Parrot", /Parrot/);
      await run("&hear Parrot=^*:@remit here=echo: %0", /Set/);
      await run("@set Parrot=monitor", /./);
      await run("drop Parrot", /Dropped\./);
      await bobSees("say hello", /^echo: Bob says, "hello"$/);
      assert(!(await ws.sees(/echo: echo:/, 500)), "the parrot heard itself");
      await run("@set Parrot=!monitor", /./);
    });

    await t.step("two objects answering each other are stopped by the queue", async () => {
      await run("@create Ping", /Ping/);
      await run("@create Pong", /Pong/);
      await run("&l Ping=^*pong*:@remit here=ping", /Set/);
      await run("&l Pong=^*ping*:@remit here=pong", /Set/);
      await run("@set Ping=monitor", /./);
      await run("@set Pong=monitor", /./);
      await run("drop Ping", /Dropped\./);
      await run("drop Pong", /Dropped\./);
      await bob("say ping");
      await admin.waitFor(/Run away objects/, 20_000);
      await bobSees("+ping f", /^pong f$/);
    });

    await t.step("@listen with @ahear and @aahear", async () => {
      await run("@create Bell", /Bell/);
      await run("@listen Bell=* rings *", /Set/);
      await run("@ahear Bell=@remit here=The bell answers %0 (%1).", /Set/);
      await run("@aahear Bell=@pemit %#=heard", /Set/);
      await run("drop Bell", /Dropped\./);
      await bobSees("pose rings the bell", /^The bell answers Bob \(the bell\)\.$/);
      await ws.expect(/^heard$/);
    });

    await t.step("after @reboot the index is built again from the stored attributes", async () => {
      await admin.send("@reboot");
      await admin.waitFor(/Your session continues/, 30_000);
      await run("+ping after", /pong after/);
      await run("+throw 3d8", /dice 3 of 8/);
    });
  } finally {
    for (const c of closers) await c();
    await srv.stop();
  }
});

Deno.test("$-commands: the use lock of each object near the player is tested once a line, first", async () => {
  // As MUX 2.12's atr_match1, before any attribute is read: on an object with no program, one
  // with a ^-listen only and one whose $-command does not match alike (checked on TinyMUX 2.12,
  // where each key counted one run a line). Before, an object with no program was passed over.
  const srv = await startSupervised();
  const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
  try {
    const run = (line: string) => telnetReply(admin, line);
    for (const name of ["Plain", "Ear", "Cmd"]) {
      assert(/created as object/.test(await run(`@create ${name}`)), name);
      await run(`drop ${name}`);
      await run(`&COUNT ${name}=[set(me,N:[add(get(me/N),1)])]1`);
      assert(/Locked/.test(await run(`@lock/use ${name}=COUNT/1`)), name);
    }
    await run("&L Ear=^*hello*:@pemit %#=heard");
    await run("&C Cmd=$foo *:@pemit %#=foo %0");
    const counts = () => run("think n=[get(Plain/N)]/[get(Ear/N)]/[get(Cmd/N)]");
    assertEquals(await counts(), "n=//");
    assert(/Huh/.test(await run("xyzzy")));
    assert(/Huh/.test(await run("xyzzy")));
    assertEquals(await counts(), "n=2/2/2");
    assertEquals(await run("foo bar"), "foo bar");
    assertEquals(await counts(), "n=3/3/3");
    // A built-in command tries no $-command: no lock is tested.
    await run("look");
    assertEquals(await counts(), "n=3/3/3");
  } finally {
    await admin.close();
    await srv.stop();
  }
});
