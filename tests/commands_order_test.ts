/**
 * The command order (docs/commands.md, "Which command runs") on the whole stack, over telnet and
 * WebSocket: a system script before an exit, an exit before a built-in; a plugin turned off
 * (`plugins.boards.enabled: false`) and shipped scripts turned off (`scripts.disabled`) leave no
 * command and no help behind; `@commands` and `@script/list` say which layer answers a name.
 */
import { assert } from "./assert.ts";
import { join, resolve } from "node:path";
import { register } from "./harness.ts";
import { ADMIN, startSupervised, telnetLogin } from "./supervised.ts";
import { connectWs } from "./ws_client.ts";

const SHIPPED = resolve(new URL(".", import.meta.url).pathname, "../system/scripts");

Deno.test("command order: scripts, exits, built-ins; what is turned off leaves no trace", async () => {
  // The game's scripts: the shipped +who and +finger (turned off) and a `north` of the owner's.
  const scripts = await Deno.makeTempDir({ prefix: "ursamu-order-scripts-" });
  for (const f of ["+who.ts", "+finger.ts", "+roll.ts", "sdk.d.ts"]) {
    await Deno.copyFile(join(SHIPPED, f), join(scripts, f));
  }
  await Deno.writeTextFile(
    join(scripts, "sing.ts"),
    `export const help = "sing: the owner's song.";\nexport default (u) => u.send("The script sings.");\n`,
  );
  const srv = await startSupervised({
    config: {
      plugins: { boards: { enabled: false } },
      scripts: { dir: scripts, disabled: ["+who", "+FINGER"] },
    },
  });
  const closers: (() => Promise<void>)[] = [];
  try {
    const bobToken = await register(srv.base, "Bob");
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    closers.push(() => admin.close());
    const bob = await connectWs(srv.ws, { token: bobToken, client: "web" });
    closers.push(() => bob.close());
    await bob.expect(/Limbo/);
    const run = async (line: string, want: RegExp) => {
      const from = admin.mark();
      await admin.send(line);
      await admin.waitFor(want, 10_000, from);
      // deno-lint-ignore no-control-regex
      return admin.text.slice(from).replace(/\x1b\[[0-9;]*m/g, ""); // the text as shown
    };

    // An exit named like the script and one named like a built-in.
    await run("@dig Garden", /Garden/);
    await run("@open sing=Garden", /Linked\./);
    await run("@open inventory=Garden", /Linked\./);
    // The script answers before the exit; the exit before the built-in.
    await run("sing", /The script sings\./);
    bob.send("inventory");
    await bob.expect(/Garden/);
    bob.send("@commands sing");
    await bob.expect(/Permission denied\./);

    // The plugin turned off: no command, no help, nothing in @commands.
    bob.send("+bbread");
    await bob.expect(/Huh\?/);
    bob.send("help +bbread");
    await bob.expect(/No help for '\+bbread'/);
    // Shipped scripts turned off: the same; +roll, not turned off, still answers.
    bob.send("+who");
    await bob.expect(/Huh\?/);
    bob.send("help +finger");
    await bob.expect(/No help for '\+finger'/);
    bob.send("+roll 1d6");
    await bob.expect(/rolls 1d6/);
    const index = await run("help", /help <topic>/i);
    assert(!/\+bbread|\+finger|\+who\b/.test(index), index);

    const who = await run("@commands +who", /Nothing answers/);
    assert(/1\. system script\s+-/.test(who), who);
    await run("@commands sing", /1\. system script\s+sing \(system\/scripts\)\s+<- runs/);
    const through = await run("@commands inventory", /Also registered|unique prefix/);
    assert(/2\. exit here\s+inventory\(#\d+\)\s+<- runs/.test(through), through);
    assert(/3\. built-in\s+inventory \(core\)/.test(through), through);
    await run("@commands exa", /5\. unique prefix\s+examine \(core\)\s+<- runs/);
    const list = await run("@script/list", /script\(s\)/);
    assert(/\+finger\s+off \(scripts\.disabled\)/.test(list), list);
    assert(/\+who\s+off \(scripts\.disabled\)/.test(list), list);
    assert(/\+roll\s+loaded/.test(list), list);
  } finally {
    for (const c of closers) await c();
    await srv.stop();
    await Deno.remove(scripts, { recursive: true });
  }
});

Deno.test("command order: commands.disabled turns a core command off for a softcode one, and @reload/config brings it back", async () => {
  const srv = await startSupervised({
    config: { commands: { disabled: ["+where", "quit", "+nosuch"] } },
  });
  const closers: (() => Promise<void>)[] = [];
  try {
    // Said once at load: what stays on, and what is no core command.
    await srv.waitFor(/commands\.disabled: 'quit' stays on; the game cannot run without it/);
    await srv.waitFor(/commands\.disabled: '\+nosuch' is no core command/);
    const bobToken = await register(srv.base, "Bob");
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    closers.push(() => admin.close());
    const bob = await connectWs(srv.ws, { token: bobToken, client: "web" });
    closers.push(() => bob.close());
    await bob.expect(/Limbo/);
    const run = async (line: string, want: RegExp) => {
      const from = admin.mark();
      await admin.send(line);
      await admin.waitFor(want, 10_000, from);
      // deno-lint-ignore no-control-regex
      return admin.text.slice(from).replace(/\x1b\[[0-9;]*m/g, "");
    };
    // A softcode +where of the owner's, in the room.
    await run("@create Where Box", /created as object/);
    await run("&CMD Where Box=$+where:@pemit %#=Softcode knows where.", /Set\./);
    await run("drop Where Box", /drop/i);

    bob.send("+where");
    await bob.expect(/Softcode knows where\./);
    bob.send("help +where");
    await bob.expect(/No help for '\+where'/);
    // The file's alias `where` is gone with it: the function where() answers instead.
    bob.send("help where");
    await bob.expect(/help: where\(\)/);
    const which = await run("@commands +where", /turned off/);
    assert(/3\. built-in\s+-/.test(which), which);
    assert(/4\. \$-commands\s+Where Box\(#\d+\)\/CMD\s+<- runs/.test(which), which);
    assert(/The core command \+where is turned off \(commands\.disabled\)/.test(which), which);
    // `quit` was not turned off: it still ends a session (the hub answers it first anyway).

    // The list emptied and re-read: the core +where answers first again, with its help.
    const file = join(srv.dir, "config.json");
    const cfg = JSON.parse(await Deno.readTextFile(file));
    cfg.commands = { disabled: ["who"] };
    await Deno.writeTextFile(file, JSON.stringify(cfg));
    const reload = await run("@reload/config", /config\s+\S+/);
    assert(/core commands off: who/.test(reload), reload);
    bob.send("+where");
    await bob.expect(/players? in \d+ places?\./);
    bob.send("help +where");
    await bob.expect(/connected players are, grouped by place/);
    bob.send("who");
    await bob.expect(/Huh\?/);
  } finally {
    for (const c of closers) await c();
    await srv.stop();
  }
});
